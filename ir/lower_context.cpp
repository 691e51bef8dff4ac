// Context: ids, names, types and diagnostics shared by the lowering steps.
#include <fmt/format.h>

#include "frontend/grammar.h"
#include "ir/lower_internal.h"

namespace spvhls::ir::lower {

namespace sc = spirv::spv::StorageClass;

Context::Context(const spirv::ModuleView& m, const spirv::EntryPoint& ep, const spirv::Function& f)
    : mv(m), entry(ep), entryFunc(f) {
  next_ = std::max<Id>(m.module.bound, 1);
  for (const auto& inst : m.module.insts) next_ = std::max(next_, inst.resultId + 1);
}

Id Context::freshId(Id copyOf) {
  Id id = next_++;
  origin_[id] = origin(copyOf);
  if (Id t = typeOf(copyOf)) typeOf_[id] = t;
  auto it = names_.find(copyOf);
  if (it != names_.end()) names_[id] = it->second;
  return id;
}

Id Context::freshNamedId(std::string name, Id type) {
  Id id = next_++;
  origin_[id] = 0;
  names_[id] = std::move(name);
  if (type) typeOf_[id] = type;
  return id;
}

Id Context::origin(Id id) const {
  auto it = origin_.find(id);
  return it == origin_.end() ? id : it->second;
}

bool Context::hasName(Id id) const {
  if (names_.count(id)) return true;
  Id o = origin(id);
  return o != 0 && (mv.names.count(o) || mv.module.textNames.count(o));
}

std::string Context::nameOf(Id id) const {
  auto it = names_.find(id);
  if (it != names_.end()) return it->second;
  Id o = origin(id);
  if (o == 0) return fmt::format("%{}", id);
  auto n = mv.names.find(o);
  if (n != mv.names.end() && !n->second.empty()) return n->second;
  auto t = mv.module.textNames.find(o);
  if (t != mv.module.textNames.end()) return t->second;
  if (o == entryFunc.id) return entry.name; // clang's unnamed wrapper around the kernel
  return fmt::format("%{}", o);
}

std::string Context::ref(Id id) const {
  std::string n = nameOf(id);
  return n.starts_with('%') ? n : "%" + n;
}

Id Context::typeOf(Id value) const {
  auto it = typeOf_.find(value);
  if (it != typeOf_.end()) return it->second;
  Id o = origin(value);
  if (const spirv::Instruction* d = o ? mv.defInst(o) : nullptr) return d->resultType;
  return 0;
}

Id Context::pointeeOf(Id value) const {
  Id t = typeOf(value);
  if (!t) return 0;
  const spirv::Type* ty = mv.findType(t);
  return ty && ty->kind == spirv::Type::Kind::Pointer ? ty->elem : 0;
}

bool Context::isPointerValue(Id value) const {
  Id t = typeOf(value);
  const spirv::Type* ty = t ? mv.findType(t) : nullptr;
  return ty && ty->kind == spirv::Type::Kind::Pointer;
}

Id Context::undefOf(Id type) {
  auto it = undefByType_.find(type);
  if (it != undefByType_.end()) return it->second;
  Id id = freshNamedId("undef", type);
  undefByType_[type] = id;
  undefs_.insert(id);
  return id;
}

void Context::fail(uint32_t src, std::string construct, std::string message) const {
  throw DiagnosticError(locOf(src), std::move(construct), std::move(message));
}

std::string Context::describe(const LInst& inst) const {
  std::string s = spirv::grammar::opName(static_cast<uint16_t>(inst.op));
  if (inst.result) s += " " + ref(inst.result);
  return s;
}

void Context::failAt(const LInst& inst, std::string message) const {
  fail(inst.src, describe(inst), std::move(message));
}

static std::string storageName(uint32_t s) {
  switch (s) {
  case sc::Function: return "Function";
  case sc::CrossWorkgroup: return "CrossWorkgroup";
  case sc::Workgroup: return "Workgroup";
  case sc::UniformConstant: return "UniformConstant";
  case sc::Generic: return "Generic";
  case sc::Private: return "Private";
  case sc::Input: return "Input";
  default: return fmt::format("storage{}", s);
  }
}

std::string Context::typeName(Id typeId) const {
  const spirv::Type* t = mv.findType(typeId);
  if (!t) return fmt::format("%{}", typeId);
  using K = spirv::Type::Kind;
  switch (t->kind) {
  case K::Void: return "void";
  case K::Bool: return "bool";
  case K::Int: return fmt::format("i{}", t->width);
  case K::Float: return fmt::format("f{}", t->width);
  case K::Vector: return fmt::format("<{} x {}>", t->count, typeName(t->elem));
  case K::Array: return fmt::format("[{} x {}]", t->count, typeName(t->elem));
  case K::RuntimeArray: return fmt::format("[{}]", typeName(t->elem));
  case K::Struct: return "struct " + nameOf(typeId);
  case K::Pointer: return fmt::format("{}* {}", typeName(t->elem), storageName(t->storageClass));
  case K::Function: return "function";
  default: return nameOf(typeId);
  }
}

} // namespace spvhls::ir::lower
