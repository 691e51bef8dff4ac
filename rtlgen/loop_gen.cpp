#include "rtlgen/loop_gen.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>
#include <stdexcept>

#include "rtlgen/verilog_util.h"

namespace spvhls::rtl {

using ir::OpKind;
using ir::ValueId;

namespace {

bool isGlobal(OpKind k) { return k == OpKind::Const || k == OpKind::LiveIn || k == OpKind::Undef; }
bool isMem(OpKind k) { return k == OpKind::Load || k == OpKind::Store; }

class LoopWriter {
public:
  LoopWriter(const ir::Loop& loop, const LoopPlan& plan) : loop_(loop), p_(plan) {}

  LoopModule run(const std::string& name) {
    collectMemories();
    std::string body;
    body += declarations();
    body += controlLogic();
    body += datapath();
    body += memoryLogic();
    body += carries();
    body += sink();
    LoopModule m;
    m.name = name;
    m.memories = mems_;
    for (auto& [mem, loads] : memLoads_) m.loadMemories.push_back(mem);
    m.verilog = header(name) + body + "endmodule\n";
    return m;
  }

private:
  const ir::Loop& loop_;
  const LoopPlan& p_;
  std::vector<uint32_t> mems_;
  std::map<uint32_t, std::vector<ValueId>> memOps_, memLoads_;
  std::string logic_;
  Reducer red_{"red"};

  unsigned width(ValueId v) const { return loop_.ops[v].width; }
  bool sf() const { return p_.stallFree(); }
  uint32_t lastCluster() const { return uint32_t(p_.cuts.size()) - 1; }

  // ---- naming --------------------------------------------------------------------------------
  std::string valid(uint32_t pos) const {
    if (pos == 0) return "issue";
    if (sf() && p_.isCut(pos)) return fmt::format("admit_{}", p_.clusterOf(pos));
    return fmt::format("vld_p{}", pos);
  }
  // Valid and not squashed by an exit detected further down the pipeline.
  std::string vk(uint32_t pos) const { return fmt::format("vk_p{}", pos); }
  std::string adv() const { return sf() ? "1'b1" : "en"; }

  std::string valueAt(ValueId v, uint32_t pos) const {
    const ir::Op& op = loop_.ops[v];
    switch (op.kind) {
    case OpKind::Const: return lit(op.imm, op.width);
    case OpKind::Undef: return lit(0, op.width);
    case OpKind::LiveIn: return fmt::format("li_{}_q", op.index);
    default: break;
    }
    if (pos < p_.compPos[v])
      throw InternalError(loop_.ops[v].loc, "loop " + loop_.name,
                          fmt::format("loop_gen: v{} read at {} before it is formed at {}", v, pos, p_.compPos[v]));
    if (pos == p_.compPos[v]) return fmt::format("c{}", v);
    if (sf() && p_.isCut(pos)) return fmt::format("f{}_v{}", p_.clusterOf(pos) - 1, v);
    return fmt::format("v{}_p{}", v, pos);
  }
  std::string lastAt(uint32_t pos) const {
    if (pos == p_.exitPos) return fmt::format("~{}", valueAt(loop_.continueCond, pos));
    if (sf() && p_.isCut(pos)) return fmt::format("f{}_lst", p_.clusterOf(pos) - 1);
    return fmt::format("lst_p{}", pos);
  }
  std::string predAt(ValueId op, uint32_t pos) const {
    const ir::Op& o = loop_.ops[op];
    size_t idx = o.kind == OpKind::Load ? 1 : 2;
    if (o.operands.size() <= idx || o.operands[idx] == ir::kNone) return "1'b1";
    return valueAt(o.operands[idx], pos);
  }

  void collectMemories() {
    for (ValueId i = 0; i < loop_.ops.size(); ++i) {
      const ir::Op& op = loop_.ops[i];
      if (!isMem(op.kind)) continue;
      memOps_[op.memory].push_back(i);
      if (op.kind == OpKind::Load) memLoads_[op.memory].push_back(i);
    }
    for (auto& [m, ops] : memOps_) mems_.push_back(m);
  }

