// Loops with several exit edges: `break` (same exit target: pipelined, the live-outs select by exit
// edge), a do-while (the body is the header), and an early `return` (two exit targets: stays in the
// CFG).
kernel void brk(global const int* a, global int* out, int n) {
  int s = 0;
  int i;
  for (i = 0; i < n; i++) {
    if (a[i] < 0) break;
    s += a[i];
  }
  out[0] = s;
  out[1] = i;
}
kernel void dowhile(global int* a, int n) {
  int i = 0;
  do {
    a[i] = a[i] * 2;
    i++;
  } while (i < n);
}
kernel void early(global int* a, int n) {
  for (int i = 0; i < n; i++) {
    if (a[i] == 0) return;
    a[i] = 100 / a[i];
  }
  a[0] = -1;
}
