// Chapter 14: the capstone in CUDA. Chapter 13's packed-half row arithmetic,
// with the fill of each warp's rows overlapped with its arithmetic.
//
// Chapter 13's block tile brings a block's rows into shared memory at once,
// then the block's warps compute: the fill and the arithmetic of one block
// take turns, and a barrier joins them. Here every warp works on its own and
// never waits for the rows it is about to need:
//  * a warp walks a segment of `segment` output rows down its strip (32 lanes
//    of 16 bytes; 30 of them write), reading the segment's 4 halo rows once;
//  * the rows come in stages of 5, each lane copying its own 16 bytes of
//    every row into its own column of the warp's ring in shared memory by
//    cp.async; `stages` stages are in flight at once, so while the warp works
//    on stage t, stages t+1 .. t+stages-1 are on their way;
//  * a lane reads back only what it copied itself, so waiting for its own
//    copies (cp.async.wait_group) is the only synchronisation: no barrier,
//    no other lane involved;
//  * each row is unpacked once into a ring of the last five rows in
//    registers, and out_row (chapter 11's) computes an output row from them.
// Per 16 output pixels of a lane and row: one cp.async, one shared-memory
// load, eight byte permutes to unpack, out_row's 5 x 8 + 6 x 8 half-precision
// instructions, one 16-byte store: about 8 instructions per pixel, where
// chapter 13's tile spends 12.8 (its fill's address arithmetic and barrier).
//
// The template's knobs (overlap_plan.hpp) switch techniques off one at a
// time for the ablation: stages 1 (no overlap), short segments, floats instead
// of packed halves, conversions instead of byte permutes, each lane summing
// its neighbours' pixels itself instead of shuffles, and rows re-read for
// every output row instead of the ring in registers.
#include <climits>
#include <cstdint>
#include <iterator>

#include "blur_capstone.cuh"
#include "capstone_plan.hpp"
#include "gauss/cuda.hpp"
#include "gauss/image.hpp"
#include "half2_plan.hpp"

// Each Shape carries every knob, and each kernel reads only its own (the
// streaming kernel no tile rows, the tiles no stages): nvcc's "declared but
// never referenced" (177) for the others is expected.
#pragma nv_diag_suppress 177

namespace {

using capstone::Ablation;
using capstone::Knobs;
using half2::FarHalfWeights;
using half2::HalfWeights;
constexpr int kWarps = capstone::kWarpsPerBlock;
constexpr std::uint32_t kBias = 0x64006400u;  // the halves (1024, 1024)

// Offsets within an image are int, as in OpenCL C (gauss/image.hpp caps an
// image at 2^28 pixels of 4 bytes).
static_assert(gauss::kMaxImagePixels * 4 <= std::size_t{INT_MAX}, "image offsets must fit in an int");

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

// cp.async: global to shared memory without a register in between; complete
// by groups, in the order they were committed.
template <int NB>
__device__ __forceinline__ void copy_async(std::uint32_t shared_address, const void* global) {
  if constexpr (NB == 16)
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(shared_address), "l"(global) : "memory");
  else
    asm volatile("cp.async.ca.shared.global [%0], [%1], 8;" ::"r"(shared_address), "l"(global) : "memory");
}
__device__ __forceinline__ void commit_copies() { asm volatile("cp.async.commit_group;" ::: "memory"); }
template <int PENDING>  // wait until at most PENDING groups of this thread are still in flight
__device__ __forceinline__ void wait_copies() {
  asm volatile("cp.async.wait_group %0;" ::"n"(PENDING) : "memory");
}

// N words (4 bytes each) from shared memory, by one vector load where N allows.
template <int N>
__device__ __forceinline__ void load_words(const std::uint8_t* at, std::uint32_t* words) {
  if constexpr (N == 4) {
    const uint4 v = *reinterpret_cast<const uint4*>(at);
    words[0] = v.x, words[1] = v.y, words[2] = v.z, words[3] = v.w;
  } else if constexpr (N == 2) {
    const uint2 v = *reinterpret_cast<const uint2*>(at);
    words[0] = v.x, words[1] = v.y;
  } else {
#pragma unroll
    for (int k = 0; k < N; ++k) words[k] = reinterpret_cast<const std::uint32_t*>(at)[k];
  }
}

// --- Bytes to biased halves and back -------------------------------------------
// Pair m of a row holds bytes 2m and 2m+1 as the halves 1024 + b (0x64bb).

template <bool PERMUTES>
__device__ __forceinline__ std::uint32_t unpack_pair(std::uint32_t word, int high) {
  if constexpr (PERMUTES) {
    return __byte_perm(word, 0x64u, high ? 0x4342 : 0x4140);  // one PRMT
  } else {
    // Each byte converted to a half by the conversion unit, as a compiler
    // does for (half)byte: two conversions per pair instead of a permute.
    const unsigned b0 = 1024u + ((word >> (high ? 16 : 0)) & 0xFFu);
    const unsigned b1 = 1024u + ((word >> (high ? 24 : 8)) & 0xFFu);
    unsigned short h0, h1;
    asm("cvt.rn.f16.u32 %0, %1;" : "=h"(h0) : "r"(b0));
    asm("cvt.rn.f16.u32 %0, %1;" : "=h"(h1) : "r"(b1));
    return static_cast<std::uint32_t>(h0) | static_cast<std::uint32_t>(h1) << 16;
  }
}

