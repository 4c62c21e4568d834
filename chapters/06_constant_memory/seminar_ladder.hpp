// Chapter 06's second program part: the Fixstars seminar's four kernels as
// published (Simple, Array, Constant, ConstantFixed), beside the chapter's own
// five, so that each of the seminar's factors can be measured, not inferred.
// Each runs in its own block shape (Simple 32x32, the rest 32x8) on the input
// padded by the host (gauss/seminar.hpp); their "valid" output on the padded
// input is our clamped, centred blur, checked like ours. Their table is
// sigma 1, radius 2 only: other blurs skip them.
#pragma once

#include <cstdint>

#include "gauss/chapter.hpp"
#include "gauss/seminar.hpp"
#include "seminar_simple_cl.hpp"   // chapter 01's port of the seminar's Simple kernel (USES 01_naive)
#include "seminar_weights_cl.hpp"  // the seminar's three kernels after it
#ifdef GAUSS_HAVE_CUDA
#include "gauss/cuda.hpp"
#include "seminar_simple.cuh"
#include "seminar_weights.cuh"
#endif

namespace chapter06 {

inline constexpr const char* kSeminarSimple =
    "the seminar's Simple: per-thread table of literals, fixed 5x5 loops, 32x32";
inline constexpr const char* kSeminarArray =
    "the seminar's Array: the same table, run-time loop bound: local memory, 32x8";
inline constexpr const char* kSeminarConstant = "the seminar's Constant: __constant table, run-time loop bound, 32x8";
inline constexpr const char* kSeminarConstantFixed =
    "the seminar's ConstantFixed: __constant table, fixed 5x5 loops, 32x8";

#ifdef GAUSS_HAVE_CUDA
inline gauss::CudaSetup seminar_cuda(SeminarKernel kernel) {
  return gauss::seminar::cuda_setup(
      [kernel](const std::uint8_t* padded, int padded_pitch, std::uint8_t* out, const gauss::Problem& p,
               cudaStream_t stream) { launch_seminar_weights(kernel, padded, padded_pitch, out, p, stream); });
}
#endif

/// Adds the seminar's four kernels, in its order, OpenCL then CUDA.
inline void add_seminar_ladder(gauss::Chapter& chapter) {
  using gauss::seminar::opencl_setup;
  const gauss::OpenClSource& simple = gauss::embedded::seminar_simple_cl;  // chapter 01's port, not a copy
  const gauss::OpenClSource& ladder = gauss::embedded::seminar_weights_cl;
  chapter.add_opencl("seminar_simple", kSeminarSimple, opencl_setup(simple, "seminar_simple", {32, 32}, false));
  chapter.add_opencl("seminar_array", kSeminarArray, opencl_setup(ladder, "seminar_array", {32, 8}, true));
  chapter.add_opencl("seminar_constant", kSeminarConstant, opencl_setup(ladder, "seminar_constant", {32, 8}, true));
  chapter.add_opencl("seminar_constant_fixed", kSeminarConstantFixed,
                     opencl_setup(ladder, "seminar_constant_fixed", {32, 8}, false));
#ifdef GAUSS_HAVE_CUDA
  chapter.add_cuda("seminar_simple", kSeminarSimple, gauss::seminar::cuda_setup(launch_seminar_simple));
  chapter.add_cuda("seminar_array", kSeminarArray, seminar_cuda(SeminarKernel::Array));
  chapter.add_cuda("seminar_constant", kSeminarConstant, seminar_cuda(SeminarKernel::Constant));
  chapter.add_cuda("seminar_constant_fixed", kSeminarConstantFixed, seminar_cuda(SeminarKernel::ConstantFixed));
#endif
}

}  // namespace chapter06
