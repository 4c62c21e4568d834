// Chapter 15: every radius on the tensor cores, in CUDA.
//
// A separable blur is two banded matrix products. Along a row,
// out[x] = sum_k w[k] in[x - R + k]: a 16 x 16 band of weights
// (A[m][kk] = w[kk - m - shift]) times 16 input columns of 8 rows gives 16
// outputs of each of the 8 rows (transposed: H^T, 16 columns x 8 rows) in one
// mma.sync on the tensor cores, two or more such steps covering the 16 + 2R
// columns (the last one 8 columns wide where 8 are enough: m16n8k8, half the
// work); down a column, a 16 x 16 band of weights times 16 rows x 8 columns
// of those sums (the last step 8 rows, likewise). The tensor cores do 1024 or
// 2048 multiply-adds per instruction, so the arithmetic that sinks the float
// kernels at large radii (2(2R+1) per value: 66 at radius 16) costs a few
// instructions per pixel here, and every radius runs at about the speed of
// the memory.
//
// Per tile of 128 columns x TH rows, a block of 8 warps, warp w taking
// columns 16w .. 16w + 15,
//  1. writes the tile's input and its halo, which its threads loaded into
//     registers while the tile before was computed (or just now: serial),
//     into shared memory as planes of bytes (RGBA: one plane per channel),
//     and issues the loads of its next tile;
//  2. horizontal pass: half-float weights times the bytes made half floats,
//     mma.sync.m16n8k16 f16 with float sums, rounded to half floats. A byte
//     b becomes a half by one byte permute, as the half 1024 + b (bits 0x64
//     and b: exact); the sums start at -1024 x the weights' sum, which takes
//     the 1024s out again;
//  3. vertical pass: half-float weights times those halves, the same
//     instruction, float sums, rounded half up to a byte;
//  4. stages the bytes and stores whole rows.
// Between 2 and 3 the halves stay where the horizontal product left them:
// the transposed product's accumulators, paired down the rows, are exactly
// the vertical product's B fragments, so the halves never go through shared
// memory. blur_mma_plan.hpp quantises the weights and proves the result within
// one level of the exact blur (below 0.26 of a level for every blur served).
//
// The block loops over tiles (a persistent grid of as many blocks as fit on
// the SMs), so the weights' bands, which each lane holds in registers in the
// tensor cores' fragment layout, are built once per block. The fragment
// layouts are the PTX ISA's ("Matrix Fragments for mma.m16n8k16"), with g =
// lane / 4 and t = lane % 4:
//   f16 A 16x16: a0 row g, k 2t, 2t+1; a1 row g+8; a2 row g, k 2t+8, +9; a3 row g+8, k 2t+8, +9
//   f16 B 16x8:  b0 col g, k 2t, 2t+1; b1 col g, k 2t+8, +9
//   C/D 16x8:    c0, c1 row g, cols 2t, 2t+1; c2, c3 row g+8
// The order of k within a product is the kernel's to choose, so long as A and
// B agree: the horizontal product takes k = 2t, 2t+1 as input columns 4t,
// 4t+1 and k = 2t+8, 2t+9 as 4t+2, 4t+3, so that its B fragment (b0, b1) is
// the 4 bytes of image row g at column 4t: one 32-bit load from the plane and
// two byte permutes. Its result H^T has c0, c1 = (column g; rows 2t, 2t+1),
// which, as a pair of halves, is b0 of the vertical product for rows 0-7 of K
// (b1: the next 8 rows), columns 0-7; c2, c3 the same for columns 8-15.
#include <algorithm>
#include <climits>
#include <cstdint>
#include <map>
#include <mutex>
#include <type_traits>

#include "blur_mma.cuh"
#include "blur_mma_plan.hpp"
#include "gauss/cuda.hpp"
#include "gauss/image.hpp"
#include "gauss/radius.hpp"

