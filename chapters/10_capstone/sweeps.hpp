// Chapter 10's second program part: the sections that show where the time
// goes. Each point runs the copy and the fused kernel on the same image and
// API, and reports the kernel as a percentage of that copy
// (gauss/copy_sweep.hpp): against the image size, the launch shape and the
// radius. main.cpp adds them as sections (on request).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "fused_plan.hpp"
#include "gauss/chapter.hpp"
#include "gauss/copy_sweep.hpp"
#include "gauss/reference.hpp"
#include "gauss/runners.hpp"
#ifdef GAUSS_HAVE_CUDA
#include "blur_fused.cuh"
#include "blur_half2.cuh"
#include "copy_variants.cuh"
#include "gauss/cuda.hpp"
#endif

namespace chapter10 {

/// The OpenCL fused kernel's set-up with rows per item and rows loaded ahead
/// given (0 and -1: the defaults): main.cpp's fused_opencl_shaped.
using ShapedOpenCl = std::function<gauss::OpenClLaunch(gauss::OpenClSession& cl, const gauss::Problem& p,
                                                       int rows_override, int ahead_override)>;

/// The packed-half OpenCL kernel's shape: bytes per item, output rows per
/// item, rows loaded ahead (strips), whether NVIDIA's inline PTX (shuffles,
/// HFMA2, PRMT, cp.async) is used, and which kernel: main.cpp's
/// half2_opencl_with takes them.
struct HalfKnobs {
  int lane_bytes;
  int rows;
  int ahead;
  bool ptx;
  bool async = false;          ///< strips: rows ahead by cp.async into local memory (with ptx only)
  bool tile = false;           ///< block tiles in local memory (`ahead` unused; cp.async with ptx)
  bool one_in_flight = false;  ///< tiles, the ablation: each cp.async waited for before the next
};
using KnobbedOpenCl =
    std::function<gauss::OpenClLaunch(gauss::OpenClSession& cl, const gauss::Problem& p, const HalfKnobs& knobs)>;

/// Whether NVIDIA's inline PTX is used: on NVIDIA's platform only.
inline bool use_ptx(const gauss::OpenClSession& cl) {
  return cl.info.platform_name.find("NVIDIA") != std::string::npos;
}

/// The shape fused_plan.hpp ships: block tiles (`fused`).
inline HalfKnobs shipped_half2_knobs(const gauss::OpenClSession& cl, int channels) {
  return {fused::opencl_tile_lane_bytes(channels), fused::opencl_tile_rows(channels), 0, use_ptx(cl), false, true};
}

/// The warp strips, rows ahead in registers (fused_plan.hpp's half2_*): `fused_strip`.
inline HalfKnobs strip_half2_knobs(const gauss::OpenClSession& cl, int channels) {
  return {fused::half2_lane_bytes(channels), fused::half2_rows(channels), fused::half2_ahead(channels), use_ptx(cl)};
}

/// The strips with the rows ahead by cp.async (fused_plan.hpp's async_*): `fused_async`.
inline HalfKnobs async_half2_knobs(const gauss::OpenClSession& cl, int channels) {
  return {fused::async_lane_bytes(channels), fused::async_rows(channels), fused::async_ahead(channels), use_ptx(cl),
          true};
}

// --- The ceiling: is the table's copy the strongest one? --------------------
// Other copies of the same bytes, each checked (output = input) and timed
// like the table's rows, as a percentage of the table's copy; and, for CUDA,
// the device's peak DRAM bandwidth (memory clock x bus width x 2), against
// which no copy reaches 100%.
inline void ceiling(gauss::SectionContext& context) {
  const gauss::RunSettings settings{context.options.warmup, context.options.repeat, 0.0};
  for (gauss::PixelFormat format : {gauss::PixelFormat::Gray, gauss::PixelFormat::Rgba}) {
    const gauss::Image input = gauss::convert(context.input, format);
    auto copy_variant = [](const std::string& name, gauss::Api api) {
      gauss::Variant v;
      v.name = name;
      v.api = api;
      v.tolerance = 0;  // a copy is exact
      return v;
    };
    if (context.opencl != nullptr) {
      gauss::OpenClRunner runner(*context.opencl, input);
      const gauss::VariantResult copy = runner.copy(settings);
      gauss::Variant v = copy_variant("copy", gauss::Api::OpenCL);
      v.opencl = [](gauss::OpenClSession& cl, const gauss::Problem& p) -> gauss::OpenClLaunch {
        return [&cl, bytes = p.image.bytes()](const cl::Buffer& in, const cl::Buffer& out) {
          cl::Event done;
          cl.queue.enqueueCopyBuffer(in, out, 0, 0, bytes, nullptr, &done);
          return std::vector<cl::Event>{done};
        };
      };
      const std::vector<gauss::SweepPoint> points{
          {"the table's copy: 16 B per item", copy, copy, gauss::shape_of(input, context.blur)},
          {"clEnqueueCopyBuffer", copy, runner.run(v, context.blur, input, settings),
           gauss::shape_of(input, context.blur)}};
      context.out << gauss::name_of(format) << ", OpenCL:\n";
      gauss::print_sweep(context, "copy", points, context.opencl->info.name);
    }
#ifdef GAUSS_HAVE_CUDA
    if (context.cuda != nullptr) {
      gauss::CudaRunner runner(*context.cuda, input);
      const gauss::VariantResult copy = runner.copy(settings);
      std::vector<gauss::SweepPoint> points{
          {"the table's copy: 16 B per thread", copy, copy, gauss::shape_of(input, context.blur)}};
      for (int kind = 0; kind < copy_variant_count(); ++kind) {
        gauss::Variant v = copy_variant("copy", gauss::Api::Cuda);
        v.cuda = [kind](const gauss::Problem& p) -> gauss::CudaLaunch {
          return [kind, bytes = p.image.bytes()](const std::uint8_t* in, std::uint8_t* out, cudaStream_t stream) {
            launch_copy_variant(kind, in, out, bytes, stream);
          };
        };
        points.push_back({copy_variant_name(kind), copy, runner.run(v, context.blur, input, settings),
                          gauss::shape_of(input, context.blur)});
      }
      gauss::Variant memcpy_d2d = copy_variant("copy", gauss::Api::Cuda);
      memcpy_d2d.cuda = [](const gauss::Problem& p) -> gauss::CudaLaunch {
        return [bytes = p.image.bytes()](const std::uint8_t* in, std::uint8_t* out, cudaStream_t stream) {
          GAUSS_CUDA_CHECK(cudaMemcpyAsync(out, in, bytes, cudaMemcpyDeviceToDevice, stream));
        };
      };
      points.push_back({"cudaMemcpyAsync, device to device", copy,
                        runner.run(memcpy_d2d, context.blur, input, settings), gauss::shape_of(input, context.blur)});
      context.out << gauss::name_of(format) << ", CUDA:\n";
      gauss::print_sweep(context, "copy", points, context.cuda->name);
      const double peak = peak_dram_bytes_per_second(context.cuda->index);
      if (peak > 0 && copy.time.median_ms > 0) {
        const double copy_rate = 2.0 * static_cast<double>(input.bytes()) / (copy.time.median_ms * 1e-3);
        char line[200];
        std::snprintf(line, sizeof line,
                      "peak DRAM bandwidth from the device's attributes (memory clock x bus width x 2): %.2f TB/s; "
                      "the table's copy moves %.2f TB/s, %.1f%% of it\n\n",
                      peak / 1e12, copy_rate / 1e12, 100.0 * copy_rate / peak);
        context.out << line;
      }
    }
#endif
  }
}

// --- Size sweep: from launch-bound to bandwidth-bound ----------------------
// From a quarter megapixel to 100: small images finish before the GPU is
// full and pay the launch; large ones move at a constant rate.
inline void size_sweep(gauss::SectionContext& context, const gauss::Chapter& chapter) {
  const std::vector<double> megapixels{0.25, 0.5, 1, 2, 4, 8, 16, 30.1056, 64, 100};
  const gauss::RunSettings settings{context.options.warmup, context.options.repeat, 0.0};
  std::vector<gauss::SweepPoint> opencl_points;
  std::vector<gauss::SweepPoint> cuda_points;
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
           gauss::shape_of(input, context.blur)});
    }
