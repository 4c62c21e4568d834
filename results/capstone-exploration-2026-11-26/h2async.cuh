// Issue 14, second exploration (2026-11-26): the packed-half warp strip of
// h2strip.cuh with its rows loaded ahead by cp.async into shared memory
// instead of into registers, and a grid of one wave of warps, each walking a
// long run of rows. Included by bench_async.cu into the 2026-11-25 harness
// (which defines BlurFn, Geometry, g_h2w, g_sms).
//
// Why: the 2026-11-25 exploration found the register-ring kernel latency
// bound: 24-32 warps x 4 rows x 256 B in flight per SM is not enough, every
// extra row ahead costs registers (so warps), and every warp pays a full DRAM
// latency before its first row. cp.async keeps loads in flight in shared
// memory (no register), so a warp can run 8-12 rows ahead; a one-wave grid
// pays the prologue once per warp and cuts the halo rows from 4 per 8 to 4
// per ~40. Later in the file: lean addressing, persistent blocks, and block
// tiles (h2tile, h2tilefull) loaded by every thread's cp.async at once.
#pragma once
#include <cstdint>

namespace h2a {

__device__ __forceinline__ void cp_async8(unsigned dst, const void* src) {
  asm volatile("cp.async.ca.shared.global [%0], [%1], 8;" ::"r"(dst), "l"(src) : "memory");
}
__device__ __forceinline__ void cp_async16(unsigned dst, const void* src) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(dst), "l"(src) : "memory");
}
__device__ __forceinline__ void cp_commit() { asm volatile("cp.async.commit_group;" ::: "memory"); }
template <int N>
__device__ __forceinline__ void cp_wait() {
  asm volatile("cp.async.wait_group %0;" ::"n"(N) : "memory");
}

