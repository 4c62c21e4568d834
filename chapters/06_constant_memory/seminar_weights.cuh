// Chapter 06: the host's view of seminar_weights.cu, the Fixstars seminar's
// ladder as published (its Simple kernel is chapter 01's seminar_simple.cu).
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "gauss/problem.hpp"

/// The seminar's kernels after Simple: where the 5x5 table lives, and
/// whether the loops' bound ks is a run-time argument.
enum class SeminarKernel {
  Array,          ///< per-thread table of literals, run-time ks (the seminar's opt 1)
  Constant,       ///< __constant__ table, run-time ks (opt 2)
  ConstantFixed,  ///< __constant__ table, fixed 5x5 loops (opt 3)
};

/// Launches @p kernel on @p stream in 32x8 blocks, one thread per output
/// pixel: it reads @p padded, the input padded by 2 pixels on every side
/// (rows @p padded_pitch bytes apart, gauss/seminar.hpp), and writes the blur
/// of @p problem's image into @p out. ks, for the run-time kernels, is
/// problem.blur.taps() (5).
void launch_seminar_weights(SeminarKernel kernel, const std::uint8_t* padded, int padded_pitch, std::uint8_t* out,
                            const gauss::Problem& problem, cudaStream_t stream);
