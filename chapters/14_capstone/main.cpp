// Chapter 14: the capstone. The tile's fill overlapped with its arithmetic.
//
// Chapter 13's block tile brings all of a block's rows into shared memory,
// waits, then computes: within a block the copy and the arithmetic take
// turns. Here each warp walks a long segment of its strip on its own, its
// next rows always on their way: every lane copies its 16 bytes of each row
// into its own column of the warp's ring in shared memory by cp.async, three
// stages of five rows ahead, and waits only for its own copies. The segment's
// halo rows are read once per 36 rows instead of once per 16, and no barrier
// is left. Same packed-half arithmetic and error bound as chapters 11-13
// (half2_plan.hpp), to radius 5 (RGBA 4) where its bound holds; every other
// blur falls back to chapter 10's float kernel.
//
// OpenCL runs the same kernel through inline PTX on NVIDIA's platform, and a
// portable version of it everywhere else (`portable`: floats, no shuffles, no
// cp.async), which PoCL, Oclgrind and any other GPU run.
//
// In the same run: the step before (chapter 13's tiles, ch13_main and
// ch13_main_rgba) and NPP's Gaussian filter. On request, the sections of
// sweeps.hpp (the ceiling, the size sweep, the shapes, the ablation, the
// floor with the data in L2, the packed halves checked at every radius) and
// Apple's two roofs (roofs.hpp). The lesson is
// in README.md beside this file.
#include <memory>
#include <string>
#include <vector>

#include "blur_capstone_cl.hpp"  // blur_capstone.cl, embedded at build time
#include "capstone_plan.hpp"
#include "gauss/borrow.hpp"
#include "gauss/chapter.hpp"
#include "half2_plan.hpp"   // chapter 11: the packed-half weights, and which blurs they serve
#include "ring_opencl.hpp"  // chapter 10: the float kernel, for every other blur
#include "roofs.hpp"        // the section roofs: Apple's two roofs and its timer
#include "sweeps.hpp"       // the other sections: this chapter's second program part
#ifdef GAUSS_HAVE_CUDA
#include "blur_capstone.cuh"
#include "blur_ring.cuh"
#endif
#ifdef GAUSS_HAVE_NPP
#include "gauss/npp_gauss.hpp"  // NPP, linked in CMakeLists.txt
#endif

// The step before, whose variants run beside this chapter's (CMakeLists.txt
// links its lesson: LINKS).
namespace chapter13 {
gauss::Chapter make_chapter();
}

