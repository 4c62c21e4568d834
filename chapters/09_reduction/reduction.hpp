// Chapter 09's second program part: summing every byte of an image on the
// CPU (the references) and on the GPU (the ladder from racy to warp shuffles,
// in OpenCL and in CUDA), how the sums are run, timed and checked, and the
// parts of main.cpp's sections (the ladder, the brightness question, the
// sweep, the exercise's tree sums). The declarations come first, then their
// definitions.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <iosfwd>
#include <limits>
#include <numeric>
#include <ostream>
#include <random>
#include <string>
#include <vector>

#include "gauss/blur.hpp"
#include "gauss/chapter.hpp"
#include "gauss/error.hpp"
#include "gauss/image.hpp"
#include "gauss/oclgrind.hpp"
#include "gauss/opencl.hpp"
#include "gauss/reference.hpp"
#include "gauss/runners.hpp"
#include "gauss/section_tools.hpp"
#include "gauss/table.hpp"
#include "gauss/timing.hpp"
#include "naive_blur.hpp"        // chapter 01's OpenCL kernel (USES 01_naive)
#include "reduce_broken_cl.hpp"  // reduce_broken.cl, embedded at build time
#include "reduce_cl.hpp"         // reduce.cl, embedded at build time
#ifdef GAUSS_HAVE_CUDA
#include "blur_naive.cuh"  // chapter 01's CUDA kernel (USES 01_naive)
#include "gauss/cuda.hpp"
#include "reduce.cuh"
#endif

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
  Racy,          ///< every item adds into one global value: lost updates (wrong, differently each run)
  Atomic,        ///< every item adds atomically into one global value
  AtomicGroup,   ///< atomics on a local counter, one global atomic per group
  Interleaved,   ///< the tree with interleaved addressing (the webinar's first), one global atomic per group
  Tree,          ///< the local-memory tree, one global atomic per group
  MultiPass,     ///< the tree writes group sums; again on those; the host adds the last few
  ManyPerItem,   ///< each item adds many elements (16 bytes per load) first; two passes
  Shuffle,       ///< CUDA only: the same with warp shuffles instead of the shared-memory tree
  RowsFirst,     ///< the bytes as an image: one item per row walks along it (uncoalesced), then multipass
  ColumnsFirst,  ///< one item per column walks down it (coalesced), then multipass
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
/// ... but the row and column walks (RowsFirst, ColumnsFirst): one item per
/// line of the image gives a photo only a few thousand items, and groups of
/// 64 spread them over most of a GPU's compute units (4480 rows: 70 groups of
/// 64, 18 of 256). reduce.cuh's kWalkGroup is the same.
inline constexpr std::size_t kWalkGroup = 64;

/// The row length the walks take for @p n bytes: @p row_bytes (the image's
/// pitch) when given, else ceil(sqrt(n)), a square whose last row may be
/// short; never more than n, never 0.
std::size_t walk_width(std::size_t n, std::size_t row_bytes);
/// How many items a walk has: rows (ceil(n / width)) or columns (min(width, n)).
std::size_t walk_lines(SumMethod method, std::size_t n, std::size_t row_bytes);

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
  /// RowsFirst and ColumnsFirst take them as rows of @p row_bytes (0: a
  /// square, walk_width()); the other methods ignore it.
  SumRun sum(SumMethod method, const cl::Buffer& data, std::size_t n, std::size_t row_bytes = 0);

  /// The seed's example: one group of 256 items adds @p values (256 of them).
  std::uint32_t sum_256(const std::vector<std::uint32_t>& values);

  /// reduce_broken.cl's kernel on @p values: only on Oclgrind (throws elsewhere).
  std::uint32_t sum_256_barrier_in_if(const std::vector<std::uint32_t>& values);

  /// Groups of the first pass of ManyPerItem for @p n bytes.
  std::size_t strided_groups(std::size_t n) const;

 private:
  cl::Buffer& partials(int which, std::size_t count);
  void write_garbage(cl::Buffer& buffer, std::size_t count);
  std::uint32_t run_256(cl::Kernel& kernel, const std::vector<std::uint32_t>& values);

  gauss::OpenClSession& cl_;
  bool int64_atomics_ = false;
  bool oclgrind_ = false;
  cl::Kernel racy_, atomic_, atomic_group_, tree_atomic_, interleaved_atomic_;
  cl::Kernel tree_bytes_, tree_totals_, strided_bytes_, strided_totals_;
  cl::Kernel rows_first_, columns_first_;
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
/// timed run's total against @p expected. Run r sums @p inputs[r % size]:
/// copies of the same bytes, so that no run finds its input in the L2 cache
/// (input_copies()). @p row_bytes: the image's rows, for the row and column
/// walks (0: a square).
template <class Summer, class Data>
SumStats measure_sum_rotating(Summer& summer, const SumMethodInfo& info, const std::string& api,
                              const std::vector<Data>& inputs, std::size_t n, std::uint64_t expected,
                              const gauss::RunSettings& settings, std::size_t row_bytes = 0);
/// The same on one buffer (the sweep, the tests): every run reads @p data.
template <class Summer, class Data>
SumStats measure_sum(Summer& summer, const SumMethodInfo& info, const std::string& api, const Data& data, std::size_t n,
                     std::uint64_t expected, const gauss::RunSettings& settings, std::size_t row_bytes = 0);

/// The L2 size assumed where the API does not report it: 64 MiB, above the
/// largest L2 of the GPUs this tutorial measures (the H200's 60 MB). NVIDIA's
/// OpenCL reports CL_DEVICE_GLOBAL_MEM_CACHE_SIZE, but not as the L2's size.
inline constexpr std::size_t kAssumedL2 = std::size_t{64} << 20;
/// At most this many copies of the input (small inputs on a large L2).
inline constexpr int kMaxInputCopies = 32;

/// How many copies of an @p n-byte input the timed sums rotate through:
/// enough that between two reads of one copy the other copies read at least
/// twice @p l2_bytes, so that no timed run finds its input still in the L2
/// (the blur runs rotate their buffers for the same reason,
/// gauss::rotation_sets). At most kMaxInputCopies and a quarter of
/// @p device_memory; at least 1.
int input_copies(std::size_t n, std::size_t l2_bytes, std::size_t device_memory);

/// Prints the ladder's table; @p copy_gbps is the copy ceiling of each row's
/// API in this run (0: not measured).
void print_sums(std::ostream& out, const std::vector<SumStats>& sums, double opencl_copy_gbps, double cuda_copy_gbps);

/// Appends a --csv/--json row per method, named "<prefix><method>".
void add_sum_rows(std::vector<gauss::ResultRow>& rows, const std::vector<SumStats>& sums, const std::string& device,
                  const std::string& prefix, double copy_gbps);

// --- Template definition ------------------------------------------------------------

