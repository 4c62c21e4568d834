// The bandwidth ceiling in CUDA: the same copy as common/kernels/copy.cl.
// One 16-byte vector per thread, consecutive threads on consecutive vectors,
// and the last bytes % 16 one byte per thread.
#include <cstddef>
#include <cstdint>

#include "gauss/cuda.hpp"

namespace gauss {
namespace {

__global__ void copy_bytes(const uint4* __restrict__ in, uint4* __restrict__ out, std::size_t bytes) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::size_t vectors = bytes / 16;
  if (i < vectors) {
    out[i] = in[i];
  } else {
    const std::size_t b = vectors * 16 + (i - vectors);
    if (b < bytes) reinterpret_cast<std::uint8_t*>(out)[b] = reinterpret_cast<const std::uint8_t*>(in)[b];
  }
}

}  // namespace

void launch_copy_kernel(const std::uint8_t* in, std::uint8_t* out, std::size_t bytes, cudaStream_t stream) {
  constexpr unsigned int kBlock = 256;
  const std::size_t items = bytes / 16 + bytes % 16;
  const auto blocks = static_cast<unsigned int>((items + kBlock - 1) / kBlock);
  copy_bytes<<<blocks, kBlock, 0, stream>>>(reinterpret_cast<const uint4*>(in), reinterpret_cast<uint4*>(out), bytes);
}

}  // namespace gauss
