// ModuleView::sizeOf / alignOf: OpenCL C layout of SPIR-V types (Physical64: 8-byte pointers;
// 3-component vectors are sized and aligned like 4-component ones; structs pad members to their
// alignment unless decorated CPacked).
#include <fmt/format.h>

#include <algorithm>

#include "frontend/grammar.h"
#include "frontend/module.h"

namespace spvhls::spirv {

namespace {

uint64_t scalarBytes(uint32_t widthBits) {
  uint64_t bytes = 1;
  while (bytes * 8 < widthBits) bytes *= 2; // arbitrary-precision ints round up to a power of two
  return bytes;
}

[[noreturn]] void noLayout(const ModuleView& v, Id type, const char* why) {
  const Instruction* d = v.defInst(type);
  throw DiagnosticError(d ? v.module.locOf(*d) : SourceLoc{v.module.fileName}, d ? grammar::opName(d->opcode) : "type",
                        fmt::format("type {} has no size in memory: {}", v.nameOf(type), why));
}

} // namespace

uint64_t ModuleView::sizeOf(Id id) const {
  const Type& t = type(id);
  switch (t.kind) {
  case Type::Kind::Bool: return 1;
  case Type::Kind::Int:
  case Type::Kind::Float: return scalarBytes(t.width);
  case Type::Kind::Pointer: return addressingModel == spv::AddressingModel::Physical32 ? 4 : 8;
  case Type::Kind::TaskSequence: return 8; // an opaque handle; DPC++ keeps it in a class member
  case Type::Kind::Vector: return sizeOf(t.elem) * (t.count == 3 ? 4 : t.count);
  case Type::Kind::Array: return sizeOf(t.elem) * t.count;
  case Type::Kind::Struct: {
    bool packed = hasDecoration(id, spv::Decoration::CPacked);
    uint64_t offset = 0;
    for (Id m : t.members) {
      uint64_t a = packed ? 1 : alignOf(m);
      offset = (offset + a - 1) / a * a + sizeOf(m);
    }
    uint64_t a = alignOf(id);
    return (offset + a - 1) / a * a;
  }
  case Type::Kind::RuntimeArray: noLayout(*this, id, "it is a runtime array");
  case Type::Kind::Void: noLayout(*this, id, "it is void");
  default: noLayout(*this, id, "it is an opaque or non-data type");
  }
}

uint64_t ModuleView::alignOf(Id id) const {
  const Type& t = type(id);
  switch (t.kind) {
  case Type::Kind::Vector: return sizeOf(id);
  case Type::Kind::Array:
  case Type::Kind::RuntimeArray: return alignOf(t.elem);
  case Type::Kind::Struct: {
    if (hasDecoration(id, spv::Decoration::CPacked)) return 1;
    uint64_t a = 1;
    for (Id m : t.members) a = std::max(a, alignOf(m));
    return a;
  }
  default: return sizeOf(id);
  }
}

} // namespace spvhls::spirv
