// Chapter 03: coalescing, through Apple's recursive Gaussian.
//
// A recursive (IIR) Gaussian computes each output from the input and the
// outputs just before it: a handful of multiply-adds per pixel whatever the
// sigma, but a chain that must be walked in order along each line. So one
// work-item walks one whole line, and there are only two ways to lay the
// items out (Apple's OpenCL guide, "Tuning Performance On the GPU"):
//
//   rgh  one item per row: at each step the items of a warp read values a
//        whole row apart, one memory transaction each (uncoalesced);
//   rgv  one item per column: at each step they read neighbouring values of
//        one row, one transaction for all (coalesced).
//
// Both run alone (one direction of the blur) and together as the full 2-D
// blur (rgv_rgh), all on 8-bit images in and out with float intermediates,
// checked against a CPU reference of the same recursive filter in double.
// Then the same passes with 16 or 32 values loaded per work-item before the
// arithmetic (rgh_b16, rgv_b32, rgv_rgh_b32, ...): the same results, many
// loads in flight per item instead of one (memory-level parallelism).
// For contrast, the ordinary FIR Gaussian in separable passes with one item
// per pixel (fir_h, fir_v, fir_separable), checked against the Gaussian blur
// of the whole tutorial.
//
// First, the main line's step (blur_wide.cl/.cu, variant `main`): chapter
// 02's main-line blur with each work-item computing 4 adjacent pixels of its
// 8 rows, reading aligned 32-bit words and writing one word per row.
//
// The kernels are in recursive_gauss.cl/.cu and gaussian_fir.cl/.cu, the
// filter's coefficients and CPU reference in common/ (gauss/deriche.hpp), the
// host side of each pass (build, enqueue, float scratch images) and the width
// sweep in passes.hpp, this chapter's second program part.
// The lesson is in README.md beside this file.
#include <string>

#include "deriche_names.hpp"
#include "gauss/chapter.hpp"
#include "passes.hpp"

