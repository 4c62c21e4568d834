/// @file chapter.hpp
/// @brief A chapter executable: its variants, and the program that runs them.
///
/// A chapter's main.cpp declares its variants and hands the command line to
/// Chapter::run(), which does the rest the same way in every chapter: options,
/// the input photo, the CPU reference, the devices, the copy ceiling, timing,
/// checking, the table, CSV/JSON and the output image.
#pragma once

#include <string>
#include <vector>

#include "gauss/image.hpp"
#include "gauss/runners.hpp"
#include "gauss/variant.hpp"

namespace gauss {

/// One chapter: a name, a title, the pixel format it blurs, and its variants.
class Chapter {
 public:
  /// @p name is the folder's name ("01_naive"), @p title one line.
  Chapter(std::string name, std::string title, PixelFormat format = PixelFormat::Gray);

  /// Adds a CPU variant (checked with tolerance 0: it computes in double).
  Variant& add_cpu(std::string name, std::string description, CpuBlur blur);
  /// Adds an OpenCL variant (checked with kFloatTolerance).
  Variant& add_opencl(std::string name, std::string description, OpenClSetup setup);
  /// Adds a CUDA variant (checked with kFloatTolerance).
  Variant& add_cuda(std::string name, std::string description, CudaSetup setup);

  /// The variant the speed-up column divides by (default: the first CPU variant).
  void set_baseline(std::string name) { baseline_ = std::move(name); }

  /// After the table, time this variant with three clocks (host clock after
  /// the enqueue, after the wait, device events) and print the comparison.
  void show_timer_lesson(std::string variant) { timer_lesson_ = std::move(variant); }

  /// The variant called @p name on @p api, or nullptr.
  const Variant* find(const std::string& name, Api api) const;

  const std::string& name() const { return name_; }
  PixelFormat format() const { return format_; }
  const std::vector<Variant>& variants() const { return variants_; }

  /// The whole program: parse @p argv, run, report. Returns the exit status
  /// (ExitStatus): 0 all match, 1 a variant does not, 2 bad usage or input.
  int run(int argc, const char* const* argv) const;

 private:
  Variant& add(Variant variant);
  int run_checked(int argc, const char* const* argv) const;

  std::string name_;
  std::string title_;
  PixelFormat format_;
  std::vector<Variant> variants_;
  std::string baseline_;
  std::string timer_lesson_;
};

}  // namespace gauss