// One output row of a lane from its 5 unpacked input rows (r0 the oldest):
// the vertical sums, the neighbours' by shuffle, the horizontal sums, packed.
template <int C, int NB>
__device__ __forceinline__ void out_row(const std::uint32_t* r0, const std::uint32_t* r1, const std::uint32_t* r2,
                                        const std::uint32_t* r3, const std::uint32_t* r4, const H2W& hw,
                                        std::uint32_t* packed) {
  constexpr int NP = NB / 2, NW = NB / 4;
  std::uint32_t v[NP];
#pragma unroll
  for (int m = 0; m < NP; ++m) {
    const bool odd = C == 4 && (m % 2);
    const std::uint32_t a = r0[m] + r4[m] - 0x64006400u;
    const std::uint32_t b = r1[m] + r3[m] - 0x64006400u;
    std::uint32_t t = hfma2(odd ? hw.w2o : hw.w2e, r2[m], odd ? hw.nko : hw.nke);
    t = hfma2(odd ? hw.w1o : hw.w1e, b, t);
    v[m] = hfma2(odd ? hw.w0o : hw.w0e, a, t);
  }
  std::uint32_t o[NP];
  if constexpr (C == 1) {
    std::uint32_t P[NP + 2];
    P[0] = __shfl_up_sync(0xffffffffu, v[NP - 1], 1);
    P[NP + 1] = __shfl_down_sync(0xffffffffu, v[0], 1);
#pragma unroll
    for (int m = 0; m < NP; ++m) P[m + 1] = v[m];
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
#pragma unroll
  for (int k = 0; k < NW; ++k) packed[k] = __byte_perm(o[2 * k], o[2 * k + 1], 0x6420);
}

template <int AHEAD>
__host__ __device__ constexpr int slots() {
  return AHEAD < 8 ? 8 : 16;  // a power of two > AHEAD: slot = row & (S - 1)
}

// C bytes per pixel, NB bytes per lane, AHEAD rows in flight per warp, WARPS
// warps per block; rows output rows per warp (a run-time value: one wave).
template <int C, int NB, int AHEAD, int WARPS, bool EDGE, int ROWS_CT = 0>
__device__ __forceinline__ void body(const std::uint8_t* __restrict__ in, std::uint8_t* __restrict__ out, int width,
                                     int height, int pitch, bool aligned, int rows, const H2W& hw, std::uint8_t* smem) {
  constexpr int S = slots<AHEAD>();
  constexpr int NP = NB / 2, NW = NB / 4, PX = NB / C;
  const int lane = threadIdx.x;
  const int xb0 = blockIdx.x * 30 * NB + (lane - 1) * NB;
  const int px0 = xb0 / C;
  if constexpr (ROWS_CT > 0) rows = ROWS_CT;
  const int y0 = (blockIdx.y * WARPS + threadIdx.y) * rows;
  if (y0 >= height) return;
  if constexpr (ROWS_CT == 0) rows = min(rows, height - y0);
  const int rows_in = rows + 4;
  const int rowbytes = width * C;
  const bool vec = !EDGE || (aligned && xb0 >= 0 && xb0 + NB <= rowbytes);
  const bool writes = lane >= 1 && lane < 31 && (!EDGE || xb0 < rowbytes);

  std::uint8_t* mine = smem + (threadIdx.y * S * 32 + lane) * NB;  // slot s at mine + s * 32 * NB
  const unsigned mine_s = static_cast<unsigned>(__cvta_generic_to_shared(mine));
  // Lean addressing: the lane's column once, then one 32x32->64 multiply-add per row.
  const std::uint8_t* in_lane = in + xb0;
  std::uint8_t* out_lane = out + xb0;
  const unsigned upitch = static_cast<unsigned>(pitch);

  auto issue = [&](int i) {
    const unsigned r = static_cast<unsigned>(min(max(y0 - 2 + i, 0), height - 1));
    const std::uint8_t* row = in + static_cast<std::size_t>(r) * pitch;
    const std::uint8_t* at = in_lane + static_cast<std::size_t>(r) * upitch;
    const int slot = i & (S - 1);
    if (vec) {
      if constexpr (NB == 16)
        cp_async16(mine_s + slot * 32 * NB, at);
      else
        cp_async8(mine_s + slot * 32 * NB, at);
    } else {
      std::uint32_t words[NW];
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
      std::uint32_t* dst = reinterpret_cast<std::uint32_t*>(mine + slot * 32 * NB);
#pragma unroll
      for (int k = 0; k < NW; ++k) dst[k] = words[k];
    }
  };

  std::uint32_t ring[5][NP];

#pragma unroll
  for (int i = 0; i < AHEAD; ++i) {
    if (i < rows_in) issue(i);
    cp_commit();
  }

  auto step = [&](const int i, const int j) {
    if (i + AHEAD < rows_in) issue(i + AHEAD);
    cp_commit();
    cp_wait<AHEAD>();
    std::uint32_t words[NW];
    const std::uint8_t* src = mine + (i & (S - 1)) * 32 * NB;
    if constexpr (NB == 16) {
      const uint4 w = *reinterpret_cast<const uint4*>(src);
      words[0] = w.x, words[1] = w.y, words[2] = w.z, words[3] = w.w;
    } else {
      const uint2 w = *reinterpret_cast<const uint2*>(src);
      words[0] = w.x, words[1] = w.y;
    }
#pragma unroll
    for (int m = 0; m < NP; ++m) ring[j][m] = __byte_perm(words[m / 2], 0x64u, (m % 2) ? 0x4342 : 0x4140);
    if (i < 4) return;
    const int y = y0 + i - 4;
    std::uint32_t packed[NW];
    out_row<C, NB>(ring[(j + 1) % 5], ring[(j + 2) % 5], ring[(j + 3) % 5], ring[(j + 4) % 5], ring[j], hw, packed);
    if (writes && (ROWS_CT == 0 || y < height)) {
      std::uint8_t* dst = out + static_cast<std::size_t>(y) * pitch;
      std::uint8_t* at = out_lane + static_cast<std::size_t>(static_cast<unsigned>(y)) * upitch;
      if (vec) {
        if constexpr (NB == 16)
          *reinterpret_cast<uint4*>(at) = make_uint4(packed[0], packed[1], packed[2], packed[3]);
        else
          *reinterpret_cast<uint2*>(at) = make_uint2(packed[0], packed[1]);
      } else {
        for (int b = 0; b < NB && xb0 + b < rowbytes; ++b)
          dst[xb0 + b] = static_cast<std::uint8_t>(packed[b / 4] >> (8 * (b % 4)));
      }
    }
  };
  if constexpr (ROWS_CT > 0) {
#pragma unroll
    for (int i = 0; i < ROWS_CT + 4; ++i) step(i, i % 5);
  } else {
#pragma unroll 1
    for (int base = 0; base < rows_in; base += 5) {
#pragma unroll
      for (int j = 0; j < 5; ++j) {
        if (base + j >= rows_in) break;
        step(base + j, j);
      }
    }
  }
}

template <int C, int NB, int AHEAD, int MINB, int WARPS, int ROWS_CT = 0>
__global__ void __launch_bounds__(32 * WARPS, MINB)
    h2async(const std::uint8_t* __restrict__ in, std::uint8_t* __restrict__ out, int width, int height, int pitch,
            bool aligned, int rows, H2W hw) {
  __shared__ __align__(16) std::uint8_t smem[WARPS * slots<AHEAD>() * 32 * NB];
  const int first = static_cast<int>(blockIdx.x) * 30 * NB - NB;
  const bool interior = aligned && first >= 0 && first + 32 * NB <= width * C;
  if (interior)
    body<C, NB, AHEAD, WARPS, false, ROWS_CT>(in, out, width, height, pitch, aligned, rows, hw, smem);
  else
    body<C, NB, AHEAD, WARPS, true, ROWS_CT>(in, out, width, height, pitch, aligned, rows, hw, smem);
}

// The register-ring kernel (h2fast8 / h2fast) with lean addressing: the
// lane's column added once, each row one 32x32->64 multiply-add (the shipped
// kernel spends ~14 instructions per loaded row and ~9 per stored row on
// 64-bit address arithmetic with sign extension).
template <int C, int NB, int ROWS, int AHEAD, int WARPS, bool EDGE>
__device__ __forceinline__ void lean_body(const std::uint8_t* __restrict__ in, std::uint8_t* __restrict__ out,
                                          int width, int height, int pitch, bool aligned, const H2W& hw) {
  constexpr int NP = NB / 2, NW = NB / 4, PX = NB / C;
  constexpr int kRaw = (AHEAD + 1 + 4) / 5 * 5;
  constexpr int rows_in = ROWS + 4;
  const int lane = threadIdx.x;
  const int xb0 = blockIdx.x * 30 * NB + (lane - 1) * NB;
  const int px0 = xb0 / C;
  const int y0 = (blockIdx.y * WARPS + threadIdx.y) * ROWS;
  if (y0 >= height) return;
  const int rowbytes = width * C;
  const bool vec = !EDGE || (aligned && xb0 >= 0 && xb0 + NB <= rowbytes);
  const bool writes = lane >= 1 && lane < 31 && (!EDGE || xb0 < rowbytes);
  const std::uint8_t* in_lane = in + xb0;
  std::uint8_t* out_lane = out + xb0;
  const unsigned upitch = static_cast<unsigned>(pitch);

  auto load_row = [&](int i, std::uint32_t* words) {
    const unsigned r = static_cast<unsigned>(min(max(y0 - 2 + i, 0), height - 1));
    const std::uint8_t* at = in_lane + static_cast<std::size_t>(r) * upitch;
    if (vec) {
      if constexpr (NB == 16) {
        const uint4 v = *reinterpret_cast<const uint4*>(at);
        words[0] = v.x, words[1] = v.y, words[2] = v.z, words[3] = v.w;
      } else if constexpr (NB == 4) {
        words[0] = *reinterpret_cast<const std::uint32_t*>(at);
      } else {
        const uint2 v = *reinterpret_cast<const uint2*>(at);
        words[0] = v.x, words[1] = v.y;
      }
    } else {
      const std::uint8_t* row = in + static_cast<std::size_t>(r) * upitch;
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

  std::uint32_t ring[5][NP];
  std::uint32_t raw[kRaw][NW];
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
      for (int m = 0; m < NP; ++m) ring[j % 5][m] = __byte_perm(raw[j % kRaw][m / 2], 0x64u, (m % 2) ? 0x4342 : 0x4140);
      if (i < 4) continue;
      const int y = y0 + i - 4;
      std::uint32_t packed[NW];
      out_row<C, NB>(ring[(j + 1) % 5], ring[(j + 2) % 5], ring[(j + 3) % 5], ring[(j + 4) % 5], ring[j % 5], hw,
                     packed);
      if (writes && y < height) {
        std::uint8_t* at = out_lane + static_cast<std::size_t>(static_cast<unsigned>(y)) * upitch;
        if (vec) {
          if constexpr (NB == 16)
            *reinterpret_cast<uint4*>(at) = make_uint4(packed[0], packed[1], packed[2], packed[3]);
          else if constexpr (NB == 4)
            *reinterpret_cast<std::uint32_t*>(at) = packed[0];
          else
            *reinterpret_cast<uint2*>(at) = make_uint2(packed[0], packed[NW - 1]);
        } else {
          for (int b = 0; b < NB && xb0 + b < rowbytes; ++b)
            at[b] = static_cast<std::uint8_t>(packed[b / 4] >> (8 * (b % 4)));
        }
      }
    }
  }
}

template <int C, int NB, int ROWS, int AHEAD, int MINB, int WARPS>
__global__ void __launch_bounds__(32 * WARPS, MINB)
    h2lean(const std::uint8_t* __restrict__ in, std::uint8_t* __restrict__ out, int width, int height, int pitch,
           bool aligned, H2W hw) {
  const int first = static_cast<int>(blockIdx.x) * 30 * NB - NB;
  const bool interior = aligned && first >= 0 && first + 32 * NB <= width * C;
  if (interior)
    lean_body<C, NB, ROWS, AHEAD, WARPS, false>(in, out, width, height, pitch, aligned, hw);
  else
    lean_body<C, NB, ROWS, AHEAD, WARPS, true>(in, out, width, height, pitch, aligned, hw);
}

// Persistent blocks with prefetch across work items: the grid is the blocks
// that fit at once; each block walks items (strip, band of WARPS x ROWS rows)
// block index + n x grid size, and its warps start loading the next item's
// first AHEAD rows during the current item's last ones, so the DRAM latency
// at a warp's start is paid once per warp, not once per item. Slots: one per
// input row of an item (ROWS + 4), the slot a constant in the unrolled loop.
struct PersistLane {
  const std::uint8_t* col_in;
  std::uint8_t* col_out;
  int first_byte, first_pixel, y0;
  bool vec, writes;
};

template <int C, int NB, int ROWS, int WARPS>
__device__ __forceinline__ PersistLane persist_lane(int item, int strips, const std::uint8_t* in, std::uint8_t* out,
                                                    int row_bytes, bool aligned) {
  const int lane = threadIdx.x;
  const int bx = item % strips, by = item / strips;
  PersistLane l;
  l.first_byte = bx * 30 * NB + (lane - 1) * NB;
  l.first_pixel = l.first_byte / C;
  l.y0 = (by * WARPS + static_cast<int>(threadIdx.y)) * ROWS;
  l.vec = aligned && l.first_byte >= 0 && l.first_byte + NB <= row_bytes;
  l.writes = lane >= 1 && lane < 31 && l.first_byte < row_bytes;
  l.col_in = in + l.first_byte;
  l.col_out = out + l.first_byte;
  return l;
}

template <int C, int NB, int ROWS, int AHEAD, int MINB, int WARPS>
__global__ void __launch_bounds__(32 * WARPS, MINB)
    h2persist(const std::uint8_t* __restrict__ in, std::uint8_t* __restrict__ out, int width, int height, int pitch,
              bool aligned, int strips, int items, H2W hw) {
  constexpr int kRowsIn = ROWS + 4;
  static_assert(AHEAD < kRowsIn, "a slot is reused only after its row is read");
  constexpr int NP = NB / 2, NW = NB / 4, PX = NB / C;
  __shared__ __align__(16) std::uint8_t smem[WARPS * kRowsIn * 32 * NB];
  const int lane = threadIdx.x;
  std::uint8_t* mine = smem + (threadIdx.y * kRowsIn * 32 + lane) * NB;
  const unsigned mine_s = static_cast<unsigned>(__cvta_generic_to_shared(mine));
  const int row_bytes = width * C;
  const unsigned upitch = static_cast<unsigned>(pitch);

  auto issue = [&](const PersistLane& l, int k) {  // row k of l's item into slot k
    const unsigned r = static_cast<unsigned>(min(max(l.y0 - 2 + k, 0), height - 1));
    if (l.vec) {
      const std::uint8_t* at = l.col_in + static_cast<std::size_t>(r) * upitch;
      if constexpr (NB == 16)
        cp_async16(mine_s + k * 32 * NB, at);
      else
        cp_async8(mine_s + k * 32 * NB, at);
    } else {
      const std::uint8_t* row = in + static_cast<std::size_t>(r) * upitch;
      std::uint32_t words[NW];
#pragma unroll
      for (int w = 0; w < NW; ++w) words[w] = 0;
#pragma unroll
      for (int p = 0; p < PX; ++p) {
        const int x = min(max(l.first_pixel + p, 0), width - 1);
#pragma unroll
        for (int b = 0; b < C; ++b) {
          const int byte = p * C + b;
          words[byte / 4] |= std::uint32_t{row[x * C + b]} << (8 * (byte % 4));
        }
      }
      std::uint32_t* dst = reinterpret_cast<std::uint32_t*>(mine + k * 32 * NB);
#pragma unroll
      for (int w = 0; w < NW; ++w) dst[w] = words[w];
    }
  };

  int item = blockIdx.x;
  if (item >= items) return;
  PersistLane cur = persist_lane<C, NB, ROWS, WARPS>(item, strips, in, out, row_bytes, aligned);
#pragma unroll
  for (int k = 0; k < AHEAD; ++k) {
    issue(cur, k);
    cp_commit();
  }
  std::uint32_t ring[5][NP];
#pragma unroll 1
  while (true) {
    const int next_item = item + static_cast<int>(gridDim.x);
    const bool has_next = next_item < items;
    const PersistLane nxt =
        has_next ? persist_lane<C, NB, ROWS, WARPS>(next_item, strips, in, out, row_bytes, aligned) : cur;
#pragma unroll
    for (int i = 0; i < kRowsIn; ++i) {
      if (i + AHEAD < kRowsIn)
        issue(cur, i + AHEAD);
      else if (has_next)
        issue(nxt, i + AHEAD - kRowsIn);
      cp_commit();
      cp_wait<AHEAD>();
      std::uint32_t words[NW];
      const std::uint8_t* src = mine + i * 32 * NB;
      if constexpr (NB == 16) {
        const uint4 w = *reinterpret_cast<const uint4*>(src);
        words[0] = w.x, words[1] = w.y, words[2] = w.z, words[3] = w.w;
      } else {
        const uint2 w = *reinterpret_cast<const uint2*>(src);
        words[0] = w.x, words[1] = w.y;
      }
#pragma unroll
      for (int m = 0; m < NP; ++m) ring[i % 5][m] = __byte_perm(words[m / 2], 0x64u, (m % 2) ? 0x4342 : 0x4140);
      if (i < 4) continue;
      const int y = cur.y0 + i - 4;
      std::uint32_t packed[NW];
      out_row<C, NB>(ring[(i + 1) % 5], ring[(i + 2) % 5], ring[(i + 3) % 5], ring[(i + 4) % 5], ring[i % 5], hw,
                     packed);
      if (cur.writes && y < height) {
        std::uint8_t* at = cur.col_out + static_cast<std::size_t>(static_cast<unsigned>(y)) * upitch;
        if (cur.vec) {
          if constexpr (NB == 16)
            *reinterpret_cast<uint4*>(at) = make_uint4(packed[0], packed[1], packed[2], packed[3]);
          else
            *reinterpret_cast<uint2*>(at) = make_uint2(packed[0], packed[1]);
        } else {
          for (int b = 0; b < NB && cur.first_byte + b < row_bytes; ++b)
            at[b] = static_cast<std::uint8_t>(packed[b / 4] >> (8 * (b % 4)));
        }
      }
    }
    if (!has_next) break;
    item = next_item;
    cur = nxt;
  }
}

// A block-wide tile: the block's 4 warps x ROWS output rows plus the 4 halo
// rows, 32 x NB bytes wide (plus 16 where the strip is not 16-byte aligned),
// brought by every thread's cp.async (16-byte chunks) at once, then each warp
// walks its rows out of shared memory: no per-row load addresses, the halo
// rows shared by the block's warps (ROWS x WARPS + 4 rows loaded, not
// (ROWS + 4) x WARPS). Blocks touching the image's edges run h2body.
template <int C, int NB, int ROWS, int MINB, int WARPS, bool INTERIOR_ONLY = false>
__global__ void __launch_bounds__(32 * WARPS, MINB)
    h2tile(const std::uint8_t* __restrict__ in, std::uint8_t* __restrict__ out, int width, int height, int pitch,
           bool aligned, H2W hw) {
  constexpr int NP = NB / 2, NW = NB / 4;
  static_assert(NB == 8 || NB == 16, "lane 0's first byte must sit at the same place mod 16 in every strip");
  constexpr int kShift = NB == 8 ? 8 : 0;               // lane 0's first byte (30 NB x - NB) mod 16
  constexpr int kStride = 32 * NB + (kShift ? 16 : 0);  // bytes per tile row
  constexpr int kChunks = kStride / 16;
  constexpr int kTileRows = WARPS * ROWS + 4;
  __shared__ __align__(16) std::uint8_t tile[kTileRows * kStride];
  const int row_bytes = width * C;
  const int first = static_cast<int>(blockIdx.x) * 30 * NB - NB;  // lane 0's first byte
  const int band = static_cast<int>(blockIdx.y) * WARPS * ROWS;   // the block's first output row
  const bool columns_inside = aligned && first - kShift >= 0 && first - kShift + kStride <= row_bytes;
  const bool rows_inside = band >= 2 && band + WARPS * ROWS + 2 <= height;
  if (!columns_inside || !rows_inside) {
    if constexpr (INTERIOR_ONLY)  // a measurement of the interior alone: the edges stay unwritten
      return;
    else if (columns_inside)
      h2body<C, ROWS, 4, WARPS, false, false, NB>(in, out, width, height, pitch, aligned, hw);
    else
      h2body<C, ROWS, 4, WARPS, false, true, NB>(in, out, width, height, pitch, aligned, hw);
    return;
  }
  const std::uint8_t* src = in + static_cast<std::size_t>(band - 2) * pitch + (first - kShift);
  const unsigned tile_s = static_cast<unsigned>(__cvta_generic_to_shared(tile));
  for (int c = threadIdx.y * 32 + threadIdx.x; c < kTileRows * kChunks; c += 32 * WARPS) {
    const int r = c / kChunks, k = c - r * kChunks;
    cp_async16(tile_s + r * kStride + k * 16, src + static_cast<std::size_t>(r) * pitch + k * 16);
  }
  cp_commit();
  cp_wait<0>();
  __syncthreads();

  const int lane = threadIdx.x;
  const std::uint8_t* mine = tile + threadIdx.y * ROWS * kStride + kShift + lane * NB;
  const int y0 = band + threadIdx.y * ROWS;
  std::uint8_t* dst = out + static_cast<std::size_t>(y0) * pitch + first + lane * NB;
  const bool writes = lane >= 1 && lane < 31;
  std::uint32_t ring[5][NP];
#pragma unroll
  for (int i = 0; i < ROWS + 4; ++i) {
    std::uint32_t words[NW];
    if constexpr (NB == 16) {
      const uint4 w = *reinterpret_cast<const uint4*>(mine + i * kStride);
      words[0] = w.x, words[1] = w.y, words[2] = w.z, words[3] = w.w;
    } else {
      const uint2 w = *reinterpret_cast<const uint2*>(mine + i * kStride);
      words[0] = w.x, words[1] = w.y;
    }
#pragma unroll
    for (int m = 0; m < NP; ++m) ring[i % 5][m] = __byte_perm(words[m / 2], 0x64u, (m % 2) ? 0x4342 : 0x4140);
    if (i < 4) continue;
    std::uint32_t packed[NW];
    out_row<C, NB>(ring[(i + 1) % 5], ring[(i + 2) % 5], ring[(i + 3) % 5], ring[(i + 4) % 5], ring[i % 5], hw, packed);
    if (writes) {
      if constexpr (NB == 16)
        *reinterpret_cast<uint4*>(dst) = make_uint4(packed[0], packed[1], packed[2], packed[3]);
      else
        *reinterpret_cast<uint2*>(dst) = make_uint2(packed[0], packed[1]);
    }
    dst += pitch;
  }
}

// The block tile with its own edge handling: chunks of the tile that lie
// wholly inside the row (on 16-byte aligned rows) come by cp.async; the rest
// (a strip at the image's left or right edge, rows of a pitch not a multiple
// of 16) byte by byte with the column clamped, stored by hand. Rows are
// clamped when the chunk's source row is chosen. No second code path, so the
// registers are the interior's.
template <int C, int NB, int ROWS, int MINB, int WARPS, int TILE_EDGES = 0>
__global__ void __launch_bounds__(32 * WARPS, MINB)
    h2tilefull(const std::uint8_t* __restrict__ in, std::uint8_t* __restrict__ out, int width, int height, int pitch,
               bool aligned, H2W hw) {
  static_assert(NB == 8 || NB == 16, "lane 0's first byte must sit at the same place mod 16 in every strip");
  constexpr int NP = NB / 2, NW = NB / 4;
  constexpr int kShift = NB == 8 ? 8 : 0;
  constexpr int kStride = 32 * NB + (kShift ? 16 : 0);
  constexpr int kChunks = kStride / 16;
  constexpr int kTileRows = WARPS * ROWS + 4;
  __shared__ __align__(16) std::uint8_t tile[kTileRows * kStride];
  const int row_bytes = width * C;
  const int first = static_cast<int>(blockIdx.x) * 30 * NB - NB;  // lane 0's first byte
  const int band = static_cast<int>(blockIdx.y) * WARPS * ROWS;
  const int tile_first = first - kShift;  // the tile's first byte in a row (16-byte aligned)
  const unsigned tile_s = static_cast<unsigned>(__cvta_generic_to_shared(tile));
  // Chunks wholly inside the row, on aligned rows: cp.async, row-major so a
  // warp's copies are contiguous. Chunk k is inside for k_lo <= k < k_hi.
  const int k_lo = aligned ? min(max((-tile_first + 15) / 16, 0), kChunks) : kChunks;
  const int k_hi = aligned ? min(max((row_bytes - tile_first) / 16, 0), kChunks) : kChunks;
  const int tid = threadIdx.y * 32 + threadIdx.x;
  for (int c = tid; c < kTileRows * kChunks; c += 32 * WARPS) {
    const int r = c / kChunks, k = c - r * kChunks;
    if (k < k_lo || k >= k_hi) continue;
    const int gr = min(max(band - 2 + r, 0), height - 1);
    cp_async16(tile_s + r * kStride + k * 16, in + static_cast<std::size_t>(gr) * pitch + tile_first + k * 16);
  }
  // The rest (edge strips: a chunk or two per row; unaligned rows: all),
  // spread over every thread, each chunk's 16 loads issued before its store.
  const int edge_per_row = k_lo + (kChunks - max(k_hi, k_lo));
  for (int e = tid; e < kTileRows * edge_per_row; e += 32 * WARPS) {
    const int r = e / edge_per_row, n = e - r * edge_per_row;
    const int k = n < k_lo ? n : max(k_hi, k_lo) + (n - k_lo);
    const int gr = min(max(band - 2 + r, 0), height - 1);
    const std::uint8_t* row = in + static_cast<std::size_t>(gr) * pitch;
    const int b0 = tile_first + k * 16;
    std::uint32_t w[4] = {0, 0, 0, 0};
    if (TILE_EDGES == 1 && aligned && (b0 + 16 <= 0 || b0 >= row_bytes)) {
      // Wholly left (right) of the row: the first (last) pixel repeated; b0 is a
      // multiple of 16, so byte j of the chunk is channel j mod C.
      const std::uint8_t* px = row + (b0 < 0 ? 0 : row_bytes - C);
      const std::uint32_t word =
          C == 4 ? *reinterpret_cast<const std::uint32_t*>(px) : std::uint32_t{px[0]} * 0x01010101u;
      w[0] = w[1] = w[2] = w[3] = word;
    } else {
#pragma unroll
      for (int j = 0; j < 16; ++j) {
        const int b = b0 + j;
        const int x = b >= 0 ? b / C : -((C - 1 - b) / C);  // floor(b / C)
        const int ch = b - x * C;
        w[j / 4] |= std::uint32_t{row[min(max(x, 0), width - 1) * C + ch]} << (8 * (j % 4));
      }
    }
    *reinterpret_cast<uint4*>(tile + r * kStride + k * 16) = make_uint4(w[0], w[1], w[2], w[3]);
  }
  cp_commit();
  cp_wait<0>();
  __syncthreads();

  const int lane = threadIdx.x;
  const int first_byte = first + lane * NB;
  const std::uint8_t* mine = tile + threadIdx.y * ROWS * kStride + kShift + lane * NB;
  const int y0 = band + threadIdx.y * ROWS;
  const bool writes = lane >= 1 && lane < 31 && first_byte < row_bytes;
  const bool vector_out = aligned && first_byte + NB <= row_bytes;
  std::uint8_t* dst = out + static_cast<std::size_t>(y0) * pitch + first_byte;
  std::uint32_t ring[5][NP];
#pragma unroll
  for (int i = 0; i < ROWS + 4; ++i) {
    std::uint32_t words[NW];
    if constexpr (NB == 16) {
      const uint4 w = *reinterpret_cast<const uint4*>(mine + i * kStride);
      words[0] = w.x, words[1] = w.y, words[2] = w.z, words[3] = w.w;
    } else {
      const uint2 w = *reinterpret_cast<const uint2*>(mine + i * kStride);
      words[0] = w.x, words[1] = w.y;
    }
#pragma unroll
    for (int m = 0; m < NP; ++m) ring[i % 5][m] = __byte_perm(words[m / 2], 0x64u, (m % 2) ? 0x4342 : 0x4140);
    if (i < 4) continue;
    std::uint32_t packed[NW];
    out_row<C, NB>(ring[(i + 1) % 5], ring[(i + 2) % 5], ring[(i + 3) % 5], ring[(i + 4) % 5], ring[i % 5], hw, packed);
    if (writes && y0 + i - 4 < height) {
      if (vector_out) {
        if constexpr (NB == 16)
          *reinterpret_cast<uint4*>(dst) = make_uint4(packed[0], packed[1], packed[2], packed[3]);
        else
          *reinterpret_cast<uint2*>(dst) = make_uint2(packed[0], packed[1]);
      } else {
        for (int b = 0; b < NB && first_byte + b < row_bytes; ++b)
          dst[b] = static_cast<std::uint8_t>(packed[b / 4] >> (8 * (b % 4)));
      }
    }
    dst += pitch;
  }
}

}  // namespace h2a

