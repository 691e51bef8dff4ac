// Internal to the frontend: the builder behind buildModuleView, split over module_view.cpp (indexing,
// id checks), module_cfg.cpp (control flow, loop controls, capabilities) and validate_extensions.cpp
// (the rules of the SPIR-V extensions).
#pragma once

#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

#include "frontend/grammar.h"
#include "frontend/module.h"

namespace spvhls::spirv::detail {

bool isTerminator(Op op);

class ViewBuilder {
public:
  ViewBuilder(const Module& m, ModuleView& v) : m_(m), v_(v) {}

  void collectDefinitions(); // def map, duplicate definitions
  void checkUses();          // every used id is defined; result types are types
  void indexLayout();        // module scope, functions, blocks, types, constants, decorations
  void checkReferences();    // entry points, execution modes, callees
  void checkControlFlow();   // branch targets, OpPhi parents, loop controls
  void checkDominance();     // each use in a reachable block is dominated by its definition
  void checkCapabilities();  // capabilities/extensions that FPGA loop controls need
  void checkExtensions();    // extension instruction rules (validate_extensions.cpp)

  bool hasErrors() const { return !diags_.empty(); }
  [[noreturn]] void throwErrors() { throw DiagnosticError(std::move(diags_)); }

private:
  void error(uint32_t instIndex, std::string message);
  void indexModuleScope(uint32_t i);
  void indexType(uint32_t i);
  void indexConstant(uint32_t i);
  bool checkConstituents(uint32_t i);
  bool foldSpecConstantOp(uint32_t i, Constant& out); // spec_constant_op.cpp; false after reporting
  void checkCall(uint32_t i);
  void closeBlock(Function& fn, uint32_t index, bool terminated);
  void checkBlock(const Function& fn, Block& block, const std::vector<std::vector<Id>>& preds);

  const Module& m_;
  ModuleView& v_;
  std::vector<Diagnostic> diags_;
  std::unordered_set<Id> forwardPointers_; // pointer types declared by OpTypeForwardPointer
  // Id operands (not result or result type) by instruction index, in module order, for checkDominance.
  std::vector<std::pair<uint32_t, Id>> uses_;
  bool usesFpgaLoopControls_ = false, usesUnstructuredLoopControls_ = false;
  uint32_t firstFpgaLoopControl_ = 0, firstUnstructured_ = 0;
};

} // namespace spvhls::spirv::detail
