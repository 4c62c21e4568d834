// Chapter 04: transposes, and Apple's cure for the uncoalesced rgH.
//
// Chapter 03 found the recursive Gaussian's row pass (rgh: one work-item per
// row) uncoalesced and its column pass (rgv) coalesced. Apple's OpenCL guide
// then blurs the rows without ever walking along them: transpose the image,
// so that its rows become columns, run rgv, and transpose back:
//
//   rgv_rgh       rgV, then rgH                 (chapter 03's full blur)
//   rgv_t_rgv_t   rgV, transpose, rgV, transpose (Apple's fix)
//
// and both again with chapter 03's batched passes (32 values in flight per
// work-item: rgv_rgh_b32, rgv_t_rgv_t_b32), where the coalesced rgV is fast.
//
// That only pays if a transpose is cheap, and a transpose reads rows and
// writes columns: one of the two is uncoalesced unless the kernel stages the
// data through local memory. The transposes, from the naive one to the
// tiled ones (Apple's transposeL and transposeLS, a padded tile, and 32 x 8
// items over a 32 x 32 tile), are variants of their own, on 8-bit images
// here and on float images in a section, each as a percentage of the copy.
// The last section recomputes Apple's estimate table from this run's copy.
//
// The transposes' host side, the pipeline and the two sections are this
// chapter's second program part, in transposes.hpp; chapter 03's passes come
// from its passes.hpp (CMakeLists.txt: USES 03_coalescing). The lesson is in
// README.md beside this file.
#include <string>

#include "deriche_names.hpp"
#include "gauss/chapter.hpp"
#include "passes.hpp"  // chapter 03's launchers (USES 03_coalescing)
#include "transposes.hpp"