template <class Summer, class Data>
SumStats measure_sum(Summer& summer, const SumMethodInfo& info, const std::string& api, const Data& data, std::size_t n,
                     std::uint64_t expected, const gauss::RunSettings& settings, std::size_t row_bytes) {
  return measure_sum_rotating(summer, info, api, std::vector<Data>{data}, n, expected, settings, row_bytes);
}

template <class Summer, class Data>
SumStats measure_sum_rotating(Summer& summer, const SumMethodInfo& info, const std::string& api,
                              const std::vector<Data>& inputs, std::size_t n, std::uint64_t expected,
                              const gauss::RunSettings& settings, std::size_t row_bytes) {
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
      const SumRun run = summer.sum(info.method, inputs[static_cast<std::size_t>(r) % inputs.size()], n, row_bytes);
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

#ifdef GAUSS_HAVE_CUDA
// --- The sums in CUDA ------------------------------------------------------------------
/// The sums in CUDA on the current device; the same methods as
/// OpenClSummer, plus warp shuffles.
class CudaSummer {
 public:
  explicit CudaSummer(const gauss::CudaDeviceInfo& device);

  /// Every method runs on CUDA.
  bool runs(SumMethod method, std::string* why = nullptr) const;
  /// Untimed, before every sum: fills the total and the partial sums with garbage.
  void poison();
  /// Sums the first @p n bytes at @p data (device memory) with @p method (n >= 1, < 2^32);
  /// @p row_bytes as in OpenClSummer::sum.
  SumRun sum(SumMethod method, const std::uint8_t* data, std::size_t n, std::size_t row_bytes = 0);
  /// The seed's example: one block of 256 threads adds @p values (256 of them).
  std::uint32_t sum_256(const std::vector<std::uint32_t>& values);
  /// Blocks of the first pass of ManyPerItem and Shuffle for @p n bytes.
  unsigned strided_blocks(std::size_t n) const;

 private:
  unsigned long long* partials(int which, std::size_t count);

  int multiprocessors_ = 1;
  gauss::CudaStream stream_;
  gauss::CudaBuffer total_;
  gauss::CudaBuffer partials_[2];
  gauss::CudaEvent start_;
  gauss::CudaEvent stop_;
};
#endif

// --- Definitions ---------------------------------------------------------------------

// --- The CPU references ----------------------------------------------------------

inline int input_copies(std::size_t n, std::size_t l2_bytes, std::size_t device_memory) {
  const std::size_t bytes = std::max<std::size_t>(n, 1);
  const std::size_t others = (2 * l2_bytes + bytes - 1) / bytes;  // copies read between two reads of one
  int copies = static_cast<int>(std::min<std::size_t>(others + 1, kMaxInputCopies));
  while (copies > 1 && static_cast<std::size_t>(copies) * bytes > device_memory / 4) --copies;
  return std::max(copies, 1);
}

inline std::uint64_t sum_exact(const std::uint8_t* data, std::size_t n) {
  std::uint64_t sum = 0;
  for (std::size_t i = 0; i < n; ++i) sum += data[i];
  return sum;
}

inline double sum_double(const std::uint8_t* data, std::size_t n) {
  double sum = 0;
  for (std::size_t i = 0; i < n; ++i) sum += data[i];
  return sum;
}

inline float sum_float(const std::uint8_t* data, std::size_t n) {
  float sum = 0;
  for (std::size_t i = 0; i < n; ++i) sum += static_cast<float>(data[i]);
  return sum;
}

inline float sum_kahan(const std::uint8_t* data, std::size_t n) {
  float sum = 0;
  float lost = 0;  // what the last addition rounded away, to be added back
  for (std::size_t i = 0; i < n; ++i) {
    const float value = static_cast<float>(data[i]) - lost;
    const float next = sum + value;
    lost = (next - sum) - value;  // algebraically 0; in float, the rounding error
    sum = next;
  }
  return sum;
}

inline float sum_pairwise(const std::uint8_t* data, std::size_t n) {
  if (n <= 8) return sum_float(data, n);
  const std::size_t half = n / 2;
  return sum_pairwise(data, half) + sum_pairwise(data + half, n - half);
}

// How much each input column (or row) is counted by all the outputs of a
// 1-D blur with clamp-to-edge: a tap past the edge reads the edge pixel.
inline std::vector<double> coverage(int length, const std::vector<double>& weights, int radius) {
  std::vector<double> counted(static_cast<std::size_t>(length), 0.0);
  for (int u = 0; u < length; ++u) {
    for (int k = -radius; k <= radius; ++k) {
      counted[static_cast<std::size_t>(std::clamp(u + k, 0, length - 1))] +=
          weights[static_cast<std::size_t>(k + radius)];
    }
  }
  return counted;
}

inline double blur_sum_unrounded(const gauss::Image& image, const gauss::BlurSpec& blur) {
  const std::vector<double> weights = gauss::gaussian_weights(blur);
  const std::vector<double> columns = coverage(image.width, weights, blur.radius);
  const std::vector<double> rows = coverage(image.height, weights, blur.radius);
  double sum = 0;
  for (int y = 0; y < image.height; ++y) {
    double row_sum = 0;
    for (int x = 0; x < image.width; ++x) {
      for (int c = 0; c < image.channels; ++c) row_sum += columns[static_cast<std::size_t>(x)] * image.at(x, y, c);
    }
    sum += rows[static_cast<std::size_t>(y)] * row_sum;
  }
  return sum;
}

// --- The methods ---------------------------------------------------------------------

inline const std::vector<SumMethodInfo>& sum_methods() {
  static const std::vector<SumMethodInfo> methods{
      {SumMethod::Racy, "racy", "every item adds into one global value with +=: lost updates", false, false},
      {SumMethod::Atomic, "atomic", "every item adds into one global value with a 64-bit atomic", true, false},
      {SumMethod::AtomicGroup, "atomic_group", "atomics on a local counter, then one global atomic per group", true,
       false},
      {SumMethod::Interleaved, "interleaved",
       "the tree with interleaved addressing (lid % (2i) == 0 adds s[lid + i]), one global atomic per group", true,
       false},
      {SumMethod::Tree, "tree", "the local-memory tree with barriers, then one global atomic per group", true, false},
      {SumMethod::MultiPass, "multipass", "the tree writes group sums, again on those, the host adds the last few",
       true, false},
      {SumMethod::ManyPerItem, "many_per_item", "each item adds many elements (16 bytes per load), then the tree", true,
       false},
      {SumMethod::Shuffle, "shuffle", "many elements per thread, then warp shuffles instead of the tree", true, true},
      {SumMethod::RowsFirst, "rows_first",
       "one item per image row, walking along it (a warp reads 32 rows at once), then multipass", true, false},
      {SumMethod::ColumnsFirst, "columns_first",
       "one item per image column, walking down it (a warp reads 32 neighbours), then multipass", true, false},
  };
  return methods;
}

inline std::size_t walk_width(std::size_t n, std::size_t row_bytes) {
  std::size_t width = row_bytes;
  if (width == 0) {
    width = static_cast<std::size_t>(std::sqrt(static_cast<double>(n)));
    while (width * width < n) ++width;  // ceil, whatever sqrt rounded to
  }
  return std::clamp<std::size_t>(width, 1, std::max<std::size_t>(n, 1));
}

inline std::size_t walk_lines(SumMethod method, std::size_t n, std::size_t row_bytes) {
  const std::size_t width = walk_width(n, row_bytes);
  return method == SumMethod::RowsFirst ? (n + width - 1) / width : std::min(width, n);
}

// --- OpenCL -----------------------------------------------------------------------------

inline cl_uint checked_count(std::size_t n) {
  if (n == 0 || n > std::numeric_limits<cl_uint>::max()) {
    throw gauss::ApiError("a sum of " + std::to_string(n) + " elements: the kernels take 1 to 2^32 - 1");
  }
  return static_cast<cl_uint>(n);
}

// The garbage poison() leaves: far from any real sum.
constexpr cl_ulong kPoison = 0xA5A5A5A5A5A5A5A5ull;

inline OpenClSummer::OpenClSummer(gauss::OpenClSession& cl) : cl_(cl) {
  const std::string extensions = cl.info.device.getInfo<CL_DEVICE_EXTENSIONS>();
  int64_atomics_ = extensions.find("cl_khr_int64_base_atomics") != std::string::npos;
  oclgrind_ = gauss::is_oclgrind(cl);
  const cl::Program bytes = cl.build(gauss::embedded::reduce_cl, "-D ELEMENT=uchar -D ELEMENT_IS_BYTE=1");
  const cl::Program totals = cl.build(gauss::embedded::reduce_cl, "-D ELEMENT=ulong -D ELEMENT_IS_BYTE=0");
  racy_ = cl::Kernel(bytes, "sum_racy");
  if (int64_atomics_) {
    atomic_ = cl::Kernel(bytes, "sum_atomic");
    atomic_group_ = cl::Kernel(bytes, "sum_atomic_group");
    tree_atomic_ = cl::Kernel(bytes, "sum_tree_atomic");
    interleaved_atomic_ = cl::Kernel(bytes, "sum_interleaved_atomic");
  }
  rows_first_ = cl::Kernel(bytes, "sum_rows_first");
  columns_first_ = cl::Kernel(bytes, "sum_columns_first");
  tree_bytes_ = cl::Kernel(bytes, "sum_tree");
  strided_bytes_ = cl::Kernel(bytes, "sum_strided");
  sum_256_ = cl::Kernel(bytes, "sum_256");
  tree_totals_ = cl::Kernel(totals, "sum_tree");
  strided_totals_ = cl::Kernel(totals, "sum_strided");
  total_ = cl::Buffer(cl.context, CL_MEM_READ_WRITE, sizeof(cl_ulong));
}

inline bool OpenClSummer::runs(SumMethod method, std::string* why) const {
  std::string reason;
  if (method == SumMethod::Shuffle) {
    reason = "OpenCL 1.2 has no warp (sub-group) shuffles";
  } else if (!int64_atomics_ && (method == SumMethod::Atomic || method == SumMethod::AtomicGroup ||
                                 method == SumMethod::Tree || method == SumMethod::Interleaved)) {
    reason = "the device lacks cl_khr_int64_base_atomics";
  } else if (oclgrind_ && method == SumMethod::Racy) {
    reason = "not run on Oclgrind, which reports its data race (the race is the point of it)";
  }
  if (why != nullptr) *why = reason;
  return reason.empty();
}

inline void OpenClSummer::write_garbage(cl::Buffer& buffer, std::size_t count) {
  const std::vector<cl_ulong> garbage(count, kPoison);
  cl_.queue.enqueueWriteBuffer(buffer, CL_TRUE, 0, count * sizeof(cl_ulong), garbage.data());
}

inline cl::Buffer& OpenClSummer::partials(int which, std::size_t count) {
  if (capacity_[which] < count) {
    partials_[which] = cl::Buffer(cl_.context, CL_MEM_READ_WRITE, count * sizeof(cl_ulong));
    capacity_[which] = count;
    // Garbage written from the host, here and in poison(), not with
    // enqueueFillBuffer: Oclgrind's --uninitialized (21.10) counted neither
    // a fill nor the stores of an earlier kernel as initialising a buffer the
    // host never wrote, and flagged every tree pass over partial sums as
    // reading uninitialised values (also when the kernel before it stored
    // constants, so not a real read of garbage). A host write it counts.
    write_garbage(partials_[which], count);
  }
  return partials_[which];
}

inline void OpenClSummer::poison() {
  cl_.queue.enqueueFillBuffer(total_, kPoison, 0, sizeof(cl_ulong));
  for (int which = 0; which < 2; ++which) {
    if (capacity_[which] > 0) {
      write_garbage(partials_[which], capacity_[which]);  // from the host: see partials()
    }
  }
  cl_.queue.finish();
}

inline std::size_t OpenClSummer::strided_groups(std::size_t n) const {
  // Enough groups to fill the device (8 per compute unit keep an NVIDIA SM's
  // 2048 threads busy), but no more than give every item 16 bytes to load.
  const std::size_t fill = 8 * static_cast<std::size_t>(std::max(cl_.info.compute_units, 1));
  const std::size_t useful = (n + kGroup * 16 - 1) / (kGroup * 16);
  return std::max<std::size_t>(1, std::min(fill, useful));
}

inline SumRun OpenClSummer::sum(SumMethod method, const cl::Buffer& data, std::size_t n, std::size_t row_bytes) {
  const cl_uint count = checked_count(n);
  const cl::NDRange local(kGroup);
  const cl::CommandQueue& queue = cl_.queue;
  std::vector<cl::Event> events;
  auto launch = [&](cl::Kernel& kernel, const cl::Buffer& in, cl_uint elements, const cl::Buffer& out,
                    std::size_t groups) {
    kernel.setArg(0, in);
    kernel.setArg(1, elements);
    kernel.setArg(2, out);
    cl::Event done;
    queue.enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(groups * kGroup), local, nullptr, &done);
    events.push_back(done);
  };
  auto groups_for = [](std::size_t elements) { return (elements + kGroup - 1) / kGroup; };
  // The multipass tree from `elements` values at *in, built for them as
  // *kernel, writing partials(which) first: pass after pass (n -> n/256 ->
  // n/65536 ...) until one group's worth is left, which the host reads and
  // adds.
  auto multipass = [&](const cl::Buffer* in, cl::Kernel* kernel, std::size_t elements, int which) {
    do {
      const std::size_t groups = groups_for(elements);
      cl::Buffer& out = partials(which, groups);
      launch(*kernel, *in, static_cast<cl_uint>(elements), out, groups);
      in = &out;
      kernel = &tree_totals_;
      elements = groups;
      which = 1 - which;
    } while (elements > kGroup);
    std::vector<cl_ulong> tail(elements, kPoison);
    queue.enqueueReadBuffer(*in, CL_TRUE, 0, elements * sizeof(cl_ulong), tail.data());
    std::uint64_t total = 0;
    for (cl_ulong value : tail) total += value;
    return total;
  };

  SumRun run;
  gauss::HostTimer host;
  switch (method) {
    case SumMethod::Racy:
    case SumMethod::Atomic:
    case SumMethod::AtomicGroup:
    case SumMethod::Interleaved:
    case SumMethod::Tree: {
      // One item per byte, every group adding into the one total: zero it first.
      cl::Event zeroed;
      queue.enqueueFillBuffer(total_, cl_ulong{0}, 0, sizeof(cl_ulong), nullptr, &zeroed);
      events.push_back(zeroed);
      cl::Kernel& kernel = method == SumMethod::Racy          ? racy_
                           : method == SumMethod::Atomic      ? atomic_
                           : method == SumMethod::Tree        ? tree_atomic_
                           : method == SumMethod::Interleaved ? interleaved_atomic_
                                                              : atomic_group_;
      launch(kernel, data, count, total_, groups_for(n));
      cl_ulong total = kPoison;
      queue.enqueueReadBuffer(total_, CL_TRUE, 0, sizeof total, &total);
      run.total = total;
      break;
    }
    case SumMethod::MultiPass:
      run.total = multipass(&data, &tree_bytes_, n, 0);
      break;
    case SumMethod::RowsFirst:
    case SumMethod::ColumnsFirst: {
      // One item per row (column) into partials(0), then multipass on those.
      const std::size_t width = walk_width(n, row_bytes);
      const std::size_t lines = walk_lines(method, n, row_bytes);
      cl::Kernel& kernel = method == SumMethod::RowsFirst ? rows_first_ : columns_first_;
      cl::Buffer& sums = partials(0, lines);
      kernel.setArg(0, data);
      kernel.setArg(1, count);
      kernel.setArg(2, static_cast<cl_uint>(width));
      kernel.setArg(3, sums);
      cl::Event done;
      queue.enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(gauss::round_up(lines, kWalkGroup)),
                                 cl::NDRange(kWalkGroup), nullptr, &done);
      events.push_back(done);
      run.total = multipass(&sums, &tree_totals_, lines, 1);
      break;
    }
    case SumMethod::ManyPerItem: {
      // Pass 1: a GPU's worth of groups, each item adding many bytes. Pass 2:
      // one group adds the groups' sums.
      const std::size_t groups = strided_groups(n);
      cl::Buffer& sums = partials(0, groups);
      launch(strided_bytes_, data, count, sums, groups);
      cl::Buffer& result = partials(1, 1);
      launch(strided_totals_, sums, static_cast<cl_uint>(groups), result, 1);
      cl_ulong total = kPoison;
      queue.enqueueReadBuffer(result, CL_TRUE, 0, sizeof total, &total);
      run.total = total;
      break;
    }
    case SumMethod::Shuffle:
      throw gauss::ApiError("shuffle: OpenCL 1.2 has no warp shuffles");
  }
  run.round_trip_ms = host.elapsed_ms();
  run.device_ms = gauss::event_span_ms(events.front(), events.back());
  return run;
}

