// Chapter 11: the host's view of the packed-half kernel in blur_half2.cu.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "gauss/problem.hpp"

/// The radius-2 blur with the sigma-1 weights (the tutorial's default blur),
/// summed in packed half precision over chapter 10's warp strips, each warp
/// loading its own rows a few ahead into registers, for gray or RGBA images
/// of any size; half2_plan.hpp's shapes. Returns false, launching nothing,
/// for any other blur: half2_plan.hpp's half2_weights() says which blurs it
/// serves and why only those (the caller runs chapter 10's launch_blur_ring).
bool launch_blur_half2(const std::uint8_t* in, std::uint8_t* out, const gauss::Problem& problem, cudaStream_t stream);
