// Memory dependences from addresses (ir/dependence.h): loops whose loads and stores to one buffer never
// meet across iterations (no recurrence: II set by the port), meet at a fixed distance (a recurrence
// at that distance), or meet only through an 8-bit index that wraps every 4 iterations; one the
// analysis cannot follow (a reversed index) keeps every order.
kernel void memdep(global int* a, global int* b, global int* c, global uint* w, int n) {
  for (int i = 0; i < n; ++i) // load and store of a[i]: II 2 on a's port
    a[i] = a[i] * 3 + 1;
  for (int i = 2; i < n; ++i) // b[i] needs b[i - 2]: distance 2
    b[i] = b[i - 2] + i;
  for (int i = 0; i < n / 2; ++i) { // c[2i + 1] and c[2i] never meet across iterations: II 2 (one wide store)
    c[2 * i + 1] = c[2 * i] ^ i;
    c[2 * i] = i;
  }
  for (int i = 1; i < n; ++i) { // j repeats every 4 iterations: distance 4
    uchar j = (uchar)(i * 64);
    w[j] = w[j] * 5 + i;
  }
  for (int i = 0; i < n; ++i) // a[n - 1 - i] against a[i]: not followed, every order kept
    a[n - 1 - i] += a[i];
}
