// decoder (issue 11): a byte-stream container decoder written as many small functions, like a
// parser in embedded C. The stream (a program-scope constant array) is a 4-byte magic and a version,
// then type-length-value records (tag byte, LEB128 length, payload) up to an END record, then an
// Adler-32 trailer. Payloads: fixed-width little-endian integers, LEB128 / zigzag / signed LEB128
// varints, booleans, strings, base64 text, run-length data, a canonical-Huffman bit stream (MSB
// first, decoded puff-style from its code lengths), varint arrays, delta-coded series, nested groups
// (a group stack in a global), timestamps, key/value pairs, padding, a CRC-16 checkpoint over the
// stream so far and a byte-sum check. The payload decoder is a switch over 21 tags; malformed
// payloads (bad lengths, varints, base64, Huffman, booleans, checkpoints, groups, unknown tags) give
// error records and the decoder skips to the next record; loops leave by break and early return; the
// call chain main_kernel -> decode_stream -> decode_record -> decode_payload -> decode_huffman ->
// huff_decode_symbol -> bits_read_bit -> read_byte -> byte_at is 9 levels deep. The decoded records go
// to a program-scope array of structs; the reader, bit reader, group stack and counters are global
// structs. Self-check: every decoded record against the records the stream was generated from (the
// stream and the expected table were produced once by a generator script that knows the values it
// encoded, and the decoder was checked natively with gcc), and the trailer checksum.

#define MAX_RECORDS 80
#define SCRATCH_BYTES 256
#define MAX_DEPTH 8
#define MAX_VARINT_BYTES 5
#define HUFF_MAXBITS 5
#define HUFF_SYMBOLS 8

enum tag {
  TAG_END, TAG_U8, TAG_U16, TAG_U32, TAG_VARUINT, TAG_VARSINT, TAG_SLEB, TAG_BOOL, TAG_STRING,
  TAG_BASE64, TAG_RLE, TAG_HUFF, TAG_ARRAY, TAG_GROUP, TAG_GROUP_END, TAG_TIMESTAMP, TAG_CHECKPOINT,
  TAG_PAD, TAG_DELTA, TAG_KEYVALUE, TAG_CHECKSUM8, TAG_ERROR = 0xEE
};

enum error {
  OK, E_BAD_LENGTH, E_BAD_VARINT, E_BAD_BOOL, E_BAD_BASE64, E_OVERFLOW, E_BAD_HUFFMAN,
  E_BAD_CHECKPOINT, E_UNKNOWN_TAG, E_BAD_GROUP, E_TRUNCATED
};

enum stream_status { S_OK, S_BAD_MAGIC, S_BAD_VERSION, S_TRUNCATED, S_TOO_MANY, S_NO_END, S_BAD_TRAILER };

struct record {
  uchar tag;
  uchar depth;
  ushort length;
  uint value;
  uint aux;
};

struct reader {
  uint pos;   // next byte
  uint limit; // end of the current payload (or of the body)
};

struct bit_reader {
  uint byte;  // current byte
  uint left;  // bits left in it
};

struct decoder_state {
  uint nrecords;
  uint depth;
  uint time;
  uint errors;
  uint status;
  uint body_end; // the trailer's offset
};

// Canonical Huffman code of the HUFF records: symbols and their code lengths.
constant uchar huff_symbols[HUFF_SYMBOLS] = {'e', 't', 'a', 'o', 'i', 'n', 's', 'h'};
constant uchar huff_lengths[HUFF_SYMBOLS] = {2, 2, 3, 3, 3, 4, 5, 5};
constant uchar magic[4] = {'S', 'P', 'V', 'R'};

global struct record records[MAX_RECORDS];
global uchar scratch[SCRATCH_BYTES];
global uint group_stack[MAX_DEPTH];
global struct reader rd;
global struct bit_reader br;
global struct decoder_state dec;
global short huff_count[HUFF_MAXBITS + 1];
global short huff_symbol[HUFF_SYMBOLS];
global uint tag_histogram[32];

