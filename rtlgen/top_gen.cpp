// The kernel's top module: argument latches, the FSM that runs the CFG blocks by their sequential
// schedules, the pipelined loop instances it starts, and the memory ports they share.
//
// FSM timing: `start` in cycle 0; the entry block's cycle 0 is cycle 1. A block takes blockCycles
// cycles (its schedule, terminator in the last); operations fire in their scheduled cycle and every
// result is held in a register. The FSM stalls (one enable) while a request is not accepted, a read
// response has not arrived, or a started loop has not signalled done. `done` is seen the cycle after
// the returning block's last cycle.
#include "rtlgen/top_gen.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <stdexcept>

#include "rtlgen/verilog_util.h"

namespace spvhls::rtl {

using ir::OpKind;
using ir::ValueId;

namespace {

class TopWriter {
public:
  TopWriter(const ir::Kernel& k, const sched::KernelSchedule& s, const TopInputs& in)
      : k_(k), s_(s), in_(in) {}

  std::string run(std::vector<uint32_t>& blockCycles) {
    computeBlockCycles();
    blockCycles = len_;
    std::string body = registers() + fsm() + memories() + loops();
    return header() + decl_ + body + logic_ + "endmodule\n";
  }

private:
  const ir::Kernel& k_;
  const sched::KernelSchedule& s_;
  const TopInputs& in_;
  std::vector<uint32_t> len_;   // per block
  std::string decl_, logic_;
  unsigned blkW_ = 1, cycW_ = 1;

  uint32_t L() const { return in_.target.memLatency; }
  int start(ValueId v) const {
    const ir::Op& op = k_.ops[v];
    const auto& bs = s_.blocks[op.block];
    auto it = std::find(k_.blocks[op.block].ops.begin(), k_.blocks[op.block].ops.end(), v);
    return bs.schedule.start[size_t(it - k_.blocks[op.block].ops.begin())];
  }
  uint32_t lat(ValueId v) const {
    const ir::Op& op = k_.ops[v];
    const auto& bs = s_.blocks[op.block];
    auto it = std::find(k_.blocks[op.block].ops.begin(), k_.blocks[op.block].ops.end(), v);
    return bs.problem.ops[size_t(it - k_.blocks[op.block].ops.begin())].latency;
  }
  // The cycle in which an operation's result is formed (and registered at the end of).
  int formCycle(ValueId v) const {
    const ir::Op& op = k_.ops[v];
    if (op.kind == OpKind::Load) return start(v) + int(L());
    return start(v) + std::max<int>(int(lat(v)), 1) - 1;
  }

  void computeBlockCycles() {
    len_.resize(k_.blocks.size());
    uint32_t maxLen = 1;
    for (size_t b = 0; b < k_.blocks.size(); ++b) {
      const auto& bs = s_.blocks[b];
      const auto& ops = k_.blocks[b].ops;
      int term = bs.schedule.start.size() > ops.size() ? bs.schedule.start[ops.size()] : 0;
      int len = term + 1;
      for (ValueId v : ops) len = std::max(len, formCycle(v) + 1);
      len_[b] = uint32_t(len);
      maxLen = std::max(maxLen, len_[b]);
    }
    blkW_ = std::max(1u, log2Ceil(k_.blocks.size()));
    cycW_ = std::max(1u, log2Ceil(maxLen));
  }

  std::string at(uint32_t b, int cyc) const {
    return fmt::format("(blk == {} && cyc == {})", lit(b, blkW_), lit(uint64_t(cyc), cycW_));
  }

  std::string argName(uint32_t i) const { return in_.argNames[i]; }

  // The value of `v` as seen by an operation in cycle `cyc` of its block.
  std::string value(ValueId v, uint32_t block, int cyc) const {
    const ir::Op& op = k_.ops[v];
    switch (op.kind) {
    case OpKind::Const: return lit(op.imm, op.width);
    case OpKind::Undef: return lit(0, op.width);
    case OpKind::Arg: return fmt::format("arg_{}_q", argName(op.index));
    default: break;
    }
    // Zero-latency operations are also visible combinationally in the cycle they are formed.
    if (op.block == block && lat(v) == 0 && formCycle(v) == cyc && op.kind != OpKind::Phi &&
        op.kind != OpKind::LoopOut)
      return fmt::format("w{}", v);
    return fmt::format("r{}", v);
  }

