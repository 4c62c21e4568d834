#include "npp_blur.hpp"

#include <npp.h>

#include <string>
#include <vector>

#include "gauss/blur.hpp"
#include "gauss/error.hpp"

NppGauss::NppGauss(const gauss::Problem& problem, cudaStream_t stream)
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

void NppGauss::run(const std::uint8_t* in, std::uint8_t* out) const {
  const gauss::ImageGeometry& g = problem_.image;
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
    throw gauss::ApiError("nppiFilterGaussAdvancedBorder: NPP error " + std::to_string(static_cast<int>(status)));
  }
}
