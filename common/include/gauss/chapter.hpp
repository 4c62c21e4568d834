/// @file chapter.hpp
/// @brief A chapter executable: its variants, and the program that runs them.
///
/// A chapter's main.cpp declares its variants and hands the command line to
/// Chapter::run(), which does the rest the same way in every chapter: options,
/// the input photo, the CPU reference, the devices, the copy ceiling, timing,
/// checking, the table, CSV/JSON and the output image.
///
/// Chapters whose lesson is not a list of blur variants (a sweep, a transfer
/// experiment, a reduction) add sections: code that runs after the table with
/// the same devices, image and options, and prints its own tables.
#pragma once

#include <deque>
#include <functional>
#include <iosfwd>
#include <string>
#include <vector>

#include "gauss/image.hpp"
#include "gauss/options.hpp"
#include "gauss/runners.hpp"
#include "gauss/table.hpp"
#include "gauss/variant.hpp"

namespace gauss {

struct CudaDeviceInfo;

/// Computes a reference output from an input image (in the variant's format).
using ReferenceFn = std::function<Image(const Image& input, const BlurSpec& blur)>;

/// What a section gets to work with.
struct SectionContext {
  const Options& options;
  const Image& input;            ///< the photo, in the chapter's format, at --size
  const BlurSpec& blur;          ///< --sigma and --radius
  OpenClSession* opencl;         ///< the OpenCL device in use, or null when OpenCL is not run
  const CudaDeviceInfo* cuda;    ///< the CUDA device in use (current), or null when CUDA is not run
  double opencl_copy_gbps;       ///< the copy ceiling measured on OpenCL (0 if not measured)
  double cuda_copy_gbps;         ///< the copy ceiling measured on CUDA (0 if not measured)
  std::ostream& out;             ///< where to print
  std::vector<ResultRow>& rows;  ///< rows appended here go to --csv and --json too
  bool failed = false;           ///< set it when a check fails: the program then exits with 1
};

/// A section: prints its own tables; sets SectionContext::failed on a failed check.
using SectionFn = std::function<void(SectionContext& context)>;

/// One chapter: a name, a title, the pixel format it blurs, and its variants.
class Chapter {
 public:
  /// @p name is the folder's name ("01_naive"), @p title one line.
  Chapter(std::string name, std::string title, PixelFormat format = PixelFormat::Gray);

  /// Adds a CPU variant (checked with tolerance 0: it computes in double).
  /// The reference stays valid: set Variant::format, reference or known_bug on it.
  Variant& add_cpu(std::string name, std::string description, CpuBlur blur);
  /// Adds an OpenCL variant (checked with kFloatTolerance).
  Variant& add_opencl(std::string name, std::string description, OpenClSetup setup);
  /// Adds a CUDA variant (checked with kFloatTolerance).
  Variant& add_cuda(std::string name, std::string description, CudaSetup setup);

  /// Adds a variant as it is (another chapter's, say: the capstone runs the
  /// best step of every earlier chapter beside its own). Its name must be new
  /// for its API.
  Variant& add(Variant variant);

  /// Registers a reference other than the Gaussian blur (a recursive filter,
  /// a transpose), for variants that set Variant::reference to @p name.
  void add_reference(std::string name, std::string description, ReferenceFn reference);

  /// When a section runs without being asked for by name.
  enum class SectionRuns {
    ByDefault,  ///< when no --variant is given, and when --variant names it
    OnRequest,  ///< only when --variant names it: long sweeps, whose work does
                ///< not shrink with --size (simulators and sanitizers run the
                ///< default set on tiny images)
  };

  /// Adds a section, run after the table. Sections run in the order added.
  void add_section(std::string name, std::string title, SectionFn section, SectionRuns runs = SectionRuns::ByDefault);

  /// The chapter's exercise (its README's "Exercise" section): the OpenCL
  /// kernel file whose TODO blocks the student fills in (its file name, e.g.
  /// "blur_naive.cl"; the CUDA twin is built by a target such as 01_naive_exercise)
  /// and the variants and sections that run it. `--exercise` runs just those;
  /// `--kernel-file my.cl` runs them with my.cl compiled in place of the file.
  void set_exercise(std::string kernel_file_name, std::vector<std::string> variants) {
    exercise_kernel_ = std::move(kernel_file_name);
    exercise_variants_ = std::move(variants);
  }
  const std::string& exercise_kernel() const { return exercise_kernel_; }
  const std::vector<std::string>& exercise_variants() const { return exercise_variants_; }

  /// The variant the speed-up column divides by (default: the first CPU variant).
  void set_baseline(std::string name) { baseline_ = std::move(name); }

  /// After the table, time this variant with three clocks (host clock after
  /// the enqueue, after the wait, device events) and print the comparison.
  void show_timer_lesson(std::string variant) { timer_lesson_ = std::move(variant); }

  /// The variant called @p name on @p api, or nullptr.
  const Variant* find(const std::string& name, Api api) const;

  /// The reference output of @p variant for @p input: the Gaussian blur of
  /// blur.hpp in double precision, or the chapter reference it names.
  Image reference_for(const Variant& variant, const Image& input, const BlurSpec& blur) const;

  /// The pixel format @p variant reads and writes.
  PixelFormat format_of(const Variant& variant) const { return variant.format.value_or(format_); }

  const std::string& name() const { return name_; }
  const std::string& title() const { return title_; }
  PixelFormat format() const { return format_; }
  const std::deque<Variant>& variants() const { return variants_; }

  /// The whole program: parse @p argv, run, report. Returns the exit status
  /// (ExitStatus): 0 all match, 1 a variant does not, 2 bad usage or input.
  int run(int argc, const char* const* argv) const;

 private:
  struct Reference {
    std::string name;
    std::string description;
    ReferenceFn compute;
  };
  struct Section {
    std::string name;
    std::string title;
    SectionFn run;
    SectionRuns runs;
  };

  int run_checked(int argc, const char* const* argv) const;

  std::string name_;
  std::string title_;
  PixelFormat format_;
  std::deque<Variant> variants_;  // a deque: add_*() hands out references that stay valid
  std::vector<Reference> references_;
  std::vector<Section> sections_;
  std::string baseline_;
  std::string timer_lesson_;
  std::string exercise_kernel_;
  std::vector<std::string> exercise_variants_;
};

}  // namespace gauss
