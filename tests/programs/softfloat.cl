// IEEE 754 binary64 addition, subtraction and multiplication in integer C (a SoftFloat-style
// library): bit patterns in ulong, unpack / normalise-subnormal / shift-right-jamming / a 64x64->128
// multiply from 32-bit halves / round-and-pack with round-to-nearest-even, subnormals, infinities,
// NaN propagation (signaling NaNs quietened), signed zeros, and sticky exception flags (inexact,
// overflow, invalid) in a program-scope global as in SoftFloat. Checked against a table of
// (a, b, a+b, a-b, a*b, flags) bit patterns computed once natively with gcc's double arithmetic on
// x86-64 (SSE2, flags from fenv.h): +-0, subnormals, ties, overflow to infinity, inf-inf, inf*0, NaN
// propagation (NaN results compare only as "is a NaN"). Also checks commutativity of + and *.
// result[0] is the mismatch count (0 = pass), result[1] a hash of every computed result and flags,
// result[2] the class histogram of the results, result[3] the number of operations.

#define F64_SIGN_BIT 0x8000000000000000UL
#define F64_FRAC_MASK 0x000FFFFFFFFFFFFFUL
#define F64_HIDDEN_BIT 0x0010000000000000UL
#define F64_QUIET_BIT 0x0008000000000000UL
#define F64_DEFAULT_NAN 0xFFF8000000000000UL  // x86's default NaN (sign set)
#define F64_EXP_MAX 0x7FF

// Exception flags, sticky as in IEEE 754 (SoftFloat keeps them in a global too).
#define FLAG_INEXACT 1u
#define FLAG_OVERFLOW 2u
#define FLAG_INVALID 4u

enum op_kind { OP_ADD, OP_SUB, OP_MUL, OP_COUNT };
enum f64_class { CLASS_ZERO, CLASS_SUBNORMAL, CLASS_NORMAL, CLASS_INF, CLASS_QNAN, CLASS_SNAN };

struct unpacked {
  uint sign;
  int exp;    // biased exponent field, 0 for zero and subnormals
  ulong sig;  // fraction field (no hidden bit)
};

struct u128 {
  ulong hi;
  ulong lo;
};

// Leading zeros of a byte; count_leading_zeros64 walks the bytes from the top.
constant uchar clz8_table[256] = {
    8, 7, 6, 6, 5, 5, 5, 5, 4, 4, 4, 4, 4, 4, 4, 4, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3,
    2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
};

global uint exception_flags;
global uint class_histogram[6];
global uint op_counts[OP_COUNT];

static ulong pack(uint sign, int exp, ulong sig) {
  return ((ulong)sign << 63) + ((ulong)exp << 52) + sig;
}

static void unpack(ulong bits, struct unpacked *u) {
  u->sign = (uint)(bits >> 63);
  u->exp = (int)((bits >> 52) & F64_EXP_MAX);
  u->sig = bits & F64_FRAC_MASK;
}

static int is_nan(ulong bits) {
  return ((bits >> 52) & F64_EXP_MAX) == F64_EXP_MAX && (bits & F64_FRAC_MASK) != 0;
}

static int is_signaling_nan(ulong bits) { return is_nan(bits) && !(bits & F64_QUIET_BIT); }

static enum f64_class classify(ulong bits) {
  struct unpacked u;
  unpack(bits, &u);
  switch (u.exp) {
    case 0:
      return u.sig ? CLASS_SUBNORMAL : CLASS_ZERO;
    case F64_EXP_MAX:
      if (u.sig == 0) return CLASS_INF;
      return (u.sig & F64_QUIET_BIT) ? CLASS_QNAN : CLASS_SNAN;
    default:
      return CLASS_NORMAL;
  }
}

static void raise_flags(uint flags) { exception_flags |= flags; }

static int count_leading_zeros64(ulong a) {
  int count = 0;
  for (int shift = 56; shift >= 0; shift -= 8) {
    uint byte = (uint)(a >> shift) & 0xff;
    count += clz8_table[byte];
    if (byte != 0) return count;
  }
  return 64;
}

