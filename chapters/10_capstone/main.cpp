// Chapter 10: the capstone. As fast as the memory allows.
//
// A blur that reads its input once and writes its output once can go no
// faster than a copy of the same bytes, and the copy is measured in the same
// run. This chapter's kernel aims at that ceiling: one pass over DRAM, wide
// loads and stores, every byte converted once, the vertical sums kept in
// registers, neighbours' sums shared between lanes instead of recomputed;
// at radius 2 (sigma 1) in packed halves over block tiles, each block's rows
// brought into shared memory at once. It runs gray and RGBA images, any
// radius from 1 to 16, any size.
//
// Beside it, in the same run: NPP's Gaussian filter (where the CUDA toolkit
// has NPP), the main line's earlier steps (chapters 01-07's `main`), so
// that one table shows the whole climb, the step before the tiles
// (`fused_strip`, `fused_rgba_strip`: each warp loads its own rows ahead into
// registers), and a candidate that keeps those rows ahead in shared memory by
// cp.async instead (`fused_async`, `fused_rgba_async`).
//
// The sections that show where the time goes (the ceiling, size, launch
// shape and radius sweeps, the ablation, each point against the copy) are
// this chapter's second program part, in sweeps.hpp; Apple's two roofs are in
// roofs.hpp; fused_plan.hpp is the kernels' plan, shared by blur_fused.cu and
// the OpenCL set-up below.
#include <cmath>
#include <iostream>
#include <memory>
#include <string>
#include <utility>

#include "blur_fused_cl.hpp"  // blur_fused.cl, embedded at build time
#include "blur_half2_cl.hpp"  // blur_half2.cl, likewise
#include "fused_plan.hpp"
#include "gauss/borrow.hpp"
#include "gauss/chapter.hpp"
#include "gauss/reference.hpp"
#include "roofs.hpp"   // the section roofs: Apple's two roofs and its timer
#include "sweeps.hpp"  // the sections: this chapter's second program part
#ifdef GAUSS_HAVE_CUDA
#include "blur_fused.cuh"
#include "blur_half2.cuh"
#include "gauss/cuda.hpp"
#endif
#ifdef GAUSS_HAVE_NPP
#include "gauss/npp_gauss.hpp"  // NPP, linked in CMakeLists.txt
#endif

// The earlier chapters, whose best steps run beside the capstone's kernel:
// each chapter's main.cpp defines its make_chapter(), and CMakeLists.txt
// links their lessons (LINKS).
#define GAUSS_EARLIER_CHAPTER(ns) \
  namespace ns {                  \
  gauss::Chapter make_chapter();  \
  }
GAUSS_EARLIER_CHAPTER(chapter01)
GAUSS_EARLIER_CHAPTER(chapter02)
GAUSS_EARLIER_CHAPTER(chapter03)
GAUSS_EARLIER_CHAPTER(chapter05)
GAUSS_EARLIER_CHAPTER(chapter07)
#undef GAUSS_EARLIER_CHAPTER

