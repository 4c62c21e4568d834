// Chapter 02's second program part: the experiments behind main.cpp's
// sections (rigaya's add, toropippi's loop, the group-size limits), and the
// limits that decide which work-group shapes can run. The declarations come
// first, then their definitions (the header is the whole part: main.cpp and
// the tests include it).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "blur_naive_cl.hpp"  // chapter 01's kernel, embedded by chapter 01 (USES 01_naive)
#include "gauss/chapter.hpp"
#include "gauss/error.hpp"
#include "gauss/opencl.hpp"
#include "gauss/runners.hpp"
#include "gauss/section_tools.hpp"
#include "gauss/table.hpp"
#include "gauss/timing.hpp"
#include "work_size_cl.hpp"  // embedded work_size.cl: the add kernel and the loop
#ifdef GAUSS_HAVE_CUDA
#include "blur_shapes.cuh"
#include "gauss/cuda.hpp"
#include "work_size.cuh"
#endif

namespace chapter02 {

/// A work-group (OpenCL) or block (CUDA) shape; {0, 0} stands for "the
/// runtime's choice" (a NULL local size).
struct Shape {
  int x = 1;
  int y = 1;
};

/// "32x8"; "NULL" for {0, 0}.
std::string shape_text(Shape shape);
/// The variant's name: "naive_32x8".
std::string shape_name(Shape shape);

/// What a device and one compiled kernel accept as a work-group.
struct GroupLimits {
  std::size_t device_max = 0;          ///< CL_DEVICE_MAX_WORK_GROUP_SIZE / cudaDevAttrMaxThreadsPerBlock
  std::size_t kernel_max = 0;          ///< CL_KERNEL_WORK_GROUP_SIZE / cudaFuncAttributes::maxThreadsPerBlock
  std::size_t max_x = 0;               ///< CL_DEVICE_MAX_WORK_ITEM_SIZES[0] / cudaDevAttrMaxBlockDimX
  std::size_t max_y = 0;               ///< CL_DEVICE_MAX_WORK_ITEM_SIZES[1] / cudaDevAttrMaxBlockDimY
  std::size_t preferred_multiple = 0;  ///< CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE / the warp size
  int registers = 0;                   ///< registers per thread (CUDA only; 0 where unknown)
  int suggested = 0;                   ///< cudaOccupancyMaxPotentialBlockSize (CUDA only)
};

/// The limits of @p kernel, built for @p cl's device.
GroupLimits opencl_kernel_limits(gauss::OpenClSession& cl, const cl::Kernel& kernel);
/// The same for chapter 01's blur kernel (main.cpp's name for it).
inline GroupLimits opencl_blur_limits(gauss::OpenClSession& cl, const cl::Kernel& kernel) {
  return opencl_kernel_limits(cl, kernel);
}
#ifdef GAUSS_HAVE_CUDA
/// The limits of chapter 01's blur kernel at @p radius on the current CUDA device.
GroupLimits cuda_blur_limits(int radius);
#endif

/// Why @p shape cannot run within @p limits, naming the limit; "" if it can.
std::string why_not_runnable(Shape shape, const GroupLimits& limits);
/// Throws gauss::Unsupported("cannot run on this device: ...") unless @p shape fits.
void require_runnable(Shape shape, const GroupLimits& limits, const char* api);

/// Section "group_limits": the limits of the blur kernel on each API, and
/// which of the chapter's shapes they rule out.
void group_limits_section(gauss::SectionContext& context);

// --- rigaya's add -----------------------------------------------------------------

/// One shape of the add experiment: the three clocks and the check.
struct AddRun {
  gauss::TimerComparison clocks;  ///< host clock after the enqueue, after the wait, and events; medians in ms
  gauss::TimingStats device;      ///< the events' timings (median, min, max)
  std::size_t wrong = 0;          ///< elements of c that differ from a + b after the last run
  double gbps = 0;                ///< 3 x 4 bytes per element over the events' median
};

/// c = a + b on width x height ints in @p local groups ({0,0}: NULL local size).
AddRun run_add_opencl(gauss::OpenClSession& cl, int width, int height, Shape local, const gauss::RunSettings& settings);
#ifdef GAUSS_HAVE_CUDA
/// The same in CUDA ({0,0}: the block size cudaOccupancyMaxPotentialBlockSize suggests).
AddRun run_add_cuda(int width, int height, Shape local, const gauss::RunSettings& settings);
#endif

/// The add's problem size for an image: the seed's 2048 x 2048, or the
/// image's own side where that is smaller (so --size shrinks the work).
inline int add_side(int image_side) { return image_side < 2048 ? image_side : 2048; }

/// Section "rigaya_add".
void rigaya_add_section(gauss::SectionContext& context);

// --- toropippi's compute-bound loop ---------------------------------------------------

/// Local memory reserved per group in the residency-limited series: the seed's 32 KiB.
inline constexpr std::size_t kReservedBytes = 32 * 1024;

/// One launch of the loop kernel.
struct LoopSpec {
  unsigned int items = 262144;     ///< the seed's 262,144 threads
  unsigned int iterations = 2048;  ///< the seed's LPNM
  int group = 32;                  ///< items per work-group
  std::size_t reserved_bytes = 0;  ///< dynamic local memory per group, never touched
};

/// The seed's sizes, or GAUSS_LOOP_ITEMS / GAUSS_LOOP_ITERATIONS from the
/// environment (to make the sweep bearable on a CPU device).
LoopSpec loop_spec_from_environment();

/// The outcome of one launch configuration: timings, and the last run's output.
struct LoopRun {
  gauss::TimingStats time;  ///< device events, warm-up runs first
  std::vector<std::uint32_t> output;
  /// toropippi's measurement: the host clock (steady_clock) around the FIRST
  /// launch of this group size and the blocking readback of its 1 MiB
  /// output; in OpenCL also the build of the program for it (built per
  /// group size, as the seed's HLSL compiles one kernel per group size at its
  /// first dispatch). In CUDA the kernel was compiled with the program, so
  /// only the first group size's launch can include loading it.
  double first_launch_host_ms = 0;
};

LoopRun run_loop_opencl(gauss::OpenClSession& cl, const LoopSpec& spec, const gauss::RunSettings& settings);
#ifdef GAUSS_HAVE_CUDA
LoopRun run_loop_cuda(const LoopSpec& spec, const gauss::RunSettings& settings);
#endif

/// How many outputs lie outside what the loop can produce: every step ends
/// with x = uint(1e8 * y) + id, y in [1.0198, 7.8161], so x - id lies in
/// [1.0e8, 7.9e8] (with margin for float rounding); a poisoned or unwritten
/// output does not.
std::size_t implausible_outputs(const std::vector<std::uint32_t>& output);

/// Sections "compute_sweep" (@p reserved_bytes = 0) and "compute_sweep_reserved".
void compute_sweep_section(gauss::SectionContext& context, std::size_t reserved_bytes);

// --- Definitions ---------------------------------------------------------------------

using gauss::format_fixed;
using gauss::Table;
using gauss::sections::format_ms;
using gauss::sections::format_significant;

inline std::string shape_text(Shape shape) {
  if (shape.x == 0) return "NULL";
  return std::to_string(shape.x) + "x" + std::to_string(shape.y);
}

inline std::string shape_name(Shape shape) { return "naive_" + shape_text(shape); }

// ------------------------------------------------------------------ limits ---

inline GroupLimits opencl_kernel_limits(gauss::OpenClSession& cl, const cl::Kernel& kernel) {
  GroupLimits limits;
  const cl::Device& device = cl.info.device;
  limits.device_max = device.getInfo<CL_DEVICE_MAX_WORK_GROUP_SIZE>();
  const std::vector<std::size_t> sizes = device.getInfo<CL_DEVICE_MAX_WORK_ITEM_SIZES>();
  limits.max_x = sizes.size() > 0 ? sizes[0] : 1;
  limits.max_y = sizes.size() > 1 ? sizes[1] : 1;
  // The compiled kernel's own limit can be lower than the device's: its
  // private memory (registers) is shared by the items of a group.
  limits.kernel_max = kernel.getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(device);
  limits.preferred_multiple = kernel.getWorkGroupInfo<CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE>(device);
  return limits;
}

#ifdef GAUSS_HAVE_CUDA
inline GroupLimits cuda_blur_limits(int radius) {
  GroupLimits limits;
  int device = 0;
  int value = 0;
  GAUSS_CUDA_CHECK(cudaGetDevice(&device));
  GAUSS_CUDA_CHECK(cudaDeviceGetAttribute(&value, cudaDevAttrMaxThreadsPerBlock, device));
  limits.device_max = static_cast<std::size_t>(value);
  GAUSS_CUDA_CHECK(cudaDeviceGetAttribute(&value, cudaDevAttrMaxBlockDimX, device));
  limits.max_x = static_cast<std::size_t>(value);
  GAUSS_CUDA_CHECK(cudaDeviceGetAttribute(&value, cudaDevAttrMaxBlockDimY, device));
  limits.max_y = static_cast<std::size_t>(value);
  GAUSS_CUDA_CHECK(cudaDeviceGetAttribute(&value, cudaDevAttrWarpSize, device));
  limits.preferred_multiple = static_cast<std::size_t>(value);
  const BlurKernelLimits kernel = blur_naive_limits(radius);
  limits.kernel_max = static_cast<std::size_t>(kernel.max_block);
  limits.registers = kernel.registers;
  limits.suggested = kernel.suggested_block;
  return limits;
}
#endif

inline std::string why_not_runnable(Shape shape, const GroupLimits& limits) {
  const std::size_t items = static_cast<std::size_t>(shape.x) * static_cast<std::size_t>(shape.y);
  if (static_cast<std::size_t>(shape.x) > limits.max_x) {
    return std::to_string(shape.x) + " items in x exceed the device's " + std::to_string(limits.max_x);
  }
  if (static_cast<std::size_t>(shape.y) > limits.max_y) {
    return std::to_string(shape.y) + " items in y exceed the device's " + std::to_string(limits.max_y);
  }
  if (items > limits.device_max) {
    return std::to_string(items) + " items exceed the device's maximum work-group of " +
           std::to_string(limits.device_max);
  }
  if (items > limits.kernel_max) {
    std::string why =
        std::to_string(items) + " items exceed this kernel's maximum of " + std::to_string(limits.kernel_max);
    if (limits.registers > 0) why += " (" + std::to_string(limits.registers) + " registers per thread)";
    return why;
  }
  return {};
}

inline void require_runnable(Shape shape, const GroupLimits& limits, const char* api) {
  const std::string why = why_not_runnable(shape, limits);
  if (!why.empty()) {
    // Only where the registers are known (CUDA's blur) do they explain the
    // limit: NVIDIA's OpenCL driver reports 256 for the blur at radius 2 and
    // 9 and for the loop alike, so there the register count is no reason.
    const char* registers_note = limits.registers > 0 ? " (a larger radius needs more registers per item)" : "";
    throw gauss::Unsupported(std::string("cannot run on this device: ") + api + " group " + shape_text(shape) + ": " +
                             why + registers_note);
  }
}

// The shapes the limits table reports on: the largest ones, where limits bite.
inline const Shape kLimitShapes[] = {{256, 1}, {512, 1}, {1024, 1}, {32, 32}, {2048, 1}};

inline void add_limit_rows(Table& table, const char* api, const GroupLimits& limits) {
  std::string refused;
  for (const Shape shape : kLimitShapes) {
    const std::string why = why_not_runnable(shape, limits);
    if (!why.empty()) refused += (refused.empty() ? "" : "; ") + shape_text(shape) + ": " + why;
  }
  table.add_row({api, std::to_string(limits.device_max), std::to_string(limits.kernel_max),
                 std::to_string(limits.max_x) + " x " + std::to_string(limits.max_y),
                 std::to_string(limits.preferred_multiple), limits.registers ? std::to_string(limits.registers) : "-",
                 limits.suggested ? std::to_string(limits.suggested) : "-", refused.empty() ? "none" : refused});
}

inline void group_limits_section(gauss::SectionContext& context) {
  Table table({{"API", Table::Align::Left},
               {"device max"},
               {"kernel max"},
               {"max x by y"},
               {"multiple"},
               {"registers"},
               {"suggested"},
               {"shapes refused (of 256x1, 512x1, 1024x1, 32x32, 2048x1)", Table::Align::Left}});
  if (context.opencl != nullptr) {
    gauss::OpenClSession& cl = *context.opencl;
    const cl::Kernel kernel =
        cl.kernel(gauss::embedded::blur_naive_cl, "blur_naive", "-D RADIUS=" + std::to_string(context.blur.radius));
    add_limit_rows(table, "OpenCL", opencl_kernel_limits(cl, kernel));
  }
#ifdef GAUSS_HAVE_CUDA
  if (context.cuda != nullptr) add_limit_rows(table, "CUDA", cuda_blur_limits(context.blur.radius));
#endif
  table.print(context.out);
  context.out << "\nkernel max: CL_KERNEL_WORK_GROUP_SIZE / cudaFuncAttributes::maxThreadsPerBlock for the blur at "
                 "radius "
              << context.blur.radius
              << "; multiple: CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE / the warp size; suggested: "
                 "cudaOccupancyMaxPotentialBlockSize (naive_auto uses it). A refused shape's variant is "
                 "skipped, with the reason.\n";
}

// ------------------------------------------------------------ rigaya's add ---

// The add's inputs: a[i] = i and b[i] a pattern with negative values, so
// that a kernel reading the wrong element, or one element twice, is caught.
struct AddInputs {
  std::vector<int> a;
  std::vector<int> b;
  std::vector<int> poison;  // the complement of every expected sum

