// Memory promotion (mem2reg): Function-storage variables whose every use is a whole load or store
// (directly or through pointer casts) become SSA values, with phis at the iterated dominance
// frontier of their stores. Pointer-typed variables (clang's `a.addr`) are promoted too, which is
// what lets every memory access resolve to its kernel argument.
//
// Promotion runs in rounds: promoting `p.addr` in an inlined `void f(int* p)` turns the loads of it
// into the argument `&x`, which makes `x` promotable in the next round.
#include <algorithm>
#include <functional>
#include <map>

#include "ir/lower_internal.h"

namespace spvhls::ir::lower {
namespace {

namespace sc = spirv::spv::StorageClass;

bool isPromotableType(const Context& c, Id type) {
  using K = spirv::Type::Kind;
  const spirv::Type* t = c.mv.findType(type);
  // Vectors of numbers too: the translator keeps them lane by lane (lower_vectors.cpp).
  if (t && t->kind == K::Vector) t = c.mv.findType(t->elem);
  return t && (t->kind == K::Int || t->kind == K::Bool || t->kind == K::Float || t->kind == K::Pointer);
}

// A cast that yields the same pointer (same pointee), so loads/stores through it are loads/stores
// of the variable.
bool isPointerAlias(const Context& c, const LInst& in) {
  switch (in.op) {
  case SpvOp::OpPtrCastToGeneric: case SpvOp::OpGenericCastToPtr: case SpvOp::OpCopyObject:
  case SpvOp::OpBitcast: {
    const spirv::Type* to = c.mv.findType(in.type);
    const spirv::Type* from = c.mv.findType(c.typeOf(in.ids[0]));
    return to && from && to->kind == spirv::Type::Kind::Pointer &&
           from->kind == spirv::Type::Kind::Pointer && to->elem == from->elem;
  }
  default:
    return false;
  }
}

class Promoter {
public:
  Promoter(Context& c, LFunc& f) : c_(c), f_(f) {}

  // Returns whether anything was promoted: promotion only removes instructions, so rounds end.
  bool round() {
    findCandidates();
    if (vars_.empty()) return false;
    buildCfg();
    placePhis();
    std::unordered_map<Id, std::vector<Id>> stacks;
    for (uint32_t root : roots_)
      rename(root, stacks); // a shared function's variables are its own
    const bool progress = !dead_.empty();
    rewrite();
    removeTrivialPhis();
    removeDeadPhis();
    return progress;
  }

private:
  struct Var {
    Id pointee = 0;
    Id init = 0;
    bool ok = true;
  };
  Context& c_;
  LFunc& f_;
  std::map<Id, Var> vars_;                 // candidates (ordered: deterministic phi order)
  std::unordered_map<Id, Id> aliasOf_;     // variable or cast of it -> variable
  std::unordered_map<Id, uint32_t> blockIndex_;
  Succs succ_;
  std::vector<int> idom_;
  std::vector<uint32_t> roots_;
  std::vector<std::vector<uint32_t>> children_;
  std::unordered_map<Id, Id> phiVar_;      // inserted phi -> variable
  std::unordered_map<Id, Id> replace_;     // removed load -> value
  std::unordered_set<const LInst*> dead_;

  void findCandidates() {
    vars_.clear();
    aliasOf_.clear();
    for (auto& b : f_.blocks)
      for (auto& in : b.insts)
        if (in.op == SpvOp::OpVariable && in.lits[0] == sc::Function) {
          Id pointee = c_.pointeeOf(in.result);
          Var v{pointee, in.ids.empty() ? 0 : in.ids[0], isPromotableType(c_, pointee)};
          vars_[in.result] = v;
          aliasOf_[in.result] = in.result;
        }
    if (vars_.empty()) return;
    // Casts come after their operand in dominance order; iterate until no new alias appears
    // (block order need not be dominance order).
    for (bool changed = true; changed;) {
      changed = false;
      for (auto& b : f_.blocks)
        for (auto& in : b.insts)
          if (!aliasOf_.count(in.result) && isPointerAlias(c_, in) && aliasOf_.count(in.ids[0])) {
            aliasOf_[in.result] = aliasOf_[in.ids[0]];
            changed = true;
          }
    }
    for (auto& b : f_.blocks)
      for (auto& in : b.insts) {
        for (size_t i = 0; i < in.ids.size(); ++i) {
          auto a = aliasOf_.find(in.ids[i]);
          if (a == aliasOf_.end()) continue;
          Var& v = vars_[a->second];
          bool fine = (in.op == SpvOp::OpLoad && in.type == v.pointee) ||
                      (in.op == SpvOp::OpStore && i == 0 && c_.typeOf(in.ids[1]) == v.pointee) ||
                      (isPointerAlias(c_, in) && i == 0);
          if (!fine) v.ok = false;
        }
      }
    for (auto it = vars_.begin(); it != vars_.end();)
      it = it->second.ok ? std::next(it) : vars_.erase(it);
  }

