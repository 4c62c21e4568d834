// Chapter 08: the whole job in CUDA. Every job runs chapter 01's kernel on a
// stream of its own and times each part between CUDA events on that stream.
// Every allocation, registration, stream and event is freed by the object
// that made it, so compute-sanitizer's leak check and ASan run clean.
#ifdef GAUSS_HAVE_CUDA

#include "transfers_cuda.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <deque>
#include <iostream>
#include <memory>
#include <string>
#include <utility>

#include "blur_naive.cuh"  // chapter 01's kernel, unchanged (USES 01_naive)
#include "blur_strip.cuh"
#include "gauss/naive_blur.hpp"  // chapter 01's OpenCL kernel (USES 01_naive)
#include "transfers_opencl.hpp"  // kOverlapQueues

namespace chapter08 {

using gauss::naive::kGroupX;
using gauss::naive::kGroupY;

namespace {

using gauss::CudaBuffer;
using gauss::CudaEvent;
using gauss::CudaStream;
using gauss::elapsed_ms;
using gauss::HostTimer;
using gauss::Image;

// --- Host memory the GPU can reach, each freed by its owner ------------------

// Page-locked host memory: cudaHostAlloc. With cudaHostAllocMapped it is also
// mapped into the device's address space (zero copy).
class HostAllocation {
 public:
  HostAllocation(std::size_t bytes, unsigned int flags) {
    void* p = nullptr;
    GAUSS_CUDA_CHECK(cudaHostAlloc(&p, std::max<std::size_t>(bytes, 1), flags));
    data_ = static_cast<std::uint8_t*>(p);
  }
  ~HostAllocation() {
    if (data_) cudaFreeHost(data_);  // nothing to do about a failure in a destructor
  }
  HostAllocation(const HostAllocation&) = delete;
  HostAllocation& operator=(const HostAllocation&) = delete;
  std::uint8_t* data() const { return data_; }
  /// The address a kernel uses for this memory (mapped allocations only).
  std::uint8_t* device_pointer() const {
    void* p = nullptr;
    GAUSS_CUDA_CHECK(cudaHostGetDevicePointer(&p, data_, 0));
    return static_cast<std::uint8_t*>(p);
  }

 private:
  std::uint8_t* data_ = nullptr;
};

// Memory the application already has, page-locked in place: cudaHostRegister.
// The driver pins whole pages; two registrations may not share a page, so the
// caller registers each distinct page range once (see register_pages).
class Registration {
 public:
  Registration(void* begin, std::size_t bytes) : begin_(begin) {
    GAUSS_CUDA_CHECK(cudaHostRegister(begin, bytes, cudaHostRegisterDefault));
  }
  ~Registration() {
    if (begin_) cudaHostUnregister(begin_);
  }
  Registration(const Registration&) = delete;
  Registration& operator=(const Registration&) = delete;

 private:
  void* begin_ = nullptr;
};

// Page-locks the pages of [a, a + bytes) and [b, b + bytes): one registration
// each, or one for both where their pages touch (small images can share a page).
std::deque<Registration> register_pages(const std::uint8_t* a, const std::uint8_t* b, std::size_t bytes) {
  const auto page = static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE));
  auto first_page = [&](const std::uint8_t* p) { return reinterpret_cast<std::uintptr_t>(p) / page * page; };
  auto end_page = [&](const std::uint8_t* p) {
    return (reinterpret_cast<std::uintptr_t>(p) + std::max<std::size_t>(bytes, 1) + page - 1) / page * page;
  };
  std::uintptr_t ranges[2][2] = {{first_page(a), end_page(a)}, {first_page(b), end_page(b)}};
  if (ranges[1][0] < ranges[0][0]) std::swap(ranges[0], ranges[1]);
  std::deque<Registration> registrations;
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

// Managed memory: one pointer for host and device; the driver migrates pages
// to whichever side touches them.
class ManagedAllocation {
 public:
  explicit ManagedAllocation(std::size_t bytes) {
    void* p = nullptr;
    GAUSS_CUDA_CHECK(cudaMallocManaged(&p, std::max<std::size_t>(bytes, 1)));
    data_ = static_cast<std::uint8_t*>(p);
  }
  ~ManagedAllocation() {
    if (data_) cudaFree(data_);
  }
  ManagedAllocation(const ManagedAllocation&) = delete;
  ManagedAllocation& operator=(const ManagedAllocation&) = delete;
  std::uint8_t* data() const { return data_; }

