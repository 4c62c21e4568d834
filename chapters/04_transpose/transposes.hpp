// Chapter 04's second program part: the transposes and the V+T+V+T pipeline
// on the host side, and the two sections (the transposes on float images,
// Apple's estimate table). The declarations come first, then their
// definitions. Chapter 03's passes come from its passes.hpp (USES 03_coalescing).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "deriche_names.hpp"
#include "gauss/chapter.hpp"
#include "gauss/opencl.hpp"
#include "gauss/section_tools.hpp"
#include "gauss/table.hpp"
#include "gauss/variant.hpp"
#include "passes.hpp"        // chapter 03's launchers (USES 03_coalescing)
#include "transpose_cl.hpp"  // embedded transpose.cl
#include "transpose_kinds.hpp"
#ifdef GAUSS_HAVE_CUDA
#include "gauss/cuda.hpp"
#include "recursive_gauss.cuh"  // chapter 03's kernel (USES 03_coalescing)
#include "transpose.cuh"
#endif

namespace chapter04 {

/// "transpose_naive", "transpose_16", "transpose_16_padded", "transpose_16_skewed", "transpose_32x8".
std::string variant_name(TransposeKind kind);
/// One line for --list-variants.
std::string describe(TransposeKind kind);
/// Every kind, in order.
std::vector<TransposeKind> all_transposes();

/// The transpose of an image: height x width, out(y, x) = in(x, y). The reference of the transpose variants.
gauss::Image transpose_reference(const gauss::Image& input);

/// One transpose kernel (transpose.cl) built for one pair of element types.
class TransposeCl {
 public:
  TransposeCl(gauss::OpenClSession& cl, TransposeKind kind, chapter03::Element in, chapter03::Element out);

  /// Enqueues the transpose of a width x height image into a height x width
  /// one; pitches in elements.
  cl::Event enqueue(const cl::Buffer& in, int in_pitch, const cl::Buffer& out, int out_pitch, int width, int height);

