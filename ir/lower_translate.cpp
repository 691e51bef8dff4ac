// Translation of the working copy into the HLS IR CFG: the kernel interface, blocks, memories
// (pointer provenance), phis, terminators and loop controls. Instructions are in lower_values.cpp.
#include <algorithm>
#include <bit>

#include <fmt/format.h>

#include "frontend/grammar.h"
#include "ir/lower_translate.h"

namespace spvhls::ir::lower {

namespace sc = spirv::spv::StorageClass;
namespace deco = spirv::spv::Decoration;
using K = spirv::Type::Kind;

Translated translate(Context& c, const LFunc& f, uint64_t onChipBudget) {
  return Translator(c, f, onChipBudget).run();
}

Translated Translator::run() {
  k_.name = c_.entry.name;
  k_.loc = c_.locOf(c_.entry.inst);
  setupArgs();
  setupBlocks();
  setupFunctions();
  computeMemories();
  encodeInitialPointers();
  for (uint32_t fi : rpo_) translateBlock(fi);
  fillPhis();
  storeWrittenInitialisers();
  placeMemories();
  for (auto& m : k_.memories)
    if (m.elemBytes == 0) m.elemBytes = 4;
  Translated out;
  collectControls(out);
  out.kernel = std::move(k_);
  return out;
}

void Translator::setupArgs() {
  const auto& params = c_.entryFunc.params;
  if (c_.taskBody) {
    const LInst at{SpvOp::OpFunction, 0, 0, {}, {}, c_.entryFunc.defInst};
    k_.result = taskValueType(c_.entryFunc.resultType, at, "the result of task function " + c_.entry.name);
  }
  for (uint32_t i = 0; i < params.size(); ++i) {
    Id p = params[i];
    const uint32_t defIdx = c_.mv.def.count(p) ? c_.mv.def.at(p) : c_.entryFunc.defInst;
    const std::string construct = fmt::format("kernel argument {}", c_.ref(p));
    KernelArg arg;
    arg.name = c_.hasName(p) ? c_.nameOf(p) : fmt::format("arg{}", i);
    const Id typeId = c_.typeOf(p);
    const spirv::Type& t = c_.type(typeId);
    if (t.kind == K::Pointer) {
      if (c_.mv.hasDecoration(p, deco::FuncParamAttr) && t.storageClass == sc::Function)
        c_.fail(defIdx, construct, "struct arguments passed by value are not supported yet");
      if (t.storageClass != sc::CrossWorkgroup && t.storageClass != sc::UniformConstant)
        c_.fail(defIdx, construct,
                fmt::format("pointer arguments of storage class {} are not supported yet; expected a "
                            "global (CrossWorkgroup) or constant (UniformConstant) buffer",
                            spirv::grammar::enumName(spirv::OperandKind::StorageClass, t.storageClass)));
      Memory m;
      m.kind = Memory::Kind::Argument;
      m.name = arg.name;
      m.argIndex = i;
      m.elemBytes = 0;
      arg.isPointer = true;
      arg.memory = newMemory(std::move(m));
      memOf_[p] = single(arg.memory);
    } else if (c_.taskBody && (t.kind == K::Bool || t.kind == K::Struct)) {
      arg.type = Type::bits(widthOf(typeId, LInst{SpvOp::OpFunctionParameter, 0, 0, {}, {}, defIdx}));
    } else if (t.kind == K::Int || t.kind == K::Float) {
      if (t.width == 0 || t.width > 64)
        c_.fail(defIdx, construct, fmt::format("{}-bit arguments are not supported", t.width));
      arg.type = Type::bits(t.width);
    } else {
      c_.fail(defIdx, construct,
              fmt::format("arguments of type {} are not supported yet; expected an integer or a "
                          "pointer to a global buffer", c_.typeName(typeId)));
    }
    argOf_[p] = i;
    k_.args.push_back(std::move(arg));
  }
}

void Translator::setupBlocks() {
  std::unordered_map<Id, uint32_t> index;
  for (uint32_t i = 0; i < f_.blocks.size(); ++i) index[f_.blocks[i].label] = i;
  Succs succ(f_.blocks.size());
  for (uint32_t i = 0; i < f_.blocks.size(); ++i)
    for (Id s : successorLabels(f_.blocks[i])) succ[i].push_back(index.at(s));
  // The kernel's blocks, then each shared function's, each part in reverse post-order.
  const std::vector<uint32_t> roots = lfuncRoots(f_);
  rpo_.clear();
  for (size_t r = 0; r < roots.size(); ++r)
    for (uint32_t fi : reversePostOrder(succ, roots[r])) {
      currentFunction_ = static_cast<int>(r) - 1;
      const LBlock& lb = f_.blocks[fi];
      std::string name = c_.nameOf(lb.label);
      if (name.starts_with('%')) // unnamed: clang's entry-point wrapper, synthesized blocks
        name = k_.blocks.empty() ? "entry"
               : fi == roots[r]  ? c_.nameOf(f_.shared[r - 1].function)
                                 : "L" + name.substr(1);
      const uint32_t b = newBlock(name);
      blockOf_[lb.label] = b;
      rpo_.push_back(fi);
    }
  // The prologue: the entry and the chain of blocks it falls into unconditionally, each with a single
  // predecessor. They run exactly once, before anything else (variable initialisers may become
  // memory contents there).
  std::vector<uint32_t> predCount(f_.blocks.size(), 0);
  for (const auto& s : succ)
    for (uint32_t t : s) ++predCount[t];
  for (uint32_t fi = 0;;) {
    prologue_[blockOf_.at(f_.blocks[fi].label)] = 1;
    const LInst& t = f_.blocks[fi].insts.back();
    if (t.op != SpvOp::OpBranch) break;
    uint32_t next = index.at(t.ids[0]);
    if (predCount[next] != 1 || prologue_[blockOf_.at(t.ids[0])]) break;
    fi = next;
  }
}

// Each shared function: its Function entry and its parameters, as Param ops in its entry block.
void Translator::setupFunctions() {
  for (const LShared& sh : f_.shared) {
    const spirv::Function& sf = *c_.mv.findFunction(sh.function);
    const LInst at{SpvOp::OpFunction, 0, 0, {}, {}, sf.defInst};
    Function fn;
    fn.name = c_.nameOf(sh.function);
    fn.loc = c_.locOf(sf.defInst);
    fn.entry = blockOf_.at(sh.entry);
    if (c_.type(sh.resultType).kind != K::Void) fn.result = Type::bits(widthOf(sh.resultType, at));
    b_.block = fn.entry;
    for (uint32_t i = 0; i < sh.params.size(); ++i) {
      Op op;
      op.kind = OpKind::Param;
      op.index = i;
      op.type = Type::bits(widthOf(c_.typeOf(sh.params[i]), at));
      op.spirvId = sh.params[i];
      op.name = c_.hasName(sh.params[i]) ? c_.nameOf(sh.params[i]) : "";
      op.loc = fn.loc;
      fn.params.push_back(op.type);
      vals_[sh.params[i]] = b_.emit(std::move(op));
    }
    functionIndex_[sh.function] = static_cast<uint32_t>(k_.functions.size());
    k_.functions.push_back(std::move(fn));
  }
}

uint32_t Translator::newBlock(const std::string& name) {
  BasicBlock bb;
  bb.name = name;
  if (int n = blockNames_[name]++; n > 0) bb.name += fmt::format(".{}", n);
  k_.blocks.push_back(std::move(bb));
  prologue_.push_back(0);
  functionOf_.push_back(currentFunction_);
  return static_cast<uint32_t>(k_.blocks.size() - 1);
}

uint32_t Translator::newMemory(Memory m) {
  k_.memories.push_back(std::move(m));
  touched_.push_back(0);
  readOnly_.push_back(0);
  return static_cast<uint32_t>(k_.memories.size() - 1);
}

void Translator::checkSize(const Memory& m, const LInst& at) {
  if (m.sizeBytes > kMaxVariableBytes)
    c_.failAt(at,
              fmt::format("{} ({} bytes) is larger than the {} bytes spvhls builds as one array (on chip or "
                          "external); pass a buffer in global memory (a kernel argument) instead",
                          m.name, m.sizeBytes, kMaxVariableBytes));
}

void Translator::placeMemories() {
  k_.onChipBudget = onChipBudget_;
  std::vector<uint32_t> order;
  for (uint32_t m = 0; m < k_.memories.size(); ++m)
    if (k_.memories[m].onChip() && touched_[m]) order.push_back(m);
  std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    return k_.memories[a].sizeBytes < k_.memories[b].sizeBytes;
  });
  uint64_t used = 0;
  for (uint32_t m : order) {
    Memory& mem = k_.memories[m];
    if (mem.sizeBytes <= onChipBudget_ - used) {
      used += mem.sizeBytes;
      continue;
    }
    mem.kind = Memory::Kind::External;
    k_.diagnostics.push_back(Diagnostic{
        Diagnostic::Severity::Note, k_.loc, "array " + mem.name,
        fmt::format("its {} bytes do not fit the on-chip budget ({} of {} bytes left, --on-chip-budget); "
                    "it becomes an external memory, a memory port whose buffer the host loads with its "
                    "initial image",
                    mem.sizeBytes, onChipBudget_ - used, onChipBudget_)});
  }
}

