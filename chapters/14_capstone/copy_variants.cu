// Chapter 14: how strong is the ceiling? Every table's "% of copy" divides by
// the copy in common/src/copy.cu (one 16-byte vector per thread). A weak copy
// would flatter every blur, so the ceiling section times the other copies
// one could write, on the same bytes, and the device's peak DRAM bandwidth:
//  * more vectors per thread (2, 4): fewer threads, more loads in flight each;
//  * streaming hints (__ldcs / __stcs: evict-first, the data is used once);
//  * a grid-stride loop over a grid of a few blocks per SM ("persistent");
//  * and, in the section itself, cudaMemcpyAsync device to device.
// Every copy ends with the bytes % 16 one byte per thread, and is checked:
// its output must equal its input.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <iterator>

#include "copy_variants.cuh"
#include "gauss/cuda.hpp"

namespace {

enum class Hint { Plain, Streaming };

template <Hint H>
__device__ __forceinline__ uint4 load(const uint4* p) {
  if constexpr (H == Hint::Streaming) return __ldcs(p);
  return *p;
}
template <Hint H>
__device__ __forceinline__ void store(uint4* p, uint4 v) {
  if constexpr (H == Hint::Streaming)
    __stcs(p, v);
  else
    *p = v;
}

__device__ __forceinline__ void copy_tail(const std::uint8_t* in, std::uint8_t* out, std::size_t bytes,
                                          std::size_t tail_index) {
  const std::size_t b = bytes / 16 * 16 + tail_index;
  if (b < bytes) out[b] = in[b];
}

// VECTORS consecutive-in-the-grid vectors per thread: thread t of block b
// copies vectors (b * VECTORS + k) * blockDim + t, k = 0 .. VECTORS-1, so each
// load instruction of a warp still covers 512 contiguous bytes.
template <int VECTORS, Hint H>
__global__ void __launch_bounds__(256) copy_blocked(const std::uint8_t* in, std::uint8_t* out, std::size_t bytes) {
  const std::size_t vectors = bytes / 16;
  const std::size_t first = static_cast<std::size_t>(blockIdx.x) * VECTORS * blockDim.x + threadIdx.x;
  uint4 v[VECTORS];
#pragma unroll
  for (int k = 0; k < VECTORS; ++k) {  // every load issued before the first store
    const std::size_t i = first + static_cast<std::size_t>(k) * blockDim.x;
    if (i < vectors) v[k] = load<H>(reinterpret_cast<const uint4*>(in) + i);
  }
#pragma unroll
  for (int k = 0; k < VECTORS; ++k) {
    const std::size_t i = first + static_cast<std::size_t>(k) * blockDim.x;
    if (i < vectors) store<H>(reinterpret_cast<uint4*>(out) + i, v[k]);
  }
  if (blockIdx.x == 0 && threadIdx.x < bytes % 16) copy_tail(in, out, bytes, threadIdx.x);
}

// A grid of a few blocks per SM walks the whole buffer, 2 vectors per thread per step.
__global__ void __launch_bounds__(256) copy_grid_stride(const std::uint8_t* in, std::uint8_t* out, std::size_t bytes) {
  const std::size_t vectors = bytes / 16;
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  for (; i + stride < vectors; i += 2 * stride) {
    const uint4 a = reinterpret_cast<const uint4*>(in)[i];
    const uint4 b = reinterpret_cast<const uint4*>(in)[i + stride];
    reinterpret_cast<uint4*>(out)[i] = a;
    reinterpret_cast<uint4*>(out)[i + stride] = b;
  }
  if (i < vectors) reinterpret_cast<uint4*>(out)[i] = reinterpret_cast<const uint4*>(in)[i];
  if (blockIdx.x == 0 && threadIdx.x < bytes % 16) copy_tail(in, out, bytes, threadIdx.x);
}

template <int VECTORS, Hint H>
void launch_blocked(const std::uint8_t* in, std::uint8_t* out, std::size_t bytes, cudaStream_t stream) {
  const std::size_t per_block = 256 * VECTORS;
  // At least one block: it copies the tail of an image under 16 bytes.
  const auto blocks = static_cast<unsigned int>(std::max<std::size_t>(1, (bytes / 16 + per_block - 1) / per_block));
  copy_blocked<VECTORS, H><<<blocks, 256, 0, stream>>>(in, out, bytes);
}

void launch_grid_stride(const std::uint8_t* in, std::uint8_t* out, std::size_t bytes, cudaStream_t stream) {
  int device = 0;
  int sms = 0;
  GAUSS_CUDA_CHECK(cudaGetDevice(&device));
  GAUSS_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  copy_grid_stride<<<8 * sms, 256, 0, stream>>>(in, out, bytes);
}

struct CopyKind {
  const char* name;
  void (*launch)(const std::uint8_t*, std::uint8_t*, std::size_t, cudaStream_t);
};

constexpr CopyKind kCopies[] = {
    {"1 x 16 B per thread, streaming hints", launch_blocked<1, Hint::Streaming>},
    {"2 x 16 B per thread", launch_blocked<2, Hint::Plain>},
    {"2 x 16 B per thread, streaming hints", launch_blocked<2, Hint::Streaming>},
    {"4 x 16 B per thread", launch_blocked<4, Hint::Plain>},
    {"4 x 16 B per thread, streaming hints", launch_blocked<4, Hint::Streaming>},
    {"grid-stride, 8 blocks per SM", launch_grid_stride},
};

}  // namespace

int copy_variant_count() { return static_cast<int>(std::size(kCopies)); }

const char* copy_variant_name(int kind) { return kCopies[kind].name; }

void launch_copy_variant(int kind, const std::uint8_t* in, std::uint8_t* out, std::size_t bytes, cudaStream_t stream) {
  kCopies[kind].launch(in, out, bytes, stream);
}

double peak_dram_bytes_per_second(int device) {
  int clock_khz = 0;
  int bus_bits = 0;
  if (cudaDeviceGetAttribute(&clock_khz, cudaDevAttrMemoryClockRate, device) != cudaSuccess ||
      cudaDeviceGetAttribute(&bus_bits, cudaDevAttrGlobalMemoryBusWidth, device) != cudaSuccess) {
    (void)cudaGetLastError();  // clear the error: the peak is optional
    return 0.0;
  }
  return 2.0 * clock_khz * 1e3 * bus_bits / 8.0;
}
