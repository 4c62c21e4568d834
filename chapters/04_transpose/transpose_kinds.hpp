// Chapter 04: the transposes, by name (shared by the OpenCL and CUDA halves).
#pragma once

namespace chapter04 {

/// The transpose kernels of the chapter, in the order the README takes them.
enum class TransposeKind {
  Naive,          ///< one item per value: reads coalesced, writes a column apart
  Tiled16,        ///< 16 x 16 local tile, no padding (Apple's transposeL)
  Tiled16Padded,  ///< the same with a 16 x 17 tile (+1 column)
  Tiled16Skewed,  ///< 16 x 16 tile without padding, diagonal block order (Apple's transposeLS)
  Tiled32x8,      ///< 32 x 8 items over a 32 x 33 tile, four values per item
};

}  // namespace chapter04
