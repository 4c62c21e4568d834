// The exercise grader: runs a chapter's exercise with the student's kernel on
// the photos and on awkward sizes, says per case whether it passes and, where
// it does not, the first pixel that is wrong; then, on a GPU, times it against
// the chapter's own solution.
//
//   grade_exercise --chapter 05_local_memory --exe build/bin/05_local_memory --api opencl
//                  --kernel-file exercises/05_local_memory/blur_staged.cl
//   grade_exercise --chapter 05_local_memory --exe build/bin/exercises/05_local_memory --api cuda
//                  --solution-exe build/bin/05_local_memory
//                  --kernel-file exercises/05_local_memory/blur_staged.cu --build build 05_local_memory_exercise
//
// CTest runs it (label "exercise"); students run `ctest --test-dir build -R
// NN_name.exercise --output-on-failure`.
//
// Correctness, everywhere. Each case runs the chapter executable as a student
// would, with --exercise: the executable checks every output pixel against
// the CPU reference (its exit status says whether they match), and on the
// photos the grader also compares the written output with the stored golden
// image. OpenCL kernels then run once under Oclgrind (--oclgrind).
//
// Speed, on a GPU only (a CPU device's times say nothing about a GPU: the
// grader says so in one line and grades correctness alone). The student's
// kernel is timed against the chapter's own solution at the benchmark size:
// the chapter executable runs the exercise's variants with the student's
// kernel (OpenCL: --kernel-file; CUDA: the build with the student's .cu) and
// without it (the solution: the chapter as built), three times each,
// alternated, each run with the chapter's own warm-up, buffer rotation and
// median (its --csv rows). Each run also times the copy kernel of the same
// bytes, and each kernel is compared through its % of its own run's copy: the
// ratio of the two medians is the student's time in multiples of the
// solution's, and the step's target is at most kSpeedTarget of it. Being
// relative to the solution in the same grading, the target holds on any GPU,
// and the copy in every run cancels what differs between one process and the
// next (clocks, a warm L2). Separate processes, not one: a chapter's
// --kernel-file replaces its kernel for the whole process (common/src/
// opencl.cpp, replace_opencl_source), so one OpenCL process could time both
// only if the chapter runner (common/src/chapter.cpp) ran a variant with two
// sources; CUDA's solution and student's kernel are two executables anyway;
// alternated processes grade both APIs the same way.
// Only rows with a % of the copy are graded for speed (a blur variant, a sum
// against the copy); an exercise measured otherwise (chapter 08's transfers,
// end to end) is graded for correctness, and the grader says why.
//
// --json FILE (or $GAUSS_GRADE_JSON_DIR/<chapter>.<api>.json) keeps the
// verdicts for an instructor: chapter, API, device, correct, times, ratio to
// the solution, % of the copy, target met (docs/instructor.md).
//
// Exit status: 0 the exercise passes (correct, and fast enough where speed is
// graded); 1 it does not (or, with --expect-failure, the untouched starter does
// not fail as it must; with --expect-slow, a correct kernel meets the target);
// 77 skipped (the student's file does not exist yet, a CUDA exercise where
// there is no CUDA device, a speed test where there is no GPU); 2 bad usage.
#include <CLI/CLI.hpp>

#include <sys/wait.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "gauss/compare.hpp"
#include "gauss/error.hpp"
#include "gauss/goldens.hpp"
#include "gauss/image.hpp"
#include "gauss/opencl.hpp"
#include "gauss/options.hpp"
#include "gauss/table.hpp"
#include "gauss/variant.hpp"
#ifdef GAUSS_HAVE_CUDA
#include "gauss/cuda.hpp"
#endif