namespace {

using mma::Weights;
constexpr int kWarps = mma::kWarps;
constexpr int kThreads = 32 * kWarps;
constexpr int kTW = mma::kTileWidth;
static_assert(kTW == 16 * kWarps, "each warp takes 16 columns of the tile");
static_assert(gauss::kMaxImagePixels * 4 <= std::size_t{INT_MAX}, "image offsets must fit in an int");

// The tile's geometry for radius R, C bytes per pixel (blur_mma.cl's macros).
template <int R, int C>
struct Tile {
  static constexpr int kPlanes = C == 4 ? 3 : 1;
  static constexpr int kTH = mma::tile_rows(C);
  // A plane starts 16 columns left of the tile's first output column x0 (a
  // 16-byte boundary of the image). Warp w's outputs x0 + 16w .. + 15 take
  // their inputs from plane column 16w + 16 - R on, which it reads from the
  // 4-byte boundary at or before it, kShift columns earlier.
  static constexpr int kStart = (16 - R) & ~3;
  static constexpr int kShift = (16 - R) & 3;
  static constexpr int kSpan = kShift + 16 + 2 * R;  // the columns a warp reads
  static constexpr int kKH = (kSpan + 15) / 16;      // column steps of the horizontal pass (kTail8H: the last 8)
  static constexpr int kReadCols = 16 * kKH;
  static constexpr int kRawCols = (16 * (kWarps - 1) + kStart + kReadCols + 15) / 16 * 16;
  // An odd number of 16-byte chunks per row: the 8 rows a warp's 32-bit loads
  // read at once fall in different banks.
  static constexpr int kRawStride = (kRawCols / 16) % 2 ? kRawCols : kRawCols + 16;
  static constexpr int kLoadRows = kTH + 2 * R;        // the rows the tile reads
  static constexpr int kGroups = (kLoadRows + 7) / 8;  // 8-row groups of the horizontal pass
  static constexpr int kRawRows = 8 * kGroups;         // past kLoadRows: zeros, set once, weight 0
  static constexpr int kKV = (16 + 2 * R + 15) / 16;   // row steps of the vertical pass (kTail8V: the last 8)
  // Where a pass's last step needs at most 8 columns (rows), it is an
  // m16n8k8 product: half the tensor cores' work of a 16-wide step.
  static constexpr bool kTail8H = kSpan - 16 * (kKH - 1) <= 8;
  static constexpr bool kTail8V = 16 + 2 * R - 16 * (kKV - 1) <= 8;
  static constexpr int kBandGroups = 2 * kKV - (kTail8V ? 1 : 0);       // 8-row groups a band of 16 rows reads
  static constexpr int kGroupsRead = 2 * (kTH / 16 - 1) + kBandGroups;  // those past kGroups: zero
  static constexpr int kOutStride = kTW * C + 16;  // padded: a warp's staging stores fall in different banks
  static constexpr int kRawBytes = kPlanes * kRawRows * kRawStride;
  static constexpr int kOutBytes = kTH * kOutStride;
  // RGBA: the output pixels' alpha, a plane of its own (the fill's fourth
  // plane, output pixels only); rows padded by 8 bytes, so that the 8 rows
  // of a warp's 2-byte reads fall in different banks.
  static constexpr int kAlphaStride = kTW + 8;
  static constexpr int kAlphaBytes = C == 4 ? kTH * kAlphaStride : 0;
  // Where the layout would not fit 48 KB (RGBA from radius 9), the staged
  // output lies over the planes, which every warp must then be done with.
  static constexpr bool kOutOverRaw = kRawBytes + kOutBytes + kAlphaBytes > 48 * 1024;
  static constexpr int kOutOffset = kOutOverRaw ? 0 : kRawBytes;
  static constexpr int kAlphaOffset = kOutOverRaw ? kRawBytes : kOutOffset + kOutBytes;
  static constexpr int kSmemBytes = kAlphaOffset + kAlphaBytes;
  static_assert(!kOutOverRaw || (C == 4 && kOutBytes <= kRawBytes), "the output fits over the planes");
  static_assert(kTH % 16 == 0 && kGroupsRead >= kGroups, "whole 16-row bands; every group summed is read");
  static_assert(kSmemBytes <= 48 * 1024, "static shared memory");
};

__device__ __forceinline__ void mma_f16(float* d, const std::uint32_t* a, const std::uint32_t* b) {
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
               : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

// D = A B + D with k = 8: A 16 x 8 (a0 row g, a1 row g + 8; k 2t, 2t + 1), B 8 x 8 (b0: k 2t, 2t + 1; column g).
__device__ __forceinline__ void mma_f16_k8(float* d, const std::uint32_t* a, std::uint32_t b) {
  asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%0,%1,%2,%3};"
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
               : "r"(a[0]), "r"(a[1]), "r"(b));
}

__device__ __forceinline__ std::uint32_t pack_halves(float lo, float hi) {
  std::uint32_t d;
  asm("cvt.rn.f16x2.f32 %0, %1, %2;" : "=r"(d) : "f"(hi), "f"(lo));
  return d;
}

// floor(v) for 0 <= v < 256 in the low byte: 2^23 + v rounded down is 2^23 +
// floor(v), whose float bits end in that integer. The vertical sums start at
// 0.5, so this is the blur rounded half up; the error bound (below 1/2)
// keeps v within [0, 256), so no saturation is needed.
__device__ __forceinline__ std::uint32_t rounded_bits(float v) { return __float_as_uint(__fadd_rd(v, 8388608.0f)); }

// The tile after (tx, ty) in the block's walk (blur_mma_plan.hpp).
__device__ __forceinline__ void next_tile(const mma::TileWalk& walk, int& tx, int& ty) {
  tx += walk.step_x;
  ty += walk.step_y;
  if (tx >= walk.tiles_x) {
    tx -= walk.tiles_x;
    ++ty;
  }
}

// The vertical band, the A operand too: A[m][kk] = v[16 ks + kk - m], half
// floats; lane (g, t) holds (m = g + 8 (reg % 2), kk = 2t + 8 (reg / 2), +1).
template <int R>
__device__ std::uint32_t band_f16(const Weights& w, int ks, int reg, int g, int t) {
  const int m = g + 8 * (reg % 2);
  std::uint32_t word = 0;
  for (int h = 0; h < 2; ++h) {
    const int k = 16 * ks + 2 * t + 8 * (reg / 2) + h - m;
    word |= ((k >= 0 && k < 2 * R + 1) ? w.v16[k] : 0u) << (16 * h);
  }
  return word;
}

