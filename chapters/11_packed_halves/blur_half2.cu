// Chapter 11: packed halves, two pixels per instruction, in CUDA. Chapter
// 10's warp strips (read blur_ring.cu's opening comment first) with the
// arithmetic in packed half precision: two pixels per 32-bit register, one
// instruction for both. half2_plan.hpp says which blur this serves and
// proves its error bound; every other blur takes chapter 10's float kernel.
//
// A warp owns a strip of 32 x NB bytes of every row (NB bytes per lane); its
// two end lanes only supply their sums to their neighbours, so 30 x NB bytes
// are written per row. The warp walks ROWS output rows down, ROWS + 4 input
// rows, loading each AHEAD rows before its use into registers.
//
// Per 32-bit register, two bytes as a half2 pair:
//  * unpack: one byte permute (PRMT) makes 0x64bb 0x64bb, the halves
//    (1024 + b, 1024 + b'), from two input bytes: no conversion instruction;
//  * vertical (symmetric taps w0 w1 w2 w1 w0): the outer rows are added as
//    integers on the biased bit patterns, exactly (sums up to 510 stay in
//    [1024, 2048), where a half's last bit is 1):
//        A = r0 + r4 - 0x64006400  (the halves 1024 + r0 + r4)
//        B = r1 + r3 - 0x64006400
//    then v = w0 A + w1 B + w2 r2 - K, K = 1024 (w0 + w1 + w2) removing the
//    bias: 2 integer adds and 3 HFMA2 per two pixels, against 10 FFMA in float;
//  * horizontal: gray pixels shifted by one are one PRMT per pair (a pair
//    straddling two registers), RGBA neighbours are whole pairs; 5 HFMA2;
//  * out: adding 1024 rounds to the nearest integer and leaves it in the low
//    byte of each half (HADD2); one PRMT packs four bytes.
// RGBA's (B, A) pairs give alpha the taps (0, 0, 1, 0, 0) and the bias 1024:
// alpha passes through unchanged at no cost.
//
// Strips lying wholly inside aligned rows (all but the last column of
// blocks, typically) run a body without the byte-by-byte edge paths: the
// edge code in every row costs 3-6% (measured on the H200) in instruction
// cache and branches.
#include <cstdint>

#include "blur_half2.cuh"
#include "half2_plan.hpp"

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

// A lane's NB bytes (4, 8 or 16) as words, by one vector load.
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
    // EXERCISE: v[m] = w0 (r0 + r4) + w1 (r1 + r3) + w2 r2 - K: outer rows added as integers, then 3 HFMA2
    const bool ba = C == 4 && m % 2;  // RGBA's (B, A) pair
    const std::uint32_t a = r0[m] + r4[m] - kBias;
    const std::uint32_t b = r1[m] + r3[m] - kBias;
    std::uint32_t t = hfma2(ba ? hw.w2_ba : hw.w2, r2[m], ba ? hw.minus_k_ba : hw.minus_k);
    t = hfma2(ba ? hw.w1_ba : hw.w1, b, t);
    v[m] = hfma2(ba ? hw.w0_ba : hw.w0, a, t);
    // STARTER:
    // v[m] = hfma2(0x3C003C00u, r2[m], 0xE400E400u);  // the middle row alone, unweighted: 1 (1024 + r2) - 1024
    // END EXERCISE
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
      // EXERCISE: o[m], pixels 2m and 2m+1 summed across (5 HFMA2 over P and Q), rounded by adding 1024 (HADD2)
      std::uint32_t h = hfma2(hw.w0, P[m], 0u);
      h = hfma2(hw.w0, P[m + 2], h);
      h = hfma2(hw.w1, Q[m], h);
      h = hfma2(hw.w1, Q[m + 1], h);
      h = hfma2(hw.w2, P[m + 1], h);
      o[m] = hadd2(h, kBias);
      // STARTER:
      // o[m] = hadd2(P[m + 1], kBias);  // the pair itself, unweighted
      // END EXERCISE
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
      // EXERCISE: o[m], RGBA: the same channels one and two pixels away are 2 and 4 pairs off; 5 HFMA2, 1 HADD2
      const bool ba = m % 2;
      std::uint32_t h = hfma2(ba ? hw.w0_ba : hw.w0, P[m], 0u);
      h = hfma2(ba ? hw.w0_ba : hw.w0, P[m + 8], h);
      h = hfma2(ba ? hw.w1_ba : hw.w1, P[m + 2], h);
      h = hfma2(ba ? hw.w1_ba : hw.w1, P[m + 6], h);
      h = hfma2(ba ? hw.w2_ba : hw.w2, P[m + 4], h);
      o[m] = hadd2(h, kBias);
      // STARTER:
      // o[m] = hadd2(P[m + 4], kBias);  // the pair itself, unweighted
      // END EXERCISE
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