uint32_t Translator::localVariableMemory(const LInst& var) {
  auto it = varMemory_.find(var.result);
  if (it != varMemory_.end()) return it->second;
  if (var.lits[0] != sc::Function)
    c_.failAt(var, fmt::format("variables of storage class {} inside functions are not supported yet",
                               spirv::grammar::enumName(spirv::OperandKind::StorageClass,
                                                        static_cast<uint32_t>(var.lits[0]))));
  Memory m;
  m.kind = Memory::Kind::Private;
  m.name = c_.nameOf(var.result);
  m.sizeBytes = c_.mv.sizeOf(c_.pointeeOf(var.result));
  m.elemBytes = 0;
  checkSize(m, var);
  uint32_t idx = newMemory(std::move(m));
  varMemory_[var.result] = idx;
  return idx;
}

uint32_t Translator::moduleVariableMemory(Id var, const LInst& at) {
  auto it = varMemory_.find(var);
  if (it != varMemory_.end()) return it->second;
  const spirv::Instruction* d = c_.mv.defInst(var);
  const uint32_t storage = d->operands.at(0);
  if (auto it = c_.mv.decorations.find(var); it != c_.mv.decorations.end())
    for (const auto& dec : it->second)
      if (dec.kind == deco::BuiltIn && !dec.literals.empty())
        c_.failAt(at, fmt::format("uses built-in {} other than by loading it (or a component of it); that is "
                                  "not supported in hardware",
                                  spirv::grammar::enumName(spirv::OperandKind::BuiltIn, dec.literals[0])));
  // Module-scope variables become on-chip memories. Global-address-space ones keep their contents from
  // run to run (their initializer is configured once); constants are read-only; local (Workgroup) and
  // private ones start from their initializer at every run (storeWrittenInitialisers), or are
  // undefined without one.
  const bool global = storage == sc::CrossWorkgroup, constant = storage == sc::UniformConstant;
  if (!global && !constant && storage != sc::Workgroup && storage != sc::Private)
    c_.failAt(at, fmt::format("uses module-scope variable {} of storage class {}; expected CrossWorkgroup, "
                              "UniformConstant, Workgroup or Private",
                              c_.ref(var), spirv::grammar::enumName(spirv::OperandKind::StorageClass, storage)));
  Memory m;
  m.kind = storage == sc::Workgroup ? Memory::Kind::WorkGroup : Memory::Kind::ProgramScope;
  m.name = c_.nameOf(var);
  m.spirvVar = var;
  m.persistent = global;
  const Id pointee = c_.pointeeOf(var);
  m.sizeBytes = c_.mv.sizeOf(pointee);
  checkSize(m, at); // before its contents are built
  m.elemBytes = 0;
  // Known before its contents are built: an initializer may point at the variable itself.
  const uint32_t idx = newMemory(std::move(m));
  readOnly_[idx] = constant;
  varMemory_[var] = idx;
  const bool initialised = d->operands.size() >= 2;
  if (initialised || global || constant) {
    std::vector<uint8_t> init(k_.memories[idx].sizeBytes, 0);
    std::vector<std::pair<uint64_t, uint32_t>> targets;
    if (initialised) constantBytes(d->operands[1], pointee, init, 0, targets);
    k_.memories[idx].init = std::move(init);
    for (auto [pos, t] : targets) {
      storePointerInto(idx, single(t));
      if (t != kNull) initPointers_.push_back({idx, pos, t});
    }
  }
  return idx;
}

