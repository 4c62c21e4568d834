// Chapter 15: the host's view of the tensor-core blur in blur_mma.cu.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "blur_mma_plan.hpp"
#include "gauss/problem.hpp"

/// The blur for any radius 1-16 and any sigma, gray or RGBA, any size, its
/// two passes on the tensor cores (blur_mma_plan.hpp). Returns false,
/// launching nothing, for a blur whose error bound it cannot prove (none
/// within the tutorial's radii and sigmas). The grid: as many blocks as fit
/// on the SMs, each looping over tiles; @p schedule, when each tile's input is
/// loaded (`main` passes mma::shipped_schedule).
bool launch_blur_mma(const std::uint8_t* in, std::uint8_t* out, const gauss::Problem& problem, cudaStream_t stream,
                     mma::Schedule schedule);
