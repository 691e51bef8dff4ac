// Local arrays (one initialised from a constant), struct member offsets and OpenCL.std integer
// built-ins.
kernel void localarr(global int* a) {
  int t[4] = {1, 2, 3, 4};
  int u[8];
  for (int i = 0; i < 8; i++) u[i] = a[i];
  for (int i = 0; i < 4; i++) a[i] = t[i] + u[a[i] & 7];
}
struct S { char c; int x; long y; };
kernel void structs(global struct S* s, int n) {
  for (int i = 0; i < n; i++) s[i].y = s[i].x + s[i].c;
}
kernel void builtins(global int* a, int n) {
  for (int i = 0; i < n; i++) a[i] = min(a[i], n) + abs(a[i]) + max((uint)a[i], 3u);
}
