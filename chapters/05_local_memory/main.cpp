// Chapter 05: local memory (CUDA: shared memory).
//
// Neighbouring work-items of the naive blur read almost the same pixels, each
// from global memory. A work-group can instead load the pixels it needs once,
// into the small fast memory it shares, and compute from there. This chapter
//
//   - keeps chapter 01's kernel, with the seminar's 32x8 groups, as the plain
//     kernel that relies on the L1 cache for the same reuse (naive_32x8);
//   - ports the Fixstars seminar's shared-memory kernel with its halo bug
//     (broken_halo: the program flags its mismatch), then fixes it: the tile
//     and its halo loaded by all items together, coordinates clamped (tiled);
//   - joins the two passes of a separable blur through local memory, with
//     work-groups that overlap and "fake" items at their edges (separable_local);
//   - reads the image through samplers / textures, which clamp in hardware
//     (image_nearest), and lets them mix two taps per read (image_linear);
//   - sweeps the group shape and prints what each shape wastes on the halo.
//
// The main line's step (main, listed first): chapter 03's kernel (4 pixels x
// 8 rows per item, 32-bit loads and stores) with the separable blur fused in
// local memory: a 32x8 group stages a 128 x 64 tile and its halo once, sums
// rows into a float tile, then columns: 2(2R+1) multiply-adds a pixel, not (2R+1)^2.
//
// Two host headers hold the rest: group_shapes.hpp, the tiled and separable
// kernels' set-ups for any group shape and the group-shape sweep; samplers.hpp,
// the image variants' set-ups in both APIs (in OpenCL, the image each run
// copies into) and the linear-sampling trick's taps and their precision (the
// tests check the taps' bound directly).
// The lesson is in README.md beside this file.
#include <algorithm>
#include <cstdlib>
#include <string>
#include <vector>

#include "blur_broken_halo_cl.hpp"  // the OpenCL kernel, embedded at build time
#include "blur_naive_cl.hpp"        // chapter 01's kernel
#include "blur_staged_setup.hpp"    // the main line's set-ups
#include "gauss/chapter.hpp"
#include "gauss/lesson_launch.hpp"
#include "gauss/reference.hpp"
#include "group_shapes.hpp"  // tiled and separable_local in any shape, and the sweep
#include "samplers.hpp"
#ifdef GAUSS_HAVE_CUDA
#include "blur_naive.cuh"
#include "blur_tiled.cuh"
#endif