// Four rounded bytes from two pairs of sums (each rounded integer in the low
// byte of its half): one PRMT, or four conversions and shifts.
template <bool PERMUTES>
__device__ __forceinline__ std::uint32_t pack_bytes(std::uint32_t lo, std::uint32_t hi) {
  if constexpr (PERMUTES) {
    return __byte_perm(lo, hi, 0x6420);
  } else {
    // The halves hold 1024 + value: convert each back to an integer.
    unsigned b[4];
    const unsigned short h[4] = {static_cast<unsigned short>(lo), static_cast<unsigned short>(lo >> 16),
                                 static_cast<unsigned short>(hi), static_cast<unsigned short>(hi >> 16)};
#pragma unroll
    for (int k = 0; k < 4; ++k) asm("cvt.rzi.u32.f16 %0, %1;" : "=r"(b[k]) : "h"(h[k]));
    return (b[0] - 1024u) | (b[1] - 1024u) << 8 | (b[2] - 1024u) << 16 | (b[3] - 1024u) << 24;
  }
}

// --- One output row in packed halves (chapter 11's out_row, any radius) -------
// From the 2R + 1 input rows around it, rows k = 0 (top) .. 2R (bottom) in
// ring[(newest + 1 + k) % (2R + 1)] (biased halves over the lane's span: its
// own kPairs pairs, and SIDE pairs of each neighbour where it sums them
// itself). The vertical sums add each pair of rows d above and below as
// integers first (exact: 1024 + b + 1024 + b' - 1024 stays in [1024, 2048)),
// then the centre row and those pairs, nearest first; the horizontal sums
// take the neighbours' pairs by shuffle (SIDE 0: every lane of the warp must
// call this) or from the span, outermost tap first. Radius 2 is chapter 11's
// order exactly; half2_error_bound follows the same order for any radius.
__device__ __forceinline__ std::uint32_t tap(const HalfWeights& hw, const FarHalfWeights& far, int d, bool ba) {
  switch (d) {
    case 0:
      return ba ? hw.w2_ba : hw.w2;
    case 1:
      return ba ? hw.w1_ba : hw.w1;
    case 2:
      return ba ? hw.w0_ba : hw.w0;
    case 3:
      return ba ? far.w3_ba : far.w3;
    case 4:
      return ba ? far.w4_ba : far.w4;
    default:
      return ba ? far.w5_ba : far.w5;
  }
}

template <int C, int NB, int SIDE, bool PERMUTES, int R, int kSpan>
__device__ __forceinline__ void out_row(const std::uint32_t (*ring)[kSpan], int newest, const HalfWeights& hw,
                                        const FarHalfWeights& far, std::uint32_t* packed) {
  constexpr int kPairs = NB / 2;
  constexpr int kTaps = 2 * R + 1;
  constexpr int kSent = C == 4 ? 2 * R : (R + 1) / 2;  // pairs taken from each neighbour
  static_assert(kSpan == kPairs + 2 * SIDE, "the span is the lane's pairs and SIDE on each side");
  static_assert(SIDE == 0 || SIDE >= kSent, "a lane summing its neighbours needs their edge pairs");
  static_assert(kSent <= kPairs, "the neighbours' pairs come from the next lane only");
  std::uint32_t span[kSpan];
#pragma unroll
  for (int m = 0; m < kSpan; ++m) {
    const bool ba = C == 4 && (m - SIDE) % 2;  // RGBA's (B, A) pair; SIDE is even
    std::uint32_t t = hfma2(tap(hw, far, 0, ba), ring[(newest + 1 + R) % kTaps][m], ba ? hw.minus_k_ba : hw.minus_k);
#pragma unroll
    for (int d = 1; d <= R; ++d) {
      const std::uint32_t pair = ring[(newest + 1 + R - d) % kTaps][m] + ring[(newest + 1 + R + d) % kTaps][m] - kBias;
      t = hfma2(tap(hw, far, d, ba), pair, t);
    }
    span[m] = t;
  }
  const std::uint32_t* v = span + SIDE;
  std::uint32_t from_left[kSent], from_right[kSent];
#pragma unroll
  for (int k = 0; k < kSent; ++k) {
    if constexpr (SIDE == 0) {
      from_left[k] = __shfl_up_sync(0xffffffffu, v[kPairs - kSent + k], 1);
      from_right[k] = __shfl_down_sync(0xffffffffu, v[k], 1);
    } else {
      from_left[k] = v[k - kSent];
      from_right[k] = v[kPairs + k];
    }
  }
  // P[k + kSent] = pair k, k = -kSent .. kPairs + kSent - 1.
  std::uint32_t P[kPairs + 2 * kSent];
#pragma unroll
  for (int k = 0; k < kSent; ++k) {
    P[k] = from_left[k];
    P[kPairs + kSent + k] = from_right[k];
  }
#pragma unroll
  for (int m = 0; m < kPairs; ++m) P[m + kSent] = v[m];
  std::uint32_t o[kPairs];
  if constexpr (C == 1) {
    // Q[k] = the pixels between P[k] and P[k + 1] (2 (k - kSent) + 1 and
    // + 2): a funnel of two pairs by 16 bits.
    std::uint32_t Q[kPairs + 2 * kSent - 1];
#pragma unroll
    for (int k = 0; k < kPairs + 2 * kSent - 1; ++k) Q[k] = __funnelshift_r(P[k], P[k + 1], 16);
    // Output pair m, offset d: pixels 2m + d, 2m + d + 1, a pair (d even) or
    // the funnel between two (d odd).
    auto at = [&](int m, int d) { return d % 2 == 0 ? P[m + kSent + d / 2] : Q[m + kSent + (d - 1) / 2]; };
#pragma unroll
    for (int m = 0; m < kPairs; ++m) {
      std::uint32_t h = 0u;  // the first HFMA2 adds its product to 0: rounds the product alone
#pragma unroll
      for (int d = R; d >= 1; --d) {
        h = hfma2(tap(hw, far, d, false), at(m, -d), h);
        h = hfma2(tap(hw, far, d, false), at(m, d), h);
      }
      h = hfma2(tap(hw, far, 0, false), at(m, 0), h);
      o[m] = hadd2(h, kBias);  // rounds to the nearest integer, left in the low byte
    }
  } else {
    // Two pairs per pixel: offset d is pair m + 2d.
#pragma unroll
    for (int m = 0; m < kPairs; ++m) {
      const bool ba = m % 2;
      std::uint32_t h = 0u;
#pragma unroll
      for (int d = R; d >= 1; --d) {
        h = hfma2(tap(hw, far, d, ba), P[m + kSent - 2 * d], h);
        h = hfma2(tap(hw, far, d, ba), P[m + kSent + 2 * d], h);
      }
      h = hfma2(tap(hw, far, 0, ba), P[m + kSent], h);
      o[m] = hadd2(h, kBias);
    }
  }
#pragma unroll
  for (int k = 0; k < NB / 4; ++k) packed[k] = pack_bytes<PERMUTES>(o[2 * k], o[2 * k + 1]);
}

