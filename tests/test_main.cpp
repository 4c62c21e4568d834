// The Catch2 main of every test binary. One addition: a CTest entry that
// needs a CUDA device sets GAUSS_TEST_NEEDS_CUDA=1, and where there is no
// device the binary exits with 77, which CTest reports as skipped (never as
// passed; see SKIP_RETURN_CODE in tests/CMakeLists.txt).
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include <cstdlib>
#include <iostream>
#include <string>

#ifdef GAUSS_HAVE_CUDA
#include "gauss/cuda.hpp"
#endif

namespace {

constexpr int kSkipped = 77;

bool needs_cuda() {
  const char* value = std::getenv("GAUSS_TEST_NEEDS_CUDA");
  return value != nullptr && std::string(value) == "1";
}

}  // namespace

int main(int argc, char* argv[]) {
  if (needs_cuda()) {
#ifdef GAUSS_HAVE_CUDA
    std::string why;
    if (gauss::list_cuda_devices(&why).empty()) {
      std::cout << "SKIPPED: no CUDA device (" << why << ")\n";
      return kSkipped;
    }
#else
    std::cout << "SKIPPED: this build has no CUDA\n";
    return kSkipped;
#endif
  }
  return Catch::Session().run(argc, argv);
}
