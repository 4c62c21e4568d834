// Chapter 10: the capstone. As fast as the memory allows.
//
// A blur that reads its input once and writes its output once can go no
// faster than a copy of the same bytes, and the copy is measured in the same
// run. This chapter's kernel aims at that ceiling: one pass over DRAM, wide
// loads and stores, every byte converted once, the vertical sums kept in
// registers, neighbours' sums shared between lanes instead of recomputed.
// It runs gray and RGBA images, any radius from 1 to 16, any size.
//
// Beside it, in the same run: NPP's Gaussian filter (where the CUDA toolkit
// has NPP), and, for scale, chapter 01's naive kernel.
#include <cmath>
#include <iostream>
#include <memory>
#include <string>
#include <utility>

#include "blur_fused_cl.hpp"  // blur_fused.cl, embedded at build time
#include "fused_plan.hpp"
#include "gauss/chapter.hpp"
#include "gauss/reference.hpp"
#ifdef GAUSS_HAVE_CUDA
#include "blur_fused.cuh"
#include "gauss/cuda.hpp"
#endif
#ifdef GAUSS_HAVE_NPP
#include "npp_blur.hpp"
#endif

// The earlier chapters, whose best steps run beside the capstone's kernel.
namespace chapter01 {
gauss::Chapter make_chapter();
}
namespace chapter02 {
gauss::Chapter make_chapter();
}
namespace chapter03 {
gauss::Chapter make_chapter();
}
namespace chapter05 {
gauss::Chapter make_chapter();
}
namespace chapter06 {
gauss::Chapter make_chapter();
}
namespace chapter07 {
gauss::Chapter make_chapter();
}

