// OpenCL.std exp, exp2, exp10, log, log2, log10, sin, cos, tan, atan, asin, acos and pow on float (f32)
// operands, built from existing operations: the f32 operand widened to double, reduced with integer logic on
// the bits and a table, a short polynomial on the f64 adder and multiplier units, one rounding back to f32.
// The double result is within about 2^-41 (relative) of the exact value, so the f32 result is the correctly
// rounded one except where the exact value lies that close to a rounding boundary, and never more
// than one ulp away (docs/floating-point.md has the measurement). Special values are glibc's.
//
// Tables and coefficients: scripts/math_tables.py (mpmath) prints them and their approximation error.
#include <fmt/format.h>

#include "ir/lower_math.h"
#include "ir/lower_translate.h"

namespace spvhls::ir::lower {

namespace ocl = spirv::spv::OpenCLStd;

namespace {

// exp2: x = k/64 + r, |r| <= 2^-7; 2^x = 2^(k >> 6) * kExp2Table[k & 63] * (1 + r * P(r)).
// log2: z = x / 2^k in [kLogOff, 2 * kLogOff) by the double's bits, i the 6 bits of bits(z) - kLogOff
// below the exponent, r = z * kLog2InvC[i] - 1 exactly, log2(x) = k + kLog2C[i] + r * Q(r).
constexpr uint64_t kExp2P[4] = {0x3fe62e42fefa2417, 0x3fcebfbdff82bb76, 0x3fac6b0b9214b9ae,
                                0x3f83b2acb2c36b23};
constexpr uint64_t kExp2Table[64] = {
    0x3ff0000000000000, 0x3ff02c9a3e778061, 0x3ff059b0d3158574, 0x3ff0874518759bc8, 0x3ff0b5586cf9890f,
    0x3ff0e3ec32d3d1a2, 0x3ff11301d0125b51, 0x3ff1429aaea92de0, 0x3ff172b83c7d517b, 0x3ff1a35beb6fcb75,
    0x3ff1d4873168b9aa, 0x3ff2063b88628cd6, 0x3ff2387a6e756238, 0x3ff26b4565e27cdd, 0x3ff29e9df51fdee1,
    0x3ff2d285a6e4030b, 0x3ff306fe0a31b715, 0x3ff33c08b26416ff, 0x3ff371a7373aa9cb, 0x3ff3a7db34e59ff7,
    0x3ff3dea64c123422, 0x3ff4160a21f72e2a, 0x3ff44e086061892d, 0x3ff486a2b5c13cd0, 0x3ff4bfdad5362a27,
    0x3ff4f9b2769d2ca7, 0x3ff5342b569d4f82, 0x3ff56f4736b527da, 0x3ff5ab07dd485429, 0x3ff5e76f15ad2148,
    0x3ff6247eb03a5585, 0x3ff6623882552225, 0x3ff6a09e667f3bcd, 0x3ff6dfb23c651a2f, 0x3ff71f75e8ec5f74,
    0x3ff75feb564267c9, 0x3ff7a11473eb0187, 0x3ff7e2f336cf4e62, 0x3ff82589994cce13, 0x3ff868d99b4492ed,
    0x3ff8ace5422aa0db, 0x3ff8f1ae99157736, 0x3ff93737b0cdc5e5, 0x3ff97d829fde4e50, 0x3ff9c49182a3f090,
    0x3ffa0c667b5de565, 0x3ffa5503b23e255d, 0x3ffa9e6b5579fdbf, 0x3ffae89f995ad3ad, 0x3ffb33a2b84f15fb,
    0x3ffb7f76f2fb5e47, 0x3ffbcc1e904bc1d2, 0x3ffc199bdd85529c, 0x3ffc67f12e57d14b, 0x3ffcb720dcef9069,
    0x3ffd072d4a07897c, 0x3ffd5818dcfba487, 0x3ffda9e603db3285, 0x3ffdfc97337b9b5f, 0x3ffe502ee78b3ff6,
    0x3ffea4afa2a490da, 0x3ffefa1bee615a27, 0x3fff50765b6e4540, 0x3fffa7c1819e90d8};
constexpr uint64_t kLog2Q[5] = {0x3ff71547652b82b5, 0xbfe7154765063e12, 0x3fdec709df78fefd,
                                0xbfd715931e714b66, 0x3fd2767e3da98ac8};
constexpr uint64_t kLog2InvC[64] = {
    0x3ff6816816000000, 0x3ff642c85a000000, 0x3ff6058160000000, 0x3ff5c9882c000000, 0x3ff58ed230000000,
    0x3ff5555556000000, 0x3ff51d07ea000000, 0x3ff4e5e0a8000000, 0x3ff4afd6a0000000, 0x3ff47ae148000000,
    0x3ff446f866000000, 0x3ff4141414000000, 0x3ff3e22cbc000000, 0x3ff3b13b14000000, 0x3ff3813814000000,
    0x3ff3521cfc000000, 0x3ff323e34a000000, 0x3ff2f684be000000, 0x3ff2c9fb4e000000, 0x3ff29e412a000000,
    0x3ff27350b8000000, 0x3ff2492492000000, 0x3ff21fb782000000, 0x3ff1f7047e000000, 0x3ff1cf06ae000000,
    0x3ff1a7b962000000, 0x3ff1811812000000, 0x3ff15b1e60000000, 0x3ff135c812000000, 0x3ff1111112000000,
    0x3ff0ecf56c000000, 0x3ff0c97150000000, 0x3ff0a6810a000000, 0x3ff0842108000000, 0x3ff0624dd2000000,
    0x3ff0410410000000, 0x3ff0204082000000, 0x3ff0000000000000, 0x3fef81f820000000, 0x3fef07c1f0000000,
    0x3fee9131ac000000, 0x3fee1e1e1e000000, 0x3fedae6076000000, 0x3fed41d41e000000, 0x3fecd8568a000000,
    0x3fec71c71c000000, 0x3fec0e0704000000, 0x3febacf914000000, 0x3feb4e81b4000000, 0x3feaf286bc000000,
    0x3fea98ef60000000, 0x3fea41a41a000000, 0x3fe9ec8e96000000, 0x3fe999999a000000, 0x3fe948b0fc000000,
    0x3fe8f9c190000000, 0x3fe8acb910000000, 0x3fe8618618000000, 0x3fe8181818000000, 0x3fe7d05f42000000,
    0x3fe78a4c82000000, 0x3fe745d174000000, 0x3fe702e05c000000, 0x3fe6c16c16000000};
constexpr uint64_t kLog2C[64] = {
    0xbfdf804ae6bde397, 0xbfde7df6024b32f9, 0xbfdd7e6c094ae102, 0xbfdc819dc4a20978, 0xbfdb877c5587b1be,
    0xbfda8ff97463b34b, 0xbfd99b0726b633b4, 0xbfd8a8980e5b105a, 0xbfd7b89f015dd637, 0xbfd6cb0f69d71d60,
    0xbfd5dfdcf4ba41b3, 0xbfd4f6fbb272707b, 0xbfd41060139e19ce, 0xbfd32bfee4e242df, 0xbfd249cd2d6bf6ad,
    0xbfd169c0575b999e, 0xbfd08bce0cc63ab5, 0xbfcf5fd8aca1915c, 0xbfcdac22d8c2bee2, 0xbfcbfc67a914f425,
    0xbfca5094b040808a, 0xbfc8a89807dd1446, 0xbfc704603a9dc4d9, 0xbfc563dc2c860081, 0xbfc3c6fb68d65c07,
    0xbfc22dadcc0bd998, 0xbfc097e39220d876, 0xbfbe0b1af47da109, 0xbfbaed392baa07bc, 0xbfb7d604ab0259c4,
    0xbfb4c5610092ae3a, 0xbfb1bb32abc5a676, 0xbfad6ebd0d174c37, 0xbfa77394be4eb523, 0xbfa184b8ba362f54,
    0xbf9743ee6f09edf1, 0xbf872c7c57d7055e, 0x0000000000000000, 0x3f96e7966ead8ac5, 0x3fa6bad38119a13a,
    0x3fb0eb389ee9f560, 0x3fb663f6fc3a678d, 0x3fbbc84249b1fb9e, 0x3fc08c58882a2763, 0x3fc32ae9dc28dc95,
    0x3fc5c01a3cde7f74, 0x3fc84c2bccf005a9, 0x3fcacf5e32c19432, 0x3fcd49ee52540067, 0x3fcfbc16bd56656d,
    0x3fd11307dc445fec, 0x3fd24407abf4dc03, 0x3fd37124cb4eba9b, 0x3fd49a784a5bc715, 0x3fd5c01a3d0caa03,
    0x3fd6e221cc2bb868, 0x3fd800a560ec1da3, 0x3fd91bba8a906b7f, 0x3fda33760adbb56e, 0x3fdb47ebf53cae7e,
    0x3fdc592fab1671ec, 0x3fdd6753e1a43e85, 0x3fde726aa2157f61, 0x3fdf7a856bdbda4a};

// sin, cos: x * 64/pi = j + u (mod 128), |u| <= 1/2, from the bits of 64/pi (floor(64/pi * 2^256), least
// significant word first); sin(x) = S[j] * cos(r) + S[j + 32] * sin(r), r = u * pi/64, S[j] = sin(j * pi/64),
// sin(r) = u * G(u^2), cos(r) - 1 = u^2 * H(u^2).
constexpr uint64_t kSinG[3] = {0x3fa921fb54442d0f, 0xbef4abbce6102b91, 0x3e24669fa3c4339e};
constexpr uint64_t kSinH[2] = {0xbf53bd3cc9b39748, 0x3e903c09aaec0a35};
constexpr uint64_t kSinTable[128] = {
    0x0000000000000000, 0x3fa91f65f10dd814, 0x3fb917a6bc29b42c, 0x3fc2c8106e8e613a, 0x3fc8f8b83c69a60b,
    0x3fcf19f97b215f1b, 0x3fd294062ed59f06, 0x3fd58f9a75ab1fdd, 0x3fd87de2a6aea963, 0x3fdb5d1009e15cc0,
    0x3fde2b5d3806f63b, 0x3fe073879922ffee, 0x3fe1c73b39ae68c8, 0x3fe30ff7fce17035, 0x3fe44cf325091dd6,
    0x3fe57d69348ceca0, 0x3fe6a09e667f3bcd, 0x3fe7b5df226aafaf, 0x3fe8bc806b151741, 0x3fe9b3e047f38741,
    0x3fea9b66290ea1a3, 0x3feb728345196e3e, 0x3fec38b2f180bdb1, 0x3feced7af43cc773, 0x3fed906bcf328d46,
    0x3fee212104f686e5, 0x3fee9f4156c62dda, 0x3fef0a7efb9230d7, 0x3fef6297cff75cb0, 0x3fefa7557f08a517,
    0x3fefd88da3d12526, 0x3feff621e3796d7e, 0x3ff0000000000000, 0x3feff621e3796d7e, 0x3fefd88da3d12526,
    0x3fefa7557f08a517, 0x3fef6297cff75cb0, 0x3fef0a7efb9230d7, 0x3fee9f4156c62dda, 0x3fee212104f686e5,
    0x3fed906bcf328d46, 0x3feced7af43cc773, 0x3fec38b2f180bdb1, 0x3feb728345196e3e, 0x3fea9b66290ea1a3,
    0x3fe9b3e047f38741, 0x3fe8bc806b151741, 0x3fe7b5df226aafaf, 0x3fe6a09e667f3bcd, 0x3fe57d69348ceca0,
    0x3fe44cf325091dd6, 0x3fe30ff7fce17035, 0x3fe1c73b39ae68c8, 0x3fe073879922ffee, 0x3fde2b5d3806f63b,
    0x3fdb5d1009e15cc0, 0x3fd87de2a6aea963, 0x3fd58f9a75ab1fdd, 0x3fd294062ed59f06, 0x3fcf19f97b215f1b,
    0x3fc8f8b83c69a60b, 0x3fc2c8106e8e613a, 0x3fb917a6bc29b42c, 0x3fa91f65f10dd814, 0x0000000000000000,
    0xbfa91f65f10dd814, 0xbfb917a6bc29b42c, 0xbfc2c8106e8e613a, 0xbfc8f8b83c69a60b, 0xbfcf19f97b215f1b,
    0xbfd294062ed59f06, 0xbfd58f9a75ab1fdd, 0xbfd87de2a6aea963, 0xbfdb5d1009e15cc0, 0xbfde2b5d3806f63b,
    0xbfe073879922ffee, 0xbfe1c73b39ae68c8, 0xbfe30ff7fce17035, 0xbfe44cf325091dd6, 0xbfe57d69348ceca0,
    0xbfe6a09e667f3bcd, 0xbfe7b5df226aafaf, 0xbfe8bc806b151741, 0xbfe9b3e047f38741, 0xbfea9b66290ea1a3,
    0xbfeb728345196e3e, 0xbfec38b2f180bdb1, 0xbfeced7af43cc773, 0xbfed906bcf328d46, 0xbfee212104f686e5,
    0xbfee9f4156c62dda, 0xbfef0a7efb9230d7, 0xbfef6297cff75cb0, 0xbfefa7557f08a517, 0xbfefd88da3d12526,
    0xbfeff621e3796d7e, 0xbff0000000000000, 0xbfeff621e3796d7e, 0xbfefd88da3d12526, 0xbfefa7557f08a517,
    0xbfef6297cff75cb0, 0xbfef0a7efb9230d7, 0xbfee9f4156c62dda, 0xbfee212104f686e5, 0xbfed906bcf328d46,
    0xbfeced7af43cc773, 0xbfec38b2f180bdb1, 0xbfeb728345196e3e, 0xbfea9b66290ea1a3, 0xbfe9b3e047f38741,
    0xbfe8bc806b151741, 0xbfe7b5df226aafaf, 0xbfe6a09e667f3bcd, 0xbfe57d69348ceca0, 0xbfe44cf325091dd6,
    0xbfe30ff7fce17035, 0xbfe1c73b39ae68c8, 0xbfe073879922ffee, 0xbfde2b5d3806f63b, 0xbfdb5d1009e15cc0,
    0xbfd87de2a6aea963, 0xbfd58f9a75ab1fdd, 0xbfd294062ed59f06, 0xbfcf19f97b215f1b, 0xbfc8f8b83c69a60b,
    0xbfc2c8106e8e613a, 0xbfb917a6bc29b42c, 0xbfa91f65f10dd814};
// atan: t = |x| or 1/|x| (|x| > 1), c = i/64 the nearest grid point (i = 0..64), r = (t - c) / (1 + t*c),
// |r| <= 2^-7; atan(t) = kAtanTable[i] + r * (1 + r^2 * K(r^2)); atan(|x|) = pi/2 - atan(t) for |x| > 1.
constexpr uint64_t kAtanK[3] = {0xbfd5555555555547, 0x3fc9999999199bf7, 0xbfc248cf3e2df98e};
constexpr uint64_t kAtanTable[65] = {
    0x0000000000000000, 0x3f8fff555bbb729b, 0x3f9ffd55bba97625, 0x3fa7fb818430da2a, 0x3faff55bb72cfdea,
    0x3fb3f59f0e7c559d, 0x3fb7ee182602f10f, 0x3fbbe39ebe6f07c3, 0x3fbfd5ba9aac2f6e, 0x3fc1e1fafb043727,
    0x3fc3d6eee8c6626c, 0x3fc5c9811e3ec26a, 0x3fc7b97b4bce5b02, 0x3fc9a6a8e96c8626, 0x3fcb90d7529260a2,
    0x3fcd77d5df205736, 0x3fcf5b75f92c80dd, 0x3fd09dc597d86362, 0x3fd18bf5a30bf178, 0x3fd278372057ef46,
    0x3fd362773707ebcc, 0x3fd44aa436c2af0a, 0x3fd530ad9951cd4a, 0x3fd614840309cfe2, 0x3fd6f61941e4def1,
    0x3fd7d5604b63b3f7, 0x3fd8b24d394a1b25, 0x3fd98cd5454d6b18, 0x3fda64eec3cc23fd, 0x3fdb3a911da65c6c,
    0x3fdc0db4c94ec9f0, 0x3fdcde53432c1351, 0x3fddac670561bb4f, 0x3fde77eb7f175a34, 0x3fdf40dd0b541418,
    0x3fe0039c73c1a40c, 0x3fe0657e94db30d0, 0x3fe0c6145b5b43da, 0x3fe1255d9bfbd2a9, 0x3fe1835a88be7c13,
    0x3fe1e00babdefeb4, 0x3fe23b71e2cc9e6a, 0x3fe2958e59308e31, 0x3fe2ee628406cbca, 0x3fe345f01cce37bb,
    0x3fe39c391cd4171a, 0x3fe3f13fb89e96f4, 0x3fe445065b795b56, 0x3fe4978fa3269ee1, 0x3fe4e8de5bb6ec04,
    0x3fe538f57b89061f, 0x3fe587d81f732fbb, 0x3fe5d58987169b18, 0x3fe6220d115d7b8e, 0x3fe66d663923e087,
    0x3fe6b798920b3d99, 0x3fe700a7c5784634, 0x3fe748978fba8e0f, 0x3fe78f6bbd5d315e, 0x3fe7d528289fa093,
    0x3fe819d0b7158a4d, 0x3fe85d69576cc2c5, 0x3fe89ff5ff57f1f8, 0x3fe8e17aa99cc05e, 0x3fe921fb54442d18};
constexpr uint64_t kHalfPi = 0x3ff921fb54442d18;
constexpr uint64_t kPi = 0x400921fb54442d18;
constexpr uint64_t kSixtyFourOverPi[5] = {0xca2c757bd778ac36, 0x6c52b3278872083f, 0x84eafa3ea69bb81b,
                                          0x5f306dc9c882a53f, 0x0000000000000014};

constexpr uint64_t kOne = 0x3ff0000000000000;      // 1.0
constexpr uint64_t kShift = 0x42d8000000000000;    // 1.5 * 2^46: adding it rounds to a multiple of 2^-6
constexpr uint64_t kLogOff = 0x3fe6a00000000000;   // 0.70703125: 1.0 sits mid-interval (invc 1)
constexpr uint64_t kLog2E = 0x3ff71547652b82fe;    // log2(e)
constexpr uint64_t kLog2Ten = 0x400a934f0979a371;  // log2(10)
constexpr uint64_t kLn2 = 0x3fe62e42fefa39ef;      // ln(2)
constexpr uint64_t kLog10Two = 0x3fd34413509f79ff; // log10(2)
constexpr uint64_t kInf32 = 0x7f800000, kNegInf32 = 0xff800000, kQuiet32 = 0x00400000;

struct Emitter {
  Builder& b;
  ValueId k64(uint64_t v) { return b.constant(64, v); }
  ValueId k32(uint64_t v) { return b.constant(32, v); }
  ValueId op(OpKind kind, ValueId x, ValueId y) { return b.binary(kind, x, y); }
  ValueId fadd(ValueId x, ValueId y) { return op(OpKind::FAdd, x, y); }
  ValueId fsub(ValueId x, ValueId y) { return op(OpKind::FSub, x, y); }
  ValueId fmul(ValueId x, ValueId y) { return op(OpKind::FMul, x, y); }
  // Tests on the bits of an f32 value x (the builder's CSE makes repeated calls one op each).
  ValueId eq32(ValueId v, uint64_t c) { return op(OpKind::Eq, v, k32(c)); }
  ValueId mag32(ValueId x) { return op(OpKind::And, x, k32(0x7fffffff)); }
  ValueId neg32(ValueId x) { return op(OpKind::UGt, x, k32(0x7fffffff)); }
  ValueId nan32(ValueId x) { return op(OpKind::UGt, mag32(x), k32(kInf32)); }
  ValueId inf32(ValueId x) { return eq32(mag32(x), kInf32); }
  ValueId quiet32(ValueId x) { return op(OpKind::Or, x, k32(kQuiet32)); }
  // x + y for a NaN operand as x86 (and so glibc) computes it: x's NaN quieted if x is one, else y's.
  ValueId nanSum32(ValueId x, ValueId y) { return b.select(nan32(x), quiet32(x), quiet32(y)); }
  // A conversion unit (imm: the operand's width), folded for a constant operand.
  ValueId convert(OpKind kind, ValueId x, uint32_t to) { return emitFolded(b, kind, to, {x}, b.width(x)); }
  // table[index] (index < 2^bits; 0 past the table's end) as a tree of selects on the index bits, low
  // bit first: constants only, which synthesis reduces to logic of the index bits.
  template <size_t N> ValueId lookup(const uint64_t (&table)[N], uint32_t bits, ValueId index) {
    std::vector<ValueId> level;
    for (uint32_t e = 0; e < (1u << bits); ++e)
      level.push_back(k64(e < N ? table[e] : 0));
    for (uint32_t bit = 0; bit < bits; ++bit) {
      const ValueId sel = b.resize(op(OpKind::LShr, index, k64(bit)), 1, false);
      std::vector<ValueId> next;
      for (size_t e = 0; e < level.size(); e += 2)
        next.push_back(b.select(sel, level[e + 1], level[e]));
      level = std::move(next);
    }
    return level[0];
  }
  // Horner: c[0] + y * (c[1] + ... + y * c[n-1]).
  ValueId horner(const uint64_t* c, size_t n, ValueId y) {
    ValueId acc = k64(c[n - 1]);
    for (size_t i = n - 1; i-- > 0;)
      acc = fadd(fmul(acc, y), k64(c[i]));
    return acc;
  }