// ---- the input stream and the records it holds (generated once; see the header) ------------------
#define STREAM_LEN 462
#define EXPECTED_RECORDS 73
#define STREAM_ADLER 0xa1f971bfu
constant uchar stream[STREAM_LEN] = {
  0x53, 0x50, 0x56, 0x52, 0x01, 0x01, 0x01, 0xc8, 0x02, 0x02, 0xef, 0xbe, 0x03, 0x04, 0xef, 0xbe,
  0xad, 0xde, 0x04, 0x01, 0x00, 0x04, 0x01, 0x7f, 0x04, 0x02, 0x80, 0x01, 0x04, 0x02, 0xac, 0x02,
  0x04, 0x03, 0xe5, 0x8e, 0x26, 0x04, 0x05, 0xff, 0xff, 0xff, 0xff, 0x0f, 0x05, 0x01, 0x00, 0x05,
  0x01, 0x01, 0x05, 0x01, 0x02, 0x05, 0x01, 0x7f, 0x05, 0x02, 0x80, 0x01, 0x05, 0x05, 0xff, 0xff,
  0xff, 0xff, 0x0f, 0x05, 0x05, 0xfe, 0xff, 0xff, 0xff, 0x0f, 0x06, 0x01, 0x00, 0x06, 0x01, 0x7f,
  0x06, 0x01, 0x3f, 0x06, 0x01, 0x40, 0x06, 0x02, 0xc0, 0x00, 0x06, 0x02, 0xbf, 0x7f, 0x06, 0x03,
  0xc0, 0xbb, 0x78, 0x06, 0x05, 0xff, 0xff, 0xff, 0xff, 0x07, 0x06, 0x05, 0x80, 0x80, 0x80, 0x80,
  0x78, 0x07, 0x01, 0x01, 0x07, 0x01, 0x00, 0x07, 0x01, 0x02, 0x08, 0x0c, 0x48, 0x65, 0x6c, 0x6c,
  0x6f, 0x2c, 0x20, 0x57, 0x6f, 0x72, 0x6c, 0x64, 0x08, 0x00, 0x08, 0x11, 0x53, 0x50, 0x49, 0x52,
  0x2d, 0x56, 0x20, 0x74, 0x6f, 0x20, 0x56, 0x65, 0x72, 0x69, 0x6c, 0x6f, 0x67, 0x0d, 0x01, 0x07,
  0x09, 0x04, 0x54, 0x57, 0x46, 0x75, 0x09, 0x04, 0x54, 0x57, 0x45, 0x3d, 0x09, 0x04, 0x54, 0x51,
  0x3d, 0x3d, 0x09, 0x1c, 0x59, 0x57, 0x35, 0x35, 0x49, 0x47, 0x4e, 0x68, 0x63, 0x6d, 0x35, 0x68,
  0x62, 0x43, 0x42, 0x77, 0x62, 0x47, 0x56, 0x68, 0x63, 0x33, 0x56, 0x79, 0x5a, 0x53, 0x34, 0x3d,
  0x09, 0x30, 0x41, 0x41, 0x63, 0x4f, 0x46, 0x52, 0x77, 0x6a, 0x4b, 0x6a, 0x45, 0x34, 0x50, 0x30,
  0x5a, 0x4e, 0x56, 0x46, 0x74, 0x69, 0x61, 0x58, 0x42, 0x33, 0x66, 0x6f, 0x57, 0x4d, 0x6b, 0x35,
  0x71, 0x68, 0x71, 0x4b, 0x2b, 0x32, 0x76, 0x63, 0x54, 0x4c, 0x30, 0x74, 0x6e, 0x67, 0x35, 0x2b,
  0x37, 0x31, 0x09, 0x04, 0x51, 0x55, 0x2a, 0x44, 0x09, 0x05, 0x51, 0x55, 0x4a, 0x44, 0x3d, 0x0a,
  0x06, 0x05, 0x41, 0x03, 0x42, 0x01, 0x43, 0x0a, 0x06, 0xc8, 0x00, 0x37, 0xff, 0x01, 0x07, 0x0a,
  0x06, 0x50, 0x01, 0x50, 0x01, 0x50, 0x01, 0x0a, 0x04, 0xc8, 0x01, 0xc8, 0x02, 0x0b, 0x04, 0x06,
  0x7e, 0x78, 0x80, 0x0b, 0x08, 0x11, 0xf9, 0x1f, 0x33, 0x77, 0x88, 0xd2, 0x20, 0x0b, 0x02, 0x01,
  0x00, 0x0b, 0x04, 0x07, 0xbc, 0x7b, 0xf5, 0x0b, 0x03, 0x05, 0xff, 0xff, 0x0d, 0x02, 0xac, 0x02,
  0x0c, 0x05, 0x04, 0x01, 0x02, 0x03, 0x04, 0x0c, 0x0c, 0x03, 0xc0, 0x84, 0x3d, 0x80, 0x89, 0x7a,
  0x80, 0xbc, 0xc1, 0x96, 0x0b, 0x0c, 0x01, 0x00, 0x12, 0x07, 0x05, 0x0a, 0x7d, 0x07, 0x6c, 0xe4,
  0x00, 0x12, 0x04, 0x03, 0x7b, 0x7b, 0x7b, 0x12, 0x02, 0x01, 0x00, 0x0f, 0x01, 0x05, 0x0f, 0x02,
  0xe8, 0x07, 0x0f, 0x03, 0xf0, 0xa2, 0x04, 0x0e, 0x00, 0x13, 0x02, 0x01, 0x05, 0x13, 0x04, 0x2a,
  0x9f, 0x8d, 0x06, 0x13, 0x02, 0xff, 0x00, 0x11, 0x09, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
  0x00, 0x00, 0x10, 0x02, 0xf9, 0x85, 0x10, 0x02, 0x0d, 0x00, 0x3f, 0x03, 0x01, 0x02, 0x03, 0x03,
  0x02, 0x01, 0x02, 0x04, 0x06, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01, 0x14, 0x04, 0x01, 0x02, 0x03,
  0xfa, 0x0e, 0x00, 0x0e, 0x00, 0x0f, 0x01, 0x01, 0x00, 0x00, 0xbf, 0x71, 0xf9, 0xa1,
};
constant struct record expected[EXPECTED_RECORDS] = {
  {0x01, 0, 1, 0x000000c8u, 0x00000000u},
  {0x02, 0, 2, 0x0000beefu, 0x00000000u},
  {0x03, 0, 4, 0xdeadbeefu, 0x00000000u},
  {0x04, 0, 1, 0x00000000u, 0x00000001u},
  {0x04, 0, 1, 0x0000007fu, 0x00000001u},
  {0x04, 0, 2, 0x00000080u, 0x00000002u},
  {0x04, 0, 2, 0x0000012cu, 0x00000002u},
  {0x04, 0, 3, 0x00098765u, 0x00000003u},
  {0x04, 0, 5, 0xffffffffu, 0x00000005u},
  {0x05, 0, 1, 0x00000000u, 0x00000001u},
  {0x05, 0, 1, 0xffffffffu, 0x00000001u},
  {0x05, 0, 1, 0x00000001u, 0x00000001u},
  {0x05, 0, 1, 0xffffffc0u, 0x00000001u},
  {0x05, 0, 2, 0x00000040u, 0x00000002u},
  {0x05, 0, 5, 0x80000000u, 0x00000005u},
  {0x05, 0, 5, 0x7fffffffu, 0x00000005u},
  {0x06, 0, 1, 0x00000000u, 0x00000001u},
  {0x06, 0, 1, 0xffffffffu, 0x00000001u},
  {0x06, 0, 1, 0x0000003fu, 0x00000001u},
  {0x06, 0, 1, 0xffffffc0u, 0x00000001u},
  {0x06, 0, 2, 0x00000040u, 0x00000002u},
  {0x06, 0, 2, 0xffffffbfu, 0x00000002u},
  {0x06, 0, 3, 0xfffe1dc0u, 0x00000003u},
  {0x06, 0, 5, 0x7fffffffu, 0x00000005u},
  {0x06, 0, 5, 0x80000000u, 0x00000005u},
  {0x07, 0, 1, 0x00000001u, 0x00000000u},
  {0x07, 0, 1, 0x00000000u, 0x00000000u},
  {0xee, 0, 1, 0x00000003u, 0x00000007u},
  {0x08, 0, 12, 0x66d37c5du, 0x00000002u},
  {0x08, 0, 0, 0x811c9dc5u, 0x00000000u},
  {0x08, 0, 17, 0xde302ef9u, 0x00000006u},
  {0x0d, 1, 1, 0x00000007u, 0x00000000u},
  {0x09, 1, 4, 0x00002613u, 0x00000003u},
  {0x09, 1, 4, 0x00001a18u, 0x00000002u},
  {0x09, 1, 4, 0x00007899u, 0x00000001u},
  {0x09, 1, 28, 0x00000bdfu, 0x00000014u},
  {0x09, 1, 48, 0x0000b69bu, 0x00000024u},
  {0xee, 1, 4, 0x00000004u, 0x00000009u},
  {0xee, 1, 5, 0x00000001u, 0x00000009u},
  {0x0a, 1, 6, 0x00000fbfu, 0x00000009u},
  {0x0a, 1, 6, 0x00005543u, 0x00000100u},
  {0x0a, 1, 6, 0x00000164u, 0x000000f0u},
  {0xee, 1, 4, 0x00000005u, 0x0000000au},
  {0x0b, 1, 4, 0x9c0f654bu, 0x00000006u},
  {0x0b, 1, 8, 0x162b2464u, 0x00000011u},
  {0x0b, 1, 2, 0xe00c22e0u, 0x00000001u},
  {0x0b, 1, 4, 0x6ecf80efu, 0x00000007u},
  {0xee, 1, 3, 0x00000006u, 0x0000000bu},
  {0x0d, 2, 2, 0x0000012cu, 0x00000000u},
  {0x0c, 2, 5, 0x0000000au, 0x00000004u},
  {0x0c, 2, 12, 0xb2fe24c0u, 0x00000003u},
  {0x0c, 2, 1, 0x00000000u, 0x00000000u},
  {0x12, 2, 7, 0x0000005eu, 0x0000005eu},
  {0x12, 2, 4, 0xfffffff1u, 0xfffffffbu},
  {0x12, 2, 2, 0x00000000u, 0x00000000u},
  {0x0f, 2, 1, 0x00000005u, 0x00000000u},
  {0x0f, 2, 2, 0x000003edu, 0x00000000u},
  {0x0f, 2, 3, 0x0001155du, 0x00000000u},
  {0x0e, 2, 0, 0x0000012cu, 0x00000000u},
  {0x13, 1, 2, 0x00000005u, 0x00000001u},
  {0x13, 1, 4, 0x0001869fu, 0x0000002au},
  {0x13, 1, 2, 0x00000000u, 0x000000ffu},
  {0x11, 1, 9, 0x00000009u, 0x00000000u},
  {0x10, 1, 2, 0x000085f9u, 0x00000001u},
  {0xee, 1, 2, 0x00000007u, 0x00000010u},
  {0xee, 1, 3, 0x00000008u, 0x0000003fu},
  {0xee, 1, 2, 0x00000001u, 0x00000003u},
  {0xee, 1, 6, 0x00000002u, 0x00000004u},
  {0x14, 1, 4, 0x00000000u, 0x00000004u},
  {0x0e, 1, 0, 0x00000007u, 0x00000000u},
  {0xee, 0, 0, 0x00000009u, 0x0000000eu},
  {0x0f, 0, 1, 0x0001155eu, 0x00000000u},
  {0x00, 0, 0, 0x00000048u, 0x00000000u},
};

