// Chapter 03, the main line: the host's view of blur_wide.cu.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "gauss/problem.hpp"

/// Output pixels each thread of blur_wide computes along its row (one 32-bit word).
inline constexpr int kBlurWidePixels = 4;
/// Rows each thread of blur_wide computes, down its column.
inline constexpr int kBlurWideRows = 8;

/// Launches blur_wide on @p stream: chapter 02's main-line blur with each
/// thread computing kBlurWidePixels x kBlurWideRows pixels through 32-bit
/// loads and stores where the rows are aligned, in blocks of @p block
/// threads; the grid is rounded up to whole blocks.
void launch_blur_wide(const std::uint8_t* in, std::uint8_t* out, const gauss::Problem& problem, dim3 block,
                      cudaStream_t stream);
