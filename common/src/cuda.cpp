#include "gauss/cuda.hpp"

#include <cstdio>
#include <string>
#include <utility>

#include "gauss/error.hpp"

namespace gauss {
namespace {

const char* cuda_hint(cudaError_t status, const std::string& call) {
  // An invalid value from a launch (reported by the cudaGetLastError after
  // it) is the launch's shape; from any other call, its arguments.
  const bool launch = call.find("cudaGetLastError") != std::string::npos;
  switch (status) {
    case cudaErrorNoDevice:
      return "no CUDA device here: run with --api opencl";
    case cudaErrorInsufficientDriver:
      return "no NVIDIA driver, or one older than this CUDA runtime";
    case cudaErrorMemoryAllocation:
      return "not enough device memory: try a smaller --size";
    case cudaErrorInvalidValue:
      if (!launch) return "";
      [[fallthrough]];
    case cudaErrorInvalidConfiguration:
      return "check the launch: a block of more than 1024 threads, a zero-sized grid, or more shared memory "
             "than a block may have";
    case cudaErrorIllegalAddress:
      return "a kernel accessed memory out of bounds: run it under compute-sanitizer";
    case cudaErrorLaunchOutOfResources:
      return "too many registers for this block size: try smaller blocks";
    case cudaErrorNoKernelImageForDevice:
      return "no machine code or PTX for this GPU: rebuild with -DCMAKE_CUDA_ARCHITECTURES=<its sm>";
    default:
      return "";
  }
}

std::string format_cuda_version(int version) {
  return std::to_string(version / 1000) + "." + std::to_string(version % 1000 / 10);
}

}  // namespace

void check_cuda(cudaError_t status, const char* call, const char* file, int line) {
  if (status == cudaSuccess) return;
  // The runtime also keeps a failed call's error as the thread's last error:
  // clear it, or the next launch check of a program that goes on after this
  // exception (a chapter's next variant) would report it as its own.
  // (A sticky error, a kernel's fault, stays whatever is done here.)
  cudaGetLastError();
  std::string message = std::string(call) + ": " + cudaGetErrorName(status) + ": " + cudaGetErrorString(status);
  const std::string hint = cuda_hint(status, call);
  if (!hint.empty()) message += " (" + hint + ")";
  message += " [" + std::string(file) + ":" + std::to_string(line) + "]";
  throw ApiError(message);
}

std::string CudaDeviceInfo::summary() const {
  char text[320];
  std::snprintf(text, sizeof text, "%s (sm_%d%d, %d SMs, %zu MB L2; driver CUDA %s, runtime %s)", name.c_str(), major,
                minor, multiprocessors, l2_cache >> 20, format_cuda_version(driver_version).c_str(),
                format_cuda_version(runtime_version).c_str());
  return text;
}

std::vector<CudaDeviceInfo> list_cuda_devices(std::string* why_none) {
  std::vector<CudaDeviceInfo> devices;
  int count = 0;
  const cudaError_t status = cudaGetDeviceCount(&count);
  if (status != cudaSuccess) {
    cudaGetLastError();  // clear it: this is an answer, not a failure
    if (why_none) *why_none = std::string(cudaGetErrorName(status)) + ": " + cudaGetErrorString(status);
    return devices;
  }
  if (count == 0) {
    if (why_none) *why_none = "the CUDA runtime reports no device";
    return devices;
  }
  int driver = 0;
  int runtime = 0;
  GAUSS_CUDA_CHECK(cudaDriverGetVersion(&driver));
  GAUSS_CUDA_CHECK(cudaRuntimeGetVersion(&runtime));
  for (int i = 0; i < count; ++i) {
    cudaDeviceProp prop{};
    GAUSS_CUDA_CHECK(cudaGetDeviceProperties(&prop, i));
    CudaDeviceInfo info;
    info.index = i;
    info.name = prop.name;
    info.major = prop.major;
    info.minor = prop.minor;
    info.multiprocessors = prop.multiProcessorCount;
    info.global_memory = prop.totalGlobalMem;
    info.l2_cache = static_cast<std::size_t>(prop.l2CacheSize);
    info.driver_version = driver;
    info.runtime_version = runtime;
    devices.push_back(std::move(info));
  }
  return devices;
}

CudaDeviceInfo select_cuda_device(int requested) {
  std::string why;
  const std::vector<CudaDeviceInfo> devices = list_cuda_devices(&why);
  if (devices.empty()) throw InputError("no CUDA device (" + why + "): run with --api opencl");
  const int index = requested < 0 ? 0 : requested;
  if (index >= static_cast<int>(devices.size())) {
    throw InputError("no CUDA device " + std::to_string(requested) + ": --list-devices shows " +
                     std::to_string(devices.size()) + " (numbered from 0)");
  }
  GAUSS_CUDA_CHECK(cudaSetDevice(index));
  return devices[static_cast<std::size_t>(index)];
}

CudaBuffer::CudaBuffer(std::size_t bytes) : bytes_(bytes) {
  void* p = nullptr;
  GAUSS_CUDA_CHECK(cudaMalloc(&p, bytes));
  data_ = static_cast<std::uint8_t*>(p);
}

CudaBuffer::~CudaBuffer() {
  if (data_) cudaFree(data_);  // nothing to do about a failure in a destructor
}

CudaBuffer::CudaBuffer(CudaBuffer&& other) noexcept
    : data_(std::exchange(other.data_, nullptr)), bytes_(std::exchange(other.bytes_, 0)) {}

CudaBuffer& CudaBuffer::operator=(CudaBuffer&& other) noexcept {
  if (this != &other) {
    if (data_) cudaFree(data_);
    data_ = std::exchange(other.data_, nullptr);
    bytes_ = std::exchange(other.bytes_, 0);
  }
  return *this;
}

void CudaBuffer::upload(const void* host, std::size_t bytes) {
  GAUSS_CUDA_CHECK(cudaMemcpy(data_, host, bytes, cudaMemcpyHostToDevice));
  // From pageable memory cudaMemcpy may return once the bytes are staged,
  // before they reach the device; and the streams the runners launch on are
  // non-blocking, so they do not wait for the default stream. Without this
  // wait a poisoning upload can land after (over) the kernel's output: seen
  // on an H100 in chapter 08's strips, 2026-11-27.
  GAUSS_CUDA_CHECK(cudaDeviceSynchronize());
}

void CudaBuffer::download(void* host, std::size_t bytes) const {
  GAUSS_CUDA_CHECK(cudaMemcpy(host, data_, bytes, cudaMemcpyDeviceToHost));
}

CudaEvent::CudaEvent() { GAUSS_CUDA_CHECK(cudaEventCreate(&event_)); }

CudaEvent::~CudaEvent() {
  if (event_) cudaEventDestroy(event_);
}

CudaEvent::CudaEvent(CudaEvent&& other) noexcept : event_(std::exchange(other.event_, nullptr)) {}

CudaEvent& CudaEvent::operator=(CudaEvent&& other) noexcept {
  if (this != &other) {
    if (event_) cudaEventDestroy(event_);
    event_ = std::exchange(other.event_, nullptr);
  }
  return *this;
}

void CudaEvent::record(cudaStream_t stream) { GAUSS_CUDA_CHECK(cudaEventRecord(event_, stream)); }

float elapsed_ms(const CudaEvent& start, const CudaEvent& stop) {
  float ms = 0.0f;
  GAUSS_CUDA_CHECK(cudaEventElapsedTime(&ms, start.get(), stop.get()));
  return ms;
}

CudaStream::CudaStream() { GAUSS_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking)); }

CudaStream::~CudaStream() {
  if (stream_) cudaStreamDestroy(stream_);
}

}  // namespace gauss
