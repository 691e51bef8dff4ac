#include "runtime.h" /* scripts/csmith_campaign.py wrote the prelude and safe_math.h here */
/* ---- csmith program ---- */
// Options:   --seed 7306 -o /tmp/sample_7306/cases/p3_s7306/csmith.c --no-argc --no-volatiles --no-volatile-pointers --no-bitfields --no-packed-struct --no-float --no-builtins --concise --max-funcs 3 --max-block-depth 3 --max-block-size 3 --max-expr-complexity 6 --max-array-dim 2 --max-array-len-per-dim 4 --max-struct-fields 4 --max-union-fields 3 --max-pointer-depth 2 --no-pointers --structs --unions



static long __undefined;



static uint64_t g_3 = 0x43CDF98A59C17633L;



static int32_t  func_1(void);




static int32_t  func_1(void)
{ 
    int32_t l_2 = 0x4E1A3622L;
    --g_3;
    return l_2;
}






/* ---- spvhls campaign wrapper: the single-task kernel (csmith's main() with globals) ---- */
kernel void k(global uint *r) {
  uint64_t spvhls_v = 0;
  uint32_t spvhls_gcrc = 0xFFFFFFFFU;
  {
    spvhls_v = (uint64_t)func_1();
    spvhls_gcrc = spvhls_crc32_bytes(spvhls_gcrc, (uint64_t)(g_3), 8);
  }
  r[0] = spvhls_crc32_bytes(0xFFFFFFFFU, spvhls_v, 8) ^ 0xFFFFFFFFU;
  r[1] = (uint32_t)spvhls_v;
  r[2] = (uint32_t)(spvhls_v >> 32);
  r[3] = spvhls_gcrc ^ 0xFFFFFFFFU;
}
