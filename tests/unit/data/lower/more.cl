// Assorted -O0 patterns, checked end to end against the interpreter (no structural expectations).
kernel void whileand(global int* a, int n) {
  int i = 0;
  while (i < n && a[i] != 3) { a[i] += 10; i++; }
  a[0] = i;
}
kernel void cont(global int* a, int n) {
  for (int i = 0; i < n; i++) {
    if ((a[i] & 1) == 0) continue;
    if (a[i] > 4) a[i] = a[i] / 2; else a[i] = a[i] * 3;
  }
}
kernel void wide(global long* a, global uchar* b, global short* s, int n) {
  for (ulong i = 0; i < (ulong)n; i++) {
    long x = a[i];
    uint sh = (uint)b[i] & 63;
    a[i] = (x << sh) ^ (x >> 3) ^ (long)((ulong)x / 7u) ^ (long)((ulong)x % 5u);
    b[i] = (uchar)(b[i] + 1);
    s[i] = (short)(s[i] * -3);
  }
}
kernel void ptrinc(global int* a, int n) {
  global int* p = a;
  for (int i = 0; i < n; i++) *p++ = i * i;
}
kernel void ptrsel(global int* a, int n) {
  for (int i = 0; i + 2 < n; i++) {
    global int* p = (a[i] > 3) ? a + i + 1 : a + i + 2;
    *p += 1;
  }
}
kernel void lochist(global const int* d, global int* h, int n) {
  int t[8];
  for (int i = 0; i < 8; i++) t[i] = 0;
  for (int i = 0; i < n; i++) t[d[i] & 7]++;
  for (int i = 0; i < 8; i++) h[i] = t[i];
}
int sum3(global const int* p, int k) {
  int s = 0;
  for (int j = 0; j < k; j++) s += p[j];
  return s;
}
kernel void triple(global const int* a, global int* out, int n) {
  for (int i = 0; i < n; i++) {
    int acc = 0;
    for (int j = 0; j < n; j++)
      for (int k = 0; k < 2; k++) acc += a[(i + j + k) & 15];
    out[i] = acc + sum3(a, i);
  }
}
kernel void down(global int* a, int n) {
  for (int i = n - 1; i >= 0; --i) a[i] = a[i] + i;
}
kernel void bools(global int* a, int n) {
  bool flip = false;
  for (int i = 0; i < n; i++) {
    bool odd = (a[i] & 1) != 0;
    flip = flip ^ odd;
    if (!flip || odd) a[i] = flip ? 1 : 2;
  }
}
kernel void forever(global int* a, int n) {
  int i = 0;
  for (;;) {
    if (i >= n) break;
    a[i] = -a[i];
    i++;
  }
}
kernel void guarded(global int* a, global const int* b, int n) {
  for (int i = 0; i < n; i++) {
    int d = b[i];
    a[i] = d != 0 ? a[i] / d : 0;
  }
}
kernel void twoloops(global int* a, int n) {
  int m = 0;
  for (int i = 0; i < n; i++) m = max(m, a[i]);
  for (int i = 0; i < n; i++) a[i] = m - a[i];
}
kernel void noloop(global int* a, int x) {
  a[0] = x * 2;
  if (x > 3) a[1] = x; else a[2] = -x;
}
kernel void loopinif(global int* a, int n) {
  if (n > 2) {
    for (int i = 0; i < n; i++) a[i] = 1;
  } else {
    a[0] = 9;
  }
}
kernel void sw64(global long* a, int n) {
  for (int i = 0; i < n; i++) {
    switch (a[i] & 3) { case 1: a[i] = 100; break; case 2: a[i] = 200; default: a[i] += 1; }
  }
}
kernel void latches(global int* a, int n) {
  int i = 0;
  while (i < n) {      // `continue` jumps straight back: two latches
    int v = a[i];
    i++;
    if (v < 0) continue;
    a[i - 1] = v * 2;
  }
}
kernel void constarg(constant int* c, global int* o, int n) {
  for (int i = 0; i < n; i++) o[i] = c[i] + c[0];
}
int pick(int i) {
  int t[4] = {10, 20, 30, 40};   // a local table re-initialised on every call
  t[i & 1] += i;
  return t[i & 3];
}
kernel void inittab(global int* a, int n) {
  for (int i = 0; i < n; i++) a[i] = pick(a[i]);
}
