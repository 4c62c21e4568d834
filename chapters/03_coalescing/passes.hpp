// Chapter 03's second program part: the GPU passes on the host side, in both
// APIs (building and enqueueing one recursive or FIR pass, the full recursive
// blur as a variant set-up), and the width sweep that times one pass against
// the image's width (section "width_sweep"). The declarations come first,
// then their definitions. These are the launchers of chapter 03's kernels:
// chapter 04, which borrows the kernels (USES 03_coalescing puts this folder
// on its include path), launches them through this file.
#pragma once

#include <iterator>
#include <memory>
#include <string>
#include <vector>

#include "gauss/blur.hpp"
#include "gauss/chapter.hpp"
#include "gauss/deriche.hpp"
#include "gauss/opencl.hpp"
#include "gauss/section_tools.hpp"
#include "gauss/table.hpp"
#include "gauss/variant.hpp"
#include "gaussian_fir_cl.hpp"     // embedded gaussian_fir.cl
#include "recursive_gauss_cl.hpp"  // embedded recursive_gauss.cl
#ifdef GAUSS_HAVE_CUDA
#include "gauss/cuda.hpp"
#include "gaussian_fir.cuh"
#include "recursive_gauss.cuh"
#endif

namespace chapter03 {

/// Work-items per group of the recursive passes. One item owns a whole line,
/// so a 6720-pixel-wide image has only 6720 column items in all; groups of
/// one warp spread them over 210 groups, more than the H200's 132 SMs (groups
/// of 64 would leave 27 SMs without work).
inline constexpr int kLineGroup = 32;

/// One recursive pass (recursive_gauss.cl) built for one pair of element types.
class RecursivePassCl {
 public:
  RecursivePassCl(gauss::OpenClSession& cl, Line line, Element in, Element out, int group = kLineGroup);

  /// Enqueues the pass over a width x height image. Pitches are in elements;
  /// @p forward is a float scratch image for the causal pass.
  cl::Event enqueue(const cl::Buffer& in, int in_pitch, const cl::Buffer& forward, int forward_pitch,
                    const cl::Buffer& out, int out_pitch, int width, int height, const DericheTaps& taps);

 private:
  gauss::OpenClSession* cl_;
  cl::Kernel kernel_;
  Line line_;
  int group_;
};

/// One FIR pass (gaussian_fir.cl): along rows 8-bit to 8-bit or float; along
/// columns 8-bit or float to 8-bit; one item per pixel in 16 x 16 groups.
class FirPassCl {
 public:
  FirPassCl(gauss::OpenClSession& cl, Line line, int radius, Element in, Element out);

  cl::Event enqueue(const cl::Buffer& in, int in_pitch, const cl::Buffer& out, int out_pitch, int width, int height,
                    const gauss::GaussTaps& taps);

 private:
  gauss::OpenClSession* cl_;
  cl::Kernel kernel_;
};

/// A width x height float scratch image on the OpenCL device (rows width floats apart).
cl::Buffer float_image(gauss::OpenClSession& cl, int width, int height);

#ifdef GAUSS_HAVE_CUDA
/// A width x height float scratch image in CUDA device memory (rows width
/// floats apart). Copies share the memory: a launch function is copied
/// around, its scratch images are not.
class CudaFloatImage {
 public:
  CudaFloatImage(int width, int height);
  float* data() const;

