// Grammar-driven walk over the operands of one instruction, shared by the binary reader (validation),
// the text reader (encoding tokens into words), the text writer (printing words) and the module view
// (finding id operands). The walk knows the grammar (quantifiers, enum parameters, OpExtInst,
// OpSpecConstantOp, OpSwitch, context-dependent literals); a cursor knows the representation.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "frontend/grammar.h"
#include "frontend/module.h"

namespace spvhls::spirv::detail {

// A scalar numeric type, for literals whose size depends on a type (OpConstant, OpSwitch).
struct NumberType {
  uint32_t width = 0;
  bool isFloat = false;
  bool isSigned = false;
};

// What the walk needs to know about earlier instructions.
class TypeTracker {
public:
  void note(const Instruction& inst); // call for every instruction, in order
  std::optional<NumberType> numberType(Id typeId) const;
  std::optional<NumberType> numberTypeOfValue(Id valueId) const;
  const std::string* extSetName(Id setId) const;

private:
  std::unordered_map<Id, NumberType> numberTypes_;
  // Type of each value: flat by id below kFlatIds (fast for big modules), hashed above (huge ids in
  // hostile input must not allocate gigabytes).
  static constexpr Id kFlatIds = 1u << 22;
  std::vector<Id> valueTypesFlat_;
  std::unordered_map<Id, Id> valueTypes_;
  std::unordered_map<Id, std::string> extSets_;
};

// One representation of an instruction's operands. Each call consumes (or produces) one operand;
// fail() throws a DiagnosticError at the cursor's current position.
class OperandCursor {
public:
  virtual ~OperandCursor() = default;
  virtual bool atEnd() = 0;
  virtual Id id(const grammar::OperandDesc& d) = 0;
  virtual uint32_t literal(const grammar::OperandDesc& d) = 0;
  virtual void literal64(const grammar::OperandDesc& d) = 0;
  virtual void number(const grammar::OperandDesc& d, NumberType type) = 0;
  virtual void string(const grammar::OperandDesc& d) = 0;
  virtual uint32_t enumValue(const grammar::OperandDesc& d, bool isMask) = 0;
  virtual uint32_t extInstNumber(const grammar::OperandDesc& d, bool isOpenCLStd) = 0;
  virtual uint16_t specOpcode(const grammar::OperandDesc& d) = 0;
  [[noreturn]] virtual void fail(const std::string& message) = 0;
  // How the representation spells an id in messages.
  virtual std::string idName(Id id) const { return "%" + std::to_string(id); }
};

// Walks all operands of an instruction with the given opcode (which must be in the grammar), from
// its first operand after the opcode word. Fails on missing or extra operands.
void walkOperands(const grammar::InstructionInfo& info, OperandCursor& cur, const TypeTracker& types);

// An id operand found by WordCursor: its index into the walked words and its kind.
struct IdUse {
  uint32_t index;
  OperandKind kind; // IdResultType, IdResult, IdRef, IdScope, IdMemorySemantics
};

// Reads binary words (the words after the opcode word). Checks that strings are NUL-terminated and
// that enum values are known; records every id operand. Subclasses may hook the reads (printing).
class WordCursor : public OperandCursor {
public:
  WordCursor(std::span<const uint32_t> words, SourceLoc loc, std::string construct)
      : words_(words), loc_(std::move(loc)), construct_(std::move(construct)) {}

  std::vector<IdUse> ids;

  bool atEnd() override { return pos_ >= words_.size(); }
  Id id(const grammar::OperandDesc& d) override;
  uint32_t literal(const grammar::OperandDesc& d) override;
  void literal64(const grammar::OperandDesc& d) override;
  void number(const grammar::OperandDesc& d, NumberType type) override;
  void string(const grammar::OperandDesc& d) override;
  uint32_t enumValue(const grammar::OperandDesc& d, bool isMask) override;
  uint32_t extInstNumber(const grammar::OperandDesc& d, bool isOpenCLStd) override;
  uint16_t specOpcode(const grammar::OperandDesc& d) override;
  [[noreturn]] void fail(const std::string& message) override;

protected:
  uint32_t take(const grammar::OperandDesc& d);
  std::span<const uint32_t> words_;
  size_t pos_ = 0;
  SourceLoc loc_;
  std::string construct_;
};

// The words after the opcode word: result type, result id, operands.
std::vector<uint32_t> operandWords(const Instruction& inst);

// Decodes a packed literal string; returns false when no NUL terminator is found. `used` gets the
// number of words consumed.
bool decodeString(std::span<const uint32_t> words, std::string& out, size_t& used);
void encodeString(std::string_view s, std::vector<uint32_t>& out);

} // namespace spvhls::spirv::detail