  explicit AddInputs(std::size_t n) : a(n), b(n), poison(n) {
    for (std::size_t i = 0; i < n; ++i) {
      a[i] = static_cast<int>(i);
      b[i] = 7 * static_cast<int>(i % 1001) - 3000;
      poison[i] = ~(a[i] + b[i]);
    }
  }

  std::size_t wrong(const std::vector<int>& c) const {
    std::size_t count = 0;
    for (std::size_t i = 0; i < c.size(); ++i) count += c[i] != a[i] + b[i] ? 1 : 0;
    return count;
  }
};

// The three clocks around one launch per run: the host clock stopped right
// after the enqueue (the seed's), after the wait, and the device's own time.
// @p launch returns a handle; @p wait waits for the device; @p device_ms
// reads the handle's device time once the wait is over.
template <class Launch, class Wait, class DeviceMs>
inline AddRun time_three_clocks(Launch&& launch, Wait&& wait, DeviceMs&& device_ms,
                                const gauss::RunSettings& settings) {
  int warmup = settings.warmup;
  int repeat = settings.repeat;
  std::vector<double> enqueue_only;
  std::vector<double> with_wait;
  std::vector<double> device;
  for (int r = 0; r < warmup + repeat; ++r) {
    gauss::HostTimer timer;
    auto handle = launch();
    const double after_enqueue = timer.elapsed_ms();  // the seed's mistake: the device may not have started
    wait();
    const double after_wait = timer.elapsed_ms();
    if (r == 0 && settings.budget_ms > 0) {  // a slow device: fewer runs
      repeat = gauss::runs_within_budget(settings, device_ms(handle));
      if (repeat < settings.repeat) warmup = std::min(warmup, 1);
    }
    if (r < warmup) continue;
    enqueue_only.push_back(after_enqueue);
    with_wait.push_back(after_wait);
    device.push_back(device_ms(handle));
  }
  AddRun run;
  run.clocks.enqueue_only_ms = gauss::summarize(enqueue_only).median_ms;
  run.clocks.with_wait_ms = gauss::summarize(with_wait).median_ms;
  run.device = gauss::summarize(device);
  run.clocks.device_ms = run.device.median_ms;
  run.clocks.runs = run.device.runs();
  return run;
}

// How many sets of a, b and c to rotate through: the runners' rule
// (rotation_sets) applied to the 3 arrays of @p bytes each.
inline int add_sets(std::size_t bytes, std::size_t cache, std::size_t memory) {
  return gauss::rotation_sets(3 * bytes / 2, cache, memory);
}

inline double add_gbps(std::size_t n, double ms) { return gauss::gigabytes_per_second(3 * sizeof(int) * n, ms); }

inline AddRun run_add_opencl(gauss::OpenClSession& cl, int width, int height, Shape local,
                             const gauss::RunSettings& settings) {
  const std::size_t n = static_cast<std::size_t>(width) * static_cast<std::size_t>(height);
  const std::size_t bytes = n * sizeof(int);
  const AddInputs inputs(n);
  // Several sets of a, b and c, used in turn, so that a run does not find
  // the arrays of the run before still in the cache (as the runners do).
  const int sets = add_sets(bytes, cl.info.global_cache, cl.info.global_memory);
  std::vector<cl::Buffer> a, b, c;
  for (int s = 0; s < sets; ++s) {
    a.emplace_back(cl.context, CL_MEM_READ_ONLY, bytes);
    b.emplace_back(cl.context, CL_MEM_READ_ONLY, bytes);
    c.emplace_back(cl.context, CL_MEM_READ_WRITE, bytes);
    cl.queue.enqueueWriteBuffer(a.back(), CL_TRUE, 0, bytes, inputs.a.data());
    cl.queue.enqueueWriteBuffer(b.back(), CL_TRUE, 0, bytes, inputs.b.data());
    cl.queue.enqueueWriteBuffer(c.back(), CL_TRUE, 0, bytes, inputs.poison.data());
  }

  cl::Kernel kernel = cl.kernel(gauss::embedded::work_size_cl, "add_ints");
  kernel.setArg(3, width);
  kernel.setArg(4, height);
  // An explicit local size needs a global size that is a multiple of it
  // (OpenCL 1.2); a NULL local size takes the grid exactly as it is.
  cl::NDRange global(static_cast<std::size_t>(width), static_cast<std::size_t>(height));
  cl::NDRange group = cl::NullRange;
  if (local.x > 0) {
    require_runnable(local, opencl_kernel_limits(cl, kernel), "OpenCL");
    global = cl::NDRange(gauss::round_up(width, local.x), gauss::round_up(height, local.y));
    group = cl::NDRange(local.x, local.y);
  }
  int launches = 0;
  int last_set = 0;
  AddRun run = time_three_clocks(
      [&] {
        last_set = launches++ % sets;
        kernel.setArg(0, a[static_cast<std::size_t>(last_set)]);
        kernel.setArg(1, b[static_cast<std::size_t>(last_set)]);
        kernel.setArg(2, c[static_cast<std::size_t>(last_set)]);
        cl::Event done;
        cl.queue.enqueueNDRangeKernel(kernel, cl::NullRange, global, group, nullptr, &done);
        return done;
      },
      [&] { cl.queue.finish(); }, [](const cl::Event& done) { return gauss::event_span_ms(done, done); }, settings);

  std::vector<int> result(n);
  cl.queue.enqueueReadBuffer(c[static_cast<std::size_t>(last_set)], CL_TRUE, 0, bytes, result.data());
  run.wrong = inputs.wrong(result);
  run.gbps = add_gbps(n, run.clocks.device_ms);
  return run;
}

#ifdef GAUSS_HAVE_CUDA
inline AddRun run_add_cuda(int width, int height, Shape local, const gauss::RunSettings& settings) {
  const std::size_t n = static_cast<std::size_t>(width) * static_cast<std::size_t>(height);
  const std::size_t bytes = n * sizeof(int);
  const AddInputs inputs(n);
  int device = 0;
  int l2 = 0;
  std::size_t free_memory = 0;
  std::size_t total_memory = 0;
  GAUSS_CUDA_CHECK(cudaGetDevice(&device));
  GAUSS_CUDA_CHECK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, device));
  GAUSS_CUDA_CHECK(cudaMemGetInfo(&free_memory, &total_memory));
  const int sets = add_sets(bytes, static_cast<std::size_t>(l2), total_memory);
  std::vector<gauss::CudaBuffer> a, b, c;
  for (int s = 0; s < sets; ++s) {
    a.emplace_back(bytes);
    b.emplace_back(bytes);
    c.emplace_back(bytes);
    a.back().upload(inputs.a.data(), bytes);
    b.back().upload(inputs.b.data(), bytes);
    c.back().upload(inputs.poison.data(), bytes);
  }
  gauss::CudaStream stream;
  gauss::CudaEvent start;
  gauss::CudaEvent stop;
  const dim3 block = local.x > 0 ? dim3(local.x, local.y) : dim3(add_ints_suggested_block(), 1);
  int launches = 0;
  int last_set = 0;
  AddRun run = time_three_clocks(
      [&] {
        last_set = launches++ % sets;
        const std::size_t i = static_cast<std::size_t>(last_set);
        start.record(stream.get());
        launch_add_ints(reinterpret_cast<const int*>(a[i].data()), reinterpret_cast<const int*>(b[i].data()),
                        reinterpret_cast<int*>(c[i].data()), width, height, block, stream.get());
        GAUSS_CUDA_CHECK(cudaGetLastError());
        stop.record(stream.get());
        return 0;
      },
      [&] { GAUSS_CUDA_CHECK(cudaStreamSynchronize(stream.get())); },
      [&](int) { return static_cast<double>(gauss::elapsed_ms(start, stop)); }, settings);

  std::vector<int> result(n);
  c[static_cast<std::size_t>(last_set)].download(result.data(), bytes);
  run.wrong = inputs.wrong(result);
  run.gbps = add_gbps(n, run.clocks.device_ms);
  return run;
}
#endif