 private:
  gauss::OpenClSession* cl_;
  TransposeKind kind_;
  cl::Kernel kernel_;
};

/// The 8-bit transpose as a variant (its output is height x width).
gauss::OpenClSetup transpose_opencl(TransposeKind kind);
#ifdef GAUSS_HAVE_CUDA
gauss::CudaSetup transpose_cuda(TransposeKind kind);
#endif

/// The transpose the pipeline uses.
inline constexpr TransposeKind kPipelineTranspose = TransposeKind::Tiled32x8;

/// Apple's fix for rgH: rgV, transpose, rgV, transpose. Both recursive passes
/// walk down columns (coalesced); the first reads the 8-bit image, the last
/// transpose writes it; everything between is float. Both rgV passes load
/// @p batch values per item before the arithmetic (chapter 03: 1, 16 or 32).
gauss::OpenClSetup pipeline_opencl(int batch = chapter03::kOneAtATime);
#ifdef GAUSS_HAVE_CUDA
gauss::CudaSetup pipeline_cuda(int batch = chapter03::kOneAtATime);
#endif

/// Section "transpose_float": every transpose on a float image of --size,
/// timed, checked exactly, as GB/s and % of the copy.
void transpose_float_section(gauss::SectionContext& context);

/// One row of Apple's estimate table.
struct Estimate {
  std::string algorithm;
  std::string variant;        ///< the variant measured for it ("" for the copy)
  double apple_floats = 0;    ///< floats read and written per pixel, as Apple counts them
  double apple_estimate = 0;  ///< Apple's MP/s: 14,200 x 2 / floats (Apple's copy rate 14,200 MP/s)
  double estimate = 0;        ///< the same from this run's copy: (copy GB/s / 4 bytes) / floats
  double bytes = 0;           ///< bytes per pixel of this tutorial's version (8-bit ends, float between)
};

/// Apple's Table 14-1 and 14-2 rows for @p radius (Apple: sigma 5, 31 taps,
/// radius 15), estimated from @p copy_gbps.
std::vector<Estimate> estimates(int radius, double copy_gbps);

/// Section "estimates": the table, with the MP/s this run measured beside it.
void estimates_section(gauss::SectionContext& context);

// --- Definitions ---------------------------------------------------------------------

using chapter03::Element;
using chapter03::Line;

inline std::string variant_name(TransposeKind kind) {
  switch (kind) {
    case TransposeKind::Naive:
      return "transpose_naive";
    case TransposeKind::Tiled16:
      return "transpose_16";
    case TransposeKind::Tiled16Padded:
      return "transpose_16_padded";
    case TransposeKind::Tiled16Skewed:
      return "transpose_16_skewed";
    case TransposeKind::Tiled32x8:
      return "transpose_32x8";
  }
  return "?";
}

inline std::string describe(TransposeKind kind) {
  switch (kind) {
    case TransposeKind::Naive:
      return "transpose, one item per pixel: coalesced reads, writes a column apart";
    case TransposeKind::Tiled16:
      return "transpose through a 16x16 local tile, no padding (Apple's transposeL)";
    case TransposeKind::Tiled16Padded:
      return "transpose through a 16x17 local tile (+1 column against bank conflicts)";
    case TransposeKind::Tiled16Skewed:
      return "transpose through a 16x16 tile in diagonal block order (Apple's transposeLS)";
    case TransposeKind::Tiled32x8:
      return "transpose with 32x8 items over a 32x33 tile, four pixels per item";
  }
  return "?";
}

inline std::vector<TransposeKind> all_transposes() {
  return {TransposeKind::Naive, TransposeKind::Tiled16, TransposeKind::Tiled16Padded, TransposeKind::Tiled16Skewed,
          TransposeKind::Tiled32x8};
}

inline gauss::Image transpose_reference(const gauss::Image& input) {
  gauss::Image output = gauss::Image::make(input.height, input.width, input.format());
  for (int y = 0; y < input.height; ++y)
    for (int x = 0; x < input.width; ++x)
      for (int c = 0; c < input.channels; ++c) output.at(y, x, c) = input.at(x, y, c);
  return output;
}

// ------------------------------------------------------------------- OpenCL ---

inline std::string build_options(TransposeKind kind, Element in, Element out) {
  auto name = [](Element e) { return e == Element::U8 ? "uchar" : "float"; };
  std::string options = std::string("-D IN_T=") + name(in) + " -D OUT_T=" + name(out) +
                        " -D ROUND_TO_BYTE=" + (in == Element::F32 && out == Element::U8 ? "1" : "0");
  if (kind == TransposeKind::Tiled16 || kind == TransposeKind::Tiled16Padded || kind == TransposeKind::Tiled16Skewed) {
    options += std::string(" -D TILE=16 -D PAD=") + (kind == TransposeKind::Tiled16Padded ? "1" : "0") +
               " -D SKEW=" + (kind == TransposeKind::Tiled16Skewed ? "1" : "0");
  }
  return options;
}

inline const char* kernel_name(TransposeKind kind) {
  switch (kind) {
    case TransposeKind::Naive:
      return "transpose_naive";
    case TransposeKind::Tiled32x8:
      return "transpose_32x8";
    default:
      return "transpose_tiled";
  }
}

inline TransposeCl::TransposeCl(gauss::OpenClSession& cl, TransposeKind kind, Element in, Element out)
    : cl_(&cl),
      kind_(kind),
      kernel_(cl.kernel(gauss::embedded::transpose_cl, kernel_name(kind), build_options(kind, in, out))) {}

inline cl::Event TransposeCl::enqueue(const cl::Buffer& in, int in_pitch, const cl::Buffer& out, int out_pitch,
                                      int width, int height) {
  gauss::sections::set_args(kernel_, in, in_pitch, out, out_pitch, width, height);
  // Whole groups over the image; the 32 x 8 kernel has one group per 32 x 32 tile.
  cl::NDRange global(gauss::round_up(width, 16), gauss::round_up(height, 16));
  cl::NDRange local(16, 16);
  if (kind_ == TransposeKind::Tiled32x8) {
    global = cl::NDRange(gauss::round_up(width, 32), gauss::round_up(height, 32) / 4);
    local = cl::NDRange(32, 8);
  }
  cl::Event done;
  cl_->queue.enqueueNDRangeKernel(kernel_, cl::NullRange, global, local, nullptr, &done);
  return done;
}

inline gauss::OpenClSetup transpose_opencl(TransposeKind kind) {
  return [kind](gauss::OpenClSession& cl, const gauss::Problem& p) -> gauss::OpenClLaunch {
    TransposeCl transpose(cl, kind, Element::U8, Element::U8);
    // The output image is height x width, rows height bytes apart.
    return [=](const cl::Buffer& in, const cl::Buffer& out) mutable {
      return std::vector<cl::Event>{
          transpose.enqueue(in, p.image.pitch, out, p.image.height, p.image.width, p.image.height)};
    };
  };
}

inline gauss::OpenClSetup pipeline_opencl(int batch) {
  return [batch](gauss::OpenClSession& cl, const gauss::Problem& p) -> gauss::OpenClLaunch {
    const int width = p.image.width;
    const int height = p.image.height;
    chapter03::RecursivePassCl first_down(cl, Line::Columns, Element::U8, Element::F32, chapter03::kLineGroup, batch);
    chapter03::RecursivePassCl second_down(cl, Line::Columns, Element::F32, Element::F32, chapter03::kLineGroup, batch);
    TransposeCl turn(cl, kPipelineTranspose, Element::F32, Element::F32);
    TransposeCl turn_back(cl, kPipelineTranspose, Element::F32, Element::U8);
    const cl::Buffer forward = chapter03::float_image(cl, width, height);  // the causal passes' scratch
    const cl::Buffer a = chapter03::float_image(cl, width, height);        // width x height, then reused
    const cl::Buffer b = chapter03::float_image(cl, height, width);        // height x width
    const chapter03::DericheTaps taps = chapter03::deriche_taps(p.blur.sigma);
    return [=](const cl::Buffer& in, const cl::Buffer& out) mutable {
      // rgV on the image: its columns, blurred, into a (width x height floats).
      const cl::Event first = first_down.enqueue(in, p.image.pitch, forward, width, a, width, width, height, taps);
      // Transpose into b (height x width): the image's rows are now columns.
      turn.enqueue(a, width, b, height, width, height);
      // rgV again: down b's columns, which are the image's rows, back into a.
      second_down.enqueue(b, height, forward, height, a, height, height, width, taps);
      // Transpose back into the 8-bit output, rounding.
      const cl::Event last = turn_back.enqueue(a, height, out, p.image.pitch, height, width);
      return std::vector<cl::Event>{first, last};
    };
  };
}

// --------------------------------------------------------------------- CUDA ---

#ifdef GAUSS_HAVE_CUDA
inline gauss::CudaSetup transpose_cuda(TransposeKind kind) {
  return [kind](const gauss::Problem& p) -> gauss::CudaLaunch {
    return [=](const std::uint8_t* in, std::uint8_t* out, cudaStream_t stream) {
      launch_transpose(kind, Element::U8, in, p.image.pitch, Element::U8, out, p.image.height, p.image.width,
                       p.image.height, stream);
    };
  };
}

inline gauss::CudaSetup pipeline_cuda(int batch) {
  return [batch](const gauss::Problem& p) -> gauss::CudaLaunch {
    const int width = p.image.width;
    const int height = p.image.height;
    const chapter03::CudaFloatImage forward(width, height);  // the causal passes' scratch
    const chapter03::CudaFloatImage a(width, height);        // width x height, then reused
    const chapter03::CudaFloatImage b(height, width);        // height x width
    const chapter03::DericheTaps taps = chapter03::deriche_taps(p.blur.sigma);
    return [=](const std::uint8_t* in, std::uint8_t* out, cudaStream_t stream) {
      float* scratch = forward.data();
      float* fa = a.data();
      float* fb = b.data();
      chapter03::launch_recursive(Line::Columns, batch, Element::U8, in, p.image.pitch, scratch, width, Element::F32,
                                  fa, width, width, height, taps, stream);
      launch_transpose(kPipelineTranspose, Element::F32, fa, width, Element::F32, fb, height, width, height, stream);
      chapter03::launch_recursive(Line::Columns, batch, Element::F32, fb, height, scratch, height, Element::F32, fa,
                                  height, height, width, taps, stream);
      launch_transpose(kPipelineTranspose, Element::F32, fa, height, Element::U8, out, p.image.pitch, height, width,
                       stream);
    };
  };
}
#endif

// ---------------------------------------------------- the transposes on floats ---

inline void transpose_float_section(gauss::SectionContext& context) {
  using gauss::sections::format_ms;
  using gauss::sections::format_significant;
  const int width = context.input.width;
  const int height = context.input.height;
  const std::size_t count = static_cast<std::size_t>(width) * static_cast<std::size_t>(height);
  const std::size_t bytes = count * sizeof(float);
  const gauss::RunSettings settings = gauss::sections::run_settings(context.options);

  // Every value different (pixel + a fraction that depends on the position),
  // so that a misplaced value cannot go unseen; the expected transpose.
  std::vector<float> input(count);
  for (std::size_t i = 0; i < count; ++i)
    input[i] = static_cast<float>(context.input.pixels[i]) + static_cast<float>(i % 1021) / 1024.0f;
  std::vector<float> expected(count);
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x)
      expected[static_cast<std::size_t>(x) * height + y] = input[static_cast<std::size_t>(y) * width + x];
  std::vector<float> poison(count);
  for (std::size_t i = 0; i < count; ++i) poison[i] = -1.0f - expected[i];

