// Chapter 03: the host's view of recursive_gauss_batched.cu (chapter 04 uses it too).
#pragma once

#include <cuda_runtime_api.h>

#include "deriche_names.hpp"

namespace chapter03 {

/// The loads in flight per thread that recursive_gauss_batched.cu is built for.
inline constexpr int kBatches[] = {16, 32};

/// As launch_recursive_pass() (recursive_gauss.cuh), with each thread loading
/// @p batch values of its line (16 or 32; std::invalid_argument otherwise)
/// before it runs the recursion over them: the same results, @p batch loads
/// in flight instead of one.
void launch_recursive_pass_batched(Line line, int batch, Element in_type, const void* in, int in_pitch, float* forward,
                                   int forward_pitch, Element out_type, void* out, int out_pitch, int width, int height,
                                   const DericheTaps& taps, int group, cudaStream_t stream);

}  // namespace chapter03
