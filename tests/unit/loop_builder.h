// A unit tests' helper: builds an ir::Loop op by op (scheduler and dependence tests).
#pragma once

#include <string>
#include <vector>

#include "ir/hls_ir.h"

namespace spvhls::testing {

struct LoopBuilder {
  ir::Loop loop;

  ir::ValueId add(ir::OpKind kind, uint8_t width, std::vector<ir::ValueId> operands, std::string name = "") {
    ir::Op op;
    op.kind = kind;
    op.type = ir::Type::bits(width);
    op.operands = std::move(operands);
    op.name = std::move(name);
    loop.ops.push_back(std::move(op));
    return ir::ValueId(loop.ops.size() - 1);
  }
  ir::ValueId constant(uint64_t v, uint8_t width) {
    ir::ValueId id = add(ir::OpKind::Const, width, {});
    loop.ops[id].imm = v;
    return id;
  }
  ir::ValueId liveIn(uint8_t width, std::string name) {
    ir::ValueId id = add(ir::OpKind::LiveIn, width, {}, std::move(name));
    loop.ops[id].index = uint32_t(loop.liveIns.size());
    loop.liveIns.push_back(0);
    return id;
  }
  // A carried value; its next value is set with setNext.
  ir::ValueId phi(uint8_t width, std::string name) {
    ir::ValueId id = add(ir::OpKind::LoopPhi, width, {}, name);
    loop.ops[id].index = uint32_t(loop.phis.size());
    loop.phis.push_back(ir::LoopPhi{name, 0, ir::kNone, ir::Type::bits(width)});
    return id;
  }
  void setNext(ir::ValueId phiOp, ir::ValueId next) { loop.phis[loop.ops[phiOp].index].next = next; }
  ir::ValueId load(uint32_t memory, ir::ValueId offset, uint8_t bytes, std::string name) {
    ir::ValueId id = add(ir::OpKind::Load, uint8_t(8 * bytes), {offset, ir::kNone}, std::move(name));
    loop.ops[id].memory = memory;
    loop.ops[id].size = bytes;
    return id;
  }
  ir::ValueId store(uint32_t memory, ir::ValueId offset, ir::ValueId data, uint8_t bytes) {
    ir::ValueId id = add(ir::OpKind::Store, 0, {offset, data, ir::kNone});
    loop.ops[id].memory = memory;
    loop.ops[id].size = bytes;
    return id;
  }
  // Byte offset of element `index` (i32 elements): zext(index) << 2.
  ir::ValueId offset4(ir::ValueId index) {
    ir::ValueId wide = add(ir::OpKind::ZExt, 64, {index});
    return add(ir::OpKind::Shl, 64, {wide, constant(2, 64)});
  }
};

} // namespace spvhls::testing
