// Chapter 15: every radius on the tensor cores, in CUDA.
//
// A separable blur is two banded matrix products. Along a row,
// out[x] = sum_k w[k] in[x - R + k]: a block of 16 rows x 32 input bytes
// times a 32 x 8 band of weights (B[kk][n] = w[kk - n - shift]) gives 16
// rows x 8 outputs in one mma.sync on the tensor cores; down a column, a
// 16 x 16 band of weights times 16 rows x 8 columns of the horizontal sums.
// The tensor cores do 2048-4096 multiply-adds per instruction, so the
// arithmetic that sinks the float kernels at large radii (2(2R+1) per value:
// 66 at radius 16) costs a few instructions per pixel here, and every radius
// runs at about the speed of the memory.
//
// Per tile of 64 columns x TH rows, a block of 8 warps
//  1. writes the tile's input and its halo, which its threads loaded into
//     registers while the tile before was computed, into shared memory as
//     planes of bytes (RGBA: one plane per channel, the output pixels' alpha
//     aside), and issues the loads of its next tile;
//  2. horizontal pass, exact: the bytes (u8) times the 15-bit weights h15
//     split into their high and low bytes, two mma.sync.m16n8k32 u8 with
//     int32 sums; 256 hi + lo is 2^23 + the exact sum S, as float bits, so one
//     multiply-add turns it into S x 2^-15, rounded to a half float;
//  3. vertical pass: half-float weights times those halves,
//     mma.sync.m16n8k16 f16 with float sums, rounded half up to a byte;
//  4. stages the bytes (RGBA: the pixels assembled) and stores whole rows.
// blur_mma_plan.hpp quantises the weights and proves the result within one
// level of the exact blur (below 0.25 of a level for every blur served).
//
// The block loops over tiles (a persistent grid of as many blocks as fit on
// the SMs), so the weights' bands, which each lane holds in registers in the
// tensor cores' fragment layout, are built once per block. The fragment layouts are the PTX ISA's ("Matrix
// Fragments for mma.m16n8k32" and "... m16n8k16"), with g = lane / 4 and
// t = lane % 4:
//   u8 A 16x32: a0 row g, k 4t..4t+3; a1 row g+8; a2 row g, k 16+4t..; a3 row g+8, k 16+4t..
//   u8 B 32x8:  b0 col g, k 4t..4t+3; b1 col g, k 16+4t..
//   f16 A 16x16: a0 row g, k 2t, 2t+1; a1 row g+8; a2 row g, k 2t+8, +9; a3 row g+8, k 2t+8, +9
//   f16 B 16x8:  b0 col g, k 2t, 2t+1; b1 col g, k 2t+8, +9
//   C/D 16x8:    c0, c1 row g, cols 2t, 2t+1; c2, c3 row g+8
// and ldmatrix hands each lane exactly the A fragment (x4, from rows of
// bytes) and the B fragment (x2.trans, from rows of halves).
#include <algorithm>
#include <climits>
#include <cstdint>
#include <map>
#include <mutex>

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
constexpr int kColTiles = kTW / 8;
static_assert(kColTiles == kWarps, "each warp takes one column tile of the horizontal pass");
static_assert(gauss::kMaxImagePixels * 4 <= std::size_t{INT_MAX}, "image offsets must fit in an int");

