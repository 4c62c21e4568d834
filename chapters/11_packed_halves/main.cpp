// Chapter 11: packed halves, two pixels per instruction.
//
// Chapter 10's kernel issues 25 instructions per gray pixel, 10 of them
// multiply-adds and 5 conversions, and in float neither can shrink. Hopper's
// HFMA2 does two half-precision multiply-adds in one instruction, on a pair
// of 16-bit halves in one 32-bit register. This step keeps chapter 10's warp
// strips (rows walked down, loaded ahead into registers, neighbours by
// shuffle) and changes the arithmetic:
//
//   - bytes become halves with one byte permute (0x64bb is the half 1024 + bb);
//   - the vertical sums add the symmetric taps' outer rows as integers, then
//     take three HFMA2 per two pixels; the horizontal sums five;
//   - adding 1024 (HADD2) rounds each sum to an integer in its low byte.
//
// Half floats carry 11 significant bits, so the weights are chosen, not
// rounded, and the error is proven below one level for each blur it serves:
// radius 2 (sigma 1's taps are the benchmark's) and radius 1 as radius 2 with
// outer taps 0 (half2_plan.hpp: choose_half_taps, half2_error_bound; the
// section `error_bound` prints the terms). Larger radii run chapter 10's
// float kernel.
//
// OpenCL C has neither half arithmetic on NVIDIA's platform nor shuffles, so
// blur_half2.cl reaches HFMA2, PRMT and SHFL through inline PTX there
// (-D NV_PTX), and runs a portable path elsewhere (PoCL, Oclgrind):
// `portable` forces that path on any device, to show what the PTX buys.
// Beside them, borrowed unchanged: chapter 10's `main` and `main_rgba`. The
// lesson is in README.md beside this file.
#include <cstdint>
#include <cstdio>
#include <ostream>
#include <string>
#include <vector>

#include "blur_half2_cl.hpp"  // blur_half2.cl, embedded at build time
#include "gauss/borrow.hpp"
#include "gauss/chapter.hpp"
#include "gauss/section_tools.hpp"
#include "half2_plan.hpp"
#include "ring_opencl.hpp"  // chapter 10's OpenCL set-up: the fallback
#ifdef GAUSS_HAVE_CUDA
#include "blur_half2.cuh"
#include "blur_ring.cuh"  // chapter 10's CUDA launcher: the fallback
#include "gauss/cuda.hpp"
#endif

// The previous step's chapter (its main.cpp; CMakeLists.txt links its lesson).
namespace chapter10 {
gauss::Chapter make_chapter();
}