#ifdef GAUSS_HAVE_CUDA
    if (context.cuda != nullptr) {
      gauss::CudaRunner runner(*context.cuda, input);
      cuda_points.push_back({label, runner.copy(settings),
                             runner.run(*chapter.find("fused", gauss::Api::Cuda), context.blur, reference, settings),
                             gauss::shape_of(input, context.blur)});
    }
#endif
  }
  if (!opencl_points.empty()) gauss::print_sweep(context, "size", opencl_points, context.opencl->info.name);
#ifdef GAUSS_HAVE_CUDA
  if (!cuda_points.empty()) gauss::print_sweep(context, "size", cuda_points, context.cuda->name);
#endif
}

// A point of the sections below: `fused` in another shape or with one choice
// taken back, checked like `fused` (float tolerance).
inline gauss::Variant fused_point(gauss::OpenClSetup setup) {
  gauss::Variant v;
  v.name = "fused";
  v.api = gauss::Api::OpenCL;
  v.tolerance = gauss::kFloatTolerance;
  v.opencl = std::move(setup);
  return v;
}
#ifdef GAUSS_HAVE_CUDA
inline gauss::Variant fused_point(gauss::CudaSetup setup) {
  gauss::Variant v;
  v.name = "fused";
  v.api = gauss::Api::Cuda;
  v.tolerance = gauss::kFloatTolerance;
  v.cuda = std::move(setup);
  return v;
}