  std::string header() const {
    std::vector<std::string> ports = {"input wire clk", "input wire rst", "input wire start", "output reg busy",
                                      "output reg done"};
    for (size_t i = 0; i < k_.args.size(); ++i) {
      const ir::KernelArg& a = k_.args[i];
      if (a.isPointer) {
        std::string m = "mem_" + argName(uint32_t(i));
        ports.push_back(fmt::format("output wire {}_req_valid", m));
        ports.push_back(fmt::format("input wire {}_req_ready", m));
        ports.push_back(fmt::format("output wire {}_req_write", m));
        ports.push_back(fmt::format("output wire [63:0] {}_req_addr", m));
        ports.push_back(fmt::format("output wire [3:0] {}_req_size", m));
        ports.push_back(fmt::format("output wire [63:0] {}_req_wdata", m));
        // The interface is fixed; a port that is only written leaves its response channel unused.
        ports.push_back(fmt::format("/* verilator lint_off UNUSEDSIGNAL */ input wire {}_resp_valid", m));
        ports.push_back(fmt::format("input wire [63:0] {}_resp_data /* verilator lint_on UNUSEDSIGNAL */", m));
      } else {
        ports.push_back(decl("input wire", a.width, "arg_" + argName(uint32_t(i))));
      }
    }
    std::string s = fmt::format("// Kernel '{}' generated by spvhls. Interface: docs/hardware-interface.md.\n", k_.name);
    s += fmt::format("module {} (\n", in_.moduleName);
    for (size_t i = 0; i < ports.size(); ++i) s += "  " + ports[i] + (i + 1 < ports.size() ? ",\n" : "\n");
    return s + ");\n";
  }

  std::string registers() {
    std::string s;
    s += decl("reg", blkW_, "blk") + ";\n  " + decl("reg", cycW_, "cyc") + ";\n  wire fsm_en;\n";
    s = "  " + s;
    for (size_t i = 0; i < k_.args.size(); ++i)
      if (!k_.args[i].isPointer && argUsed(uint32_t(i)))
        s += fmt::format("  {};\n", decl("reg", k_.args[i].width, fmt::format("arg_{}_q", argName(uint32_t(i)))));
    for (ValueId v = 0; v < k_.ops.size(); ++v) {
      const ir::Op& op = k_.ops[v];
      if (op.width == 0 || op.kind == OpKind::Const || op.kind == OpKind::Undef || op.kind == OpKind::Arg) continue;
      std::string d = fmt::format("  {}; // {} {}\n", decl("reg", op.width, fmt::format("r{}", v)),
                                  ir::opKindName(op.kind), op.name);
      if (op.kind != OpKind::Phi && op.kind != OpKind::LoopOut && op.kind != OpKind::Load)
        d += fmt::format("  {};\n", decl("wire", op.width, fmt::format("w{}", v)));
      s += maybeUnusedBits(d, partiallyUsed(k_.ops, v));
    }
    s += "  always @(posedge clk) if (start && !busy) begin\n";
    for (size_t i = 0; i < k_.args.size(); ++i)
      if (!k_.args[i].isPointer && argUsed(uint32_t(i)))
        s += fmt::format("    arg_{0}_q <= arg_{0};\n", argName(uint32_t(i)));
    s += "  end\n";
    return s;
  }

  bool argUsed(uint32_t i) const {
    for (const ir::Op& op : k_.ops)
      if (op.kind == OpKind::Arg && op.index == i) return true;
    return false;
  }

