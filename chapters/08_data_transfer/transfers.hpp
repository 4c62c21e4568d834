// Chapter 08's second program part: the transfer methods themselves, one
// class per mechanism in each API, and the overlap in strips. Each job says
// which memory it uses, which commands move the bytes and which events time
// each part; the memory's owners (host_memory.hpp, cuda_host_memory.hpp), the
// measuring and the tables (transfer_job.hpp) and the strip plan
// (row_strips.hpp) are in common/. Every job runs chapter 01's kernel (the
// overlap, its strip version in blur_strip.cl and blur_strip.cu).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <deque>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "blur_strip_cl.hpp"  // the overlap's strip kernel, embedded at build time from blur_strip.cl
#include "gauss/error.hpp"
#include "gauss/host_memory.hpp"
#include "gauss/oclgrind.hpp"
#include "gauss/opencl.hpp"
#include "gauss/problem.hpp"
#include "gauss/row_strips.hpp"
#include "gauss/transfer_job.hpp"
#include "naive_blur.hpp"  // chapter 01's OpenCL kernel (USES 01_naive)
#ifdef GAUSS_HAVE_CUDA
#include "blur_naive.cuh"  // chapter 01's CUDA kernel, unchanged (USES 01_naive)
#include "blur_strip.cuh"
#include "gauss/cuda.hpp"
#include "gauss/cuda_host_memory.hpp"
#endif

namespace chapter08 {

using gauss::Image;
using gauss::Unsupported;
using gauss::transfer::JobParts;
using gauss::transfer::Strip;
using gauss::transfer::timed_memcpy;
using gauss::transfer::TransferJob;
using gauss::transfer::TransferMethod;

/// Queues (OpenCL) and streams (CUDA) the overlap spreads strips over: one
/// per engine that can work at once (upload, kernel, download).
inline constexpr int kOverlapQueues = 3;

// ================================ OpenCL ===========================================
// Every job runs chapter 01's kernel on the session's in-order queue (the
// overlap adds queues of its own) and times each command with its profiling
// event.

// The device time of one command, from its profiling counters.
inline double ms(const cl::Event& event) { return gauss::event_span_ms(event, event); }

inline std::size_t offset_of_row(const gauss::Problem& p, int row) {
  return static_cast<std::size_t>(row) * static_cast<std::size_t>(p.image.pitch);
}

// What every OpenCL job has: the session, chapter 01's kernel, the problem,
// the user's images, and a way to blur one buffer into another on the queue.
class OpenClJob : public TransferJob {
 protected:
  OpenClJob(gauss::OpenClSession& cl, cl::Kernel kernel, const gauss::Problem& p, const Image& in, Image& out)
      : cl_(cl), kernel_(std::move(kernel)), p_(p), in_(in), out_(out), bytes_(in.bytes()) {}

  cl::Event blur(const cl::Buffer& in, const cl::Buffer& out) {
    return gauss::naive::enqueue_naive_blur(cl_.queue, kernel_, in, out, p_, 0, p_.image.height);
  }

  gauss::OpenClSession& cl_;
  cl::Kernel kernel_;
  gauss::Problem p_;
  const Image& in_;
  Image& out_;
  std::size_t bytes_;
};

// --- read_write and pinned: explicit copies ---------------------------------------
// read_write: clEnqueueWriteBuffer straight from the user's image, the
// kernel, clEnqueueReadBuffer straight into the user's output. The user's
// memory is ordinary (pageable) memory, which the GPU cannot read by DMA
// while the OS may move it: the driver copies it through a pinned bounce
// buffer of its own.
// pinned: the same copies, from and to pinned staging memory: the DMA engine
// reads and writes it directly, at the link's speed. The price is two host
// copies (the user's image into the staging buffer, the result out of it),
// which an application avoids by keeping its images in such memory.
class OpenClCopyJob final : public OpenClJob {
 public:
  OpenClCopyJob(gauss::OpenClSession& cl, cl::Kernel kernel, const gauss::Problem& p, const Image& in, Image& out,
                bool pinned)
      : OpenClJob(cl, std::move(kernel), p, in, out),
        device_in_(cl.context, CL_MEM_READ_ONLY, bytes_),
        device_out_(cl.context, CL_MEM_READ_WRITE, bytes_) {
    if (pinned) {  // CL_MEM_ALLOC_HOST_PTR buffers, mapped once
      staging_in_ = std::make_unique<gauss::OpenClPinnedMemory>(cl, bytes_);
      staging_out_ = std::make_unique<gauss::OpenClPinnedMemory>(cl, bytes_);
    }
  }

