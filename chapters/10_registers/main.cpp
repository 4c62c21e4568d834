// Chapter 10: one pass in registers: a ring of rows, neighbours by shuffle.
//
// Chapter 05's step staged a tile in local memory, summed its rows into a
// second tile behind a barrier, then its columns. This chapter's step keeps
// every sum in registers instead. A warp owns a vertical strip of the image
// and walks down it:
//
//   - each lane loads 8 or 16 bytes of a row with one load, 4 or 6 rows ahead
//     of their use, so that several DRAM requests are in flight per lane;
//   - each byte becomes a float once, by a byte permute and a subtraction,
//     into a ring of the last 2R+1 rows, kept in registers (the row loop is
//     unrolled, so every ring index is a constant);
//   - each output row's vertical sums come from the ring, and the R sums on
//     each side of a lane's pixels from its neighbours by warp shuffle (CUDA);
//     OpenCL C 1.2 has no shuffle, so each work-item sums its own halo too.
//
// One pass over DRAM, gray and RGBA, any radius 1 to 16, any size: the shapes
// (pixels per lane, rows per warp, rows ahead, and the tile kernels for wide
// radii) are in ring_plan.hpp, the OpenCL set-up in ring_opencl.hpp (later
// chapters fall back to it), the kernels in blur_ring.cl and blur_ring.cu.
//
// Beside them, borrowed unchanged: the previous steps, chapter 05's `main`
// (gray) and chapter 07's (RGBA). The section `shapes` (on request) times
// the launch shapes that ring_plan.hpp chose from. The lesson is in
// README.md beside this file.
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "gauss/borrow.hpp"
#include "gauss/chapter.hpp"
#include "gauss/copy_sweep.hpp"
#include "gauss/reference.hpp"
#include "gauss/runners.hpp"
#include "ring_opencl.hpp"
#include "ring_plan.hpp"
#ifdef GAUSS_HAVE_CUDA
#include "blur_ring.cuh"
#include "gauss/cuda.hpp"
#include "gauss/lesson_launch.hpp"
#endif

// The previous steps' chapters (their main.cpp; CMakeLists.txt links their
// lessons).
namespace chapter05 {
gauss::Chapter make_chapter();
}
namespace chapter07 {
gauss::Chapter make_chapter();
}

