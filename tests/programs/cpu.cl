// cpu (issue 11): a small register-machine interpreter. A 33-opcode ISA (ALU, immediates, word and
// byte loads, stores, signed/unsigned branches, call/return and push/pop on a stack kept in a global
// array, an output port), the program in a program-scope constant array of encoded words assembled
// by hand with macros, the register file, data memory, call stack, output log and machine state
// (a struct) in program-scope globals. The fetch/decode/execute loop is a switch over the opcode
// with the halt (and every trap) a `return` inside the loop. The program fills Fibonacci numbers,
// takes the CRC-32 of "The quick brown fox jumps over the lazy dog" (0x414FA339), bubble-sorts 24
// signed words, folds a checksum, runs Euclid's gcd, a recursive Fibonacci and a recursive
// factorial. Self-check: the data memory results (CRC-32 from its published value; sorted data,
// swap count, checksum, Fibonacci numbers from a separate native C computation) and the final
// registers, stack pointer and step count (the emulator run natively with gcc once).

// ---- instruction set -------------------------------------------------------------------------
// R-type: op[31:24] rd[23:20] ra[19:16] rb[3:0]; I-type: op rd ra imm16[15:0]. (A 6-bit opcode
// field makes clang -O2 switch on an i6, which llvm-spirv-15 aborts on; an opcode byte it is.)
enum opcode {
  OP_HALT, OP_ADD, OP_SUB, OP_AND, OP_OR, OP_XOR, OP_SHL, OP_SHR, OP_SRA, OP_MUL, OP_SLT,
  OP_SLTU, OP_ADDI, OP_ANDI, OP_ORI, OP_XORI, OP_SHLI, OP_SHRI, OP_LUI, OP_LD, OP_ST, OP_LDB,
  OP_BEQ, OP_BNE, OP_BLT, OP_BGE, OP_BLTU, OP_JMP, OP_CALL, OP_RET, OP_PUSH, OP_POP, OP_OUT
};

enum trap { TRAP_NONE, TRAP_HALT, TRAP_ILLEGAL, TRAP_PC, TRAP_STACK_OVER, TRAP_STACK_UNDER,
            TRAP_OUT_FULL, TRAP_TIMEOUT };

#define ENC(op, rd, ra, rb, imm)                                                              \
  (((uint)(op) << 24) | ((uint)(rd) << 20) | ((uint)(ra) << 16) | ((uint)(imm) & 0xffffu) |   \
   ((uint)(rb) & 15u))
#define R(op, d, a, b) ENC(op, d, a, b, 0)
#define I(op, d, a, imm) ENC(op, d, a, 0, imm)
#define HALT() ENC(OP_HALT, 0, 0, 0, 0)
#define ADD(d, a, b) R(OP_ADD, d, a, b)
#define SUB(d, a, b) R(OP_SUB, d, a, b)
#define XOR(d, a, b) R(OP_XOR, d, a, b)
#define MUL(d, a, b) R(OP_MUL, d, a, b)
#define SLT(d, a, b) R(OP_SLT, d, a, b)
#define SHL(d, a, b) R(OP_SHL, d, a, b)
#define SRA(d, a, b) R(OP_SRA, d, a, b)
#define ADDI(d, a, imm) I(OP_ADDI, d, a, imm)
#define ANDI(d, a, imm) I(OP_ANDI, d, a, imm)
#define ORI(d, a, imm) I(OP_ORI, d, a, imm)
#define XORI(d, a, imm) I(OP_XORI, d, a, imm)
#define SHLI(d, a, imm) I(OP_SHLI, d, a, imm)
#define SHRI(d, a, imm) I(OP_SHRI, d, a, imm)
#define LUI(d, imm) I(OP_LUI, d, 0, imm)
#define LD(d, a, imm) I(OP_LD, d, a, imm)
#define ST(s, a, imm) I(OP_ST, s, a, imm)
#define LDB(d, a, imm) I(OP_LDB, d, a, imm)
#define BEQ(x, y, off) I(OP_BEQ, x, y, off)
#define BNE(x, y, off) I(OP_BNE, x, y, off)
#define BLT(x, y, off) I(OP_BLT, x, y, off)
#define BGE(x, y, off) I(OP_BGE, x, y, off)
#define BLTU(x, y, off) I(OP_BLTU, x, y, off)
#define JMP(off) I(OP_JMP, 0, 0, off)
#define CALL(target) I(OP_CALL, 0, 0, target)
#define RET() I(OP_RET, 0, 0, 0)
#define PUSH(s) I(OP_PUSH, s, 0, 0)
#define POP(d) I(OP_POP, d, 0, 0)
#define OUT(s) I(OP_OUT, s, 0, 0)

