#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "gauss/error.hpp"
#include "gauss/options.hpp"

namespace {

// Parses a command line given as words (the program name is added).
gauss::Options parse(std::vector<std::string> words) {
  std::vector<const char*> argv{"test"};
  for (const std::string& w : words) argv.push_back(w.c_str());
  gauss::Options options;
  gauss::parse_options(static_cast<int>(argv.size()), argv.data(), "test", "a test", options);
  return options;
}

}  // namespace

TEST_CASE("defaults: all APIs, the benchmark size, sigma 1, radius 2", "[options]") {
  const gauss::Options o = parse({});
  CHECK(o.api == gauss::ApiChoice::All);
  CHECK(o.size == "6720x4480");
  CHECK(o.blur.sigma == 1.0);
  CHECK(o.blur.radius == 2);
  CHECK(o.device == -1);
  CHECK(o.repeat == 20);
  CHECK_FALSE(o.repeat_given);
  CHECK(o.warmup == 3);
  CHECK(o.variants.empty());
}

TEST_CASE("every shared option is read", "[options]") {
  const gauss::Options o = parse({"--input",   "a.png",  "--output",       "b.png",
                                  "--api",     "CUDA",   "--device",       "1",
                                  "--variant", "naive",  "--variant",      "cpu_single",
                                  "--sigma",   "2.5",    "--radius",       "7",
                                  "--size",    "input",  "--repeat",       "5",
                                  "--warmup",  "0",      "--csv",          "r.csv",
                                  "--json",    "r.json", "--list-devices", "--list-variants"});
  CHECK(o.input == "a.png");
  CHECK(o.output == "b.png");
  CHECK(o.api == gauss::ApiChoice::Cuda);
  CHECK(o.device == 1);
  CHECK(o.variants == std::vector<std::string>{"naive", "cpu_single"});
  CHECK(o.blur.sigma == 2.5);
  CHECK(o.blur.radius == 7);
  CHECK(o.size == "input");
  CHECK(o.repeat == 5);
  CHECK(o.repeat_given);
  CHECK(o.warmup == 0);
  CHECK(o.csv == "r.csv");
  CHECK(o.json == "r.json");
  CHECK(o.list_devices);
  CHECK(o.list_variants);
}

TEST_CASE("bad options are InputErrors with one-line messages", "[options]") {
  const std::vector<std::vector<std::string>> bad{
      {"--radius", "-1"}, {"--radius", "17"}, {"--radius", "two"}, {"--sigma", "0"},  {"--api", "vulkan"},
      {"--repeat", "0"},  {"--warmup", "-1"}, {"--bogus"},         {"--device", "x"}, {"stray"}};
  for (const auto& words : bad) {
    INFO(words.front() << (words.size() > 1 ? " " + words[1] : ""));
    try {
      parse(words);
      FAIL("accepted");
    } catch (const gauss::InputError& error) {
      const std::string message = error.what();
      CHECK_FALSE(message.empty());
      CHECK(message.find('\n') == std::string::npos);
    }
  }
}

TEST_CASE("--help asks the caller to exit with 0", "[options]") {
  std::vector<const char*> argv{"test", "--help"};
  gauss::Options options;
  CHECK(gauss::parse_options(2, argv.data(), "test", "a test", options) == gauss::ParseOutcome::ExitOk);
}