template <int C, int NB, int ROWS, int AHEAD, int MINB, int WARPS>
BlurFn h2lean_fn() {
  return [](const std::uint8_t* in, std::uint8_t* out, const Geometry& g, cudaStream_t s) {
    const dim3 block(32, WARPS);
    const dim3 grid((g.w * C + 30 * NB - 1) / (30 * NB), (g.h + ROWS * WARPS - 1) / (ROWS * WARPS));
    const bool aligned = g.pitch % NB == 0 && reinterpret_cast<std::uintptr_t>(in) % NB == 0 &&
                         reinterpret_cast<std::uintptr_t>(out) % NB == 0;
    h2a::h2lean<C, NB, ROWS, AHEAD, MINB, WARPS><<<grid, block, 0, s>>>(in, out, g.w, g.h, g.pitch, aligned, g_h2w);
  };
}

// ROWS > 0: that many output rows per warp; ROWS = -k: the grid is k waves of
// resident warps (occupancy from the runtime), rows split evenly.
template <int C, int NB, int AHEAD, int MINB, int WARPS, int ROWS, bool CT = false>
BlurFn h2async_fn() {
  return [](const std::uint8_t* in, std::uint8_t* out, const Geometry& g, cudaStream_t s) {
    const int strip = 30 * NB;
    const int strips = (g.w * C + strip - 1) / strip;
    int rows = ROWS;
    if (ROWS <= 0) {
      static int per_sm = 0;
      if (!per_sm)
        CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, h2a::h2async<C, NB, AHEAD, MINB, WARPS>, 32 * WARPS,
                                                         0));
      const long warps = static_cast<long>(per_sm) * g_sms * WARPS * (ROWS < 0 ? -ROWS : 1);
      const long per_strip = std::max(1L, warps / strips);
      rows = static_cast<int>((g.h + per_strip - 1) / per_strip);
      rows = std::max(rows, 1);
    }
    const int warps_down = (g.h + rows - 1) / rows;
    const dim3 block(32, WARPS);
    const dim3 grid(strips, (warps_down + WARPS - 1) / WARPS);
    const bool aligned = g.pitch % NB == 0 && reinterpret_cast<std::uintptr_t>(in) % NB == 0 &&
                         reinterpret_cast<std::uintptr_t>(out) % NB == 0;
    if constexpr (CT && ROWS > 0)
      h2a::h2async<C, NB, AHEAD, MINB, WARPS, ROWS>
          <<<grid, block, 0, s>>>(in, out, g.w, g.h, g.pitch, aligned, rows, g_h2w);
    else
      h2a::h2async<C, NB, AHEAD, MINB, WARPS><<<grid, block, 0, s>>>(in, out, g.w, g.h, g.pitch, aligned, rows, g_h2w);
  };
}

