// Chapter 10: one pass in registers, in CUDA. Every input byte is loaded
// from DRAM once (the halo rows come again from L2), converted to float once,
// and every output byte is stored once, 8 or 16 bytes at a time; no sum ever
// leaves the registers.
//
// The warp-strip kernel. A warp owns a vertical strip of the image: its 32
// lanes sit side by side, each on PX consecutive pixels, and the warp walks
// down ROWS output rows. For each input row a lane
//   1. loads its PX pixels with one 4-, 8- or 16-byte load, AHEAD rows
//      before it needs them,
//   2. converts each byte to float once (a byte permute and a subtraction:
//      0x4B0000bb is the float 2^23 + bb, so no conversion unit is involved),
//   3. keeps the last 2R+1 converted rows in registers (a ring: the row loop
//      is unrolled a multiple of 2R+1 times, so every ring index is a
//      compile-time constant),
// and for each output row
//   4. sums its ring vertically (2R+1 multiply-adds per value),
//   5. fetches the vertical sums of the R pixels left and right of its own
//      from the neighbouring lanes with warp shuffles, instead of loading and
//      summing them a second time,
//   6. sums horizontally, rounds half up with one add in round-down mode
//      (2^23 + floor(s) puts floor(s) in the low byte), packs the bytes and
//      stores them with one 4-, 8- or 16-byte store.
// The lanes at the two ends of a warp have no neighbour on one side, so they
// only supply their pixels' sums to the lanes next to them: warps overlap by
// those halo lanes, and the image's own edges are clamped on load.
//
// For RGBA images with a radius above 4 the ring no longer fits in registers:
// a tile kernel stages the tile in shared memory instead (blur_tile_rgba below).
#include <cstdint>
#include <cstring>
#include <iterator>

#include "blur_ring.cuh"
#include "gauss/radius.hpp"
#include "ring_plan.hpp"

