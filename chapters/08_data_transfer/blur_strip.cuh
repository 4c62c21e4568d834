// Chapter 08: the host's view of blur_strip.cu.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "gauss/problem.hpp"

/// Launches chapter 01's naive blur on the output rows [row0, row0 + rows)
/// only, on @p stream: one thread per output pixel of the strip, 16 x 16
/// blocks. It reads input rows row0 - radius .. row0 + rows + radius - 1
/// (clamped to the image), which must have arrived before it runs.
void launch_blur_strip(const std::uint8_t* in, std::uint8_t* out, const gauss::Problem& problem, int row0, int rows,
                       cudaStream_t stream);