// --- One output row in float (the ablation's "no packed halves") --------------
// Every value in its own register: a byte becomes a float by a permute and a
// subtraction (chapter 10), each of the kValues values per row takes five
// multiply-adds vertically and five horizontally.
__device__ __forceinline__ float byte_to_float(std::uint32_t word, int byte) {
  return __uint_as_float(__byte_perm(word, 0x4B000000u, 0x7540 | byte)) - 8388608.0f;
}
__device__ __forceinline__ std::uint32_t floor_to_low_byte(float s) {
  return __float_as_uint(__fadd_rd(s, 8388608.0f));
}

template <int C, int NB, int SIDE>
__device__ __forceinline__ void out_row_f32(const float* r0, const float* r1, const float* r2, const float* r3,
                                            const float* r4, const float* w, std::uint32_t* packed) {
  constexpr int kValues = NB + 2 * SIDE;  // one per byte of the span (alpha included, passed through)
  constexpr int kSent = 2 * C;            // values (two pixels) taken from each neighbour
  float span[kValues];
#pragma unroll
  for (int m = 0; m < kValues; ++m) {
    if (C == 4 && ((m - SIDE) & 3) == 3) {
      span[m] = r2[m];  // alpha: the output row's own (SIDE is a multiple of 4)
    } else {
      float s = w[2] * r2[m];
      s = fmaf(w[1], r1[m] + r3[m], s);
      span[m] = fmaf(w[0], r0[m] + r4[m], s);
    }
  }
  const float* v = span + SIDE;
  float left[kSent], right[kSent];
#pragma unroll
  for (int k = 0; k < kSent; ++k) {
    if constexpr (SIDE == 0) {
      left[k] = __shfl_up_sync(0xffffffffu, v[NB - kSent + k], 1);
      right[k] = __shfl_down_sync(0xffffffffu, v[k], 1);
    } else {
      left[k] = v[k - kSent];
      right[k] = v[NB + k];
    }
  }
#pragma unroll
  for (int k = 0; k < NB / 4; ++k) {
    std::uint32_t word = 0;
#pragma unroll
    for (int b = 0; b < 4; ++b) {
      const int m = 4 * k + b;
      std::uint32_t byte;
      if (C == 4 && m % 4 == 3) {
        byte = floor_to_low_byte(v[m]);  // alpha, exact
      } else {
        float s = 0.5f;  // rounding half up: floor(sum + 0.5)
#pragma unroll
        for (int d = -2; d <= 2; ++d) {
          const int q = m + d * C;  // the same channel d pixels away
          const float value = q < 0 ? left[kSent + q] : q >= NB ? right[q - NB] : v[q];
          s = fmaf(w[d + 2], value, s);
        }
        byte = floor_to_low_byte(s);
      }
      word = __byte_perm(word, byte, b == 0 ? 0x3214 : b == 1 ? 0x3240 : b == 2 ? 0x3410 : 0x4210);
    }
    packed[k] = word;
  }
}

// A lane's NB bytes of one output row: one vector store, or byte by byte at
// the image's right edge and on unaligned rows (unrolled, so packed[] keeps
// constant indices and stays in registers: chapter 12's stack frame).
template <int NB>
__device__ __forceinline__ void store_row(std::uint8_t* at, const std::uint32_t* packed, bool vector, int bytes_left) {
  if (vector) {
    if constexpr (NB == 16) {
      *reinterpret_cast<uint4*>(at) = make_uint4(packed[0], packed[1], packed[2], packed[3]);
    } else {
      *reinterpret_cast<uint2*>(at) = make_uint2(packed[0], packed[1]);
    }
  } else {
#pragma unroll
    for (int b = 0; b < NB; ++b)
      if (b < bytes_left) at[b] = static_cast<std::uint8_t>(packed[b / 4] >> (8 * (b % 4)));
  }
}