  std::string header(const std::string& name) const {
    std::vector<std::string> ports = {"input wire clk", "input wire rst", "input wire start", "output reg done"};
    for (size_t k = 0; k < loop_.liveIns.size(); ++k) {
      unsigned w = liveInWidth(k);
      ports.push_back(decl("input wire", w, fmt::format("li_{}", k)));
    }
    for (size_t k = 0; k < loop_.liveOuts.size(); ++k)
      ports.push_back(decl("output reg", width(loop_.liveOuts[k]), fmt::format("lo_{}", k)));
    for (uint32_t m : mems_)
      for (auto& d : memoryPortDecls(fmt::format("m{}", m), memLoads_.count(m) > 0, false)) ports.push_back(d);
    std::string s = fmt::format("// Pipelined loop '{}': II {}, {} positions, {} cluster(s) ({}).\n",
                                commentName(loop_.name), p_.ii, p_.F, p_.cuts.size(), clusterModeName(p_.kind));
    return s + moduleHeader(name, ports);
  }

  // A live-in read by the body needs a latch; one that only initialises a carry does not.
  bool liveInUsed(size_t k) const {
    for (const ir::Op& op : loop_.ops)
      if (op.kind == OpKind::LiveIn && op.index == k) return true;
    return false;
  }

  unsigned liveInWidth(size_t k) const {
    for (const ir::Op& op : loop_.ops)
      if (op.kind == OpKind::LiveIn && op.index == k) return op.width;
    for (const ir::LoopPhi& ph : loop_.phis)
      if (ph.initLiveIn == k) return ph.width;
    return 1;
  }

  // ---- declarations ---------------------------------------------------------------------------
  std::string declarations() {
    std::string s;
    s += "  reg running;\n";
    for (size_t k = 0; k < loop_.liveIns.size(); ++k) {
      if (!liveInUsed(k)) continue;
      bool partial = false; // e.g. only truncated: lint wants the unused bits declared as such
      for (ValueId v = 0; v < loop_.ops.size(); ++v)
        if (loop_.ops[v].kind == OpKind::LiveIn && loop_.ops[v].index == k) partial |= partiallyUsed(loop_.ops, v);
      s += maybeUnusedBits(fmt::format("  {};\n", decl("reg", liveInWidth(k), fmt::format("li_{}_q", k))), partial);
    }
    s += "  wire issue;\n  wire exit_det;\n";
    if (!sf()) s += "  wire en;\n";
    for (uint32_t pos = 0; pos < p_.F; ++pos) {
      if (valid(pos).rfind("vld_", 0) == 0) s += fmt::format("  reg {};\n", valid(pos));
      s += fmt::format("  wire {};\n", vk(pos));
    }
    for (ValueId v = 0; v < loop_.ops.size(); ++v) {
      const ir::Op& op = loop_.ops[v];
      if (isGlobal(op.kind) || op.width == 0) continue;
      std::string d = fmt::format("  {}; // {} {}\n", decl("wire", op.width, fmt::format("c{}", v)),
                                  ir::opKindName(op.kind), commentName(op.name));
      for (int pos = int(p_.compPos[v]) + 1; pos <= p_.lastUse[v]; ++pos)
        if (!(sf() && p_.isCut(uint32_t(pos))))
          d += fmt::format("  {};\n", decl("reg", op.width, fmt::format("v{}_p{}", v, pos)));
      s += maybeUnusedBits(d, partiallyUsed(loop_.ops, v));
    }
    for (uint32_t pos = p_.exitPos + 1; pos < p_.F; ++pos)
      if (!(sf() && p_.isCut(pos))) s += fmt::format("  reg lst_p{};\n", pos);
    return s;
  }