 private:
  std::uint8_t* data_ = nullptr;
};

int device_attribute(cudaDeviceAttr attribute, int device) {
  int value = 0;
  GAUSS_CUDA_CHECK(cudaDeviceGetAttribute(&value, attribute, device));
  return value;
}

// Chapter 01's kernel on the whole image, and the launch check every launch needs.
void blur(const std::uint8_t* in, std::uint8_t* out, const gauss::Problem& p, cudaStream_t stream) {
  launch_blur_naive(in, out, p, dim3(kGroupX, kGroupY), stream);
  GAUSS_CUDA_CHECK(cudaGetLastError());
}

// The host side of the copies, timed with the host clock.
double timed_memcpy(void* to, const void* from, std::size_t bytes) {
  HostTimer timer;
  std::memcpy(to, from, bytes);
  return timer.elapsed_ms();
}

// Four events around H2D, kernel and D2H on one stream.
struct PartEvents {
  CudaEvent start, copied_in, blurred, done;
};

// A job's stream and the events that time its parts. Declared last in a job,
// so destroyed first: it waits until the stream no longer uses the job's
// memory (after a failed run, copies may still be queued).
struct TimedStream {
  CudaStream stream;
  PartEvents e;
  ~TimedStream() { cudaStreamSynchronize(stream.get()); }
};

// What every CUDA job has: the problem and the user's images.
class CudaJob : public TransferJob {
 protected:
  CudaJob(const gauss::Problem& p, const Image& in, Image& out) : p_(p), in_(in), out_(out), bytes_(in.bytes()) {}

  gauss::Problem p_;
  const Image& in_;
  Image& out_;
  std::size_t bytes_;
};

// --- pageable, pinned, registered: explicit copies -------------------------------
enum class HostSide { Pageable, Pinned, Registered };

class CopyJob final : public CudaJob {
 public:
  CopyJob(const gauss::Problem& p, const Image& in, Image& out, HostSide side)
      : CudaJob(p, in, out), side_(side), device_in_(bytes_), device_out_(bytes_) {
    source_ = in.pixels.data();
    target_ = out.pixels.data();
    if (side == HostSide::Pinned) {
      staging_in_ = std::make_unique<HostAllocation>(bytes_, cudaHostAllocDefault);
      staging_out_ = std::make_unique<HostAllocation>(bytes_, cudaHostAllocDefault);
      source_ = staging_in_->data();
      target_ = staging_out_->data();
    } else if (side == HostSide::Registered) {
      // The user's own vectors, page-locked where they are: no staging copies.
      registrations_ = register_pages(in.pixels.data(), out.pixels.data(), bytes_);
    }
  }
  void poison(const Image& poison) override {
    device_out_.upload(poison.pixels.data(), bytes_);
    if (staging_out_) std::memcpy(staging_out_->data(), poison.pixels.data(), bytes_);
  }

  JobParts run() override {
    JobParts parts;
    const cudaStream_t s = t_.stream.get();
    if (side_ == HostSide::Pinned) parts.host_copy_ms = timed_memcpy(staging_in_->data(), in_.pixels.data(), bytes_);
    // From pageable memory the driver copies through a pinned bounce buffer
    // of its own, in chunks, and cudaMemcpyAsync returns only when the source
    // may be reused: the events still time the copy on the device's side.
    t_.e.start.record(s);
    GAUSS_CUDA_CHECK(cudaMemcpyAsync(device_in_.data(), source_, bytes_, cudaMemcpyHostToDevice, s));
    t_.e.copied_in.record(s);
    blur(device_in_.data(), device_out_.data(), p_, s);
    t_.e.blurred.record(s);
    GAUSS_CUDA_CHECK(cudaMemcpyAsync(target_, device_out_.data(), bytes_, cudaMemcpyDeviceToHost, s));
    t_.e.done.record(s);
    GAUSS_CUDA_CHECK(cudaStreamSynchronize(s));
    if (side_ == HostSide::Pinned) parts.host_copy_ms += timed_memcpy(out_.pixels.data(), staging_out_->data(), bytes_);
    parts.h2d_ms = elapsed_ms(t_.e.start, t_.e.copied_in);
    parts.kernel_ms = elapsed_ms(t_.e.copied_in, t_.e.blurred);
    parts.d2h_ms = elapsed_ms(t_.e.blurred, t_.e.done);
    return parts;
  }