namespace chapter11 {
namespace {

// --- OpenCL -----------------------------------------------------------------------
// Inline PTX on NVIDIA's platform only: its compiler takes asm(), others do not.
bool nvidia_platform(const gauss::OpenClSession& cl) {
  return cl.info.platform_name.find("NVIDIA") != std::string::npos;
}

// blur_half2.cl where half2_plan.hpp proves the bound, chapter 10's float
// kernel elsewhere. The shape is baked into the program with -D options.
gauss::OpenClLaunch half2_opencl_with(gauss::OpenClSession& cl, const gauss::Problem& p, bool ptx) {
  const auto weights = half2::half2_weights(p.blur);
  if (!weights) return ring::opencl_setup(cl, p);
  const gauss::ImageGeometry g = p.image;
  const int nb = half2::half2_lane_bytes(g.channels);
  const int rows = half2::half2_rows(g.channels);
  const std::string options = "-D CHANNELS=" + std::to_string(g.channels) + " -D NB=" + std::to_string(nb) +
                              " -D ROWS=" + std::to_string(rows) +
                              " -D AHEAD=" + std::to_string(half2::half2_ahead(g.channels)) +
                              " -D WARPS=" + std::to_string(half2::kWarpsPerBlock) + (ptx ? " -D NV_PTX" : "");
  cl::Kernel kernel = cl.kernel(gauss::embedded::blur_half2_cl, "blur_half2", options);
  // One warp (32 items) per strip of 30 x nb bytes, WARPS warps stacked per group.
  const cl::NDRange local(32, half2::kWarpsPerBlock);
  const cl::NDRange global(32 * ((g.width * g.channels + 30 * nb - 1) / (30 * nb)),
                           gauss::round_up((g.height + rows - 1) / rows, half2::kWarpsPerBlock));
  // Buffers are aligned far beyond 16 bytes; rows are when the pitch is.
  const int aligned = g.pitch % nb == 0 ? 1 : 0;
  return [&cl, kernel, global, local, g, aligned, hw = *weights](const cl::Buffer& in, const cl::Buffer& out) mutable {
    gauss::sections::set_args(kernel, in, out, g.width, g.height, g.pitch, aligned, hw);
    cl::Event done;
    cl.queue.enqueueNDRangeKernel(kernel, cl::NullRange, global, local, nullptr, &done);
    return std::vector<cl::Event>{done};
  };
}

gauss::OpenClLaunch half2_opencl(gauss::OpenClSession& cl, const gauss::Problem& p) {
  return half2_opencl_with(cl, p, nvidia_platform(cl));
}

gauss::OpenClLaunch portable_opencl(gauss::OpenClSession& cl, const gauss::Problem& p) {
  return half2_opencl_with(cl, p, false);
}

#ifdef GAUSS_HAVE_CUDA
// --- CUDA: the packed halves where launch_blur_half2 serves the blur, else chapter 10's kernel.
gauss::CudaLaunch half2_cuda(const gauss::Problem& p) {
  return [p](const std::uint8_t* in, std::uint8_t* out, cudaStream_t stream) {
    if (!launch_blur_half2(in, out, p, stream)) launch_blur_ring(in, out, p, stream);
  };
}
#endif

// --- The section `error_bound`: the proof's terms for the blur given ---------------
void error_bound(gauss::SectionContext& context) {
  std::ostream& out = context.out;
  const gauss::BlurSpec& blur = context.blur;
  out << "packed halves for " << gauss::describe(blur) << ":\n";
  const auto exact = half2::half_exact_weights(blur);
  if (!exact) {
    out << "  not taken: radius " << blur.radius << " is past the widest the packed halves sum ("
        << half2::kMaxHalfRadius << "). Chapter 10's float kernel runs.\n";
    return;
  }
  const half2::HalfTaps taps = half2::choose_half_taps(*exact);
  const half2::ErrorBound bound = half2::half2_error_bound(taps, *exact);
  const int radius = bound.radius;
  char line[160];
  out << "  half weights, outermost first:";
  for (int d = radius; d >= 0; --d) {
    std::snprintf(line, sizeof line, "%s%.0f/4096", d < radius ? ", " : " ", half2::tap_at(taps, d) * 4096);
    out << line;
  }
  out << (blur.radius == 1 ? " (radius 1: w0 = 0)" : "") << ", exact in half: " << (bound.exact ? "yes" : "no") << "\n";
  auto terms = [&](const char* what, const double* first, int count) {
    double sum = 0;
    std::snprintf(line, sizeof line, "  %s (%d HFMA2):", what, count);
    out << line;
    for (int i = 0; i < count; ++i) {
      std::snprintf(line, sizeof line, " %s%.4f", i ? "+ " : "", first[i]);
      out << line;
      sum += first[i];
    }
    std::snprintf(line, sizeof line, " = %.4f level\n", sum);
    out << line;
  };
  terms("vertical roundings", bound.vertical.data(), radius + 1);
  terms("horizontal roundings", bound.horizontal.data(), 2 * radius + 1);
  std::snprintf(line, sizeof line, "  the half weights against this blur's: %.4f level\n", bound.quantisation);
  out << line;
  std::snprintf(line, sizeof line, "  total before HADD2's rounding: %.4f level, %s 1: %s\n", bound.total,
                bound.total < 1.0 ? "under" : "not under",
                bound.holds() ? "every output within one level of the reference" : "nothing proven");
  out << line;
  if (!bound.holds())
    out << "  not taken: the bound does not hold; chapter 10's float kernel runs\n";
  else if (radius <= 2)
    out << "  taken: main and main_rgba sum in packed halves\n";
  else
    out << "  not taken here: this chapter's kernel sums five taps; chapter 14's main sums radius 3 to 5 (RGBA to "
           "4) in the same order and takes it\n";
}

}  // namespace

gauss::Chapter make_chapter() {
  gauss::Chapter chapter("11_packed_halves", "packed halves: two pixels per instruction");

  // --- The main line's step, first: chapter 10's strips, summed in packed halves -----
  const char* gray =
      "main line: chapter 10's warp strips summed in packed halves (HFMA2), 8-byte lanes, 8 rows, "
      "4 ahead; radius 1 and 2 where the half weights' bound holds, else chapter 10's main";
  const char* rgba = "main line on RGBA: the same, 16-byte lanes, 16 rows, alpha carried by its own taps (0, 0, 1)";
  chapter.add_opencl("main", gray, half2_opencl).line = "main";
  gauss::Variant& main_rgba_opencl = chapter.add_opencl("main_rgba", rgba, half2_opencl);
  main_rgba_opencl.format = gauss::PixelFormat::Rgba;
  main_rgba_opencl.line = "main";
#ifdef GAUSS_HAVE_CUDA
  chapter.add_cuda("main", gray, half2_cuda).line = "main";
  gauss::Variant& main_rgba_cuda = chapter.add_cuda("main_rgba", rgba, half2_cuda);
  main_rgba_cuda.format = gauss::PixelFormat::Rgba;
  main_rgba_cuda.line = "main";
#endif
  // What the inline PTX buys: the portable OpenCL C path (halves in integer
  // arithmetic, each item summing its neighbours' pairs itself), even on NVIDIA.
  chapter.add_opencl("portable", "main without inline PTX: the portable OpenCL C path that PoCL and Oclgrind run",
                     portable_opencl);

  // --- The previous step, borrowed unchanged: chapter 10's float sums -----------------
  static const gauss::Chapter ch10 = chapter10::make_chapter();
  gauss::borrow(chapter, ch10, "main");
  gauss::borrow(chapter, ch10, "main_rgba");
  chapter.set_baseline("ch10_main");

  // --- The proof (by default: it costs nothing) ------------------------------------
  chapter.add_section("error_bound", "the packed-half error bound's terms for the blur given, and whether it holds",
                      error_bound);

  // The exercise (README, section Exercise): blur_half2.cl/.cu with out_row's
  // packed-half sums, vertical and horizontal, left for the student.
  chapter.set_exercise("blur_half2.cl", {"main", "main_rgba"});
  return chapter;
}

}  // namespace chapter11

// The tests link this file without main() (GAUSS_CHAPTER_NO_MAIN) and run the
// very same variants on the golden images.
#ifndef GAUSS_CHAPTER_NO_MAIN
int main(int argc, char** argv) { return chapter11::make_chapter().run(argc, argv); }
#endif