// The horizontal band: A[m][k] = v[16 ks + col(k) - shift - m] (output
// column m of the warp's 16, input column col(k) of the step's 16), half
// floats, where col(k) is the column order of the B fragment (above): k = 2t
// + h is column 4t + h, k = 2t + 8 + h column 4t + 2 + h. Lane (g, t) holds
// register reg: m = g + 8 (reg % 2), columns 4t + 2 (reg / 2), +1.
// An 8-column step (tail8) takes its columns in order: k = 2t + h is column
// 2t + h (registers 0 and 1 only).
template <int R>
__device__ std::uint32_t band_horizontal(const Weights& w, int shift, int ks, int reg, int g, int t, bool tail8) {
  const int m = g + 8 * (reg % 2);
  std::uint32_t word = 0;
  for (int h = 0; h < 2; ++h) {
    const int col = tail8 ? 2 * t + h : 4 * t + 2 * (reg / 2) + h;
    const int tap = 16 * ks + col - shift - m;
    word |= ((tap >= 0 && tap < 2 * R + 1) ? w.v16[tap] : 0u) << (16 * h);
  }
  return word;
}

// Rows that do not start on 16 bytes (a gray image of odd width, an RGBA one
// whose width is not a multiple of 4) would take 16 one-byte loads a word and
// 16 one-byte stores a chunk; the kernel built for them (Shifted) does this
// instead. load_shifted reads the five aligned 4-byte words over the 16 bytes
// at @p p and shifts them into place (funnel shifts). It reads up to 4 bytes
// past the word, so the caller checks that they lie in the buffer.
__device__ __forceinline__ uint4 load_shifted(const std::uint8_t* p) {
  const auto address = reinterpret_cast<std::uintptr_t>(p);
  const std::uint32_t* base = reinterpret_cast<const std::uint32_t*>(address & ~std::uintptr_t{3});
  std::uint32_t w[5];
#pragma unroll
  for (int k = 0; k < 5; ++k) w[k] = base[k];
  const unsigned shift = 8 * (address & 3);
  return make_uint4(__funnelshift_r(w[0], w[1], shift), __funnelshift_r(w[1], w[2], shift),
                    __funnelshift_r(w[2], w[3], shift), __funnelshift_r(w[3], w[4], shift));
}

// The store's counterpart: 16 bytes to @p p as 4-byte words where they fall
// on 4 bytes and single bytes at the two ends (RGBA rows always start on 4
// bytes: four words).
__device__ __forceinline__ void store_shifted(std::uint8_t* p, uint4 v) {
  const std::uint32_t w[4] = {v.x, v.y, v.z, v.w};
  const unsigned offset = reinterpret_cast<std::uintptr_t>(p) & 3;
  if (offset == 0) {
#pragma unroll
    for (int k = 0; k < 4; ++k) reinterpret_cast<std::uint32_t*>(p)[k] = w[k];
    return;
  }
  const unsigned head = 4 - offset;  // bytes before the first 4-byte boundary
  for (unsigned i = 0; i < head; ++i) p[i] = static_cast<std::uint8_t>(w[0] >> (8 * i));
  std::uint32_t* body = reinterpret_cast<std::uint32_t*>(p + head);
#pragma unroll
  for (int k = 0; k < 3; ++k) body[k] = __funnelshift_r(w[k], w[k + 1], 8 * head);
  for (unsigned i = 0; i < offset; ++i) p[12 + head + i] = static_cast<std::uint8_t>(w[3] >> (8 * (head + i)));
}

// Step 1: the tile's input, 16 bytes at a time: gray, 16 pixels of a plane
// row; RGBA, 4 pixels, split into the three planes (and the output pixels'
// alpha) when stored. Plane rows are image rows y0 - R + r, plane columns
// image columns x0 - 16 + c, both clamped to the image. The fill is two
// halves: load_tile brings a tile's words into registers, store_tile writes
// them into shared memory; between the two the block computes the tile
// before, so the next tile's loads are in flight during the arithmetic.
template <int R, int C>
struct Fill {
  using T = Tile<R, C>;
  static constexpr int kPixels = 16 / C;  // pixels per 16-byte word
  static constexpr int kWordsPerRow = T::kRawCols / kPixels;
  static constexpr int kWords = T::kLoadRows * kWordsPerRow;
  static constexpr int kLoads = (kWords + kThreads - 1) / kThreads;  // words a thread holds
  static_assert(T::kRawCols % kPixels == 0, "whole words per plane row");
};

