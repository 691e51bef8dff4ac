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
#endif