// ---- byte reader -------------------------------------------------------------------------------
static uint byte_at(uint pos) { return pos < STREAM_LEN ? stream[pos] : 0u; }

static bool at_limit(void) { return rd.pos >= rd.limit; }

static uint remaining(void) { return rd.limit - rd.pos; }

// Reads one byte of the current payload; false past its end.
static bool read_byte(uint *out) {
  if (at_limit()) return false;
  *out = byte_at(rd.pos);
  rd.pos++;
  return true;
}

static bool read_u16le(uint *out) {
  uint lo, hi;
  if (!read_byte(&lo) || !read_byte(&hi)) return false;
  *out = lo | (hi << 8);
  return true;
}

static bool read_u32le(uint *out) {
  uint v = 0;
  for (uint i = 0; i < 4; i++) {
    uint b;
    if (!read_byte(&b)) return false;
    v |= b << (8u * i);
  }
  *out = v;
  return true;
}

// Unsigned LEB128, at most 32 bits in at most 5 bytes; returns the byte count, 0 when malformed.
static uint read_uleb128(uint *out) {
  uint v = 0;
  for (uint n = 0; n < MAX_VARINT_BYTES; n++) {
    uint b;
    if (!read_byte(&b)) return 0;
    if (n == 4 && (b & 0x70u) != 0) return 0; // more than 32 bits
    v |= (b & 0x7fu) << (7u * n);
    if ((b & 0x80u) == 0) {
      *out = v;
      return n + 1;
    }
  }
  return 0;
}

