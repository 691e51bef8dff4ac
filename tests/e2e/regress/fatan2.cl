// OpenCL.std atan2 of float, built as an expansion (ir/lower_math.cpp, buildAtan2F32: the smaller of |y|
// and |x| divided by the larger, atan's table and polynomial, the quadrant; within 1 ulp of the
// correctly rounded result, so `spvhls sim` compares the IR evaluator's run with the interpreter's glibc
// within 2 ulps and the RTL with that run bit for bit): every pair of m special values (zeros,
// infinities, quiet and signalling NaNs, +-1, subnormals, the largest float) in the first m * m
// iterations, then pseudo-random pairs: any bit patterns, and values of any sign whose ratio spans a
// few binades.
kernel void fatan2(global const uint* bits, global float* out, int n, int m) {
  uint s = 2468u;
  for (int i = 0; i < n; ++i) {
    s = s * 1664525u + 1013904223u;
    uint t = s * 2654435761u;
    float y = as_float(bits[i % m]), x = as_float(bits[(i / m) % m]);
    if (i >= m * m) {
      y = as_float(s);
      x = as_float(t);
      if (i & 1) // |y| / |x| within 2^+-8, both of moderate size
        x = as_float((s & 0x80ffffffu) | (((s >> 24) & 0x7fu) + 0x38u + (t & 0xfu)) << 23);
    }
    out[i] = atan2(y, x);
  }
}
