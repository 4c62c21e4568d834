// Chapter 10: NPP's Gaussian filter, for comparison (built where the CUDA
// toolkit has NPP; GAUSS_HAVE_NPP).
#pragma once

#include <cuda_runtime_api.h>
#include <npp.h>

#include <cstdint>

#include "gauss/cuda.hpp"
#include "gauss/problem.hpp"

/// NPP's separable Gaussian with our own taps (nppiFilterGaussAdvancedBorder)
/// and replicated borders: the same mask and border as every kernel here.
class NppGauss {
 public:
  /// Copies the taps to the device and fills NPP's stream context for @p stream.
  NppGauss(const gauss::Problem& problem, cudaStream_t stream);
  /// Enqueues one blur. Gray: the 8u_C1R function; RGBA: 8u_C4R, which blurs
  /// alpha too (an opaque photo's alpha stays 255). Throws gauss::ApiError.
  void run(const std::uint8_t* in, std::uint8_t* out) const;

 private:
  gauss::Problem problem_;
  gauss::CudaBuffer taps_;  // NPP reads the coefficients from device memory
  NppStreamContext context_{};
};