static uint read_sleb128(uint *out) {
  uint v = 0, shift = 0;
  for (uint n = 0; n < MAX_VARINT_BYTES; n++) {
    uint b;
    if (!read_byte(&b)) return 0;
    v |= (b & 0x7fu) << shift;
    shift += 7;
    if ((b & 0x80u) == 0) {
      if (shift < 32 && (b & 0x40u)) v |= ~0u << shift;
      *out = v;
      return n + 1;
    }
  }
  return 0;
}

static uint zigzag_decode(uint z) { return (z >> 1) ^ (0u - (z & 1u)); }

// ---- checksums ---------------------------------------------------------------------------------
static uint crc16_update(uint crc, uint byte) {
  crc ^= byte << 8;
  for (int i = 0; i < 8; i++) {
    if (crc & 0x8000u) crc = ((crc << 1) ^ 0x1021u) & 0xffffu;
    else crc = (crc << 1) & 0xffffu;
  }
  return crc;
}

static uint crc16_stream(uint begin, uint end) {
  uint crc = 0xffffu;
  for (uint i = begin; i < end; i++) crc = crc16_update(crc, byte_at(i));
  return crc;
}

static uint crc16_scratch(uint n) {
  uint crc = 0xffffu;
  for (uint i = 0; i < n; i++) crc = crc16_update(crc, scratch[i]);
  return crc;
}

