// A sweep measured against the copy (gauss/copy_sweep.hpp).
#include "gauss/copy_sweep.hpp"

#include <string>
#include <vector>

#include "gauss/runners.hpp"

namespace gauss {

RowShape shape_of(const Image& image, const BlurSpec& blur) {
  return {image.width, image.height, image.channels, blur.sigma, blur.radius};
}

void print_sweep(SectionContext& context, const char* first_column, const std::vector<SweepPoint>& points,
                 const std::string& device) {
  Table table({{first_column, Table::Align::Left},
               {"api", Table::Align::Left},
               {"copy ms"},
               {"kernel ms"},
               {"kernel GB/s"},
               {"% of copy"},
               {"status", Table::Align::Left}});
  for (const SweepPoint& point : points) {
    const VariantResult& r = point.result;
    const bool ok = r.ok() && point.copy.ok();
    const double percent = 100.0 * point.copy.time.median_ms / r.time.median_ms;
    table.add_row({point.label, name_of(r.api), format_fixed(point.copy.time.median_ms, 4),
                   format_fixed(r.time.median_ms, 4), format_fixed(r.gbps(), 1), format_fixed(percent, 1),
                   ok                ? "ok"
                   : r.error.empty() ? r.comparison.summary()
                                     : r.error});
    if (!ok) context.failed = true;
    ResultRow row;
    row.variant = r.name + "@" + point.label;
    row.api = name_of(r.api);
    row.device = device;
    row.runs = r.time.runs();
    row.median_ms = r.time.median_ms;
    row.min_ms = r.time.min_ms;
    row.max_ms = r.time.max_ms;
    row.gbps = r.gbps();
    row.percent_of_copy = percent;
    row.max_diff = r.comparison.max_abs_diff;
    row.differing = r.comparison.differing;
    row.psnr_db = r.comparison.psnr_db;
    row.ok = ok;
    row.status = ok ? "ok" : "MISMATCH";
    row.format = name_of(point.shape.channels == 4 ? PixelFormat::Rgba : PixelFormat::Gray);
    row.reference = "gaussian";
    row.shape = point.shape;
    context.rows.push_back(row);
  }
  table.print(context.out);
}

}  // namespace gauss