namespace {

using ring::kTile;
using ring::kWarpsPerBlock;

template <int Bytes>
struct VectorOf;
template <>
struct VectorOf<4> {
  using type = std::uint32_t;
};
template <>
struct VectorOf<8> {
  using type = uint2;
};
template <>
struct VectorOf<16> {
  using type = uint4;
};

// A byte of a 32-bit word as a float: build the bit pattern 0x4B0000bb, the
// float 2^23 + bb, with one byte permute, and subtract 2^23.
__device__ __forceinline__ float byte_to_float(std::uint32_t word, int byte) {
  return __uint_as_float(__byte_perm(word, 0x4B000000u, 0x7540 | byte)) - 8388608.0f;
}

// floor(s) for 0 <= s < 256, in the low byte of the result: adding 2^23 in
// round-down mode leaves the integer part in the mantissa's low bits.
__device__ __forceinline__ std::uint32_t floor_to_low_byte(float s) {
  return __float_as_uint(__fadd_rd(s, 8388608.0f));
}

// C bytes per pixel (1 gray, 4 RGBA), radius R, PX pixels per lane, ROWS
// output rows per warp.
// AHEAD: rows loaded ahead of use; MIN_BLOCKS: blocks per SM the register
// budget must allow (__launch_bounds__ caps registers at 65536 / (128 x it)).
template <int C, int R, int PX, int ROWS, int AHEAD, int MIN_BLOCKS>
__global__ void __launch_bounds__(32 * kWarpsPerBlock, MIN_BLOCKS)
    blur_warp_strip(const std::uint8_t* __restrict__ in, std::uint8_t* __restrict__ out, int width, int height,
                    int pitch, bool aligned, gauss::GaussTaps taps) {
  constexpr int kChannels = C == 4 ? 3 : 1;  // blurred channels; RGBA carries alpha
  constexpr int kHalo = (R + PX - 1) / PX;   // halo lanes at each end of the warp
  constexpr int kOutputLanes = 32 - 2 * kHalo;
  constexpr int kTaps = 2 * R + 1;
  constexpr int kBytes = PX * C;
  constexpr int kWords = kBytes / 4;
  using Vector = typename VectorOf<kBytes>::type;
  static_assert(kOutputLanes > 0, "radius too large for this many pixels per lane");

  const int lane = threadIdx.x;
  const int x0 = blockIdx.x * kOutputLanes * PX + (lane - kHalo) * PX;  // this lane's first pixel
  const int y0 = (blockIdx.y * blockDim.y + threadIdx.y) * ROWS;        // the warp's first output row
  if (y0 >= height) return;  // the whole warp leaves together: shuffles below need every lane

  // Lanes whose pixels lie wholly inside the image, on aligned addresses,
  // load and store vectors; the few others (image edges) go byte by byte.
  const bool vector_io = aligned && x0 >= 0 && x0 + PX <= width;
  const bool writes = lane >= kHalo && lane < 32 - kHalo && x0 < width;

  float w[kTaps];
#pragma unroll
  for (int k = 0; k < kTaps; ++k) w[k] = taps.w[k];

  // Loads are issued AHEAD rows before their row is used, so that each lane
  // keeps several DRAM requests in flight: a row's arithmetic takes a few
  // hundred cycles, a DRAM load under load takes a microsecond or more.
  // Two rings of rows: the last 2R+1 rows converted (ring, slot i % (2R+1)),
  // and the rows as loaded (raw, slot i % kRaw), kRaw rows deep: deep enough
  // for the rows in flight and, for RGBA, for the row whose alpha is stored
  // (R rows back). The row loop is unrolled kRaw times, a multiple of 2R+1, so
  // every slot index is a compile-time constant and both rings stay in
  // registers, while the code stays kRaw rows long whatever ROWS is.
  constexpr int kAhead = AHEAD;
  constexpr int kKeep = AHEAD + 1 + (C == 4 ? R : 0);        // raw rows live at once
  constexpr int kRaw = (kKeep + kTaps - 1) / kTaps * kTaps;  // rounded up to whole rings
  float ring[kTaps][PX][kChannels];
  std::uint32_t raw[kRaw][kWords];
  const int rows_in = ROWS + 2 * R;
  auto load_row = [&](int i, std::uint32_t* words) {
    const int r = min(max(y0 - R + i, 0), height - 1);  // clamp-to-edge
    const std::uint8_t* row = in + static_cast<std::size_t>(r) * pitch;
    if (vector_io) {
      const Vector v = *reinterpret_cast<const Vector*>(row + x0 * C);
      memcpy(words, &v, sizeof v);
    } else {
#pragma unroll
      for (int k = 0; k < kWords; ++k) words[k] = 0;
#pragma unroll
      for (int p = 0; p < PX; ++p) {
        const int x = min(max(x0 + p, 0), width - 1);  // clamp-to-edge
#pragma unroll
        for (int b = 0; b < C; ++b) {
          const int byte = p * C + b;
          words[byte / 4] |= std::uint32_t{row[x * C + b]} << (8 * (byte % 4));
        }
      }
    }
  };
#pragma unroll
  for (int i = 0; i < kAhead; ++i) load_row(i, raw[i]);

  for (int base = 0; base < rows_in; base += kRaw) {
#pragma unroll
    for (int j = 0; j < kRaw; ++j) {
      const int i = base + j;
      if (i >= rows_in) break;  // the same row for the whole warp

      // --- Start loading row i + kAhead; convert row i (loaded earlier).
      if (i + kAhead < rows_in) load_row(i + kAhead, raw[(j + kAhead) % kRaw]);
      const std::uint32_t* words = raw[j];
#pragma unroll
      for (int p = 0; p < PX; ++p)
#pragma unroll
        for (int c = 0; c < kChannels; ++c)
          ring[j % kTaps][p][c] = byte_to_float(words[(p * C + c) / 4], (p * C + c) % 4);
      if (i < 2 * R) continue;  // the first 2R rows only fill the ring

      // --- Output row y: vertical sums of this lane's pixels over input rows
      // i - 2R .. i.
      const int y = y0 + i - 2 * R;
      float v[PX][kChannels];
#pragma unroll
      for (int p = 0; p < PX; ++p)
#pragma unroll
        for (int c = 0; c < kChannels; ++c) {
          // EXERCISE: v[p][c], the weighted sum of pixel p over input rows i - 2R .. i, read from the ring
          // Those rows sit in slots (j + 1 + k) % (2R+1), k = 0 .. 2R
          // (j - 2R and j + 1 are the same slot modulo 2R+1).
          float s = w[0] * ring[(j + 1) % kTaps][p][c];
#pragma unroll
          for (int k = 1; k < kTaps; ++k) s = fmaf(w[k], ring[(j + 1 + k) % kTaps][p][c], s);
          v[p][c] = s;
          // STARTER:
          // v[p][c] = ring[j % kTaps][p][c];  // row i alone, unweighted
          // END EXERCISE
        }

      // --- The neighbours' vertical sums: left[d - 1] is pixel x0 - d,
      // right[d - 1] is pixel x0 + PX - 1 + d. Every lane takes part.
      float left[R][kChannels];
      float right[R][kChannels];
#pragma unroll
      for (int d = 1; d <= R; ++d)
#pragma unroll
        for (int c = 0; c < kChannels; ++c) {
          // EXERCISE: left[d - 1][c] and right[d - 1][c]: sums other lanes hold; fetch them with warp shuffles
          const unsigned int lanes_away = (d - 1) / PX + 1;
          left[d - 1][c] = __shfl_up_sync(0xffffffffu, v[PX - 1 - (d - 1) % PX][c], lanes_away);
          right[d - 1][c] = __shfl_down_sync(0xffffffffu, v[(d - 1) % PX][c], lanes_away);
          // STARTER:
          // left[d - 1][c] = v[0][c];  // this lane's edge pixels, repeated
          // right[d - 1][c] = v[PX - 1][c];
          // END EXERCISE
        }

      // --- Horizontal sums, rounded half up (the sum starts at 0.5), packed.
      std::uint32_t packed[kWords];
#pragma unroll
      for (int p = 0; p < PX; ++p) {
        std::uint32_t b[kChannels];
#pragma unroll
        for (int c = 0; c < kChannels; ++c) {
          float s = 0.5f;
#pragma unroll
          for (int k = -R; k <= R; ++k) {
            const int q = p + k;
            const float value = q < 0 ? left[-q - 1][c] : q >= PX ? right[q - PX][c] : v[q][c];
            s = fmaf(w[k + R], value, s);
          }
          b[c] = floor_to_low_byte(s);
        }
        if (C == 4) {
          // Alpha from input row i - R, the output row itself: raw slot (j - R) % kRaw.
          const std::uint32_t alpha_word = raw[(j + kRaw - R) % kRaw][p];
          packed[p] =
              __byte_perm(__byte_perm(b[0], b[1], 0x0040), __byte_perm(b[kChannels - 1], alpha_word, 0x0070), 0x5410);
        } else if (p % 4 == 0) {
          packed[p / 4] = b[0] & 0xFFu;
        } else {
          // Put the new byte in position p % 4, keeping the bytes below it.
          packed[p / 4] = __byte_perm(packed[p / 4], b[0], p % 4 == 1 ? 0x3240 : p % 4 == 2 ? 0x3410 : 0x4210);
        }
      }

      // --- Store (the halo lanes computed only for their neighbours).
      if (writes && y < height) {
        std::uint8_t* dst = out + static_cast<std::size_t>(y) * pitch;
        if (vector_io) {
          Vector vec;
          memcpy(&vec, packed, sizeof vec);
          *reinterpret_cast<Vector*>(dst + x0 * C) = vec;
        } else {
          for (int p = 0; p < PX && x0 + p < width; ++p)
            for (int b = 0; b < C; ++b) {
              const int byte = p * C + b;
              dst[(x0 + p) * C + b] = static_cast<std::uint8_t>(packed[byte / 4] >> (8 * (byte % 4)));
            }
        }
      }
    }
  }
}

// The tile kernel, for RGBA radii above 4: a 16x16 block computes a 16x16
// tile. It stages the tile and its halo in shared memory as floats (each
// byte converted once), sums vertically into a second shared array, then
// horizontally. Shared memory carries the neighbours, at the cost of more
// shared traffic per pixel than the warp-strip kernel's shuffles.
template <int R>
__global__ void __launch_bounds__(kTile* kTile)
    blur_tile_rgba(const std::uint8_t* __restrict__ in, std::uint8_t* __restrict__ out, int width, int height,
                   int pitch, gauss::GaussTaps taps) {
  constexpr int kSpan = kTile + 2 * R;
  struct Rgb {
    float r, g, b;
  };
  __shared__ Rgb tile[kSpan][kSpan];      // the input tile and its halo, converted (37 KB at radius 16)
  __shared__ Rgb vertical[kTile][kSpan];  // vertical sums
  const int tx = threadIdx.x;
  const int ty = threadIdx.y;
  const int x_base = blockIdx.x * kTile;
  const int y_base = blockIdx.y * kTile;

  for (int sy = ty; sy < kSpan; sy += kTile) {
    const int y = min(max(y_base + sy - R, 0), height - 1);
    for (int sx = tx; sx < kSpan; sx += kTile) {
      const int x = min(max(x_base + sx - R, 0), width - 1);
      const uchar4 p = *reinterpret_cast<const uchar4*>(in + static_cast<std::size_t>(y) * pitch + 4 * x);
      tile[sy][sx] = {static_cast<float>(p.x), static_cast<float>(p.y), static_cast<float>(p.z)};
    }
  }
  __syncthreads();  // every thread reads pixels others converted

  // Vertical sums for the tile's kTile rows and all kSpan columns.
  for (int vx = tx; vx < kSpan; vx += kTile) {
    Rgb s{0.0f, 0.0f, 0.0f};
#pragma unroll
    for (int k = 0; k < 2 * R + 1; ++k) {
      const Rgb t = tile[ty + k][vx];
      s.r = fmaf(taps.w[k], t.r, s.r);
      s.g = fmaf(taps.w[k], t.g, s.g);
      s.b = fmaf(taps.w[k], t.b, s.b);
    }
    vertical[ty][vx] = s;
  }
  __syncthreads();  // the horizontal pass reads the neighbours' vertical sums

  const int x = x_base + tx;
  const int y = y_base + ty;
  if (x >= width || y >= height) return;
  Rgb s{0.5f, 0.5f, 0.5f};  // rounding half up: floor(sum + 0.5)
#pragma unroll
  for (int k = 0; k < 2 * R + 1; ++k) {
    const Rgb t = vertical[ty][tx + k];
    s.r = fmaf(taps.w[k], t.r, s.r);
    s.g = fmaf(taps.w[k], t.g, s.g);
    s.b = fmaf(taps.w[k], t.b, s.b);
  }
  const std::uint32_t alpha = in[static_cast<std::size_t>(y) * pitch + 4 * x + 3];
  const std::uint32_t packed = __byte_perm(__byte_perm(floor_to_low_byte(s.r), floor_to_low_byte(s.g), 0x0040),
                                           __byte_perm(floor_to_low_byte(s.b), alpha, 0x0040), 0x5410);
  *reinterpret_cast<std::uint32_t*>(out + static_cast<std::size_t>(y) * pitch + 4 * x) = packed;
}

template <int C, int R, int PX, int ROWS, int AHEAD, int MIN_BLOCKS>
void launch_strip(const std::uint8_t* in, std::uint8_t* out, const gauss::Problem& p, cudaStream_t stream) {
  const gauss::ImageGeometry& g = p.image;
  constexpr int kHalo = (R + PX - 1) / PX;
  const int strip = (32 - 2 * kHalo) * PX;  // output pixels per warp
  const dim3 block(32, kWarpsPerBlock);
  const dim3 grid((g.width + strip - 1) / strip, (g.height + ROWS * kWarpsPerBlock - 1) / (ROWS * kWarpsPerBlock));
  const bool aligned = g.pitch % (PX * C) == 0 && reinterpret_cast<std::uintptr_t>(in) % (PX * C) == 0 &&
                       reinterpret_cast<std::uintptr_t>(out) % (PX * C) == 0;
  blur_warp_strip<C, R, PX, ROWS, AHEAD, MIN_BLOCKS>
      <<<grid, block, 0, stream>>>(in, out, g.width, g.height, g.pitch, aligned, p.taps);
}

template <int C, int R>
void launch_for(const std::uint8_t* in, std::uint8_t* out, const gauss::Problem& p, cudaStream_t stream) {
  if constexpr (ring::uses_warp_strip(C, R)) {
    launch_strip<C, R, ring::pixels_per_lane(C, R), ring::rows_per_warp(C, R), ring::rows_ahead(C, R),
                 ring::min_blocks(C, R)>(in, out, p, stream);
  } else {
    const gauss::ImageGeometry& g = p.image;
    const dim3 block(kTile, kTile);
    const dim3 grid((g.width + kTile - 1) / kTile, (g.height + kTile - 1) / kTile);
    blur_tile_rgba<R><<<grid, block, 0, stream>>>(in, out, g.width, g.height, g.pitch, p.taps);
  }
}

// The shapes the tuning section compares, at radius 2 (the default blur).
// Index 0 is the shape launch_blur_ring() uses.
struct TunedShape {
  const char* name;
  void (*launch)(const std::uint8_t*, std::uint8_t*, const gauss::Problem&, cudaStream_t);
};

constexpr TunedShape kGrayShapes[] = {
    {"8 px/lane, 8 rows, 4 ahead", launch_strip<1, 2, 8, 8, 4, 4>},
    {"8 px/lane, 16 rows, 4 ahead", launch_strip<1, 2, 8, 16, 4, 4>},
    {"8 px/lane, 16 rows, 8 ahead", launch_strip<1, 2, 8, 16, 8, 4>},
    {"8 px/lane, 16 rows, none ahead", launch_strip<1, 2, 8, 16, 0, 4>},
    {"8 px/lane, 32 rows, 4 ahead", launch_strip<1, 2, 8, 32, 4, 4>},
    {"16 px/lane, 16 rows, 4 ahead", launch_strip<1, 2, 16, 16, 4, 3>},
    {"16 px/lane, 32 rows, 4 ahead", launch_strip<1, 2, 16, 32, 4, 3>},
    {"4 px/lane, 16 rows, 4 ahead", launch_strip<1, 2, 4, 16, 4, 6>},
};
constexpr TunedShape kRgbaShapes[] = {
    {"4 px/lane, 16 rows, 6 ahead", launch_strip<4, 2, 4, 16, 6, 4>},
    {"4 px/lane, 16 rows, 2 ahead", launch_strip<4, 2, 4, 16, 2, 4>},
    {"4 px/lane, 16 rows, none ahead", launch_strip<4, 2, 4, 16, 0, 4>},
    {"4 px/lane, 8 rows, 6 ahead", launch_strip<4, 2, 4, 8, 6, 3>},
    {"4 px/lane, 32 rows, 6 ahead", launch_strip<4, 2, 4, 32, 6, 4>},
    {"2 px/lane, 16 rows, 6 ahead", launch_strip<4, 2, 2, 16, 6, 6>},
};

}  // namespace

int ring_shape_count(int channels) {
  return channels == 4 ? static_cast<int>(std::size(kRgbaShapes)) : static_cast<int>(std::size(kGrayShapes));
}

const char* ring_shape_name(int channels, int shape) { return (channels == 4 ? kRgbaShapes : kGrayShapes)[shape].name; }

void launch_ring_shape(const std::uint8_t* in, std::uint8_t* out, const gauss::Problem& problem, int shape,
                       cudaStream_t stream) {
  (problem.image.channels == 4 ? kRgbaShapes : kGrayShapes)[shape].launch(in, out, problem, stream);
}

void launch_blur_ring(const std::uint8_t* in, std::uint8_t* out, const gauss::Problem& problem, cudaStream_t stream) {
  gauss::with_radius(problem.blur.radius, [&](auto radius) {
    if (problem.image.channels == 4) {
      launch_for<4, radius.value>(in, out, problem, stream);
    } else {
      launch_for<1, radius.value>(in, out, problem, stream);
    }
  });
}