namespace chapter14 {
namespace {

// The OpenCL set-up of blur_capstone.cl with @p knobs, PTX or portable. The
// packed halves serve the blurs whose half weights are proven
// (wide_half2_weights), radius 3 and up in the shipped tile only and up to
// wide_max_radius; the float path radius 1 and 2 (radius 1 as radius 2 with
// outer taps 0). Every other blur goes to chapter 10's kernel.
gauss::OpenClLaunch capstone_opencl(gauss::OpenClSession& cl, const gauss::Problem& p, const capstone::Knobs& knobs,
                                    bool ptx) {
  const auto weights = half2::wide_half2_weights(p.blur);
  const int radius = knobs.halves && weights ? weights->radius : 2;
  const bool served = knobs.halves ? weights && radius <= capstone::wide_max_radius(p.image.channels) &&
                                         (radius == 2 || (knobs.tiles && knobs.ring))
                                   : p.blur.radius <= 2;
  if (!served) return ring::opencl_setup(cl, p);
  const gauss::ImageGeometry g = p.image;
  const auto define = [](const char* name, int value) {
    return " -D " + std::string(name) + "=" + std::to_string(value);
  };
  std::string options =
      define("CHANNELS", g.channels) + define("NB", knobs.lane_bytes) + define("WARPS", capstone::kWarpsPerBlock) +
      define("HALVES", knobs.halves) + define("PERMUTES", knobs.permutes) + define("SHUFFLES", knobs.shuffles) +
      define("RING", knobs.ring) + define("TILES", knobs.tiles) + define("RADIUS", radius) + (ptx ? " -D NV_PTX" : "");
  const int strips = capstone::strips(g.width * g.channels, knobs.lane_bytes);
  const cl::NDRange local(32, capstone::kWarpsPerBlock);
  cl::NDRange global;
  int aligned = 0;
  if (knobs.tiles) {
    options += define("ROWS", knobs.rows) + define("ONE_IN_FLIGHT", knobs.one_in_flight);
    // One group of WARPS warps per strip and band of WARPS x ROWS rows.
    const int bands = capstone::segments(g.height, knobs.rows * capstone::kWarpsPerBlock);
    global =
        cl::NDRange(32 * static_cast<std::size_t>(strips), capstone::kWarpsPerBlock * static_cast<std::size_t>(bands));
    aligned = g.pitch % 16 == 0 ? 1 : 0;  // the tile comes in 16-byte chunks
  } else {
    options += define("SEG", knobs.segment) + define("STAGES", knobs.stages);
    // One warp (32 items) per segment of a strip; WARPS warps per group.
    const int items = strips * capstone::segments(g.height, knobs.segment);
    global = cl::NDRange(32, gauss::round_up(items, capstone::kWarpsPerBlock));
    aligned = g.pitch % knobs.lane_bytes == 0 ? 1 : 0;
  }
  cl::Kernel kernel =
      cl.kernel(gauss::embedded::blur_capstone_cl, knobs.tiles ? "blur_capstone" : "blur_stream", options);
  const half2::HalfWeights hw = weights ? weights->near : half2::HalfWeights{};
  const half2::FarHalfWeights far = weights ? weights->far : half2::FarHalfWeights{};
  const bool tiles = knobs.tiles;
  return [&cl, kernel, global, local, g, aligned, strips, hw, far, tiles, taps = half2::radius2_taps(p.blur, p.taps)](
             const cl::Buffer& in, const cl::Buffer& out) mutable {
    if (tiles)
      gauss::sections::set_args(kernel, in, out, g.width, g.height, g.pitch, aligned, hw, far, taps.w[0], taps.w[1],
                                taps.w[2]);
    else
      gauss::sections::set_args(kernel, in, out, g.width, g.height, g.pitch, aligned, strips, hw, far, taps.w[0],
                                taps.w[1], taps.w[2]);
    cl::Event done;
    cl.queue.enqueueNDRangeKernel(kernel, cl::NullRange, global, local, nullptr, &done);
    return std::vector<cl::Event>{done};
  };
}

// `main`: the PTX kernel as shipped on NVIDIA's platform, the portable one elsewhere.
gauss::OpenClLaunch main_opencl(gauss::OpenClSession& cl, const gauss::Problem& p) {
  const bool ptx = use_ptx(cl);
  const int channels = p.image.channels;
  if (!ptx) return capstone_opencl(cl, p, portable_knobs(channels), false);
  const auto weights = half2::wide_half2_weights(p.blur);
  const int radius = weights ? weights->radius : 2;
  return capstone_opencl(cl, p, capstone::main_knobs(channels, radius, true), true);
}

// `portable`: the portable kernel on every platform, NVIDIA's too.
gauss::OpenClLaunch portable_opencl(gauss::OpenClSession& cl, const gauss::Problem& p) {
  return capstone_opencl(cl, p, portable_knobs(p.image.channels), false);
}

// `overlap`: the streaming candidate (PTX; its portable form elsewhere).
gauss::OpenClLaunch overlap_opencl(gauss::OpenClSession& cl, const gauss::Problem& p) {
  const bool ptx = use_ptx(cl);
  capstone::Knobs k = capstone::streaming(p.image.channels);
  if (!ptx) k = portable_stream_knobs(p.image.channels);
  return capstone_opencl(cl, p, k, ptx);
}

#ifdef GAUSS_HAVE_CUDA
// A capstone kernel where it serves the blur, chapter 10's elsewhere.
using Launcher = bool (*)(const std::uint8_t*, std::uint8_t*, const gauss::Problem&, cudaStream_t);
gauss::CudaSetup or_ring(Launcher launch) {
  return [launch](const gauss::Problem& p) -> gauss::CudaLaunch {
    return [p, launch](const std::uint8_t* in, std::uint8_t* out, cudaStream_t stream) {
      if (!launch(in, out, p, stream)) launch_blur_ring(in, out, p, stream);
    };
  };
}
#endif

// Marks a variant as RGBA and as the main line's step, as asked.
void mark(gauss::Variant& variant, bool rgba, bool main_line) {
  if (rgba) variant.format = gauss::PixelFormat::Rgba;
  if (main_line) variant.line = "main";
}

}  // namespace

gauss::Chapter make_chapter() {
  gauss::Chapter chapter("14_capstone", "the capstone: the fill overlapped with the arithmetic");

  // --- The final kernel: every technique of the climb ---------------------------
  const char* main_text = "chapter 13's packed-half block tiles with every technique of the climb; else ch. 10's";
  const char* rgba_text = "the same on RGBA (alpha carried)";
  const char* portable_text = "the portable kernel (no PTX): block tiles, floats, neighbours summed by each item";
  const char* overlap_text = "candidate: each warp streams its strip, the next rows in flight by cp.async (loses)";
  mark(chapter.add_opencl("main", main_text, main_opencl), false, true);
  mark(chapter.add_opencl("main_rgba", rgba_text, main_opencl), true, true);
  mark(chapter.add_opencl("portable", portable_text, portable_opencl), false, false);
  mark(chapter.add_opencl("portable_rgba", rgba_text, portable_opencl), true, false);
  mark(chapter.add_opencl("overlap", overlap_text, overlap_opencl), false, false);
  mark(chapter.add_opencl("overlap_rgba", rgba_text, overlap_opencl), true, false);
#ifdef GAUSS_HAVE_CUDA
  mark(chapter.add_cuda("main", main_text, or_ring(launch_blur_capstone)), false, true);
  mark(chapter.add_cuda("main_rgba", rgba_text, or_ring(launch_blur_capstone)), true, true);
  mark(chapter.add_cuda("overlap", overlap_text, or_ring(launch_blur_overlap)), false, false);
  mark(chapter.add_cuda("overlap_rgba", rgba_text, or_ring(launch_blur_overlap)), true, false);
#endif

  // --- The step before, borrowed unchanged -----------------------------------
  static const gauss::Chapter ch13 = chapter13::make_chapter();
  gauss::borrow(chapter, ch13, "main");
  gauss::borrow(chapter, ch13, "main_rgba");

#ifdef GAUSS_HAVE_NPP
  // --- The library a user would call instead ---------------------------------
  // NPP needs the stream at set-up; the runner names it at the first launch (a
  // warm-up run), so the filter is made then, once.
  auto npp = [](const gauss::Problem& p) -> gauss::CudaLaunch {
    auto filter = std::make_shared<std::unique_ptr<gauss::NppGauss>>();
    return [p, filter](const std::uint8_t* in, std::uint8_t* out, cudaStream_t stream) {
      if (!*filter) *filter = std::make_unique<gauss::NppGauss>(p, stream);
      (*filter)->run(in, out);
    };
  };
  // NPP is someone else's code, run for its speed: its differences from the
  // reference are shown, never fail the run (its 8u_C1R path is up to 8 levels
  // off at 6720x4480 with CUDA 13.0; 8u_C4R within one).
  chapter.add_cuda("npp", "NPP nppiFilterGaussAdvancedBorder_8u_C1R, the same taps, replicated border", npp).external =
      true;
  gauss::Variant& npp_rgba =
      chapter.add_cuda("npp_rgba", "NPP nppiFilterGaussAdvancedBorder_8u_C4R (blurs alpha: 255 stays 255)", npp);
  npp_rgba.format = gauss::PixelFormat::Rgba;
  npp_rgba.external = true;
#endif

  // --- Where the time goes (on request) ----------------------------------------
  using Runs = gauss::Chapter::SectionRuns;
  chapter.add_section("ceiling", "the ceiling: every copy we could write, against the table's copy and the peak",
                      ceiling, Runs::OnRequest);
  const gauss::Chapter& self = chapter;
  chapter.add_section(
      "size_sweep", "size sweep: main and main_rgba against the copy, 0.25 to 100 megapixels",
      [&self](gauss::SectionContext& context) { size_sweep(context, self); }, Runs::OnRequest);
#ifdef GAUSS_HAVE_CUDA
  const auto cuda_ablated = launch_blur_capstone_ablated;
  const auto cuda_shape = [](int shape, const std::uint8_t* in, std::uint8_t* out, const gauss::Problem& p,
                             cudaStream_t stream) { return launch_blur_overlap_shape(shape, in, out, p, stream); };
#else
  const auto cuda_ablated = nullptr;
  const auto cuda_shape = nullptr;
#endif
  chapter.add_section(
      "ablation", "the ablation: main with one technique taken out at a time, and the chapter that taught it",
      [cuda_ablated](gauss::SectionContext& context) {
        knob_sweep(context, capstone_opencl, "ablation", ablation_points, cuda_ablated);
      },
      Runs::OnRequest);
  chapter.add_section(
      "overlap_shapes", "the overlap candidate's shapes: bytes per lane, segment rows, stages in flight, blocks per SM",
      [cuda_shape](gauss::SectionContext& context) {
        knob_sweep(context, capstone_opencl, "shape", shape_points, cuda_shape);
      },
      Runs::OnRequest);
  chapter.add_section(
      "l2_floor", "the SM-side floor: main and overlap with their data in the L2 cache (in place, 30 MB)",
      [&self](gauss::SectionContext& context) { l2_floor(context, self); }, Runs::OnRequest);
  chapter.add_section(
      "halves_check", "main's packed halves at radius 1-5 (RGBA 1-4), emulated where PTX is not: checked, OpenCL",
      [](gauss::SectionContext& context) { halves_check(context, capstone_opencl); }, Runs::OnRequest);
  chapter.add_section("roofs", "Apple's two roofs (copy, multiply-add) on this device, and its Listing 14-1 timer",
                      roofs, Runs::OnRequest);

  // The exercise (README, section Exercise): the overlap candidate's refill of
  // each stage's slots in blur_capstone.cl/.cu, left to the student.
  chapter.set_exercise("blur_capstone.cl", {"overlap", "overlap_rgba"});
  return chapter;
}

}  // namespace chapter14

#ifndef GAUSS_CHAPTER_NO_MAIN
int main(int argc, char** argv) { return chapter14::make_chapter().run(argc, argv); }
#endif
