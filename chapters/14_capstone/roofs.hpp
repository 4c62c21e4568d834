// Chapter 14's section `roofs`: the two roofs of Apple's OpenCL guide
// ("Tuning Performance On the GPU"), measured on this device in both APIs,
// and the timer of its Listing 14-1 beside device events. main.cpp adds it
// as a section (on request).
//
// Apple bounds every algorithm by two roofs: how fast the device copies
// (its Table 14-1 estimates each algorithm as the copy rate divided by the
// floats it reads and writes per pixel) and how fast it multiplies and
// adds. Which roof binds is the algorithm's ratio of arithmetic to memory
// (Apple's C/M, flops per float moved) against the device's ratio of the two
// roofs. Listing 14-1, the harness the guide times with, does not compile
// as printed (`gcl_start_timer(void)` is not a call) and divides the
// timer's handle, not its reading, by the iteration count; what it meant is
// the host clock over 10 launches ended by clFinish, divided by 10.
#pragma once

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "gauss/chapter.hpp"
#include "gauss/section_tools.hpp"
#include "gauss/table.hpp"
#include "gauss/timing.hpp"
#include "roofs_cl.hpp"  // roofs.cl, embedded
#ifdef GAUSS_HAVE_CUDA
#include "gauss/cuda.hpp"
#include "roofs.cuh"
#endif

namespace chapter14 {

inline constexpr int kRoofChainsCl = 8;  // CHAINS in roofs.cl
inline constexpr int kRoofIterations = 4096;
inline constexpr int kRoofItemsPerUnit = 2048;  // an SM's worth of threads, per compute unit
inline constexpr float kRoofB = 0.5f;           // a = a * 0.5 + 1 converges to 2: finite, never denormal
inline constexpr float kRoofC = 1.0f;
inline constexpr int kListingRuns = 10;         // Listing 14-1: 2 warm-ups, then 10 timed launches
inline constexpr double kAppleCopyMps = 14200;  // Apple's copy rate (Table 14-1), float pixels

// Apple's Table 14-1 at sigma 5: floats read and written, and flops, per pixel.
struct AppleRow {
  const char* algorithm;
  double floats;
  double flops;
};
inline const AppleRow kAppleTable[] = {
    {"2D convolution 31x31", 962, 1922}, {"separable convolution", 64, 124}, {"recursive Gaussian (4 passes)", 10, 64}};

// What one item of fma_roof stores: the same chains on the host (std::fma
// rounds once, as fma and fmaf do on the device), for checking the output.
inline float fma_roof_expected(int id) {
  float sum = 0.0f;
  for (int k = 0; k < kRoofChainsCl; ++k) {
    float a = static_cast<float>(id + k);
    for (int i = 0; i < kRoofIterations; ++i) a = std::fma(a, kRoofB, kRoofC);
    sum += a;
  }
  return sum;
}

struct RoofRun {
  std::string api;
  double copy_gbps = 0;       // the table's copy of the image, measured by the chapter's run
  double fma_per_s = 0;       // multiply-adds per second (events, median)
  double peak_fma_per_s = 0;  // from the device's attributes (CUDA), 0 where unknown
  double listing_ms = 0;      // Listing 14-1's clock: host, 10 launches + finish, / 10
  double events_ms = 0;       // the same launch by device events, median
  bool checked = false;       // every stored sum equals the host's

  /// Flops per float moved at which the roofs cross: a multiply-add is 2
  /// flops, a float moved 4 bytes.
  double balance() const { return 2.0 * fma_per_s / (copy_gbps * 1e9 / 4.0); }
};

inline bool roof_output_ok(const std::vector<float>& out) {
  for (const int id : {0, 1, static_cast<int>(out.size()) - 1})
    if (out[static_cast<std::size_t>(id)] != fma_roof_expected(id)) return false;
  return true;
}

inline RoofRun opencl_roofs(gauss::OpenClSession& cl, double copy_gbps, const gauss::RunSettings& settings) {
  RoofRun run;
  run.api = "OpenCL";
  run.copy_gbps = copy_gbps;
  const int items = std::max(cl.info.compute_units, 1) * kRoofItemsPerUnit;
  cl::Buffer out(cl.context, CL_MEM_WRITE_ONLY, sizeof(float) * static_cast<std::size_t>(items));
  cl::Kernel kernel = cl.kernel(gauss::embedded::roofs_cl, "fma_roof");
  gauss::sections::set_args(kernel, out, kRoofIterations, kRoofB, kRoofC);
  auto launch = [&] {
    cl::Event done;
    cl.queue.enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(static_cast<std::size_t>(items)), cl::NDRange(256),
                                  nullptr, &done);
    return std::vector<cl::Event>{done};
  };
  run.events_ms = gauss::sections::time_opencl(cl.queue, launch, settings, "multiply-add roof").median_ms;
  run.fma_per_s = static_cast<double>(items) * kRoofIterations * kRoofChainsCl / (run.events_ms * 1e-3);
  // Listing 14-1 as it meant to be: 2 warm-ups, the clock, 10 launches, clFinish.
  for (int i = 0; i < 2; ++i) launch();
  cl.queue.finish();
  gauss::HostTimer clock;
  for (int i = 0; i < kListingRuns; ++i) launch();
  cl.queue.finish();
  run.listing_ms = clock.elapsed_ms() / kListingRuns;
  std::vector<float> result(static_cast<std::size_t>(items));
  cl.queue.enqueueReadBuffer(out, CL_TRUE, 0, sizeof(float) * result.size(), result.data());
  run.checked = roof_output_ok(result);
  return run;
}

