// Chapter 09: the host's view of reduce.cu.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

/// Threads per block of every sum kernel (a power of two; reduce.cl's GROUP).
inline constexpr unsigned kGroup = 256;

/// The one-thread-per-byte kernels that end in a single 64-bit total.
enum class CudaSum {
  Racy,               ///< `*total += x`: lost updates
  Atomic,             ///< atomicAdd on the total, once per byte
  AtomicGroup,        ///< atomicAdd on a shared counter, then once per block on the total
  TreeAtomic,         ///< the shared-memory tree, then once per block on the total
  InterleavedAtomic,  ///< the same with the interleaved tree (lid % (2 * i) == 0 adds s[lid + i])
};

/// Threads per block of the row and column walks (reduce.cl's host: kWalkGroup).
/// Smaller than kGroup so that the few thousand lines of a photo spread over
/// most SMs: 4480 rows make 70 blocks of 64, against 18 of 256.
inline constexpr unsigned kWalkGroup = 64;

/// Launches @p kind over @p n bytes with one thread per byte; @p total must be zeroed first.
void launch_sum_one_per_item(CudaSum kind, const std::uint8_t* in, unsigned n, unsigned long long* total,
                             cudaStream_t stream);

/// The n bytes at @p in as rows of @p width bytes (the last may be short):
/// with @p rows_first, thread r adds row r into partials[r]; else thread c
/// adds column c into partials[c]. @p lines is the number of rows (resp.
/// columns), ceil(n / width) (resp. min(width, n)).
void launch_sum_lines(bool rows_first, const std::uint8_t* in, unsigned n, unsigned width, unsigned lines,
                      unsigned long long* partials, cudaStream_t stream);

/// One pass of the multi-pass sum: one thread per element, each block's sum to
/// partials[block] (ceil(n / kGroup) of them).
void launch_sum_tree(const std::uint8_t* in, unsigned n, unsigned long long* partials, cudaStream_t stream);
void launch_sum_tree(const unsigned long long* in, unsigned n, unsigned long long* partials, cudaStream_t stream);

/// Many elements per thread (16 bytes per load for bytes) over a grid of
/// @p blocks blocks, each block's sum to partials[block]; the block's sum by
/// the shared-memory tree, or by warp shuffles when @p shuffle is true.
void launch_sum_strided(bool shuffle, const std::uint8_t* in, unsigned n, unsigned blocks, unsigned long long* partials,
                        cudaStream_t stream);
void launch_sum_strided(bool shuffle, const unsigned long long* in, unsigned n, unsigned blocks,
                        unsigned long long* partials, cudaStream_t stream);

/// The seed's example: one block of 256 threads adds in[0..255] into out[0].
void launch_sum_256(const unsigned* in, unsigned* out, cudaStream_t stream);