// A lane's NB bytes of a row that is not wholly inside an aligned row, as
// words: the image's edge pixel repeated where the lane lies wholly outside
// the row, else byte by byte with the column clamped.
template <int C, int NB>
__device__ __forceinline__ void edge_words(const std::uint8_t* row, int width, int first_byte, std::uint32_t* words) {
  const int row_bytes = width * C;
  if (first_byte >= row_bytes || first_byte + NB <= 0) {
    const std::uint8_t* edge = row + (first_byte < 0 ? 0 : row_bytes - C);
    std::uint32_t word = *edge;
    if (C == 4)
      word = word | std::uint32_t{edge[1]} << 8 | std::uint32_t{edge[2]} << 16 | std::uint32_t{edge[3]} << 24;
    else
      word *= 0x01010101u;
#pragma unroll
    for (int k = 0; k < NB / 4; ++k) words[k] = word;
    return;
  }
#pragma unroll
  for (int k = 0; k < NB / 4; ++k) words[k] = 0;
#pragma unroll
  for (int j = 0; j < NB; ++j) {
    const int b = first_byte + j;
    const int x = b >= 0 ? b / C : -((C - 1 - b) / C);  // floor(b / C)
    const int channel = b - x * C;
    words[j / 4] |= std::uint32_t{row[min(max(x, 0), width - 1) * C + channel]} << (8 * (j % 4));
  }
}

// --- The kernel ------------------------------------------------------------------
// Shape K (overlap_plan.hpp's Knobs as compile-time constants), C bytes per
// pixel. Warp w of block b walks item b * kWarps + w: strip item % strips,
// segment item / strips (neighbouring warps take neighbouring strips of the
// same rows, so the halo rows they share are read from L2 together).
template <int C, bool TILES, int NB_, int ROWS, int SEG, int S, int MIN_BLOCKS, bool HALVES, bool PERMUTES,
          bool SHUFFLES, bool RING, bool ONE_IN_FLIGHT, int R>
struct Shape {
  static constexpr int kChannels = C, NB = NB_, kRows = ROWS, kSegment = SEG, kStages = S, kMinBlocks = MIN_BLOCKS;
  static constexpr int kRadius = R, kTaps = 2 * R + 1;
  static constexpr bool kTiles = TILES, kHalves = HALVES, kPermutes = PERMUTES, kShuffles = SHUFFLES, kRing = RING;
  static constexpr bool kOneInFlight = ONE_IN_FLIGHT;
  static_assert(NB == 8 || NB == 16, "one cp.async of 8 or 16 bytes per lane and row");
  static_assert(TILES || capstone::whole_stages(SEG), "a segment is whole stages of 5 rows");
  static_assert(TILES || (RING ? S >= 1 : S >= 2), "without the ring, a stage's rows stay until the next is done");
  static_assert(R == 2 || (TILES && HALVES && RING && SHUFFLES), "radius 3 - 5: the shipped tile only");
  static constexpr int kRowBytes = 32 * NB;                          // one row of a warp's ring
  static constexpr int kRingBytes = TILES ? 16 : S * 5 * kRowBytes;  // a warp's ring: S stages of 5 rows
  static constexpr int kStagesPerSegment = (SEG + 4) / 5;
  // Bytes a lane reads of each neighbour where it sums them itself (radius 2: two pixels).
  static constexpr int kSideBytes = SHUFFLES ? 0 : 2 * C < 4 ? 4 : 2 * C;
};

// The Shape of knobs @p k (overlap_plan.hpp) for C bytes per pixel.
#define GAUSS_SHAPE_OF(C, k)                                                                                       \
  Shape<C, (k).tiles, (k).lane_bytes, (k).rows, (k).segment, (k).stages, (k).min_blocks, (k).halves, (k).permutes, \
        (k).shuffles, (k).ring, (k).one_in_flight, (k).radius>

