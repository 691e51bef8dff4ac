// writeBinary and writeText (spirv-dis syntax; with friendlyNames = false the output matches
// `spirv-dis --raw-id`).
#include <fmt/format.h>

#include <cctype>
#include <optional>
#include <unordered_set>

#include "frontend/grammar.h"
#include "frontend/literals.h"
#include "frontend/module.h"
#include "frontend/operand_walk.h"

namespace spvhls::spirv {

std::vector<uint32_t> writeBinary(const Module& m) {
  std::vector<uint32_t> out{0x07230203, m.version, m.generator, m.bound, m.schema};
  for (const auto& inst : m.insts) {
    std::vector<uint32_t> words = detail::operandWords(inst);
    if (words.size() + 1 > 0xffff)
      throw DiagnosticError(
          m.locOf(inst), grammar::opName(inst.opcode),
          fmt::format("{} operand words do not fit in one instruction (at most 65534)", words.size()));
    out.push_back(static_cast<uint32_t>(words.size() + 1) << 16 | inst.opcode);
    out.insert(out.end(), words.begin(), words.end());
  }
  return out;
}

namespace {

using grammar::OperandDesc;

std::string quote(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out.push_back('\\');
    out.push_back(c);
  }
  return out + "\"";
}

// A literal number as spirv-dis prints it: floats by formatFloat, integers in their signedness.
std::string numberText(uint64_t bits, const detail::NumberType& t) {
  if (t.isFloat) return detail::formatFloat(bits, t.width);
  if (t.isSigned)
    return fmt::format("{}", t.width >= 64 ? static_cast<int64_t>(bits)
                                           : static_cast<int64_t>(bits << (64 - t.width)) >> (64 - t.width));
  return fmt::format("{}", t.width >= 64 ? bits : bits & ((uint64_t(1) << t.width) - 1));
}

// The names spirv-dis gives ids (SPIRV-Tools' FriendlyNameMapper), so that `spvhls dis` prints what
// `spirv-dis` prints: in module order, an id's first name wins: its OpName, a type's name derived
// from its operands (%uint, %v4float, %_ptr_CrossWorkgroup_uint, %_arr_uchar_uint_16, %_struct_12),
// a scalar constant's type and value (%uint_0, %int_n1, %float_0_5, %true). Characters outside
// [A-Za-z0-9_] become '_' (an empty name is "_"), and a name already taken gets "_0", "_1", ...
// Ids without a name print as their number, through the same uniqueness rule. Names from a text
// input (Module::textNames) come first, as the text had them.
class FriendlyNames {
public:
  explicit FriendlyNames(const Module& m) {
    for (const auto& [id, n] : m.textNames) {
      names_[id] = n;
      used_.insert(n);
    }
    detail::TypeTracker types; // the numeric types the constants' values are printed by
    for (const auto& inst : m.insts) {
      types.note(inst);
      const std::vector<uint32_t>& w = inst.operands;
      const Id r = inst.resultId;
      switch (inst.op()) {
      case Op::OpName: {
        std::string n;
        size_t used = 0;
        if (w.size() >= 2 && detail::decodeString(std::span<const uint32_t>(w).subspan(1), n, used))
          save(w[0], n);
        break;
      }
      case Op::OpTypeVoid:
        save(r, "void");
        break;
      case Op::OpTypeBool:
        save(r, "bool");
        break;
      case Op::OpTypeInt: {
        if (w.size() < 2) break;
        const char* roots[] = {"char", "short", "int", "long"};
        const int at = w[0] == 8 ? 0 : w[0] == 16 ? 1 : w[0] == 32 ? 2 : w[0] == 64 ? 3 : -1;
        const std::string root = at >= 0 ? roots[at] : std::to_string(w[0]);
        save(r, (w[1] == 0 ? "u" : at >= 0 ? "" : "i") + root);
        break;
      }
      case Op::OpTypeFloat: {
        if (w.empty()) break;
        save(r, w[0] == 16   ? "half"
                : w[0] == 32 ? "float"
                : w[0] == 64 ? "double"
                             : "fp" + std::to_string(w[0]));
        break;
      }
      case Op::OpTypeVector:
        if (w.size() >= 2) save(r, "v" + std::to_string(w[1]) + name(w[0]));
        break;
      case Op::OpTypeMatrix:
        if (w.size() >= 2) save(r, "mat" + std::to_string(w[1]) + name(w[0]));
        break;
      case Op::OpTypeArray:
        if (w.size() >= 2) save(r, "_arr_" + name(w[0]) + "_" + name(w[1]));
        break;
      case Op::OpTypeRuntimeArray:
        if (!w.empty()) save(r, "_runtimearr_" + name(w[0]));
        break;
      case Op::OpTypePointer:
        if (w.size() >= 2)
          save(r, "_ptr_" + grammar::enumName(OperandKind::StorageClass, w[0]) + "_" + name(w[1]));
        break;
      case Op::OpTypeStruct:
        save(r, "_struct_" + std::to_string(r));
        break;
      case Op::OpTypeEvent:
        save(r, "Event");
        break;
      case Op::OpTypeDeviceEvent:
        save(r, "DeviceEvent");
        break;
      case Op::OpTypeReserveId:
        save(r, "ReserveId");
        break;
      case Op::OpTypeQueue:
        save(r, "Queue");
        break;
      case Op::OpTypeSampler:
        save(r, "sampler");
        break;
      case Op::OpConstantTrue:
        save(r, "true");
        break;
      case Op::OpConstantFalse:
        save(r, "false");
        break;
      case Op::OpConstant: {
        const std::optional<detail::NumberType> t = types.numberType(inst.resultType);
        if (!t || t->width > 64 || w.empty()) break;
        std::string v = numberText(w[0] | (t->width > 32 && w.size() > 1 ? uint64_t(w[1]) << 32 : 0), *t);
        for (char& c : v)
          if (c == '-') c = 'n';
        save(r, name(inst.resultType) + "_" + v);
        break;
      }
      default:
        break;
      }
    }
  }