int Translator::intern(std::vector<uint32_t> memories) {
  auto [it, added] = setIds_.try_emplace(memories, static_cast<int>(sets_.size()));
  if (added) sets_.push_back(std::move(memories));
  return it->second;
}

int Translator::unite(int a, int b) {
  if (a < 0 || a == b) return b;
  if (b < 0) return a;
  std::vector<uint32_t> s;
  std::set_union(sets_[a].begin(), sets_[a].end(), sets_[b].begin(), sets_[b].end(), std::back_inserter(s));
  return intern(std::move(s));
}

int Translator::targetsOf(const std::vector<uint32_t>& cells) {
  int target = -1;
  for (uint32_t m : cells)
    if (auto t = cellTarget_.find(m); t != cellTarget_.end()) target = unite(target, t->second);
  return target;
}

bool Translator::storePointerInto(uint32_t cells, int target) {
  if (target < 0) return false;
  auto [it, added] = cellTarget_.try_emplace(cells, target);
  if (added) return true;
  const int u = unite(it->second, target);
  if (u == it->second) return false;
  it->second = u;
  return true;
}

Translator::Ptr Translator::inSet(const Ptr& p, int set) {
  if (!isMulti(set)) return p;
  return Ptr{0, addressOf(p), set};
}

ValueId Translator::addressOf(const Ptr& p) {
  if (p.set >= 0) return p.offset;
  return b_.binary(OpKind::Add, p.offset, b_.constant(64, uint64_t(p.memory + 1) << kTagShift));
}

