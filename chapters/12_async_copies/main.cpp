// Chapter 12: loads in flight without registers.
//
// Chapter 11's packed-half warp strips load each row a few rows before they
// use it, and a load in flight holds its destination register until the data
// arrives: the rows ahead cost registers, and registers cost warps. This
// chapter's kernel is the same strip with one change: the rows ahead travel
// by cp.async (Ampere and later) straight into shared memory, where they
// wait without holding a register, and each lane reads its row back just
// before it unpacks it. Same arithmetic, same weights, same error bound
// (half2_plan.hpp); every other blur falls back to chapter 10's float kernel.
//
// The second lesson is how to see what the compiler made of a kernel:
// `stack_frame` is the same kernel with its edge store written as the
// natural loop bounded at run time, which puts the lane's packed words in
// local memory in every row (README, section "Reading the SASS").
//
// In the same run, the step before: chapter 11's strips (ch11_main,
// ch11_main_rgba). The lesson is in README.md beside this file.
#include <string>
#include <vector>

#include "async_plan.hpp"
#include "blur_async_cl.hpp"  // blur_async.cl, embedded at build time
#include "gauss/borrow.hpp"
#include "gauss/chapter.hpp"
#include "gauss/section_tools.hpp"
#include "half2_plan.hpp"   // chapter 11: the packed-half weights, and which blurs they serve
#include "ring_opencl.hpp"  // chapter 10: the float kernel, for every other blur
#ifdef GAUSS_HAVE_CUDA
#include "blur_async.cuh"  // the CUDA launchers, in blur_async.cu
#include "blur_ring.cuh"   // chapter 10's float kernel
#endif

// The step before, whose variants run beside this chapter's (CMakeLists.txt
// links its lesson: LINKS).
namespace chapter11 {
gauss::Chapter make_chapter();
}

