// Pointers into several memories (issue 11): each becomes an address (offset + memory tag) and every
// access through it dispatches on the tag. Covered: a select and a loop phi of pointers into two
// globals, a private and a global table of pointers into different arrays (initialised and stored),
// a pointer to a pointer, stores through such a pointer in a loop, a struct copied through one,
// pointer comparisons, and one function called with different arrays.
typedef struct { int x, y; } pair;
int a[4] = {1, 2, 3, 4};
int b[4] = {10, 20, 30, 40};
int *tab[2] = {a, b};
pair pa = {5, 6}, pb = {7, 8};
int *saved;

int sum3(const int *p) { return p[0] + p[1] + p[2]; }

kernel void k(global int *r) {
  int c[4] = {100, 200, 300, 400};
  int *t[3] = {a, b, c};
  int *p = (r[0] & 1) ? a : b; // r[0] = 5: a
  int s = 0;
  for (int i = 0; i < 4; i++) {
    s += p[i];
    p[i] += i;
  }
  int *w = c;
  for (int i = 0; i < 6; i++) { // a phi: c, then a, then b
    s += *w;
    w = (i & 1) ? t[(i >> 1) % 3] : w + 1;
  }
  tab[r[1] & 1] = t[2]; // r[1] = 7: tab[1] = c
  int **pp = &t[r[0] & 1];
  **pp += 1000;
  *pp = tab[1];
  (*pp)[3] = s;
  pair *q = (r[0] > r[1]) ? &pa : &pb;
  pair tmp = *q;
  tmp.x += 1;
  *q = tmp;
  saved = (s & 1) ? (int *)a : (int *)c;
  r[0] = s + sum3(a) + sum3(b) + sum3(tab[0]) + sum3(t[1]);
  r[1] = c[3] + c[0] + a[1] + b[0];
  r[2] = pa.x * 100 + pb.x * 10 + saved[1];
  r[3] = (p == a) + 2 * (w == b) + 4 * (t[0] == b) + 8 * (*pp == c);
}
