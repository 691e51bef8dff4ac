// Pointers kept in memory (issue 11): a global pointer into a global array, moved by the kernel; a
// private array of pointers into one array; a struct with a pointer member; a pointer to a pointer.
// Each memory holds pointers into one array only (what the hardware supports: it stores offsets).
global int data[8] = {3, 1, 4, 1, 5, 9, 2, 6};
global int *cursor = &data[2];
struct node { int value; global int *next; };

kernel void k(global uint *r) {
  global int *ptrs[4];
  for (int i = 0; i < 4; i++) ptrs[i] = &data[(i * 3) & 7];
  int s = 0;
  for (int i = 0; i < 4; i++) s += *ptrs[(i + r[0]) & 3];
  cursor = cursor + 1;
  s += *cursor;
  struct node n = {7, &data[5]};
  s += *n.next + n.value;
  global int **pp = &cursor;
  **pp += 100;
  *ptrs[r[1] & 3] -= 1;
  r[0] = (uint)s;
  r[1] = (uint)data[3];
  r[2] = (uint)(cursor - data);
  r[3] = (uint)data[6];
}