namespace chapter04 {

gauss::Chapter make_chapter() {
  gauss::Chapter chapter("04_transpose", "transposes, and the recursive blur as rgV + transpose + rgV + transpose");

  // --- The main line: chapter 03's step, carried forward unchanged ------------------
  // This chapter's step would be separable passes through DRAM: rows into an
  // intermediate image, then columns (transposed or not). Each pass moves at
  // least a copy's bytes, and an exact intermediate (floats) moves 4 more
  // bytes a pixel each way: 10 bytes a pixel against one pass's 2, a floor of
  // 5 copies' time, well above chapter 03's main (fir_separable, below, is
  // the two passes at one pixel per item). So the main line keeps chapter
  // 03's one-pass kernel (README: "The main line").
  chapter
      .add_opencl("main", "main line: chapter 03's main, unchanged (two passes through DRAM would lose)",
                  chapter03::main_line_opencl)
      .line = "main";
#ifdef GAUSS_HAVE_CUDA
  chapter
      .add_cuda("main", "main line: chapter 03's main, unchanged (two passes through DRAM would lose)",
                chapter03::main_line_cuda)
      .line = "main";
#endif

  // --- The references ---------------------------------------------------------------
  // A transpose's output is height x width: out(y, x) = in(x, y), exactly.
  // The blurs are checked against chapter 03's recursive Gaussian in double
  // (the pipeline must compute the same filter as rgv_rgh, only in another
  // order) or, for the FIR blur, the tutorial's Gaussian.
  chapter.add_reference("transpose", "the transpose (height x width)",
                        [](const gauss::Image& in, const gauss::BlurSpec&) { return transpose_reference(in); });
  chapter.add_reference("recursive", "the recursive Gaussian (Deriche, 4th order) in double",
                        [](const gauss::Image& in, const gauss::BlurSpec& b) {
                          return chapter03::recursive_reference(in, b.sigma, chapter03::Passes::Both);
                        });

  // The CPU's recursive blur, as the speed-up column's yardstick.
  chapter
      .add_cpu("cpu_recursive", "the recursive Gaussian in double on the CPU (the reference), all threads",
               [](const gauss::Image& in, gauss::Image& out, const gauss::BlurSpec& b) {
                 out = chapter03::recursive_reference(in, b.sigma, chapter03::Passes::Both);
               })
      .reference = "recursive";

  // --- The transposes, 8-bit image in, transposed 8-bit image out --------------------
  for (const TransposeKind kind : all_transposes()) {
    chapter.add_opencl(variant_name(kind), describe(kind), transpose_opencl(kind)).reference = "transpose";
#ifdef GAUSS_HAVE_CUDA
    chapter.add_cuda(variant_name(kind), describe(kind), transpose_cuda(kind)).reference = "transpose";
#endif
  }

  // --- The blurs: chapter 03's, and Apple's pipeline ---------------------------------------
  // rgv_rgh and fir_separable are chapter 03's variants, built from chapter
  // 03's kernels and set-ups; rgv_t_rgv_t is new: both recursive passes walk
  // down columns, and the transposes turn rows into columns and back.
  const char* rgv_rgh = "chapter 03's recursive blur: rgv into a float image, then rgh (uncoalesced) into the output";
  const char* pipeline = "rgv, transpose (32x8), rgv, transpose back: every access coalesced (Apple's fix)";
  const char* fir = "chapter 03's separable FIR Gaussian, one item per pixel (for Apple's estimate table)";
  chapter.add_opencl("rgv_rgh", rgv_rgh, chapter03::recursive_blur_opencl()).reference = "recursive";
  chapter.add_opencl("rgv_t_rgv_t", pipeline, pipeline_opencl()).reference = "recursive";
  chapter.add_opencl("fir_separable", fir, chapter03::fir_separable_opencl());
  // Both blurs again with chapter 03's batched passes: 32 values loaded per
  // item before the arithmetic, so that each recursive pass keeps 32 loads in
  // flight instead of one; then the coalesced rgV pays off, and the pipeline
  // is worth its transposes.
  const char* rgv_rgh_b32 = "rgv_rgh with 32 values in flight per item (chapter 03's rgv_b32, then rgh_b32)";
  const char* pipeline_b32 = "rgv_t_rgv_t with 32 values in flight per item in both rgv passes";
  chapter.add_opencl("rgv_rgh_b32", rgv_rgh_b32, chapter03::recursive_blur_opencl(32)).reference = "recursive";
  chapter.add_opencl("rgv_t_rgv_t_b32", pipeline_b32, pipeline_opencl(32)).reference = "recursive";
#ifdef GAUSS_HAVE_CUDA
  chapter.add_cuda("rgv_rgh", rgv_rgh, chapter03::recursive_blur_cuda()).reference = "recursive";
  chapter.add_cuda("rgv_t_rgv_t", pipeline, pipeline_cuda()).reference = "recursive";
  chapter.add_cuda("fir_separable", fir, chapter03::fir_separable_cuda());
  chapter.add_cuda("rgv_rgh_b32", rgv_rgh_b32, chapter03::recursive_blur_cuda(32)).reference = "recursive";
  chapter.add_cuda("rgv_t_rgv_t_b32", pipeline_b32, pipeline_cuda(32)).reference = "recursive";
#endif
  chapter.set_baseline("cpu_recursive");

  // --- The transposes on float images ---------------------------------------------------
  // The pipeline transposes floats, as Apple's kernels do: 4-byte values
  // make the local-memory bank conflicts of the unpadded tile worst.
  chapter.add_section("transpose_float", "The transposes on a float image (the pipeline's element type)",
                      transpose_float_section);

  // --- Apple's estimates, from this run's copy ---------------------------------------------
  // Apple estimated each algorithm's speed from the copy rate and the floats
  // it reads and writes per pixel. The same arithmetic with this run's copy,
  // beside what this run measured.
  chapter.add_section("estimates", "Apple's estimate table, recomputed from this run's copy", estimates_section);

  // The exercise (README, section Exercise): transpose_tiled in
  // transpose.cl/.cu, its tile load, barrier and transposed store left to the
  // student. The three 16 x 16 variants run it: unpadded, padded, skewed.
  chapter.set_exercise("transpose.cl", {"transpose_16", "transpose_16_padded", "transpose_16_skewed"});
  return chapter;
}

}  // namespace chapter04

#ifndef GAUSS_CHAPTER_NO_MAIN
int main(int argc, char** argv) { return chapter04::make_chapter().run(argc, argv); }
#endif
