// Graph helpers for lowering: reverse post-order, dominators (Boost's Lengauer-Tarjan) and dominance
// frontiers.
#include <algorithm>

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/dominator_tree.hpp>

#include "ir/lower_internal.h"

namespace spvhls::ir::lower {

std::vector<uint32_t> reversePostOrder(const Succs& succ, uint32_t entry) {
  return reversePostOrder(succ, std::vector<uint32_t>{entry});
}

std::vector<uint32_t> reversePostOrder(const Succs& succ, const std::vector<uint32_t>& roots) {
  // Iterative DFS (kernels after inlining can be deep enough to make recursion a risk).
  std::vector<uint32_t> order;
  std::vector<uint8_t> seen(succ.size(), 0);
  for (uint32_t root : roots) {
    if (seen[root]) continue;
    std::vector<uint32_t> post;
    std::vector<std::pair<uint32_t, size_t>> stack{{root, 0}};
    seen[root] = 1;
    while (!stack.empty()) {
      auto& [node, next] = stack.back();
      if (next < succ[node].size()) {
        uint32_t s = succ[node][next++];
        if (!seen[s]) {
          seen[s] = 1;
          stack.push_back({s, 0});
        }
      } else {
        post.push_back(node);
        stack.pop_back();
      }
    }
    order.insert(order.end(), post.rbegin(), post.rend());
  }
  return order;
}

std::vector<int> immediateDominators(const Succs& succ, const std::vector<uint32_t>& roots) {
  if (roots.size() == 1) return immediateDominators(succ, roots[0]);
  // A virtual root above the real ones; what it immediately dominates is a root.
  Succs withRoot = succ;
  withRoot.push_back(roots);
  std::vector<int> idom = immediateDominators(withRoot, static_cast<uint32_t>(succ.size()));
  idom.pop_back();
  for (int& d : idom)
    if (d == static_cast<int>(succ.size())) d = -1;
  return idom;
}

std::vector<int> immediateDominators(const Succs& succ, uint32_t entry) {
  using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::bidirectionalS>;
  using Vertex = boost::graph_traits<Graph>::vertex_descriptor;
  const size_t n = succ.size();
  // Boost's Lengauer-Tarjan goes wrong when unreachable nodes have edges into reachable ones (left
  // behind by block threading): leave their edges out.
  std::vector<uint8_t> reachable(n, 0);
  for (uint32_t v : reversePostOrder(succ, entry)) reachable[v] = 1;
  Graph g(n);
  for (size_t a = 0; a < n; ++a)
    if (reachable[a])
      for (uint32_t b : succ[a]) boost::add_edge(a, b, g);
  std::vector<Vertex> domPred(n, boost::graph_traits<Graph>::null_vertex());
  auto domMap = boost::make_iterator_property_map(domPred.begin(), boost::get(boost::vertex_index, g));
  boost::lengauer_tarjan_dominator_tree(g, boost::vertex(entry, g), domMap);
  std::vector<int> idom(n, -1);
  for (size_t v = 0; v < n; ++v)
    if (domPred[v] != boost::graph_traits<Graph>::null_vertex()) idom[v] = static_cast<int>(domPred[v]);
  return idom;
}

bool dominates(const std::vector<int>& idom, uint32_t a, uint32_t b) {
  for (int x = static_cast<int>(b); x >= 0; x = idom[x])
    if (static_cast<uint32_t>(x) == a) return true;
  return false;
}

std::vector<std::vector<uint32_t>> dominanceFrontiers(const Succs& succ, const std::vector<int>& idom,
                                                      const std::vector<uint32_t>& roots) {
  // Cooper, Harvey, Kennedy: walk up from each predecessor of a join point to its idom.
  const size_t n = succ.size();
  std::vector<std::vector<uint32_t>> preds(n), df(n);
  for (size_t a = 0; a < n; ++a)
    for (uint32_t b : succ[a]) preds[b].push_back(static_cast<uint32_t>(a));
  std::vector<uint8_t> isRoot(n, 0);
  for (uint32_t r : roots)
    isRoot[r] = 1;
  auto reachable = [&](uint32_t v) { return isRoot[v] || idom[v] >= 0; };
  for (uint32_t b = 0; b < n; ++b) {
    if (!reachable(b) || preds[b].size() < 2) continue;
    for (uint32_t p : preds[b]) {
      if (!reachable(p)) continue;
      for (int runner = static_cast<int>(p); runner >= 0 && runner != idom[b]; runner = idom[runner]) {
        auto& f = df[runner];
        if (std::find(f.begin(), f.end(), b) == f.end()) f.push_back(b);
        if (isRoot[runner]) break;
      }
    }
  }
  return df;
}

Succs kernelSuccessors(const Kernel& k) {
  Succs succ(k.blocks.size());
  for (size_t b = 0; b < k.blocks.size(); ++b) {
    for (uint32_t t : k.blocks[b].term.targets)
      if (std::find(succ[b].begin(), succ[b].end(), t) == succ[b].end()) succ[b].push_back(t);
  }
  return succ;
}

std::vector<Id> successorLabels(const LBlock& b) {
  std::vector<Id> out;
  if (b.insts.empty()) return out;
  const LInst& t = b.insts.back();
  auto add = [&](Id l) {
    if (std::find(out.begin(), out.end(), l) == out.end()) out.push_back(l);
  };
  switch (t.op) {
  case SpvOp::OpBranch: add(t.ids[0]); break;
  case SpvOp::OpBranchConditional: add(t.ids[1]); add(t.ids[2]); break;
  case SpvOp::OpSwitch:
    for (size_t i = 1; i < t.ids.size(); ++i) add(t.ids[i]);
    break;
  default: break;
  }
  return out;
}

uint32_t moveEntryOps(Kernel& k, std::initializer_list<OpKind> stay) {
  const uint32_t body = static_cast<uint32_t>(k.blocks.size());
  BasicBlock moved;
  moved.name = k.blocks[0].name;
  moved.term = k.blocks[0].term;
  std::vector<ValueId> kept;
  for (ValueId v : k.blocks[0].ops) {
    if (std::find(stay.begin(), stay.end(), k.ops[v].kind) != stay.end()) {
      kept.push_back(v);
      continue;
    }
    k.ops[v].block = body;
    moved.ops.push_back(v);
  }
  k.blocks[0].ops = std::move(kept);
  k.blocks.push_back(std::move(moved));
  for (Op& op : k.ops)
    for (uint32_t& pb : op.phiBlocks)
      if (pb == 0) pb = body;
  return body;
}

} // namespace spvhls::ir::lower
