#include "frontend/operand_walk.h"

#include <fmt/format.h>

#include <algorithm>

namespace spvhls::spirv::detail {

using grammar::KindCategory;
using grammar::OperandDesc;
using grammar::Quantifier;

// ---------------------------------------------------------------------------------------------
// TypeTracker

void TypeTracker::note(const Instruction& inst) {
  switch (inst.op()) {
  case Op::OpTypeInt:
    if (inst.operands.size() >= 2) numberTypes_[inst.resultId] = {inst.operands[0], false, inst.operands[1] != 0};
    break;
  case Op::OpTypeFloat:
    if (!inst.operands.empty()) numberTypes_[inst.resultId] = {inst.operands[0], true, true};
    break;
  case Op::OpExtInstImport: {
    std::string name;
    size_t used = 0;
    if (decodeString(inst.operands, name, used)) extSets_[inst.resultId] = name;
    break;
  }
  default:
    break;
  }
  if (inst.resultId && inst.resultType) {
    if (inst.resultId < kFlatIds) {
      if (inst.resultId >= valueTypesFlat_.size()) {
        size_t grown = std::max<size_t>(inst.resultId + 1, valueTypesFlat_.size() * 2);
        valueTypesFlat_.resize(std::min<size_t>(kFlatIds, grown));
      }
      valueTypesFlat_[inst.resultId] = inst.resultType;
    } else {
      valueTypes_[inst.resultId] = inst.resultType;
    }
  }
}

std::optional<NumberType> TypeTracker::numberType(Id typeId) const {
  auto it = numberTypes_.find(typeId);
  if (it == numberTypes_.end()) return std::nullopt;
  return it->second;
}

std::optional<NumberType> TypeTracker::numberTypeOfValue(Id valueId) const {
  if (valueId < kFlatIds) return valueId < valueTypesFlat_.size() ? numberType(valueTypesFlat_[valueId]) : std::nullopt;
  auto it = valueTypes_.find(valueId);
  if (it == valueTypes_.end()) return std::nullopt;
  return numberType(it->second);
}

const std::string* TypeTracker::extSetName(Id setId) const {
  auto it = extSets_.find(setId);
  return it == extSets_.end() ? nullptr : &it->second;
}

// ---------------------------------------------------------------------------------------------
// The walk

namespace {

const OperandDesc kIdRefDesc{OperandKind::IdRef, Quantifier::One, ""};

class Walker {
public:
  Walker(const grammar::InstructionInfo& info, OperandCursor& cur, const TypeTracker& types)
      : info_(info), cur_(cur), types_(types) {}

  void run() {
    walkList(grammar::operandsOf(info_), false);
    if (!cur_.atEnd()) cur_.fail(fmt::format("more operands than {} takes", info_.name));
  }

private:
  // Returns true when the rest of the instruction was consumed (OpExtInst, OpSpecConstantOp).
  bool walkList(std::span<const OperandDesc> list, bool skipResults) {
    for (const auto& d : list) {
      if (skipResults && (d.kind == OperandKind::IdResultType || d.kind == OperandKind::IdResult)) continue;
      switch (d.quantifier) {
      case Quantifier::One:
        // The text form has the result id before the opcode: the cursor supplies it without a token.
        if (d.kind != OperandKind::IdResult) require(d);
        if (walkOne(d)) return true;
        break;
      case Quantifier::Optional:
        if (cur_.atEnd()) break;
        if (walkOne(d)) return true;
        break;
      case Quantifier::Variadic:
        while (!cur_.atEnd())
          if (walkOne(d)) return true;
        break;
      case Quantifier::Counted: {
        uint32_t n = lastLiteral_;
        for (uint32_t i = 0; i < n; ++i) {
          require(d);
          walkOne(d);
        }
        break;
      }
      }
    }
    return false;
  }

  void require(const OperandDesc& d) {
    if (cur_.atEnd())
      cur_.fail(fmt::format("missing operand {}({}); {} needs more operands", *d.name ? fmt::format("'{}' ", d.name) : "",
                            grammar::kindInfo(d.kind).name, info_.name));
  }