 private:
  HostSide side_;
  CudaBuffer device_in_;
  CudaBuffer device_out_;
  std::unique_ptr<HostAllocation> staging_in_;
  std::unique_ptr<HostAllocation> staging_out_;
  std::deque<Registration> registrations_;
  const std::uint8_t* source_ = nullptr;
  std::uint8_t* target_ = nullptr;
  TimedStream t_;
};

// --- mapped, mapped_out: zero copy ------------------------------------------------
// The kernel dereferences host memory: every load and store of mapped memory
// crosses the link (PCIe) while the kernel runs. There is no copy to time;
// the kernel's time includes the traffic. mapped_out keeps the input in
// device memory (the 25 reads per pixel stay on the GPU) and maps only the
// output, which each thread writes exactly once: the Fixstars seminar's
// fastest method.
class MappedJob final : public CudaJob {
 public:
  MappedJob(const gauss::CudaDeviceInfo& device, const gauss::Problem& p, const Image& in, Image& out,
            bool input_mapped)
      : CudaJob(p, in, out), input_mapped_(input_mapped) {
    if (!device_attribute(cudaDevAttrCanMapHostMemory, device.index)) {
      throw Skipped("this device cannot map host memory");
    }
    host_out_ = std::make_unique<HostAllocation>(bytes_, cudaHostAllocMapped);
    kernel_out_ = host_out_->device_pointer();
    if (input_mapped) {
      host_in_ = std::make_unique<HostAllocation>(bytes_, cudaHostAllocMapped);
      kernel_in_ = host_in_->device_pointer();
    } else {
      host_in_ = std::make_unique<HostAllocation>(bytes_, cudaHostAllocDefault);  // pinned staging
      device_in_ = CudaBuffer(bytes_);
      kernel_in_ = device_in_.data();
    }
  }
  void poison(const Image& poison) override { std::memcpy(host_out_->data(), poison.pixels.data(), bytes_); }

  JobParts run() override {
    JobParts parts;
    const cudaStream_t s = t_.stream.get();
    parts.host_copy_ms = timed_memcpy(host_in_->data(), in_.pixels.data(), bytes_);
    t_.e.start.record(s);
    if (!input_mapped_) {
      GAUSS_CUDA_CHECK(cudaMemcpyAsync(device_in_.data(), host_in_->data(), bytes_, cudaMemcpyHostToDevice, s));
    }
    t_.e.copied_in.record(s);
    blur(kernel_in_, kernel_out_, p_, s);
    t_.e.blurred.record(s);
    // After the synchronization the kernel's writes to mapped memory are
    // visible to the host.
    GAUSS_CUDA_CHECK(cudaStreamSynchronize(s));
    parts.host_copy_ms += timed_memcpy(out_.pixels.data(), host_out_->data(), bytes_);
    if (!input_mapped_) parts.h2d_ms = elapsed_ms(t_.e.start, t_.e.copied_in);
    parts.kernel_ms = elapsed_ms(t_.e.copied_in, t_.e.blurred);
    return parts;
  }

 private:
  bool input_mapped_;
  std::unique_ptr<HostAllocation> host_in_;   // mapped, or pinned staging
  std::unique_ptr<HostAllocation> host_out_;  // mapped
  CudaBuffer device_in_;                      // mapped_out only
  const std::uint8_t* kernel_in_ = nullptr;
  std::uint8_t* kernel_out_ = nullptr;
  TimedStream t_;
};

// --- managed, managed_prefetch: unified memory ------------------------------------
// One pointer everywhere. Without a prefetch, the kernel's first touch of each
// page the host wrote faults, and the driver migrates it while the kernel
// waits; the host's first touch of the output faults it back. With
// cudaMemPrefetchAsync the pages move ahead of time, in bulk, on the stream.
void prefetch(const void* p, std::size_t bytes, int device, cudaStream_t stream) {
#if CUDART_VERSION >= 13000
  cudaMemLocation location{};
  location.type = device < 0 ? cudaMemLocationTypeHost : cudaMemLocationTypeDevice;
  location.id = device < 0 ? 0 : device;
  GAUSS_CUDA_CHECK(cudaMemPrefetchAsync(p, bytes, location, 0, stream));
#else
  GAUSS_CUDA_CHECK(cudaMemPrefetchAsync(p, bytes, device < 0 ? cudaCpuDeviceId : device, stream));
#endif
}
constexpr int kHost = -1;

class ManagedJob final : public CudaJob {
 public:
  ManagedJob(const gauss::CudaDeviceInfo& device, const gauss::Problem& p, const Image& in, Image& out, bool prefetch)
      : CudaJob(p, in, out), device_(device.index), prefetch_(prefetch) {
    if (!device_attribute(cudaDevAttrManagedMemory, device_)) throw Skipped("this device has no managed memory");
    if (prefetch && !device_attribute(cudaDevAttrConcurrentManagedAccess, device_)) {
      throw Skipped("cudaMemPrefetchAsync needs concurrent managed access (Linux, Pascal or newer)");
    }
    // Managed memory may be oversubscribed: never ask for more than the card
    // has free, or the job measures eviction instead of the transfers.
    std::size_t free = 0, total = 0;
    GAUSS_CUDA_CHECK(cudaMemGetInfo(&free, &total));
    if (2 * bytes_ > free / 2) {
      throw Skipped("the two images (" + std::to_string(2 * bytes_ >> 20) + " MiB) would take over half of the " +
                    std::to_string(free >> 20) + " MiB of free device memory");
    }
    in_managed_ = std::make_unique<ManagedAllocation>(bytes_);
    out_managed_ = std::make_unique<ManagedAllocation>(bytes_);
  }
  // On the host, so the output's pages start every run on the host, where the
  // previous run's read left them.
  void poison(const Image& poison) override { std::memcpy(out_managed_->data(), poison.pixels.data(), bytes_); }

