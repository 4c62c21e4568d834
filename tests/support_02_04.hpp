// Helpers shared by the tests of chapters 02, 03 and 04: running a chapter
// program in-process with its output captured.
#pragma once

#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "gauss/chapter.hpp"

namespace gauss::test {

/// Runs @p chapter's program with the command line @p words (program name
/// first), captures what it prints into @p printed, returns the exit status.
inline int run_captured(const Chapter& chapter, const std::vector<std::string>& words, std::string& printed) {
  std::vector<const char*> argv;
  for (const std::string& w : words) argv.push_back(w.c_str());
  std::ostringstream captured;
  std::streambuf* saved = std::cout.rdbuf(captured.rdbuf());
  const int status = chapter.run(static_cast<int>(argv.size()), argv.data());
  std::cout.rdbuf(saved);
  printed = captured.str();
  return status;
}

}  // namespace gauss::test