  bool walkOne(const OperandDesc& d) {
    const auto& kind = grammar::kindInfo(d.kind);
    switch (kind.category) {
    case KindCategory::Id: {
      Id v = cur_.id(d);
      if (d.kind == OperandKind::IdResultType) resultType_ = v;
      if (d.kind == OperandKind::IdRef) {
        if (!firstRef_) firstRef_ = v;
        lastRef_ = v;
      }
      return false;
    }
    case KindCategory::Literal:
      return walkLiteral(d);
    case KindCategory::Composite:
      walkPair(d, kind);
      return false;
    case KindCategory::ValueEnum: {
      uint32_t v = cur_.enumValue(d, false);
      const auto* e = grammar::findEnumerant(d.kind, v);
      if (!e) cur_.fail(fmt::format("unknown {} value {}", kind.name, v));
      walkList(grammar::paramsOf(*e), false);
      return false;
    }
    case KindCategory::BitEnum: {
      uint32_t mask = cur_.enumValue(d, true);
      for (uint32_t bit = 0; bit < 32; ++bit) {
        uint32_t b = 1u << bit;
        if (!(mask & b)) continue;
        const auto* e = grammar::findEnumerant(d.kind, b);
        if (!e) cur_.fail(fmt::format("unknown {} bit {:#x}", kind.name, b));
        walkList(grammar::paramsOf(*e), false);
      }
      return false;
    }
    }
    return false;
  }

  bool walkLiteral(const OperandDesc& d) {
    switch (d.kind) {
    case OperandKind::LiteralInteger:
      lastLiteral_ = cur_.literal(d);
      return false;
    case OperandKind::LiteralInteger64:
      cur_.literal64(d);
      return false;
    case OperandKind::LiteralString:
      cur_.string(d);
      return false;
    case OperandKind::LiteralContextDependentNumber: {
      auto t = types_.numberType(resultType_);
      if (!t)
        cur_.fail(fmt::format("the literal's size depends on the result type {}, which is not an integer or "
                              "float type declared before",
                              cur_.idName(resultType_)));
      cur_.number(d, *t);
      return false;
    }
    case OperandKind::LiteralExtInstInteger: {
      const std::string* set = types_.extSetName(lastRef_);
      if (!set) cur_.fail(fmt::format("{} is not an OpExtInstImport declared before", cur_.idName(lastRef_)));
      bool ocl = *set == "OpenCL.std";
      uint32_t n = cur_.extInstNumber(d, ocl);
      if (ocl) {
        const auto* ext = grammar::findOpenCLStd(n);
        if (!ext) cur_.fail(fmt::format("unknown OpenCL.std instruction {}", n));
        walkList(grammar::operandsOf(*ext), false);
      } else {
        while (!cur_.atEnd()) cur_.id(kIdRefDesc); // unknown set: operands taken as ids
      }
      return true;
    }
    case OperandKind::LiteralSpecConstantOpInteger: {
      uint16_t op = cur_.specOpcode(d);
      const auto* inner = grammar::findInstruction(op);
      if (!inner) cur_.fail(fmt::format("unknown opcode {} in OpSpecConstantOp", op));
      walkList(grammar::operandsOf(*inner), true);
      return true;
    }
    default:
      cur_.fail(fmt::format("operand kind {} is not supported", grammar::kindInfo(d.kind).name));
    }
    return false;
  }

  void walkPair(const OperandDesc& d, const grammar::OperandKindInfo& kind) {
    OperandDesc first{kind.pairFirst, Quantifier::One, d.name};
    OperandDesc second{kind.pairSecond, Quantifier::One, d.name};
    if (d.kind == OperandKind::PairLiteralIntegerIdRef) {
      // OpSwitch: the literal has the width of the selector (the first id operand).
      auto t = types_.numberTypeOfValue(firstRef_);
      if (!t || t->isFloat)
        cur_.fail(fmt::format("the case literal's size depends on the selector {}, whose type is not a known "
                              "integer type",
                              cur_.idName(firstRef_)));
      cur_.number(first, *t);
      require(second);
      walkOne(second);
      return;
    }
    walkOne(first);
    require(second);
    walkOne(second);
  }

