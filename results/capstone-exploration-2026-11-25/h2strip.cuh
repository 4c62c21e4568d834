// Issue 14 prototype: the radius-2 Gaussian blur (sigma 1) in packed half
// precision, one pass over DRAM, for gray (C = 1) and RGBA (C = 4).
//
// A warp owns a strip of 512 bytes of every row (32 lanes x 16 bytes; the end
// lanes are halo lanes that only supply their sums), so 480 bytes are written
// per warp row: 480 gray pixels or 120 RGBA pixels. The warp walks ROWS output
// rows down (ROWS + 4 input rows), loading each input row AHEAD rows early.
//
// Arithmetic, per 32-bit register = two bytes as a half2 pair:
//  * unpack: one PRMT makes 0x64bb 0x64bb = half2(1024 + b, 1024 + b') from two
//    input bytes (no conversion instruction).
//  * vertical (symmetric taps w0 w1 w2 w1 w0): the outer rows' values are
//    added as integers on the biased bit patterns, exactly:
//        A = r0 + r4 - 0x64006400  (= half2 1024 + r0 + r4, sums <= 510 are exact)
//        B = r1 + r3 - 0x64006400
//    then v = w0*A + w1*B + w2*C - K with K = 1024 (w0 + w1 + w2) removing the
//    bias: 2 IADD3 + 3 HFMA2 per two pixels.
//  * horizontal: the pairs shifted by one pixel are one PRMT each (gray); RGBA
//    neighbours are whole pairs. 5 HFMA2 per two pixels.
//  * output: HADD2 with 1024 rounds to nearest and leaves the integer in the
//    low byte of each half; one PRMT packs four bytes.
// RGBA: the (B, A) pair's A half has taps (0, 0, 1, 0, 0) and K = 1024: alpha
// passes through unchanged at no cost.
//
// Error bound (sigma 1, R 2, the half weights below, sum exactly 1):
//   vertical roundings <= 0.125 + 1/16 + 1/16 = 0.25 level, horizontal
//   roundings <= 1/256 + 1/128 + 1/32 + 1/16 + 1/16 = 0.168, weight
//   quantisation <= 255 * max(sum of positive, negative parts of
//   w^ w^T - w w^T) = 0.098: |error| < 0.52 < 1 before rounding, so the result
//   is within 1 level of floor(exact + 0.5) for every input.
#pragma once
#include <cstdint>

struct H2W {
  std::uint32_t w0e, w1e, w2e, nke;  // even pairs (gray: all pairs)
  std::uint32_t w0o, w1o, w2o, nko;  // odd pairs (RGBA: the (B, A) pair)
};

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