  context.out << "float " << width << " x " << height << " (" << format_significant(2.0 * bytes / 1e6)
              << " MB read and written per run), one buffer pair; GB/s = (bytes read + written) / median time; "
                 "% of copy against this run's 8-bit copy\n\n";
  gauss::Table table({{"variant", gauss::Table::Align::Left},
                      {"API", gauss::Table::Align::Left},
                      {"runs"},
                      {"median ms"},
                      {"min ms"},
                      {"GB/s"},
                      {"% of copy"},
                      {"check", gauss::Table::Align::Left}});
  gauss::sections::CsvFile csv({"variant", "api", "device", "width", "height", "runs", "median_ms", "min_ms", "max_ms",
                                "gbps", "percent_of_copy", "status"});

  auto report = [&](const std::string& api, const std::string& device, double copy_gbps, TransposeKind kind,
                    const gauss::TimingStats& time, const std::vector<float>& got) {
    const gauss::Comparison comparison = gauss::compare_floats(got.data(), expected.data(), height, width, 1, 0.0);
    const bool ok = comparison.matches();
    if (!ok) context.failed = true;
    const double gbps = gauss::gigabytes_per_second(2 * bytes, time.median_ms);
    const double percent = copy_gbps > 0 ? 100.0 * gbps / copy_gbps : 0.0;
    const std::string name = variant_name(kind) + "_float";
    table.add_row({name, api, std::to_string(time.runs()), format_ms(time.median_ms), format_ms(time.min_ms),
                   format_significant(gbps), copy_gbps > 0 ? gauss::format_fixed(percent, 1) : "-",
                   ok ? "exact" : comparison.summary()});
    csv.add({name, api, device, std::to_string(width), std::to_string(height), std::to_string(time.runs()),
             std::to_string(time.median_ms), std::to_string(time.min_ms), std::to_string(time.max_ms),
             std::to_string(gbps), copy_gbps > 0 ? std::to_string(percent) : "", ok ? "ok" : "MISMATCH"});
    context.rows.push_back(gauss::sections::result_row(name, api, device, time, gbps, copy_gbps, ok,
                                                       comparison.max_abs_diff, comparison.differing));
  };