template <class K>
__global__ void __launch_bounds__(32 * kWarps, K::kMinBlocks)
    blur_stream(const std::uint8_t* __restrict__ in, std::uint8_t* __restrict__ out, int width, int height, int pitch,
                bool aligned, int strips, HalfWeights hw, FarHalfWeights far, gauss::GaussTaps taps) {
  constexpr int C = K::kChannels, NB = K::NB, S = K::kStages;
  static_assert(K::kRadius == 2, "the stream's stages of five rows are radius 2's");
  constexpr int kWords = NB / 4;
  constexpr int kSideWords = K::kSideBytes / 4;
  constexpr int kSpanWords = kWords + 2 * kSideWords;
  __shared__ __align__(16) std::uint8_t rings[kWarps][K::kRingBytes];

  const int lane = threadIdx.x;
  const int item = static_cast<int>(blockIdx.x) * kWarps + static_cast<int>(threadIdx.y);
  const int strip = item % strips;
  const int first_row = (item / strips) * K::kSegment;  // the segment's first output row
  if (first_row >= height) return;                      // the whole warp leaves: no barrier waits for it
  const int row_bytes = width * C;
  const int first_byte = strip * 30 * NB - NB + lane * NB;  // lane 0 and 31 only supply their neighbours
  const bool vector_in = aligned && first_byte >= 0 && first_byte + NB <= row_bytes;
  const bool writes = lane >= 1 && lane < 31 && first_byte < row_bytes;
  const bool vector_out = aligned && first_byte + NB <= row_bytes;
  std::uint8_t* const ring = rings[threadIdx.y];
  std::uint8_t* const mine = ring + lane * NB;
  const auto mine_shared = static_cast<std::uint32_t>(__cvta_generic_to_shared(mine));

  // Stage t: input rows 5t .. 5t+4 of the segment, image rows first_row - 2 + r
  // clamped, into ring rows (t % S) * 5 + j. Lanes wholly inside an aligned
  // row copy by cp.async, the image's edge lanes by plain stores (seen by
  // their own later loads). One commit per stage, empty or not, keeps the
  // group count exact.
  auto issue_stage = [&](int t) {
    if (t < K::kStagesPerSegment) {
      const int slot = (t % S) * 5;
#pragma unroll
      for (int j = 0; j < 5; ++j) {
        const int y = min(max(first_row - 2 + 5 * t + j, 0), height - 1);
        const std::uint8_t* row = in + y * pitch;
        if (vector_in) {
          copy_async<NB>(mine_shared + (slot + j) * K::kRowBytes, row + first_byte);
        } else {
          std::uint32_t words[kWords];
          edge_words<C, NB>(row, width, first_byte, words);
#pragma unroll
          for (int k = 0; k < kWords; ++k)
            reinterpret_cast<std::uint32_t*>(mine + (slot + j) * K::kRowBytes)[k] = words[k];
        }
      }
    }
    commit_copies();
  };
  // Row j of ring slot base as the lane's span of words: its own, and (no
  // shuffles) the neighbours' edge words on each side (clamped at the
  // warp's ends, where the values go unused: lanes 0 and 31 write nothing).
  auto read_span = [&](const std::uint8_t* at, std::uint32_t* words) {
    load_words<kWords>(at, words + kSideWords);
    if constexpr (kSideWords > 0) {
      const std::uint8_t* row_start = at - lane * NB;
      const int left = max(lane * NB - K::kSideBytes, 0);
      const int right = min(lane * NB + NB, K::kRowBytes - K::kSideBytes);
      load_words<kSideWords>(row_start + left, words);
      load_words<kSideWords>(row_start + right, words + kSideWords + kWords);
    }
  };

#pragma unroll
  for (int t = 0; t < S; ++t) issue_stage(t);

  std::uint8_t* dst = out + (first_row * pitch + first_byte);
  const int rows_left = min(K::kSegment, height - first_row);  // output rows of this segment in the image
  float w[5];
#pragma unroll
  for (int k = 0; k < 5; ++k) w[k] = taps.w[k];

  // The ring of the last five rows in registers, as packed halves or floats.
  constexpr int kPairs = 2 * kSpanWords;
  constexpr int kFloats = 4 * kSpanWords;
  std::uint32_t hring[K::kHalves && K::kRing ? 5 : 1][kPairs];
  float fring[!K::kHalves && K::kRing ? 5 : 1][kFloats];

  auto unpack_half = [&](const std::uint32_t* words, std::uint32_t* pairs) {
#pragma unroll
    for (int m = 0; m < kPairs; ++m) pairs[m] = unpack_pair<K::kPermutes>(words[m / 2], m % 2);
  };
  auto unpack_float = [&](const std::uint32_t* words, float* values) {
#pragma unroll
    for (int m = 0; m < kFloats; ++m) values[m] = byte_to_float(words[m / 4], m % 4);
  };
  // Side pairs (halves) or values (floats) of each neighbour in a lane's span.
  constexpr int kSidePairs = K::kSideBytes / 2;
  constexpr int kSideValues = K::kSideBytes;

#pragma unroll 1
  for (int t = 0; t < K::kStagesPerSegment; ++t) {
    wait_copies<K::kRing ? S - 1 : S - 2>();    // this lane's copies of stage t are done
    if constexpr (!K::kShuffles) __syncwarp();  // ... and the neighbours' too: their bytes are read here
    const std::uint8_t* stage = mine + (t % S) * 5 * K::kRowBytes;
    const std::uint8_t* previous = mine + ((t + S - 1) % S) * 5 * K::kRowBytes;  // no ring: stage t - 1
#pragma unroll
    for (int j = 0; j < 5; ++j) {
      if constexpr (K::kRing) {
        std::uint32_t words[kSpanWords];
        read_span(stage + j * K::kRowBytes, words);
        if constexpr (K::kHalves)
          unpack_half(words, hring[j]);
        else
          unpack_float(words, fring[j]);
      }
      const int r = 5 * t + j;  // input row of the segment; output row r - 4
      if (r < 4 || r - 4 >= rows_left) continue;
      std::uint32_t packed[kWords];
      if constexpr (K::kRing && K::kHalves) {
        // Rows r-4 .. r sit in ring slots (j+1) .. (j+4), j (mod 5).
        out_row<C, NB, kSidePairs, K::kPermutes, 2>(hring, j, hw, far, packed);
      } else if constexpr (K::kRing) {
        out_row_f32<C, NB, kSideValues>(fring[(j + 1) % 5], fring[(j + 2) % 5], fring[(j + 3) % 5], fring[(j + 4) % 5],
                                        fring[j], w, packed);
      } else {
        // Re-read and re-unpack rows r-4 .. r: j+k-4 < 0 lies in stage t - 1.
        std::uint32_t pairs[5][K::kHalves ? kPairs : 1];
        float values[5][K::kHalves ? 1 : kFloats];
#pragma unroll
        for (int k = 0; k < 5; ++k) {
          const int at = j + k - 4;
          std::uint32_t words[kSpanWords];
          read_span(at >= 0 ? stage + at * K::kRowBytes : previous + (at + 5) * K::kRowBytes, words);
          if constexpr (K::kHalves)
            unpack_half(words, pairs[k]);
          else
            unpack_float(words, values[k]);
        }
        if constexpr (K::kHalves)
          out_row<C, NB, kSidePairs, K::kPermutes, 2>(pairs, 4, hw, far, packed);
        else
          out_row_f32<C, NB, kSideValues>(values[0], values[1], values[2], values[3], values[4], w, packed);
      }
      if (writes) store_row<NB>(dst, packed, vector_out, row_bytes - first_byte);
      dst += pitch;
    }
    if constexpr (!K::kShuffles) __syncwarp();  // the neighbours are done with this stage's rows
    // Refill: with the ring, stage t's rows are unpacked, so its slots take
    // stage t + S; without it, stage t - 1's slots are free now.
    // EXERCISE: start the copies of the stage S ahead into the slots just freed (issue_stage commits its group)
    if constexpr (K::kRing) {
      issue_stage(t + S);
    } else if (t > 0) {
      issue_stage(t - 1 + S);
    }
    // STARTER:
    // commit_copies();  // an empty group keeps the count that wait_copies relies on; nothing is copied
    // END EXERCISE
  }
}

