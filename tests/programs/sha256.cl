// SHA-256 (FIPS 180-4) as embedded C: the round constants K and the initial hash value in
// program-scope constant tables, the message buffer, the message schedule W, the one-shot hash state
// and a streaming context (struct with state[8], a bit count, a block buffer) in program-scope global
// variables. The one-shot hash pads the message in place in the global buffer and compresses it block
// by block; the context offers init/update/final like real libraries and is fed in chunks of varying
// sizes. Both hash every test message: the FIPS 180-4 / NIST examples ("", "abc", the 448-bit
// two-block message, the 896-bit message), checked as hex strings, and the first 200 and all 300
// bytes of a generated message (xorshift32), checked against digests computed natively once
// (sha256sum). result[0] is the mismatch count (0 = pass), result[1] the
// number of compressed blocks, result[2] a checksum of the hex digests, result[3] the failed-test mask.

#define SHA256_BLOCK 64
#define SHA256_WORDS 8
#define GENERATED_LEN 300
#define PREFIX_LEN 200
#define MESSAGE_MAX 320  // GENERATED_LEN + 0x80 + the 64-bit length, rounded up to a block
#define VECTOR_COUNT 4

constant uint K[64] = {
    0x428a2f98u, 0x71374491u, 0xb5c0fbcfu, 0xe9b5dba5u,
    0x3956c25bu, 0x59f111f1u, 0x923f82a4u, 0xab1c5ed5u,
    0xd807aa98u, 0x12835b01u, 0x243185beu, 0x550c7dc3u,
    0x72be5d74u, 0x80deb1feu, 0x9bdc06a7u, 0xc19bf174u,
    0xe49b69c1u, 0xefbe4786u, 0x0fc19dc6u, 0x240ca1ccu,
    0x2de92c6fu, 0x4a7484aau, 0x5cb0a9dcu, 0x76f988dau,
    0x983e5152u, 0xa831c66du, 0xb00327c8u, 0xbf597fc7u,
    0xc6e00bf3u, 0xd5a79147u, 0x06ca6351u, 0x14292967u,
    0x27b70a85u, 0x2e1b2138u, 0x4d2c6dfcu, 0x53380d13u,
    0x650a7354u, 0x766a0abbu, 0x81c2c92eu, 0x92722c85u,
    0xa2bfe8a1u, 0xa81a664bu, 0xc24b8b70u, 0xc76c51a3u,
    0xd192e819u, 0xd6990624u, 0xf40e3585u, 0x106aa070u,
    0x19a4c116u, 0x1e376c08u, 0x2748774cu, 0x34b0bcb5u,
    0x391c0cb3u, 0x4ed8aa4au, 0x5b9cca4fu, 0x682e6ff3u,
    0x748f82eeu, 0x78a5636fu, 0x84c87814u, 0x8cc70208u,
    0x90befffau, 0xa4506cebu, 0xbef9a3f7u, 0xc67178f2u
};

constant uint H0[SHA256_WORDS] = {0x6a09e667u, 0xbb67ae85u, 0x3c6ef372u, 0xa54ff53au, 0x510e527fu, 0x9b05688cu, 0x1f83d9abu, 0x5be0cd19u};

constant char hex_digits[17] = "0123456789abcdef";

struct test_vector {
  uint length;
  uchar text[112];
  char digest[65];
};

