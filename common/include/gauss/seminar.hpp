// Running the Fixstars seminar's kernels as published (chapters 01 and 06),
// and checking them like every other variant.
//
// The seminar's kernels ("CUDA高速化セミナー vol.1", fixstars/CudaOptimizeSample)
// compute a "valid" convolution: output pixel (x, y) is the 5x5 sum of the
// input pixels (x..x+4, y..y+4), top-left anchored and never clamped, for
// x < width - 4 and y < height - 4; the last 4 columns and rows are never
// written. Such an output cannot be compared with our centred, clamp-to-edge
// blur as it stands. Given the input padded by 2 pixels on every side, each
// a copy of the nearest edge pixel, their output is exactly that blur of the
// unpadded image, every pixel, borders included. So the host pads the image
// once, outside the timing, and the kernel's arithmetic, loop bounds, weights
// and block shape stay as published; its output is then checked against the
// CPU reference with the same tolerance as ours.
//
// What differs from the seminar's code: the output has its own row pitch
// (ours is the image's; the seminar's output rows were as long as its input
// rows), the padded rows are rounded up to 32 bytes (the seminar's 6720-byte
// rows were a multiple of 32 too), and the grid covers the output, which at
// 6720 x 4480 gives the very grid the seminar launched.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "gauss/error.hpp"
#include "gauss/lesson_launch.hpp"
#include "gauss/opencl.hpp"
#include "gauss/problem.hpp"
#include "gauss/runners.hpp"
#include "gauss/variant.hpp"
#ifdef GAUSS_HAVE_CUDA
#include "gauss/cuda.hpp"
#endif

namespace gauss::seminar {

/// The seminar's filter is a 5x5 table of literals: sigma 1, radius 2.
inline constexpr int kRadius = 2;
/// How far the host pads the input on every side: the filter's radius.
inline constexpr int kBorder = kRadius;
/// The padded rows start every multiple of this many bytes.
inline constexpr int kRowAlignment = 32;

/// Throws Unsupported unless @p blur is the seminar's (sigma 1, radius 2):
/// its weights are literals in the kernels, for that blur alone.
inline void require_seminar_blur(const BlurSpec& blur) {
  if (blur.sigma != 1.0 || blur.radius != kRadius)
    throw Unsupported("the seminar's kernels have its 5x5 sigma 1 table built in (run with --sigma 1 --radius 2)");
}

/// The geometry of @p image padded by kBorder pixels on every side.
inline ImageGeometry padded_geometry(const ImageGeometry& image) {
  ImageGeometry padded = image;
  padded.width = image.width + 2 * kBorder;
  padded.height = image.height + 2 * kBorder;
  padded.pitch = static_cast<int>(round_up(static_cast<std::size_t>(padded.width * image.channels), kRowAlignment));
  return padded;
}

/// The pixels of @p image (laid out as @p geometry) padded by kBorder pixels
/// on every side, each a copy of the nearest edge pixel (clamp-to-edge).
inline std::vector<std::uint8_t> pad_clamped(const std::vector<std::uint8_t>& image, const ImageGeometry& geometry) {
  const ImageGeometry padded = padded_geometry(geometry);
  const int channels = geometry.channels;
  std::vector<std::uint8_t> out(padded.bytes(), 0);
  for (int y = 0; y < padded.height; ++y) {
    const int sy = std::min(std::max(y - kBorder, 0), geometry.height - 1);
    const std::uint8_t* row = image.data() + static_cast<std::size_t>(sy) * geometry.pitch;
    std::uint8_t* dst = out.data() + static_cast<std::size_t>(y) * padded.pitch;
    for (int x = 0; x < padded.width; ++x) {
      const int sx = std::min(std::max(x - kBorder, 0), geometry.width - 1);
      std::memcpy(dst + x * channels, row + sx * channels, static_cast<std::size_t>(channels));
    }
  }
  return out;
}

/// The padded copies of one variant's input, on an OpenCL device. The first
/// run reads its input back, pads it on the host and uploads it into every
/// copy (blocking calls, done before the run's kernel is enqueued, so outside
/// its event); every run then reads the next copy. The copies rotate for the
/// reason the runner's buffers do: each run reads DRAM, not the cache that
/// the run before left warm. (The runner's input buffers all hold the same
/// image, so one read-back serves every run.)
class OpenClPaddedInputs {
 public:
  OpenClPaddedInputs(OpenClSession& cl, const ImageGeometry& image) : cl_(cl), image_(image) {}

  const ImageGeometry& geometry() const { return padded_; }

  /// The padded copy of @p in that this run reads.
  const cl::Buffer& next(const cl::Buffer& in) {
    if (copies_.empty()) {
      std::vector<std::uint8_t> pixels(image_.bytes());
      cl_.queue.enqueueReadBuffer(in, CL_TRUE, 0, pixels.size(), pixels.data());
      const std::vector<std::uint8_t> padded = pad_clamped(pixels, image_);
      const int count = rotation_sets(padded.size(), cl_.info.global_cache, cl_.info.global_memory);
      for (int i = 0; i < count; ++i) {
        copies_.emplace_back(cl_.context, CL_MEM_READ_ONLY, padded.size());
        cl_.queue.enqueueWriteBuffer(copies_.back(), CL_TRUE, 0, padded.size(), padded.data());
      }
    }
    return copies_[next_++ % copies_.size()];
  }

