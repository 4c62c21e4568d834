// Chapter 08: the whole job in OpenCL. Every job runs chapter 01's kernel on
// the session's in-order queue (the overlap adds queues of its own) and times
// each command with its profiling event.
#include "transfers_opencl.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <utility>

#include "gauss/naive_blur.hpp"  // chapter 01's OpenCL kernel (USES 01_naive)
#include "gauss/oclgrind.hpp"
#include "gauss/opencl.hpp"

namespace chapter08 {

using gauss::is_oclgrind;
using gauss::naive::enqueue_naive_blur;
using gauss::naive::kGroupY;

namespace {

using gauss::HostTimer;
using gauss::Image;

// The device time of one command, from its profiling counters.
double ms(const cl::Event& event) { return gauss::event_span_ms(event, event); }

// The host side of a copy, timed with the host clock.
double timed_memcpy(void* to, const void* from, std::size_t bytes) {
  HostTimer timer;
  std::memcpy(to, from, bytes);
  return timer.elapsed_ms();
}

std::size_t offset_of_row(const gauss::Problem& p, int row) {
  return static_cast<std::size_t>(row) * static_cast<std::size_t>(p.image.pitch);
}

// Host memory the OpenCL runtime allocates (CL_MEM_ALLOC_HOST_PTR), mapped for
// the owner's lifetime. NVIDIA's driver page-locks it, so copies from and to
// it run at the link's full speed and can run asynchronously: the
// counterpart of CUDA's cudaMallocHost. The pointer is used as the host side
// of clEnqueueWriteBuffer / ReadBuffer on other buffers, never by a kernel.
class PinnedHostMemory {
 public:
  PinnedHostMemory(gauss::OpenClSession& cl, std::size_t bytes)
      : queue_(cl.queue), buffer_(cl.context, CL_MEM_ALLOC_HOST_PTR | CL_MEM_READ_WRITE, bytes) {
    data_ = static_cast<std::uint8_t*>(queue_.enqueueMapBuffer(buffer_, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, bytes));
  }
  ~PinnedHostMemory() {
    try {
      queue_.enqueueUnmapMemObject(buffer_, data_);
      queue_.finish();
    } catch (const cl::Error&) {  // a destructor must not throw; the context's release frees it anyway
    }
  }
  PinnedHostMemory(const PinnedHostMemory&) = delete;
  PinnedHostMemory& operator=(const PinnedHostMemory&) = delete;
  std::uint8_t* data() const { return data_; }

 private:
  cl::CommandQueue queue_;
  cl::Buffer buffer_;
  std::uint8_t* data_ = nullptr;
};

// Page-aligned host memory, a whole number of pages: what CL_MEM_USE_HOST_PTR
// needs for the runtime to use it in place (Intel's and AMD's rules: a
// page-aligned pointer, a size that is a multiple of 64 bytes).
struct FreeDeleter {
  void operator()(std::uint8_t* p) const { std::free(p); }
};
using AlignedBytes = std::unique_ptr<std::uint8_t, FreeDeleter>;

std::size_t page_size() { return static_cast<std::size_t>(::sysconf(_SC_PAGESIZE)); }

std::size_t whole_pages(std::size_t bytes) { return gauss::round_up(std::max<std::size_t>(bytes, 1), page_size()); }

AlignedBytes page_aligned(std::size_t bytes) {
  void* p = std::aligned_alloc(page_size(), whole_pages(bytes));
  if (p == nullptr) throw std::bad_alloc();
  return AlignedBytes(static_cast<std::uint8_t*>(p));
}

// What every OpenCL job has: the session, chapter 01's kernel, the problem,
// the user's images, and a way to blur one buffer into another on the queue.
class OpenClJob : public TransferJob {
 protected:
  OpenClJob(gauss::OpenClSession& cl, cl::Kernel kernel, const gauss::Problem& p, const Image& in, Image& out)
      : cl_(cl), kernel_(std::move(kernel)), p_(p), in_(in), out_(out), bytes_(in.bytes()) {}

  cl::Event blur(const cl::Buffer& in, const cl::Buffer& out) {
    return enqueue_naive_blur(cl_.queue, kernel_, in, out, p_, 0, p_.image.height);
  }

