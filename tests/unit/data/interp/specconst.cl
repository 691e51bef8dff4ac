// Program-scope initializers that llvm-spirv emits as OpSpecConstantOp (test_interp.cpp): a private
// array of generic pointers to a global (PtrCastToGeneric inside a constant composite), and global
// pointers into a global array and a struct (Bitcast / PtrAccessChain / InBoundsPtrAccessChain).
int g = 1;
global int arr[4] = {10, 20, 30, 40};
global int *p = &arr[2];
struct T { int a; int b[3]; };
global struct T st = {1, {2, 3, 4}};
global int *q = &st.b[1];

kernel void table(global int *r) {
  int *t[4] = {&g, &g, &g, &g};
  r[0] = *t[r[1] & 3];
}

kernel void chain(global int *r) {
  r[0] = *p;
  r[1] = p[1];
  r[2] = p[-2];
  r[3] = *q;
}
