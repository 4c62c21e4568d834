// Chapter 03's second program part: the GPU passes on the host side, in both
// APIs (building and enqueueing one recursive or FIR pass, one value or a
// batch of values in flight per work-item, the full recursive blur as a
// variant set-up), and the sweeps that time the passes against the image's
// width (section "width_sweep") and height (section "height_sweep"). The declarations come first,
// then their definitions. These are the launchers of chapter 03's kernels:
// chapter 04, which borrows the kernels (USES 03_coalescing puts this folder
// on its include path), launches them through this file.
#pragma once

#include <iterator>
#include <memory>
#include <string>
#include <vector>

#include "blur_wide_cl.hpp"  // embedded blur_wide.cl (the main line)
#include "deriche_names.hpp"
#include "gauss/blur.hpp"
#include "gauss/chapter.hpp"
#include "gauss/opencl.hpp"
#include "gauss/section_tools.hpp"
#include "gauss/table.hpp"
#include "gauss/variant.hpp"
#include "gaussian_fir_cl.hpp"             // embedded gaussian_fir.cl
#include "recursive_gauss_batched_cl.hpp"  // embedded recursive_gauss_batched.cl
#include "recursive_gauss_cl.hpp"          // embedded recursive_gauss.cl
#ifdef GAUSS_HAVE_CUDA
#include "blur_wide.cuh"
#include "gauss/cuda.hpp"
#include "gaussian_fir.cuh"
#include "recursive_gauss.cuh"
#include "recursive_gauss_batched.cuh"
#endif

