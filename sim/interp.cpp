// Golden interpreter entry: finds the kernel, lays out buffers and module-scope variables, binds the
// run spec's arguments to the kernel's parameters, and runs the run spec's ND-range.
//
// Known limits (docs/interpreter.md lists what is supported): pointers converted to integers (OpConvertPtrToU) give the interpreter's
// own encoding ((memory object << 40) + signed offset), meaningful only for differences within one object
// and round trips; a pointer to a Function variable that outlives its function is detected only until the
// object slot is reused.
#include "sim/interp.h"

#include <fmt/format.h>

#include <algorithm>

#include "frontend/grammar.h"
#include "sim/interp_exec.h"
#include "sim/interp_program.h"

namespace spvhls::sim {

using namespace interp;
using spirv::Type;
namespace spv = spirv::spv;

namespace {

[[noreturn]] void specError(const RunSpec& spec, const std::string& where, const std::string& message) {
  SourceLoc loc;
  loc.file = spec.path;
  throw DiagnosticError(loc, where, message);
}

std::string paramName(const spirv::ModuleView& mv, Id param) {
  auto it = mv.names.find(param);
  return it != mv.names.end() ? it->second : mv.nameOf(param);
}

std::string storageName(uint32_t sc) { return spirv::grammar::enumName(spirv::OperandKind::StorageClass, sc); }

// Classifies the module-scope variables, gives each a memory object and computes initial contents.
void setupGlobals(Program& p, uint64_t maxBytes) {
  const spirv::ModuleView& mv = p.mv;
  std::vector<GlobalVar> shared, perItem;
  for (Id g : mv.globals) {
    uint32_t at = mv.def.at(g);
    const spirv::Instruction& in = mv.inst(at);
    GlobalVar gv;
    gv.var = g;
    gv.pointee = mv.type(in.resultType).elem;
    uint32_t sc = in.operands.at(0);
    gv.info.storageClass = sc;
    gv.info.var = g;
    gv.info.kind = ObjectKind::Global;
    if (auto it = mv.decorations.find(g); it != mv.decorations.end())
      for (const auto& d : it->second)
        if (d.kind == spv::Decoration::BuiltIn && !d.literals.empty()) gv.builtIn = d.literals[0];
    switch (sc) {
    case spv::StorageClass::Input:
      if (gv.builtIn == ~0u) {
        p.unsupportedGlobals[g] = "Input variables other than built-ins are not supported";
        continue;
      }
      if (!isSupportedBuiltIn(gv.builtIn)) {
        p.unsupportedGlobals[g] = fmt::format("built-in {} is not supported by the interpreter",
                                              spirv::grammar::enumName(spirv::OperandKind::BuiltIn, gv.builtIn));
        continue;
      }
      gv.info.kind = ObjectKind::BuiltIn;
      gv.info.readOnly = true;
      gv.perWorkItem = true;
      break;
    case spv::StorageClass::CrossWorkgroup: break;
    case spv::StorageClass::UniformConstant: gv.info.readOnly = true; break;
    case spv::StorageClass::Workgroup: gv.info.tracksInit = in.operands.size() < 2; break;
    case spv::StorageClass::Private:
      gv.info.tracksInit = in.operands.size() < 2;
      gv.perWorkItem = true;
      break;
    default:
      p.unsupportedGlobals[g] = fmt::format("module-scope variables in {} storage are not supported", storageName(sc));
      continue;
    }
    (gv.perWorkItem ? perItem : shared).push_back(gv);
  }
  p.sharedObjects = 1 + static_cast<uint32_t>(p.buffers.size() + shared.size());
  p.perWorkItemObjects = static_cast<uint32_t>(perItem.size());
  uint32_t next = 1 + static_cast<uint32_t>(p.buffers.size());
  for (auto* list : {&shared, &perItem})
    for (GlobalVar& gv : *list) {
      gv.object = next++;
      p.globalAddress[gv.var] = makeAddress(gv.object, 0);
      p.globals.push_back(gv);
    }
  // Initial contents need every address (an initializer may point at another variable).
  evaluateConstantExprs(p);
  for (GlobalVar& gv : p.globals) {
    uint32_t at = mv.def.at(gv.var);
    const spirv::Instruction& in = mv.inst(at);
    uint64_t size = objectSize(p, gv.pointee, at);
    if (size > maxBytes)
      throw DiagnosticError(p.mv.locOf(at), constructName(p, at),
                            fmt::format("a module-scope variable of {} bytes is above the interpreter's memory limit of {} "
                                        "bytes (InterpOptions::maxMemoryBytes)",
                                        size, maxBytes));
    if (in.operands.size() > 1) gv.init = imageOf(p, in.operands[1], gv.pointee, at);
    else gv.init.assign(size, 0); // OpenCL zero-initialises program-scope variables
  }
}

// The host's writes into program-scope globals before the run (the run spec's "globals").
void applyHostGlobals(Program& p, const RunSpec& spec) {
  for (size_t i = 0; i < spec.globals.size(); ++i) {
    const ArgSpec& g = spec.globals[i];
    const std::string where = fmt::format("globals[{}]", i);
    GlobalVar* found = nullptr;
    std::string known;
    for (GlobalVar& gv : p.globals) {
      if (gv.perWorkItem || gv.info.kind != ObjectKind::Global) continue;
      const std::string name = paramName(p.mv, gv.var);
      if (gv.info.storageClass == spv::StorageClass::CrossWorkgroup)
        known += (known.empty() ? "" : ", ") + name;
      if (name == g.name) found = &gv;
    }
    if (!found)
      specError(spec, where,
                fmt::format("the module has no program-scope variable named '{}'; its globals: {}", g.name,
                            known.empty() ? "none" : known));
    if (found->info.storageClass != spv::StorageClass::CrossWorkgroup)
      specError(spec, where,
                fmt::format("'{}' is a {} variable; the host writes only global (CrossWorkgroup) variables",
                            g.name, storageName(found->info.storageClass)));
    if (g.init.size() > found->init.size())
      specError(spec, where,
                fmt::format("{} bytes given for '{}', which has {} bytes", g.init.size(), g.name,
                            found->init.size()));
    std::copy(g.init.begin(), g.init.end(), found->init.begin());
  }
}

// Binds argument i of the run spec to parameter `param`; returns its slot values.
std::vector<uint64_t> bindArgument(Program& p, const RunSpec& spec, size_t i, Id param, const std::string& kernel) {
  const spirv::ModuleView& mv = p.mv;
  const ArgSpec& arg = spec.args[i];
  std::string where = fmt::format("args[{}]", i);
  std::string pname = paramName(mv, param);
  if (mv.names.count(param) && !arg.name.empty() && arg.name != fmt::format("arg{}", i) && arg.name != pname)
    specError(spec, where, fmt::format("argument is named '{}' but parameter {} of kernel '{}' is '{}'", arg.name, i, kernel, pname));
  Id ty = mv.defInst(param)->resultType;
  const Type& t = mv.type(ty);
  std::string desc = fmt::format("parameter {} '{}' of kernel '{}'", i, pname, kernel);
  if (t.kind == Type::Kind::Pointer) {
    if (t.storageClass == spv::StorageClass::CrossWorkgroup || t.storageClass == spv::StorageClass::UniformConstant) {
      if (!arg.isBuffer) specError(spec, where, fmt::format("{} is a {} pointer; expected a \"buffer\", found a scalar \"value\"", desc, storageName(t.storageClass)));
      BufferBinding b;
      b.arg = static_cast<uint32_t>(i);
      b.object = 1 + static_cast<uint32_t>(p.buffers.size());
      b.info = ObjectInfo{ObjectKind::Buffer, t.storageClass, t.storageClass == spv::StorageClass::UniformConstant, false,
                          static_cast<uint32_t>(i), 0};
      p.buffers.push_back(b);
      return {makeAddress(b.object, 0)};
    }
    if (t.storageClass == spv::StorageClass::Workgroup)
      specError(spec, where, fmt::format("{} is a local-memory (Workgroup) pointer; the run spec cannot size local buffers yet", desc));
    specError(spec, where, fmt::format("{} is a {} pointer (a struct passed by value?); only global and constant buffers and "
                                       "scalars are supported", desc, storageName(t.storageClass)));
  }
  if (const spirv::Instruction* td = mv.defInst(ty); td && td->op() == spirv::Op::OpTypeImage)
    specError(spec, where, fmt::format("{} is an image: images are not supported by the interpreter or the run spec, and "
                                       "so neither is image block IO (OpSubgroupImageBlockReadINTEL/WriteINTEL); use "
                                       "buffers and OpSubgroupBlockReadINTEL/WriteINTEL", desc));
  if (t.kind != Type::Kind::Int && t.kind != Type::Kind::Float && t.kind != Type::Kind::Bool)
    specError(spec, where, fmt::format("{} has a type the run spec cannot express (only scalars and buffers)", desc));
  if (arg.isBuffer) specError(spec, where, fmt::format("{} is a scalar; expected a \"value\", found a \"buffer\"", desc));
  uint32_t w = t.kind == Type::Kind::Bool ? 1 : t.width;
  if (t.kind == Type::Kind::Float && !(arg.elem.isFloat && arg.elem.bytes * 8 == w))
    specError(spec, where, fmt::format("{} is a {}-bit float; give the value with \"type\": \"f{}\"", desc, w, w));
  if (t.kind != Type::Kind::Float && arg.elem.isFloat)
    specError(spec, where, fmt::format("{} is an integer, but the value is given as {}", desc, arg.elem.name));
  if (w == 0 || w > 64) specError(spec, where, fmt::format("{} has an unsupported width of {} bits", desc, w));
  uint64_t v = arg.scalar, m = widthMask(w);
  bool fits = (v & ~m) == 0 || static_cast<uint64_t>(sext(v & m, w)) == v;
  if (t.kind == Type::Kind::Bool) fits = v <= 1;
  if (!fits) specError(spec, where, fmt::format("value {} does not fit {} ({} bits)", static_cast<int64_t>(v), desc, w));
  return {v & m};
}

} // namespace

InterpResult interpret(const spirv::ModuleView& mv, const RunSpec& spec, const InterpOptions& opts) {
  const spirv::EntryPoint* ep = mv.findEntryPoint(spec.kernel);
  if (!ep) {
    std::string names;
    for (const auto& e : mv.entryPoints) names += (names.empty() ? "" : ", ") + e.name;
    specError(spec, "kernel", fmt::format("no entry point '{}' in {}; it has: {}", spec.kernel, mv.module.fileName,
                                          names.empty() ? "none" : names));
  }
  if (ep->executionModel != spv::ExecutionModel::Kernel)
    throw DiagnosticError(mv.locOf(ep->inst), "OpEntryPoint", fmt::format("'{}' is not a Kernel entry point", ep->name));
  if (mv.addressingModel != spv::AddressingModel::Physical64)
    throw DiagnosticError(mv.locOf(ep->inst), "OpMemoryModel",
                          fmt::format("addressing model {} is not supported by the interpreter (expected Physical64)",
                                      spirv::grammar::enumName(spirv::OperandKind::AddressingModel, mv.addressingModel)));
  const spirv::Function* fn = mv.findFunction(ep->function);
  if (!fn || fn->isDeclaration())
    throw DiagnosticError(mv.locOf(ep->inst), "OpEntryPoint", fmt::format("kernel '{}' has no function body", ep->name));
  if (spec.args.size() != fn->params.size()) {
    std::string names;
    for (Id prm : fn->params) names += (names.empty() ? "" : ", ") + paramName(mv, prm);
    specError(spec, "args", fmt::format("kernel '{}' has {} parameters ({}); the run spec gives {} arguments", spec.kernel,
                                        fn->params.size(), names, spec.args.size()));
  }

  Program p(mv);
  std::vector<std::vector<uint64_t>> args;
  for (size_t i = 0; i < fn->params.size(); ++i) args.push_back(bindArgument(p, spec, i, fn->params[i], spec.kernel));
  setupGlobals(p, opts.maxMemoryBytes);
  applyHostGlobals(p, spec);
  uint32_t entry = decodeFunction(p, ep->function);

  NDRange nd;
  nd.dims = spec.workDim;
  nd.globalSize = spec.globalSize;
  nd.localSize = spec.localSize;
  nd.subgroupSize = spec.subgroupSize;
  for (int d = 0; d < 3; ++d)
    if (nd.localSize[d] == 0 || nd.globalSize[d] % nd.localSize[d] != 0)
      specError(spec, "local_size", fmt::format("local_size[{}] = {} does not divide global_size[{}] = {}", d, nd.localSize[d], d,
                                                nd.globalSize[d]));
  if (nd.subgroupSize == 0) specError(spec, "subgroup_size", "must be at least 1");
  Executor ex(p, spec, opts, nd);
  runNDRange(p, ex, nd, entry, args);

  InterpResult result;
  result.instructions = ex.instructions;
  result.buffers.resize(spec.args.size());
  for (const BufferBinding& b : p.buffers) result.buffers[b.arg] = std::move(ex.shared[b.object].bytes);
  for (const GlobalVar& g : p.globals) {
    if (g.perWorkItem) continue;
    MemObject& o = ex.shared[g.object];
    result.globals.push_back(
        {g.var, paramName(mv, g.var), g.info.readOnly, std::move(o.bytes), std::move(o.defined)});
  }
  for (size_t b = 0; b < p.blockLabels.size(); ++b) result.blockCounts[p.blockLabels[b]] += ex.blockCounts[b];
  for (size_t e = 0; e < p.edgeLabels.size(); ++e)
    result.edgeCounts[uint64_t(p.edgeLabels[e].first) << 32 | p.edgeLabels[e].second] += ex.edgeCounts[e];
  return result;
}

std::string formatGlobals(const InterpResult& r, size_t maxBytes) {
  std::string out;
  for (const InterpResult::Global& g : r.globals) {
    if (g.constant) continue;
    out += fmt::format("program-scope {}, {} bytes:", g.name, g.bytes.size());
    for (size_t i = 0; i < g.bytes.size() && i < maxBytes; ++i)
      out += g.defined.empty() || g.defined[i] ? fmt::format(" {:02x}", g.bytes[i]) : std::string(" ??");
    if (g.bytes.size() > maxBytes) out += fmt::format(" ... ({} more)", g.bytes.size() - maxBytes);
    out += "\n";
  }
  return out;
}

std::string compareGlobals(const InterpResult& golden, const std::vector<std::pair<uint32_t, std::string>>& vars,
                           const BufferSet& got, size_t maxReported) {
  std::string report;
  for (size_t i = 0; i < vars.size(); ++i) {
    const auto& [var, name] = vars[i];
    if (var == 0) continue; // not compared
    auto g = std::find_if(golden.globals.begin(), golden.globals.end(),
                          [&](const InterpResult::Global& x) { return x.var == var; });
    if (g == golden.globals.end() || i >= got.size() || got[i].size() != g->bytes.size()) {
      report += fmt::format("program-scope variable {}: {}\n", name,
                            g == golden.globals.end() ? "not a variable the interpreter shares between work-items"
                                                      : "the simulation returned no contents of its size");
      continue;
    }
    size_t bad = 0;
    for (size_t b = 0; b < g->bytes.size(); ++b) {
      if ((!g->defined.empty() && !g->defined[b]) || g->bytes[b] == got[i][b]) continue;
      if (++bad <= maxReported)
        report += fmt::format("program-scope variable {}: byte {}: expected {:02x}, got {:02x}\n", name, b,
                              g->bytes[b], got[i][b]);
    }
    if (bad > maxReported) report += fmt::format("program-scope variable {}: {} bytes differ in total\n", name, bad);
  }
  return report;
}

} // namespace spvhls::sim