 private:
  OpenClSession& cl_;
  ImageGeometry image_;
  ImageGeometry padded_ = padded_geometry(image_);
  std::vector<cl::Buffer> copies_;
  std::size_t next_ = 0;
};

/// An OpenCL variant running seminar kernel @p kernel of @p source on the
/// padded input: arguments (src, dst, width, height, src_step, dst_step),
/// then the loop bound ks (5) when @p takes_ks, in groups of @p shape.
inline OpenClSetup opencl_setup(const OpenClSource& source, const char* kernel_name, lesson::GroupShape shape,
                                bool takes_ks) {
  return [&source, kernel_name, shape, takes_ks](OpenClSession& cl, const Problem& p) -> OpenClLaunch {
    require_seminar_blur(p.blur);
    cl::Kernel kernel = cl.kernel(source, kernel_name);
    auto padded = std::make_shared<OpenClPaddedInputs>(cl, p.image);
    kernel.setArg(2, p.image.width);  // the output's size: the valid part of the padded image
    kernel.setArg(3, p.image.height);
    kernel.setArg(4, padded->geometry().pitch);
    kernel.setArg(5, p.image.pitch);
    if (takes_ks) kernel.setArg(6, p.blur.taps());  // 5, a run-time value
    const cl::NDRange global = lesson::global_for(p.image, shape);
    const cl::NDRange local(shape.x, shape.y);
    return [&cl, kernel, global, local, padded](const cl::Buffer& in, const cl::Buffer& out) mutable {
      kernel.setArg(0, padded->next(in));
      kernel.setArg(1, out);
      cl::Event done;  // the kernel alone: the padding is not timed
      cl.queue.enqueueNDRangeKernel(kernel, cl::NullRange, global, local, nullptr, &done);
      return std::vector<cl::Event>{done};
    };
  };
}

#ifdef GAUSS_HAVE_CUDA
/// The padded copies of one variant's input on the current CUDA device: as
/// OpenClPaddedInputs. The first run's read-back, padding and uploads finish
/// before its kernel is launched; a CUDA run's events span the whole launch,
/// so that first run (a warm-up run unless --warmup 0) includes them.
class CudaPaddedInputs {
 public:
  explicit CudaPaddedInputs(const ImageGeometry& image) : image_(image) {}

  const ImageGeometry& geometry() const { return padded_; }

  /// The padded copy of @p in that this run reads.
  const std::uint8_t* next(const std::uint8_t* in, cudaStream_t stream) {
    if (copies_.empty()) {
      std::vector<std::uint8_t> pixels(image_.bytes());
      GAUSS_CUDA_CHECK(cudaMemcpyAsync(pixels.data(), in, pixels.size(), cudaMemcpyDeviceToHost, stream));
      GAUSS_CUDA_CHECK(cudaStreamSynchronize(stream));
      const std::vector<std::uint8_t> padded = pad_clamped(pixels, image_);
      int device = 0;
      int l2_bytes = 0;
      std::size_t free_bytes = 0;
      std::size_t total_bytes = 0;
      GAUSS_CUDA_CHECK(cudaGetDevice(&device));
      GAUSS_CUDA_CHECK(cudaDeviceGetAttribute(&l2_bytes, cudaDevAttrL2CacheSize, device));
      GAUSS_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
      const int count = rotation_sets(padded.size(), static_cast<std::size_t>(l2_bytes), total_bytes);
      for (int i = 0; i < count; ++i) {
        copies_.emplace_back(padded.size());
        GAUSS_CUDA_CHECK(
            cudaMemcpyAsync(copies_.back().data(), padded.data(), padded.size(), cudaMemcpyHostToDevice, stream));
      }
      GAUSS_CUDA_CHECK(cudaStreamSynchronize(stream));  // `padded` is freed on return
    }
    return copies_[next_++ % copies_.size()].data();
  }

 private:
  ImageGeometry image_;
  ImageGeometry padded_ = padded_geometry(image_);
  std::vector<CudaBuffer> copies_;
  std::size_t next_ = 0;
};

/// A CUDA variant running a seminar kernel on the padded input. @p launch is
/// its launcher: launch(padded, padded_pitch, out, problem, stream).
template <class Launch>
CudaSetup cuda_setup(Launch launch) {
  return [launch](const Problem& p) -> CudaLaunch {
    require_seminar_blur(p.blur);
    auto padded = std::make_shared<CudaPaddedInputs>(p.image);
    return [launch, p, padded](const std::uint8_t* in, std::uint8_t* out, cudaStream_t stream) {
      launch(padded->next(in, stream), padded->geometry().pitch, out, p, stream);
    };
  };
}
#endif

}  // namespace gauss::seminar