// --- Block tiles: the capstone as shipped ----------------------------------------------
// Chapter 13's kernel with the knobs: a block of 4 warps brings its 4 x ROWS
// output rows and 2R halo rows (4 at radius 2), 32 x NB bytes wide (plus the side chunk where
// NB = 8), into shared memory at once by every thread's 16-byte cp.async, then
// each warp walks its rows out of the tile.
template <int NB>
struct TileShape {
  static constexpr int shift = NB == 8 ? 8 : 0;              // lane 0's first byte past the tile row's start
  static constexpr int stride = 32 * NB + (shift ? 16 : 0);  // bytes per tile row
  static constexpr int chunks = stride / 16;
};

// Brings one tile into shared memory and holds the block's barrier (chapter
// 13's fill). ONE_IN_FLIGHT (the ablation): each thread waits for each chunk.
template <int C, int NB, int ROWS, int R, bool ONE_IN_FLIGHT>
__device__ __forceinline__ void fill_tile(const std::uint8_t* __restrict__ in, int width, int height, int pitch,
                                          bool aligned, int tile_first, int band, std::uint8_t* tile) {
  using T = TileShape<NB>;
  constexpr int kTileRows = kWarps * ROWS + 2 * R;
  const int row_bytes = width * C;
  const int thread = threadIdx.y * 32 + threadIdx.x;
  // Chunk k of a row is inside for k_lo <= k < k_hi (none on unaligned rows).
  const int k_lo = aligned ? min(max((15 - tile_first) / 16, 0), T::chunks) : T::chunks;
  const int k_hi = aligned ? max(min((row_bytes - tile_first) / 16, T::chunks), k_lo) : T::chunks;
  const auto tile_shared = static_cast<std::uint32_t>(__cvta_generic_to_shared(tile));
  for (int c = thread; c < kTileRows * T::chunks; c += 32 * kWarps) {  // row-major: a warp's copies are contiguous
    const int r = c / T::chunks, k = c - r * T::chunks;
    if (k < k_lo || k >= k_hi) continue;
    const int y = min(max(band - R + r, 0), height - 1);  // clamp-to-edge
    copy_async<16>(tile_shared + r * T::stride + k * 16, in + (y * pitch + tile_first + k * 16));
    if constexpr (ONE_IN_FLIGHT) {
      commit_copies();
      wait_copies<0>();
    }
  }
  commit_copies();
  const int edge_chunks = k_lo + (T::chunks - k_hi);  // per row
  for (int e = thread; e < kTileRows * edge_chunks; e += 32 * kWarps) {
    const int r = e / edge_chunks, n = e - r * edge_chunks;
    const int k = n < k_lo ? n : k_hi + (n - k_lo);
    const std::uint8_t* row = in + min(max(band - R + r, 0), height - 1) * pitch;
    std::uint32_t words[4];
    edge_words<C, 16>(row, width, tile_first + k * 16, words);
    *reinterpret_cast<uint4*>(tile + r * T::stride + k * 16) = make_uint4(words[0], words[1], words[2], words[3]);
  }
  wait_copies<0>();
  __syncthreads();
}