// Shift right by dist, OR-ing every bit shifted out into bit 0 ("jamming": it keeps the sticky bit).
static ulong shift_right_jam64(ulong a, uint dist) {
  if (dist == 0) return a;
  if (dist < 64) return (a >> dist) | (ulong)((a << (64 - dist)) != 0);
  return a != 0 ? 1 : 0;
}

// 64 x 64 -> 128-bit product from four 32 x 32 -> 64-bit partial products.
static struct u128 mul64_to_128(ulong a, ulong b) {
  ulong a_lo = a & 0xFFFFFFFFUL, a_hi = a >> 32;
  ulong b_lo = b & 0xFFFFFFFFUL, b_hi = b >> 32;
  ulong lo_lo = a_lo * b_lo;
  ulong hi_lo = a_hi * b_lo;
  ulong lo_hi = a_lo * b_hi;
  ulong hi_hi = a_hi * b_hi;
  ulong middle = hi_lo + lo_hi;
  ulong carry = middle < hi_lo ? 1UL << 32 : 0;  // the middle sum wrapped around
  struct u128 z;
  z.lo = lo_lo + (middle << 32);
  z.hi = hi_hi + (middle >> 32) + carry + (z.lo < lo_lo ? 1 : 0);
  return z;
}

// A NaN operand propagates quietened (x86 SSE: the first NaN operand wins); a signaling one is invalid.
static ulong propagate_nan(ulong a, ulong b) {
  if (is_signaling_nan(a) || is_signaling_nan(b)) raise_flags(FLAG_INVALID);
  if (is_nan(a)) return a | F64_QUIET_BIT;
  return b | F64_QUIET_BIT;
}

// sig holds the significand with its leading one at bit 62 (or below for subnormal results) and ten
// extra bits below the final ulp; exp is the biased exponent minus one. Rounds to nearest, ties to even.
static ulong round_pack(uint sign, int exp, ulong sig) {
  const ulong round_increment = 0x200;
  uint round_bits = (uint)(sig & 0x3FF);
  if (exp < 0 || exp >= 0x7FD) {
    if (exp < 0) {
      sig = shift_right_jam64(sig, (uint)(-exp));
      exp = 0;
      round_bits = (uint)(sig & 0x3FF);
    } else if (exp > 0x7FD || sig + round_increment >= F64_SIGN_BIT) {
      raise_flags(FLAG_OVERFLOW | FLAG_INEXACT);
      return pack(sign, F64_EXP_MAX, 0);
    }
  }
  if (round_bits) raise_flags(FLAG_INEXACT);
  sig = (sig + round_increment) >> 10;
  if (round_bits == 0x200) sig &= ~1UL;  // a tie: round to even
  if (sig == 0) exp = 0;
  return pack(sign, exp, sig);
}

static ulong norm_round_pack(uint sign, int exp, ulong sig) {
  int shift = count_leading_zeros64(sig) - 1;
  exp -= shift;
  if (shift >= 10 && exp >= 0 && exp < 0x7FD) return pack(sign, sig ? exp : 0, sig << (shift - 10));
  return round_pack(sign, exp, sig << shift);
}

static void normalize_subnormal(struct unpacked *u) {
  int shift = count_leading_zeros64(u->sig) - 11;
  u->exp = 1 - shift;
  u->sig <<= shift;
}

