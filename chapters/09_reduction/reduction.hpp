// Chapter 09: summing every byte of an image on the CPU (the references) and
// on the GPU (the ladder from racy to warp shuffles), and how the sums are
// run, timed and checked.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <iosfwd>
#include <string>
#include <vector>

#include "gauss/blur.hpp"
#include "gauss/image.hpp"
#include "gauss/opencl.hpp"
#include "gauss/runners.hpp"
#include "gauss/table.hpp"
#include "gauss/timing.hpp"

namespace chapter09 {

// --- The CPU references ----------------------------------------------------------

/// The exact sum, in 64-bit integers: the reference every GPU sum must equal.
std::uint64_t sum_exact(const std::uint8_t* data, std::size_t n);
/// Left to right in double: exact while the sum stays below 2^53.
double sum_double(const std::uint8_t* data, std::size_t n);
/// Left to right in float: once the sum passes 2^24 times a value, adding the
/// value no longer changes it (rigaya's "reference" summed in float).
float sum_float(const std::uint8_t* data, std::size_t n);
/// Kahan's compensated sum in float: the rounding error of each addition is
/// kept and fed back, so the result is the float nearest the exact sum.
float sum_kahan(const std::uint8_t* data, std::size_t n);
/// Pairwise in float: halves summed separately and added, as a GPU tree does;
/// the error grows with log2(n) instead of n.
float sum_pairwise(const std::uint8_t* data, std::size_t n);

/// The sum of the blur of @p image before its outputs are rounded to 8 bits,
/// in double, computed without blurring: with clamp-to-edge borders each
/// input pixel is counted (column coverage) x (row coverage) times, where a
/// column's coverage is the total weight all outputs give it: 1 inside,
/// different within `radius` of an edge. (Chapter 09's brightness question.)
double blur_sum_unrounded(const gauss::Image& image, const gauss::BlurSpec& blur);

// --- The GPU sums ------------------------------------------------------------------

/// The ladder, in the order of the lesson.
enum class SumMethod {
  Racy,         ///< every item adds into one global value: lost updates (wrong, differently each run)
  Atomic,       ///< every item adds atomically into one global value
  AtomicGroup,  ///< atomics on a local counter, one global atomic per group
  Tree,         ///< the local-memory tree, one global atomic per group
  MultiPass,    ///< the tree writes group sums; again on those; the host adds the last few
  ManyPerItem,  ///< each item adds many elements (16 bytes per load) first; two passes
  Shuffle,      ///< CUDA only: the same with warp shuffles instead of the shared-memory tree
};

/// A method's stable name (tables, CSV, tests) and one line.
struct SumMethodInfo {
  SumMethod method;
  const char* name;
  const char* description;
  bool correct;    ///< false for the racy kernel: it exists to be wrong
  bool cuda_only;  ///< warp shuffles: OpenCL 1.2 has none
};

/// Every method, in the order of the lesson.
const std::vector<SumMethodInfo>& sum_methods();

/// Work-items per work-group (threads per block) of every sum kernel.
inline constexpr std::size_t kGroup = 256;

/// What one sum did.
struct SumRun {
  std::uint64_t total = 0;
  double device_ms = 0;      ///< device events: from the first command to the last kernel
  double round_trip_ms = 0;  ///< host clock: from the first enqueue to the total in a host variable
};

/// The sums in OpenCL on one device. Builds reduce.cl twice (for bytes and
/// for 64-bit partial sums) and keeps the buffers for the total and the
/// partial sums between calls.
class OpenClSummer {
 public:
  explicit OpenClSummer(gauss::OpenClSession& cl);

  /// Whether @p method runs here: not Shuffle (no warp shuffles in OpenCL
  /// 1.2), not the 64-bit atomics without cl_khr_int64_base_atomics, not the
  /// racy kernel on Oclgrind (it reports the race the kernel exists to show).
  /// @p why says why not.
  bool runs(SumMethod method, std::string* why = nullptr) const;

  /// Untimed, before every sum: fills the total and the partial sums with
  /// garbage, so that a sum that skips a step or a group fails.
  void poison();

  /// Sums the first @p n bytes of @p data with @p method (n >= 1, < 2^32).
  SumRun sum(SumMethod method, const cl::Buffer& data, std::size_t n);