static uint fnv_step(uint h, uint byte) { return (h ^ byte) * 16777619u; }

static uint fnv_scratch(uint n) {
  uint h = 2166136261u;
  for (uint i = 0; i < n; i++) h = fnv_step(h, scratch[i]);
  return h;
}

static uint adler32_stream(uint end) {
  uint a = 1, b = 0;
  for (uint i = 0; i < end; i++) {
    a += byte_at(i);
    if (a >= 65521u) a -= 65521u;
    b += a;
    if (b >= 65521u) b -= 65521u;
  }
  return (b << 16) | a;
}

// ---- records -----------------------------------------------------------------------------------
static void emit(uint tag, uint length, uint value, uint aux) {
  if (dec.nrecords >= MAX_RECORDS) {
    dec.status = S_TOO_MANY;
    return;
  }
  global struct record *r = &records[dec.nrecords];
  r->tag = (uchar)tag;
  r->depth = (uchar)dec.depth;
  r->length = (ushort)length;
  r->value = value;
  r->aux = aux;
  dec.nrecords++;
}

static void emit_error(uint tag, uint length, uint code) {
  dec.errors++;
  emit(TAG_ERROR, length, code, tag);
}

static bool is_upper(uint c) { return c >= 'A' && c <= 'Z'; }

// ---- payload decoders: each returns OK or an error code, and sets *value and *aux -------------------
static uint decode_fixed(uint tag, uint len, uint *value) {
  switch (tag) {
  case TAG_U8:
    if (len != 1) return E_BAD_LENGTH;
    return read_byte(value) ? OK : E_TRUNCATED;
  case TAG_U16:
    if (len != 2) return E_BAD_LENGTH;
    return read_u16le(value) ? OK : E_TRUNCATED;
  default:
    if (len != 4) return E_BAD_LENGTH;
    return read_u32le(value) ? OK : E_TRUNCATED;
  }
}

static uint decode_varint(uint tag, uint *value, uint *aux) {
  uint v, n;
  if (tag == TAG_SLEB) n = read_sleb128(&v);
  else n = read_uleb128(&v);
  if (n == 0 || !at_limit()) return E_BAD_VARINT;
  *value = tag == TAG_VARSINT ? zigzag_decode(v) : v;
  *aux = n;
  return OK;
}

static uint decode_bool(uint len, uint *value) {
  uint b;
  if (len != 1) return E_BAD_LENGTH;
  if (!read_byte(&b)) return E_TRUNCATED;
  if (b > 1) return E_BAD_BOOL;
  *value = b;
  return OK;
}

static uint decode_string(uint *value, uint *aux) {
  uint h = 2166136261u, upper = 0, c;
  while (read_byte(&c)) {
    h = fnv_step(h, c);
    if (is_upper(c)) upper++;
  }
  *value = h;
  *aux = upper;
  return OK;
}

