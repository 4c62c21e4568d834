/// @file cuda_host_memory.hpp
/// @brief Host memory a CUDA device can reach without the driver's bounce
///        buffer, each kind freed by its owner: page-locked (and mapped)
///        allocations, registrations of memory the application already has,
///        and managed memory with its prefetch. Include only under
///        GAUSS_HAVE_CUDA, like cuda.hpp. Every allocation, registration and
///        mapping is released by the object that made it, so
///        compute-sanitizer's leak check and ASan run clean.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <deque>

namespace gauss {

/// Page-locked host memory: cudaHostAlloc with @p flags. With
/// cudaHostAllocMapped it is also mapped into the device's address space
/// (zero copy); with cudaHostAllocDefault it is what cudaMallocHost gives.
class CudaHostMemory {
 public:
  CudaHostMemory(std::size_t bytes, unsigned int flags);
  ~CudaHostMemory();
  CudaHostMemory(const CudaHostMemory&) = delete;
  CudaHostMemory& operator=(const CudaHostMemory&) = delete;
  std::uint8_t* data() const { return data_; }
  /// The address a kernel uses for this memory (mapped allocations only):
  /// cudaHostGetDevicePointer.
  std::uint8_t* device_pointer() const;

 private:
  std::uint8_t* data_ = nullptr;
};

/// Memory the application already has, page-locked in place: cudaHostRegister.
/// The driver pins whole pages; two registrations may not share a page, so
/// register each distinct page range once (see register_host_pages).
class CudaHostRegistration {
 public:
  CudaHostRegistration(void* begin, std::size_t bytes);
  ~CudaHostRegistration();
  CudaHostRegistration(const CudaHostRegistration&) = delete;
  CudaHostRegistration& operator=(const CudaHostRegistration&) = delete;

 private:
  void* begin_ = nullptr;
};

/// Page-locks the pages of [a, a + bytes) and [b, b + bytes): one registration
/// each, or one for both where their pages touch (small images can share a
/// page). A deque, because a registration cannot move.
std::deque<CudaHostRegistration> register_host_pages(const std::uint8_t* a, const std::uint8_t* b, std::size_t bytes);

/// Managed memory (cudaMallocManaged): one pointer for host and device; the
/// driver migrates pages to whichever side touches them.
class CudaManagedMemory {
 public:
  explicit CudaManagedMemory(std::size_t bytes);
  ~CudaManagedMemory();
  CudaManagedMemory(const CudaManagedMemory&) = delete;
  CudaManagedMemory& operator=(const CudaManagedMemory&) = delete;
  std::uint8_t* data() const { return data_; }

 private:
  std::uint8_t* data_ = nullptr;
};

/// The destination cuda_prefetch() takes for host memory.
inline constexpr int kCudaHost = -1;

/// cudaMemPrefetchAsync of managed memory [p, p + bytes) to @p device, or to
/// the host for kCudaHost, on @p stream. CUDA 13 takes a cudaMemLocation,
/// older toolkits a device number: this compiles with either.
void cuda_prefetch(const void* p, std::size_t bytes, int device, cudaStream_t stream);

/// cudaDeviceGetAttribute, checked.
int cuda_device_attribute(cudaDeviceAttr attribute, int device);

}  // namespace gauss
