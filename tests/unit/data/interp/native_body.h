// Integer and control-flow test cases, written once and compiled both as OpenCL C (native.cl ->
// SPIR-V at -O0 and -O2, run by the interpreter) and as C++ (test_interp_native.cpp, run natively).
// Every case function takes (long x, long y, int z) and writes its NAT_*_NO results to o[].
//
// Only the common subset of OpenCL C and C++ is used, with no undefined behaviour on either side:
// arithmetic that may overflow is done on unsigned types, divisions are guarded, shift amounts are
// masked below the width, and left shifts never see a negative value.
//
// A division and a remainder with the same operands are avoided: at -O2 LLVM's DivRemPairs pass
// inserts `freeze`, which llvm-spirv-15 cannot translate.
//
// The C++ includer must include <climits>, <limits> and <type_traits> first (this file may be
// included inside a namespace).

#ifdef __OPENCL_C_VERSION__
#define CONSTANT constant
#define GLOBAL global
#else
#define CONSTANT static const
#define GLOBAL
typedef unsigned char uchar;
typedef unsigned short ushort;
typedef unsigned int uint;
typedef unsigned long ulong;
static_assert(sizeof(long) == 8, "OpenCL long is 64 bits");

// Host equivalents of the OpenCL integer built-ins used below (OpenCL C 2.0, section 6.13.3). Both
// operands have the same type T and so does the result, except abs (unsigned T).
template <typename T>
using Wide = std::conditional_t<std::is_signed_v<T>, __int128, unsigned __int128>;
template <typename T>
T satTo(__int128 v) {
  return static_cast<T>(v < std::numeric_limits<T>::min() ? std::numeric_limits<T>::min()
                        : v > std::numeric_limits<T>::max() ? std::numeric_limits<T>::max()
                                                            : v);
}
template <typename T>
std::make_unsigned_t<T> abs(T v) {
  using U = std::make_unsigned_t<T>;
  return v < 0 ? static_cast<U>(U(0) - static_cast<U>(v)) : static_cast<U>(v);
}
template <typename T>
T min(T a, T b) { return b < a ? b : a; }
template <typename T>
T max(T a, T b) { return a < b ? b : a; }
template <typename T>
T clamp(T v, T lo, T hi) { return min(max(v, lo), hi); }
template <typename T>
T add_sat(T a, T b) { return satTo<T>(static_cast<__int128>(a) + static_cast<__int128>(b)); }
template <typename T>
T sub_sat(T a, T b) { return satTo<T>(static_cast<__int128>(a) - static_cast<__int128>(b)); }
template <typename T>
T mul_hi(T a, T b) {
  return static_cast<T>((static_cast<Wide<T>>(a) * static_cast<Wide<T>>(b)) >> (8 * sizeof(T)));
}
template <typename T>
T popcount(T v) { return static_cast<T>(__builtin_popcountll(static_cast<std::make_unsigned_t<T>>(v))); }
template <typename T>
T clz(T v) {
  unsigned long long u = static_cast<std::make_unsigned_t<T>>(v);
  return static_cast<T>(u == 0 ? 8 * sizeof(T) : __builtin_clzll(u) - (64 - 8 * sizeof(T)));
}
template <typename T>
T rotate(T v, T by) { // left, by modulo the width
  using U = std::make_unsigned_t<T>;
  const unsigned w = 8 * sizeof(T), s = static_cast<U>(by) % w;
  const U u = static_cast<U>(v);
  return static_cast<T>(s == 0 ? u : static_cast<U>(u << s | u >> (w - s)));
}
template <typename T>
T ctz(T v) {
  unsigned long long u = static_cast<std::make_unsigned_t<T>>(v);
  return static_cast<T>(u == 0 ? 8 * sizeof(T) : __builtin_ctzll(u));
}
template <typename T>
std::make_unsigned_t<T> abs_diff(T a, T b) {
  using U = std::make_unsigned_t<T>;
  return a > b ? static_cast<U>(static_cast<U>(a) - static_cast<U>(b))
               : static_cast<U>(static_cast<U>(b) - static_cast<U>(a));
}
template <typename T>
T hadd(T a, T b) { return static_cast<T>((static_cast<Wide<T>>(a) + static_cast<Wide<T>>(b)) >> 1); }
template <typename T>
T rhadd(T a, T b) { return static_cast<T>((static_cast<Wide<T>>(a) + static_cast<Wide<T>>(b) + 1) >> 1); }
template <typename T> // unsigned T only here: the signed sum may overflow
T mad_hi(T a, T b, T c) { return static_cast<T>(mul_hi(a, b) + c); }
template <typename T> // 64-bit signed or up to 32-bit: the exact result fits in __int128
T mad_sat(T a, T b, T c) {
  return satTo<T>(static_cast<__int128>(a) * static_cast<__int128>(b) + static_cast<__int128>(c));
}
inline ulong upsample(uint hi, uint lo) { return static_cast<ulong>(hi) << 32 | lo; }
inline long upsample(int hi, uint lo) { return static_cast<long>(upsample(static_cast<uint>(hi), lo)); }
inline short upsample(char hi, uchar lo) { return static_cast<short>(static_cast<uchar>(hi) << 8 | lo); }
// convert_<type>_sat: clamp to the destination's range.
#define NAT_SAT(T) \
  template <typename F> \
  T convert_##T##_sat(F v) { return satTo<T>(static_cast<__int128>(v)); }