  // Values crossing into cluster j+1 (stall-free FIFO j).
  std::vector<ValueId> crossing(uint32_t j) const {
    uint32_t c = p_.cuts[j + 1];
    std::vector<ValueId> out;
    for (ValueId v = 0; v < loop_.ops.size(); ++v) {
      const ir::Op& op = loop_.ops[v];
      if (isGlobal(op.kind) || op.width == 0) continue;
      if (p_.compPos[v] < c && p_.lastUse[v] >= int(c)) out.push_back(v);
    }
    return out;
  }

  // ---- control: issue, enables, admission, kill -----------------------------------------------
  std::string controlLogic() {
    std::string s;
    const uint32_t q = p_.exitPos;
    s += fmt::format("  assign exit_det = {} & {};\n", valid(q), lastAt(q));
    for (uint32_t pos = 0; pos < p_.F; ++pos)
      s += fmt::format("  assign {} = {}{};\n", vk(pos), valid(pos), pos < q ? " & ~exit_det" : "");

    std::string issueCond = "running";
    if (p_.maxConcurrency > 0) {
      unsigned w = log2Ceil(p_.maxConcurrency + 1) + 1;
      s += fmt::format("  {};\n", decl("reg", w, "inflight"));
      issueCond += fmt::format(" & (inflight < {})", lit(p_.maxConcurrency, w));
      std::string leave = fmt::format("{} & {}", vk(p_.F - 1), adv());
      logic_ += fmt::format("  always @(posedge clk) begin\n    if (rst || start) inflight <= {};\n"
                            "    else if (issue && !({})) inflight <= inflight + {};\n"
                            "    else if (!issue && ({})) inflight <= inflight - {};\n  end\n",
                            lit(0, w), leave, lit(1, w), leave, lit(1, w));
    }
    if (!sf()) {
      // One enable freezes every position: a token that cannot do its memory operation stalls all.
      std::vector<std::string> stalls;
      std::vector<std::string> issueTerms = {issueCond, "en"};
      for (ValueId i = 0; i < loop_.ops.size(); ++i) {
        const ir::Op& op = loop_.ops[i];
        if (!isMem(op.kind)) continue;
        uint32_t t = p_.start[i];
        std::string ready = fmt::format("m{}_req_ready", op.memory);
        if (t == 0) issueTerms.push_back(fmt::format("(~{} | {})", predAt(i, 0), ready));
        else stalls.push_back(fmt::format("({} & {} & ~{})", vk(t), predAt(i, t), ready));
        if (op.kind == OpKind::Load)
          stalls.push_back(fmt::format("({} & {} & ~rf{}_nonempty)", vk(p_.compPos[i]), predAt(i, p_.compPos[i]), i));
      }
      // The reduction's wires go into `s` first, then the line that uses them.
      std::string en = stalls.empty() ? "1'b1" : "~(" + red_.any(s, stalls) + ")";
      s += fmt::format("  assign en = {};\n", en);
      if (p_.ii > 1) {
        unsigned w = log2Ceil(p_.ii);
        s += fmt::format("  {};\n", decl("reg", w, "slot"));
        logic_ += fmt::format("  always @(posedge clk) begin\n    if (rst || start) slot <= {};\n"
                              "    else if (en) slot <= (slot == {}) ? {} : slot + {};\n  end\n",
                              lit(0, w), lit(p_.ii - 1, w), lit(0, w), lit(1, w));
        issueTerms.push_back(fmt::format("(slot == {})", lit(0, w)));
      }
      std::string issue = red_.all(s, issueTerms);
      s += fmt::format("  assign issue = {};\n", issue);
    } else {
      s += admission(issueCond);
    }
    logic_ += "  always @(posedge clk) begin\n    if (rst) running <= 1'b0;\n"
              "    else if (start) running <= 1'b1;\n    else if (exit_det) running <= 1'b0;\n  end\n";
    // Valid bits and the last-iteration flag move with the tokens.
    std::string vs = "  always @(posedge clk) begin\n    if (rst || start) begin\n";
    for (uint32_t pos = 1; pos < p_.F; ++pos)
      if (valid(pos).rfind("vld_", 0) == 0) vs += fmt::format("      {} <= 1'b0;\n", valid(pos));
    vs += fmt::format("    end else if ({}) begin\n", adv());
    for (uint32_t pos = 1; pos < p_.F; ++pos)
      if (valid(pos).rfind("vld_", 0) == 0) vs += fmt::format("      {} <= {};\n", valid(pos), vk(pos - 1));
    vs += "    end\n  end\n";
    logic_ += vs;
    std::string ls = fmt::format("  always @(posedge clk) if ({}) begin\n", adv());
    bool any = false;
    for (uint32_t pos = q + 1; pos < p_.F; ++pos)
      if (!(sf() && p_.isCut(pos))) {
        ls += fmt::format("    lst_p{} <= {};\n", pos, lastAt(pos - 1));
        any = true;
      }
    if (any) logic_ += ls + "  end\n";
    s += "  always @(posedge clk) begin\n    if (start) begin\n";
    for (size_t k = 0; k < loop_.liveIns.size(); ++k)
      if (liveInUsed(k)) s += fmt::format("      li_{0}_q <= li_{0};\n", k);
    s += "    end\n  end\n";
    return s;
  }

