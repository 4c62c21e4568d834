// Strips of rows for overlapped copies (row_strips.hpp).
#include "gauss/row_strips.hpp"

#include <algorithm>
#include <cstddef>

namespace gauss::transfer {

std::vector<Strip> plan_strips(int height, int count, int multiple, int radius) {
  count = std::max(count, 1);
  int rows = (height + count - 1) / count;
  rows = (rows + multiple - 1) / multiple * multiple;
  std::vector<Strip> strips;
  int uploaded = 0;  // input rows [0, uploaded) belong to earlier strips
  for (int row0 = 0; row0 < height; row0 += rows) {
    Strip strip;
    strip.row0 = row0;
    strip.rows = std::min(rows, height - row0);
    // A strip reads input rows down to row0 + rows + radius - 1: upload the
    // ones no earlier strip has.
    const int needed_end = std::min(height, strip.row0 + strip.rows + radius);
    strip.upload0 = uploaded;
    strip.upload_rows = std::max(0, needed_end - uploaded);
    uploaded = std::max(uploaded, needed_end);
    strips.push_back(strip);
  }
  return strips;
}

std::vector<int> strips_needed_by(const std::vector<Strip>& strips, int k, int radius) {
  const Strip& strip = strips[static_cast<std::size_t>(k)];
  const int first = strip.row0 - radius;
  const int end = strip.row0 + strip.rows + radius;
  std::vector<int> needed;
  for (int j = 0; j <= k; ++j) {
    const Strip& s = strips[static_cast<std::size_t>(j)];
    if (s.upload_rows > 0 && s.upload0 < end && s.upload0 + s.upload_rows > first) needed.push_back(j);
  }
  return needed;
}

}  // namespace gauss::transfer