  void buildCfg() {
    blockIndex_.clear();
    for (uint32_t i = 0; i < f_.blocks.size(); ++i) blockIndex_[f_.blocks[i].label] = i;
    succ_.assign(f_.blocks.size(), {});
    for (uint32_t i = 0; i < f_.blocks.size(); ++i)
      for (Id s : successorLabels(f_.blocks[i])) succ_[i].push_back(blockIndex_.at(s));
    roots_ = lfuncRoots(f_);
    idom_ = immediateDominators(succ_, roots_);
    children_.assign(f_.blocks.size(), {});
    for (uint32_t i = 0; i < idom_.size(); ++i)
      if (idom_[i] >= 0) children_[idom_[i]].push_back(i);
  }

  Id varOfAccess(const LInst& in) const {
    if (in.op != SpvOp::OpLoad && in.op != SpvOp::OpStore && !isPointerAlias(c_, in)) return 0;
    auto a = aliasOf_.find(in.ids[0]);
    if (a == aliasOf_.end() || !vars_.count(a->second)) return 0;
    return a->second;
  }

  void placePhis() {
    phiVar_.clear();
    auto df = dominanceFrontiers(succ_, idom_, roots_);
    std::map<Id, std::vector<uint32_t>> defBlocks;
    for (uint32_t bi = 0; bi < f_.blocks.size(); ++bi)
      for (auto& in : f_.blocks[bi].insts) {
        if (in.op == SpvOp::OpVariable && vars_.count(in.result)) defBlocks[in.result].push_back(bi);
        if (in.op == SpvOp::OpStore)
          if (Id v = varOfAccess(in)) defBlocks[v].push_back(bi);
      }
    std::vector<std::vector<LInst>> newPhis(f_.blocks.size());
    for (auto& [var, defs] : defBlocks) {
      std::vector<uint8_t> has(f_.blocks.size(), 0), queued(f_.blocks.size(), 0);
      std::vector<uint32_t> work = defs;
      for (uint32_t d : defs) queued[d] = 1;
      while (!work.empty()) {
        uint32_t x = work.back();
        work.pop_back();
        for (uint32_t y : df[x]) {
          if (has[y]) continue;
          has[y] = 1;
          LInst phi;
          phi.op = SpvOp::OpPhi;
          phi.type = vars_[var].pointee;
          phi.result = c_.freshId(var);
          c_.setType(phi.result, phi.type);
          phi.src = f_.blocks[y].insts.empty() ? 0 : f_.blocks[y].insts.front().src;
          phiVar_[phi.result] = var;
          newPhis[y].push_back(phi);
          if (!queued[y]) {
            queued[y] = 1;
            work.push_back(y);
          }
        }
      }
    }
    for (uint32_t bi = 0; bi < f_.blocks.size(); ++bi) {
      auto& insts = f_.blocks[bi].insts;
      insts.insert(insts.begin(), newPhis[bi].begin(), newPhis[bi].end());
    }
  }

  Id resolve(Id id) const {
    for (auto it = replace_.find(id); it != replace_.end(); it = replace_.find(id)) id = it->second;
    return id;
  }

  Id top(std::unordered_map<Id, std::vector<Id>>& stacks, Id var) {
    auto& s = stacks[var];
    return s.empty() ? c_.undefOf(vars_[var].pointee) : s.back();
  }

  void rename(uint32_t root, std::unordered_map<Id, std::vector<Id>>& stacks) {
    // Iterative walk of the dominator tree; each frame remembers what it pushed.
    struct Frame {
      uint32_t block;
      size_t child = 0;
      std::vector<Id> pushed;
      bool entered = false;
    };
    std::vector<Frame> work{Frame{root, 0, {}, false}};
    while (!work.empty()) {
      Frame& fr = work.back();
      if (!fr.entered) {
        fr.entered = true;
        visitBlock(fr.block, stacks, fr.pushed);
      }
      if (fr.child < children_[fr.block].size()) {
        uint32_t next = children_[fr.block][fr.child++];
        work.push_back(Frame{next, 0, {}, false});
        continue;
      }
      for (Id v : fr.pushed) stacks[v].pop_back();
      work.pop_back();
    }
  }

