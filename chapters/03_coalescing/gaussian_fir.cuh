// Chapter 03: the host's view of gaussian_fir.cu.
#pragma once

#include <cuda_runtime_api.h>

#include "deriche_names.hpp"
#include "gauss/blur.hpp"

namespace chapter03 {

/// Launches one FIR Gaussian pass along rows (Line::Rows) or columns, one
/// thread per output pixel in 16 x 16 blocks, radius taps.size. Supported:
/// along rows 8-bit to 8-bit or to float; along columns 8-bit or float to 8-bit.
void launch_fir_pass(Line line, int radius, Element in_type, const void* in, int in_pitch, Element out_type, void* out,
                     int out_pitch, int width, int height, const gauss::GaussTaps& taps, cudaStream_t stream);

}  // namespace chapter03
