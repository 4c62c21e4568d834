// Host memory a CUDA device can reach (cuda_host_memory.hpp).
#include "gauss/cuda_host_memory.hpp"

#include <unistd.h>

#include <algorithm>
#include <utility>

#include "gauss/cuda.hpp"

namespace gauss {

CudaHostMemory::CudaHostMemory(std::size_t bytes, unsigned int flags) {
  void* p = nullptr;
  GAUSS_CUDA_CHECK(cudaHostAlloc(&p, std::max<std::size_t>(bytes, 1), flags));
  data_ = static_cast<std::uint8_t*>(p);
}

CudaHostMemory::~CudaHostMemory() {
  if (data_) cudaFreeHost(data_);  // nothing to do about a failure in a destructor
}

std::uint8_t* CudaHostMemory::device_pointer() const {
  void* p = nullptr;
  GAUSS_CUDA_CHECK(cudaHostGetDevicePointer(&p, data_, 0));
  return static_cast<std::uint8_t*>(p);
}

CudaHostRegistration::CudaHostRegistration(void* begin, std::size_t bytes) : begin_(begin) {
  GAUSS_CUDA_CHECK(cudaHostRegister(begin, bytes, cudaHostRegisterDefault));
}

CudaHostRegistration::~CudaHostRegistration() {
  if (begin_) cudaHostUnregister(begin_);
}

std::deque<CudaHostRegistration> register_host_pages(const std::uint8_t* a, const std::uint8_t* b, std::size_t bytes) {
  const auto page = static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE));
  auto first_page = [&](const std::uint8_t* p) { return reinterpret_cast<std::uintptr_t>(p) / page * page; };
  auto end_page = [&](const std::uint8_t* p) {
    return (reinterpret_cast<std::uintptr_t>(p) + std::max<std::size_t>(bytes, 1) + page - 1) / page * page;
  };
  std::uintptr_t ranges[2][2] = {{first_page(a), end_page(a)}, {first_page(b), end_page(b)}};
  if (ranges[1][0] < ranges[0][0]) std::swap(ranges[0], ranges[1]);
  std::deque<CudaHostRegistration> registrations;
  auto add = [&](std::uintptr_t begin, std::uintptr_t end) {
    registrations.emplace_back(reinterpret_cast<void*>(begin), static_cast<std::size_t>(end - begin));
  };
  if (ranges[1][0] < ranges[0][1]) {
    add(ranges[0][0], std::max(ranges[0][1], ranges[1][1]));
  } else {
    add(ranges[0][0], ranges[0][1]);
    add(ranges[1][0], ranges[1][1]);
  }
  return registrations;
}

CudaManagedMemory::CudaManagedMemory(std::size_t bytes) {
  void* p = nullptr;
  GAUSS_CUDA_CHECK(cudaMallocManaged(&p, std::max<std::size_t>(bytes, 1)));
  data_ = static_cast<std::uint8_t*>(p);
}

CudaManagedMemory::~CudaManagedMemory() {
  if (data_) cudaFree(data_);
}

void cuda_prefetch(const void* p, std::size_t bytes, int device, cudaStream_t stream) {
#if CUDART_VERSION >= 13000
  cudaMemLocation location{};
  location.type = device == kCudaHost ? cudaMemLocationTypeHost : cudaMemLocationTypeDevice;
  location.id = device == kCudaHost ? 0 : device;
  GAUSS_CUDA_CHECK(cudaMemPrefetchAsync(p, bytes, location, 0, stream));
#else
  GAUSS_CUDA_CHECK(cudaMemPrefetchAsync(p, bytes, device == kCudaHost ? cudaCpuDeviceId : device, stream));
#endif
}

int cuda_device_attribute(cudaDeviceAttr attribute, int device) {
  int value = 0;
  GAUSS_CUDA_CHECK(cudaDeviceGetAttribute(&value, attribute, device));
  return value;
}

}  // namespace gauss