NAT_SAT(char)
NAT_SAT(uchar)
NAT_SAT(short)
NAT_SAT(ushort)
NAT_SAT(int)
NAT_SAT(uint)
NAT_SAT(long)
NAT_SAT(ulong)
#undef NAT_SAT
#endif

// A 64-bit LCG (Knuth's MMIX constants); unsigned, so it wraps.
static ulong lcg(ulong s) { return s * 6364136223846793005UL + 1442695040888963407UL; }

// ---------------------------------------------------------------------------------------------------
// 1. Checksums over a private byte buffer (CHStone-like): CRC-32 bit by bit and through a constant
// nibble table, Adler-32 (unsigned modulo), Fletcher-16 on ushort, FNV-1a with continue and break.
#define NAT_CRC_NO 8

CONSTANT uint crc_nibble[16] = {0x00000000u, 0x1db71064u, 0x3b6e20c8u, 0x26d930acu, 0x76dc4190u, 0x6b6b51f4u,
                                0x4db26158u, 0x5005713cu, 0xedb88320u, 0xf00f9344u, 0xd6d6a3e8u, 0xcb61b38cu,
                                0x9b64c2b0u, 0x86d3d2d4u, 0xa00ae278u, 0xbdbdf21cu};

static void fill_bytes(uchar* buf, int len, ulong seed) {
  for (int i = 0; i < len; ++i) {
    seed = lcg(seed);
    buf[i] = (uchar)(seed >> 56);
  }
}

static uint crc32_bitwise(const uchar* buf, int len) {
  uint crc = 0xffffffffu;
  for (int i = 0; i < len; ++i) {
    crc ^= buf[i];
    for (int k = 0; k < 8; ++k) crc = (crc >> 1) ^ (0xedb88320u & (0u - (crc & 1u)));
  }
  return ~crc;
}

static uint crc32_table(const uchar* buf, int len) {
  uint crc = 0xffffffffu;
  for (int i = 0; i < len; ++i) {
    crc = crc_nibble[(crc ^ buf[i]) & 15] ^ (crc >> 4);
    crc = crc_nibble[(crc ^ (uint)(buf[i] >> 4)) & 15] ^ (crc >> 4);
  }
  return ~crc;
}

static uint adler32(const uchar* buf, int len) {
  uint a = 1, b = 0;
  for (int i = 0; i < len; ++i) {
    a = (a + buf[i]) % 65521u;
    b = (b + a) % 65521u;
  }
  return (b << 16) | a;
}

static ushort fletcher16(const uchar* buf, int len) {
  ushort s1 = 0, s2 = 0;
  for (int i = 0; i < len; ++i) {
    s1 = (ushort)((s1 + buf[i]) % 255);
    s2 = (ushort)((s2 + s1) % 255);
  }
  return (ushort)((s2 << 8) | s1);
}

