// A structural model of the generated hardware: modules with typed ports and signals, expression
// trees whose every node knows its width, registers {enable/next, reset}, clocked processes for the
// FSM, instances, FIFO and RAM primitives and simulation assertions. The generators (loop_gen,
// top_gen, ram_gen) build it with ModuleBuilder; verilog_printer.cpp is the one place that turns it
// into Verilog text, so nothing is ever parsed back out of text.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace spvhls::rtl::nl {

enum class Op : uint8_t {
  Ref,   // a signal by name
  Const, // sized literal (width <= 64)
  // Unary.
  Not,
  Signed,
  Unsigned,
  // Binary; operands of equal width except a shift amount.
  Add,
  Sub,
  Mul,
  Div,
  Mod,
  Xor,
  Shl,
  Shr,
  AShr,
  Eq,
  Ne,
  Lt,
  Le,
  Gt,
  Ge, // 1 bit
  // N-ary: the printer splits long lists into balanced trees of named wires.
  Or,
  And,         // bitwise, all terms of the node's width
  Concat,      // most significant first
  PriorityMux, // args c0, v0, c1, v1, ..., default: the first true condition wins
  Slice,       // args[0][lo + width - 1 : lo]
  Replicate,   // {count{args[0]}}
  Mux,         // args[0] ? args[1] : args[2]
};

struct Expr;

// A handle to an expression node (null by default). Nodes are immutable, shared freely and owned by
// an ExprArena, so a handle is a plain pointer: no reference counts, no single frees.
class ExprP {
public:
  ExprP() = default;
  ExprP(std::nullptr_t) {}
  explicit ExprP(const Expr* e) : p_(e) {}
  const Expr* operator->() const { return p_; }
  const Expr& operator*() const { return *p_; }
  const Expr* get() const { return p_; }
  explicit operator bool() const { return p_ != nullptr; }
  friend bool operator==(ExprP a, ExprP b) { return a.p_ == b.p_; }

private:
  const Expr* p_ = nullptr;
};

// 32 bytes: a large module has tens of thousands of nodes.
struct Expr {
  Op op = Op::Const;
  unsigned width = 1;
  uint32_t count = 0; // operands, or the name's characters (Ref)
  // Const: the value (masked to width); Replicate: the count; Slice: the lowest bit selected;
  // Ref made by a ModuleBuilder: 1 + the signal's index (0: unknown).
  uint64_t value = 0;
  const void* data = nullptr; // the operands (ExprP[count]) or the name's characters, in the arena

  std::span<const ExprP> args() const {
    return op == Op::Ref ? std::span<const ExprP>() : std::span(static_cast<const ExprP*>(data), count);
  }
  std::string_view name() const {
    return op == Op::Ref ? std::string_view(static_cast<const char*>(data), count) : std::string_view();
  }
  unsigned lo() const { return unsigned(value); } // Slice
  std::optional<uint64_t> constValue() const {
    return op == Op::Const ? std::optional<uint64_t>(value) : std::nullopt;
  }
  bool isConst(uint64_t v) const { return op == Op::Const && value == v; }
};

// Owns expression nodes, their operand lists and names, freed all at once: a netlist is built once
// and dropped whole (with reference-counted nodes, allocating and freeing them was a third of the
// generation time). A ModuleBuilder makes its own arena current while it lives and hands it to its
// Module, so a module's expressions live as long as the module: keep an expression no longer than
// its module, and use it in no other. Expressions built while no builder lives (tests, the shared
// one()/zero()) go to a process-wide arena.
class ExprArena {
public:
  ExprArena() = default;
  ExprArena(const ExprArena&) = delete;
  ExprArena& operator=(const ExprArena&) = delete;
  Expr* node() { return new (allocate(sizeof(Expr), alignof(Expr))) Expr(); }
  std::span<const ExprP> list(const ExprP* begin, size_t n);
  std::string_view text(std::string_view s);
  // The arena new expressions go to.
  static ExprArena& current();
  static ExprArena& processWide();

private:
  friend class ModuleBuilder;
  static ExprArena*& currentSlot();
  void* allocate(size_t bytes, size_t align);
  // Chunks double from 4 KB (small modules are common) up to a size below malloc's mmap threshold
  // (chunks growing beyond it were mapped and unmapped for every large module).
  static constexpr size_t kFirstChunkBytes = size_t(4) << 10, kMaxChunkBytes = (size_t(64) << 10) - 64;
  std::vector<std::unique_ptr<std::byte[]>> chunks_;
  size_t used_ = 0, chunkBytes_ = 0; // in the last chunk; its size
};