inline void rigaya_add_section(gauss::SectionContext& context) {
  const int width = add_side(context.input.width);
  const int height = add_side(context.input.height);
  const std::size_t n = static_cast<std::size_t>(width) * static_cast<std::size_t>(height);
  const gauss::RunSettings settings = gauss::sections::run_settings(context.options);
  const Shape shapes[] = {{1, 1}, {32, 1}, {0, 0}};

  Table table({{"local size", Table::Align::Left},
               {"API", Table::Align::Left},
               {"runs"},
               {"host clock after enqueue"},
               {"host clock after wait"},
               {"events"},
               {"GB/s"},
               {"% of copy"},
               {"check", Table::Align::Left}});
  gauss::sections::CsvFile csv({"api", "device", "width", "height", "local", "runs", "enqueue_ms", "wait_ms",
                                "event_median_ms", "event_min_ms", "event_max_ms", "gbps", "percent_of_copy", "wrong"});
  std::string ratios;

  auto report = [&](const char* api, const std::string& device, double copy_gbps, auto&& run_one) {
    double event_ms[2] = {0, 0};
    double enqueue_ms[2] = {0, 0};
    for (const Shape shape : shapes) {
      const AddRun run = run_one(shape);
      const std::string local = shape.x > 0 ? "{" + std::to_string(shape.x) + "," + std::to_string(shape.y) + "}"
                                            : std::string("NULL (runtime's choice)");
      const double percent = copy_gbps > 0 ? 100.0 * run.gbps / copy_gbps : 0.0;
      const bool ok = run.wrong == 0;
      if (!ok) context.failed = true;
      table.add_row({local, api, std::to_string(run.clocks.runs), format_ms(run.clocks.enqueue_only_ms),
                     format_ms(run.clocks.with_wait_ms), format_ms(run.clocks.device_ms), format_significant(run.gbps),
                     copy_gbps > 0 ? format_fixed(percent, 1) : "-",
                     ok ? "exact" : std::to_string(run.wrong) + " wrong"});
      csv.add({api, device, std::to_string(width), std::to_string(height), shape_text(shape),
               std::to_string(run.clocks.runs), std::to_string(run.clocks.enqueue_only_ms),
               std::to_string(run.clocks.with_wait_ms), std::to_string(run.device.median_ms),
               std::to_string(run.device.min_ms), std::to_string(run.device.max_ms), std::to_string(run.gbps),
               copy_gbps > 0 ? std::to_string(percent) : "", std::to_string(run.wrong)});
      context.rows.push_back(
          gauss::sections::result_row("add_" + (shape.x > 0 ? shape_text(shape) : std::string("null")), api, device,
                                      run.device, run.gbps, copy_gbps, ok, ok ? 0 : 1, run.wrong));
      if (shape.x > 0) {
        const int i = shape.x == 1 ? 0 : 1;
        event_ms[i] = run.clocks.device_ms;
        enqueue_ms[i] = run.clocks.enqueue_only_ms;
      }
    }
    ratios += std::string("  ") + api + ": " + format_fixed(event_ms[0] / event_ms[1], 1) + "x by events (" +
              format_ms(event_ms[0]) + " / " + format_ms(event_ms[1]) + " ms); by the seed's clock " +
              format_fixed(enqueue_ms[0] / enqueue_ms[1], 1) + "x\n";
  };

  if (context.opencl != nullptr) {
    report("OpenCL", context.opencl->info.name, context.opencl_copy_gbps,
           [&](Shape shape) { return run_add_opencl(*context.opencl, width, height, shape, settings); });
  }
#ifdef GAUSS_HAVE_CUDA
  if (context.cuda != nullptr) {
    report("CUDA", context.cuda->name, context.cuda_copy_gbps,
           [&](Shape shape) { return run_add_cuda(width, height, shape, settings); });
  }
#endif
  context.out << "c = a + b over " << width << " x " << height << " ints ("
              << format_fixed(static_cast<double>(3 * sizeof(int) * n) / 1e6, 1)
              << " MB read and written per run); times in ms, medians; GB/s and % of copy from the events\n\n";
  table.print(context.out);
  context.out << "\n{1,1} against {32,1}:\n"
              << ratios
              << "  the seed (rigaya, Intel integrated GPU, 2048 x 2048): 33.11 / 1.64 ms = 20.2x\n"
                 "The host clock stopped right after the enqueue times the enqueue, not the kernel.\n";
  csv.write(context.options, "rigaya_add", context.out);
}

