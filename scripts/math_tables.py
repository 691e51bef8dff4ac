#!/usr/bin/env python3
"""Tables and polynomial coefficients of the f32 exp/log/sin/cos expansions (ir/lower_math.cpp).

Prints the C++ constants that ir/lower_math.cpp holds (as IEEE double bits) and the approximation
error of each polynomial, measured on a dense grid at 200-bit precision. Needs python3-mpmath.
Run: python3 scripts/math_tables.py
"""
import struct

import mpmath
from mpmath import mp, mpf

mp.prec = 200


def bits(x):
    return struct.unpack("<Q", struct.pack("<d", float(x)))[0]


def val(b):
    return mpf(struct.unpack("<d", struct.pack("<Q", b))[0])


def round_bits(x, sig):
    """x rounded to `sig` significant bits (nearest)."""
    m, e = mpmath.frexp(x)
    return mpmath.ldexp(mpmath.nint(mpmath.ldexp(m, sig)), e - sig)


def fit(f, lo, hi, degree):
    """A near-minimax polynomial (Chebyshev interpolation) for f on [lo, hi], lowest degree first,
    with its coefficients rounded to double."""
    coeffs, _ = mpmath.chebyfit(f, [lo, hi], degree + 1, error=True)
    return [mpf(float(c)) for c in reversed(coeffs)]


def horner(cs, r):
    acc = mpf(0)
    for c in reversed(cs):
        acc = acc * r + c
    return acc


def max_err(err, lo, hi, n=20001):
    return max(abs(err(lo + (hi - lo) * k / (n - 1))) for k in range(n))


# exp2: x = k/64 + r, |r| <= 1/128; 2^x = 2^(k>>6) * T[k&63] * (1 + r*P(r)), P of degree 3.
EXP_BITS = 6
T = [mpf(float(mpmath.power(2, mpf(j) / 2**EXP_BITS))) for j in range(2**EXP_BITS)]
rr = mpf(1) / 2 ** (EXP_BITS + 1)
g = lambda r: (mpmath.power(2, r) - 1) / r if r != 0 else mpmath.log(2)
P = fit(g, -rr, rr, 3)
exp_err = max_err(lambda r: (1 + r * horner(P, r)) / mpmath.power(2, r) - 1, -rr, rr)

# log2: x = 2^k * z, z in [OFF, 2*OFF) split by the double's bits; i = 6 bits of (bits(z) - OFF) below
# the exponent; r = z * invc[i] - 1 exactly (invc has 28 significant bits, z 24);
# log2(x) = k + log2c[i] + r*Q(r), Q of degree 4. OFF puts 1.0 in the middle of interval 37, where
# invc = 1 and log2c = 0, so that r = z - 1 exactly near 1.
LOG_BITS = 6
LOG_CENTRE = 37  # the interval holding 1.0; OFF ~ sqrt(1/2) balances the two binades
SHIFT = 52 - LOG_BITS
ONE = bits(1.0)
OFF = ONE - (LOG_CENTRE * 2 + 1) * 2 ** (SHIFT - 1)
assert OFF == 0x3FE6A00000000000, hex(OFF)
invc, log2c = [], []
rmin, rmax = mpf(0), mpf(0)
for i in range(2**LOG_BITS):
    lo, hi = val(OFF + (i << SHIFT)), val(OFF + ((i + 1) << SHIFT))
    ic = mpf(1) if lo <= 1 < hi else round_bits(2 / (lo + hi), 28)
    invc.append(ic)
    log2c.append(mpf(float(-mpmath.log(ic, 2))))
    rmin, rmax = min(rmin, lo * ic - 1), max(rmax, hi * ic - 1)
assert invc[LOG_CENTRE] == 1
h = lambda r: mpmath.log(1 + r, 2) / r if r != 0 else 1 / mpmath.log(2)
Q = fit(h, rmin, rmax, 4)
log_err = max_err(lambda r: r * horner(Q, r) - mpmath.log(1 + r, 2), rmin, rmax)
log_rel = max_err(lambda r: (r * horner(Q, r)) / mpmath.log(1 + r, 2) - 1 if r != 0 else 0, rmin, rmax)

# sin/cos: x * 64/pi = j + u (mod 128), |u| <= 1/2, by integer arithmetic on 64/pi's bits (kTwoOverPiBits:
# floor(64/pi * 2^256) in 64-bit words, least significant first); with a = j*pi/64 and r = u*pi/64,
# sin(x) = S[j] * cos(r) + S[j+32] * sin(r), S[j] = sin(j*pi/64); sin(r) = u * G(u^2) with G of degree 2,
# cos(r) - 1 = u^2 * H(u^2) with H of degree 1.
SIN_BITS = 7
S = [mpf(float(mpmath.sinpi(mpf(j) / 2 ** (SIN_BITS - 1)))) for j in range(2**SIN_BITS)]
with mpmath.workprec(600):
    big = int(mpmath.floor(64 / mpmath.pi * mpf(2) ** 256))
