// A sweep measured against the copy: at each point (an image size, a blur,
// a launch shape) the copy kernel and one variant run on the same image and
// API, and the point is printed and written (--csv, --json) as the variant's
// percentage of that copy. Chapter 10's sweeps use it.
#pragma once

#include <string>
#include <vector>

#include "gauss/blur.hpp"
#include "gauss/chapter.hpp"
#include "gauss/image.hpp"
#include "gauss/table.hpp"
#include "gauss/variant.hpp"

namespace gauss {

/// One sweep point: the copy ceiling and one variant on one API, at one image
/// size or blur, as a row of the sweep's table (and of --csv / --json).
struct SweepPoint {
  std::string label;
  VariantResult copy;
  VariantResult result;
  RowShape shape;  ///< the image and blur measured, for the CSV/JSON rows
};

/// The image and blur measured, for a SweepPoint.
RowShape shape_of(const Image& image, const BlurSpec& blur);

/// Prints @p points as a table (@p first_column names the points: "size",
/// "radius", ...) and adds each as a row named <variant>@<label> to the
/// section's results, with its % of the copy at the same point; a point that
/// failed, or whose copy failed, fails the run.
void print_sweep(SectionContext& context, const char* first_column, const std::vector<SweepPoint>& points,
                 const std::string& device);

}  // namespace gauss