namespace {

constexpr int kSkip = 77;

// The step's speed target: the student's kernel may take at most this many
// times the solution's time (each against its own run's copy, medians of
// kSpeedRuns runs each). A quarter of slack: runs of one kernel differ by a
// few per cent, and a student's kernel that does the step's work in another
// order may cost a little more; a kernel without the step's technique costs
// far more (chapter 01's blur inside chapter 05's launch: about 4x).
constexpr double kSpeedTarget = 1.25;
constexpr int kSpeedRuns = 3;

struct Case {
  std::string label;              // what the student sees: "chelsea.png, sigma 1, radius 2"
  std::vector<std::string> args;  // for the chapter executable
  std::optional<gauss::GoldenCase> golden;
};

struct Outcome {
  enum Kind { Pass, Fail, Error, Skip } kind = Pass;
  std::string detail;  // the first wrong pixel, or what went wrong
};

std::string shell_quoted(const std::string& text) {
  std::string out = "'";
  for (char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// Runs a command with stdout and stderr together; returns its exit status
// (-1 when it did not exit normally: a crash).
int run_command(const std::string& command, std::string& output, int seconds = 300) {
  output.clear();
  // Out of coreutils' timeout: a kernel that loops forever, or corrupts the
  // CPU device's heap, must not hang the grading.
  FILE* pipe = popen(("timeout --kill-after=10 " + std::to_string(seconds) + " " + command + " 2>&1").c_str(), "r");
  if (pipe == nullptr) return -1;
  char buffer[4096];
  while (std::fgets(buffer, sizeof buffer, pipe) != nullptr) output += buffer;
  const int status = pclose(pipe);
  if (status == -1 || !WIFEXITED(status)) return -1;
  return WEXITSTATUS(status);
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// The chapter's own verdict, from its report: the first wrong value it lists,
// or its error.
std::string first_problem(const std::string& output) {
  const std::vector<std::string> lines = lines_of(output);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    // "naive (OpenCL): MISMATCH: ...", "naive (OpenCL): ERROR: ...", "01_naive: error: ..."
    if (contains(lines[i], "): MISMATCH") || contains(lines[i], "): ERROR") || contains(lines[i], ": error:")) {
      std::string detail = lines[i];
      // The first listed value follows a mismatch line: "(x, y) channel c: got g, expected e".
      if (!contains(detail, "first at") && i + 1 < lines.size() && contains(lines[i + 1], "channel") &&
          contains(lines[i + 1], "expected"))
        detail += "; first wrong value at " + lines[i + 1].substr(lines[i + 1].find_first_not_of(' '));
      // An OpenCL build failure: the compiler's log follows.
      for (std::size_t j = i + 1; j < lines.size() && j < i + 12 && contains(lines[i], "ERROR"); ++j)
        detail += "\n        " + lines[j];
      return detail;
    }
  }
  return "the chapter reported a failure (run the command below to see its table)";
}

int count_todos(const std::string& path) {
  std::ifstream file(path);
  int todos = 0;
  for (std::string line; std::getline(file, line);)
    if (contains(line, "// TODO(exercise):")) ++todos;
  return todos;
}

gauss::PixelFormat format_with(int channels) {
  return channels == 1 ? gauss::PixelFormat::Gray : channels == 3 ? gauss::PixelFormat::Rgb : gauss::PixelFormat::Rgba;
}

// Milliseconds as the chapters' tables print them: 0.0562, 2.61, 510.3.
std::string format_ms(double ms) { return gauss::format_fixed(ms, ms < 0.1 ? 4 : ms < 10 ? 3 : 1); }

// A share of the copy: 33, 7.2.
std::string format_percent(double percent) { return gauss::format_fixed(percent, percent < 10 ? 1 : 0) + "%"; }

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

// --- The chapter's --csv --------------------------------------------------------
// One line of a CSV file as common/src/table.cpp writes it (a field with a
// comma or a quote is quoted, its quotes doubled).
std::vector<std::string> csv_fields(const std::string& line) {
  std::vector<std::string> fields(1);
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted && c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
      fields.back() += '"';
      ++i;
    } else if (c == '"') {
      quoted = !quoted;
    } else if (c == ',' && !quoted) {
      fields.emplace_back();
    } else if (c != '\r') {
      fields.back() += c;
    }
  }
  return fields;
}

// A row of a chapter's table that can be graded for speed: a kernel timed in
// the same run as the copy of its bytes, with a right output.
struct TimedRow {
  std::string variant;
  std::string format;
  std::string device;
  double median_ms = 0;
  double percent_of_copy = 0;
};

// The speed-gradable rows of one API in a chapter's --csv file; @p others
// collects the names of the rows that are not (no copy to compare with).
std::vector<TimedRow> timed_rows(const std::string& path, const std::string& api, std::vector<std::string>* others) {
  std::ifstream file(path);
  std::string line;
  if (!std::getline(file, line)) return {};
  const std::vector<std::string> header = csv_fields(line);
  auto column = [&](const char* name) -> std::size_t {
    const auto found = std::find(header.begin(), header.end(), name);
    if (found == header.end()) throw std::runtime_error(path + " has no column '" + name + "'");
    return static_cast<std::size_t>(found - header.begin());
  };
  const std::size_t variant = column("variant"), api_column = column("api"), device = column("device"),
                    format = column("format"), reference = column("reference"), runs = column("runs"),
                    median_ms = column("median_ms"), percent = column("percent_of_copy"), status = column("status");
  std::vector<TimedRow> rows;
  while (std::getline(file, line)) {
    const std::vector<std::string> f = csv_fields(line);
    if (f.size() != header.size() || f[api_column] != api || f[reference] == "copy") continue;
    if (f[runs] == "0" || f[status].rfind("ok", 0) != 0) continue;
    if (f[percent].empty()) {
      if (others != nullptr) others->push_back(f[variant]);
      continue;
    }
    rows.push_back({f[variant], f[format], f[device], std::stod(f[median_ms]), std::stod(f[percent])});
  }
  return rows;
}

// --- The speed verdict ------------------------------------------------------------
struct SpeedRow {
  std::string variant;
  std::string format;
  double time_ms = 0;      // the student's kernel: median of its runs' medians
  double solution_ms = 0;  // the solution's
  double percent = 0;      // the student's % of its runs' copy (median)
  double solution_percent = 0;
  double ratio = 0;  // solution % / student %: the student's time in solution times
  bool met() const { return ratio <= kSpeedTarget; }
};

struct Speed {
  bool graded = false;
  std::string note;     // why speed was not graded, or what went wrong
  bool failed = false;  // a timing run failed: the exercise fails
  std::string device;
  std::vector<SpeedRow> rows;
  bool met() const {
    return graded && std::all_of(rows.begin(), rows.end(), [](const SpeedRow& r) { return r.met(); });
  }
};

std::string json_string(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (c == '\n') {
      out += "\\n";
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\u%04x", c);
      out += escaped;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

std::string json_number(double value) {
  if (!std::isfinite(value)) return "null";
  std::ostringstream out;
  out.precision(6);
  out << value;
  return out.str();
}

// What the grader found, for --json.
struct Grade {
  std::string chapter, api, kernel_file, device;
  std::string status;  // pass, fail, slow, skipped
  std::string note;    // the one-line verdict
  std::optional<bool> correct;
  int passed = 0, failed = 0, skipped = 0;
  std::string first_failure;
  Speed speed;
};

void write_json(const std::string& path, const Grade& g) {
  std::ostringstream json;
  json << "{\n  \"chapter\": " << json_string(g.chapter) << ",\n  \"api\": " << json_string(g.api)
       << ",\n  \"kernel_file\": " << json_string(g.kernel_file) << ",\n  \"device\": " << json_string(g.device)
       << ",\n  \"status\": " << json_string(g.status) << ",\n  \"verdict\": " << json_string(g.note)
       << ",\n  \"correct\": " << (g.correct ? (*g.correct ? "true" : "false") : "null")
       << ",\n  \"cases_passed\": " << g.passed << ",\n  \"cases_failed\": " << g.failed
       << ",\n  \"cases_skipped\": " << g.skipped << ",\n  \"first_failing_command\": " << json_string(g.first_failure)
       << ",\n  \"speed_graded\": " << (g.speed.graded ? "true" : "false")
       << ",\n  \"speed_note\": " << json_string(g.speed.note) << ",\n  \"target\": " << json_number(kSpeedTarget)
       << ",\n  \"target_met\": " << (g.speed.graded ? (g.speed.met() ? "true" : "false") : "null")
       << ",\n  \"results\": [";
  for (std::size_t i = 0; i < g.speed.rows.size(); ++i) {
    const SpeedRow& r = g.speed.rows[i];
    json << (i ? "," : "") << "\n    {\"variant\": " << json_string(r.variant)
         << ", \"format\": " << json_string(r.format) << ", \"time_ms\": " << json_number(r.time_ms)
         << ", \"solution_ms\": " << json_number(r.solution_ms) << ", \"ratio_to_solution\": " << json_number(r.ratio)
         << ", \"percent_of_copy\": " << json_number(r.percent)
         << ", \"solution_percent_of_copy\": " << json_number(r.solution_percent)
         << ", \"target_met\": " << (r.met() ? "true" : "false") << "}";
  }
  json << (g.speed.rows.empty() ? "]\n}\n" : "\n  ]\n}\n");
  const std::filesystem::path target(path);
  std::error_code ignored;
  if (target.has_parent_path()) std::filesystem::create_directories(target.parent_path(), ignored);
  std::ofstream file(path, std::ios::binary);
  file << json.str();
  if (!file) std::cout << "(could not write " << path << ")\n";
}

}  // namespace

int main(int argc, char** argv) {
  // CTest gives every test a scratch folder of its own (GAUSS_TEST_SCRATCH):
  // the self-checks of a starter and of its solution run at the same time,
  // and would otherwise read each other's outputs.
  const char* test_scratch = std::getenv("GAUSS_TEST_SCRATCH");
  std::string chapter, exe, solution_exe,
      api = "opencl", kernel_file, images_dir = GAUSS_IMAGES_DIR,
      scratch = test_scratch != nullptr ? test_scratch : GAUSS_TEST_SCRATCH_ROOT "/grade";
  std::vector<std::string> build;  // build dir, target
  std::string oclgrind;            // OpenCL: also run the kernel under Oclgrind
  std::string json_path, speed_size = gauss::kBenchmarkSize;
  int device = -1;
  bool expect_failure = false, expect_slow = false, require_speed = false, no_speed = false, goldens = true,
       speed_anywhere = false;
  CLI::App app{
      "Grades a chapter's exercise: the student's kernel on the photos and awkward sizes, and on a GPU its "
      "speed against the chapter's solution",
      "grade_exercise"};
  app.add_option("--chapter", chapter, "The chapter, e.g. 01_naive")->required();
  app.add_option("--exe", exe, "The chapter executable to run (for CUDA: the one built with the student's .cu)")
      ->required();
  app.add_option("--solution-exe", solution_exe,
                 "The chapter built with its own solution, the speed's yardstick (default: --exe, run without "
                 "--kernel-file: right for OpenCL)");
  app.add_option("--api", api, "opencl or cuda")->check(CLI::IsMember({"opencl", "cuda"}));
  app.add_option("--kernel-file", kernel_file, "The student's kernel file")->required();
  app.add_option("--build", build, "CUDA: build this target first: <build dir> <target>")->expected(2);
  app.add_option("--device", device, "The device, as the chapters' --device (default: theirs)");
  app.add_flag("--expect-failure", expect_failure, "Pass only if the exercise fails (the untouched starter)");
  app.add_flag("--expect-slow", expect_slow,
               "Pass only if the exercise is correct but misses the speed target (the grader's own test; skipped "
               "where speed is not graded)");
  app.add_flag("--require-speed", require_speed, "Skip (77) where speed cannot be graded (no GPU)");
  app.add_flag("--no-speed", no_speed, "Grade correctness only (the self-checks, which run side by side)");
  app.add_flag("--speed-anywhere", speed_anywhere,
               "Grade speed on a device that is not a GPU too (to test the grader itself: a CPU's times say nothing "
               "about a GPU's)");
  app.add_option("--speed-size", speed_size, "The image size the speed runs blur (default: the benchmark's)");
  app.add_flag("!--no-goldens", goldens, "The exercise is not the Gaussian blur: rely on the chapter's own check");
  app.add_option("--oclgrind", oclgrind,
                 "OpenCL: also run the kernel under this Oclgrind (races, divergent barriers, out-of-bounds)");
  app.add_option("--images", images_dir, "The folder of the photos and their goldens");
  app.add_option("--scratch", scratch, "Where the outputs go (default: $GAUSS_TEST_SCRATCH)");
  app.add_option("--json", json_path,
                 "Write the verdicts to this JSON file (default: $GAUSS_GRADE_JSON_DIR/<chapter>.<api>.json where "
                 "that variable is set)");
  CLI11_PARSE(app, argc, argv);
  if (expect_slow) require_speed = true;
  if (solution_exe.empty()) solution_exe = exe;
  const char* json_dir = std::getenv("GAUSS_GRADE_JSON_DIR");
  if (json_path.empty() && json_dir != nullptr && *json_dir != '\0') {
    std::filesystem::create_directories(json_dir);
    json_path = std::string(json_dir) + "/" + chapter + "." + api + ".json";
  }

  const std::string api_name = api == "cuda" ? "CUDA" : "OpenCL";
  const std::string who = chapter + " exercise (" + api_name + ", " + kernel_file + ")";
  Grade grade;
  grade.chapter = chapter;
  grade.api = api_name;
  grade.kernel_file = kernel_file;
  // Every way out: the line, the JSON file, the exit status.
  auto finish = [&](int status, const std::string& word, const std::string& line) {
    grade.status = word;
    grade.note = line;
    std::cout << line << '\n';
    if (!json_path.empty()) write_json(json_path, grade);
    return status;
  };
  std::cout << "grading " << who << '\n';

  // --- Where it can run, and whether speed can be graded there ---------------------
  std::string device_arg = device >= 0 ? " --device " + std::to_string(device) : "";
  bool gpu = false;
  if (api == "cuda") {
#ifdef GAUSS_HAVE_CUDA
    std::string why;
    const std::vector<gauss::CudaDeviceInfo> devices = gauss::list_cuda_devices(&why);
    if (devices.empty()) return finish(kSkip, "skipped", "SKIP " + who + ": no CUDA device (" + why + ")");
    grade.device = devices[static_cast<std::size_t>(std::max(device, 0)) % devices.size()].name;
    gpu = true;
#else
    return finish(kSkip, "skipped", "SKIP " + who + ": this build has no CUDA (" GAUSS_NO_CUDA_REASON ")");
#endif
  } else {
    try {
      const gauss::OpenClDeviceInfo info = gauss::select_opencl_device(device);
      grade.device = info.name;
      gpu = info.is_gpu;
    } catch (const std::exception& error) {
      grade.device = std::string("none (") + error.what() + ")";
    }
  }
  const bool time_it = !no_speed && !expect_failure && (gpu || speed_anywhere);
  if (require_speed && !time_it) {
    return finish(kSkip, "skipped",
                  "SKIP " + who + ": speed is graded only on a GPU, and " + grade.device + " is not one");
  }

  if (!std::filesystem::is_regular_file(kernel_file)) {
    if (expect_failure) {
      return finish(1, "fail", "FAIL " + who + ": the starter does not exist (the build writes it: part of 'all')");
    }
    return finish(kSkip, "skipped",
                  "SKIP " + who +
                      ": skipped: generate the starters with cmake --build build --target exercises, "
                      "then edit " +
                      kernel_file);
  }
  const int todos = count_todos(kernel_file);
  const std::string todo_hint = todos > 0 ? "hint: " + kernel_file + " still has " + std::to_string(todos) +
                                                " TODO(exercise) block(s): fill them in (chapters/" + chapter +
                                                "/README.md, section Exercise)"
                                          : "hint: run the first failing command below by hand; chapters/" + chapter +
                                                "/README.md, section Exercise, lists the usual mistakes";

  if (!build.empty()) {
    std::string log;
    const std::string command = "cmake --build " + shell_quoted(build[0]) + " --target " + shell_quoted(build[1]);
    std::cout << "building: " << command << '\n';
    if (run_command(command, log, 3600) != 0) {
      std::cout << log;
      grade.correct = false;
      // A starter must compile: never an expected failure.
      return finish(1, "fail", "FAIL " + who + ": it does not compile (the compiler's messages are above)");
    }
  }

  // --- Correctness ---------------------------------------------------------------
  // The cases: every photo at both stored blurs (golden images), then sizes
  // that are not multiples of any work-group, lines one pixel thin, one pixel.
  std::vector<Case> cases;
  // The stored goldens' photos and blurs (one case for each; the output's
  // format picks the golden image below).
  for (const gauss::GoldenCase& golden : gauss::golden_cases()) {
    if (golden.format != gauss::PixelFormat::Gray) continue;
    const gauss::BlurSpec& blur = golden.blur;
    Case c;
    c.label =
        golden.photo + ", sigma " + gauss::format_fixed(blur.sigma, 0) + ", radius " + std::to_string(blur.radius);
    c.args = {"--input", golden.photo_path(images_dir),      "--size",   "input",
              "--sigma", gauss::format_fixed(blur.sigma, 1), "--radius", std::to_string(blur.radius)};
    if (goldens) c.golden = golden;
    cases.push_back(c);
  }
  // (100 x 75: rows of whole 32-bit words, but not of 8 or 16 pixels: the
  // word paths of chapters 03 and 05 meet the right edge mid-group.)
  for (const char* size : {"1x1", "1x37", "37x1", "17x40", "100x75", "451x300", "1023x769"})
    cases.push_back({std::string(size) + ", sigma 1, radius 2", {"--size", size}, std::nullopt});
  for (const char* size : {"37x23", "63x65"})
    cases.push_back(
        {std::string(size) + ", sigma 3, radius 9", {"--size", size, "--sigma", "3", "--radius", "9"}, std::nullopt});

  // The chapter executable running the exercise's variants with the
  // student's kernel (OpenCL: --kernel-file; CUDA: --exe is the student's build).
  const std::string student_run = shell_quoted(exe) + " --exercise --api " + api + device_arg +
                                  (api == "opencl" ? " --kernel-file " + shell_quoted(kernel_file) : std::string());

  std::filesystem::create_directories(scratch);
  int passed = 0, failed = 0, errors = 0, skipped = 0;
  std::string first_failure;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const Case& c = cases[i];
    const std::string output_png = scratch + "/" + chapter + "." + api + ".grade" + std::to_string(i) + ".png";
    std::filesystem::remove(output_png);
    std::string command = student_run + " --repeat 1 --warmup 0";
    for (const std::string& arg : c.args) command += " " + shell_quoted(arg);
    command += " --output " + shell_quoted(output_png);

    std::string output;
    const int status = run_command(command, output);
    Outcome outcome;
    if (status == 0 && contains(output, "skipped:")) {
      outcome = {Outcome::Skip, "the chapter skips this case (see its table)"};
    } else if (status == 0) {
      outcome = {Outcome::Pass, ""};
    } else if (status == 1 && contains(output, "): MISMATCH")) {
      outcome = {Outcome::Fail, first_problem(output)};
    } else if (status == 124 || status == 137) {
      outcome = {Outcome::Error, "did not finish in 300 s (a kernel that never ends?)"};
    } else if (status < 0 || status >= 128) {
      outcome = {Outcome::Error, "the chapter crashed (exit status " + std::to_string(status) +
                                     "): an out-of-bounds access? run the command below under Oclgrind"};
    } else {
      outcome = {Outcome::Error, first_problem(output)};
    }
    // On a photo, the output must also be the stored golden image.
    if (outcome.kind == Outcome::Pass && c.golden && std::filesystem::exists(output_png)) {
      gauss::GoldenCase golden = *c.golden;
      golden.format = format_with(gauss::probe_image(output_png).channels);
      const std::string golden_png = golden.golden_path(images_dir);
      if (std::filesystem::exists(golden_png)) {
        const gauss::Comparison comparison =
            gauss::compare_images(gauss::load_image(output_png, golden.format),
                                  gauss::load_image(golden_png, golden.format), gauss::kFloatTolerance);
        if (!comparison.matches()) {
          outcome = {Outcome::Fail, "differs from the golden " + golden_png + ": " + comparison.summary()};
          if (!comparison.first.empty()) {
            const gauss::ValueDiff& d = comparison.first.front();
            outcome.detail += "; first wrong value at (" + std::to_string(d.x) + ", " + std::to_string(d.y) +
                              ") channel " + std::to_string(d.channel) + ": got " + gauss::format_fixed(d.got, 0) +
                              ", expected " + gauss::format_fixed(d.expected, 0);
          }
        }
      }
    }
    std::filesystem::remove(output_png);

    static const char* const kWords[] = {"PASS ", "FAIL ", "ERROR", "SKIP "};
    std::cout << "  " << kWords[outcome.kind] << "  " << c.label;
    if (!outcome.detail.empty()) std::cout << ": " << outcome.detail;
    std::cout << '\n';
    switch (outcome.kind) {
      case Outcome::Pass:
        ++passed;
        break;
      case Outcome::Skip:
        ++skipped;
        break;
      case Outcome::Fail:
        ++failed;
        break;
      case Outcome::Error:
        ++errors;
        break;
    }
    if (outcome.kind == Outcome::Fail || outcome.kind == Outcome::Error) {
      if (first_failure.empty()) first_failure = command;
      // An untouched starter only has to fail once; stop there.
      if (expect_failure) break;
    }
  }

  // Last, where the outputs were right: the kernel under Oclgrind on a small
  // awkward image. Some mistakes give right outputs on one device and wrong
  // ones on another (a barrier in divergent code, a race that the CPU's
  // order of work-items hides); the simulator reports them, and any finding fails.
  if (!oclgrind.empty() && api == "opencl" && !(expect_failure && failed + errors > 0)) {
    const std::string log = scratch + "/" + chapter + ".grade.oclgrind.log";
    std::filesystem::remove(log);
    const std::string command = shell_quoted(oclgrind) + " --data-races --uninitialized --check-api --log " +
                                shell_quoted(log) + " " + shell_quoted(exe) +
                                " --exercise --api opencl --repeat 1 --warmup 0 --kernel-file " +
                                shell_quoted(kernel_file) + " --size 37x23";
    std::string output;
    const int status = run_command(command, output);
    std::string findings;
    if (std::ifstream in{log}) findings.assign(std::istreambuf_iterator<char>(in), {});
    if (status == 0 && findings.empty()) {
      std::cout << "  PASS   37x23 under Oclgrind (races, divergent barriers, out-of-bounds, uninitialised values)\n";
      ++passed;
    } else {
      const std::vector<std::string> finding_lines = lines_of(findings.empty() ? first_problem(output) : findings);
      std::string detail;
      int shown = 0;
      for (std::size_t i = 0; i < finding_lines.size() && shown < 6; ++i) {
        if (finding_lines[i].find_first_not_of(" \t") == std::string::npos) continue;
        detail += "\n        " + finding_lines[i];
        ++shown;
      }
      std::cout << "  FAIL   37x23 under Oclgrind:" << detail << '\n';
      ++failed;
      if (first_failure.empty()) first_failure = command;
    }
  }

  const int graded = passed + failed + errors;
  grade.passed = passed;
  grade.failed = failed + errors;
  grade.skipped = skipped;
  grade.first_failure = first_failure;
  if (failed + errors > 0) {
    grade.correct = false;
    std::cout << todo_hint << "\nfirst failing command:\n  " << first_failure << '\n';
    const std::string line =
        "FAIL " + who + ": " + std::to_string(failed + errors) + " of " + std::to_string(graded) + " cases run fail";
    if (expect_failure) {
      // The self-check of an untouched starter: it must compile and run, and
      // fail because its output is wrong, not because it is broken.
      if (errors > 0) std::cout << "(expected a wrong output from the starter, not an error)\n";
      return finish(errors > 0 ? 1 : 0, "fail", line);
    }
    return finish(1, "fail", line);
  }
  if (graded == 0) {
    return finish(1, "fail", "FAIL " + who + ": no case could be graded (" + std::to_string(skipped) + " skipped)");
  }
  grade.correct = true;
  std::string correct_line = "all " + std::to_string(graded) + " cases match";
  if (skipped > 0) correct_line += " (" + std::to_string(skipped) + " skipped by the chapter)";
  if (expect_failure) {
    std::cout << "(expected the untouched starter to fail: the TODO blocks give the answer away?)\n";
    return finish(1, "pass", "PASS " + who + ": " + correct_line);
  }

  // --- Speed ---------------------------------------------------------------------
  Speed& speed = grade.speed;
  if (no_speed) {
    speed.note = "not graded (--no-speed)";
  } else if (!time_it) {
    speed.note = "speed is graded only on a GPU, and " + grade.device + " is not one: correctness only";
    std::cout << "speed: not graded: " << speed.note << '\n';
  } else {
    const std::string solution_run = shell_quoted(solution_exe) + " --exercise --api " + api + device_arg;
    struct Samples {
      std::vector<double> ms, percent, solution_ms, solution_percent;
    };
    std::map<std::pair<std::string, std::string>, Samples> samples;  // by (variant, format), in the table's order
    std::vector<std::pair<std::string, std::string>> order;
    bool stop = false;
    for (int k = 0; k < kSpeedRuns && !stop; ++k) {
      for (const bool solution : {true, false}) {
        const std::string csv = scratch + "/" + chapter + "." + api + ".speed" + std::to_string(k) +
                                (solution ? ".solution" : ".yours") + ".csv";
        std::filesystem::remove(csv);
        const std::string command = (solution ? solution_run : student_run) + " --size " + shell_quoted(speed_size) +
                                    " --csv " + shell_quoted(csv);
        std::string output;
        std::vector<std::string> others;
        std::vector<TimedRow> rows;
        std::string problem;
        if (run_command(command, output) != 0) {
          problem = first_problem(output);
        } else {
          try {
            rows = timed_rows(csv, api_name, &others);
          } catch (const std::exception& error) {
            problem = std::string("its table could not be read: ") + error.what();
          }
        }
        std::filesystem::remove(csv);
        if (!problem.empty()) {
          // Yours: a wrong output at the benchmark size fails the exercise.
          // The solution's: the grading itself could not run.
          speed.failed = true;
          if (!solution) grade.correct = false;
          speed.note = std::string(solution ? "the solution's" : "your kernel's") + " run at " + speed_size +
                       " failed: " + problem;
          first_failure = command;
          stop = true;
          break;
        }
        if (rows.empty()) {
          // Nothing timed against the copy: a section measured otherwise
          // (chapter 08's transfers, end to end).
          std::string names;
          for (std::size_t i = 0; i < others.size() && i < 3; ++i) names += (i ? ", " : "") + others[i];
          if (others.size() > 3) names += ", ...";
          speed.note = "not graded: this exercise's measurements (" + (names.empty() ? "none" : names) +
                       ") are not kernel times against the copy";
          stop = true;
          break;
        }
        if (k == 0 && solution) {
          std::cout << "speed: " << kSpeedRuns << " runs of the solution and " << kSpeedRuns
                    << " of yours, alternated, at " << speed_size << " on " << rows.front().device
                    << "; this step's target: at most " << gauss::format_fixed(kSpeedTarget, 2)
                    << "x the solution's time\n";
        }
        std::cout << "  run " << 2 * k + (solution ? 1 : 2) << " of " << 2 * kSpeedRuns << ", "
                  << (solution ? "the solution:" : "yours:       ");
        for (const TimedRow& row : rows)
          std::cout << "  " << row.variant << " " << format_ms(row.median_ms) << " ms ("
                    << format_percent(row.percent_of_copy) << " of the copy)";
        std::cout << '\n' << std::flush;
        for (const TimedRow& row : rows) {
          const auto key = std::make_pair(row.variant, row.format);
          if (samples.find(key) == samples.end()) order.push_back(key);
          Samples& s = samples[key];
          (solution ? s.solution_ms : s.ms).push_back(row.median_ms);
          (solution ? s.solution_percent : s.percent).push_back(row.percent_of_copy);
          if (speed.device.empty()) speed.device = row.device;
        }
      }
    }
    if (!speed.failed) {
      for (const auto& key : order) {
        const Samples& s = samples[key];
        if (s.ms.empty() || s.solution_ms.empty()) continue;
        SpeedRow row;
        row.variant = key.first;
        row.format = key.second;
        row.time_ms = median(s.ms);
        row.solution_ms = median(s.solution_ms);
        row.percent = median(s.percent);
        row.solution_percent = median(s.solution_percent);
        row.ratio = row.percent > 0 ? row.solution_percent / row.percent : HUGE_VAL;
        speed.rows.push_back(row);
      }
      speed.graded = !speed.rows.empty();
      if (speed.graded) speed.note.clear();
      if (!speed.device.empty()) grade.device = speed.device;
    }
    if (!speed.graded && !speed.failed) std::cout << "speed: " << speed.note << '\n';
    for (const SpeedRow& r : speed.rows) {
      const bool shared_name = std::count_if(speed.rows.begin(), speed.rows.end(),
                                             [&](const SpeedRow& other) { return other.variant == r.variant; }) > 1;
      std::cout << "  " << r.variant << (shared_name ? " (" + r.format + ")" : "") << ": correct; "
                << format_ms(r.time_ms) << " ms = " << gauss::format_fixed(r.ratio, 2) << "x the solution's time, "
                << format_percent(r.percent) << " of the copy: ";
      if (r.met()) {
        std::cout << "meets this step's target\n";
      } else {
        std::cout << "misses this step's target (at most " << gauss::format_fixed(kSpeedTarget, 2)
                  << "x; the solution: " << format_ms(r.solution_ms) << " ms, " << format_percent(r.solution_percent)
                  << " of the copy)\n";
      }
    }
  }

  if (speed.failed) {
    std::cout << "first failing command:\n  " << first_failure << '\n';
    return finish(1, "fail", "FAIL " + who + ": " + speed.note);
  }
  if (!speed.graded) {
    if (require_speed) return finish(kSkip, "skipped", "SKIP " + who + ": " + correct_line + "; speed " + speed.note);
    return finish(0, "pass", "PASS " + who + ": " + correct_line);
  }
  const std::string target =
      " this step's speed target (at most " + gauss::format_fixed(kSpeedTarget, 2) + "x the solution's time)";
  if (speed.met()) {
    const std::string line = "PASS " + who + ": " + correct_line + "; on " + grade.device + " it meets" + target;
    if (expect_slow) {
      std::cout << "(expected a kernel slower than the target: is it the slow one?)\n";
      return finish(1, "pass", line);
    }
    return finish(0, "pass", line);
  }
  const std::string line = "SLOW " + who + ": " + correct_line + ", but on " + grade.device + " it misses" + target;
  if (!expect_slow) {
    std::cout << "hint: correct, not yet the step: chapters/" << chapter
              << "/README.md says what makes the solution fast; compare yours with it\n";
  }
  return finish(expect_slow ? 0 : 1, "slow", line);
}