static void crc_case(long x, long y, int z, GLOBAL long* o) {
  uchar buf[40];
  const int len = (int)((ulong)y % 41);
  fill_bytes(buf, len, (ulong)x);
  const uint c1 = crc32_bitwise(buf, len);
  o[0] = c1;
  o[1] = crc32_table(buf, len) == c1;
  o[2] = adler32(buf, len);
  o[3] = fletcher16(buf, len);
  uint ones = 0;
  for (int i = 0; i < len; ++i) ones += popcount(buf[i]);
  o[4] = ones;
  uint h = 2166136261u;
  int used = 0;
  for (int i = 0; i < len; ++i) {
    if ((buf[i] & 7) == (z & 7)) continue;
    if (buf[i] < 16 && i > 4) break;
    h = (h ^ buf[i]) * 16777619u;
    ++used;
  }
  o[5] = h;
  o[6] = used;
  o[7] = len;
}

// ---------------------------------------------------------------------------------------------------
// 2. Sorting a private int array: insertion sort counting moves through a struct pointer, bubble sort
// (descending) with continue and an early exit, statistics returned in a struct by value, a pointer
// walk, a 2-D array.
#define NAT_SORT_NO 12

typedef struct {
  int lo, hi;
  long sum;
  int moves;
} Stats;

static void insertion_sort(int* v, int n, Stats* st) {
  for (int i = 1; i < n; ++i) {
    const int key = v[i];
    int j = i - 1;
    while (j >= 0 && v[j] > key) {
      v[j + 1] = v[j];
      --j;
      ++st->moves;
    }
    v[j + 1] = key;
  }
}

static int bubble_sort_desc(int* v, int n) {
  int passes = 0;
  for (int i = 0; i < n - 1; ++i) {
    bool swapped = false;
    ++passes;
    for (int j = 0; j < n - 1 - i; ++j) {
      if (v[j] >= v[j + 1]) continue;
      const int t = v[j];
      v[j] = v[j + 1];
      v[j + 1] = t;
      swapped = true;
    }
    if (!swapped) break;
  }
  return passes;
}

static Stats stats_of(const int* v, int n) {
  Stats s = {v[0], v[0], 0, 0};
  for (int i = 0; i < n; ++i) {
    s.lo = min(s.lo, v[i]);
    s.hi = max(s.hi, v[i]);
    s.sum += v[i];
  }
  return s;
}

static uint order_hash(const int* v, int n) {
  uint h = 0;
  for (int i = 0; i < n; ++i) h = h * 31u + (uint)v[i];
  return h;
}

static void sort_case(long x, long y, int z, GLOBAL long* o) {
  int v[12];
  const int n = 1 + (int)((uint)z % 12u);
  ulong seed = (ulong)x ^ ((ulong)y << 7);
  for (int i = 0; i < n; ++i) {
    seed = lcg(seed);
    // Alternate full-range values and small ones (with duplicates).
    v[i] = (i & 1) ? (int)(seed >> 32) : (int)((seed >> 40) % 7u) - 3;
  }
  Stats st = stats_of(v, n);
  insertion_sort(v, n, &st);
  o[0] = st.moves;
  o[1] = order_hash(v, n);
  int distinct = 1;
  for (int i = 1; i < n; ++i) distinct += v[i] != v[i - 1];
  o[2] = distinct;
  o[3] = v[n / 2];
  const int* p = v; // a pointer walk: index of the first element above the median
  while (p != v + n && *p <= v[n / 2]) ++p;
  o[10] = p - v;
  int m[3][4]; // a 2-D array, with continue and break in the nested loop
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 4; ++c) m[r][c] = v[(r * 4 + c) % n] >> (r + c);
  long tr = 0;
  for (int r = 0; r < 3; ++r) {
    if (m[r][0] == 0) continue;
    for (int c = 0; c < 4; ++c) {
      if (m[r][c] < -1000000) break;
      tr += (long)m[r][c] * (c + 1) - m[(r + 1) % 3][3 - c];
    }
  }
  o[11] = tr;
  o[4] = bubble_sort_desc(v, n);
  o[5] = order_hash(v, n);
  o[6] = st.lo;
  o[7] = st.hi;
  o[8] = st.sum;
  o[9] = v[0] == st.hi && v[n - 1] == st.lo;
}

// ---------------------------------------------------------------------------------------------------
// 3. 64-bit arithmetic: SHA-512-like mixing rounds on a state struct, wrapping multiplies, divisions,
// shifts, mixed-sign comparisons, built-ins on long/ulong, digit extraction, binary and Euclid GCD.
#define NAT_MIX_NO 40

