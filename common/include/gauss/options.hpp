/// @file options.hpp
/// @brief The command-line options every chapter executable shares (CLI11).
#pragma once

#include <string>
#include <vector>

#include "gauss/blur.hpp"

namespace gauss {

/// Which APIs to run.
enum class ApiChoice { All, OpenCL, Cuda };

/// The benchmark size the tutorial's tables are measured at: the Fixstars
/// seminar's 6720x4480 (30.1 megapixels).
inline constexpr const char* kBenchmarkSize = "6720x4480";

/// The default size where no GPU runs (OpenCL on the CPU through PoCL): a
/// quarter of the benchmark's width and height, 1/16 of its pixels, so that a
/// chapter takes seconds, not minutes, on a laptop's cores. The CPU's numbers
/// show that the code works, not how fast a GPU is; --size 6720x4480 asks
/// for the benchmark size anyway.
inline constexpr const char* kCpuSize = "1680x1120";

/// Everything a chapter executable can be told.
struct Options {
  std::string input;   ///< image file; empty: the bundled photo
  std::string output;  ///< PNG to write; empty: none
  ApiChoice api = ApiChoice::All;
  int device = -1;  ///< -1: the default (device 0, a GPU first)
  bool list_devices = false;
  bool list_variants = false;
  std::vector<std::string> variants;  ///< empty: all
  BlurSpec blur;
  std::string size = kBenchmarkSize;  ///< "WxH", or "input" for the image's own size
  bool size_given = false;            ///< --size was on the command line (else kCpuSize where no GPU runs)
  int repeat = 20;
  bool repeat_given = false;  ///< --repeat was on the command line (no time budget then)
  int warmup = 3;
  std::string csv;
  std::string json;
  bool exercise = false;    ///< run only the chapter's exercise variants
  std::string kernel_file;  ///< an OpenCL C file that replaces the exercise's kernel (implies exercise)
};

/// What parse_options() asks the caller to do.
enum class ParseOutcome {
  Run,     ///< options are in place: go on
  ExitOk,  ///< --help was printed: exit 0
};

/// Parses the command line into @p options. Prints --help itself. Throws
/// InputError with a one-line message for unknown options, malformed or
/// out-of-range values. @p program and @p description head the help text.
ParseOutcome parse_options(int argc, const char* const* argv, const std::string& program,
                           const std::string& description, Options& options);

/// The bundled photo (images/astronaut.png in the source tree).
std::string default_input_path();

}  // namespace gauss
