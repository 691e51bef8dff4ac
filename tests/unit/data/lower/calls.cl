// Function calls: a value-returning helper, a helper storing through a global pointer, and one
// updating a private variable through a (generic) pointer. All are inlined and promoted.
int scale(int x, int k) { return x * k + 1; }
void put(global int* p, int i, int v) { p[i] = v; }
void bump(int* counter) { *counter += 1; }
kernel void calls(global const int* a, global int* c, int n) {
  int count = 0;
  for (int i = 0; i < n; i++) {
    put(c, i, scale(a[i], 3));
    bump(&count);
  }
  c[n] = count;
}