  // 2^y for a double |y| <= 1000 (k fits the low bits of kd; 2^y is a normal double): the f64 result.
  ValueId exp2Core(ValueId y) {
    const ValueId kd = fadd(y, k64(kShift));             // k/64 + 1.5 * 2^46, k = y * 64 rounded to nearest
    const ValueId ki = op(OpKind::Sub, kd, k64(kShift)); // k, two's complement in the low bits
    const ValueId r = fsub(y, fsub(kd, k64(kShift)));    // y - k/64, exact
    const ValueId t = lookup(kExp2Table, 6, op(OpKind::And, ki, k64(63)));
    const ValueId q = fadd(fmul(horner(kExp2P, 4, r), r), k64(kOne)); // 2^r
    const ValueId scaled = fmul(t, q);                                // in [0.99, 2.02)
    // * 2^(k >> 6): added to the exponent field (the result stays a normal double).
    return op(OpKind::Add, scaled, op(OpKind::Shl, op(OpKind::AShr, ki, k64(6)), k64(52)));
  }

  // The parts of sin and cos of |x| for mag = |x| >= 2^-12 (f32 bits), all f64: |x| = a + r with
  // a = j * pi/64, sj = sin(a), cj = cos(a), sn = sin(r), cm = cos(r) - 1. The reduction is exact
  // integer arithmetic: x = m * 2^e, and x * 64/pi mod 128 is the top of the low 128 bits of m * A,
  // A the 128 bits of 64/pi from 2^(-e-121) on (the bits above only add multiples of 128, those
  // below less than 2^-97); u keeps 121 fraction bits, enough where x nears a multiple of pi/64.
  struct SinCosParts {
    ValueId sj, cj, sn, cm;
  };
  SinCosParts sinCosReduce(ValueId mag) {
    const ValueId mag64 = b.resize(mag, 64, false);
    const ValueId m = op(OpKind::Or, op(OpKind::And, mag64, k64(0x7fffff)), k64(0x800000));
    const ValueId sh = op(OpKind::Sub, k64(285), op(OpKind::LShr, mag64, k64(23))); // 135 - e, in [31, 170]
    const ValueId q = op(OpKind::LShr, sh, k64(6)), bit = op(OpKind::And, sh, k64(63));
    auto word = [&](uint32_t from) { // kSixtyFourOverPi[q + from], q < 3
      uint64_t t[4] = {};
      for (uint32_t i = 0; i < 4 && i + from < 5; ++i)
        t[i] = kSixtyFourOverPi[i + from];
      return lookup(t, 2, q);
    };
    const ValueId w0 = word(0), w1 = word(1), w2 = word(2);
    auto funnel = [&](ValueId lo, ValueId hi) { // 64 bits of hi:lo from `bit` on
      const ValueId joined =
          op(OpKind::Or, op(OpKind::LShr, lo, bit), op(OpKind::Shl, hi, op(OpKind::Sub, k64(64), bit)));
      return b.select(op(OpKind::Eq, bit, k64(0)), lo, joined);
    };
    const ValueId a0 = funnel(w0, w1), a1 = funnel(w1, w2);
    // The low 128 bits of m * (a1:a0), m < 2^24, from 64-bit products.
    const ValueId p0 = op(OpKind::Mul, m, op(OpKind::And, a0, k64(0xffffffff)));
    const ValueId p1 = op(OpKind::Mul, m, op(OpKind::LShr, a0, k64(32)));
    const ValueId lo = op(OpKind::Add, p0, op(OpKind::Shl, p1, k64(32)));
    const ValueId carry = b.resize(op(OpKind::ULt, lo, p0), 64, false);
    const ValueId hi =
        op(OpKind::Add, op(OpKind::Add, op(OpKind::Mul, m, a1), op(OpKind::LShr, p1, k64(32))), carry);
    // Integer part: the top 7 bits; the fraction as a signed 64-bit fixed point t in [-1/2, 1/2) (its
    // top bit set means the integer part rounds up) and 64 more bits below it.
    const ValueId t = op(OpKind::Or, op(OpKind::Shl, hi, k64(7)), op(OpKind::LShr, lo, k64(57)));
    const ValueId below = op(OpKind::Shl, lo, k64(7));
    const ValueId j =
        op(OpKind::Add, op(OpKind::LShr, hi, k64(57)), b.resize(op(OpKind::SLt, t, k64(0)), 64, false));
    // u * 2^64 = t + below / 2^64 in double, then u (scaling by powers of two on the exponent field).
    auto scaleDown = [&](ValueId v) { // v * 2^-64, v a normal double or +-0
      return b.select(op(OpKind::Eq, op(OpKind::Shl, v, k64(1)), k64(0)), v,
                      op(OpKind::Sub, v, k64(uint64_t(64) << 52)));
    };
    const ValueId u =
        scaleDown(fadd(convert(OpKind::SIToFP, t, 64), scaleDown(convert(OpKind::UIToFP, below, 64))));
    const ValueId w = fmul(u, u);
    SinCosParts p;
    p.sn = fmul(horner(kSinG, 3, w), u); // sin(r)
    p.cm = fmul(horner(kSinH, 2, w), w); // cos(r) - 1
    const ValueId j0 = op(OpKind::And, j, k64(127));
    p.sj = lookup(kSinTable, 7, j0);
    p.cj = lookup(kSinTable, 7, op(OpKind::And, op(OpKind::Add, j0, k64(32)), k64(127))); // sin(a + pi/2)
    return p;
  }
  // sin(a + r) = sj * cos(r) + cj * sin(r); cos(a + r) = cj * cos(r) - sj * sin(r).
  ValueId sinOf(const SinCosParts& p) { return fadd(fadd(p.sj, fmul(p.sj, p.cm)), fmul(p.cj, p.sn)); }
  ValueId cosOf(const SinCosParts& p) { return fsub(fadd(p.cj, fmul(p.cj, p.cm)), fmul(p.sj, p.sn)); }