  JobParts run() override {
    JobParts parts;
    const cudaStream_t s = t_.stream.get();
    parts.host_copy_ms = timed_memcpy(in_managed_->data(), in_.pixels.data(), bytes_);
    t_.e.start.record(s);
    if (prefetch_) {
      // Everything the kernel touches: the input, and the output it is about
      // to overwrite (else its stores fault page by page).
      prefetch(in_managed_->data(), bytes_, device_, s);
      prefetch(out_managed_->data(), bytes_, device_, s);
    }
    t_.e.copied_in.record(s);
    blur(in_managed_->data(), out_managed_->data(), p_, s);
    t_.e.blurred.record(s);
    if (prefetch_) prefetch(out_managed_->data(), bytes_, kHost, s);
    t_.e.done.record(s);
    GAUSS_CUDA_CHECK(cudaStreamSynchronize(s));
    parts.host_copy_ms += timed_memcpy(out_.pixels.data(), out_managed_->data(), bytes_);
    if (prefetch_) {
      parts.h2d_ms = elapsed_ms(t_.e.start, t_.e.copied_in);
      parts.h2d_bytes = 2 * bytes_;
      parts.d2h_ms = elapsed_ms(t_.e.blurred, t_.e.done);
    }
    parts.kernel_ms = elapsed_ms(t_.e.copied_in, t_.e.blurred);
    return parts;
  }

 private:
  int device_;
  bool prefetch_;
  std::unique_ptr<ManagedAllocation> in_managed_;
  std::unique_ptr<ManagedAllocation> out_managed_;
  TimedStream t_;
};

// --- overlap: strips on several streams ---------------------------------------------
// The same plan as the OpenCL overlap: strip k's upload, kernel and download
// go to stream k mod 3; a kernel that reads rows another stream uploaded
// waits for that upload's event (cudaStreamWaitEvent). The images live in
// pinned memory: cudaMemcpyAsync from pageable memory would not overlap.
class OverlapJob final : public CudaJob {
 public:
  OverlapJob(const gauss::Problem& p, const Image& in, Image& out, int strips)
      : CudaJob(p, in, out),
        strips_(plan_strips(p.image.height, strips, kGroupY, p.blur.radius)),
        pinned_in_(bytes_, cudaHostAllocDefault),
        pinned_out_(bytes_, cudaHostAllocDefault),
        device_in_(bytes_),
        device_out_(bytes_),
        uploaded_(strips_.size()),
        parts_(strips_.size()) {
    const int streams = std::min<int>(kOverlapQueues, static_cast<int>(strips_.size()));
    for (int i = 0; i < streams; ++i) streams_.emplace_back();
    std::memcpy(pinned_in_.data(), in.pixels.data(), bytes_);  // set-up: the application's pinned image
  }
  ~OverlapJob() override { cudaDeviceSynchronize(); }
  OverlapJob(const OverlapJob&) = delete;
  OverlapJob& operator=(const OverlapJob&) = delete;

  void poison(const Image& poison) override {
    std::memcpy(pinned_out_.data(), poison.pixels.data(), bytes_);
    device_out_.upload(poison.pixels.data(), bytes_);
  }

