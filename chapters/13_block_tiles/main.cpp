// Chapter 13: block tiles, a block's rows in shared memory at once.
//
// Chapter 12's strips walk down the image one warp at a time, each warp
// copying its own rows a few ahead into shared memory by cp.async. This
// chapter's kernel turns that around: a block of 4 warps first brings all
// the rows it needs (its output rows and one halo of 4 rows) into shared
// memory at once, every thread copying 16-byte chunks by cp.async, waits
// once, and only then each warp walks its rows out of shared memory with
// chapter 11's packed-half arithmetic. Every load of the block is in flight
// together, no load address is computed per row, and the halo rows are
// loaded once per block instead of once per warp. Same weights, same error
// bound (half2_plan.hpp); every other blur falls back to chapter 10's float
// kernel.
//
// In the same run, the step before: chapter 12's strips (ch12_main,
// ch12_main_rgba). The section `tile_shapes` (on request, tile_shapes.hpp)
// times the shapes tile_plan.hpp chose from. The lesson is in README.md
// beside this file.
#include <string>
#include <vector>

#include "blur_tile_cl.hpp"  // blur_tile.cl, embedded at build time
#include "gauss/borrow.hpp"
#include "gauss/chapter.hpp"
#include "gauss/section_tools.hpp"
#include "half2_plan.hpp"   // chapter 11: the packed-half weights, and which blurs they serve
#include "ring_opencl.hpp"  // chapter 10: the float kernel, for every other blur
#include "tile_plan.hpp"
#include "tile_shapes.hpp"  // the section tile_shapes
#ifdef GAUSS_HAVE_CUDA
#include "blur_ring.cuh"  // chapter 10's float kernel
#include "blur_tile.cuh"  // the CUDA launchers, in blur_tile.cu
#endif

// The step before, whose variants run beside this chapter's (CMakeLists.txt
// links its lesson: LINKS).
namespace chapter12 {
gauss::Chapter make_chapter();
}

namespace chapter13 {
namespace {

// NVIDIA's platform takes inline PTX (half2 arithmetic, byte permutes,
// shuffles, cp.async); every other platform runs the portable OpenCL C.
bool use_ptx(const gauss::OpenClSession& cl) { return cl.info.platform_name.find("NVIDIA") != std::string::npos; }

// The OpenCL set-up of the tile kernel with @p lane_bytes bytes per item and
// @p rows output rows per item, where the packed halves' error bound is
// proven (radius 2, sigma 1); chapter 10's float kernel for every other blur.
gauss::OpenClLaunch tile_opencl_shaped(gauss::OpenClSession& cl, const gauss::Problem& p, int lane_bytes, int rows) {
  const auto weights = half2::half2_weights(p.blur);
  if (!weights) return ring::opencl_setup(cl, p);
  const gauss::ImageGeometry g = p.image;
  const int nb = lane_bytes;
  const std::string options = "-D CHANNELS=" + std::to_string(g.channels) + " -D NB=" + std::to_string(nb) +
                              " -D ROWS=" + std::to_string(rows) + " -D WARPS=" + std::to_string(tile::kWarpsPerBlock) +
                              (use_ptx(cl) ? " -D NV_PTX" : "");
  cl::Kernel kernel = cl.kernel(gauss::embedded::blur_tile_cl, "blur_half2_tile", options);
  // One group of WARPS warps per strip of 30 x nb bytes and WARPS x rows rows.
  const cl::NDRange local(32, tile::kWarpsPerBlock);
  const cl::NDRange global(32 * ((g.width * g.channels + 30 * nb - 1) / (30 * nb)),
                           gauss::round_up((g.height + rows - 1) / rows, tile::kWarpsPerBlock));
  // Buffers are aligned far beyond 16 bytes; rows are when the pitch is (the
  // tile is copied in 16-byte chunks).
  const int aligned = g.pitch % 16 == 0 ? 1 : 0;
  return [&cl, kernel, global, local, g, aligned, hw = *weights](const cl::Buffer& in, const cl::Buffer& out) mutable {
    gauss::sections::set_args(kernel, in, out, g.width, g.height, g.pitch, aligned, hw);
    cl::Event done;
    cl.queue.enqueueNDRangeKernel(kernel, cl::NullRange, global, local, nullptr, &done);
    return std::vector<cl::Event>{done};
  };
}

// tile_plan.hpp's shape for the image's pixel format.
gauss::OpenClLaunch tile_opencl(gauss::OpenClSession& cl, const gauss::Problem& p) {
  const int channels = p.image.channels;
  return tile_opencl_shaped(cl, p, tile::opencl_tile_lane_bytes(channels), tile::opencl_tile_rows(channels));
}

#ifdef GAUSS_HAVE_CUDA
// blur_tile.cu's kernel where it serves the blur, chapter 10's float kernel
// elsewhere. The grid arithmetic is in blur_tile.cu, beside the
// <<<grid, block>>> launch that only nvcc understands.
gauss::CudaLaunch tile_cuda(const gauss::Problem& p) {
  return [p](const std::uint8_t* in, std::uint8_t* out, cudaStream_t stream) {
    if (!launch_blur_tile(in, out, p, stream)) launch_blur_ring(in, out, p, stream);
  };
}
#endif

}  // namespace

gauss::Chapter make_chapter() {
  gauss::Chapter chapter("13_block_tiles", "block tiles: a block's rows in shared memory at once");

  // --- This step: the block's rows brought in at once, then walked ----------
  const char* main_text =
      "packed halves over block tiles: a block's rows into shared/local memory at once; else ch. 10's";
  const char* rgba_text = "the same on RGBA (alpha carried)";
  chapter.add_opencl("main", main_text, tile_opencl).line = "main";
  gauss::Variant& main_rgba_opencl = chapter.add_opencl("main_rgba", rgba_text, tile_opencl);
  main_rgba_opencl.format = gauss::PixelFormat::Rgba;
  main_rgba_opencl.line = "main";
#ifdef GAUSS_HAVE_CUDA
  chapter.add_cuda("main", main_text, tile_cuda).line = "main";
  gauss::Variant& main_rgba_cuda = chapter.add_cuda("main_rgba", rgba_text, tile_cuda);
  main_rgba_cuda.format = gauss::PixelFormat::Rgba;
  main_rgba_cuda.line = "main";
#endif

  // --- The step before, borrowed unchanged -----------------------------------
  // Chapter 12's strips, rows ahead in shared memory: ch12_main, ch12_main_rgba.
  static const gauss::Chapter ch12 = chapter12::make_chapter();
  gauss::borrow(chapter, ch12, "main");
  gauss::borrow(chapter, ch12, "main_rgba");

  // --- How the shape was chosen (on request; tile_shapes.hpp) ----------------
  chapter.add_section(
      "tile_shapes", "block-tile shapes compared: bytes per lane, rows per warp, blocks per SM (CUDA)",
      [](gauss::SectionContext& context) { tile_shapes(context, tile_opencl_shaped); },
      gauss::Chapter::SectionRuns::OnRequest);

  // The exercise (README, section Exercise): blur_tile.cl/.cu with the tile's
  // fill (the chunk copies, the wait and the barrier) left to the student.
  chapter.set_exercise("blur_tile.cl", {"main", "main_rgba"});
  return chapter;
}

}  // namespace chapter13

// The tests link this file without main() (GAUSS_CHAPTER_NO_MAIN) and run the
// very same variants on the golden images.
#ifndef GAUSS_CHAPTER_NO_MAIN
int main(int argc, char** argv) { return chapter13::make_chapter().run(argc, argv); }
#endif