  // atan(t) for a double t in [0, 1]: the f64 result.
  ValueId atanUnit(ValueId t) {
    const ValueId kd = fadd(t, k64(kShift)); // i/64 + 1.5 * 2^46, i = t * 64 rounded to nearest
    const ValueId i = op(OpKind::Sub, kd, k64(kShift));
    const ValueId c = fsub(kd, k64(kShift));
    // t - c is exact (c's bits lie above t's last), 1 + t * c rounds twice: r within 2^-51.
    const ValueId r = op(OpKind::FDiv, fsub(t, c), fadd(k64(kOne), fmul(t, c)));
    const ValueId w = fmul(r, r);
    return fadd(lookup(kAtanTable, 7, i), fadd(r, fmul(fmul(horner(kAtanK, 3, w), w), r)));
  }
  // atan(|x|) for d = |x| as a double, finite (f32 operand), big = (|x| > 1): the f64 result.
  ValueId atanCore(ValueId d, ValueId big) {
    const ValueId a = atanUnit(b.select(big, op(OpKind::FDiv, k64(kOne), d), d)); // t in [0, 1]
    return b.select(big, fsub(k64(kHalfPi), a), a);
  }
  // asin(a) and acos(a) for a = |x| <= 1 as a double: with s = sqrt((1 - a)(1 + a)) (1 - a and 1 + a
  // exact, their product rounded once), asin(a) = atan(a / s) and acos(a) = atan(s / a), each taken as
  // atan(t) or pi/2 - atan(t) with t = min(a, s) / max(a, s) <= 1, so neither subtracts nearly equal
  // values: the f64 results {asin, acos}.
  std::pair<ValueId, ValueId> asinAcosCore(ValueId a) {
    const ValueId s = emitFolded(b, OpKind::FSqrt, 64, {fmul(fsub(k64(kOne), a), fadd(k64(kOne), a))}, 0);
    const ValueId aBigger = op(OpKind::UGt, a, s); // both non-negative doubles: the bits order them
    const ValueId t = op(OpKind::FDiv, b.select(aBigger, s, a), b.select(aBigger, a, s));
    const ValueId at = atanUnit(t), rest = fsub(k64(kHalfPi), at);
    return {b.select(aBigger, rest, at), b.select(aBigger, at, rest)};
  }

