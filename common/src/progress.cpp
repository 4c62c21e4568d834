#include "gauss/progress.hpp"

#include <cstdio>

namespace gauss {

ProgressLine::~ProgressLine() {
  const double seconds = timer_.elapsed_ms() / 1000.0;
  char text[32];
  std::snprintf(text, sizeof text, seconds < 10 ? "%.2f s" : "%.0f s", seconds);
  out_ << text << std::endl;
}

}  // namespace gauss
