// Chapter 03: the host's view of recursive_gauss.cu (chapter 04 uses it too).
#pragma once

#include <cuda_runtime_api.h>

#include "deriche_names.hpp"

namespace chapter03 {

/// Launches one recursive pass over a width x height image: one thread per
/// row (Line::Rows, rgH) or per column (Line::Columns, rgV), in 1-D blocks of
/// @p group threads. @p in and @p out hold @p in_type / @p out_type elements,
/// rows @p in_pitch / @p out_pitch elements apart; @p forward is a float
/// scratch image (rows @p forward_pitch floats apart) for the causal pass.
void launch_recursive_pass(Line line, Element in_type, const void* in, int in_pitch, float* forward, int forward_pitch,
                           Element out_type, void* out, int out_pitch, int width, int height, const DericheTaps& taps,
                           int group, cudaStream_t stream);

}  // namespace chapter03
