// Chapter 09: reduction. Does the blur keep the image's total brightness?
//
// To answer, add up every pixel of the input and of the output, on the GPU.
// Adding n numbers is the simplest job there is on one core and the first
// one that is hard on thousands: every item's result must end up in one
// place. The chapter climbs the ladder the seeds (the Yandex webinar,
// toropippi's Unity samples, rigaya's OpenCL memo) climb:
//
//   racy           every item adds into one global value: wrong, and
//                  differently wrong on every run (lost updates);
//   atomic         the same with atomic additions: right, one at a time;
//   atomic_group   atomics on a counter in local memory first;
//   tree           the local-memory tree with barriers (and why the barrier
//                  must never be inside the `if`);
//   multipass      the tree over group sums, the host adding the last few;
//   many_per_item  each item adds many bytes (16 per load) before the tree;
//   shuffle        CUDA's warp shuffles instead of the tree;
//
// plus the seeds' 256-value example (0 + 1 + ... + 255 = 32640) and the CPU
// references: exact in integers, in double, and in float (where the answer
// is badly wrong) with and without Kahan's compensation.
//
// The sums are of bytes and totals are 64-bit integers, so every correct
// kernel must return exactly the CPU's sum, on every run; the racy one is
// expected to be wrong and does not fail the run. The lesson is in
// README.md beside this file.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <numeric>
#include <ostream>
#include <random>
#include <string>
#include <vector>

#include "../08_data_transfer/naive_blur.hpp"  // chapter 01's kernel
#include "../08_data_transfer/oclgrind.hpp"
#include "../08_data_transfer/report.hpp"
#include "gauss/chapter.hpp"
#include "gauss/reference.hpp"
#include "reduction.hpp"
#ifdef GAUSS_HAVE_CUDA
#include "../01_naive/blur_naive.cuh"
#include "reduction_cuda.hpp"
#endif

