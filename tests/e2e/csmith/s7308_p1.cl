#include "runtime.h" /* scripts/csmith_campaign.py wrote the prelude and safe_math.h here */
/* ---- csmith program ---- */
// Options:   --seed 7308 -o /tmp/sample_7308/cases/p1_s7308/csmith.c --no-argc --no-volatiles --no-volatile-pointers --no-bitfields --no-packed-struct --no-float --no-builtins --concise --max-funcs 3 --max-block-depth 3 --max-block-size 3 --max-expr-complexity 6 --max-array-dim 2 --max-array-len-per-dim 4 --max-struct-fields 4 --max-union-fields 3 --max-pointer-depth 2 --no-pointers --no-structs --no-unions



static long __undefined;



static int32_t g_5 = (-1L);
static int32_t g_6[4][4] = {{0x845D811FL,0L,1L,1L},{0x7BEDEDB5L,0x7BEDEDB5L,0x845D811FL,1L},{(-4L),0L,(-4L),0x845D811FL},{(-4L),0x845D811FL,0x845D811FL,(-4L)}};
static int32_t g_8 = (-8L);
static int16_t g_9 = 1L;
static uint8_t g_10 = 0xDCL;



static int8_t  func_1(void);
static uint16_t  func_13(uint16_t  p_14, const int64_t  p_15);




static int8_t  func_1(void)
{ 
    uint16_t l_2 = 2UL;
    int32_t l_3 = (-2L);
    int32_t l_4 = 0L;
    int32_t l_7[2][1];
    uint32_t l_20 = 0x995F7626L;
    int i, j;
    for (i = 0; i < 2; i++)
    {
        for (j = 0; j < 1; j++)
            l_7[i][j] = 0L;
    }
    l_20 = (l_2 > (((--g_10) , (g_6[0][0] > func_13(l_2, l_7[0][0]))) || l_3));
    return l_20;
}



static uint16_t  func_13(uint16_t  p_14, const int64_t  p_15)
{ 
    int8_t l_16 = 7L;
    int32_t l_17 = 0x7863718BL;
    uint64_t l_18 = 0x5D76270E7AD53A38L;
    int8_t l_19 = 0x71L;
    g_5 &= l_16;
    l_17 = 3L;
    l_19 = (l_18 > (-1L));
    return l_19;
}






/* ---- spvhls campaign wrapper: the single-task kernel (csmith's main() with globals) ---- */
kernel void k(global uint *r) {
  uint64_t spvhls_v = 0;
  uint32_t spvhls_gcrc = 0xFFFFFFFFU;
  {
    int i, j;
    spvhls_v = (uint64_t)func_1();
    spvhls_gcrc = spvhls_crc32_bytes(spvhls_gcrc, (uint64_t)(g_5), 8);
    for (i = 0; i < 4; i++)
    {
        for (j = 0; j < 4; j++)
        {
            spvhls_gcrc = spvhls_crc32_bytes(spvhls_gcrc, (uint64_t)(g_6[i][j]), 8);
        }
    }
    spvhls_gcrc = spvhls_crc32_bytes(spvhls_gcrc, (uint64_t)(g_8), 8);
    spvhls_gcrc = spvhls_crc32_bytes(spvhls_gcrc, (uint64_t)(g_9), 8);
    spvhls_gcrc = spvhls_crc32_bytes(spvhls_gcrc, (uint64_t)(g_10), 8);
  }
  r[0] = spvhls_crc32_bytes(0xFFFFFFFFU, spvhls_v, 8) ^ 0xFFFFFFFFU;
  r[1] = (uint32_t)spvhls_v;
  r[2] = (uint32_t)(spvhls_v >> 32);
  r[3] = spvhls_gcrc ^ 0xFFFFFFFFU;
}
