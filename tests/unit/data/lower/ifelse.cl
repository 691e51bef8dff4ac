// If/else inside a loop: stores under complementary predicates, and a value merged by a phi.
kernel void ifelse(global const int* a, global int* pos, global int* neg, int n) {
  int count = 0;
  for (int i = 0; i < n; i++) {
    int v = a[i];
    int w;
    if (v > 0) {
      pos[i] = v;
      w = v + 1;
    } else {
      neg[i] = -v;
      w = v * 2;
    }
    count += w;
  }
  pos[n] = count;
}