namespace chapter05 {
namespace {

using gauss::lesson::GroupShape;

// The seminar's block shape, used by every kernel of the table.
constexpr GroupShape kSeminarShape{32, 8};
// The separable kernel's groups are one row of 256 items: the webinar's
// shape, whose overlap (2R of 256 items) is the smallest of the sweep.
constexpr GroupShape kSeparableShape{256, 1};

// The seminar's kernel, after chapter 01's kernel has written every pixel:
// its valid convolution never computes the R-pixel border ring, and the
// halo should be the only thing wrong. One item per window, as in the seminar.
gauss::OpenClLaunch broken_halo_opencl(gauss::OpenClSession& cl, const gauss::Problem& p) {
  const std::string radius = "-D RADIUS=" + std::to_string(p.blur.radius);
  cl::Kernel border = gauss::lesson::blur_kernel(cl, gauss::embedded::blur_naive_cl, "blur_naive", radius, p);
  cl::Kernel seminar =
      gauss::lesson::blur_kernel(cl, gauss::embedded::blur_broken_halo_cl, "blur_broken_halo", radius, p);
  const cl::NDRange local(kSeminarShape.x, kSeminarShape.y);
  const cl::NDRange all = gauss::lesson::global_for(p.image, kSeminarShape);
  // One item per window of the valid convolution, as in the seminar.
  const int valid_w = p.image.width - 2 * p.blur.radius;
  const int valid_h = p.image.height - 2 * p.blur.radius;
  const bool any_window = valid_w > 0 && valid_h > 0;
  const cl::NDRange windows(gauss::round_up(std::max(valid_w, 1), kSeminarShape.x),
                            gauss::round_up(std::max(valid_h, 1), kSeminarShape.y));
  return [&cl, border, seminar, all, windows, local, any_window](const cl::Buffer& in, const cl::Buffer& out) mutable {
    std::vector<cl::Event> events(1);
    border.setArg(0, in);
    border.setArg(1, out);
    cl.queue.enqueueNDRangeKernel(border, cl::NullRange, all, local, nullptr, &events[0]);
    if (any_window) {
      seminar.setArg(0, in);
      seminar.setArg(1, out);
      events.emplace_back();
      cl.queue.enqueueNDRangeKernel(seminar, cl::NullRange, windows, local, nullptr, &events[1]);
    }
    return events;
  };
}

}  // namespace

gauss::Chapter make_chapter() {
  gauss::Chapter chapter("05_local_memory", "local (shared) memory: tiles, halos, overlap, samplers");

  // --- The main line, first: chapter 03's kernel with its passes fused in local memory ---
  const char* main_line =
      "main line: 4 px x 8 rows per item, 128x64 tile + halo staged in local memory, row sums then column sums";
  chapter.add_opencl("main", main_line, staged_opencl).line = "main";
#ifdef GAUSS_HAVE_CUDA
  chapter.add_cuda("main", main_line, staged_cuda()).line = "main";
#endif

  // --- The CPU: the baseline of the speed-up column -------------------------
  chapter.add_cpu("cpu_single", "CPU reference (double), one thread",
                  [](const gauss::Image& in, gauss::Image& out, const gauss::BlurSpec& blur) {
                    gauss::blur_reference(in, out, blur, gauss::ReferenceMethod::Direct2D, 1);
                  });

  // --- 1. The plain kernel: every tap from global memory, through L1 ----------
  // Chapter 01's kernel with the seminar's 32x8 groups. Its 25 loads per
  // pixel mostly hit the L1 cache: the reuse local memory would make explicit.
  chapter.add_opencl("naive_32x8", "chapter 01's kernel, 32x8 groups: every tap a global load, L1 catches the reuse",
                     [](gauss::OpenClSession& cl, const gauss::Problem& p) {
                       cl::Kernel kernel = gauss::lesson::blur_kernel(cl, gauss::embedded::blur_naive_cl, "blur_naive",
                                                                      "-D RADIUS=" + std::to_string(p.blur.radius), p);
                       return gauss::lesson::enqueue_kernel(cl, kernel,
                                                            gauss::lesson::global_for(p.image, kSeminarShape),
                                                            cl::NDRange(kSeminarShape.x, kSeminarShape.y));
                     });

  // --- 2. The seminar's shared-memory kernel, with its halo bug -----------------
  // Kept to be caught: the program reports its mismatch, and the tests
  // require it. Chapter 01's kernel first writes every pixel, because the
  // seminar's valid convolution never computes the R-pixel border ring; then
  // the seminar's kernel overwrites the interior.
  const std::string halo_bug =
      "a tile cell is loaded only by a thread whose own window is inside the image, so unless width - 2R is a "
      "multiple of 32 and height - 2R of 8, the last blocks read halo cells no thread loaded";
  chapter
      .add_opencl("broken_halo", "the Fixstars seminar's shared-memory kernel (32x8), halo bug kept",
                  broken_halo_opencl)
      .known_bug = halo_bug;

  // --- 3. The fix: the whole tile, halo included, loaded by all items ---------
  chapter.add_opencl("tiled", "32x8 groups, tile + halo loaded cooperatively into local memory, clamped",
                     tiled_opencl(kSeminarShape));

  // --- 4. Separable in local memory: overlapping groups, fake items -------------
  chapter.add_opencl("separable_local",
                     "column sums into local memory, then row sums from it; 256x1 groups overlapping by 2R",
                     separable_local_opencl(kSeparableShape));

  // --- 5. Images and samplers: the texture unit clamps, and mixes ------------------
  // Oclgrind's uninitialised-value check (oclgrind --uninitialized, which the
  // tests run) misreports the values that image reads return: in work-groups
  // of more than one item, and depending on the pixels' values, even for a
  // ten-line kernel that reads a host-written image. The image variants are
  // left out when that check is on; PoCL runs them in the tests.
  if (std::getenv("OCLGRIND_UNINITIALIZED") == nullptr) {
    chapter.add_opencl("image_nearest", "image2d + sampler (CLK_ADDRESS_CLAMP_TO_EDGE): no clamp in the kernel",
                       image_opencl(kSeminarShape, false));
    chapter
        .add_opencl("image_linear", "image2d + linear sampler: two taps per read, 9 reads instead of 25 for R = 2",
                    image_opencl(kSeminarShape, true))
        .tolerance = kLinearSamplingTolerance;  // 8-bit mixing weights: samplers.hpp
  }

  // --- CUDA: the same steps ---------------------------------------------------------
#ifdef GAUSS_HAVE_CUDA
  using Bytes = const std::uint8_t*;
  chapter.add_cuda("naive_32x8", "chapter 01's kernel, 32x8 blocks: every tap a global load, L1 catches the reuse",
                   gauss::lesson::cuda_launch([](Bytes in, std::uint8_t* out, const gauss::Problem& p, cudaStream_t s) {
                     launch_blur_naive(in, out, p, dim3(kSeminarShape.x, kSeminarShape.y), s);
                   }));
  chapter
      .add_cuda("broken_halo", "the Fixstars seminar's shared-memory kernel (32x8), halo bug kept",
                gauss::lesson::cuda_launch([](Bytes in, std::uint8_t* out, const gauss::Problem& p, cudaStream_t s) {
                  launch_blur_naive(in, out, p, dim3(kSeminarShape.x, kSeminarShape.y), s);  // the border
                  launch_blur_broken_halo(in, out, p, s);
                }))
      .known_bug = halo_bug;
  chapter.add_cuda("tiled", "32x8 blocks, tile + halo loaded cooperatively into shared memory, clamped",
                   tiled_cuda(kSeminarShape));
  chapter.add_cuda("separable_local",
                   "column sums into shared memory, then row sums from it; 256x1 blocks overlapping by 2R",
                   separable_local_cuda(kSeparableShape));
  // Texture objects are CUDA's images: cudaAddressModeClamp is clamp-to-edge.
  chapter.add_cuda("image_nearest", "texture object (cudaAddressModeClamp, point filtering): no clamp in the kernel",
                   image_cuda(false));
  chapter
      .add_cuda("image_linear", "texture object, linear filtering: two taps per read, 9 reads instead of 25 for R = 2",
                image_cuda(true))
      .tolerance = kLinearSamplingTolerance;
#endif

  // --- After the table: the group shape ------------------------------------------
  chapter.add_section("group_shapes", "group shape: 256 items as 16x16 .. 256x1, and what each wastes on the halo",
                      group_shape_sweep);

  // The exercise (README, section Exercise): the main line's step,
  // blur_staged.cl/.cu, with the tile's load, both passes through local
  // memory and the barriers between them left for the student to write.
  chapter.set_exercise("blur_staged.cl", {"main"});
  return chapter;
}

}  // namespace chapter05

#ifndef GAUSS_CHAPTER_NO_MAIN
int main(int argc, char** argv) { return chapter05::make_chapter().run(argc, argv); }
#endif