  JobParts run() override {
    const auto row_bytes = static_cast<std::size_t>(p_.image.pitch);
    for (std::size_t k = 0; k < strips_.size(); ++k) {
      const Strip& strip = strips_[k];
      const cudaStream_t s = streams_[k % streams_.size()].get();
      PartEvents& e = parts_[k];
      e.start.record(s);
      if (strip.upload_rows > 0) {
        const std::size_t offset = static_cast<std::size_t>(strip.upload0) * row_bytes;
        GAUSS_CUDA_CHECK(cudaMemcpyAsync(device_in_.data() + offset, pinned_in_.data() + offset,
                                         static_cast<std::size_t>(strip.upload_rows) * row_bytes,
                                         cudaMemcpyHostToDevice, s));
        uploaded_[k].record(s);
      }
      for (int j : strips_needed_by(strips_, static_cast<int>(k), p_.blur.radius)) {
        GAUSS_CUDA_CHECK(cudaStreamWaitEvent(s, uploaded_[static_cast<std::size_t>(j)].get(), 0));
      }
      e.copied_in.record(s);
      launch_blur_strip(device_in_.data(), device_out_.data(), p_, strip.row0, strip.rows, s);
      GAUSS_CUDA_CHECK(cudaGetLastError());
      e.blurred.record(s);
      const std::size_t offset = static_cast<std::size_t>(strip.row0) * row_bytes;
      GAUSS_CUDA_CHECK(cudaMemcpyAsync(pinned_out_.data() + offset, device_out_.data() + offset,
                                       static_cast<std::size_t>(strip.rows) * row_bytes, cudaMemcpyDeviceToHost, s));
      e.done.record(s);
    }
    for (CudaStream& stream : streams_) GAUSS_CUDA_CHECK(cudaStreamSynchronize(stream.get()));
    // Each part's events time it from when its stream reached it: with one
    // strip they are exact; with several, a copy that queued behind another
    // stream's copy includes the wait (the table uses the one-strip parts).
    JobParts parts;
    parts.h2d_ms = 0.0;
    parts.d2h_ms = 0.0;
    for (PartEvents& e : parts_) {
      *parts.h2d_ms += elapsed_ms(e.start, e.copied_in);
      parts.kernel_ms += elapsed_ms(e.copied_in, e.blurred);
      *parts.d2h_ms += elapsed_ms(e.blurred, e.done);
    }
    return parts;
  }

  void collect() override { std::memcpy(out_.pixels.data(), pinned_out_.data(), bytes_); }

 private:
  std::vector<Strip> strips_;
  HostAllocation pinned_in_;
  HostAllocation pinned_out_;
  CudaBuffer device_in_;
  CudaBuffer device_out_;
  std::vector<CudaEvent> uploaded_;
  std::vector<PartEvents> parts_;
  std::deque<CudaStream> streams_;  // CudaStream cannot move: a deque never moves its elements
};

}  // namespace

std::vector<TransferMethod> cuda_methods(const gauss::CudaDeviceInfo& device, const gauss::Problem& problem) {
  using Job = std::unique_ptr<TransferJob>;
  auto copy = [problem](HostSide side) {
    return [problem, side](const Image& in, Image& out) -> Job {
      return std::make_unique<CopyJob>(problem, in, out, side);
    };
  };
  auto mapped = [device, problem](bool input_mapped) {
    return [device, problem, input_mapped](const Image& in, Image& out) -> Job {
      return std::make_unique<MappedJob>(device, problem, in, out, input_mapped);
    };
  };
  auto managed = [device, problem](bool prefetch) {
    return [device, problem, prefetch](const Image& in, Image& out) -> Job {
      return std::make_unique<ManagedJob>(device, problem, in, out, prefetch);
    };
  };
  return {
      {"pageable", "cudaMemcpy from and to the user's pageable images", copy(HostSide::Pageable)},
      {"pinned", "through cudaMallocHost staging buffers, host copies in and out", copy(HostSide::Pinned)},
      {"registered", "the user's images page-locked in place (cudaHostRegister)", copy(HostSide::Registered)},
      {"mapped", "zero copy: the kernel reads and writes mapped host memory", mapped(true)},
      {"mapped_out", "input copied through pinned staging, output written to mapped host memory", mapped(false)},
      {"managed", "cudaMallocManaged: pages migrate on first touch", managed(false)},
      {"managed_prefetch", "cudaMallocManaged moved ahead with cudaMemPrefetchAsync", managed(true)},
  };
}

int copy_engines(const gauss::CudaDeviceInfo& device) {
  return device_attribute(cudaDevAttrAsyncEngineCount, device.index);
}

TransferMethod cuda_overlap(const gauss::Problem& problem, int strips) {
  return {"strips_" + std::to_string(strips),
          std::to_string(strips) + " strips over " + std::to_string(kOverlapQueues) + " streams",
          [problem, strips](const Image& in, Image& out) -> std::unique_ptr<TransferJob> {
            return std::make_unique<OverlapJob>(problem, in, out, strips);
          }};
}

}  // namespace chapter08

#endif  // GAUSS_HAVE_CUDA