template <class K>
__global__ void __launch_bounds__(32 * kWarps, K::kMinBlocks)
    blur_tiles(const std::uint8_t* __restrict__ in, std::uint8_t* __restrict__ out, int width, int height, int pitch,
               bool aligned, HalfWeights hw, FarHalfWeights far, gauss::GaussTaps taps) {
  constexpr int C = K::kChannels, NB = K::NB, ROWS = K::kRows, R = K::kRadius, kTaps = K::kTaps;
  constexpr int kWords = NB / 4;
  constexpr int kSideWords = K::kSideBytes / 4;
  constexpr int kSpanWords = kWords + 2 * kSideWords;
  constexpr int kPairs = 2 * kSpanWords;
  constexpr int kFloats = 4 * kSpanWords;
  constexpr int kSidePairs = K::kSideBytes / 2;
  constexpr int kSideValues = K::kSideBytes;
  using T = TileShape<NB>;
  __shared__ __align__(16) std::uint8_t tile[(kWarps * ROWS + 2 * R) * T::stride];
  const int block_first_byte = static_cast<int>(blockIdx.x) * 30 * NB - NB;  // lane 0's first byte
  const int band = static_cast<int>(blockIdx.y) * kWarps * ROWS;             // the block's first output row
  fill_tile<C, NB, ROWS, R, K::kOneInFlight>(in, width, height, pitch, aligned, block_first_byte - T::shift, band,
                                             tile);

  const int lane = threadIdx.x;
  const int y0 = band + threadIdx.y * ROWS;
  if (y0 >= height) return;  // the whole warp leaves, after the barrier
  const int row_bytes = width * C;
  const int first_byte = block_first_byte + lane * NB;
  const bool writes = lane >= 1 && lane < 31 && first_byte < row_bytes;
  const bool vector_out = aligned && first_byte + NB <= row_bytes;
  // Row i of the warp's rows, from lane 0's first byte.
  const std::uint8_t* rows = tile + threadIdx.y * ROWS * T::stride + T::shift;
  // The lane's span of row i: its own words, and (no shuffles) the
  // neighbours' edge words, clamped at the warp's ends where they go unused.
  auto read_span = [&](int i, std::uint32_t* words) {
    const std::uint8_t* row = rows + i * T::stride;
    load_words<kWords>(row + lane * NB, words + kSideWords);
    if constexpr (kSideWords > 0) {
      load_words<kSideWords>(row + max(lane * NB - K::kSideBytes, 0), words);
      load_words<kSideWords>(row + min(lane * NB + NB, 32 * NB - K::kSideBytes), words + kSideWords + kWords);
    }
  };
  auto unpack_half = [&](const std::uint32_t* words, std::uint32_t* pairs) {
#pragma unroll
    for (int m = 0; m < kPairs; ++m) pairs[m] = unpack_pair<K::kPermutes>(words[m / 2], m % 2);
  };
  auto unpack_float = [&](const std::uint32_t* words, float* values) {
#pragma unroll
    for (int m = 0; m < kFloats; ++m) values[m] = byte_to_float(words[m / 4], m % 4);
  };
  float w[5];
#pragma unroll
  for (int k = 0; k < 5; ++k) w[k] = taps.w[k];
  std::uint8_t* dst = out + (y0 * pitch + first_byte);
  std::uint32_t hring[K::kHalves && K::kRing ? kTaps : 1][kPairs];  // the last 2R + 1 rows, unpacked
  float fring[!K::kHalves && K::kRing ? 5 : 1][kFloats];
#pragma unroll
  for (int i = 0; i < ROWS + 2 * R; ++i) {
    if constexpr (K::kRing) {
      std::uint32_t words[kSpanWords];
      read_span(i, words);
      if constexpr (K::kHalves)
        unpack_half(words, hring[i % kTaps]);
      else
        unpack_float(words, fring[i % 5]);
    }
    if (i < 2 * R) continue;  // the first 2R rows only fill the ring
    std::uint32_t packed[kWords];
    if constexpr (K::kRing && K::kHalves) {
      out_row<C, NB, kSidePairs, K::kPermutes, R>(hring, i % kTaps, hw, far, packed);
    } else if constexpr (K::kRing) {
      out_row_f32<C, NB, kSideValues>(fring[(i + 1) % 5], fring[(i + 2) % 5], fring[(i + 3) % 5], fring[(i + 4) % 5],
                                      fring[i % 5], w, packed);
    } else {
      // Rows i-4 .. i re-read from the tile and re-unpacked.
      std::uint32_t pairs[5][K::kHalves ? kPairs : 1];
      float values[5][K::kHalves ? 1 : kFloats];
#pragma unroll
      for (int k = 0; k < 5; ++k) {
        std::uint32_t words[kSpanWords];
        read_span(i - 4 + k, words);
        if constexpr (K::kHalves)
          unpack_half(words, pairs[k]);
        else
          unpack_float(words, values[k]);
      }
      if constexpr (K::kHalves)
        out_row<C, NB, kSidePairs, K::kPermutes, 2>(pairs, 4, hw, far, packed);
      else
        out_row_f32<C, NB, kSideValues>(values[0], values[1], values[2], values[3], values[4], w, packed);
    }
    if (writes && y0 + i - 2 * R < height) store_row<NB>(dst, packed, vector_out, row_bytes - first_byte);
    dst += pitch;
  }
}