// One CUDA point per shape of a list compiled into blur_fused.cu or
// blur_half2.cu (count, name and launch by index), each against the copy of
// the same runner; printed under @p title.
template <class Launch>
void cuda_shape_sweep(gauss::SectionContext& context, const gauss::Image& input, const gauss::BlurSpec& blur,
                      const gauss::Image& reference, const gauss::RunSettings& settings, int count,
                      const char* (*name)(int channels, int shape), Launch launch, const std::string& title) {
  gauss::CudaRunner runner(*context.cuda, input);
  const gauss::VariantResult copy = runner.copy(settings);
  std::vector<gauss::SweepPoint> points;
  for (int shape = 0; shape < count; ++shape) {
    const gauss::Variant v = fused_point([shape, launch](const gauss::Problem& p) -> gauss::CudaLaunch {
      return [p, shape, launch](const std::uint8_t* in, std::uint8_t* out, cudaStream_t stream) {
        launch(in, out, p, shape, stream);
      };
    });
    points.push_back(
        {name(input.channels, shape), copy, runner.run(v, blur, reference, settings), gauss::shape_of(input, blur)});
  }
  context.out << title;
  gauss::print_sweep(context, "shape", points, context.cuda->name);
}
#endif

// --- Shapes: how the launch shape was chosen (radius 2) ----------------------
inline void shapes(gauss::SectionContext& context, const ShapedOpenCl& fused_opencl_shaped) {
  const gauss::RunSettings settings{context.options.warmup, context.options.repeat, 0.0};
  const gauss::BlurSpec blur{context.blur.sigma, 2};
  for (gauss::PixelFormat format : {gauss::PixelFormat::Gray, gauss::PixelFormat::Rgba}) {
    const gauss::Image input = gauss::convert(context.input, format);
    const gauss::Image reference = gauss::blur_reference(input, blur);
    std::vector<gauss::SweepPoint> points;
    std::string device;
    if (context.opencl != nullptr) {
      device = context.opencl->info.name;
      gauss::OpenClRunner runner(*context.opencl, input);
      const gauss::VariantResult copy = runner.copy(settings);
      for (int rows : {16, 32})
        for (int ahead : {0, 4, 6, 8}) {
          if (input.channels == 4 && ahead == 4) continue;  // RGBA: 0, 6, 8
          const gauss::Variant v =
              fused_point([rows, ahead, fused_opencl_shaped](gauss::OpenClSession& cl, const gauss::Problem& p) {
                return fused_opencl_shaped(cl, p, rows, ahead);
              });
          const std::string label =
              std::to_string(rows) + " rows, " + (ahead == 0 ? std::string("none") : std::to_string(ahead)) + " ahead";
          points.push_back({label, copy, runner.run(v, blur, reference, settings), gauss::shape_of(input, blur)});
        }
    }
    if (!points.empty()) {
      context.out << gauss::name_of(format) << ", OpenCL:\n";
      gauss::print_sweep(context, "shape", points, device);
    }
#ifdef GAUSS_HAVE_CUDA
    if (context.cuda != nullptr)
      cuda_shape_sweep(context, input, blur, reference, settings, fused_shape_count(input.channels), fused_shape_name,
                       launch_fused_shape,
                       std::string(gauss::name_of(format)) + ", CUDA (first row: the shape launch_blur_fused uses):\n");
#endif
  }
}