inline std::uint32_t OpenClSummer::run_256(cl::Kernel& kernel, const std::vector<std::uint32_t>& values) {
  if (values.size() != 256) throw gauss::ApiError("the seed's example adds exactly 256 values");
  cl::Buffer in(cl_.context, CL_MEM_READ_ONLY, 256 * sizeof(cl_uint));
  cl::Buffer out(cl_.context, CL_MEM_READ_WRITE, sizeof(cl_uint));
  cl_.queue.enqueueWriteBuffer(in, CL_TRUE, 0, 256 * sizeof(cl_uint), values.data());
  kernel.setArg(0, in);
  kernel.setArg(1, out);
  cl_.queue.enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(256), cl::NDRange(256));
  cl_uint result = 0;
  cl_.queue.enqueueReadBuffer(out, CL_TRUE, 0, sizeof result, &result);
  return result;
}

inline std::uint32_t OpenClSummer::sum_256(const std::vector<std::uint32_t>& values) {
  return run_256(sum_256_, values);
}

inline std::uint32_t OpenClSummer::sum_256_barrier_in_if(const std::vector<std::uint32_t>& values) {
  if (!oclgrind_) {
    throw gauss::ApiError("the barrier-in-if kernel runs only on Oclgrind (it may hang a real device)");
  }
  cl::Kernel kernel = cl_.kernel(gauss::embedded::reduce_broken_cl, "sum_256_barrier_in_if");
  return run_256(kernel, values);
}

