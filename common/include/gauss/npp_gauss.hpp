// NPP's Gaussian filter, run beside a chapter's kernels for comparison
// (chapter 10). Include it only under GAUSS_HAVE_NPP: the chapter that runs it
// links NPP and defines that (chapters/14_capstone/CMakeLists.txt), where the
// CUDA toolkit has NPP.
#pragma once

#include <cuda_runtime_api.h>
#include <npp.h>

#include <cstdint>
#include <string>
#include <vector>

#include "gauss/blur.hpp"
#include "gauss/cuda.hpp"
#include "gauss/error.hpp"
#include "gauss/problem.hpp"

namespace gauss {

/// NPP's separable Gaussian with our own taps (nppiFilterGaussAdvancedBorder)
/// and replicated borders: the same mask and border as every kernel here.
class NppGauss {
 public:
  /// Copies the taps to the device and fills NPP's stream context for @p stream.
  NppGauss(const Problem& problem, cudaStream_t stream);
  /// Enqueues one blur. Gray: the 8u_C1R function; RGBA: 8u_C4R, which blurs
  /// alpha too (an opaque photo's alpha stays 255). Throws ApiError.
  void run(const std::uint8_t* in, std::uint8_t* out) const;

 private:
  Problem problem_;
  CudaBuffer taps_;  // NPP reads the coefficients from device memory
  NppStreamContext context_{};
};

inline NppGauss::NppGauss(const Problem& problem, cudaStream_t stream)
    : problem_(problem), taps_(sizeof(float) * static_cast<std::size_t>(problem.blur.taps())) {
  taps_.upload(problem.taps.w, taps_.bytes());
  // NPP's stream context, filled once, as its documentation asks (zero elsewhere).
  NppStreamContext& context = context_;
  context.hStream = stream;
  GAUSS_CUDA_CHECK(cudaGetDevice(&context.nCudaDeviceId));
  cudaDeviceProp prop{};
  GAUSS_CUDA_CHECK(cudaGetDeviceProperties(&prop, context.nCudaDeviceId));
  context.nMultiProcessorCount = prop.multiProcessorCount;
  context.nMaxThreadsPerMultiProcessor = prop.maxThreadsPerMultiProcessor;
  context.nMaxThreadsPerBlock = prop.maxThreadsPerBlock;
  context.nSharedMemPerBlock = prop.sharedMemPerBlock;
  context.nCudaDevAttrComputeCapabilityMajor = prop.major;
  context.nCudaDevAttrComputeCapabilityMinor = prop.minor;
  GAUSS_CUDA_CHECK(cudaStreamGetFlags(stream, &context.nStreamFlags));
}

inline void NppGauss::run(const std::uint8_t* in, std::uint8_t* out) const {
  const ImageGeometry& g = problem_.image;
  const NppiSize size{g.width, g.height};
  const NppiPoint origin{0, 0};
  const auto* taps = reinterpret_cast<const Npp32f*>(taps_.data());
  const NppStatus status =
      g.channels == 4
          ? nppiFilterGaussAdvancedBorder_8u_C4R_Ctx(in, g.pitch, size, origin, out, g.pitch, size,
                                                     problem_.blur.taps(), taps, NPP_BORDER_REPLICATE, context_)
          : nppiFilterGaussAdvancedBorder_8u_C1R_Ctx(in, g.pitch, size, origin, out, g.pitch, size,
                                                     problem_.blur.taps(), taps, NPP_BORDER_REPLICATE, context_);
  if (status < 0) {
    throw ApiError("nppiFilterGaussAdvancedBorder: NPP error " + std::to_string(static_cast<int>(status)));
  }
}

}  // namespace gauss
