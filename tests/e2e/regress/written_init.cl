// An initialised private array that the kernel also writes (csmith initialises every local array):
// its contents are stored at the start of every run, not configured into the RAM once.
kernel void k(global int *r) { int t[5] = {1,2,3,4,5}; t[r[0]&3] += 10; for (int i=0;i<4;i++) r[i] = t[i] + t[4]; }
