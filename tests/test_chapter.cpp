// The chapter program itself: references, pixel formats, known-bug variants
// and sections, driven through Chapter::run() with CPU variants only.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "gauss/chapter.hpp"
#include "gauss/error.hpp"
#include "gauss/opencl.hpp"
#include "gauss/options.hpp"
#include "gauss/reference.hpp"
#include "support.hpp"

using gauss::Chapter;
using gauss::Image;
using gauss::PixelFormat;

namespace {

// Runs @p chapter on a small photo, CPU only, and returns its exit status;
// @p printed receives what it printed.
int run(const Chapter& chapter, std::vector<std::string> extra, std::string& printed) {
  const std::string photo = gauss::test::images_dir() + "/chelsea.png";
  std::vector<std::string> words{"test", "--input", photo, "--size", "45x30", "--repeat", "1"};
  words.insert(words.end(), extra.begin(), extra.end());
  return gauss::test::run_captured(chapter, words, printed);
}

void blur(const Image& in, Image& out, const gauss::BlurSpec& spec) { gauss::blur_reference(in, out, spec); }
void copy(const Image& in, Image& out, const gauss::BlurSpec&) { out = in; }

}  // namespace

TEST_CASE("a known-bug variant must mismatch, and then does not fail the run", "[chapter]") {
  Chapter chapter("test", "a test chapter");
  chapter.add_cpu("right", "the blur", blur);
  chapter.add_cpu("wrong", "no blur at all", copy).known_bug = "it forgets to blur";
  std::string printed;
  CHECK(run(chapter, {"--api", "opencl", "--variant", "right", "--variant", "wrong"}, printed) == gauss::kExitOk);
  CHECK_THAT(printed, Catch::Contains("MISMATCH (known bug)"));
  CHECK_THAT(printed, Catch::Contains("it forgets to blur"));

  Chapter fixed("test", "a test chapter");
  fixed.add_cpu("right", "the blur", blur).known_bug = "claims a bug it does not have";
  CHECK(run(fixed, {"--variant", "right", "--api", "opencl"}, printed) == gauss::kExitMismatch);
  CHECK_THAT(printed, Catch::Contains("UNEXPECTED MATCH"));
}

TEST_CASE("an ordinary mismatch fails the run with status 1", "[chapter]") {
  Chapter chapter("test", "a test chapter");
  chapter.add_cpu("wrong", "no blur at all", copy);
  std::string printed;
  CHECK(run(chapter, {"--variant", "wrong", "--api", "opencl"}, printed) == gauss::kExitMismatch);
  CHECK_THAT(printed, Catch::Contains("MISMATCH: max diff"));
}

TEST_CASE("variants can name another reference and another pixel format", "[chapter]") {
  Chapter chapter("test", "a test chapter");
  chapter.add_reference("identity", "the input itself", [](const Image& in, const gauss::BlurSpec&) { return in; });
  gauss::Variant& v = chapter.add_cpu("copy_rgb", "a copy of an RGB image", copy);
  v.reference = "identity";
  v.format = PixelFormat::Rgb;
  chapter.add_cpu("blur", "the blur, gray", blur);
  std::string printed;
  CHECK(run(chapter, {"--variant", "copy_rgb", "--variant", "blur", "--api", "opencl"}, printed) == gauss::kExitOk);
  CHECK_THAT(printed, Catch::Contains("as gray and RGB"));
  CHECK_THAT(printed, Catch::Contains("RGB outputs against the input itself"));
  CHECK(chapter.format_of(v) == PixelFormat::Rgb);
  CHECK(chapter.format_of(*chapter.find("blur", gauss::Api::Cpu)) == PixelFormat::Gray);
}

