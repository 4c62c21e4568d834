/// @file runners.hpp
/// @brief Running, timing and checking variants: one runner per API.
///
/// What every runner does for a variant, in this order:
///  1. set-up (build, choose shapes): untimed;
///  2. poison every output buffer with the reference's bytes XOR 0x80, so a
///     pixel the variant never writes is 128 levels off and fails the check;
///  3. warm-up runs, then timed runs, each timed by device events (OpenCL
///     profiling events, CUDA events) or, on the CPU, by the host clock;
///  4. GPU runs rotate through several input/output buffer pairs that
///     together are several times the device's last-level cache, so that
///     repeated runs read DRAM, not the cache left warm by the run before;
///  5. read back the output of the last timed run and compare it with the
///     reference. The output is shaped like the reference, which may differ
///     from the input (a transpose is height x width) but is never larger.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "gauss/compare.hpp"
#include "gauss/timing.hpp"
#include "gauss/variant.hpp"

namespace gauss {

/// How many runs.
struct RunSettings {
  int warmup = 3;   ///< untimed runs first
  int repeat = 20;  ///< timed runs; the median is reported
  /// If > 0, fewer timed runs (but at least kMinTimedRuns) where @p repeat of
  /// them would take longer than this: a slow device (PoCL on a laptop) then
  /// finishes in seconds. The first warm-up run measures how long a run takes.
  double budget_ms = 0;
};

/// The fewest timed runs a time budget leaves.
inline constexpr int kMinTimedRuns = 5;

/// How many timed runs fit @p settings' budget when one run takes @p run_ms.
int runs_within_budget(const RunSettings& settings, double run_ms);

/// The outcome of one variant (or of the copy that gives the ceiling).
struct VariantResult {
  std::string name;
  Api api = Api::Cpu;
  TimingStats time;
  std::size_t bytes_moved = 0;  ///< the input read once plus the output written once
  Image output;                 ///< what the last timed run wrote
  Comparison comparison;        ///< output against the reference
  std::string error;            ///< set when set-up or a run failed; the message says why
  std::string skipped;          ///< set when the device cannot run the variant (Unsupported); says why

  /// Ran and matched, or could not run here (skipped is not a failure).
  bool ok() const { return !skipped.empty() || (error.empty() && comparison.matches()); }
  /// Ran, and produced timings and an output.
  bool ran() const { return skipped.empty() && error.empty(); }
  /// Effective bandwidth of the median run, GB/s (10^9 bytes/s).
  double gbps() const { return gigabytes_per_second(bytes_moved, time.median_ms); }
};

/// Three clocks around the same launches: the lesson of chapter 01 (and 02)
/// on how not to time a GPU. Medians in milliseconds.
struct TimerComparison {
  double enqueue_only_ms = 0;  ///< host clock stopped right after the enqueue returned
  double with_wait_ms = 0;     ///< host clock stopped after waiting for the GPU (clFinish, stream sync)
  double device_ms = 0;        ///< device events around the kernel alone
  int runs = 0;                ///< timed runs behind each median
};

/// Runs a CPU variant: the host clock, runs without warm-up (the first run is
/// as warm as the others on a CPU), output poisoned first.
VariantResult run_cpu_variant(const Variant& variant, const Image& input, const Image& reference, const BlurSpec& blur,
                              const RunSettings& settings);

/// How many input/output buffer pairs a GPU runner rotates through: enough
/// to cover max(3 x @p cache_bytes, 256 MiB), at most 32, and at most a
/// quarter of @p device_memory (at least 1).
int rotation_sets(std::size_t image_bytes, std::size_t cache_bytes, std::size_t device_memory);

/// Runs OpenCL variants on one device, all on the same input image.
class OpenClRunner {
 public:
  /// Allocates the rotating buffers and uploads @p input into each input buffer.
  OpenClRunner(OpenClSession& session, const Image& input);
  ~OpenClRunner();

  /// The bandwidth ceiling: the tutorial's copy kernel moving the image's
  /// bytes from input to output buffers, checked against the input.
  VariantResult copy(const RunSettings& settings);

  /// Sets up, runs, times and checks one OpenCL variant. Errors (a failed
  /// build, a failed enqueue) end up in VariantResult::error.
  VariantResult run(const Variant& variant, const BlurSpec& blur, const Image& reference, const RunSettings& settings);

  /// The three clocks of TimerComparison around the same variant's launches.
  TimerComparison compare_timers(const Variant& variant, const BlurSpec& blur, const RunSettings& settings);

  int sets() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

#ifdef GAUSS_HAVE_CUDA
struct CudaDeviceInfo;

/// Runs CUDA variants on the current CUDA device, all on the same input image.
class CudaRunner {
 public:
  CudaRunner(const CudaDeviceInfo& device, const Image& input);
  ~CudaRunner();

  /// The bandwidth ceiling: the copy kernel (copy.cu) on the same bytes.
  VariantResult copy(const RunSettings& settings);
  /// Sets up, runs, times and checks one CUDA variant.
  VariantResult run(const Variant& variant, const BlurSpec& blur, const Image& reference, const RunSettings& settings);
  /// The three clocks of TimerComparison around the same variant's launches.
  TimerComparison compare_timers(const Variant& variant, const BlurSpec& blur, const RunSettings& settings);

  int sets() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};
#endif

/// The Problem a GPU variant is set up with for @p image and @p blur.
Problem make_problem(const ImageGeometry& image, const BlurSpec& blur);

/// The poison written into output buffers before a run: @p expected with
/// every byte XOR 0x80, so that each unwritten byte is 128 levels off.
Image poison_for(const Image& expected);

}  // namespace gauss