namespace chapter03 {

gauss::Chapter make_chapter() {
  gauss::Chapter chapter("03_coalescing", "coalescing: the recursive Gaussian one work-item per row or per column");

  // --- The main line: wide coalesced loads and stores ------------------------------
  // The Gaussian blur of the whole tutorial, not the recursive filter: checked
  // against the default reference.
  chapter
      .add_opencl("main", "main line: chapter 02's main, 4 pixels per item from 32-bit words, one word stored",
                  main_line_opencl)
      .line = "main";
#ifdef GAUSS_HAVE_CUDA
  chapter
      .add_cuda("main", "main line: chapter 02's main, 4 pixels per thread from 32-bit words, one word stored",
                main_line_cuda)
      .line = "main";
#endif

  // --- The references ---------------------------------------------------------------
  // The recursive Gaussian is not the truncated Gaussian of the other
  // chapters (it has no radius, and Deriche's fit differs from a Gaussian by
  // about 0.04% of its peak), so its variants are checked against the same
  // recursive filter computed on the CPU in double. The single FIR passes
  // are checked against one direction of the ordinary Gaussian.
  chapter.add_reference(
      "recursive", "the recursive Gaussian (Deriche, 4th order) in double",
      [](const gauss::Image& in, const gauss::BlurSpec& b) { return recursive_reference(in, b.sigma, Passes::Both); });
  chapter.add_reference(
      "recursive_rows", "the recursive Gaussian along rows only, in double",
      [](const gauss::Image& in, const gauss::BlurSpec& b) { return recursive_reference(in, b.sigma, Passes::Rows); });
  chapter.add_reference("recursive_columns", "the recursive Gaussian along columns only, in double",
                        [](const gauss::Image& in, const gauss::BlurSpec& b) {
                          return recursive_reference(in, b.sigma, Passes::Columns);
                        });
  chapter.add_reference("gaussian_rows", "the Gaussian along rows only, in double",
                        [](const gauss::Image& in, const gauss::BlurSpec& b) {
                          return gaussian_pass_reference(in, b.sigma, b.radius, Passes::Rows);
                        });
  chapter.add_reference("gaussian_columns", "the Gaussian along columns only, in double",
                        [](const gauss::Image& in, const gauss::BlurSpec& b) {
                          return gaussian_pass_reference(in, b.sigma, b.radius, Passes::Columns);
                        });

  // --- The CPU: the recursive filter itself ------------------------------------------
  chapter
      .add_cpu("cpu_recursive", "the recursive Gaussian in double on the CPU (the reference), all threads",
               [](const gauss::Image& in, gauss::Image& out, const gauss::BlurSpec& b) {
                 out = recursive_reference(in, b.sigma, Passes::Both);
               })
      .reference = "recursive";

  // --- The GPU variants ----------------------------------------------------------------
  // The recursive passes alone and together, then the FIR passes one item
  // per pixel for contrast; each checked against the reference it names.
  struct Listed {
    const char* name;
    const char* description;
    const char* reference;  // "" for the Gaussian blur of blur.hpp
  };
  const Listed rgh{"rgh", "recursive Gaussian along rows, one item per row (Apple's rgH: uncoalesced)",
                   "recursive_rows"};
  const Listed rgv{"rgv", "recursive Gaussian down columns, one item per column (Apple's rgV: coalesced)",
                   "recursive_columns"};
  const Listed rgv_rgh{"rgv_rgh", "the full recursive blur: rgv into a float image, then rgh into the output",
                       "recursive"};
  // The same passes, each item loading 16 or 32 values of its line before it
  // computes them: one load in flight per item becomes 16 or 32.
  const Listed rgh_b16{"rgh_b16", "rgh, 16 values of the row loaded per item before the arithmetic", "recursive_rows"};
  const Listed rgh_b32{"rgh_b32", "rgh, 32 values of the row loaded per item before the arithmetic", "recursive_rows"};
  const Listed rgv_b16{"rgv_b16", "rgv, 16 values of the column loaded per item before the arithmetic",
                       "recursive_columns"};
  const Listed rgv_b32{"rgv_b32", "rgv, 32 values of the column loaded per item before the arithmetic",
                       "recursive_columns"};
  const Listed rgv_rgh_b16{"rgv_rgh_b16", "the full recursive blur, both passes 16 values in flight per item",
                           "recursive"};
  const Listed rgv_rgh_b32{"rgv_rgh_b32", "the full recursive blur, both passes 32 values in flight per item",
                           "recursive"};
  const Listed fir_h{"fir_h", "Gaussian (2R+1 taps) along rows, one item per pixel", "gaussian_rows"};
  const Listed fir_v{"fir_v", "Gaussian (2R+1 taps) down columns, one item per pixel", "gaussian_columns"};
  const Listed fir_separable{"fir_separable",
                             "the separable Gaussian: along rows into a float image, then down columns", ""};

  auto opencl = [&](const Listed& v, gauss::OpenClSetup setup) {
    chapter.add_opencl(v.name, v.description, std::move(setup)).reference = v.reference;
  };
  opencl(rgh, recursive_pass_opencl(Line::Rows));
  opencl(rgv, recursive_pass_opencl(Line::Columns));
  opencl(rgv_rgh, recursive_blur_opencl());
  opencl(rgh_b16, recursive_pass_opencl(Line::Rows, 16));
  opencl(rgh_b32, recursive_pass_opencl(Line::Rows, 32));
  opencl(rgv_b16, recursive_pass_opencl(Line::Columns, 16));
  opencl(rgv_b32, recursive_pass_opencl(Line::Columns, 32));
  opencl(rgv_rgh_b16, recursive_blur_opencl(16));
  opencl(rgv_rgh_b32, recursive_blur_opencl(32));
  opencl(fir_h, fir_pass_opencl(Line::Rows));
  opencl(fir_v, fir_pass_opencl(Line::Columns));
  opencl(fir_separable, fir_separable_opencl());
#ifdef GAUSS_HAVE_CUDA
  auto cuda = [&](const Listed& v, gauss::CudaSetup setup) {
    chapter.add_cuda(v.name, v.description, std::move(setup)).reference = v.reference;
  };
  cuda(rgh, recursive_pass_cuda(Line::Rows));
  cuda(rgv, recursive_pass_cuda(Line::Columns));
  cuda(rgv_rgh, recursive_blur_cuda());
  cuda(rgh_b16, recursive_pass_cuda(Line::Rows, 16));
  cuda(rgh_b32, recursive_pass_cuda(Line::Rows, 32));
  cuda(rgv_b16, recursive_pass_cuda(Line::Columns, 16));
  cuda(rgv_b32, recursive_pass_cuda(Line::Columns, 32));
  cuda(rgv_rgh_b16, recursive_blur_cuda(16));
  cuda(rgv_rgh_b32, recursive_blur_cuda(32));
  cuda(fir_h, fir_pass_cuda(Line::Rows));
  cuda(fir_v, fir_pass_cuda(Line::Columns));
  cuda(fir_separable, fir_separable_cuda());
#endif
  chapter.set_baseline("cpu_recursive");

  // --- Why one item per column cannot fill a GPU (on request) -------------------------
  // rgv launches one work-item per column: a 6720-pixel-wide photo gives the
  // GPU 6720 items, where an H200 holds 270,336 at once. Sweeping the width
  // at a fixed height shows the rate climb with the number of columns.
  chapter.add_section("width_sweep", "Megapixels per second against image width (rgh, rgv, rgv_b16, rgv_b32, fir_h)",
                      width_sweep_section, gauss::Chapter::SectionRuns::OnRequest);
  // Its mirror: rgh's items are the rows, so sweep the height at a fixed
  // width, one value and 16 or 32 values in flight per item.
  chapter.add_section("height_sweep", "Megapixels per second against image height (rgv, rgh, rgh_b16, rgh_b32, fir_v)",
                      height_sweep_section, gauss::Chapter::SectionRuns::OnRequest);

  // The exercise (README, section Exercise): the main line's step,
  // blur_wide.cl/.cu, with the word loads and the packed store left to the
  // student.
  chapter.set_exercise("blur_wide.cl", {"main"});
  return chapter;
}

}  // namespace chapter03

#ifndef GAUSS_CHAPTER_NO_MAIN
int main(int argc, char** argv) { return chapter03::make_chapter().run(argc, argv); }
#endif