  void poison(const Image& poison) override {
    if (staging_out_) std::memcpy(staging_out_->data(), poison.pixels.data(), bytes_);
    cl_.queue.enqueueWriteBuffer(device_out_, CL_TRUE, 0, bytes_, poison.pixels.data());
  }

  JobParts run() override {
    JobParts parts;
    const std::uint8_t* source = in_.pixels.data();
    std::uint8_t* target = out_.pixels.data();
    if (staging_in_) {
      parts.host_copy_ms = timed_memcpy(staging_in_->data(), source, bytes_);
      source = staging_in_->data();
      target = staging_out_->data();
    }
    cl::Event up, down;
    cl_.queue.enqueueWriteBuffer(device_in_, CL_FALSE, 0, bytes_, source, nullptr, &up);
    const cl::Event blurred = blur(device_in_, device_out_);
    cl_.queue.enqueueReadBuffer(device_out_, CL_FALSE, 0, bytes_, target, nullptr, &down);
    cl_.queue.finish();
    if (staging_out_) parts.host_copy_ms += timed_memcpy(out_.pixels.data(), staging_out_->data(), bytes_);
    parts.h2d_ms = ms(up);
    parts.kernel_ms = ms(blurred);
    parts.d2h_ms = ms(down);
    return parts;
  }

 private:
  cl::Buffer device_in_;
  cl::Buffer device_out_;
  std::unique_ptr<gauss::OpenClPinnedMemory> staging_in_;  // pinned only
  std::unique_ptr<gauss::OpenClPinnedMemory> staging_out_;
  gauss::transfer::FinishFirst finish_{cl_.queue};
};

// --- alloc_host_ptr and use_host_ptr: map and unmap ----------------------------
// The kernel runs on the very buffers the host maps. Where the data lives and
// when it moves is the runtime's business: on a CPU device or an integrated
// GPU, mapping returns a pointer to the buffer itself (zero copy); on a
// discrete GPU the runtime copies at unmap (host to device) and map (device to
// host). The program is the same either way, which is the point of map/unmap.
//   alloc_host_ptr: the runtime allocates the host side (CL_MEM_ALLOC_HOST_PTR);
//   use_host_ptr:   the application does (CL_MEM_USE_HOST_PTR), page-aligned.
class OpenClMapJob final : public OpenClJob {
 public:
  OpenClMapJob(gauss::OpenClSession& cl, cl::Kernel kernel, const gauss::Problem& p, const Image& in, Image& out,
               bool use_host_ptr)
      : OpenClJob(cl, std::move(kernel), p, in, out) {
    if (use_host_ptr) {
      host_in_ = gauss::page_aligned(bytes_);
      host_out_ = gauss::page_aligned(bytes_);
      const std::size_t size = gauss::whole_pages(bytes_);
      buffer_in_ = cl::Buffer(cl.context, CL_MEM_USE_HOST_PTR | CL_MEM_READ_ONLY, size, host_in_.get());
      buffer_out_ = cl::Buffer(cl.context, CL_MEM_USE_HOST_PTR | CL_MEM_READ_WRITE, size, host_out_.get());
    } else {
      buffer_in_ = cl::Buffer(cl.context, CL_MEM_ALLOC_HOST_PTR | CL_MEM_READ_ONLY, bytes_);
      buffer_out_ = cl::Buffer(cl.context, CL_MEM_ALLOC_HOST_PTR | CL_MEM_READ_WRITE, bytes_);
    }
  }

