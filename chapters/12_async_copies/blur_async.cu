// Chapter 12: loads in flight without registers, in CUDA. Chapter 11's
// packed-half warp strips (read blur_half2.cu's opening comment first), with
// one change: the rows a warp loads ahead wait in shared memory, not in
// registers. half2_plan.hpp says which blur this serves and proves its error
// bound.
//
// A load in flight holds its destination register until the data arrives:
// chapter 11's strips keep AHEAD rows of NB bytes per lane in registers for
// that. Since Ampere, cp.async copies global memory straight into shared
// memory: a lane issues the copy and moves on, no register waits for it.
//  * copy_async: one 8- or 16-byte copy, global to this lane's slot;
//  * commit_copies: closes a group of the copies issued so far;
//  * wait_copies<N>: waits until at most N groups are still in flight.
// Each warp owns 8 rows of shared memory (its slots: a power of two above
// AHEAD); row i goes to slot i mod 8. Per row, the lane issues the copy of row
// i + AHEAD, commits one group, waits until row i has arrived, and reads its
// own NB bytes of row i back with one shared-memory load; from there the row
// is unpacked and summed exactly as in chapter 11 (unpack_row, out_row and
// store_row are chapter 11's). Every row of a warp is unrolled, so every slot
// is a constant offset. A lane reads back only what it copied itself, so no
// barrier is needed. Lanes whose bytes cross the image's edge (or rows that
// are not aligned) gather them byte by byte, as in chapter 11, and store them
// into their slot by hand.
//
// The lesson of reading the SASS (README, section "Reading the SASS"):
// STACK_FRAME writes the edge store as the natural loop bounded at run time,
// which makes the compiler put the packed words in local memory (a stack
// frame: an STL in every row of the edge body). The variant stack_frame runs
// it.
//
// Strips lying wholly inside aligned rows (all but the last column of
// blocks, typically) run a body without the byte-by-byte edge paths: the
// edge code in every row costs 3-6% (measured on the H200) in instruction
// cache and branches.
#include <cstdint>

#include "async_plan.hpp"
#include "blur_async.cuh"
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
// global memory, or from the lane's slot in shared memory.
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
// STACK_FRAME (the variant stack_frame only): the byte loop as one would
// write it first, bounded at run time.
template <int NB, bool STACK_FRAME = false>
__device__ __forceinline__ void store_row(std::uint8_t* at, const std::uint32_t* packed, bool vector, int bytes_left) {
  if (vector) {
    if constexpr (NB == 16) {
      *reinterpret_cast<uint4*>(at) = make_uint4(packed[0], packed[1], packed[2], packed[3]);
    } else if constexpr (NB == 4) {
      *reinterpret_cast<std::uint32_t*>(at) = packed[0];
    } else {
      *reinterpret_cast<uint2*>(at) = make_uint2(packed[0], packed[1]);
    }
  } else if constexpr (STACK_FRAME) {
    // Its trip count is known only at run time, so it is not unrolled, so
    // packed[b / 4] is indexed at run time: registers cannot be indexed, so
    // the compiler puts packed[] in local memory (the stack) and stores it
    // there in every row, before it knows whether the lane takes this path.
    for (int b = 0; b < NB && b < bytes_left; ++b) at[b] = static_cast<std::uint8_t>(packed[b / 4] >> (8 * (b % 4)));
  } else {
    // Unrolled, so packed[] is indexed by constants and stays in registers
    // (a loop to bytes_left would index it at run time: a stack frame).
#pragma unroll
    for (int b = 0; b < NB; ++b)
      if (b < bytes_left) at[b] = static_cast<std::uint8_t>(packed[b / 4] >> (8 * (b % 4)));
  }
}

// Rows of shared memory per warp: a power of two above AHEAD, so a row's slot
// is its index masked.
__host__ __device__ constexpr int async_slots(int ahead) { return ahead < 8 ? 8 : 16; }