// Subroutine addresses (word index into imem). Branch offsets are relative to the next instruction.
#define FIB_FILL 30
#define CRC32 40
#define BUBBLE 58
#define CHECKSUM 76
#define GCD 86
#define RFIB 94
#define FACT 108
#define SIGNS 118

// Data memory layout (word addresses; the CRC input bytes are at byte address 4 * MSG_WORD).
#define SORT_BASE 0
#define SORT_N 24
#define MSG_WORD 32
#define MSG_LEN 43
#define FIB_BASE 64
#define FIB_N 20
#define RES_CRC 96
#define RES_SUM 97
#define RES_GCD 98
#define RES_RFIB 99
#define RES_SWAPS 100
#define RES_FACT 101
#define RES_SIGNS 102
#define IMEM_WORDS (uint)(sizeof(imem) / sizeof(imem[0]))

constant uint imem[] = {
  // main (0)
  ADDI(1, 0, FIB_BASE), ADDI(2, 0, FIB_N), CALL(FIB_FILL),                          // 0..2
  ADDI(1, 0, 4 * MSG_WORD), ADDI(2, 0, MSG_LEN), CALL(CRC32), ST(1, 0, RES_CRC), OUT(1), // 3..7
  ADDI(1, 0, SORT_BASE), ADDI(2, 0, SORT_N), CALL(BUBBLE), ST(1, 0, RES_SWAPS), OUT(1),  // 8..12
  ADDI(1, 0, SORT_BASE), ADDI(2, 0, SORT_N), CALL(CHECKSUM), ST(1, 0, RES_SUM),          // 13..16
  ADDI(1, 0, 1071), ADDI(2, 0, 462), CALL(GCD), ST(1, 0, RES_GCD),                       // 17..20
  ADDI(1, 0, 12), CALL(RFIB), ST(1, 0, RES_RFIB), OUT(1),                                // 21..24
  ADDI(1, 0, 10), CALL(FACT), ST(1, 0, RES_FACT),                                        // 25..27
  CALL(SIGNS), HALT(),                                                                   // 28..29
  // FIB_FILL (30): r1 = destination word, r2 = count; r4, r5 = consecutive Fibonacci numbers
  ADDI(4, 0, 0), ADDI(5, 0, 1),                                                          // 30..31
  ST(4, 1, 0), ADD(6, 4, 5), ADD(4, 5, 0), ADD(5, 6, 0), ADDI(1, 1, 1), ADDI(2, 2, -1),  // 32..37
  BNE(2, 0, -7), RET(),                                                                  // 38..39
  // CRC32 (40): r1 = byte address, r2 = length; reflected CRC-32, polynomial 0xEDB88320
  ADDI(4, 0, -1), LUI(5, 0xEDB8), ORI(5, 5, 0x8320),                                     // 40..42
  LDB(6, 1, 0), XOR(4, 4, 6), ADDI(7, 0, 8),                                             // 43..45
  ANDI(8, 4, 1), SHRI(4, 4, 1), BEQ(8, 0, 1), XOR(4, 4, 5), ADDI(7, 7, -1), BNE(7, 0, -6), // 46..51
  ADDI(1, 1, 1), ADDI(2, 2, -1), BNE(2, 0, -12),                                         // 52..54
  ADDI(6, 0, -1), XOR(1, 4, 6), RET(),                                                   // 55..57
  // BUBBLE (58): r1 = base, r2 = n; returns the number of swaps in r1
  ADDI(9, 0, 0), ADDI(3, 2, -1),                                                         // 58..59
  BEQ(3, 0, 13), ADD(4, 1, 0), ADD(5, 3, 0),                                             // 60..62
  LD(6, 4, 0), LD(7, 4, 1), BGE(7, 6, 3), ST(7, 4, 0), ST(6, 4, 1), ADDI(9, 9, 1),       // 63..68
  ADDI(4, 4, 1), ADDI(5, 5, -1), BNE(5, 0, -9), ADDI(3, 3, -1), JMP(-14),               // 69..73
  ADD(1, 9, 0), RET(),                                                                   // 74..75
  // CHECKSUM (76): r1 = base, r2 = n; r4 = r4 * 31 + word
  ADDI(4, 0, 7), ADDI(10, 0, 31),                                                        // 76..77
  LD(6, 1, 0), MUL(4, 4, 10), ADD(4, 4, 6), ADDI(1, 1, 1), ADDI(2, 2, -1), BNE(2, 0, -6), // 78..83
  ADD(1, 4, 0), RET(),                                                                   // 84..85
  // GCD (86): Euclid by subtraction on r1, r2
  BEQ(1, 2, 5), BLTU(1, 2, 2), SUB(1, 1, 2), JMP(-4), SUB(2, 2, 1), JMP(-6),             // 86..91
  RET(), HALT(),                                                                         // 92..93
  // RFIB (94): r1 = n; returns fib(n) recursively, saving n and fib(n-1) on the stack
  ADDI(4, 0, 2), BLT(1, 4, 11),                                                          // 94..95
  PUSH(1), ADDI(1, 1, -1), CALL(RFIB), POP(4), PUSH(1), ADDI(1, 4, -2), CALL(RFIB),      // 96..102
  POP(4), ADD(1, 1, 4), RET(),                                                           // 103..105
  HALT(), RET(),                                                                         // 106..107
  // FACT (108): r1 = n; returns n! recursively
  ADDI(4, 0, 2), BLT(1, 4, 6), PUSH(1), ADDI(1, 1, -1), CALL(FACT), POP(4), MUL(1, 1, 4), RET(), // 108..115
  ADDI(1, 0, 1), RET(),                                                                  // 116..117
  // SIGNS (118): shifts and compares on negative values, result packed into RES_SIGNS
  ADDI(4, 0, -100), ADDI(5, 0, 3), SRA(6, 4, 5), SHL(7, 4, 5), SLT(8, 4, 5),             // 118..122
  SHLI(8, 8, 4), XORI(8, 8, 0x5a5a), ADD(8, 8, 6), ADD(8, 8, 7), ST(8, 0, RES_SIGNS),    // 123..127
  OUT(8), RET()                                                                          // 128..129
};