  void poison(const Image& poison) override {
    void* mapped = cl_.queue.enqueueMapBuffer(buffer_out_, CL_TRUE, CL_MAP_WRITE_INVALIDATE_REGION, 0, bytes_);
    std::memcpy(mapped, poison.pixels.data(), bytes_);
    cl_.queue.enqueueUnmapMemObject(buffer_out_, mapped);
    cl_.queue.finish();
  }

  JobParts run() override {
    JobParts parts;
    cl::Event map_in, unmap_in, map_out, unmap_out;
    // Map for writing (the old contents are not wanted: no copy back), write
    // the image, unmap: from here on the device may use the buffer.
    void* in =
        cl_.queue.enqueueMapBuffer(buffer_in_, CL_TRUE, CL_MAP_WRITE_INVALIDATE_REGION, 0, bytes_, nullptr, &map_in);
    parts.host_copy_ms = timed_memcpy(in, in_.pixels.data(), bytes_);
    cl_.queue.enqueueUnmapMemObject(buffer_in_, in, nullptr, &unmap_in);
    const cl::Event blurred = blur(buffer_in_, buffer_out_);
    // Map for reading: when the blocking map returns, the result is in host memory.
    void* out = cl_.queue.enqueueMapBuffer(buffer_out_, CL_TRUE, CL_MAP_READ, 0, bytes_, nullptr, &map_out);
    parts.host_copy_ms += timed_memcpy(out_.pixels.data(), out, bytes_);
    cl_.queue.enqueueUnmapMemObject(buffer_out_, out, nullptr, &unmap_out);
    cl_.queue.finish();
    parts.h2d_ms = ms(map_in) + ms(unmap_in);
    parts.kernel_ms = ms(blurred);
    parts.d2h_ms = ms(map_out) + ms(unmap_out);
    return parts;
  }

 private:
  gauss::PageAlignedBytes host_in_;  // use_host_ptr only; declared before the buffers, so freed after them
  gauss::PageAlignedBytes host_out_;
  cl::Buffer buffer_in_;
  cl::Buffer buffer_out_;
  gauss::transfer::FinishFirst finish_{cl_.queue};
};

// --- overlap: strips on several in-order queues --------------------------------
// Each strip is blurred by blur_strip.cl: chapter 01's kernel, for the output
// rows [row0, row_end) only (the twin of the CUDA overlap's blur_strip.cu).

/// Builds blur_strip.cl for @p blur's radius.
inline cl::Kernel build_blur_strip(gauss::OpenClSession& cl, const gauss::BlurSpec& blur) {
  return cl.kernel(gauss::embedded::blur_strip_cl, "blur_strip", "-D RADIUS=" + std::to_string(blur.radius));
}

/// Enqueues blur_strip for the output rows [row0, row0 + rows) on @p queue,
/// after the events in @p wait (if any): chapter 01's 16 x 16 groups over the
/// strip's rows alone, rounded up to whole groups (the kernel's guard idles
/// the items past the strip's end).
inline cl::Event enqueue_blur_strip(const cl::CommandQueue& queue, cl::Kernel& kernel, const cl::Buffer& in,
                                    const cl::Buffer& out, const gauss::Problem& p, int row0, int rows,
                                    const std::vector<cl::Event>* wait) {
  kernel.setArg(0, in);
  kernel.setArg(1, out);
  kernel.setArg(2, p.image.width);
  kernel.setArg(3, p.image.height);
  kernel.setArg(4, p.image.pitch);
  kernel.setArg(5, p.taps);
  kernel.setArg(6, row0);
  kernel.setArg(7, row0 + rows);
  const cl::NDRange global(gauss::round_up(static_cast<std::size_t>(p.image.width), gauss::naive::kGroupX),
                           gauss::round_up(static_cast<std::size_t>(rows), gauss::naive::kGroupY));
  cl::Event done;
  queue.enqueueNDRangeKernel(kernel, cl::NullRange, global, cl::NDRange(gauss::naive::kGroupX, gauss::naive::kGroupY),
                             wait, &done);
  return done;
}

// Strip k's upload, kernel and download go, in that order, to queue k mod Q.
// Commands of one in-order queue run one after the other; commands of
// different queues may run at the same time, on different engines (the copy
// engines and the SMs). A strip's kernel also reads up to RADIUS rows that
// earlier strips uploaded, possibly on other queues: it waits for their
// upload events explicitly.
class OpenClOverlapJob final : public OpenClJob {
 public:
  OpenClOverlapJob(gauss::OpenClSession& cl, cl::Kernel kernel, const gauss::Problem& p, const Image& in, Image& out,
                   int strips)
      : OpenClJob(cl, std::move(kernel), p, in, out),
        // On Oclgrind the first strip uploads every row (see oclgrind.hpp):
        // the others then wait for its upload, on another queue.
        strips_(gauss::transfer::plan_strips(p.image.height, strips, gauss::naive::kGroupY,
                                             gauss::is_oclgrind(cl) ? p.image.height : p.blur.radius)),
        pinned_in_(cl, bytes_),
        pinned_out_(cl, bytes_),
        device_in_(cl.context, CL_MEM_READ_ONLY, bytes_),
        device_out_(cl.context, CL_MEM_READ_WRITE, bytes_) {
    const int queues = std::min<int>(kOverlapQueues, static_cast<int>(strips_.size()));
    for (int q = 0; q < queues; ++q) queues_.emplace_back(cl.context, cl.info.device, CL_QUEUE_PROFILING_ENABLE);
    // Asynchronous copies need page-locked host memory: the application keeps
    // its images there (this copy is part of the set-up, not of the job).
    std::memcpy(pinned_in_.data(), in.pixels.data(), bytes_);
  }
  ~OpenClOverlapJob() override {
    for (const cl::CommandQueue& queue : queues_) gauss::transfer::finish_quietly(queue);
  }
  OpenClOverlapJob(const OpenClOverlapJob&) = delete;
  OpenClOverlapJob& operator=(const OpenClOverlapJob&) = delete;