// Whether tiles wholly inside the image take a fill and a store with no
// clamps or tests: RGBA from radius 7. On the H200, same run: 1.03-1.08x
// faster at 7, 8 and 12-16, within 1.2% at 9-11, 1.02x slower at 5 and 6;
// gray spilled with it (radius 7 and 8) and was no faster below 5. (OpenCL's
// kernel takes it in RGBA at every radius: INSIDE_PATH in blur_mma.cl.)
template <int R, int C>
constexpr bool kInsidePath = C == 4 && R >= 7;

// Whether load_clamped loads one pixel for a word wholly left of the image
// and repeats it: gray to radius 10. On the H200, two sweeps: gray 1.01-1.05x
// faster at every radius 1-10, 1.01-1.03x slower at 11 and 13-16 (no new
// spill); RGBA within 1%. Both edges repeated (as OpenCL's load_clamped does),
// ptxas spilled 16 bytes in gray's kernels to radius 6: 1.16-1.18x slower at
// radius 3.
template <int R, int C>
constexpr bool kRepeatLeftEdge = C == 1 && R <= 10;

// A word of @p row from image column @p x on, each pixel clamped to the
// image: 16 one-byte loads (the image's edges), or one repeated where
// RepeatLeft and the word lies wholly left of the image.
template <int C, bool RepeatLeft>
__device__ __forceinline__ uint4 load_clamped(const std::uint8_t* row, int x, int width) {
  static_assert(!RepeatLeft || C == 1, "the repeated word is one gray pixel four times over");
  if (RepeatLeft && x + 16 / C <= 0) {
    const std::uint32_t pixels = row[0] * 0x01010101u;  // gray: pixel 0, four times a word
    return make_uint4(pixels, pixels, pixels, pixels);
  }
  std::uint32_t bytes[4] = {0, 0, 0, 0};
#pragma unroll
  for (int i = 0; i < 16; ++i)
    bytes[i / 4] |= std::uint32_t{row[min(max(x + i / C, 0), width - 1) * C + i % C]} << (8 * (i % 4));
  return make_uint4(bytes[0], bytes[1], bytes[2], bytes[3]);
}

template <int R, int C, bool Shifted>
__device__ __forceinline__ void load_tile(const std::uint8_t* __restrict__ in, int width, int height, int pitch,
                                          bool aligned, int x0, int y0, uint4 (&words)[Fill<R, C>::kLoads]) {
  using F = Fill<R, C>;
  using T = Tile<R, C>;
  const int item = threadIdx.y * 32 + threadIdx.x;
  // Most tiles read only pixels inside the image, from 16-byte aligned rows:
  // no clamp, no test, one address a word (the block takes the same branch).
  if (kInsidePath<R, C> && aligned && x0 >= 16 && x0 - 16 + T::kRawCols <= width && y0 >= R &&
      y0 - R + T::kLoadRows <= height) {
    const std::uint8_t* corner = in + (y0 - R) * pitch + (x0 - 16) * C;
#pragma unroll
    for (int n = 0; n < F::kLoads; ++n) {
      const int e = item + n * kThreads;
      if (e >= F::kWords) continue;
      const int r = e / F::kWordsPerRow;
      const int c = (e - r * F::kWordsPerRow) * F::kPixels;
      words[n] = *reinterpret_cast<const uint4*>(corner + r * pitch + c * C);
    }
    return;
  }
  // Shifted (rows not all 16-byte aligned): load_shifted where its five
  // words lie in the buffer (offsets from `in`, which starts on 4 bytes;
  // images are below 2^30 bytes); clamped bytes elsewhere, as at the edges.
  const int end = Shifted && (reinterpret_cast<std::uintptr_t>(in) & 3) == 0 ? (height - 1) * pitch + width * C : 0;
#pragma unroll
  for (int n = 0; n < F::kLoads; ++n) {
    const int e = item + n * kThreads;
    if (e >= F::kWords) continue;  // the last word of some threads only
    const int r = e / F::kWordsPerRow;
    const int c = (e - r * F::kWordsPerRow) * F::kPixels;
    const int row_start = min(max(y0 - R + r, 0), height - 1) * pitch;
    const std::uint8_t* row = in + row_start;
    const int x = x0 - 16 + c;  // a multiple of the word's pixels
    if (!Shifted && aligned && x >= 0 && x + F::kPixels <= width)
      words[n] = *reinterpret_cast<const uint4*>(row + x * C);
    else if (Shifted && x >= 0 && x + F::kPixels <= width && ((row_start + x * C) | 3) + 17 <= end)
      words[n] = load_shifted(row + x * C);
    else
      words[n] = load_clamped<C, kRepeatLeftEdge<R, C>>(row, x, width);
  }
}