  /// The seed's example: one group of 256 items adds @p values (256 of them).
  std::uint32_t sum_256(const std::vector<std::uint32_t>& values);

  /// reduce_broken.cl's kernel on @p values: only on Oclgrind (throws elsewhere).
  std::uint32_t sum_256_barrier_in_if(const std::vector<std::uint32_t>& values);

  /// Groups of the first pass of ManyPerItem for @p n bytes.
  std::size_t strided_groups(std::size_t n) const;

 private:
  cl::Buffer& partials(int which, std::size_t count);
  std::uint32_t run_256(cl::Kernel& kernel, const std::vector<std::uint32_t>& values);

  gauss::OpenClSession& cl_;
  bool int64_atomics_ = false;
  bool oclgrind_ = false;
  cl::Kernel racy_, atomic_, atomic_group_, tree_atomic_;
  cl::Kernel tree_bytes_, tree_totals_, strided_bytes_, strided_totals_;
  cl::Kernel sum_256_;
  cl::Buffer total_;
  cl::Buffer partials_[2];
  std::size_t capacity_[2] = {0, 0};
};

/// The runs of one method on one API, and their check.
struct SumStats {
  std::string method;
  std::string api;
  bool correct = true;  ///< expected to be right (false: the racy kernel)
  std::size_t bytes = 0;
  gauss::TimingStats device;
  gauss::TimingStats round_trip;
  std::vector<std::uint64_t> totals;  ///< every timed run's
  std::uint64_t expected = 0;
  std::string error;    ///< a failed call
  std::string skipped;  ///< the method does not run here, and why

  /// Timed runs whose total differs from the exact sum.
  int wrong() const;
  /// A correct method that gave a wrong total, or an error, fails the run;
  /// the racy kernel being wrong does not.
  bool ok() const;
  std::string status() const;
};

/// Runs @p info's method settings.warmup + settings.repeat times on @p summer
/// (fewer under a time budget), poisoning before each, and checks every
/// timed run's total against @p expected.
template <class Summer, class Data>
SumStats measure_sum(Summer& summer, const SumMethodInfo& info, const std::string& api, const Data& data, std::size_t n,
                     std::uint64_t expected, const gauss::RunSettings& settings);

/// Prints the ladder's table; @p copy_gbps is the copy ceiling of each row's
/// API in this run (0: not measured).
void print_sums(std::ostream& out, const std::vector<SumStats>& sums, double opencl_copy_gbps, double cuda_copy_gbps);

/// Appends a --csv/--json row per method, named "<prefix><method>".
void add_sum_rows(std::vector<gauss::ResultRow>& rows, const std::vector<SumStats>& sums, const std::string& device,
                  const std::string& prefix, double copy_gbps);

// --- Template definition ------------------------------------------------------------

template <class Summer, class Data>
SumStats measure_sum(Summer& summer, const SumMethodInfo& info, const std::string& api, const Data& data, std::size_t n,
                     std::uint64_t expected, const gauss::RunSettings& settings) {
  SumStats stats;
  stats.method = info.name;
  stats.api = api;
  stats.correct = info.correct;
  stats.bytes = n;
  stats.expected = expected;
  std::string why;
  if (!summer.runs(info.method, &why)) {
    stats.skipped = why;
    return stats;
  }
  try {
    std::vector<double> device, round_trip;
    int warmup = settings.warmup;
    int repeat = settings.repeat;
    for (int r = 0; r < warmup + repeat; ++r) {
      summer.poison();
      const SumRun run = summer.sum(info.method, data, n);
      if (r == 0 && settings.budget_ms > 0) {  // a slow device: fewer runs (see gauss::RunSettings)
        repeat = gauss::runs_within_budget(settings, run.round_trip_ms);
        if (repeat < settings.repeat) warmup = std::min(warmup, 1);
      }
      if (r < warmup) continue;
      device.push_back(run.device_ms);
      round_trip.push_back(run.round_trip_ms);
      stats.totals.push_back(run.total);
    }
    stats.device = gauss::summarize(device);
    stats.round_trip = gauss::summarize(round_trip);
  } catch (const cl::Error& error) {
    stats.error = gauss::describe(error);
  } catch (const std::exception& error) {
    stats.error = error.what();
  }
  return stats;
}

}  // namespace chapter09