// ---- machine state -----------------------------------------------------------------------------
#define DMEM_WORDS 128
#define STACK_WORDS 64
#define OUT_WORDS 16
#define MAX_STEPS 20000u

struct machine {
  uint pc;
  uint sp;
  uint steps;
  uint trap;
  uint outs;
  uint calls;
  uint max_depth;
};

global uint regs[16];
global uint dmem[DMEM_WORDS];
global uint stack[STACK_WORDS];
global uint out_log[OUT_WORDS];
global struct machine cpu;
global uint op_histogram[40];

// The data the program works on: signed words to sort and the CRC message.
constant int sort_init[SORT_N] = {
  503, -87, 512, 61, 908, -170, 897, 275, 653, 426, -154, 509,
  612, 677, -765, 703, 0, 1, -1, 2147483647, -2147483647 - 1, 42, 42, -3};
constant char message[MSG_LEN + 1] = "The quick brown fox jumps over the lazy dog";

// ---- expected results ------------------------------------------------------------------------
constant int sorted_expect[SORT_N] = {
  -2147483647 - 1, -765, -170, -154, -87, -3, -1, 0, 1, 42, 42, 61,
  275, 426, 503, 509, 512, 612, 653, 677, 703, 897, 908, 2147483647};
constant uint fib_expect[FIB_N] = {0, 1, 1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144, 233, 377, 610,
                                   987, 1597, 2584, 4181};
#define CRC_EXPECT 0x414FA339u /* CRC-32 of the message (IEEE 802.3 / zlib check value) */
#define SWAPS_EXPECT 156u /* the inversions of sort_init */
#define SUM_EXPECT 0x2646e699u
#define SIGNS_EXPECT 0x571du
constant uint regs_expect[16] = {0, 3628800u, 21, 0, 0xffffff9cu, 3, 0xfffffff3u, 0xfffffce0u,
                                 0x571du, 156, 31, 0, 0, 0, 0, 0};
#define STEPS_EXPECT 8336u
#define CALLS_EXPECT 481u
#define DEPTH_EXPECT 23u