 private:
  std::shared_ptr<gauss::CudaBuffer> buffer_;
};
#endif

// --- Variant set-ups (8-bit image in, 8-bit image out) -----------------------------

/// One recursive pass alone, rgH (Line::Rows) or rgV (Line::Columns); the
/// causal pass's results wait in a float scratch image allocated at set-up.
gauss::OpenClSetup recursive_pass_opencl(Line line);
/// One FIR pass alone, along rows or down columns, one item per pixel.
gauss::OpenClSetup fir_pass_opencl(Line line);
/// The separable FIR blur: rows into a float image, then columns into the output.
gauss::OpenClSetup fir_separable_opencl();
#ifdef GAUSS_HAVE_CUDA
gauss::CudaSetup recursive_pass_cuda(Line line);
gauss::CudaSetup fir_pass_cuda(Line line);
gauss::CudaSetup fir_separable_cuda();
#endif

/// The full recursive blur, rgV then rgH: the 8-bit image down the columns
/// into a float image, that along the rows into the 8-bit output. Its
/// float scratch images are allocated once, at set-up.
gauss::OpenClSetup recursive_blur_opencl();
#ifdef GAUSS_HAVE_CUDA
gauss::CudaSetup recursive_blur_cuda();
#endif

// --- Definitions ---------------------------------------------------------------------

// The build options that choose a kernel's element types.
inline std::string type_options(Element in, Element out) {
  auto name = [](Element e) { return e == Element::U8 ? "uchar" : "float"; };
  return std::string("-D IN_T=") + name(in) + " -D OUT_T=" + name(out) +
         " -D OUT_IS_BYTE=" + (out == Element::U8 ? "1" : "0");
}

inline RecursivePassCl::RecursivePassCl(gauss::OpenClSession& cl, Line line, Element in, Element out, int group)
    : cl_(&cl),
      kernel_(cl.kernel(gauss::embedded::recursive_gauss_cl, line == Line::Rows ? "rg_rows" : "rg_columns",
                        type_options(in, out))),
      line_(line),
      group_(group) {}

inline cl::Event RecursivePassCl::enqueue(const cl::Buffer& in, int in_pitch, const cl::Buffer& forward,
                                          int forward_pitch, const cl::Buffer& out, int out_pitch, int width,
                                          int height, const DericheTaps& taps) {
  gauss::sections::set_args(kernel_, in, in_pitch, forward, forward_pitch, out, out_pitch, width, height, taps);
  // One item per line: as many items as rows (rgH) or columns (rgV).
  const std::size_t lines = static_cast<std::size_t>(line_ == Line::Rows ? height : width);
  cl::Event done;
  cl_->queue.enqueueNDRangeKernel(kernel_, cl::NullRange, cl::NDRange(gauss::round_up(lines, group_)),
                                  cl::NDRange(group_), nullptr, &done);
  return done;
}

inline FirPassCl::FirPassCl(gauss::OpenClSession& cl, Line line, int radius, Element in, Element out)
    : cl_(&cl),
      kernel_(cl.kernel(gauss::embedded::gaussian_fir_cl, line == Line::Rows ? "fir_rows" : "fir_columns",
                        "-D RADIUS=" + std::to_string(radius) + " " + type_options(in, out))) {}

inline cl::Event FirPassCl::enqueue(const cl::Buffer& in, int in_pitch, const cl::Buffer& out, int out_pitch, int width,
                                    int height, const gauss::GaussTaps& taps) {
  gauss::sections::set_args(kernel_, in, in_pitch, out, out_pitch, width, height, taps);
  cl::Event done;
  cl_->queue.enqueueNDRangeKernel(kernel_, cl::NullRange,
                                  cl::NDRange(gauss::round_up(width, 16), gauss::round_up(height, 16)),
                                  cl::NDRange(16, 16), nullptr, &done);
  return done;
}

inline cl::Buffer float_image(gauss::OpenClSession& cl, int width, int height) {
  return cl::Buffer(cl.context, CL_MEM_READ_WRITE,
                    static_cast<std::size_t>(width) * static_cast<std::size_t>(height) * sizeof(float));
}

#ifdef GAUSS_HAVE_CUDA
inline CudaFloatImage::CudaFloatImage(int width, int height)
    : buffer_(std::make_shared<gauss::CudaBuffer>(static_cast<std::size_t>(width) * static_cast<std::size_t>(height) *
                                                  sizeof(float))) {}

inline float* CudaFloatImage::data() const { return reinterpret_cast<float*>(buffer_->data()); }
#endif

// --- One recursive pass alone ----------------------------------------------------
// 8-bit in, 8-bit out, like every variant; the causal pass's results wait in
// a float scratch image allocated once, at set-up.
inline gauss::OpenClSetup recursive_pass_opencl(Line line) {
  return [line](gauss::OpenClSession& cl, const gauss::Problem& p) -> gauss::OpenClLaunch {
    RecursivePassCl pass(cl, line, Element::U8, Element::U8);
    const cl::Buffer forward = float_image(cl, p.image.width, p.image.height);
    const DericheTaps taps = deriche_taps(p.blur.sigma);
    return [=](const cl::Buffer& in, const cl::Buffer& out) mutable {
      return std::vector<cl::Event>{pass.enqueue(in, p.image.pitch, forward, p.image.width, out, p.image.pitch,
                                                 p.image.width, p.image.height, taps)};
    };
  };
}

// --- One FIR pass alone, and the separable FIR blur ---------------------------------
inline gauss::OpenClSetup fir_pass_opencl(Line line) {
  return [line](gauss::OpenClSession& cl, const gauss::Problem& p) -> gauss::OpenClLaunch {
    FirPassCl pass(cl, line, p.blur.radius, Element::U8, Element::U8);
    return [=](const cl::Buffer& in, const cl::Buffer& out) mutable {
      return std::vector<cl::Event>{
          pass.enqueue(in, p.image.pitch, out, p.image.pitch, p.image.width, p.image.height, p.taps)};
    };
  };
}

inline gauss::OpenClSetup fir_separable_opencl() {
  return [](gauss::OpenClSession& cl, const gauss::Problem& p) -> gauss::OpenClLaunch {
    FirPassCl along(cl, Line::Rows, p.blur.radius, Element::U8, Element::F32);
    FirPassCl down(cl, Line::Columns, p.blur.radius, Element::F32, Element::U8);
    const cl::Buffer rows = float_image(cl, p.image.width, p.image.height);  // the horizontal pass's result
    return [=](const cl::Buffer& in, const cl::Buffer& out) mutable {
      const cl::Event first =
          along.enqueue(in, p.image.pitch, rows, p.image.width, p.image.width, p.image.height, p.taps);
      const cl::Event second =
          down.enqueue(rows, p.image.width, out, p.image.pitch, p.image.width, p.image.height, p.taps);
      return std::vector<cl::Event>{first, second};
    };
  };
}

#ifdef GAUSS_HAVE_CUDA
inline gauss::CudaSetup recursive_pass_cuda(Line line) {
  return [line](const gauss::Problem& p) -> gauss::CudaLaunch {
    const CudaFloatImage forward(p.image.width, p.image.height);
    const DericheTaps taps = deriche_taps(p.blur.sigma);
    return [=](const std::uint8_t* in, std::uint8_t* out, cudaStream_t stream) {
      launch_recursive_pass(line, Element::U8, in, p.image.pitch, forward.data(), p.image.width, Element::U8, out,
                            p.image.pitch, p.image.width, p.image.height, taps, kLineGroup, stream);
    };
  };
}

inline gauss::CudaSetup fir_pass_cuda(Line line) {
  return [line](const gauss::Problem& p) -> gauss::CudaLaunch {
    return [=](const std::uint8_t* in, std::uint8_t* out, cudaStream_t stream) {
      launch_fir_pass(line, p.blur.radius, Element::U8, in, p.image.pitch, Element::U8, out, p.image.pitch,
                      p.image.width, p.image.height, p.taps, stream);
    };
  };
}

inline gauss::CudaSetup fir_separable_cuda() {
  return [](const gauss::Problem& p) -> gauss::CudaLaunch {
    const CudaFloatImage rows(p.image.width, p.image.height);  // the horizontal pass's result
    return [=](const std::uint8_t* in, std::uint8_t* out, cudaStream_t stream) {
      float* scratch = rows.data();
      launch_fir_pass(Line::Rows, p.blur.radius, Element::U8, in, p.image.pitch, Element::F32, scratch, p.image.width,
                      p.image.width, p.image.height, p.taps, stream);
      launch_fir_pass(Line::Columns, p.blur.radius, Element::F32, scratch, p.image.width, Element::U8, out,
                      p.image.pitch, p.image.width, p.image.height, p.taps, stream);
    };
  };
}
#endif

// --- The full recursive blur -------------------------------------------------------

inline gauss::OpenClSetup recursive_blur_opencl() {
  return [](gauss::OpenClSession& cl, const gauss::Problem& p) -> gauss::OpenClLaunch {
    const int width = p.image.width;
    const int height = p.image.height;
    RecursivePassCl down(cl, Line::Columns, Element::U8, Element::F32);  // rgV: 8-bit in, float out
    RecursivePassCl along(cl, Line::Rows, Element::F32, Element::U8);    // rgH: float in, 8-bit out
    const cl::Buffer forward = float_image(cl, width, height);           // the causal passes' scratch
    const cl::Buffer blurred_columns = float_image(cl, width, height);   // rgV's result
    const DericheTaps taps = deriche_taps(p.blur.sigma);
    return [=](const cl::Buffer& in, const cl::Buffer& out) mutable {
      const cl::Event first =
          down.enqueue(in, p.image.pitch, forward, width, blurred_columns, width, width, height, taps);
      const cl::Event second =
          along.enqueue(blurred_columns, width, forward, width, out, p.image.pitch, width, height, taps);
      return std::vector<cl::Event>{first, second};
    };
  };
}

#ifdef GAUSS_HAVE_CUDA
inline gauss::CudaSetup recursive_blur_cuda() {
  return [](const gauss::Problem& p) -> gauss::CudaLaunch {
    const int width = p.image.width;
    const int height = p.image.height;
    const CudaFloatImage forward(width, height);          // the causal passes' scratch
    const CudaFloatImage blurred_columns(width, height);  // rgV's result
    const DericheTaps taps = deriche_taps(p.blur.sigma);
    return [=](const std::uint8_t* in, std::uint8_t* out, cudaStream_t stream) {
      float* scratch = forward.data();
      float* columns = blurred_columns.data();
      launch_recursive_pass(Line::Columns, Element::U8, in, p.image.pitch, scratch, width, Element::F32, columns, width,
                            width, height, taps, kLineGroup, stream);
      launch_recursive_pass(Line::Rows, Element::F32, columns, width, scratch, width, Element::U8, out, p.image.pitch,
                            width, height, taps, kLineGroup, stream);
    };
  };
}
#endif

// --- The width sweep (section "width_sweep") -----------------------------------------

/// The widths swept: 32, 64, ..., 32768.
std::vector<int> sweep_widths();

/// rgh, rgv and fir_h on seeded random images of the height of --size and
/// every width of sweep_widths(), each run by the common runners (rotating,
/// poisoned buffers, events) and checked against its CPU reference; prints
/// megapixels per second and writes <--csv>.width_sweep.csv.
void width_sweep_section(gauss::SectionContext& context);

// A seeded random image: every pixel differs from its neighbours.
inline gauss::Image random_image(int width, int height) {
  gauss::Image image = gauss::Image::make(width, height, gauss::PixelFormat::Gray);
  std::uint32_t state = 20261121u ^ static_cast<std::uint32_t>(width);
  for (std::uint8_t& value : image.pixels) {
    state = state * 1664525u + 1013904223u;  // a linear congruential generator: enough for test pixels
    value = static_cast<std::uint8_t>(state >> 24);
  }
  return image;
}

struct SweptPass {
  const char* name;
  Line line;
  bool recursive;
};

inline const SweptPass kPasses[] = {
    {"rgh", Line::Rows, true}, {"rgv", Line::Columns, true}, {"fir_h", Line::Rows, false}};

inline gauss::Variant make_variant(const SweptPass& pass, gauss::Api api) {
  gauss::Variant variant;
  variant.name = pass.name;
  variant.api = api;
  variant.tolerance = gauss::kFloatTolerance;
  if (api == gauss::Api::OpenCL) {
    variant.opencl = pass.recursive ? recursive_pass_opencl(pass.line) : fir_pass_opencl(pass.line);
  }
#ifdef GAUSS_HAVE_CUDA
  if (api == gauss::Api::Cuda)
    variant.cuda = pass.recursive ? recursive_pass_cuda(pass.line) : fir_pass_cuda(pass.line);
#endif
  return variant;
}

inline std::vector<int> sweep_widths() {
  std::vector<int> widths;
  for (int width = 32; width <= 32768; width *= 2) widths.push_back(width);
  return widths;
}

inline void width_sweep_section(gauss::SectionContext& context) {
  using gauss::sections::format_ms;
  using gauss::sections::format_significant;
  const int height = context.input.height;
  const gauss::RunSettings settings = gauss::sections::run_settings(context.options);
  context.out << "height " << height << " (from --size), widths 32 to 32768; sigma " << context.blur.sigma
              << ", fir_h radius " << context.blur.radius
              << "; work-items = rows (rgh), columns (rgv) or pixels (fir_h); MP/s = width x height / median time\n\n";

  gauss::Table table({{"API", gauss::Table::Align::Left},
                      {"width"},
                      {"rgh ms"},
                      {"rgh MP/s"},
                      {"rgv ms"},
                      {"rgv MP/s"},
                      {"fir_h ms"},
                      {"fir_h MP/s"},
                      {"check", gauss::Table::Align::Left}});
  gauss::sections::CsvFile csv({"api", "device", "pass", "width", "height", "work_items", "runs", "median_ms", "min_ms",
                                "max_ms", "mpix_per_s", "gbps", "status"});

  // One API at one width: each pass through the common runner, against the
  // references computed once per width for both APIs.
  auto measure = [&](gauss::Api api, const std::string& device, const gauss::Image& input,
                     const std::vector<gauss::Image>& references, auto& runner) {
    const int width = input.width;
    std::vector<std::string> cells{gauss::name_of(api), std::to_string(width)};
    std::string check = "ok";
    for (std::size_t i = 0; i < std::size(kPasses); ++i) {
      const SweptPass& pass = kPasses[i];
      const gauss::VariantResult result = runner.run(make_variant(pass, api), context.blur, references[i], settings);
      const double mpix = result.ok() ? static_cast<double>(width) * height / (result.time.median_ms * 1e3) : 0.0;
      if (!result.ok()) {
        context.failed = true;
        check = std::string(pass.name) + ": " + (result.error.empty() ? result.comparison.summary() : result.error);
      }
      cells.push_back(result.ok() ? format_ms(result.time.median_ms) : "-");
      cells.push_back(result.ok() ? format_significant(mpix) : "-");
      const long long items =
          pass.recursive ? (pass.line == Line::Rows ? height : width) : static_cast<long long>(width) * height;
      csv.add({gauss::name_of(api), device, pass.name, std::to_string(width), std::to_string(height),
               std::to_string(items), std::to_string(result.time.runs()), std::to_string(result.time.median_ms),
               std::to_string(result.time.min_ms), std::to_string(result.time.max_ms), std::to_string(mpix),
               std::to_string(result.gbps()), result.ok() ? "ok" : "FAILED"});
    }
    cells.push_back(check);
    table.add_row(cells);
  };

  for (const int width : sweep_widths()) {
    const gauss::Image input = random_image(width, height);
    std::vector<gauss::Image> references;
    for (const SweptPass& pass : kPasses) {
      references.push_back(
          pass.recursive
              ? recursive_reference(input, context.blur.sigma, pass.line == Line::Rows ? Passes::Rows : Passes::Columns)
              : gaussian_pass_reference(input, context.blur.sigma, context.blur.radius, Passes::Rows));
    }
    if (context.opencl != nullptr) {
      gauss::OpenClRunner runner(*context.opencl, input);
      measure(gauss::Api::OpenCL, context.opencl->info.name, input, references, runner);
    }
#ifdef GAUSS_HAVE_CUDA
    if (context.cuda != nullptr) {
      gauss::CudaRunner runner(*context.cuda, input);
      measure(gauss::Api::Cuda, context.cuda->name, input, references, runner);
    }
#endif
  }
  table.print(context.out);
  context.out << "\nEach point is checked against its CPU reference on a seeded random image.\n";
  csv.write(context.options, "width_sweep", context.out);
}

}  // namespace chapter03