// |a| + |b| with the result's sign given.
static ulong add_magnitudes(ulong a, ulong b, uint sign) {
  struct unpacked ua, ub;
  unpack(a, &ua);
  unpack(b, &ub);
  int exp_diff = ua.exp - ub.exp;
  int exp;
  ulong sig;
  if (exp_diff == 0) {
    if (ua.exp == 0) return a + ub.sig;  // two subnormals: the carry makes a normal number
    if (ua.exp == F64_EXP_MAX) {
      if (ua.sig | ub.sig) return propagate_nan(a, b);
      return a;
    }
    exp = ua.exp;
    sig = (0x0020000000000000UL + ua.sig + ub.sig) << 9;
  } else {
    ua.sig <<= 9;
    ub.sig <<= 9;
    if (exp_diff < 0) {
      if (ub.exp == F64_EXP_MAX) {
        if (ub.sig) return propagate_nan(a, b);
        return pack(sign, F64_EXP_MAX, 0);
      }
      exp = ub.exp;
      if (ua.exp) ua.sig += 0x2000000000000000UL;
      else ua.sig <<= 1;
      ua.sig = shift_right_jam64(ua.sig, (uint)(-exp_diff));
    } else {
      if (ua.exp == F64_EXP_MAX) {
        if (ua.sig) return propagate_nan(a, b);
        return a;
      }
      exp = ua.exp;
      if (ub.exp) ub.sig += 0x2000000000000000UL;
      else ub.sig <<= 1;
      ub.sig = shift_right_jam64(ub.sig, (uint)exp_diff);
    }
    sig = 0x2000000000000000UL + ua.sig + ub.sig;
    if (sig < 0x4000000000000000UL) {
      exp--;
      sig <<= 1;
    }
  }
  return round_pack(sign, exp, sig);
}

// |a| - |b| with the sign of a (flipped when |b| > |a|).
static ulong sub_magnitudes(ulong a, ulong b, uint sign) {
  struct unpacked ua, ub;
  unpack(a, &ua);
  unpack(b, &ub);
  int exp_diff = ua.exp - ub.exp;
  if (exp_diff == 0) {
    if (ua.exp == F64_EXP_MAX) {
      if (ua.sig | ub.sig) return propagate_nan(a, b);
      raise_flags(FLAG_INVALID);  // inf - inf
      return F64_DEFAULT_NAN;
    }
    if (ua.sig == ub.sig) return pack(0, 0, 0);  // exact cancellation is +0 when rounding to nearest
    ulong diff;
    if (ua.sig > ub.sig) {
      diff = ua.sig - ub.sig;
    } else {
      diff = ub.sig - ua.sig;
      sign ^= 1;
    }
    int exp_a = ua.exp ? ua.exp - 1 : 0;
    int shift = count_leading_zeros64(diff) - 11;
    int exp = exp_a - shift;
    if (exp < 0) {
      shift = exp_a;
      exp = 0;
    }
    return pack(sign, exp, diff << shift);
  }
  ua.sig <<= 10;
  ub.sig <<= 10;
  int exp;
  ulong sig;
  if (exp_diff < 0) {
    sign ^= 1;
    if (ub.exp == F64_EXP_MAX) {
      if (ub.sig) return propagate_nan(a, b);
      return pack(sign, F64_EXP_MAX, 0);
    }
    ua.sig += ua.exp ? 0x4000000000000000UL : ua.sig;
    ua.sig = shift_right_jam64(ua.sig, (uint)(-exp_diff));
    ub.sig |= 0x4000000000000000UL;
    exp = ub.exp;
    sig = ub.sig - ua.sig;
  } else {
    if (ua.exp == F64_EXP_MAX) {
      if (ua.sig) return propagate_nan(a, b);
      return a;
    }
    ub.sig += ub.exp ? 0x4000000000000000UL : ub.sig;
    ub.sig = shift_right_jam64(ub.sig, (uint)exp_diff);
    ua.sig |= 0x4000000000000000UL;
    exp = ua.exp;
    sig = ua.sig - ub.sig;
  }
  return norm_round_pack(sign, exp - 1, sig);
}

static ulong f64_add(ulong a, ulong b) {
  uint sign_a = (uint)(a >> 63), sign_b = (uint)(b >> 63);
  if (sign_a == sign_b) return add_magnitudes(a, b, sign_a);
  return sub_magnitudes(a, b, sign_a);
}