FBITS = [(big >> (64 * k)) & (2**64 - 1) for k in range(5)]
step = mpmath.pi / 2 ** (SIN_BITS - 1)
gs = lambda w: mpmath.sin(mpmath.sqrt(w) * step) / mpmath.sqrt(w) if w != 0 else step
hs = lambda w: (mpmath.cos(mpmath.sqrt(w) * step) - 1) / w if w != 0 else -step * step / 2
G = fit(gs, mpf(0), mpf(1) / 4, 2)
H = fit(hs, mpf(0), mpf(1) / 4, 1)
sin_rel = max_err(lambda u: u * horner(G, u * u) / mpmath.sin(u * step) - 1 if u != 0 else 0, mpf(0), mpf(1) / 2)
cos_abs = max_err(lambda u: u * u * horner(H, u * u) - (mpmath.cos(u * step) - 1), mpf(0), mpf(1) / 2)

# atan: t = |x| or 1/|x| (|x| > 1), c = i/64 the nearest grid point (i = 0..64), r = (t - c) / (1 + t*c),
# |r| <= 2^-7; atan(t) = atan(c) + r * (1 + r^2 * K(r^2)), K of degree 2; atan(|x|) = pi/2 - atan(t) for |x| > 1.
A = [mpf(float(mpmath.atan(mpf(i) / 64))) for i in range(65)]
ra = mpf(1) / 128
ka = lambda w: (mpmath.atan(mpmath.sqrt(w)) / mpmath.sqrt(w) - 1) / w if w != 0 else mpf(-1) / 3
K = fit(ka, mpf(0), ra * ra, 2)
atan_rel = max_err(lambda r: r * (1 + r * r * horner(K, r * r)) / mpmath.atan(r) - 1 if r != 0 else 0, mpf(0), ra)


def closest_to_multiple():
    """min over f32 x >= 2^-12 of |u|, x * 64/pi = j + u: per exponent e, the best approximations
    ||m * frac(2^e * 64/pi)|| over m < 2^24 are at the continued fraction's convergent denominators."""
    with mpmath.workprec(800):
        best = mpf(1)
        for e in range(-35, 105):
            a = 64 / mpmath.pi * mpf(2) ** e
            a -= mpmath.floor(a)
            x, q0, q1 = a, 0, 1
            while x != 0:
                x = 1 / x
                ai = int(mpmath.floor(x))
                x -= ai
                q0, q1 = q1, ai * q1 + q0
                if q1 >= 2**24:
                    break
                best = min(best, abs(q1 * a - mpmath.nint(q1 * a)))
        return best


def table(name, xs):
    rows = [", ".join(f"0x{bits(x):016x}" for x in xs[k : k + 4]) for k in range(0, len(xs), 4)]
    return f"constexpr uint64_t {name}[{len(xs)}] = {{\n    " + ",\n    ".join(rows) + "};"


print(f"// exp2: |r| <= 2^-{EXP_BITS + 1}, max relative error of 1 + r*P(r): {mpmath.nstr(exp_err, 4)} "
      f"(2^{mpmath.nstr(mpmath.log(exp_err, 2), 4)})")
print(table("kExp2P", P))
print(table("kExp2Table", T))
print(f"// log2: r in [{mpmath.nstr(rmin, 6)}, {mpmath.nstr(rmax, 6)}], max abs error of r*Q(r): "
      f"2^{mpmath.nstr(mpmath.log(log_err, 2), 4)}, relative 2^{mpmath.nstr(mpmath.log(log_rel, 2), 4)}")
print(table("kLog2Q", Q))
print(table("kLog2InvC", invc))
print(table("kLog2C", log2c))
print(f"// sin: |u| <= 1/2, relative error of u*G(u^2): 2^{mpmath.nstr(mpmath.log(sin_rel, 2), 4)}; "
      f"cos: absolute error of u^2*H(u^2): 2^{mpmath.nstr(mpmath.log(cos_abs, 2), 4)}")
print(f"// sin/cos: the smallest |u| of an f32 operand: 2^{mpmath.nstr(mpmath.log(closest_to_multiple(), 2), 4)}")
print(table("kSinG", G))
print(table("kSinH", H))
print(table("kSinTable", S))
print(f"// atan: |r| <= 2^-7, relative error of r * (1 + r^2 * K(r^2)): 2^{mpmath.nstr(mpmath.log(atan_rel, 2), 4)}")
print(table("kAtanK", K))
print(table("kAtanTable", A))
print(f"constexpr uint64_t kHalfPi = 0x{bits(mpmath.pi / 2):016x};")
print("constexpr uint64_t kSixtyFourOverPi[5] = {\n    " + ", ".join(f"0x{w:016x}" for w in FBITS) + "};")
