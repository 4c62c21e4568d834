// Regenerates images/golden/*.png: the CPU reference's blur of every golden
// case (gauss/goldens.hpp). Run it on purpose, through
//   cmake --build build --target goldens
// and commit the result; the tests only ever read these files.
#include <filesystem>
#include <iostream>
#include <vector>

#include "gauss/error.hpp"
#include "gauss/goldens.hpp"
#include "gauss/reference.hpp"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: make_goldens <images folder>\n";
    return gauss::kExitBadInput;
  }
  const std::string images = argv[1];
  try {
    std::filesystem::create_directories(images + "/golden");
    std::vector<gauss::GoldenCase> cases = gauss::golden_cases();
    for (const gauss::GoldenCase& c : gauss::radius_golden_cases()) cases.push_back(c);
    for (const gauss::GoldenCase& c : cases) {
      const gauss::Image input = gauss::load_image(c.photo_path(images), c.format);
      const gauss::Image golden = gauss::blur_reference(input, c.blur);
      gauss::save_png(golden, c.golden_path(images));
      std::cout << c.golden_path(images) << " (" << input.width << "x" << input.height << ")\n";
    }
  } catch (const std::exception& error) {
    std::cerr << "make_goldens: error: " << error.what() << '\n';
    return gauss::kExitBadInput;
  }
  return gauss::kExitOk;
}