// --- Block-tile shapes: bytes per lane, rows per warp, blocks per SM --------
// The block tiles (fused, fused_rgba at radius 2) in other shapes, at
// radius 2 with sigma 1 (the blur they serve): OpenCL's from -D options at
// run time, CUDA's from a list compiled in (blur_half2.cu), the first row
// of each the shape fused_plan.hpp ships.
inline void tile_shapes(gauss::SectionContext& context, const KnobbedOpenCl& half2_opencl) {
  const gauss::RunSettings settings{context.options.warmup, context.options.repeat, 0.0};
  const gauss::BlurSpec blur{1.0, 2};
  for (gauss::PixelFormat format : {gauss::PixelFormat::Gray, gauss::PixelFormat::Rgba}) {
    const gauss::Image input = gauss::convert(context.input, format);
    const gauss::Image reference = gauss::blur_reference(input, blur);
    if (context.opencl != nullptr) {
      gauss::OpenClRunner runner(*context.opencl, input);
      const gauss::VariantResult copy = runner.copy(settings);
      const HalfKnobs shipped = shipped_half2_knobs(*context.opencl, input.channels);
      std::vector<HalfKnobs> shapes{shipped};
      for (int lane_bytes : {8, 16})
        for (int rows : {2, 4, 8, 16})
          if (lane_bytes != shipped.lane_bytes || rows != shipped.rows)
            shapes.push_back({lane_bytes, rows, 0, shipped.ptx, false, true});
      std::vector<gauss::SweepPoint> points;
      for (const HalfKnobs& knobs : shapes) {
        const gauss::Variant v = fused_point([knobs, half2_opencl](gauss::OpenClSession& cl, const gauss::Problem& p) {
          return half2_opencl(cl, p, knobs);
        });
        const std::string label = std::to_string(knobs.lane_bytes) + " B, " + std::to_string(knobs.rows) + " rows" +
                                  (points.empty() ? " (shipped)" : "");
        points.push_back({label, copy, runner.run(v, blur, reference, settings), gauss::shape_of(input, blur)});
      }
      context.out << gauss::name_of(format) << ", OpenCL:\n";
      gauss::print_sweep(context, "shape", points, context.opencl->info.name);
    }
#ifdef GAUSS_HAVE_CUDA
    if (context.cuda != nullptr)
      cuda_shape_sweep(context, input, blur, reference, settings, half2_tile_shape_count(input.channels),
                       half2_tile_shape_name, launch_blur_half2_tile_shape,
                       std::string(gauss::name_of(format)) + ", CUDA:\n");
#endif
  }
}

