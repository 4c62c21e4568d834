#include "gauss/chapter.hpp"

#include <unistd.h>
#include <algorithm>
#include <cctype>
#include <ctime>
#include <filesystem>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <sstream>

#include "gauss/error.hpp"
#include "gauss/options.hpp"
#include "gauss/progress.hpp"
#include "gauss/reference.hpp"
#include "gauss/table.hpp"
#ifdef GAUSS_HAVE_CUDA
#include "gauss/cuda.hpp"
#endif

#ifndef GAUSS_HAVE_CUDA
#ifndef GAUSS_NO_CUDA_REASON
#error "GAUSS_NO_CUDA_REASON must say why this build has no CUDA (set by common/CMakeLists.txt)"
#endif
#endif

namespace gauss {
namespace {

// The copy kernel's row: not a variant of the chapter, but a row of every
// table, so --variant copy names it (and runs it alone).
constexpr const char* kCopyName = "copy";

std::string utc_now() {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return text;
}

// Fails early, before minutes of runs, if a result file cannot be written.
void check_writable(const std::string& path, const char* option) {
  if (path.empty()) return;
  namespace fs = std::filesystem;
  const fs::path target(path);
  const fs::path folder = target.has_parent_path() ? target.parent_path() : fs::path(".");
  std::error_code ec;
  if (!fs::is_directory(folder, ec)) {
    throw InputError(std::string(option) + " " + path + ": folder '" + folder.string() + "' does not exist");
  }
  if (fs::is_directory(target, ec)) throw InputError(std::string(option) + " " + path + " is a directory");
  if (::access(folder.c_str(), W_OK) != 0) {
    throw InputError(std::string(option) + " " + path + ": folder '" + folder.string() + "' is not writable");
  }
}

bool ends_with(const std::string& text, const std::string& suffix) {
  return text.size() >= suffix.size() && text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

std::string lower(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

// Progress on a terminal only: logs and tests see just the table.
void progress(const std::string& text) {
  static const bool terminal = ::isatty(STDERR_FILENO) != 0;
  if (terminal) std::cerr << text << std::flush;
}

// The results of one API on one pixel format: its copy ceiling and its variants.
struct ApiRun {
  Api api;
  PixelFormat format;
  std::string device;
  std::optional<VariantResult> copy;
  std::vector<VariantResult> results;
  std::vector<const Variant*> variants;  // results[i] is variants[i]'s
};

// A variant kept to teach a bug behaves as intended when it does NOT match;
// a variant the device cannot run (skipped) is not a failure.
bool behaved(const VariantResult& result, const Variant* variant) {
  if (!result.skipped.empty()) return true;
  if (variant != nullptr && variant->external) return result.error.empty();
  if (variant == nullptr || variant->known_bug.empty()) return result.ok();
  return result.error.empty() && !result.comparison.matches();
}

ResultRow make_row(const VariantResult& result, const Variant* variant, PixelFormat format, const std::string& device,
                   const VariantResult* copy, const VariantResult* baseline) {
  const bool is_copy = variant == nullptr;
  ResultRow row;
  row.variant = result.name;
  row.api = name_of(result.api);
  row.device = device;
  row.format = name_of(format);
  row.reference = is_copy ? "copy" : variant->reference.empty() ? "gaussian" : variant->reference;
  row.line = is_copy ? "" : variant->line;
  row.runs = result.ran() ? result.time.runs() : 0;
  row.median_ms = result.time.median_ms;
  row.min_ms = result.time.min_ms;
  row.max_ms = result.time.max_ms;
  row.gbps = result.gbps();
  row.max_diff = result.comparison.max_abs_diff;
  row.differing = result.comparison.differing;
  row.psnr_db = result.comparison.psnr_db;
  row.ok = behaved(result, variant);
  const bool known_bug = variant != nullptr && !variant->known_bug.empty();
  if (!result.skipped.empty()) {
    row.status = "skipped";
  } else if (!result.error.empty()) {
    row.status = "ERROR";
  } else if (!result.comparison.matches()) {
    row.status = known_bug                                 ? "MISMATCH (known bug)"
                 : variant != nullptr && variant->external ? "differs (external)"
                                                           : "MISMATCH";
  } else if (known_bug) {
    row.status = "UNEXPECTED MATCH";
  } else {
    row.status = is_copy ? "ok (ceiling)" : "ok";
  }
  if (row.runs > 0 && copy != nullptr && copy->ok() && copy->gbps() > 0) {
    row.percent_of_copy = 100.0 * row.gbps / copy->gbps();
  }
  if (row.runs > 0 && !is_copy && baseline != nullptr && baseline->ok() && result.time.median_ms > 0) {
    row.speedup = baseline->time.median_ms / result.time.median_ms;
  }
  return row;
}

void print_devices(std::ostream& out) {
  out << "OpenCL devices (--api opencl --device N):\n";
  try {
    for (const OpenClDeviceInfo& d : list_opencl_devices()) {
      out << "  " << d.index << ": " << d.summary() << (d.is_gpu ? "" : " [not a GPU]") << '\n';
    }
  } catch (const InputError& error) {
    out << "  none: " << error.what() << '\n';
  }
#ifdef GAUSS_HAVE_CUDA
  out << "CUDA devices (--api cuda --device N):\n";
  std::string why;
  const std::vector<CudaDeviceInfo> cuda = list_cuda_devices(&why);
  if (cuda.empty()) out << "  none: " << why << '\n';
  for (const CudaDeviceInfo& d : cuda) out << "  " << d.index << ": " << d.summary() << '\n';
#else
  out << "CUDA: not built (" << GAUSS_NO_CUDA_REASON << ")\n";
#endif
}

}  // namespace

Chapter::Chapter(std::string name, std::string title, PixelFormat format)
    : name_(std::move(name)), title_(std::move(title)), format_(format) {}

Variant& Chapter::add(Variant variant) {
  if (find(variant.name, variant.api) != nullptr) {
    throw std::logic_error(name_ + ": variant '" + variant.name + "' added twice for " + name_of(variant.api));
  }
  variants_.push_back(std::move(variant));
  return variants_.back();
}

Variant& Chapter::add_cpu(std::string name, std::string description, CpuBlur blur) {
  Variant v;
  v.name = std::move(name);
  v.api = Api::Cpu;
  v.description = std::move(description);
  v.tolerance = 0;
  v.cpu = std::move(blur);
  return add(std::move(v));
}

Variant& Chapter::add_opencl(std::string name, std::string description, OpenClSetup setup) {
  Variant v;
  v.name = std::move(name);
  v.api = Api::OpenCL;
  v.description = std::move(description);
  v.tolerance = kFloatTolerance;
  v.opencl = std::move(setup);
  return add(std::move(v));
}

Variant& Chapter::add_cuda(std::string name, std::string description, CudaSetup setup) {
  Variant v;
  v.name = std::move(name);
  v.api = Api::Cuda;
  v.description = std::move(description);
  v.tolerance = kFloatTolerance;
  v.cuda = std::move(setup);
  return add(std::move(v));
}

void Chapter::add_reference(std::string name, std::string description, ReferenceFn reference) {
  references_.push_back({std::move(name), std::move(description), std::move(reference)});
}

void Chapter::add_section(std::string name, std::string title, SectionFn section, SectionRuns runs) {
  sections_.push_back({std::move(name), std::move(title), std::move(section), runs});
}

const Variant* Chapter::find(const std::string& name, Api api) const {
  for (const Variant& v : variants_)
    if (v.name == name && v.api == api) return &v;
  return nullptr;
}

Image Chapter::reference_for(const Variant& variant, const Image& input, const BlurSpec& blur) const {
  if (variant.reference.empty()) return blur_reference(input, blur, ReferenceMethod::Direct2D, 0);
  for (const Reference& r : references_)
    if (r.name == variant.reference) return r.compute(input, blur);
  throw std::logic_error(name_ + ": variant '" + variant.name + "' names an unknown reference '" + variant.reference +
                         "'");
}

int Chapter::run(int argc, const char* const* argv) const {
  try {
    return run_checked(argc, argv);
  } catch (const InputError& error) {
    std::cerr << name_ << ": error: " << error.what() << '\n';
    return kExitBadInput;
  } catch (const std::bad_alloc&) {
    std::cerr << name_ << ": error: out of host memory: try a smaller --size\n";
    return kExitBadInput;
  } catch (const cl::Error& error) {
    std::cerr << name_ << ": error: " << describe(error) << '\n';
    return kExitMismatch;
  } catch (const std::exception& error) {
    std::cerr << name_ << ": error: " << error.what() << '\n';
    return kExitMismatch;
  }
}

int Chapter::run_checked(int argc, const char* const* argv) const {
  Options options;
  if (parse_options(argc, argv, name_, name_ + ": " + title_, options) == ParseOutcome::ExitOk) return kExitOk;

  if (options.list_variants) {
    std::set<std::string> seen;
    for (const Variant& v : variants_)
      if (seen.insert(v.name).second) std::cout << v.name << '\n';
    for (const Section& section : sections_)
      if (seen.insert(section.name).second) std::cout << section.name << '\n';
    return kExitOk;
  }
  if (options.list_devices) {
    print_devices(std::cout);
    return kExitOk;
  }

  // --- The exercise: its variants alone, maybe with the student's kernel ----
  if (options.exercise) {
    if (exercise_variants_.empty()) throw InputError(name_ + " has no exercise (--exercise, --kernel-file)");
    if (options.variants.empty()) options.variants = exercise_variants_;
    if (!options.kernel_file.empty()) {
      if (options.api == ApiChoice::Cuda) {
        throw InputError("--kernel-file loads OpenCL C; a CUDA exercise is compiled: cmake --build build --target " +
                         name_ + "_exercise, then run build/bin/exercises/" + name_ + " --exercise --api cuda");
      }
      if (!ends_with(exercise_kernel_, ".cl")) {
        throw InputError("--kernel-file: " + name_ + "'s exercise is " + exercise_kernel_ +
                         ", CUDA only: cmake --build build --target " + name_ +
                         "_exercise, then run build/bin/exercises/" + name_ + " --exercise --api cuda");
      }
      options.api = ApiChoice::OpenCL;
      replace_opencl_source(exercise_kernel_, options.kernel_file);
      std::cout << "exercise: " << options.kernel_file << " replaces " << exercise_kernel_ << '\n';
    }
  }

  // --- What to run ---------------------------------------------------------
  auto named = [&](const std::string& name) {
    return options.variants.empty() ||
           std::find(options.variants.begin(), options.variants.end(), name) != options.variants.end();
  };
  const bool copy_asked =
      std::find(options.variants.begin(), options.variants.end(), kCopyName) != options.variants.end();
  for (const std::string& name : options.variants) {
    const bool known =
        name == kCopyName ||
        std::any_of(variants_.begin(), variants_.end(), [&](const Variant& v) { return v.name == name; }) ||
        std::any_of(sections_.begin(), sections_.end(), [&](const Section& s) { return s.name == name; });
    if (!known) throw InputError("unknown variant '" + name + "' (--list-variants lists them)");
  }
  auto api_chosen = [&](Api api) {
    return api == Api::Cpu || options.api == ApiChoice::All ||
           (api == Api::OpenCL && options.api == ApiChoice::OpenCL) ||
           (api == Api::Cuda && options.api == ApiChoice::Cuda);
  };
  auto selected = [&](const Variant& v) { return named(v.name) && api_chosen(v.api); };
  std::vector<const Section*> sections;
  for (const Section& section : sections_) {
    const bool asked =
        std::find(options.variants.begin(), options.variants.end(), section.name) != options.variants.end();
    if (asked || (options.variants.empty() && section.runs == SectionRuns::ByDefault)) sections.push_back(&section);
  }
  // Sections may use any API the options allow; the copy runs on every GPU API.
  auto wants = [&](Api api) {
    return (api != Api::Cpu && (!sections.empty() || copy_asked) && api_chosen(api)) ||
           std::any_of(variants_.begin(), variants_.end(),
                       [&](const Variant& v) { return v.api == api && selected(v); });
  };
#ifndef GAUSS_HAVE_CUDA
  if (options.api == ApiChoice::Cuda) {
    throw InputError(std::string("this build has no CUDA: ") + GAUSS_NO_CUDA_REASON + " (use --api opencl)");
  }
#endif
  if (!options.output.empty() && !ends_with(options.output, ".png")) {
    throw InputError("--output " + options.output + ": the output is written as PNG, so name a .png file");
  }
  check_writable(options.output, "--output");
  check_writable(options.csv, "--csv");
  check_writable(options.json, "--json");

  // --- The devices ---------------------------------------------------------
  std::optional<OpenClDeviceInfo> opencl_device;
  if (wants(Api::OpenCL)) opencl_device = select_opencl_device(options.device);
  std::string cuda_note;
#ifdef GAUSS_HAVE_CUDA
  std::optional<CudaDeviceInfo> cuda_device;
  if (wants(Api::Cuda)) {
    std::string why;
    if (options.api == ApiChoice::Cuda || !list_cuda_devices(&why).empty()) {
      cuda_device = select_cuda_device(options.device);
    } else {
      cuda_note = "not run: no CUDA device (" + why + ")";
    }
  }
#else
  if (options.api == ApiChoice::All) cuda_note = std::string("not built (") + GAUSS_NO_CUDA_REASON + ")";
#endif

  // --- The input, in every format a selected variant uses ----------------------
  const std::string input_path = options.input.empty() ? default_input_path() : options.input;
  const ImageFileInfo file = probe_image(input_path);
  // Without --size: the benchmark size where a GPU runs, a sixteenth of it
  // where only the CPU does (PoCL), so that the quick start takes minutes.
  bool gpu_runs = opencl_device && opencl_device->is_gpu;
#ifdef GAUSS_HAVE_CUDA
  gpu_runs = gpu_runs || cuda_device.has_value();
#endif
  const std::string size_text = options.size_given || gpu_runs ? options.size : std::string(kCpuSize);
  const ImageSize size = size_text == "input" ? ImageSize{file.width, file.height} : parse_size(size_text);
  std::vector<PixelFormat> formats{format_};
  for (const Variant& v : variants_)
    if (selected(v) && std::find(formats.begin(), formats.end(), format_of(v)) == formats.end())
      formats.push_back(format_of(v));
  std::map<PixelFormat, Image> inputs;
  for (PixelFormat f : formats) inputs[f] = resize(load_image(input_path, f), size.width, size.height);
  const Image& input = inputs.at(format_);

  // --- The header ----------------------------------------------------------
  // Without an explicit --repeat, a slow device runs fewer times: at most
  // about 2 s of timed runs per variant where a GPU runs, 0.5 s where only
  // the CPU does (PoCL), and never fewer than 5 runs.
  const double budget_ms = options.repeat_given ? 0.0 : gpu_runs ? 2000.0 : 500.0;
  const RunSettings gpu_settings{options.warmup, options.repeat, budget_ms};
  const RunSettings cpu_settings{0, std::min(options.repeat, 3), 0.0};
  std::ostringstream image_line;
  image_line << input_path << " (" << file.width << "x" << file.height << ", " << file.channels
             << (file.channels == 1 ? " channel" : " channels") << ") as ";
  for (std::size_t i = 0; i < formats.size(); ++i) image_line << (i ? " and " : "") << name_of(formats[i]);
  if (size.width != file.width || size.height != file.height) image_line << ", resampled to " << to_string(size);
  image_line << " (" << format_fixed(static_cast<double>(input.bytes()) / 1e6, 1) << " MB"
             << (formats.size() > 1 ? std::string(" as ") + name_of(format_) : std::string()) << ")";

  RunInfo info;
  info.chapter = name_;
  info.date = utc_now();
  info.image = image_line.str();
  info.width = input.width;
  info.height = input.height;
  info.channels = input.channels;
  info.sigma = options.blur.sigma;
  info.radius = options.blur.radius;
  info.warmup = options.warmup;
  info.repeat = options.repeat;

  std::cout << name_ << ": " << title_ << '\n';
  std::cout << "input:   " << info.image << '\n';
  std::cout << "blur:    " << describe(options.blur) << ", clamp-to-edge borders, rounded half up\n";
  if (opencl_device) {
    std::cout << "OpenCL:  device " << opencl_device->index << ": " << opencl_device->summary() << '\n';
    info.devices.push_back("OpenCL: " + opencl_device->summary());
  }
#ifdef GAUSS_HAVE_CUDA
  if (cuda_device) {
    std::cout << "CUDA:    device " << cuda_device->index << ": " << cuda_device->summary() << '\n';
    info.devices.push_back("CUDA: " + cuda_device->summary());
  }
#endif
  if (!cuda_note.empty()) std::cout << "CUDA:    " << cuda_note << '\n';
  if (size_text != options.size) {
    std::cout << "size:    " << size_text << ", 1/16 of the benchmark's " << kBenchmarkSize
              << ": no GPU runs here, so the CPU gets a size it blurs in seconds (--size " << kBenchmarkSize
              << " for the benchmark size)\n";
  }

  // --- The references, computed once each, when first needed ------------------
  std::map<std::pair<PixelFormat, std::string>, Image> references;
  auto reference_of = [&](const Variant& v) -> const Image& {
    const auto key = std::make_pair(format_of(v), v.reference);
    auto found = references.find(key);
    if (found != references.end()) return found->second;
    progress("computing the reference...");
    HostTimer timer;
    Image computed = reference_for(v, inputs.at(key.first), options.blur);
    progress(" done\n");
    std::string what = "the Gaussian blur in double";
    for (const Reference& r : references_)
      if (r.name == v.reference) what = r.description;
    std::cout << "check:   " << name_of(key.first) << " outputs against " << what << " on the CPU ("
              << hardware_threads() << " threads, " << format_fixed(timer.elapsed_ms(), 0) << " ms)\n";
    return references.emplace(key, std::move(computed)).first->second;
  };

  // --- The runs --------------------------------------------------------------
  // Formats a GPU API runs: those of its selected variants, and the chapter's
  // own when a section may need its copy ceiling or the copy alone is asked for.
  auto gpu_formats = [&](Api api) {
    std::vector<PixelFormat> used;
    for (PixelFormat f : formats) {
      const bool any = std::any_of(variants_.begin(), variants_.end(),
                                   [&](const Variant& v) { return v.api == api && selected(v) && format_of(v) == f; });
      if (any || (f == format_ && (!sections.empty() || copy_asked))) used.push_back(f);
    }
    return used;
  };
  // One line per run as it starts ("[3/9] OpenCL tiled ... 0.41 s"): at the
  // benchmark size on a CPU a chapter takes minutes before its table.
  int run_count = 0;
  for (const Variant& v : variants_)
    if (v.api == Api::Cpu && selected(v)) ++run_count;
  std::vector<Api> gpu_apis;
  if (opencl_device) gpu_apis.push_back(Api::OpenCL);
#ifdef GAUSS_HAVE_CUDA
  if (cuda_device) gpu_apis.push_back(Api::Cuda);
#endif
  for (Api api : gpu_apis) {
    for (PixelFormat f : gpu_formats(api)) {
      ++run_count;  // the copy
      for (const Variant& v : variants_)
        if (v.api == api && selected(v) && format_of(v) == f) ++run_count;
    }
  }
  int runs_started = 0;
  auto announce = [&](Api api, const std::string& name) {
    return std::make_unique<ProgressLine>(std::cout, "[" + std::to_string(++runs_started) + "/" +
                                                         std::to_string(run_count) + "] " + name_of(api) + " " + name);
  };
  if (run_count > 0) std::cout << "runs:    " << run_count << ", each line ending with its time\n";

  std::vector<ApiRun> runs;
  if (wants(Api::Cpu)) {
    for (PixelFormat f : formats) {
      ApiRun cpu{Api::Cpu, f, "host CPU", std::nullopt, {}, {}};
      for (const Variant& v : variants_) {
        if (v.api != Api::Cpu || !selected(v) || format_of(v) != f) continue;
        const Image& expected = reference_of(v);
        const auto line = announce(Api::Cpu, v.name);
        cpu.results.push_back(run_cpu_variant(v, inputs.at(f), expected, options.blur, cpu_settings));
        cpu.variants.push_back(&v);
      }
      if (!cpu.results.empty()) runs.push_back(std::move(cpu));
    }
  }

  // One API's copy ceiling and variants, format by format. Runners stay
  // alive until the end: the timer lesson and the sections reuse them.
  auto run_gpu = [&](Api api, const std::string& device, auto& runners, auto make_runner) {
    for (PixelFormat f : gpu_formats(api)) {
      auto& runner = runners[f] = make_runner(inputs.at(f));
      ApiRun run{api, f, device, std::nullopt, {}, {}};
      const std::string copy_name = f == format_ ? std::string(kCopyName) : "copy_" + lower(name_of(f));
      {
        const auto line = announce(api, copy_name);
        run.copy = runner->copy(gpu_settings);
      }
      run.copy->name = copy_name;
      for (const Variant& v : variants_) {
        if (v.api != api || !selected(v) || format_of(v) != f) continue;
        const Image& expected = reference_of(v);
        const auto line = announce(api, v.name);
        run.results.push_back(runner->run(v, options.blur, expected, gpu_settings));
        run.variants.push_back(&v);
      }
      runs.push_back(std::move(run));
    }
  };
  std::unique_ptr<OpenClSession> opencl_session;
  std::map<PixelFormat, std::unique_ptr<OpenClRunner>> opencl_runners;
  if (opencl_device) {
    opencl_session = std::make_unique<OpenClSession>(*opencl_device);
    run_gpu(Api::OpenCL, opencl_device->name, opencl_runners,
            [&](const Image& image) { return std::make_unique<OpenClRunner>(*opencl_session, image); });
  }
#ifdef GAUSS_HAVE_CUDA
  std::map<PixelFormat, std::unique_ptr<CudaRunner>> cuda_runners;
  if (cuda_device) {
    run_gpu(Api::Cuda, cuda_device->name, cuda_runners,
            [&](const Image& image) { return std::make_unique<CudaRunner>(*cuda_device, image); });
  }
#endif
  {
    std::cout << "timing:  GPU: " << options.warmup << " warm-up + " << options.repeat << " timed runs";
    if (gpu_settings.budget_ms > 0) {
      std::cout << " (fewer, at least " << kMinTimedRuns << ", where they take over "
                << format_fixed(gpu_settings.budget_ms / 1000.0, 1) << " s)";
    }
    std::cout << ", device events; CPU: " << cpu_settings.repeat << " runs, host clock; the median is reported";
    if (opencl_runners.count(format_))
      std::cout << "; OpenCL rotates " << opencl_runners[format_]->sets() << " buffer pairs";
#ifdef GAUSS_HAVE_CUDA
    if (cuda_runners.count(format_)) std::cout << "; CUDA rotates " << cuda_runners[format_]->sets() << " buffer pairs";
#endif
    std::cout << '\n';
  }

  // --- The table -------------------------------------------------------------
  const std::string baseline_name = [&] {
    if (!baseline_.empty()) return baseline_;
    for (const Variant& v : variants_)
      if (v.api == Api::Cpu) return v.name;
    return std::string();
  }();
  const VariantResult* baseline = nullptr;
  for (const ApiRun& run : runs)
    for (const VariantResult& r : run.results)
      if (r.name == baseline_name && baseline == nullptr) baseline = &r;

  std::vector<ResultRow> rows;
  double copy_gbps[3] = {0, 0, 0};  // by Api, the chapter format's copy
  for (const ApiRun& run : runs) {
    const VariantResult* copy = run.copy ? &*run.copy : nullptr;
    if (copy) {
      rows.push_back(make_row(*copy, nullptr, run.format, run.device, copy, nullptr));
      if (run.format == format_ && copy->ok()) copy_gbps[static_cast<int>(run.api)] = copy->gbps();
    }
    for (std::size_t i = 0; i < run.results.size(); ++i)
      rows.push_back(make_row(run.results[i], run.variants[i], run.format, run.device, copy, baseline));
  }
  bool all_ok = true;
  if (!rows.empty()) {
    std::cout << "\ntimes in ms; GB/s = (bytes read + bytes written) / median time, 1 GB = 10^9 bytes;"
              << " % of copy = against the copy kernel on the same API";
    if (!baseline_name.empty()) std::cout << "; speed-up against " << baseline_name;
    std::cout << "\n\n";
    print_results(std::cout, rows);
  }

  std::map<std::string, std::string> errors_shown;  // an error's log -> the first run that reported it
  for (const ApiRun& run : runs) {
    std::vector<std::pair<const VariantResult*, const Variant*>> all;
    if (run.copy) all.emplace_back(&*run.copy, nullptr);
    for (std::size_t i = 0; i < run.results.size(); ++i) all.emplace_back(&run.results[i], run.variants[i]);
    for (const auto& [r, v] : all) {
      const bool known_bug = v != nullptr && !v->known_bug.empty();
      if (!behaved(*r, v)) all_ok = false;
      if (!r->skipped.empty()) {
        std::cout << '\n' << r->name << " (" << name_of(r->api) << "): skipped: " << r->skipped << '\n';
        continue;
      }
      if (r->ok() && !known_bug) continue;
      std::cout << '\n' << r->name << " (" << name_of(r->api) << "): ";
      if (v != nullptr && v->external && r->error.empty()) {
        std::cout << "differs from the reference (not our code; reported, not failed): " << r->comparison.summary()
                  << '\n';
        continue;
      }
      if (!r->error.empty()) {
        // Variants built from one file fail with the same compiler log (the
        // lines after the error's first): print it once.
        const std::size_t line_end = r->error.find('\n');
        const std::string log = line_end == std::string::npos ? r->error : r->error.substr(line_end + 1);
        const auto [first, is_new] = errors_shown.emplace(log, r->name + " (" + name_of(r->api) + ")");
        if (is_new) {
          std::cout << "ERROR: " << r->error << '\n';
        } else if (line_end == std::string::npos) {
          std::cout << "ERROR: the same as " << first->second << " above\n";
        } else {
          std::cout << "ERROR: " << r->error.substr(0, line_end) << "\n    (the compiler's log: as for "
                    << first->second << " above)\n";
        }
        continue;
      }
      if (known_bug) {
        std::cout << (r->comparison.matches() ? "UNEXPECTED MATCH: this variant exists to show a bug, and it did not: "
                                              : "MISMATCH, as it should: ")
                  << v->known_bug << "\n    " << r->comparison.summary() << '\n';
      } else {
        std::cout << "MISMATCH: " << r->comparison.summary() << '\n';
      }
      for (const ValueDiff& d : r->comparison.first) {
        std::cout << "    (" << d.x << ", " << d.y << ") channel " << d.channel << ": got " << d.got << ", expected "
                  << d.expected << '\n';
      }
    }
  }

  // --- The timer lesson ------------------------------------------------------
  // Not for a variant whose run failed: its error is in the table already,
  // and building it again would print the same compiler log twice.
  auto ran_ok = [&](const Variant* v) {
    for (const ApiRun& run : runs)
      for (std::size_t i = 0; i < run.results.size(); ++i)
        if (run.variants[i] == v) return run.results[i].error.empty() && run.results[i].skipped.empty();
    return false;
  };
  if (!timer_lesson_.empty()) {
    Table table({{"clock", Table::Align::Left}, {"OpenCL ms"}, {"CUDA ms"}});
    std::string ocl_cells[3] = {"-", "-", "-"};
    std::string cuda_cells[3] = {"-", "-", "-"};
    bool any = false;
    int timed_runs = 0;
    auto fill = [&](const TimerComparison& t, std::string* cells) {
      timed_runs = std::max(timed_runs, t.runs);
      cells[0] = format_fixed(t.enqueue_only_ms, 4);
      cells[1] = format_fixed(t.with_wait_ms, 4);
      cells[2] = format_fixed(t.device_ms, 4);
      any = true;
    };
    try {
      if (const Variant* v = find(timer_lesson_, Api::OpenCL); v && opencl_runners.count(format_of(*v)) && ran_ok(v))
        fill(opencl_runners[format_of(*v)]->compare_timers(*v, options.blur, gpu_settings), ocl_cells);
#ifdef GAUSS_HAVE_CUDA
      if (const Variant* v = find(timer_lesson_, Api::Cuda); v && cuda_runners.count(format_of(*v)) && ran_ok(v))
        fill(cuda_runners[format_of(*v)]->compare_timers(*v, options.blur, gpu_settings), cuda_cells);
#endif
    } catch (const std::exception& error) {
      std::cout << "\n(the timer lesson could not run: " << error.what() << ")\n";
    }
    if (any) {
      table.add_row({"host clock, stopped right after the enqueue/launch", ocl_cells[0], cuda_cells[0]});
      table.add_row({"host clock, stopped after clFinish/cudaStreamSynchronize", ocl_cells[1], cuda_cells[1]});
      table.add_row({"device events around the kernel", ocl_cells[2], cuda_cells[2]});
      std::cout << "\nHow not to time a GPU (" << timer_lesson_ << ", median of " << timed_runs << " runs):\n";
      table.print(std::cout);
    }
  }

  // --- The sections ----------------------------------------------------------
  const CudaDeviceInfo* cuda_for_sections = nullptr;
#ifdef GAUSS_HAVE_CUDA
  if (cuda_device) cuda_for_sections = &*cuda_device;
#endif
  for (const Section* section : sections) {
    // Flushed: in a log (a pipe) the table and each section's header show
    // before the section's runs, not when the program ends.
    std::cout << "\n=== " << section->title << "\n\n" << std::flush;
    SectionContext context{options,
                           input,
                           options.blur,
                           opencl_session.get(),
                           cuda_for_sections,
                           copy_gbps[static_cast<int>(Api::OpenCL)],
                           copy_gbps[static_cast<int>(Api::Cuda)],
                           std::cout,
                           rows};
    try {
      section->run(context);
    } catch (const cl::Error& error) {
      std::cout << section->name << ": ERROR: " << describe(error) << '\n';
      context.failed = true;
    } catch (const InputError&) {
      throw;  // bad options found late are still bad options
    } catch (const std::exception& error) {
      std::cout << section->name << ": ERROR: " << error.what() << '\n';
      context.failed = true;
    }
    if (context.failed) all_ok = false;
  }

  // --- Files -----------------------------------------------------------------
  if (!options.csv.empty()) write_csv(options.csv, info, rows);
  if (!options.json.empty()) write_json(options.json, info, rows);
  if (!options.output.empty()) {
    const VariantResult* chosen = nullptr;
    for (const ApiRun& run : runs)
      for (const VariantResult& r : run.results)
        if (r.ran() && !r.output.pixels.empty()) chosen = &r;  // the last one run
    if (chosen == nullptr) {
      std::cerr << name_ << ": no variant produced an image: " << options.output << " not written\n";
    } else {
      save_png(chosen->output, options.output);
      std::cout << "\nwrote " << options.output << " (" << chosen->name << ", " << name_of(chosen->api) << ")\n";
    }
  }
  return all_ok ? kExitOk : kExitMismatch;
}

}  // namespace gauss
