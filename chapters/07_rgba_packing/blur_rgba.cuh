// Chapter 07: the host's view of blur_rgba.cu and blur_planar.cu.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "gauss/problem.hpp"

/// Which colour kernel (blur_rgba.cu); all use 32x8 blocks.
enum class ColourKernel {
  Rgb24,      ///< 3 bytes per pixel, uchar3: three 1-byte loads per tap
  Rgba32,     ///< 4 bytes per pixel, uchar4: one 32-bit load per tap, alpha carried through
  AlphaZero,  ///< Rgba32 with the seminar's bug: alpha written as 0
  Rgba32x4,   ///< four RGBA pixels per thread, 16-byte loads
};

/// Launches @p kernel on @p stream.
void launch_blur_colour(ColourKernel kernel, const std::uint8_t* in, std::uint8_t* out, const gauss::Problem& problem,
                        cudaStream_t stream);

/// Launches the planar blur of an RGB24 image: split into three planes in
/// @p planes (6 width*height bytes of scratch: three input planes, three
/// output planes), blur each plane as gray, join. If @p marks is not null,
/// records marks[0] before the split, marks[1] before the blurs, marks[2]
/// after them and marks[3] after the join (to time each stage).
void launch_blur_planar(const std::uint8_t* in, std::uint8_t* out, std::uint8_t* planes, const gauss::Problem& problem,
                        cudaStream_t stream, cudaEvent_t* marks = nullptr);