// ---- expression constructors (check widths, fold literals where the result is obvious) --------
ExprP ref(std::string_view name, unsigned width);
ExprP lit(uint64_t value, unsigned width);
// The one-bit constants, shared (they are everywhere: enables of free-running stages, empty ORs).
const ExprP& one();
const ExprP& zero();
ExprP unary(Op op, ExprP a);
inline ExprP operator~(ExprP a) {
  return unary(Op::Not, std::move(a));
}
inline ExprP asSigned(ExprP a) {
  return unary(Op::Signed, std::move(a));
}
inline ExprP asUnsigned(ExprP a) {
  return unary(Op::Unsigned, std::move(a));
}
ExprP binary(Op op, ExprP a, ExprP b);
// The Verilog operator of a binary node ("+", ">>>", ...); null for other nodes.
const char* binarySymbol(Op op);
inline ExprP eq(ExprP a, ExprP b) {
  return binary(Op::Eq, std::move(a), std::move(b));
}
inline ExprP ne(ExprP a, ExprP b) {
  return binary(Op::Ne, std::move(a), std::move(b));
}
inline ExprP lt(ExprP a, ExprP b) {
  return binary(Op::Lt, std::move(a), std::move(b));
}
inline ExprP add(ExprP a, ExprP b) {
  return binary(Op::Add, std::move(a), std::move(b));
}
inline ExprP sub(ExprP a, ExprP b) {
  return binary(Op::Sub, std::move(a), std::move(b));
}
// a | b | ... (all-zero when empty) and a & b & ... (all-ones when empty); constant terms fold.
ExprP any(std::vector<ExprP> terms, unsigned width = 1);
ExprP all(std::vector<ExprP> terms, unsigned width = 1);
ExprP operator|(ExprP a, ExprP b);
ExprP operator&(ExprP a, ExprP b);
ExprP concat(std::vector<ExprP> parts); // most significant first
ExprP slice(ExprP a, unsigned hi, unsigned lo);
ExprP replicate(ExprP a, unsigned count);
ExprP mux(ExprP cond, ExprP ifTrue, ExprP ifFalse);
// c0 ? v0 : c1 ? v1 : ... : dflt.
ExprP priorityMux(const std::vector<std::pair<ExprP, ExprP>>& arms, ExprP dflt);
// Zero-extends or truncates to `width` (a literal stays a literal).
ExprP resize(ExprP a, unsigned width);

// ---- module contents ---------------------------------------------------------------------------
enum class Dir : uint8_t { None, In, Out };
enum class Storage : uint8_t { Wire, Reg };

struct Signal {
  std::string name;
  unsigned width = 1;
  Dir dir = Dir::None;
  Storage storage = Storage::Wire;
  std::string comment;
  // Some readers use only part of it (a truncation, a narrow load): declared inside a lint_off
  // UNUSEDSIGNAL region, on purpose.
  bool partial = false;
  // The test bench reads it from inside the design (Verilator public_flat_rd): loop launches and
  // starts, for the measured reinvocation delay (sim/tb_template.cpp.in).
  bool observed = false;
};

struct Assign {
  std::string lhs;
  ExprP rhs;
};

// A clocked register: on reset (when given) takes resetValue; else the first update whose enable
// holds writes its next value; else it holds.
struct Register {
  struct Update {
    ExprP enable, next;
  };
  std::string name;
  uint32_t signal = 0;     // index into Module::signals
  ExprP reset, resetValue; // both null: no reset
  std::vector<Update> updates;
};

