// The runners must catch what the chapters' kernels could get wrong: these
// tests hand them deliberately broken variants and require them to fail.
#include <catch2/catch.hpp>

#include "chapter_checks.hpp"
#include "gauss/runners.hpp"
#include "support.hpp"
#ifdef GAUSS_HAVE_CUDA
#include "broken_kernels.cuh"
#include "gauss/cuda.hpp"
#endif

using gauss::Api;
using gauss::Image;
using gauss::PixelFormat;

namespace {

// A copy kernel that forgets the last row: the pixels it never writes must
// fail the check, which only works because the runner poisons the output.
const gauss::OpenClSource kSkipsLastRow{"tests/skips_last_row.cl", R"(
__kernel void copy_but_last_row(__global const uchar* in, __global uchar* out, int width, int height)
{
    const int x = get_global_id(0);
    const int y = get_global_id(1);
    if (x >= width || y >= height - 1) return;  /* the bug: height - 1 */
    out[y * width + x] = in[y * width + x];
}
)"};

// A kernel with a syntax error on line 3 of its file.
const gauss::OpenClSource kBroken{"tests/broken.cl", R"(__kernel void broken(__global int* a)
{
    a[0] = 1
}
)"};

gauss::Variant opencl_variant(const gauss::OpenClSource& source, const char* kernel_name, cl::NDRange local) {
  gauss::Variant v;
  v.name = kernel_name;
  v.api = Api::OpenCL;
  v.opencl = [&source, kernel_name, local](gauss::OpenClSession& cl, const gauss::Problem& p) -> gauss::OpenClLaunch {
    cl::Kernel kernel = cl.kernel(source, kernel_name);
    const cl::NDRange global(gauss::round_up(p.image.width, local[0]), gauss::round_up(p.image.height, local[1]));
    return [&cl, kernel, global, local, p](const cl::Buffer& in, const cl::Buffer& out) mutable {
      kernel.setArg(0, in);
      kernel.setArg(1, out);
      kernel.setArg(2, p.image.width);
      kernel.setArg(3, p.image.height);
      cl::Event done;
      cl.queue.enqueueNDRangeKernel(kernel, cl::NullRange, global, local, nullptr, &done);
      return std::vector<cl::Event>{done};
    };
  };
  return v;
}

const gauss::RunSettings kOnce{0, 1, 0.0};

}  // namespace

TEST_CASE("poison differs from the expected output in every byte", "[runners]") {
  const Image expected = gauss::test::random_image(13, 5, PixelFormat::Rgba);
  const Image poison = gauss::poison_for(expected);
  for (std::size_t i = 0; i < expected.pixels.size(); ++i) {
    REQUIRE(std::abs(int(poison.pixels[i]) - int(expected.pixels[i])) == 128);
  }
}

TEST_CASE("rotation: enough buffer pairs to defeat the cache, within limits", "[runners]") {
  const std::size_t MiB = std::size_t{1} << 20;
  CHECK(gauss::rotation_sets(30 * MiB, 50 * MiB, 80000 * MiB) == 5);   // 6720x4480 gray on an H100: 256 MiB / 60 MiB
  CHECK(gauss::rotation_sets(120 * MiB, 60 * MiB, 80000 * MiB) == 2);  // RGBA
  CHECK(gauss::rotation_sets(1, 0, 80000 * MiB) == 32);                // tiny images: capped
  CHECK(gauss::rotation_sets(400 * MiB, 50 * MiB, 1000 * MiB) == 1);   // never more than a quarter of memory
}

TEST_CASE("time budget: fewer runs on a slow device, never fewer than 5", "[runners]") {
  const gauss::RunSettings budget{3, 20, 2000.0};
  CHECK(gauss::runs_within_budget(budget, 0.05) == 20);
  CHECK(gauss::runs_within_budget(budget, 200.0) == 10);
  CHECK(gauss::runs_within_budget(budget, 900.0) == gauss::kMinTimedRuns);
  CHECK(gauss::runs_within_budget({3, 20, 0.0}, 900.0) == 20);
}

TEST_CASE("OpenCL: the copy ceiling is exact", "[runners][opencl]") {
  const Image input = gauss::test::random_image(451, 300, PixelFormat::Gray);
  gauss::OpenClRunner runner(gauss::test::opencl_session(), input);
  const gauss::VariantResult copy = runner.copy({1, 3, 0.0});
  INFO(copy.error);
  CHECK(copy.ok());
  CHECK(copy.time.runs() == 3);
  CHECK(copy.bytes_moved == 2 * input.bytes());
}