  gauss::OpenClSession& cl_;
  cl::Kernel kernel_;
  gauss::Problem p_;
  const Image& in_;
  Image& out_;
  std::size_t bytes_;
};

// Waits until @p queue has run everything, for destructors (which must not throw).
void finish_quietly(const cl::CommandQueue& queue) {
  try {
    queue.finish();
  } catch (const cl::Error&) {
  }
}

// Declared last in a job, so destroyed first: waits until the queue no longer
// uses the job's memory (after a failed run, commands may still be queued).
struct FinishFirst {
  cl::CommandQueue queue;
  ~FinishFirst() { finish_quietly(queue); }
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
class CopyJob final : public OpenClJob {
 public:
  CopyJob(gauss::OpenClSession& cl, cl::Kernel kernel, const gauss::Problem& p, const Image& in, Image& out,
          bool pinned)
      : OpenClJob(cl, std::move(kernel), p, in, out),
        device_in_(cl.context, CL_MEM_READ_ONLY, bytes_),
        device_out_(cl.context, CL_MEM_READ_WRITE, bytes_) {
    if (pinned) {
      staging_in_ = std::make_unique<PinnedHostMemory>(cl, bytes_);
      staging_out_ = std::make_unique<PinnedHostMemory>(cl, bytes_);
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
  std::unique_ptr<PinnedHostMemory> staging_in_;  // pinned only
  std::unique_ptr<PinnedHostMemory> staging_out_;
  FinishFirst finish_{cl_.queue};
};

// --- alloc_host_ptr and use_host_ptr: map and unmap ----------------------------
// The kernel runs on the very buffers the host maps. Where the data lives and
// when it moves is the runtime's business: on a CPU device or an integrated
// GPU, mapping returns a pointer to the buffer itself (zero copy); on a
// discrete GPU the runtime copies at unmap (host to device) and map (device to
// host). The program is the same either way, which is the point of map/unmap.
//   alloc_host_ptr: the runtime allocates the host side (CL_MEM_ALLOC_HOST_PTR);
//   use_host_ptr:   the application does (CL_MEM_USE_HOST_PTR), page-aligned.
class MapJob final : public OpenClJob {
 public:
  MapJob(gauss::OpenClSession& cl, cl::Kernel kernel, const gauss::Problem& p, const Image& in, Image& out,
         bool use_host_ptr)
      : OpenClJob(cl, std::move(kernel), p, in, out) {
    if (use_host_ptr) {
      host_in_ = page_aligned(bytes_);
      host_out_ = page_aligned(bytes_);
      buffer_in_ = cl::Buffer(cl.context, CL_MEM_USE_HOST_PTR | CL_MEM_READ_ONLY, whole_pages(bytes_), host_in_.get());
      buffer_out_ =
          cl::Buffer(cl.context, CL_MEM_USE_HOST_PTR | CL_MEM_READ_WRITE, whole_pages(bytes_), host_out_.get());
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
  AlignedBytes host_in_;  // use_host_ptr only; declared before the buffers, so freed after them
  AlignedBytes host_out_;
  cl::Buffer buffer_in_;
  cl::Buffer buffer_out_;
  FinishFirst finish_{cl_.queue};
};

// --- overlap: strips on several in-order queues --------------------------------
// Strip k's upload, kernel and download go, in that order, to queue k mod Q.
// Commands of one in-order queue run one after the other; commands of
// different queues may run at the same time, on different engines (the copy
// engines and the SMs). A strip's kernel also reads up to RADIUS rows that
// earlier strips uploaded, possibly on other queues: it waits for their
// upload events explicitly.
class OverlapJob final : public OpenClJob {
 public:
  OverlapJob(gauss::OpenClSession& cl, cl::Kernel kernel, const gauss::Problem& p, const Image& in, Image& out,
             int strips)
      : OpenClJob(cl, std::move(kernel), p, in, out),
        // On Oclgrind the first strip uploads every row (see oclgrind.hpp):
        // the others then wait for its upload, on another queue.
        strips_(plan_strips(p.image.height, strips, kGroupY, is_oclgrind(cl) ? p.image.height : p.blur.radius)),
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
  ~OverlapJob() override {
    for (const cl::CommandQueue& queue : queues_) finish_quietly(queue);
  }
  OverlapJob(const OverlapJob&) = delete;
  OverlapJob& operator=(const OverlapJob&) = delete;

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
      for (int j : strips_needed_by(strips_, static_cast<int>(k), p_.blur.radius)) wait.push_back(up[j]);
      blur[k] = enqueue_naive_blur(queue, kernel_, device_in_, device_out_, p_, s.row0, s.rows,
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
  PinnedHostMemory pinned_in_;
  PinnedHostMemory pinned_out_;
  cl::Buffer device_in_;
  cl::Buffer device_out_;
  std::vector<cl::CommandQueue> queues_;  // declared last: finished and released first
};

}  // namespace

std::vector<TransferMethod> opencl_methods(gauss::OpenClSession& cl, const cl::Kernel& kernel,
                                           const gauss::Problem& problem) {
  auto method = [&](const char* name, const char* description, auto make) {
    return TransferMethod{name, description, [&cl, kernel, problem, make](const Image& in, Image& out) {
                            return make(cl, kernel, problem, in, out);
                          }};
  };
  using Job = std::unique_ptr<TransferJob>;
  return {
      method("read_write", "clEnqueueWriteBuffer/ReadBuffer from and to the user's pageable images",
             [](auto& c, auto k, auto& p, auto& in, auto& out) -> Job {
               return std::make_unique<CopyJob>(c, k, p, in, out, false);
             }),
      method("pinned", "the same through CL_MEM_ALLOC_HOST_PTR staging buffers, mapped once (page-locked)",
             [](auto& c, auto k, auto& p, auto& in, auto& out) -> Job {
               return std::make_unique<CopyJob>(c, k, p, in, out, true);
             }),
      method("alloc_host_ptr", "the kernel on CL_MEM_ALLOC_HOST_PTR buffers, filled and read by map/unmap",
             [](auto& c, auto k, auto& p, auto& in, auto& out) -> Job {
               return std::make_unique<MapJob>(c, k, p, in, out, false);
             }),
      method("use_host_ptr", "the kernel on CL_MEM_USE_HOST_PTR buffers over page-aligned memory, map/unmap",
             [](auto& c, auto k, auto& p, auto& in, auto& out) -> Job {
               return std::make_unique<MapJob>(c, k, p, in, out, true);
             }),
  };
}

TransferMethod opencl_overlap(gauss::OpenClSession& cl, const cl::Kernel& kernel, const gauss::Problem& problem,
                              int strips) {
  return {"strips_" + std::to_string(strips),
          std::to_string(strips) + " strips over " + std::to_string(kOverlapQueues) + " in-order queues",
          [&cl, kernel, problem, strips](const Image& in, Image& out) -> std::unique_ptr<TransferJob> {
            return std::make_unique<OverlapJob>(cl, kernel, problem, in, out, strips);
          }};
}

}  // namespace chapter08