namespace chapter10 {
namespace {

// --- The section `shapes`: how ring_plan.hpp's shapes were chosen ----------------
// At radius 2, each shape against the copy of the same image and API: OpenCL's
// rows per item and rows loaded ahead set at run time (-D options), CUDA's
// shapes compiled into blur_ring.cu (the first of each list is the one
// launch_blur_ring uses).

// A point of the section: the step in another shape, checked like `main`.
gauss::Variant shape_point(gauss::PixelFormat format, gauss::Api api) {
  gauss::Variant v;
  v.name = format == gauss::PixelFormat::Rgba ? "main_rgba" : "main";
  v.api = api;
  v.tolerance = gauss::kFloatTolerance;
  return v;
}

void shapes(gauss::SectionContext& context) {
  const gauss::RunSettings settings{context.options.warmup, context.options.repeat, 0.0};
  const gauss::BlurSpec blur{context.blur.sigma, 2};
  for (gauss::PixelFormat format : {gauss::PixelFormat::Gray, gauss::PixelFormat::Rgba}) {
    const gauss::Image input = gauss::convert(context.input, format);
    const gauss::Image reference = gauss::blur_reference(input, blur);
    if (context.opencl != nullptr) {
      gauss::OpenClRunner runner(*context.opencl, input);
      const gauss::VariantResult copy = runner.copy(settings);
      std::vector<gauss::SweepPoint> points;
      for (int rows : {16, 32})
        for (int ahead : {0, 4, 6, 8}) {
          if (input.channels == 4 && ahead == 4) continue;  // RGBA: 0, 6, 8
          gauss::Variant v = shape_point(format, gauss::Api::OpenCL);
          v.opencl = [rows, ahead](gauss::OpenClSession& cl, const gauss::Problem& p) {
            return ring::opencl_shaped(cl, p, rows, ahead);
          };
          const std::string label =
              std::to_string(rows) + " rows, " + (ahead == 0 ? std::string("none") : std::to_string(ahead)) + " ahead";
          points.push_back({label, copy, runner.run(v, blur, reference, settings), gauss::shape_of(input, blur)});
        }
      context.out << gauss::name_of(format) << ", OpenCL:\n";
      gauss::print_sweep(context, "shape", points, context.opencl->info.name);
    }
#ifdef GAUSS_HAVE_CUDA
    if (context.cuda != nullptr) {
      gauss::CudaRunner runner(*context.cuda, input);
      const gauss::VariantResult copy = runner.copy(settings);
      std::vector<gauss::SweepPoint> points;
      for (int shape = 0; shape < ring_shape_count(input.channels); ++shape) {
        gauss::Variant v = shape_point(format, gauss::Api::Cuda);
        v.cuda =
            gauss::lesson::cuda_launch([shape](const std::uint8_t* in, std::uint8_t* out, const gauss::Problem& p,
                                               cudaStream_t stream) { launch_ring_shape(in, out, p, shape, stream); });
        points.push_back({ring_shape_name(input.channels, shape), copy, runner.run(v, blur, reference, settings),
                          gauss::shape_of(input, blur)});
      }
      context.out << gauss::name_of(format) << ", CUDA (first row: the shape launch_blur_ring uses):\n";
      gauss::print_sweep(context, "shape", points, context.cuda->name);
    }
#endif
  }
}

}  // namespace

gauss::Chapter make_chapter() {
  gauss::Chapter chapter("10_registers", "one pass in registers: a ring of rows, neighbours by shuffle");

  // --- The main line's step, first: one pass, the sums in registers ---------------
  // The same set-up serves gray and RGBA (the format picks the kernel's shape).
  const char* gray =
      "main line: warp strips, a ring of 2R+1 float rows in registers, 16-byte loads 4 rows ahead; "
      "neighbours' sums by shuffle (CUDA) or summed by each item (OpenCL)";
  const char* rgba = "main line on RGBA: the same, 4 pixels per lane, 6 rows ahead, alpha carried";
  chapter.add_opencl("main", gray, ring::opencl_setup).line = "main";
  gauss::Variant& main_rgba_opencl = chapter.add_opencl("main_rgba", rgba, ring::opencl_setup);
  main_rgba_opencl.format = gauss::PixelFormat::Rgba;
  main_rgba_opencl.line = "main";
#ifdef GAUSS_HAVE_CUDA
  const gauss::CudaSetup ring_cuda = gauss::lesson::cuda_launch(launch_blur_ring);
  chapter.add_cuda("main", gray, ring_cuda).line = "main";
  gauss::Variant& main_rgba_cuda = chapter.add_cuda("main_rgba", rgba, ring_cuda);
  main_rgba_cuda.format = gauss::PixelFormat::Rgba;
  main_rgba_cuda.line = "main";
#endif

  // --- The previous steps, borrowed unchanged ---------------------------------------
  // Chapter 05's `main` (gray; chapter 06 carries it forward) and chapter
  // 07's (RGBA): what this chapter's step is measured against. Speed-ups are
  // against chapter 05's.
  static const gauss::Chapter ch05 = chapter05::make_chapter();
  static const gauss::Chapter ch07 = chapter07::make_chapter();
  gauss::borrow(chapter, ch05, "main");
  gauss::borrow(chapter, ch07, "main");
  chapter.set_baseline("ch05_main");

  // --- How the shapes were chosen (on request) ---------------------------------------
  chapter.add_section("shapes", "launch shapes compared at radius 2: pixels per lane, rows per warp, rows ahead",
                      shapes, gauss::Chapter::SectionRuns::OnRequest);

  // The exercise (README, section Exercise): blur_ring.cl/.cu with the
  // vertical sums over the ring (and OpenCL's tile kernel's), and CUDA's
  // neighbours' sums by warp shuffle, left for the student.
  chapter.set_exercise("blur_ring.cl", {"main", "main_rgba"});
  return chapter;
}

}  // namespace chapter10

// The tests link this file without main() (GAUSS_CHAPTER_NO_MAIN) and run the
// very same variants on the golden images.
#ifndef GAUSS_CHAPTER_NO_MAIN
int main(int argc, char** argv) { return chapter10::make_chapter().run(argc, argv); }
#endif
