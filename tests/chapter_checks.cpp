#include "chapter_checks.hpp"

#include <algorithm>

#include <catch2/catch.hpp>

#include <memory>

#include "gauss/goldens.hpp"
#include "gauss/reference.hpp"
#include "support.hpp"
#ifdef GAUSS_HAVE_CUDA
#include "gauss/cuda.hpp"
#endif

namespace gauss::test {

OpenClSession& opencl_session() {
  static std::unique_ptr<OpenClSession> session = std::make_unique<OpenClSession>(select_opencl_device(-1));
  return *session;
}

namespace {

// One run, no warm-up: the check is about what the kernel writes.
const RunSettings kOnce{0, 1, 0.0};

bool same_blur(const BlurSpec& a, const BlurSpec& b) { return a.sigma == b.sigma && a.radius == b.radius; }

}  // namespace

VariantResult run_once(const Chapter& chapter, const std::string& name, Api api, const Image& input,
                       const BlurSpec& blur, const Image& reference) {
  const Variant* variant = chapter.find(name, api);
  REQUIRE(variant != nullptr);
  switch (api) {
    case Api::Cpu:
      return run_cpu_variant(*variant, input, reference, blur, kOnce);
    case Api::OpenCL: {
      OpenClRunner runner(opencl_session(), input);
      return runner.run(*variant, blur, reference, kOnce);
    }
    case Api::Cuda: {
#ifdef GAUSS_HAVE_CUDA
      static const CudaDeviceInfo device = select_cuda_device(-1);
      CudaRunner runner(device, input);
      return runner.run(*variant, blur, reference, kOnce);
#else
      FAIL("this build has no CUDA");
#endif
    }
  }
  FAIL("unknown API");
  return {};
}

namespace {

void check_on(const std::vector<GoldenCase>& cases, const Chapter& chapter, const std::string& variant, Api api,
              const std::vector<BlurSpec>& blurs) {
  const Variant* v = chapter.find(variant, api);
  REQUIRE(v != nullptr);
  int checked = 0;
  for (const GoldenCase& c : cases) {
    if (c.format != chapter.format_of(*v)) continue;
    bool wanted = blurs.empty();
    for (const BlurSpec& b : blurs) wanted = wanted || same_blur(b, c.blur);
    if (!wanted) continue;
    const std::string images = images_dir();
    const Image input = load_image(c.photo_path(images), c.format);
    const Image golden = load_image(c.golden_path(images), c.format);
    const VariantResult result = run_once(chapter, variant, api, input, c.blur, golden);
    INFO(chapter.name() << " " << variant << " (" << name_of(api) << ") on " << c.name() << ": "
                        << (result.error.empty() ? result.comparison.summary() : result.error));
    CHECK(result.error.empty());
    CHECK(result.skipped.empty());
    CHECK(result.comparison.matches());
    ++checked;
  }
  REQUIRE(checked > 0);  // a filter that matches no golden checks nothing
}

}  // namespace

void check_on_goldens(const Chapter& chapter, const std::string& variant, Api api, const std::vector<BlurSpec>& blurs) {
  check_on(golden_cases(), chapter, variant, api, blurs);
}

void check_on_radius_goldens(const Chapter& chapter, const std::string& variant, Api api) {
  check_on(radius_golden_cases(), chapter, variant, api, {});
}

void check_on_extreme_images(const Chapter& chapter, const std::string& variant, Api api,
                             const std::vector<Extent>& sizes) {
  const Variant* v = chapter.find(variant, api);
  REQUIRE(v != nullptr);
  const PixelFormat format = chapter.format_of(*v);
  const BlurSpec blur{1.0, 2};
  for (const Extent& size : sizes) {
    std::vector<Image> images{Image::make(size.width, size.height, format, 0),
                              Image::make(size.width, size.height, format, 255)};
    Image checker = Image::make(size.width, size.height, format);
    Image stripes = Image::make(size.width, size.height, format);
    for (int y = 0; y < size.height; ++y)
      for (int x = 0; x < size.width; ++x)
        for (int c = 0; c < checker.channels; ++c) {
          checker.at(x, y, c) = (x + y) % 2 ? 255 : 0;
          stripes.at(x, y, c) = (x / 2) % 2 ? 255 : 0;
        }
    images.push_back(checker);
    images.push_back(stripes);
    images.push_back(random_image(size.width, size.height, format));
    for (const Image& input : images) {
      const Image reference = chapter.reference_for(*v, input, blur);
      const VariantResult result = run_once(chapter, variant, api, input, blur, reference);
      INFO(chapter.name() << " " << variant << " (" << name_of(api) << ") on a " << input.width << "x" << input.height
                          << " image starting with " << int{input.pixels[0]} << ", " << int{input.pixels[1]} << ": "
                          << (result.error.empty() ? result.comparison.summary() : result.error));
      CHECK(result.error.empty());
      CHECK(result.comparison.matches());
    }
  }
}

void check_on_awkward_sizes(const Chapter& chapter, const std::string& variant, Api api,
                            const std::vector<BlurSpec>& blurs) {
  const Variant* v = chapter.find(variant, api);
  REQUIRE(v != nullptr);
  for (const BlurSpec& blur : blurs) {
    for (const ImageSize size : awkward_sizes()) {
      const Image input = random_image(size.width, size.height, chapter.format_of(*v));
      const Image reference = chapter.reference_for(*v, input, blur);
      const VariantResult result = run_once(chapter, variant, api, input, blur, reference);
      INFO(chapter.name() << " " << variant << " (" << name_of(api) << ") at " << to_string(size) << ", "
                          << describe(blur) << ", random image seed " << kSeed << ": "
                          << (result.error.empty() ? result.comparison.summary() : result.error));
      CHECK(result.error.empty());
      CHECK(result.skipped.empty());
      CHECK(result.comparison.matches());
    }
  }
}

void check_main_line(const Chapter& chapter, const std::string& variant, bool listed_first) {
  INFO(chapter.name() << ": the main line's step " << variant);
  std::vector<Api> apis{Api::OpenCL};
#ifdef GAUSS_HAVE_CUDA
  apis.push_back(Api::Cuda);
#endif
  for (const Api api : apis) {
    const Variant* step = chapter.find(variant, api);
    REQUIRE(step != nullptr);
    CHECK(step->line == "main");
    for (const Variant& other : chapter.variants()) {
      if (other.api != api || other.name == variant || other.line.empty()) continue;
      INFO("also marked: " << other.name << " (" << name_of(api) << ")");
      CHECK(chapter.format_of(other) != chapter.format_of(*step));
    }
  }
  if (listed_first) {
    const auto first = std::find_if(chapter.variants().begin(), chapter.variants().end(),
                                    [](const Variant& v) { return v.api == Api::OpenCL; });
    REQUIRE(first != chapter.variants().end());
    CHECK(first->name == variant);
  }
}

}  // namespace gauss::test
