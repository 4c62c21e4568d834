/// @file cuda.hpp
/// @brief CUDA runtime helpers for host code: checked calls, devices, device
///        buffers and events. Only built when CMake finds a CUDA compiler
///        (GAUSS_HAVE_CUDA); include it only under that macro.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace gauss {

/// Throws ApiError "call: cudaErrorName: description (file:line)" unless
/// @p status is cudaSuccess. Use through GAUSS_CUDA_CHECK.
void check_cuda(cudaError_t status, const char* call, const char* file, int line);

/// Checks a CUDA runtime call: GAUSS_CUDA_CHECK(cudaMalloc(&p, n));
#define GAUSS_CUDA_CHECK(call) ::gauss::check_cuda((call), #call, __FILE__, __LINE__)

/// One CUDA device, as --list-devices shows it.
struct CudaDeviceInfo {
  int index = 0;
  std::string name;  ///< "NVIDIA H100 80GB HBM3"
  int major = 0;     ///< compute capability
  int minor = 0;
  int multiprocessors = 0;
  std::size_t global_memory = 0;  ///< bytes
  std::size_t l2_cache = 0;       ///< bytes
  int driver_version = 0;         ///< e.g. 13000 for CUDA 13.0
  int runtime_version = 0;

  /// "NVIDIA H100 80GB HBM3 (sm_90, 132 SMs, 50 MB L2; driver CUDA 13.0, runtime 13.0)".
  std::string summary() const;
};

/// Every CUDA device. Empty when there is none; @p why_none then says why
/// ("cudaErrorNoDevice: no CUDA-capable device is detected").
std::vector<CudaDeviceInfo> list_cuda_devices(std::string* why_none = nullptr);

/// The device --device N names (N < 0: device 0) made current. Throws
/// InputError when there is no CUDA device or no device N.
CudaDeviceInfo select_cuda_device(int requested);

/// Device memory that frees itself.
class CudaBuffer {
 public:
  CudaBuffer() = default;
  explicit CudaBuffer(std::size_t bytes);
  ~CudaBuffer();
  CudaBuffer(CudaBuffer&& other) noexcept;
  CudaBuffer& operator=(CudaBuffer&& other) noexcept;
  CudaBuffer(const CudaBuffer&) = delete;
  CudaBuffer& operator=(const CudaBuffer&) = delete;

  std::uint8_t* data() const { return data_; }
  std::size_t bytes() const { return bytes_; }
  /// Copies from the host; returns once the bytes are on the device, so that
  /// work on any stream (the non-blocking ones too) sees them.
  void upload(const void* host, std::size_t bytes);
  void download(void* host, std::size_t bytes) const;

 private:
  std::uint8_t* data_ = nullptr;
  std::size_t bytes_ = 0;
};

/// A CUDA event that destroys itself.
class CudaEvent {
 public:
  CudaEvent();
  ~CudaEvent();
  CudaEvent(const CudaEvent&) = delete;
  CudaEvent& operator=(const CudaEvent&) = delete;
  CudaEvent(CudaEvent&& other) noexcept;
  CudaEvent& operator=(CudaEvent&& other) noexcept;
  void record(cudaStream_t stream);
  cudaEvent_t get() const { return event_; }

 private:
  cudaEvent_t event_ = nullptr;
};

/// Milliseconds between two completed events (cudaEventElapsedTime, about
/// half a microsecond of resolution).
float elapsed_ms(const CudaEvent& start, const CudaEvent& stop);

/// A stream that destroys itself.
class CudaStream {
 public:
  CudaStream();
  ~CudaStream();
  CudaStream(const CudaStream&) = delete;
  CudaStream& operator=(const CudaStream&) = delete;
  cudaStream_t get() const { return stream_; }

 private:
  cudaStream_t stream_ = nullptr;
};

/// Enqueues the tutorial's copy kernel (16-byte loads and stores, one vector
/// per thread, a byte-wise tail) copying @p bytes from @p in to @p out: the
/// bandwidth ceiling every blur is measured against. Defined in copy.cu.
void launch_copy_kernel(const std::uint8_t* in, std::uint8_t* out, std::size_t bytes, cudaStream_t stream);

/// How many blocks of @p block threads cover @p value items: the grid size
/// that rounds the launch up to whole blocks.
constexpr unsigned int div_up(unsigned int value, unsigned int block) { return (value + block - 1) / block; }

}  // namespace gauss