// C: bytes per pixel (1 or 4). ROWS output rows per warp, AHEAD rows loaded
// ahead, MINB blocks per SM for __launch_bounds__, WARPS warps per block
// (stacked vertically), STCS: streaming (evict-first) stores.
template <int C, int ROWS, int AHEAD, int WARPS, bool STCS, bool EDGE, int NB = 16>
__device__ __forceinline__ void h2body(const std::uint8_t* __restrict__ in, std::uint8_t* __restrict__ out, int width,
                                       int height, int pitch, bool aligned, const H2W& hw) {
  constexpr int kRaw = (AHEAD + 1 + 4) / 5 * 5;  // raw rows kept, whole rings of 5
  constexpr int PX = NB / C;
  constexpr int NP = NB / 2;  // half2 pairs per lane
  constexpr int NW = NB / 4;  // 32-bit words per lane
  constexpr int kStrip = 30 * NB;
  const int lane = threadIdx.x;
  const int xb0 = blockIdx.x * kStrip + (lane - 1) * NB;  // this lane's first byte in the row
  const int px0 = xb0 / C;
  const int y0 = (blockIdx.y * WARPS + threadIdx.y) * ROWS;
  if (y0 >= height) return;  // whole warp
  const int rowbytes = width * C;
  // Interior blocks (EDGE false): every lane loads and stores whole vectors.
  const bool vec = !EDGE || (aligned && xb0 >= 0 && xb0 + NB <= rowbytes);
  const bool writes = lane >= 1 && lane < 31 && (!EDGE || xb0 < rowbytes);

  std::uint32_t ring[5][NP];
  std::uint32_t raw[kRaw][NW];
  constexpr int rows_in = ROWS + 4;

  auto load_row = [&](int i, std::uint32_t* words) {
    const int r = min(max(y0 - 2 + i, 0), height - 1);
    const std::uint8_t* row = in + static_cast<std::size_t>(r) * pitch;
    if (vec) {
      if constexpr (NB == 16) {
        const uint4 v = *reinterpret_cast<const uint4*>(row + xb0);
        words[0] = v.x;
        words[1] = v.y;
        words[2] = v.z;
        words[3] = v.w;
      } else {
        const uint2 v = *reinterpret_cast<const uint2*>(row + xb0);
        words[0] = v.x;
        words[1] = v.y;
      }
    } else {
#pragma unroll
      for (int k = 0; k < NW; ++k) words[k] = 0;
#pragma unroll
      for (int p = 0; p < PX; ++p) {
        const int x = min(max(px0 + p, 0), width - 1);
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
  for (int base = 0; base < rows_in; base += kRaw) {
#pragma unroll
    for (int j = 0; j < kRaw; ++j) {
      const int i = base + j;
      if (i >= rows_in) break;
      if (i + AHEAD < rows_in) load_row(i + AHEAD, raw[(j + AHEAD) % kRaw]);
#pragma unroll
      for (int m = 0; m < NP; ++m)
        ring[j % 5][m] = __byte_perm(raw[j % kRaw][m / 2], 0x64u, (m % 2) ? 0x4342 : 0x4140);
      if (i < 4) continue;
      const int y = y0 + i - 4;

      // Vertical: rows i-4 .. i sit in slots (j+1) .. (j+4), j (mod 5).
      std::uint32_t v[NP];
#pragma unroll
      for (int m = 0; m < NP; ++m) {
        const bool odd = C == 4 && (m % 2);
        const std::uint32_t a = ring[(j + 1) % 5][m] + ring[j % 5][m] - 0x64006400u;
        const std::uint32_t b = ring[(j + 2) % 5][m] + ring[(j + 4) % 5][m] - 0x64006400u;
        const std::uint32_t c = ring[(j + 3) % 5][m];
        std::uint32_t t = hfma2(odd ? hw.w2o : hw.w2e, c, odd ? hw.nko : hw.nke);
        t = hfma2(odd ? hw.w1o : hw.w1e, b, t);
        v[m] = hfma2(odd ? hw.w0o : hw.w0e, a, t);
      }

      std::uint32_t o[NP];
      if constexpr (C == 1) {
        // P[k + 1] = pair k (pixels 2k, 2k+1), k = -1 .. 8.
        std::uint32_t P[NP + 2];
        P[0] = __shfl_up_sync(0xffffffffu, v[NP - 1], 1);
        P[NP + 1] = __shfl_down_sync(0xffffffffu, v[0], 1);
#pragma unroll
        for (int m = 0; m < NP; ++m) P[m + 1] = v[m];
        // Q[k + 1] = pixels (2k+1, 2k+2), k = -1 .. 7.
        std::uint32_t Q[NP + 1];
#pragma unroll
        for (int k = 0; k < NP + 1; ++k) Q[k] = __byte_perm(P[k], P[k + 1], 0x5432);
#pragma unroll
        for (int m = 0; m < NP; ++m) {
          std::uint32_t h = hfma2(hw.w0e, P[m], 0u);
          h = hfma2(hw.w0e, P[m + 2], h);
          h = hfma2(hw.w1e, Q[m], h);
          h = hfma2(hw.w1e, Q[m + 1], h);
          h = hfma2(hw.w2e, P[m + 1], h);
          o[m] = hadd2(h, 0x64006400u);
        }
      } else {
        // P[k + 4] = pair k, k = -4 .. 11; pixel = 2 pairs.
        std::uint32_t P[NP + 8];
#pragma unroll
        for (int k = 0; k < 4; ++k) {
          P[k] = __shfl_up_sync(0xffffffffu, v[NP - 4 + k], 1);
          P[NP + 4 + k] = __shfl_down_sync(0xffffffffu, v[k], 1);
        }
#pragma unroll
        for (int m = 0; m < NP; ++m) P[m + 4] = v[m];
#pragma unroll
        for (int m = 0; m < NP; ++m) {
          const bool odd = m % 2;
          std::uint32_t h = hfma2(odd ? hw.w0o : hw.w0e, P[m], 0u);
          h = hfma2(odd ? hw.w0o : hw.w0e, P[m + 8], h);
          h = hfma2(odd ? hw.w1o : hw.w1e, P[m + 2], h);
          h = hfma2(odd ? hw.w1o : hw.w1e, P[m + 6], h);
          h = hfma2(odd ? hw.w2o : hw.w2e, P[m + 4], h);
          o[m] = hadd2(h, 0x64006400u);
        }
      }
      std::uint32_t packed[NW];
#pragma unroll
      for (int k = 0; k < NW; ++k) packed[k] = __byte_perm(o[2 * k], o[2 * k + 1], 0x6420);

      if (writes && y < height) {
        std::uint8_t* dst = out + static_cast<std::size_t>(y) * pitch;
        if (vec) {
          if constexpr (NB == 16) {
            const uint4 val = make_uint4(packed[0], packed[1], packed[2], packed[3]);
            if constexpr (STCS)
              __stcs(reinterpret_cast<uint4*>(dst + xb0), val);
            else
              *reinterpret_cast<uint4*>(dst + xb0) = val;
          } else {
            *reinterpret_cast<uint2*>(dst + xb0) = make_uint2(packed[0], packed[NW - 1]);
          }
        } else {
          for (int b = 0; b < NB && xb0 + b < rowbytes; ++b)
            dst[xb0 + b] = static_cast<std::uint8_t>(packed[b / 4] >> (8 * (b % 4)));
        }
      }
    }
  }
}

// Blocks whose 512-byte strip lies inside the rows, on aligned rows, run a
// body with no byte paths: compact code, no per-row edge tests.
template <int C, int ROWS, int AHEAD, int MINB, int WARPS, bool STCS>
__global__ void __launch_bounds__(32 * WARPS, MINB)
    h2fast(const std::uint8_t* __restrict__ in, std::uint8_t* __restrict__ out, int width, int height, int pitch,
           bool aligned, H2W hw) {
  const int first = static_cast<int>(blockIdx.x) * 480 - 16;
  const bool interior = aligned && first >= 0 && first + 512 <= width * C;
  if (interior)
    h2body<C, ROWS, AHEAD, WARPS, STCS, false>(in, out, width, height, pitch, aligned, hw);
  else
    h2body<C, ROWS, AHEAD, WARPS, STCS, true>(in, out, width, height, pitch, aligned, hw);
}
// The first version: one body with the byte paths inline for every block.
template <int C, int ROWS, int AHEAD, int MINB, int WARPS, bool STCS>
__global__ void __launch_bounds__(32 * WARPS, MINB)
    h2strip(const std::uint8_t* __restrict__ in, std::uint8_t* __restrict__ out, int width, int height, int pitch,
            bool aligned, H2W hw) {
  h2body<C, ROWS, AHEAD, WARPS, STCS, true>(in, out, width, height, pitch, aligned, hw);
}

// 8 bytes per lane: half the registers for the rings, so more warps per SM.
template <int C, int ROWS, int AHEAD, int MINB, int WARPS>
__global__ void __launch_bounds__(32 * WARPS, MINB)
    h2fast8(const std::uint8_t* __restrict__ in, std::uint8_t* __restrict__ out, int width, int height, int pitch,
            bool aligned, H2W hw) {
  const int first = static_cast<int>(blockIdx.x) * 240 - 8;
  const bool interior = aligned && first >= 0 && first + 256 <= width * C;
  if (interior)
    h2body<C, ROWS, AHEAD, WARPS, false, false, 8>(in, out, width, height, pitch, aligned, hw);
  else
    h2body<C, ROWS, AHEAD, WARPS, false, true, 8>(in, out, width, height, pitch, aligned, hw);
}