static ulong f64_mul(ulong a, ulong b) {
  struct unpacked ua, ub;
  unpack(a, &ua);
  unpack(b, &ub);
  uint sign = ua.sign ^ ub.sign;
  ulong mag_other;
  if (ua.exp == F64_EXP_MAX || ub.exp == F64_EXP_MAX) {
    if (is_nan(a) || is_nan(b)) return propagate_nan(a, b);
    mag_other = ua.exp == F64_EXP_MAX ? (ulong)ub.exp | ub.sig : (ulong)ua.exp | ua.sig;
    if (mag_other == 0) {  // inf * 0
      raise_flags(FLAG_INVALID);
      return F64_DEFAULT_NAN;
    }
    return pack(sign, F64_EXP_MAX, 0);
  }
  if (ua.exp == 0) {
    if (ua.sig == 0) return pack(sign, 0, 0);
    normalize_subnormal(&ua);
  }
  if (ub.exp == 0) {
    if (ub.sig == 0) return pack(sign, 0, 0);
    normalize_subnormal(&ub);
  }
  int exp = ua.exp + ub.exp - 0x3FF;
  ulong sig_a = (ua.sig | F64_HIDDEN_BIT) << 10;
  ulong sig_b = (ub.sig | F64_HIDDEN_BIT) << 11;
  struct u128 product = mul64_to_128(sig_a, sig_b);
  ulong sig = product.hi | (ulong)(product.lo != 0);
  if (sig < 0x4000000000000000UL) {
    exp--;
    sig <<= 1;
  }
  return round_pack(sign, exp, sig);
}

static ulong apply(enum op_kind op, ulong a, ulong b) {
  op_counts[op]++;
  switch (op) {
    case OP_SUB:
      // a - b is a + (-b), as in compiler-rt's __subdf3 (a NaN b only changes sign: not compared)
      b ^= F64_SIGN_BIT;
      /* fall through */
    case OP_ADD:
      return f64_add(a, b);
    case OP_MUL:
      return f64_mul(a, b);
    default:
      return F64_DEFAULT_NAN;
  }
}

#define CASE_COUNT 64

struct f64_case {
  ulong a;
  ulong b;
  ulong expected[OP_COUNT];  // a + b, a - b, a * b
  uchar flags[OP_COUNT];     // FLAG_* raised by each
};

