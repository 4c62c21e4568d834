// Chapter 05's second program part: images and samplers. The linear-sampling
// trick's taps, with what they cost in precision; the image variants' set-ups
// in both APIs (in OpenCL, the image object each run first copies the input
// into, and pays for).
//
// A bilinear read at offset a + f (0 <= f < 1) between pixels a and a + 1
// returns (1 - f) p[a] + f p[a+1]. Two taps w_a, w_b at offsets a and a + 1
// are therefore one read at a + w_b / (w_a + w_b), weighted w_a + w_b. Per
// dimension: the centre tap alone, then the pairs (1, 2), (3, 4), ... on each
// side; an odd radius leaves the last tap alone, read at its own offset
// (f = 0, exact). 1 + 2 ceil(R/2) reads instead of 2R + 1.
//
// The price: the texture unit does not mix with the exact f. NVIDIA's
// hardware keeps the mixing weight in 9-bit fixed point with 8 fractional
// bits (CUDA C++ Programming Guide, "Texture Fetching"), so f is off by up
// to d = 1/256 (whether it rounds or truncates is not documented; assume the
// worse). Each merged read moves at most d of its weight from one pixel to
// the other, so per dimension the applied weights differ from the exact ones
// by at most 2 d s in all (s = 1 - w_0; w_0, the centre weight, is read
// exactly). In 2-D the applied filter is the product e_i e_j of two such
// filters; e_i e_j - w_i w_j = (e_i - w_i) e_j + w_i (e_j - w_j), so the
// weight errors sum to at most 4 d s, and since both filters sum to 1, half
// of that is added weight. On an 8-bit image that is at most
//
//     255 * 2 d s = 2 (255/256) (1 - w_0)  <  2 levels,
//
// and a value less than 2 levels off rounds to at most 2 levels off. That is
// the tolerance the linear-sampling variants are checked with.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <string>
#include <vector>

#include "blur_image_cl.hpp"  // blur_image.cl, embedded at build time
#include "gauss/blur.hpp"
#include "gauss/error.hpp"
#include "gauss/lesson_launch.hpp"
#include "gauss/opencl.hpp"
#include "gauss/problem.hpp"
#include "gauss/variant.hpp"
#ifdef GAUSS_HAVE_CUDA
#include <memory>

#include "blur_image.cuh"
#include "gauss/cuda.hpp"
#endif

