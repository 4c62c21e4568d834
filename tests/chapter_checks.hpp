// Checks every chapter's tests run on its variants: the golden photos and the
// awkward sizes, through the same runners (and so the same poisoned output
// buffers) the chapter executables use.
#pragma once

#include <string>
#include <vector>

#include "gauss/blur.hpp"
#include "gauss/chapter.hpp"
#include "gauss/opencl.hpp"

namespace gauss::test {

/// One OpenCL session per test binary, on the default device (a GPU first):
/// the one the checks below run on, for a test's own kernels too.
OpenClSession& opencl_session();

/// Runs @p variant on every golden photo of its pixel format and blur in
/// @p blurs (empty: every golden blur) and requires it to match the golden
/// output within the variant's tolerance.
void check_on_goldens(const Chapter& chapter, const std::string& variant, Api api,
                      const std::vector<BlurSpec>& blurs = {});

/// The same on the goldens at radius 1, 5 and 16 (radius_golden_cases()).
void check_on_radius_goldens(const Chapter& chapter, const std::string& variant, Api api);

/// A width and a height.
struct Extent {
  int width;
  int height;
};

/// Runs @p variant at sigma 1, radius 2 (the blur the packed-half kernels of
/// chapters 11-14 serve) on images that push the sums to their ends, at each
/// of @p sizes: black, white (sums at 255, where a rounding up would wrap to
/// 0), a 0/255 checkerboard and 0/255 stripes (the largest sums next to the
/// smallest), and random bytes; each must match its reference.
void check_on_extreme_images(const Chapter& chapter, const std::string& variant, Api api,
                             const std::vector<Extent>& sizes);

/// Runs @p variant on seeded random images (in its pixel format) of every
/// awkward size, for each blur in @p blurs, and requires it to match its
/// reference (Chapter::reference_for: the Gaussian, or the chapter's own).
void check_on_awkward_sizes(const Chapter& chapter, const std::string& variant, Api api,
                            const std::vector<BlurSpec>& blurs);

/// Requires the chapter's main-line step: @p variant marked line "main" in
/// both APIs (CUDA where it is built), no other variant so marked in that API
/// and pixel format, and, where @p listed_first, the first OpenCL variant.
void check_main_line(const Chapter& chapter, const std::string& variant, bool listed_first = true);

/// Runs @p variant once on @p input and returns the result (for tests that
/// expect a variant to fail, or look closer at its output).
VariantResult run_once(const Chapter& chapter, const std::string& variant, Api api, const Image& input,
                       const BlurSpec& blur, const Image& reference);

}  // namespace gauss::test