namespace chapter03 {

/// Work-items per group of the recursive passes. One item owns a whole line,
/// so a 6720-pixel-wide image has only 6720 column items in all; groups of
/// one warp spread them over 210 groups, more than the H200's 132 SMs (groups
/// of 64 would leave 27 SMs without work).
inline constexpr int kLineGroup = 32;

/// Values each work-item loads before the arithmetic: 1 is the lesson's
/// filter_line() (one load in flight per item, recursive_gauss.cl/.cu), 16
/// and 32 the batched passes (recursive_gauss_batched.cl/.cu). The batched
/// passes compute the same expressions in the same order: the same results.
inline constexpr int kOneAtATime = 1;

/// One recursive pass built for one pair of element types: recursive_gauss.cl
/// for @p batch 1, recursive_gauss_batched.cl with -D BATCH=@p batch otherwise.
class RecursivePassCl {
 public:
  RecursivePassCl(gauss::OpenClSession& cl, Line line, Element in, Element out, int group = kLineGroup,
                  int batch = kOneAtATime);

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

// --- The main line ---------------------------------------------------------
// 32 x 8 groups (chapter 02's best shape), each item 4 pixels wide (one
// 32-bit word) and 8 rows deep: a group covers 128 x 64 pixels.
inline constexpr int kMainGroupX = 32;
inline constexpr int kMainGroupY = 8;
inline constexpr int kMainPixels = 4;
inline constexpr int kMainRows = 8;

/// The main line's step (variant `main`, and chapter 04's, which carries it
/// forward unchanged): blur_wide.cl's set-up.
inline gauss::OpenClLaunch main_line_opencl(gauss::OpenClSession& cl, const gauss::Problem& p) {
  cl::Kernel kernel = cl.kernel(gauss::embedded::blur_wide_cl, "blur_wide",
                                "-D RADIUS=" + std::to_string(p.blur.radius) + " -D ROWS=" + std::to_string(kMainRows));
  // One item per 4 columns and 8 rows, rounded up to whole groups; the
  // kernel's guards idle the items (and pixels) past the image.
  const int item_columns = (p.image.width + kMainPixels - 1) / kMainPixels;
  const int item_rows = (p.image.height + kMainRows - 1) / kMainRows;
  const cl::NDRange global(gauss::round_up(item_columns, kMainGroupX), gauss::round_up(item_rows, kMainGroupY));
  const cl::NDRange local(kMainGroupX, kMainGroupY);
  // OpenCL buffers are aligned far beyond 4 bytes (CL_DEVICE_MEM_BASE_ADDR_ALIGN):
  // rows start on word boundaries exactly when the pitch is a multiple of 4.
  const int aligned = p.image.pitch % kMainPixels == 0 ? 1 : 0;
  return [&cl, kernel, global, local, p, aligned](const cl::Buffer& in, const cl::Buffer& out) mutable {
    kernel.setArg(0, in);
    kernel.setArg(1, out);
    kernel.setArg(2, p.image.width);
    kernel.setArg(3, p.image.height);
    kernel.setArg(4, p.image.pitch);
    kernel.setArg(5, aligned);
    kernel.setArg(6, p.taps);
    cl::Event done;
    cl.queue.enqueueNDRangeKernel(kernel, cl::NullRange, global, local, nullptr, &done);
    return std::vector<cl::Event>{done};
  };
}

#ifdef GAUSS_HAVE_CUDA
/// The same in CUDA: blur_wide.cu.
inline gauss::CudaLaunch main_line_cuda(const gauss::Problem& p) {
  static_assert(kBlurWidePixels == kMainPixels && kBlurWideRows == kMainRows,
                "blur_wide.cu and blur_wide.cl compute as many pixels per item");
  return [p](const std::uint8_t* in, std::uint8_t* out, cudaStream_t stream) {
    launch_blur_wide(in, out, p, dim3(kMainGroupX, kMainGroupY), stream);
  };
}
#endif

// --- Variant set-ups (8-bit image in, 8-bit image out) -----------------------------

/// One recursive pass alone, rgH (Line::Rows) or rgV (Line::Columns), with
/// @p batch values loaded per item before the arithmetic (1: one at a time);
/// the causal pass's results wait in a float scratch image allocated at set-up.
gauss::OpenClSetup recursive_pass_opencl(Line line, int batch = kOneAtATime);
/// One FIR pass alone, along rows or down columns, one item per pixel.
gauss::OpenClSetup fir_pass_opencl(Line line);
/// The separable FIR blur: rows into a float image, then columns into the output.
gauss::OpenClSetup fir_separable_opencl();
#ifdef GAUSS_HAVE_CUDA
gauss::CudaSetup recursive_pass_cuda(Line line, int batch = kOneAtATime);
gauss::CudaSetup fir_pass_cuda(Line line);
gauss::CudaSetup fir_separable_cuda();
#endif

/// The full recursive blur, rgV then rgH: the 8-bit image down the columns
/// into a float image, that along the rows into the 8-bit output, both passes
/// with @p batch values loaded per item. Its float scratch images are
/// allocated once, at set-up.
gauss::OpenClSetup recursive_blur_opencl(int batch = kOneAtATime);
#ifdef GAUSS_HAVE_CUDA
gauss::CudaSetup recursive_blur_cuda(int batch = kOneAtATime);

/// One recursive pass in CUDA: launch_recursive_pass() for @p batch 1,
/// launch_recursive_pass_batched() otherwise.
void launch_recursive(Line line, int batch, Element in_type, const void* in, int in_pitch, float* forward,
                      int forward_pitch, Element out_type, void* out, int out_pitch, int width, int height,
                      const DericheTaps& taps, cudaStream_t stream);
#endif

// --- Definitions ---------------------------------------------------------------------

// The build options that choose a kernel's element types.
inline std::string type_options(Element in, Element out) {
  auto name = [](Element e) { return e == Element::U8 ? "uchar" : "float"; };
  return std::string("-D IN_T=") + name(in) + " -D OUT_T=" + name(out) +
         " -D OUT_IS_BYTE=" + (out == Element::U8 ? "1" : "0");
}

inline RecursivePassCl::RecursivePassCl(gauss::OpenClSession& cl, Line line, Element in, Element out, int group,
                                        int batch)
    : cl_(&cl),
      kernel_(batch == kOneAtATime ? cl.kernel(gauss::embedded::recursive_gauss_cl,
                                               line == Line::Rows ? "rg_rows" : "rg_columns", type_options(in, out))
                                   : cl.kernel(gauss::embedded::recursive_gauss_batched_cl,
                                               line == Line::Rows ? "rg_rows_batched" : "rg_columns_batched",
                                               type_options(in, out) + " -D BATCH=" + std::to_string(batch))),
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
inline gauss::OpenClSetup recursive_pass_opencl(Line line, int batch) {
  return [line, batch](gauss::OpenClSession& cl, const gauss::Problem& p) -> gauss::OpenClLaunch {
    RecursivePassCl pass(cl, line, Element::U8, Element::U8, kLineGroup, batch);
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
inline void launch_recursive(Line line, int batch, Element in_type, const void* in, int in_pitch, float* forward,
                             int forward_pitch, Element out_type, void* out, int out_pitch, int width, int height,
                             const DericheTaps& taps, cudaStream_t stream) {
  if (batch == kOneAtATime) {
    launch_recursive_pass(line, in_type, in, in_pitch, forward, forward_pitch, out_type, out, out_pitch, width, height,
                          taps, kLineGroup, stream);
  } else {
    launch_recursive_pass_batched(line, batch, in_type, in, in_pitch, forward, forward_pitch, out_type, out, out_pitch,
                                  width, height, taps, kLineGroup, stream);
  }
}

inline gauss::CudaSetup recursive_pass_cuda(Line line, int batch) {
  return [line, batch](const gauss::Problem& p) -> gauss::CudaLaunch {
    const CudaFloatImage forward(p.image.width, p.image.height);
    const DericheTaps taps = deriche_taps(p.blur.sigma);
    return [=](const std::uint8_t* in, std::uint8_t* out, cudaStream_t stream) {
      launch_recursive(line, batch, Element::U8, in, p.image.pitch, forward.data(), p.image.width, Element::U8, out,
                       p.image.pitch, p.image.width, p.image.height, taps, stream);
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

inline gauss::OpenClSetup recursive_blur_opencl(int batch) {
  return [batch](gauss::OpenClSession& cl, const gauss::Problem& p) -> gauss::OpenClLaunch {
    const int width = p.image.width;
    const int height = p.image.height;
    RecursivePassCl down(cl, Line::Columns, Element::U8, Element::F32, kLineGroup, batch);  // rgV: 8-bit in, float out
    RecursivePassCl along(cl, Line::Rows, Element::F32, Element::U8, kLineGroup, batch);    // rgH: float in, 8-bit out
    const cl::Buffer forward = float_image(cl, width, height);          // the causal passes' scratch
    const cl::Buffer blurred_columns = float_image(cl, width, height);  // rgV's result
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
inline gauss::CudaSetup recursive_blur_cuda(int batch) {
  return [batch](const gauss::Problem& p) -> gauss::CudaLaunch {
    const int width = p.image.width;
    const int height = p.image.height;
    const CudaFloatImage forward(width, height);          // the causal passes' scratch
    const CudaFloatImage blurred_columns(width, height);  // rgV's result
    const DericheTaps taps = deriche_taps(p.blur.sigma);
    return [=](const std::uint8_t* in, std::uint8_t* out, cudaStream_t stream) {
      float* scratch = forward.data();
      float* columns = blurred_columns.data();
      launch_recursive(Line::Columns, batch, Element::U8, in, p.image.pitch, scratch, width, Element::F32, columns,
                       width, width, height, taps, stream);
      launch_recursive(Line::Rows, batch, Element::F32, columns, width, scratch, width, Element::U8, out, p.image.pitch,
                       width, height, taps, stream);
    };
  };
}
#endif

// --- The sweeps (sections "width_sweep" and "height_sweep") ----------------------------

/// The sizes swept along one axis: 32, 64, ..., 32768.
std::vector<int> sweep_sizes();

/// The width sweep: rgh, rgv (one value and 16 and 32 values in flight per
/// item) and fir_h on seeded random images of the height of --size and every
/// width of sweep_sizes(); rgv's work-items are the columns, so its rate
/// follows the width. The height sweep is its mirror: rgv, rgh (1, 16, 32)
/// and fir_v at the width of --size and every height, rgh's work-items being
/// the rows. Each point is run by the common runners (rotating, poisoned
/// buffers, events) and checked against its CPU reference; they print
/// megapixels per second and write <--csv>.width_sweep.csv /
/// <--csv>.height_sweep.csv.
void width_sweep_section(gauss::SectionContext& context);
void height_sweep_section(gauss::SectionContext& context);

// A seeded random image: every pixel differs from its neighbours.
inline gauss::Image random_image(int width, int height) {
  gauss::Image image = gauss::Image::make(width, height, gauss::PixelFormat::Gray);
  std::uint32_t state = 20261121u ^ static_cast<std::uint32_t>(width) ^ (static_cast<std::uint32_t>(height) << 16);
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
  int batch;  // values loaded per item before the arithmetic (recursive passes)
};

// The width sweep's passes: the row pass, the column pass (whose items the
// width counts) one value and a batch at a time, and the FIR pass along rows.
inline const std::vector<SweptPass>& width_sweep_passes() {
  static const std::vector<SweptPass> passes{{"rgh", Line::Rows, true, kOneAtATime},
                                             {"rgv", Line::Columns, true, kOneAtATime},
                                             {"rgv_b16", Line::Columns, true, 16},
                                             {"rgv_b32", Line::Columns, true, 32},
                                             {"fir_h", Line::Rows, false, kOneAtATime}};
  return passes;
}

// Its mirror: the row pass's items are what the height counts.
inline const std::vector<SweptPass>& height_sweep_passes() {
  static const std::vector<SweptPass> passes{{"rgv", Line::Columns, true, kOneAtATime},
                                             {"rgh", Line::Rows, true, kOneAtATime},
                                             {"rgh_b16", Line::Rows, true, 16},
                                             {"rgh_b32", Line::Rows, true, 32},
                                             {"fir_v", Line::Columns, false, kOneAtATime}};
  return passes;
}

inline gauss::Variant make_variant(const SweptPass& pass, gauss::Api api) {
  gauss::Variant variant;
  variant.name = pass.name;
  variant.api = api;
  variant.tolerance = gauss::kFloatTolerance;
  if (api == gauss::Api::OpenCL) {
    variant.opencl = pass.recursive ? recursive_pass_opencl(pass.line, pass.batch) : fir_pass_opencl(pass.line);
  }
#ifdef GAUSS_HAVE_CUDA
  if (api == gauss::Api::Cuda)
    variant.cuda = pass.recursive ? recursive_pass_cuda(pass.line, pass.batch) : fir_pass_cuda(pass.line);
#endif
  return variant;
}

inline std::vector<int> sweep_sizes() {
  std::vector<int> sizes;
  for (int size = 32; size <= 32768; size *= 2) sizes.push_back(size);
  return sizes;
}

// One sweep: @p along is the axis that varies (Line::Columns: the width,
// Line::Rows: the height), the other one comes from --size.
inline void sweep_section(gauss::SectionContext& context, Line along, const std::vector<SweptPass>& passes) {
  using gauss::sections::format_ms;
  using gauss::sections::format_significant;
  const bool widths = along == Line::Columns;
  const char* axis = widths ? "width" : "height";
  const int fixed = widths ? context.input.height : context.input.width;
  const gauss::RunSettings settings = gauss::sections::run_settings(context.options);
  context.out << (widths ? "height " : "width ") << fixed << " (from --size), " << axis << "s 32 to 32768; sigma "
              << context.blur.sigma << ", FIR radius " << context.blur.radius
              << "; work-items = rows (rgh), columns (rgv) or pixels (fir); _b16/_b32: 16/32 values loaded per "
                 "item before the arithmetic; MP/s = width x height / median time\n\n";

  std::vector<gauss::Table::Column> columns{{"API", gauss::Table::Align::Left}, {axis}};
  for (const SweptPass& pass : passes) {
    columns.push_back({std::string(pass.name) + " ms"});
    columns.push_back({std::string(pass.name) + " MP/s"});
  }
  columns.push_back({"check", gauss::Table::Align::Left});
  gauss::Table table(columns);
  gauss::sections::CsvFile csv({"api", "device", "pass", "width", "height", "work_items", "runs", "median_ms", "min_ms",
                                "max_ms", "mpix_per_s", "gbps", "status"});

  // One API at one size: each pass through the common runner, against the
  // references computed once per size for both APIs.
  auto measure = [&](gauss::Api api, const std::string& device, const gauss::Image& input,
                     const std::vector<gauss::Image>& references, auto& runner) {
    const int width = input.width;
    const int height = input.height;
    std::vector<std::string> cells{gauss::name_of(api), std::to_string(widths ? width : height)};
    std::string check = "ok";
    for (std::size_t i = 0; i < passes.size(); ++i) {
      const SweptPass& pass = passes[i];
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

  for (const int size : sweep_sizes()) {
    const gauss::Image input = widths ? random_image(size, fixed) : random_image(fixed, size);
    std::vector<gauss::Image> references;
    for (const SweptPass& pass : passes) {
      const Passes direction = pass.line == Line::Rows ? Passes::Rows : Passes::Columns;
      references.push_back(pass.recursive
                               ? recursive_reference(input, context.blur.sigma, direction)
                               : gaussian_pass_reference(input, context.blur.sigma, context.blur.radius, direction));
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
  csv.write(context.options, widths ? "width_sweep" : "height_sweep", context.out);
}

inline void width_sweep_section(gauss::SectionContext& context) {
  sweep_section(context, Line::Columns, width_sweep_passes());
}

inline void height_sweep_section(gauss::SectionContext& context) {
  sweep_section(context, Line::Rows, height_sweep_passes());
}

}  // namespace chapter03
