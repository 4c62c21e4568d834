// Chapter 04: the host's view of transpose.cu.
#pragma once

#include <cuda_runtime_api.h>

#include "deriche_names.hpp"  // chapter03::Element
#include "transpose_kinds.hpp"

namespace chapter04 {

/// Launches a transpose of a width x height image into a height x width one.
/// Pitches are in elements. Element types: 8-bit to 8-bit, float to float,
/// or float to 8-bit (rounded half up).
void launch_transpose(TransposeKind kind, chapter03::Element in_type, const void* in, int in_pitch,
                      chapter03::Element out_type, void* out, int out_pitch, int width, int height,
                      cudaStream_t stream);

}  // namespace chapter04