  // Stall-free clusters: admission of a token into cluster j by its credit counter, the II spacing,
  // the responses and request ports it needs, port priority, and carry gates.
  std::string admission(const std::string& issueCond) {
    std::string s;
    const uint32_t nc = uint32_t(p_.cuts.size());
    for (uint32_t j = 0; j < nc; ++j) s += j ? fmt::format("  wire admit_{};\n", j) : "";
    // Exit FIFOs.
    for (uint32_t j = 0; j + 1 < nc; ++j) {
      std::vector<ValueId> xs = crossing(j);
      unsigned w = 1;
      for (ValueId v : xs) w += width(v);
      InlineFifo f{fmt::format("f{}", j), w, p_.exitFifoDepth[j]};
      s += f.decls();
      uint32_t c = p_.cuts[j + 1];
      std::vector<std::pair<std::string, unsigned>> parts = {{lastAt(c - 1), 1}};
      for (ValueId v : xs) parts.emplace_back(valueAt(v, c - 1), width(v));
      std::reverse(parts.begin(), parts.end()); // lst ends up in bit 0
      std::string din = red_.concat(s, parts);
      s += fmt::format("  wire [{}:0] f{}_din = {};\n", w - 1, j, din);
      logic_ += f.logic(vk(c - 1), fmt::format("f{}_din", j), fmt::format("admit_{}", j + 1), "start");
      unsigned lo = 1;
      // A FIFO carrying nothing but `lst` is one bit wide: a scalar, which has no bit to select.
      s += fmt::format("  wire f{0}_lst = f{0}_dout{1};\n", j, w == 1 ? "" : "[0]");
      for (ValueId v : xs) {
        s += maybeUnusedBits(fmt::format("  {} = f{}_dout[{}:{}];\n", decl("wire", width(v), fmt::format("f{}_v{}", j, v)),
                                         j, lo + width(v) - 1, lo),
                             partiallyUsed(loop_.ops, v));
        lo += width(v);
      }
      // Credits: tokens in cluster j plus its FIFO never exceed the FIFO depth.
      unsigned cw = log2Ceil(p_.exitFifoDepth[j]) + 1;
      std::string in = j == 0 ? "issue" : fmt::format("admit_{}", j);
      s += fmt::format("  {};\n", decl("reg", cw, fmt::format("cred{}", j)));
      logic_ += fmt::format("  always @(posedge clk) begin\n    if (rst || start) cred{0} <= {1};\n"
                            "    else if ({2} && !admit_{3}) cred{0} <= cred{0} + {4};\n"
                            "    else if (!{2} && admit_{3}) cred{0} <= cred{0} - {4};\n  end\n",
                            j, lit(0, cw), in, j + 1, lit(1, cw));
    }
    // Carry-gate counters.
    std::set<uint32_t> gatedClusters;
    for (size_t g = 0; g < p_.gates.size(); ++g) {
      const CarryGate& gt = p_.gates[g];
      gatedClusters.insert(gt.toCluster);
      s += fmt::format("  reg [31:0] gate{}_passed;\n", g);
      logic_ += fmt::format("  always @(posedge clk) begin\n    if (rst || start) gate{0}_passed <= 32'h0;\n"
                            "    else if ({1}) gate{0}_passed <= gate{0}_passed + 32'h1;\n  end\n",
                            g, vk(gt.fromPos));
    }
    for (uint32_t j : gatedClusters) {
      std::string in = j == 0 ? "issue" : fmt::format("admit_{}", j);
      s += fmt::format("  reg [31:0] adm{}_count;\n", j);
      logic_ += fmt::format("  always @(posedge clk) begin\n    if (rst || start) adm{0}_count <= 32'h0;\n"
                            "    else if ({1}) adm{0}_count <= adm{0}_count + 32'h1;\n  end\n",
                            j, in);
    }
    // Admission per cluster.
    for (uint32_t j = 0; j < nc; ++j) {
      uint32_t c = p_.cuts[j];
      std::vector<std::string> conds;
      if (j == 0) conds.push_back(issueCond);
      else conds.push_back(fmt::format("f{}_nonempty", j - 1));
      if (j + 1 < nc) {
        unsigned cw = log2Ceil(p_.exitFifoDepth[j]) + 1;
        conds.push_back(fmt::format("(cred{} < {})", j, lit(p_.exitFifoDepth[j], cw)));
      }
      if (p_.ii > 1) {
        unsigned w = log2Ceil(p_.ii);
        s += fmt::format("  {};\n", decl("reg", w, fmt::format("since{}", j)));
        std::string in = j == 0 ? "issue" : fmt::format("admit_{}", j);
        logic_ += fmt::format(
            "  always @(posedge clk) begin\n    if (rst || start) since{0} <= {1};\n"
            "    else if ({2}) since{0} <= {3};\n    else if (since{0} != {1}) since{0} <= since{0} + {4};\n  end\n",
            j, lit(p_.ii - 1, w), in, lit(0, w), lit(1, w));
        conds.push_back(fmt::format("(since{} == {})", j, lit(p_.ii - 1, w)));
      }
      for (ValueId i = 0; i < loop_.ops.size(); ++i) {
        const ir::Op& op = loop_.ops[i];
        if (!isMem(op.kind)) continue;
        if (op.kind == OpKind::Load && p_.compPos[i] == c)
          conds.push_back(fmt::format("(~{} | rf{}_nonempty)", predAt(i, c), i));
        if (p_.start[i] == c) {
          std::vector<std::string> free = {fmt::format("m{}_req_ready", op.memory)};
          // A later cluster (older iteration) using the same port has priority.
          for (ValueId o : memOps_.at(op.memory))
            if (p_.start[o] > c)
              free.push_back(
                  fmt::format("~(admit_{} & {})", p_.clusterOf(p_.start[o]), predAt(o, p_.start[o])));
          conds.push_back(fmt::format("(~{} | ({}))", predAt(i, c), red_.all(s, free)));
        }
      }
      for (size_t g = 0; g < p_.gates.size(); ++g)
        if (p_.gates[g].toCluster == j)
          conds.push_back(fmt::format("((gate{}_passed + 32'd{}) > adm{}_count)", g, p_.gates[g].distance, j));
      std::string admit = red_.all(s, conds);
      s += fmt::format("  assign {} = {};\n", j == 0 ? "issue" : fmt::format("admit_{}", j), admit);
    }
    return s;
  }