CONSTANT ulong sha_k[8] = {0x428a2f98d728ae22UL, 0x7137449123ef65cdUL, 0xb5c0fbcfec4d3b2fUL,
                           0xe9b5dba58189dbbcUL, 0x3956c25bf348b538UL, 0x59f111f1b605d019UL,
                           0x923f82a4af194f9bUL, 0xab1c5ed5da6d8118UL};

typedef struct {
  ulong h[4];
} MixState;

static ulong big_sigma0(ulong a) { return rotate(a, 36UL) ^ rotate(a, 30UL) ^ rotate(a, 25UL); }

static void mix_round(MixState* st, ulong w, int r) {
  const ulong a = st->h[0], b = st->h[1], c = st->h[2], d = st->h[3];
  const ulong ch = (b & c) ^ (~b & d);
  const ulong t = d + big_sigma0(a) + ch + w + sha_k[r & 7];
  st->h[3] = c;
  st->h[2] = b;
  st->h[1] = a;
  st->h[0] = t ^ (t >> 29);
}

static ulong binary_gcd(ulong a, ulong b) {
  if (a == 0) return b;
  if (b == 0) return a;
  int shift = 0;
  while (((a | b) & 1) == 0) {
    a >>= 1;
    b >>= 1;
    ++shift;
  }
  while ((a & 1) == 0) a >>= 1;
  do {
    while ((b & 1) == 0) b >>= 1;
    if (a > b) {
      const ulong t = a;
      a = b;
      b = t;
    }
    b -= a;
  } while (b != 0);
  return a << shift;
}

static ulong euclid_gcd(ulong a, ulong b) {
  while (b != 0) {
    const ulong t = a % b;
    a = b;
    b = t;
  }
  return a;
}

static void mix_case(long x, long y, int z, GLOBAL long* o) {
  const ulong ux = (ulong)x, uy = (ulong)y;
  MixState st = {{ux, uy, ux ^ 0x6a09e667f3bcc908UL, (ulong)(long)z}};
  for (int r = 0; r < 12; ++r) mix_round(&st, r & 1 ? ux : uy + (ulong)r, r);
  o[0] = (long)st.h[0];
  o[1] = (long)(st.h[1] ^ st.h[2] ^ st.h[3]);
  o[2] = (long)(ux * uy); // wraps
  o[3] = mul_hi(x, y);
  o[4] = (long)mul_hi(ux, uy);
  o[5] = y != 0 && !(x == LONG_MIN && y == -1) ? x / y : 7;
  o[6] = !(x == LONG_MIN && (y | 1) == -1) ? x % (y | 1) : 7;
  o[7] = (long)(ux / (uy | 1));
  o[8] = (long)(ux % (uy | 2));
  o[9] = x >> (z & 63);
  o[10] = (long)(ux >> (y & 63));
  o[11] = (long)(ux << (z & 63));
  o[12] = (x < uy) + 2 * (z < (uint)y) + 4 * ((long)z < (uint)y) + 8 * ((short)x < (ushort)y) +
          16 * (x < (long)uy) + 32 * ((uint)z > (uint)-1 - 5);
  o[13] = (long)abs(x);
  o[14] = add_sat(x, y);
  o[15] = (long)add_sat(ux, uy);
  o[16] = sub_sat(x, y);
  o[17] = clamp(x, min(y, (long)z), max(y, (long)z));
  o[18] = clz(ux) + 100 * popcount(x) + 10000 * (long)clz((uint)z);
  o[19] = (long)rotate(ux, uy) ^ (long)rotate((uint)z, (uint)y);
  o[20] = (int)((uint)x + (uint)y); // 32-bit wrap, then sign extension
  o[21] = (long)((uint)z * 2654435761u);
  o[22] = (long)((ulong)(uint)x * (ulong)(uint)y); // widening unsigned multiply
  o[23] = (long)(int)x * (long)(int)y;             // widening signed multiply
  // Digits of |x| in base 2..37 (64-bit unsigned division in a loop).
  const ulong base = 2 + (ulong)((uint)z % 36u);
  ulong v = abs(x), digitSum = 0, count = 0;
  do {
    const ulong q = v / base;
    digitSum += v - q * base;
    v = q;
    ++count;
  } while (v != 0);
  o[24] = (long)digitSum;
  o[25] = (long)count;
  const ulong g = binary_gcd(ux >> (z & 31), uy >> ((z >> 5) & 31));
  o[26] = (long)g;
  o[27] = g == euclid_gcd(ux >> (z & 31), uy >> ((z >> 5) & 31));
  o[28] = (long)(ux - uy) < 0;
  o[29] = (ulong)x > (ulong)LONG_MAX;
  o[30] = (long)((ux * 0x9e3779b97f4a7c15UL) >> 32) ^ (long)(uy / 1000000007UL);
  o[31] = (long)((long)(short)(x >> 16) * (long)(char)y); // truncation then sign extension
  o[32] = mad_sat(x, y, (long)z) ^ (long)mad_sat((uint)x, (uint)y, (uint)z);
  o[33] = (long)mad_hi(ux, uy, (ulong)(long)z);
  o[34] = hadd(x, y) ^ rhadd(y, (long)z);
  o[35] = (long)(hadd(ux, uy) - rhadd(ux, (ulong)(long)z));
  o[36] = (long)abs_diff(x, y) ^ (long)abs_diff((int)x, z);
  o[37] = (long)upsample((uint)z, (uint)x) ^ upsample(z, (uint)y);
  o[38] = ctz(x) + 100 * (long)ctz((uint)z);
  long bucket; // a switch on a 64-bit value
  switch (x) {
  case LONG_MIN: bucket = 1; break;
  case -1: bucket = 2; break;
  case 0:
  case 1: bucket = 3 + x; break;
  case 0x100000000L: bucket = 5; break;
  case LONG_MAX: bucket = 6; break;
  default: bucket = x < 0 ? -7 : 7; break;
  }
  o[39] = bucket;
}

