// Chapter 07: the host's view of blur_rgba_prmt.cu (variant rgba32_prmt).
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "gauss/problem.hpp"

/// Launches blur_rgba32_prmt: the rgba32 kernel (32x8 blocks, one pixel per
/// thread, one 32-bit load per tap, alpha carried through) with each byte
/// turned into a float by one byte permute and one subtraction.
void launch_blur_rgba32_prmt(const std::uint8_t* in, std::uint8_t* out, const gauss::Problem& problem,
                             cudaStream_t stream);