// ---- the emulator ------------------------------------------------------------------------------
static uint op_of(uint insn) { return insn >> 24; }
static uint rd_of(uint insn) { return (insn >> 20) & 15u; }
static uint ra_of(uint insn) { return (insn >> 16) & 15u; }
static uint rb_of(uint insn) { return insn & 15u; }
static uint uimm_of(uint insn) { return insn & 0xffffu; }
static uint simm_of(uint insn) {
  uint v = insn & 0xffffu;
  return (v & 0x8000u) ? (v | 0xffff0000u) : v;
}

static uint load_word(uint addr) { return dmem[addr & (DMEM_WORDS - 1)]; }
static void store_word(uint addr, uint v) { dmem[addr & (DMEM_WORDS - 1)] = v; }
static uint load_byte(uint byte_addr) {
  uint w = load_word(byte_addr >> 2);
  return (w >> (8u * (byte_addr & 3u))) & 255u;
}

static uint alu(uint op, uint a, uint b) {
  switch (op) {
  case OP_ADD: case OP_ADDI: return a + b;
  case OP_SUB: return a - b;
  case OP_AND: case OP_ANDI: return a & b;
  case OP_OR: case OP_ORI: return a | b;
  case OP_XOR: case OP_XORI: return a ^ b;
  case OP_SHL: case OP_SHLI: return a << (b & 31u);
  case OP_SHR: case OP_SHRI: return a >> (b & 31u);
  case OP_SRA: {
    uint s = b & 31u;
    if ((a & 0x80000000u) == 0) return a >> s;
    return ~(~a >> s);
  }
  case OP_MUL: return a * b;
  case OP_SLT: return (int)a < (int)b ? 1u : 0u;
  case OP_SLTU: return a < b ? 1u : 0u;
  default: return 0;
  }
}

static bool branch_taken(uint op, uint x, uint y) {
  switch (op) {
  case OP_BEQ: return x == y;
  case OP_BNE: return x != y;
  case OP_BLT: return (int)x < (int)y;
  case OP_BGE: return (int)x >= (int)y;
  case OP_BLTU: return x < y;
  default: return false;
  }
}

static void write_reg(uint r, uint v) {
  if (r != 0) regs[r] = v;
}

static bool push(uint v) {
  if (cpu.sp >= STACK_WORDS) return false;
  stack[cpu.sp] = v;
  cpu.sp++;
  if (cpu.sp > cpu.max_depth) cpu.max_depth = cpu.sp;
  return true;
}

static bool pop(uint *v) {
  if (cpu.sp == 0) return false;
  cpu.sp--;
  *v = stack[cpu.sp];
  return true;
}

static void reset_machine(void) {
  for (int i = 0; i < 16; i++) regs[i] = 0;
  for (int i = 0; i < DMEM_WORDS; i++) dmem[i] = 0;
  for (int i = 0; i < STACK_WORDS; i++) stack[i] = 0;
  for (int i = 0; i < OUT_WORDS; i++) out_log[i] = 0;
  for (int i = 0; i < 40; i++) op_histogram[i] = 0;
  cpu.pc = 0;
  cpu.sp = 0;
  cpu.steps = 0;
  cpu.trap = TRAP_NONE;
  cpu.outs = 0;
  cpu.calls = 0;
  cpu.max_depth = 0;
}

static void load_data(void) {
  for (int i = 0; i < SORT_N; i++) store_word(SORT_BASE + i, (uint)sort_init[i]);
  for (int i = 0; i < MSG_LEN; i++) {
    uint byte_addr = 4u * MSG_WORD + (uint)i;
    uint w = load_word(byte_addr >> 2);
    w |= ((uint)(uchar)message[i]) << (8u * (byte_addr & 3u));
    store_word(byte_addr >> 2, w);
  }
}

