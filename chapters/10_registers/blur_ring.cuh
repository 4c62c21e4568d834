// Chapter 10: the host's view of the CUDA kernels in blur_ring.cu.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "gauss/problem.hpp"

/// The blur in one pass, its sums in registers: gray (1 byte per pixel) or
/// RGBA (R, G, B blurred, alpha carried), any radius 1..16, any size.
/// ring_plan.hpp chooses the shape for each radius. Later chapters fall back
/// to it for every blur their own kernels do not serve.
void launch_blur_ring(const std::uint8_t* in, std::uint8_t* out, const gauss::Problem& problem, cudaStream_t stream);

/// The launch shapes the section `shapes` compares at radius 2 (shape 0 is
/// the one launch_blur_ring() uses): how many there are, their names, a launch.
int ring_shape_count(int channels);
const char* ring_shape_name(int channels, int shape);
void launch_ring_shape(const std::uint8_t* in, std::uint8_t* out, const gauss::Problem& problem, int shape,
                       cudaStream_t stream);
