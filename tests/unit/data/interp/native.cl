// Integer and control-flow differential tests (see native_body.h, shared with
// test_interp_native.cpp): each kernel runs its case function on n input triples.
#include "native_body.h"

kernel void crc(global const long* x, global const long* y, global const int* z, global long* o, int n) {
  for (int i = 0; i < n; ++i) crc_case(x[i], y[i], z[i], o + i * NAT_CRC_NO);
}

kernel void sort(global const long* x, global const long* y, global const int* z, global long* o, int n) {
  for (int i = 0; i < n; ++i) sort_case(x[i], y[i], z[i], o + i * NAT_SORT_NO);
}

kernel void mix(global const long* x, global const long* y, global const int* z, global long* o, int n) {
  for (int i = 0; i < n; ++i) mix_case(x[i], y[i], z[i], o + i * NAT_MIX_NO);
}

kernel void vm(global const long* x, global const long* y, global const int* z, global long* o, int n) {
  for (int i = 0; i < n; ++i) vm_case(x[i], y[i], z[i], o + i * NAT_VM_NO);
}

kernel void narrow(global const long* x, global const long* y, global const int* z, global long* o, int n) {
  for (int i = 0; i < n; ++i) narrow_case(x[i], y[i], z[i], o + i * NAT_NARROW_NO);
}

kernel void sat(global const long* x, global const long* y, global const int* z, global long* o, int n) {
  for (int i = 0; i < n; ++i) sat_case(x[i], y[i], z[i], o + i * NAT_SAT_NO);
}
