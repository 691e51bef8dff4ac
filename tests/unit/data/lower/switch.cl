// A switch inside a loop: case values, a shared case target and the default.
kernel void sw(global int* a, int n) {
  for (int i = 0; i < n; i++) {
    switch (a[i]) {
    case 0: a[i] = 5; break;
    case 3:
    case 4: a[i] = 7; break;
    default: a[i] = 1;
    }
  }
}