// ------------------------------------------------------- toropippi's loop ---

inline unsigned int positive_from_environment(const char* name, unsigned int fallback) {
  const char* text = std::getenv(name);
  if (text == nullptr || *text == '\0') return fallback;
  char* end = nullptr;
  const long value = std::strtol(text, &end, 10);
  if (*end != '\0' || value < 1 || value > (1L << 26)) {
    throw gauss::InputError(std::string(name) + "=" + text + ": expected a whole number from 1 to 67108864");
  }
  return static_cast<unsigned int>(value);
}

inline LoopSpec loop_spec_from_environment() {
  LoopSpec spec;
  spec.items = positive_from_environment("GAUSS_LOOP_ITEMS", spec.items);
  spec.iterations = positive_from_environment("GAUSS_LOOP_ITERATIONS", spec.iterations);
  return spec;
}

inline std::size_t implausible_outputs(const std::vector<std::uint32_t>& output) {
  std::size_t count = 0;
  for (std::size_t id = 0; id < output.size(); ++id) {
    const std::uint64_t value = output[id];
    const bool plausible = value >= id + 100000000u && value <= id + 790000000u;
    count += plausible ? 0 : 1;
  }
  return count;
}

inline LoopRun run_loop_opencl(gauss::OpenClSession& cl, const LoopSpec& spec, const gauss::RunSettings& settings) {
  const std::size_t bytes = std::size_t{spec.items} * sizeof(std::uint32_t);
  cl::Buffer out(cl.context, CL_MEM_READ_WRITE, bytes);
  const std::vector<std::uint32_t> poison(spec.items, 0xFFFFFFFFu);
  cl.queue.enqueueWriteBuffer(out, CL_TRUE, 0, bytes, poison.data());
  LoopRun run;
  // toropippi's clock starts here: the build, the first launch and the
  // blocking readback, as his DateTime.Now spanned the shader's compile at its
  // first dispatch and GetData (but steady_clock, not rounded to his 1-15.6 ms).
  gauss::HostTimer first_launch;  // steady_clock
  cl::Kernel kernel = cl.kernel(gauss::embedded::work_size_cl, "sin_divide_loop");
  // A local-memory argument of size 0 is not allowed: 4 bytes is "none".
  gauss::sections::set_args(kernel, out, spec.items, spec.iterations,
                            cl::Local(std::max<std::size_t>(spec.reserved_bytes, sizeof(float))));

  require_runnable({spec.group, 1}, opencl_kernel_limits(cl, kernel), "OpenCL");
  const std::size_t local_used = kernel.getWorkGroupInfo<CL_KERNEL_LOCAL_MEM_SIZE>(cl.info.device);
  if (local_used > cl.info.local_memory) {
    throw gauss::Unsupported("cannot run on this device: " + std::to_string(local_used) +
                             " bytes of local memory per group exceed the device's " +
                             std::to_string(cl.info.local_memory));
  }
  const cl::NDRange global(gauss::round_up(spec.items, static_cast<std::size_t>(spec.group)));
  const cl::NDRange local(static_cast<std::size_t>(spec.group));
  run.output.resize(spec.items);
  cl.queue.enqueueNDRangeKernel(kernel, cl::NullRange, global, local);
  cl.queue.enqueueReadBuffer(out, CL_TRUE, 0, bytes, run.output.data());
  run.first_launch_host_ms = first_launch.elapsed_ms();
  // Poisoned again: the timed runs must write every output themselves.
  cl.queue.enqueueWriteBuffer(out, CL_TRUE, 0, bytes, poison.data());
  run.time = gauss::sections::time_opencl(
      cl.queue,
      [&] {
        cl::Event done;
        cl.queue.enqueueNDRangeKernel(kernel, cl::NullRange, global, local, nullptr, &done);
        return std::vector<cl::Event>{done};
      },
      settings, "loop, groups of " + std::to_string(spec.group));
  run.output.resize(spec.items);
  cl.queue.enqueueReadBuffer(out, CL_TRUE, 0, bytes, run.output.data());
  return run;
}

