// Chapter 03: the GPU passes on the host side, in both APIs: building and
// enqueueing one recursive or FIR pass, and the full recursive blur as a
// variant set-up. Chapter 04 uses this file too (through a relative path).
#pragma once

#include <memory>

#include "deriche.hpp"
#include "gauss/blur.hpp"
#include "gauss/opencl.hpp"
#include "gauss/variant.hpp"
#ifdef GAUSS_HAVE_CUDA
#include "gauss/cuda.hpp"
#endif

namespace chapter03 {

/// Work-items per group of the recursive passes. One item owns a whole line,
/// so a 6720-pixel-wide image has only 6720 column items in all; groups of
/// one warp spread them over 210 groups, more than the H200's 132 SMs (groups
/// of 64 would leave 27 SMs without work).
inline constexpr int kLineGroup = 32;

/// One recursive pass (recursive_gauss.cl) built for one pair of element types.
class RecursivePassCl {
 public:
  RecursivePassCl(gauss::OpenClSession& cl, Line line, Element in, Element out, int group = kLineGroup);

  /// Enqueues the pass over a width x height image. Pitches are in elements;
  /// @p forward is a float scratch image for the causal pass.
  cl::Event enqueue(const cl::Buffer& in, int in_pitch, const cl::Buffer& forward, int forward_pitch,
                    const cl::Buffer& out, int out_pitch, int width, int height, const DericheTaps& taps);

 private:
  gauss::OpenClSession* cl_;
  cl::Kernel kernel_;
  Line line_;
  int group_;
};

/// One FIR pass (gaussian_fir.cl): along rows 8-bit to 8-bit or float; along
/// columns 8-bit or float to 8-bit; one item per pixel in 16 x 16 groups.
class FirPassCl {
 public:
  FirPassCl(gauss::OpenClSession& cl, Line line, int radius, Element in, Element out);

  cl::Event enqueue(const cl::Buffer& in, int in_pitch, const cl::Buffer& out, int out_pitch, int width, int height,
                    const gauss::GaussTaps& taps);

 private:
  gauss::OpenClSession* cl_;
  cl::Kernel kernel_;
};

/// A width x height float scratch image on the OpenCL device (rows width floats apart).
cl::Buffer float_image(gauss::OpenClSession& cl, int width, int height);

#ifdef GAUSS_HAVE_CUDA
/// A width x height float scratch image in CUDA device memory (rows width
/// floats apart). Copies share the memory: a launch function is copied
/// around, its scratch images are not.
class CudaFloatImage {
 public:
  CudaFloatImage(int width, int height);
  float* data() const;

 private:
  std::shared_ptr<gauss::CudaBuffer> buffer_;
};
#endif

// --- Variant set-ups (8-bit image in, 8-bit image out) -----------------------------

/// One recursive pass alone, rgH (Line::Rows) or rgV (Line::Columns); the
/// causal pass's results wait in a float scratch image allocated at set-up.
gauss::OpenClSetup recursive_pass_opencl(Line line);
/// One FIR pass alone, along rows or down columns, one item per pixel.
gauss::OpenClSetup fir_pass_opencl(Line line);
/// The separable FIR blur: rows into a float image, then columns into the output.
gauss::OpenClSetup fir_separable_opencl();
#ifdef GAUSS_HAVE_CUDA
gauss::CudaSetup recursive_pass_cuda(Line line);
gauss::CudaSetup fir_pass_cuda(Line line);
gauss::CudaSetup fir_separable_cuda();
#endif

/// The full recursive blur, rgV then rgH: the 8-bit image down the columns
/// into a float image, that along the rows into the 8-bit output. Its
/// float scratch images are allocated once, at set-up.
gauss::OpenClSetup recursive_blur_opencl();
#ifdef GAUSS_HAVE_CUDA
gauss::CudaSetup recursive_blur_cuda();
#endif

}  // namespace chapter03
