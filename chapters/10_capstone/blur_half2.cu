// Chapter 10: the capstone's fastest path, in CUDA. The warp strips of
// blur_fused.cu (read its opening comment first), with the arithmetic in
// packed half precision: two pixels per 32-bit register, one instruction for
// both. fused_plan.hpp says which blur this serves and proves its error bound.
//
// A warp owns a strip of 32 x NB bytes of every row (NB bytes per lane: 8 for
// gray, 16 for RGBA); its two end lanes only supply their sums to their
// neighbours, so 30 x NB bytes are written per row. The warp walks ROWS output
// rows down, ROWS + 4 input rows, loading each AHEAD rows before its use.
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
// Blocks whose strips lie wholly inside aligned rows (all but the last column
// of blocks, typically) run a body without the byte-by-byte edge paths: the
// edge code in every row costs 3-6% (measured on the H200) in instruction
// cache and branches.
#include <cstdint>

#include "blur_half2.cuh"
#include "fused_plan.hpp"

namespace {

constexpr int kWarps = fused::kWarpsPerBlock;

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
// global memory, or from the lane's slot in shared memory (ASYNC).
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

// Rows of shared memory per warp when rows come by cp.async: a power of two
// above AHEAD, so a row's slot is its index masked.
__host__ __device__ constexpr int async_slots(int ahead) { return ahead < 8 ? 8 : 16; }

// C bytes per pixel (1 or 4), NB bytes per lane, ROWS output rows per warp,
// AHEAD rows loaded ahead; EDGE: the block touches the image's right edge or
// unaligned rows, so lanes may load and store byte by byte. ASYNC: the rows
// ahead travel by cp.async into the warp's slots of shared memory (`slots`)
// instead of into registers, and the rows are unrolled whole.
template <int C, int NB, int ROWS, int AHEAD, bool EDGE, bool ASYNC>
__device__ __forceinline__ void half2_strip(const std::uint8_t* __restrict__ in, std::uint8_t* __restrict__ out,
                                            int width, int height, int pitch, bool aligned,
                                            const fused::HalfWeights& hw, std::uint8_t* slots) {
  static_assert(!ASYNC || NB >= 8, "cp.async copies 8 or 16 bytes per lane here");
  constexpr int kPixels = NB / C;  // pixels per lane
  constexpr int kPairs = NB / 2;   // half2 registers per lane
  constexpr int kWords = NB / 4;   // 32-bit words loaded per lane
  constexpr int kRowsIn = ROWS + 4;
  constexpr int kRaw = (AHEAD + 1 + 4) / 5 * 5;  // raw rows kept: whole rings of 5, so slots are constants
  // Rows per pass of the unrolled loop: the raw ring's, or (ASYNC, no raw
  // registers) all of them, so that every shared-memory slot is a constant.
  constexpr int kUnrolled = ASYNC ? (kRowsIn + 4) / 5 * 5 : kRaw;
  constexpr int kSlots = async_slots(AHEAD);
  const int lane = threadIdx.x;
  const int first_byte = blockIdx.x * 30 * NB + (lane - 1) * NB;  // this lane's first byte in a row
  const int first_pixel = first_byte / C;
  const int y0 = (blockIdx.y * kWarps + threadIdx.y) * ROWS;
  if (y0 >= height) return;  // the whole warp leaves: the shuffles below need every lane
  const int row_bytes = width * C;
  const bool vector_io = !EDGE || (aligned && first_byte >= 0 && first_byte + NB <= row_bytes);
  const bool writes = lane >= 1 && lane < 31 && (!EDGE || first_byte < row_bytes);

  std::uint32_t ring[5][kPairs];                // the last 5 rows, as biased halves
  std::uint32_t raw[ASYNC ? 1 : kRaw][kWords];  // rows as loaded, AHEAD in flight (registers)
  // ASYNC: this lane's NB bytes of row i's slot.
  std::uint8_t* const mine = slots + (threadIdx.y * kSlots * 32 + lane) * NB;
  auto slot_of = [&](int i) { return mine + (i & (kSlots - 1)) * 32 * NB; };

  auto load_row = [&](int i, std::uint32_t* words) {
    const int r = min(max(y0 - 2 + i, 0), height - 1);  // clamp-to-edge
    const std::uint8_t* row = in + static_cast<std::size_t>(r) * pitch;
    if (ASYNC && vector_io) {
      copy_async(static_cast<std::uint32_t>(__cvta_generic_to_shared(slot_of(i))), row + first_byte, NB);
      return;
    }
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
    if constexpr (ASYNC) {  // the edge lanes' bytes go to their slot by a plain store
      std::uint32_t* slot = reinterpret_cast<std::uint32_t*>(slot_of(i));
#pragma unroll
      for (int k = 0; k < kWords; ++k) slot[k] = words[k];
    }
  };

#pragma unroll
  for (int i = 0; i < AHEAD; ++i) {
    load_row(i, raw[ASYNC ? 0 : i]);
    if constexpr (ASYNC) commit_copies();
  }

#pragma unroll 1
  for (int base = 0; base < kRowsIn; base += kUnrolled) {
#pragma unroll
    for (int j = 0; j < kUnrolled; ++j) {
      const int i = base + j;
      if (i >= kRowsIn) break;
      if (i + AHEAD < kRowsIn) load_row(i + AHEAD, raw[ASYNC ? 0 : (j + AHEAD) % kRaw]);
      const std::uint32_t* words = raw[ASYNC ? 0 : j % kRaw];
      if constexpr (ASYNC) {
        commit_copies();  // one group per row, empty near the end: the count stays exact
        wait_copies<AHEAD>();
        load_words<NB>(slot_of(i), raw[0]);
      }
      // Unpack row i: bytes 2m, 2m+1 of the lane become the halves of pair m.
#pragma unroll
      for (int m = 0; m < kPairs; ++m) ring[j % 5][m] = __byte_perm(words[m / 2], 0x64u, m % 2 ? 0x4342 : 0x4140);
      if (i < 4) continue;  // the first 4 rows only fill the ring
      const int y = y0 + i - 4;

      // Vertical sums: rows i-4 .. i sit in ring slots (j+1) .. (j+4), j (mod 5).
      std::uint32_t v[kPairs];
#pragma unroll
      for (int m = 0; m < kPairs; ++m) {
        const bool ba = C == 4 && m % 2;  // RGBA's (B, A) pair
        const std::uint32_t a = ring[(j + 1) % 5][m] + ring[j % 5][m] - kBias;
        const std::uint32_t b = ring[(j + 2) % 5][m] + ring[(j + 4) % 5][m] - kBias;
        std::uint32_t t = hfma2(ba ? hw.w2_ba : hw.w2, ring[(j + 3) % 5][m], ba ? hw.minus_k_ba : hw.minus_k);
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
      std::uint32_t packed[kWords];
#pragma unroll
      for (int k = 0; k < kWords; ++k) packed[k] = __byte_perm(o[2 * k], o[2 * k + 1], 0x6420);

      if (writes && y < height) {
        std::uint8_t* dst = out + static_cast<std::size_t>(y) * pitch;
        if (vector_io) {
          if constexpr (NB == 16) {
            *reinterpret_cast<uint4*>(dst + first_byte) = make_uint4(packed[0], packed[1], packed[2], packed[3]);
          } else if constexpr (NB == 4) {
            *reinterpret_cast<std::uint32_t*>(dst + first_byte) = packed[0];
          } else {
            *reinterpret_cast<uint2*>(dst + first_byte) = make_uint2(packed[0], packed[1]);
          }
        } else {
          for (int b = 0; b < NB && first_byte + b < row_bytes; ++b)
            dst[first_byte + b] = static_cast<std::uint8_t>(packed[b / 4] >> (8 * (b % 4)));
        }
      }
    }
  }
}

template <int C, int NB, int ROWS, int AHEAD, int MIN_BLOCKS, bool ASYNC>
__global__ void __launch_bounds__(32 * kWarps, MIN_BLOCKS)
    blur_half2_strip(const std::uint8_t* __restrict__ in, std::uint8_t* __restrict__ out, int width, int height,
                     int pitch, bool aligned, fused::HalfWeights hw) {
  __shared__ __align__(16) std::uint8_t slots[ASYNC ? kWarps * async_slots(AHEAD) * 32 * NB : 16];
  const int block_first_byte = static_cast<int>(blockIdx.x) * 30 * NB - NB;  // lane 0's first byte
  const bool interior = aligned && block_first_byte >= 0 && block_first_byte + 32 * NB <= width * C;
  if (interior)
    half2_strip<C, NB, ROWS, AHEAD, false, ASYNC>(in, out, width, height, pitch, aligned, hw, slots);
  else
    half2_strip<C, NB, ROWS, AHEAD, true, ASYNC>(in, out, width, height, pitch, aligned, hw, slots);
}

template <int C, int NB, int ROWS, int AHEAD, int MIN_BLOCKS, bool ASYNC = false>
void launch_half2(const std::uint8_t* in, std::uint8_t* out, const gauss::Problem& p, const fused::HalfWeights& hw,
                  cudaStream_t stream) {
  const gauss::ImageGeometry& g = p.image;
  const dim3 block(32, kWarps);
  const dim3 grid((g.width * C + 30 * NB - 1) / (30 * NB), (g.height + ROWS * kWarps - 1) / (ROWS * kWarps));
  const bool aligned = g.pitch % NB == 0 && reinterpret_cast<std::uintptr_t>(in) % NB == 0 &&
                       reinterpret_cast<std::uintptr_t>(out) % NB == 0;
  blur_half2_strip<C, NB, ROWS, AHEAD, MIN_BLOCKS, ASYNC>
      <<<grid, block, 0, stream>>>(in, out, g.width, g.height, g.pitch, aligned, hw);
}

// The shipped shape of each pixel format (fused_plan.hpp), or the same with
// one of its choices taken back (the ablation).
template <int C>
void launch_half2_ablated(HalfAblation which, const std::uint8_t* in, std::uint8_t* out, const gauss::Problem& p,
                          const fused::HalfWeights& hw, cudaStream_t stream) {
  constexpr int kNB = fused::half2_lane_bytes(C);
  constexpr int kRows = fused::half2_rows(C);
  constexpr int kAhead = fused::half2_ahead(C);
  constexpr int kMinBlocks = fused::half2_min_blocks(C);
  switch (which) {
    case HalfAblation::Shipped:
      return launch_half2<C, kNB, kRows, kAhead, kMinBlocks>(in, out, p, hw, stream);
    case HalfAblation::NoRowsAhead:
      return launch_half2<C, kNB, kRows, 0, kMinBlocks>(in, out, p, hw, stream);
    case HalfAblation::NarrowLanes:
      return launch_half2<C, kNB / 2, kRows, kAhead, kMinBlocks>(in, out, p, hw, stream);
    case HalfAblation::OneRowPerWarp:
      return launch_half2<C, kNB, 1, kAhead, kMinBlocks>(in, out, p, hw, stream);
    case HalfAblation::NoLaunchBounds:
      return launch_half2<C, kNB, kRows, kAhead, 1>(in, out, p, hw, stream);
  }
}

// The cp.async candidate's shape of each pixel format (fused_plan.hpp).
template <int C>
void launch_half2_async(const std::uint8_t* in, std::uint8_t* out, const gauss::Problem& p,
                        const fused::HalfWeights& hw, cudaStream_t stream) {
  launch_half2<C, fused::async_lane_bytes(C), fused::async_rows(C), fused::async_ahead(C), fused::async_min_blocks(C),
               true>(in, out, p, hw, stream);
}

}  // namespace

bool launch_blur_half2_ablated(HalfAblation which, const std::uint8_t* in, std::uint8_t* out,
                               const gauss::Problem& problem, cudaStream_t stream) {
  const auto hw = fused::half2_weights(problem.blur.radius, problem.taps);
  if (!hw) return false;
  if (problem.image.channels == 4)
    launch_half2_ablated<4>(which, in, out, problem, *hw, stream);
  else
    launch_half2_ablated<1>(which, in, out, problem, *hw, stream);
  return true;
}

bool launch_blur_half2(const std::uint8_t* in, std::uint8_t* out, const gauss::Problem& problem, cudaStream_t stream) {
  return launch_blur_half2_ablated(HalfAblation::Shipped, in, out, problem, stream);
}

bool launch_blur_half2_async(const std::uint8_t* in, std::uint8_t* out, const gauss::Problem& problem,
                             cudaStream_t stream) {
  const auto hw = fused::half2_weights(problem.blur.radius, problem.taps);
  if (!hw) return false;
  if (problem.image.channels == 4)
    launch_half2_async<4>(in, out, problem, *hw, stream);
  else
    launch_half2_async<1>(in, out, problem, *hw, stream);
  return true;
}
