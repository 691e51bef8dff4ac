#include "frontend/grammar.h"

#include <fmt/format.h>

#include <map>
#include <unordered_map>

namespace spvhls::spirv::grammar {

namespace {

struct InstIndex {
  std::unordered_map<uint16_t, const InstructionInfo*> byOpcode;
  std::unordered_map<std::string_view, const InstructionInfo*> byName;
  InstIndex() {
    for (size_t i = 0; i < kInstructionCount; ++i) {
      const auto& inst = kInstructions[i];
      if (!inst.alias) byOpcode.emplace(inst.opcode, &inst);
      byName.emplace(inst.name, &inst);
    }
  }
};

const InstIndex& instIndex() {
  static const InstIndex index;
  return index;
}

struct EnumIndex {
  std::map<std::pair<OperandKind, uint32_t>, const EnumerantInfo*> byValue;
  std::map<std::pair<OperandKind, std::string_view>, const EnumerantInfo*> byName;
  std::unordered_map<uint32_t, const ExtInstInfo*> oclByNumber;
  std::unordered_map<std::string_view, const ExtInstInfo*> oclByName;
  EnumIndex() {
    for (size_t k = 0; k < kOperandKindCount; ++k) {
      auto kind = static_cast<OperandKind>(k);
      for (const auto& e : enumerantsOf(kind)) {
        if (!e.alias) byValue.emplace(std::pair{kind, e.value}, &e);
        byName.emplace(std::pair{kind, std::string_view(e.name)}, &e);
      }
    }
    for (size_t i = 0; i < kOpenCLStdCount; ++i) {
      oclByNumber.emplace(kOpenCLStd[i].number, &kOpenCLStd[i]);
      oclByName.emplace(kOpenCLStd[i].name, &kOpenCLStd[i]);
    }
  }
};

const EnumIndex& enumIndex() {
  static const EnumIndex index;
  return index;
}

} // namespace

const InstructionInfo* findInstruction(uint16_t opcode) {
  auto it = instIndex().byOpcode.find(opcode);
  return it == instIndex().byOpcode.end() ? nullptr : it->second;
}

const InstructionInfo* findInstruction(std::string_view name) {
  auto it = instIndex().byName.find(name);
  return it == instIndex().byName.end() ? nullptr : it->second;
}

std::span<const OperandDesc> operandsOf(const InstructionInfo& inst) {
  return {kOperands + inst.firstOperand, inst.operandCount};
}

const OperandKindInfo& kindInfo(OperandKind kind) { return kOperandKinds[static_cast<size_t>(kind)]; }

std::span<const EnumerantInfo> enumerantsOf(OperandKind kind) {
  const auto& k = kindInfo(kind);
  return {kEnumerants + k.firstEnumerant, k.enumerantCount};
}

const EnumerantInfo* findEnumerant(OperandKind kind, uint32_t value) {
  auto it = enumIndex().byValue.find({kind, value});
  return it == enumIndex().byValue.end() ? nullptr : it->second;
}

const EnumerantInfo* findEnumerant(OperandKind kind, std::string_view name) {
  auto it = enumIndex().byName.find({kind, name});
  return it == enumIndex().byName.end() ? nullptr : it->second;
}

std::span<const OperandDesc> paramsOf(const EnumerantInfo& e) { return {kOperands + e.firstParam, e.paramCount}; }

const ExtInstInfo* findOpenCLStd(uint32_t number) {
  auto it = enumIndex().oclByNumber.find(number);
  return it == enumIndex().oclByNumber.end() ? nullptr : it->second;
}

const ExtInstInfo* findOpenCLStd(std::string_view name) {
  auto it = enumIndex().oclByName.find(name);
  return it == enumIndex().oclByName.end() ? nullptr : it->second;
}

std::span<const OperandDesc> operandsOf(const ExtInstInfo& inst) {
  return {kOperands + inst.firstOperand, inst.operandCount};
}

const GeneratorTool* findGeneratorTool(uint32_t id) {
  for (size_t i = 0; i < kGeneratorToolCount; ++i)
    if (kGeneratorTools[i].id == id) return &kGeneratorTools[i];
  return nullptr;
}

const GeneratorTool* findGeneratorTool(std::string_view name) {
  for (size_t i = 0; i < kGeneratorToolCount; ++i)
    if (kGeneratorTools[i].name == name) return &kGeneratorTools[i];
  return nullptr;
}

std::string opName(uint16_t opcode) {
  if (const auto* inst = findInstruction(opcode)) return inst->name;
  return fmt::format("Op<{}>", opcode);
}

std::string enumName(OperandKind kind, uint32_t value) {
  if (const auto* e = findEnumerant(kind, value)) return e->name;
  return fmt::format("{}", value);
}

std::string maskName(OperandKind kind, uint32_t mask) {
  if (mask == 0) {
    const auto* none = findEnumerant(kind, 0u);
    return none ? none->name : "0";
  }
  std::string out;
  uint32_t unknown = 0;
  for (uint32_t bit = 0; bit < 32; ++bit) {
    uint32_t b = 1u << bit;
    if (!(mask & b)) continue;
    if (const auto* e = findEnumerant(kind, b)) {
      out += (out.empty() ? "" : "|") + std::string(e->name);
    } else {
      unknown |= b;
    }
  }
  if (unknown) out += fmt::format("{}{:#x}", out.empty() ? "" : "|", unknown);
  return out;
}

} // namespace spvhls::spirv::grammar
