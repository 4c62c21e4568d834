// Chapter 10: the host's view of the packed-half kernels in blur_half2.cu.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "gauss/problem.hpp"

/// The capstone's fastest path: the radius-2 blur with the sigma-1 weights
/// (the tutorial's default blur), summed in packed half precision, for gray
/// or RGBA images of any size. Returns false, launching nothing, for any
/// other blur: fused_plan.hpp's half2_weights() says which blurs it serves
/// and why only those.
bool launch_blur_half2(const std::uint8_t* in, std::uint8_t* out, const gauss::Problem& problem, cudaStream_t stream);
