// Compile benchmark input (tests/bench/bench_compile): 24 pipelined loops of mixed integer
// arithmetic (multiplies, divisions, selects, loads and stores on three buffers) and a long
// straight-line block; generated once by a script, kept as source so the benchmark is stable.
kernel void stress(global uint *a, global uint *b, global ulong *c, uint n, uint k) {
  uint acc = k;
  for (uint i = 0; i < n; ++i) {
    uint x = a[i] * (b[i] + 20u);
    x = x / (b[i] | 1u) + x % 9u;
    acc = (x > acc) ? acc + (x & 167u) : acc ^ x;
    b[i] = x + acc;
  }
  for (uint i = 0; i < n; ++i) {
    uint x = a[i] + (b[i] + 10u);
    c[i] = (ulong)x * (ulong)acc + c[i];
    acc = (x > acc) ? acc + (x & 211u) : acc ^ x;
    b[i] = x + acc;
  }
  for (uint i = 0; i < n; ++i) {
    uint x = a[i] + (b[i] + 47u);
    acc = (x > acc) ? acc + (x & 150u) : acc ^ x;
    b[i] = x + acc;
  }
  for (uint i = 0; i < n; ++i) {
    uint x = a[i] + (b[i] + 65u);
    x = x / (b[i] | 1u) + x % 6u;
    acc = (x > acc) ? acc + (x & 10u) : acc ^ x;
    b[i] = x + acc;
  }
  for (uint i = 0; i < n; ++i) {
    uint x = a[i] + (b[i] + 56u);
    acc = (x > acc) ? acc + (x & 108u) : acc ^ x;
    b[i] = x + acc;
  }
  for (uint i = 0; i < n; ++i) {
    uint x = a[i] + (b[i] + 31u);
    c[i] = (ulong)x * (ulong)acc + c[i];
    acc = (x > acc) ? acc + (x & 24u) : acc ^ x;
    b[i] = x + acc;
  }
  for (uint i = 0; i < n; ++i) {
    uint x = a[i] - (b[i] + 8u);
    x = x / (b[i] | 1u) + x % 16u;
    acc = (x > acc) ? acc + (x & 145u) : acc ^ x;
    b[i] = x + acc;
  }
  for (uint i = 0; i < n; ++i) {
    uint x = a[i] + (b[i] + 29u);
    acc = (x > acc) ? acc + (x & 162u) : acc ^ x;
    b[i] = x + acc;
  }
  for (uint i = 0; i < n; ++i) {
    uint x = a[i] + (b[i] + 74u);
    acc = (x > acc) ? acc + (x & 150u) : acc ^ x;
    b[i] = x + acc;
  }
  for (uint i = 0; i < n; ++i) {
    uint x = a[i] - (b[i] + 7u);
    x = x / (b[i] | 1u) + x % 6u;
    c[i] = (ulong)x * (ulong)acc + c[i];
    acc = (x > acc) ? acc + (x & 12u) : acc ^ x;
    b[i] = x + acc;
  }
  for (uint i = 0; i < n; ++i) {
    uint x = a[i] ^ (b[i] + 38u);
    acc = (x > acc) ? acc + (x & 108u) : acc ^ x;
    b[i] = x + acc;
  }
  for (uint i = 0; i < n; ++i) {
    uint x = a[i] ^ (b[i] + 70u);
    acc = (x > acc) ? acc + (x & 31u) : acc ^ x;
    b[i] = x + acc;
  }
  for (uint i = 0; i < n; ++i) {
    uint x = a[i] * (b[i] + 72u);
    x = x / (b[i] | 1u) + x % 16u;
    acc = (x > acc) ? acc + (x & 175u) : acc ^ x;
    b[i] = x + acc;
  }
  for (uint i = 0; i < n; ++i) {
    uint x = a[i] ^ (b[i] + 14u);
    c[i] = (ulong)x * (ulong)acc + c[i];
    acc = (x > acc) ? acc + (x & 149u) : acc ^ x;
    b[i] = x + acc;
  }
  for (uint i = 0; i < n; ++i) {
    uint x = a[i] ^ (b[i] + 48u);
    acc = (x > acc) ? acc + (x & 25u) : acc ^ x;
    b[i] = x + acc;
  }
  for (uint i = 0; i < n; ++i) {
    uint x = a[i] + (b[i] + 73u);
    x = x / (b[i] | 1u) + x % 3u;
    acc = (x > acc) ? acc + (x & 159u) : acc ^ x;
    b[i] = x + acc;
  }
  for (uint i = 0; i < n; ++i) {
    uint x = a[i] ^ (b[i] + 64u);
    acc = (x > acc) ? acc + (x & 175u) : acc ^ x;
    b[i] = x + acc;
  }
  for (uint i = 0; i < n; ++i) {
    uint x = a[i] - (b[i] + 41u);
    c[i] = (ulong)x * (ulong)acc + c[i];
    acc = (x > acc) ? acc + (x & 120u) : acc ^ x;
    b[i] = x + acc;
  }
  for (uint i = 0; i < n; ++i) {
    uint x = a[i] - (b[i] + 47u);
    x = x / (b[i] | 1u) + x % 7u;
    acc = (x > acc) ? acc + (x & 64u) : acc ^ x;
    b[i] = x + acc;
  }
  for (uint i = 0; i < n; ++i) {
    uint x = a[i] ^ (b[i] + 90u);
    acc = (x > acc) ? acc + (x & 200u) : acc ^ x;
    b[i] = x + acc;
  }
  for (uint i = 0; i < n; ++i) {
    uint x = a[i] ^ (b[i] + 11u);
    acc = (x > acc) ? acc + (x & 148u) : acc ^ x;
    b[i] = x + acc;
  }
  for (uint i = 0; i < n; ++i) {
    uint x = a[i] * (b[i] + 68u);
    x = x / (b[i] | 1u) + x % 10u;
    c[i] = (ulong)x * (ulong)acc + c[i];
    acc = (x > acc) ? acc + (x & 225u) : acc ^ x;
    b[i] = x + acc;
  }
  for (uint i = 0; i < n; ++i) {
    uint x = a[i] * (b[i] + 94u);
    acc = (x > acc) ? acc + (x & 115u) : acc ^ x;
    b[i] = x + acc;
  }
  for (uint i = 0; i < n; ++i) {
    uint x = a[i] * (b[i] + 78u);
    acc = (x > acc) ? acc + (x & 251u) : acc ^ x;
    b[i] = x + acc;
  }
  acc = acc * 77u + (acc >> 4) + a[0];
  acc = acc * 527u + (acc >> 14) + a[1];
  acc = acc * 171u + (acc >> 25) + a[2];
  acc = acc * 353u + (acc >> 5) + a[3];
  acc = acc * 958u + (acc >> 16) + a[4];
  acc = acc * 434u + (acc >> 2) + a[5];
  acc = acc * 988u + (acc >> 22) + a[6];
  acc = acc * 82u + (acc >> 25) + a[7];
  acc = acc * 574u + (acc >> 19) + a[8];
  acc = acc * 811u + (acc >> 29) + a[9];
  acc = acc * 840u + (acc >> 11) + a[10];
  acc = acc * 351u + (acc >> 23) + a[11];
  acc = acc * 361u + (acc >> 20) + a[12];
  acc = acc * 511u + (acc >> 19) + a[13];
  acc = acc * 819u + (acc >> 15) + a[14];
  acc = acc * 73u + (acc >> 27) + a[15];
  acc = acc * 98u + (acc >> 9) + a[0];
  acc = acc * 488u + (acc >> 23) + a[1];
  acc = acc * 683u + (acc >> 3) + a[2];
  acc = acc * 65u + (acc >> 24) + a[3];
  acc = acc * 721u + (acc >> 10) + a[4];
  acc = acc * 665u + (acc >> 19) + a[5];
  acc = acc * 700u + (acc >> 27) + a[6];
  acc = acc * 459u + (acc >> 10) + a[7];
  acc = acc * 736u + (acc >> 13) + a[8];
  acc = acc * 911u + (acc >> 22) + a[9];
  acc = acc * 358u + (acc >> 1) + a[10];
  acc = acc * 966u + (acc >> 15) + a[11];
  acc = acc * 366u + (acc >> 6) + a[12];
  acc = acc * 628u + (acc >> 4) + a[13];
  acc = acc * 508u + (acc >> 2) + a[14];
  acc = acc * 226u + (acc >> 25) + a[15];
  acc = acc * 297u + (acc >> 5) + a[0];
  acc = acc * 759u + (acc >> 8) + a[1];
  acc = acc * 410u + (acc >> 13) + a[2];
  acc = acc * 941u + (acc >> 28) + a[3];
  acc = acc * 511u + (acc >> 3) + a[4];
  acc = acc * 173u + (acc >> 15) + a[5];
  acc = acc * 414u + (acc >> 18) + a[6];
  acc = acc * 287u + (acc >> 29) + a[7];
  acc = acc * 143u + (acc >> 27) + a[8];
  acc = acc * 443u + (acc >> 28) + a[9];
  acc = acc * 566u + (acc >> 9) + a[10];
  acc = acc * 726u + (acc >> 14) + a[11];
  acc = acc * 370u + (acc >> 22) + a[12];
  acc = acc * 908u + (acc >> 13) + a[13];
  acc = acc * 983u + (acc >> 8) + a[14];
  acc = acc * 157u + (acc >> 3) + a[15];
  acc = acc * 183u + (acc >> 5) + a[0];
  acc = acc * 240u + (acc >> 22) + a[1];
  acc = acc * 241u + (acc >> 1) + a[2];
  acc = acc * 499u + (acc >> 27) + a[3];
  acc = acc * 606u + (acc >> 6) + a[4];
  acc = acc * 272u + (acc >> 10) + a[5];
  acc = acc * 7u + (acc >> 5) + a[6];
  acc = acc * 432u + (acc >> 18) + a[7];
  acc = acc * 381u + (acc >> 20) + a[8];
  acc = acc * 582u + (acc >> 11) + a[9];
  acc = acc * 978u + (acc >> 5) + a[10];
  acc = acc * 710u + (acc >> 28) + a[11];
  a[0] = acc;
}
