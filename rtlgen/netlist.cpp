#include "rtlgen/netlist.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <map>
#include <string_view>

#include "frontend/diagnostics.h"

namespace spvhls::rtl::nl {

namespace {

[[noreturn]] void fail(const std::string& what) {
  throw InternalError(SourceLoc{}, "netlist", what);
}

uint64_t mask(unsigned width) {
  return width >= 64 ? ~uint64_t(0) : (uint64_t(1) << width) - 1;
}

Expr* make(Op op, unsigned width, std::span<const ExprP> args) {
  if (width == 0) fail("an expression of width 0");
  for (const ExprP& a : args)
    if (!a) fail("a null operand");
  ExprArena& arena = ExprArena::current();
  Expr* e = arena.node();
  e->op = op;
  e->width = width;
  e->data = arena.list(args.data(), args.size()).data();
  e->count = uint32_t(args.size());
  return e;
}
Expr* make(Op op, unsigned width, std::initializer_list<ExprP> args) {
  return make(op, width, std::span(args.begin(), args.size()));
}

// Or/And over terms of `width`: constants that do not matter are dropped, a dominating one wins.
ExprP nary(Op op, std::vector<ExprP> terms, unsigned width) {
  const uint64_t neutral = op == Op::Or ? 0 : mask(width), dominant = op == Op::Or ? mask(width) : 0;
  std::vector<ExprP> kept;
  for (ExprP& t : terms) {
    if (!t) fail("a null term");
    if (t->width != width)
      fail(fmt::format("a {}-bit term in a {}-bit {}", t->width, width, op == Op::Or ? "OR" : "AND"));
    if (t->isConst(dominant)) return lit(dominant, width);
    if (t->op == op)
      kept.insert(kept.end(), t->args().begin(), t->args().end()); // associative: one flat list
    else if (!t->isConst(neutral))
      kept.push_back(std::move(t));
  }
  if (kept.empty()) return lit(neutral, width);
  if (kept.size() == 1) return kept[0];
  return ExprP(make(op, width, kept));
}

} // namespace

std::span<const ExprP> ExprArena::list(const ExprP* begin, size_t n) {
  if (n == 0) return {};
  auto* out = static_cast<ExprP*>(allocate(n * sizeof(ExprP), alignof(ExprP)));
  std::uninitialized_copy_n(begin, n, out);
  return {out, n};
}

std::string_view ExprArena::text(std::string_view s) {
  if (s.empty()) return {};
  auto* out = static_cast<char*>(allocate(s.size(), 1));
  std::copy(s.begin(), s.end(), out);
  return {out, s.size()};
}

void* ExprArena::allocate(size_t bytes, size_t align) {
  size_t at = (used_ + align - 1) & ~(align - 1);
  if (chunks_.empty() || at + bytes > chunkBytes_) {
    // A request larger than a chunk gets a chunk of its own size (and fills it).
    chunkBytes_ =
        std::max(bytes, chunks_.empty() ? kFirstChunkBytes : std::min(2 * chunkBytes_, kMaxChunkBytes));
    chunks_.emplace_back(new std::byte[chunkBytes_]);
    at = 0;
  }
  used_ = at + bytes;
  return chunks_.back().get() + at;
}

ExprArena*& ExprArena::currentSlot() {
  thread_local ExprArena* slot = nullptr;
  return slot;
}

ExprArena& ExprArena::processWide() {
  static ExprArena* arena = new ExprArena(); // never destroyed: its expressions may be used until exit
  return *arena;
}

ExprArena& ExprArena::current() {
  ExprArena* a = currentSlot();
  return a ? *a : processWide();
}

const char* binarySymbol(Op op) {
  switch (op) {
  case Op::Add:
    return "+";
  case Op::Sub:
    return "-";
  case Op::Mul:
    return "*";
  case Op::Div:
    return "/";
  case Op::Mod:
    return "%";
  case Op::Xor:
    return "^";
  case Op::Shl:
    return "<<";
  case Op::Shr:
    return ">>";
  case Op::AShr:
    return ">>>";
  case Op::Eq:
    return "==";
  case Op::Ne:
    return "!=";
  case Op::Lt:
    return "<";
  case Op::Le:
    return "<=";
  case Op::Gt:
    return ">";
  case Op::Ge:
    return ">=";
  default:
    return nullptr;
  }
}

ExprP ref(std::string_view name, unsigned width) {
  if (width == 0 || name.empty()) fail("a reference without a name or width");
  ExprArena& arena = ExprArena::current();
  Expr* e = arena.node();
  e->op = Op::Ref;
  e->width = width;
  e->data = arena.text(name).data();
  e->count = uint32_t(name.size());
  return ExprP(e);
}

// Built in the process-wide arena: they outlive every module.
static ExprP sharedBit(uint64_t v) {
  Expr* e = ExprArena::processWide().node();
  e->op = Op::Const;
  e->value = v;
  return ExprP(e);
}
const ExprP& one() {
  static const ExprP e = sharedBit(1);
  return e;
}
const ExprP& zero() {
  static const ExprP e = sharedBit(0);
  return e;
}

ExprP lit(uint64_t value, unsigned width) {
  if (width == 0) fail("a literal of width 0");
  // Wider than a node holds (a wide memory port's idle data): the value zero-extended.
  if (width > 64) return concat({lit(0, width - 64), lit(value, 64)});
  Expr* e = ExprArena::current().node();
  e->op = Op::Const;
  e->width = width;
  e->value = value & mask(width);
  return ExprP(e);
}

ExprP unary(Op op, ExprP a) {
  if (op != Op::Not && op != Op::Signed && op != Op::Unsigned) fail("unary: not a unary operator");
  if (op == Op::Not && a && a->op == Op::Const) return lit(~a->value, a->width);
  if (op == Op::Not && a && a->op == Op::Not) return a->args()[0];
  unsigned w = a ? a->width : 1;
  return ExprP(make(op, w, {a}));
}

ExprP binary(Op op, ExprP a, ExprP b) {
  if (!a || !b) fail("binary: a null operand");
  const bool shift = op == Op::Shl || op == Op::Shr || op == Op::AShr;
  const bool compare =
      op == Op::Eq || op == Op::Ne || op == Op::Lt || op == Op::Le || op == Op::Gt || op == Op::Ge;
  if (!shift && !compare && op != Op::Add && op != Op::Sub && op != Op::Mul && op != Op::Div &&
      op != Op::Mod && op != Op::Xor)
    fail("binary: not a binary operator");
  // Equal widths keep Verilog's context-determined sizing out of play (and Verilator's WIDTH quiet).
  if (!shift && a->width != b->width)
    fail(fmt::format("binary {}: operands of {} and {} bits", binarySymbol(op), a->width, b->width));
  unsigned w = compare ? 1 : a->width;
  return ExprP(make(op, w, {a, b}));
}

ExprP any(std::vector<ExprP> terms, unsigned width) {
  return nary(Op::Or, std::move(terms), width);
}
ExprP all(std::vector<ExprP> terms, unsigned width) {
  return nary(Op::And, std::move(terms), width);
}
ExprP operator|(ExprP a, ExprP b) {
  unsigned w = a ? a->width : 1;
  return any({std::move(a), std::move(b)}, w);
}
ExprP operator&(ExprP a, ExprP b) {
  unsigned w = a ? a->width : 1;
  return all({std::move(a), std::move(b)}, w);
}

ExprP concat(std::vector<ExprP> parts) {
  if (parts.empty()) fail("an empty concatenation");
  if (parts.size() == 1) return parts[0];
  unsigned w = 0;
  for (const ExprP& p : parts)
    w += p ? p->width : 0;
  return ExprP(make(Op::Concat, w, parts));
}

ExprP slice(ExprP a, unsigned hi, unsigned lo) {
  if (!a || hi < lo || hi >= a->width) fail("slice: out of range");
  if (lo == 0 && hi + 1 == a->width) return a;
  if (a->op == Op::Const) return lit(a->value >> lo, hi - lo + 1);
  Expr* e = make(Op::Slice, hi - lo + 1, {a});
  e->value = lo;
  return ExprP(e);
}

ExprP replicate(ExprP a, unsigned count) {
  if (count == 0) fail("replicate: count 0");
  if (count == 1) return a;
  unsigned w = a ? a->width * count : 1;
  Expr* e = make(Op::Replicate, w, {a});
  e->value = count;
  return ExprP(e);
}

ExprP mux(ExprP cond, ExprP t, ExprP f) {
  if (!cond || !t || !f || cond->width != 1 || t->width != f->width) fail("mux: operand widths");
  if (auto c = cond->constValue()) return *c ? t : f;
  unsigned w = t->width;
  return ExprP(make(Op::Mux, w, {cond, t, f}));
}

ExprP priorityMux(const std::vector<std::pair<ExprP, ExprP>>& arms, ExprP dflt) {
  if (!dflt) fail("priorityMux: no default");
  std::vector<ExprP> args;
  for (const auto& [c, v] : arms) {
    if (!c || !v || c->width != 1 || v->width != dflt->width) fail("priorityMux: arm widths");
    if (c->isConst(0)) continue;
    args.push_back(c);
    args.push_back(v);
    if (c->isConst(1)) break; // later arms are never chosen
  }
  if (args.empty()) return dflt;
  if (args.size() == 2 && args[0]->isConst(1)) return args[1];
  if (args.size() == 2) return mux(args[0], args[1], dflt);
  if (!args[args.size() - 2]->isConst(1))
    args.push_back(dflt);
  else {
    ExprP last = args.back();
    args.pop_back();
    args.back() = last; // a final always-true arm is the default
  }
  unsigned w = dflt->width;
  return ExprP(make(Op::PriorityMux, w, args));
}

ExprP resize(ExprP a, unsigned width) {
  if (!a) fail("resize: null");
  if (a->width == width) return a;
  if (a->op == Op::Const) return lit(a->value, width);
  if (a->width > width) return slice(std::move(a), width - 1, 0);
  return concat({lit(0, width - a->width), std::move(a)});
}

Stmt assignStmt(const std::string& lhs, ExprP value) {
  Stmt s;
  s.kind = Stmt::Kind::Assign;
  s.lhs = lhs;
  s.expr = std::move(value);
  return s;
}

Stmt ifStmt(ExprP cond, std::vector<Stmt> then, std::vector<Stmt> orElse) {
  Stmt s;
  s.kind = Stmt::Kind::If;
  s.expr = std::move(cond);
  s.body = std::move(then);
  s.orElse = std::move(orElse);
  return s;
}

std::vector<Stmt> only(Stmt s) {
  std::vector<Stmt> v;
  v.push_back(std::move(s));
  return v;
}

static unsigned ceilLog2(uint64_t v) {
  unsigned n = 0;
  while ((uint64_t(1) << n) < v)
    ++n;
  return n;
}

unsigned Fifo::addrWidth() const {
  return ceilLog2(depth);
}
ExprP Fifo::count() const {
  return ref(prefix + "_count", countWidth());
}
ExprP Fifo::full() const {
  return eq(count(), lit(depth, countWidth()));
}
uint64_t Ram::depth() const {
  return uint64_t(1) << ceilLog2(std::max<uint64_t>((sizeBytes + wordBytes - 1) / wordBytes, 2));
}

const Signal* Module::find(std::string_view n) const {
  if (nameIndex.size() == signals.size()) {
    const size_t h = std::hash<std::string_view>{}(n);
    for (auto it = std::lower_bound(nameIndex.begin(), nameIndex.end(), std::pair<size_t, uint32_t>(h, 0));
         it != nameIndex.end() && it->first == h; ++it)
      if (signals[it->second].name == n) return &signals[it->second];
    return nullptr;
  }
  for (const Signal& s : signals)
    if (s.name == n) return &s;
  return nullptr;
}

const Instance* Module::findInstance(const std::string& n) const {
  for (const Instance& i : instances)
    if (i.name == n) return &i;
  return nullptr;
}

const Fifo* Module::findFifo(const std::string& p) const {
  for (const Fifo& f : fifos)
    if (f.prefix == p) return &f;
  return nullptr;
}

ModuleBuilder::ModuleBuilder(std::string name, std::string comment)
    : arena_(std::make_shared<ExprArena>()), previous_(ExprArena::currentSlot()) {
  m_.name = std::move(name);
  m_.comment = std::move(comment);
  m_.arena = arena_;
  ExprArena::currentSlot() = arena_.get();
}

ModuleBuilder::~ModuleBuilder() {
  ExprArena::currentSlot() = previous_;
}

ExprP ModuleBuilder::declare(Signal s) {
  const size_t index = m_.signals.size(); // names are checked for uniqueness in take()
  ExprP r = ref(s.name, s.width);
  const_cast<Expr*>(r.get())->value = index + 1; // its own node, just made
  m_.signals.push_back(std::move(s));
  return r;
}

void ModuleBuilder::observe(const ExprP& r) {
  const_cast<Signal&>(signal(r)).observed = true; // signal() finds it in m_, which this builder owns
}

const Signal& ModuleBuilder::signal(const ExprP& r) const {
  if (!r || r->op != Op::Ref) fail(fmt::format("module {}: a driven signal is not a reference", m_.name));
  // A reference this builder made knows its signal; any other is looked up by name.
  if (r->value > 0 && r->value <= m_.signals.size() && m_.signals[r->value - 1].name == r->name())
    return m_.signals[r->value - 1];
  const Signal* s = m_.find(r->name());
  if (!s) fail(fmt::format("module {}: unknown signal {}", m_.name, r->name()));
  return *s;
}

ExprP ModuleBuilder::input(const std::string& name, unsigned width, bool partial) {
  return declare({name, width, Dir::In, Storage::Wire, "", partial});
}
ExprP ModuleBuilder::output(const std::string& name, unsigned width, Storage storage) {
  return declare({name, width, Dir::Out, storage, "", false});
}
ExprP ModuleBuilder::wire(const std::string& name, unsigned width, std::string comment, bool partial) {
  return declare({name, width, Dir::None, Storage::Wire, std::move(comment), partial});
}
ExprP ModuleBuilder::reg(const std::string& name, unsigned width, std::string comment, bool partial) {
  return declare({name, width, Dir::None, Storage::Reg, std::move(comment), partial});
}

ExprP ModuleBuilder::named(const std::string& name, ExprP value) {
  ExprP w = wire(name, value->width);
  assign(w, std::move(value));
  return w;
}

void ModuleBuilder::assign(const ExprP& lhs, ExprP rhs) {
  const Signal& s = signal(lhs);
  if (s.storage != Storage::Wire || s.dir == Dir::In)
    fail(fmt::format("module {}: assign to {}", m_.name, s.name));
  if (!rhs || rhs->width != s.width)
    fail(fmt::format("module {}: {}-bit value assigned to {}-bit {}", m_.name, rhs ? rhs->width : 0, s.width,
                     s.name));
  m_.assigns.push_back({s.name, std::move(rhs)});
}

Register& ModuleBuilder::drive(const ExprP& r) {
  const Signal& s = signal(r);
  if (s.storage != Storage::Reg) fail(fmt::format("module {}: {} is not a register", m_.name, s.name));
  m_.registers.push_back({s.name, uint32_t(&s - m_.signals.data()), nullptr, nullptr, {}});
  return m_.registers.back();
}

void ModuleBuilder::process(std::vector<Stmt> body) {
  m_.processes.push_back(std::move(body));
}

ModuleBuilder::FifoOut ModuleBuilder::fifo(Fifo f) {
  if (!f.push || !f.din || !f.pop || !f.clear || f.din->width != f.width || f.depth < 2)
    fail(fmt::format("module {}: FIFO {} is malformed", m_.name, f.prefix));
  // Its outputs are ordinary wires (driven by the primitive); its state names are reserved (take()
  // checks them).
  FifoOut out{wire(f.prefix + "_dout", f.width, "", f.doutUnread), wire(f.prefix + "_nonempty", 1)};
  m_.fifos.push_back(std::move(f));
  return out;
}

void ModuleBuilder::ram(Ram r) {
  m_.rams.push_back(std::move(r));
}

void ModuleBuilder::instance(Instance i) {
  m_.instances.push_back(std::move(i));
}

void ModuleBuilder::assertion(ExprP cond, std::string message) {
  m_.assertions.push_back({std::move(cond), std::move(message)});
}

static void collectDriven(const std::vector<Stmt>& body, std::map<std::string_view, int>& processOf,
                          int process) {
  for (const Stmt& st : body) {
    if (st.kind == Stmt::Kind::Assign) processOf.emplace(st.lhs, process);
    collectDriven(st.body, processOf, process);
    collectDriven(st.orElse, processOf, process);
    for (const auto& [value, b] : st.cases)
      collectDriven(b, processOf, process);
  }
}

Module ModuleBuilder::take() {
  // Unique signal names, and no signal named like a FIFO's state.
  m_.nameIndex.resize(m_.signals.size());
  for (uint32_t i = 0; i < m_.nameIndex.size(); ++i)
    m_.nameIndex[i] = {std::hash<std::string_view>{}(m_.signals[i].name), i};
  std::sort(m_.nameIndex.begin(), m_.nameIndex.end());
  for (size_t i = 1; i < m_.nameIndex.size(); ++i)
    for (size_t j = i; j-- > 0 && m_.nameIndex[j].first == m_.nameIndex[i].first;)
      if (m_.signals[m_.nameIndex[i].second].name == m_.signals[m_.nameIndex[j].second].name)
        fail(fmt::format("module {}: signal {} declared twice", m_.name,
                         m_.signals[m_.nameIndex[i].second].name));
  for (const Fifo& f : m_.fifos)
    for (const char* s : {"_mem", "_rd", "_wr", "_count", "_push", "_pop", "_din"})
      if (m_.find(f.prefix + s))
        fail(fmt::format("module {}: FIFO {} collides with a signal", m_.name, f.prefix));
  // Every Reg is driven by exactly one register, one process or one RAM primitive, and nothing else
  // is driven by them.
  std::vector<int> drivers(m_.signals.size(), 0);
  auto driven = [&](std::string_view name) {
    const Signal* s = m_.find(name);
    if (!s || s->storage != Storage::Reg)
      fail(fmt::format("module {}: {} is clocked but not a register", m_.name, name));
    ++drivers[size_t(s - m_.signals.data())];
  };
  for (const Register& r : m_.registers)
    ++drivers[r.signal]; // drive() checked it is a register
  for (const Ram& r : m_.rams) {
    driven(r.respValid);
    for (const Ram::ReadPort& rp : r.moreReads)
      driven(rp.respValid);
  }
  for (size_t p = 0; p < m_.processes.size(); ++p) {
    std::map<std::string_view, int> lhs;
    collectDriven(m_.processes[p], lhs, int(p));
    for (const auto& [name, process] : lhs)
      driven(name);
  }
  for (size_t i = 0; i < m_.signals.size(); ++i) {
    const Signal& s = m_.signals[i];
    if (s.storage != Storage::Reg) continue;
    if (drivers[i] == 0) fail(fmt::format("module {}: register {} is never written", m_.name, s.name));
    if (drivers[i] > 1)
      fail(fmt::format("module {}: register {} has {} drivers", m_.name, s.name, drivers[i]));
  }
  return std::move(m_);
}

MemPort addMemoryPort(ModuleBuilder& b, const MemPortSpec& spec, PortRole role) {
  auto n = [&](const char* f) { return spec.prefix.empty() ? std::string(f) : spec.prefix + "_" + f; };
  // Master: requests out, responses in; Slave: the reverse; Internal: wires between two instances.
  auto req = [&](const char* f, unsigned w, bool partial = false) {
    if (role == PortRole::Internal) return b.wire(n(f), w);
    if (role == PortRole::Master) return b.output(n(f), w);
    return b.input(n(f), w, partial);
  };
  auto ready = [&]() {
    return role == PortRole::Master  ? b.input(n("req_ready"), 1)
           : role == PortRole::Slave ? b.output(n("req_ready"), 1)
                                     : b.wire(n("req_ready"), 1);
  };
  MemPort p;
  p.addrWidth = spec.addrWidth;
  p.dataWidth = spec.dataWidth;
  p.reqValid = req("req_valid", 1);
  p.reqReady = ready();
  p.reqWrite = req("req_write", 1);
  // A RAM decodes only the address bits its depth needs and the write bytes of the access size.
  p.reqAddr = req("req_addr", spec.addrWidth, true);
  p.reqSize = req("req_size", portSizeWidth(spec.dataWidth));
  p.reqWdata = req("req_wdata", spec.dataWidth, true);
  if (!spec.response) return p;
  // Narrow loads use only the low bytes of resp_data.
  switch (role) {
  case PortRole::Master:
    p.respValid = b.input(n("resp_valid"), 1, spec.unusedResponseOk);
    p.respData = b.input(n("resp_data"), spec.dataWidth, true);
    break;
  case PortRole::Internal:
    p.respValid = b.wire(n("resp_valid"), 1, "", spec.unusedResponseOk);
    p.respData = b.wire(n("resp_data"), spec.dataWidth, "", true);
    break;
  case PortRole::Slave:
    p.respValid = b.output(n("resp_valid"), 1, Storage::Reg);
    p.respData = b.output(n("resp_data"), spec.dataWidth); // the lane shift of the RAM's read word
    break;
  }
  return p;
}

unsigned portSizeWidth(unsigned dataWidth) {
  // Sizes up to 8 bytes keep the 4-bit field; a wider port needs the bits of its widest size.
  return dataWidth <= kPortDataWidth ? kPortSizeWidth : unsigned(std::bit_width(dataWidth / 8));
}

void driveRequests(ModuleBuilder& b, const MemPort& port, const std::vector<MemRequest>& reqs,
                   const ExprP& validGate, const std::vector<MemPort>& merged, bool idleZero) {
  std::vector<ExprP> valids, writes;
  std::vector<std::pair<ExprP, ExprP>> addrs, sizes, wdatas;
  // Reversed: a later request has priority.
  for (size_t i = reqs.size(); i-- > 0;) {
    const MemRequest& r = reqs[i];
    valids.insert(valids.begin(), r.when);
    addrs.emplace_back(r.when, resize(r.addr, port.addrWidth));
    sizes.emplace_back(r.when, resize(r.size, port.sizeWidth()));
    if (r.write) {
      writes.insert(writes.begin(), r.when);
      wdatas.emplace_back(r.when, resize(r.wdata, port.dataWidth));
    }
  }
  ExprP valid = any(valids);
  if (validGate && !reqs.empty()) valid = valid & validGate;
  auto merge = [&](ExprP own, ExprP MemPort::*field) {
    std::vector<ExprP> terms = {std::move(own)};
    for (const MemPort& o : merged)
      terms.push_back(o.*field);
    unsigned w = terms[0]->width;
    return any(std::move(terms), w);
  };
  b.assign(port.reqValid, merge(valid, &MemPort::reqValid));
  b.assign(port.reqWrite, merge(any(writes), &MemPort::reqWrite));
  // Zero while idle; or, undefined then, the lowest-priority request's fields by default.
  auto select = [&](std::vector<std::pair<ExprP, ExprP>> arms, unsigned width) {
    if (idleZero || !merged.empty() || arms.empty()) return priorityMux(arms, lit(0, width));
    ExprP last = arms.back().second;
    arms.pop_back();
    return priorityMux(arms, last);
  };
  b.assign(port.reqAddr, merge(select(addrs, port.addrWidth), &MemPort::reqAddr));
  b.assign(port.reqSize, merge(select(sizes, port.sizeWidth()), &MemPort::reqSize));
  b.assign(port.reqWdata, merge(select(wdatas, port.dataWidth), &MemPort::reqWdata));
}

} // namespace spvhls::rtl::nl
