// Chapter 06: the host's view of blur_weights.cu.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "gauss/problem.hpp"

/// Where a kernel reads the weights from, and whether its radius is a
/// template parameter (fixed: loops unrolled) or an argument (run-time).
enum class WeightStorage {
  ArrayFixed,       ///< per-thread array, template radius: registers
  ArrayRuntime,     ///< per-thread array, run-time radius: local memory (the stack)
  ConstantFixed,    ///< __constant__ array, template radius
  ConstantRuntime,  ///< __constant__ array, run-time radius
  GlobalRuntime,    ///< a device buffer, run-time radius
};

/// Copies the weights into the __constant__ array the constant kernels read
/// (cudaMemcpyToSymbol; done at set-up, untimed).
void upload_constant_weights(const gauss::GaussTaps& taps);

/// Launches the kernel for @p storage, 32x8 blocks. @p global_weights is the
/// device buffer GlobalRuntime reads (2R+1 floats); the others ignore it.
void launch_blur_weights(WeightStorage storage, const std::uint8_t* in, std::uint8_t* out,
                         const gauss::Problem& problem, const float* global_weights, cudaStream_t stream);
