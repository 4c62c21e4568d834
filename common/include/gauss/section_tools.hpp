// Tools for the chapters' sections (the experiments that are not
// image-to-image variants): how many runs, timing with device events, number
// formats, rows for --csv/--json and the CSV file each section writes beside
// --csv; and setting an OpenCL kernel's arguments in one call.
//
// The variants of a chapter are run by the common library's runners; a
// section launches its own kernels, so it needs the same discipline by hand:
// warm-up runs first, every run between device events, the median reported,
// and fewer runs on a slow device (PoCL) unless --repeat was given.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <optional>
#include <ostream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "gauss/opencl.hpp"
#include "gauss/options.hpp"
#include "gauss/progress.hpp"
#include "gauss/runners.hpp"
#include "gauss/table.hpp"
#include "gauss/timing.hpp"
#ifdef GAUSS_HAVE_CUDA
#include "gauss/cuda.hpp"
#endif

namespace gauss::sections {

/// Sets @p kernel's arguments 0, 1, 2, ... to @p args, in order.
template <class... Args>
void set_args(cl::Kernel& kernel, const Args&... args) {
  cl_uint index = 0;
  (kernel.setArg(index++, args), ...);
}

/// The runs a section does: --warmup and --repeat, and, unless --repeat was
/// given, at most about 2 s of timed runs per measurement (as the runners do).
inline RunSettings run_settings(const Options& options) {
  return {options.warmup, options.repeat, options.repeat_given ? 0.0 : 2000.0};
}

/// Times @p launch, which enqueues everything one run does and returns the
/// events of its commands in order; a run spans the first event's start to
/// the last one's end. All runs are enqueued before the one wait at the end.
/// Prints a line as it starts, "OpenCL <label> ...", ended with its time
/// (progress.hpp): a section at the benchmark size on a CPU is not silent.
template <class Launch>
TimingStats time_opencl(cl::CommandQueue& queue, Launch&& launch, const RunSettings& settings,
                        const std::string& label = "section runs") {
  const ProgressLine line(std::cout, "OpenCL " + label);
  int warmup = settings.warmup;
  int repeat = settings.repeat;
  if (settings.budget_ms > 0 && warmup > 0) {
    // One warm-up run on its own says how long a run takes.
    const std::vector<cl::Event> first = launch();
    queue.finish();
    repeat = runs_within_budget(settings, event_span_ms(first.front(), first.back()));
    warmup = repeat < settings.repeat ? 0 : warmup - 1;
  }
  std::vector<std::vector<cl::Event>> timed;
  for (int r = 0; r < warmup + repeat; ++r) {
    std::vector<cl::Event> events = launch();
    if (r >= warmup) timed.push_back(std::move(events));
  }
  queue.finish();
  std::vector<double> samples;
  for (const std::vector<cl::Event>& events : timed) samples.push_back(event_span_ms(events.front(), events.back()));
  return summarize(std::move(samples));
}

#ifdef GAUSS_HAVE_CUDA
/// Times @p launch (which launches everything one run does on the stream it
/// is given) between two CUDA events per run; waits once at the end. Prints
/// a progress line as time_opencl() does.
template <class Launch>
TimingStats time_cuda(cudaStream_t stream, Launch&& launch, const RunSettings& settings,
                      const std::string& label = "section runs") {
  const ProgressLine line(std::cout, "CUDA " + label);
  auto launch_checked = [&] {
    launch(stream);
    GAUSS_CUDA_CHECK(cudaGetLastError());  // a bad launch configuration shows here
  };
  int warmup = settings.warmup;
  int repeat = settings.repeat;
  if (settings.budget_ms > 0 && warmup > 0) {
    CudaEvent start;
    CudaEvent stop;
    start.record(stream);
    launch_checked();
    stop.record(stream);
    GAUSS_CUDA_CHECK(cudaStreamSynchronize(stream));
    repeat = runs_within_budget(settings, elapsed_ms(start, stop));
    warmup = repeat < settings.repeat ? 0 : warmup - 1;
  }
  std::vector<CudaEvent> starts(static_cast<std::size_t>(repeat));
  std::vector<CudaEvent> stops(static_cast<std::size_t>(repeat));
  for (int r = 0; r < warmup + repeat; ++r) {
    const int timed = r - warmup;
    if (timed >= 0) starts[static_cast<std::size_t>(timed)].record(stream);
    launch_checked();
    if (timed >= 0) stops[static_cast<std::size_t>(timed)].record(stream);
  }
  GAUSS_CUDA_CHECK(cudaStreamSynchronize(stream));
  std::vector<double> samples;
  for (std::size_t i = 0; i < starts.size(); ++i) samples.push_back(elapsed_ms(starts[i], stops[i]));
  return summarize(std::move(samples));
}
#endif

/// A section's measurement as a row of the results (--csv, --json): its
/// timings, GB/s and, where @p copy_gbps > 0, % of that copy.
inline ResultRow result_row(std::string variant, std::string api, std::string device, const TimingStats& time,
                            double gbps, double copy_gbps, bool ok, double max_diff, std::size_t differing) {
  ResultRow row;
  row.variant = std::move(variant);
  row.api = std::move(api);
  row.device = std::move(device);
  row.runs = time.runs();
  row.median_ms = time.median_ms;
  row.min_ms = time.min_ms;
  row.max_ms = time.max_ms;
  row.gbps = gbps;
  if (copy_gbps > 0) row.percent_of_copy = 100.0 * gbps / copy_gbps;
  row.max_diff = max_diff;
  row.differing = differing;
  row.ok = ok;
  row.status = ok ? "ok" : "MISMATCH";
  return row;
}

/// A row for --csv/--json: @p name's timing @p stats, moving @p bytes (no
/// reference comparison: @p ok and @p status say how it went).
inline ResultRow timing_row(const std::string& name, const std::string& api, const std::string& device,
                            const TimingStats& stats, std::size_t bytes, bool ok, const std::string& status) {
  ResultRow row;
  row.variant = name;
  row.api = api;
  row.device = device;
  row.runs = stats.runs();
  row.median_ms = stats.median_ms;
  row.min_ms = stats.min_ms;
  row.max_ms = stats.max_ms;
  row.gbps = gigabytes_per_second(bytes, stats.median_ms);
  row.ok = ok;
  row.status = status;
  return row;
}

/// Milliseconds with about three significant digits, as the results table
/// prints them: 0.0213, 2.61, 510.
inline std::string format_ms(double ms) {
  if (ms < 0.1) return format_fixed(ms, 4);
  if (ms < 10) return format_fixed(ms, 3);
  if (ms < 1000) return format_fixed(ms, 1);
  return format_fixed(ms, 0);
}

/// "-" for a part that does not exist.
inline std::string format_ms(const std::optional<double>& ms) { return ms ? format_ms(*ms) : "-"; }

/// GB/s (10^9 bytes per second) as the results table prints them: 0.05, 241.3.
inline std::string format_gbps(double gbps) { return format_fixed(gbps, gbps < 10 ? 2 : 1); }

/// A number with @p digits significant digits, no exponent: 3280, 12.4, 0.0371.
inline std::string format_significant(double value, int digits = 3) {
  if (!std::isfinite(value) || value == 0) return format_fixed(value, 0);
  const int magnitude = static_cast<int>(std::floor(std::log10(std::fabs(value))));
  return format_fixed(value, std::max(0, digits - 1 - magnitude));
}

/// The CSV file a section writes: --csv's path with ".<section>" before the
/// extension (results.csv -> results.compute_sweep.csv). Empty without --csv.
inline std::string csv_path(const Options& options, const std::string& section) {
  if (options.csv.empty()) return {};
  const std::string& path = options.csv;
  const std::size_t slash = path.find_last_of('/');
  const std::size_t dot = path.find_last_of('.');
  const bool has_extension = dot != std::string::npos && (slash == std::string::npos || dot > slash);
  return has_extension ? path.substr(0, dot) + "." + section + path.substr(dot) : path + "." + section + ".csv";
}

/// A section's results as CSV: one header, one line per measured point.
class CsvFile {
 public:
  explicit CsvFile(std::vector<std::string> header) : columns_(header.size()) { add(std::move(header)); }

  /// Adds a line; it must have one field per column.
  void add(std::vector<std::string> fields) {
    if (fields.size() != columns_) throw std::logic_error("CSV line with the wrong number of fields");
    for (std::size_t i = 0; i < fields.size(); ++i) text_ += (i ? "," : "") + quoted(fields[i]);
    text_ += '\n';
  }

  /// Writes the file next to --csv (csv_path()) and says so on @p out; does
  /// nothing without --csv.
  void write(const Options& options, const std::string& section, std::ostream& out) const {
    const std::string path = csv_path(options, section);
    if (path.empty()) return;
    write_file_atomically(path, text_);
    out << "wrote " << path << '\n';
  }

  const std::string& text() const { return text_; }

 private:
  static std::string quoted(const std::string& field) {
    if (field.find_first_of(",\"\n") == std::string::npos) return field;
    std::string result = "\"";
    for (char c : field) result += c == '"' ? std::string("\"\"") : std::string(1, c);
    return result + "\"";
  }

  std::size_t columns_;
  std::string text_;
};

}  // namespace gauss::sections
