// Conversions: integers to float and double (round to nearest even), float and double to integers
// (toward zero; the _sat forms clamp, NaN gives 0), float <-> double (half: fhalf.cl).
kernel void fconvert(global const int* si, global const uint* ui, global const long* sl, global const float* f,
                     global const double* d, global float* of, global double* od, global int* oi, global long* ol,
                     global uint* ou) {
  for (int i = 0; i < 16; ++i) {
    of[2 * i] = (float)si[i] + (float)ui[i];
    of[2 * i + 1] = (float)sl[i];
    od[2 * i] = (double)sl[i] + (double)ui[i];
    od[2 * i + 1] = (double)f[i];
    oi[2 * i] = convert_int_sat(f[i]);
    oi[2 * i + 1] = convert_int_sat(d[i]);
    ol[i] = convert_long_sat(d[i] * 1e10);
    ou[i] = convert_uint_sat(f[i]);
    of[32 + i] = (float)d[i] * f[i];
  }
}