Translator::Ptr Translator::pointerIn(int set, ValueId v) const {
  if (isMulti(set)) return Ptr{0, v, set};
  return Ptr{sets_[set][0], v, -1};
}

void Translator::addTag(std::vector<uint8_t>& bytes, uint64_t pos, uint32_t target) {
  if (target == kNull) return; // address 0
  uint64_t v = 0;
  for (unsigned i = 0; i < 8 && pos + i < bytes.size(); ++i) v |= uint64_t(bytes[pos + i]) << (8 * i);
  v += uint64_t(target + 1) << kTagShift;
  for (unsigned i = 0; i < 8 && pos + i < bytes.size(); ++i) bytes[pos + i] = static_cast<uint8_t>(v >> (8 * i));
}

void Translator::encodeInitialPointers() {
  for (auto [cells, pos, target] : initPointers_)
    if (isMulti(cellTarget_.at(static_cast<uint32_t>(cells))))
      addTag(k_.memories[cells].init, pos, static_cast<uint32_t>(target));
}

std::vector<uint32_t> Translator::dispatch(const Ptr& p, const std::function<void(const Ptr&)>& access) {
  std::vector<uint32_t> mems = sets_[p.set];
  if (mems.back() == kNull) mems.pop_back(); // an access through null is not built
  const ValueId offset = b_.binary(OpKind::And, p.offset, b_.constant(64, (uint64_t(1) << kTagShift) - 1));
  if (mems.size() == 1) { // one memory or null: no choice to make
    access(Ptr{mems[0], offset, -1});
    return {current_};
  }
  const ValueId tag = b_.binary(OpKind::LShr, p.offset, b_.constant(64, kTagShift));
  const uint32_t from = current_;
  const std::string base = k_.blocks[from].name;
  std::vector<uint32_t> blocks;
  for (uint32_t m : mems) blocks.push_back(newBlock(fmt::format("{}.{}", base, k_.memories[m].name)));
  const uint32_t join = newBlock(base + ".joined");
  // The last memory is the default: a tag that names none of them is an access out of bounds.
  Terminator& sw = k_.blocks[from].term;
  sw.kind = Terminator::Kind::Switch;
  sw.cond = tag;
  sw.loc = b_.loc;
  sw.targets = {blocks.back()};
  for (size_t i = 0; i + 1 < mems.size(); ++i) {
    sw.targets.push_back(blocks[i]);
    sw.caseValues.push_back(mems[i] + 1);
  }
  std::vector<uint32_t> ends;
  for (size_t i = 0; i < mems.size(); ++i) {
    current_ = b_.block = blocks[i];
    access(Ptr{mems[i], offset, -1});
    Terminator& br = k_.blocks[current_].term;
    br.kind = Terminator::Kind::Branch;
    br.targets = {join};
    br.loc = b_.loc;
    ends.push_back(current_);
  }
  current_ = b_.block = join;
  return ends;
}