// The 6-bit value of a base64 character, 64 for the padding '=', 255 for anything else.
static uint base64_value(uint c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+') return 62;
  if (c == '/') return 63;
  if (c == '=') return 64;
  return 255;
}

// Decodes one group of four characters into scratch at *n; `last`: the final group (padding allowed).
static uint base64_decode_quad(bool last, uint *n) {
  uint v[4];
  uint pad = 0;
  for (int i = 0; i < 4; i++) {
    uint c;
    if (!read_byte(&c)) return E_BAD_LENGTH;
    v[i] = base64_value(c);
    if (v[i] == 255) return E_BAD_BASE64;
    if (v[i] == 64) {
      if (!last || i < 2) return E_BAD_BASE64;
      pad++;
      v[i] = 0;
    } else if (pad != 0) {
      return E_BAD_BASE64; // data after padding
    }
  }
  uint bits = (v[0] << 18) | (v[1] << 12) | (v[2] << 6) | v[3];
  uint bytes = 3 - pad;
  if (*n + bytes > SCRATCH_BYTES) return E_OVERFLOW;
  for (uint k = 0; k < bytes; k++) scratch[*n + k] = (uchar)(bits >> (16u - 8u * k));
  *n += bytes;
  return OK;
}

static uint decode_base64(uint len, uint *value, uint *aux) {
  if (len % 4u != 0) return E_BAD_LENGTH;
  uint n = 0;
  for (uint q = 0; q < len / 4u; q++) {
    uint e = base64_decode_quad(q + 1u == len / 4u, &n);
    if (e != OK) return e;
  }
  *value = crc16_scratch(n);
  *aux = n;
  return OK;
}

static uint decode_rle(uint len, uint *value, uint *aux) {
  if (len % 2u != 0) return E_BAD_LENGTH;
  uint n = 0;
  while (!at_limit()) {
    uint count, byte;
    if (!read_byte(&count) || !read_byte(&byte)) return E_TRUNCATED;
    if (n + count > SCRATCH_BYTES) return E_OVERFLOW;
    for (uint i = 0; i < count; i++) scratch[n + i] = (uchar)byte;
    n += count;
  }
  *value = crc16_scratch(n);
  *aux = n;
  return OK;
}

// Canonical Huffman tables from the code lengths: codes per length and symbols in code order.
static void huff_build(void) {
  short offs[HUFF_MAXBITS + 1];
  for (int len = 0; len <= HUFF_MAXBITS; len++) huff_count[len] = 0;
  for (int s = 0; s < HUFF_SYMBOLS; s++) huff_count[huff_lengths[s]]++;
  offs[1] = 0;
  for (int len = 1; len < HUFF_MAXBITS; len++) offs[len + 1] = (short)(offs[len] + huff_count[len]);
  for (int s = 0; s < HUFF_SYMBOLS; s++) huff_symbol[offs[huff_lengths[s]]++] = (short)s;
}

static void bits_reset(void) {
  br.byte = 0;
  br.left = 0;
}

// Next bit of the payload, most significant first; -1 past its end.
static int bits_read_bit(void) {
  if (br.left == 0) {
    uint b;
    if (!read_byte(&b)) return -1;
    br.byte = b;
    br.left = 8;
  }
  br.left--;
  return (int)((br.byte >> br.left) & 1u);
}

// One symbol (puff's decode(), most significant bit first), -1 when the bits run out.
static int huff_decode_symbol(void) {
  int code = 0, first = 0, index = 0;
  for (int len = 1; len <= HUFF_MAXBITS; len++) {
    int bit = bits_read_bit();
    if (bit < 0) return -1;
    code |= bit;
    int count = huff_count[len];
    if (code - first < count) return huff_symbol[index + (code - first)];
    index += count;
    first += count;
    first <<= 1;
    code <<= 1;
  }
  return -1;
}

static uint decode_huffman(uint *value, uint *aux) {
  uint count;
  if (!read_byte(&count)) return E_BAD_LENGTH;
  if (count > SCRATCH_BYTES) return E_OVERFLOW;
  bits_reset();
  for (uint i = 0; i < count; i++) {
    int s = huff_decode_symbol();
    if (s < 0) return E_BAD_HUFFMAN;
    scratch[i] = huff_symbols[s];
  }
  *value = fnv_scratch(count);
  *aux = count;
  return OK;
}