// The tile's geometry for radius R, C bytes per pixel (blur_mma.cl's macros).
template <int R, int C>
struct Tile {
  static constexpr int kPlanes = C == 4 ? 3 : 1;
  static constexpr int kTH = mma::tile_rows(C);
  // A plane starts 16 columns left of the tile's first output column x0; the
  // first input of output column x0 (x0 - R) sits at kOffset.
  static constexpr int kOffset = 16 - R;
  __host__ __device__ static constexpr int a_start(int j) {
    return (kOffset + 8 * j) / 16 * 16;
  }  // col tile j's 16-byte aligned start
  static constexpr int kShiftEven = kOffset % 16;
  static constexpr int kShiftOdd = (kOffset + 8) % 16;
  static constexpr int kMaxShift = kShiftEven > kShiftOdd ? kShiftEven : kShiftOdd;
  static constexpr int kKH = (kMaxShift + 8 + 2 * R + 31) / 32;  // 32-column steps, horizontal
  static constexpr int kRawCols = a_start(kColTiles - 1) + 32 * kKH;
  // An odd number of 16-byte chunks per row: an ldmatrix's 8 rows fall in different banks.
  static constexpr int kRawStride = (kRawCols / 16) % 2 ? kRawCols : kRawCols + 16;
  static constexpr int kRowTiles = (kTH + 2 * R + 15) / 16;
  static constexpr int kLoadRows = kTH + 2 * R;       // the rows the tile reads
  static constexpr int kRawRows = 16 * kRowTiles;     // past kLoadRows: zeros, set once, weight 0
  static constexpr int kKV = (16 + 2 * R + 15) / 16;  // 16-row steps, vertical
  static constexpr int kHStride = 2 * kTW + 16;       // bytes per row of halves: 9 chunks, conflict free
  static constexpr int kOutStride = kTW * C;
  static constexpr int kVTilesPerWarp = (kTH / 16) * kColTiles / kWarps;
  static constexpr int kRawBytes = kPlanes * kRawRows * kRawStride;
  static constexpr int kHalfOffset = kRawBytes;
  static constexpr int kHalfEnd = kHalfOffset + kRawRows * kHStride;
  static constexpr int kOutBytes = (kTH * kOutStride + 15) / 16 * 16;
  // Where the layout would not fit 48 KB (RGBA from radius 9), the staged
  // output lies over the planes, which every warp must then be done with.
  static constexpr bool kOutOverRaw = kHalfEnd + kOutBytes + (C == 4 ? kTH * kTW : 0) > 48 * 1024;
  static constexpr int kOutOffset = kOutOverRaw ? 0 : kHalfEnd;
  static constexpr int kAlphaOffset = kOutOverRaw ? kHalfEnd : kOutOffset + kOutBytes;
  static constexpr int kSmemBytes = kAlphaOffset + (C == 4 ? kTH * kTW : 0);
  static_assert(!kOutOverRaw || kOutBytes <= kRawBytes, "the output fits over the planes");
  static_assert(kTH % 16 == 0 && (kTH / 16) * kColTiles % kWarps == 0, "every warp takes as many tiles");
  static_assert(kSmemBytes <= 48 * 1024, "static shared memory");
};

__device__ __forceinline__ void mma_u8(int* d, const std::uint32_t* a, const std::uint32_t* b) {
  asm volatile("mma.sync.aligned.m16n8k32.row.col.s32.u8.u8.s32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
               : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3])
               : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

__device__ __forceinline__ void mma_f16(float* d, const std::uint32_t* a, const std::uint32_t* b) {
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
               : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

// Four 8x8 matrices of 16-bit elements; lane 8q + i gives row i of matrix q.
__device__ __forceinline__ void ldmatrix_x4(std::uint32_t* r, const std::uint8_t* row) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(static_cast<std::uint32_t>(__cvta_generic_to_shared(row))));
}

// Two 8x8 matrices, transposed (lanes 0-15 give the rows).
__device__ __forceinline__ void ldmatrix_x2_trans(std::uint32_t* r, const std::uint8_t* row) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0,%1}, [%2];"
               : "=r"(r[0]), "=r"(r[1])
               : "r"(static_cast<std::uint32_t>(__cvta_generic_to_shared(row))));
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

// The horizontal band for inputs starting `shift` columns past a 16-byte
// boundary: B[kk][n] = w[32 ks + kk - shift - n], byte `part` (0 low, 1 high)
// of the 15-bit weights; lane (g, t) holds n = g, kk = 16 reg + 4t .. +3.
template <int R>
__device__ std::uint32_t band_u8(const Weights& w, int shift, int ks, int part, int reg, int g, int t) {
  std::uint32_t word = 0;
  for (int b = 0; b < 4; ++b) {
    const int k = 32 * ks + 16 * reg + 4 * t + b - shift - g;
    const std::uint32_t weight = (k >= 0 && k < 2 * R + 1) ? w.h15[k] : 0u;
    word |= ((part ? weight >> 8 : weight) & 0xFFu) << (8 * b);
  }
  return word;
}

// The vertical band: A[m][kk] = v[16 ks + kk - m], half floats; lane (g, t)
// holds (m = g + 8 (reg % 2), kk = 2t + 8 (reg / 2), +1).
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

