// Types of HLS IR values: bit vectors of any width, floating point (distinct from bits: the same 32
// bits are added differently), vectors (lanes of one scalar type), and "none" for operations without
// a result. Signedness is a property of the operation, as in SPIR-V, so integers are just bits.
//
// Lowering produces scalar bits of 1..64 today (wider only for a vector loaded or stored whole); wider
// bits (vectors and 2D blocks flattened into words), floats and vectors are representable so that the
// hardware for them is an addition.
// ir::checkHardwareSupport rejects what the back end cannot build yet.
#pragma once

#include <compare>
#include <cstdint>
#include <string>

namespace spvhls::ir {

// The widest value (all lanes together) the IR represents: a 2D block read of 32 rows of 64 bytes is
// 16384 bits; leave room above that.
constexpr uint32_t kMaxTypeBits = 1u << 16;

enum class TypeKind : uint8_t { None, Bits, Float, Vector };

struct Type {
  TypeKind kind = TypeKind::None;
  TypeKind scalar = TypeKind::None; // Bits or Float: the kind of one lane (the value itself for scalars)
  uint32_t scalarBits = 0;          // bits of one lane
  uint32_t lanes = 0;               // 1 for scalars, >= 2 for vectors, 0 for none

  static constexpr Type none() { return {}; }
  // Bits of width 0 are no value: none().
  static constexpr Type bits(uint32_t width) {
    return width ? Type{TypeKind::Bits, TypeKind::Bits, width, 1} : Type{};
  }
  static constexpr Type floating(uint32_t width) { return {TypeKind::Float, TypeKind::Float, width, 1}; }
  static constexpr Type f16() { return floating(16); }
  static constexpr Type f32() { return floating(32); }
  static constexpr Type f64() { return floating(64); }
  static constexpr Type vector(Type lane, uint32_t count) {
    return {TypeKind::Vector, lane.scalar, lane.scalarBits, count};
  }

  // Total bits (all lanes); 0 for none.
  constexpr uint32_t width() const { return scalarBits * lanes; }
  constexpr bool isNone() const { return kind == TypeKind::None; }
  constexpr bool isBits() const { return kind == TypeKind::Bits; }
  constexpr bool isFloat() const { return kind == TypeKind::Float; }
  constexpr bool isVector() const { return kind == TypeKind::Vector; }
  constexpr bool isBool() const { return isBits() && scalarBits == 1; }
  // One lane (the type itself for scalars).
  constexpr Type lane() const { return {scalar, scalar, scalarBits, isNone() ? 0u : 1u}; }

  auto operator<=>(const Type&) const = default; // an order, for maps keyed by type
};

// "i32", "f32", "<4 x i32>", "none".
std::string typeName(Type t);
// Why `t` is not a well-formed type ("" if it is): bit widths 1..kMaxTypeBits, floats of 16, 32 or 64
// bits, vectors of at least 2 lanes of a well-formed scalar.
std::string typeProblem(Type t);

} // namespace spvhls::ir