  const grammar::InstructionInfo& info_;
  OperandCursor& cur_;
  const TypeTracker& types_;
  Id resultType_ = 0, firstRef_ = 0, lastRef_ = 0;
  uint32_t lastLiteral_ = 0;
};

} // namespace

void walkOperands(const grammar::InstructionInfo& info, OperandCursor& cur, const TypeTracker& types) {
  Walker(info, cur, types).run();
}

// ---------------------------------------------------------------------------------------------
// WordCursor

uint32_t WordCursor::take(const OperandDesc& d) {
  if (atEnd()) fail(fmt::format("missing operand ({})", grammar::kindInfo(d.kind).name));
  return words_[pos_++];
}

Id WordCursor::id(const OperandDesc& d) {
  ids.push_back({static_cast<uint32_t>(pos_), d.kind});
  return take(d);
}

uint32_t WordCursor::literal(const OperandDesc& d) { return take(d); }

void WordCursor::literal64(const OperandDesc& d) {
  take(d);
  take(d);
}

void WordCursor::number(const OperandDesc& d, NumberType type) {
  // One word per 32 bits (at least one), low-order word first.
  for (uint32_t i = 0; i < std::max<uint32_t>(1, (type.width + 31) / 32); ++i) take(d);
}

void WordCursor::string(const OperandDesc& d) {
  std::string s;
  size_t used = 0;
  if (!decodeString(words_.subspan(pos_), s, used))
    fail(fmt::format("literal string{} is not NUL-terminated within the instruction",
                     *d.name ? fmt::format(" '{}'", d.name) : ""));
  pos_ += used;
}

uint32_t WordCursor::enumValue(const OperandDesc& d, bool) { return take(d); }
uint32_t WordCursor::extInstNumber(const OperandDesc& d, bool) { return take(d); }

uint16_t WordCursor::specOpcode(const OperandDesc& d) {
  uint32_t v = take(d);
  if (v > 0xffff) fail(fmt::format("OpSpecConstantOp opcode {} is out of range", v));
  return static_cast<uint16_t>(v);
}

void WordCursor::fail(const std::string& message) { throw DiagnosticError(loc_, construct_, message); }

// ---------------------------------------------------------------------------------------------

std::vector<uint32_t> operandWords(const Instruction& inst) {
  std::vector<uint32_t> words;
  words.reserve(inst.operands.size() + 2);
  const auto* info = grammar::findInstruction(inst.opcode);
  // Unknown opcodes cannot come out of the readers; fall back to "present when non-zero".
  if (info ? info->hasResultType : inst.resultType != 0) words.push_back(inst.resultType);
  if (info ? info->hasResult : inst.resultId != 0) words.push_back(inst.resultId);
  words.insert(words.end(), inst.operands.begin(), inst.operands.end());
  return words;
}

bool decodeString(std::span<const uint32_t> words, std::string& out, size_t& used) {
  out.clear();
  for (size_t i = 0; i < words.size(); ++i) {
    for (int b = 0; b < 4; ++b) {
      char c = static_cast<char>((words[i] >> (8 * b)) & 0xff);
      if (c == '\0') {
        used = i + 1;
        return true;
      }
      out.push_back(c);
    }
  }
  return false;
}

void encodeString(std::string_view s, std::vector<uint32_t>& out) {
  // The NUL terminator is always present: a string of 4k bytes takes k+1 words.
  for (size_t i = 0; i <= s.size(); i += 4) {
    uint32_t w = 0;
    for (size_t b = 0; b < 4 && i + b < s.size(); ++b) w |= uint32_t(uint8_t(s[i + b])) << (8 * b);
    out.push_back(w);
  }
}

} // namespace spvhls::spirv::detail
