// Golden interpreter: decoding SPIR-V functions, part 2 (part 1 is interp_decode.cpp). This file holds
// FunctionDecoder's values (arithmetic, conversions, composites, subgroup, block IO and OpenCL.std
// instructions) and decodeInst(), the dispatch on the opcode.
#include <fmt/format.h>

#include "frontend/grammar.h"
#include "sim/interp_block2d.h"
#include "sim/interp_decoder.h"

namespace spvhls::sim::interp {

// ---- values ----

void FunctionDecoder::componentWise(X op, Id operandType) {
  DInst d{op};
  d.dst = dst();
  d.a = val(operand(0));
  if (inst().operands.size() > 1) d.b = val(operand(1));
  d.n = componentsOf(operandType);
  d.w = widthOf(operandType);
  emit(d);
}

void FunctionDecoder::convert(X op, Id from, Id to) {
  DInst d{op};
  d.dst = dst();
  d.a = val(from);
  d.n = componentsOf(to);
  d.w = widthOf(to);
  d.w2 = widthOf(typeOfValue(from));
  emit(d);
}

bool FunctionDecoder::hasDecoration(Id id, uint32_t kind) const {
  if (auto it = mv_.decorations.find(id); it != mv_.decorations.end())
    for (const auto& dec : it->second)
      if (dec.kind == kind) return true;
  return false;
}

void FunctionDecoder::decodeFloatConvert(X op) {
  Id result = inst().resultId;
  bool saturate = false;
  uint32_t mode = 0;
  if (auto it = mv_.decorations.find(result); it != mv_.decorations.end())
    for (const auto& dec : it->second) {
      if (dec.kind == spv::Decoration::SaturatedConversion) saturate = true;
      if (dec.kind == spv::Decoration::FPRoundingMode) {
        if (dec.literals.empty() || dec.literals[0] > 3)
          fail(fmt::format("FPRoundingMode {}; expected RTE (0), RTZ (1), RTP (2) or RTN (3)",
                           dec.literals.empty() ? std::string("without a mode") : std::to_string(dec.literals[0])));
        mode = dec.literals[0] + 1;
      }
    }
  if (saturate && op != X::ConvertFToS && op != X::ConvertFToU)
    fail("SaturatedConversion on a conversion to floating point; OpenCL has no _sat conversions to float");
  convert(op, operand(0), inst().resultType);
  out_.code.back().b = saturate;
  out_.code.back().c = mode;
}

void FunctionDecoder::decodeSubgroup(X op, size_t operands) {
  Id rt = inst().resultType;
  if (inst().operands.size() != operands) fail(fmt::format("expected {} operands", operands));
  Id idx = operand(operands - 1);
  const Type& it = type(typeOfValue(idx));
  if (it.kind != Type::Kind::Int || it.width != 32) fail("the index/delta/value operand must be a 32-bit integer scalar");
  for (size_t k = 0; k + 1 < operands; ++k)
    if (typeOfValue(operand(k)) != rt) fail(fmt::format("data operand {} must have the result type", k + 1));
  DInst d{op};
  d.dst = dst();
  d.a = val(operand(0));
  d.b = val(operand(1));
  if (operands == 3) d.c = val(operand(2));
  d.n = slotCount(p_, rt, cur_);
  emit(d);
}

void FunctionDecoder::decodeGroup(X op, bool nonUniform, uint8_t arith) {
  // Execution scope, then: Predicate (All, Any); Value (AllEqual, BroadcastFirst); Value and LocalId
  // (Broadcast; Id in the non-uniform form); Operation, X [, ClusterSize] (arithmetic); nothing (Elect).
  const std::optional<int64_t> scope = constInt(operand(0));
  if (!scope) fail("the Execution scope must be a constant");
  if (nonUniform ? *scope != 3 : *scope != 2 && *scope != 3)
    fail(fmt::format("Execution scope {} is not supported; expected {}", *scope,
                     nonUniform ? "Subgroup (3)" : "Workgroup (2) or Subgroup (3)"));
  const Id rt = inst().resultType;
  DInst d{op};
  d.c = uint32_t(*scope) | (nonUniform ? kNonUniform : 0);
  d.dst = dst();
  switch (op) {
  case X::GroupElect: break;
  case X::GroupAll:
  case X::GroupAny:
    if (!isBoolScalar(typeOfValue(operand(1))) || !isBoolScalar(rt))
      fail("the Predicate and the result must be bool scalars");
    d.a = val(operand(1));
    break;
  case X::GroupAllEqual:
    if (!isBoolScalar(rt)) fail("the result must be a bool scalar");
    d.a = val(operand(1));
    d.n = slotCount(p_, typeOfValue(operand(1)), cur_);
    break;
  case X::GroupBroadcast: {
    if (typeOfValue(operand(1)) != rt) fail("the Value must have the result type");
    d.a = val(operand(1));
    d.n = slotCount(p_, rt, cur_);
    if (arith == 1) break; // BroadcastFirst: w2 = 0, from the first invocation
    const Id lt = typeOfValue(operand(2));
    const Id lc = componentsOf(lt) > 1 ? type(lt).elem : lt;
    if (nonUniform && (type(lt).kind != Type::Kind::Int)) fail("Id must be an integer scalar");
    if (type(lc).kind != Type::Kind::Int || componentsOf(lt) > 3)
      fail("LocalId must be an integer scalar or a vector of 2 or 3 integers");
    if (*scope == 3 && componentsOf(lt) != 1) fail("LocalId of a Subgroup broadcast must be a scalar");
    d.b = val(operand(2));
    d.w2 = uint8_t(componentsOf(lt));
    d.w = widthOf(lc);
    break;
  }
  default: { // arithmetic
    const uint32_t operation = operand(1); // a literal GroupOperation
    if (nonUniform && (operation == 3 || inst().operands.size() > 3))
      fail("ClusteredReduce is not supported by the interpreter yet; expected Reduce, InclusiveScan or ExclusiveScan");
    if (operation > 2)
      fail(fmt::format("GroupOperation {} is not supported; expected Reduce, InclusiveScan or ExclusiveScan",
                       operation));
    const std::string x = nonUniform ? "Value" : "X"; // the operand's name in the instruction
    if (typeOfValue(operand(2)) != rt || componentsOf(rt) != 1) fail(x + " and the result must be scalars of one type");
    const GroupArith a = GroupArith(arith);
    const Type::Kind kind = type(rt).kind;
    const bool wantsFloat =
        a == GroupArith::FAdd || a == GroupArith::FMul || a == GroupArith::FMin || a == GroupArith::FMax;
    const bool wantsBool = a == GroupArith::LogicalAnd || a == GroupArith::LogicalOr || a == GroupArith::LogicalXor;
    if (wantsFloat ? kind != Type::Kind::Float : wantsBool ? kind != Type::Kind::Bool : kind != Type::Kind::Int)
      fail(x + (wantsFloat ? " must be a floating-point scalar" : wantsBool ? " must be a bool" : " must be an integer scalar"));
    d.a = val(operand(2));
    d.b = operation;
    d.w = widthOf(rt);
    d.w2 = arith;
  }
  }
  emit(d);
}

void FunctionDecoder::decodeBlockIO(bool write) {
  Id ptr = operand(0);
  Id pt = typeOfValue(ptr);
  if (!isPointer(pt)) fail("the Ptr operand is not a pointer");
  Id elem = type(pt).elem;
  Id data = write ? typeOfValue(operand(1)) : inst().resultType;
  Id comp = componentsOf(data) > 1 ? type(data).elem : data;
  const Type& e = type(elem);
  if (e.kind != Type::Kind::Int && e.kind != Type::Kind::Float) fail("Ptr must point to an integer or float scalar");
  if (comp != elem) fail(fmt::format("the data's component type {} differs from the pointee type {}", mv_.nameOf(comp), mv_.nameOf(elem)));
  DInst d{write ? X::SgBlockWrite : X::SgBlockRead};
  if (!write) d.dst = dst();
  d.a = val(ptr);
  if (write) d.b = val(operand(1));
  d.n = componentsOf(data);
  d.w = widthOf(elem);
  d.w2 = static_cast<uint8_t>(layoutOf(p_, elem, cur_).size);
  emit(d);
}

void FunctionDecoder::move(uint32_t dstSlot, uint32_t srcSlot, uint32_t n) {
  DInst d{X::Move};
  d.dst = dstSlot;
  d.a = srcSlot;
  d.n = n;
  emit(d);
}

void FunctionDecoder::decodeBitcast() {
  Id to = inst().resultType, from = typeOfValue(operand(0));
  bool toPtr = isPointer(to), fromPtr = isPointer(from);
  if (toPtr || fromPtr) {
    if (toPtr && fromPtr) return move(dst(), val(operand(0)), 1);
    return convert(X::UConvert, operand(0), to); // pointer <-> 64-bit integer: the address bits
  }
  if (componentsOf(to) == componentsOf(from) && widthOf(to) == widthOf(from))
    return move(dst(), val(operand(0)), componentsOf(to));
  DInst d{X::Reshape};
  d.dst = dst();
  d.a = val(operand(0));
  d.n = componentsOf(to);
  d.w = widthOf(to);
  d.c = componentsOf(from);
  d.w2 = widthOf(from);
  if (d.n * d.w != d.c * d.w2) fail("bit sizes of the operand and result differ");
  emit(d);
}

std::pair<uint32_t, Id> FunctionDecoder::compositePart(Id type, size_t firstIndex) {
  uint32_t off = 0;
  for (size_t k = firstIndex; k < inst().operands.size(); ++k) {
    uint32_t idx = inst().operands[k];
    const Type& t = this->type(type);
    if (t.kind == Type::Kind::Struct) {
      if (idx >= t.members.size()) fail(fmt::format("member index {} out of range", idx));
      for (uint32_t m = 0; m < idx; ++m) off += slotCount(p_, t.members[m], cur_);
      type = t.members[idx];
    } else if (t.kind == Type::Kind::Vector || t.kind == Type::Kind::Array) {
      if (idx >= t.count) fail(fmt::format("index {} out of range for {} elements", idx, t.count));
      off += idx * slotCount(p_, t.elem, cur_);
      type = t.elem;
    } else {
      fail(fmt::format("index into non-composite type {}", mv_.nameOf(type)));
    }
  }
  return {off, type};
}

void FunctionDecoder::decodeExtInst() {
  Id set = operand(0);
  auto it = mv_.extInstImports.find(set);
  if (it == mv_.extInstImports.end() || it->second != "OpenCL.std")
    fail(fmt::format("extended instruction set {} is not supported", it == mv_.extInstImports.end() ? mv_.nameOf(set) : it->second));
  uint32_t number = operand(1);
  const auto* info = spirv::grammar::findOpenCLStd(number);
  std::string name = info ? info->name : fmt::format("#{}", number);
  Id rt = inst().resultType;
  if (number == spv::OpenCLStd::U_abs) return move(dst(), val(operand(2)), componentsOf(rt)); // |x| of unsigned x is x
  if (number == spv::OpenCLStd::Vloadn || number == spv::OpenCLStd::Vstoren) {
    // vloadn(offset, p, n) / vstoren(data, offset, p): the n elements at p + offset * n, through an
    // address computed into a scratch slot of its own.
    const bool load = number == spv::OpenCLStd::Vloadn;
    const Id vec = load ? rt : typeOfValue(operand(2)), offset = operand(load ? 2 : 3),
             ptr = operand(load ? 3 : 4);
    if (type(vec).kind != Type::Kind::Vector) fail(fmt::format("OpenCL.std {} expects a vector", name));
    if (!isPointer(typeOfValue(ptr))) fail(fmt::format("OpenCL.std {} expects a pointer operand", name));
    const uint64_t stride = objectSize(p_, type(vec).elem, cur_) * componentsOf(vec);
    DInst a{X::AccessChain};
    a.dst = zeroSlot();
    a.a = val(ptr);
    a.b = extraPos();
    a.n = 1;
    out_.extra.insert(out_.extra.end(),
                      {0, 0, val(offset), static_cast<uint32_t>(stride), widthOf(typeOfValue(offset))});
    emit(a);
    DInst d{load ? X::Load : X::Store};
    d.a = a.dst;
    if (load)
      d.dst = dst(), d.b = layoutIndexOf(p_, vec, cur_);
    else
      d.b = val(operand(2)), d.c = layoutIndexOf(p_, vec, cur_);
    emit(d);
    return;
  }
  X op;
  bool isFloat = false;
  if (openclStdOp(number, op, isFloat)) {
    Type::Kind want = isFloat ? Type::Kind::Float : Type::Kind::Int;
    if (type(componentsOf(rt) > 1 ? type(rt).elem : rt).kind != want)
      fail(fmt::format("OpenCL.std {} is only supported on {}", name, isFloat ? "floating-point values" : "integers"));
    DInst d{op};
    d.dst = dst();
    size_t nargs = inst().operands.size() - 2;
    d.a = val(operand(2));
    if (nargs > 1) d.b = val(operand(3));
    if (nargs > 2) d.c = val(operand(4));
    d.n = componentsOf(rt);
    d.w = widthOf(rt);
    d.w2 = widthOf(typeOfValue(operand(2)));
    emit(d);
    return;
  }
  fail(fmt::format("unsupported instruction OpExtInst OpenCL.std {}", name));
}

void FunctionDecoder::decodeInst() {
  const Instruction& in = inst();
  Id rt = in.resultType;
  switch (in.op()) {
  // Not executed: labels, phis (done on edges), merges and loop controls, debug info, lifetimes.
  case Op::OpLabel: case Op::OpPhi: case Op::OpLoopMerge: case Op::OpSelectionMerge: case Op::OpLoopControlINTEL:
  case Op::OpLine: case Op::OpNoLine: case Op::OpNop: case Op::OpLifetimeStart: case Op::OpLifetimeStop:
  case Op::OpUndef: case Op::OpMemoryBarrier:
    return;

  case Op::OpIAdd: return componentWise(X::IAdd, rt);
  case Op::OpISub: return componentWise(X::ISub, rt);
  case Op::OpIMul: return componentWise(X::IMul, rt);
  case Op::OpUDiv: return componentWise(X::UDiv, rt);
  case Op::OpSDiv: return componentWise(X::SDiv, rt);
  case Op::OpUMod: return componentWise(X::UMod, rt);
  case Op::OpSRem: return componentWise(X::SRem, rt);
  case Op::OpSMod: return componentWise(X::SMod, rt);
  case Op::OpSNegate: return componentWise(X::SNegate, rt);
  case Op::OpNot: return componentWise(X::Not, rt);
  case Op::OpBitwiseAnd: return componentWise(X::And, rt);
  case Op::OpBitwiseOr: return componentWise(X::Or, rt);
  case Op::OpBitwiseXor: return componentWise(X::Xor, rt);
  case Op::OpShiftLeftLogical: return componentWise(X::Shl, rt);
  case Op::OpShiftRightLogical: return componentWise(X::ShrL, rt);
  case Op::OpShiftRightArithmetic: return componentWise(X::ShrA, rt);
  case Op::OpBitCount: return convert(X::BitCount, operand(0), rt);
  case Op::OpBitReverse: return componentWise(X::BitReverse, rt);
  case Op::OpIEqual: return componentWise(X::IEq, typeOfValue(operand(0)));
  case Op::OpINotEqual: return componentWise(X::INe, typeOfValue(operand(0)));
  case Op::OpULessThan: return componentWise(X::ULt, typeOfValue(operand(0)));
  case Op::OpULessThanEqual: return componentWise(X::ULe, typeOfValue(operand(0)));
  case Op::OpUGreaterThan: return componentWise(X::UGt, typeOfValue(operand(0)));
  case Op::OpUGreaterThanEqual: return componentWise(X::UGe, typeOfValue(operand(0)));
  case Op::OpSLessThan: return componentWise(X::SLt, typeOfValue(operand(0)));
  case Op::OpSLessThanEqual: return componentWise(X::SLe, typeOfValue(operand(0)));
  case Op::OpSGreaterThan: return componentWise(X::SGt, typeOfValue(operand(0)));
  case Op::OpSGreaterThanEqual: return componentWise(X::SGe, typeOfValue(operand(0)));
  case Op::OpLogicalAnd: return componentWise(X::LAnd, rt);
  case Op::OpLogicalOr: return componentWise(X::LOr, rt);
  case Op::OpLogicalNot: return componentWise(X::LNot, rt);
  case Op::OpLogicalEqual: return componentWise(X::LEq, rt);
  case Op::OpLogicalNotEqual: return componentWise(X::LNe, rt);
  case Op::OpAny: return componentWise(X::Any, typeOfValue(operand(0)));
  case Op::OpAll: return componentWise(X::All, typeOfValue(operand(0)));
  case Op::OpUConvert:
  case Op::OpSConvert: {
    bool sat = hasDecoration(in.resultId, spv::Decoration::SaturatedConversion); // convert_<T>_sat
    bool u = in.op() == Op::OpUConvert;
    return convert(sat ? (u ? X::UConvertSat : X::SConvertSat) : (u ? X::UConvert : X::SConvert), operand(0), rt);
  }
  case Op::OpSatConvertSToU: return convert(X::SatSToU, operand(0), rt);
  case Op::OpSatConvertUToS: return convert(X::SatUToS, operand(0), rt);
  case Op::OpConvertPtrToU: return convert(X::UConvert, operand(0), rt);
  case Op::OpConvertUToPtr: return convert(X::UConvert, operand(0), rt);
  case Op::OpBitcast: return decodeBitcast();
  case Op::OpCopyObject:
  case Op::OpPtrCastToGeneric: return move(dst(), val(operand(0)), slotCount(p_, rt, cur_));
  case Op::OpGenericCastToPtr:
  case Op::OpGenericCastToPtrExplicit: {
    DInst d{X::GenericToPtr};
    d.dst = dst();
    d.a = val(operand(0));
    d.b = in.op() == Op::OpGenericCastToPtrExplicit;
    d.c = type(rt).storageClass;
    emit(d);
    return;
  }
  case Op::OpSelect: {
    Id condType = typeOfValue(operand(0));
    DInst d{isBoolScalar(condType) ? X::SelectScalar : X::SelectVector};
    d.dst = dst();
    d.a = val(operand(0));
    d.b = val(operand(1));
    d.c = val(operand(2));
    d.n = isBoolScalar(condType) ? slotCount(p_, rt, cur_) : componentsOf(condType);
    emit(d);
    return;
  }
  case Op::OpCompositeExtract: {
    auto [off, part] = compositePart(typeOfValue(operand(0)), 1);
    return move(dst(), val(operand(0)) + off, slotCount(p_, part, cur_));
  }
  case Op::OpCompositeInsert: {
    auto [off, part] = compositePart(rt, 2);
    DInst d{X::Insert};
    d.dst = dst();
    d.a = val(operand(1));
    d.c = val(operand(0));
    d.n = slotCount(p_, rt, cur_);
    d.b = extraPos();
    out_.extra.push_back(slotCount(p_, part, cur_));
    out_.extra.push_back(off);
    emit(d);
    return;
  }
  case Op::OpCompositeConstruct: {
    std::vector<uint32_t> parts;
    for (Id c : in.operands) {
      parts.push_back(val(c));
      parts.push_back(slotCount(p_, typeOfValue(c), cur_));
    }
    DInst d{X::Construct};
    d.dst = dst();
    d.b = extraPos();
    d.n = static_cast<uint32_t>(in.operands.size());
    out_.extra.insert(out_.extra.end(), parts.begin(), parts.end());
    emit(d);
    return;
  }
  case Op::OpVectorShuffle: {
    uint32_t n1 = componentsOf(typeOfValue(operand(0)));
    uint32_t a = val(operand(0)), b = val(operand(1));
    std::vector<uint32_t> src;
    for (size_t k = 2; k < in.operands.size(); ++k) {
      uint32_t c = in.operands[k];
      src.push_back(c == 0xffffffffu ? zeroSlot() : c < n1 ? a + c : b + (c - n1));
    }
    DInst d{X::Gather};
    d.dst = dst();
    d.b = extraPos();
    d.n = static_cast<uint32_t>(src.size());
    out_.extra.insert(out_.extra.end(), src.begin(), src.end());
    emit(d);
    return;
  }
  case Op::OpVectorExtractDynamic:
  case Op::OpVectorInsertDynamic: {
    bool insert = in.op() == Op::OpVectorInsertDynamic;
    DInst d{insert ? X::InsertDyn : X::ExtractDyn};
    d.dst = dst();
    d.a = val(operand(0));
    d.b = val(operand(1));
    if (insert) d.c = val(operand(2));
    d.n = componentsOf(typeOfValue(operand(0)));
    emit(d);
    return;
  }
  case Op::OpFAdd: return componentWise(X::FAdd, rt);
  case Op::OpDot:
    return componentWise(X::Dot, typeOfValue(operand(0)));
  case Op::OpFSub: return componentWise(X::FSub, rt);
  case Op::OpFMul: return componentWise(X::FMul, rt);
  case Op::OpFDiv: return componentWise(X::FDiv, rt);
  case Op::OpFRem: return componentWise(X::FRem, rt);
  case Op::OpFMod: return componentWise(X::FMod, rt);
  case Op::OpFNegate: return componentWise(X::FNegate, rt);
  case Op::OpFOrdEqual: return componentWise(X::FOrdEq, typeOfValue(operand(0)));
  case Op::OpFOrdNotEqual: return componentWise(X::FOrdNe, typeOfValue(operand(0)));
  case Op::OpFOrdLessThan: return componentWise(X::FOrdLt, typeOfValue(operand(0)));
  case Op::OpFOrdGreaterThan: return componentWise(X::FOrdGt, typeOfValue(operand(0)));
  case Op::OpFOrdLessThanEqual: return componentWise(X::FOrdLe, typeOfValue(operand(0)));
  case Op::OpFOrdGreaterThanEqual: return componentWise(X::FOrdGe, typeOfValue(operand(0)));
  case Op::OpFUnordEqual: return componentWise(X::FUnordEq, typeOfValue(operand(0)));
  case Op::OpFUnordNotEqual: return componentWise(X::FUnordNe, typeOfValue(operand(0)));
  case Op::OpFUnordLessThan: return componentWise(X::FUnordLt, typeOfValue(operand(0)));
  case Op::OpFUnordGreaterThan: return componentWise(X::FUnordGt, typeOfValue(operand(0)));
  case Op::OpFUnordLessThanEqual: return componentWise(X::FUnordLe, typeOfValue(operand(0)));
  case Op::OpFUnordGreaterThanEqual: return componentWise(X::FUnordGe, typeOfValue(operand(0)));
  case Op::OpOrdered: return componentWise(X::Ordered, typeOfValue(operand(0)));
  case Op::OpUnordered: return componentWise(X::Unordered, typeOfValue(operand(0)));
  case Op::OpIsNan: return componentWise(X::IsNan, typeOfValue(operand(0)));
  case Op::OpIsInf: return componentWise(X::IsInf, typeOfValue(operand(0)));
  case Op::OpIsFinite: return componentWise(X::IsFinite, typeOfValue(operand(0)));
  case Op::OpIsNormal: return componentWise(X::IsNormal, typeOfValue(operand(0)));
  case Op::OpSignBitSet: return componentWise(X::SignBitSet, typeOfValue(operand(0)));
  case Op::OpConvertFToS: return decodeFloatConvert(X::ConvertFToS);
  case Op::OpConvertFToU: return decodeFloatConvert(X::ConvertFToU);
  case Op::OpConvertSToF: return decodeFloatConvert(X::ConvertSToF);
  case Op::OpConvertUToF: return decodeFloatConvert(X::ConvertUToF);
  case Op::OpFConvert: return decodeFloatConvert(X::FConvert);
  case Op::OpExtInst: return decodeExtInst();

  case Op::OpVariable: return decodeVariable();
  case Op::OpLoad: return decodeLoad(operand(0), rt, false, 0);
  case Op::OpStore: return decodeLoad(operand(0), typeOfValue(operand(1)), true, operand(1));
  case Op::OpCopyMemory:
  case Op::OpCopyMemorySized: {
    DInst d{X::CopyMemory};
    d.a = val(operand(0));
    d.b = val(operand(1));
    if (in.op() == Op::OpCopyMemory) {
      d.n = static_cast<uint32_t>(layoutOf(p_, type(typeOfValue(operand(0))).elem, cur_).size);
    } else if (auto c = constInt(operand(2))) {
      if (*c < 0 || *c > UINT32_MAX) fail(fmt::format("size {} is out of range", *c));
      d.n = static_cast<uint32_t>(*c);
    } else {
      d.c = val(operand(2)) + 1;
      d.w2 = widthOf(typeOfValue(operand(2)));
    }
    emit(d);
    return;
  }
  case Op::OpAccessChain:
  case Op::OpInBoundsAccessChain: return decodeAccessChain(false);
  case Op::OpPtrAccessChain:
  case Op::OpInBoundsPtrAccessChain: return decodeAccessChain(true);
  case Op::OpAtomicLoad: return decodeAtomic(X::AtomicLoad);
  case Op::OpAtomicStore: return decodeAtomic(X::AtomicStore);
  case Op::OpAtomicExchange: return decodeAtomic(X::AtomicExchange);
  case Op::OpAtomicCompareExchange: return decodeAtomic(X::AtomicCmpXchg);
  case Op::OpAtomicIIncrement: return decodeAtomic(X::AtomicIInc);
  case Op::OpAtomicIDecrement: return decodeAtomic(X::AtomicIDec);
  case Op::OpAtomicIAdd: return decodeAtomic(X::AtomicIAdd);
  case Op::OpAtomicISub: return decodeAtomic(X::AtomicISub);
  case Op::OpAtomicSMin: return decodeAtomic(X::AtomicSMin);
  case Op::OpAtomicUMin: return decodeAtomic(X::AtomicUMin);
  case Op::OpAtomicSMax: return decodeAtomic(X::AtomicSMax);
  case Op::OpAtomicUMax: return decodeAtomic(X::AtomicUMax);
  case Op::OpAtomicAnd: return decodeAtomic(X::AtomicAnd);
  case Op::OpAtomicOr: return decodeAtomic(X::AtomicOr);
  case Op::OpAtomicXor: return decodeAtomic(X::AtomicXor);

  case Op::OpBranch: {
    DInst d{X::Branch};
    d.a = edgeTo(operand(0));
    emit(d);
    return;
  }
  case Op::OpBranchConditional: {
    DInst d{X::BranchCond};
    d.a = val(operand(0));
    d.b = edgeTo(operand(1));
    d.c = edgeTo(operand(2));
    emit(d);
    return;
  }
  case Op::OpSwitch: return decodeSwitch();
  case Op::OpReturn: emit(DInst{X::Return}); return;
  case Op::OpReturnValue: {
    DInst d{X::ReturnValue};
    d.a = val(operand(0));
    d.n = slotCount(p_, typeOfValue(operand(0)), cur_);
    emit(d);
    return;
  }
  case Op::OpFunctionCall: return decodeCall();
  case Op::OpControlBarrier: emit(DInst{X::Barrier}); return;
  case Op::OpTaskSequenceCreateINTEL: return decodeTaskSequence(X::TaskCreate);
  case Op::OpTaskSequenceAsyncINTEL: return decodeTaskSequence(X::TaskAsync);
  case Op::OpTaskSequenceGetINTEL: return decodeTaskSequence(X::TaskGet);
  case Op::OpTaskSequenceReleaseINTEL: return decodeTaskSequence(X::TaskRelease);
  case Op::OpSubgroupShuffleINTEL: return decodeSubgroup(X::SgShuffle, 2);
  case Op::OpSubgroupShuffleDownINTEL: return decodeSubgroup(X::SgShuffleDown, 3);
  case Op::OpSubgroupShuffleUpINTEL: return decodeSubgroup(X::SgShuffleUp, 3);
  case Op::OpSubgroupShuffleXorINTEL: return decodeSubgroup(X::SgShuffleXor, 2);
  case Op::OpSubgroupBlockReadINTEL: return decodeBlockIO(false);
  case Op::OpSubgroupBlockWriteINTEL: return decodeBlockIO(true);
  case Op::OpGroupAll: return decodeGroup(X::GroupAll, false);
  case Op::OpGroupAny: return decodeGroup(X::GroupAny, false);
  case Op::OpGroupBroadcast: return decodeGroup(X::GroupBroadcast, false);
  case Op::OpGroupIAdd: return decodeGroup(X::GroupArith, false, uint8_t(GroupArith::IAdd));
  case Op::OpGroupFAdd: return decodeGroup(X::GroupArith, false, uint8_t(GroupArith::FAdd));
  case Op::OpGroupFMin: return decodeGroup(X::GroupArith, false, uint8_t(GroupArith::FMin));
  case Op::OpGroupUMin: return decodeGroup(X::GroupArith, false, uint8_t(GroupArith::UMin));
  case Op::OpGroupSMin: return decodeGroup(X::GroupArith, false, uint8_t(GroupArith::SMin));
  case Op::OpGroupFMax: return decodeGroup(X::GroupArith, false, uint8_t(GroupArith::FMax));
  case Op::OpGroupUMax: return decodeGroup(X::GroupArith, false, uint8_t(GroupArith::UMax));
  case Op::OpGroupSMax: return decodeGroup(X::GroupArith, false, uint8_t(GroupArith::SMax));
  case Op::OpGroupNonUniformIAdd: return decodeGroup(X::GroupArith, true, uint8_t(GroupArith::IAdd));
  case Op::OpGroupNonUniformFAdd: return decodeGroup(X::GroupArith, true, uint8_t(GroupArith::FAdd));
  case Op::OpGroupNonUniformIMul: return decodeGroup(X::GroupArith, true, uint8_t(GroupArith::IMul));
  case Op::OpGroupNonUniformFMul: return decodeGroup(X::GroupArith, true, uint8_t(GroupArith::FMul));
  case Op::OpGroupNonUniformSMin: return decodeGroup(X::GroupArith, true, uint8_t(GroupArith::SMin));
  case Op::OpGroupNonUniformUMin: return decodeGroup(X::GroupArith, true, uint8_t(GroupArith::UMin));
  case Op::OpGroupNonUniformFMin: return decodeGroup(X::GroupArith, true, uint8_t(GroupArith::FMin));
  case Op::OpGroupNonUniformSMax: return decodeGroup(X::GroupArith, true, uint8_t(GroupArith::SMax));
  case Op::OpGroupNonUniformUMax: return decodeGroup(X::GroupArith, true, uint8_t(GroupArith::UMax));
  case Op::OpGroupNonUniformFMax: return decodeGroup(X::GroupArith, true, uint8_t(GroupArith::FMax));
  case Op::OpGroupNonUniformBitwiseAnd: return decodeGroup(X::GroupArith, true, uint8_t(GroupArith::BitwiseAnd));
  case Op::OpGroupNonUniformBitwiseOr: return decodeGroup(X::GroupArith, true, uint8_t(GroupArith::BitwiseOr));
  case Op::OpGroupNonUniformBitwiseXor: return decodeGroup(X::GroupArith, true, uint8_t(GroupArith::BitwiseXor));
  case Op::OpGroupNonUniformLogicalAnd: return decodeGroup(X::GroupArith, true, uint8_t(GroupArith::LogicalAnd));
  case Op::OpGroupNonUniformLogicalOr: return decodeGroup(X::GroupArith, true, uint8_t(GroupArith::LogicalOr));
  case Op::OpGroupNonUniformLogicalXor: return decodeGroup(X::GroupArith, true, uint8_t(GroupArith::LogicalXor));
  case Op::OpGroupNonUniformElect: return decodeGroup(X::GroupElect, true);
  case Op::OpGroupNonUniformAll: return decodeGroup(X::GroupAll, true);
  case Op::OpGroupNonUniformAny: return decodeGroup(X::GroupAny, true);
  case Op::OpGroupNonUniformAllEqual: return decodeGroup(X::GroupAllEqual, true);
  case Op::OpGroupNonUniformBroadcast: return decodeGroup(X::GroupBroadcast, true);
  case Op::OpGroupNonUniformBroadcastFirst: return decodeGroup(X::GroupBroadcast, true, 1); // 1: first
  case Op::OpUnreachable: emit(DInst{X::Unreachable}); return;
  default: break;
  }
  if (auto d = decodeBlock2D(p_, cur_, out_.extra, [this](Id v) { return val(v); })) return (void)emit(*d);
  fail(fmt::format("unsupported instruction {}", spirv::grammar::opName(in.opcode)));
}

} // namespace spvhls::sim::interp