  // log2(d) for d the double of a positive finite f32: the f64 result.
  ValueId log2Core(ValueId d) {
    const ValueId tmp = op(OpKind::Sub, d, k64(kLogOff));
    const ValueId k = op(OpKind::AShr, tmp, k64(52));
    const ValueId z = op(OpKind::Sub, d, op(OpKind::Shl, k, k64(52))); // d / 2^k
    const ValueId i = op(OpKind::And, op(OpKind::LShr, tmp, k64(46)), k64(63));
    // z has 24 significant bits, invc 28: the product is exact, and so is the difference from 1.
    const ValueId r = fsub(fmul(z, lookup(kLog2InvC, 6, i)), k64(kOne));
    const ValueId p = fmul(horner(kLog2Q, 5, r), r);
    const ValueId kd = convert(OpKind::SIToFP, b.resize(k, 32, false), 64);
    return fadd(fadd(kd, lookup(kLog2C, 6, i)), p);
  }
};

} // namespace

const char* mathFnName(MathFn fn) {
  switch (fn) {
  case MathFn::Exp:
    return "exp";
  case MathFn::Exp2:
    return "exp2";
  case MathFn::Exp10:
    return "exp10";
  case MathFn::Log:
    return "log";
  case MathFn::Log2:
    return "log2";
  case MathFn::Log10:
    return "log10";
  case MathFn::Sin:
    return "sin";
  case MathFn::Cos:
    return "cos";
  case MathFn::Tan:
    return "tan";
  case MathFn::Atan:
    return "atan";
  case MathFn::Asin:
    return "asin";
  case MathFn::Acos:
    return "acos";
  case MathFn::Pow:
    return "pow";
  default:
    return "atan2";
  }
}

uint32_t mathMaxUlps(MathFn) {
  return 1;
}

uint32_t glibcMaxUlps(MathFn fn) {
  return fn == MathFn::Log10 ? 2 : 1; // powf: 0.82 ulp (glibc's source)
}

std::optional<MathFn> mathFnOf(uint32_t n) {
  switch (n) {
  case ocl::Exp:
    return MathFn::Exp;
  case ocl::Exp2:
    return MathFn::Exp2;
  case ocl::Exp10:
    return MathFn::Exp10;
  case ocl::Log:
    return MathFn::Log;
  case ocl::Log2:
    return MathFn::Log2;
  case ocl::Log10:
    return MathFn::Log10;
  case ocl::Sin:
    return MathFn::Sin;
  case ocl::Cos:
    return MathFn::Cos;
  case ocl::Tan:
    return MathFn::Tan;
  case ocl::Atan:
    return MathFn::Atan;
  case ocl::Asin:
    return MathFn::Asin;
  case ocl::Acos:
    return MathFn::Acos;
  case ocl::Pow:
    return MathFn::Pow;
  case ocl::Atan2:
    return MathFn::Atan2;
  default:
    return std::nullopt;
  }
}

ValueId buildMathF32(Builder& b, MathFn fn, ValueId x) {
  Emitter e{b};
  const ValueId mag = e.mag32(x), neg = e.neg32(x), nan = e.nan32(x);
  // A NaN comes back quieted with its sign and payload (glibc gets the operand widened to double,
  // which quiets it, and returns it).
  const ValueId quieted = e.quiet32(x);
  if (fn == MathFn::Sin || fn == MathFn::Cos || fn == MathFn::Tan) {
    // Below 2^-12, sin(x) and tan(x) round to x and cos(x) to 1; sin and tan are odd, cos even; all
    // three of an infinity are the default NaN. tan = sin / cos in double: both are within about
    // 2^-46 (relative) of the exact value, cos too near its zeros (there sj is +-1 and cj 0 or at
    // least sin(pi/128), so the subtraction loses at most a bit), and the quotient rounds once more.
    const bool cosine = fn == MathFn::Cos;
    const Emitter::SinCosParts p = e.sinCosReduce(mag);
    const ValueId v = fn == MathFn::Cos   ? e.cosOf(p)
                      : fn == MathFn::Sin ? e.sinOf(p)
                                          : e.op(OpKind::FDiv, e.sinOf(p), e.cosOf(p));
    ValueId r = e.convert(OpKind::FPToFP, v, 32);
    if (!cosine) r = e.op(OpKind::Xor, r, e.op(OpKind::And, x, e.k32(0x80000000)));
    const ValueId tiny = e.op(OpKind::ULt, mag, e.k32(0x39800000));
    const ValueId special = b.select(nan, quieted, e.k32(0xffc00000));
    return b.select(e.op(OpKind::UGe, mag, e.k32(kInf32)), special,
                    b.select(tiny, cosine ? e.k32(0x3f800000) : x, r));
  }
  if (fn == MathFn::Atan) {
    // Odd; below 2^-12 atan(x) rounds to x; atan(+-inf) = +-pi/2 rounded to float.
    const ValueId sign = e.op(OpKind::And, x, e.k32(0x80000000));
    const ValueId d = e.convert(OpKind::FPToFP, mag, 64);
    const ValueId r =
        e.op(OpKind::Or,
             e.convert(OpKind::FPToFP, e.atanCore(d, e.op(OpKind::UGt, mag, e.k32(0x3f800000))), 32), sign);
    const ValueId tiny = e.op(OpKind::ULt, mag, e.k32(0x39800000));
    const ValueId inf = e.op(OpKind::Or, sign, e.k32(0x3fc90fdb));
    return b.select(nan, quieted, b.select(e.inf32(x), inf, b.select(tiny, x, r)));
  }
  if (fn == MathFn::Asin || fn == MathFn::Acos) {
    // |x| > 1 (infinities included) gives a NaN, positive as glibc's asinf and acosf return it; asin is odd
    // and rounds to x below 2^-12; acos(x) = pi - acos(|x|) for x < 0 (at least pi/2: no cancellation).
    const auto [asin, acos] = e.asinAcosCore(e.convert(OpKind::FPToFP, mag, 64));
    ValueId r;
    if (fn == MathFn::Asin) {
      r = e.op(OpKind::Or, e.convert(OpKind::FPToFP, asin, 32), e.op(OpKind::And, x, e.k32(0x80000000)));
      r = b.select(e.op(OpKind::ULt, mag, e.k32(0x39800000)), x, r);
    } else {
      r = e.convert(OpKind::FPToFP, b.select(neg, e.fsub(e.k64(kPi), acos), acos), 32);
    }
    const ValueId outside = e.op(OpKind::UGt, mag, e.k32(0x3f800000));
    return b.select(nan, quieted, b.select(outside, e.k32(0x7fc00000), r));
  }
  const ValueId d = e.convert(OpKind::FPToFP, x, 64);
  if (fn == MathFn::Exp || fn == MathFn::Exp2 || fn == MathFn::Exp10) {
    // Beyond `limit` (infinities included) the result is +inf or +0 for sure; below it 2^y stays a
    // normal double and the rounding to f32 overflows or underflows as the exact value would.
    const uint64_t limit = fn == MathFn::Exp2  ? 0x43480000 /* 200 */
                           : fn == MathFn::Exp ? 0x43160000 /* 150 */
                                               : 0x42480000 /* 50 */;
    const ValueId y = fn == MathFn::Exp2 ? d : e.fmul(d, e.k64(fn == MathFn::Exp ? kLog2E : kLog2Ten));
    const ValueId r = e.convert(OpKind::FPToFP, e.exp2Core(y), 32);
    const ValueId saturated = b.select(neg, e.k32(0), e.k32(kInf32));
    return b.select(nan, quieted, b.select(e.op(OpKind::UGt, mag, e.k32(limit)), saturated, r));
  }
  ValueId y = e.log2Core(d);
  if (fn == MathFn::Log) y = e.fmul(y, e.k64(kLn2));
  if (fn == MathFn::Log10) y = e.fmul(y, e.k64(kLog10Two));
  const ValueId r = e.convert(OpKind::FPToFP, y, 32);
  // glibc: log(+-0) = -inf, log(+inf) = +inf, log(x < 0) = the default NaN, which glibc's log10f
  // makes positive and the others negative.
  const ValueId invalid = e.k32(fn == MathFn::Log10 ? 0x7fc00000 : 0xffc00000);
  const ValueId zero = e.op(OpKind::Eq, mag, e.k32(0));
  const ValueId special = b.select(zero, e.k32(kNegInf32), b.select(neg, invalid, e.k32(kInf32)));
  const ValueId useSpecial = e.op(OpKind::Or, e.op(OpKind::Or, zero, neg), e.inf32(x));
  return b.select(nan, quieted, b.select(useSpecial, special, r));
}

// pow as glibc's powf computes it (special cases in its order), the rest as 2^(y * log2|x|) in double:
// log2Core is within about 2^-51 * |log2 x| + 2^-55 of log2|x| and y has 24 bits, so wherever the
// result is neither 0 nor infinite (|y * log2|x|| < 150) the exponent is within about 2^-41 of the
// exact one and the f32 result within 1 ulp of the correctly rounded value (tests/unit/test_math_pow.cpp).
// The operands' NaNs are quiet: the interpreter hands powf its operands through double, which quiets
// a signalling NaN, so pow(sNaN, 0) is 1 as for any other NaN.
ValueId buildPowF32(Builder& b, ValueId x, ValueId y) {
  Emitter e{b};
  auto both = [&](ValueId p, ValueId q) { return e.op(OpKind::And, p, q); };
  auto either = [&](ValueId p, ValueId q) { return e.op(OpKind::Or, p, q); };
  const ValueId one = e.k32(0x3f800000), signBit = e.k32(0x80000000);
  const ValueId xmag = e.mag32(x), ymag = e.mag32(y), xneg = e.neg32(x), yneg = e.neg32(y);
  const ValueId xnan = e.nan32(x), ynan = e.nan32(y), yinf = e.inf32(y);
  // x is 0, an infinity or a NaN: glibc's x * x, negated for an odd integer y, inverted for y < 0.
  const ValueId xSpecial = either(e.eq32(xmag, 0), e.op(OpKind::UGe, xmag, e.k32(kInf32)));
  const ValueId xQuiet = e.quiet32(x);
  // y's class for finite nonzero y: |y| < 1 is no integer, |y| >= 2^24 an even one; between, the
  // significand shifted by e - 127 keeps the fraction in its low 23 bits and the units bit above.
  const ValueId ey = e.op(OpKind::LShr, ymag, e.k32(23));
  const ValueId below = e.op(OpKind::ULt, ey, e.k32(127)), above = e.op(OpKind::UGt, ey, e.k32(150));
  const ValueId m =
      e.op(OpKind::Or, b.resize(e.op(OpKind::And, y, e.k32(0x7fffff)), 64, false), e.k64(0x800000));
  const ValueId shift =
      b.select(either(below, above), e.k64(0), b.resize(e.op(OpKind::Sub, ey, e.k32(127)), 64, false));
  const ValueId shifted = e.op(OpKind::Shl, m, shift);
  const ValueId whole = e.op(OpKind::Eq, e.op(OpKind::And, shifted, e.k64(0x7fffff)), e.k64(0));
  const ValueId isInt = either(above, both(b.unary(OpKind::Not, below), whole));
  const ValueId unitBit = b.resize(e.op(OpKind::LShr, shifted, e.k64(23)), 1, false);
  const ValueId odd = both(both(b.unary(OpKind::Not, either(below, above)), whole), unitBit);
  const ValueId sign = b.select(both(xneg, odd), signBit, e.k32(0));
  // |x|^y = 2^(y * log2|x|) for finite nonzero x and y; beyond 200 (either way) it is +inf or +0 for
  // sure, below it 2^t stays a normal double (exp2Core) and rounding to f32 over- or underflows as
  // the exact value would.
  const ValueId t = e.fmul(e.convert(OpKind::FPToFP, y, 64), e.log2Core(e.convert(OpKind::FPToFP, xmag, 64)));
  const ValueId tBig =
      e.op(OpKind::UGt, e.op(OpKind::And, t, e.k64(0x7fffffffffffffff)), e.k64(0x4069000000000000));
  const ValueId tNeg = e.op(OpKind::UGt, t, e.k64(0x7fffffffffffffff));
  const ValueId mag =
      b.select(tBig, b.select(tNeg, e.k32(0), e.k32(kInf32)), e.convert(OpKind::FPToFP, e.exp2Core(t), 32));
  ValueId r = e.op(OpKind::Or, mag, sign);
  // A negative finite x with a y that is no integer: the default NaN (x86's, negative).
  r = b.select(both(xneg, b.unary(OpKind::Not, isInt)), e.k32(0xffc00000), r);
  const ValueId zeroOrInf = b.select(e.op(OpKind::Xor, e.inf32(x), yneg), e.k32(kInf32), e.k32(0));
  r = b.select(xSpecial, b.select(xnan, e.op(OpKind::Xor, xQuiet, sign), e.op(OpKind::Or, zeroOrInf, sign)),
               r);
  // y is an infinity or a NaN: x + y for a NaN (x's if x is one), 1 for x = -1, else 0 or +inf.
  const ValueId small = e.op(OpKind::ULt, xmag, one);
  const ValueId infPow = b.select(e.eq32(xmag, 0x3f800000), one,
                                  b.select(e.op(OpKind::Xor, small, yneg), e.k32(0), e.k32(kInf32)));
  r = b.select(either(ynan, yinf), b.select(either(xnan, ynan), e.nanSum32(x, y), infPow), r);
  return b.select(either(e.eq32(ymag, 0), e.eq32(x, 0x3f800000)), one, r);
}

// atan2(y, x) as glibc's atan2f gives it: a NaN operand gives x + y (x's NaN quieted if x is one, else
// y's); y = +-0 gives +-0 for x > 0 or x = +0 and +-pi for x < 0 or x = -0; x = +-0 or y = +-inf
// (x finite) +-pi/2; x = +inf +-0 or, for an infinite y, +-pi/4; x = -inf +-pi or +-3pi/4. Otherwise
// t = min(|y|, |x|) / max(|y|, |x|) on the f64 divider, a = atan(t) or pi/2 - atan(t) for |y| > |x|,
// pi - a for x < 0, and y's sign.
ValueId buildAtan2F32(Builder& b, ValueId y, ValueId x) {
  Emitter e{b};
  const ValueId ymag = e.mag32(y), xmag = e.mag32(x), xneg = e.neg32(x), xinf = e.inf32(x);
  const ValueId ysign = e.op(OpKind::And, y, e.k32(0x80000000));
  const ValueId yBigger = e.op(OpKind::UGt, ymag, xmag); // both magnitudes: the bits order them
  const ValueId yd = e.convert(OpKind::FPToFP, ymag, 64), xd = e.convert(OpKind::FPToFP, xmag, 64);
  const ValueId t = e.op(OpKind::FDiv, b.select(yBigger, xd, yd), b.select(yBigger, yd, xd));
  const ValueId at = e.atanUnit(t);
  const ValueId a = b.select(yBigger, e.fsub(e.k64(kHalfPi), at), at);
  const ValueId full = b.select(xneg, e.fsub(e.k64(kPi), a), a);
  // Rounded to float, the constants below: pi/4, pi/2, 3pi/4, pi.
  const ValueId k = b.select(xinf, b.select(xneg, e.k32(0x4016cbe4), e.k32(0x3f490fdb)), e.k32(0x3fc90fdb));
  ValueId r = e.convert(OpKind::FPToFP, full, 32);
  // x = +-inf with finite y: 0 or pi; y = +-inf (x finite) or x = +-0 (y nonzero): pi/2; both infinite: k.
  r = b.select(xinf, b.select(xneg, e.k32(0x40490fdb), e.k32(0)), r);
  r = b.select(e.op(OpKind::Or, e.inf32(y), e.eq32(xmag, 0)), b.select(xinf, k, e.k32(0x3fc90fdb)), r);
  r = b.select(e.eq32(ymag, 0), b.select(xneg, e.k32(0x40490fdb), e.k32(0)), r);
  r = e.op(OpKind::Or, r, ysign);
  return b.select(e.op(OpKind::Or, e.nan32(x), e.nan32(y)), e.nanSum32(x, y), r);
}

ValueId buildMath2F32(Builder& b, MathFn fn, ValueId x, ValueId y) {
  return fn == MathFn::Pow ? buildPowF32(b, x, y) : buildAtan2F32(b, x, y);
}

ValueId buildMath2F16(Builder& b, MathFn fn, ValueId x, ValueId y) {
  const ValueId r = buildMath2F32(b, fn, emitFolded(b, OpKind::FPToFP, 32, {x}, 16),
                                  emitFolded(b, OpKind::FPToFP, 32, {y}, 16));
  return emitFolded(b, OpKind::FPToFP, 16, {r}, 32);
}

ValueId buildMathF16(Builder& b, MathFn fn, ValueId x) {
  const ValueId wide = emitFolded(b, OpKind::FPToFP, 32, {x}, 16);
  return emitFolded(b, OpKind::FPToFP, 16, {buildMathF32(b, fn, wide)}, 32);
}

std::optional<ValueId> Translator::mathBuiltin(uint32_t n, const std::function<ValueId(size_t)>& arg,
                                               const LInst& in) {
  if (auto v = exactMathBuiltin(n, arg, in)) return v;
  const std::optional<MathFn> fn = mathFnOf(n);
  if (!fn) return std::nullopt;
  const ValueId x = arg(0);
  const uint32_t w = b_.width(x);
  if (w != 32 && w != 16)
    c_.failAt(
        in, fmt::format("OpenCL.std {} on {} operands is not supported in hardware yet (half and float only)",
                        mathFnName(*fn), w == 64 ? "double (64-bit)" : fmt::format("{}-bit", w)));
  if (*fn == MathFn::Pow || *fn == MathFn::Atan2) {
    k_.approximations.push_back({mathFnName(*fn), w, w == 32 ? mathMaxUlps(*fn) : kMathF16MaxUlps,
                                 glibcMaxUlps(*fn), c_.locOf(in.src)});
    return w == 16 ? buildMath2F16(b_, *fn, x, arg(1)) : buildMath2F32(b_, *fn, x, arg(1));
  }
  // Half: the same as the interpreter's (glibc's float function rounded to half) for every operand
  // (tests/unit/test_math_expansion.cpp), so not an approximation as far as `spvhls sim` is concerned.
  if (w == 32)
    k_.approximations.push_back({mathFnName(*fn), 32, mathMaxUlps(*fn), glibcMaxUlps(*fn), c_.locOf(in.src)});
  return w == 16 ? buildMathF16(b_, *fn, x) : buildMathF32(b_, *fn, x);
}

} // namespace spvhls::ir::lower
