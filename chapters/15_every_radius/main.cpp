// Chapter 15: every radius. The capstone runs at the memory's speed for one
// blur, radius 2; every other blur falls back to chapter 10's float kernel,
// whose 2 (2R+1) multiply-adds per value sink it as the radius grows. This
// chapter's kernel does both passes of any blur, radius 1 to 16, any sigma,
// as banded matrix products on the tensor cores (blur_mma.cu), so that the
// arithmetic stays cheap at every radius and the memory stays the limit.
//
// Beside it: the portable kernel (OpenCL without PTX: the same tiles, float
// multiply-adds, bound by the multiply-add rate above radius 4 or so) and the
// capstone (chapter 14's `main`). The sections: the error bound of the blur
// asked for (by default), the radius sweep against both roofs and the check of
// the tensor-core kernel at every radius (on request; sweeps.hpp). The lesson
// is in README.md beside this file.
#include <string>

#include "blur_mma_plan.hpp"
#include "gauss/borrow.hpp"
#include "gauss/chapter.hpp"
#include "mma_opencl.hpp"
#include "sweeps.hpp"
#ifdef GAUSS_HAVE_CUDA
#include "blur_mma.cuh"
#include "blur_ring.cuh"  // chapter 10's float kernel, for a blur whose bound fails (none in range)
#endif

// The capstone, whose variants run beside this chapter's (CMakeLists.txt
// links its lesson: LINKS).
namespace chapter14 {
gauss::Chapter make_chapter();
}

namespace chapter15 {
namespace {

// `main` in OpenCL: the tensor cores through inline PTX on NVIDIA's platform,
// the portable float kernel everywhere else.
gauss::OpenClLaunch main_opencl(gauss::OpenClSession& cl, const gauss::Problem& p) {
  if (!mma::has_ptx(cl)) return mma::opencl_setup(cl, p, mma::OpenClKernel::Float);
  return mma::opencl_setup(cl, p, mma::OpenClKernel::TensorCores, mma::shipped_schedule(false, p.image, p.blur.radius));
}

gauss::OpenClLaunch portable_opencl(gauss::OpenClSession& cl, const gauss::Problem& p) {
  return mma::opencl_setup(cl, p, mma::OpenClKernel::Float);
}

#ifdef GAUSS_HAVE_CUDA
gauss::CudaLaunch main_cuda(const gauss::Problem& p) {
  return [p](const std::uint8_t* in, std::uint8_t* out, cudaStream_t stream) {
    if (!launch_blur_mma(in, out, p, stream, mma::shipped_schedule(true, p.image, p.blur.radius)))
      launch_blur_ring(in, out, p, stream);
  };
}
#endif

void mark_rgba(gauss::Variant& v) { v.format = gauss::PixelFormat::Rgba; }

}  // namespace

gauss::Chapter make_chapter() {
  gauss::Chapter chapter("15_every_radius", "every radius: the blur as two banded matrix products on the tensor cores");

  // --- Every blur on the tensor cores ------------------------------------------------
  const char* main_text = "both passes as banded matrix products on the tensor cores (mma.sync), any radius";
  const char* rgba_text = "the same on RGBA (three planes, alpha carried)";
  const char* portable_text = "the portable kernel (no PTX): the same tiles, float multiply-adds";
  chapter.add_opencl("main", main_text, main_opencl);
  mark_rgba(chapter.add_opencl("main_rgba", rgba_text, main_opencl));
  chapter.add_opencl("portable", portable_text, portable_opencl);
  mark_rgba(chapter.add_opencl("portable_rgba", rgba_text, portable_opencl));
#ifdef GAUSS_HAVE_CUDA
  chapter.add_cuda("main", main_text, main_cuda);
  mark_rgba(chapter.add_cuda("main_rgba", rgba_text, main_cuda));
#endif

  // --- The capstone beside it, borrowed unchanged -------------------------------------
  static const gauss::Chapter ch14 = chapter14::make_chapter();
  gauss::borrow(chapter, ch14, "main");
  gauss::borrow(chapter, ch14, "main_rgba");

  // --- The sections (sweeps.hpp) --------------------------------------------------------
  using Runs = gauss::Chapter::SectionRuns;
  chapter.add_section("error_bound", "the error bound of the tensor-core path for the blur asked for", error_bound);
  const gauss::Chapter& self = chapter;
  chapter.add_section(
      "radius_sweep", "radius 1 to 16 against both roofs (the copy, the multiply-add rate), gray and RGBA",
      [&self](gauss::SectionContext& context) { radius_sweep(context, self); }, Runs::OnRequest);
  chapter.add_section("overlap", "when each tile's input is loaded: before its passes, or during the tile before",
                      overlap, Runs::OnRequest);
  chapter.add_section("mma_check", "the tensor-core kernel (emulated where there is no PTX) for the blur given",
                      mma_check, Runs::OnRequest);

  // The exercise (README, section Exercise): the vertical pass's matrix
  // products in blur_mma.cl/.cu, left to the student.
  chapter.set_exercise("blur_mma.cl", {"main", "main_rgba", "mma_check"});
  return chapter;
}

}  // namespace chapter15

#ifndef GAUSS_CHAPTER_NO_MAIN
int main(int argc, char** argv) { return chapter15::make_chapter().run(argc, argv); }
#endif