// --- Checking and reporting ---------------------------------------------------------------

inline int SumStats::wrong() const {
  return static_cast<int>(std::count_if(totals.begin(), totals.end(), [&](std::uint64_t t) { return t != expected; }));
}

inline bool SumStats::ok() const {
  if (!error.empty()) return false;
  if (!skipped.empty() || !correct) return true;
  return !totals.empty() && wrong() == 0;
}

inline std::string SumStats::status() const {
  if (!error.empty()) return "ERROR";
  if (!skipped.empty()) return "skipped";
  if (!correct) return wrong() > 0 ? "wrong, as expected" : "right by luck";
  return wrong() == 0 ? "ok" : "WRONG";
}

// 3316123456 -> "3,316,123,456": sums this long are read digit group by digit group.
inline std::string grouped(std::uint64_t value) {
  std::string digits = std::to_string(value);
  for (int i = static_cast<int>(digits.size()) - 3; i > 0; i -= 3) digits.insert(static_cast<std::size_t>(i), ",");
  return digits;
}

inline void print_sums(std::ostream& out, const std::vector<SumStats>& sums, double opencl_copy_gbps,
                       double cuda_copy_gbps) {
  using Align = gauss::Table::Align;
  gauss::Table table({{"method", Align::Left},
                      {"api", Align::Left},
                      {"runs"},
                      {"device ms"},
                      {"round trip ms"},
                      {"GB/s"},
                      {"% of copy"},
                      {"sum (min .. max over the runs)"},
                      {"wrong runs"},
                      {"status", Align::Left}});
  for (const SumStats& s : sums) {
    if (!s.error.empty() || !s.skipped.empty()) {
      table.add_row({s.method, s.api, "0", "-", "-", "-", "-", "-", "-", s.status()});
      continue;
    }
    const double gbps = gauss::gigabytes_per_second(s.bytes, s.device.median_ms);
    const double copy = s.api == "CUDA" ? cuda_copy_gbps : opencl_copy_gbps;
    const auto [low, high] = std::minmax_element(s.totals.begin(), s.totals.end());
    const std::string range = *low == *high ? grouped(*low) : grouped(*low) + " .. " + grouped(*high);
    table.add_row({s.method, s.api, std::to_string(s.device.runs()), gauss::sections::format_ms(s.device.median_ms),
                   gauss::sections::format_ms(s.round_trip.median_ms), gauss::sections::format_gbps(gbps),
                   copy > 0 ? gauss::format_fixed(100.0 * gbps / copy, 1) : std::string("-"), range,
                   std::to_string(s.wrong()) + "/" + std::to_string(s.totals.size()), s.status()});
  }
  table.print(out);
  for (const SumStats& s : sums) {
    if (!s.error.empty()) out << s.method << " (" << s.api << "): ERROR: " << s.error << '\n';
    if (!s.skipped.empty()) out << s.method << " (" << s.api << "): skipped: " << s.skipped << '\n';
  }
}

