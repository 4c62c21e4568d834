// Copied from chapters/10_capstone/blur_fused.cu (the capstone's warp-strip kernel), unchanged.
namespace gauss { struct GaussTaps { float w[33]; }; }
namespace fused { constexpr int kWarpsPerBlock = 4; }
namespace base {
using fused::kWarpsPerBlock;
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

}  // namespace base
