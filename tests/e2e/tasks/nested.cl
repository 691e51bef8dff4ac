// A task with a loop nest: for each row of [r0, r1), the inner loop sums the row of a rows x cols
// matrix (row-major in m) and the sum is stored to sums[row]. Two task sequences of the same task
// function each take half of the rows (two asyncs, then two gets); they read m and write disjoint
// halves of sums. Run spec: 8 x 8.
// nested_one: one task sequence over all rows, alone on its memories (its first invocation's pointers
// point to the middle of the buffers, and it reads and writes below them); with --outer-loops
// pipelined the row loop is an outer pipeline inside the task (tests/e2e/CMakeLists.txt).
// Markers (rewritten by make_tasks.py, see the top of that script):
int ts_create__row_sums(int pipelined, int cluster, uint getcap, uint asynccap);
void ts_async__row_sums(int h, global const int* m, global int* sums, int r0, int r1, int cols);
void ts_get__row_sums(int h);
void ts_release(int h);

__attribute__((noinline)) void row_sums(global const int* m, global int* sums, int r0, int r1, int cols) {
  for (int r = r0; r < r1; ++r) {
    int s = 0;
    for (int c = 0; c < cols; ++c) s += m[r * cols + c] * (c + 1);
    sums[r] = s;
  }
}

kernel void nested(global const int* m, global int* sums, int rows, int cols) {
  int h0 = ts_create__row_sums(-1, -1, 1, 1);
  int h1 = ts_create__row_sums(-1, -1, 1, 1);
  ts_async__row_sums(h0, m, sums, 0, rows / 2, cols);
  ts_async__row_sums(h1, m, sums, rows / 2, rows, cols);
  ts_get__row_sums(h0);
  ts_get__row_sums(h1);
  ts_release(h0);
  ts_release(h1);
}

kernel void nested_one(global const int* m, global int* sums, int rows, int cols) {
  int h = ts_create__row_sums(-1, -1, 1, 1);
  // The first half from the middle of the matrix back: indices below the pointers passed.
  ts_async__row_sums(h, m + (rows / 2) * cols, sums + rows / 2, -(rows / 2), 0, cols);
  ts_async__row_sums(h, m, sums, rows / 2, rows, cols);
  ts_get__row_sums(h);
  ts_get__row_sums(h);
  ts_release(h);
}