  void visitBlock(uint32_t bi, std::unordered_map<Id, std::vector<Id>>& stacks, std::vector<Id>& pushed) {
    LBlock& b = f_.blocks[bi];
    auto push = [&](Id var, Id value) {
      stacks[var].push_back(value);
      pushed.push_back(var);
    };
    for (auto& in : b.insts) {
      if (in.op == SpvOp::OpPhi) {
        auto p = phiVar_.find(in.result);
        if (p != phiVar_.end()) push(p->second, in.result);
        continue;
      }
      if (in.op == SpvOp::OpVariable && vars_.count(in.result)) {
        const Var& v = vars_[in.result];
        push(in.result, v.init ? resolve(v.init) : c_.undefOf(v.pointee));
        dead_.insert(&in);
        continue;
      }
      Id var = varOfAccess(in);
      if (!var) continue;
      if (in.op == SpvOp::OpLoad) replace_[in.result] = top(stacks, var);
      if (in.op == SpvOp::OpStore) {
        Id value = resolve(in.ids[1]);
        push(var, value);
        c_.promotedStores[var].push_back(value);
      }
      dead_.insert(&in);
    }
    for (uint32_t s : succ_[bi])
      for (auto& in : f_.blocks[s].insts) {
        if (in.op != SpvOp::OpPhi) break;
        auto p = phiVar_.find(in.result);
        if (p == phiVar_.end()) continue;
        in.ids.push_back(top(stacks, p->second));
        in.ids.push_back(b.label);
      }
  }

  void rewrite() {
    for (auto& b : f_.blocks) {
      std::vector<LInst> kept;
      kept.reserve(b.insts.size());
      for (auto& in : b.insts)
        if (!dead_.count(&in)) kept.push_back(std::move(in));
      b.insts = std::move(kept);
    }
    dead_.clear();
    for (auto& b : f_.blocks) {
      for (auto& in : b.insts)
        for (Id& id : in.ids) id = resolve(id);
      if (b.controls)
        for (auto& [var, dist] : b.controls->dependencyArray) var = resolve(var);
    }
    for (auto& [var, values] : c_.promotedStores)
      for (Id& v : values) v = resolve(v);
  }

  // Phis nothing but other dead phis read: a variable declared inside a loop gets one at the loop
  // header (its undefined initial value meets the last iteration's value), which would keep the
  // values it merges, and variables whose address they are, alive.
  void removeDeadPhis() {
    std::unordered_map<Id, const LInst*> phis;
    for (auto& b : f_.blocks)
      for (auto& in : b.insts)
        if (in.op == SpvOp::OpPhi) phis[in.result] = &in;
    std::unordered_set<Id> live;
    std::vector<Id> work;
    auto use = [&](Id id) {
      if (phis.count(id) && live.insert(id).second) work.push_back(id);
    };
    for (auto& b : f_.blocks) {
      for (auto& in : b.insts)
        if (in.op != SpvOp::OpPhi)
          for (Id id : in.ids) use(id);
      if (b.controls)
        for (auto& [var, dist] : b.controls->dependencyArray) use(var);
    }
    for (auto& [var, values] : c_.promotedStores)
      for (Id v : values) use(v);
    while (!work.empty()) {
      const LInst* phi = phis[work.back()];
      work.pop_back();
      for (size_t i = 0; i < phi->ids.size(); i += 2) use(phi->ids[i]);
    }
    for (auto& b : f_.blocks)
      std::erase_if(b.insts, [&](const LInst& in) { return in.op == SpvOp::OpPhi && !live.count(in.result); });
  }

  // A phi whose incoming values are all the same value (or itself) is that value.
  void removeTrivialPhis() {
    for (bool changed = true; changed;) {
      changed = false;
      replace_.clear();
      for (auto& b : f_.blocks)
        for (auto& in : b.insts) {
          if (in.op != SpvOp::OpPhi || dead_.count(&in)) continue;
          Id same = 0;
          bool trivial = true;
          for (size_t i = 0; i < in.ids.size(); i += 2) {
            Id v = in.ids[i];
            if (v == in.result || v == same) continue;
            if (same) {
              trivial = false;
              break;
            }
            same = v;
          }
          if (!trivial) continue;
          replace_[in.result] = same ? same : c_.undefOf(in.type);
          dead_.insert(&in);
          changed = true;
        }
      if (changed) rewrite();
    }
  }
};

} // namespace

void promoteVariables(Context& c, LFunc& f) {
  Promoter p(c, f);
  while (p.round()) {
  }
}

} // namespace spvhls::ir::lower