template <int R, int C>
__device__ __forceinline__ void store_tile(const uint4 (&words)[Fill<R, C>::kLoads], std::uint8_t* smem) {
  using F = Fill<R, C>;
  using T = Tile<R, C>;
  const int item = threadIdx.y * 32 + threadIdx.x;
#pragma unroll
  for (int n = 0; n < F::kLoads; ++n) {
    const int e = item + n * kThreads;
    if (e >= F::kWords) continue;
    const int r = e / F::kWordsPerRow;
    const int c = (e - r * F::kWordsPerRow) * F::kPixels;
    if constexpr (C == 1) {
      *reinterpret_cast<uint4*>(smem + r * T::kRawStride + c) = words[n];
    } else {
      const uint4 p = words[n];
      std::uint32_t planes[4];  // R, G, B and alpha, 4 pixels each
#pragma unroll
      for (int k = 0; k < 4; ++k)
        planes[k] = __byte_perm(__byte_perm(p.x, p.y, 0x0040 | k | (k << 4)),
                                __byte_perm(p.z, p.w, 0x0040 | k | (k << 4)), 0x5410);
#pragma unroll
      for (int k = 0; k < 3; ++k)
        *reinterpret_cast<std::uint32_t*>(smem + (k * T::kRawRows + r) * T::kRawStride + c) = planes[k];
      // The output pixels' own alpha, carried through: rows R .. R + TH - 1,
      // columns 16 .. 16 + TW - 1 of the planes (a word lies wholly in or out).
      if (r >= R && r < R + T::kTH && c >= 16 && c < 16 + kTW)
        *reinterpret_cast<std::uint32_t*>(smem + T::kAlphaOffset + (r - R) * T::kAlphaStride + c - 16) = planes[3];
    }
  }
}

// The blocks an SM is to hold (__launch_bounds__), so that ptxas keeps each
// thread within 80 registers (gray, RGBA to radius 8) or 128 (RGBA above, and
// RGBA overlapped at radius 7 and 8). Gray at 4 blocks (64 registers) spills 4
// bytes and runs within 2% of 3 blocks to radius 6, 20-24 bytes and 1.12x
// slower at 7 and 8 (H200); RGBA to radius 8 at 2 blocks (no spill) was
// 1.0-1.16x slower than at 3 (H100 and H200). RGBA overlapped at 3 blocks
// spills a word in flight from radius 5, whose local store waits for its load
// (README, Why; with RGBA's bytes staged one by one it spilled nothing to
// radius 4 and was still slower than serial); at 2 blocks it spilled nothing
// and was 1.05-1.06x faster than serial at 3 at radius 7 and 8 (staged as
// whole pixels it spills 20 bytes there), but 1.37x slower at radius 2, where
// 16 warps an SM are too few. The kernel for unaligned rows (Shifted) keeps
// 3: overlapped at 2 it was 1.12-1.14x slower than serial, which `main` ships
// there (mma::shipped_schedule).
constexpr int min_blocks_per_sm(int radius, int channels, bool overlap) {
  if (channels == 1) return 3;
  return radius >= 9 || (overlap && radius >= 7) ? 2 : 3;
}

