// Running extra variants inside a section (a sweep over group shapes in
// chapter 05, over radii in chapter 06, over layouts in chapter 07).
//
// A section gets the devices the chapter ran on but not its runners, so it
// makes its own on the same input: the same runners as the table, so every
// point of a sweep is poisoned, timed with device events and checked against
// the reference like any variant of the table.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "gauss/chapter.hpp"
#include "gauss/progress.hpp"
#include "gauss/runners.hpp"
#include "gauss/section_tools.hpp"
#ifdef GAUSS_HAVE_CUDA
#include "gauss/cuda.hpp"
#endif

namespace gauss::lesson {

// The runs the chapter's own table uses (--warmup, --repeat, at most about
// 2 s of timed runs unless --repeat was given) and the table's number formats.
using sections::format_gbps;
using sections::format_ms;
inline RunSettings section_settings(const Options& options) { return sections::run_settings(options); }

/// A result as a row of the CSV/JSON files, named @p name ("tiled_16x16").
/// A known-bug variant is not expected in a section: a mismatch is a failure.
inline ResultRow row_of(const VariantResult& result, const std::string& name, const std::string& device,
                        double copy_gbps) {
  ResultRow row;
  row.variant = name;
  row.api = name_of(result.api);
  row.device = device;
  row.runs = result.error.empty() ? result.time.runs() : 0;
  row.median_ms = result.time.median_ms;
  row.min_ms = result.time.min_ms;
  row.max_ms = result.time.max_ms;
  row.gbps = result.gbps();
  if (row.runs > 0 && copy_gbps > 0) row.percent_of_copy = 100.0 * row.gbps / copy_gbps;
  row.max_diff = result.comparison.max_abs_diff;
  row.differing = result.comparison.differing;
  row.psnr_db = result.comparison.psnr_db;
  row.ok = result.ok();
  row.status = !result.error.empty() ? "ERROR" : result.comparison.matches() ? "ok" : "MISMATCH";
  return row;
}

/// "ok", or what went wrong in one line.
inline std::string status_of(const VariantResult& result) {
  if (!result.error.empty()) return "ERROR: " + result.error;
  return result.comparison.matches() ? "ok" : "MISMATCH: " + result.comparison.summary();
}

/// One runner per API the section may use, all on @p input.
class SectionRunners {
 public:
  SectionRunners(SectionContext& context, const Image& input) : context_(context) {
    if (context.opencl != nullptr) opencl_ = std::make_unique<OpenClRunner>(*context.opencl, input);
#ifdef GAUSS_HAVE_CUDA
    if (context.cuda != nullptr) cuda_ = std::make_unique<CudaRunner>(*context.cuda, input);
#endif
  }

  /// Whether the section can run variants of @p api.
  bool has(Api api) const {
#ifdef GAUSS_HAVE_CUDA
    if (api == Api::Cuda) return cuda_ != nullptr;
#endif
    return api == Api::OpenCL && opencl_ != nullptr;
  }

  /// Sets up, runs, times and checks @p variant (its API must be has()),
  /// printing a line as it starts (named @p label, default the variant's name)
  /// that ends with its time: a sweep on a slow device is not silent.
  VariantResult run(const Variant& variant, const BlurSpec& blur, const Image& reference, std::string label = {}) {
    const RunSettings settings = section_settings(context_.options);
    const ProgressLine line(context_.out,
                            std::string(name_of(variant.api)) + " " + (label.empty() ? variant.name : label));
#ifdef GAUSS_HAVE_CUDA
    if (variant.api == Api::Cuda) return cuda_->run(variant, blur, reference, settings);
#endif
    return opencl_->run(variant, blur, reference, settings);
  }

  /// Runs variant @p name on @p api, set up by @p opencl or @p cuda (the one
  /// @p api needs) and checked against @p reference with kFloatTolerance, as
  /// run() does; adds its row, named @p row_name, to the section's results
  /// (--csv, --json) and fails the run on a mismatch or an error.
  VariantResult measure(const std::string& name, Api api, OpenClSetup opencl, CudaSetup cuda, const BlurSpec& blur,
                        const Image& reference, const std::string& row_name) {
    Variant variant;
    variant.name = name;
    variant.api = api;
    variant.tolerance = kFloatTolerance;
    if (api == Api::OpenCL) variant.opencl = std::move(opencl);
    if (api == Api::Cuda) variant.cuda = std::move(cuda);
    VariantResult result = run(variant, blur, reference, row_name);
    context_.rows.push_back(row_of(result, row_name, device(api), copy_gbps(api)));
    if (!result.ok()) context_.failed = true;
    return result;
  }

  /// The device's name, for the CSV.
  std::string device([[maybe_unused]] Api api) const {  // (used only where CUDA is built)
#ifdef GAUSS_HAVE_CUDA
    if (api == Api::Cuda) return context_.cuda->name;
#endif
    return context_.opencl->info.name;
  }

  /// The copy ceiling the chapter measured on @p api (0: none).
  double copy_gbps(Api api) const { return api == Api::Cuda ? context_.cuda_copy_gbps : context_.opencl_copy_gbps; }

 private:
  SectionContext& context_;
  std::unique_ptr<OpenClRunner> opencl_;
#ifdef GAUSS_HAVE_CUDA
  std::unique_ptr<CudaRunner> cuda_;
#endif
};

}  // namespace gauss::lesson