  // ---- datapath -------------------------------------------------------------------------------
  std::string datapath() {
    std::string s;
    std::string regs = fmt::format("  always @(posedge clk) if ({}) begin\n", adv());
    bool anyReg = false;
    for (ValueId v = 0; v < loop_.ops.size(); ++v) {
      const ir::Op& op = loop_.ops[v];
      if (isGlobal(op.kind) || op.width == 0) continue;
      uint32_t t = p_.start[v];
      std::string expr;
      switch (op.kind) {
      case OpKind::Load: expr = fmt::format("rf{}_dout", v); break;
      case OpKind::LoopPhi: expr = phiRead(v); break;
      default: {
        std::vector<std::string> a;
        std::vector<unsigned> w;
        for (ValueId o : op.operands) {
          a.push_back(valueAt(o, t));
          w.push_back(width(o));
        }
        expr = opExpr(op, a, w);
      }
      }
      s += fmt::format("  assign c{} = {};\n", v, expr);
      for (int pos = int(p_.compPos[v]) + 1; pos <= p_.lastUse[v]; ++pos) {
        if (sf() && p_.isCut(uint32_t(pos))) continue;
        regs += fmt::format("    v{}_p{} <= {};\n", v, pos, valueAt(v, uint32_t(pos - 1)));
        anyReg = true;
      }
    }
    if (anyReg) logic_ += regs + "  end\n";
    return s;
  }

