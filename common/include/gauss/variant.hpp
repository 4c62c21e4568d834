/// @file variant.hpp
/// @brief A variant: one way of computing the blur (a CPU loop, an OpenCL
///        kernel, a CUDA kernel), as a chapter declares it.
///
/// A chapter hands each variant to the runners (runners.hpp) as a set-up
/// function. The set-up runs once, untimed (build the program, pick the launch
/// shape), and returns a launch function; the runners call that launch once
/// per timed run with the buffers of that run, time it with device events,
/// and check its output against the reference.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "gauss/opencl.hpp"
#include "gauss/problem.hpp"

// The CUDA runtime's stream type, declared here exactly as cuda_runtime_api.h
// declares it, so that chapters and builds without CUDA need no CUDA header.
struct CUstream_st;

namespace gauss {

/// Where a variant runs.
enum class Api { Cpu, OpenCL, Cuda };

/// "CPU", "OpenCL" or "CUDA".
const char* name_of(Api api);

/// A CPU variant: blur @p in into @p out (already sized like @p in).
using CpuBlur = std::function<void(const Image& in, Image& out, const BlurSpec& blur)>;

/// An OpenCL launch: enqueue everything one run does, reading @p in and
/// writing @p out, and return the events of the enqueued commands in order.
/// The run's time spans the start of the first to the end of the last.
using OpenClLaunch = std::function<std::vector<cl::Event>(const cl::Buffer& in, const cl::Buffer& out)>;
/// An OpenCL set-up: build, choose the launch shape, return the launch.
using OpenClSetup = std::function<OpenClLaunch(OpenClSession& cl, const Problem& problem)>;

/// A CUDA launch: launch everything one run does on @p stream.
using CudaLaunch = std::function<void(const std::uint8_t* in, std::uint8_t* out, CUstream_st* stream)>;
/// A CUDA set-up: choose the launch shape, return the launch.
using CudaSetup = std::function<CudaLaunch(const Problem& problem)>;

/// One way of computing the blur (or, in a chapter that registers other
/// references, whatever that reference computes).
struct Variant {
  std::string name;  ///< short and stable: "naive", "cpu_single"; tables, CSV, tests use it
  Api api = Api::Cpu;
  std::string description;  ///< one line for --list-variants and the README
  int tolerance = 0;        ///< accepted difference from the reference, in levels
  CpuBlur cpu;              ///< set for Api::Cpu
  OpenClSetup opencl;       ///< set for Api::OpenCL
  CudaSetup cuda;           ///< set for Api::Cuda

  /// The layout of the images it reads and writes; unset: the chapter's.
  std::optional<PixelFormat> format;
  /// The chapter reference its output is checked against (Chapter::add_reference);
  /// empty: the Gaussian blur of blur.hpp.
  std::string reference;
  /// Non-empty for a deliberately broken variant kept to teach a bug: it must
  /// NOT match the reference. Its mismatch is flagged in the table but does
  /// not fail the run; a match does ("UNEXPECTED MATCH"). Says what the bug is.
  std::string known_bug;
  /// Someone else's implementation (a library), run for comparison: its
  /// differences from the reference are reported ("differs") but never fail
  /// the run. Our own variants never set this.
  bool external = false;
  /// "main" for the tutorial's main line: the best kernel so far with this
  /// chapter's technique added (one per chapter, API and pixel format, listed
  /// first); empty for every other variant. The results CSV's `line` column.
  std::string line;
};

/// Accepted difference of a float-accumulating GPU kernel from the double
/// reference: one level. Float rounding moves a sum that lies within about
/// 1e-4 of a half level to the other side, so a few pixels in 10^4 land one
/// level off; anything more is a bug.
inline constexpr int kFloatTolerance = 1;

}  // namespace gauss
