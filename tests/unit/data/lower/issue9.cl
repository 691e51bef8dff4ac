// Reproducers of issue 9 (found by random C programs); expected results follow C semantics.

// Unused private arrays are dropped; accesses outside loops must be renumbered with them.
// r = [5, 7, 0, 0] -> r[2] = 5 + 7 + 100 + 200 = 312.
kernel void stale_memory(global uint *r) {
  int a[4]; int b[4]; int c[4]; int z = 0;
  if (z) { a[0] = 1; r[3] = a[0]; }
  for (int i = 0; i < 4; i++) c[i] = r[i];
  b[0] = 100; b[1] = 200;
  uint s = 0;
  for (int i = 0; i < 2; i++) s += c[i];
  r[2] = s + b[0] + b[1];
}

// `&&` / `||` whose left side folds to a constant right after a join: r[0] = 1, r[1] = 0.
kernel void logic_after_join(global int *r) {
  if (r[3] == 9) r[2] = 1;
  int a = 5; int b = 7; int c = 0; int d = 0;
  r[0] = a && b;
  r[1] = c || d;
}

// Aggregates passed by value: the callee writes its own copy. r[0] = 5, r[1] = 1.
struct S { int a; int pad[3]; };
static int setA(struct S s) { s.a = 5; return s.a; }
kernel void byval(global int *r) { struct S x = {1, {2, 3, 4}}; r[0] = setA(x); r[1] = x.a; }

// A call that never returns followed by another call: lowering must terminate. r[2] = 7 unless
// r[0] == 123 (then the kernel never finishes).
static void put(global int *r, int v) { r[1] = v; }
static void spin(void) { for (;;) ; }
kernel void noreturn_call(global int *r) { if (r[0] == 123) { spin(); put(r, 5); } r[2] = 7; }

// An initialised private array that the kernel writes: its contents are stored at the start of every
// run (a configuration-time initial image would keep the last run's writes). r = [5, 7, 0, 0] ->
// t = {1, 12, 3, 4, 5}: r = [6, 17, 8, 9].
kernel void written_init(global int *r) {
  int t[5] = {1, 2, 3, 4, 5};
  t[r[0] & 3] += 10;
  for (int i = 0; i < 4; i++) r[i] = t[i] + t[4];
}
