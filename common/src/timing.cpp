#include "gauss/timing.hpp"

#include <algorithm>

namespace gauss {

TimingStats summarize(std::vector<double> samples_ms) {
  TimingStats stats;
  stats.samples_ms = samples_ms;
  if (samples_ms.empty()) return stats;
  std::sort(samples_ms.begin(), samples_ms.end());
  const std::size_t n = samples_ms.size();
  stats.min_ms = samples_ms.front();
  stats.max_ms = samples_ms.back();
  stats.median_ms = n % 2 == 1 ? samples_ms[n / 2] : 0.5 * (samples_ms[n / 2 - 1] + samples_ms[n / 2]);
  return stats;
}

double gigabytes_per_second(std::size_t bytes, double ms) {
  return ms > 0.0 ? static_cast<double>(bytes) / (ms * 1e-3) / 1e9 : 0.0;
}

}  // namespace gauss
