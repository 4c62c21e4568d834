#include "gauss/chapter.hpp"

#include <unistd.h>
#include <algorithm>
#include <ctime>
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>
#include <set>
#include <sstream>

#include "gauss/error.hpp"
#include "gauss/options.hpp"
#include "gauss/reference.hpp"
#include "gauss/table.hpp"
#ifdef GAUSS_HAVE_CUDA
#include "gauss/cuda.hpp"
#endif

namespace gauss {
namespace {

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

// Progress on a terminal only: logs and tests see just the table.
void progress(const std::string& text) {
  static const bool terminal = ::isatty(STDERR_FILENO) != 0;
  if (terminal) std::cerr << text << std::flush;
}

struct ApiRun {
  Api api;
  std::string device;
  std::optional<VariantResult> copy;
  std::vector<VariantResult> results;
};

ResultRow make_row(const VariantResult& result, const std::string& device, const VariantResult* copy,
                   const VariantResult* baseline, bool is_copy) {
  ResultRow row;
  row.variant = result.name;
  row.api = name_of(result.api);
  row.device = device;
  row.runs = result.error.empty() ? result.time.runs() : 0;
  row.median_ms = result.time.median_ms;
  row.min_ms = result.time.min_ms;
  row.max_ms = result.time.max_ms;
  row.gbps = result.gbps();
  row.max_diff = result.comparison.max_abs_diff;
  row.differing = result.comparison.differing;
  row.psnr_db = result.comparison.psnr_db;
  row.ok = result.ok();
  if (!result.error.empty()) {
    row.status = "ERROR";
  } else if (!result.comparison.matches()) {
    row.status = "MISMATCH";
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
  out << "CUDA: not built (CMake found no CUDA compiler at configure time)\n";
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
  Variant v{std::move(name), Api::Cpu, std::move(description), 0, std::move(blur), {}, {}};
  return add(std::move(v));
}

Variant& Chapter::add_opencl(std::string name, std::string description, OpenClSetup setup) {
  Variant v{std::move(name), Api::OpenCL, std::move(description), kFloatTolerance, {}, std::move(setup), {}};
  return add(std::move(v));
}

Variant& Chapter::add_cuda(std::string name, std::string description, CudaSetup setup) {
  Variant v{std::move(name), Api::Cuda, std::move(description), kFloatTolerance, {}, {}, std::move(setup)};
  return add(std::move(v));
}

const Variant* Chapter::find(const std::string& name, Api api) const {
  for (const Variant& v : variants_)
    if (v.name == name && v.api == api) return &v;
  return nullptr;
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
    return kExitOk;
  }
  if (options.list_devices) {
    print_devices(std::cout);
    return kExitOk;
  }

  // --- What to run ---------------------------------------------------------
  for (const std::string& name : options.variants) {
    const bool known =
        std::any_of(variants_.begin(), variants_.end(), [&](const Variant& v) { return v.name == name; });
    if (!known) throw InputError("unknown variant '" + name + "' (--list-variants lists them)");
  }
  auto selected = [&](const Variant& v) {
    const bool named = options.variants.empty() ||
                       std::find(options.variants.begin(), options.variants.end(), v.name) != options.variants.end();
    const bool api_ok = v.api == Api::Cpu || options.api == ApiChoice::All ||
                        (v.api == Api::OpenCL && options.api == ApiChoice::OpenCL) ||
                        (v.api == Api::Cuda && options.api == ApiChoice::Cuda);
    return named && api_ok;
  };
  auto wants = [&](Api api) {
    return std::any_of(variants_.begin(), variants_.end(),
                       [&](const Variant& v) { return v.api == api && selected(v); });
  };
#ifndef GAUSS_HAVE_CUDA
  if (options.api == ApiChoice::Cuda) {
    throw InputError("this build has no CUDA: CMake found no CUDA compiler at configure time (use --api opencl)");
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
  if (options.api == ApiChoice::All) cuda_note = "not built (CMake found no CUDA compiler at configure time)";
#endif

  // --- The input -----------------------------------------------------------
  const std::string input_path = options.input.empty() ? default_input_path() : options.input;
  const ImageFileInfo file = probe_image(input_path);
  const ImageSize size = options.size == "input" ? ImageSize{file.width, file.height} : parse_size(options.size);
  const Image input = resize(load_image(input_path, format_), size.width, size.height);

  // --- The header ----------------------------------------------------------
  // Without an explicit --repeat, a slow device (PoCL) runs fewer times: at
  // most about 2 s of timed runs per variant, and never fewer than 5 runs.
  const RunSettings gpu_settings{options.warmup, options.repeat, options.repeat_given ? 0.0 : 2000.0};
  const RunSettings cpu_settings{0, std::min(options.repeat, 3), 0.0};
  std::ostringstream image_line;
  image_line << input_path << " (" << file.width << "x" << file.height << ", " << file.channels
             << (file.channels == 1 ? " channel" : " channels") << ") as " << name_of(format_);
  if (size.width != file.width || size.height != file.height) image_line << ", resampled to " << to_string(size);
  image_line << " (" << format_fixed(static_cast<double>(input.bytes()) / 1e6, 1) << " MB)";

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

  // --- The reference ---------------------------------------------------------
  progress("computing the CPU reference...");
  HostTimer reference_timer;
  const Image reference = blur_reference(input, options.blur, ReferenceMethod::Direct2D, 0);
  progress(" done\n");
  std::cout << "check:   against the CPU reference (double, " << hardware_threads() << " threads, "
            << format_fixed(reference_timer.elapsed_ms(), 0) << " ms); GPU variants may differ by " << kFloatTolerance
            << " level (float sums)\n";

  // --- The runs --------------------------------------------------------------
  std::vector<ApiRun> runs;
  auto announce = [](const std::string& what) { progress("running " + what + "...\n"); };

  if (wants(Api::Cpu)) {
    ApiRun cpu{Api::Cpu, "host CPU", std::nullopt, {}};
    for (const Variant& v : variants_) {
      if (v.api != Api::Cpu || !selected(v)) continue;
      announce(v.name + " (CPU)");
      cpu.results.push_back(run_cpu_variant(v, input, reference, options.blur, cpu_settings));
    }
    runs.push_back(std::move(cpu));
  }

  // Runners stay alive until the end: the timer lesson reuses their buffers.
  std::unique_ptr<OpenClSession> opencl_session;
  std::unique_ptr<OpenClRunner> opencl_runner;
  if (opencl_device) {
    opencl_session = std::make_unique<OpenClSession>(*opencl_device);
    opencl_runner = std::make_unique<OpenClRunner>(*opencl_session, input);
    ApiRun run{Api::OpenCL, opencl_device->name, std::nullopt, {}};
    announce("copy (OpenCL)");
    run.copy = opencl_runner->copy(gpu_settings);
    for (const Variant& v : variants_) {
      if (v.api != Api::OpenCL || !selected(v)) continue;
      announce(v.name + " (OpenCL)");
      run.results.push_back(opencl_runner->run(v, options.blur, reference, gpu_settings));
    }
    runs.push_back(std::move(run));
  }
#ifdef GAUSS_HAVE_CUDA
  std::unique_ptr<CudaRunner> cuda_runner;
  if (cuda_device) {
    cuda_runner = std::make_unique<CudaRunner>(*cuda_device, input);
    ApiRun run{Api::Cuda, cuda_device->name, std::nullopt, {}};
    announce("copy (CUDA)");
    run.copy = cuda_runner->copy(gpu_settings);
    for (const Variant& v : variants_) {
      if (v.api != Api::Cuda || !selected(v)) continue;
      announce(v.name + " (CUDA)");
      run.results.push_back(cuda_runner->run(v, options.blur, reference, gpu_settings));
    }
    runs.push_back(std::move(run));
  }
#endif
  {
    std::cout << "timing:  GPU: " << options.warmup << " warm-up + " << options.repeat << " timed runs";
    if (gpu_settings.budget_ms > 0) std::cout << " (fewer, at least " << kMinTimedRuns << ", where they take over 2 s)";
    std::cout << ", device events; CPU: " << cpu_settings.repeat << " runs, host clock; the median is reported";
    if (opencl_runner) std::cout << "; OpenCL rotates " << opencl_runner->sets() << " buffer pairs";
#ifdef GAUSS_HAVE_CUDA
    if (cuda_runner) std::cout << "; CUDA rotates " << cuda_runner->sets() << " buffer pairs";
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
  for (const ApiRun& run : runs) {
    const VariantResult* copy = run.copy ? &*run.copy : nullptr;
    if (copy) rows.push_back(make_row(*copy, run.device, copy, nullptr, true));
    for (const VariantResult& r : run.results) rows.push_back(make_row(r, run.device, copy, baseline, false));
  }
  std::cout << "\ntimes in ms; GB/s = (bytes read + bytes written) / median time, 1 GB = 10^9 bytes;"
            << " % of copy = against the copy kernel on the same API; speed-up against " << baseline_name << "\n\n";
  print_results(std::cout, rows);

  bool all_ok = true;
  for (const ApiRun& run : runs) {
    std::vector<const VariantResult*> all;
    if (run.copy) all.push_back(&*run.copy);
    for (const VariantResult& r : run.results) all.push_back(&r);
    for (const VariantResult* r : all) {
      if (r->ok()) continue;
      all_ok = false;
      std::cout << '\n' << r->name << " (" << name_of(r->api) << "): ";
      if (!r->error.empty()) {
        std::cout << "ERROR: " << r->error << '\n';
        continue;
      }
      std::cout << "MISMATCH: " << r->comparison.summary() << '\n';
      for (const ValueDiff& d : r->comparison.first) {
        std::cout << "    (" << d.x << ", " << d.y << ") channel " << d.channel << ": got " << d.got << ", expected "
                  << d.expected << '\n';
      }
    }
  }

  // --- The timer lesson ------------------------------------------------------
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
      if (const Variant* v = find(timer_lesson_, Api::OpenCL); v && opencl_runner && selected(*v))
        fill(opencl_runner->compare_timers(*v, options.blur, gpu_settings), ocl_cells);
#ifdef GAUSS_HAVE_CUDA
      if (const Variant* v = find(timer_lesson_, Api::Cuda); v && cuda_runner && selected(*v))
        fill(cuda_runner->compare_timers(*v, options.blur, gpu_settings), cuda_cells);
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

  // --- Files -----------------------------------------------------------------
  if (!options.csv.empty()) write_csv(options.csv, info, rows);
  if (!options.json.empty()) write_json(options.json, info, rows);
  if (!options.output.empty()) {
    const VariantResult* chosen = nullptr;
    for (const ApiRun& run : runs)
      for (const VariantResult& r : run.results)
        if (r.error.empty() && !r.output.pixels.empty()) chosen = &r;  // the last one run
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