  std::string phiRead(ValueId v) const {
    const ir::Op& op = loop_.ops[v];
    const ir::LoopPhi& ph = loop_.phis[op.index];
    // Forward the value the previous iteration is producing in this very cycle (the plan decides).
    if (p_.forwardPos[v] >= 0) {
      uint32_t rn = uint32_t(p_.forwardPos[v]);
      // Raw valid, not vk: a squashed producer implies a squashed reader, and the exit detection may
      // itself depend on this phi.
      return fmt::format("{} ? {} : carry{}", valid(rn), valueAt(ph.next, rn), op.index);
    }
    return fmt::format("carry{}", op.index);
  }

  std::string carries() {
    std::string s;
    for (size_t k = 0; k < loop_.phis.size(); ++k) {
      const ir::LoopPhi& ph = loop_.phis[k];
      uint32_t rn = p_.readyPos[ph.next];
      s += fmt::format("  {};\n", decl("reg", ph.width, fmt::format("carry{}", k)));
      logic_ += fmt::format("  always @(posedge clk) begin\n    if (start) carry{} <= li_{};\n"
                            "    else if ({} & {}) carry{} <= {};\n  end\n",
                            k, ph.initLiveIn, vk(rn), adv(), k, valueAt(ph.next, rn));
    }
    return s;
  }

  // ---- memory ports -----------------------------------------------------------------------------
  std::string fire(ValueId i) const {
    uint32_t t = p_.start[i];
    if (sf()) return fmt::format("(admit_{} & {})", p_.clusterOf(t), predAt(i, t));
    return fmt::format("({} & {}{})", vk(t), predAt(i, t), t == 0 ? "" : " & en");
  }
  std::string capture(ValueId i) const {
    uint32_t c = p_.compPos[i];
    if (sf()) return fmt::format("(admit_{} & {})", p_.clusterOf(c), predAt(i, c));
    return fmt::format("({} & {} & en)", vk(c), predAt(i, c));
  }