// ---------------------------------------------------------------------------------------------------
// 4. A small register machine (CHStone-mips-like): a random 16-instruction program from the inputs,
// decoded through a struct pointer, executed with a switch (fall-through, nested switch, default for
// illegal opcodes), call chains of several levels, backward branches bounded by a step limit.
#define NAT_VM_NO 12

typedef struct {
  uint op, rd, rs, rt;
  int imm;
} Insn;

typedef struct {
  uint r[8];
  uint pc, steps, illegal, taken;
} Cpu;

CONSTANT uchar vm_cost[16] = {1, 1, 1, 1, 3, 1, 1, 2, 2, 9, 2, 1, 4, 0, 0, 0};

static void vm_decode(uint word, Insn* d) {
  d->op = word >> 28;
  d->rd = (word >> 25) & 7;
  d->rs = (word >> 22) & 7;
  d->rt = (word >> 19) & 7;
  d->imm = (int)(short)(ushort)word; // sign-extended 16-bit immediate
}

static uint shift_op(uint kind, uint a, uint b) {
  switch (kind & 3) {
  case 0: return a << (b & 31);
  case 1: return a >> (b & 31);
  case 2: return (uint)((int)a >> (b & 31));
  default: return rotate(a, b);
  }
}

static uint div_op(bool rem, uint a, uint b) {
  const int sa = (int)a, sb = (int)b;
  if (sb == 0) return rem ? a : 0xffffffffu;
  if (sa == INT_MIN && sb == -1) return rem ? 0 : a;
  return (uint)(rem ? sa % sb : sa / sb);
}

static uint special_op(uint kind, uint a, uint b) {
  switch (kind) {
  case 0: return mul_hi(a, b);
  case 1: return popcount(a) + clz(b);
  case 2: return (uint)max((int)a, (int)b) ^ min(a, b);
  case 3: return (uint)abs((int)a);
  default: return add_sat(a, b) ^ (uint)sub_sat((int)a, (int)b);
  }
}