constant struct f64_case cases[CASE_COUNT] = {
    {0x3ff0000000000000UL, 0x4000000000000000UL, {0x4008000000000000UL, 0xbff0000000000000UL, 0x4000000000000000UL}, {0, 0, 0}},  // 1 and 2
    {0x3fb999999999999aUL, 0x3fc999999999999aUL, {0x3fd3333333333334UL, 0xbfb999999999999aUL, 0x3f947ae147ae147cUL}, {1, 0, 1}},  // 0.1 and 0.2
    {0x3ff0000000000000UL, 0x3ff0000000000000UL, {0x4000000000000000UL, 0x0000000000000000UL, 0x3ff0000000000000UL}, {0, 0, 0}},  // equal: exact cancellation is +0
    {0x8000000000000000UL, 0x8000000000000000UL, {0x8000000000000000UL, 0x0000000000000000UL, 0x0000000000000000UL}, {0, 0, 0}},  // -0 and -0
    {0x0000000000000000UL, 0x8000000000000000UL, {0x0000000000000000UL, 0x0000000000000000UL, 0x8000000000000000UL}, {0, 0, 0}},  // +0 and -0
    {0x8000000000000000UL, 0x0000000000000000UL, {0x0000000000000000UL, 0x8000000000000000UL, 0x8000000000000000UL}, {0, 0, 0}},  // -0 and +0
    {0xc008000000000000UL, 0x0000000000000000UL, {0xc008000000000000UL, 0xc008000000000000UL, 0x8000000000000000UL}, {0, 0, 0}},  // -3 and +0
    {0x0000000000000001UL, 0x0000000000000001UL, {0x0000000000000002UL, 0x0000000000000000UL, 0x0000000000000000UL}, {0, 0, 1}},  // smallest subnormals
    {0x0010000000000000UL, 0x0000000000000001UL, {0x0010000000000001UL, 0x000fffffffffffffUL, 0x0000000000000000UL}, {0, 0, 1}},  // smallest normal and smallest subnormal
    {0x000fffffffffffffUL, 0x0000000000000001UL, {0x0010000000000000UL, 0x000ffffffffffffeUL, 0x0000000000000000UL}, {0, 0, 1}},  // largest and smallest subnormal
    {0x000fffffffffffffUL, 0x3fe0000000000000UL, {0x3fe0000000000000UL, 0xbfe0000000000000UL, 0x0008000000000000UL}, {1, 1, 1}},  // largest subnormal and 0.5
    {0x0000000000000001UL, 0x3fe0000000000000UL, {0x3fe0000000000000UL, 0xbfe0000000000000UL, 0x0000000000000000UL}, {1, 1, 1}},  // smallest subnormal and 0.5 (product ties to even 0)
    {0x0000000000000003UL, 0x3fe0000000000000UL, {0x3fe0000000000000UL, 0xbfe0000000000000UL, 0x0000000000000002UL}, {1, 1, 1}},  // 3 ulp subnormal and 0.5 (product ties up to even)
    {0x0008000000000001UL, 0xbff8000000000000UL, {0xbff8000000000000UL, 0x3ff8000000000000UL, 0x800c000000000002UL}, {1, 1, 1}},  // subnormal and -1.5
    {0x0000000000000001UL, 0x7e37e43c8800759cUL, {0x7e37e43c8800759cUL, 0xfe37e43c8800759cUL, 0x3b17e43c8800759cUL}, {1, 1, 0}},  // smallest subnormal and 1e300
    {0x01a56e1fc2f8f359UL, 0xbddb7cdfd9d7bdbbUL, {0xbddb7cdfd9d7bdbbUL, 0x3ddb7cdfd9d7bdbbUL, 0x800012688b70e62bUL}, {1, 1, 1}},  // tiny product underflows to subnormal
    {0x16687e92154ef7acUL, 0x16687e92154ef7acUL, {0x16787e92154ef7acUL, 0x0000000000000000UL, 0x0000000000000000UL}, {0, 0, 1}},  // product underflows to zero
    {0x7fefffffffffffffUL, 0x7fefffffffffffffUL, {0x7ff0000000000000UL, 0x0000000000000000UL, 0x7ff0000000000000UL}, {3, 0, 3}},  // largest finite twice: overflow
    {0xffefffffffffffffUL, 0x7fefffffffffffffUL, {0x0000000000000000UL, 0xfff0000000000000UL, 0xfff0000000000000UL}, {0, 3, 3}},  // -max and max
    {0x7fefffffffffffffUL, 0x3ff0000000000000UL, {0x7fefffffffffffffUL, 0x7fefffffffffffffUL, 0x7fefffffffffffffUL}, {1, 1, 0}},  // max and 1 (absorbed, inexact)
    {0x7fefffffffffffffUL, 0x7c9fffffffffffffUL, {0x7ff0000000000000UL, 0x7feffffffffffffeUL, 0x7ff0000000000000UL}, {3, 1, 3}},  // max and just under half an ulp
    {0x7fefffffffffffffUL, 0x7ca0000000000000UL, {0x7ff0000000000000UL, 0x7feffffffffffffeUL, 0x7ff0000000000000UL}, {3, 0, 3}},  // max and half an ulp (tie overflows)
    {0x6974e718d7d7625aUL, 0x6974e718d7d7625aUL, {0x6984e718d7d7625aUL, 0x0000000000000000UL, 0x7ff0000000000000UL}, {0, 0, 3}},  // 1e200 twice
    {0x7ff0000000000000UL, 0xfff0000000000000UL, {0xfff8000000000000UL, 0x7ff0000000000000UL, 0xfff0000000000000UL}, {4, 0, 0}},  // +inf and -inf
    {0x7ff0000000000000UL, 0x7ff0000000000000UL, {0x7ff0000000000000UL, 0xfff8000000000000UL, 0x7ff0000000000000UL}, {0, 4, 0}},  // +inf twice
    {0x7ff0000000000000UL, 0x0000000000000000UL, {0x7ff0000000000000UL, 0x7ff0000000000000UL, 0xfff8000000000000UL}, {0, 0, 4}},  // +inf and +0
    {0x8000000000000000UL, 0xfff0000000000000UL, {0xfff0000000000000UL, 0x7ff0000000000000UL, 0xfff8000000000000UL}, {0, 0, 4}},  // -0 and -inf
    {0xfff0000000000000UL, 0xc000000000000000UL, {0xfff0000000000000UL, 0xfff0000000000000UL, 0x7ff0000000000000UL}, {0, 0, 0}},  // -inf and -2
    {0x4014000000000000UL, 0x7ff0000000000000UL, {0x7ff0000000000000UL, 0xfff0000000000000UL, 0x7ff0000000000000UL}, {0, 0, 0}},  // 5 and +inf
    {0x7ff8000000000000UL, 0x3ff0000000000000UL, {0x7ff8000000000000UL, 0x7ff8000000000000UL, 0x7ff8000000000000UL}, {0, 0, 0}},  // quiet NaN and 1
    {0x3ff0000000000000UL, 0x7ff0000000000001UL, {0x7ff8000000000001UL, 0x7ff8000000000001UL, 0x7ff8000000000001UL}, {4, 4, 4}},  // 1 and signaling NaN
    {0xfff8000000000123UL, 0xfff0000000000000UL, {0xfff8000000000123UL, 0xfff8000000000123UL, 0xfff8000000000123UL}, {0, 0, 0}},  // NaN with payload and -inf
    {0x7ff0000000000001UL, 0x7ff8000000000000UL, {0x7ff8000000000000UL, 0x7ff8000000000001UL, 0x7ff8000000000000UL}, {4, 4, 4}},  // signaling and quiet NaN
    {0x3ff0000000000000UL, 0x3ca0000000000000UL, {0x3ff0000000000000UL, 0x3fefffffffffffffUL, 0x3ca0000000000000UL}, {1, 0, 0}},  // 1 and half an ulp (sum ties to even 1)
    {0x3ff0000000000001UL, 0x3ca0000000000000UL, {0x3ff0000000000002UL, 0x3ff0000000000000UL, 0x3ca0000000000001UL}, {1, 1, 0}},  // 1+ulp and half an ulp (sum ties up)
    {0x3ff0000000000000UL, 0x3ca0000000000001UL, {0x3ff0000000000001UL, 0x3fefffffffffffffUL, 0x3ca0000000000001UL}, {1, 1, 0}},  // 1 and just over half an ulp
    {0x3ff0000000000000UL, 0x3c90000000000000UL, {0x3ff0000000000000UL, 0x3ff0000000000000UL, 0x3c90000000000000UL}, {1, 1, 0}},  // 1 and a quarter ulp (difference rounds)
    {0x3ff000001ad7f29bUL, 0x3ff0000000000000UL, {0x400000000d6bf94eUL, 0x3e7ad7f29b000000UL, 0x3ff000001ad7f29bUL}, {1, 0, 0}},  // near cancellation
    {0x7e37e43c8800759cUL, 0x01a56e1fc2f8f359UL, {0x7e37e43c8800759cUL, 0x7e37e43c8800759cUL, 0x3ff0000000000000UL}, {1, 1, 1}},  // exponents 2000 apart (sticky bit)
    {0x81a56e1fc2f8f359UL, 0x7e37e43c8800759cUL, {0x7e37e43c8800759cUL, 0xfe37e43c8800759cUL, 0xbff0000000000000UL}, {1, 1, 1}},  // exponents 2000 apart, negative first
    {0x3fb999999999999aUL, 0x3fd3333333333333UL, {0x3fd999999999999aUL, 0xbfc9999999999999UL, 0x3f9eb851eb851eb8UL}, {1, 0, 1}},  // 0.1 and 0.3
    {0x400921fb54442d18UL, 0x4005bf0a8b145769UL, {0x40177082efac4240UL, 0x3fdb1786497ead78UL, 0x402114580b45d474UL}, {1, 0, 1}},  // pi and e
    {0xc008000000000000UL, 0x0000000000000000UL, {0xc008000000000000UL, 0xc008000000000000UL, 0x8000000000000000UL}, {0, 0, 0}},  // -3 and 0
    {0x4330000000000001UL, 0xc330000000000000UL, {0x3ff0000000000000UL, 0x4340000000000000UL, 0xc670000000000001UL}, {0, 1, 0}},  // 2^52+1 and -2^52
    {0x3ff0000000000001UL, 0x3fefffffffffffffUL, {0x4000000000000000UL, 0x3cb8000000000000UL, 0x3ff0000000000000UL}, {1, 0, 1}},  // 1+ulp and 1-ulp/2
    {0x3fffffffffffffffUL, 0x3fffffffffffffffUL, {0x400fffffffffffffUL, 0x0000000000000000UL, 0x400ffffffffffffeUL}, {0, 0, 1}},  // largest significand squared
    {0x40f0000000100000UL, 0xc0f0000000000000UL, {0x3ef0000000000000UL, 0x4100000000080000UL, 0xc1f0000000100000UL}, {0, 0, 0}},  // mixed magnitudes
    {0x0010000000000000UL, 0x8010000000000000UL, {0x0000000000000000UL, 0x0020000000000000UL, 0x8000000000000000UL}, {0, 0, 1}},  // smallest normal and its negation
    {0x0010000000000001UL, 0x0010000000000000UL, {0x0020000000000000UL, 0x0000000000000001UL, 0x0000000000000000UL}, {1, 0, 1}},  // smallest normals one ulp apart
    {0xc03d9c28a9741a02UL, 0xbf3336ec93771f1dUL, {0xc03d9c3be060ad79UL, 0xc03d9c157287868bUL, 0x3f81c78a915a5961UL}, {1, 1, 1}},  // random
    {0x3ca10c145535098fUL, 0xba96d597e9fdde9cUL, {0x3ca10c1455299ec3UL, 0x3ca10c145540745bUL, 0xb748542e9f2587a1UL}, {1, 1, 1}},  // random
    {0xa11665ed06c80221UL, 0xa12665ed06c85c1aUL, {0xa130cc71c5162e95UL, 0x211665ed06c8b613UL, 0x024f5ad520d379d1UL}, {1, 0, 1}},  // random
    {0xc06e5a8e8a548847UL, 0x3f7d875f5b54b44fUL, {0xc06e5a537b95d19eUL, 0xc06e5ac999133ef0UL, 0xbffc0279aa2d38e2UL}, {1, 1, 1}},  // random
    {0x4e0d0726096ca6faUL, 0xa1331aca8f9be1f5UL, {0x4e0d0726096ca6faUL, 0x4e0d0726096ca6faUL, 0xaf51548c23e5a07dUL}, {1, 1, 1}},  // random
    {0xfcb19f2b96ae0b76UL, 0x7cb19f2b96ae771bUL, {0x7a5ae94000000000UL, 0xfcc19f2b96ae4148UL, 0xfff0000000000000UL}, {0, 1, 3}},  // random
    {0x3f36abcb71871fd5UL, 0x3fee4148cb4cd20aUL, {0x3fee441e44bb02eeUL, 0xbfee3e7351dea126UL, 0x3f356f4f423f472aUL}, {1, 1, 1}},  // random
    {0x2ef6453c5b4fe5bcUL, 0xdd251ab0f9e49b9dUL, {0xdd251ab0f9e49b9dUL, 0x5d251ab0f9e49b9dUL, 0xcc2d60060f58da4dUL}, {1, 1, 1}},  // random
    {0xb9810703599615eaUL, 0xb99107035996f0b7UL, {0xb9998a850661fbacUL, 0x398107035997cb84UL, 0x33221eea314eee4cUL}, {0, 0, 1}},  // random
    {0xc035e9fb9f4bdbd7UL, 0xc0bb3ddacc72d755UL, {0xc0bb53c4c8122331UL, 0x40bb27f0d0d38b79UL, 0x4102a7c82c14206bUL}, {1, 1, 1}},  // random
    {0x2e93cfbd9a6c4ff4UL, 0xeedcf094e864d77fUL, {0xeedcf094e864d77fUL, 0x6edcf094e864d77fUL, 0xdd81eab825d269bdUL}, {1, 1, 1}},  // random
    {0x92a9759f004c2111UL, 0x92b9759f004c21c8UL, {0x92c3183740391928UL, 0x12a9759f004c227fUL, 0x0000000000000000UL}, {1, 0, 1}},  // random
    {0x3f20fd930bddb698UL, 0xc049537191c080f5UL, {0xc049536d525bbdfeUL, 0x40495375d12543ecUL, 0xbf7ae4d1c6fcefafUL}, {1, 1, 1}},  // random
    {0x18f9c97ea0095a8dUL, 0xf3fe4248e45ae9eeUL, {0xf3fe4248e45ae9eeUL, 0x73fe4248e45ae9eeUL, 0xcd0862510894a9afUL}, {1, 1, 1}},  // random
    {0x5b3c4c55f16fe7bdUL, 0x5b1c4c55f16f838bUL, {0x5b41afb5b6e5e450UL, 0x5b353940751406daUL, 0x7669064c7fa5223dUL}, {1, 1, 1}},  // random
};