static uint decode_array(uint *value, uint *aux) {
  uint count, sum = 0;
  if (read_uleb128(&count) == 0) return E_BAD_VARINT;
  for (uint i = 0; i < count; i++) {
    uint v;
    if (read_uleb128(&v) == 0) return E_BAD_VARINT;
    sum += v;
  }
  *value = sum;
  *aux = count;
  return OK;
}

static uint decode_delta(uint *value, uint *aux) {
  uint count, acc = 0;
  int max = INT_MIN;
  if (read_uleb128(&count) == 0) return E_BAD_VARINT;
  for (uint i = 0; i < count; i++) {
    uint d;
    if (read_sleb128(&d) == 0) return E_BAD_VARINT;
    acc += d;
    if ((int)acc > max) max = (int)acc;
  }
  *value = acc;
  *aux = (uint)max;
  return OK;
}

static uint open_group(uint *value) {
  uint id;
  if (read_uleb128(&id) == 0) return E_BAD_VARINT;
  if (dec.depth >= MAX_DEPTH) return E_OVERFLOW;
  group_stack[dec.depth] = id;
  dec.depth++;
  *value = id;
  return OK;
}

// Emits its own record (at the depth before the pop), so the caller emits nothing on success.
static uint close_group(uint len) {
  if (len != 0) return E_BAD_LENGTH;
  if (dec.depth == 0) return E_BAD_GROUP;
  emit(TAG_GROUP_END, 0, group_stack[dec.depth - 1u], 0);
  dec.depth--;
  return OK;
}

static uint decode_timestamp(uint *value) {
  uint dt;
  if (read_uleb128(&dt) == 0 || !at_limit()) return E_BAD_VARINT;
  dec.time += dt;
  *value = dec.time;
  return OK;
}

static uint decode_checkpoint(uint tag_pos, uint len, uint *value, uint *aux) {
  uint stored;
  if (len != 2) return E_BAD_LENGTH;
  if (!read_u16le(&stored)) return E_TRUNCATED;
  uint crc = crc16_stream(0, tag_pos);
  if (crc != stored) return E_BAD_CHECKPOINT;
  *value = crc;
  *aux = 1;
  return OK;
}

static uint decode_keyvalue(uint *value, uint *aux) {
  uint key, v;
  if (!read_byte(&key)) return E_TRUNCATED;
  if (read_uleb128(&v) == 0) return E_BAD_VARINT;
  *value = v;
  *aux = key;
  return OK;
}

static uint decode_checksum8(uint len, uint *value, uint *aux) {
  uint sum = 0, b;
  while (read_byte(&b)) sum += b;
  *value = sum & 255u;
  *aux = len;
  return OK;
}

// The payload of one record; *emitted is set when the decoder wrote the record itself.
static uint decode_payload(uint tag, uint tag_pos, uint len, uint *value, uint *aux, bool *emitted) {
  *value = 0;
  *aux = 0;
  *emitted = false;
  switch (tag) {
  case TAG_U8:
  case TAG_U16:
  case TAG_U32:
    return decode_fixed(tag, len, value);
  case TAG_VARUINT:
  case TAG_VARSINT:
  case TAG_SLEB:
    return decode_varint(tag, value, aux);
  case TAG_BOOL:
    return decode_bool(len, value);
  case TAG_STRING:
    return decode_string(value, aux);
  case TAG_BASE64:
    return decode_base64(len, value, aux);
  case TAG_RLE:
    return decode_rle(len, value, aux);
  case TAG_HUFF:
    return decode_huffman(value, aux);
  case TAG_ARRAY:
    return decode_array(value, aux);
  case TAG_GROUP:
    return open_group(value);
  case TAG_GROUP_END: {
    uint e = close_group(len);
    *emitted = e == OK;
    return e;
  }
  case TAG_TIMESTAMP:
    return decode_timestamp(value);
  case TAG_CHECKPOINT:
    return decode_checkpoint(tag_pos, len, value, aux);
  case TAG_PAD:
    *value = len;
    return OK;
  case TAG_DELTA:
    return decode_delta(value, aux);
  case TAG_KEYVALUE:
    return decode_keyvalue(value, aux);
  case TAG_CHECKSUM8:
    return decode_checksum8(len, value, aux);
  default:
    return E_UNKNOWN_TAG;
  }
}

