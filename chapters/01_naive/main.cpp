// Chapter 01: the naive blur.
//
// The starting point of the tutorial, and the yardstick for every chapter
// after it: a 5x5 Gaussian blur of an 8-bit gray photograph computed
//
//   - on the CPU, one thread and then every thread (the reference in double),
//   - on the GPU with the simplest kernel there is: one work-item (OpenCL) or
//     thread (CUDA) per output pixel, each reading its 25 neighbours straight
//     from global memory.
//
// The program runs each variant, checks its output against the CPU reference
// (every pixel, borders included), times it with device events and prints a
// table. Beside ours, the Fixstars seminar's first kernel as published, for a
// like-for-like comparison. The lesson is in README.md beside this file.
#include <string>

#include "blur_naive_cl.hpp"  // the OpenCL kernel, embedded at build time from blur_naive.cl
#include "gauss/chapter.hpp"
#include "gauss/reference.hpp"
#include "gauss/seminar.hpp"
#include "seminar_simple_cl.hpp"  // the seminar's kernel, ported to OpenCL C
#ifdef GAUSS_HAVE_CUDA
#include "blur_naive.cuh"      // the CUDA kernel's launcher, in blur_naive.cu
#include "seminar_simple.cuh"  // the seminar's, in seminar_simple.cu
#endif

namespace chapter01 {
namespace {

// The work-group (OpenCL) and block (CUDA) shape: 16 x 16 = 256 items.
// Chapter 02 measures other shapes; any shape works because of the rounding
// and the bounds guard below.
constexpr int kGroupX = 16;
constexpr int kGroupY = 16;

}  // namespace

gauss::Chapter make_chapter() {
  gauss::Chapter chapter("01_naive", "the naive blur, one work-item per output pixel");

  // --- The CPU -------------------------------------------------------------
  // The reference itself, in double precision: first on one thread (the
  // baseline every speed-up in the tutorial is measured against), then with
  // the rows split between all hardware threads.
  chapter.add_cpu("cpu_single", "CPU reference (double), one thread",
                  [](const gauss::Image& in, gauss::Image& out, const gauss::BlurSpec& blur) {
                    gauss::blur_reference(in, out, blur, gauss::ReferenceMethod::Direct2D, 1);
                  });
  chapter.add_cpu("cpu_threads", "CPU reference (double), all hardware threads",
                  [](const gauss::Image& in, gauss::Image& out, const gauss::BlurSpec& blur) {
                    gauss::blur_reference(in, out, blur, gauss::ReferenceMethod::Direct2D, 0);
                  });

  // --- OpenCL --------------------------------------------------------------
  gauss::Variant& naive_opencl = chapter.add_opencl(
      "naive", "one work-item per output pixel, 16x16 work-groups, weights in registers",
      [](gauss::OpenClSession& cl, const gauss::Problem& p) -> gauss::OpenClLaunch {
        // Set-up, once: compile blur_naive.cl for this device with the radius
        // as a compile-time constant, so that its loops unroll.
        cl::Kernel kernel =
            cl.kernel(gauss::embedded::blur_naive_cl, "blur_naive", "-D RADIUS=" + std::to_string(p.blur.radius));

        // One work-item per pixel. In OpenCL 1.2 the global size must be a
        // multiple of the work-group size, so round it up; the work-items
        // that land past the image's edge return at the kernel's bounds guard.
        const cl::NDRange local(kGroupX, kGroupY);
        const cl::NDRange global(gauss::round_up(p.image.width, kGroupX), gauss::round_up(p.image.height, kGroupY));

        // The launch, once per timed run: this run's buffers, then the kernel.
        return [&cl, kernel, global, local, p](const cl::Buffer& in, const cl::Buffer& out) mutable {
          kernel.setArg(0, in);
          kernel.setArg(1, out);
          kernel.setArg(2, p.image.width);
          kernel.setArg(3, p.image.height);
          kernel.setArg(4, p.image.pitch);
          kernel.setArg(5, p.taps);  // the weights, by value
          cl::Event done;            // its profiling counters time the kernel
          cl.queue.enqueueNDRangeKernel(kernel, cl::NullRange, global, local, nullptr, &done);
          return std::vector<cl::Event>{done};
        };
      });
  // The tutorial's main line starts here: chapters 02-07 and 10-14 each add one
  // technique to the best kernel so far (their variant `main`).
  naive_opencl.line = "main";

  // --- CUDA ----------------------------------------------------------------
  // The same kernel. The grid arithmetic is in blur_naive.cu, beside the
  // <<<grid, block>>> launch that only nvcc understands.
#ifdef GAUSS_HAVE_CUDA
  gauss::Variant& naive_cuda =
      chapter.add_cuda("naive", "one thread per output pixel, 16x16 blocks, weights in registers",
                       [](const gauss::Problem& p) -> gauss::CudaLaunch {
                         return [p](const std::uint8_t* in, std::uint8_t* out, cudaStream_t stream) {
                           launch_blur_naive(in, out, p, dim3(kGroupX, kGroupY), stream);
                         };
                       });
  naive_cuda.line = "main";
#endif

  // --- The seminar's kernel, as published ------------------------------------
  // Fixstars' "Simple" kernel: 32x32 groups, no clamps, its weights a table of
  // literals. It computes a top-left anchored "valid" blur, so it runs on the
  // image padded by 2 pixels per side (by the host, untimed), whose valid part
  // is our clamped, centred blur: checked like ours (README, "The seminar's kernel").
  const char* seminar = "the Fixstars seminar's Simple kernel as published: 32x32, unclamped, padded input";
  chapter.add_opencl(
      "seminar_simple", seminar,
      gauss::seminar::opencl_setup(gauss::embedded::seminar_simple_cl, "seminar_simple", {32, 32}, false));
#ifdef GAUSS_HAVE_CUDA
  chapter.add_cuda("seminar_simple", seminar, gauss::seminar::cuda_setup(launch_seminar_simple));
#endif

  // After the table: the same kernel timed three ways, to show why a host
  // clock read right after the launch measures nothing but the launch.
  chapter.show_timer_lesson("naive");

  // The exercise (README, section Exercise): blur_naive.cl/.cu with the index
  // mapping, the bounds guard and the clamps left for the student to write.
  chapter.set_exercise("blur_naive.cl", {"naive"});
  return chapter;
}

}  // namespace chapter01

// The tests link this file without main() (GAUSS_CHAPTER_NO_MAIN) and run the
// very same variants on the golden images.
#ifndef GAUSS_CHAPTER_NO_MAIN
int main(int argc, char** argv) { return chapter01::make_chapter().run(argc, argv); }
#endif