inline void add_sum_rows(std::vector<gauss::ResultRow>& rows, const std::vector<SumStats>& sums,
                         const std::string& device, const std::string& prefix, double copy_gbps) {
  for (const SumStats& s : sums) {
    gauss::ResultRow row =
        gauss::sections::timing_row(prefix + s.method, s.api, device, s.device, s.bytes, s.ok(), s.status());
    if (copy_gbps > 0 && row.runs > 0) row.percent_of_copy = 100.0 * row.gbps / copy_gbps;
    std::uint64_t worst = 0;  // the largest error over the runs, in levels
    for (std::uint64_t t : s.totals) worst = std::max(worst, t > s.expected ? t - s.expected : s.expected - t);
    row.max_diff = static_cast<double>(worst);
    row.differing = static_cast<std::size_t>(s.wrong());
    rows.push_back(std::move(row));
  }
}

#ifdef GAUSS_HAVE_CUDA
// --- The sums in CUDA: definitions -------------------------------------------------------
using Total = unsigned long long;

// The garbage poison() leaves: 0xA5 in every byte, far from any real sum.
constexpr int kPoisonByte = 0xA5;

// checked_count(): the OpenCL one above (a count the kernels take, 1 to 2^32 - 1).

inline unsigned blocks_for(std::size_t elements) { return static_cast<unsigned>((elements + kGroup - 1) / kGroup); }

inline Total* as_totals(const gauss::CudaBuffer& buffer) { return reinterpret_cast<Total*>(buffer.data()); }

inline CudaSummer::CudaSummer(const gauss::CudaDeviceInfo& device)
    : multiprocessors_(std::max(device.multiprocessors, 1)), total_(sizeof(Total)) {}

inline bool CudaSummer::runs(SumMethod, std::string* why) const {
  if (why != nullptr) why->clear();
  return true;
}

inline unsigned long long* CudaSummer::partials(int which, std::size_t count) {
  if (partials_[which].bytes() < count * sizeof(Total)) partials_[which] = gauss::CudaBuffer(count * sizeof(Total));
  return as_totals(partials_[which]);
}

inline void CudaSummer::poison() {
  GAUSS_CUDA_CHECK(cudaMemsetAsync(total_.data(), kPoisonByte, total_.bytes(), stream_.get()));
  for (const gauss::CudaBuffer& buffer : partials_) {
    if (buffer.bytes() > 0)
      GAUSS_CUDA_CHECK(cudaMemsetAsync(buffer.data(), kPoisonByte, buffer.bytes(), stream_.get()));
  }
  GAUSS_CUDA_CHECK(cudaStreamSynchronize(stream_.get()));
}

inline unsigned CudaSummer::strided_blocks(std::size_t n) const {
  // 8 blocks of 256 threads fill one SM's 2048 threads; no more blocks than
  // give every thread 16 bytes to load.
  const std::size_t fill = 8 * static_cast<std::size_t>(multiprocessors_);
  const std::size_t useful = (n + kGroup * 16 - 1) / (kGroup * 16);
  return static_cast<unsigned>(std::max<std::size_t>(1, std::min(fill, useful)));
}

inline SumRun CudaSummer::sum(SumMethod method, const std::uint8_t* data, std::size_t n, std::size_t row_bytes) {
  const unsigned count = checked_count(n);
  const cudaStream_t s = stream_.get();
  SumRun run;
  Total total = 0;
  gauss::HostTimer host;
  start_.record(s);
  switch (method) {
    case SumMethod::Racy:
    case SumMethod::Atomic:
    case SumMethod::AtomicGroup:
    case SumMethod::Interleaved:
    case SumMethod::Tree: {
      GAUSS_CUDA_CHECK(cudaMemsetAsync(total_.data(), 0, sizeof(Total), s));
      const CudaSum kind = method == SumMethod::Racy          ? CudaSum::Racy
                           : method == SumMethod::Atomic      ? CudaSum::Atomic
                           : method == SumMethod::Tree        ? CudaSum::TreeAtomic
                           : method == SumMethod::Interleaved ? CudaSum::InterleavedAtomic
                                                              : CudaSum::AtomicGroup;
      launch_sum_one_per_item(kind, data, count, as_totals(total_), s);
      GAUSS_CUDA_CHECK(cudaGetLastError());
      stop_.record(s);
      GAUSS_CUDA_CHECK(cudaMemcpyAsync(&total, total_.data(), sizeof total, cudaMemcpyDeviceToHost, s));
      break;
    }
    case SumMethod::MultiPass:
    case SumMethod::RowsFirst:
    case SumMethod::ColumnsFirst: {
      // As in OpenCL: pass after pass until one block's worth is left for the
      // host. MultiPass's first pass is the tree on the bytes; the walks'
      // first pass is one thread per row (column), their second the tree.
      unsigned elements = count;
      unsigned groups = 0;
      Total* out = nullptr;
      if (method == SumMethod::MultiPass) {
        groups = blocks_for(elements);
        out = partials(0, groups);
        launch_sum_tree(data, elements, out, s);
      } else {
        groups = static_cast<unsigned>(walk_lines(method, n, row_bytes));
        out = partials(0, groups);
        launch_sum_lines(method == SumMethod::RowsFirst, data, count, static_cast<unsigned>(walk_width(n, row_bytes)),
                         groups, out, s);
      }
      GAUSS_CUDA_CHECK(cudaGetLastError());
      int which = 0;
      elements = groups;
      // The walks' line sums always get one tree pass, as in OpenCL (its do-while).
      bool walk_needs_tree_pass = method != SumMethod::MultiPass;
      while (elements > kGroup || walk_needs_tree_pass) {
        walk_needs_tree_pass = false;
        groups = blocks_for(elements);
        which = 1 - which;
        Total* next = partials(which, groups);
        launch_sum_tree(out, elements, next, s);
        GAUSS_CUDA_CHECK(cudaGetLastError());
        out = next;
        elements = groups;
      }
      stop_.record(s);
      std::vector<Total> tail(elements, 0);
      GAUSS_CUDA_CHECK(cudaMemcpyAsync(tail.data(), out, elements * sizeof(Total), cudaMemcpyDeviceToHost, s));
      GAUSS_CUDA_CHECK(cudaStreamSynchronize(s));
      for (Total value : tail) total += value;
      break;
    }
    case SumMethod::ManyPerItem:
    case SumMethod::Shuffle: {
      const bool shuffle = method == SumMethod::Shuffle;
      const unsigned blocks = strided_blocks(n);
      Total* sums = partials(0, blocks);
      launch_sum_strided(shuffle, data, count, blocks, sums, s);
      GAUSS_CUDA_CHECK(cudaGetLastError());
      Total* result = partials(1, 1);
      launch_sum_strided(shuffle, sums, blocks, 1, result, s);
      GAUSS_CUDA_CHECK(cudaGetLastError());
      stop_.record(s);
      GAUSS_CUDA_CHECK(cudaMemcpyAsync(&total, result, sizeof total, cudaMemcpyDeviceToHost, s));
      break;
    }
  }
  GAUSS_CUDA_CHECK(cudaStreamSynchronize(s));
  run.round_trip_ms = host.elapsed_ms();
  run.device_ms = gauss::elapsed_ms(start_, stop_);
  run.total = total;
  return run;
}