TEST_CASE("sections run after the table and can fail the run", "[chapter]") {
  Chapter chapter("test", "a test chapter");
  chapter.add_cpu("blur", "the blur", blur);
  int ran = 0;
  chapter.add_section("passes", "a section that passes", [&](gauss::SectionContext& c) {
    ++ran;
    CHECK(c.input.width == 45);
    c.out << "section output\n";
  });
  chapter.add_section(
      "fails", "a section whose check fails",
      [&](gauss::SectionContext& c) {
        ++ran;
        c.failed = true;
      },
      Chapter::SectionRuns::OnRequest);
  std::string printed;
  CHECK(run(chapter, {"--variant", "passes", "--api", "opencl"}, printed) == gauss::kExitOk);
  CHECK(ran == 1);
  CHECK_THAT(printed, Catch::Contains("=== a section that passes"));
  CHECK_THAT(printed, Catch::Contains("section output"));
  CHECK(run(chapter, {"--variant", "fails", "--api", "opencl"}, printed) == gauss::kExitMismatch);
  CHECK(ran == 2);
  CHECK(run(chapter, {"--api", "opencl"}, printed) == gauss::kExitOk);  // "fails" runs only on request
  CHECK(ran == 3);

  std::string names;
  CHECK(gauss::test::run_captured(chapter, {"test", "--list-variants"}, names) == gauss::kExitOk);
  CHECK(names == "blur\npasses\nfails\n");
}

TEST_CASE("a variant the device cannot run is skipped with its reason, not failed", "[chapter]") {
  Chapter chapter("test", "a test chapter");
  chapter.add_cpu("blur", "the blur", blur);
  chapter.add_cpu("impossible", "needs what this device lacks", [](const Image&, Image&, const gauss::BlurSpec&) {
    throw gauss::Unsupported("this device has no such feature");
  });
  std::string printed;
  CHECK(run(chapter, {"--api", "opencl", "--variant", "blur", "--variant", "impossible"}, printed) == gauss::kExitOk);
  CHECK_THAT(printed, Catch::Contains("impossible (CPU): skipped: this device has no such feature"));
  // A result that was skipped never compared anything: it cannot count as a match.
  CHECK_FALSE(gauss::Comparison{}.matches());
}

TEST_CASE("an external variant's differences are reported, never failed", "[chapter]") {
  Chapter chapter("test", "a test chapter");
  chapter.add_cpu("library", "someone else's blur, slightly different", copy).external = true;
  std::string printed;
  CHECK(run(chapter, {"--api", "opencl", "--variant", "library"}, printed) == gauss::kExitOk);
  CHECK_THAT(printed, Catch::Contains("differs (external)"));
  CHECK_THAT(printed, Catch::Contains("not our code"));
}

TEST_CASE("without --size, the benchmark size where a GPU runs, a sixteenth of it where only the CPU does",
          "[chapter]") {
  Chapter chapter("test", "a test chapter");
  chapter.add_cpu("right", "the blur", blur);
  // A chapter of CPU variants alone opens no device; a section that may use
  // the OpenCL device makes it open one, so the size follows that device.
  chapter.add_section("device", "opens the OpenCL device", [](gauss::SectionContext&) {});
  const std::string photo = gauss::test::images_dir() + "/chelsea.png";
  std::string printed;
  const int status =
      gauss::test::run_captured(chapter, {"test", "--input", photo, "--api", "opencl", "--repeat", "1"}, printed);
  INFO(printed);
  CHECK(status == gauss::kExitOk);
  // Device 0, the default, is a GPU wherever there is one.
  const std::vector<gauss::OpenClDeviceInfo> devices = gauss::list_opencl_devices();
  REQUIRE_FALSE(devices.empty());
  if (devices.front().is_gpu) {
    CHECK_THAT(printed, Catch::Contains(std::string("resampled to ") + gauss::kBenchmarkSize));
    CHECK_THAT(printed, !Catch::Contains("size:    "));
  } else {
    CHECK_THAT(printed, Catch::Contains(std::string("resampled to ") + gauss::kCpuSize));
    CHECK_THAT(printed, Catch::Contains(std::string("size:    ") + gauss::kCpuSize + ", 1/16 of the benchmark's " +
                                        gauss::kBenchmarkSize));
  }
}