namespace chapter12 {
namespace {

// NVIDIA's platform takes inline PTX (half2 arithmetic, byte permutes,
// shuffles, cp.async); every other platform runs the portable OpenCL C.
bool use_ptx(const gauss::OpenClSession& cl) { return cl.info.platform_name.find("NVIDIA") != std::string::npos; }

// The OpenCL set-up: the packed-half strips where their error bound is
// proven (radius 2, sigma 1), chapter 10's float kernel for every other blur.
// The shape is baked into the program with -D options, so its loops unroll.
gauss::OpenClLaunch async_opencl_with(gauss::OpenClSession& cl, const gauss::Problem& p, bool stack_frame) {
  const auto weights = half2::half2_weights(p.blur);
  if (!weights) return ring::opencl_setup(cl, p);
  const gauss::ImageGeometry g = p.image;
  const int nb = async::lane_bytes(g.channels);
  const int rows = async::rows(g.channels);
  const std::string options = "-D CHANNELS=" + std::to_string(g.channels) + " -D NB=" + std::to_string(nb) +
                              " -D ROWS=" + std::to_string(rows) +
                              " -D AHEAD=" + std::to_string(async::ahead(g.channels)) +
                              " -D WARPS=" + std::to_string(async::kWarpsPerBlock) + (use_ptx(cl) ? " -D NV_PTX" : "") +
                              (stack_frame ? " -D STACK_FRAME" : "");
  cl::Kernel kernel = cl.kernel(gauss::embedded::blur_async_cl, "blur_half2_async", options);
  // One warp (32 items) per strip of 30 x nb bytes, WARPS warps stacked per group.
  const cl::NDRange local(32, async::kWarpsPerBlock);
  const cl::NDRange global(32 * ((g.width * g.channels + 30 * nb - 1) / (30 * nb)),
                           gauss::round_up((g.height + rows - 1) / rows, async::kWarpsPerBlock));
  // Buffers are aligned far beyond 16 bytes; rows are when the pitch is.
  const int aligned = g.pitch % nb == 0 ? 1 : 0;
  return [&cl, kernel, global, local, g, aligned, hw = *weights](const cl::Buffer& in, const cl::Buffer& out) mutable {
    gauss::sections::set_args(kernel, in, out, g.width, g.height, g.pitch, aligned, hw);
    cl::Event done;
    cl.queue.enqueueNDRangeKernel(kernel, cl::NullRange, global, local, nullptr, &done);
    return std::vector<cl::Event>{done};
  };
}

gauss::OpenClLaunch async_opencl(gauss::OpenClSession& cl, const gauss::Problem& p) {
  return async_opencl_with(cl, p, false);
}

gauss::OpenClLaunch stack_frame_opencl(gauss::OpenClSession& cl, const gauss::Problem& p) {
  return async_opencl_with(cl, p, true);
}

#ifdef GAUSS_HAVE_CUDA
// A launcher of blur_async.cu (false: the blur is not one it serves), with
// chapter 10's float kernel for every other blur. The grid arithmetic is in
// blur_async.cu, beside the <<<grid, block>>> launch that only nvcc understands.
using AsyncLauncher = bool (*)(const std::uint8_t* in, std::uint8_t* out, const gauss::Problem& problem,
                               cudaStream_t stream);
gauss::CudaSetup async_or_ring_cuda(AsyncLauncher launch_async) {
  return [launch_async](const gauss::Problem& p) -> gauss::CudaLaunch {
    return [p, launch_async](const std::uint8_t* in, std::uint8_t* out, cudaStream_t stream) {
      if (!launch_async(in, out, p, stream)) launch_blur_ring(in, out, p, stream);
    };
  };
}
#endif

}  // namespace

gauss::Chapter make_chapter() {
  gauss::Chapter chapter("12_async_copies", "loads in flight without registers: cp.async, and reading the SASS");

  // --- This step: chapter 11's strips, the rows ahead in shared memory ------
  const char* main_text = "packed-half strips, rows ahead in shared/local memory by cp.async; else chapter 10's";
  const char* rgba_text = "the same on RGBA (alpha carried)";
  const char* stack_text = "main with the edge store as a loop bounded at run time: packed words on the stack";
  chapter.add_opencl("main", main_text, async_opencl).line = "main";
  gauss::Variant& main_rgba_opencl = chapter.add_opencl("main_rgba", rgba_text, async_opencl);
  main_rgba_opencl.format = gauss::PixelFormat::Rgba;
  main_rgba_opencl.line = "main";
  chapter.add_opencl("stack_frame", stack_text, stack_frame_opencl);
#ifdef GAUSS_HAVE_CUDA
  chapter.add_cuda("main", main_text, async_or_ring_cuda(launch_blur_async)).line = "main";
  gauss::Variant& main_rgba_cuda = chapter.add_cuda("main_rgba", rgba_text, async_or_ring_cuda(launch_blur_async));
  main_rgba_cuda.format = gauss::PixelFormat::Rgba;
  main_rgba_cuda.line = "main";
  chapter.add_cuda("stack_frame", stack_text, async_or_ring_cuda(launch_blur_async_stack_frame));
#endif

  // --- The step before, borrowed unchanged -----------------------------------
  // Chapter 11's strips, rows ahead in registers: ch11_main, ch11_main_rgba.
  static const gauss::Chapter ch11 = chapter11::make_chapter();
  gauss::borrow(chapter, ch11, "main");
  gauss::borrow(chapter, ch11, "main_rgba");

  // The exercise (README, section Exercise): blur_async.cl/.cu with the
  // copies' issue, commit and wait and the slot's read left to the student.
  chapter.set_exercise("blur_async.cl", {"main", "main_rgba"});
  return chapter;
}

}  // namespace chapter12

// The tests link this file without main() (GAUSS_CHAPTER_NO_MAIN) and run the
// very same variants on the golden images.
#ifndef GAUSS_CHAPTER_NO_MAIN
int main(int argc, char** argv) { return chapter12::make_chapter().run(argc, argv); }
#endif