#ifdef GAUSS_HAVE_CUDA
inline LoopRun run_loop_cuda(const LoopSpec& spec, const gauss::RunSettings& settings) {
  const LoopOccupancy occupancy = sin_divide_loop_occupancy(spec.group, spec.reserved_bytes);
  if (spec.group > occupancy.max_block) {
    throw gauss::Unsupported("cannot run on this device: " + std::to_string(spec.group) +
                             " threads exceed this kernel's maximum of " + std::to_string(occupancy.max_block));
  }
  if (occupancy.blocks_per_sm == 0) {
    throw gauss::Unsupported("cannot run on this device: a block of " + std::to_string(spec.group) + " threads with " +
                             std::to_string(spec.reserved_bytes) + " bytes of shared memory does not fit an SM");
  }
  const std::size_t bytes = std::size_t{spec.items} * sizeof(std::uint32_t);
  gauss::CudaBuffer out(bytes);
  const std::vector<std::uint32_t> poison(spec.items, 0xFFFFFFFFu);
  out.upload(poison.data(), bytes);
  gauss::CudaStream stream;
  auto* out_words = reinterpret_cast<unsigned int*>(out.data());
  LoopRun run;
  run.output.resize(spec.items);
  // toropippi's clock (steady_clock): the first launch and its blocking
  // readback. No build to include: nvcc compiled the kernel with the program.
  gauss::HostTimer first_launch;
  launch_sin_divide_loop(out_words, spec.items, spec.iterations, spec.group, spec.reserved_bytes, stream.get());
  GAUSS_CUDA_CHECK(cudaGetLastError());
  GAUSS_CUDA_CHECK(cudaMemcpyAsync(run.output.data(), out_words, bytes, cudaMemcpyDeviceToHost, stream.get()));
  GAUSS_CUDA_CHECK(cudaStreamSynchronize(stream.get()));
  run.first_launch_host_ms = first_launch.elapsed_ms();
  out.upload(poison.data(), bytes);  // poisoned again: the timed runs must write every output themselves
  run.time = gauss::sections::time_cuda(
      stream.get(),
      [&](cudaStream_t s) {
        launch_sin_divide_loop(out_words, spec.items, spec.iterations, spec.group, spec.reserved_bytes, s);
      },
      settings, "loop, groups of " + std::to_string(spec.group));
  run.output.resize(spec.items);
  out.download(run.output.data(), bytes);
  return run;
}
#endif

