// Chapter 14's second program part: the sections that show where the time
// goes. Each point runs the copy and a kernel on the same image and API and
// reports the kernel as a percentage of that copy (gauss/copy_sweep.hpp):
// every copy we can write (the ceiling), the image size, the kernel's shapes,
// the ablation (the shipped kernel with one technique taken out at a time),
// and the SM-side floor (the kernel with its data in the L2 cache). main.cpp
// adds them as sections (on request).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "capstone_plan.hpp"
#include "gauss/chapter.hpp"
#include "gauss/copy_sweep.hpp"
#include "gauss/reference.hpp"
#include "gauss/runners.hpp"
#include "gauss/section_tools.hpp"
#include "half2_plan.hpp"
#ifdef GAUSS_HAVE_CUDA
#include "blur_capstone.cuh"
#include "copy_variants.cuh"
#include "gauss/cuda.hpp"
#endif

namespace chapter14 {

/// The OpenCL set-up of blur_capstone.cl with the knobs given (main.cpp's).
using KnobbedOpenCl = std::function<gauss::OpenClLaunch(gauss::OpenClSession& cl, const gauss::Problem& p,
                                                        const capstone::Knobs& knobs, bool ptx)>;

/// NVIDIA's platform takes inline PTX; every other platform the portable kernel.
inline bool use_ptx(const gauss::OpenClSession& cl) {
  return cl.info.platform_name.find("NVIDIA") != std::string::npos;
}

// A point of the sections: the capstone in another shape or with a technique
// taken out, checked like `main` (float tolerance).
inline gauss::Variant point(gauss::OpenClSetup setup) {
  gauss::Variant v;
  v.name = "main";
  v.api = gauss::Api::OpenCL;
  v.tolerance = gauss::kFloatTolerance;
  v.opencl = std::move(setup);
  return v;
}
#ifdef GAUSS_HAVE_CUDA
inline gauss::Variant point(gauss::CudaSetup setup) {
  gauss::Variant v;
  v.name = "main";
  v.api = gauss::Api::Cuda;
  v.tolerance = gauss::kFloatTolerance;
  v.cuda = std::move(setup);
  return v;
}
#endif

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
// From a quarter megapixel to 100: small images finish before the GPU is full
// and pay the launch; large ones move at a constant rate.
inline void size_sweep(gauss::SectionContext& context, const gauss::Chapter& chapter) {
  const std::vector<double> megapixels{0.25, 0.5, 1, 2, 4, 8, 16, 30.1056, 64, 100};
  const gauss::RunSettings settings{context.options.warmup, context.options.repeat, 0.0};
  for (const char* name : {"main", "main_rgba"}) {
    std::vector<gauss::SweepPoint> opencl_points, cuda_points;
    const gauss::Variant* any = chapter.find(name, gauss::Api::OpenCL);
    for (double mp : megapixels) {
      if (any->format == gauss::PixelFormat::Rgba && mp > 64) continue;  // 400 MB per image: enough at 64
      const int width = static_cast<int>(std::lround(std::sqrt(mp * 1e6 * 1.5) / 16.0)) * 16;  // 3:2
      const int height = static_cast<int>(std::lround(width / 1.5));
      const gauss::Image input = gauss::convert(gauss::resize(context.input, width, height), chapter.format_of(*any));
      const gauss::Image reference = gauss::blur_reference(input, context.blur);
      const std::string label = std::to_string(width) + "x" + std::to_string(height);
      if (context.opencl != nullptr) {
        gauss::OpenClRunner runner(*context.opencl, input);
        opencl_points.push_back({label, runner.copy(settings), runner.run(*any, context.blur, reference, settings),
                                 gauss::shape_of(input, context.blur)});
      }
#ifdef GAUSS_HAVE_CUDA
      if (context.cuda != nullptr) {
        gauss::CudaRunner runner(*context.cuda, input);
        cuda_points.push_back({label, runner.copy(settings),
                               runner.run(*chapter.find(name, gauss::Api::Cuda), context.blur, reference, settings),
                               gauss::shape_of(input, context.blur)});
      }
#endif
    }
    context.out << name << ":\n";
    if (!opencl_points.empty()) gauss::print_sweep(context, "size", opencl_points, context.opencl->info.name);
#ifdef GAUSS_HAVE_CUDA
    if (!cuda_points.empty()) gauss::print_sweep(context, "size", cuda_points, context.cuda->name);
#endif
  }
}

// --- The ablation and the shapes: the same kernel, other knobs ------------------
// Each row is the shipped kernel (radius 2, sigma 1) with one technique taken
// out, and the chapter that taught it: what each idea is worth, measured in
// the same run against the same copy. `shapes` times the shapes the shipped
// one was chosen from.
struct KnobbedPoint {
  std::string label;
  capstone::Knobs knobs;
  int cuda_index;  ///< ablation or shape index of blur_capstone.cu; -1: OpenCL only
};

/// Each point of @p points_of (for a pixel format, and whether OpenCL runs
/// inline PTX) in OpenCL through @p overlap_opencl and, where the point has a
/// CUDA index, in CUDA through @p launch_cuda(index, in, out, problem, stream).
template <class LaunchCuda>
void knob_sweep(gauss::SectionContext& context, const KnobbedOpenCl& overlap_opencl, const char* title,
                const std::function<std::vector<KnobbedPoint>(int channels, bool ptx)>& points_of,
                [[maybe_unused]] LaunchCuda launch_cuda) {
  const gauss::RunSettings settings{context.options.warmup, context.options.repeat, 0.0};
  const gauss::BlurSpec blur{1.0, 2};  // the blur the packed-half path serves
  for (gauss::PixelFormat format : {gauss::PixelFormat::Gray, gauss::PixelFormat::Rgba}) {
    const gauss::Image input = gauss::convert(context.input, format);
    const gauss::Image reference = gauss::blur_reference(input, blur);
    if (context.opencl != nullptr) {
      gauss::OpenClRunner runner(*context.opencl, input);
      const gauss::VariantResult copy = runner.copy(settings);
      const bool ptx = use_ptx(*context.opencl);
      std::vector<gauss::SweepPoint> points;
      for (const KnobbedPoint& row : points_of(input.channels, ptx)) {
        const gauss::Variant v =
            point([knobs = row.knobs, ptx, overlap_opencl](gauss::OpenClSession& cl, const gauss::Problem& p) {
              return overlap_opencl(cl, p, knobs, ptx);
            });
        points.push_back({row.label, copy, runner.run(v, blur, reference, settings), gauss::shape_of(input, blur)});
      }
      context.out << gauss::name_of(format) << ", OpenCL (" << title << "):\n";
      gauss::print_sweep(context, title, points, context.opencl->info.name);
    }
#ifdef GAUSS_HAVE_CUDA
    if (context.cuda != nullptr) {
      gauss::CudaRunner runner(*context.cuda, input);
      const gauss::VariantResult copy = runner.copy(settings);
      std::vector<gauss::SweepPoint> points;
      for (const KnobbedPoint& row : points_of(input.channels, true)) {
        if (row.cuda_index < 0) continue;
        const gauss::Variant v = point([index = row.cuda_index, launch_cuda](const gauss::Problem& p) {
          return gauss::CudaLaunch(
              [p, index, launch_cuda](const std::uint8_t* in, std::uint8_t* out, cudaStream_t stream) {
                launch_cuda(index, in, out, p, stream);
              });
        });
        points.push_back({row.label, copy, runner.run(v, blur, reference, settings), gauss::shape_of(input, blur)});
      }
      context.out << gauss::name_of(format) << ", CUDA (" << title << "):\n";
      gauss::print_sweep(context, title, points, context.cuda->name);
    }
#endif
  }
}

// --- The packed halves at every radius they serve, on any OpenCL device --------
// The tile `main` runs (capstone::main_knobs) in packed halves at radius 1
// to 5 (RGBA to 4), sigma =
// max(0.5, radius / 3), each against the reference: through inline PTX on
// NVIDIA's platform, and elsewhere with its halves emulated in OpenCL C and
// each item summing its neighbours (no shuffles): correct, a hundred times
// slower, so that PoCL and Oclgrind check the arithmetic of every radius
// that `main` runs in halves on a GPU. A point that differs fails the run.
inline void halves_check(gauss::SectionContext& context, const KnobbedOpenCl& capstone_opencl) {
  if (context.opencl == nullptr) {
    context.out << "halves_check: OpenCL only (CUDA's main is checked by the variants themselves)\n";
    return;
  }
  const gauss::RunSettings settings{context.options.warmup, context.options.repeat, 0.0};
  const bool ptx = use_ptx(*context.opencl);
  for (gauss::PixelFormat format : {gauss::PixelFormat::Gray, gauss::PixelFormat::Rgba}) {
    const gauss::Image input = gauss::convert(context.input, format);
    gauss::OpenClRunner runner(*context.opencl, input);
    const gauss::VariantResult copy = runner.copy(settings);
    std::vector<gauss::SweepPoint> points;
    for (int radius = 1; radius <= capstone::wide_max_radius(input.channels); ++radius) {
      const gauss::BlurSpec blur{std::max(0.5, radius / 3.0), radius};
      if (!half2::wide_half2_weights(blur)) continue;  // not proven: main would not take it either
      capstone::Knobs knobs = capstone::main_knobs(input.channels, radius, true);
      knobs.shuffles = ptx;  // OpenCL C 1.2 has no shuffle
      const gauss::Image reference = gauss::blur_reference(input, blur);
      const gauss::Variant v = point([knobs, ptx, capstone_opencl](gauss::OpenClSession& cl, const gauss::Problem& p) {
        return capstone_opencl(cl, p, knobs, ptx);
      });
      points.push_back(
          {std::to_string(radius), copy, runner.run(v, blur, reference, settings), gauss::shape_of(input, blur)});
    }
    context.out << gauss::name_of(format) << ", OpenCL (" << (ptx ? "PTX" : "halves emulated") << "):\n";
    gauss::print_sweep(context, "radius", points, context.opencl->info.name);
  }
}

/// The portable OpenCL kernel's knobs (no PTX: floats, no shuffles, plain
/// loads and a barrier to fill the tile; 8-byte lanes, since every value
/// takes a register of its own).
inline capstone::Knobs portable_knobs(int channels) {
  capstone::Knobs k = capstone::shipped(channels, true);
  k.lane_bytes = 8;
  k.halves = false;
  k.shuffles = false;
  return k;
}

/// The overlap candidate's portable form (the next stage in registers while
/// the current one is computed: two stages).
inline capstone::Knobs portable_stream_knobs(int channels) {
  capstone::Knobs k = capstone::streaming(channels);
  k.lane_bytes = 8;
  k.halves = false;
  k.shuffles = false;
  k.stages = 2;
  return k;
}

/// The ablation's rows for one pixel format: every technique that the
/// shipped kernel has and the API can take out (the portable kernel has no
/// packed halves, shuffles or cp.async to take out).
inline std::vector<KnobbedPoint> ablation_points(int channels, bool ptx) {
  std::vector<KnobbedPoint> rows;
  for (int a = 0; a < static_cast<int>(capstone::Ablation::Count); ++a) {
    const auto which = static_cast<capstone::Ablation>(a);
    if (!capstone::applies(channels, which, !ptx)) continue;
    if (ptx) {
      // OpenCL builds its own shipped shape (16-byte lanes; gray 4 rows); CUDA's index is the same ablation.
      rows.push_back({capstone::ablation_name(which), capstone::ablated(channels, which, true), a});
    } else if (which == capstone::Ablation::Shipped || which == capstone::Ablation::NoRing ||
               which == capstone::Ablation::OneRowPerWarp) {
      capstone::Knobs k = portable_knobs(channels);
      if (which == capstone::Ablation::NoRing) k.ring = false;
      if (which == capstone::Ablation::OneRowPerWarp) k.rows = 1;
      rows.push_back({which == capstone::Ablation::Shipped ? "portable kernel as shipped (floats, no PTX)"
                                                           : capstone::ablation_name(which),
                      k, -1});
    }
  }
  return rows;
}

/// The overlap candidate's shapes: capstone_plan.hpp's kShapes (OpenCL
/// without PTX: its portable form in the same shapes).
inline std::vector<KnobbedPoint> shape_points(int channels, bool ptx) {
  std::vector<KnobbedPoint> rows;
  for (int i = 0; i < capstone::kShapeCount; ++i) {
    capstone::Knobs k = capstone::shape(channels, i);
    if (!ptx) {
      const capstone::Knobs portable = portable_stream_knobs(channels);
      k.halves = portable.halves;
      k.shuffles = portable.shuffles;
      k.stages = k.stages < 2 ? k.stages + 1 : k.stages;  // the portable ring without registers needs two
      k.lane_bytes = portable.lane_bytes;
    }
    rows.push_back({capstone::kShapes[i].name, k, i});
  }
  return rows;
}

// --- The SM-side floor: the kernel with its data in the L2 cache ----------------
// The kernel's time with input and output in the L2 cache is what its SMs
// take (instructions, latencies, launch and tail) with a memory faster than
// any DRAM: a floor under its time on any GPU with these SMs. To keep the
// whole image's grid and still fit the 50-60 MB L2, the kernel writes over its
// own input (the output is then wrong, the instructions are not: no branch
// depends on a pixel) and, for RGBA, rows lie 6720 bytes apart, overlapping,
// so that the image spans 30 MB like the gray one. The copy in place is
// printed beside it for scale. Medians of back-to-back runs, device events.
struct FloorRow {
  std::string what;
  gauss::TimingStats time;
};

inline void print_floor(gauss::SectionContext& context, const std::string& api, const std::string& device,
                        const std::vector<FloorRow>& rows, std::size_t bytes) {
  context.out << api << " on " << device << ", data in L2 (one buffer, in place, 30 MB):\n";
  for (const FloorRow& row : rows) {
    context.out << "  " << row.what << ": " << gauss::sections::format_ms(row.time.median_ms) << " ms (min "
                << gauss::sections::format_ms(row.time.min_ms) << ", " << row.time.runs() << " runs)\n";
    context.rows.push_back(gauss::sections::timing_row("l2_floor." + row.what, api, device, row.time, bytes, true,
                                                       "ok (in L2, in place)"));
  }
  context.out << "\n";
}

inline void l2_floor(gauss::SectionContext& context, const gauss::Chapter& chapter) {
  const gauss::RunSettings settings{context.options.warmup, context.options.repeat, 0.0};
  const gauss::BlurSpec blur = context.blur;  // the run's: --sigma and --radius (default sigma 1, radius 2)
  for (int channels : {1, 4}) {
    // 6720 x 4480 as the benchmark; RGBA rows 6720 bytes apart (overlapping) to stay at 30 MB.
    const gauss::ImageGeometry g{context.input.width, context.input.height, channels, context.input.width};
    const std::size_t bytes = static_cast<std::size_t>(g.pitch) * (g.height - 1) + g.width * channels;
    const gauss::Problem problem = gauss::make_problem(g, blur);
    for (const std::string& kernel :
         {std::string(channels == 4 ? "main_rgba" : "main"), std::string(channels == 4 ? "overlap_rgba" : "overlap")}) {
      if (context.opencl != nullptr) {
        gauss::OpenClSession& cl = *context.opencl;
        cl::Buffer buffer(cl.context, CL_MEM_READ_WRITE, bytes);
        cl.queue.enqueueFillBuffer(buffer, cl_uchar{77}, 0, bytes);
        gauss::OpenClLaunch launch = chapter.find(kernel, gauss::Api::OpenCL)->opencl(cl, problem);
        const gauss::TimingStats time = gauss::sections::time_opencl(
            cl.queue, [&] { return launch(buffer, buffer); }, settings, kernel + " in L2");
        print_floor(context, "OpenCL", cl.info.name, {{kernel, time}}, bytes);
      }
#ifdef GAUSS_HAVE_CUDA
      if (context.cuda != nullptr) {
        gauss::CudaBuffer buffer(bytes);
        GAUSS_CUDA_CHECK(cudaMemset(buffer.data(), 77, bytes));
        GAUSS_CUDA_CHECK(cudaDeviceSynchronize());  // the stream below is non-blocking
        gauss::CudaStream stream;
        gauss::CudaLaunch launch = chapter.find(kernel, gauss::Api::Cuda)->cuda(problem);
        const gauss::TimingStats time = gauss::sections::time_cuda(
            stream.get(), [&](cudaStream_t s) { launch(buffer.data(), buffer.data(), s); }, settings,
            kernel + " in L2");
        const gauss::TimingStats copy = gauss::sections::time_cuda(
            stream.get(), [&](cudaStream_t s) { gauss::launch_copy_kernel(buffer.data(), buffer.data(), bytes, s); },
            settings, "copy in L2");
        print_floor(context, "CUDA", context.cuda->name, {{kernel, time}, {"copy", copy}}, bytes);
      }
#endif
    }
  }
}

}  // namespace chapter14
