// Chapter 07: colour, and how a pixel's bytes are packed.
//
// The blur of a colour photo is three gray blurs, one per channel. How the
// channels lie in memory decides how many loads a tap costs and whether they
// are aligned:
//
//   rgb24      R,G,B in 3 bytes: three byte loads per tap, rows not 4-byte aligned
//   rgba32     R,G,B,A in 4 bytes: one aligned 32-bit load per tap, float4 sums
//   rgba32_prmt rgba32 with each byte made a float by a byte permute and a subtraction
//   rgba32_x4  four RGBA pixels per item: 16-byte loads, each byte converted once
//   planar     three planes (all R, all G, all B), each blurred as gray; the
//              split and the join are part of its time
//   alpha_zero rgba32 as the Fixstars seminar wrote it: alpha = 0 (a known bug)
//
// The main line's step (main, listed first): chapter 05's fused separable
// kernel on RGBA, one 32-bit word per pixel in and out (chapter 06 carries
// chapter 05's kernel forward unchanged).
//
// Every output carries its input pixel's alpha through, and the tests use
// random alpha to check it. The Fixstars seminar measured RGB24 at 4.83 ms and
// RGBA32 at 3.69 ms; the lesson is in README.md beside this file. The planar
// variant, its section, and the group shape every kernel runs in (kShape,
// the seminar's 32x8) are in planar.hpp, this chapter's second program part.
#include <cstdint>
#include <stdexcept>
#include <string>

#include "blur_rgba_cl.hpp"
#include "blur_rgba_main.hpp"     // the main line's tile height
#include "blur_rgba_main_cl.hpp"  // the main line's kernel
#include "blur_rgba_prmt_cl.hpp"  // rgba32_prmt
#include "gauss/chapter.hpp"
#include "gauss/lesson_launch.hpp"
#include "gauss/reference.hpp"
#include "planar.hpp"  // the planar variant and its section
#ifdef GAUSS_HAVE_CUDA
#include "blur_rgba.cuh"
#include "blur_rgba_main.cuh"
#include "blur_rgba_prmt.cuh"
#include "gauss/cuda.hpp"
#endif

