/* Runtime prelude for csmith programs run as a single-work-item OpenCL C kernel (clang-15,
 * -cl-std=CL2.0) and natively as C (gcc, through tests/native/opencl_shim.h). It replaces csmith's
 * csmith.h: fixed-width integer types and their limits, the safe-math wrapper settings, and a
 * table-free CRC-32 (no program-scope table: the campaign's default programs have no program-scope
 * variables at all; with --globals the wrapper folds csmith's globals into it too).
 * scripts/csmith_campaign.py pastes this file, csmith's safe_math.h (with `unsigned long long`
 * spelled uint64_t: `long long` is reserved in OpenCL C) and the generated program into one file. */
#ifdef __OPENCL_C_VERSION__
typedef char int8_t;
typedef uchar uint8_t;
typedef short int16_t;
typedef ushort uint16_t;
typedef int int32_t;
typedef uint uint32_t;
typedef long int64_t;
typedef ulong uint64_t;
#define INT8_MIN (-128)
#define INT8_MAX 127
#define UINT8_MAX 255
#define INT16_MIN (-32767 - 1)
#define INT16_MAX 32767
#define UINT16_MAX 65535
#define INT32_MIN (-2147483647 - 1)
#define INT32_MAX 2147483647
#define UINT32_MAX 4294967295U
#define INT64_MIN (-9223372036854775807L - 1)
#define INT64_MAX 9223372036854775807L
#define UINT64_MAX 18446744073709551615UL
#define fabsf fabs
#define ldexpf ldexp
#else
#include <stdint.h>
#include <limits.h>
#include <float.h>
#include <math.h>
#endif
#define STATIC static
#define UNDEFINED(v) (v)
#define LOG_INDEX
#define LOG_EXEC
#define FUNC_NAME(x) (safe_##x)
#define INT_BIT (sizeof(int) * CHAR_BIT)
#define _CSMITH_BITFIELD(x) (((x) > INT_BIT) ? ((x) % INT_BIT) : (x))

static uint32_t spvhls_crc32_bytes(uint32_t crc, uint64_t v, int n) {
  for (int i = 0; i < n; i++) {
    crc ^= (uint32_t)((v >> (8 * i)) & 0xff);
    for (int j = 0; j < 8; j++) crc = (crc & 1) ? (crc >> 1) ^ 0xEDB88320U : crc >> 1;
  }
  return crc;
}