namespace chapter09 {
namespace {

using chapter08::format_ms;

// As the chapter's own runs: --repeat and --warmup, and without an explicit
// --repeat at most about 2 s of runs per method on a slow device.
gauss::RunSettings settings_of(const gauss::Options& options) {
  return {options.warmup, options.repeat, options.repeat_given ? 0.0 : 2000.0};
}

// 3316123456 -> "3,316,123,456".
std::string grouped(double value) {
  const bool negative = value < 0;
  std::string digits = gauss::format_fixed(std::fabs(value), 0);
  for (int i = static_cast<int>(digits.size()) - 3; i > 0; i -= 3) digits.insert(static_cast<std::size_t>(i), ",");
  return (negative ? "-" : "") + digits;
}

// --- The CPU references ------------------------------------------------------------
// What the right answer is, and how a float "reference" gets it wrong.
void print_cpu_references(std::ostream& out, const std::vector<std::uint8_t>& bytes) {
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
template <class Summer, class Data>
std::vector<SumStats> run_ladder(Summer& summer, const std::string& api, const Data& data, std::size_t n,
                                 std::uint64_t exact, const gauss::RunSettings& settings) {
  std::vector<SumStats> sums;
  for (const SumMethodInfo& info : sum_methods()) {
    if (info.cuda_only && api != "CUDA") continue;
    sums.push_back(measure_sum(summer, info, api, data, n, exact, settings));
  }
  return sums;
}

void check_ladder(gauss::SectionContext& context, const std::vector<SumStats>& sums) {
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

void print_brightness(std::ostream& out, const gauss::Image& input, const gauss::Image& reference,
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
GpuBrightness checked(const char* api, const SumRun& input_sum, const SumRun& output_sum, const gauss::Image& input,
                      const gauss::Image& blurred) {
  GpuBrightness result;
  result.api = api;
  result.input = input_sum.total;
  result.output = output_sum.total;
  result.sum_ms = input_sum.device_ms + output_sum.device_ms;
  result.input_exact = sum_exact(input.pixels.data(), input.bytes());
  result.output_exact = sum_exact(blurred.pixels.data(), blurred.bytes());
  return result;
}

GpuBrightness failed(const char* api, const std::string& error) {
  GpuBrightness result;
  result.api = api;
  result.error = error;
  return result;
}

GpuBrightness opencl_brightness(gauss::SectionContext& context, OpenClSummer& summer) {
  gauss::OpenClSession& cl = *context.opencl;
  const gauss::Image& input = context.input;
  const std::size_t bytes = input.bytes();
  try {
    cl::Buffer in(cl.context, CL_MEM_READ_ONLY, bytes);
    cl::Buffer out(cl.context, CL_MEM_READ_WRITE, bytes);
    cl.queue.enqueueWriteBuffer(in, CL_TRUE, 0, bytes, input.pixels.data());
    gauss::Image blurred = gauss::poison_for(input);  // a pixel the blur misses is 128 levels off
    cl.queue.enqueueWriteBuffer(out, CL_TRUE, 0, bytes, blurred.pixels.data());
    cl::Kernel blur = chapter08::build_naive_blur(cl, context.blur);
    const gauss::Problem p = gauss::make_problem(input.geometry(), context.blur);
    chapter08::enqueue_naive_blur(cl.queue, blur, in, out, p, 0, input.height);
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
GpuBrightness cuda_brightness(gauss::SectionContext& context, CudaSummer& summer) {
  const gauss::Image& input = context.input;
  const std::size_t bytes = input.bytes();
  try {
    gauss::CudaBuffer in(bytes);
    gauss::CudaBuffer out(bytes);
    in.upload(input.pixels.data(), bytes);
    gauss::Image blurred = gauss::poison_for(input);  // a pixel the blur misses is 128 levels off
    out.upload(blurred.pixels.data(), bytes);
    const gauss::Problem p = gauss::make_problem(input.geometry(), context.blur);
    launch_blur_naive(in.data(), out.data(), p, dim3(chapter08::kGroupX, chapter08::kGroupY), nullptr);
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
constexpr int kSweepMinLog2 = 10;
constexpr int kSweepMaxLog2 = 28;

std::vector<std::uint8_t> random_bytes(std::size_t n) {
  std::vector<std::uint8_t> bytes(n);
  std::mt19937_64 rng(20261121);
  for (std::size_t i = 0; i < n; i += 8) {
    std::uint64_t word = rng();
    for (std::size_t j = i; j < std::min(n, i + 8); ++j, word >>= 8) bytes[j] = static_cast<std::uint8_t>(word);
  }
  return bytes;
}

template <class Summer, class Data>
void sweep_api(gauss::SectionContext& context, Summer& summer, const std::string& api, const std::string& device,
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
      table.add_row({std::to_string(n), s.method, api, format_ms(s.device.median_ms), chapter08::format_gbps(gbps),
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
bool uses_tree(SumMethod method) {
  return method == SumMethod::Tree || method == SumMethod::MultiPass || method == SumMethod::ManyPerItem;
}

// Runs the methods that use the tree on one API, as the ladder does, except
// one the device cannot run (the tree's 64-bit atomics): left out, with a line.
template <class Summer, class Data>
void run_tree_sums(std::ostream& out, Summer& summer, const std::string& api, const Data& data, std::size_t n,
                   std::uint64_t exact, const gauss::RunSettings& settings, std::vector<SumStats>& sums) {
  for (const SumMethodInfo& info : sum_methods()) {
    if (!uses_tree(info.method)) continue;
    std::string why;
    if (!summer.runs(info.method, &why)) {
      out << info.name << " (" << api << ") is left out here: " << why << '\n';
      continue;
    }
    sums.push_back(measure_sum(summer, info, api, data, n, exact, settings));
  }
}

// One line per wrong method, in the form the chapters and the exercise
// grader use for a wrong result: "<name> (<API>): MISMATCH: ...".
void report_mismatches(std::ostream& out, const std::vector<SumStats>& sums) {
  for (const SumStats& s : sums) {
    if (!s.error.empty() || !s.skipped.empty() || s.wrong() == 0) continue;
    std::uint64_t got = s.expected;
    for (std::uint64_t t : s.totals)
      if (t != s.expected) got = t;
    out << s.method << " (" << s.api << "): MISMATCH: " << s.wrong() << " of " << s.totals.size() << " runs wrong; got "
        << grouped(static_cast<double>(got)) << ", expected " << grouped(static_cast<double>(s.expected)) << '\n';
  }
}

const std::vector<std::uint32_t>& zero_to_255() {
  static const std::vector<std::uint32_t> values = [] {
    std::vector<std::uint32_t> v(256);
    std::iota(v.begin(), v.end(), 0u);
    return v;
  }();
  return values;
}

// The input's bytes uploaded to each API the section runs, @p measure(summer,
// api, data) run on them, its sums added to the CSV/JSON rows (named @p prefix
// + method) and returned, OpenCL's first.
template <typename Measure>
std::vector<SumStats> sums_on_each_api(gauss::SectionContext& context, const std::string& prefix, Measure measure) {
  const std::vector<std::uint8_t>& bytes = context.input.pixels;
  const std::size_t n = bytes.size();
  std::vector<SumStats> all;
  if (context.opencl != nullptr) {
    gauss::OpenClSession& cl = *context.opencl;
    OpenClSummer summer(cl);
    cl::Buffer data(cl.context, CL_MEM_READ_ONLY, n);
    cl.queue.enqueueWriteBuffer(data, CL_TRUE, 0, n, bytes.data());
    const std::vector<SumStats> sums = measure(summer, "OpenCL", data);
    add_sum_rows(context.rows, sums, cl.info.name, prefix, context.opencl_copy_gbps);
    all.insert(all.end(), sums.begin(), sums.end());
  }
#ifdef GAUSS_HAVE_CUDA
  if (context.cuda != nullptr) {
    CudaSummer summer(*context.cuda);
    gauss::CudaBuffer data(n);
    data.upload(bytes.data(), n);
    const std::vector<SumStats> sums = measure(summer, "CUDA", data.data());
    add_sum_rows(context.rows, sums, context.cuda->name, prefix, context.cuda_copy_gbps);
    all.insert(all.end(), sums.begin(), sums.end());
  }
#endif
  return all;
}

}  // namespace

gauss::Chapter make_chapter() {
  gauss::Chapter chapter("09_reduction", "reduction: does the blur keep the image's total brightness?");

  // The blur whose output the chapter sums: chapter 01's naive kernel, here
  // to be checked and timed like in every chapter.
  chapter.add_opencl("naive", "chapter 01's kernel: the blur whose output is summed", chapter08::naive_blur_setup());
#ifdef GAUSS_HAVE_CUDA
  chapter.add_cuda("naive", "chapter 01's kernel: the blur whose output is summed",
                   [](const gauss::Problem& p) -> gauss::CudaLaunch {
                     return [p](const std::uint8_t* in, std::uint8_t* out, cudaStream_t stream) {
                       launch_blur_naive(in, out, p, dim3(chapter08::kGroupX, chapter08::kGroupY), stream);
                     };
                   });
#endif

  // --- The ladder ------------------------------------------------------------
  // Every method sums the input's bytes, warmup + repeat times; every total
  // is compared with the exact sum. GB/s = bytes read / device time, against
  // the copy kernel measured in this run (which reads and writes).
  chapter.add_section("reduction", "Summing every pixel: from a racy kernel to warp shuffles",
                      [](gauss::SectionContext& context) {
                        const std::vector<std::uint8_t>& bytes = context.input.pixels;
                        const std::size_t n = bytes.size();
                        print_cpu_references(context.out, bytes);
                        const std::uint64_t exact = sum_exact(bytes.data(), n);
                        const gauss::RunSettings settings = settings_of(context.options);
                        const std::vector<SumStats> all =
                            sums_on_each_api(context, "sum.", [&](auto& summer, const char* api, const auto& data) {
                              return run_ladder(summer, api, data, n, exact, settings);
                            });
                        context.out << "GB/s = bytes read / device time; % of copy = against this run's copy "
                                       "kernel, which reads and writes\n";
                        print_sums(context.out, all, context.opencl_copy_gbps, context.cuda_copy_gbps);
                        check_ladder(context, all);
                      });

  // --- The answer --------------------------------------------------------------
  chapter.add_section("brightness", "Does the blur keep the total brightness?", [](gauss::SectionContext& context) {
    const gauss::Image reference = gauss::blur_reference(context.input, context.blur);
    std::vector<GpuBrightness> gpus;
    if (context.opencl != nullptr) {
      OpenClSummer summer(*context.opencl);
      gpus.push_back(opencl_brightness(context, summer));
    }
#ifdef GAUSS_HAVE_CUDA
    if (context.cuda != nullptr) {
      CudaSummer summer(*context.cuda);
      gpus.push_back(cuda_brightness(context, summer));
    }
#endif
    print_brightness(context.out, context.input, reference, context.blur, gpus);
    for (const GpuBrightness& g : gpus)
      if (!g.ok()) context.failed = true;
  });

  // --- The seeds' example ------------------------------------------------------
  chapter.add_section("sum_0_to_255", "The seeds' example: one work-group adds 0, 1, ..., 255",
                      [](gauss::SectionContext& context) {
                        constexpr std::uint32_t kExpected = 255 * 256 / 2;  // 32640
                        auto report = [&](const char* api, std::uint32_t got) {
                          context.out << api << ": " << got << (got == kExpected ? " (right: " : " (WRONG: expected ")
                                      << kExpected << ")\n";
                          if (got != kExpected) context.failed = true;
                        };
                        if (context.opencl != nullptr)
                          report("OpenCL", OpenClSummer(*context.opencl).sum_256(zero_to_255()));
#ifdef GAUSS_HAVE_CUDA
                        if (context.cuda != nullptr) report("CUDA", CudaSummer(*context.cuda).sum_256(zero_to_255()));
#endif
                      });

  // --- The barrier inside the `if`, where it cannot hang anything --------------------
  chapter.add_section(
      "barrier_in_if", "A barrier inside an if (reduce_broken.cl), on Oclgrind only",
      [](gauss::SectionContext& context) {
        if (context.opencl == nullptr || !chapter08::is_oclgrind(*context.opencl)) {
          context.out << "not run: a barrier that only some items of a group reach may hang a GPU or silently\n"
                         "give a wrong sum. Oclgrind simulates every item and reports it instead; run\n"
                         "  oclgrind build/bin/09_reduction --api opencl --variant barrier_in_if --size 37x23\n";
          return;
        }
        const std::uint32_t got = OpenClSummer(*context.opencl).sum_256_barrier_in_if(zero_to_255());
        context.out << "sum_256_barrier_in_if on Oclgrind returned " << got
                    << "; Oclgrind's \"Work-group divergence detected (barrier)\" reports on stderr are the "
                       "lesson (a right-looking result proves nothing)\n";
      },
      gauss::Chapter::SectionRuns::OnRequest);

  // --- The sweep -------------------------------------------------------------------
  chapter.add_section(
      "sweep", "GB/s against the number of bytes summed (1 KiB to 256 MiB of random bytes)",
      [](gauss::SectionContext& context) {
        const std::vector<std::uint8_t> bytes = random_bytes(std::size_t{1} << kSweepMaxLog2);
        if (context.opencl != nullptr) {
          gauss::OpenClSession& cl = *context.opencl;
          const std::size_t n = std::min<std::size_t>(bytes.size(), cl.info.max_buffer);
          OpenClSummer summer(cl);
          cl::Buffer data(cl.context, CL_MEM_READ_ONLY, n);
          cl.queue.enqueueWriteBuffer(data, CL_TRUE, 0, n, bytes.data());
          sweep_api(context, summer, "OpenCL", cl.info.name, data, bytes, n, context.opencl_copy_gbps);
        }
#ifdef GAUSS_HAVE_CUDA
        if (context.cuda != nullptr) {
          CudaSummer summer(*context.cuda);
          gauss::CudaBuffer data(bytes.size());
          data.upload(bytes.data(), bytes.size());
          sweep_api(context, summer, "CUDA", context.cuda->name, data.data(), bytes, bytes.size(),
                    context.cuda_copy_gbps);
        }
#endif
      },
      gauss::Chapter::SectionRuns::OnRequest);

  // --- The exercise ----------------------------------------------------------------
  // The sums built on the tree in local memory, on the input's bytes, each
  // wrong total on a MISMATCH line of its own: what the exercise's grader
  // reads (README, section Exercise). The ladder runs the same kernels.
  chapter.add_section(
      "tree_sums", "The exercise: the sums built on the tree in local memory (tree, multipass, many_per_item)",
      [](gauss::SectionContext& context) {
        const std::vector<std::uint8_t>& bytes = context.input.pixels;
        const std::size_t n = bytes.size();
        const std::uint64_t exact = sum_exact(bytes.data(), n);
        const gauss::RunSettings settings = settings_of(context.options);
        const std::vector<SumStats> all =
            sums_on_each_api(context, "tree_sums.", [&](auto& summer, const char* api, const auto& data) {
              std::vector<SumStats> sums;
              run_tree_sums(context.out, summer, api, data, n, exact, settings, sums);
              return sums;
            });
        context.out << "the input's " << grouped(static_cast<double>(n)) << " bytes sum to "
                    << grouped(static_cast<double>(exact)) << " (the CPU, in 64-bit integers)\n";
        print_sums(context.out, all, context.opencl_copy_gbps, context.cuda_copy_gbps);
        report_mismatches(context.out, all);
        check_ladder(context, all);
      },
      gauss::Chapter::SectionRuns::OnRequest);

  // The exercise (README, section Exercise): group_sum in reduce.cl and
  // block_sum_tree in reduce.cu, store and tree left for the student.
  chapter.set_exercise("reduce.cl", {"tree_sums"});
  return chapter;
}

}  // namespace chapter09

// The tests link this file without main() (GAUSS_CHAPTER_NO_MAIN).
#ifndef GAUSS_CHAPTER_NO_MAIN
int main(int argc, char** argv) { return chapter09::make_chapter().run(argc, argv); }
#endif
