#include "reduction.hpp"

#include <algorithm>
#include <limits>
#include <ostream>
#include <string>

#include "../08_data_transfer/oclgrind.hpp"
#include "../08_data_transfer/report.hpp"
#include "gauss/error.hpp"
#include "reduce_broken_cl.hpp"  // reduce_broken.cl, embedded at build time
#include "reduce_cl.hpp"         // reduce.cl, embedded at build time

namespace chapter09 {

// --- The CPU references ----------------------------------------------------------

std::uint64_t sum_exact(const std::uint8_t* data, std::size_t n) {
  std::uint64_t sum = 0;
  for (std::size_t i = 0; i < n; ++i) sum += data[i];
  return sum;
}

double sum_double(const std::uint8_t* data, std::size_t n) {
  double sum = 0;
  for (std::size_t i = 0; i < n; ++i) sum += data[i];
  return sum;
}

float sum_float(const std::uint8_t* data, std::size_t n) {
  float sum = 0;
  for (std::size_t i = 0; i < n; ++i) sum += static_cast<float>(data[i]);
  return sum;
}

float sum_kahan(const std::uint8_t* data, std::size_t n) {
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

float sum_pairwise(const std::uint8_t* data, std::size_t n) {
  if (n <= 8) return sum_float(data, n);
  const std::size_t half = n / 2;
  return sum_pairwise(data, half) + sum_pairwise(data + half, n - half);
}

namespace {

// How much each input column (or row) is counted by all the outputs of a
// 1-D blur with clamp-to-edge: a tap past the edge reads the edge pixel.
std::vector<double> coverage(int length, const std::vector<double>& weights, int radius) {
  std::vector<double> counted(static_cast<std::size_t>(length), 0.0);
  for (int u = 0; u < length; ++u) {
    for (int k = -radius; k <= radius; ++k) {
      counted[static_cast<std::size_t>(std::clamp(u + k, 0, length - 1))] +=
          weights[static_cast<std::size_t>(k + radius)];
    }
  }
  return counted;
}

}  // namespace

double blur_sum_unrounded(const gauss::Image& image, const gauss::BlurSpec& blur) {
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

const std::vector<SumMethodInfo>& sum_methods() {
  static const std::vector<SumMethodInfo> methods{
      {SumMethod::Racy, "racy", "every item adds into one global value with +=: lost updates", false, false},
      {SumMethod::Atomic, "atomic", "every item adds into one global value with a 64-bit atomic", true, false},
      {SumMethod::AtomicGroup, "atomic_group", "atomics on a local counter, then one global atomic per group", true,
       false},
      {SumMethod::Tree, "tree", "the local-memory tree with barriers, then one global atomic per group", true, false},
      {SumMethod::MultiPass, "multipass", "the tree writes group sums, again on those, the host adds the last few",
       true, false},
      {SumMethod::ManyPerItem, "many_per_item", "each item adds many elements (16 bytes per load), then the tree", true,
       false},
      {SumMethod::Shuffle, "shuffle", "many elements per thread, then warp shuffles instead of the tree", true, true},
  };
  return methods;
}

// --- OpenCL -----------------------------------------------------------------------------

namespace {

cl_uint checked_count(std::size_t n) {
  if (n == 0 || n > std::numeric_limits<cl_uint>::max()) {
    throw gauss::ApiError("a sum of " + std::to_string(n) + " elements: the kernels take 1 to 2^32 - 1");
  }
  return static_cast<cl_uint>(n);
}

// The garbage poison() leaves: far from any real sum.
constexpr cl_ulong kPoison = 0xA5A5A5A5A5A5A5A5ull;

}  // namespace

OpenClSummer::OpenClSummer(gauss::OpenClSession& cl) : cl_(cl) {
  const std::string extensions = cl.info.device.getInfo<CL_DEVICE_EXTENSIONS>();
  int64_atomics_ = extensions.find("cl_khr_int64_base_atomics") != std::string::npos;
  oclgrind_ = chapter08::is_oclgrind(cl);
  const cl::Program bytes = cl.build(gauss::embedded::reduce_cl, "-D ELEMENT=uchar -D ELEMENT_IS_BYTE=1");
  const cl::Program totals = cl.build(gauss::embedded::reduce_cl, "-D ELEMENT=ulong -D ELEMENT_IS_BYTE=0");
  racy_ = cl::Kernel(bytes, "sum_racy");
  if (int64_atomics_) {
    atomic_ = cl::Kernel(bytes, "sum_atomic");
    atomic_group_ = cl::Kernel(bytes, "sum_atomic_group");
    tree_atomic_ = cl::Kernel(bytes, "sum_tree_atomic");
  }
  tree_bytes_ = cl::Kernel(bytes, "sum_tree");
  strided_bytes_ = cl::Kernel(bytes, "sum_strided");
  sum_256_ = cl::Kernel(bytes, "sum_256");
  tree_totals_ = cl::Kernel(totals, "sum_tree");
  strided_totals_ = cl::Kernel(totals, "sum_strided");
  total_ = cl::Buffer(cl.context, CL_MEM_READ_WRITE, sizeof(cl_ulong));
}

bool OpenClSummer::runs(SumMethod method, std::string* why) const {
  std::string reason;
  if (method == SumMethod::Shuffle) {
    reason = "OpenCL 1.2 has no warp (sub-group) shuffles";
  } else if (!int64_atomics_ &&
             (method == SumMethod::Atomic || method == SumMethod::AtomicGroup || method == SumMethod::Tree)) {
    reason = "the device lacks cl_khr_int64_base_atomics";
  } else if (oclgrind_ && method == SumMethod::Racy) {
    reason = "not run on Oclgrind, which reports its data race (the race is the point of it)";
  }
  if (why != nullptr) *why = reason;
  return reason.empty();
}

cl::Buffer& OpenClSummer::partials(int which, std::size_t count) {
  if (capacity_[which] < count) {
    partials_[which] = cl::Buffer(cl_.context, CL_MEM_READ_WRITE, count * sizeof(cl_ulong));
    capacity_[which] = count;
  }
  return partials_[which];
}

void OpenClSummer::poison() {
  cl_.queue.enqueueFillBuffer(total_, kPoison, 0, sizeof(cl_ulong));
  for (int which = 0; which < 2; ++which) {
    if (capacity_[which] > 0) {
      cl_.queue.enqueueFillBuffer(partials_[which], kPoison, 0, capacity_[which] * sizeof(cl_ulong));
    }
  }
  cl_.queue.finish();
}

std::size_t OpenClSummer::strided_groups(std::size_t n) const {
  // Enough groups to fill the device (8 per compute unit keep an NVIDIA SM's
  // 2048 threads busy), but no more than give every item 16 bytes to load.
  const std::size_t fill = 8 * static_cast<std::size_t>(std::max(cl_.info.compute_units, 1));
  const std::size_t useful = (n + kGroup * 16 - 1) / (kGroup * 16);
  return std::max<std::size_t>(1, std::min(fill, useful));
}

SumRun OpenClSummer::sum(SumMethod method, const cl::Buffer& data, std::size_t n) {
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

  SumRun run;
  gauss::HostTimer host;
  switch (method) {
    case SumMethod::Racy:
    case SumMethod::Atomic:
    case SumMethod::AtomicGroup:
    case SumMethod::Tree: {
      // One item per byte, every group adding into the one total: zero it first.
      cl::Event zeroed;
      queue.enqueueFillBuffer(total_, cl_ulong{0}, 0, sizeof(cl_ulong), nullptr, &zeroed);
      events.push_back(zeroed);
      cl::Kernel& kernel = method == SumMethod::Racy     ? racy_
                           : method == SumMethod::Atomic ? atomic_
                           : method == SumMethod::Tree   ? tree_atomic_
                                                         : atomic_group_;
      launch(kernel, data, count, total_, groups_for(n));
      cl_ulong total = kPoison;
      queue.enqueueReadBuffer(total_, CL_TRUE, 0, sizeof total, &total);
      run.total = total;
      break;
    }
    case SumMethod::MultiPass: {
      // Pass after pass: n bytes -> n/256 sums -> n/65536 sums ..., until one
      // group's worth is left, which the host reads and adds.
      const cl::Buffer* in = &data;
      cl::Kernel* kernel = &tree_bytes_;
      std::size_t elements = n;
      int which = 0;
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
      run.total = 0;
      for (cl_ulong value : tail) run.total += value;
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

std::uint32_t OpenClSummer::run_256(cl::Kernel& kernel, const std::vector<std::uint32_t>& values) {
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

std::uint32_t OpenClSummer::sum_256(const std::vector<std::uint32_t>& values) { return run_256(sum_256_, values); }

std::uint32_t OpenClSummer::sum_256_barrier_in_if(const std::vector<std::uint32_t>& values) {
  if (!oclgrind_) {
    throw gauss::ApiError("the barrier-in-if kernel runs only on Oclgrind (it may hang a real device)");
  }
  cl::Kernel kernel = cl_.kernel(gauss::embedded::reduce_broken_cl, "sum_256_barrier_in_if");
  return run_256(kernel, values);
}

// --- Checking and reporting ---------------------------------------------------------------

int SumStats::wrong() const {
  return static_cast<int>(std::count_if(totals.begin(), totals.end(), [&](std::uint64_t t) { return t != expected; }));
}

bool SumStats::ok() const {
  if (!error.empty()) return false;
  if (!skipped.empty() || !correct) return true;
  return !totals.empty() && wrong() == 0;
}

std::string SumStats::status() const {
  if (!error.empty()) return "ERROR";
  if (!skipped.empty()) return "skipped";
  if (!correct) return wrong() > 0 ? "wrong, as expected" : "right by luck";
  return wrong() == 0 ? "ok" : "WRONG";
}

namespace {

// 3316123456 -> "3,316,123,456": sums this long are read digit group by digit group.
std::string grouped(std::uint64_t value) {
  std::string digits = std::to_string(value);
  for (int i = static_cast<int>(digits.size()) - 3; i > 0; i -= 3) digits.insert(static_cast<std::size_t>(i), ",");
  return digits;
}

}  // namespace

void print_sums(std::ostream& out, const std::vector<SumStats>& sums, double opencl_copy_gbps, double cuda_copy_gbps) {
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
    table.add_row({s.method, s.api, std::to_string(s.device.runs()), chapter08::format_ms(s.device.median_ms),
                   chapter08::format_ms(s.round_trip.median_ms), chapter08::format_gbps(gbps),
                   copy > 0 ? gauss::format_fixed(100.0 * gbps / copy, 1) : std::string("-"), range,
                   std::to_string(s.wrong()) + "/" + std::to_string(s.totals.size()), s.status()});
  }
  table.print(out);
  for (const SumStats& s : sums) {
    if (!s.error.empty()) out << s.method << " (" << s.api << "): ERROR: " << s.error << '\n';
    if (!s.skipped.empty()) out << s.method << " (" << s.api << "): skipped: " << s.skipped << '\n';
  }
}

void add_sum_rows(std::vector<gauss::ResultRow>& rows, const std::vector<SumStats>& sums, const std::string& device,
                  const std::string& prefix, double copy_gbps) {
  for (const SumStats& s : sums) {
    gauss::ResultRow row =
        chapter08::timing_row(prefix + s.method, s.api, device, s.device, s.bytes, s.ok(), s.status());
    if (copy_gbps > 0 && row.runs > 0) row.percent_of_copy = 100.0 * row.gbps / copy_gbps;
    std::uint64_t worst = 0;  // the largest error over the runs, in levels
    for (std::uint64_t t : s.totals) worst = std::max(worst, t > s.expected ? t - s.expected : s.expected - t);
    row.max_diff = static_cast<double>(worst);
    row.differing = static_cast<std::size_t>(s.wrong());
    rows.push_back(std::move(row));
  }
}

}  // namespace chapter09