  if (context.opencl != nullptr) {
    gauss::OpenClSession& cl = *context.opencl;
    cl::Buffer in(cl.context, CL_MEM_READ_ONLY, bytes);
    cl::Buffer out(cl.context, CL_MEM_READ_WRITE, bytes);
    cl.queue.enqueueWriteBuffer(in, CL_TRUE, 0, bytes, input.data());
    for (const TransposeKind kind : all_transposes()) {
      cl.queue.enqueueWriteBuffer(out, CL_TRUE, 0, bytes, poison.data());
      TransposeCl transpose(cl, kind, Element::F32, Element::F32);
      const gauss::TimingStats time = gauss::sections::time_opencl(
          cl.queue, [&] { return std::vector<cl::Event>{transpose.enqueue(in, width, out, height, width, height)}; },
          settings, variant_name(kind));
      std::vector<float> got(count);
      cl.queue.enqueueReadBuffer(out, CL_TRUE, 0, bytes, got.data());
      report("OpenCL", cl.info.name, context.opencl_copy_gbps, kind, time, got);
    }
  }
#ifdef GAUSS_HAVE_CUDA
  if (context.cuda != nullptr) {
    gauss::CudaBuffer in(bytes);
    gauss::CudaBuffer out(bytes);
    in.upload(input.data(), bytes);
    gauss::CudaStream stream;
    for (const TransposeKind kind : all_transposes()) {
      out.upload(poison.data(), bytes);
      const gauss::TimingStats time = gauss::sections::time_cuda(
          stream.get(),
          [&](cudaStream_t s) {
            launch_transpose(kind, Element::F32, in.data(), width, Element::F32, out.data(), height, width, height, s);
          },
          settings, variant_name(kind));
      std::vector<float> got(count);
      out.download(got.data(), bytes);
      report("CUDA", context.cuda->name, context.cuda_copy_gbps, kind, time, got);
    }
  }
#endif
  table.print(context.out);
  csv.write(context.options, "transpose_float", context.out);
}

// --------------------------------------------------------- Apple's estimates ---