namespace chapter07 {
namespace {

// --- The interleaved kernels (OpenCL) -------------------------------------------
// One item per pixel, or per four pixels for the _x4 kernel.
gauss::OpenClSetup interleaved_opencl(const char* kernel_name, int pixels_per_item, std::string extra_options = "",
                                      const gauss::OpenClSource& source = gauss::embedded::blur_rgba_cl) {
  return [=](gauss::OpenClSession& cl, const gauss::Problem& p) {
    cl::Kernel kernel = gauss::lesson::blur_kernel(cl, source, kernel_name, radius_option(p) + extra_options, p);
    gauss::ImageGeometry items = p.image;
    items.width = (p.image.width + pixels_per_item - 1) / pixels_per_item;
    return gauss::lesson::enqueue_kernel(cl, kernel, gauss::lesson::global_for(items, kShape),
                                         cl::NDRange(kShape.x, kShape.y));
  };
}

// --- The main line: chapter 05's kernel on RGBA ------------------------------------
// 32x8 groups, each owning 32 x rgba_main_tile_rows(R) pixels, as many rows as
// the device's local memory holds (at most 64, in at most 48 KB).
gauss::OpenClLaunch rgba_main_opencl(gauss::OpenClSession& cl, const gauss::Problem& p) {
  const int tile_rows = rgba_main_tile_rows(p.blur.radius, cl.info.local_memory);
  if (tile_rows == 0)
    throw std::runtime_error("blur_rgba_main: the device's local memory holds no tile at this radius");
  cl::Kernel kernel = gauss::lesson::blur_kernel(cl, gauss::embedded::blur_rgba_main_cl, "blur_rgba_staged",
                                                 radius_option(p) + " -D TILE_ROWS=" + std::to_string(tile_rows), p);
  const cl::NDRange global(gauss::round_up(p.image.width, 32),
                           gauss::round_up(p.image.height, tile_rows) / tile_rows * 8);
  return gauss::lesson::enqueue_kernel(cl, kernel, global, cl::NDRange(32, 8));
}

#ifdef GAUSS_HAVE_CUDA
// --- The interleaved kernels (CUDA) ---------------------------------------------
gauss::CudaSetup colour_cuda(ColourKernel kernel) {
  return gauss::lesson::cuda_launch([kernel](const std::uint8_t* in, std::uint8_t* out, const gauss::Problem& p,
                                             cudaStream_t stream) { launch_blur_colour(kernel, in, out, p, stream); });
}
#endif

}  // namespace

gauss::Chapter make_chapter() {
  gauss::Chapter chapter("07_rgba_packing", "colour: RGB24, RGBA32, planar, four pixels per item",
                         gauss::PixelFormat::Rgba);

  // --- The main line, first: chapter 05's fused kernel on RGBA, alpha carried ---------------
  const char* main_line =
      "main line: chapter 05's fused kernel on RGBA, 32x64 tiles in local memory, one word per pixel";
  chapter.add_opencl("main", main_line, rgba_main_opencl).line = "main";
#ifdef GAUSS_HAVE_CUDA
  chapter.add_cuda("main", main_line, gauss::lesson::cuda_launch(launch_blur_rgba_main)).line = "main";
#endif

  // --- The CPU: the baseline of the speed-up column (RGBA) ---------------------
  chapter.add_cpu("cpu_single", "CPU reference (double), one thread",
                  [](const gauss::Image& in, gauss::Image& out, const gauss::BlurSpec& blur) {
                    gauss::blur_reference(in, out, blur, gauss::ReferenceMethod::Direct2D, 1);
                  });

  // --- OpenCL ---------------------------------------------------------------------------
  // 3 bytes a pixel: three byte loads a tap (vload3), rows of any alignment.
  chapter
      .add_opencl("rgb24", "RGB24, 3 bytes a pixel: vload3, three byte loads per tap",
                  interleaved_opencl("blur_rgb24", 1))
      .format = gauss::PixelFormat::Rgb;
  // Three planes, each blurred as gray; the split and the join are timed too.
  chapter.add_opencl("planar", "three planes (R, G, B), each blurred as gray; split and join included", planar_opencl)
      .format = gauss::PixelFormat::Rgb;
  // 4 bytes a pixel: one aligned 32-bit load a tap, float4 arithmetic.
  chapter.add_opencl("rgba32", "RGBA32, 4 bytes a pixel: one 32-bit load per tap, float4 sums, alpha kept",
                     interleaved_opencl("blur_rgba32", 1));
  // rgba32 with a byte-permute unpack: each byte as the float 2^23 + byte, minus 2^23.
  chapter.add_opencl("rgba32_prmt", "rgba32, each byte unpacked as as_float(0x4B0000bb) - 2^23 (no integer-to-float)",
                     interleaved_opencl("blur_rgba32_prmt", 1, "", gauss::embedded::blur_rgba_prmt_cl));
  // Four pixels an item: 16-byte loads, each byte converted once per row.
  chapter.add_opencl("rgba32_x4", "RGBA32, four pixels per item: 16-byte loads, each byte converted once",
                     interleaved_opencl("blur_rgba32_x4", 4));
  // The seminar's kernel wrote alpha = 0: kept to be caught.
  const std::string alpha_bug =
      "alpha is written as 0, as in the seminar's GaussianKernelColor4; the reference "
      "keeps each pixel's alpha";
  chapter
      .add_opencl("alpha_zero", "rgba32 as the seminar wrote it: alpha = 0",
                  interleaved_opencl("blur_rgba32", 1, " -D ALPHA_ZERO"))
      .known_bug = alpha_bug;

  // --- CUDA -------------------------------------------------------------------------------
#ifdef GAUSS_HAVE_CUDA
  chapter
      .add_cuda("rgb24", "RGB24, 3 bytes a pixel: uchar3, three byte loads per tap", colour_cuda(ColourKernel::Rgb24))
      .format = gauss::PixelFormat::Rgb;
  chapter.add_cuda("planar", "three planes (R, G, B), each blurred as gray; split and join included", planar_cuda)
      .format = gauss::PixelFormat::Rgb;
  chapter.add_cuda("rgba32", "RGBA32, 4 bytes a pixel: one 32-bit load per tap, float4 sums, alpha kept",
                   colour_cuda(ColourKernel::Rgba32));
  chapter.add_cuda("rgba32_prmt", "rgba32, each byte unpacked by one byte permute and one subtraction (no I2F)",
                   gauss::lesson::cuda_launch(launch_blur_rgba32_prmt));
  chapter.add_cuda("rgba32_x4", "RGBA32, four pixels per thread: 16-byte loads, each byte converted once",
                   colour_cuda(ColourKernel::Rgba32x4));
  chapter.add_cuda("alpha_zero", "rgba32 as the seminar wrote it: alpha = 0", colour_cuda(ColourKernel::AlphaZero))
      .known_bug = alpha_bug;
#endif

  // --- After the table: the planar variant's stages, timed apart ----------------------------
  chapter.add_section("planar_split", "planar: the split, the blur of the planes and the join, timed apart",
                      planar_split);

  // The exercise (README, section Exercise): the main line's step,
  // blur_rgba_main.cl/.cu with the unpacking of a pixel word into four
  // floats and the packing back left for the student to write.
  chapter.set_exercise("blur_rgba_main.cl", {"main"});
  return chapter;
}

}  // namespace chapter07

#ifndef GAUSS_CHAPTER_NO_MAIN
int main(int argc, char** argv) { return chapter07::make_chapter().run(argc, argv); }
#endif