namespace chapter05 {

/// Accepted difference of the linear-sampling variants from the reference.
inline constexpr int kLinearSamplingTolerance = 2;

/// The merged reads of one dimension, as the kernels take them.
struct LinearTaps {
  int fetches = 0;             ///< 1 + 2 ceil(R/2)
  gauss::GaussTaps offsets{};  ///< offsets[i]: pixels from the centre
  gauss::GaussTaps weights{};  ///< weights[i]: the merged weight
};

/// The centre tap, then pairs (k, k+1) for k = 1, 3, 5, ... on each side.
inline LinearTaps linear_taps(const gauss::BlurSpec& spec) {
  const std::vector<double> w = gauss::gaussian_weights(spec);
  const int r = spec.radius;
  LinearTaps taps;
  auto add = [&taps](double offset, double weight) {
    taps.offsets.w[taps.fetches] = static_cast<float>(offset);
    taps.weights.w[taps.fetches] = static_cast<float>(weight);
    ++taps.fetches;
  };
  add(0.0, w[static_cast<std::size_t>(r)]);
  for (int k = 1; k <= r; k += 2) {
    const double wa = w[static_cast<std::size_t>(r + k)];
    const double wb = k + 1 <= r ? w[static_cast<std::size_t>(r + k + 1)] : 0.0;
    const double offset = k + wb / (wa + wb);
    add(offset, wa + wb);
    add(-offset, wa + wb);
  }
  return taps;
}

/// The 1-D filter a texture unit really applies with these reads when it
/// keeps the mixing weight with @p fraction_bits bits (rounded or
/// truncated): weights for offsets -R-1 .. R+1, index k + R + 1.
inline std::vector<double> effective_filter(const gauss::BlurSpec& spec, int fraction_bits, bool truncate) {
  const LinearTaps taps = linear_taps(spec);
  const int r = spec.radius;
  std::vector<double> filter(static_cast<std::size_t>(2 * r + 3), 0.0);
  const double scale = std::ldexp(1.0, fraction_bits);
  for (int i = 0; i < taps.fetches; ++i) {
    const double offset = taps.offsets.w[i];
    const double left = std::floor(offset);
    const double exact = offset - left;
    const double f = truncate ? std::floor(exact * scale) / scale : std::round(exact * scale) / scale;
    const auto at = static_cast<std::size_t>(static_cast<int>(left) + r + 1);
    filter[at] += taps.weights.w[i] * (1.0 - f);
    filter[at + 1] += taps.weights.w[i] * f;
  }
  return filter;
}

/// The largest error, in levels, that quantized mixing weights can cause on
/// any 8-bit image (before rounding): 255 times the positive part of the
/// difference between the applied 2-D filter and the exact one. An image
/// that is 255 where the applied filter weighs more and 0 elsewhere reaches it.
inline double worst_case_error(const gauss::BlurSpec& spec, int fraction_bits, bool truncate) {
  const std::vector<double> applied = effective_filter(spec, fraction_bits, truncate);
  const std::vector<double> exact_1d = gauss::gaussian_weights(spec);
  std::vector<double> exact(applied.size(), 0.0);
  std::copy(exact_1d.begin(), exact_1d.end(), exact.begin() + 1);
  double positive = 0;
  for (std::size_t j = 0; j < applied.size(); ++j)
    for (std::size_t i = 0; i < applied.size(); ++i)
      positive += std::max(0.0, applied[j] * applied[i] - exact[j] * exact[i]);
  return 255.0 * positive;
}

/// The bound of the comment above, 2 (255/256) (1 - w_0): the most that
/// 8 fractional bits can cost, rounded or truncated.
inline double error_bound(const gauss::BlurSpec& spec) {
  const double centre = gauss::gaussian_weights(spec)[static_cast<std::size_t>(spec.radius)];
  return 2.0 * (255.0 / 256.0) * (1.0 - centre);
}

// --- Images and samplers (OpenCL) -----------------------------------------------
// A kernel reads an image object, not a buffer, so each run first copies the
// input buffer into the image (on the device) and the run's time includes
// that copy: the price of starting from a buffer.

inline cl::Image2D make_input_image(gauss::OpenClSession& cl, const gauss::Problem& p) {
  const cl::Device& device = cl.info.device;
  if (!device.getInfo<CL_DEVICE_IMAGE_SUPPORT>()) throw gauss::ApiError("this OpenCL device has no image support");
  const std::size_t max_width = device.getInfo<CL_DEVICE_IMAGE2D_MAX_WIDTH>();
  const std::size_t max_height = device.getInfo<CL_DEVICE_IMAGE2D_MAX_HEIGHT>();
  if (static_cast<std::size_t>(p.image.width) > max_width || static_cast<std::size_t>(p.image.height) > max_height) {
    throw gauss::ApiError("the image is larger than this device's largest 2-D image (" + std::to_string(max_width) +
                          "x" + std::to_string(max_height) + ")");
  }
  // One channel of unsigned normalized bytes: a byte b reads as b / 255.
  const cl::ImageFormat format(CL_R, CL_UNORM_INT8);
  std::vector<cl::ImageFormat> supported;
  cl.context.getSupportedImageFormats(CL_MEM_READ_ONLY, CL_MEM_OBJECT_IMAGE2D, &supported);
  const bool found = std::any_of(supported.begin(), supported.end(), [&](const cl::ImageFormat& f) {
    return f.image_channel_order == format.image_channel_order &&
           f.image_channel_data_type == format.image_channel_data_type;
  });
  if (!found) throw gauss::ApiError("this OpenCL device cannot read CL_R / CL_UNORM_INT8 images");
  return cl::Image2D(cl.context, CL_MEM_READ_ONLY, format, p.image.width, p.image.height);
}

inline gauss::OpenClLaunch copy_then_enqueue(gauss::OpenClSession& cl, cl::Image2D image, cl::Kernel kernel,
                                             const gauss::Problem& p, gauss::lesson::GroupShape shape) {
  const cl::NDRange global = gauss::lesson::global_for(p.image, shape);
  const cl::NDRange local(shape.x, shape.y);
  const std::array<cl::size_type, 3> region{static_cast<cl::size_type>(p.image.width),
                                            static_cast<cl::size_type>(p.image.height), 1};
  return [&cl, image, kernel, global, local, region](const cl::Buffer& in, const cl::Buffer& out) mutable {
    cl::Event copied;  // buffer -> image, on the device (rows are packed: pitch == width)
    cl.queue.enqueueCopyBufferToImage(in, image, 0, {0, 0, 0}, region, nullptr, &copied);
    kernel.setArg(1, out);
    cl::Event done;
    cl.queue.enqueueNDRangeKernel(kernel, cl::NullRange, global, local, nullptr, &done);
    return std::vector<cl::Event>{copied, done};  // the run spans both
  };
}

// The image variants: image_nearest reads one pixel per tap through a
// sampler that clamps to the edge; image_linear (the linear-sampling trick)
// lets the sampler mix two taps per read, 1 + 2 ceil(R/2) reads per
// dimension (linear_taps above).
inline gauss::OpenClSetup image_opencl(gauss::lesson::GroupShape shape, bool linear) {
  return [shape, linear](gauss::OpenClSession& cl, const gauss::Problem& p) {
    cl::Image2D image = make_input_image(cl, p);
    cl::Kernel kernel = cl.kernel(gauss::embedded::blur_image_cl, linear ? "blur_image_linear" : "blur_image",
                                  "-D RADIUS=" + std::to_string(p.blur.radius));
    kernel.setArg(0, image);
    gauss::lesson::set_geometry_args(kernel, p);
    if (linear) {
      const LinearTaps taps = linear_taps(p.blur);  // the merged reads
      kernel.setArg(5, taps.offsets);
      kernel.setArg(6, taps.weights);
    } else {
      kernel.setArg(5, p.taps);
    }
    return copy_then_enqueue(cl, image, kernel, p, shape);
  };
}

#ifdef GAUSS_HAVE_CUDA
// The same in CUDA: texture objects are CUDA's images (cudaAddressModeClamp
// is clamp-to-edge), made once at set-up; linear filtering mixes two taps per read.
inline gauss::CudaSetup image_cuda(bool linear) {
  return [linear](const gauss::Problem& p) -> gauss::CudaLaunch {
    std::shared_ptr<ImageTexture> texture = make_image_texture(p, linear);
    const LinearTaps taps = linear_taps(p.blur);
    return [p, texture, taps, linear](const std::uint8_t* in, std::uint8_t* out, cudaStream_t stream) {
      if (linear) {
        launch_blur_image_linear(*texture, in, out, p, taps.fetches, taps.offsets, taps.weights, stream);
      } else {
        launch_blur_image(*texture, in, out, p, stream);
      }
    };
  };
}
#endif

}  // namespace chapter05
