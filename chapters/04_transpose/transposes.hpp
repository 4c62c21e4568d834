// Chapter 04: the transposes and the V+T+V+T pipeline on the host side, and
// the two sections (the transposes on float images, Apple's estimate table).
#pragma once

#include <string>
#include <vector>

#include "../03_coalescing/deriche.hpp"
#include "gauss/chapter.hpp"
#include "gauss/opencl.hpp"
#include "gauss/variant.hpp"
#include "transpose_kinds.hpp"

namespace chapter04 {

/// "transpose_naive", "transpose_16", "transpose_16_padded", "transpose_16_skewed", "transpose_32x8".
std::string variant_name(TransposeKind kind);
/// One line for --list-variants.
std::string describe(TransposeKind kind);
/// Every kind, in order.
std::vector<TransposeKind> all_transposes();

/// The transpose of an image: height x width, out(y, x) = in(x, y). The reference of the transpose variants.
gauss::Image transpose_reference(const gauss::Image& input);

/// One transpose kernel (transpose.cl) built for one pair of element types.
class TransposeCl {
 public:
  TransposeCl(gauss::OpenClSession& cl, TransposeKind kind, chapter03::Element in, chapter03::Element out);

  /// Enqueues the transpose of a width x height image into a height x width
  /// one; pitches in elements.
  cl::Event enqueue(const cl::Buffer& in, int in_pitch, const cl::Buffer& out, int out_pitch, int width, int height);

 private:
  gauss::OpenClSession* cl_;
  TransposeKind kind_;
  cl::Kernel kernel_;
};

/// The 8-bit transpose as a variant (its output is height x width).
gauss::OpenClSetup transpose_opencl(TransposeKind kind);
#ifdef GAUSS_HAVE_CUDA
gauss::CudaSetup transpose_cuda(TransposeKind kind);
#endif

/// The transpose the pipeline uses.
inline constexpr TransposeKind kPipelineTranspose = TransposeKind::Tiled32x8;

/// Apple's fix for rgH: rgV, transpose, rgV, transpose. Both recursive passes
/// walk down columns (coalesced); the first reads the 8-bit image, the last
/// transpose writes it; everything between is float.
gauss::OpenClSetup pipeline_opencl();
#ifdef GAUSS_HAVE_CUDA
gauss::CudaSetup pipeline_cuda();
#endif

/// Section "transpose_float": every transpose on a float image of --size,
/// timed, checked exactly, as GB/s and % of the copy.
void transpose_float_section(gauss::SectionContext& context);

/// One row of Apple's estimate table.
struct Estimate {
  std::string algorithm;
  std::string variant;        ///< the variant measured for it ("" for the copy)
  double apple_floats = 0;    ///< floats read and written per pixel, as Apple counts them
  double apple_estimate = 0;  ///< Apple's MP/s: 14,200 x 2 / floats (Apple's copy rate 14,200 MP/s)
  double estimate = 0;        ///< the same from this run's copy: (copy GB/s / 4 bytes) / floats
  double bytes = 0;           ///< bytes per pixel of this tutorial's version (8-bit ends, float between)
};

/// Apple's Table 14-1 and 14-2 rows for @p radius (Apple: sigma 5, 31 taps,
/// radius 15), estimated from @p copy_gbps.
std::vector<Estimate> estimates(int radius, double copy_gbps);

/// Section "estimates": the table, with the MP/s this run measured beside it.
void estimates_section(gauss::SectionContext& context);

}  // namespace chapter04