// A statement of a clocked process (the FSM's control, where case statements read best).
struct Stmt {
  enum class Kind : uint8_t { Assign, If, Case };
  Kind kind = Kind::Assign;
  std::string lhs;                // Assign: a Reg signal
  ExprP expr;                     // Assign: value; If: condition; Case: selector
  std::vector<Stmt> body, orElse; // If: then / else; Case: orElse is the default
  std::vector<std::pair<ExprP, std::vector<Stmt>>> cases;
};
Stmt assignStmt(const std::string& lhs, ExprP value);
Stmt ifStmt(ExprP cond, std::vector<Stmt> then, std::vector<Stmt> orElse = {});
// A block of one statement, moved in (an initializer list would copy the whole tree below it).
std::vector<Stmt> only(Stmt s);

// A synchronous FIFO: registers <prefix>_mem/_rd/_wr/_count, outputs <prefix>_dout and
// <prefix>_nonempty. Depth is at least 2 (its pointers wrap at it). `clear` empties it. With bypass
// (first-word fall-through) a push into an empty FIFO is readable, and can be popped, in the same cycle. In
// simulation, overflow and underflow stop with $error.
struct Fifo {
  std::string prefix;
  unsigned width = 1;
  uint64_t depth = 2;
  bool bypass = false;
  ExprP push, din, pop, clear;
  bool doutUnread = false; // only its fill matters (a void task's completions): dout may go unread
  unsigned addrWidth() const;
  unsigned countWidth() const { return addrWidth() + 1; }
  ExprP count() const; // its <prefix>_count register: the entries it holds
  ExprP full() const;  // count() == depth
};

// A byte-addressed RAM answering its module's request port (docs/hardware-interface.md) always
// ready, reads the next cycle; `init` is its configuration-time contents. Out-of-bounds accesses stop
// the simulation. It is built of words of `wordBytes` bytes (the widest access; accesses are naturally
// aligned, so each falls in one word) with byte enables and one synchronous read: the shape of a
// block RAM, which synthesis maps to one.
struct Ram {
  std::string what; // for the error message
  uint64_t sizeBytes = 0;
  std::vector<uint8_t> init;
  ExprP reqValid, reqWrite, reqAddr, reqSize, reqWdata;
  // A second port that only writes (null: the port above reads and writes); the port above then only
  // reads. A read and a write in one cycle: the read sees the word as it was (no write-to-read path).
  ExprP wValid, wWrite, wAddr, wSize, wWdata;
  // More ports that only read, each with its own registered read (synthesis copies the block RAM).
  struct ReadPort {
    ExprP valid, write, addr, size;
    std::string respValid, respData; // the Reg and Wire outputs it drives
  };
  std::vector<ReadPort> moreReads;
  std::string respValid; // the Reg output it drives
  std::string respData;  // the Wire output it drives
  unsigned dataWidth = 64;
  unsigned wordBytes = 8; // a power of two, at most dataWidth / 8
  // Nothing writes it (a constant, or an array the kernel only reads): no write logic, which would
  // cost the synthesis of a write decoder per byte and lane for contents that never change.
  bool readOnly = false;
  // A read never meets a write of the same word in one cycle: synthesis may give the read any data
  // then (yosys no_rw_check), so it needs no bypass registers around the block RAM.
  bool noCollision = false;
  uint64_t depth() const; // in words
};

struct Instance {
  std::string module, name;
  std::vector<std::pair<std::string, ExprP>> connections; // port -> expression (an output: a Ref)
};

struct Assertion {
  ExprP cond; // stop the simulation when true (outside reset)
  std::string message;
};

struct Module {
  std::string name;
  std::string comment;         // printed above the module
  std::vector<Signal> signals; // ports (in port order) and internal signals, in declaration order
  // (hash of the name, index into signals), sorted: made once by ModuleBuilder::take(), which also
  // rejects duplicate names there (cheaper than a hash map kept up while thousands of signals are
  // declared). find() scans while it is out of date.
  std::vector<std::pair<size_t, uint32_t>> nameIndex;
  std::shared_ptr<const ExprArena> arena; // owns the expressions below
  std::vector<Assign> assigns;
  std::vector<Register> registers;
  std::vector<std::vector<Stmt>> processes; // each one always @(posedge clk) block
  std::vector<Fifo> fifos;
  std::vector<Ram> rams;
  std::vector<Instance> instances;
  std::vector<Assertion> assertions;