template <int R, int C>
__device__ __forceinline__ void load_tile(const std::uint8_t* __restrict__ in, int width, int height, int pitch,
                                          bool aligned, int x0, int y0, uint4 (&words)[Fill<R, C>::kLoads]) {
  using F = Fill<R, C>;
  const int item = threadIdx.y * 32 + threadIdx.x;
#pragma unroll
  for (int n = 0; n < F::kLoads; ++n) {
    const int e = item + n * kThreads;
    if (e >= F::kWords) continue;  // the last word of some threads only
    const int r = e / F::kWordsPerRow;
    const int c = (e - r * F::kWordsPerRow) * F::kPixels;
    const std::uint8_t* row = in + min(max(y0 - R + r, 0), height - 1) * pitch;
    const int x = x0 - 16 + c;  // a multiple of the word's pixels
    if (aligned && x >= 0 && x + F::kPixels <= width) {
      words[n] = *reinterpret_cast<const uint4*>(row + x * C);
    } else {
      std::uint32_t bytes[4] = {0, 0, 0, 0};
#pragma unroll
      for (int i = 0; i < 16; ++i)
        bytes[i / 4] |= std::uint32_t{row[min(max(x + i / C, 0), width - 1) * C + i % C]} << (8 * (i % 4));
      words[n] = make_uint4(bytes[0], bytes[1], bytes[2], bytes[3]);
    }
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
        *reinterpret_cast<std::uint32_t*>(smem + T::kAlphaOffset + (r - R) * kTW + c - 16) = planes[3];
    }
  }
}

// The blocks an SM is to hold (__launch_bounds__), so that ptxas keeps each
// thread within 64 registers (gray to radius 8), 80 (gray above, RGBA to
// radius 8) or 128 (RGBA above): without the bound it takes a few more and
// one block fewer fits. Gray from radius 9 at 4 blocks (64 registers) spills
// and was 10% slower on the H200 than at 3.
constexpr int min_blocks_per_sm(int radius, int channels) {
  return channels == 1 ? (radius <= 8 ? 4 : 3) : radius <= 8 ? 3 : 2;
}