// One instruction; returns false on HALT.
static bool vm_step(Cpu* cpu, const uint* prog) {
  Insn d;
  vm_decode(prog[cpu->pc & 15], &d);
  uint next = cpu->pc + 1;
  uint b = (uint)d.imm;
  const uint a = cpu->r[d.rs];
  switch (d.op) {
  case 0: // NOP
    break;
  case 1: // ADD (register): the second operand is rt, then as ADDI
    b = cpu->r[d.rt];
    /* fall through */
  case 2: // ADDI
    cpu->r[d.rd] = a + b;
    break;
  case 3: // SUB
    cpu->r[d.rd] = a - cpu->r[d.rt];
    break;
  case 4: // MUL (wrapping)
    cpu->r[d.rd] = a * cpu->r[d.rt];
    break;
  case 5: // shifts and rotate by register, kind from the immediate
    b = cpu->r[d.rt];
    /* fall through */
  case 6: // shifts and rotate by immediate
    cpu->r[d.rd] = shift_op((uint)d.imm >> 8, a, b);
    break;
  case 7: // BEQ
  case 8: // BLT (signed); both branch relative to the next instruction
    if (d.op == 7 ? a == cpu->r[d.rt] : (int)a < (int)cpu->r[d.rt]) {
      next = cpu->pc + 1 + (uint)d.imm;
      ++cpu->taken;
    }
    break;
  case 9: // DIV / REM (signed)
    cpu->r[d.rd] = div_op(d.imm & 1, a, cpu->r[d.rt]);
    break;
  case 10: // XOR / AND / OR by register
    switch (d.imm & 3) {
    case 0: cpu->r[d.rd] = a ^ cpu->r[d.rt]; break;
    case 1: cpu->r[d.rd] = a & cpu->r[d.rt]; break;
    default: cpu->r[d.rd] = a | cpu->r[d.rt]; break;
    }
    break;
  case 11: // HALT
    return false;
  case 12: // built-ins
    cpu->r[d.rd] = special_op((uint)d.imm & 7, a, cpu->r[d.rt]);
    break;
  default: // illegal: counted and skipped
    ++cpu->illegal;
    break;
  }
  cpu->steps += vm_cost[d.op];
  cpu->r[0] = 0; // r0 is hard-wired to zero
  cpu->pc = next & 15;
  return true;
}

static void vm_case(long x, long y, int z, GLOBAL long* o) {
  uint prog[16];
  ulong seed = (ulong)x * 31u + (ulong)y;
  for (int i = 0; i < 16; ++i) {
    seed = lcg(seed);
    uint word = (uint)(seed >> 32);
    // Keep most branch offsets short so that programs loop rather than wander.
    if ((word >> 28) == 7 || (word >> 28) == 8) word = (word & 0xffff0000u) | (((word & 7u) - 4u) & 0xffffu);
    prog[i] = word;
  }
  Cpu cpu;
  for (int i = 0; i < 8; ++i) cpu.r[i] = 0;
  cpu.r[1] = (uint)x;
  cpu.r[2] = (uint)(x >> 32);
  cpu.r[3] = (uint)y;
  cpu.r[4] = (uint)z;
  cpu.pc = (uint)z & 15;
  cpu.steps = cpu.illegal = cpu.taken = 0;
  int executed = 0;
  while (executed < 200) {
    ++executed;
    if (!vm_step(&cpu, prog)) break;
  }
  for (int i = 0; i < 8; ++i) o[i] = cpu.r[i];
  o[8] = cpu.pc;
  o[9] = cpu.steps;
  o[10] = cpu.illegal + 1000 * cpu.taken;
  o[11] = executed;
}

// ---------------------------------------------------------------------------------------------------
// 5. 8- and 16-bit types: integer promotions, truncations, sign and zero extension, built-ins on
// char/uchar/short/ushort, a byte reversal through a private uchar array, bit reversal by table.
#define NAT_NARROW_NO 34

// Bit reversal through a nibble table: LLVM turns the shift loop into llvm.bitreverse, for which
// llvm-spirv-15 declares the Shader capability, and spirv-val then rejects the unstructured loops.
CONSTANT uchar reverse_nibble[16] = {0x0, 0x8, 0x4, 0xc, 0x2, 0xa, 0x6, 0xe,
                                     0x1, 0x9, 0x5, 0xd, 0x3, 0xb, 0x7, 0xf};

static uchar reverse_bits8(uchar b) { return (uchar)(reverse_nibble[b & 15] << 4 | reverse_nibble[b >> 4]); }

