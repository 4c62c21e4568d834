// Chapter 13: block tiles, in CUDA. Chapter 12's packed-half warp strips
// (read blur_async.cu's opening comment first) walked down the image one
// warp at a time, each warp bringing its own rows a few ahead by cp.async.
// Here a block of 4 warps first brings all the rows it needs into shared
// memory at once, then each warp walks its rows out of it with the same
// arithmetic (unpack_row, out_row, store_row: chapter 11's, unchanged).
// half2_plan.hpp says which blur this serves and proves its error bound.
//
// A block's tile: its 4 x ROWS output rows and their 4 halo rows, 32 x NB
// bytes wide (a warp's 32 lanes; the end lanes only supply their sums to
// their neighbours, so 30 x NB bytes are written per row). Every thread of
// the block copies 16-byte chunks of it by cp.async (fill_tile), the block
// waits for them once (cp.async.wait_group 0, one barrier), and only then
// each warp computes its rows. Three things change against the strips:
//  * every load of the block is in flight together, and none holds a
//    register;
//  * no load address per row: a thread copies about 5 chunks per tile, and
//    the warps then read shared memory at constant offsets;
//  * the halo rows are loaded once per block, not once per warp: gray loads
//    20 rows for 16 output rows (1.25 a row) against chapter 12's 12 for 8.
// The tile's edges are handled when it is filled, so the walk has one body.
#include <climits>
#include <cstdint>
#include <iterator>

#include "blur_tile.cuh"
#include "gauss/image.hpp"
#include "half2_plan.hpp"
#include "tile_plan.hpp"