inline std::vector<Estimate> estimates(int radius, double copy_gbps) {
  const double taps = 2.0 * radius + 1;
  // Apple's copy rate, 14,200 MP/s for a float copy (2 floats per pixel).
  const double apple_copy_floats = 14200.0 * 2;
  // This run's copy, in millions of floats per second: its bytes / 4.
  const double copy_floats = copy_gbps * 1e3 / 4;
  std::vector<Estimate> rows{
      {"copy", "", 2, 0, 0, 2},
      // Every tap read from memory, one write.
      {"2-D convolution " + std::to_string(static_cast<int>(taps)) + "x" + std::to_string(static_cast<int>(taps)),
       "naive", taps * taps + 1, 0, 0, taps * taps + 1},
      // Two passes of (taps reads + one write); here 8-bit in, float between, 8-bit out.
      {"separable convolution", "fir_separable", 2 * (taps + 1), 0, 0, taps * 1 + 4 + taps * 4 + 1},
      // Per direction: the causal pass reads the input and writes y+ (2), the
      // anti-causal reads the input and y+ and writes the output (3).
      // Here: rgV 8-bit to float (1+4 + 1+4+4 = 14 bytes), rgH float to 8-bit (4+4 + 4+4+1 = 17).
      {"recursive Gaussian (rgv_rgh)", "rgv_rgh", 10, 0, 0, 31},
      // Two recursive passes and two transposes (2 floats each); here rgV
      // 8-bit to float 14, transpose 8, rgV float to float 20, transpose to 8-bit 5.
      {"V+T+V+T (rgv_t_rgv_t)", "rgv_t_rgv_t", 14, 0, 0, 47},
      // The same two, each item loading 32 values of its line before the
      // arithmetic (chapter 03's memory-level parallelism): the same bytes.
      {"recursive, 32 in flight (rgv_rgh_b32)", "rgv_rgh_b32", 10, 0, 0, 31},
      {"V+T+V+T, 32 in flight (rgv_t_rgv_t_b32)", "rgv_t_rgv_t_b32", 14, 0, 0, 47},
  };
  for (Estimate& row : rows) {
    row.apple_estimate = apple_copy_floats / row.apple_floats;
    row.estimate = copy_floats / row.apple_floats;
  }
  return rows;
}

inline void estimates_section(gauss::SectionContext& context) {
  using gauss::sections::format_significant;
  const double pixels = static_cast<double>(context.input.width) * context.input.height;
  context.out << "Apple's Tables 14-1 and 14-2 (sigma 5, 31 taps; copy 14,200 MP/s) recomputed from this run's copy, "
                 "for radius "
              << context.blur.radius
              << ". estimate = copy rate in floats / floats per pixel (Apple's count); by bytes = copy GB/s / bytes "
                 "per pixel of this tutorial's version (8-bit in and out, float between); measured = width x height / "
                 "median time of the variant in the table above.\n";
  gauss::sections::CsvFile csv({"api", "algorithm", "variant", "radius", "apple_floats_per_pixel",
                                "apple_estimate_mpix_s", "estimate_mpix_s", "bytes_per_pixel",
                                "estimate_by_bytes_mpix_s", "measured_mpix_s"});
  auto table_for = [&](const char* api, double copy_gbps) {
    if (copy_gbps <= 0) return;
    gauss::Table table({{"algorithm", gauss::Table::Align::Left},
                        {"floats/px"},
                        {"Apple MP/s"},
                        {"estimate MP/s"},
                        {"bytes/px here"},
                        {"by bytes MP/s"},
                        {"measured MP/s"},
                        {"of by bytes"}});
    for (const Estimate& e : estimates(context.blur.radius, copy_gbps)) {
      const double by_bytes = copy_gbps * 1e3 / e.bytes;
      double measured = 0;
      if (e.variant.empty()) measured = copy_gbps * 1e3 / 2;  // the copy moves 2 bytes per pixel
      for (const gauss::ResultRow& row : context.rows)
        if (row.variant == e.variant && row.api == api && row.ok && row.median_ms > 0)
          measured = pixels / (row.median_ms * 1e3);
      csv.add({api, e.algorithm, e.variant.empty() ? "copy" : e.variant, std::to_string(context.blur.radius),
               std::to_string(e.apple_floats), std::to_string(e.apple_estimate), std::to_string(e.estimate),
               std::to_string(e.bytes), std::to_string(by_bytes), measured > 0 ? std::to_string(measured) : ""});
      table.add_row({e.algorithm, format_significant(e.apple_floats), format_significant(e.apple_estimate),
                     format_significant(e.estimate), format_significant(e.bytes), format_significant(by_bytes),
                     measured > 0 ? format_significant(measured) : "-",
                     measured > 0 ? gauss::format_fixed(100.0 * measured / by_bytes, 1) + "%" : "-"});
    }
    context.out << '\n' << api << " (copy " << format_significant(copy_gbps) << " GB/s):\n";
    table.print(context.out);
  };
  table_for("OpenCL", context.opencl_copy_gbps);
  table_for("CUDA", context.cuda_copy_gbps);
  csv.write(context.options, "estimates", context.out);
}

}  // namespace chapter04