namespace chapter10 {
namespace {

// The OpenCL set-up: radius 1 and 2 take the strip kernel (16-byte loads, a
// ring of rows in registers), larger radii the tile kernel. The shape is
// baked into the program with -D options, so its loops unroll. The tuning
// section overrides rows per item and rows loaded ahead (0: the defaults).
gauss::OpenClLaunch fused_opencl_shaped(gauss::OpenClSession& cl, const gauss::Problem& p, int rows_override,
                                        int ahead_override) {
  const gauss::ImageGeometry g = p.image;
  const int channels = g.channels;
  const int radius = p.blur.radius;
  const int px = fused::opencl_pixels_per_item(channels);
  const int rows = rows_override > 0 ? rows_override : fused::opencl_rows_per_item(radius);
  const int ahead = ahead_override >= 0 ? ahead_override : fused::opencl_rows_ahead(channels);
  // Halve the tile where the device's local memory cannot hold it (RGBA at
  // large radii needs 37 KB; OpenCL promises only 32 KB).
  const int tile = fused::tile_bytes(fused::kTile, channels, radius) <= static_cast<int>(cl.info.local_memory)
                       ? fused::kTile
                       : fused::kTile / 2;
  const std::string options = "-D CHANNELS=" + std::to_string(channels) + " -D RADIUS=" + std::to_string(radius) +
                              " -D PX=" + std::to_string(px) + " -D ROWS=" + std::to_string(rows) +
                              " -D AHEAD=" + std::to_string(ahead) + " -D TILE=" + std::to_string(tile);
  const bool strip = fused::opencl_uses_strip(radius);
  cl::Kernel kernel = cl.kernel(gauss::embedded::blur_fused_cl, strip ? "blur_strip" : "blur_tile", options);

  cl::NDRange local(tile, tile);
  cl::NDRange global(gauss::round_up(g.width, tile), gauss::round_up(g.height, tile));
  if (strip) {
    // One item per PX x ROWS block of pixels, rounded up to whole groups.
    local = cl::NDRange(32, fused::kWarpsPerBlock);
    global = cl::NDRange(gauss::round_up((g.width + px - 1) / px, 32),
                         gauss::round_up((g.height + rows - 1) / rows, fused::kWarpsPerBlock));
  }
  // Buffers are aligned far beyond 16 bytes; rows are when the pitch is.
  const int aligned = g.pitch % 16 == 0 ? 1 : 0;
  return [&cl, kernel, global, local, p, strip, aligned](const cl::Buffer& in, const cl::Buffer& out) mutable {
    int arg = 0;
    kernel.setArg(arg++, in);
    kernel.setArg(arg++, out);
    kernel.setArg(arg++, p.image.width);
    kernel.setArg(arg++, p.image.height);
    kernel.setArg(arg++, p.image.pitch);
    if (strip) kernel.setArg(arg++, aligned);
    kernel.setArg(arg++, p.taps);
    cl::Event done;
    cl.queue.enqueueNDRangeKernel(kernel, cl::NullRange, global, local, nullptr, &done);
    return std::vector<cl::Event>{done};
  };
}

gauss::OpenClLaunch fused_f32_opencl(gauss::OpenClSession& cl, const gauss::Problem& p) {
  return fused_opencl_shaped(cl, p, 0, -1);
}

// The packed-half kernel (blur_half2.cl) where its error bound is proven
// (radius 2, sigma 1), the float kernels elsewhere. On NVIDIA's platform the
// half arithmetic, byte permutes and shuffles are inline PTX (-D NV_PTX);
// other devices run the same algorithm in portable OpenCL C.
gauss::OpenClLaunch half2_opencl_with(gauss::OpenClSession& cl, const gauss::Problem& p, const HalfKnobs& knobs) {
  const auto weights = fused::half2_weights(p.blur.radius, p.taps);
  if (!weights) return fused_f32_opencl(cl, p);
  const gauss::ImageGeometry g = p.image;
  const int nb = knobs.lane_bytes;
  const int rows = knobs.rows;
  const std::string options = "-D CHANNELS=" + std::to_string(g.channels) + " -D NB=" + std::to_string(nb) +
                              " -D ROWS=" + std::to_string(rows) + " -D AHEAD=" + std::to_string(knobs.ahead) +
                              " -D WARPS=" + std::to_string(fused::kWarpsPerBlock) + (knobs.ptx ? " -D NV_PTX" : "") +
                              (knobs.ptx && knobs.async ? " -D ASYNC" : "") + (knobs.tile ? " -D TILE" : "") +
                              (knobs.tile && knobs.one_in_flight ? " -D ONE_IN_FLIGHT" : "");
  cl::Kernel kernel = cl.kernel(gauss::embedded::blur_half2_cl, "blur_half2", options);
  // One warp (32 items) per strip of 30 x nb bytes, WARPS warps stacked per group.
  const cl::NDRange local(32, fused::kWarpsPerBlock);
  const cl::NDRange global(32 * ((g.width * g.channels + 30 * nb - 1) / (30 * nb)),
                           gauss::round_up((g.height + rows - 1) / rows, fused::kWarpsPerBlock));
  // Buffers are aligned far beyond 16 bytes; rows are when the pitch is (the
  // tiles copy 16-byte chunks).
  const int aligned = g.pitch % (knobs.tile ? 16 : nb) == 0 ? 1 : 0;
  return [&cl, kernel, global, local, g, aligned, hw = *weights](const cl::Buffer& in, const cl::Buffer& out) mutable {
    int arg = 0;
    kernel.setArg(arg++, in);
    kernel.setArg(arg++, out);
    kernel.setArg(arg++, g.width);
    kernel.setArg(arg++, g.height);
    kernel.setArg(arg++, g.pitch);
    kernel.setArg(arg++, aligned);
    kernel.setArg(arg++, hw);
    cl::Event done;
    cl.queue.enqueueNDRangeKernel(kernel, cl::NullRange, global, local, nullptr, &done);
    return std::vector<cl::Event>{done};
  };
}

gauss::OpenClLaunch fused_opencl(gauss::OpenClSession& cl, const gauss::Problem& p) {
  return half2_opencl_with(cl, p, shipped_half2_knobs(cl, p.image.channels));
}

// The cp.async candidate: on NVIDIA's platform rows ahead in local memory;
// elsewhere the same portable kernel as fused, in its own shape.
gauss::OpenClLaunch fused_async_opencl(gauss::OpenClSession& cl, const gauss::Problem& p) {
  return half2_opencl_with(cl, p, async_half2_knobs(cl, p.image.channels));
}

// The warp strips, rows ahead in registers: the capstone's fastest path
// until the block tiles (2026-11-26).
gauss::OpenClLaunch fused_strip_opencl(gauss::OpenClSession& cl, const gauss::Problem& p) {
  return half2_opencl_with(cl, p, strip_half2_knobs(cl, p.image.channels));
}

#ifdef GAUSS_HAVE_CUDA
// A packed-half CUDA kernel (blur_half2.cuh: each launcher returns false for
// a blur it does not serve), the float kernel for every other blur.
using Half2Launcher = bool (*)(const std::uint8_t* in, std::uint8_t* out, const gauss::Problem& problem,
                               cudaStream_t stream);
gauss::CudaSetup half2_or_f32_cuda(Half2Launcher launch_half2) {
  return [launch_half2](const gauss::Problem& p) -> gauss::CudaLaunch {
    return [p, launch_half2](const std::uint8_t* in, std::uint8_t* out, cudaStream_t stream) {
      if (!launch_half2(in, out, p, stream)) launch_blur_fused(in, out, p, stream);
    };
  };
}
#endif

}  // namespace

gauss::Chapter make_chapter() {
  gauss::Chapter chapter("10_capstone", "as fast as the memory allows: one pass over DRAM");

  // --- The way here: the main line, one step per chapter ----------------------
  // Each earlier chapter's `main` (chapter 04 carries 03's forward, chapter
  // 06 05's; chapters 08 and 09 are interludes), borrowed unchanged, so that
  // this table shows the whole climb. Speed-ups are against chapter 01's
  // naive kernel.
  static const gauss::Chapter ch01 = chapter01::make_chapter();
  static const gauss::Chapter ch02 = chapter02::make_chapter();
  static const gauss::Chapter ch03 = chapter03::make_chapter();
  static const gauss::Chapter ch05 = chapter05::make_chapter();
  static const gauss::Chapter ch07 = chapter07::make_chapter();
  gauss::borrow(chapter, ch01, "naive");
  gauss::borrow(chapter, ch02, "main");
  gauss::borrow(chapter, ch03, "main");
  gauss::borrow(chapter, ch05, "main");
  gauss::borrow(chapter, ch07, "main");
  chapter.set_baseline("ch01_naive");

  // The capstone: `fused` is the fastest path for each blur (packed halves
  // over block tiles at radius 2 with sigma 1, floats elsewhere); `fused_f32`
  // always sums in float, as every earlier chapter does, for comparison.
  chapter.add_opencl("fused", "packed-half block tiles at radius 2 (sigma 1), else fused_f32", fused_opencl).line =
      "main";
  gauss::Variant& fused_rgba_opencl =
      chapter.add_opencl("fused_rgba", "the same on RGBA (alpha carried)", fused_opencl);
  fused_rgba_opencl.format = gauss::PixelFormat::Rgba;
  fused_rgba_opencl.line = "main";
  // Candidates: the rows ahead in local memory by cp.async (inline PTX, so
  // on NVIDIA's platform; elsewhere the portable kernel in the same shape).
  chapter.add_opencl("fused_async", "fused with the rows ahead in local memory by cp.async, not in registers",
                     fused_async_opencl);
  chapter.add_opencl("fused_rgba_async", "the same on RGBA", fused_async_opencl).format = gauss::PixelFormat::Rgba;
  // The step before: warp strips, each warp loading its own rows ahead.
  chapter.add_opencl("fused_strip", "packed-half warp strips, rows ahead in registers (fused until 2026-11-26)",
                     fused_strip_opencl);
  chapter.add_opencl("fused_rgba_strip", "the same on RGBA", fused_strip_opencl).format = gauss::PixelFormat::Rgba;
  chapter.add_opencl("fused_f32", "float strips: 16-byte loads, vertical sums in registers, halo summed by each item",
                     fused_f32_opencl);
  chapter.add_opencl("fused_rgba_f32", "the same on RGBA", fused_f32_opencl).format = gauss::PixelFormat::Rgba;
#ifdef GAUSS_HAVE_CUDA
  const gauss::CudaSetup fused_cuda = half2_or_f32_cuda(launch_blur_half2);
  auto fused_f32_cuda = [](const gauss::Problem& p) -> gauss::CudaLaunch {
    return
        [p](const std::uint8_t* in, std::uint8_t* out, cudaStream_t stream) { launch_blur_fused(in, out, p, stream); };
  };
  chapter.add_cuda("fused", "packed-half block tiles at radius 2 (sigma 1), else fused_f32", fused_cuda).line = "main";
  gauss::Variant& fused_rgba_cuda = chapter.add_cuda("fused_rgba", "the same on RGBA (alpha carried)", fused_cuda);
  fused_rgba_cuda.format = gauss::PixelFormat::Rgba;
  fused_rgba_cuda.line = "main";
  // Candidates: the same packed-half strips with the rows ahead brought into
  // shared memory by cp.async, so loads in flight hold no register (README,
  // section "Loads in flight without registers").
  const gauss::CudaSetup fused_async_cuda = half2_or_f32_cuda(launch_blur_half2_async);
  chapter.add_cuda("fused_async", "fused with the rows ahead in shared memory by cp.async, not in registers",
                   fused_async_cuda);
  chapter.add_cuda("fused_rgba_async", "the same on RGBA", fused_async_cuda).format = gauss::PixelFormat::Rgba;
  // The step before: warp strips, each warp loading its own rows ahead.
  const gauss::CudaSetup fused_strip_cuda = half2_or_f32_cuda(launch_blur_half2_strips);
  chapter.add_cuda("fused_strip", "packed-half warp strips, rows ahead in registers (fused until 2026-11-26)",
                   fused_strip_cuda);
  chapter.add_cuda("fused_rgba_strip", "the same on RGBA", fused_strip_cuda).format = gauss::PixelFormat::Rgba;
  chapter.add_cuda("fused_f32", "float warp strips: 16-byte loads, vertical sums in registers, shuffles",
                   fused_f32_cuda);
  chapter.add_cuda("fused_rgba_f32", "the same on RGBA", fused_f32_cuda).format = gauss::PixelFormat::Rgba;
#endif
#ifdef GAUSS_HAVE_NPP
  // NPP needs the stream at set-up; the runner names it at the first launch
  // (a warm-up run), so the filter is made then, once.
  auto npp = [](const gauss::Problem& p) -> gauss::CudaLaunch {
    auto filter = std::make_shared<std::unique_ptr<gauss::NppGauss>>();
    return [p, filter](const std::uint8_t* in, std::uint8_t* out, cudaStream_t stream) {
      if (!*filter) *filter = std::make_unique<gauss::NppGauss>(p, stream);
      (*filter)->run(in, out);
    };
  };
  // NPP is someone else's code, run for its speed: its differences from the
  // reference are shown, never fail the run. (Measured on the H200, CUDA 13.0:
  // its 8u_C1R path is up to 8 levels off at 6720x4480, 53 at 64x48, within
  // one at 451x300; its 8u_C4R path, same call, within one throughout.)
  chapter.add_cuda("npp", "NPP nppiFilterGaussAdvancedBorder_8u_C1R, the same taps, replicated border", npp).external =
      true;
  gauss::Variant& npp_rgba =
      chapter.add_cuda("npp_rgba", "NPP nppiFilterGaussAdvancedBorder_8u_C4R (blurs alpha: 255 stays 255)", npp);
  npp_rgba.format = gauss::PixelFormat::Rgba;
  npp_rgba.external = true;
#endif

  // --- Where the time goes (on request; sweeps.hpp) ---------------------------
  // The ceiling: other copies of the same bytes, and the device's peak.
  chapter.add_section("ceiling", "the ceiling: every copy we could write, against the table's copy and the peak",
                      ceiling, gauss::Chapter::SectionRuns::OnRequest);

  // Size sweep: from launch-bound to bandwidth-bound.
  chapter.add_section(
      "size_sweep", "size sweep: fused against the copy, 0.25 to 100 megapixels (gray)",
      [&chapter = std::as_const(chapter)](gauss::SectionContext& context) { size_sweep(context, chapter); },
      gauss::Chapter::SectionRuns::OnRequest);

  // Shapes: how the launch shape was chosen (radius 2).
  chapter.add_section(
      "shapes", "launch shapes compared at radius 2: pixels per lane, rows per warp, rows loaded ahead",
      [](gauss::SectionContext& context) { shapes(context, fused_opencl_shaped); },
      gauss::Chapter::SectionRuns::OnRequest);

  // The block tiles' shapes (radius 2, sigma 1).
  chapter.add_section(
      "tile_shapes", "block-tile shapes compared: bytes per lane, rows per warp, blocks per SM (CUDA)",
      [](gauss::SectionContext& context) { tile_shapes(context, half2_opencl_with); },
      gauss::Chapter::SectionRuns::OnRequest);

  // Apple's two roofs, the copy and the multiply-add, and its Listing 14-1's clock.
  chapter.add_section("roofs", "Apple's two roofs (copy, multiply-add) on this device, and its Listing 14-1 timer",
                      roofs, gauss::Chapter::SectionRuns::OnRequest);

  // The ablation: the shipped kernel with one technique taken out at a time.
  chapter.add_section(
      "ablation", "the ablation: fused with one technique taken out at a time, and the chapter that taught it",
      [&chapter = std::as_const(chapter)](gauss::SectionContext& context) {
        ablation(context, chapter, half2_opencl_with);
      },
      gauss::Chapter::SectionRuns::OnRequest);

  // Radius sweep: every code path, gray and RGBA.
  chapter.add_section(
      "radius_sweep", "radius sweep: fused at radius 1 to 16 (sigma = radius / 3), gray and RGBA",
      [&chapter = std::as_const(chapter)](gauss::SectionContext& context) { radius_sweep(context, chapter); },
      gauss::Chapter::SectionRuns::OnRequest);

  // The exercise (README, section Exercise): blur_fused.cl/.cu with the
  // vertical sums over the ring of rows (and the tile kernel's, OpenCL), and
  // CUDA's halo exchange through warp shuffles, left for the student.
  chapter.set_exercise("blur_fused.cl", {"fused_f32", "fused_rgba_f32"});
  return chapter;
}

}  // namespace chapter10

#ifndef GAUSS_CHAPTER_NO_MAIN
int main(int argc, char** argv) { return chapter10::make_chapter().run(argc, argv); }
#endif