constant struct test_vector vectors[VECTOR_COUNT] = {
    {0, "", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
    {3, "abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
    {56, "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
     "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"},
    {112,
     "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrs"
     "mnopqrstnopqrstu",
     "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"},
};

// sha256sum of the first PREFIX_LEN and all GENERATED_LEN bytes of generate_message()'s output.
constant uint generated_digest[2][SHA256_WORDS] = {
    {0x7bf16c4cu, 0x20b454e5u, 0xb2e7ed8au, 0xe7677d8bu, 0x30bc57eau, 0xb1e0bed2u, 0x6010bdceu, 0xcbeebc99u},
    {0x413acb85u, 0xa3b6ffa8u, 0xd6452261u, 0x155187deu, 0x018e2c8cu, 0x70737a3bu, 0x1cbdcdc4u, 0x404a608du},
};

// Chunk sizes the streaming test feeds to sha256_update, cycled until the message is consumed.
constant uint chunk_sizes[9] = {1, 63, 64, 0, 7, 130, 55, 9, 64};

struct sha256_ctx {
  uint state[SHA256_WORDS];
  ulong bit_count;
  uchar buffer[SHA256_BLOCK];
  uint used;  // bytes waiting in buffer
};

global uchar message[MESSAGE_MAX];
global uint W[64];
global uint hash_state[SHA256_WORDS];
global uint stream_words[SHA256_WORDS];
global struct sha256_ctx ctx;
global uchar ctx_digest[32];
global char hex_out[65];
global uint blocks_compressed;
global uint xorshift_state;
global uint hex_checksum = 17;

static uint rotr(uint x, uint n) { return (x >> n) | (x << (32 - n)); }
static uint ch(uint x, uint y, uint z) { return (x & y) ^ (~x & z); }
static uint maj(uint x, uint y, uint z) { return (x & y) ^ (x & z) ^ (y & z); }
static uint big_sigma0(uint x) { return rotr(x, 2) ^ rotr(x, 13) ^ rotr(x, 22); }
static uint big_sigma1(uint x) { return rotr(x, 6) ^ rotr(x, 11) ^ rotr(x, 25); }
static uint small_sigma0(uint x) { return rotr(x, 7) ^ rotr(x, 18) ^ (x >> 3); }
static uint small_sigma1(uint x) { return rotr(x, 17) ^ rotr(x, 19) ^ (x >> 10); }

static uint load_be32(global const uchar *p) {
  return ((uint)p[0] << 24) | ((uint)p[1] << 16) | ((uint)p[2] << 8) | (uint)p[3];
}

static void store_be32(global uchar *p, uint v) {
  p[0] = (uchar)(v >> 24);
  p[1] = (uchar)(v >> 16);
  p[2] = (uchar)(v >> 8);
  p[3] = (uchar)v;
}

// FIPS 180-4 6.2.2: the message schedule in W, then 64 rounds on the working variables.
static void sha256_compress(global uint *h, global const uchar *block) {
  for (int t = 0; t < 16; t++) W[t] = load_be32(block + 4 * t);
  for (int t = 16; t < 64; t++)
    W[t] = small_sigma1(W[t - 2]) + W[t - 7] + small_sigma0(W[t - 15]) + W[t - 16];
  uint a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7];
  for (int t = 0; t < 64; t++) {
    uint t1 = hh + big_sigma1(e) + ch(e, f, g) + K[t] + W[t];
    uint t2 = big_sigma0(a) + maj(a, b, c);
    hh = g;
    g = f;
    f = e;
    e = d + t1;
    d = c;
    c = b;
    b = a;
    a = t1 + t2;
  }
  h[0] += a;
  h[1] += b;
  h[2] += c;
  h[3] += d;
  h[4] += e;
  h[5] += f;
  h[6] += g;
  h[7] += hh;
  blocks_compressed++;
}

// FIPS 180-4 5.1.1 in place after `length` bytes of message: 0x80, zeros, the bit length big-endian.
// Returns the number of blocks.
static uint sha256_pad(uint length) {
  uint padded = length + 1;
  message[length] = 0x80;
  while ((padded & (SHA256_BLOCK - 1)) != 56) message[padded++] = 0;
  ulong bits = (ulong)length * 8;
  for (int i = 0; i < 8; i++) message[padded + i] = (uchar)(bits >> (56 - 8 * i));
  return (padded + 8) >> 6;
}

static void sha256_oneshot(uint length) {
  for (int i = 0; i < SHA256_WORDS; i++) hash_state[i] = H0[i];
  uint blocks = sha256_pad(length);
  for (uint b = 0; b < blocks; b++) sha256_compress(hash_state, &message[SHA256_BLOCK * b]);
}

static void sha256_init(void) {
  for (int i = 0; i < SHA256_WORDS; i++) ctx.state[i] = H0[i];
  ctx.bit_count = 0;
  ctx.used = 0;
}

static void sha256_update(global const uchar *data, uint length) {
  ctx.bit_count += (ulong)length * 8;
  while (length > 0) {
    uint take = SHA256_BLOCK - ctx.used;
    if (take > length) take = length;
    for (uint i = 0; i < take; i++) ctx.buffer[ctx.used + i] = data[i];
    ctx.used += take;
    data += take;
    length -= take;
    if (ctx.used < SHA256_BLOCK) break;
    sha256_compress(ctx.state, ctx.buffer);
    ctx.used = 0;
  }
}

// Pads the buffered tail: 0x80, zeros, the bit length in the last 8 bytes of the last block, which
// is the next block when fewer than 9 bytes are left in this one.
static void sha256_final(void) {
  uint n = ctx.used;
  ctx.buffer[n++] = 0x80;
  uint blocks = n > 56 ? 2 : 1;
  for (uint b = 0; b < blocks; b++) {
    while (n < SHA256_BLOCK) ctx.buffer[n++] = 0;
    if (b + 1 == blocks)
      for (int i = 0; i < 8; i++) ctx.buffer[56 + i] = (uchar)(ctx.bit_count >> (56 - 8 * i));
    sha256_compress(ctx.state, ctx.buffer);
    n = 0;
  }
  for (int i = 0; i < SHA256_WORDS; i++) store_be32(&ctx_digest[4 * i], ctx.state[i]);
}

static int hex_value(char c) {
  switch (c) {
    case '0': case '1': case '2': case '3': case '4':
    case '5': case '6': case '7': case '8': case '9':
      return c - '0';
    case 'a': case 'b': case 'c': case 'd': case 'e': case 'f':
      return c - 'a' + 10;
    case 'A': case 'B': case 'C': case 'D': case 'E': case 'F':
      return c - 'A' + 10;
    default:
      return -1;
  }
}

// Formats eight words as 64 lower-case hex digits in hex_out and folds them into hex_checksum.
static void to_hex(global const uint *h) {
  for (int i = 0; i < SHA256_WORDS; i++)
    for (int n = 0; n < 8; n++) hex_out[8 * i + n] = hex_digits[(h[i] >> (28 - 4 * n)) & 15];
  hex_out[64] = 0;
  for (int i = 0; i < 64; i++) hex_checksum = hex_checksum * 31u + (uint)hex_out[i];
}

// Mismatching words between h and an expected digest given as hex; a malformed digit counts too.
static uint compare_hex(global const uint *h, constant char *want) {
  uint bad = 0;
  to_hex(h);
  for (int i = 0; i < SHA256_WORDS; i++) {
    uint word = 0;
    for (int n = 0; n < 8; n++) {
      int v = hex_value(want[8 * i + n]);
      if (v < 0) return bad + 100;
      word = (word << 4) | (uint)v;
    }
    if (word != h[i]) bad++;
  }
  for (int i = 0; i < 64; i++)
    if (hex_out[i] != want[i]) return bad + 1;
  return bad;
}

static uint compare_words(global const uint *h, constant uint *want) {
  uint bad = 0;
  for (int i = 0; i < SHA256_WORDS; i++)
    if (h[i] != want[i]) bad++;
  return bad;
}

// The test plan: the NIST vectors, then the generated message's prefix and the whole of it.
#define TEST_COUNT (VECTOR_COUNT + 2)

// Puts test t's message into message[] and returns its length.
static uint load_message(int t) {
  if (t < VECTOR_COUNT) {
    uint length = vectors[t].length;
    for (uint i = 0; i < length; i++) message[i] = vectors[t].text[i];
    return length;
  }
  uint length = t == VECTOR_COUNT ? PREFIX_LEN : GENERATED_LEN;
  xorshift_state = 0x9e3779b9u;
  for (uint i = 0; i < length; i++) {
    uint s = xorshift_state;
    s ^= s << 13;
    s ^= s >> 17;
    s ^= s << 5;
    xorshift_state = s;
    message[i] = (uchar)(s >> 11);
  }
  return length;
}

// Feeds message[0..length) to the context in chunks of chunk_sizes[], starting at entry `phase`.
static void stream_message(uint length, uint phase) {
  uint offset = 0;
  uint k = phase;
  for (;;) {
    uint remaining = length - offset;
    if (remaining == 0) break;
    uint chunk = chunk_sizes[k];
    if (++k == 9) k = 0;
    if (chunk > remaining) chunk = remaining;
    sha256_update(&message[offset], chunk);
    offset += chunk;
  }
}

static uint check_digest(int t, global const uint *h) {
  if (t < VECTOR_COUNT) return compare_hex(h, vectors[t].digest);
  to_hex(h);
  return compare_words(h, generated_digest[t - VECTOR_COUNT]);
}

kernel void main_kernel(global uint *result) {
  uint mismatches = 0, failed = 0;
  blocks_compressed = 0;
  for (int t = 0; t < TEST_COUNT; t++) {
    uint length = load_message(t);
    // Streaming first: the one-shot hash pads message[] in place.
    sha256_init();
    stream_message(length, (uint)t);
    sha256_final();
    for (int i = 0; i < SHA256_WORDS; i++) stream_words[i] = load_be32(&ctx_digest[4 * i]);
    uint bad = check_digest(t, stream_words);
    sha256_oneshot(length);
    bad += check_digest(t, hash_state);
    mismatches += bad;
    if (bad != 0) failed |= 1u << t;
  }
  result[0] = mismatches;
  result[1] = blocks_compressed;
  result[2] = hex_checksum;
  result[3] = failed;
}
