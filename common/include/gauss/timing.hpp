/// @file timing.hpp
/// @brief Summaries of repeated timings, effective bandwidth and a host clock.
///
/// Device work is timed with device events (OpenCL profiling events, CUDA
/// events; see runners.hpp): a host clock read right after an enqueue measures
/// only the enqueue. The host clock here times CPU code, and the whole round
/// trip where that is the point.
#pragma once

#include <chrono>
#include <cstddef>
#include <vector>

namespace gauss {

/// Repeated timings of one thing, in milliseconds.
struct TimingStats {
  std::vector<double> samples_ms;  ///< every timed run, in order
  double median_ms = 0;
  double min_ms = 0;
  double max_ms = 0;
  int runs() const { return static_cast<int>(samples_ms.size()); }
};

/// Median, minimum and maximum of @p samples_ms (empty input: all zero).
TimingStats summarize(std::vector<double> samples_ms);

/// Effective bandwidth in GB/s (10^9 bytes per second): @p bytes moved in @p ms.
/// The tutorial counts the input read once plus the output written once.
double gigabytes_per_second(std::size_t bytes, double ms);

/// A host clock (std::chrono::steady_clock).
class HostTimer {
 public:
  HostTimer() : start_(std::chrono::steady_clock::now()) {}
  void restart() { start_ = std::chrono::steady_clock::now(); }
  /// Milliseconds since construction or the last restart().
  double elapsed_ms() const {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start_).count();
  }

 private:
  std::chrono::steady_clock::time_point start_;
};

/// Runs @p work @p warmup times untimed, then @p repeat times timed with the
/// host clock, and summarizes. For CPU code, or host-side round trips.
template <class Work>
TimingStats time_on_host(Work&& work, int warmup, int repeat) {
  for (int i = 0; i < warmup; ++i) work();
  std::vector<double> samples;
  samples.reserve(static_cast<std::size_t>(repeat));
  for (int i = 0; i < repeat; ++i) {
    HostTimer timer;
    work();
    samples.push_back(timer.elapsed_ms());
  }
  return summarize(std::move(samples));
}

}  // namespace gauss