  // Per-cycle stall conditions and the operations' register updates.
  std::string fsm() {
    std::string s;
    std::vector<std::string> stalls;
    std::string upd = "  always @(posedge clk) if (busy && fsm_en) begin\n";
    for (uint32_t b = 0; b < k_.blocks.size(); ++b) {
      for (ValueId v : k_.blocks[b].ops) {
        const ir::Op& op = k_.ops[v];
        int t = start(v), f = formCycle(v);
        switch (op.kind) {
        case OpKind::Phi: break; // written on the incoming edge
        case OpKind::Load:
          stalls.push_back(fmt::format("({} & ~{}_req_ready)", at(b, t), memPort(op.memory)));
          stalls.push_back(fmt::format("({} & ~frf{}_nonempty)", at(b, f), op.memory));
          upd += fmt::format("    if {} r{} <= {};\n", at(b, f), v,
                             resize(fmt::format("frf{}_dout", op.memory), fsmLoadWidth(op.memory), op.width));
          break;
        case OpKind::Store:
          stalls.push_back(fmt::format("({} & ~{}_req_ready)", at(b, t), memPort(op.memory)));
          break;
        case OpKind::LoopCall:
          stalls.push_back(fmt::format("({} & ~lp{}_done)", at(b, t), op.index));
          break;
        case OpKind::LoopOut: {
          const ir::Op& call = k_.ops[op.operands[0]];
          upd += fmt::format("    if ({} & lp{}_done) r{} <= lp{}_lo_{};\n", at(b, start(op.operands[0])), call.index, v,
                             call.index, op.index);
          break;
        }
        default: {
          if (op.width == 0 || op.kind == OpKind::Const || op.kind == OpKind::Undef || op.kind == OpKind::Arg) break;
          std::vector<std::string> a;
          std::vector<unsigned> w;
          for (ValueId o : op.operands) {
            a.push_back(value(o, b, f));
            w.push_back(k_.ops[o].width);
          }
          s += fmt::format("  assign w{} = {};\n", v, opExpr(op, a, w));
          upd += fmt::format("    if {} r{} <= w{};\n", at(b, f), v, v);
        }
        }
      }
    }
    s += fmt::format("  assign fsm_en = ~({});\n", stalls.empty() ? "1'b0" : joinOr(stalls));
    // Control: advance within the block, or take the terminator in its last cycle.
    std::string c = "  always @(posedge clk) begin\n    done <= 1'b0;\n";
    c += fmt::format("    if (rst) begin\n      busy <= 1'b0;\n      blk <= {};\n      cyc <= {};\n    end\n",
                     lit(0, blkW_), lit(0, cycW_));
    c += fmt::format("    else if (!busy) begin\n      if (start) begin\n        busy <= 1'b1;\n        blk <= {};\n"
                     "        cyc <= {};\n      end\n    end\n",
                     lit(0, blkW_), lit(0, cycW_));
    c += "    else if (fsm_en) begin\n      case (blk)\n";
    for (uint32_t b = 0; b < k_.blocks.size(); ++b) {
      int last = int(len_[b]) - 1;
      c += fmt::format("        {}: begin\n", lit(b, blkW_));
      c += fmt::format("          if (cyc != {}) cyc <= cyc + {};\n          else begin\n", lit(uint64_t(last), cycW_),
                       lit(1, cycW_));
      c += terminator(b, last, "            ");
      c += "          end\n        end\n";
    }
    c += "        default: busy <= 1'b0;\n      endcase\n    end\n  end\n";
    return s + upd + "  end\n" + c;
  }

  static std::string joinOr(const std::vector<std::string>& v) {
    std::string s;
    for (size_t i = 0; i < v.size(); ++i) s += (i ? " | " : "") + v[i];
    return s;
  }

  std::string jump(uint32_t from, uint32_t to, int cyc, const std::string& ind) const {
    std::string s = fmt::format("{}blk <= {};\n{}cyc <= {};\n", ind, lit(to, blkW_), ind, lit(0, cycW_));
    for (ValueId v : k_.blocks[to].ops) {
      const ir::Op& op = k_.ops[v];
      if (op.kind != OpKind::Phi) continue;
      for (size_t i = 0; i < op.operands.size(); ++i)
        if (op.phiBlocks[i] == from) s += fmt::format("{}r{} <= {};\n", ind, v, value(op.operands[i], from, cyc));
    }
    return s;
  }

  std::string terminator(uint32_t b, int cyc, const std::string& ind) const {
    const ir::Terminator& t = k_.blocks[b].term;
    using TK = ir::Terminator::Kind;
    switch (t.kind) {
    case TK::Branch: return jump(b, t.targets[0], cyc, ind);
    case TK::CondBranch:
      return fmt::format("{}if ({}) begin\n{}{}end else begin\n{}{}end\n", ind, value(t.cond, b, cyc),
                         jump(b, t.targets[0], cyc, ind + "  "), ind, jump(b, t.targets[1], cyc, ind + "  "), ind);
    case TK::Switch: {
      std::string s = fmt::format("{}case ({})\n", ind, value(t.cond, b, cyc));
      unsigned w = k_.ops[t.cond].width;
      for (size_t i = 1; i < t.targets.size(); ++i)
        s += fmt::format("{}  {}: begin\n{}{}  end\n", ind, lit(t.caseValues[i - 1], w),
                         jump(b, t.targets[i], cyc, ind + "    "), ind);
      s += fmt::format("{}  default: begin\n{}{}  end\n{}endcase\n", ind, jump(b, t.targets[0], cyc, ind + "    "),
                       ind, ind);
      return s;
    }
    case TK::Return:
    case TK::Unreachable: return fmt::format("{}busy <= 1'b0;\n{}done <= 1'b1;\n", ind, ind);
    }
    return "";
  }