// Overlap false: the same kernel, each tile's loads waited for before its
// passes (fill, then compute): the section `overlap` measures the difference.
template <int R, int C, bool Overlap>
__global__ void __launch_bounds__(kThreads, min_blocks_per_sm(R, C))
    blur_mma(const std::uint8_t* __restrict__ in, std::uint8_t* __restrict__ out, int width, int height, int pitch,
             Weights weights, mma::TileWalk walk) {
  using T = Tile<R, C>;
  __shared__ __align__(16) std::uint8_t smem[T::kSmemBytes];
  const int lane = threadIdx.x;
  const int warp = threadIdx.y;
  const int g = lane / 4;
  const int t = lane % 4;

  // The bands, once per block (the block then loops over tiles). A warp's
  // horizontal tiles all have column tile j = warp: its band's shift parity.
  const int shift = warp % 2 ? T::kShiftOdd : T::kShiftEven;
  std::uint32_t hband[T::kKH][2][2];  // [step][part: low, high][register]
#pragma unroll
  for (int ks = 0; ks < T::kKH; ++ks)
#pragma unroll
    for (int part = 0; part < 2; ++part)
#pragma unroll
      for (int reg = 0; reg < 2; ++reg) hband[ks][part][reg] = band_u8<R>(weights, shift, ks, part, reg, g, t);
  std::uint32_t vband[T::kKV][4];
#pragma unroll
  for (int ks = 0; ks < T::kKV; ++ks)
#pragma unroll
    for (int reg = 0; reg < 4; ++reg) vband[ks][reg] = band_f16<R>(weights, ks, reg, g, t);

  // The planes' rows past those read (the horizontal pass's 16-row tiles
  // reach beyond TH + 2R): zeros, once; the fill never writes them (the
  // output staged over the planes may: any bytes meet zero weights).
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
  if (Overlap && ty < walk.tiles_y) load_tile<R, C>(in, width, height, pitch, aligned_in, tx * kTW, ty * T::kTH, words);
  // Two barriers a tile, the fewest its data allow: the planes are read by
  // every warp (after the first), the staged rows too (after the second), and
  // every warp has read the planes and the alpha before it reaches the second,
  // so the next tile's fill may overwrite them. The halves between the passes
  // are each warp's own (below): a warp-wide barrier is enough for them.
  for (; ty < walk.tiles_y; next_tile(walk, tx, ty)) {
    const int x0 = tx * kTW;
    const int y0 = ty * T::kTH;
    if constexpr (T::kOutOverRaw) __syncthreads();  // the staged rows (over the planes) are stored
    if (!Overlap) load_tile<R, C>(in, width, height, pitch, aligned_in, x0, y0, words);
    store_tile<R, C>(words, smem);
    __syncthreads();
    // The next tile's loads, issued now: they land while this tile is computed.
    if (Overlap) {
      int next_tx = tx;
      int next_ty = ty;
      next_tile(walk, next_tx, next_ty);
      if (next_ty < walk.tiles_y)
        load_tile<R, C>(in, width, height, pitch, aligned_in, next_tx * kTW, next_ty * T::kTH, words);
    }

    float vsum[T::kPlanes][C == 4 ? T::kVTilesPerWarp : 1][4];  // RGBA: kept until the pixels are assembled
#pragma unroll
    for (int plane = 0; plane < T::kPlanes; ++plane) {
      const std::uint8_t* raw = smem + plane * T::kRawRows * T::kRawStride;
      // Step 2: horizontal tiles (rt, j = warp), 16 rows x 8 columns.
      const int j = warp;
      for (int rt = 0; rt < T::kRowTiles; ++rt) {
        int hi[4] = {0, 0, 0, 0};
        int lo[4] = {0x4B000000, 0x4B000000, 0x4B000000, 0x4B000000};  // 2^23 as float bits
#pragma unroll
        for (int ks = 0; ks < T::kKH; ++ks) {
          std::uint32_t a[4];
          // Lane 8q + i: row i of matrix q = (rows 8 (q % 2) .., columns 16 (q / 2) ..).
          ldmatrix_x4(a, raw + (16 * rt + lane % 8 + 8 * ((lane / 8) % 2)) * T::kRawStride + T::a_start(j) + 32 * ks +
                             16 * (lane / 16));
          mma_u8(hi, a, hband[ks][1]);
          mma_u8(lo, a, hband[ks][0]);
        }
        // 256 hi + lo = 2^23 + S (S < 2^23) as float bits; x 2^-15 - 256 = S x 2^-15, exact.
        float h[4];
#pragma unroll
        for (int q = 0; q < 4; ++q) h[q] = fmaf(__int_as_float(256 * hi[q] + lo[q]), 0x1.0p-15f, -256.0f);
        std::uint8_t* row_g = smem + T::kHalfOffset + (16 * rt + g) * T::kHStride + 2 * (8 * j + 2 * t);
        *reinterpret_cast<std::uint32_t*>(row_g) = pack_halves(h[0], h[1]);
        *reinterpret_cast<std::uint32_t*>(row_g + 8 * T::kHStride) = pack_halves(h[2], h[3]);
      }
      // The vertical tiles below are the warp's own columns too (jj = warp):
      // every half they read, this warp wrote.
      __syncwarp();
      // Step 3: vertical tiles (i, jj = warp), 16 output rows x 8 columns.
#pragma unroll
      for (int n = 0; n < T::kVTilesPerWarp; ++n) {
        const int i = n;
        const int jj = warp;
        float v[4] = {0.5f, 0.5f, 0.5f, 0.5f};  // + 0.5: rounded half up at the end
#pragma unroll
        for (int ks = 0; ks < T::kKV; ++ks) {
          std::uint32_t b[2];
          // Lanes 0-15: rows 16 i + 16 ks + lane of the halves, columns 8 jj .. 8 jj + 7.
          ldmatrix_x2_trans(b, smem + T::kHalfOffset + (16 * i + 16 * ks + lane % 16) * T::kHStride + 16 * jj);
          // EXERCISE: add the band of vertical weights (vband[ks]) times the halves' fragment (b) into v, one mma_f16
          mma_f16(v, vband[ks], b);
          // STARTER:
          // v[0] += 0.0f;  // nothing summed: the tile comes out black
          // END EXERCISE
        }
        if constexpr (C == 1) {
          // Gray: round and stage the bytes at once (nothing to assemble).
#pragma unroll
          for (int half_row = 0; half_row < 2; ++half_row)
            *reinterpret_cast<std::uint16_t*>(smem + T::kOutOffset + (16 * i + g + 8 * half_row) * T::kOutStride +
                                              8 * jj + 2 * t) =
                static_cast<std::uint16_t>(
                    __byte_perm(rounded_bits(v[2 * half_row]), rounded_bits(v[2 * half_row + 1]), 0x40));
        } else {
#pragma unroll
          for (int q = 0; q < 4; ++q) vsum[plane][n][q] = v[q];
        }
      }
      __syncwarp();  // the warp's halves are free for the next plane
    }

    // Step 4 (RGBA): round, assemble the pixels, stage them (over the planes:
    // once every warp is done with them).
    if constexpr (T::kOutOverRaw) __syncthreads();
#pragma unroll
    for (int n = 0; n < (C == 4 ? T::kVTilesPerWarp : 0); ++n) {
      const int i = n;
      const int jj = warp;
#pragma unroll
      for (int half_row = 0; half_row < 2; ++half_row) {
        const int r = 16 * i + g + 8 * half_row;
        const int c = 8 * jj + 2 * t;
        std::uint8_t* at = smem + T::kOutOffset + r * T::kOutStride + c * C;
        const std::uint8_t* alpha = smem + T::kAlphaOffset + r * kTW + c;
        std::uint32_t pixel[2];
#pragma unroll
        for (int e = 0; e < 2; ++e) {
          const int q = 2 * half_row + e;
          // Bytes 0 of R, G (0x40: a's byte 0, b's byte 0), then of B and the alpha.
          pixel[e] = __byte_perm(__byte_perm(rounded_bits(vsum[0][n][q]), rounded_bits(vsum[1][n][q]), 0x40),
                                 __byte_perm(rounded_bits(vsum[2][n][q]), alpha[e], 0x40), 0x5410);
        }
        *reinterpret_cast<uint2*>(at) = make_uint2(pixel[0], pixel[1]);
      }
    }
    __syncthreads();
    // Step 5: whole rows to global memory, 16-byte stores (bytes at the edge);
    // a thread's chunks (1 gray, 3 RGBA) are the same each tile.
    const int item = warp * 32 + lane;
    const int row_bytes = width * C;
    constexpr int kChunksPerRow = T::kOutStride / 16;
    static_assert(T::kTH * kChunksPerRow % kThreads == 0, "every thread stores as many chunks");
#pragma unroll
    for (int chunk = 0; chunk < T::kTH * kChunksPerRow / kThreads; ++chunk) {
      const int e = item + chunk * kThreads;
      const int r = e / kChunksPerRow;
      const int c = (e % kChunksPerRow) * 16;
      const int y = y0 + r;
      const int b0 = x0 * C + c;
      if (y >= height || b0 >= row_bytes) continue;
      std::uint8_t* dst = out + y * pitch + b0;
      const std::uint8_t* src = smem + T::kOutOffset + r * T::kOutStride + c;
      if (aligned_out && b0 + 16 <= row_bytes) {
        *reinterpret_cast<uint4*>(dst) = *reinterpret_cast<const uint4*>(src);
      } else {
        for (int b = 0; b < 16 && b0 + b < row_bytes; ++b) dst[b] = src[b];
      }
    }
  }
}

