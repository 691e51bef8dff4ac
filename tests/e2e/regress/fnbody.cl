// An n-body-style kernel: pairwise forces with sqrt and divide (float), positions advanced in double.
#define N 8
kernel void fnbody(global const float* pos, global const float* mass, global float* acc, global double* energy) {
  double e = 0.0;
  for (int i = 0; i < N; ++i) {
    float ax = 0.0f, ay = 0.0f;
    for (int j = 0; j < N; ++j) {
      float dx = pos[2 * j] - pos[2 * i], dy = pos[2 * j + 1] - pos[2 * i + 1];
      float r2 = dx * dx + dy * dy + 0.01f;
      float r = sqrt(r2);
      float f = mass[j] / (r2 * r);
      ax += f * dx;
      ay += f * dy;
      e += (double)(mass[i] * mass[j]) / (double)r;
    }
    acc[2 * i] = ax;
    acc[2 * i + 1] = ay;
  }
  energy[0] = e;
  energy[1] = sqrt(e);
}
