// A private array with an initializer, sorted in place (insertion sort).
kernel void localsort(global const int* in, global int* out, int n) {
  int buf[16] = {5, 3, 9};
  for (int i = 0; i < 16 && i < n; ++i) buf[i] += in[i];
  for (int i = 1; i < 16; ++i) {
    int v = buf[i];
    int j = i - 1;
    while (j >= 0 && buf[j] > v) {
      buf[j + 1] = buf[j];
      --j;
    }
    buf[j + 1] = v;
  }
  for (int i = 0; i < 16; ++i) out[i] = buf[i];
}