// One record at rd.pos; returns false when decoding stops (END, or a record that cannot be framed).
static bool decode_record(void) {
  uint tag_pos = rd.pos;
  uint tag, len;
  rd.limit = dec.body_end;
  if (!read_byte(&tag)) {
    dec.status = S_NO_END;
    return false;
  }
  if (read_uleb128(&len) == 0 || len > remaining()) {
    dec.status = S_TRUNCATED;
    return false;
  }
  tag_histogram[tag & 31u]++;
  if (tag == TAG_END) {
    emit(TAG_END, 0, dec.nrecords, 0);
    rd.pos += len;
    return false;
  }
  uint payload_end = rd.pos + len;
  rd.limit = payload_end;
  uint value, aux;
  bool emitted;
  uint e = decode_payload(tag, tag_pos, len, &value, &aux, &emitted);
  if (e != OK) emit_error(tag, len, e);
  else if (!emitted) emit(tag, len, value, aux);
  rd.pos = payload_end; // skip whatever the payload decoder left
  return dec.status == S_OK;
}

static bool check_header(void) {
  for (uint i = 0; i < 4; i++) {
    if (byte_at(i) != magic[i]) {
      dec.status = S_BAD_MAGIC;
      return false;
    }
  }
  if (byte_at(4) != 1u) {
    dec.status = S_BAD_VERSION;
    return false;
  }
  rd.pos = 5;
  return true;
}

static bool check_trailer(void) {
  uint end = rd.pos;
  if (end + 4u > STREAM_LEN) return false;
  rd.limit = STREAM_LEN;
  uint stored;
  if (!read_u32le(&stored)) return false;
  return stored == adler32_stream(end) && stored == STREAM_ADLER;
}

static void reset_decoder(void) {
  dec.nrecords = 0;
  dec.depth = 0;
  dec.time = 0;
  dec.errors = 0;
  dec.status = S_OK;
  dec.body_end = STREAM_LEN - 4u;
  rd.pos = 0;
  rd.limit = 0;
  for (int i = 0; i < 32; i++) tag_histogram[i] = 0;
  for (int i = 0; i < MAX_DEPTH; i++) group_stack[i] = 0;
}

static bool decode_stream(void) {
  reset_decoder();
  huff_build();
  if (!check_header()) return false;
  for (;;) {
    if (!decode_record()) break;
  }
  if (dec.status != S_OK) return false;
  if (!check_trailer()) {
    dec.status = S_BAD_TRAILER;
    return false;
  }
  return true;
}

// ---- self-check --------------------------------------------------------------------------------
static uint compare_record(global const struct record *got, constant struct record *want) {
  uint bad = 0;
  if (got->tag != want->tag) bad++;
  if (got->depth != want->depth) bad++;
  if (got->length != want->length) bad++;
  if (got->value != want->value) bad++;
  if (got->aux != want->aux) bad++;
  return bad;
}

static uint count_errors_expected(void) {
  uint n = 0;
  for (int i = 0; i < EXPECTED_RECORDS; i++)
    if (expected[i].tag == TAG_ERROR) n++;
  return n;
}

static uint records_hash(void) {
  uint h = 2166136261u;
  for (uint i = 0; i < dec.nrecords; i++) {
    h = fnv_step(h, records[i].tag);
    h = fnv_step(h, records[i].value & 255u);
    h = fnv_step(h, records[i].aux & 255u);
  }
  return h;
}

static uint self_check(bool ok) {
  uint bad = 0;
  if (!ok) bad += 100;
  if (dec.nrecords != EXPECTED_RECORDS) bad += 10;
  uint n = dec.nrecords < EXPECTED_RECORDS ? dec.nrecords : EXPECTED_RECORDS;
  for (uint i = 0; i < n; i++) bad += compare_record(&records[i], &expected[i]);
  if (dec.errors != count_errors_expected()) bad++;
  if (dec.depth != 0) bad++;
  if (tag_histogram[TAG_VARSINT] != 7u || tag_histogram[TAG_BASE64] != 7u) bad++;
  return bad;
}

kernel void main_kernel(global uint *result) {
  bool ok = decode_stream();
  result[0] = self_check(ok);
  result[1] = dec.nrecords | (dec.errors << 16);
  result[2] = records_hash();
  result[3] = dec.time;
}