TEST_CASE("OpenCL: a kernel that skips a row is caught", "[runners][opencl]") {
  const Image input = gauss::test::random_image(37, 11, PixelFormat::Gray);
  gauss::OpenClRunner runner(gauss::test::opencl_session(), input);
  // The expected output of a copy is the input itself.
  const gauss::VariantResult result =
      runner.run(opencl_variant(kSkipsLastRow, "copy_but_last_row", cl::NDRange(16, 4)), {1.0, 2}, input, kOnce);
  REQUIRE(result.error.empty());
  CHECK_FALSE(result.ok());
  CHECK(result.comparison.over_tolerance == 37);  // the whole last row, and nothing else
  CHECK(result.comparison.max_abs_diff == 128);
  REQUIRE_FALSE(result.comparison.first.empty());
  CHECK(result.comparison.first[0].y == 10);
}

TEST_CASE("OpenCL: a build error names the file and line", "[runners][opencl]") {
  const Image input = gauss::test::random_image(8, 8, PixelFormat::Gray);
  gauss::OpenClRunner runner(gauss::test::opencl_session(), input);
  const gauss::VariantResult result =
      runner.run(opencl_variant(kBroken, "broken", cl::NDRange(8, 8)), {1.0, 2}, input, kOnce);
  CHECK_FALSE(result.ok());
  CHECK_THAT(result.error, Catch::Contains("building tests/broken.cl failed"));
  CHECK_THAT(result.error, Catch::Contains("tests/broken.cl:3:"));  // on every driver, whatever it calls the file
}

TEST_CASE("OpenCL: an impossible work-group is reported by name", "[runners][opencl]") {
  const Image input = gauss::test::random_image(8, 8, PixelFormat::Gray);
  gauss::OpenClRunner runner(gauss::test::opencl_session(), input);
  const std::size_t too_wide = gauss::test::opencl_session().info.max_work_group + 1;
  const gauss::VariantResult result =
      runner.run(opencl_variant(kSkipsLastRow, "copy_but_last_row", cl::NDRange(too_wide, 1)), {1.0, 2}, input, kOnce);
  CHECK_FALSE(result.ok());
  CHECK_THAT(result.error, Catch::Contains("CL_INVALID_WORK_GROUP_SIZE"));
}

#ifdef GAUSS_HAVE_CUDA
TEST_CASE("CUDA: the copy ceiling is exact and a kernel that skips a row is caught", "[runners][.][cuda]") {
  const gauss::CudaDeviceInfo device = gauss::select_cuda_device(-1);
  const Image input = gauss::test::random_image(37, 11, PixelFormat::Gray);
  gauss::CudaRunner runner(device, input);
  const gauss::VariantResult copy = runner.copy({1, 3, 0.0});
  INFO(copy.error);
  CHECK(copy.ok());

  gauss::Variant broken;
  broken.name = "copy_but_last_row";
  broken.api = Api::Cuda;
  broken.cuda = [](const gauss::Problem& p) -> gauss::CudaLaunch {
    return [p](const std::uint8_t* in, std::uint8_t* out, cudaStream_t stream) {
      launch_copy_but_last_row(in, out, p.image.width, p.image.height, stream);
    };
  };
  const gauss::VariantResult result = runner.run(broken, {1.0, 2}, input, kOnce);
  REQUIRE(result.error.empty());
  CHECK_FALSE(result.ok());
  CHECK(result.comparison.over_tolerance == 37);

  gauss::Variant bad_launch = broken;
  bad_launch.cuda = [](const gauss::Problem& p) -> gauss::CudaLaunch {
    return [p](const std::uint8_t* in, std::uint8_t* out, cudaStream_t stream) {
      launch_with_too_many_threads(in, out, p.image.width, p.image.height, stream);
    };
  };
  const gauss::VariantResult failed = runner.run(bad_launch, {1.0, 2}, input, kOnce);
  // CUDA 12 calls it an invalid configuration, CUDA 13 an invalid value.
  CHECK_THAT(failed.error,
             Catch::Contains("cudaErrorInvalidConfiguration") || Catch::Contains("cudaErrorInvalidValue"));
  CHECK_THAT(failed.error, Catch::Contains("1024 threads"));
}
#endif