  std::string memoryLogic() {
    std::string s;
    for (uint32_t m : mems_) {
      const auto& ops = memOps_.at(m);
      // Requests in program order; a later one has priority in the muxes.
      std::vector<std::string> valids, writes;
      std::vector<std::pair<std::string, std::string>> addrs, sizes, wdatas;
      for (ValueId i : ops) {
        const ir::Op& op = loop_.ops[i];
        uint32_t t = p_.start[i];
        std::string f = fmt::format("fire{}", i);
        s += fmt::format("  wire {} = {};\n", f, fire(i));
        valids.push_back(f);
        addrs.emplace_back(f, resize(valueAt(op.operands[0], t), width(op.operands[0]), 64));
        sizes.emplace_back(f, lit(op.size, 4));
        if (op.kind == OpKind::Store) {
          writes.push_back(f);
          wdatas.emplace_back(f, resize(valueAt(op.operands[1], t), width(op.operands[1]), 64));
        }
      }
      std::reverse(addrs.begin(), addrs.end());
      std::reverse(sizes.begin(), sizes.end());
      std::reverse(wdatas.begin(), wdatas.end());
      std::string valid = red_.any(s, valids), write = red_.any(s, writes);
      std::string addr = red_.priorityMux(s, addrs, lit(0, 64), 64);
      std::string size = red_.priorityMux(s, sizes, lit(0, 4), 4);
      std::string wdata = red_.priorityMux(s, wdatas, lit(0, 64), 64);
      s += fmt::format("  assign m{}_req_valid = {};\n", m, valid);
      s += fmt::format("  assign m{}_req_write = {};\n", m, write);
      s += fmt::format("  assign m{}_req_addr = {};\n", m, addr);
      s += fmt::format("  assign m{}_req_size = {};\n", m, size);
      s += fmt::format("  assign m{}_req_wdata = {};\n", m, wdata);
      // Response FIFOs; with several loads on one port a tag FIFO routes the in-order responses.
      auto lit_ = memLoads_.find(m);
      if (lit_ == memLoads_.end()) continue;
      const auto& loads = lit_->second;
      std::string tagPop;
      if (loads.size() > 1) {
        unsigned tw = std::max(1u, log2Ceil(loads.size()));
        uint64_t depth = 0;
        for (ValueId i : loads) depth += p_.respFifoDepth[i];
        InlineFifo tag{fmt::format("tag{}", m), tw, roundUpPow2(depth)};
        s += tag.decls();
        std::vector<std::pair<std::string, std::string>> tags;
        std::vector<std::string> fires;
        for (size_t k = loads.size(); k-- > 0;) { // the last load has priority, as in the request muxes
          tags.emplace_back(fmt::format("fire{}", loads[k]), lit(k, tw));
          fires.push_back(fmt::format("fire{}", loads[k]));
        }
        std::string tagIn = red_.priorityMux(s, tags, lit(0, tw), tw);
        std::string push = red_.any(s, fires);
        logic_ += tag.logic(fmt::format("m{}_req_ready & ({})", m, push), tagIn,
                            fmt::format("m{}_resp_valid", m), "start");
        for (size_t k = 0; k < loads.size(); ++k) {
          ValueId i = loads[k];
          emitRespFifo(s, i, fmt::format("m{}_resp_valid & (tag{}_dout == {})", m, m, lit(k, tw)), m);
        }
      } else {
        emitRespFifo(s, loads[0], fmt::format("m{}_resp_valid", m), m);
      }
    }
    return s;
  }

  void emitRespFifo(std::string& s, ValueId i, const std::string& push, uint32_t m) {
    unsigned w = loop_.ops[i].width;
    InlineFifo f{fmt::format("rf{}", i), w, p_.respFifoDepth[i], true};
    s += f.decls();
    logic_ += f.logic(push, resize(fmt::format("m{}_resp_data", m), 64, w), capture(i), "start");
  }

  // ---- sink ----------------------------------------------------------------------------------
  std::string sink() {
    std::string s;
    uint32_t last = p_.F - 1;
    std::string leaveLast = fmt::format("{} & {} & {}", vk(last), lastAt(last), adv());
    s += fmt::format("  always @(posedge clk) begin\n    if (rst || start) done <= 1'b0;\n"
                     "    else done <= {};\n  end\n",
                     leaveLast);
    if (!loop_.liveOuts.empty()) {
      s += fmt::format("  always @(posedge clk) if ({}) begin\n", leaveLast);
      for (size_t k = 0; k < loop_.liveOuts.size(); ++k)
        s += fmt::format("    lo_{} <= {};\n", k, valueAt(loop_.liveOuts[k], last));
      s += "  end\n";
    }
    return s + logic_;
  }
};

} // namespace

LoopModule generateLoopModule(const ir::Loop& loop, const LoopPlan& plan, const std::string& moduleName) {
  return LoopWriter(loop, plan).run(moduleName);
}

} // namespace spvhls::rtl