// C bytes per pixel (1 or 4), NB bytes per lane, ROWS output rows per warp,
// AHEAD rows loaded ahead into the warp's slots of shared memory (`slots`);
// EDGE: the block touches the image's right edge or unaligned rows, so lanes
// may load and store byte by byte. STACK_FRAME: store_row's run-time loop.
template <int C, int NB, int ROWS, int AHEAD, bool EDGE, bool STACK_FRAME>
__device__ __forceinline__ void half2_strip(const std::uint8_t* __restrict__ in, std::uint8_t* __restrict__ out,
                                            int width, int height, int pitch, bool aligned,
                                            const half2::HalfWeights& hw, std::uint8_t* slots) {
  static_assert(NB >= 8, "cp.async copies 8 or 16 bytes per lane here");
  constexpr int kPixels = NB / C;  // pixels per lane
  constexpr int kPairs = NB / 2;   // half2 registers per lane
  constexpr int kWords = NB / 4;   // 32-bit words loaded per lane
  constexpr int kRowsIn = ROWS + 4;
  constexpr int kSlots = async_slots(AHEAD);
  const int lane = threadIdx.x;
  const int first_byte = blockIdx.x * 30 * NB + (lane - 1) * NB;  // this lane's first byte in a row
  const int first_pixel = first_byte / C;
  const int y0 = (blockIdx.y * kWarps + threadIdx.y) * ROWS;
  if (y0 >= height) return;  // the whole warp leaves: the shuffles below need every lane
  const int row_bytes = width * C;
  const bool vector_io = !EDGE || (aligned && first_byte >= 0 && first_byte + NB <= row_bytes);
  const bool writes = lane >= 1 && lane < 31 && (!EDGE || first_byte < row_bytes);

  std::uint32_t ring[5][kPairs];  // the last 5 rows, as biased halves
  std::uint32_t words[kWords];    // the row in use, read back from its slot
  // This lane's NB bytes of row i's slot.
  std::uint8_t* const mine = slots + (threadIdx.y * kSlots * 32 + lane) * NB;
  auto slot_of = [&](int i) { return mine + (i & (kSlots - 1)) * 32 * NB; };

  // Starts row i's bytes on their way to their slot: by cp.async where the
  // lane's NB bytes are one aligned vector inside the row, else gathered byte
  // by byte (columns clamped) and stored into the slot by hand.
  auto issue_row = [&](int i) {
    const int r = min(max(y0 - 2 + i, 0), height - 1);  // clamp-to-edge
    const std::uint8_t* row = in + static_cast<std::size_t>(r) * pitch;
    if (vector_io) {
      copy_async(static_cast<std::uint32_t>(__cvta_generic_to_shared(slot_of(i))), row + first_byte, NB);
    } else {
      std::uint32_t gathered[kWords];
#pragma unroll
      for (int k = 0; k < kWords; ++k) gathered[k] = 0;
#pragma unroll
      for (int p = 0; p < kPixels; ++p) {
        const int x = min(max(first_pixel + p, 0), width - 1);  // clamp-to-edge
#pragma unroll
        for (int b = 0; b < C; ++b) {
          const int byte = p * C + b;
          gathered[byte / 4] |= std::uint32_t{row[x * C + b]} << (8 * (byte % 4));
        }
      }
      std::uint32_t* slot = reinterpret_cast<std::uint32_t*>(slot_of(i));
#pragma unroll
      for (int k = 0; k < kWords; ++k) slot[k] = gathered[k];
    }
  };

  // EXERCISE: issue the first AHEAD rows, one group of copies per row
#pragma unroll
  for (int i = 0; i < AHEAD; ++i) {
    issue_row(i);
    commit_copies();
  }
  // END EXERCISE

#pragma unroll
  for (int i = 0; i < kRowsIn; ++i) {
    // EXERCISE: issue row i + AHEAD (while there is one), commit a group, wait until row i has arrived, read it back
    if (i + AHEAD < kRowsIn) issue_row(i + AHEAD);
    commit_copies();  // one group per row, empty near the end: the count stays exact
    wait_copies<AHEAD>();
    load_words<NB>(slot_of(i), words);
    // STARTER:
    // for (int k = 0; k < kWords; ++k) words[k] = 0;  // no row arrives: a black image
    // END EXERCISE
    unpack_row<NB>(words, ring[i % 5]);
    if (i < 4) continue;  // the first 4 rows only fill the ring
    const int y = y0 + i - 4;

    // Rows i-4 .. i sit in ring slots (i+1) .. (i+4), i (mod 5).
    std::uint32_t packed[kWords];
    out_row<C, NB>(ring[(i + 1) % 5], ring[(i + 2) % 5], ring[(i + 3) % 5], ring[(i + 4) % 5], ring[i % 5], hw, packed);

    if (writes && y < height)
      store_row<NB, STACK_FRAME>(out + static_cast<std::size_t>(y) * pitch + first_byte, packed, vector_io,
                                 row_bytes - first_byte);
  }
}

