// writeBinary and writeText (spirv-dis syntax; with friendlyNames = false the output matches
// `spirv-dis --raw-id`).
#include <fmt/format.h>

#include <cctype>

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
      throw DiagnosticError(m.locOf(inst), grammar::opName(inst.opcode),
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

// Printable %names: text names first, then OpNames (non-identifier characters become '_'); a name
// used for two ids, or made of digits only, is not used.
std::unordered_map<Id, std::string> chooseNames(const Module& m) {
  std::unordered_map<Id, std::string> names = m.textNames;
  for (const auto& inst : m.insts) {
    if (inst.op() != Op::OpName || inst.operands.size() < 2 || names.count(inst.operands[0])) continue;
    std::string s;
    size_t used = 0;
    if (!detail::decodeString(std::span<const uint32_t>(inst.operands).subspan(1), s, used) || s.empty()) continue;
    for (char& c : s)
      if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '.') c = '_';
    names[inst.operands[0]] = s;
  }
  std::unordered_map<std::string, int> uses;
  for (const auto& [id, n] : names) ++uses[n];
  for (auto it = names.begin(); it != names.end();) {
    bool digits = it->second.find_first_not_of("0123456789") == std::string::npos;
    if (uses[it->second] > 1 || digits) it = names.erase(it);
    else ++it;
  }
  return names;
}

// Reads words like WordCursor and prints each operand.
class PrintCursor : public detail::WordCursor {
public:
  PrintCursor(std::span<const uint32_t> words, SourceLoc loc, std::string construct,
              const std::unordered_map<Id, std::string>& names, std::string& out)
      : WordCursor(words, std::move(loc), std::move(construct)), names_(names), out_(out) {}

  std::string idText(Id id) const {
    auto it = names_.find(id);
    return it == names_.end() ? fmt::format("%{}", id) : "%" + it->second;
  }

  Id id(const OperandDesc& d) override {
    Id v = WordCursor::id(d);
    if (d.kind != OperandKind::IdResult) emit(idText(v));
    return v;
  }
  uint32_t literal(const OperandDesc& d) override {
    uint32_t v = WordCursor::literal(d);
    emit(fmt::format("{}", v));
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
    if (t.isFloat) {
      emit(detail::formatFloat(bits, t.width));
    } else if (t.isSigned) {
      uint32_t w = std::min<uint32_t>(t.width, 64);
      int64_t v = w == 64 ? static_cast<int64_t>(bits) : static_cast<int64_t>(bits << (64 - w)) >> (64 - w);
      emit(fmt::format("{}", v));
    } else {
      if (t.width < 64) bits &= (uint64_t(1) << t.width) - 1;
      emit(fmt::format("{}", bits));
    }
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
  const std::unordered_map<Id, std::string>& names_;
  std::string& out_;
};

std::string generatorText(uint32_t generator) {
  uint32_t tool = generator >> 16, version = generator & 0xffff;
  if (const auto* g = grammar::findGeneratorTool(tool)) return fmt::format("{}; {}", g->name, version);
  return fmt::format("Unknown({}); {}", tool, version);
}

} // namespace

std::string writeText(const Module& m, const TextOptions& opts) {
  std::unordered_map<Id, std::string> names;
  if (opts.friendlyNames) names = chooseNames(m);
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
      throw DiagnosticError(m.locOf(inst), fmt::format("opcode {}", inst.opcode), "unknown opcode; cannot print it");
    std::vector<uint32_t> words = detail::operandWords(inst);
    std::string operands;
    PrintCursor cur(words, m.locOf(inst), info->name, names, operands);
    detail::walkOperands(*info, cur, types);
    types.note(inst);
    // spirv-dis lines up the opcodes at column 16, result ids right-aligned before " = ".
    if (info->hasResult) out += fmt::format("{:>12} = ", cur.idText(inst.resultId));
    else out += std::string(15, ' ');
    out += info->name + operands + "\n";
  }
  return out;
}

std::string writeText(const Module& m) { return writeText(m, TextOptions{}); }

} // namespace spvhls::spirv
