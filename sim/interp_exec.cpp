// Golden interpreter: executing decoded functions for one work-item.
#include "sim/interp_exec.h"

#include <bit>
#include <cstring>

#include <fmt/format.h>

#include "frontend/grammar.h"
#include "sim/interp_intmath.h"

namespace spvhls::sim::interp {

static_assert(std::endian::native == std::endian::little, "memory images are kept in host byte order");

namespace spv = spirv::spv;
namespace im = intmath;

namespace {
constexpr size_t kMaxCallDepth = 1 << 16;

std::string idName(const spirv::ModuleView& mv, Id id) {
  std::string n = mv.nameOf(id);
  return n.starts_with("%") ? n : "%" + n;
}
} // namespace

Executor::Executor(Program& p, const RunSpec& spec, const InterpOptions& opts, const NDRange& nd)
    : p_(p), spec_(spec), opts_(opts), nd_(nd) {
  shared.resize(p.sharedObjects);
  for (const BufferBinding& b : p.buffers) {
    shared[b.object].info = b.info;
    shared[b.object].bytes = spec.args[b.arg].init;
  }
  for (const GlobalVar& g : p.globals) {
    if (g.perWorkItem) continue;
    MemObject& o = shared[g.object];
    o.info = g.info;
    o.bytes = g.init;
    if (g.info.tracksInit) o.defined.assign(o.bytes.size(), 0);
  }
  blockCounts.assign(p.blockLabels.size(), 0);
  edgeCounts.assign(p.edgeLabels.size(), 0);
}

bool isSupportedBuiltIn(uint32_t builtIn) {
  namespace bi = spv::BuiltIn;
  for (uint32_t b : {bi::GlobalInvocationId, bi::LocalInvocationId, bi::WorkgroupId, bi::GlobalSize, bi::WorkgroupSize,
                     bi::EnqueuedWorkgroupSize, bi::NumWorkgroups, bi::GlobalOffset, bi::WorkDim, bi::GlobalLinearId,
                     bi::LocalInvocationIndex, bi::SubgroupId, bi::SubgroupSize, bi::SubgroupMaxSize, bi::NumSubgroups,
                     bi::NumEnqueuedSubgroups, bi::SubgroupLocalInvocationId})
    if (b == builtIn) return true;
  return false;
}

static uint64_t localLinear(const WorkItem& wi, const NDRange& nd) {
  return (wi.localId[2] * nd.localSize[1] + wi.localId[1]) * nd.localSize[0] + wi.localId[0];
}

uint64_t Executor::builtInValue(const WorkItem& wi, uint32_t builtIn, uint32_t c, uint32_t where) const {
  namespace bi = spv::BuiltIn;
  if (c >= 3) failAt(p_, where, fmt::format("built-in variable has more than 3 components"));
  if (wi.taskDepth > 0) { // a task thread: a work-group of one work-item in an ND-range of one
    switch (builtIn) {
    case bi::GlobalSize: case bi::WorkgroupSize: case bi::EnqueuedWorkgroupSize: case bi::NumWorkgroups:
    case bi::SubgroupSize: case bi::SubgroupMaxSize: return 1;
    case bi::NumSubgroups: case bi::NumEnqueuedSubgroups: case bi::WorkDim: return c == 0 ? 1 : 0;
    default: return 0;
    }
  }
  const auto& gs = nd_.globalSize;
  const auto& ls = nd_.localSize;
  switch (builtIn) {
  case bi::GlobalInvocationId: return wi.globalId[c];
  case bi::LocalInvocationId: return wi.localId[c];
  case bi::WorkgroupId: return wi.groupId[c];
  case bi::GlobalSize: return gs[c];
  case bi::WorkgroupSize:
  case bi::EnqueuedWorkgroupSize: return ls[c];
  case bi::NumWorkgroups: return gs[c] / ls[c];
  case bi::GlobalOffset: return nd_.globalOffset[c];
  case bi::WorkDim: return nd_.dims;
  case bi::GlobalLinearId: {
    uint64_t id[3];
    for (int k = 0; k < 3; ++k) id[k] = wi.globalId[k] - nd_.globalOffset[k];
    return (id[2] * gs[1] + id[1]) * gs[0] + id[0];
  }
  case bi::LocalInvocationIndex: return localLinear(wi, nd_);
  case bi::SubgroupId: return localLinear(wi, nd_) / nd_.subgroupMaxSize();
  case bi::SubgroupSize: { // the last subgroup of a work-group may be partial
    uint64_t m = nd_.subgroupMaxSize(), first = localLinear(wi, nd_) / m * m;
    return std::min(m, nd_.localLinearSize() - first);
  }
  case bi::SubgroupMaxSize: return nd_.subgroupMaxSize();
  case bi::NumSubgroups:
  case bi::NumEnqueuedSubgroups: return (nd_.localLinearSize() + nd_.subgroupMaxSize() - 1) / nd_.subgroupMaxSize();
  case bi::SubgroupLocalInvocationId: return localLinear(wi, nd_) % nd_.subgroupMaxSize();
  default: break;
  }
  failAt(p_, where, fmt::format("built-in {} is not supported by the interpreter",
                                spirv::grammar::enumName(spirv::OperandKind::BuiltIn, builtIn)));
}

const DInst& Executor::stoppedAt(const WorkItem& wi) const {
  const Frame& f = wi.frames.back();
  return p_.functions[f.fn].code[f.pc - 1];
}

void Executor::resetWorkgroupMemory() {
  for (const GlobalVar& g : p_.globals) {
    if (g.perWorkItem || g.info.storageClass != spv::StorageClass::Workgroup) continue;
    MemObject& o = shared[g.object];
    o.bytes = g.init;
    if (g.info.tracksInit) o.defined.assign(o.bytes.size(), 0);
  }
}

void Executor::start(WorkItem& wi, uint32_t fn, const std::vector<std::vector<uint64_t>>& args) {
  wi.objects.assign(p_.perWorkItemObjects, MemObject{});
  for (const GlobalVar& g : p_.globals) {
    if (!g.perWorkItem) continue;
    MemObject& o = wi.objects[g.object - p_.sharedObjects];
    o.info = g.info;
    o.bytes = g.init;
    if (g.info.tracksInit) o.defined.assign(o.bytes.size(), 0);
    if (g.builtIn == ~0u) continue;
    uint32_t where = p_.mv.def.at(g.var);
    const Layout& l = layoutOf(p_, g.pointee, where);
    for (size_t i = 0; i < l.leaves.size(); ++i) {
      uint64_t v = builtInValue(wi, g.builtIn, static_cast<uint32_t>(i), where);
      std::memcpy(o.bytes.data() + l.leaves[i].offset, &v, l.leaves[i].bytes);
    }
  }
  wi.objTop = p_.perWorkItemObjects;
  const DFunction& f = p_.functions[fn];
  wi.values.assign(f.nSlots, 0);
  std::copy(f.constInit.begin(), f.constInit.end(), wi.values.begin() + f.nLocals);
  for (size_t k = 0; k < f.params.size() && k < args.size(); ++k)
    std::copy(args[k].begin(), args[k].end(), wi.values.begin() + f.params[k].first);
  wi.liveBytes = 0;
  wi.frames.assign(1, Frame{fn, 0, 0, 0, wi.objTop, 0});
  wi.finished = false;
  ++blockCounts[f.entryBlock];
}

void Executor::fail(const DInst& in, const std::string& msg) const { failAt(p_, in.src, msg); }

std::string Executor::describe(const MemObject& o) const {
  const ObjectInfo& i = o.info;
  switch (i.kind) {
  case ObjectKind::Buffer: {
    const ArgSpec& a = spec_.args[i.arg];
    return fmt::format("argument {} '{}' (buffer of {} x {} = {} bytes)", i.arg, a.name, a.length, a.elem.name, o.bytes.size());
  }
  case ObjectKind::Global:
    return fmt::format("module-scope variable {} ({}, {} bytes)", idName(p_.mv, i.var),
                       spirv::grammar::enumName(spirv::OperandKind::StorageClass, i.storageClass), o.bytes.size());
  case ObjectKind::BuiltIn: return fmt::format("built-in variable {}", idName(p_.mv, i.var));
  case ObjectKind::Variable: return fmt::format("variable {} ({} bytes)", idName(p_.mv, i.var), o.bytes.size());
  case ObjectKind::Null: break;
  }
  return "null";
}

MemObject* Executor::objectAt(WorkItem& wi, uint64_t addr) {
  uint64_t idx = addressObject(addr);
  if (idx == 0) return nullptr;
  if (idx < p_.sharedObjects) return &shared[idx];
  uint64_t k = idx - p_.sharedObjects;
  if (k >= p_.perWorkItemObjects) {
    if (k < p_.perWorkItemObjects + wi.objBase) return nullptr; // a calling invocation's (objectOwnedElsewhere)
    k -= wi.objBase;
  }
  return k < wi.objTop ? &wi.objects[k] : nullptr;
}

MemObject& Executor::access(WorkItem& wi, uint64_t addr, uint64_t size, const DInst& in, const char* what, bool write) {
  MemObject* o = objectAt(wi, addr);
  const int64_t off = addressOffset(addr); // may be outside the object: pointers may leave it, accesses not
  if (!o) {
    uint64_t idx = addressObject(addr);
    if (idx == 0) fail(in, fmt::format("{} through a null pointer (byte offset {})", what, off));
    if (idx >= p_.sharedObjects + p_.perWorkItemObjects && idx < p_.sharedObjects + p_.perWorkItemObjects + wi.objBase)
      fail(in, fmt::format("{} of another invocation's Function memory: a task thread does not share Function memory "
                           "with its caller (pass the value, or a pointer to global memory)", what));
    fail(in, fmt::format("{} through a dangling pointer (to a variable of a function that has returned)", what));
  }
  if (wi.taskDepth > 0 && o->info.storageClass == spv::StorageClass::Workgroup)
    fail(in, fmt::format("{} of Workgroup memory {} in a task thread, which shares no Workgroup memory with its caller "
                         "(not supported by the interpreter)", what, describe(*o)));
  if (off < 0 || static_cast<uint64_t>(off) > o->bytes.size() || size > o->bytes.size() - static_cast<uint64_t>(off))
    fail(in, fmt::format("out-of-bounds {}: {} bytes at byte offset {} of {}", what, size, off, describe(*o)));
  if (write && o->info.readOnly) fail(in, fmt::format("{} to read-only {}", what, describe(*o)));
  return *o;
}

static bool misaligned(uint64_t off, uint32_t bytes) { return (bytes & (bytes - 1)) == 0 && (off & (bytes - 1)) != 0; }

void Executor::checkDefined(const MemObject& o, uint64_t off, uint64_t size, const DInst& in) const {
  if (!o.info.tracksInit) return;
  for (uint64_t k = 0; k < size; ++k)
    if (!o.defined[off + k])
      fail(in, fmt::format("reads uninitialised memory: byte {} of {} was never written", off + k, describe(o)));
}

void Executor::markDefined(MemObject& o, uint64_t off, uint64_t size) const {
  if (o.info.tracksInit) std::memset(o.defined.data() + off, 1, size);
}

uint32_t Executor::allocate(WorkItem& wi, const DInst& in, uint64_t size, ObjectInfo info) {
  if (p_.sharedObjects + uint64_t(wi.objBase) + wi.objTop >= uint64_t(wi.taskDepth + 1) * kTaskObjects)
    fail(in, fmt::format("more than {} live memory objects (runaway recursion?)", kTaskObjects - p_.sharedObjects));
  if (wi.liveBytes + size > opts_.maxMemoryBytes)
    fail(in, fmt::format("this variable of {} bytes would take the invocation's Function memory to {} bytes, above the "
                         "interpreter's limit of {} (InterpOptions::maxMemoryBytes; runaway recursion?)",
                         size, wi.liveBytes + size, opts_.maxMemoryBytes));
  wi.liveBytes += size;
  if (wi.objTop == wi.objects.size()) wi.objects.emplace_back();
  MemObject& o = wi.objects[wi.objTop];
  o.info = info;
  o.bytes.assign(size, 0); // reuses the capacity of a released object
  if (info.tracksInit) o.defined.assign(size, 0);
  return p_.sharedObjects + wi.objBase + wi.objTop++;
}

void Executor::copyMemory(WorkItem& wi, const DInst& in, const uint64_t* r) {
  uint64_t size = in.c ? r[in.c - 1] & widthMask(in.w2) : in.n;
  if (size == 0) return;
  MemObject& src = access(wi, r[in.b], size, in, "copy from", false);
  MemObject& dst = access(wi, r[in.a], size, in, "copy to", true);
  uint64_t so = byteOffset(r[in.b]), d = byteOffset(r[in.a]);
  // Copying never-written bytes is not a read of a value (struct copies include padding): into
  // untracked memory they arrive as the zeros a fresh variable holds.
  if (dst.info.tracksInit) {
    if (src.info.tracksInit) std::memmove(dst.defined.data() + d, src.defined.data() + so, size);
    else markDefined(dst, d, size);
  }
  std::memmove(dst.bytes.data() + d, src.bytes.data() + so, size);
}

// ByVal parameters: the callee works on its own copy of the argument's pointee, made on entry in the
// callee's invocation `to` (the caller's `from`, or a task thread) from the caller's memory.
void Executor::copyByValArguments(WorkItem& from, WorkItem& wi, const DInst& in, const DFunction& callee, uint64_t* cr) {
  for (const DFunction::ByValParam& b : callee.byVal) {
    uint64_t& arg = cr[callee.params[b.index].first];
    const uint32_t obj = allocate(wi, in, b.bytes, ObjectInfo{ObjectKind::Variable, spv::StorageClass::Function, false, true, 0, b.param});
    MemObject& copy = wi.objects[wi.objTop - 1]; // after allocate, which may move the objects
    const MemObject& src = access(from, arg, b.bytes, in, "ByVal copy of an argument from", false);
    const uint64_t so = byteOffset(arg);
    if (b.bytes) {
      std::memcpy(copy.bytes.data(), src.bytes.data() + so, b.bytes);
      // Never-written bytes (padding, unset members) stay never written in the copy.
      if (src.info.tracksInit) std::memcpy(copy.defined.data(), src.defined.data() + so, b.bytes);
      else copy.defined.assign(b.bytes, 1);
    }
    arg = makeAddress(obj, 0);
  }
}

void Executor::atomic(WorkItem& wi, const DInst& in, uint64_t* r) {
  uint64_t addr = r[in.a];
  MemObject& o = access(wi, addr, in.n, in, "atomic access", in.op != X::AtomicLoad);
  uint64_t off = byteOffset(addr);
  if (misaligned(off, in.n)) fail(in, fmt::format("misaligned atomic access: {} bytes at byte offset {} of {}", in.n, off, describe(o)));
  uint64_t m = widthMask(in.w), old = 0;
  if (in.op != X::AtomicStore) {
    checkDefined(o, off, in.n, in);
    std::memcpy(&old, o.bytes.data() + off, in.n);
    old &= m;
    r[in.dst] = old;
    if (in.op == X::AtomicLoad) return;
  }
  uint64_t v = r[in.b], nv = 0;
  switch (in.op) {
  case X::AtomicStore:
  case X::AtomicExchange: nv = v; break;
  case X::AtomicCmpXchg: nv = old == r[in.c] ? v : old; break;
  case X::AtomicIInc: nv = old + 1; break;
  case X::AtomicIDec: nv = old - 1; break;
  case X::AtomicIAdd: nv = old + v; break;
  case X::AtomicISub: nv = old - v; break;
  case X::AtomicSMin: nv = im::sMinV(old, v, in.w); break;
  case X::AtomicUMin: nv = std::min(old, v); break;
  case X::AtomicSMax: nv = im::sMaxV(old, v, in.w); break;
  case X::AtomicUMax: nv = std::max(old, v); break;
  case X::AtomicAnd: nv = old & v; break;
  case X::AtomicOr: nv = old | v; break;
  case X::AtomicXor: nv = old ^ v; break;
  default: fail(in, "internal error: not an atomic");
  }
  nv &= m;
  std::memcpy(o.bytes.data() + off, &nv, in.n);
  markDefined(o, off, in.n);
}

bool Executor::extInst(const DInst& in, uint64_t* r) const {
  const unsigned w = in.w;
  const uint64_t m = widthMask(w);
  for (uint32_t i = 0; i < in.n; ++i) {
    uint64_t a = r[in.a + i], b = r[in.b + i], c = r[in.c + i], v = 0;
    switch (in.op) {
    case X::SAbs: v = im::sAbs(a, w); break;
    case X::SAbsDiff: v = im::sAbsDiff(a, b, w); break;
    case X::UAbsDiff: v = im::uAbsDiff(a, b); break;
    case X::SAddSat: v = im::sAddSat(a, b, w); break;
    case X::UAddSat: v = im::uAddSat(a, b, w); break;
    case X::SSubSat: v = im::sSubSat(a, b, w); break;
    case X::USubSat: v = im::uSubSat(a, b); break;
    case X::SHadd: v = im::sHadd(a, b, w, 0); break;
    case X::UHadd: v = im::uHadd(a, b, 0); break;
    case X::SRhadd: v = im::sHadd(a, b, w, 1); break;
    case X::URhadd: v = im::uHadd(a, b, 1); break;
    case X::SMin: v = im::sMinV(a, b, w); break;
    case X::SMax: v = im::sMaxV(a, b, w); break;
    case X::UMin: v = std::min(a, b); break;
    case X::UMax: v = std::max(a, b); break;
    case X::SClamp:
      if (sext(b, w) > sext(c, w)) fail(in, fmt::format("s_clamp with minval {} > maxval {} is undefined", sext(b, w), sext(c, w)));
      v = im::sMinV(im::sMaxV(a, b, w), c, w);
      break;
    case X::UClamp:
      if (b > c) fail(in, fmt::format("u_clamp with minval {} > maxval {} is undefined", b, c));
      v = std::min(std::max(a, b), c);
      break;
    case X::Clz: v = im::clz(a, w); break;
    case X::Ctz: v = im::ctz(a, w); break;
    case X::Rotate: v = im::rotate(a, b, w); break;
    case X::SMulHi: v = im::sMulHi(a, b, w); break;
    case X::UMulHi: v = im::uMulHi(a, b, w); break;
    case X::SMadHi: v = im::sMulHi(a, b, w) + c; break;
    case X::UMadHi: v = im::uMulHi(a, b, w) + c; break;
    case X::SMadSat: v = im::sMadSat(a, b, c, w); break;
    case X::UMadSat: v = im::uMadSat(a, b, c, w); break;
    case X::SUpsample:
    case X::UUpsample: v = (a << in.w2) | b; break;
    case X::UConvertSat: v = std::min(a, m); break;
    case X::SConvertSat: v = static_cast<uint64_t>(std::clamp(sext(a, in.w2), im::smin(w), im::smax(w))); break;
    case X::SatSToU: v = sext(a, in.w2) < 0 ? 0 : std::min(a, m); break;
    case X::SatUToS: v = std::min(a, static_cast<uint64_t>(im::smax(w))); break;
    default: return false;
    }
    r[in.dst + i] = v & m;
  }
  return true;
}

Executor::Status Executor::run(WorkItem& wi) {
  Frame* f = &wi.frames.back();
  const DFunction* fn = &p_.functions[f->fn];
  const DInst* code = fn->code.data();
  uint64_t* r = wi.values.data() + f->base;
  uint32_t pc = f->pc;
  uint64_t count = instructions;
  const uint64_t limit = opts_.maxInstructions;

  auto checkLimit = [&](const DInst& in) {
    if (count > limit) {
      instructions = count;
      fail(in, fmt::format("exceeded the limit of {} executed instructions (the kernel may not terminate)", limit));
    }
  };
  auto takeEdge = [&](uint32_t e, const DInst& in) {
    const Edge& ed = fn->edges[e];
    if (ed.moveCount == 1) {
      const auto& mv = fn->moves[ed.moveBegin];
      r[mv.first] = r[mv.second];
    } else if (ed.moveCount > 1) { // phis read their inputs before any of them is written
      if (wi.phiTemp.size() < ed.moveCount) wi.phiTemp.resize(ed.moveCount);
      const auto* mv = fn->moves.data() + ed.moveBegin;
      for (uint32_t k = 0; k < ed.moveCount; ++k) wi.phiTemp[k] = r[mv[k].second];
      for (uint32_t k = 0; k < ed.moveCount; ++k) r[mv[k].first] = wi.phiTemp[k];
    }
    count += ed.phiCount;
    ++blockCounts[ed.block];
    ++edgeCounts[ed.id];
    pc = ed.pc;
    checkLimit(in);
  };
  auto divisor = [&](const DInst& in, uint64_t y, uint32_t i) {
    if (y == 0) fail(in, in.n > 1 ? fmt::format("integer division by zero (component {})", i) : "integer division by zero");
  };
  auto shiftAmount = [&](const DInst& in, uint64_t s) {
    if (s >= in.w) fail(in, fmt::format("shift amount {} is not less than the bit width {} (undefined in SPIR-V)", s, in.w));
    return static_cast<unsigned>(s);
  };

#define EACH for (uint32_t i = 0; i < in.n; ++i)
#define A r[in.a + i]
#define B r[in.b + i]
#define D r[in.dst + i]
  for (;;) {
    const DInst& in = code[pc++];
    ++count;
    switch (in.op) {
    case X::IAdd: EACH D = (A + B) & widthMask(in.w); break;
    case X::ISub: EACH D = (A - B) & widthMask(in.w); break;
    case X::IMul: EACH D = (A * B) & widthMask(in.w); break;
    case X::UDiv: EACH { divisor(in, B, i); D = A / B; } break;
    case X::UMod: EACH { divisor(in, B, i); D = A % B; } break;
    case X::SDiv:
    case X::SRem:
    case X::SMod:
      EACH {
        int64_t x = sext(A, in.w), y = sext(B, in.w);
        divisor(in, B, i);
        if (y == -1 && x == im::smin(in.w))
          fail(in, fmt::format("signed {} overflow: {} / -1", in.op == X::SDiv ? "division" : "remainder", x));
        int64_t q = in.op == X::SDiv ? x / y : x % y;
        if (in.op == X::SMod && q != 0 && ((q < 0) != (y < 0))) q += y; // SMod takes the divisor's sign
        D = static_cast<uint64_t>(q) & widthMask(in.w);
      }
      break;
    case X::SNegate: EACH D = (uint64_t(0) - A) & widthMask(in.w); break;
    case X::Not: EACH D = ~A & widthMask(in.w); break;
    case X::And: EACH D = A & B; break;
    case X::Or: EACH D = A | B; break;
    case X::Xor: EACH D = A ^ B; break;
    case X::Shl: EACH D = (A << shiftAmount(in, B)) & widthMask(in.w); break;
    case X::ShrL: EACH D = A >> shiftAmount(in, B); break;
    case X::ShrA: EACH D = static_cast<uint64_t>(sext(A, in.w) >> shiftAmount(in, B)) & widthMask(in.w); break;
    case X::BitCount: EACH D = static_cast<uint64_t>(std::popcount(A)) & widthMask(in.w); break;
    case X::BitReverse: EACH D = im::bitReverse(A, in.w); break;
    case X::IEq: EACH D = A == B; break;
    case X::INe: EACH D = A != B; break;
    case X::ULt: EACH D = A < B; break;
    case X::ULe: EACH D = A <= B; break;
    case X::UGt: EACH D = A > B; break;
    case X::UGe: EACH D = A >= B; break;
    case X::SLt: EACH D = sext(A, in.w) < sext(B, in.w); break;
    case X::SLe: EACH D = sext(A, in.w) <= sext(B, in.w); break;
    case X::SGt: EACH D = sext(A, in.w) > sext(B, in.w); break;
    case X::SGe: EACH D = sext(A, in.w) >= sext(B, in.w); break;
    case X::LAnd: EACH D = A & B; break;
    case X::LOr: EACH D = A | B; break;
    case X::LNot: EACH D = A ^ 1; break;
    case X::LEq: EACH D = A == B; break;
    case X::LNe: EACH D = A != B; break;
    case X::UConvert: EACH D = A & widthMask(in.w); break;
    case X::SConvert: EACH D = static_cast<uint64_t>(sext(A, in.w2)) & widthMask(in.w); break;
    case X::SelectScalar: {
      uint32_t from = r[in.a] ? in.b : in.c;
      EACH D = r[from + i];
      break;
    }
    case X::SelectVector: EACH D = A ? B : r[in.c + i]; break;
    case X::Any: { uint64_t v = 0; EACH v |= A; r[in.dst] = v; break; }
    case X::All: { uint64_t v = 1; EACH v &= A; r[in.dst] = v; break; }
    case X::Move: EACH D = A; break;
    case X::Reshape: { // little-endian concatenation of the operand's components, re-split
      unsigned __int128 acc = 0;
      unsigned bits = 0;
      uint32_t out = 0;
      for (uint32_t k = 0; k < in.c; ++k) {
        acc |= static_cast<unsigned __int128>(r[in.a + k]) << bits;
        bits += in.w2;
        for (; bits >= in.w; bits -= in.w, acc >>= in.w) r[in.dst + out++] = static_cast<uint64_t>(acc) & widthMask(in.w);
      }
      break;
    }
    case X::Insert: {
      EACH D = A;
      const uint32_t* x = fn->extra.data() + in.b;
      for (uint32_t k = 0; k < x[0]; ++k) r[in.dst + x[1] + k] = r[in.c + k];
      break;
    }
    case X::Construct: {
      const uint32_t* x = fn->extra.data() + in.b;
      uint32_t pos = in.dst;
      for (uint32_t k = 0; k < in.n; ++k)
        for (uint32_t j = 0; j < x[2 * k + 1]; ++j) r[pos++] = r[x[2 * k] + j];
      break;
    }
    case X::Gather: {
      const uint32_t* x = fn->extra.data() + in.b;
      EACH D = r[x[i]];
      break;
    }
    case X::ExtractDyn:
    case X::InsertDyn: {
      uint64_t idx = r[in.op == X::ExtractDyn ? in.b : in.c];
      if (idx >= in.n) fail(in, fmt::format("component index {} is out of range for a vector of {}", idx, in.n));
      if (in.op == X::ExtractDyn) {
        r[in.dst] = r[in.a + idx];
      } else {
        EACH D = A;
        r[in.dst + idx] = r[in.b];
      }
      break;
    }

    case X::Variable: {
      ObjectInfo info{ObjectKind::Variable, spv::StorageClass::Function, false, in.b == 0, 0,
                      p_.mv.inst(in.src).resultId};
      uint32_t obj = allocate(wi, in, in.n, info);
      if (in.b) wi.objects[wi.objTop - 1].bytes = p_.images[in.b - 1]; // the object just allocated
      r[in.dst] = makeAddress(obj, 0);
      break;
    }
    case X::LoadScalar: {
      uint64_t addr = r[in.a], v = 0;
      MemObject& o = access(wi, addr, in.n, in, "load", false);
      uint64_t off = byteOffset(addr);
      if (misaligned(off, in.n)) fail(in, fmt::format("misaligned load: {} bytes at byte offset {} of {}", in.n, off, describe(o)));
      checkDefined(o, off, in.n, in);
      std::memcpy(&v, o.bytes.data() + off, in.n);
      r[in.dst] = v & widthMask(in.w);
      break;
    }
    case X::StoreScalar: {
      uint64_t addr = r[in.a], v = r[in.b];
      MemObject& o = access(wi, addr, in.n, in, "store", true);
      uint64_t off = byteOffset(addr);
      if (misaligned(off, in.n)) fail(in, fmt::format("misaligned store: {} bytes at byte offset {} of {}", in.n, off, describe(o)));
      std::memcpy(o.bytes.data() + off, &v, in.n);
      markDefined(o, off, in.n);
      break;
    }
    case X::Load:
    case X::Store: {
      bool store = in.op == X::Store;
      const Layout& l = p_.layouts[store ? in.c : in.b];
      uint64_t addr = r[in.a];
      MemObject& o = access(wi, addr, l.size, in, store ? "store" : "load", store);
      uint64_t off = byteOffset(addr);
      uint64_t* slots = store ? r + in.b : r + in.dst;
      for (size_t k = 0; k < l.leaves.size(); ++k) {
        const Leaf& leaf = l.leaves[k];
        uint64_t at = off + leaf.offset;
        if (misaligned(at, leaf.bytes))
          fail(in, fmt::format("misaligned {}: {} bytes at byte offset {} of {}", store ? "store" : "load", leaf.bytes, at, describe(o)));
        if (store) {
          std::memcpy(o.bytes.data() + at, &slots[k], leaf.bytes);
          markDefined(o, at, leaf.bytes);
        } else {
          uint64_t v = 0;
          checkDefined(o, at, leaf.bytes, in);
          std::memcpy(&v, o.bytes.data() + at, leaf.bytes);
          slots[k] = v & widthMask(leaf.width);
        }
      }
      break;
    }
    case X::CopyMemory: copyMemory(wi, in, r); break;
    case X::AccessChain: {
      uint64_t addr = r[in.a];
      const uint32_t* x = fn->extra.data() + in.b;
      uint64_t delta = x[0] | uint64_t(x[1]) << 32; // two's complement sum of offsets
      for (uint32_t k = 0; k < in.n; ++k, x += 3)
        delta += static_cast<uint64_t>(sext(r[x[2]], static_cast<unsigned>(x[4]))) * x[3];
      if (addressObject(addr) == 0) fail(in, "pointer arithmetic on a null pointer");
      // The result may point outside its object (one past the end, before the start): only an
      // access there is an error. Offsets beyond the encoding's range are refused here.
      if (!movePointer(addr, delta, r[in.dst])) {
        MemObject* o = objectAt(wi, addr);
        fail(in, fmt::format("pointer arithmetic leaves {} by more than the interpreter's pointers hold: byte offset {} "
                             "moved by {} bytes (offsets must stay within 2^39 bytes of the object)",
                             o ? describe(*o) : "its memory object", addressOffset(addr), static_cast<int64_t>(delta)));
      }
      break;
    }
    case X::GenericToPtr: {
      uint64_t addr = r[in.a];
      r[in.dst] = addr;
      if (addr == 0) break;
      MemObject* o = objectAt(wi, addr);
      if (!o) fail(in, "cast of a dangling generic pointer");
      // The explicit cast gives null for another storage class. The plain one keeps the address, as
      // a flat address space does: clang casts a generic pointer to the other operand's class to
      // compare them (`&local == p`), which C defines even when they point to different objects.
      if (o->info.storageClass != in.c && in.b) r[in.dst] = 0;
      break;
    }

    case X::Branch: takeEdge(in.a, in); break;
    case X::BranchCond: takeEdge(r[in.a] ? in.b : in.c, in); break;
    case X::Switch: {
      uint64_t v = r[in.a];
      const uint32_t* x = fn->extra.data() + in.b;
      uint32_t e = in.c;
      for (uint32_t k = 0; k < in.n; ++k, x += 3)
        if ((x[0] | uint64_t(x[1]) << 32) == v) { e = x[2]; break; }
      takeEdge(e, in);
      break;
    }
    case X::Call: {
      const DFunction& callee = p_.functions[in.a];
      if (wi.frames.size() >= kMaxCallDepth) fail(in, fmt::format("call depth exceeds {} (runaway recursion?)", kMaxCallDepth));
      f->pc = pc;
      size_t base = wi.values.size();
      wi.values.resize(base + callee.nSlots);
      r = wi.values.data() + f->base;
      uint64_t* cr = wi.values.data() + base;
      std::copy(callee.constInit.begin(), callee.constInit.end(), cr + callee.nLocals);
      const uint32_t* args = fn->extra.data() + in.b;
      for (uint32_t k = 0; k < in.n; ++k)
        for (uint32_t j = 0; j < callee.params[k].second; ++j) cr[callee.params[k].first + j] = r[args[k] + j];
      wi.frames.push_back(Frame{in.a, 0, base, in.dst, wi.objTop, wi.liveBytes});
      if (!callee.byVal.empty()) copyByValArguments(wi, wi, in, callee, cr); // the copies die on return
      f = &wi.frames.back();
      fn = &callee;
      code = fn->code.data();
      r = cr;
      pc = 0;
      ++blockCounts[callee.entryBlock];
      checkLimit(in);
      break;
    }
    case X::Return:
    case X::ReturnValue: {
      if (in.op == X::ReturnValue && wi.frames.size() > 1) {
        uint64_t* cr = wi.values.data() + wi.frames[wi.frames.size() - 2].base + f->retDst;
        for (uint32_t i = 0; i < in.n; ++i) cr[i] = r[in.a + i];
      } else if (in.op == X::ReturnValue && wi.taskDepth > 0) {
        wi.result.assign(r + in.a, r + in.a + in.n);
      }
      wi.objTop = f->objMark;
      wi.liveBytes = f->bytesMark;
      wi.values.resize(f->base);
      wi.frames.pop_back();
      if (wi.frames.empty()) {
        wi.finished = true;
        instructions = count;
        return Status::Finished;
      }
      f = &wi.frames.back();
      fn = &p_.functions[f->fn];
      code = fn->code.data();
      r = wi.values.data() + f->base;
      pc = f->pc;
      break;
    }
    case X::TaskCreate: taskCreate(in, r); break;
    case X::TaskAsync: // runs the task thread, which counts its instructions too
      f->pc = pc;
      instructions = count;
      taskAsync(wi, in, r);
      count = instructions;
      checkLimit(in);
      break;
    case X::TaskGet: taskGet(in, r); break;
    case X::TaskRelease: taskRelease(in, r); break;
    case X::Barrier:
      f->pc = pc;
      instructions = count;
      return Status::Barrier;
    case X::SgShuffle: case X::SgShuffleDown: case X::SgShuffleUp: case X::SgShuffleXor: case X::SgBlockRead:
    case X::SgBlockWrite: case X::Block2DLoad: case X::Block2DLoadTranspose: case X::Block2DLoadTransform:
    case X::Block2DPrefetch: case X::Block2DStore:
      f->pc = pc;
      instructions = count;
      return Status::Subgroup;
    case X::GroupAll: case X::GroupAny: case X::GroupBroadcast: case X::GroupArith: case X::GroupElect:
    case X::GroupAllEqual: // isGroupOp
      f->pc = pc;
      instructions = count;
      return atSubgroupScope(in) ? Status::Subgroup : Status::Barrier;
    case X::Unreachable: fail(in, "OpUnreachable was executed");
    case X::AtomicLoad: case X::AtomicStore: case X::AtomicExchange: case X::AtomicCmpXchg: case X::AtomicIInc:
    case X::AtomicIDec: case X::AtomicIAdd: case X::AtomicISub: case X::AtomicSMin: case X::AtomicUMin:
    case X::AtomicSMax: case X::AtomicUMax: case X::AtomicAnd: case X::AtomicOr: case X::AtomicXor:
      atomic(wi, in, r);
      break;
    default:
      if (!extInst(in, r) && !floatInst(in, r)) fail(in, "internal error: no implementation for a decoded operation");
      break;
    }
  }
#undef EACH
#undef A
#undef B
#undef D
}

} // namespace spvhls::sim::interp