int Translator::memoryOf(Id ptr, const LInst& at) {
  auto it = memOf_.find(ptr);
  if (it != memOf_.end()) return it->second;
  if (builtinPtrs_.count(ptr) || builtinOf(ptr)) return -1; // no memory: read as WorkItem ops
  if (std::find(c_.mv.globals.begin(), c_.mv.globals.end(), ptr) != c_.mv.globals.end())
    return memOf_[ptr] = single(moduleVariableMemory(ptr, at));
  if (const spirv::Constant* k = c_.mv.findConstant(ptr)) {
    if (k->isNull) return memOf_[ptr] = single(kNull);
    // A constant address (OpSpecConstantOp): the memory of the variable it is based on.
    if (k->expr && !k->expr->operands.empty() && c_.isPointerValue(k->expr->operands[0]))
      return memOf_[ptr] = memoryOf(k->expr->operands[0], at);
  }
  return -1; // undefined, null, or not computed yet
}

// Pointer provenance: which memory each pointer value points into, as a fixpoint over the function
// (phis may see their back-edge operands only in a later pass).
void Translator::computeMemories() {
  for (bool changed = true; changed;) {
    changed = false;
    auto set = [&](Id id, int m) {
      auto it = memOf_.find(id);
      if (it == memOf_.end() || it->second != m) {
        memOf_[id] = m;
        changed = true;
      }
    };
    for (uint32_t fi : rpo_)
      for (const LInst& in : f_.blocks[fi].insts) {
        // A pointer stored into memory, or copied with the memory holding it.
        // Memories whose pointers are accessed through one pointer, or copied into each other, keep
        // them in one representation: they get one target set.
        auto unify = [&](std::vector<uint32_t> cells, int target) {
          if (cells.back() == kNull) cells.pop_back(); // through null: nothing is accessed
          target = unite(target, targetsOf(cells));
          if (target >= 0)
            for (uint32_t m : cells) changed |= storePointerInto(m, target);
        };
        if (in.op == SpvOp::OpStore && c_.isPointerValue(in.ids[1]))
          if (const int cells = memoryOf(in.ids[0], in); cells >= 0) unify(sets_[cells], memoryOf(in.ids[1], in));
        if (in.op == SpvOp::OpLoad && c_.isPointerValue(in.result))
          if (const int cells = memoryOf(in.ids[0], in); cells >= 0) unify(sets_[cells], -1);
        if (in.op == SpvOp::OpCopyMemory || in.op == SpvOp::OpCopyMemorySized) {
          const int dst = memoryOf(in.ids[0], in), src = memoryOf(in.ids[1], in);
          if (dst >= 0 && src >= 0) {
            std::vector<uint32_t> both;
            std::set_union(sets_[dst].begin(), sets_[dst].end(), sets_[src].begin(), sets_[src].end(),
                           std::back_inserter(both));
            if (targetsOf(sets_[src]) >= 0) unify(both, -1);
          }
        }
        if (!in.result || !c_.isPointerValue(in.result)) continue;
        switch (in.op) {
        case SpvOp::OpVariable: {
          const uint32_t m = localVariableMemory(in);
          set(in.result, single(m));
          if (!in.ids.empty()) { // an initializer may hold pointers
            std::vector<uint8_t> bytes(k_.memories[m].sizeBytes, 0);
            std::vector<std::pair<uint64_t, uint32_t>> targets;
            constantBytes(in.ids[0], c_.pointeeOf(in.result), bytes, 0, targets);
            for (auto [pos, t] : targets) changed |= storePointerInto(m, single(t));
          }
          break;
        }
        case SpvOp::OpAccessChain: case SpvOp::OpInBoundsAccessChain: case SpvOp::OpPtrAccessChain:
        case SpvOp::OpInBoundsPtrAccessChain: case SpvOp::OpPtrCastToGeneric:
        case SpvOp::OpGenericCastToPtr: case SpvOp::OpCopyObject: case SpvOp::OpBitcast:
          if (!c_.isPointerValue(in.ids[0]))
            c_.failAt(in, "converting an integer to a pointer is not supported");
          set(in.result, memoryOf(in.ids[0], in));
          break;
        case SpvOp::OpPhi: {
          int m = -1;
          for (size_t i = 0; i < in.ids.size(); i += 2) m = unite(m, memoryOf(in.ids[i], in));
          set(in.result, m);
          break;
        }
        case SpvOp::OpSelect:
          set(in.result, unite(memoryOf(in.ids[1], in), memoryOf(in.ids[2], in)));
          break;
        case SpvOp::OpLoad: {
          // A pointer loaded from memory points where the pointers stored there point.
          const int cells = memoryOf(in.ids[0], in);
          set(in.result, cells >= 0 ? targetsOf(sets_[cells]) : -1);
          break;
        }
        case SpvOp::OpUndef:
          set(in.result, -1);
          break;
        default:
          c_.failAt(in, fmt::format("{} producing a pointer ({}) is not supported in hardware yet",
                                    spirv::grammar::opName(static_cast<uint16_t>(in.op)), c_.typeName(in.type)));
        }
      }
  }
  for (const auto& [cells, target] : cellTarget_)
    k_.memories[cells].holdsPointers = true;
}