namespace {

constexpr int kWarps = half2::kWarpsPerBlock;

__device__ __forceinline__ std::uint32_t hfma2(std::uint32_t a, std::uint32_t b, std::uint32_t c) {
  std::uint32_t d;
  asm("fma.rn.f16x2 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c));
  return d;
}

__device__ __forceinline__ std::uint32_t hadd2(std::uint32_t a, std::uint32_t b) {
  std::uint32_t d;
  asm("add.rn.f16x2 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b));
  return d;
}

constexpr std::uint32_t kBias = 0x64006400u;  // the halves (1024, 1024)

// Asynchronous copies (Ampere and later): global memory to shared memory
// without passing through a register, completed by groups in issue order.
__device__ __forceinline__ void copy_async(std::uint32_t shared_address, const void* global, int bytes_16_or_8) {
  if (bytes_16_or_8 == 16)
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(shared_address), "l"(global) : "memory");
  else
    asm volatile("cp.async.ca.shared.global [%0], [%1], 8;" ::"r"(shared_address), "l"(global) : "memory");
}
__device__ __forceinline__ void commit_copies() { asm volatile("cp.async.commit_group;" ::: "memory"); }
template <int PENDING>  // wait until at most PENDING groups are still in flight
__device__ __forceinline__ void wait_copies() {
  asm volatile("cp.async.wait_group %0;" ::"n"(PENDING) : "memory");
}

// A lane's NB bytes (4, 8 or 16) as words, by one vector load: from a row in
// global memory, or from the block's tile in shared memory.
template <int NB>
__device__ __forceinline__ void load_words(const std::uint8_t* at, std::uint32_t* words) {
  if constexpr (NB == 16) {
    const uint4 v = *reinterpret_cast<const uint4*>(at);
    words[0] = v.x, words[1] = v.y, words[2] = v.z, words[3] = v.w;
  } else if constexpr (NB == 4) {
    words[0] = *reinterpret_cast<const std::uint32_t*>(at);
  } else {
    const uint2 v = *reinterpret_cast<const uint2*>(at);
    words[0] = v.x, words[1] = v.y;
  }
}

// Row i's words as biased halves: bytes 2m, 2m+1 of the lane become the
// halves of pair m (0x64bb: 1024 + bb), one byte permute per pair.
template <int NB>
__device__ __forceinline__ void unpack_row(const std::uint32_t* words, std::uint32_t* pairs) {
#pragma unroll
  for (int m = 0; m < NB / 2; ++m) pairs[m] = __byte_perm(words[m / 2], 0x64u, m % 2 ? 0x4342 : 0x4140);
}

// One output row of a lane from the five input rows around it (r0 the top,
// r4 the bottom, as biased halves): the vertical sums, the horizontal sums
// with the neighbouring lanes' pairs by shuffle (every lane of the warp must
// call it), and the bytes packed into words. Chapters 12 and 13 keep it as it
// is: they change only where the rows come from.
template <int C, int NB>
__device__ __forceinline__ void out_row(const std::uint32_t* r0, const std::uint32_t* r1, const std::uint32_t* r2,
                                        const std::uint32_t* r3, const std::uint32_t* r4, const half2::HalfWeights& hw,
                                        std::uint32_t* packed) {
  constexpr int kPairs = NB / 2;
  // Vertical sums (symmetric taps): the outer rows added as integers first.
  std::uint32_t v[kPairs];
#pragma unroll
  for (int m = 0; m < kPairs; ++m) {
    const bool ba = C == 4 && m % 2;  // RGBA's (B, A) pair
    const std::uint32_t a = r0[m] + r4[m] - kBias;
    const std::uint32_t b = r1[m] + r3[m] - kBias;
    std::uint32_t t = hfma2(ba ? hw.w2_ba : hw.w2, r2[m], ba ? hw.minus_k_ba : hw.minus_k);
    t = hfma2(ba ? hw.w1_ba : hw.w1, b, t);
    v[m] = hfma2(ba ? hw.w0_ba : hw.w0, a, t);
  }
  // Horizontal sums, with the neighbouring lanes' pairs by shuffle.
  std::uint32_t o[kPairs];
  if constexpr (C == 1) {
    // P[k + 1] = pair k (pixels 2k, 2k+1), k = -1 .. kPairs.
    std::uint32_t P[kPairs + 2];
    P[0] = __shfl_up_sync(0xffffffffu, v[kPairs - 1], 1);
    P[kPairs + 1] = __shfl_down_sync(0xffffffffu, v[0], 1);
#pragma unroll
    for (int m = 0; m < kPairs; ++m) P[m + 1] = v[m];
    // Q[k + 1] = pixels (2k + 1, 2k + 2), k = -1 .. kPairs - 1: one PRMT each.
    std::uint32_t Q[kPairs + 1];
#pragma unroll
    for (int k = 0; k < kPairs + 1; ++k) Q[k] = __byte_perm(P[k], P[k + 1], 0x5432);
#pragma unroll
    for (int m = 0; m < kPairs; ++m) {
      std::uint32_t h = hfma2(hw.w0, P[m], 0u);
      h = hfma2(hw.w0, P[m + 2], h);
      h = hfma2(hw.w1, Q[m], h);
      h = hfma2(hw.w1, Q[m + 1], h);
      h = hfma2(hw.w2, P[m + 1], h);
      o[m] = hadd2(h, kBias);
    }
  } else {
    // Two pairs per pixel: P[k + 4] = pair k, k = -4 .. kPairs + 3.
    std::uint32_t P[kPairs + 8];
#pragma unroll
    for (int k = 0; k < 4; ++k) {
      P[k] = __shfl_up_sync(0xffffffffu, v[kPairs - 4 + k], 1);
      P[kPairs + 4 + k] = __shfl_down_sync(0xffffffffu, v[k], 1);
    }
#pragma unroll
    for (int m = 0; m < kPairs; ++m) P[m + 4] = v[m];
#pragma unroll
    for (int m = 0; m < kPairs; ++m) {
      const bool ba = m % 2;
      std::uint32_t h = hfma2(ba ? hw.w0_ba : hw.w0, P[m], 0u);
      h = hfma2(ba ? hw.w0_ba : hw.w0, P[m + 8], h);
      h = hfma2(ba ? hw.w1_ba : hw.w1, P[m + 2], h);
      h = hfma2(ba ? hw.w1_ba : hw.w1, P[m + 6], h);
      h = hfma2(ba ? hw.w2_ba : hw.w2, P[m + 4], h);
      o[m] = hadd2(h, kBias);
    }
  }
#pragma unroll
  for (int k = 0; k < NB / 4; ++k) packed[k] = __byte_perm(o[2 * k], o[2 * k + 1], 0x6420);
}

// A lane's NB bytes of one output row: one vector store, or (vector false:
// the image's right edge, unaligned rows) byte by byte, at most @p bytes_left.
template <int NB>
__device__ __forceinline__ void store_row(std::uint8_t* at, const std::uint32_t* packed, bool vector, int bytes_left) {
  if (vector) {
    if constexpr (NB == 16) {
      *reinterpret_cast<uint4*>(at) = make_uint4(packed[0], packed[1], packed[2], packed[3]);
    } else if constexpr (NB == 4) {
      *reinterpret_cast<std::uint32_t*>(at) = packed[0];
    } else {
      *reinterpret_cast<uint2*>(at) = make_uint2(packed[0], packed[1]);
    }
  } else {
    // Unrolled, so packed[] is indexed by constants and stays in registers
    // (a loop to bytes_left would index it at run time: a stack frame).
#pragma unroll
    for (int b = 0; b < NB; ++b)
      if (b < bytes_left) at[b] = static_cast<std::uint8_t>(packed[b / 4] >> (8 * (b % 4)));
  }
}

// A tile row starts at the 16-byte boundary at or before lane 0's first byte
// (lane 0 starts at 30 NB x - NB: 8 bytes past a boundary where NB = 8, so
// that tile rows are one chunk wider). Chunks wholly inside an aligned row
// come by cp.async; chunks wholly outside it are its edge pixel repeated; the
// rest (chunks straddling the image's left or right edge, rows whose pitch is
// not a multiple of 16) byte by byte with the column clamped. Both are spread
// over every thread so no warp waits on one lane's loop.
template <int NB>
struct TileShape {
  static_assert(NB == 8 || NB == 16, "lane 0's first byte must sit at the same place mod 16 in every strip");
  static constexpr int shift = NB == 8 ? 8 : 0;              // lane 0's first byte past the tile row's start
  static constexpr int stride = 32 * NB + (shift ? 16 : 0);  // bytes per tile row
  static constexpr int chunks = stride / 16;
};

// Offsets within an image are int here, as in OpenCL C: 32-bit address
// arithmetic, half the instructions of 64-bit (an image holds at most 2^28
// pixels of 4 bytes, gauss/image.hpp).
static_assert(gauss::kMaxImagePixels * 4 <= std::size_t{INT_MAX}, "image offsets must fit in an int");

// Brings one tile into shared memory and holds the block's barrier.
template <int C, int NB, int ROWS>
__device__ __forceinline__ void fill_tile(const std::uint8_t* __restrict__ in, int width, int height, int pitch,
                                          bool aligned, int tile_first, int band, std::uint8_t* tile) {
  using T = TileShape<NB>;
  constexpr int kTileRows = kWarps * ROWS + 4;
  const int row_bytes = width * C;
  const int thread = threadIdx.y * 32 + threadIdx.x;
  // Chunk k of a row is inside for k_lo <= k < k_hi (none on unaligned rows).
  const int k_lo = aligned ? min(max((15 - tile_first) / 16, 0), T::chunks) : T::chunks;
  const int k_hi = aligned ? max(min((row_bytes - tile_first) / 16, T::chunks), k_lo) : T::chunks;
  const auto tile_shared = static_cast<std::uint32_t>(__cvta_generic_to_shared(tile));
  for (int c = thread; c < kTileRows * T::chunks; c += 32 * kWarps) {  // row-major: a warp's copies are contiguous
    const int r = c / T::chunks, k = c - r * T::chunks;
    if (k < k_lo || k >= k_hi) continue;
    // EXERCISE: copy chunk k of tile row r: 16 bytes of image row band - 2 + r (clamped) from byte tile_first + 16 k
    const int y = min(max(band - 2 + r, 0), height - 1);  // clamp-to-edge
    copy_async(tile_shared + r * T::stride + k * 16, in + (y * pitch + tile_first + k * 16), 16);
    // STARTER:
    // *reinterpret_cast<uint4*>(tile + r * T::stride + k * 16) = make_uint4(0, 0, 0, 0);  // nothing copied: zeros
    // END EXERCISE
  }
  // EXERCISE: close the group of this thread's copies
  commit_copies();
  // END EXERCISE
  const int edge_chunks = k_lo + (T::chunks - k_hi);  // per row
  for (int e = thread; e < kTileRows * edge_chunks; e += 32 * kWarps) {
    const int r = e / edge_chunks, n = e - r * edge_chunks;
    const int k = n < k_lo ? n : k_hi + (n - k_lo);
    const std::uint8_t* row = in + min(max(band - 2 + r, 0), height - 1) * pitch;
    const int b0 = tile_first + k * 16;
    std::uint32_t words[4] = {0, 0, 0, 0};
    if (aligned && (b0 >= row_bytes || b0 + 16 <= 0)) {
      // Wholly left or right of the row: its edge pixel repeated, one load
      // (b0 is a multiple of 16, so byte j of the chunk is channel j mod C).
      // A strip that pokes a little past the right edge fills most of its
      // tile this way, not byte by byte.
      const std::uint8_t* edge = row + (b0 < 0 ? 0 : row_bytes - C);
      const std::uint32_t word =
          C == 4 ? *reinterpret_cast<const std::uint32_t*>(edge) : std::uint32_t{*edge} * 0x01010101u;
      words[0] = words[1] = words[2] = words[3] = word;
    } else {
#pragma unroll
      for (int j = 0; j < 16; ++j) {
        const int b = b0 + j;
        const int x = b >= 0 ? b / C : -((C - 1 - b) / C);  // floor(b / C): the pixel, left of the image when < 0
        const int channel = b - x * C;
        words[j / 4] |= std::uint32_t{row[min(max(x, 0), width - 1) * C + channel]} << (8 * (j % 4));
      }
    }
    *reinterpret_cast<uint4*>(tile + r * T::stride + k * 16) = make_uint4(words[0], words[1], words[2], words[3]);
  }
  // EXERCISE: wait until this thread's copies have landed, then until every thread's have (and the edge chunks)
  wait_copies<0>();
  __syncthreads();
  // END EXERCISE
}

// C bytes per pixel (1 or 4), NB bytes per lane, ROWS output rows per warp.
template <int C, int NB, int ROWS, int MIN_BLOCKS>
__global__ void __launch_bounds__(32 * kWarps, MIN_BLOCKS)
    blur_half2_tile(const std::uint8_t* __restrict__ in, std::uint8_t* __restrict__ out, int width, int height,
                    int pitch, bool aligned, half2::HalfWeights hw) {
  using T = TileShape<NB>;
  __shared__ __align__(16) std::uint8_t tile[(kWarps * ROWS + 4) * T::stride];
  const int block_first_byte = static_cast<int>(blockIdx.x) * 30 * NB - NB;  // lane 0's first byte
  const int band = static_cast<int>(blockIdx.y) * kWarps * ROWS;             // the block's first output row
  fill_tile<C, NB, ROWS>(in, width, height, pitch, aligned, block_first_byte - T::shift, band, tile);

  const int lane = threadIdx.x;
  const int y0 = band + threadIdx.y * ROWS;
  if (y0 >= height) return;  // the whole warp leaves, after the barrier
  const int row_bytes = width * C;
  const int first_byte = block_first_byte + lane * NB;
  const bool writes = lane >= 1 && lane < 31 && first_byte < row_bytes;
  const bool vector_out = aligned && first_byte + NB <= row_bytes;
  const std::uint8_t* mine = tile + threadIdx.y * ROWS * T::stride + T::shift + lane * NB;
  std::uint8_t* dst = out + (y0 * pitch + first_byte);
  std::uint32_t ring[5][NB / 2];  // the last 5 rows, as biased halves
#pragma unroll
  for (int i = 0; i < ROWS + 4; ++i) {
    std::uint32_t words[NB / 4];
    load_words<NB>(mine + i * T::stride, words);
    unpack_row<NB>(words, ring[i % 5]);
    if (i < 4) continue;  // the first 4 rows only fill the ring
    std::uint32_t packed[NB / 4];
    out_row<C, NB>(ring[(i + 1) % 5], ring[(i + 2) % 5], ring[(i + 3) % 5], ring[(i + 4) % 5], ring[i % 5], hw, packed);
    if (writes && y0 + i - 4 < height) store_row<NB>(dst, packed, vector_out, row_bytes - first_byte);
    dst += pitch;
  }
}

// One block of 4 warps per strip of 30 x NB bytes and 4 x ROWS rows.
template <int C, int NB, int ROWS, int MIN_BLOCKS>
void launch_tile_shaped(const std::uint8_t* in, std::uint8_t* out, const gauss::Problem& p,
                        const half2::HalfWeights& hw, cudaStream_t stream) {
  const gauss::ImageGeometry& g = p.image;
  const dim3 block(32, kWarps);
  const dim3 grid((g.width * C + 30 * NB - 1) / (30 * NB), (g.height + ROWS * kWarps - 1) / (ROWS * kWarps));
  // cp.async copies 16-byte chunks: rows must start on 16-byte boundaries.
  const bool aligned = g.pitch % 16 == 0 && reinterpret_cast<std::uintptr_t>(in) % 16 == 0 &&
                       reinterpret_cast<std::uintptr_t>(out) % 16 == 0;
  blur_half2_tile<C, NB, ROWS, MIN_BLOCKS>
      <<<grid, block, 0, stream>>>(in, out, g.width, g.height, g.pitch, aligned, hw);
}

// The block-tile shapes the section `tile_shapes` compares (the first is
// tile_plan.hpp's): bytes per lane, output rows per warp, blocks per SM.
struct TileShapeChoice {
  const char* name;
  void (*launch)(const std::uint8_t*, std::uint8_t*, const gauss::Problem&, const half2::HalfWeights&, cudaStream_t);
};
const TileShapeChoice kGrayTileShapes[] = {
    {"8 B, 8 rows, 8 blocks/SM (shipped)", launch_tile_shaped<1, 8, 8, 8>},
    {"16 B, 4 rows, 6 blocks/SM (the H100's)", launch_tile_shaped<1, 16, 4, 6>},
    {"16 B, 4 rows, 8 blocks/SM", launch_tile_shaped<1, 16, 4, 8>},
    {"16 B, 4 rows, 4 blocks/SM", launch_tile_shaped<1, 16, 4, 4>},
    {"16 B, 2 rows, 8 blocks/SM", launch_tile_shaped<1, 16, 2, 8>},
    {"16 B, 8 rows, 6 blocks/SM", launch_tile_shaped<1, 16, 8, 6>},
    {"8 B, 4 rows, 8 blocks/SM", launch_tile_shaped<1, 8, 4, 8>},
};
const TileShapeChoice kRgbaTileShapes[] = {
    {"16 B, 8 rows, 4 blocks/SM (shipped)", launch_tile_shaped<4, 16, 8, 4>},
    {"8 B, 8 rows, 8 blocks/SM (the H100's)", launch_tile_shaped<4, 8, 8, 8>},
    {"8 B, 4 rows, 8 blocks/SM", launch_tile_shaped<4, 8, 4, 8>},
    {"8 B, 16 rows, 8 blocks/SM", launch_tile_shaped<4, 8, 16, 8>},
    {"8 B, 8 rows, 6 blocks/SM", launch_tile_shaped<4, 8, 8, 6>},
    {"16 B, 8 rows, 6 blocks/SM", launch_tile_shaped<4, 16, 8, 6>},
    {"16 B, 4 rows, 6 blocks/SM", launch_tile_shaped<4, 16, 4, 6>},
};
static_assert(tile::tile_lane_bytes(1) == 8 && tile::tile_rows(1) == 8 && tile::tile_min_blocks(1) == 8 &&
                  tile::tile_lane_bytes(4) == 16 && tile::tile_rows(4) == 8 && tile::tile_min_blocks(4) == 4,
              "the first shape of each list is tile_plan.hpp's");

}  // namespace

bool launch_blur_tile(const std::uint8_t* in, std::uint8_t* out, const gauss::Problem& problem, cudaStream_t stream) {
  return launch_blur_tile_shape(in, out, problem, 0, stream);
}

int tile_shape_count(int channels) {
  return channels == 4 ? static_cast<int>(std::size(kRgbaTileShapes)) : static_cast<int>(std::size(kGrayTileShapes));
}

const char* tile_shape_name(int channels, int shape) {
  return (channels == 4 ? kRgbaTileShapes : kGrayTileShapes)[shape].name;
}

bool launch_blur_tile_shape(const std::uint8_t* in, std::uint8_t* out, const gauss::Problem& problem, int shape,
                            cudaStream_t stream) {
  const auto hw = half2::half2_weights(problem.blur);
  if (!hw) return false;
  (problem.image.channels == 4 ? kRgbaTileShapes : kGrayTileShapes)[shape].launch(in, out, problem, *hw, stream);
  return true;
}