#ifdef GAUSS_HAVE_CUDA
inline RoofRun cuda_roofs(const gauss::CudaDeviceInfo& cuda, double copy_gbps, const gauss::RunSettings& settings) {
  RoofRun run;
  run.api = "CUDA";
  run.copy_gbps = copy_gbps;
  const int sms = cuda.multiprocessors;
  int clock_khz = 0;
  GAUSS_CUDA_CHECK(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, cuda.index));
  // Hopper: 128 FP32 lanes per SM, one multiply-add each per clock.
  run.peak_fma_per_s = 128.0 * sms * clock_khz * 1e3;
  const int items = std::max(sms, 1) * kRoofItemsPerUnit;
  gauss::CudaBuffer out(sizeof(float) * static_cast<std::size_t>(items));
  auto* out_floats = reinterpret_cast<float*>(out.data());
  gauss::CudaStream stream;
  auto launch = [&](cudaStream_t s) { launch_fma_roof(out_floats, items, kRoofIterations, kRoofB, kRoofC, s); };
  run.events_ms = gauss::sections::time_cuda(stream.get(), launch, settings, "multiply-add roof").median_ms;
  run.fma_per_s = static_cast<double>(items) * kRoofIterations * kRoofChains / (run.events_ms * 1e-3);
  for (int i = 0; i < 2; ++i) launch(stream.get());
  GAUSS_CUDA_CHECK(cudaStreamSynchronize(stream.get()));
  gauss::HostTimer clock;
  for (int i = 0; i < kListingRuns; ++i) launch(stream.get());
  GAUSS_CUDA_CHECK(cudaGetLastError());
  GAUSS_CUDA_CHECK(cudaStreamSynchronize(stream.get()));
  run.listing_ms = clock.elapsed_ms() / kListingRuns;
  std::vector<float> result(static_cast<std::size_t>(items));
  out.download(result.data(), sizeof(float) * result.size());
  run.checked = roof_output_ok(result);
  return run;
}
#endif

inline void roofs(gauss::SectionContext& context) {
  const gauss::RunSettings settings = gauss::sections::run_settings(context.options);
  std::vector<RoofRun> runs;
  // The copy roof is the chapter's own copy of this image, measured in this run.
  if (context.opencl != nullptr) runs.push_back(opencl_roofs(*context.opencl, context.opencl_copy_gbps, settings));
#ifdef GAUSS_HAVE_CUDA
  if (context.cuda != nullptr) runs.push_back(cuda_roofs(*context.cuda, context.cuda_copy_gbps, settings));
#endif
  using Align = gauss::Table::Align;
  gauss::Table table({{"api", Align::Left},
                      {"copy GB/s"},
                      {"copy, float MP/s"},
                      {"x Apple's 14,200"},
                      {"G multiply-adds/s"},
                      {"% of peak"},
                      {"flops per float moved"},
                      {"Listing 14-1 clock ms"},
                      {"events ms"},
                      {"check", Align::Left}});
  for (const RoofRun& r : runs) {
    const double float_mps = r.copy_gbps * 1e3 / 8.0;  // a float pixel copied is 8 bytes moved
    table.add_row({r.api, gauss::format_fixed(r.copy_gbps, 0), gauss::format_fixed(float_mps, 0),
                   gauss::format_fixed(float_mps / kAppleCopyMps, 1), gauss::format_fixed(r.fma_per_s / 1e9, 0),
                   r.peak_fma_per_s > 0 ? gauss::format_fixed(100.0 * r.fma_per_s / r.peak_fma_per_s, 1) : "-",
                   gauss::format_fixed(r.balance(), 1), gauss::format_fixed(r.listing_ms, 4),
                   gauss::format_fixed(r.events_ms, 4), r.checked ? "ok" : "WRONG"});
    if (!r.checked) context.failed = true;
  }
  context.out << "The two roofs (the copy: the table's, of this image; multiply-adds: " << kRoofChainsCl
              << " independent chains of " << kRoofIterations << " per item)\n";
  table.print(context.out);
  context.out << "\nApple's Table 14-1 (sigma 5) against these roofs: an algorithm whose flops per float moved are "
                 "below the device's is bound by the copy\n";
  for (const RoofRun& r : runs) {
    const double balance = r.balance();
    for (const AppleRow& row : kAppleTable) {
      const double cm = row.flops / row.floats;
      context.out << "  " << r.api << ": " << row.algorithm << ": " << gauss::format_fixed(cm, 1)
                  << " flops per float, the device " << gauss::format_fixed(balance, 1) << ": "
                  << (cm < balance ? "the copy roof binds" : "the multiply-add roof binds") << "\n";
    }
  }
}

}  // namespace chapter14
