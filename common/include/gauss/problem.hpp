/// @file problem.hpp
/// @brief What a GPU variant is told at set-up. Light enough for .cu files.
#pragma once

#include "gauss/blur.hpp"
#include "gauss/image.hpp"

namespace gauss {

/// The image as it lies in device memory, the blur, and the blur's weights
/// as kernels take them.
struct Problem {
  ImageGeometry image;
  BlurSpec blur;
  GaussTaps taps;
};

}  // namespace gauss