template <int C, int NB, int ROWS, int AHEAD, int MIN_BLOCKS, bool STACK_FRAME>
__global__ void __launch_bounds__(32 * kWarps, MIN_BLOCKS)
    blur_half2_async(const std::uint8_t* __restrict__ in, std::uint8_t* __restrict__ out, int width, int height,
                     int pitch, bool aligned, half2::HalfWeights hw) {
  __shared__ __align__(16) std::uint8_t slots[kWarps * async_slots(AHEAD) * 32 * NB];
  const int block_first_byte = static_cast<int>(blockIdx.x) * 30 * NB - NB;  // lane 0's first byte
  const bool interior = aligned && block_first_byte >= 0 && block_first_byte + 32 * NB <= width * C;
  if (interior)
    half2_strip<C, NB, ROWS, AHEAD, false, STACK_FRAME>(in, out, width, height, pitch, aligned, hw, slots);
  else
    half2_strip<C, NB, ROWS, AHEAD, true, STACK_FRAME>(in, out, width, height, pitch, aligned, hw, slots);
}

// The strips of one pixel format in async_plan.hpp's shape.
template <int C, bool STACK_FRAME, int NB = async::lane_bytes(C), int ROWS = async::rows(C),
          int AHEAD = async::ahead(C), int MIN_BLOCKS = async::min_blocks(C)>
void launch_async(const std::uint8_t* in, std::uint8_t* out, const gauss::Problem& p, const half2::HalfWeights& hw,
                  cudaStream_t stream) {
  const gauss::ImageGeometry& g = p.image;
  const dim3 block(32, kWarps);
  const dim3 grid((g.width * C + 30 * NB - 1) / (30 * NB), (g.height + ROWS * kWarps - 1) / (ROWS * kWarps));
  const bool aligned = g.pitch % NB == 0 && reinterpret_cast<std::uintptr_t>(in) % NB == 0 &&
                       reinterpret_cast<std::uintptr_t>(out) % NB == 0;
  blur_half2_async<C, NB, ROWS, AHEAD, MIN_BLOCKS, STACK_FRAME>
      <<<grid, block, 0, stream>>>(in, out, g.width, g.height, g.pitch, aligned, hw);
}

}  // namespace

bool launch_blur_async(const std::uint8_t* in, std::uint8_t* out, const gauss::Problem& problem, cudaStream_t stream) {
  const auto hw = half2::half2_weights(problem.blur);
  if (!hw) return false;
  if (problem.image.channels == 4)
    launch_async<4, false>(in, out, problem, *hw, stream);
  else
    launch_async<1, false>(in, out, problem, *hw, stream);
  return true;
}

bool launch_blur_async_stack_frame(const std::uint8_t* in, std::uint8_t* out, const gauss::Problem& problem,
                                   cudaStream_t stream) {
  const auto hw = half2::half2_weights(problem.blur);
  if (!hw) return false;
  if (problem.image.channels == 4)
    launch_async<4, true>(in, out, problem, *hw, stream);
  else
    launch_async<1, true>(in, out, problem, *hw, stream);
  return true;
}