inline std::uint32_t CudaSummer::sum_256(const std::vector<std::uint32_t>& values) {
  if (values.size() != 256) throw gauss::ApiError("the seed's example adds exactly 256 values");
  gauss::CudaBuffer in(256 * sizeof(unsigned));
  gauss::CudaBuffer out(sizeof(unsigned));
  in.upload(values.data(), in.bytes());
  launch_sum_256(reinterpret_cast<const unsigned*>(in.data()), reinterpret_cast<unsigned*>(out.data()), stream_.get());
  GAUSS_CUDA_CHECK(cudaGetLastError());
  GAUSS_CUDA_CHECK(cudaStreamSynchronize(stream_.get()));
  std::uint32_t result = 0;
  out.download(&result, sizeof result);
  return result;
}
#endif  // GAUSS_HAVE_CUDA

// === The sections' parts ================================================================

using gauss::sections::format_ms;

// As the chapter's own runs: --repeat and --warmup, and without an explicit
// --repeat at most about 2 s of runs per method on a slow device.
inline gauss::RunSettings settings_of(const gauss::Options& options) { return gauss::sections::run_settings(options); }

// 3316123456 -> "3,316,123,456".
inline std::string grouped(double value) {
  const bool negative = value < 0;
  std::string digits = gauss::format_fixed(std::fabs(value), 0);
  for (int i = static_cast<int>(digits.size()) - 3; i > 0; i -= 3) digits.insert(static_cast<std::size_t>(i), ",");
  return (negative ? "-" : "") + digits;
}

// --- The CPU references ------------------------------------------------------------
// What the right answer is, and how a float "reference" gets it wrong.
inline void print_cpu_references(std::ostream& out, const std::vector<std::uint8_t>& bytes) {
  const std::uint8_t* data = bytes.data();
  const std::size_t n = bytes.size();
  gauss::HostTimer timer;
  const std::uint64_t exact = sum_exact(data, n);
  const double exact_ms = timer.elapsed_ms();
  const double exact_value = static_cast<double>(exact);
  gauss::Table table({{"CPU reference", gauss::Table::Align::Left}, {"sum"}, {"error"}, {"relative error"}});
  auto row = [&](const char* name, double sum) {
    const double error = sum - exact_value;
    char relative[32] = "-";
    if (exact > 0) std::snprintf(relative, sizeof relative, "%.2e", error / exact_value);
    table.add_row({name, grouped(sum), grouped(error), relative});
  };
  row("64-bit integers (exact)", exact_value);
  row("double, in order", sum_double(data, n));
  row("float, in order", sum_float(data, n));
  row("float, Kahan-compensated", sum_kahan(data, n));
  row("float, pairwise (as a GPU tree)", sum_pairwise(data, n));
  out << "the input's " << grouped(static_cast<double>(n)) << " bytes, summed on the CPU (the exact sum took "
      << format_ms(exact_ms) << " ms on one thread):\n";
  table.print(out);
  out << '\n';
}

// --- The ladder on one API ------------------------------------------------------------
// @p row_bytes: the image's pitch, the rows the row and column walks take.
template <class Summer, class Data>
inline std::vector<SumStats> run_ladder(Summer& summer, const std::string& api, const std::vector<Data>& inputs,
                                        std::size_t n, std::uint64_t exact, const gauss::RunSettings& settings,
                                        std::size_t row_bytes) {
  std::vector<SumStats> sums;
  for (const SumMethodInfo& info : sum_methods()) {
    if (info.cuda_only && api != "CUDA") continue;
    sums.push_back(measure_sum_rotating(summer, info, api, inputs, n, exact, settings, row_bytes));
  }
  return sums;
}

inline void check_ladder(gauss::SectionContext& context, const std::vector<SumStats>& sums) {
  for (const SumStats& s : sums)
    if (!s.ok()) context.failed = true;
}

// --- The question: is the sum of the blurred image the sum of the input? -----------
// The blur's weights sum to 1, so in exact arithmetic an interior pixel's
// brightness is only moved around, never created or lost. Two things change
// the total: clamp-to-edge borders (the taps that fall outside the image
// read the edge pixel, which then counts more than once) and rounding each
// output to 8 bits. Both are computed here in double, exactly enough.
// One API's answer: the GPU blurs (chapter 01's kernel) and sums both images
// without the image leaving the device; the output is then read back only to
// check the GPU's sums against exact CPU sums of the very same bytes.
struct GpuBrightness {
  std::string api;
  std::uint64_t input = 0, output = 0;              // the GPU's sums
  std::uint64_t input_exact = 0, output_exact = 0;  // the CPU's sums of the same bytes
  double sum_ms = 0;                                // both sums, device time
  std::string error;
  bool ok() const { return error.empty() && input == input_exact && output == output_exact; }
};