namespace chapter10 {
namespace {

// Adds chapter @p from's variant @p name, in both APIs, as "chNN_<name>", in
// its own pixel format. The earlier chapters' objects live as long as the
// program, so whatever their variants refer to stays valid.
void borrow(gauss::Chapter& into, const gauss::Chapter& from, const std::string& name) {
  for (gauss::Api api : {gauss::Api::OpenCL, gauss::Api::Cuda}) {
    const gauss::Variant* variant = from.find(name, api);
    if (variant == nullptr) continue;
    gauss::Variant copy = *variant;
    copy.name = "ch" + from.name().substr(0, 2) + "_" + name;
    copy.format = from.format_of(*variant);
    copy.description = from.name() + ": " + variant->description;
    into.add(std::move(copy));
  }
}

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

gauss::OpenClLaunch fused_opencl(gauss::OpenClSession& cl, const gauss::Problem& p) {
  return fused_opencl_shaped(cl, p, 0, -1);
}

// One sweep point: the copy ceiling and one variant on one API, at one image
// size or blur, as a row of the sweep's table (and of --csv / --json).
struct SweepPoint {
  std::string label;
  gauss::VariantResult copy;
  gauss::VariantResult result;
  gauss::RowShape shape;  // the image and blur measured, for the CSV/JSON rows
};

gauss::RowShape shape_of(const gauss::Image& image, const gauss::BlurSpec& blur) {
  return {image.width, image.height, image.channels, blur.sigma, blur.radius};
}

void print_sweep(gauss::SectionContext& context, const char* first_column, const std::vector<SweepPoint>& points,
                 const std::string& device) {
  gauss::Table table({{first_column, gauss::Table::Align::Left},
                      {"api", gauss::Table::Align::Left},
                      {"copy ms"},
                      {"fused ms"},
                      {"fused GB/s"},
                      {"% of copy"},
                      {"status", gauss::Table::Align::Left}});
  for (const SweepPoint& point : points) {
    const gauss::VariantResult& r = point.result;
    const bool ok = r.ok() && point.copy.ok();
    const double percent = 100.0 * point.copy.time.median_ms / r.time.median_ms;
    table.add_row({point.label, gauss::name_of(r.api), gauss::format_fixed(point.copy.time.median_ms, 4),
                   gauss::format_fixed(r.time.median_ms, 4), gauss::format_fixed(r.gbps(), 1),
                   gauss::format_fixed(percent, 1),
                   ok                ? "ok"
                   : r.error.empty() ? r.comparison.summary()
                                     : r.error});
    if (!ok) context.failed = true;
    gauss::ResultRow row;
    row.variant = r.name + "@" + point.label;
    row.api = gauss::name_of(r.api);
    row.device = device;
    row.runs = r.time.runs();
    row.median_ms = r.time.median_ms;
    row.min_ms = r.time.min_ms;
    row.max_ms = r.time.max_ms;
    row.gbps = r.gbps();
    row.percent_of_copy = percent;
    row.max_diff = r.comparison.max_abs_diff;
    row.differing = r.comparison.differing;
    row.psnr_db = r.comparison.psnr_db;
    row.ok = ok;
    row.status = ok ? "ok" : "MISMATCH";
    row.format = gauss::name_of(point.shape.channels == 4 ? gauss::PixelFormat::Rgba : gauss::PixelFormat::Gray);
    row.reference = "gaussian";
    row.shape = point.shape;
    context.rows.push_back(row);
  }
  table.print(context.out);
}

}  // namespace

gauss::Chapter make_chapter() {
  gauss::Chapter chapter("10_capstone", "as fast as the memory allows: one pass over DRAM");

  // --- The way here: the best step of each earlier chapter ---------------------
  // (Chapter 04's blur is chapter 03's separable one; chapters 08 and 09 time
  // transfers and sums around chapter 01's kernel.) Speed-ups are against
  // chapter 01's naive kernel.
  static const gauss::Chapter ch01 = chapter01::make_chapter();
  static const gauss::Chapter ch02 = chapter02::make_chapter();
  static const gauss::Chapter ch03 = chapter03::make_chapter();
  static const gauss::Chapter ch05 = chapter05::make_chapter();
  static const gauss::Chapter ch06 = chapter06::make_chapter();
  static const gauss::Chapter ch07 = chapter07::make_chapter();
  borrow(chapter, ch01, "naive");
  borrow(chapter, ch02, "naive_auto");
  borrow(chapter, ch03, "fir_separable");
  borrow(chapter, ch05, "separable_local");
  borrow(chapter, ch06, "constant_fixed");
  borrow(chapter, ch07, "rgba32_x4");
  chapter.set_baseline("ch01_naive");

  chapter.add_opencl("fused", "strips: 16-byte loads, vertical sums in registers, halo summed by each item",
                     fused_opencl);
  chapter.add_opencl("fused_rgba", "the same on RGBA (alpha carried)", fused_opencl).format = gauss::PixelFormat::Rgba;
#ifdef GAUSS_HAVE_CUDA
  auto fused_cuda = [](const gauss::Problem& p) -> gauss::CudaLaunch {
    return
        [p](const std::uint8_t* in, std::uint8_t* out, cudaStream_t stream) { launch_blur_fused(in, out, p, stream); };
  };
  chapter.add_cuda("fused", "warp strips: 16-byte loads, vertical sums in registers, neighbours via warp shuffles",
                   fused_cuda);
  chapter.add_cuda("fused_rgba", "the same on RGBA (alpha carried)", fused_cuda).format = gauss::PixelFormat::Rgba;
#endif
#ifdef GAUSS_HAVE_NPP
  // NPP needs the stream at set-up; the runner names it at the first launch
  // (a warm-up run), so the filter is made then, once.
  auto npp = [](const gauss::Problem& p) -> gauss::CudaLaunch {
    auto filter = std::make_shared<std::unique_ptr<NppGauss>>();
    return [p, filter](const std::uint8_t* in, std::uint8_t* out, cudaStream_t stream) {
      if (!*filter) *filter = std::make_unique<NppGauss>(p, stream);
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

  // --- Size sweep: from launch-bound to bandwidth-bound ----------------------
  // From a quarter megapixel to 100: small images finish before the GPU is
  // full and pay the launch; large ones move at a constant rate.
  chapter.add_section(
      "size_sweep", "size sweep: fused against the copy, 0.25 to 100 megapixels (gray)",
      [&chapter = std::as_const(chapter)](gauss::SectionContext& context) {
        const std::vector<double> megapixels{0.25, 0.5, 1, 2, 4, 8, 16, 30.1056, 64, 100};
        const gauss::RunSettings settings{context.options.warmup, context.options.repeat, 0.0};
        std::vector<SweepPoint> opencl_points;
        std::vector<SweepPoint> cuda_points;
        for (double mp : megapixels) {
          // 3:2 like the benchmark image (6720 x 4480 = 30.1 MP).
          const int width = static_cast<int>(std::lround(std::sqrt(mp * 1e6 * 1.5) / 16.0)) * 16;
          const int height = static_cast<int>(std::lround(width / 1.5));
          const gauss::Image input = gauss::resize(context.input, width, height);
          const gauss::Image reference = gauss::blur_reference(input, context.blur);
          const std::string label = std::to_string(width) + "x" + std::to_string(height);
          if (context.opencl != nullptr) {
            gauss::OpenClRunner runner(*context.opencl, input);
            opencl_points.push_back(
                {label, runner.copy(settings),
                 runner.run(*chapter.find("fused", gauss::Api::OpenCL), context.blur, reference, settings),
                 shape_of(input, context.blur)});
          }
#ifdef GAUSS_HAVE_CUDA
          if (context.cuda != nullptr) {
            gauss::CudaRunner runner(*context.cuda, input);
            cuda_points.push_back(
                {label, runner.copy(settings),
                 runner.run(*chapter.find("fused", gauss::Api::Cuda), context.blur, reference, settings),
                 shape_of(input, context.blur)});
          }
#endif
        }
        if (!opencl_points.empty()) print_sweep(context, "size", opencl_points, context.opencl->info.name);
#ifdef GAUSS_HAVE_CUDA
        if (!cuda_points.empty()) print_sweep(context, "size", cuda_points, context.cuda->name);
#endif
      },
      gauss::Chapter::SectionRuns::OnRequest);

  // --- Shapes: how the launch shape was chosen (radius 2) ----------------------
  chapter.add_section(
      "shapes", "launch shapes compared at radius 2: pixels per lane, rows per warp, rows loaded ahead",
      [](gauss::SectionContext& context) {
        const gauss::RunSettings settings{context.options.warmup, context.options.repeat, 0.0};
        const gauss::BlurSpec blur{context.blur.sigma, 2};
        for (gauss::PixelFormat format : {gauss::PixelFormat::Gray, gauss::PixelFormat::Rgba}) {
          const gauss::Image input = gauss::convert(context.input, format);
          const gauss::Image reference = gauss::blur_reference(input, blur);
          std::vector<SweepPoint> points;
          std::string device;
          if (context.opencl != nullptr) {
            device = context.opencl->info.name;
            gauss::OpenClRunner runner(*context.opencl, input);
            const gauss::VariantResult copy = runner.copy(settings);
            for (int rows : {16, 32})
              for (int ahead : {0, 4, 6, 8}) {
                if (input.channels == 4 && ahead == 4) continue;  // RGBA: 0, 6, 8
                gauss::Variant v;
                v.name = "fused";
                v.api = gauss::Api::OpenCL;
                v.tolerance = gauss::kFloatTolerance;
                v.opencl = [rows, ahead](gauss::OpenClSession& cl, const gauss::Problem& p) {
                  return fused_opencl_shaped(cl, p, rows, ahead);
                };
                const std::string label = std::to_string(rows) + " rows, " +
                                          (ahead == 0 ? std::string("none") : std::to_string(ahead)) + " ahead";
                points.push_back({label, copy, runner.run(v, blur, reference, settings), shape_of(input, blur)});
              }
          }
          if (!points.empty()) {
            context.out << gauss::name_of(format) << ", OpenCL:\n";
            print_sweep(context, "shape", points, device);
          }
#ifdef GAUSS_HAVE_CUDA
          points.clear();
          if (context.cuda != nullptr) {
            gauss::CudaRunner runner(*context.cuda, input);
            const gauss::VariantResult copy = runner.copy(settings);
            for (int shape = 0; shape < fused_shape_count(input.channels); ++shape) {
              gauss::Variant v;
              v.name = "fused";
              v.api = gauss::Api::Cuda;
              v.tolerance = gauss::kFloatTolerance;
              v.cuda = [shape](const gauss::Problem& p) -> gauss::CudaLaunch {
                return [p, shape](const std::uint8_t* in, std::uint8_t* out, cudaStream_t stream) {
                  launch_fused_shape(in, out, p, shape, stream);
                };
              };
              points.push_back({fused_shape_name(input.channels, shape), copy, runner.run(v, blur, reference, settings),
                                shape_of(input, blur)});
            }
            context.out << gauss::name_of(format) << ", CUDA (first row: the shape launch_blur_fused uses):\n";
            print_sweep(context, "shape", points, context.cuda->name);
          }
#endif
        }
      },
      gauss::Chapter::SectionRuns::OnRequest);

  // --- Radius sweep: every code path, gray and RGBA ---------------------------
  chapter.add_section(
      "radius_sweep", "radius sweep: fused at radius 1 to 16 (sigma = radius / 3), gray and RGBA",
      [&chapter = std::as_const(chapter)](gauss::SectionContext& context) {
        const gauss::RunSettings settings{context.options.warmup, context.options.repeat, 0.0};
        for (const char* name : {"fused", "fused_rgba"}) {
          std::vector<SweepPoint> opencl_points;
          std::vector<SweepPoint> cuda_points;
          const gauss::Variant* any = chapter.find(name, gauss::Api::OpenCL);
          const gauss::Image input = gauss::convert(context.input, chapter.format_of(*any));
          std::unique_ptr<gauss::OpenClRunner> opencl;
          if (context.opencl != nullptr) opencl = std::make_unique<gauss::OpenClRunner>(*context.opencl, input);
#ifdef GAUSS_HAVE_CUDA
          std::unique_ptr<gauss::CudaRunner> cuda;
          if (context.cuda != nullptr) cuda = std::make_unique<gauss::CudaRunner>(*context.cuda, input);
#endif
          for (int radius = 1; radius <= gauss::kMaxRadius; ++radius) {
            const gauss::BlurSpec blur{std::max(0.5, radius / 3.0), radius};
            const gauss::Image reference = gauss::blur_reference(input, blur);
            const std::string label = std::to_string(radius);
            if (opencl) {
              opencl_points.push_back({label, opencl->copy(settings),
                                       opencl->run(*chapter.find(name, gauss::Api::OpenCL), blur, reference, settings),
                                       shape_of(input, blur)});
            }
#ifdef GAUSS_HAVE_CUDA
            if (cuda) {
              cuda_points.push_back({label, cuda->copy(settings),
                                     cuda->run(*chapter.find(name, gauss::Api::Cuda), blur, reference, settings),
                                     shape_of(input, blur)});
            }
#endif
          }
          context.out << name << ":\n";
          if (!opencl_points.empty()) print_sweep(context, "radius", opencl_points, context.opencl->info.name);
#ifdef GAUSS_HAVE_CUDA
          if (!cuda_points.empty()) print_sweep(context, "radius", cuda_points, context.cuda->name);
#endif
        }
      },
      gauss::Chapter::SectionRuns::OnRequest);

  // The exercise (README, section Exercise): blur_fused.cl/.cu with the
  // vertical sums over the ring of rows (and the tile kernel's, OpenCL), and
  // CUDA's halo exchange through warp shuffles, left for the student.
  chapter.set_exercise("blur_fused.cl", {"fused", "fused_rgba"});
  return chapter;
}

}  // namespace chapter10

#ifndef GAUSS_CHAPTER_NO_MAIN
int main(int argc, char** argv) { return chapter10::make_chapter().run(argc, argv); }
#endif
