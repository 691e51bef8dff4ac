/* Maps single-work-item OpenCL C to C for native differential checks (tests/e2e/check_native.py).
 * Address-space qualifiers and `kernel` disappear, OpenCL's fixed-width scalar types become their C
 * equivalents on x86-64 Linux (char 8, short 16, int 32, long 64 bits, as in OpenCL C), and the
 * work-item functions describe the one work-item that the hardware runs. */
#ifndef SPVHLS_OPENCL_SHIM_H
#define SPVHLS_OPENCL_SHIM_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <limits.h>
#include <float.h>
#include <math.h>
#include <string.h>
#include <stdio.h>

#define kernel
#define __kernel
#define global
#define __global
#define private
#define __private
#define local
#define __local
#define constant const
#define __constant const
#define generic
#define __generic

typedef unsigned char uchar;
typedef unsigned short ushort;
typedef unsigned int uint;
typedef unsigned long ulong;
_Static_assert(sizeof(long) == 8, "OpenCL C long is 64 bits");

static inline size_t get_global_id(uint d) { (void)d; return 0; }
static inline size_t get_local_id(uint d) { (void)d; return 0; }
static inline size_t get_group_id(uint d) { (void)d; return 0; }
static inline size_t get_global_size(uint d) { (void)d; return 1; }
static inline size_t get_local_size(uint d) { (void)d; return 1; }
static inline size_t get_num_groups(uint d) { (void)d; return 1; }
static inline uint get_work_dim(void) { return 1; }
/* convert_<int>_sat from float or double: toward zero, clamped to the range, NaN -> 0. */
static inline double spvhls_sat(double x, double lo, double hiExclusive, int* clamp) {
  double t = trunc(x);
  *clamp = isnan(x) ? 0 : t < lo ? -1 : t >= hiExclusive ? 1 : 2;
  return t;
}
#define SPVHLS_SAT_FN(name, T, lo, hiEx, minv, maxv)                                                         \
  static inline T name(double x) {                                                                           \
    int c;                                                                                                   \
    double t = spvhls_sat(x, lo, hiEx, &c);                                                                  \
    return c == 0 ? (T)0 : c < 0 ? (T)(minv) : c == 1 ? (T)(maxv) : (T)t;                                    \
  }
SPVHLS_SAT_FN(spvhls_sat_int, int, -2147483648.0, 2147483648.0, INT_MIN, INT_MAX)
SPVHLS_SAT_FN(spvhls_sat_uint, uint, 0.0, 4294967296.0, 0, UINT_MAX)
SPVHLS_SAT_FN(spvhls_sat_long, long, -9223372036854775808.0, 9223372036854775808.0, LONG_MIN, LONG_MAX)
SPVHLS_SAT_FN(spvhls_sat_ulong, ulong, 0.0, 18446744073709551616.0, 0, ULONG_MAX)
#define convert_int_sat(x) spvhls_sat_int((double)(x))
#define convert_uint_sat(x) spvhls_sat_uint((double)(x))
#define convert_long_sat(x) spvhls_sat_long((double)(x))
#define convert_ulong_sat(x) spvhls_sat_ulong((double)(x))

/* OpenCL's fma and mad are overloaded: float operands take fmaf (C's fma would read them as double and
 * round twice). mad rounds once, as the interpreter computes it. */
#define fma(a, b, c) _Generic((a) + (b) + (c), float : fmaf, default : fma)(a, b, c)
#define mad(a, b, c) fma(a, b, c)

#endif