void Translator::translateBlock(uint32_t fi) {
  const LBlock& lb = f_.blocks[fi];
  current_ = blockOf_.at(lb.label);
  currentFunction_ = functionOf_[current_];
  b_.block = current_;
  for (const LInst& in : lb.insts) {
    b_.loc = c_.locOf(in.src);
    if (in.op == SpvOp::OpPhi) {
      translatePhi(in);
      continue;
    }
    if (&in == &lb.insts.back()) translateTerminator(in);
    else if (!translateBuiltin(in) && !translateSubgroup(in) && !translateBarrier(in) &&
             !translateBlock2D(in) && !translateStruct(in) && !translateVector(in))
      translateInst(in);
  }
  exitBlockOf_[lb.label] = current_; // accesses through pointers into several memories add blocks
}

void Translator::translateTerminator(const LInst& t) {
  Terminator& term = k_.blocks[current_].term;
  term.loc = c_.locOf(t.src);
  switch (t.op) {
  case SpvOp::OpBranch:
    term.kind = Terminator::Kind::Branch;
    term.targets = {blockOf_.at(t.ids[0])};
    break;
  case SpvOp::OpBranchConditional:
    if (t.ids[1] == t.ids[2]) {
      term.kind = Terminator::Kind::Branch;
      term.targets = {blockOf_.at(t.ids[1])};
      break;
    }
    term.kind = Terminator::Kind::CondBranch;
    term.cond = valueOf(t.ids[0], t);
    term.targets = {blockOf_.at(t.ids[1]), blockOf_.at(t.ids[2])};
    break;
  case SpvOp::OpSwitch: {
    term.kind = Terminator::Kind::Switch;
    term.cond = valueOf(t.ids[0], t);
    const uint64_t mask = widthMask(k_.ops[term.cond].width());
    term.targets = {blockOf_.at(t.ids[1])};
    for (size_t i = 2; i < t.ids.size(); ++i) {
      term.targets.push_back(blockOf_.at(t.ids[i]));
      term.caseValues.push_back(t.lits[i - 2] & mask);
    }
    break;
  }
  case SpvOp::OpReturn:
    term.kind = Terminator::Kind::Return;
    break;
  case SpvOp::OpUnreachable:
    term.kind = Terminator::Kind::Unreachable;
    break;
  case SpvOp::OpReturnValue: {
    const int f = functionOf_.at(current_);
    if (f < 0 && !c_.taskBody) c_.failAt(t, "a kernel cannot return a value");
    term.kind = Terminator::Kind::Return;
    term.cond = operandOf(t.ids[0], f < 0 ? k_.result.width() : k_.functions[f].result.width(), t);
    break;
  }
  default:
    c_.failAt(t, "expected a block terminator (OpBranch, OpBranchConditional, OpSwitch, OpReturn or "
                 "OpUnreachable)");
  }
}

