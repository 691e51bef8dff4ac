// Struct values (not in memory: a whole struct is never loaded or stored, see accessSize) as one
// value of their members' bits end to end, the first member lowest, each member as wide as its type
// (a bool one bit). What makes and reads them: OpCompositeConstruct / Extract / Insert, constants,
// phis, selects and copies as any value, and task sequences (a struct result or parameter crosses the
// task's queues as those bits, docs/task-sequences.md). Members are scalars, 64 bits in all at most.
#include <fmt/format.h>

#include "ir/lower_translate.h"

namespace spvhls::ir::lower {

using K = spirv::Type::Kind;

std::vector<std::pair<uint32_t, uint32_t>> Translator::structLayout(Id type, const LInst& at) const {
  const spirv::Type& t = c_.type(type);
  std::vector<std::pair<uint32_t, uint32_t>> fields; // (lowest bit, width) per member
  uint32_t bits = 0;
  for (Id m : t.members) {
    const spirv::Type& mt = c_.type(m);
    const bool scalar = mt.kind == K::Bool || ((mt.kind == K::Int || mt.kind == K::Float) && mt.width <= 64);
    if (!scalar)
      c_.failAt(at,
                fmt::format("struct values with a member of type {} are not supported yet (members must be "
                            "integer, float or bool scalars)",
                            c_.typeName(m)));
    const uint32_t w = mt.kind == K::Bool ? 1 : mt.width;
    fields.emplace_back(bits, w);
    bits += w;
  }
  if (bits == 0 || bits > 64)
    c_.failAt(at,
              fmt::format("struct values of {} bits ({}) are not supported yet; at most 64 bits of members",
                          bits, c_.typeName(type)));
  return fields;
}

bool Translator::translateStruct(const LInst& in) {
  auto isStruct = [&](Id type) { return type && c_.type(type).kind == K::Struct; };
  switch (in.op) {
  case SpvOp::OpCompositeConstruct: {
    if (!isStruct(in.type)) return false;
    const auto fields = structLayout(in.type, in);
    if (in.ids.size() != fields.size())
      c_.failAt(in, fmt::format("gives {} members for a {}", in.ids.size(), c_.typeName(in.type)));
    std::vector<ValueId> parts;
    for (size_t i = 0; i < fields.size(); ++i)
      parts.push_back(operandOf(in.ids[i], fields[i].second, in));
    vals_[in.result] = b_.concat(parts);
    return true;
  }
  case SpvOp::OpCompositeExtract: {
    const Id type = c_.typeOf(in.ids.at(0));
    if (!isStruct(type)) return false;
    const auto fields = structLayout(type, in);
    if (in.lits.size() != 1 || in.lits[0] >= fields.size())
      c_.failAt(in, fmt::format("expected one member index below {} (members are scalars)", fields.size()));
    const auto [lo, w] = fields[in.lits[0]];
    vals_[in.result] = b_.extract(operandOf(in.ids[0], widthOf(type, in), in), lo, w);
    return true;
  }
  case SpvOp::OpCompositeInsert: {
    if (!isStruct(in.type)) return false;
    const auto fields = structLayout(in.type, in);
    if (in.lits.size() != 1 || in.lits[0] >= fields.size())
      c_.failAt(in, fmt::format("expected one member index below {} (members are scalars)", fields.size()));
    const ValueId old = operandOf(in.ids[1], widthOf(in.type, in), in);
    std::vector<ValueId> parts;
    for (size_t i = 0; i < fields.size(); ++i)
      parts.push_back(i == in.lits[0] ? operandOf(in.ids[0], fields[i].second, in)
                                      : b_.extract(old, fields[i].first, fields[i].second));
    vals_[in.result] = b_.concat(parts);
    return true;
  }
  default:
    return false;
  }
}

ValueId Translator::structConstant(const spirv::Constant& k, const LInst& at) {
  const auto fields = structLayout(k.type, at);
  if (k.constituents.size() != fields.size())
    c_.failAt(at, fmt::format("a constant {} with {} members", c_.typeName(k.type), k.constituents.size()));
  std::vector<ValueId> parts;
  for (size_t i = 0; i < fields.size(); ++i)
    parts.push_back(operandOf(k.constituents[i], fields[i].second, at));
  return b_.concat(parts);
}

} // namespace spvhls::ir::lower