// Runs until HALT or a trap; returns the trap code.
static uint run(uint max_steps) {
  for (uint step = 0; step < max_steps; step++) {
    if (cpu.pc >= IMEM_WORDS) return TRAP_PC;
    uint insn = imem[cpu.pc];
    uint op = op_of(insn);
    uint rd = rd_of(insn);
    uint a = regs[ra_of(insn)];
    uint next = cpu.pc + 1u;
    cpu.steps = step + 1u;
    if (op < 40u) op_histogram[op]++;
    switch (op) {
    case OP_HALT:
      return TRAP_HALT;
    case OP_ADD: case OP_SUB: case OP_AND: case OP_OR: case OP_XOR: case OP_SHL: case OP_SHR:
    case OP_SRA: case OP_MUL: case OP_SLT: case OP_SLTU:
      write_reg(rd, alu(op, a, regs[rb_of(insn)]));
      break;
    case OP_ADDI: case OP_SHLI: case OP_SHRI:
      write_reg(rd, alu(op, a, simm_of(insn)));
      break;
    case OP_ANDI: case OP_ORI: case OP_XORI:
      write_reg(rd, alu(op, a, uimm_of(insn)));
      break;
    case OP_LUI:
      write_reg(rd, uimm_of(insn) << 16);
      break;
    case OP_LD:
      write_reg(rd, load_word(a + simm_of(insn)));
      break;
    case OP_LDB:
      write_reg(rd, load_byte(a + simm_of(insn)));
      break;
    case OP_ST:
      store_word(a + simm_of(insn), regs[rd]);
      break;
    case OP_BEQ: case OP_BNE: case OP_BLT: case OP_BGE: case OP_BLTU:
      if (branch_taken(op, regs[rd], a)) next = next + simm_of(insn);
      break;
    case OP_JMP:
      next = next + simm_of(insn);
      break;
    case OP_CALL:
      if (!push(next)) return TRAP_STACK_OVER;
      cpu.calls++;
      next = uimm_of(insn);
      break;
    case OP_RET: {
      uint target;
      if (!pop(&target)) return TRAP_STACK_UNDER;
      next = target;
      break;
    }
    case OP_PUSH:
      if (!push(regs[rd])) return TRAP_STACK_OVER;
      break;
    case OP_POP: {
      uint v;
      if (!pop(&v)) return TRAP_STACK_UNDER;
      write_reg(rd, v);
      break;
    }
    case OP_OUT:
      if (cpu.outs >= OUT_WORDS) return TRAP_OUT_FULL;
      out_log[cpu.outs] = regs[rd];
      cpu.outs++;
      break;
    default:
      return TRAP_ILLEGAL;
    }
    cpu.pc = next;
  }
  return TRAP_TIMEOUT;
}

// ---- self-check --------------------------------------------------------------------------------
static uint check_range(uint base, constant uint *expect, int n) {
  uint bad = 0;
  for (int i = 0; i < n; i++)
    if (load_word(base + (uint)i) != expect[i]) bad++;
  return bad;
}

static uint check_sorted(void) {
  uint bad = 0;
  for (int i = 0; i < SORT_N; i++) {
    if ((int)load_word(SORT_BASE + (uint)i) != sorted_expect[i]) bad++;
    if (i > 0 && (int)load_word(SORT_BASE + (uint)i - 1u) > (int)load_word(SORT_BASE + (uint)i)) bad++;
  }
  return bad;
}

static uint check_results(void) {
  uint bad = 0;
  if (cpu.trap != TRAP_HALT) bad += 100;
  bad += check_sorted();
  bad += check_range(FIB_BASE, fib_expect, FIB_N);
  if (load_word(RES_CRC) != CRC_EXPECT) bad++;
  if (load_word(RES_SWAPS) != SWAPS_EXPECT) bad++;
  if (load_word(RES_SUM) != SUM_EXPECT) bad++;
  if (load_word(RES_GCD) != 21u) bad++;
  if (load_word(RES_RFIB) != 144u) bad++;
  if (load_word(RES_FACT) != 3628800u) bad++;
  if (load_word(RES_SIGNS) != SIGNS_EXPECT) bad++;
  for (int i = 0; i < 16; i++)
    if (regs[i] != regs_expect[i]) bad++;
  if (cpu.sp != 0) bad++;
  if (cpu.steps != STEPS_EXPECT) bad++;
  if (cpu.calls != CALLS_EXPECT) bad++;
  if (cpu.max_depth != DEPTH_EXPECT) bad++;
  if (cpu.outs != 4u) bad++;
  if (out_log[0] != CRC_EXPECT || out_log[1] != SWAPS_EXPECT || out_log[2] != 144u ||
      out_log[3] != SIGNS_EXPECT)
    bad++;
  return bad;
}

static uint histogram_hash(void) {
  uint h = 2166136261u;
  for (int i = 0; i < 40; i++) h = (h ^ op_histogram[i]) * 16777619u;
  return h;
}

kernel void main_kernel(global uint *result) {
  reset_machine();
  load_data();
  cpu.trap = run(MAX_STEPS);
  result[0] = check_results();
  result[1] = cpu.steps;
  result[2] = histogram_hash();
  result[3] = load_word(RES_CRC) ^ load_word(RES_SUM);
}
