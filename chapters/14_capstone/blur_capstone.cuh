// Chapter 14: the host's view of the capstone's kernels in blur_capstone.cu.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "gauss/problem.hpp"

/// The capstone as shipped: chapter 13's block tiles with every technique of
/// the climb (capstone_plan.hpp's shipped knobs), gray or RGBA, any size.
/// Returns false, launching nothing, for a blur the packed-half path does not
/// serve (chapter 11's half2_weights()).
bool launch_blur_capstone(const std::uint8_t* in, std::uint8_t* out, const gauss::Problem& problem,
                          cudaStream_t stream);

/// The same kernel with one technique taken out: @p which is a
/// capstone::Ablation (0: as shipped). False where the packed-half path does
/// not serve the blur.
bool launch_blur_capstone_ablated(int which, const std::uint8_t* in, std::uint8_t* out, const gauss::Problem& problem,
                                  cudaStream_t stream);

/// The overlap candidate: each warp streams a segment of its strip, its next
/// rows on their way by cp.async while it computes (capstone_plan.hpp's
/// streaming knobs). False where the packed-half path does not serve the blur.
bool launch_blur_overlap(const std::uint8_t* in, std::uint8_t* out, const gauss::Problem& problem, cudaStream_t stream);

/// The candidate in shape @p shape of capstone_plan.hpp's kShapes, for the
/// section `overlap_shapes`.
bool launch_blur_overlap_shape(int shape, const std::uint8_t* in, std::uint8_t* out, const gauss::Problem& problem,
                               cudaStream_t stream);
