// Chapter 03: megapixels per second against image width.
//
// rgv has one work-item per column, so the width of the image is the number
// of work-items the GPU gets; rgh has one per row, the height. At a fixed
// height, widening the image gives rgv more items and rgh longer rows.
#include "width_sweep.hpp"

#include <iterator>
#include <string>

#include "../02_work_size/section_tools.hpp"
#include "deriche.hpp"
#include "gauss/table.hpp"
#include "passes.hpp"
#ifdef GAUSS_HAVE_CUDA
#include "gauss/cuda.hpp"
#endif

namespace chapter03 {
namespace {

// A seeded random image: every pixel differs from its neighbours.
gauss::Image random_image(int width, int height) {
  gauss::Image image = gauss::Image::make(width, height, gauss::PixelFormat::Gray);
  std::uint32_t state = 20261121u ^ static_cast<std::uint32_t>(width);
  for (std::uint8_t& value : image.pixels) {
    state = state * 1664525u + 1013904223u;  // a linear congruential generator: enough for test pixels
    value = static_cast<std::uint8_t>(state >> 24);
  }
  return image;
}

struct SweptPass {
  const char* name;
  Line line;
  bool recursive;
};

const SweptPass kPasses[] = {{"rgh", Line::Rows, true}, {"rgv", Line::Columns, true}, {"fir_h", Line::Rows, false}};

gauss::Variant make_variant(const SweptPass& pass, gauss::Api api) {
  gauss::Variant variant;
  variant.name = pass.name;
  variant.api = api;
  variant.tolerance = gauss::kFloatTolerance;
  if (api == gauss::Api::OpenCL) {
    variant.opencl = pass.recursive ? recursive_pass_opencl(pass.line) : fir_pass_opencl(pass.line);
  }
#ifdef GAUSS_HAVE_CUDA
  if (api == gauss::Api::Cuda)
    variant.cuda = pass.recursive ? recursive_pass_cuda(pass.line) : fir_pass_cuda(pass.line);
#endif
  return variant;
}

}  // namespace

std::vector<int> sweep_widths() {
  std::vector<int> widths;
  for (int width = 32; width <= 32768; width *= 2) widths.push_back(width);
  return widths;
}

void width_sweep_section(gauss::SectionContext& context) {
  using gauss::sections::format_ms;
  using gauss::sections::format_significant;
  const int height = context.input.height;
  const gauss::RunSettings settings = gauss::sections::run_settings(context.options);
  context.out << "height " << height << " (from --size), widths 32 to 32768; sigma " << context.blur.sigma
              << ", fir_h radius " << context.blur.radius
              << "; work-items = rows (rgh), columns (rgv) or pixels (fir_h); MP/s = width x height / median time\n\n";

  gauss::Table table({{"API", gauss::Table::Align::Left},
                      {"width"},
                      {"rgh ms"},
                      {"rgh MP/s"},
                      {"rgv ms"},
                      {"rgv MP/s"},
                      {"fir_h ms"},
                      {"fir_h MP/s"},
                      {"check", gauss::Table::Align::Left}});
  gauss::sections::CsvFile csv({"api", "device", "pass", "width", "height", "work_items", "runs", "median_ms", "min_ms",
                                "max_ms", "mpix_per_s", "gbps", "status"});

  // One API at one width: each pass through the common runner, against the
  // references computed once per width for both APIs.
  auto measure = [&](gauss::Api api, const std::string& device, const gauss::Image& input,
                     const std::vector<gauss::Image>& references, auto& runner) {
    const int width = input.width;
    std::vector<std::string> cells{gauss::name_of(api), std::to_string(width)};
    std::string check = "ok";
    for (std::size_t i = 0; i < std::size(kPasses); ++i) {
      const SweptPass& pass = kPasses[i];
      const gauss::VariantResult result = runner.run(make_variant(pass, api), context.blur, references[i], settings);
      const double mpix = result.ok() ? static_cast<double>(width) * height / (result.time.median_ms * 1e3) : 0.0;
      if (!result.ok()) {
        context.failed = true;
        check = std::string(pass.name) + ": " + (result.error.empty() ? result.comparison.summary() : result.error);
      }
      cells.push_back(result.ok() ? format_ms(result.time.median_ms) : "-");
      cells.push_back(result.ok() ? format_significant(mpix) : "-");
      const long long items =
          pass.recursive ? (pass.line == Line::Rows ? height : width) : static_cast<long long>(width) * height;
      csv.add({gauss::name_of(api), device, pass.name, std::to_string(width), std::to_string(height),
               std::to_string(items), std::to_string(result.time.runs()), std::to_string(result.time.median_ms),
               std::to_string(result.time.min_ms), std::to_string(result.time.max_ms), std::to_string(mpix),
               std::to_string(result.gbps()), result.ok() ? "ok" : "FAILED"});
    }
    cells.push_back(check);
    table.add_row(cells);
  };

  for (const int width : sweep_widths()) {
    const gauss::Image input = random_image(width, height);
    std::vector<gauss::Image> references;
    for (const SweptPass& pass : kPasses) {
      references.push_back(
          pass.recursive
              ? recursive_reference(input, context.blur.sigma, pass.line == Line::Rows ? Passes::Rows : Passes::Columns)
              : gaussian_pass_reference(input, context.blur.sigma, context.blur.radius, Passes::Rows));
    }
    if (context.opencl != nullptr) {
      gauss::OpenClRunner runner(*context.opencl, input);
      measure(gauss::Api::OpenCL, context.opencl->info.name, input, references, runner);
    }
#ifdef GAUSS_HAVE_CUDA
    if (context.cuda != nullptr) {
      gauss::CudaRunner runner(*context.cuda, input);
      measure(gauss::Api::Cuda, context.cuda->name, input, references, runner);
    }
#endif
  }
  table.print(context.out);
  context.out << "\nEach point is checked against its CPU reference on a seeded random image.\n";
  csv.write(context.options, "width_sweep", context.out);
}

}  // namespace chapter03