// --- The ablation: the capstone with one technique taken out at a time ------
// Each row is the shipped packed-half kernel (block tiles, radius 2, sigma 1)
// with one of its choices taken back, and the chapter that taught it: what
// each idea is worth, measured in the same run against the same copy.
inline void ablation(gauss::SectionContext& context, const gauss::Chapter& chapter, const KnobbedOpenCl& half2_opencl) {
  const gauss::RunSettings settings{context.options.warmup, context.options.repeat, 0.0};
  const gauss::BlurSpec blur{1.0, 2};  // the blur the packed-half path serves
  for (gauss::PixelFormat format : {gauss::PixelFormat::Gray, gauss::PixelFormat::Rgba}) {
    const gauss::Image input = gauss::convert(context.input, format);
    const gauss::Image reference = gauss::blur_reference(input, blur);
    const char* float_kernel = format == gauss::PixelFormat::Gray ? "fused_f32" : "fused_rgba_f32";
    if (context.opencl != nullptr) {
      gauss::OpenClRunner runner(*context.opencl, input);
      const gauss::VariantResult copy = runner.copy(settings);
      const HalfKnobs shipped = shipped_half2_knobs(*context.opencl, input.channels);
      struct Knocked {
        std::string label;
        HalfKnobs knobs;
      };
      HalfKnobs one_in_flight = shipped, narrow = shipped, one_row = shipped, portable = shipped;
      one_in_flight.one_in_flight = true;
      narrow.lane_bytes = 8;
      one_row.rows = 1;
      portable.ptx = false;
      std::vector<Knocked> rows{{"as shipped (fused: block tiles)", shipped},
                                {"- block tiles: warp strips, rows ahead in registers (fused_strip)",
                                 strip_half2_knobs(*context.opencl, input.channels)}};
      if (shipped.ptx) rows.push_back({"- loads in flight: one cp.async at a time per item (03)", one_in_flight});
      if (shipped.lane_bytes == 16) rows.push_back({"- wide lanes: 8-byte loads and stores (03)", narrow});
      rows.push_back({"- rows per item: 1 output row per 8 tile rows loaded (02)", one_row});
      if (shipped.ptx) rows.push_back({"- inline PTX: portable OpenCL C, no shuffles, no cp.async (10)", portable});
      std::vector<gauss::SweepPoint> points;
      for (const Knocked& row : rows) {
        const gauss::Variant v =
            fused_point([knobs = row.knobs, half2_opencl](gauss::OpenClSession& cl, const gauss::Problem& p) {
              return half2_opencl(cl, p, knobs);
            });
        points.push_back({row.label, copy, runner.run(v, blur, reference, settings), gauss::shape_of(input, blur)});
      }
      points.push_back({"- packed halves: float sums (10, fused_f32)", copy,
                        runner.run(*chapter.find(float_kernel, gauss::Api::OpenCL), blur, reference, settings),
                        gauss::shape_of(input, blur)});
      context.out << gauss::name_of(format) << ", OpenCL:\n";
      gauss::print_sweep(context, "ablation", points, context.opencl->info.name);
    }
#ifdef GAUSS_HAVE_CUDA
    if (context.cuda != nullptr) {
      gauss::CudaRunner runner(*context.cuda, input);
      const gauss::VariantResult copy = runner.copy(settings);
      const std::pair<HalfAblation, std::string> rows[] = {
          {HalfAblation::Shipped, "as shipped (fused: block tiles)"},
          {HalfAblation::WarpStrips, "- block tiles: warp strips, rows ahead in registers (fused_strip)"},
          {HalfAblation::OneLoadInFlight, "- loads in flight: one cp.async at a time per thread (03)"},
          {HalfAblation::NarrowLanes, "- wide lanes: 8-byte loads and stores (03)"},
          {HalfAblation::OneRowPerWarp, "- rows per warp: 1 output row per 8 tile rows loaded (02)"},
          {HalfAblation::NoLaunchBounds, "- launch bounds: no blocks-per-SM floor on registers (02)"}};
      std::vector<gauss::SweepPoint> points;
      for (const auto& [which, label] : rows) {
        if (!half2_ablation_applies(which, input.channels)) continue;
        const gauss::Variant v = fused_point([which = which](const gauss::Problem& p) -> gauss::CudaLaunch {
          return [p, which](const std::uint8_t* in, std::uint8_t* out, cudaStream_t stream) {
            launch_blur_half2_ablated(which, in, out, p, stream);
          };
        });
        points.push_back({label, copy, runner.run(v, blur, reference, settings), gauss::shape_of(input, blur)});
      }
      points.push_back({"- packed halves: float sums (10, fused_f32)", copy,
                        runner.run(*chapter.find(float_kernel, gauss::Api::Cuda), blur, reference, settings),
                        gauss::shape_of(input, blur)});
      context.out << gauss::name_of(format) << ", CUDA:\n";
      gauss::print_sweep(context, "ablation", points, context.cuda->name);
    }
#endif
  }
}

// --- Radius sweep: every code path, gray and RGBA ---------------------------
inline void radius_sweep(gauss::SectionContext& context, const gauss::Chapter& chapter) {
  const gauss::RunSettings settings{context.options.warmup, context.options.repeat, 0.0};
  for (const char* name : {"fused", "fused_rgba"}) {
    std::vector<gauss::SweepPoint> opencl_points;
    std::vector<gauss::SweepPoint> cuda_points;
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
                                 gauss::shape_of(input, blur)});
      }
#ifdef GAUSS_HAVE_CUDA
      if (cuda) {
        cuda_points.push_back({label, cuda->copy(settings),
                               cuda->run(*chapter.find(name, gauss::Api::Cuda), blur, reference, settings),
                               gauss::shape_of(input, blur)});
      }
#endif
    }
    context.out << name << ":\n";
    if (!opencl_points.empty()) gauss::print_sweep(context, "radius", opencl_points, context.opencl->info.name);
#ifdef GAUSS_HAVE_CUDA
    if (!cuda_points.empty()) gauss::print_sweep(context, "radius", cuda_points, context.cuda->name);
#endif
  }
}

}  // namespace chapter10
