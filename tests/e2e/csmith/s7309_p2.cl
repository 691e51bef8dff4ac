#include "runtime.h" /* scripts/csmith_campaign.py wrote the prelude and safe_math.h here */
/* ---- csmith program ---- */
// Options:   --seed 7309 -o /tmp/sample_7309/cases/p2_s7309/csmith.c --no-argc --no-volatiles --no-volatile-pointers --no-bitfields --no-packed-struct --no-float --no-builtins --concise --max-funcs 3 --max-block-depth 3 --max-block-size 3 --max-expr-complexity 6 --max-array-dim 2 --max-array-len-per-dim 4 --max-struct-fields 4 --max-union-fields 3 --max-pointer-depth 2 --pointers --no-structs --no-unions



static long __undefined;



static int32_t g_3 = 0L;
static uint32_t g_11 = 4294967295UL;
static int32_t g_14 = 6L;
static uint32_t g_15 = 0x1AF7F3E7L;



static int32_t  func_1(void);




static int32_t  func_1(void)
{ 
    int32_t *l_2 = &g_3;
    int32_t *l_4 = (void*)0;
    int32_t *l_5 = &g_3;
    int32_t l_6 = 0xFDA0E60FL;
    int32_t *l_7 = &l_6;
    int32_t *l_8 = &g_3;
    int32_t *l_9 = &l_6;
    int32_t *l_10[4];
    int i;
    for (i = 0; i < 4; i++)
        l_10[i] = &l_6;
    g_11--;
    g_15++;
    return (*l_8);
}






/* ---- spvhls campaign wrapper: the single-task kernel (csmith's main() with globals) ---- */
kernel void k(global uint *r) {
  uint64_t spvhls_v = 0;
  uint32_t spvhls_gcrc = 0xFFFFFFFFU;
  {
    spvhls_v = (uint64_t)func_1();
    spvhls_gcrc = spvhls_crc32_bytes(spvhls_gcrc, (uint64_t)(g_3), 8);
    spvhls_gcrc = spvhls_crc32_bytes(spvhls_gcrc, (uint64_t)(g_11), 8);
    spvhls_gcrc = spvhls_crc32_bytes(spvhls_gcrc, (uint64_t)(g_14), 8);
    spvhls_gcrc = spvhls_crc32_bytes(spvhls_gcrc, (uint64_t)(g_15), 8);
  }
  r[0] = spvhls_crc32_bytes(0xFFFFFFFFU, spvhls_v, 8) ^ 0xFFFFFFFFU;
  r[1] = (uint32_t)spvhls_v;
  r[2] = (uint32_t)(spvhls_v >> 32);
  r[3] = spvhls_gcrc ^ 0xFFFFFFFFU;
}