  // FSM side of each memory port, and the port shared with the loops.
  std::string memories() {
    std::string s;
    for (size_t i = 0; i < k_.args.size(); ++i) {
      if (!k_.args[i].isPointer) continue;
      uint32_t m = k_.args[i].memory;
      std::string pm = "mem_" + argName(uint32_t(i));
      std::vector<std::string> valids;
      std::string write = "1'b0", addr = lit(0, 64), size = lit(0, 4), wdata = lit(0, 64);
      uint64_t loadsPerBlock = 1;
      for (uint32_t b = 0; b < k_.blocks.size(); ++b) {
        uint64_t n = 0;
        for (ValueId v : k_.blocks[b].ops) {
          const ir::Op& op = k_.ops[v];
          if ((op.kind != OpKind::Load && op.kind != OpKind::Store) || op.memory != m) continue;
          if (op.kind == OpKind::Load) ++n;
          int t = start(v);
          std::string due = fmt::format("(busy & {})", at(b, t));
          valids.push_back(due);
          addr = fmt::format("{} ? {} : {}", due, resize(value(op.operands[0], b, t), k_.ops[op.operands[0]].width, 64), addr);
          size = fmt::format("{} ? {} : {}", due, lit(op.size, 4), size);
          if (op.kind == OpKind::Store) {
            write = fmt::format("{} | {}", due, write);
            wdata = fmt::format("{} ? {} : {}", due, resize(value(op.operands[1], b, t), k_.ops[op.operands[1]].width, 64), wdata);
          }
        }
        loadsPerBlock = std::max(loadsPerBlock, n);
      }
      // Loops driving this port (their outputs are all-zero while idle, so OR-ing is a mux).
      std::vector<std::string> lv, lw, la, ls, ld, active;
      for (size_t l = 0; l < in_.loopMemories.size(); ++l)
        for (uint32_t lm : in_.loopMemories[l])
          if (lm == m) {
            lv.push_back(fmt::format("lp{}_m{}_req_valid", l, m));
            lw.push_back(fmt::format("lp{}_m{}_req_write", l, m));
            la.push_back(fmt::format("lp{}_m{}_req_addr", l, m));
            ls.push_back(fmt::format("lp{}_m{}_req_size", l, m));
            ld.push_back(fmt::format("lp{}_m{}_req_wdata", l, m));
            active.push_back(fmt::format("lp{}_active", l));
          }
      std::string fv = valids.empty() ? "1'b0" : joinOr(valids);
      auto orAll = [&](const std::string& fsmPart, const std::vector<std::string>& loopParts) {
        std::string r = fsmPart;
        for (const auto& p : loopParts) r += " | " + p;
        return r;
      };
      s += fmt::format("  assign {}_req_valid = {};\n", pm, orAll(fmt::format("(({}) & fsm_en)", fv), lv));
      s += fmt::format("  assign {}_req_write = {};\n", pm, orAll(fmt::format("({})", write), lw));
      s += fmt::format("  assign {}_req_addr = {};\n", pm, orAll(fmt::format("({})", addr), la));
      s += fmt::format("  assign {}_req_size = {};\n", pm, orAll(fmt::format("({})", size), ls));
      s += fmt::format("  assign {}_req_wdata = {};\n", pm, orAll(fmt::format("({})", wdata), ld));
      if (unsigned w = fsmLoadWidth(m)) {
        s += fmt::format("  wire mem{}_loop_active = {};\n", m, active.empty() ? "1'b0" : joinOr(active));
        InlineFifo f{fmt::format("frf{}", m), w, roundUpPow2(loadsPerBlock + 1), true};
        s += f.decls();
        std::string pop = "1'b0";
        for (uint32_t b = 0; b < k_.blocks.size(); ++b)
          for (ValueId v : k_.blocks[b].ops)
            if (k_.ops[v].kind == OpKind::Load && k_.ops[v].memory == m)
              pop = fmt::format("(busy & fsm_en & {}) | {}", at(b, formCycle(v)), pop);
        logic_ += f.logic(fmt::format("{}_resp_valid & ~mem{}_loop_active", pm, m), resize(pm + "_resp_data", 64, w),
                          pop, "1'b0");
      }
    }
    return s;
  }

