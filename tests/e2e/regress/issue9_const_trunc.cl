// Issue 9, defect 3 (b): the loop truncates a constant (the comma expression leaves 0x32D4L), which
// was printed as a part-select of a literal, `32'h32d4[15:0]`, a Verilog syntax error.
static short rsh(short left, int right) { return ((left < 0) || (right < 0) || (right >= 32)) ? left : (left >> right); }
kernel void k(global int *r) { for (int i = 0; i < 4; i++) { long t = r[i]; r[i] = rsh((t, 0x32D4L), 0); } }
