// Chapter 02: the experiments behind main.cpp's sections, and the limits that
// decide which work-group shapes can run. The tests call these directly.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "gauss/chapter.hpp"
#include "gauss/opencl.hpp"
#include "gauss/runners.hpp"

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
  gauss::TimingStats time;
  std::vector<std::uint32_t> output;
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

}  // namespace chapter02
