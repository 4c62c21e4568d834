// Helpers shared by the tests: where the images are, awkward sizes, seeded
// random images, and running a chapter program in-process.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "gauss/chapter.hpp"
#include "gauss/image.hpp"

namespace gauss::test {

/// The repository's images/ folder.
inline std::string images_dir() { return GAUSS_IMAGES_DIR; }

/// This test's own scratch folder, created if missing. CTest gives every test
/// a folder of its own in GAUSS_TEST_SCRATCH (tests/CMakeLists.txt), so tests
/// that run at the same time never write the same file; a test binary run by
/// hand writes under <build>/tests/scratch/by_hand.
inline std::string scratch_dir() {
  const char* own = std::getenv("GAUSS_TEST_SCRATCH");
  const std::string folder = own != nullptr ? own : GAUSS_TEST_SCRATCH_ROOT "/by_hand";
  std::filesystem::create_directories(folder);
  return folder;
}

/// Sizes that break kernels written for the easy case: single pixels, single
/// rows and columns, odd widths, and sizes that are not multiples of any
/// work-group or tile (16, 32) in either direction.
inline std::vector<ImageSize> awkward_sizes() {
  return {{1, 1}, {1, 37}, {37, 1}, {2, 3}, {17, 15}, {33, 31}, {451, 300}, {1023, 769}, {16, 16}, {100, 1}};
}

/// The fixed seed of every random image; printed by the tests that use it.
inline constexpr std::uint32_t kSeed = 20261121;

/// A width x height image of uniformly random bytes (alpha included): every
/// pixel differs from its neighbours, so an off-by-one read cannot hide.
inline Image random_image(int width, int height, PixelFormat format, std::uint32_t seed = kSeed) {
  Image image = Image::make(width, height, format);
  std::mt19937 rng(seed ^ static_cast<std::uint32_t>(width * 7919 + height));
  std::uniform_int_distribution<int> byte(0, 255);
  for (std::uint8_t& value : image.pixels) value = static_cast<std::uint8_t>(byte(rng));
  return image;
}

/// Runs @p chapter's program with the command line @p words (program name
/// first), captures what it prints into @p printed, returns the exit status.
inline int run_captured(const Chapter& chapter, const std::vector<std::string>& words, std::string& printed) {
  std::vector<const char*> argv;
  for (const std::string& w : words) argv.push_back(w.c_str());
  std::ostringstream captured;
  std::streambuf* saved = std::cout.rdbuf(captured.rdbuf());
  const int status = chapter.run(static_cast<int>(argv.size()), argv.data());
  std::cout.rdbuf(saved);
  printed = captured.str();
  return status;
}

}  // namespace gauss::test