  void poison(const Image& poison) override {
    std::memcpy(pinned_out_.data(), poison.pixels.data(), bytes_);
    cl_.queue.enqueueWriteBuffer(device_out_, CL_TRUE, 0, bytes_, poison.pixels.data());
  }

  JobParts run() override {
    const std::size_t n = strips_.size();
    std::vector<cl::Event> up(n), blur(n), down(n);
    for (std::size_t k = 0; k < n; ++k) {
      const Strip& s = strips_[k];
      const cl::CommandQueue& queue = queues_[k % queues_.size()];
      if (s.upload_rows > 0) {
        queue.enqueueWriteBuffer(device_in_, CL_FALSE, offset_of_row(p_, s.upload0), offset_of_row(p_, s.upload_rows),
                                 pinned_in_.data() + offset_of_row(p_, s.upload0), nullptr, &up[k]);
      }
      std::vector<cl::Event> wait;
      for (int j : gauss::transfer::strips_needed_by(strips_, static_cast<int>(k), p_.blur.radius)) {
        wait.push_back(up[j]);
      }
      blur[k] = enqueue_blur_strip(queue, kernel_, device_in_, device_out_, p_, s.row0, s.rows,
                                   wait.empty() ? nullptr : &wait);
      queue.enqueueReadBuffer(device_out_, CL_FALSE, offset_of_row(p_, s.row0), offset_of_row(p_, s.rows),
                              pinned_out_.data() + offset_of_row(p_, s.row0), nullptr, &down[k]);
      queue.flush();  // submit now: a queue's commands may wait until it is flushed
    }
    for (const cl::CommandQueue& queue : queues_) queue.finish();
    JobParts parts;
    parts.h2d_ms = 0.0;
    parts.d2h_ms = 0.0;
    for (std::size_t k = 0; k < n; ++k) {
      if (strips_[k].upload_rows > 0) *parts.h2d_ms += ms(up[k]);
      parts.kernel_ms += ms(blur[k]);
      *parts.d2h_ms += ms(down[k]);
    }
    return parts;
  }

  void collect() override { std::memcpy(out_.pixels.data(), pinned_out_.data(), bytes_); }

