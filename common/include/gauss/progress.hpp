/// @file progress.hpp
/// @brief One line per measurement as it starts: a long run is never silent.
///
/// A chapter at the benchmark size on a CPU (PoCL) takes minutes; a program
/// that prints nothing until its table looks hung. Every run of a variant, a
/// copy or a section's point prints a line as it starts and ends it with the
/// time it took, on stdout, so that a log shows the same as a terminal:
///
///     [3/9] OpenCL tiled ... 4.1 s
#pragma once

#include <ostream>
#include <string>

#include "gauss/timing.hpp"

namespace gauss {

/// Prints "  <what> ... " when made and ends the line with the seconds
/// elapsed when destroyed (whether the measurement succeeded or threw).
class ProgressLine {
 public:
  ProgressLine(std::ostream& out, const std::string& what) : out_(out) {
    out_ << "  " << what << " ... " << std::flush;
  }
  ~ProgressLine();
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;

 private:
  std::ostream& out_;
  HostTimer timer_;
};

}  // namespace gauss