// Overlap false: the same kernel, each tile's loads waited for before its
// passes (fill, then compute): the section `overlap` measures the difference.
// Shifted: the kernel for images whose rows are not all 16-byte aligned
// (load_shifted, store_shifted), a kernel of its own so that the others'
// registers stay as they are (in one kernel the shifted fill cost gray 14% at
// radius 7 and 8 on the H200: ptxas spilled 32 bytes).
template <int R, int C, bool Overlap, bool Shifted>
__global__ void __launch_bounds__(kThreads, min_blocks_per_sm(R, C, Overlap && !Shifted))
    blur_mma(const std::uint8_t* __restrict__ in, std::uint8_t* __restrict__ out, int width, int height, int pitch,
             Weights weights, mma::TileWalk walk) {
  using T = Tile<R, C>;
  __shared__ __align__(16) std::uint8_t smem[T::kSmemBytes];
  const int lane = threadIdx.x;
  const int warp = threadIdx.y;
  const int g = lane / 4;
  const int t = lane % 4;

  // The bands, once per block (the block then loops over tiles); the same for
  // every warp, whose inputs all start kShift past a 4-byte boundary. Each
  // lane reads the weights at indices of its own: from the parameter, that is
  // one LDC per distinct index, one after another, and the block waits on them
  // before its first tile; so the weights go to shared memory first, one word
  // a thread (where the planes go later), and the lanes read them there.
  static_assert(sizeof(Weights) % 4 == 0 && sizeof(Weights) / 4 <= kThreads, "one word of the weights a thread");
  const auto* staged = reinterpret_cast<const Weights*>(smem);
  if (const int word = warp * 32 + lane; word < static_cast<int>(sizeof(Weights) / 4))
    reinterpret_cast<std::uint32_t*>(smem)[word] = reinterpret_cast<const std::uint32_t*>(&weights)[word];
  __syncthreads();
  std::uint32_t hband[T::kKH][4];  // [step][register]
#pragma unroll
  for (int ks = 0; ks < T::kKH; ++ks)
#pragma unroll
    for (int reg = 0; reg < 4; ++reg)
      hband[ks][reg] = band_horizontal<R>(*staged, T::kShift, ks, reg, g, t, T::kTail8H && ks == T::kKH - 1);
  const float bias = staged->bias;  // -1024 x the weights' sum: the horizontal sums' start
  std::uint32_t vband[T::kKV][4];
#pragma unroll
  for (int ks = 0; ks < T::kKV; ++ks)
#pragma unroll
    for (int reg = 0; reg < 4; ++reg) vband[ks][reg] = band_f16<R>(*staged, ks, reg, g, t);
  __syncthreads();  // every lane has its bands before the planes are written over the weights

  // The planes' rows past those read (the last 8-row group reaches beyond
  // TH + 2R): zeros, once; the fill never writes them (the output staged over
  // the planes may: any bytes meet zero weights).
  if constexpr (T::kRawRows > T::kLoadRows) {
    constexpr int kSpareRows = T::kRawRows - T::kLoadRows;
    constexpr int kChunksPerRow = T::kRawStride / 16;
    for (int e = warp * 32 + lane; e < T::kPlanes * kSpareRows * kChunksPerRow; e += kThreads) {
      const int spare = e / kChunksPerRow;  // plane * kSpareRows + row past kLoadRows
      const int plane = spare / kSpareRows;
      const int r = T::kLoadRows + spare - plane * kSpareRows;
      *reinterpret_cast<uint4*>(smem + (plane * T::kRawRows + r) * T::kRawStride + 16 * (e % kChunksPerRow)) =
          make_uint4(0, 0, 0, 0);
    }
  }

  const bool aligned_in = (pitch & 15) == 0 && (reinterpret_cast<std::uintptr_t>(in) & 15) == 0;
  const bool aligned_out = (pitch & 15) == 0 && (reinterpret_cast<std::uintptr_t>(out) & 15) == 0;
  uint4 words[Fill<R, C>::kLoads];     // the next tile's input, in flight
  int tx = blockIdx.x % walk.tiles_x;  // the block's first tile
  int ty = blockIdx.x / walk.tiles_x;
  if (Overlap && ty < walk.tiles_y)
    load_tile<R, C, Shifted>(in, width, height, pitch, aligned_in, tx * kTW, ty * T::kTH, words);
  // Two barriers a tile: the planes (and RGBA's alpha) are read by every warp
  // (after the first), the staged rows too (after the second); every warp
  // has read the planes and the alpha before it reaches the second, so the
  // next tile's fill may overwrite them, and has stored the staged rows
  // before it reaches the next tile's first, after which they are staged
  // again (output over the planes: two more, before the fill and before the
  // staging). Between the passes nothing goes through shared memory: the
  // horizontal sums stay in the registers of the warp that made them.
  for (; ty < walk.tiles_y; next_tile(walk, tx, ty)) {
    const int x0 = tx * kTW;
    const int y0 = ty * T::kTH;
    if constexpr (T::kOutOverRaw) __syncthreads();  // the staged rows (over the planes) are stored
    if (!Overlap) load_tile<R, C, Shifted>(in, width, height, pitch, aligned_in, x0, y0, words);
    store_tile<R, C>(words, smem);
    __syncthreads();
    // The next tile's loads, issued now: they land while this tile is computed.
    if (Overlap) {
      int next_tx = tx;
      int next_ty = ty;
      next_tile(walk, next_tx, next_ty);
      if (next_ty < walk.tiles_y)
        load_tile<R, C, Shifted>(in, width, height, pitch, aligned_in, next_tx * kTW, next_ty * T::kTH, words);
    }

    // Warp w computes output columns 16w .. 16w + 15 of the tile, a plane at
    // a time, 16 rows (a band p) at a time. halves[q]: the horizontal sums of
    // 8-row group q (plane rows 8q .. 8q + 7), as the vertical product's B
    // fragments: [0] columns 0-7, [1] columns 8-15 of the warp's 16.
    // RGBA: rgb[p][nt][k], the pixels' bytes as the planes come in.
    std::uint32_t rgb[C == 4 ? T::kTH / 16 : 1][2][4];
#pragma unroll
    for (int plane = 0; plane < T::kPlanes; ++plane) {
      const std::uint8_t* strip = smem + plane * T::kRawRows * T::kRawStride + 16 * warp + T::kStart + 4 * t;
      std::uint32_t halves[T::kGroupsRead][2];
#pragma unroll
      for (int p = 0; p < T::kTH / 16; ++p) {
        // Step 2: the horizontal sums of the groups band p reads first:
        // H^T (16 columns x 8 rows) = band (16 x 16) x input^T (16 x 8) a
        // step, float sums; lane (g, t) reads 4 bytes of row g at column 4t
        // of each 16-column step: its B fragment.
#pragma unroll
        for (int q = p == 0 ? 0 : 2 * p + T::kBandGroups - 2; q < 2 * p + T::kBandGroups; ++q) {
          if (q >= T::kGroups) {
            halves[q][0] = halves[q][1] = 0;  // rows past the tile's: zero weights
            continue;
          }
          float h[4] = {bias, bias, bias, bias};
#pragma unroll
          for (int ks = 0; ks < T::kKH; ++ks) {
            if (T::kTail8H && ks == T::kKH - 1) {
              // 8 columns: 2 bytes of row g at column 2t, as two halves.
              const std::uint32_t pair =
                  *reinterpret_cast<const std::uint16_t*>(strip - 2 * t + (8 * q + g) * T::kRawStride + 16 * ks);
              mma_f16_k8(h, hband[ks], __byte_perm(pair, 0x64646464u, 0x5140));
              continue;
            }
            const std::uint32_t bytes =
                *reinterpret_cast<const std::uint32_t*>(strip + (8 * q + g) * T::kRawStride + 16 * ks);
            // Bytes 0, 1 and 2, 3 as pairs of halves 1024 + b (bits 0x64, b).
            const std::uint32_t b[2] = {__byte_perm(bytes, 0x64646464u, 0x5140),
                                        __byte_perm(bytes, 0x64646464u, 0x5342)};
            mma_f16(h, hband[ks], b);
          }
          // Lane (g, t) holds columns g, g + 8 of rows 2t, 2t + 1: packed in
          // pairs down the rows, exactly the B fragments of the vertical product.
          halves[q][0] = pack_halves(h[0], h[1]);
          halves[q][1] = pack_halves(h[2], h[3]);
        }
        // Step 3: output rows 16p .. 16p + 15, columns 8 nt .. 8 nt + 7 of the
        // warp's: the band of vertical weights (16 x 16 a step) times the
        // halves of groups 2p + 2ks and 2p + 2ks + 1 (16 x 8), float sums.
#pragma unroll
        for (int nt = 0; nt < 2; ++nt) {
          float v[4] = {0.5f, 0.5f, 0.5f, 0.5f};  // + 0.5: rounded half up at the end
#pragma unroll
          for (int ks = 0; ks < T::kKV; ++ks) {
            // An 8-row last step (kTail8V) takes one group's halves, the others two.
            const bool tail8 = T::kTail8V && ks == T::kKV - 1;
            const std::uint32_t b[2] = {halves[2 * p + 2 * ks][nt], tail8 ? 0u : halves[2 * p + 2 * ks + 1][nt]};
            // EXERCISE: add vband[ks] times the halves' fragment (b) into v: mma_f16, or mma_f16_k8 of b[0] where tail8
            if (tail8)
              mma_f16_k8(v, vband[ks], b[0]);
            else
              mma_f16(v, vband[ks], b);
            // STARTER:
            // v[0] += 0.0f;  // nothing summed: the tile comes out black
            // END EXERCISE
          }
          if constexpr (C == 1) {
            // Gray: round and stage the bytes at once (rows g, g + 8; columns 2t, 2t + 1).
#pragma unroll
            for (int half_row = 0; half_row < 2; ++half_row)
              *reinterpret_cast<std::uint16_t*>(smem + T::kOutOffset + (16 * p + g + 8 * half_row) * T::kOutStride +
                                                16 * warp + 8 * nt + 2 * t) =
                  static_cast<std::uint16_t>(
                      __byte_perm(rounded_bits(v[2 * half_row]), rounded_bits(v[2 * half_row + 1]), 0x40));
          } else {
            // RGBA: the bytes kept in registers until the last plane, byte
            // `plane` of each pixel (selectors 0x3240, 0x3410), and staged
            // as whole pixels (step 4): a store a pixel pair, not a byte.
#pragma unroll
            for (int k = 0; k < 4; ++k)
              rgb[p][nt][k] = plane == 0 ? rounded_bits(v[k]) & 0xFFu
                                         : __byte_perm(rgb[p][nt][k], rounded_bits(v[k]), 0x3240 + 0x1D0 * (plane - 1));
          }
        }
      }
    }
    // Step 4 (RGBA): the pixels with their own alpha, staged (output over the
    // planes: once every warp is done with them).
    if constexpr (C == 4) {
      if constexpr (T::kOutOverRaw) __syncthreads();
#pragma unroll
      for (int p = 0; p < T::kTH / 16; ++p)
#pragma unroll
        for (int nt = 0; nt < 2; ++nt)
#pragma unroll
          for (int half_row = 0; half_row < 2; ++half_row) {
            const int r = 16 * p + g + 8 * half_row;
            const int c = 16 * warp + 8 * nt + 2 * t;
            const std::uint32_t alpha =
                *reinterpret_cast<const std::uint16_t*>(smem + T::kAlphaOffset + r * T::kAlphaStride + c);
            *reinterpret_cast<uint2*>(smem + T::kOutOffset + r * T::kOutStride + 4 * c) =
                make_uint2(__byte_perm(rgb[p][nt][2 * half_row], alpha, 0x4210),
                           __byte_perm(rgb[p][nt][2 * half_row + 1], alpha, 0x5210));
          }
    }
    __syncthreads();
    // Step 5: whole rows to global memory, 16-byte stores (bytes at the edge);
    // a thread's chunks (2 gray, 4 RGBA) are the same each tile: one column,
    // rows kRowStep apart. RGBA works the column out once, from the lane:
    // from each chunk's number, ptxas kept one column a chunk and spilled
    // them (12-16 bytes at radius 4-6). Gray keeps the chunk numbers: worked
    // out once, ptxas spilled 16 bytes more in gray's kernels at radius 13-16.
    const int item = warp * 32 + lane;
    const int row_bytes = width * C;
    constexpr int kChunksPerRow = kTW * C / 16;
    constexpr int kRowStep = kThreads / kChunksPerRow;
    static_assert(kThreads % kChunksPerRow == 0 && T::kTH % kRowStep == 0, "every thread stores as many chunks");
    const auto place = [&](int chunk, int& r, int& c) {
      if constexpr (C == 4) {
        r = item / kChunksPerRow + chunk * kRowStep;  // kChunksPerRow, a power of two: shifts
        c = item % kChunksPerRow * 16;
      } else {
        const int e = item + chunk * kThreads;
        r = e / kChunksPerRow;
        c = (e % kChunksPerRow) * 16;
      }
    };
    if (kInsidePath<R, C> && aligned_out && y0 + T::kTH <= height && (x0 + kTW) * C <= row_bytes) {
      // The whole tile inside the image (most tiles): no test.
      std::uint8_t* corner = out + y0 * pitch + x0 * C;
#pragma unroll
      for (int chunk = 0; chunk < T::kTH / kRowStep; ++chunk) {
        int r, c;
        place(chunk, r, c);
        *reinterpret_cast<uint4*>(corner + r * pitch + c) =
            *reinterpret_cast<const uint4*>(smem + T::kOutOffset + r * T::kOutStride + c);
      }
      continue;
    }
#pragma unroll
    for (int chunk = 0; chunk < T::kTH / kRowStep; ++chunk) {
      int r, c;
      place(chunk, r, c);
      const int y = y0 + r;
      const int b0 = x0 * C + c;
      if (y >= height || b0 >= row_bytes) continue;
      std::uint8_t* dst = out + y * pitch + b0;
      const std::uint8_t* src = smem + T::kOutOffset + r * T::kOutStride + c;
      if (aligned_out && b0 + 16 <= row_bytes) {
        *reinterpret_cast<uint4*>(dst) = *reinterpret_cast<const uint4*>(src);
      } else if (Shifted && b0 + 16 <= row_bytes) {
        store_shifted(dst, *reinterpret_cast<const uint4*>(src));
      } else {
        for (int b = 0; b < 16 && b0 + b < row_bytes; ++b) dst[b] = src[b];
      }
    }
  }
}