  std::string loops() {
    std::string s;
    for (size_t l = 0; l < k_.loops.size(); ++l) {
      const ir::Loop& loop = k_.loops[l];
      // The LoopCall op that runs this loop.
      ValueId call = ir::kNone;
      for (ValueId v = 0; v < k_.ops.size(); ++v)
        if (k_.ops[v].kind == OpKind::LoopCall && k_.ops[v].index == l) call = v;
      if (call == ir::kNone) continue;
      uint32_t b = k_.ops[call].block;
      int t = start(call);
      s += fmt::format("  reg lp{0}_started;\n  wire lp{0}_start;\n  wire lp{0}_done;\n  reg lp{0}_active;\n", l);
      s += fmt::format("  assign lp{0}_start = busy & {1} & ~lp{0}_started;\n", l, at(b, t));
      logic_ += fmt::format("  always @(posedge clk) begin\n    if (rst) begin\n      lp{0}_started <= 1'b0;\n"
                            "      lp{0}_active <= 1'b0;\n    end else begin\n"
                            "      if (lp{0}_start) begin\n        lp{0}_started <= 1'b1;\n        lp{0}_active <= 1'b1;\n"
                            "      end\n      if (lp{0}_done) begin\n        lp{0}_started <= 1'b0;\n"
                            "        lp{0}_active <= 1'b0;\n      end\n    end\n  end\n",
                            l);
      std::vector<std::string> conns = {".clk(clk)", ".rst(rst)", fmt::format(".start(lp{}_start)", l),
                                        fmt::format(".done(lp{}_done)", l)};
      for (size_t i = 0; i < loop.liveIns.size(); ++i)
        conns.push_back(fmt::format(".li_{}({})", i, value(loop.liveIns[i], b, t)));
      for (size_t i = 0; i < loop.liveOuts.size(); ++i) {
        s += fmt::format("  {};\n", decl("wire", loop.ops[loop.liveOuts[i]].width, fmt::format("lp{}_lo_{}", l, i)));
        conns.push_back(fmt::format(".lo_{0}(lp{1}_lo_{0})", i, l));
      }
      for (uint32_t m : in_.loopMemories[l]) {
        std::string pm = "mem_" + memArgName(m);
        for (const char* f : {"req_valid", "req_write"}) {
          s += fmt::format("  wire lp{}_m{}_{};\n", l, m, f);
          conns.push_back(fmt::format(".m{0}_{1}(lp{2}_m{0}_{1})", m, f, l));
        }
        s += fmt::format("  wire [63:0] lp{0}_m{1}_req_addr;\n  wire [3:0] lp{0}_m{1}_req_size;\n"
                         "  wire [63:0] lp{0}_m{1}_req_wdata;\n",
                         l, m);
        for (const char* f : {"req_addr", "req_size", "req_wdata"})
          conns.push_back(fmt::format(".m{0}_{1}(lp{2}_m{0}_{1})", m, f, l));
        conns.push_back(fmt::format(".m{}_req_ready({}_req_ready)", m, pm));
        const auto& lms = in_.loopLoadMemories[l];
        if (std::find(lms.begin(), lms.end(), m) == lms.end()) continue;
        conns.push_back(fmt::format(".m{}_resp_valid({}_resp_valid & lp{}_active)", m, pm, l));
        conns.push_back(fmt::format(".m{}_resp_data({}_resp_data)", m, pm));
      }
      s += fmt::format("  {} u_loop{} (\n", in_.loopModuleNames[l], l);
      for (size_t i = 0; i < conns.size(); ++i) s += "    " + conns[i] + (i + 1 < conns.size() ? ",\n" : "\n");
      s += "  );\n";
    }
    return s;
  }

  // Widest load the FSM itself does on memory m (0: none): its response FIFO's width.
  unsigned fsmLoadWidth(uint32_t m) const {
    unsigned w = 0;
    for (const ir::Op& op : k_.ops)
      if (op.kind == OpKind::Load && op.memory == m) w = std::max<unsigned>(w, op.width);
    return w;
  }

  std::string memPort(uint32_t m) const { return "mem_" + memArgName(m); }

  std::string memArgName(uint32_t m) const {
    for (size_t i = 0; i < k_.args.size(); ++i)
      if (k_.args[i].isPointer && k_.args[i].memory == m) return argName(uint32_t(i));
    throw std::logic_error("top_gen: memory without a pointer argument");
  }
};

} // namespace

std::string generateTopModule(const ir::Kernel& k, const sched::KernelSchedule& s, const TopInputs& in,
                              std::vector<uint32_t>& blockCycles) {
  for (const ir::Memory& m : k.memories)
    if (m.kind == ir::Memory::Kind::Local)
      throw DiagnosticError(k.loc, "local memory '" + m.name + "'",
                            "private arrays kept in memory are not supported in hardware yet");
  return TopWriter(k, s, in).run(blockCycles);
}

} // namespace spvhls::rtl