// The blocks of blur_mma<R, C, Overlap> that @p device holds at once: its SMs
// times as many blocks as the registers and shared memory let an SM hold (the
// occupancy API). Asked once per kernel and device, not at every launch.
template <int R, int C, bool Overlap>
int resident_blocks(int device) {
  static std::mutex mutex;
  static std::map<int, int> known;  // device -> blocks
  const std::lock_guard<std::mutex> lock(mutex);
  const auto found = known.find(device);
  if (found != known.end()) return found->second;
  int sms = 0;
  int per_sm = 0;
  GAUSS_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  GAUSS_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, blur_mma<R, C, Overlap>, kThreads, 0));
  return known[device] = sms * std::max(per_sm, 1);
}

template <int R, int C, bool Overlap>
void launch_tiles(const std::uint8_t* in, std::uint8_t* out, const gauss::Problem& p, const Weights& w,
                  cudaStream_t stream) {
  using T = Tile<R, C>;
  const gauss::ImageGeometry& g = p.image;
  const int tiles = ((g.width + kTW - 1) / kTW) * ((g.height + T::kTH - 1) / T::kTH);
  int device = 0;
  GAUSS_CUDA_CHECK(cudaGetDevice(&device));
  const int blocks = std::min(tiles, resident_blocks<R, C, Overlap>(device));
  blur_mma<R, C, Overlap><<<blocks, dim3(32, kWarps), 0, stream>>>(in, out, g.width, g.height, g.pitch, w,
                                                                   mma::tile_walk(g.width, g.height, T::kTH, blocks));
}

}  // namespace

bool launch_blur_mma(const std::uint8_t* in, std::uint8_t* out, const gauss::Problem& problem, cudaStream_t stream,
                     mma::Schedule schedule) {
  if (!mma::serves(problem.blur)) return false;
  const Weights w = mma::quantise(problem.blur);
  const bool overlap = schedule == mma::Schedule::Overlapped;
  gauss::with_radius(problem.blur.radius, [&](auto radius) {
    constexpr int R = radius.value;
    if (problem.image.channels == 4)
      overlap ? launch_tiles<R, 4, true>(in, out, problem, w, stream)
              : launch_tiles<R, 4, false>(in, out, problem, w, stream);
    else
      overlap ? launch_tiles<R, 1, true>(in, out, problem, w, stream)
              : launch_tiles<R, 1, false>(in, out, problem, w, stream);
  });
  return true;
}