// PER_SM_X4: blocks in the grid = SMs x resident blocks per SM x PER_SM_X4 / 4
// (4: exactly what fits; more: a second round of blocks too).
template <int C, int NB, int ROWS, int AHEAD, int MINB, int WARPS, int PER_SM_X4 = 4>
BlurFn h2persist_fn() {
  return [](const std::uint8_t* in, std::uint8_t* out, const Geometry& g, cudaStream_t s) {
    static int per_sm = 0;
    if (!per_sm)
      CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, h2a::h2persist<C, NB, ROWS, AHEAD, MINB, WARPS>,
                                                       32 * WARPS, 0));
    const int strips = (g.w * C + 30 * NB - 1) / (30 * NB);
    const int bands = (g.h + ROWS * WARPS - 1) / (ROWS * WARPS);
    const int items = strips * bands;
    const int blocks = std::min(items, std::max(1, per_sm * g_sms * PER_SM_X4 / 4));
    const bool aligned = g.pitch % NB == 0 && reinterpret_cast<std::uintptr_t>(in) % NB == 0 &&
                         reinterpret_cast<std::uintptr_t>(out) % NB == 0;
    h2a::h2persist<C, NB, ROWS, AHEAD, MINB, WARPS>
        <<<blocks, dim3(32, WARPS), 0, s>>>(in, out, g.w, g.h, g.pitch, aligned, strips, items, g_h2w);
  };
}

