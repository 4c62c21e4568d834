// Chapter 02, the main line: the host's view of blur_rows.cu.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "gauss/problem.hpp"

/// Output pixels each thread of blur_rows computes, down one column.
inline constexpr int kBlurRowsPerThread = 8;

/// Launches blur_rows on @p stream: chapter 01's blur with each thread
/// computing kBlurRowsPerThread pixels of one column, in blocks of @p block
/// threads; the grid is rounded up to whole blocks.
void launch_blur_rows(const std::uint8_t* in, std::uint8_t* out, const gauss::Problem& problem, dim3 block,
                      cudaStream_t stream);
