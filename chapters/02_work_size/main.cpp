// Chapter 02: the work-group size.
//
// Chapter 01 launched its blur in 16 x 16 work-groups without saying why.
// This chapter keeps the kernel exactly as it was and changes only the shape
// of the groups it is launched in:
//
//   - the blur in every shape from 1 x 1 to the device's maximum, 1-D and 2-D,
//     and in the shape the runtime picks itself (OpenCL's NULL local size,
//     CUDA's cudaOccupancyMaxPotentialBlockSize), each checked against the
//     CPU reference like any variant;
//   - rigaya's experiment: an add kernel in {1,1} and {32,1} groups, timed
//     with the seed's host clock stopped right after the enqueue, with
//     clFinish, and with profiling events;
//   - toropippi's compute-bound loop swept over group sizes 1..1024 (on
//     request), with the theoretical occupancy of each point, plain and with
//     dynamic local memory reserved to limit how many groups a compute unit
//     holds.
//
// The main line's step (blur_rows.cl/.cu, variant `main`, listed first): the
// same blur in the best shape measured here, 32 x 8, with each work-item
// computing 8 pixels down a column from a window of rows kept in registers.
//
// The experiments behind the sections (rigaya's add, toropippi's loop, the
// limits that decide which shapes can run) are this chapter's second program
// part, in experiments.hpp: they launch kernels of their own, by hand. The
// lesson is in README.md beside this file.
#include <string>

#include "blur_naive_cl.hpp"  // chapter 01's kernel, embedded by chapter 01 (USES 01_naive)
#include "blur_rows_cl.hpp"   // the main line's kernel, embedded from blur_rows.cl
#include "experiments.hpp"
#include "gauss/chapter.hpp"
#include "gauss/reference.hpp"
#include "gauss/section_tools.hpp"
#ifdef GAUSS_HAVE_CUDA
#include "blur_rows.cuh"    // the main line's kernel, in blur_rows.cu
#include "blur_shapes.cuh"  // chapter 01's kernel again, with the CUDA runtime's limits
#include "gauss/cuda.hpp"
#endif