template <int C, class K>
void launch_shape(const std::uint8_t* in, std::uint8_t* out, const gauss::Problem& p, const HalfWeights& hw,
                  const FarHalfWeights& far, cudaStream_t stream) {
  const gauss::ImageGeometry& g = p.image;
  const dim3 block(32, kWarps);
  if constexpr (K::kTiles) {
    const dim3 grid((g.width * C + 30 * K::NB - 1) / (30 * K::NB),
                    (g.height + K::kRows * kWarps - 1) / (K::kRows * kWarps));
    // cp.async copies 16-byte chunks: rows must start on 16-byte boundaries.
    const bool aligned = g.pitch % 16 == 0 && reinterpret_cast<std::uintptr_t>(in) % 16 == 0 &&
                         reinterpret_cast<std::uintptr_t>(out) % 16 == 0;
    blur_tiles<K><<<grid, block, 0, stream>>>(in, out, g.width, g.height, g.pitch, aligned, hw, far,
                                              half2::radius2_taps(p.blur, p.taps));
  } else {
    const int strips = capstone::strips(g.width * C, K::NB);
    const int items = strips * capstone::segments(g.height, K::kSegment);
    const dim3 grid((items + kWarps - 1) / kWarps);
    const bool aligned = g.pitch % K::NB == 0 && reinterpret_cast<std::uintptr_t>(in) % K::NB == 0 &&
                         reinterpret_cast<std::uintptr_t>(out) % K::NB == 0;
    blur_stream<K><<<grid, block, 0, stream>>>(in, out, g.width, g.height, g.pitch, aligned, strips, hw, far,
                                               half2::radius2_taps(p.blur, p.taps));
  }
}

template <int C, int A>
using Ablated = GAUSS_SHAPE_OF(C, capstone::ablated(C, capstone::Ablation(A)));
template <int C, int I>
using Shaped = GAUSS_SHAPE_OF(C, capstone::shape(C, I));
template <int C, int R>
using Wide = GAUSS_SHAPE_OF(C, capstone::wide(C, R));

template <int C, int... A>
void launch_ablated(int which, const std::uint8_t* in, std::uint8_t* out, const gauss::Problem& p,
                    const HalfWeights& hw, cudaStream_t stream, std::integer_sequence<int, A...>) {
  ((which == A ? launch_shape<C, Ablated<C, A>>(in, out, p, hw, FarHalfWeights{}, stream) : void()), ...);
}
template <int C, int... I>
void launch_shaped(int which, const std::uint8_t* in, std::uint8_t* out, const gauss::Problem& p, const HalfWeights& hw,
                   cudaStream_t stream, std::integer_sequence<int, I...>) {
  ((which == I ? launch_shape<C, Shaped<C, I>>(in, out, p, hw, FarHalfWeights{}, stream) : void()), ...);
}

// The shipped tile at radius 3 .. wide_max_radius(C).
template <int C, int... R>
void launch_wide(const half2::WideHalfWeights& w, const std::uint8_t* in, std::uint8_t* out, const gauss::Problem& p,
                 cudaStream_t stream, std::integer_sequence<int, R...>) {
  ((w.radius == R + 3 ? launch_shape<C, Wide<C, R + 3>>(in, out, p, w.near, w.far, stream) : void()), ...);
}

}  // namespace

bool launch_blur_capstone_ablated(int which, const std::uint8_t* in, std::uint8_t* out, const gauss::Problem& problem,
                                  cudaStream_t stream) {
  const auto hw = half2::half2_weights(problem.blur);
  if (!hw || which < 0 || which >= static_cast<int>(capstone::Ablation::Count)) return false;
  constexpr auto kAll = std::make_integer_sequence<int, static_cast<int>(capstone::Ablation::Count)>{};
  if (problem.image.channels == 4)
    launch_ablated<4>(which, in, out, problem, *hw, stream, kAll);
  else
    launch_ablated<1>(which, in, out, problem, *hw, stream, kAll);
  return true;
}

bool launch_blur_capstone(const std::uint8_t* in, std::uint8_t* out, const gauss::Problem& problem,
                          cudaStream_t stream) {
  const auto wide = half2::wide_half2_weights(problem.blur);
  const int channels = problem.image.channels;
  if (!wide || wide->radius > capstone::wide_max_radius(channels)) return false;
  if (wide->radius == 2) return launch_blur_capstone_ablated(0, in, out, problem, stream);
  if (channels == 4)
    launch_wide<4>(*wide, in, out, problem, stream,
                   std::make_integer_sequence<int, capstone::wide_max_radius(4) - 2>{});
  else
    launch_wide<1>(*wide, in, out, problem, stream,
                   std::make_integer_sequence<int, capstone::wide_max_radius(1) - 2>{});
  return true;
}

bool launch_blur_overlap_shape(int shape, const std::uint8_t* in, std::uint8_t* out, const gauss::Problem& problem,
                               cudaStream_t stream) {
  const auto hw = half2::half2_weights(problem.blur);
  if (!hw || shape < 0 || shape >= capstone::kShapeCount) return false;
  constexpr auto kAll = std::make_integer_sequence<int, capstone::kShapeCount>{};
  if (problem.image.channels == 4)
    launch_shaped<4>(shape, in, out, problem, *hw, stream, kAll);
  else
    launch_shaped<1>(shape, in, out, problem, *hw, stream, kAll);
  return true;
}

bool launch_blur_overlap(const std::uint8_t* in, std::uint8_t* out, const gauss::Problem& problem,
                         cudaStream_t stream) {
  return launch_blur_overlap_shape(0, in, out, problem, stream);
}
