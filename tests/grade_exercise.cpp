// The exercise grader: runs a chapter's exercise with the student's kernel on
// the photos and on awkward sizes, and says per case whether it passes and,
// where it does not, the first pixel that is wrong.
//
//   grade_exercise --chapter 01_naive --exe build/bin/01_naive --api opencl
//                  --kernel-file exercises/01_naive/blur_naive.cl
//   grade_exercise --chapter 01_naive --exe build/bin/exercises/01_naive --api cuda
//                  --kernel-file exercises/01_naive/blur_naive.cu --build build 01_naive_exercise
//
// CTest runs it (label "exercise"); students run `ctest --test-dir build -L
// exercise`. Each case runs the chapter executable as a student would, with
// --exercise: the executable checks every output pixel against the CPU
// reference (its exit status says whether they match), and on the photos the
// grader also compares the written output with the stored golden image.
//
// Exit status: 0 every case passes; 1 a case fails (or, with
// --expect-failure, none does: the self-check that an untouched starter
// fails); 77 skipped (a CUDA exercise where there is no CUDA device); 2 bad usage.
#include <CLI/CLI.hpp>

#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "gauss/compare.hpp"
#include "gauss/goldens.hpp"
#include "gauss/image.hpp"
#include "gauss/table.hpp"
#include "gauss/variant.hpp"
#ifdef GAUSS_HAVE_CUDA
#include "gauss/cuda.hpp"
#endif

namespace {

constexpr int kSkip = 77;

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

}  // namespace

int main(int argc, char** argv) {
  // CTest gives every test a scratch folder of its own (GAUSS_TEST_SCRATCH):
  // the self-checks of a starter and of its solution run at the same time,
  // and would otherwise read each other's outputs.
  const char* test_scratch = std::getenv("GAUSS_TEST_SCRATCH");
  std::string chapter, exe, api = "opencl", kernel_file, images_dir = GAUSS_IMAGES_DIR,
                            scratch = test_scratch != nullptr ? test_scratch : GAUSS_TEST_SCRATCH_ROOT "/grade";
  std::vector<std::string> build;  // build dir, target
  std::string oclgrind;            // OpenCL: also run the kernel under Oclgrind
  bool expect_failure = false, goldens = true;
  CLI::App app{"Grades a chapter's exercise: the student's kernel on the photos and awkward sizes", "grade_exercise"};
  app.add_option("--chapter", chapter, "The chapter, e.g. 01_naive")->required();
  app.add_option("--exe", exe, "The chapter executable to run (for CUDA: the one built with the student's .cu)")
      ->required();
  app.add_option("--api", api, "opencl or cuda")->check(CLI::IsMember({"opencl", "cuda"}));
  app.add_option("--kernel-file", kernel_file, "The student's kernel file")->required();
  app.add_option("--build", build, "CUDA: build this target first: <build dir> <target>")->expected(2);
  app.add_flag("--expect-failure", expect_failure, "Pass only if the exercise fails (the untouched starter)");
  app.add_flag("!--no-goldens", goldens, "The exercise is not the Gaussian blur: rely on the chapter's own check");
  app.add_option("--oclgrind", oclgrind,
                 "OpenCL: also run the kernel under this Oclgrind (races, divergent barriers, out-of-bounds)");
  app.add_option("--images", images_dir, "The folder of the photos and their goldens");
  app.add_option("--scratch", scratch, "Where the outputs go (default: $GAUSS_TEST_SCRATCH)");
  CLI11_PARSE(app, argc, argv);

  const std::string who = chapter + " exercise (" + (api == "cuda" ? "CUDA" : "OpenCL") + ", " + kernel_file + ")";
  std::cout << "grading " << who << '\n';
  if (api == "cuda") {
#ifdef GAUSS_HAVE_CUDA
    std::string why;
    if (gauss::list_cuda_devices(&why).empty()) {
      std::cout << "SKIP " << who << ": no CUDA device (" << why << ")\n";
      return kSkip;
    }
#else
    std::cout << "SKIP " << who << ": this build has no CUDA (CMake found no CUDA compiler)\n";
    return kSkip;
#endif
  }
  if (!std::filesystem::is_regular_file(kernel_file)) {
    std::cout << "FAIL " << who << ": the file does not exist. `cmake --build build --target exercises` writes the "
              << "starters into the exercises folder; then edit " << kernel_file << '\n';
    return expect_failure ? 0 : 1;
  }
  const int todos = count_todos(kernel_file);
  const std::string todo_hint = todos > 0 ? "hint: " + kernel_file + " still has " + std::to_string(todos) +
                                                " TODO(exercise) block(s): fill them in (chapters/" + chapter +
                                                "/README.md, section Exercise)"
                                          : "hint: run the first failing command below by hand; chapters/" + chapter +
                                                "/README.md, section Exercise, lists the usual mistakes";

  if (api == "cuda") {
    if (!build.empty()) {
      std::string log;
      const std::string command = "cmake --build " + shell_quoted(build[0]) + " --target " + shell_quoted(build[1]);
      std::cout << "building: " << command << '\n';
      if (run_command(command, log, 3600) != 0) {
        std::cout << log << "FAIL " << who << ": it does not compile (the compiler's messages are above)\n";
        return 1;  // a starter must compile: never an expected failure
      }
    }
  }

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
  for (const char* size : {"1x1", "1x37", "37x1", "17x40", "451x300", "1023x769"})
    cases.push_back({std::string(size) + ", sigma 1, radius 2", {"--size", size}, std::nullopt});
  for (const char* size : {"37x23", "63x65"})
    cases.push_back(
        {std::string(size) + ", sigma 3, radius 9", {"--size", size, "--sigma", "3", "--radius", "9"}, std::nullopt});

  std::filesystem::create_directories(scratch);
  int passed = 0, failed = 0, errors = 0, skipped = 0;
  std::string first_failure;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const Case& c = cases[i];
    const std::string output_png = scratch + "/" + chapter + "." + api + ".grade" + std::to_string(i) + ".png";
    std::filesystem::remove(output_png);
    std::string command = shell_quoted(exe) + " --exercise --api " + api + " --repeat 1 --warmup 0";
    if (api == "opencl") command += " --kernel-file " + shell_quoted(kernel_file);
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
  if (failed + errors > 0) {
    std::cout << "FAIL " << who << ": " << failed + errors << " of " << graded << " cases run fail\n"
              << todo_hint << "\nfirst failing command:\n  " << first_failure << '\n';
    if (expect_failure) {
      // The self-check of an untouched starter: it must compile and run, and
      // fail because its output is wrong, not because it is broken.
      if (errors > 0) std::cout << "(expected a wrong output from the starter, not an error)\n";
      return errors > 0 ? 1 : 0;
    }
    return 1;
  }
  if (graded == 0) {
    std::cout << "FAIL " << who << ": no case could be graded (" << skipped << " skipped)\n";
    return 1;
  }
  std::cout << "PASS " << who << ": all " << graded << " cases match";
  if (skipped > 0) std::cout << " (" << skipped << " skipped by the chapter)";
  std::cout << '\n';
  if (expect_failure) {
    std::cout << "(expected the untouched starter to fail: the TODO blocks give the answer away?)\n";
    return 1;
  }
  return 0;
}
