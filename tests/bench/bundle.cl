// Compile benchmark input for issue 11's "a 7,000-instruction program compiles in under 5 s": two of
// the whole programs (tests/programs/decoder.cl and aes.cl) in one kernel, about 7,900 SPIR-V
// instructions at -O0. result[0] is the sum of their mismatch counts.
#define main_kernel decoder_main
#include "../programs/decoder.cl"
#undef main_kernel
#define main_kernel aes_main
#include "../programs/aes.cl"
#undef main_kernel

kernel void main_kernel(global uint *result) {
  uint fails = 0;
  decoder_main(result);
  fails += result[0];
  aes_main(result);
  fails += result[0];
  result[0] = fails;
}