static void narrow_case(long x, long y, int z, GLOBAL long* o) {
  const char c = (char)x, c2 = (char)z;
  const uchar uc = (uchar)x, uc2 = (uchar)(z >> 8);
  const short s = (short)y, s2 = (short)z;
  const ushort us = (ushort)y, us2 = (ushort)(z >> 16);
  o[0] = c + uc;
  o[1] = c * c2;
  o[2] = (uchar)(uc + uc2);
  o[3] = (char)(c - 100);
  o[4] = s * c;
  o[5] = (uint)us * us;
  o[6] = (short)((ushort)s << 3);
  o[7] = (uc >> 3) + 1000 * (c >> 2);
  o[8] = ~uc;
  o[9] = (uchar)~uc;
  o[10] = -us;
  o[11] = (c < uc) + 2 * (us > s) + 4 * (c2 == uc2) + 8 * ((ushort)c == us) + 16 * ((uchar)c2 > c);
  o[12] = (ushort)(us / (uc | 1));
  o[13] = s % (short)(c2 | 1);
  o[14] = add_sat(uc, uc2) + 1000 * add_sat(c, c2);
  o[15] = sub_sat(s, s2) + 100000L * add_sat(us, us2);
  o[16] = abs(c) + 1000 * abs(s);
  o[17] = clz(us) + 100 * clz(uc) + 10000 * clz(c);
  o[18] = popcount(c) + 100 * popcount(s);
  o[19] = rotate(uc, uc2) + 1000 * rotate(s, s2);
  o[20] = mul_hi(s, s2) + 100000L * mul_hi(us, us2);
  o[21] = max(c, c2) + 1000 * min(us, us2);
  o[22] = clamp(s, (short)-1000, (short)1000) + 10000 * clamp(uc, (uchar)10, (uchar)(uc2 > 10 ? uc2 : 10));
  uchar bytes[4];
  for (int i = 0; i < 4; ++i) bytes[i] = (uchar)((ulong)x >> (8 * i));
  uint rev = 0;
  for (int i = 0; i < 4; ++i) rev |= (uint)bytes[i] << (8 * (3 - i));
  o[23] = rev;
  o[24] = reverse_bits8(uc) | reverse_bits8(uc2) << 8;
  ushort acc = 0;
  for (int i = 0; i < 8; ++i) acc = (ushort)(acc * 3 + bytes[i & 3]); // int arithmetic, truncated each time
  o[25] = acc;
  char sc = c;
  for (int i = 0; i < 5; ++i) sc = (char)(sc * 7 + 1); // truncated each time
  o[26] = sc;
  o[27] = (long)(uchar)c2 << 40 | (long)(ushort)s2;
  o[28] = (short)(us + us2) < 0;
  o[29] = (char)(uc ^ 0x80) >> 7;
  o[30] = (bool)(c & 0x40) + (bool)us2 * 2;
  o[31] = (int)(char)(short)(ushort)(x >> 4);
  o[32] = upsample(c, uc2) + 100000L * (long)hadd(c, c2) + 10000000L * (long)rhadd(us, us2);
  int cls = 0; // a switch on a char: ranges of cases, fall-through, negative labels
  switch (c) {
  case -128: cls += 100; /* fall through */
  case -1: cls += 10; break;
  case '0': case '1': case '2': case '3': case '4': case '5': case '6': case '7': case '8': case '9':
    cls = c - '0';
    break;
  case 'a': case 'e': case 'i': case 'o': case 'u': cls = 20; break;
  case 127: cls = 30; /* fall through */
  default: cls += 1000 + (c & 3);
  }
  o[33] = cls;
}

// ---------------------------------------------------------------------------------------------------
// 6. OpenCL saturating integer conversions (convert_<type>_sat).
#define NAT_SAT_NO 12

static void sat_case(long x, long y, int z, GLOBAL long* o) {
  o[0] = convert_uchar_sat(z);
  o[1] = convert_char_sat(z);
  o[2] = convert_short_sat(x);
  o[3] = convert_ushort_sat(x);
  o[4] = convert_uint_sat(z);
  o[5] = convert_int_sat(x);
  o[6] = convert_int_sat((uint)z);
  o[7] = (long)convert_ulong_sat(x);
  o[8] = convert_long_sat((ulong)y);
  o[9] = convert_uchar_sat((ushort)y);
  o[10] = convert_char_sat((uchar)x);
  o[11] = convert_uint_sat(y);
}