 private:
  std::vector<Strip> strips_;
  gauss::OpenClPinnedMemory pinned_in_;
  gauss::OpenClPinnedMemory pinned_out_;
  cl::Buffer device_in_;
  cl::Buffer device_out_;
  std::vector<cl::CommandQueue> queues_;  // declared last: finished and released first
};

/// The OpenCL methods, in the order of the lesson:
///  - read_write:     clEnqueueWriteBuffer / ReadBuffer straight from and to the user's (pageable) images;
///  - pinned:         the same through staging buffers the runtime allocated with CL_MEM_ALLOC_HOST_PTR
///                    (page-locked on NVIDIA), mapped once; the host copies the images in and out;
///  - alloc_host_ptr: the kernel runs on CL_MEM_ALLOC_HOST_PTR buffers; the host fills and reads
///                    them through clEnqueueMapBuffer / clEnqueueUnmapMemObject;
///  - use_host_ptr:   the same on CL_MEM_USE_HOST_PTR buffers over page-aligned host memory the
///                    application allocated (zero copy where the device shares host memory).
/// @p kernel is chapter 01's blur, built for @p problem's radius.
inline std::vector<TransferMethod> opencl_methods(gauss::OpenClSession& cl, const cl::Kernel& kernel,
                                                  const gauss::Problem& problem) {
  using Job = std::unique_ptr<TransferJob>;
  auto copy = [&cl, kernel, problem](bool pinned) {
    return [&cl, kernel, problem, pinned](const Image& in, Image& out) -> Job {
      return std::make_unique<OpenClCopyJob>(cl, kernel, problem, in, out, pinned);
    };
  };
  auto map = [&cl, kernel, problem](bool use_host_ptr) {
    return [&cl, kernel, problem, use_host_ptr](const Image& in, Image& out) -> Job {
      return std::make_unique<OpenClMapJob>(cl, kernel, problem, in, out, use_host_ptr);
    };
  };
  return {
      {"read_write", "clEnqueueWriteBuffer/ReadBuffer from and to the user's pageable images", copy(false)},
      {"pinned", "the same through CL_MEM_ALLOC_HOST_PTR staging buffers, mapped once (page-locked)", copy(true)},
      {"alloc_host_ptr", "the kernel on CL_MEM_ALLOC_HOST_PTR buffers, filled and read by map/unmap", map(false)},
      {"use_host_ptr", "the kernel on CL_MEM_USE_HOST_PTR buffers over page-aligned memory, map/unmap", map(true)},
  };
}

/// The overlap: the image split into @p strips strips of whole 16-row groups,
/// each uploaded, blurred and downloaded on one of kOverlapQueues in-order
/// queues, round robin, so that one strip's copies run while another strip's
/// kernel does. The images are in pinned memory (CL_MEM_ALLOC_HOST_PTR,
/// mapped), as asynchronous copies need. @p kernel is blur_strip.cl, built by
/// build_blur_strip() for @p problem's radius.
inline TransferMethod opencl_overlap(gauss::OpenClSession& cl, const cl::Kernel& kernel, const gauss::Problem& problem,
                                     int strips) {
  return {"strips_" + std::to_string(strips),
          std::to_string(strips) + " strips over " + std::to_string(kOverlapQueues) + " in-order queues",
          [&cl, kernel, problem, strips](const Image& in, Image& out) -> std::unique_ptr<TransferJob> {
            return std::make_unique<OpenClOverlapJob>(cl, kernel, problem, in, out, strips);
          }};
}

// ================================= CUDA ============================================
// Every job runs chapter 01's kernel on a stream of its own and times each
// part between CUDA events on that stream (gauss::transfer::TimedStream).
#ifdef GAUSS_HAVE_CUDA

using gauss::CudaBuffer;
using gauss::CudaHostMemory;
using gauss::elapsed_ms;

// Chapter 01's kernel on the whole image, and the launch check every launch needs.
inline void blur(const std::uint8_t* in, std::uint8_t* out, const gauss::Problem& p, cudaStream_t stream) {
  launch_blur_naive(in, out, p, dim3(gauss::naive::kGroupX, gauss::naive::kGroupY), stream);
  GAUSS_CUDA_CHECK(cudaGetLastError());
}

// For a job's constructor: throws Unsupported (the row then says "skipped",
// and why) where the device lacks @p attribute.
inline void require(cudaDeviceAttr attribute, int device, const char* why) {
  if (!gauss::cuda_device_attribute(attribute, device)) throw Unsupported(why);
}

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

class CudaCopyJob final : public CudaJob {
 public:
  CudaCopyJob(const gauss::Problem& p, const Image& in, Image& out, HostSide side)
      : CudaJob(p, in, out), side_(side), device_in_(bytes_), device_out_(bytes_) {
    source_ = in.pixels.data();
    target_ = out.pixels.data();
    if (side == HostSide::Pinned) {  // staging buffers, copied in and out
      staging_in_ = std::make_unique<CudaHostMemory>(bytes_, cudaHostAllocDefault);
      staging_out_ = std::make_unique<CudaHostMemory>(bytes_, cudaHostAllocDefault);
      source_ = staging_in_->data();
      target_ = staging_out_->data();
    } else if (side == HostSide::Registered) {
      // The user's own vectors, page-locked where they are: no staging copies.
      registrations_ = gauss::register_host_pages(in.pixels.data(), out.pixels.data(), bytes_);
    }
  }
  void poison(const Image& poison) override {
    // Uploaded from the user's output image, poisoned first: registered, the
    // pages around that image are page-locked, and a copy from memory that is
    // partly in such a range (the poison image may share a page with it)
    // fails with cudaErrorInvalidValue.
    std::memcpy(out_.pixels.data(), poison.pixels.data(), bytes_);
    device_out_.upload(out_.pixels.data(), bytes_);
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
  std::unique_ptr<CudaHostMemory> staging_in_;
  std::unique_ptr<CudaHostMemory> staging_out_;
  std::deque<gauss::CudaHostRegistration> registrations_;
  const std::uint8_t* source_ = nullptr;
  std::uint8_t* target_ = nullptr;
  gauss::transfer::TimedStream t_;
};

// --- mapped, mapped_out: zero copy ------------------------------------------------
// The kernel dereferences host memory: every load and store of mapped memory
// crosses the link (PCIe) while the kernel runs. There is no copy to time;
// the kernel's time includes the traffic. mapped_out keeps the input in
// device memory (the 25 reads per pixel stay on the GPU) and maps only the
// output, which each thread writes exactly once: the Fixstars seminar's
// fastest method.
class CudaMappedJob final : public CudaJob {
 public:
  CudaMappedJob(const gauss::CudaDeviceInfo& device, const gauss::Problem& p, const Image& in, Image& out,
                bool input_mapped)
      : CudaJob(p, in, out), input_mapped_(input_mapped) {
    require(cudaDevAttrCanMapHostMemory, device.index, "this device cannot map host memory");
    host_out_ = std::make_unique<CudaHostMemory>(bytes_, cudaHostAllocMapped);
    kernel_out_ = host_out_->device_pointer();  // cudaHostGetDevicePointer
    if (input_mapped) {
      host_in_ = std::make_unique<CudaHostMemory>(bytes_, cudaHostAllocMapped);
      kernel_in_ = host_in_->device_pointer();
    } else {
      host_in_ = std::make_unique<CudaHostMemory>(bytes_, cudaHostAllocDefault);  // pinned staging
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
    blur(kernel_in_, kernel_out_, p_, s);  // every store (and, for mapped, every load) crosses the link
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
  std::unique_ptr<CudaHostMemory> host_in_;   // mapped, or pinned staging
  std::unique_ptr<CudaHostMemory> host_out_;  // mapped
  CudaBuffer device_in_;                      // mapped_out only
  const std::uint8_t* kernel_in_ = nullptr;
  std::uint8_t* kernel_out_ = nullptr;
  gauss::transfer::TimedStream t_;
};

// --- managed, managed_prefetch: unified memory ------------------------------------
// One pointer everywhere. Without a prefetch, the kernel's first touch of each
// page the host wrote faults, and the driver migrates it while the kernel
// waits; the host's first touch of the output faults it back. With
// cudaMemPrefetchAsync (gauss::cuda_prefetch) the pages move ahead of time,
// in bulk, on the stream.
class CudaManagedJob final : public CudaJob {
 public:
  CudaManagedJob(const gauss::CudaDeviceInfo& device, const gauss::Problem& p, const Image& in, Image& out,
                 bool prefetch)
      : CudaJob(p, in, out), device_(device.index), prefetch_(prefetch) {
    require(cudaDevAttrManagedMemory, device_, "this device has no managed memory");
    if (prefetch) {
      require(cudaDevAttrConcurrentManagedAccess, device_,
              "cudaMemPrefetchAsync needs concurrent managed access (Linux, Pascal or newer)");
    }
    // Managed memory may be oversubscribed: never ask for more than the card
    // has free, or the job measures eviction instead of the transfers.
    std::size_t free = 0, total = 0;
    GAUSS_CUDA_CHECK(cudaMemGetInfo(&free, &total));
    if (2 * bytes_ > free / 2) {
      throw Unsupported("the two images (" + std::to_string(2 * bytes_ >> 20) + " MiB) would take over half of the " +
                        std::to_string(free >> 20) + " MiB of free device memory");
    }
    in_managed_ = std::make_unique<gauss::CudaManagedMemory>(bytes_);
    out_managed_ = std::make_unique<gauss::CudaManagedMemory>(bytes_);
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
      gauss::cuda_prefetch(in_managed_->data(), bytes_, device_, s);
      gauss::cuda_prefetch(out_managed_->data(), bytes_, device_, s);
    }
    t_.e.copied_in.record(s);
    blur(in_managed_->data(), out_managed_->data(), p_, s);
    t_.e.blurred.record(s);
    if (prefetch_) gauss::cuda_prefetch(out_managed_->data(), bytes_, gauss::kCudaHost, s);  // the result, back
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
  std::unique_ptr<gauss::CudaManagedMemory> in_managed_;
  std::unique_ptr<gauss::CudaManagedMemory> out_managed_;
  gauss::transfer::TimedStream t_;
};

// --- overlap: strips on several streams ---------------------------------------------
// The same plan as the OpenCL overlap: strip k's upload, kernel and download
// go to stream k mod 3; a kernel that reads rows another stream uploaded
// waits for that upload's event (cudaStreamWaitEvent). The images live in
// pinned memory: cudaMemcpyAsync from pageable memory would not overlap.
class CudaOverlapJob final : public CudaJob {
 public:
  CudaOverlapJob(const gauss::Problem& p, const Image& in, Image& out, int strips)
      : CudaJob(p, in, out),
        strips_(gauss::transfer::plan_strips(p.image.height, strips, gauss::naive::kGroupY, p.blur.radius)),
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
  ~CudaOverlapJob() override { cudaDeviceSynchronize(); }
  CudaOverlapJob(const CudaOverlapJob&) = delete;
  CudaOverlapJob& operator=(const CudaOverlapJob&) = delete;

  void poison(const Image& poison) override {
    std::memcpy(pinned_out_.data(), poison.pixels.data(), bytes_);
    device_out_.upload(poison.pixels.data(), bytes_);
  }

  JobParts run() override {
    const auto row_bytes = static_cast<std::size_t>(p_.image.pitch);
    for (std::size_t k = 0; k < strips_.size(); ++k) {
      const Strip& strip = strips_[k];
      const cudaStream_t s = streams_[k % streams_.size()].get();
      gauss::transfer::PartEvents& e = parts_[k];
      e.start.record(s);
      if (strip.upload_rows > 0) {
        const std::size_t offset = static_cast<std::size_t>(strip.upload0) * row_bytes;
        GAUSS_CUDA_CHECK(cudaMemcpyAsync(device_in_.data() + offset, pinned_in_.data() + offset,
                                         static_cast<std::size_t>(strip.upload_rows) * row_bytes,
                                         cudaMemcpyHostToDevice, s));
        uploaded_[k].record(s);
      }
      for (int j : gauss::transfer::strips_needed_by(strips_, static_cast<int>(k), p_.blur.radius)) {
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
    for (gauss::CudaStream& stream : streams_) GAUSS_CUDA_CHECK(cudaStreamSynchronize(stream.get()));
    // Each part's events time it from when its stream reached it: with one
    // strip they are exact; with several, a copy that queued behind another
    // stream's copy includes the wait (the table uses the one-strip parts).
    JobParts parts;
    parts.h2d_ms = 0.0;
    parts.d2h_ms = 0.0;
    for (gauss::transfer::PartEvents& e : parts_) {
      *parts.h2d_ms += elapsed_ms(e.start, e.copied_in);
      parts.kernel_ms += elapsed_ms(e.copied_in, e.blurred);
      *parts.d2h_ms += elapsed_ms(e.blurred, e.done);
    }
    return parts;
  }

  void collect() override { std::memcpy(out_.pixels.data(), pinned_out_.data(), bytes_); }

 private:
  std::vector<Strip> strips_;
  CudaHostMemory pinned_in_;
  CudaHostMemory pinned_out_;
  CudaBuffer device_in_;
  CudaBuffer device_out_;
  std::vector<gauss::CudaEvent> uploaded_;
  std::vector<gauss::transfer::PartEvents> parts_;
  std::deque<gauss::CudaStream> streams_;  // CudaStream cannot move: a deque never moves its elements
};

/// The CUDA methods, in the order of the lesson (the Fixstars seminar's first):
///  - pageable:         cudaMemcpy from and to the user's ordinary images;
///  - pinned:           through cudaMallocHost staging buffers, with host copies in and out;
///  - registered:       the user's own images page-locked in place with cudaHostRegister;
///  - mapped:           zero copy: the kernel reads its input from, and writes its output to,
///                      mapped host memory (cudaHostAlloc + cudaHostGetDevicePointer);
///  - mapped_out:       the input copied to the device through pinned staging, the output mapped;
///  - managed:          cudaMallocManaged: pages migrate when the kernel and the host touch them;
///  - managed_prefetch: the same, moved ahead of time with cudaMemPrefetchAsync.
/// Every one runs chapter 01's kernel (../01_naive/blur_naive.cu) on @p device (current).
inline std::vector<TransferMethod> cuda_methods(const gauss::CudaDeviceInfo& device, const gauss::Problem& problem) {
  using Job = std::unique_ptr<TransferJob>;
  auto copy = [problem](HostSide side) {
    return [problem, side](const Image& in, Image& out) -> Job {
      return std::make_unique<CudaCopyJob>(problem, in, out, side);
    };
  };
  auto mapped = [device, problem](bool input_mapped) {
    return [device, problem, input_mapped](const Image& in, Image& out) -> Job {
      return std::make_unique<CudaMappedJob>(device, problem, in, out, input_mapped);
    };
  };
  auto managed = [device, problem](bool prefetch) {
    return [device, problem, prefetch](const Image& in, Image& out) -> Job {
      return std::make_unique<CudaManagedJob>(device, problem, in, out, prefetch);
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

/// How many copies the device can run while a kernel runs (cudaDevAttrAsyncEngineCount):
/// 1, a copy in one direction at a time; 2, an upload and a download at once.
inline int copy_engines(const gauss::CudaDeviceInfo& device) {
  return gauss::cuda_device_attribute(cudaDevAttrAsyncEngineCount, device.index);
}

/// The overlap: @p strips strips of whole 16-row groups on kOverlapQueues
/// streams, round robin, from and to pinned images (cudaMallocHost).
inline TransferMethod cuda_overlap(const gauss::Problem& problem, int strips) {
  return {"strips_" + std::to_string(strips),
          std::to_string(strips) + " strips over " + std::to_string(kOverlapQueues) + " streams",
          [problem, strips](const Image& in, Image& out) -> std::unique_ptr<TransferJob> {
            return std::make_unique<CudaOverlapJob>(problem, in, out, strips);
          }};
}

#endif  // GAUSS_HAVE_CUDA

}  // namespace chapter08
