// Function calls: recursion, pointer (generic) parameters, structs passed and returned by value.
typedef struct { int lo; long hi; char tag; } Pair;

int gcd(int a, int b) { return b == 0 ? a : gcd(b, a % b); }
long fact(int n) { return n <= 1 ? 1 : n * fact(n - 1); }
void swap(int* a, int* b) { int t = *a; *a = *b; *b = t; }
Pair mkpair(int x) { Pair p = {x, (long)x * x, (char)x}; return p; }
long sumpair(Pair p) { return p.lo + p.hi + p.tag; }

kernel void calls(global const int* in, global long* out, int n) {
  for (int i = 0; i + 1 < n; i += 2) {
    int a = in[i], b = in[i + 1];
    if (a > b) swap(&a, &b);
    out[i] = gcd(a < 0 ? -a : a, b < 0 ? -b : b);
    out[i + 1] = fact(b & 15) + sumpair(mkpair(a));
  }
}