// The first failures, for a post-mortem (as a test harness on a board would keep them).
#define FAILURE_LOG_SIZE 8

struct failure {
  uint index;  // case * OP_COUNT + op
  uint flags;  // the flags raised
  ulong bits;  // the result computed
};

global struct failure failure_log[FAILURE_LOG_SIZE];
global uint mismatches;
global uint result_hash;

static int same_result(ulong got, ulong want) {
  if (is_nan(want)) return is_nan(got);  // NaN payloads are not compared
  return got == want;
}

// Runs every operation on case `index` in both operand orders: a op b is checked against the table,
// b op a must equal a op b (flags included) for the commutative + and *.
static uint check_case(int index) {
  uint commutative_failures = 0;
  for (int op = 0; op < OP_COUNT; op++) {
    ulong first = 0;
    uint first_flags = 0;
    for (int order = 0; order < 2; order++) {
      if (order == 1 && op == OP_SUB) break;
      ulong x = order ? cases[index].b : cases[index].a;
      ulong y = order ? cases[index].a : cases[index].b;
      exception_flags = 0;
      ulong z = apply((enum op_kind)op, x, y);
      if (order == 1) {
        if (is_nan(z) != is_nan(first) || (!is_nan(z) && z != first) || exception_flags != first_flags)
          commutative_failures++;
        break;
      }
      first = z;
      first_flags = exception_flags;
      // FNV-1a over every result (NaNs as the default NaN: payloads are not part of the contract).
      ulong bits = is_nan(z) ? F64_DEFAULT_NAN : z;
      result_hash = (result_hash ^ (uint)bits) * 16777619u;
      result_hash = (result_hash ^ (uint)(bits >> 32)) * 16777619u;
      result_hash = (result_hash ^ exception_flags) * 16777619u;
      class_histogram[classify(z)]++;
      if (!same_result(z, cases[index].expected[op]) || exception_flags != cases[index].flags[op]) {
        if (mismatches < FAILURE_LOG_SIZE) {
          global struct failure *f = &failure_log[mismatches];
          f->index = (uint)(index * OP_COUNT + op);
          f->flags = exception_flags;
          f->bits = z;
        }
        mismatches++;
      }
    }
  }
  return commutative_failures;
}

kernel void main_kernel(global uint *result) {
  mismatches = 0;
  result_hash = 0x811c9dc5u;
  for (int c = 0; c < 6; c++) class_histogram[c] = 0;
  for (int op = 0; op < OP_COUNT; op++) op_counts[op] = 0;
  uint commutative_failures = 0;
  for (int i = 0; i < CASE_COUNT; i++) commutative_failures += check_case(i);
  uint histogram = 0;
  for (int c = 0; c < 6; c++) histogram = histogram * 257u + class_histogram[c];
  result[0] = mismatches + commutative_failures;
  result[1] = result_hash;
  result[2] = histogram;
  result[3] = op_counts[OP_ADD] + op_counts[OP_SUB] + op_counts[OP_MUL];
}
