// The Verilog printer's behavioural blocks: instances, always blocks of registers, FIFOs, RAMs and
// assertions (Printer, verilog_printer_impl.h).
#include "rtlgen/verilog_printer_impl.h"

namespace spvhls::rtl::vlog {

void Printer::instance(const nl::Instance& i) {
  std::vector<std::string> conns;
  for (const auto& [port, e] : i.connections)
    conns.push_back(fmt::format(FMT_COMPILE(".{}({})"), port, top(e)));
  std::string s = fmt::format(FMT_COMPILE("  {} {} (\n"), i.module, i.name);
  for (size_t k = 0; k < conns.size(); ++k)
    s += "    " + conns[k] + (k + 1 < conns.size() ? ",\n" : "\n");
  statement(s + "  );\n");
}

void Printer::registers() {
  std::vector<std::string_view> order;
  std::unordered_map<std::string_view, std::vector<const nl::Register*>> groups;
  for (const nl::Register& r : m_.registers) {
    const bool simple = !r.reset && r.updates.size() == 1 &&
                        (r.updates[0].enable->op == Op::Ref || r.updates[0].enable->isConst(1));
    if (!simple) {
      reg(r);
      continue;
    }
    const std::string_view key = r.updates[0].enable->op == Op::Ref ? r.updates[0].enable->name() : "";
    auto [it, added] = groups.try_emplace(key);
    if (added) order.push_back(key);
    it->second.push_back(&r);
  }
  for (std::string_view key : order) {
    const auto& regs = groups.at(key);
    if (regs.size() == 1) {
      reg(*regs[0]);
      continue;
    }
    for (size_t from = 0; from < regs.size(); from += kRegistersPerBlock) {
      std::string& s = scratch();
      if (key.empty())
        s += "  always @(posedge clk) begin\n";
      else {
        s += "  always @(posedge clk) if (";
        s += key;
        s += ") begin\n";
      }
      for (size_t k = from; k < std::min(regs.size(), from + kRegistersPerBlock); ++k) {
        s += "    ";
        s += regs[k]->name;
        s += " <= ";
        topTo(regs[k]->updates[0].next, s);
        s += ";\n";
      }
      s += "  end\n";
      statement(s);
    }
  }
}

void Printer::reg(const nl::Register& r) {
  std::vector<std::pair<ExprP, ExprP>> arms;
  if (r.reset) arms.emplace_back(r.reset, r.resetValue);
  for (const nl::Register::Update& u : r.updates)
    arms.emplace_back(u.enable, u.next);
  std::string& s = scratch();
  s += "  always @(posedge clk)";
  bool first = true;
  for (const auto& [when, value] : arms) {
    if (when->isConst(0)) continue;
    s += first ? "\n    " : "\n    else ";
    first = false;
    if (!when->isConst(1)) {
      s += "if (";
      topTo(when, s);
      s += ") ";
    }
    s += r.name;
    s += " <= ";
    topTo(value, s);
    s += ';';
    if (when->isConst(1)) break;
  }
  if (first) fail("register " + r.name + " is never written");
  s += '\n';
  statement(s);
}

void Printer::stmtTo(const nl::Stmt& st, unsigned indent, std::string& out) {
  using K = nl::Stmt::Kind;
  auto ind = [&](unsigned extra = 0) { out.append(indent + extra, ' '); };
  auto block = [&](const std::vector<nl::Stmt>& b, unsigned in) {
    for (const nl::Stmt& x : b)
      stmtTo(x, in, out);
  };
  auto opening = [&](const char* before, const char* after) { // "if (cond) begin", "case (sel)"
    ind();
    out += before;
    topTo(st.expr, out);
    out += after;
  };
  switch (st.kind) {
  case K::Assign:
    ind();
    out += st.lhs;
    out += " <= ";
    topTo(st.expr, out);
    out += ";\n";
    return;
  case K::If:
    opening("if (", ") begin\n");
    block(st.body, indent + 2);
    ind();
    out += "end";
    if (!st.orElse.empty()) {
      out += " else begin\n";
      block(st.orElse, indent + 2);
      ind();
      out += "end";
    }
    out += '\n';
    return;
  case K::Case:
    opening("case (", ")\n");
    for (const auto& [v, b] : st.cases) {
      ind(2);
      exprTo(v, out);
      out += ": begin\n";
      block(b, indent + 4);
      ind(2);
      out += "end\n";
    }
    ind(2);
    out += "default: begin\n";
    block(st.orElse, indent + 4);
    ind(2);
    out += "end\n";
    ind();
    out += "endcase\n";
    return;
  }
}

std::string Printer::input(const std::string& name, const ExprP& e) {
  if (e->op == Op::Ref || e->op == Op::Const) return expr(e);
  helperNames_.insert(name);
  pending_ += fmt::format(FMT_COMPILE("  wire {}{} = {};\n"), range(e->width), name, expr(e));
  return name;
}

void Printer::fifo(const nl::Fifo& f) {
  const std::string& p = f.prefix;
  unsigned aw = f.addrWidth(), cw = f.countWidth();
  std::string push = input(p + "_push", f.push), pop = input(p + "_pop", f.pop),
              din = input(p + "_din", f.din);
  std::string clear = input(p + "_clear", f.clear);
  const std::string zeroA = lit(0, aw), oneA = lit(1, aw), zeroC = lit(0, cw), oneC = lit(1, cw);
  // A pointer's next entry: it wraps by itself at a power of two, else at the depth.
  const bool pow2 = (f.depth & (f.depth - 1)) == 0;
  auto next = [&](const char* which) {
    return pow2 ? fmt::format(FMT_COMPILE("{}_{} + {}"), p, which, oneA)
                : fmt::format(FMT_COMPILE("({0}_{1} == {2}) ? {3} : {0}_{1} + {4}"), p, which,
                              lit(f.depth - 1, aw), zeroA, oneA);
  };
  std::string& s = scratch();
  auto put = [&s](auto format, const auto&... args) {
    fmt::format_to(std::back_inserter(s), format, args...);
  };
  // With bypass, an entry pushed into an empty FIFO is visible (and can be popped) in the same cycle.
  std::string stored = fmt::format(FMT_COMPILE("({}_count != {})"), p, zeroC);
  std::string popMem = f.bypass ? fmt::format(FMT_COMPILE("({} && {})"), pop, stored) : pop;
  std::string write = f.bypass ? fmt::format(FMT_COMPILE("({} && !({} && !{}))"), push, pop, stored) : push;
  if (f.bypass) {
    put(FMT_COMPILE("  assign {0}_dout = {1} ? {0}_mem[{0}_rd] : {2};\n"), p, stored, din);
    put(FMT_COMPILE("  assign {}_nonempty = {} || {};\n"), p, stored, push);
  } else {
    put(FMT_COMPILE("  assign {0}_dout = {0}_mem[{0}_rd];\n"), p);
    put(FMT_COMPILE("  assign {}_nonempty = {};\n"), p, stored);
  }
  s += "  always @(posedge clk) begin\n";
  put(FMT_COMPILE(
          "    if (rst || {}) begin\n      {}_rd <= {};\n      {}_wr <= {};\n      {}_count <= {};\n"),
      clear, p, zeroA, p, zeroA, p, zeroC);
  s += "    end else begin\n";
  put(FMT_COMPILE("      if ({}) begin\n        {}_mem[{}_wr] <= {};\n        {}_wr <= {};\n      end\n"),
      write, p, p, din, p, next("wr"));
  put(FMT_COMPILE("      if ({}) {}_rd <= {};\n"), popMem, p, next("rd"));
  put(FMT_COMPILE("      if ({} && !{}) {}_count <= {}_count + {};\n"), write, popMem, p, p, oneC);
  put(FMT_COMPILE("      if (!{} && {}) {}_count <= {}_count - {};\n"), write, popMem, p, p, oneC);
  s += "    end\n  end\n";
  statement(s);
  checks_.emplace_back(
      fmt::format(FMT_COMPILE("{} && !{} && {}_count == {}"), write, popMem, p, lit(f.depth, cw)),
      fmt::format(FMT_COMPILE("FIFO {} overflow"), p));
  checks_.emplace_back(fmt::format(FMT_COMPILE("{} && !{}_nonempty"), pop, p),
                       fmt::format(FMT_COMPILE("FIFO {} underflow"), p));
}

void Printer::ram(const nl::Ram& r) {
  const uint64_t depth = r.depth();
  const unsigned wb = r.wordBytes, ww = 8 * wb;
  const unsigned aw = std::countr_zero(depth), lw = std::countr_zero(wb); // both powers of two
  std::string valid = exprOf(r.reqValid), write = exprOf(r.reqWrite), addr = exprOf(r.reqAddr);
  std::string size = exprOf(r.reqSize), wdata = exprOf(r.reqWdata);
  // The write side: the one port's, or the write port's (then the port above only reads).
  const bool two = r.wValid != nullptr;
  const std::string wvalid = two ? exprOf(r.wValid) : valid, wwrite = two ? exprOf(r.wWrite) : write;
  const std::string waddr = two ? exprOf(r.wAddr) : addr, wsize = two ? exprOf(r.wSize) : size;
  if (two) wdata = exprOf(r.wWdata);
  const std::string word = fresh("ram_word"), lane = fresh("ram_lane"), be = fresh("ram_be");
  const std::string wshift = fresh("ram_wdata"), rword = fresh("ram_rword"), rlane = fresh("ram_rlane");
  const std::string wword = two ? fresh("ram_wword") : word,
                    wlane = two && lw > 0 ? fresh("ram_wlane") : lane;
  std::string s;
  auto out = std::back_inserter(s);
  fmt::format_to(out, FMT_COMPILE("  {}reg {}ram_mem [0:{}];\n"), r.noCollision ? "(* no_rw_check *) " : "",
                 range(ww), depth - 1);
  fmt::format_to(out, FMT_COMPILE("  wire {}{} = {}[{}:{}];\n"), range(aw), word, addr, aw + lw - 1, lw);
  if (two && !r.readOnly)
    fmt::format_to(out, FMT_COMPILE("  wire {}{} = {}[{}:{}];\n"), range(aw), wword, waddr, aw + lw - 1, lw);
  fmt::format_to(out, FMT_COMPILE("  reg {}{};\n"), range(ww), rword);
  if (lw > 0) {
    fmt::format_to(out, FMT_COMPILE("  wire {}{} = {}[{}:0];\n  reg {}{};\n"), range(lw), lane, addr, lw - 1,
                   range(lw), rlane);
    if (!r.readOnly) {
      if (two) fmt::format_to(out, FMT_COMPILE("  wire {}{} = {}[{}:0];\n"), range(lw), wlane, waddr, lw - 1);
      // Bytes [lane, lane + size): size low ones, shifted to the lane.
      fmt::format_to(out, FMT_COMPILE("  wire {}{} = ~({{{}{{1'b1}}}} << {}) << {};\n"), range(wb), be, wb,
                     wsize, wlane);
      fmt::format_to(out, FMT_COMPILE("  wire {}{} = {}[{}:0] << {{{}, 3'h0}};\n"), range(ww), wshift, wdata,
                     ww - 1, wlane);
    }
    fmt::format_to(out, FMT_COMPILE("  assign {} = {}{} >> {{{}, 3'h0}}{};\n"), r.respData,
                   ww < r.dataWidth ? fmt::format("{{{}, ", lit(0, r.dataWidth - ww)) : "", rword, rlane,
                   ww < r.dataWidth ? "}" : "");
  } else {
    fmt::format_to(out, FMT_COMPILE("  assign {} = {};\n"), r.respData,
                   ww < r.dataWidth ? fmt::format("{{{}, {}}}", lit(0, r.dataWidth - ww), rword) : rword);
  }
  // The further read ports: each its own word, lane and registered read of the same array.
  struct Reader {
    std::string valid, write, addr, size, word, rword, rlane;
  };
  std::vector<Reader> more;
  for (const nl::Ram::ReadPort& rp : r.moreReads) {
    Reader x{exprOf(rp.valid),
             exprOf(rp.write),
             exprOf(rp.addr),
             exprOf(rp.size),
             fresh("ram_word"),
             fresh("ram_rword"),
             lw > 0 ? fresh("ram_rlane") : ""};
    fmt::format_to(out, FMT_COMPILE("  wire {}{} = {}[{}:{}];\n  reg {}{};\n"), range(aw), x.word, x.addr,
                   aw + lw - 1, lw, range(ww), x.rword);
    const std::string data = lw > 0 ? fmt::format("{} >> {{{}, 3'h0}}", x.rword, x.rlane) : x.rword;
    if (lw > 0) fmt::format_to(out, FMT_COMPILE("  reg {}{};\n"), range(lw), x.rlane);
    fmt::format_to(out, FMT_COMPILE("  assign {} = {};\n"), rp.respData,
                   ww < r.dataWidth ? fmt::format("{{{}, {}}}", lit(0, r.dataWidth - ww), data) : data);
    more.push_back(std::move(x));
  }
  // Initial contents: the array's initializer (little-endian words), zero elsewhere
  // (configuration-time contents).
  s += "  initial begin\n";
  for (uint64_t i = 0; i < depth; ++i) {
    auto byte = [&](unsigned k) { return i * wb + k < r.init.size() ? r.init[i * wb + k] : uint8_t(0); };
    std::string word;
    if (wb <= 8) {
      uint64_t v = 0;
      for (unsigned k = 0; k < wb; ++k)
        v |= uint64_t(byte(k)) << (8 * k);
      word = lit(v, ww);
    } else { // wider than a literal node: the bytes, most significant first
      word = fmt::format(FMT_COMPILE("{}'h"), ww);
      for (unsigned k = wb; k-- > 0;)
        fmt::format_to(std::back_inserter(word), FMT_COMPILE("{:02x}"), byte(k));
    }
    fmt::format_to(out, FMT_COMPILE("    ram_mem[{}] = {};\n"), lit(i, aw), word);
  }
  // Simulation only: `spvhls sim` loads what the host writes into a global before the run (the run
  // spec's "globals") from <module>.init.hex, words as $writememh writes them.
  fmt::format_to(out,
                 FMT_COMPILE("`ifndef SYNTHESIS\n    if ($test$plusargs(\"spvhls_load_{0}\")) "
                             "$readmemh(\"{0}.init.hex\", ram_mem);\n`endif\n"),
                 m_.name);
  s += "  end\n  always @(posedge clk) begin\n";
  fmt::format_to(out, FMT_COMPILE("    if (rst) {} <= {};\n    else {} <= {} & ~{};\n"), r.respValid,
                 lit(0, 1), r.respValid, valid, write);
  // No writes in reset: requests are undefined until the requesters' registers are reset, and the
  // contents configured into the RAM must survive it.
  if (!r.readOnly) {
    fmt::format_to(out, FMT_COMPILE("    if (!rst && {} && {}) begin\n"), wvalid, wwrite);
    if (lw == 0) fmt::format_to(out, FMT_COMPILE("      ram_mem[{}] <= {}[7:0];\n"), wword, wdata);
    for (unsigned k = 0; lw > 0 && k < wb; ++k)
      fmt::format_to(out, FMT_COMPILE("      if ({}[{}]) ram_mem[{}][{}:{}] <= {}[{}:{}];\n"), be, k, wword,
                     8 * k + 7, 8 * k, wshift, 8 * k + 7, 8 * k);
    s += "    end\n";
  }
  fmt::format_to(out, FMT_COMPILE("    {} <= ram_mem[{}];\n"), rword, word);
  if (lw > 0) fmt::format_to(out, FMT_COMPILE("    {} <= {};\n"), rlane, lane);
  for (size_t i = 0; i < more.size(); ++i) {
    const Reader& x = more[i];
    fmt::format_to(out, FMT_COMPILE("    if (rst) {} <= {};\n    else {} <= {} & ~{};\n"),
                   r.moreReads[i].respValid, lit(0, 1), r.moreReads[i].respValid, x.valid, x.write);
    fmt::format_to(out, FMT_COMPILE("    {} <= ram_mem[{}];\n"), x.rword, x.word);
    if (lw > 0) fmt::format_to(out, FMT_COMPILE("    {} <= {}[{}:0];\n"), x.rlane, x.addr, lw - 1);
  }
  s += "  end\n";
  // Simulation only: with +spvhls_dump_memories the final contents go to <module>.hex, for
  // `spvhls sim` to compare program-scope variables with the interpreter's.
  s += "`ifndef SYNTHESIS\n";
  fmt::format_to(
      out,
      FMT_COMPILE("  final if ($test$plusargs(\"spvhls_dump_memories\")) $writememh(\"{}.hex\", ram_mem);\n"),
      m_.name);
  s += "`endif\n";
  statement(s);
  const unsigned sw = r.reqSize->width; // 4 bits, more on a port wider than 64 (nl::portSizeWidth)
  auto bounds = [&](const std::string& v, const std::string& a, const std::string& sz) {
    checks_.emplace_back(fmt::format(FMT_COMPILE("{} && ({{{}, {}}} + {} > {})"), v,
                                     lit(0, r.reqAddr->width - sw), sz, a,
                                     lit(r.sizeBytes, r.reqAddr->width)),
                         fmt::format(FMT_COMPILE("private array {} accessed out of bounds"), r.what));
    // The compiler sizes the word by the widest access and keeps accesses aligned; a violation is its bug.
    checks_.emplace_back(
        fmt::format(FMT_COMPILE("{} && ({} > {} || ({}[{}:0] & ({} - {})) != {})"), v, sz, lit(wb, sw), a,
                    sw - 1, sz, lit(1, sw), lit(0, sw)),
        fmt::format(FMT_COMPILE("RAM {}: an access wider than its {}-byte word or not aligned to its size"),
                    r.what, wb));
  };
  bounds(valid, addr, size);
  for (const Reader& x : more) {
    bounds(x.valid, x.addr, x.size);
    checks_.emplace_back(fmt::format(FMT_COMPILE("{} && {}"), x.valid, x.write),
                         fmt::format(FMT_COMPILE("RAM {}: a write on a read port"), r.what));
  }
  if (two) {
    bounds(wvalid, waddr, wsize);
    // Each port keeps to its direction; anything else is the compiler's bug.
    checks_.emplace_back(fmt::format(FMT_COMPILE("{} && {}"), valid, write),
                         fmt::format(FMT_COMPILE("RAM {}: a write on its read port"), r.what));
    checks_.emplace_back(fmt::format(FMT_COMPILE("{} && !{}"), wvalid, wwrite),
                         fmt::format(FMT_COMPILE("RAM {}: a read on its write port"), r.what));
  }
}

void Printer::assertions() {
  std::vector<std::pair<std::string, std::string>> all = std::move(checks_);
  for (const nl::Assertion& a : m_.assertions)
    all.emplace_back(top(a.cond), a.message);
  if (all.empty()) return;
  std::string s = "`ifndef SYNTHESIS\n  always @(posedge clk) begin\n";
  for (const auto& [cond, msg] : all)
    s += fmt::format(FMT_COMPILE("    if (!rst && {}) begin\n      $error(\"{}\");\n      $stop;\n    end\n"),
                     cond, msg);
  statement(s + "  end\n`endif\n");
}

} // namespace spvhls::rtl::vlog
