// Host memory a device can reach without the driver's bounce buffer, each
// kind freed by its owner: OpenCL's pinned memory (CL_MEM_ALLOC_HOST_PTR,
// mapped) and page-aligned memory for CL_MEM_USE_HOST_PTR. CUDA's kinds are
// in cuda_host_memory.hpp.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

#include "gauss/opencl.hpp"

namespace gauss {

/// Host memory the OpenCL runtime allocates (CL_MEM_ALLOC_HOST_PTR), mapped
/// for the owner's lifetime. NVIDIA's driver page-locks it, so copies from and
/// to it run at the link's full speed and can run asynchronously: the
/// counterpart of CUDA's cudaMallocHost. The pointer is meant as the host side
/// of clEnqueueWriteBuffer / ReadBuffer on other buffers, not for a kernel.
class OpenClPinnedMemory {
 public:
  OpenClPinnedMemory(OpenClSession& cl, std::size_t bytes);
  ~OpenClPinnedMemory();
  OpenClPinnedMemory(const OpenClPinnedMemory&) = delete;
  OpenClPinnedMemory& operator=(const OpenClPinnedMemory&) = delete;
  std::uint8_t* data() const { return data_; }

 private:
  cl::CommandQueue queue_;
  cl::Buffer buffer_;
  std::uint8_t* data_ = nullptr;
};

/// The size of a page of host memory, in bytes.
std::size_t page_size();

/// @p bytes (at least 1) rounded up to whole pages.
std::size_t whole_pages(std::size_t bytes);

/// Page-aligned host memory, a whole number of pages: what CL_MEM_USE_HOST_PTR
/// needs for the runtime to use it in place (Intel's and AMD's rules: a
/// page-aligned pointer, a size that is a multiple of 64 bytes).
struct FreeDeleter {
  void operator()(std::uint8_t* p) const;
};
using PageAlignedBytes = std::unique_ptr<std::uint8_t, FreeDeleter>;

/// Allocates whole_pages(@p bytes) of page-aligned memory; throws std::bad_alloc.
PageAlignedBytes page_aligned(std::size_t bytes);

}  // namespace gauss
