// Chapter 12: the host's view of the packed-half strips in blur_async.cu.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "gauss/problem.hpp"

/// Chapter 11's packed-half warp strips with the rows ahead brought into
/// shared memory by `cp.async` instead of into registers: the radius-2 blur
/// with the sigma-1 weights, gray or RGBA, any size; async_plan.hpp's shape.
/// Returns false, launching nothing, for any other blur: half2_plan.hpp's
/// half2_weights() says which blurs the packed halves serve and why only those.
bool launch_blur_async(const std::uint8_t* in, std::uint8_t* out, const gauss::Problem& problem, cudaStream_t stream);

/// The same kernel with its edge store written as the natural loop bounded at
/// run time, which puts a lane's packed words on the stack in every row (the
/// variant stack_frame; README, section "Reading the SASS"). Returns false
/// where launch_blur_async does.
bool launch_blur_async_stack_frame(const std::uint8_t* in, std::uint8_t* out, const gauss::Problem& problem,
                                   cudaStream_t stream);
