//===- TPXGPULinearLayout.h - layouts as maps from hardware to data -*- C++
//-*-//
//
// Every distributed layout of a power-of-two tensor is a linear map over
// GF(2) from the bits of (register, lane, warp) to the bits of the element
// coordinate: each input bit has a basis vector (one coordinate per tensor
// dimension), and the element a thread holds in a register is the XOR of the
// bases of the set bits. A zero basis means replication (two registers,
// lanes or warps holding the same element).
//
// The code generator reasons about layouts only through this form: which
// element a register holds, whether two layouts give a thread the same
// elements (then a conversion is a register renaming), and the addresses a
// conversion through shared memory uses.
//
//===----------------------------------------------------------------------===//
#ifndef TPX_DIALECT_TPXGPU_IR_TPXGPULINEARLAYOUT_H
#define TPX_DIALECT_TPXGPU_IR_TPXGPULINEARLAYOUT_H

#include "mlir/IR/Attributes.h"
#include "mlir/Support/LLVM.h"

#include "llvm/ADT/SmallVector.h"

#include <optional>
#include <string>

namespace tpx::tpxgpu {

/// A coordinate in a tensor (or a basis vector): one entry per dimension.
using Coordinate = llvm::SmallVector<int64_t, 4>;

class LinearLayout {
public:
  enum InDim : unsigned { Register = 0, Lane = 1, Warp = 2 };
  static constexpr unsigned kNumInDims = 3;

  LinearLayout() = default;
  explicit LinearLayout(llvm::ArrayRef<int64_t> shape) : shape(shape) {}

  llvm::ArrayRef<int64_t> getShape() const { return shape; }
  unsigned getRank() const { return shape.size(); }

  /// The bases of one input dimension, lowest bit first.
  llvm::ArrayRef<Coordinate> getBases(InDim dim) const { return bases[dim]; }
  llvm::SmallVectorImpl<Coordinate> &getMutableBases(InDim dim) {
    return bases[dim];
  }
  /// Appends a basis (an empty `basis` means the zero vector).
  void addBasis(InDim dim, Coordinate basis);

  unsigned getNumBits(InDim dim) const { return bases[dim].size(); }
  unsigned getNumRegisters() const { return 1u << bases[Register].size(); }
  unsigned getNumLanes() const { return 1u << bases[Lane].size(); }
  unsigned getNumWarps() const { return 1u << bases[Warp].size(); }

  /// The coordinate the `index` value of input dimension `dim` contributes
  /// (the XOR of the bases of its set bits).
  Coordinate getContribution(InDim dim, unsigned index) const;
  /// The element held in `reg` of lane `lane` of warp `warp`.
  Coordinate apply(unsigned reg, unsigned lane, unsigned warp) const;

  /// A mask of the bits of `dim` whose basis is zero: threads (or
  /// registers) differing only there hold the same elements.
  unsigned getReplicationMask(InDim dim) const;

  /// How many consecutive registers hold consecutive elements along
  /// dimension `dim`, starting at a multiple of that count in every thread,
  /// capped at `maxElements` (a power of two): the elements one vector
  /// access may move.
  unsigned getRegisterRun(unsigned dim, unsigned maxElements) const;

  /// Maps each register to the register of `this` holding the same element,
  /// where `reg` must hold `coordinate` (register part). None if no register
  /// holds it.
  std::optional<unsigned>
  findRegister(llvm::ArrayRef<int64_t> coordinate) const;

  /// True when both layouts give every (lane, warp) the same thread part of
  /// the coordinate, after mapping this layout's coordinates through `map`
  /// (which must be linear over GF(2), like a dimension permutation or a
  /// projection). Then every element a thread needs is in its own registers.
  bool sameThreadPart(
      const LinearLayout &other,
      llvm::function_ref<Coordinate(llvm::ArrayRef<int64_t>)> map) const;

  /// For every register of `other` (the destination), the register of `this`
  /// that holds the element `toThis` maps it to, when the conversion needs
  /// no data from other threads; None otherwise.
  std::optional<llvm::SmallVector<unsigned>> getRegisterMapFrom(
      const LinearLayout &other,
      llvm::function_ref<Coordinate(llvm::ArrayRef<int64_t>)> toThis) const;

  bool operator==(const LinearLayout &other) const {
    return shape == other.shape && bases[0] == other.bases[0] &&
           bases[1] == other.bases[1] && bases[2] == other.bases[2];
  }

  std::string str() const;

private:
  llvm::SmallVector<int64_t, 4> shape;
  llvm::SmallVector<Coordinate> bases[kNumInDims];
};

/// The linear form of a distributed layout (blocked, slice, nvidia_mma
/// version 2, dot_op of those) on a tensor of `shape` (every dimension a
/// power of two), for warps of `threadsPerWarp` lanes and `numWarps` warps.
/// Fails with a message in `error` for layouts the code generator does not
/// handle.
std::optional<LinearLayout> toLinearLayout(mlir::Attribute layout,
                                           llvm::ArrayRef<int64_t> shape,
                                           std::string *error = nullptr);

/// True when converting a tensor from layout `from` to layout `to` (same
/// shape) moves data between threads: the layouts differ and `from` does
/// not already give every thread the elements of its registers in `to`
/// (LinearLayout::getRegisterMapFrom with the identity map). This is the
/// one test of "a layout conversion needs shared memory":
/// tpxgpu-lower-layout-conversions rewrites exactly those convert_layout
/// ops into local_alloc / local_load, and convert-tpxgpu-to-nvvm lowers
/// the others by renaming registers.
bool conversionNeedsSharedMemory(const LinearLayout &from,
                                 const LinearLayout &to);

/// The coordinate in `to` of the element at `coordinate` of `from` when
/// both shapes hold the same elements in row-major order (tt.reshape). For
/// power-of-two shapes this is linear over GF(2) (the coordinate bits are
/// regrouped), as getRegisterMapFrom's maps must be.
Coordinate getRowMajorCoordinate(llvm::ArrayRef<int64_t> coordinate,
                                 llvm::ArrayRef<int64_t> from,
                                 llvm::ArrayRef<int64_t> to);

} // namespace tpx::tpxgpu

#endif // TPX_DIALECT_TPXGPU_IR_TPXGPULINEARLAYOUT_H