  const Signal* find(std::string_view name) const;
  const Instance* findInstance(const std::string& name) const;
  const Fifo* findFifo(const std::string& prefix) const;
};

// Builds a Module: every signal gets a unique name and a width, and connections are checked
// (InternalError on a duplicate name, an unknown signal or a width mismatch).
class ModuleBuilder {
public:
  ModuleBuilder(std::string name, std::string comment);
  ~ModuleBuilder(); // the arena current before it is current again
  ModuleBuilder(const ModuleBuilder&) = delete;
  ModuleBuilder& operator=(const ModuleBuilder&) = delete;
  ExprP input(const std::string& name, unsigned width, bool partial = false);
  ExprP output(const std::string& name, unsigned width, Storage storage = Storage::Wire);
  ExprP wire(const std::string& name, unsigned width, std::string comment = "", bool partial = false);
  ExprP reg(const std::string& name, unsigned width, std::string comment = "", bool partial = false);
  // Marks a signal the test bench reads (Signal::observed).
  void observe(const ExprP& r);
  // A wire driven by `value` (named so that the text stays readable).
  ExprP named(const std::string& name, ExprP value);
  void assign(const ExprP& lhs, ExprP rhs);
  // A register driven from here on: reset (optional) and its updates in priority order.
  Register& drive(const ExprP& r);
  void process(std::vector<Stmt> body);
  struct FifoOut {
    ExprP dout, nonempty;
  };
  FifoOut fifo(Fifo f);
  void ram(Ram r);
  void instance(Instance i);
  void assertion(ExprP cond, std::string message);
  const Module& module() const { return m_; }
  Module take();

private:
  ExprP declare(Signal s);
  const Signal& signal(const ExprP& r) const;
  Module m_;
  std::shared_ptr<ExprArena> arena_;
  ExprArena* previous_;
};

// Ports of one memory port in the protocol of docs/hardware-interface.md: req_valid, req_ready,
// req_write, req_addr, req_size, req_wdata and (with `response`) resp_valid, resp_data. The data
// width is the port's own: kPortDataWidth, or its widest access when that is wider (a vector accessed
// whole); req_size holds the access size in bytes, kPortSizeWidth bits unless a wider access needs
// more (portSizeWidth).
inline constexpr unsigned kPortDataWidth = 64, kPortAddrWidth = 64, kPortSizeWidth = 4;
// The req_size width of a port `dataWidth` bits wide (ir::Memory::wordBits: 64 or its widest access).
unsigned portSizeWidth(unsigned dataWidth);
struct MemPortSpec {
  std::string prefix; // <prefix>_req_valid ...; empty: req_valid ...
  bool response = true;
  bool unusedResponseOk = false; // a fixed interface whose responses may go unread
  unsigned addrWidth = kPortAddrWidth, dataWidth = kPortDataWidth;
};
enum class PortRole : uint8_t { Master, Internal, Slave }; // requests out / wires / requests in
struct MemPort {
  ExprP reqValid, reqReady, reqWrite, reqAddr, reqSize, reqWdata, respValid, respData; // resp*: null without
  unsigned addrWidth = kPortAddrWidth, dataWidth = kPortDataWidth;
  unsigned sizeWidth() const { return portSizeWidth(dataWidth); }
};
MemPort addMemoryPort(ModuleBuilder& b, const MemPortSpec& spec, PortRole role);

// One request source of a memory port: issued when `when` holds.
struct MemRequest {
  ExprP when;
  bool write = false;
  ExprP addr, size, wdata; // wdata: stores only; any width up to the port's
};
// The request side of a port driven from several sources: `reqs` in program order (a later request
// has priority in the muxes), their valid qualified by `validGate` (may be null), OR-ed with `merged`
// (other drivers of the same port whose outputs are all-zero while idle, so OR-ing is a mux).
// idleZero: the fields are zero while no request is offered, as `merged` expects of a driver merged
// into another port; false: they are undefined then, which saves their gating.
void driveRequests(ModuleBuilder& b, const MemPort& port, const std::vector<MemRequest>& reqs,
                   const ExprP& validGate, const std::vector<MemPort>& merged, bool idleZero = true);

} // namespace spvhls::rtl::nl