  // The id's name, given on first use when it has none yet (its number).
  const std::string& name(Id id) {
    auto it = names_.find(id);
    if (it != names_.end()) return it->second;
    save(id, std::to_string(id));
    return names_.at(id);
  }

private:
  void save(Id id, const std::string& suggested) {
    if (names_.count(id)) return;
    std::string base = suggested.empty() ? "_" : suggested;
    for (char& c : base)
      if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') c = '_';
    std::string n = base;
    for (uint32_t i = 0; !used_.insert(n).second; ++i)
      n = base + "_" + std::to_string(i);
    names_[id] = n;
  }

  std::unordered_map<Id, std::string> names_;
  std::unordered_set<std::string> used_;
};

// Reads words like WordCursor and prints each operand.
class PrintCursor : public detail::WordCursor {
public:
  PrintCursor(std::span<const uint32_t> words, SourceLoc loc, std::string construct, FriendlyNames* names,
              std::string& out)
      : WordCursor(words, std::move(loc), std::move(construct)), names_(names), out_(out) {}

  std::string idText(Id id) const { return names_ ? "%" + names_->name(id) : fmt::format("%{}", id); }

  Id id(const OperandDesc& d) override {
    Id v = WordCursor::id(d);
    if (d.kind != OperandKind::IdResult) emit(idText(v));
    return v;
  }
  uint32_t literal(const OperandDesc& d) override {
    uint32_t v = WordCursor::literal(d);
    // A task sequence's Pipelined and ClusterMode are signed (-1: the compiler's choice), as the
    // extension writes them; the grammar's LiteralInteger is not.
    const std::string_view name = d.name ? d.name : "";
    if (name == "Pipelined" || name == "UseStallEnableClusters") emit(fmt::format("{}", int32_t(v)));
    else emit(fmt::format("{}", v));
    return v;
  }
  void literal64(const OperandDesc& d) override {
    uint64_t lo = take(d), hi = take(d);
    emit(fmt::format("{}", static_cast<int64_t>(lo | hi << 32))); // LoopCountINTEL: -1 = unknown
  }
  void number(const OperandDesc& d, detail::NumberType t) override {
    if (t.width > 64) fail(fmt::format("cannot print literals of {}-bit types; at most 64 bits", t.width));
    uint64_t bits = take(d);
    if (t.width > 32) bits |= uint64_t(take(d)) << 32;
    emit(numberText(bits, t));
  }
  void string(const OperandDesc& d) override {
    size_t start = pos_;
    WordCursor::string(d);
    std::string s;
    size_t used = 0;
    detail::decodeString(words_.subspan(start), s, used);
    emit(quote(s));
  }
  uint32_t enumValue(const OperandDesc& d, bool isMask) override {
    uint32_t v = WordCursor::enumValue(d, isMask);
    emit(isMask ? grammar::maskName(d.kind, v) : grammar::enumName(d.kind, v));
    return v;
  }
  uint32_t extInstNumber(const OperandDesc& d, bool isOpenCLStd) override {
    uint32_t v = WordCursor::extInstNumber(d, isOpenCLStd);
    const auto* e = isOpenCLStd ? grammar::findOpenCLStd(v) : nullptr;
    emit(e ? std::string(e->name) : fmt::format("{}", v));
    return v;
  }
  uint16_t specOpcode(const OperandDesc& d) override {
    uint16_t v = WordCursor::specOpcode(d);
    std::string name = grammar::opName(v);
    emit(name.rfind("Op", 0) == 0 ? name.substr(2) : name);
    return v;
  }

private:
  void emit(const std::string& s) { out_ += " " + s; }
  FriendlyNames* names_; // null: numeric ids
  std::string& out_;
};

std::string generatorText(uint32_t generator) {
  uint32_t tool = generator >> 16, version = generator & 0xffff;
  if (const auto* g = grammar::findGeneratorTool(tool)) return fmt::format("{}; {}", g->name, version);
  return fmt::format("Unknown({}); {}", tool, version);
}

} // namespace

std::string writeText(const Module& m, const TextOptions& opts) {
  std::optional<FriendlyNames> names;
  if (opts.friendlyNames) names.emplace(m);
  std::string out;
  if (opts.header) {
    out += "; SPIR-V\n";
    out += fmt::format("; Version: {}.{}\n", (m.version >> 16) & 0xff, (m.version >> 8) & 0xff);
    out += fmt::format("; Generator: {}\n", generatorText(m.generator));
    out += fmt::format("; Bound: {}\n", m.bound);
    out += fmt::format("; Schema: {}\n", m.schema);
  }
  detail::TypeTracker types;
  for (const auto& inst : m.insts) {
    const auto* info = grammar::findInstruction(inst.opcode);
    if (!info)
      throw DiagnosticError(m.locOf(inst), fmt::format("opcode {}", inst.opcode),
                            "unknown opcode; cannot print it");
    std::vector<uint32_t> words = detail::operandWords(inst);
    std::string operands;
    PrintCursor cur(words, m.locOf(inst), info->name, names ? &*names : nullptr, operands);
    detail::walkOperands(*info, cur, types);
    types.note(inst);
    // spirv-dis lines up the opcodes at column 16, result ids right-aligned before " = ".
    if (info->hasResult)
      out += fmt::format("{:>12} = ", cur.idText(inst.resultId));
    else
      out += std::string(15, ' ');
    out += info->name + operands + "\n";
  }
  return out;
}

std::string writeText(const Module& m) {
  return writeText(m, TextOptions{});
}

} // namespace spvhls::spirv
