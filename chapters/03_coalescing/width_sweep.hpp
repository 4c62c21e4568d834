// Chapter 03: the width sweep (section "width_sweep").
#pragma once

#include <vector>

#include "gauss/chapter.hpp"

namespace chapter03 {

/// The widths swept: 32, 64, ..., 32768.
std::vector<int> sweep_widths();

/// rgh, rgv and fir_h on seeded random images of the height of --size and
/// every width of sweep_widths(), each run by the common runners (rotating,
/// poisoned buffers, events) and checked against its CPU reference; prints
/// megapixels per second and writes <--csv>.width_sweep.csv.
void width_sweep_section(gauss::SectionContext& context);

}  // namespace chapter03
