#include "runtime.h" /* scripts/csmith_campaign.py wrote the prelude and safe_math.h here */
/* ---- csmith program ---- */
// Options:   --seed 7303 -o /tmp/sample_7303/cases/p4_s7303/csmith.c --no-argc --no-volatiles --no-volatile-pointers --no-bitfields --no-packed-struct --no-float --no-builtins --concise --max-funcs 3 --max-block-depth 3 --max-block-size 3 --max-expr-complexity 6 --max-array-dim 2 --max-array-len-per-dim 4 --max-struct-fields 4 --max-union-fields 3 --max-pointer-depth 2 --pointers --structs --unions



static long __undefined;



static uint64_t g_2[2][2] = {{1UL,1UL},{1UL,1UL}};



static int64_t  func_1(void);




static int64_t  func_1(void)
{ 
    return g_2[0][0];
}






/* ---- spvhls campaign wrapper: the single-task kernel (csmith's main() with globals) ---- */
kernel void k(global uint *r) {
  uint64_t spvhls_v = 0;
  uint32_t spvhls_gcrc = 0xFFFFFFFFU;
  {
    int i, j;
    spvhls_v = (uint64_t)func_1();
    for (i = 0; i < 2; i++)
    {
        for (j = 0; j < 2; j++)
        {
            spvhls_gcrc = spvhls_crc32_bytes(spvhls_gcrc, (uint64_t)(g_2[i][j]), 8);
        }
    }
  }
  r[0] = spvhls_crc32_bytes(0xFFFFFFFFU, spvhls_v, 8) ^ 0xFFFFFFFFU;
  r[1] = (uint32_t)spvhls_v;
  r[2] = (uint32_t)(spvhls_v >> 32);
  r[3] = spvhls_gcrc ^ 0xFFFFFFFFU;
}