template <int C, int NB, int ROWS, int MINB, int WARPS, bool INTERIOR_ONLY = false>
BlurFn h2tile_fn() {
  return [](const std::uint8_t* in, std::uint8_t* out, const Geometry& g, cudaStream_t s) {
    const dim3 grid((g.w * C + 30 * NB - 1) / (30 * NB), (g.h + ROWS * WARPS - 1) / (ROWS * WARPS));
    const bool aligned = g.pitch % 16 == 0 && reinterpret_cast<std::uintptr_t>(in) % 16 == 0 &&
                         reinterpret_cast<std::uintptr_t>(out) % 16 == 0;
    h2a::h2tile<C, NB, ROWS, MINB, WARPS, INTERIOR_ONLY>
        <<<grid, dim3(32, WARPS), 0, s>>>(in, out, g.w, g.h, g.pitch, aligned, g_h2w);
  };
}

template <int C, int NB, int ROWS, int MINB, int WARPS, int TILE_EDGES = 0>
BlurFn h2tilefull_fn() {
  return [](const std::uint8_t* in, std::uint8_t* out, const Geometry& g, cudaStream_t s) {
    const dim3 grid((g.w * C + 30 * NB - 1) / (30 * NB), (g.h + ROWS * WARPS - 1) / (ROWS * WARPS));
    const bool aligned = g.pitch % 16 == 0 && reinterpret_cast<std::uintptr_t>(in) % 16 == 0 &&
                         reinterpret_cast<std::uintptr_t>(out) % 16 == 0;
    h2a::h2tilefull<C, NB, ROWS, MINB, WARPS>
        <<<grid, dim3(32, WARPS), 0, s>>>(in, out, g.w, g.h, g.pitch, aligned, g_h2w);
  };
}

