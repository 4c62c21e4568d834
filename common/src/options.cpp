#include "gauss/options.hpp"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cctype>
#include <iostream>
#include <map>
#include <string>

#include "gauss/error.hpp"

#ifndef GAUSS_DEFAULT_IMAGE
#error "GAUSS_DEFAULT_IMAGE must name the bundled photo (set by common/CMakeLists.txt)"
#endif

namespace gauss {

std::string default_input_path() { return GAUSS_DEFAULT_IMAGE; }

ParseOutcome parse_options(int argc, const char* const* argv, const std::string& program,
                           const std::string& description, Options& options) {
  CLI::App app{description, program};
  app.get_formatter()->column_width(28);

  app.add_option("--input", options.input,
                 "Image file (PNG, JPEG, BMP, PGM/PPM); default: the bundled photo, " + default_input_path());
  app.add_option("--output", options.output,
                 "Write the blurred image here as PNG: the variant named by --variant, else the last one run");
  std::string api = "all";
  app.add_option("--api", api, "opencl, cuda or all (default: all that are available)")
      ->check(CLI::IsMember({"all", "opencl", "cuda"}, CLI::ignore_case));
  app.add_option("--device", options.device, "Device number from --list-devices (default: 0, a GPU first)");
  app.add_flag("--list-devices", options.list_devices, "List the OpenCL and CUDA devices and exit");
  app.add_option("--variant", options.variants, "Run only this variant (repeatable; --list-variants lists them)")
      ->take_all();
  app.add_flag("--list-variants", options.list_variants, "Print the variant names, one per line, and exit");
  app.add_option("--sigma", options.blur.sigma, "Gaussian standard deviation in pixels (default 1)");
  app.add_option("--radius", options.blur.radius,
                 "Mask radius: (2R+1)x(2R+1) taps, 1 to 16 (default 2, i.e. 5x5; use about 3x sigma)");
  app.add_option("--size", options.size,
                 std::string("Resample the input to WxH before blurring, or 'input' to keep its size (default ") +
                     kBenchmarkSize + " where a GPU runs, " + kCpuSize + " where only the CPU does)");
  app.add_option("--repeat", options.repeat,
                 "Timed runs per variant; the median is reported (default 20, fewer (at least 5) where 20 would take "
                 "over 2 s on a GPU, 0.5 s on a CPU)");
  app.add_option("--warmup", options.warmup, "Untimed runs before timing (default 3)");
  app.add_option("--csv", options.csv, "Write the results table as CSV");
  app.add_option("--json", options.json, "Write the run and its results as JSON");
  app.add_flag("--exercise", options.exercise, "Run only the variants of the chapter's exercise (README: Exercise)");
  app.add_option("--kernel-file", options.kernel_file,
                 "Run the exercise with this OpenCL C file in place of the chapter's kernel (implies --exercise)");

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    std::cout << app.help();
    return ParseOutcome::ExitOk;
  } catch (const CLI::ParseError& error) {
    // CLI11's messages are one line already; say where to look.
    throw InputError(std::string(error.what()) + " (--help lists the options)");
  }
  const std::map<std::string, ApiChoice> apis{
      {"all", ApiChoice::All}, {"opencl", ApiChoice::OpenCL}, {"cuda", ApiChoice::Cuda}};
  std::transform(api.begin(), api.end(), api.begin(), [](unsigned char c) { return std::tolower(c); });
  options.api = apis.at(api);  // IsMember has checked it is one of them
  options.repeat_given = app.count("--repeat") > 0;
  options.size_given = app.count("--size") > 0;
  if (options.repeat < 1 || options.repeat > 100000) throw InputError("--repeat must be 1 to 100000");
  if (options.warmup < 0 || options.warmup > 100000) throw InputError("--warmup must be 0 to 100000");
  validate(options.blur);
  if (!options.kernel_file.empty()) options.exercise = true;
  return ParseOutcome::Run;
}

}  // namespace gauss