// The blocks of blur_mma<R, C, Overlap, Shifted> that @p device holds at
// once: its SMs times as many blocks as the registers and shared memory let
// an SM hold (the occupancy API). Asked once per kernel and device, not at
// every launch.
template <int R, int C, bool Overlap, bool Shifted>
int resident_blocks(int device) {
  static std::mutex mutex;
  static std::map<int, int> known;  // device -> blocks
  const std::lock_guard<std::mutex> lock(mutex);
  const auto found = known.find(device);
  if (found != known.end()) return found->second;
  int sms = 0;
  int per_sm = 0;
  GAUSS_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  GAUSS_CUDA_CHECK(
      cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, blur_mma<R, C, Overlap, Shifted>, kThreads, 0));
  return known[device] = sms * std::max(per_sm, 1);
}

template <int R, int C, bool Overlap, bool Shifted>
void launch_tiles(const std::uint8_t* in, std::uint8_t* out, const gauss::Problem& p, const Weights& w,
                  cudaStream_t stream) {
  using T = Tile<R, C>;
  const gauss::ImageGeometry& g = p.image;
  int device = 0;
  GAUSS_CUDA_CHECK(cudaGetDevice(&device));
  const int blocks = mma::walk_blocks(g.width, g.height, kTW, T::kTH, resident_blocks<R, C, Overlap, Shifted>(device));
  blur_mma<R, C, Overlap, Shifted><<<blocks, dim3(32, kWarps), 0, stream>>>(
      in, out, g.width, g.height, g.pitch, w, mma::tile_walk(g.width, g.height, kTW, T::kTH, blocks));
}

}  // namespace

bool launch_blur_mma(const std::uint8_t* in, std::uint8_t* out, const gauss::Problem& problem, cudaStream_t stream,
                     mma::Schedule schedule) {
  if (!mma::serves(problem.blur)) return false;
  const Weights w = mma::quantise(problem.blur);
  const bool overlap = schedule == mma::Schedule::Overlapped;
  const bool shifted = !mma::aligned_rows(problem.image);
  gauss::with_radius(problem.blur.radius, [&](auto radius) {
    constexpr int R = radius.value;
    const auto launch = [&](auto channels) {
      constexpr int C = decltype(channels)::value;
      if (overlap)
        shifted ? launch_tiles<R, C, true, true>(in, out, problem, w, stream)
                : launch_tiles<R, C, true, false>(in, out, problem, w, stream);
      else
        shifted ? launch_tiles<R, C, false, true>(in, out, problem, w, stream)
                : launch_tiles<R, C, false, false>(in, out, problem, w, stream);
    };
    if (problem.image.channels == 4)
      launch(std::integral_constant<int, 4>{});
    else
      launch(std::integral_constant<int, 1>{});
  });
  return true;
}
