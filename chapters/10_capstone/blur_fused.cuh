// Chapter 10: the host's view of the CUDA kernels in blur_fused.cu.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "gauss/problem.hpp"

/// The capstone blur, one pass over DRAM: gray (1 byte per pixel) or RGBA
/// (R, G, B blurred, alpha carried), any radius 1..16, any size.
void launch_blur_fused(const std::uint8_t* in, std::uint8_t* out, const gauss::Problem& problem, cudaStream_t stream);

/// The launch shapes the tuning section compares at radius 2 (shape 0 is the
/// one launch_blur_fused() uses): how many there are, their names, a launch.
int fused_shape_count(int channels);
const char* fused_shape_name(int channels, int shape);
void launch_fused_shape(const std::uint8_t* in, std::uint8_t* out, const gauss::Problem& problem, int shape,
                        cudaStream_t stream);