// C bytes per pixel (1 or 4), NB bytes per lane, ROWS output rows per warp,
// AHEAD rows loaded ahead; EDGE: the block touches the image's right edge or
// unaligned rows, so lanes may load and store byte by byte.
template <int C, int NB, int ROWS, int AHEAD, bool EDGE>
__device__ __forceinline__ void half2_strip(const std::uint8_t* __restrict__ in, std::uint8_t* __restrict__ out,
                                            int width, int height, int pitch, bool aligned,
                                            const half2::HalfWeights& hw) {
  constexpr int kPixels = NB / C;  // pixels per lane
  constexpr int kPairs = NB / 2;   // half2 registers per lane
  constexpr int kWords = NB / 4;   // 32-bit words loaded per lane
  constexpr int kRowsIn = ROWS + 4;
  constexpr int kRaw = (AHEAD + 1 + 4) / 5 * 5;  // raw rows kept: whole rings of 5, so slots are constants
  const int lane = threadIdx.x;
  const int first_byte = blockIdx.x * 30 * NB + (lane - 1) * NB;  // this lane's first byte in a row
  const int first_pixel = first_byte / C;
  const int y0 = (blockIdx.y * kWarps + threadIdx.y) * ROWS;
  if (y0 >= height) return;  // the whole warp leaves: the shuffles below need every lane
  const int row_bytes = width * C;
  const bool vector_io = !EDGE || (aligned && first_byte >= 0 && first_byte + NB <= row_bytes);
  const bool writes = lane >= 1 && lane < 31 && (!EDGE || first_byte < row_bytes);

  std::uint32_t ring[5][kPairs];    // the last 5 rows, as biased halves
  std::uint32_t raw[kRaw][kWords];  // rows as loaded, AHEAD in flight (registers)

  auto load_row = [&](int i, std::uint32_t* words) {
    const int r = min(max(y0 - 2 + i, 0), height - 1);  // clamp-to-edge
    const std::uint8_t* row = in + static_cast<std::size_t>(r) * pitch;
    if (vector_io) {
      load_words<NB>(row + first_byte, words);
    } else {
#pragma unroll
      for (int k = 0; k < kWords; ++k) words[k] = 0;
#pragma unroll
      for (int p = 0; p < kPixels; ++p) {
        const int x = min(max(first_pixel + p, 0), width - 1);  // clamp-to-edge
#pragma unroll
        for (int b = 0; b < C; ++b) {
          const int byte = p * C + b;
          words[byte / 4] |= std::uint32_t{row[x * C + b]} << (8 * (byte % 4));
        }
      }
    }
  };

#pragma unroll
  for (int i = 0; i < AHEAD; ++i) load_row(i, raw[i]);

#pragma unroll 1
  for (int base = 0; base < kRowsIn; base += kRaw) {
#pragma unroll
    for (int j = 0; j < kRaw; ++j) {
      const int i = base + j;
      if (i >= kRowsIn) break;
      if (i + AHEAD < kRowsIn) load_row(i + AHEAD, raw[(j + AHEAD) % kRaw]);
      unpack_row<NB>(raw[j], ring[j % 5]);
      if (i < 4) continue;  // the first 4 rows only fill the ring
      const int y = y0 + i - 4;

      // Rows i-4 .. i sit in ring slots (j+1) .. (j+4), j (mod 5).
      std::uint32_t packed[kWords];
      out_row<C, NB>(ring[(j + 1) % 5], ring[(j + 2) % 5], ring[(j + 3) % 5], ring[(j + 4) % 5], ring[j % 5], hw,
                     packed);

      if (writes && y < height)
        store_row<NB>(out + static_cast<std::size_t>(y) * pitch + first_byte, packed, vector_io,
                      row_bytes - first_byte);
    }
  }
}

template <int C, int NB, int ROWS, int AHEAD, int MIN_BLOCKS>
__global__ void __launch_bounds__(32 * kWarps, MIN_BLOCKS)
    blur_half2_strip(const std::uint8_t* __restrict__ in, std::uint8_t* __restrict__ out, int width, int height,
                     int pitch, bool aligned, half2::HalfWeights hw) {
  const int block_first_byte = static_cast<int>(blockIdx.x) * 30 * NB - NB;  // lane 0's first byte
  const bool interior = aligned && block_first_byte >= 0 && block_first_byte + 32 * NB <= width * C;
  if (interior)
    half2_strip<C, NB, ROWS, AHEAD, false>(in, out, width, height, pitch, aligned, hw);
  else
    half2_strip<C, NB, ROWS, AHEAD, true>(in, out, width, height, pitch, aligned, hw);
}

// The strips of one pixel format in half2_plan.hpp's shape.
template <int C, int NB = half2::half2_lane_bytes(C), int ROWS = half2::half2_rows(C),
          int AHEAD = half2::half2_ahead(C), int MIN_BLOCKS = half2::half2_min_blocks(C)>
void launch_half2(const std::uint8_t* in, std::uint8_t* out, const gauss::Problem& p, const half2::HalfWeights& hw,
                  cudaStream_t stream) {
  const gauss::ImageGeometry& g = p.image;
  const dim3 block(32, kWarps);
  const dim3 grid((g.width * C + 30 * NB - 1) / (30 * NB), (g.height + ROWS * kWarps - 1) / (ROWS * kWarps));
  const bool aligned = g.pitch % NB == 0 && reinterpret_cast<std::uintptr_t>(in) % NB == 0 &&
                       reinterpret_cast<std::uintptr_t>(out) % NB == 0;
  blur_half2_strip<C, NB, ROWS, AHEAD, MIN_BLOCKS>
      <<<grid, block, 0, stream>>>(in, out, g.width, g.height, g.pitch, aligned, hw);
}

}  // namespace

bool launch_blur_half2(const std::uint8_t* in, std::uint8_t* out, const gauss::Problem& problem, cudaStream_t stream) {
  const auto hw = half2::half2_weights(problem.blur);
  if (!hw) return false;
  if (problem.image.channels == 4)
    launch_half2<4>(in, out, problem, *hw, stream);
  else
    launch_half2<1>(in, out, problem, *hw, stream);
  return true;
}