// An initialised private array lives in its RAM's configuration-time contents, which a write would
// change for every later run of the kernel. When the kernel writes one (and it is not a global whose
// contents persist on purpose), its initial contents are stored instead, at the start of the entry block (nothing accesses it before: contents are only
// taken from initialisers in the prologue, before the first access).
void Translator::storeWrittenInitialisers() {
  std::vector<uint8_t> written(k_.memories.size(), 0);
  for (const Op& op : k_.ops)
    if (op.kind == OpKind::Store) written[op.memory] = 1;
  std::vector<ValueId> stores; // new ops, in order: each store after its constants
  for (uint32_t m = 0; m < k_.memories.size(); ++m) {
    Memory& mem = k_.memories[m];
    if (!mem.onChip() || mem.init.empty() || mem.persistent || readOnly_[m] || !written[m]) continue;
    // Fresh constants (not the builder's shared ones, which may be defined later in the block).
    auto emit = [&](Op op) {
      op.block = 0;
      op.loc = k_.loc;
      stores.push_back(static_cast<ValueId>(k_.ops.size()));
      k_.ops.push_back(std::move(op));
      return stores.back();
    };
    for (uint64_t pos = 0; pos < mem.init.size();) {
      // No wider than the kernel's own accesses: they set the width of the RAM's words.
      const uint64_t chunk = std::bit_floor(std::min<uint64_t>(mem.elemBytes, mem.init.size() - pos));
      uint64_t v = 0;
      for (uint64_t i = 0; i < chunk; ++i) v |= static_cast<uint64_t>(mem.init[pos + i]) << (8 * i);
      const ValueId off = emit(Op{.kind = OpKind::Const, .type = Type::bits(64), .imm = pos});
      const ValueId data = emit(Op{.kind = OpKind::Const, .type = Type::bits(8 * chunk), .imm = v});
      Op st;
      st.kind = OpKind::Store;
      st.size = static_cast<uint8_t>(chunk);
      st.memory = m;
      st.operands = {off, data, kNone};
      emit(std::move(st));
      pos += chunk;
    }
    mem.init.clear();
  }
  // Every byte is stored, zeros too: a previous run may have left other values.
  auto& entry = k_.blocks[0].ops;
  entry.insert(entry.begin(), stores.begin(), stores.end());
}

void Translator::fillPhis() {
  for (const PendingPhi& p : phis_) {
    const LInst& in = *p.inst;
    std::vector<ValueId> operands;
    std::vector<uint32_t> blocks;
    for (size_t i = 0; i + 1 < in.ids.size(); i += 2) {
      const uint32_t pred = exitBlockOf_.at(in.ids[i + 1]);
      b_.block = pred;
      b_.loc = c_.locOf(in.src);
      ValueId v;
      const Id id = p.lane >= 0 ? lanesOf(in.ids[i], in).at(size_t(p.lane)) : in.ids[i];
      if (p.isPointer)
        v = memoryOf(in.ids[i], in) < 0 ? b_.undef(64)
                                        : inSet(ptrOf(in.ids[i], in), memOf_.at(in.result)).offset;
      else
        v = operandOf(id, k_.ops[p.op].width(), in);
      operands.push_back(v);
      blocks.push_back(pred);
    }
    k_.ops[p.op].operands = std::move(operands);
    k_.ops[p.op].phiBlocks = std::move(blocks);
  }
}

void Translator::collectControls(Translated& out) {
  // DependencyArrayINTEL names variables: a pointer value, or a promoted variable holding pointers.
  auto memoryFor = [&](Id id) -> std::optional<uint32_t> {
    auto it = memOf_.find(id);
    if (it != memOf_.end() && it->second >= 0) return onlyMemory(it->second);
    if (auto a = argOf_.find(id); a != argOf_.end() && k_.args[a->second].isPointer)
      return k_.args[a->second].memory;
    if (auto s = c_.promotedStores.find(id); s != c_.promotedStores.end()) {
      std::optional<uint32_t> m;
      for (Id v : s->second) {
        std::optional<uint32_t> vm;
        if (auto i = memOf_.find(v); i != memOf_.end()) vm = onlyMemory(i->second);
        if (auto a = argOf_.find(v); a != argOf_.end() && k_.args[a->second].isPointer)
          vm = k_.args[a->second].memory;
        if (!vm || (m && *m != *vm)) return std::nullopt;
        m = vm;
      }
      return m;
    }
    return std::nullopt;
  };
  for (uint32_t fi : rpo_) {
    const LBlock& lb = f_.blocks[fi];
    if (!lb.controls) continue;
    PendingControls pc = convertControls(c_, *lb.controls, lb.controlsSrc, k_, memoryFor);
    pc.block = blockOf_.at(lb.label);
    out.controls.push_back(std::move(pc));
  }
}

} // namespace spvhls::ir::lower
