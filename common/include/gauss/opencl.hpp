/// @file opencl.hpp
/// @brief OpenCL through the Khronos C++ bindings: finding a device, building
///        embedded kernels with readable errors, and naming every error code.
///
/// The tutorial targets OpenCL 1.2, which NVIDIA's driver and PoCL both run.
/// The bindings throw cl::Error on any failed call; describe() turns one into
/// "call: CL_NAME (code): what to do".
#pragma once

#ifndef CL_HPP_TARGET_OPENCL_VERSION
#define CL_HPP_TARGET_OPENCL_VERSION 120
#endif
#ifndef CL_HPP_MINIMUM_OPENCL_VERSION
#define CL_HPP_MINIMUM_OPENCL_VERSION 120
#endif
#ifndef CL_HPP_ENABLE_EXCEPTIONS
#define CL_HPP_ENABLE_EXCEPTIONS
#endif
#include <CL/opencl.hpp>

#include <cstddef>
#include <string>
#include <vector>

#include "gauss/opencl_source.hpp"

namespace gauss {

/// "CL_INVALID_WORK_GROUP_SIZE" for -54; "unknown OpenCL error" otherwise.
const char* cl_error_name(cl_int code);

/// What to do about an error, in a few words ("" where there is nothing useful to say).
const char* cl_error_hint(cl_int code);

/// "clEnqueueNDRangeKernel: CL_INVALID_WORK_GROUP_SIZE (-54): <hint>".
std::string describe(const cl::Error& error);

/// One OpenCL device, as --list-devices shows it.
struct OpenClDeviceInfo {
  int index = 0;  ///< the number --device takes (GPUs are numbered first)
  cl::Platform platform;
  cl::Device device;
  std::string name;           ///< "NVIDIA H100 80GB HBM3", "pthread-skylake-avx512-..."
  std::string platform_name;  ///< "NVIDIA CUDA", "Portable Computing Language"
  std::string version;        ///< CL_DEVICE_VERSION
  std::string driver;         ///< CL_DRIVER_VERSION
  bool is_gpu = false;
  int compute_units = 0;
  std::size_t global_memory = 0;   ///< bytes
  std::size_t global_cache = 0;    ///< CL_DEVICE_GLOBAL_MEM_CACHE_SIZE, bytes
  std::size_t local_memory = 0;    ///< bytes per work-group
  std::size_t max_work_group = 0;  ///< CL_DEVICE_MAX_WORK_GROUP_SIZE
  std::size_t max_buffer = 0;      ///< CL_DEVICE_MAX_MEM_ALLOC_SIZE

  /// "NVIDIA H100 80GB HBM3 (NVIDIA CUDA; OpenCL 3.0 CUDA; driver 580.159.04)".
  std::string summary() const;
};

/// Every OpenCL device of every platform, GPUs first, numbered from 0.
/// Throws InputError when there is no platform or no device at all, saying
/// what to install (pocl-opencl-icd runs OpenCL on any CPU).
std::vector<OpenClDeviceInfo> list_opencl_devices();

/// The device --device N names (N < 0: the default, device 0, a GPU if there
/// is one). Throws InputError for a number that --list-devices does not show.
OpenClDeviceInfo select_opencl_device(int requested);

/// A context and a profiling-enabled in-order command queue on one device,
/// and the build helpers every chapter uses.
class OpenClSession {
 public:
  explicit OpenClSession(const OpenClDeviceInfo& device);

  /// Builds @p source for this device with OpenCL C 1.2 and @p options
  /// (typically "-D RADIUS=2"). On failure throws ApiError whose message holds
  /// the compiler's log, whose lines point at the .cl file and line.
  cl::Program build(const OpenClSource& source, const std::string& options = "");

  /// build() and take the kernel called @p name out of the program.
  cl::Kernel kernel(const OpenClSource& source, const char* name, const std::string& options = "");

  OpenClDeviceInfo info;
  cl::Context context;
  cl::CommandQueue queue;  ///< in order, CL_QUEUE_PROFILING_ENABLE
};

/// From now on, OpenClSession::build() compiles the file at @p path wherever
/// it is asked for an embedded kernel file named @p file_name (e.g.
/// "blur_naive.cl"): how `--kernel-file` runs a student's exercise without
/// rebuilding the chapter. Throws InputError when @p path cannot be read or is
/// empty.
void replace_opencl_source(const std::string& file_name, const std::string& path);

/// If the environment variable GAUSS_DUMP_CL_BINARIES names a folder, writes
/// @p program's binary there (PTX on NVIDIA), named after the kernel file and the build options.
/// OpenClSession::build() calls it for every program.
void dump_binary(const cl::Program& program, const OpenClSource& source, const std::string& options);

/// Nanoseconds from the start of @p first to the end of @p last, in
/// milliseconds, from the events' profiling counters (the queue must have
/// CL_QUEUE_PROFILING_ENABLE; the events must have completed).
double event_span_ms(const cl::Event& first, const cl::Event& last);

/// The smallest multiple of @p multiple that is >= @p value: the global size
/// of an NDRange must be a multiple of the work-group size in OpenCL 1.2.
constexpr std::size_t round_up(std::size_t value, std::size_t multiple) {
  return (value + multiple - 1) / multiple * multiple;
}

}  // namespace gauss
