// Chapter 01: the host's view of seminar_simple.cu, the Fixstars seminar's
// Simple kernel as published (chapter 06 runs it too).
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "gauss/problem.hpp"

/// Launches the seminar's Simple kernel on @p stream in 32x32 blocks, one
/// thread per output pixel: it reads @p padded, the input padded by 2 pixels
/// on every side (rows @p padded_pitch bytes apart, gauss/seminar.hpp), and
/// writes the blur of @p problem's image into @p out.
void launch_seminar_simple(const std::uint8_t* padded, int padded_pitch, std::uint8_t* out,
                           const gauss::Problem& problem, cudaStream_t stream);