inline void print_brightness(std::ostream& out, const gauss::Image& input, const gauss::Image& reference,
                             const gauss::BlurSpec& blur, const std::vector<GpuBrightness>& gpus) {
  const double in = static_cast<double>(sum_exact(input.pixels.data(), input.bytes()));
  const double ref = static_cast<double>(sum_exact(reference.pixels.data(), reference.bytes()));
  const double unrounded = blur_sum_unrounded(input, blur);
  const double pixels = static_cast<double>(input.bytes());
  out << "the input:                " << grouped(in) << " (mean " << gauss::format_fixed(in / pixels, 3)
      << " levels)\n";
  out << "the blur (CPU reference): " << grouped(ref) << ", a change of " << grouped(ref - in) << " levels ("
      << gauss::format_fixed(in > 0 ? 1e6 * (ref - in) / in : 0.0, 2) << " parts per million)\n";
  out << "  the borders, in exact arithmetic (clamp-to-edge counts edge pixels more than once): "
      << gauss::format_fixed(unrounded - in, 1) << "\n";
  out << "  rounding every output to 8 bits (at most 0.5 a pixel, in either direction): "
      << gauss::format_fixed(ref - unrounded, 1) << "\n";
  for (const GpuBrightness& g : gpus) {
    if (!g.error.empty()) {
      out << g.api << ": ERROR: " << g.error << '\n';
      continue;
    }
    out << g.api << ", blurred and summed on the device: input " << grouped(static_cast<double>(g.input)) << ", output "
        << grouped(static_cast<double>(g.output)) << " (change "
        << grouped(static_cast<double>(g.output) - static_cast<double>(g.input)) << "; both sums "
        << format_ms(g.sum_ms) << " ms); the CPU's exact sums of the same bytes: "
        << (g.ok() ? "equal"
                   : "DIFFERENT (" + grouped(static_cast<double>(g.input_exact)) + ", " +
                         grouped(static_cast<double>(g.output_exact)) + ")")
        << '\n';
  }
}

// The GPU's sums of the input and of its blurred image, beside the CPU's
// exact sums of the same bytes (read back for that check only).
inline GpuBrightness checked(const char* api, const SumRun& input_sum, const SumRun& output_sum,
                             const gauss::Image& input, const gauss::Image& blurred) {
  GpuBrightness result;
  result.api = api;
  result.input = input_sum.total;
  result.output = output_sum.total;
  result.sum_ms = input_sum.device_ms + output_sum.device_ms;
  result.input_exact = sum_exact(input.pixels.data(), input.bytes());
  result.output_exact = sum_exact(blurred.pixels.data(), blurred.bytes());
  return result;
}

inline GpuBrightness failed(const char* api, const std::string& error) {
  GpuBrightness result;
  result.api = api;
  result.error = error;
  return result;
}

inline GpuBrightness opencl_brightness(gauss::SectionContext& context, OpenClSummer& summer) {
  gauss::OpenClSession& cl = *context.opencl;
  const gauss::Image& input = context.input;
  const std::size_t bytes = input.bytes();
  try {
    cl::Buffer in(cl.context, CL_MEM_READ_ONLY, bytes);
    cl::Buffer out(cl.context, CL_MEM_READ_WRITE, bytes);
    cl.queue.enqueueWriteBuffer(in, CL_TRUE, 0, bytes, input.pixels.data());
    gauss::Image blurred = gauss::poison_for(input);  // a pixel the blur misses is 128 levels off
    cl.queue.enqueueWriteBuffer(out, CL_TRUE, 0, bytes, blurred.pixels.data());
    cl::Kernel blur = gauss::naive::build_naive_blur(cl, context.blur);
    const gauss::Problem p = gauss::make_problem(input.geometry(), context.blur);
    gauss::naive::enqueue_naive_blur(cl.queue, blur, in, out, p, 0, input.height);
    summer.poison();
    const SumRun input_sum = summer.sum(SumMethod::ManyPerItem, in, bytes);
    summer.poison();
    const SumRun output_sum = summer.sum(SumMethod::ManyPerItem, out, bytes);
    cl.queue.enqueueReadBuffer(out, CL_TRUE, 0, bytes, blurred.pixels.data());
    return checked("OpenCL", input_sum, output_sum, input, blurred);
  } catch (const cl::Error& error) {
    return failed("OpenCL", gauss::describe(error));
  } catch (const std::exception& error) {
    return failed("OpenCL", error.what());
  }
}

#ifdef GAUSS_HAVE_CUDA
inline GpuBrightness cuda_brightness(gauss::SectionContext& context, CudaSummer& summer) {
  const gauss::Image& input = context.input;
  const std::size_t bytes = input.bytes();
  try {
    gauss::CudaBuffer in(bytes);
    gauss::CudaBuffer out(bytes);
    in.upload(input.pixels.data(), bytes);
    gauss::Image blurred = gauss::poison_for(input);  // a pixel the blur misses is 128 levels off
    out.upload(blurred.pixels.data(), bytes);
    const gauss::Problem p = gauss::make_problem(input.geometry(), context.blur);
    launch_blur_naive(in.data(), out.data(), p, dim3(gauss::naive::kGroupX, gauss::naive::kGroupY), nullptr);
    GAUSS_CUDA_CHECK(cudaGetLastError());
    GAUSS_CUDA_CHECK(cudaDeviceSynchronize());
    summer.poison();
    const SumRun input_sum = summer.sum(SumMethod::Shuffle, in.data(), bytes);
    summer.poison();
    const SumRun output_sum = summer.sum(SumMethod::Shuffle, out.data(), bytes);
    out.download(blurred.pixels.data(), bytes);
    return checked("CUDA", input_sum, output_sum, input, blurred);
  } catch (const std::exception& error) {
    return failed("CUDA", error.what());
  }
}
#endif

// --- The sweep: GB/s against the number of bytes ----------------------------------------
// At the photo's 30 MB the fastest sum takes a few microseconds, about what
// launching two kernels costs: the table above measures launches as much as
// bandwidth. The sweep sums 1 KiB to 256 MiB of random bytes to show where
// each method reaches the copy ceiling.
inline constexpr int kSweepMinLog2 = 10;
inline constexpr int kSweepMaxLog2 = 28;

inline std::vector<std::uint8_t> random_bytes(std::size_t n) {
  std::vector<std::uint8_t> bytes(n);
  std::mt19937_64 rng(20261121);
  for (std::size_t i = 0; i < n; i += 8) {
    std::uint64_t word = rng();
    for (std::size_t j = i; j < std::min(n, i + 8); ++j, word >>= 8) bytes[j] = static_cast<std::uint8_t>(word);
  }
  return bytes;
}