namespace chapter02 {
namespace {

// The shapes: powers of two in one dimension from a single item to 1024 (the
// most any NVIDIA GPU allows), a column of 32 (each warp spans 32 rows), the
// square and flat 2-D shapes other tutorials use (Fixstars: 32 x 32, then
// 32 x 8), all in one list so that every table row is a shape.
const Shape kShapes[] = {{1, 1},   {2, 1},    {4, 1},  {8, 1}, {16, 1},  {32, 1}, {64, 1}, {128, 1}, {256, 1},
                         {512, 1}, {1024, 1}, {1, 32}, {8, 8}, {16, 16}, {32, 8}, {64, 4}, {32, 32}};

// --- OpenCL ------------------------------------------------------------------
// Chapter 01's launch, with the local size as a parameter. A cl::NullRange
// local size lets the implementation choose; it must then be able to divide
// the global size, so that launch covers exactly the image.
gauss::OpenClLaunch opencl_blur_launch(gauss::OpenClSession& cl, cl::Kernel kernel, const gauss::Problem& p,
                                       cl::NDRange global, cl::NDRange local) {
  return [&cl, kernel, global, local, p](const cl::Buffer& in, const cl::Buffer& out) mutable {
    gauss::sections::set_args(kernel, in, out, p.image.width, p.image.height, p.image.pitch, p.taps);
    cl::Event done;
    cl.queue.enqueueNDRangeKernel(kernel, cl::NullRange, global, local, nullptr, &done);
    return std::vector<cl::Event>{done};
  };
}

cl::Kernel build_blur(gauss::OpenClSession& cl, const gauss::Problem& p) {
  return cl.kernel(gauss::embedded::blur_naive_cl, "blur_naive", "-D RADIUS=" + std::to_string(p.blur.radius));
}

gauss::OpenClSetup opencl_shape(Shape shape) {
  return [shape](gauss::OpenClSession& cl, const gauss::Problem& p) -> gauss::OpenClLaunch {
    cl::Kernel kernel = build_blur(cl, p);
    // A shape the device or this compiled kernel cannot run is refused here,
    // with the limit it breaks, before anything is enqueued.
    require_runnable(shape, opencl_blur_limits(cl, kernel), "OpenCL");
    // Whole groups: the global size rounded up, the bounds guard in the kernel.
    const cl::NDRange global(gauss::round_up(p.image.width, shape.x), gauss::round_up(p.image.height, shape.y));
    return opencl_blur_launch(cl, kernel, p, global, cl::NDRange(shape.x, shape.y));
  };
}

gauss::OpenClLaunch opencl_runtime_choice(gauss::OpenClSession& cl, const gauss::Problem& p) {
  const cl::NDRange global(p.image.width, p.image.height);  // exactly the image: nothing to round
  return opencl_blur_launch(cl, build_blur(cl, p), p, global, cl::NullRange);
}

// --- CUDA --------------------------------------------------------------------
// The same kernel launched with dim3 blocks; chapter 01's launcher rounds the
// grid up. CUDA has no "choose for me" launch: the runtime suggests a number
// of threads per block, and we use it as a 1-D block.
#ifdef GAUSS_HAVE_CUDA
gauss::CudaSetup cuda_shape(Shape shape) {
  return [shape](const gauss::Problem& p) -> gauss::CudaLaunch {
    require_runnable(shape, cuda_blur_limits(p.blur.radius), "CUDA");
    const dim3 block(shape.x, shape.y);
    return [p, block](const std::uint8_t* in, std::uint8_t* out, cudaStream_t stream) {
      launch_blur_naive(in, out, p, block, stream);
    };
  };
}

gauss::CudaLaunch cuda_runtime_choice(const gauss::Problem& p) {
  const dim3 block(blur_naive_limits(p.blur.radius).suggested_block, 1);
  return [p, block](const std::uint8_t* in, std::uint8_t* out, cudaStream_t stream) {
    launch_blur_naive(in, out, p, block, stream);
  };
}
#endif

// --- The main line ---------------------------------------------------------
// Chapter 01's blur in the shape this chapter finds best (32 x 8: a warp
// spans one row segment, 256 items), each item computing kMainRows pixels
// down its column (blur_rows.cl): a group covers 32 x 64 pixels.
constexpr Shape kMainShape{32, 8};
constexpr int kMainRows = 8;

gauss::OpenClLaunch opencl_main(gauss::OpenClSession& cl, const gauss::Problem& p) {
  cl::Kernel kernel = cl.kernel(gauss::embedded::blur_rows_cl, "blur_rows",
                                "-D RADIUS=" + std::to_string(p.blur.radius) + " -D ROWS=" + std::to_string(kMainRows));
  // One item per column and per kMainRows rows, rounded up to whole groups;
  // the kernel's guards idle the items (and rows) past the image.
  const int item_rows = (p.image.height + kMainRows - 1) / kMainRows;
  const cl::NDRange global(gauss::round_up(p.image.width, kMainShape.x), gauss::round_up(item_rows, kMainShape.y));
  return opencl_blur_launch(cl, kernel, p, global, cl::NDRange(kMainShape.x, kMainShape.y));
}

#ifdef GAUSS_HAVE_CUDA
gauss::CudaLaunch cuda_main(const gauss::Problem& p) {
  static_assert(kBlurRowsPerThread == kMainRows, "blur_rows.cu and blur_rows.cl compute as many rows per item");
  return [p](const std::uint8_t* in, std::uint8_t* out, cudaStream_t stream) {
    launch_blur_rows(in, out, p, dim3(kMainShape.x, kMainShape.y), stream);
  };
}
#endif

}  // namespace

gauss::Chapter make_chapter() {
  gauss::Chapter chapter("02_work_size", "the work-group size: chapter 01's blur in every group shape");

  // --- The main line: several pixels per work-item ------------------------------
  chapter
      .add_opencl("main", "main line: chapter 01's blur in 32x8 groups, 8 pixels per item down a column", opencl_main)
      .line = "main";
#ifdef GAUSS_HAVE_CUDA
  chapter.add_cuda("main", "main line: chapter 01's blur in 32x8 blocks, 8 pixels per thread down a column", cuda_main)
      .line = "main";
#endif

  // The CPU reference on every thread, as the yardstick of the speed-up column.
  chapter.add_cpu("cpu_threads", "CPU reference (double), all hardware threads",
                  [](const gauss::Image& in, gauss::Image& out, const gauss::BlurSpec& blur) {
                    gauss::blur_reference(in, out, blur, gauss::ReferenceMethod::Direct2D, 0);
                  });

  // --- The blur in every shape ------------------------------------------------
  for (const Shape shape : kShapes) {
    const std::string what = std::to_string(shape.x * shape.y) + "-item groups";
    chapter.add_opencl(shape_name(shape), "chapter 01's blur in " + shape_text(shape) + " work-groups (" + what + ")",
                       opencl_shape(shape));
#ifdef GAUSS_HAVE_CUDA
    chapter.add_cuda(shape_name(shape), "chapter 01's blur in " + shape_text(shape) + " blocks (" + what + ")",
                     cuda_shape(shape));
#endif
  }
  chapter.add_opencl("naive_auto", "chapter 01's blur, NULL local size: the OpenCL implementation picks the shape",
                     opencl_runtime_choice);
#ifdef GAUSS_HAVE_CUDA
  chapter.add_cuda("naive_auto",
                   "chapter 01's blur, 1-D blocks of the size cudaOccupancyMaxPotentialBlockSize suggests",
                   cuda_runtime_choice);
#endif

  // --- What the device allows ------------------------------------------------------
  // Before the experiments: the limits that decide which shapes can run at
  // all (the device's, and the compiled kernel's: registers per item), and
  // what the runtime suggests.
  chapter.add_section("group_limits", "What the device allows: work-group limits of the blur kernel",
                      group_limits_section);

  // --- The seed's experiment: {1,1} against {32,1}, and three clocks -----------
  // rigaya's add kernel on the seed's 2048 x 2048 ints (or the image size,
  // where --size is smaller), in 1 x 1 and 32 x 1 groups, each timed by the
  // seed's host clock stopped right after the enqueue, by the host clock
  // after clFinish, and by profiling events.
  chapter.add_section("rigaya_add", "rigaya's add kernel: local size {1,1} against {32,1}, and how to time it",
                      rigaya_add_section);

  // --- toropippi's compute-bound sweep (on request: its work does not shrink with --size)
  // 262,144 items, each 2048 steps of a sine and a division, in groups of 1,
  // 2, 4 ... 1024, with the theoretical occupancy of each point; then the
  // same with 32 KiB of local memory reserved per group, which caps the
  // number of groups a compute unit holds at once.
  chapter.add_section(
      "compute_sweep", "toropippi's compute-bound loop over group sizes 1..1024",
      [](gauss::SectionContext& context) { compute_sweep_section(context, 0); },
      gauss::Chapter::SectionRuns::OnRequest);
  chapter.add_section(
      "compute_sweep_reserved", "the same loop with 32 KiB of local memory reserved per group (residency limited)",
      [](gauss::SectionContext& context) { compute_sweep_section(context, kReservedBytes); },
      gauss::Chapter::SectionRuns::OnRequest);

  // The exercise (README, section Exercise): the main line's step,
  // blur_rows.cl/.cu, with the ring of rows (filling it, summing from it)
  // left to the student.
  chapter.set_exercise("blur_rows.cl", {"main"});
  return chapter;
}

}  // namespace chapter02

#ifndef GAUSS_CHAPTER_NO_MAIN
int main(int argc, char** argv) { return chapter02::make_chapter().run(argc, argv); }
#endif