inline void compute_sweep_section(gauss::SectionContext& context, std::size_t reserved_bytes) {
  LoopSpec spec = loop_spec_from_environment();
  spec.reserved_bytes = reserved_bytes;
  const gauss::RunSettings settings = gauss::sections::run_settings(context.options);
  const std::string section = reserved_bytes > 0 ? "compute_sweep_reserved" : "compute_sweep";

  context.out << spec.items << " items x " << spec.iterations
              << " steps of a sine and a division each (GAUSS_LOOP_ITEMS, GAUSS_LOOP_ITERATIONS), groups of 1 to "
                 "1024 items, "
              << (reserved_bytes > 0 ? std::to_string(reserved_bytes) + " bytes of local memory reserved per group"
                                     : std::string("no local memory"))
              << "; median ms; x group 1 = the time of groups of 1 over this time; first launch host ms = "
                 "toropippi's method: the host clock around the first launch of each group size and the blocking "
                 "readback of its output ("
              << (context.opencl != nullptr ? "OpenCL: with the build of the kernel for that size; " : "")
              << (context.cuda != nullptr ? "CUDA: no build, the kernel is compiled with the program; " : "")
              << "steady_clock, not rounded)\n\n";
  Table table({{"API", Table::Align::Left},
               {"group"},
               {"runs"},
               {"median ms"},
               {"min ms"},
               {"G steps/s"},
               {"x group 1"},
               {"first launch host ms"},
               {"blocks/SM"},
               {"occupancy"},
               {"check", Table::Align::Left}});
  gauss::sections::CsvFile csv({"api", "device", "group", "reserved_bytes", "items", "iterations", "runs", "median_ms",
                                "min_ms", "max_ms", "giga_steps_per_s", "blocks_per_sm", "occupancy", "status",
                                "first_launch_host_ms"});
  const double steps = static_cast<double>(spec.items) * spec.iterations;

  auto sweep = [&](const char* api, const std::string& device, auto&& run_one, auto&& occupancy_of) {
    std::vector<std::uint32_t> first_output;
    double group1_ms = 0;
    for (int group = 1; group <= 1024; group *= 2) {
      LoopSpec point = spec;
      point.group = group;
      std::string blocks = "-";
      std::string occupancy = "-";
      occupancy_of(point, blocks, occupancy);
      try {
        const LoopRun run = run_one(point);
        std::string check = "ok";
        if (const std::size_t bad = implausible_outputs(run.output); bad > 0) {
          check = std::to_string(bad) + " outputs out of range";
        } else if (!first_output.empty() && run.output != first_output) {
          check = "differs from the first group size";
        }
        if (first_output.empty()) first_output = run.output;
        if (check != "ok") context.failed = true;
        if (group == 1) group1_ms = run.time.median_ms;
        const double rate = steps / (run.time.median_ms * 1e-3) / 1e9;
        table.add_row({api, std::to_string(group), std::to_string(run.time.runs()), format_ms(run.time.median_ms),
                       format_ms(run.time.min_ms), format_significant(rate),
                       group1_ms > 0 ? format_fixed(group1_ms / run.time.median_ms, 1) : "-",
                       format_ms(run.first_launch_host_ms), blocks, occupancy, check});
        csv.add({api, device, std::to_string(group), std::to_string(reserved_bytes), std::to_string(spec.items),
                 std::to_string(spec.iterations), std::to_string(run.time.runs()), std::to_string(run.time.median_ms),
                 std::to_string(run.time.min_ms), std::to_string(run.time.max_ms), std::to_string(rate),
                 blocks == "-" ? "" : blocks, occupancy == "-" ? "" : occupancy, check,
                 std::to_string(run.first_launch_host_ms)});
      } catch (const gauss::Unsupported& error) {
        // A group size this device or kernel cannot run is skipped, not failed.
        const std::string why = error.what();
        table.add_row({api, std::to_string(group), "0", "-", "-", "-", "-", "-", blocks, occupancy,
                       "skipped: " + why.substr(27)});
        csv.add({api, device, std::to_string(group), std::to_string(reserved_bytes), std::to_string(spec.items),
                 std::to_string(spec.iterations), "0", "", "", "", "", "", "", "skipped", ""});
      }
    }
  };

  if (context.opencl != nullptr) {
    gauss::OpenClSession& cl = *context.opencl;
    sweep(
        "OpenCL", cl.info.name, [&](const LoopSpec& point) { return run_loop_opencl(cl, point, settings); },
        [](const LoopSpec&, std::string&, std::string&) {});  // OpenCL 1.2 has no occupancy query
  }
#ifdef GAUSS_HAVE_CUDA
  if (context.cuda != nullptr) {
    sweep(
        "CUDA", context.cuda->name, [&](const LoopSpec& point) { return run_loop_cuda(point, settings); },
        [](const LoopSpec& point, std::string& blocks, std::string& occupancy) {
          const LoopOccupancy o = sin_divide_loop_occupancy(point.group, point.reserved_bytes);
          if (point.group > o.max_block) return;
          blocks = std::to_string(o.blocks_per_sm);
          occupancy = format_fixed(100.0 * o.occupancy, 1) + "%";
        });
  }
#endif
  table.print(context.out);
  context.out << "\noccupancy: theoretical, resident warps over the SM's maximum "
                 "(cudaOccupancyMaxActiveBlocksPerMultiprocessor); OpenCL 1.2 has no such query. Outputs are "
                 "checked to lie in the loop's range and to be the same for every group size.\n";
  csv.write(context.options, section, context.out);
}

}  // namespace chapter02