template <class Summer, class Data>
inline void sweep_api(gauss::SectionContext& context, Summer& summer, const std::string& api, const std::string& device,
                      const Data& data, const std::vector<std::uint8_t>& bytes, std::size_t max_n, double copy_gbps) {
  const std::vector<SumMethod> methods{SumMethod::Tree, SumMethod::MultiPass, SumMethod::ManyPerItem,
                                       SumMethod::Shuffle};
  gauss::Table table({{"bytes"},
                      {"method", gauss::Table::Align::Left},
                      {"api", gauss::Table::Align::Left},
                      {"device ms"},
                      {"GB/s"},
                      {"% of copy"},
                      {"status", gauss::Table::Align::Left}});
  for (int log2 = kSweepMinLog2; log2 <= kSweepMaxLog2; log2 += 2) {
    const std::size_t n = std::size_t{1} << log2;
    if (n > max_n) break;
    const std::uint64_t exact = sum_exact(bytes.data(), n);
    for (const SumMethodInfo& info : sum_methods()) {
      if (std::find(methods.begin(), methods.end(), info.method) == methods.end()) continue;
      if (info.cuda_only && api != "CUDA") continue;
      std::vector<SumStats> one{measure_sum(summer, info, api, data, n, exact, settings_of(context.options))};
      const SumStats& s = one.front();
      if (!s.ok()) context.failed = true;
      if (!s.skipped.empty()) continue;
      const double gbps = gauss::gigabytes_per_second(n, s.device.median_ms);
      table.add_row({std::to_string(n), s.method, api, format_ms(s.device.median_ms),
                     gauss::sections::format_gbps(gbps),
                     copy_gbps > 0 ? gauss::format_fixed(100.0 * gbps / copy_gbps, 1) : std::string("-"), s.status()});
      add_sum_rows(context.rows, one, device, "sweep." + std::to_string(n) + ".", copy_gbps);
    }
  }
  table.print(context.out);
  context.out << '\n';
}

// --- The exercise: the sums whose kernels end in the tree ------------------------------
// group_sum (reduce.cl) and block_sum_tree (reduce.cu) are the exercise
// (README, section Exercise); these methods call them.
inline bool uses_tree(SumMethod method) {
  return method == SumMethod::Tree || method == SumMethod::MultiPass || method == SumMethod::ManyPerItem;
}

// Runs the methods that use the tree on one API, as the ladder does, except
// one the device cannot run (the tree's 64-bit atomics): left out, with a line.
template <class Summer, class Data>
inline void run_tree_sums(std::ostream& out, Summer& summer, const std::string& api, const std::vector<Data>& inputs,
                          std::size_t n, std::uint64_t exact, const gauss::RunSettings& settings,
                          std::vector<SumStats>& sums) {
  for (const SumMethodInfo& info : sum_methods()) {
    if (!uses_tree(info.method)) continue;
    std::string why;
    if (!summer.runs(info.method, &why)) {
      out << info.name << " (" << api << ") is left out here: " << why << '\n';
      continue;
    }
    sums.push_back(measure_sum_rotating(summer, info, api, inputs, n, exact, settings));
  }
}

// One line per wrong method, in the form the chapters and the exercise
// grader use for a wrong result: "<name> (<API>): MISMATCH: ...".
inline void report_mismatches(std::ostream& out, const std::vector<SumStats>& sums) {
  for (const SumStats& s : sums) {
    if (!s.error.empty() || !s.skipped.empty() || s.wrong() == 0) continue;
    std::uint64_t got = s.expected;
    for (std::uint64_t t : s.totals)
      if (t != s.expected) got = t;
    out << s.method << " (" << s.api << "): MISMATCH: " << s.wrong() << " of " << s.totals.size() << " runs wrong; got "
        << grouped(static_cast<double>(got)) << ", expected " << grouped(static_cast<double>(s.expected)) << '\n';
  }
}

inline const std::vector<std::uint32_t>& zero_to_255() {
  static const std::vector<std::uint32_t> values = [] {
    std::vector<std::uint32_t> v(256);
    std::iota(v.begin(), v.end(), 0u);
    return v;
  }();
  return values;
}

// The input's bytes uploaded to each API the section runs, input_copies()
// times (the timed sums rotate through the copies, so that the L2 never
// serves a run: the photo's 30 MB would otherwise stay in the H200's 60 MB
// L2 from one run to the next), @p measure(summer, api, inputs) run on them,
// its sums added to the CSV/JSON rows (named @p prefix + method) and
// returned, OpenCL's first.
template <typename Measure>
inline std::vector<SumStats> sums_on_each_api(gauss::SectionContext& context, const std::string& prefix,
                                              Measure measure) {
  const std::vector<std::uint8_t>& bytes = context.input.pixels;
  const std::size_t n = bytes.size();
  std::vector<SumStats> all;
  auto say = [&](const char* api, int copies, std::size_t l2, const char* l2_source) {
    context.out << api << ": the timed sums rotate through " << copies << " copies of the input ("
                << gauss::format_fixed(static_cast<double>(copies) * static_cast<double>(n) / 1e6, 1) << " MB; L2 "
                << gauss::format_fixed(static_cast<double>(l2) / 1e6, 1) << " MB, " << l2_source << ")\n";
  };
  if (context.opencl != nullptr) {
    gauss::OpenClSession& cl = *context.opencl;
    OpenClSummer summer(cl);
    // OpenCL has no query for the L2: CL_DEVICE_GLOBAL_MEM_CACHE_SIZE is a
    // cache size, not necessarily the L2's (NVIDIA's is not). Take the larger
    // of it and kAssumedL2.
    const std::size_t l2 = std::max(cl.info.global_cache, kAssumedL2);
    const int copies = input_copies(n, l2, cl.info.global_memory);
    std::vector<cl::Buffer> inputs;
    for (int c = 0; c < copies; ++c) {
      inputs.emplace_back(cl.context, CL_MEM_READ_ONLY, n);
      cl.queue.enqueueWriteBuffer(inputs.back(), CL_TRUE, 0, n, bytes.data());
    }
    say("OpenCL", copies, l2, "assumed: the larger of CL_DEVICE_GLOBAL_MEM_CACHE_SIZE and 64 MiB");
    const std::vector<SumStats> sums = measure(summer, "OpenCL", inputs);
    add_sum_rows(context.rows, sums, cl.info.name, prefix, context.opencl_copy_gbps);
    all.insert(all.end(), sums.begin(), sums.end());
  }
#ifdef GAUSS_HAVE_CUDA
  if (context.cuda != nullptr) {
    CudaSummer summer(*context.cuda);
    const bool reported = context.cuda->l2_cache > 0;
    const std::size_t l2 = reported ? context.cuda->l2_cache : kAssumedL2;
    const int copies = input_copies(n, l2, context.cuda->global_memory);
    std::vector<gauss::CudaBuffer> buffers;
    std::vector<const std::uint8_t*> inputs;
    buffers.reserve(static_cast<std::size_t>(copies));
    for (int c = 0; c < copies; ++c) {
      buffers.emplace_back(n);
      buffers.back().upload(bytes.data(), n);
      inputs.push_back(buffers.back().data());
    }
    say("CUDA", copies, l2, reported ? "cudaDevAttrL2CacheSize" : "assumed");
    const std::vector<SumStats> sums = measure(summer, "CUDA", inputs);
    add_sum_rows(context.rows, sums, context.cuda->name, prefix, context.cuda_copy_gbps);
    all.insert(all.end(), sums.begin(), sums.end());
  }
#endif
  return all;
}

}  // namespace chapter09