// Every kernel of the runs (run1 ... run10 logs); each run used the subset
// its log shows (BENCH_MATCH picks by name). h2tilefull is run10's version (TILE_EDGES = 1: run11).
static std::vector<BlurVariant> extra_blur_variants() {
  return {
      {"SHIPPED gray h2fast8 8rows a4 mb6", 1, h2_8_fn<1, 8, 4, 6, 4>(), ""},
      // run1: cp.async with rows a run-time value; one or two waves of warps
      {"async gray nb8 a4 8rows mb6", 1, h2async_fn<1, 8, 4, 6, 4, 8>(), ""},
      {"async gray nb8 a8 8rows mb6", 1, h2async_fn<1, 8, 8, 6, 4, 8>(), ""},
      {"async gray nb8 a8 8rows mb8", 1, h2async_fn<1, 8, 8, 8, 4, 8>(), ""},
      {"async gray nb8 a8 16rows mb8", 1, h2async_fn<1, 8, 8, 8, 4, 16>(), ""},
      {"async gray nb8 a8 32rows mb8", 1, h2async_fn<1, 8, 8, 8, 4, 32>(), ""},
      {"async gray nb8 a8 1wave mb8", 1, h2async_fn<1, 8, 8, 8, 4, 0>(), ""},
      {"async gray nb8 a8 2waves mb8", 1, h2async_fn<1, 8, 8, 8, 4, -2>(), ""},
      {"async gray nb8 a4 1wave mb8", 1, h2async_fn<1, 8, 4, 8, 4, 0>(), ""},
      {"async gray nb8 a12 1wave mb8", 1, h2async_fn<1, 8, 12, 8, 4, 0>(), ""},
      {"async gray nb8 a12 16rows mb8", 1, h2async_fn<1, 8, 12, 8, 4, 16>(), ""},
      {"async gray nb8 a8 1wave mb10", 1, h2async_fn<1, 8, 8, 10, 4, 0>(), ""},
      {"async gray nb8 a8 16rows mb10", 1, h2async_fn<1, 8, 8, 10, 4, 16>(), ""},
      {"async gray nb16 a8 1wave mb6", 1, h2async_fn<1, 16, 8, 6, 4, 0>(), ""},
      {"async gray nb16 a8 16rows mb6", 1, h2async_fn<1, 16, 8, 6, 4, 16>(), ""},
      // run2: lean addressing in the register kernel
      {"lean gray nb8 8rows a4 mb6", 1, h2lean_fn<1, 8, 8, 4, 6, 4>(), ""},
      {"lean gray nb8 8rows a4 mb8", 1, h2lean_fn<1, 8, 8, 4, 8, 4>(), ""},
      {"lean gray nb8 12rows a4 mb6", 1, h2lean_fn<1, 8, 12, 4, 6, 4>(), ""},
      {"lean gray nb8 16rows a4 mb6", 1, h2lean_fn<1, 8, 16, 4, 6, 4>(), ""},
      {"lean gray nb8 8rows a4 mb6 w2", 1, h2lean_fn<1, 8, 8, 4, 12, 2>(), ""},
      {"lean gray nb8 8rows a4 mb3 w8", 1, h2lean_fn<1, 8, 8, 4, 3, 8>(), ""},
      {"lean gray nb16 8rows a4 mb4", 1, h2lean_fn<1, 16, 8, 4, 4, 4>(), ""},
      {"lean gray nb4 8rows a4 mb8", 1, h2lean_fn<1, 4, 8, 4, 8, 4>(), ""},
      // run3: cp.async with the rows a compile-time value, unrolled whole
      {"asyncCT gray nb8 a4 8rows mb6", 1, h2async_fn<1, 8, 4, 6, 4, 8, true>(), ""},
      {"asyncCT gray nb8 a6 8rows mb6", 1, h2async_fn<1, 8, 6, 6, 4, 8, true>(), ""},
      {"asyncCT gray nb8 a8 8rows mb8", 1, h2async_fn<1, 8, 8, 8, 4, 8, true>(), ""},
      {"asyncCT gray nb8 a4 8rows mb8", 1, h2async_fn<1, 8, 4, 8, 4, 8, true>(), ""},
      {"asyncCT gray nb8 a6 12rows mb8", 1, h2async_fn<1, 8, 6, 8, 4, 12, true>(), ""},
      {"asyncCT gray nb8 a8 16rows mb8", 1, h2async_fn<1, 8, 8, 8, 4, 16, true>(), ""},
      {"asyncCT gray nb16 a6 8rows mb4", 1, h2async_fn<1, 16, 6, 4, 4, 8, true>(), ""},
      {"asyncCT gray nb16 a6 16rows mb4", 1, h2async_fn<1, 16, 6, 4, 4, 16, true>(), ""},
      // run5: persistent blocks, prefetch across work items
      {"persist gray nb8 8rows a4 mb6", 1, h2persist_fn<1, 8, 8, 4, 6, 4>(), ""},
      {"persist gray nb8 8rows a6 mb6", 1, h2persist_fn<1, 8, 8, 6, 6, 4>(), ""},
      {"persist gray nb8 8rows a8 mb6", 1, h2persist_fn<1, 8, 8, 8, 6, 4>(), ""},
      {"persist gray nb8 8rows a6 mb8", 1, h2persist_fn<1, 8, 8, 6, 8, 4>(), ""},
      {"persist gray nb8 8rows a6 mb6 x2", 1, h2persist_fn<1, 8, 8, 6, 6, 4, 8>(), ""},
      {"persist gray nb8 4rows a4 mb6", 1, h2persist_fn<1, 8, 4, 4, 6, 4>(), ""},
      {"persist gray nb8 16rows a8 mb6", 1, h2persist_fn<1, 8, 16, 8, 6, 4>(), ""},
      {"persist gray nb16 8rows a6 mb4", 1, h2persist_fn<1, 16, 8, 6, 4, 4>(), ""},
      // run6: block-wide tiles by cp.async
      {"tile gray nb8 8rows mb6 w4", 1, h2tile_fn<1, 8, 8, 6, 4>(), ""},
      {"tile gray nb8 8rows mb8 w4", 1, h2tile_fn<1, 8, 8, 8, 4>(), ""},
      {"tile gray nb8 4rows mb8 w4", 1, h2tile_fn<1, 8, 4, 8, 4>(), ""},
      {"tile gray nb8 8rows mb4 w8", 1, h2tile_fn<1, 8, 8, 4, 8>(), ""},
      {"tile gray nb8 16rows mb4 w4", 1, h2tile_fn<1, 8, 16, 4, 4>(), ""},
      {"tile gray nb16 8rows mb4 w4", 1, h2tile_fn<1, 16, 8, 4, 4>(), ""},
      {"tile rgba nb8 8rows mb8 w4", 4, h2tile_fn<4, 8, 8, 8, 4>(), ""},
      {"tile rgba nb8 4rows mb8 w4", 4, h2tile_fn<4, 8, 4, 8, 4>(), ""},
      {"tile rgba nb16 8rows mb4 w4", 4, h2tile_fn<4, 16, 8, 4, 4>(), ""},
      {"tile rgba nb8 8rows mb4 w8", 4, h2tile_fn<4, 8, 8, 4, 8>(), ""},
      // run7: the tiles' interior alone (edges unwritten: fails the check by design), to bound the design
      {"tile-interior gray nb8 4rows mb8 w4", 1, h2tile_fn<1, 8, 4, 8, 4, true>(), ""},
      {"tile-interior gray nb8 4rows mb12 w4", 1, h2tile_fn<1, 8, 4, 12, 4, true>(), ""},
      {"tile-interior gray nb8 8rows mb12 w4", 1, h2tile_fn<1, 8, 8, 12, 4, true>(), ""},
      {"tile-interior gray nb8 8rows mb16 w4", 1, h2tile_fn<1, 8, 8, 16, 4, true>(), ""},
      {"tile-interior gray nb16 8rows mb8 w4", 1, h2tile_fn<1, 16, 8, 8, 4, true>(), ""},
      {"tile-interior gray nb16 4rows mb8 w4", 1, h2tile_fn<1, 16, 4, 8, 4, true>(), ""},
      {"tile-interior rgba nb8 8rows mb12 w4", 4, h2tile_fn<4, 8, 8, 12, 4, true>(), ""},
      {"tile-interior rgba nb16 8rows mb8 w4", 4, h2tile_fn<4, 16, 8, 8, 4, true>(), ""},
      // run8: block tiles with their own edge handling
      {"tilefull gray nb16 4rows mb8 w4", 1, h2tilefull_fn<1, 16, 4, 8, 4>(), ""},
      {"tilefull gray nb16 8rows mb8 w4", 1, h2tilefull_fn<1, 16, 8, 8, 4>(), ""},
      {"tilefull gray nb8 4rows mb8 w4", 1, h2tilefull_fn<1, 8, 4, 8, 4>(), ""},
      {"tilefull gray nb16 4rows mb6 w4", 1, h2tilefull_fn<1, 16, 4, 6, 4>(), ""},
      {"tilefull gray nb16 6rows mb8 w4", 1, h2tilefull_fn<1, 16, 6, 8, 4>(), ""},
      {"tilefull rgba nb16 8rows mb8 w4", 4, h2tilefull_fn<4, 16, 8, 8, 4>(), ""},
      {"tilefull rgba nb16 4rows mb8 w4", 4, h2tilefull_fn<4, 16, 4, 8, 4>(), ""},
      {"tilefull rgba nb8 8rows mb8 w4", 4, h2tilefull_fn<4, 8, 8, 8, 4>(), ""},
      // run11: chunks wholly outside the row filled with the edge pixel repeated
      {"tileedge gray nb16 4rows mb6 w4", 1, h2tilefull_fn<1, 16, 4, 6, 4, 1>(), ""},
      {"tileedge gray nb16 4rows mb8 w4", 1, h2tilefull_fn<1, 16, 4, 8, 4, 1>(), ""},
      {"tileedge rgba nb8 8rows mb8 w4", 4, h2tilefull_fn<4, 8, 8, 8, 4, 1>(), ""},
      {"tileedge rgba nb16 4rows mb8 w4", 4, h2tilefull_fn<4, 16, 4, 8, 4, 1>(), ""},
      {"SHIPPED rgba h2fast 16rows a4 mb4", 4, h2_fn<4, 16, 4, 4, 4, false, true>(), ""},
      {"async rgba nb16 a4 16rows mb4", 4, h2async_fn<4, 16, 4, 4, 4, 16>(), ""},
      {"async rgba nb16 a8 16rows mb4", 4, h2async_fn<4, 16, 8, 4, 4, 16>(), ""},
      {"async rgba nb16 a8 16rows mb6", 4, h2async_fn<4, 16, 8, 6, 4, 16>(), ""},
      {"async rgba nb16 a8 1wave mb6", 4, h2async_fn<4, 16, 8, 6, 4, 0>(), ""},
      {"async rgba nb16 a8 2waves mb6", 4, h2async_fn<4, 16, 8, 6, 4, -2>(), ""},
      {"async rgba nb16 a12 1wave mb4", 4, h2async_fn<4, 16, 12, 4, 4, 0>(), ""},
      {"async rgba nb8 a8 1wave mb8", 4, h2async_fn<4, 8, 8, 8, 4, 0>(), ""},
      {"async rgba nb8 a8 16rows mb8", 4, h2async_fn<4, 8, 8, 8, 4, 16>(), ""},
      {"async rgba nb8 a6 16rows mb8", 4, h2async_fn<4, 8, 6, 8, 4, 16>(), ""},
      {"lean rgba nb16 16rows a4 mb4", 4, h2lean_fn<4, 16, 16, 4, 4, 4>(), ""},
      {"lean rgba nb16 8rows a4 mb4", 4, h2lean_fn<4, 16, 8, 4, 4, 4>(), ""},
      {"lean rgba nb8 16rows a4 mb6", 4, h2lean_fn<4, 8, 16, 4, 6, 4>(), ""},
      {"lean rgba nb8 16rows a6 mb6", 4, h2lean_fn<4, 8, 16, 6, 6, 4>(), ""},
      {"lean rgba nb8 16rows a4 mb8", 4, h2lean_fn<4, 8, 16, 4, 8, 4>(), ""},
      {"lean rgba nb8 8rows a4 mb8", 4, h2lean_fn<4, 8, 8, 4, 8, 4>(), ""},
      {"asyncCT rgba nb8 a6 8rows mb8", 4, h2async_fn<4, 8, 6, 8, 4, 8, true>(), ""},
      {"asyncCT rgba nb8 a6 16rows mb8", 4, h2async_fn<4, 8, 6, 8, 4, 16, true>(), ""},
      {"asyncCT rgba nb8 a8 16rows mb8", 4, h2async_fn<4, 8, 8, 8, 4, 16, true>(), ""},
      {"asyncCT rgba nb16 a6 8rows mb4", 4, h2async_fn<4, 16, 6, 4, 4, 8, true>(), ""},
      {"asyncCT rgba nb16 a6 16rows mb4", 4, h2async_fn<4, 16, 6, 4, 4, 16, true>(), ""},
      {"persist rgba nb8 8rows a6 mb8", 4, h2persist_fn<4, 8, 8, 6, 8, 4>(), ""},
      {"persist rgba nb8 8rows a8 mb8", 4, h2persist_fn<4, 8, 8, 8, 8, 4>(), ""},
      {"persist rgba nb8 8rows a6 mb8 x2", 4, h2persist_fn<4, 8, 8, 6, 8, 4, 8>(), ""},
      {"persist rgba nb16 8rows a6 mb4", 4, h2persist_fn<4, 16, 8, 6, 4, 4>(), ""},
  };
}
