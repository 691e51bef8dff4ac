// FIR filter: program-scope constant taps (UniformConstant with initializer) and a __constant
// buffer argument.
constant short taps[8] = {3, -1, 4, 1, -5, 9, 2, -6};

kernel void fir(global const short* x, constant int* gain, global int* y, int n) {
  for (int i = 0; i < n; ++i) {
    int acc = 0;
    for (int k = 0; k < 8; ++k)
      if (i - k >= 0) acc += taps[k] * x[i - k];
    y[i] = acc * gain[0];
  }
}
