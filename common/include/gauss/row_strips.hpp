// An image cut into strips of rows, for copies that overlap kernels: strip
// k+1 uploads while strip k is blurred and strip k-1 downloads. A blur of
// radius R reads R rows above and below its output rows, so a strip's kernel
// needs rows that earlier strips uploaded; these helpers say which rows each
// strip uploads (every input row exactly once) and whose uploads it waits for.
#pragma once

#include <vector>

namespace gauss::transfer {

/// One strip: output rows [row0, row0 + rows), and the input rows
/// [upload0, upload0 + upload_rows) the strip is the first to need, so that
/// every input row is uploaded exactly once.
struct Strip {
  int row0 = 0;
  int rows = 0;
  int upload0 = 0;
  int upload_rows = 0;
};

/// Splits @p height rows into at most @p count strips of whole multiples of
/// @p multiple rows (the last may be shorter), for a blur of @p radius.
std::vector<Strip> plan_strips(int height, int count, int multiple, int radius);

/// The strips whose uploads strip @p k must wait for: those that upload any
/// of the input rows it reads, [row0 - radius, row0 + rows + radius).
std::vector<int> strips_needed_by(const std::vector<Strip>& strips, int k, int radius);

}  // namespace gauss::transfer
