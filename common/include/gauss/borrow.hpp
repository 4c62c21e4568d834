// Running another chapter's variant beside a chapter's own (chapter 10 runs
// the best step of each earlier chapter in its table).
#pragma once

#include <string>
#include <utility>

#include "gauss/chapter.hpp"
#include "gauss/variant.hpp"

namespace gauss {

/// Adds chapter @p from's variant @p name, in both APIs, as "chNN_<name>", in
/// its own pixel format, to @p into. @p from must live as long as @p into
/// runs (a static object, say), so that whatever its variants refer to stays valid.
inline void borrow(Chapter& into, const Chapter& from, const std::string& name) {
  for (Api api : {Api::OpenCL, Api::Cuda}) {
    const Variant* variant = from.find(name, api);
    if (variant == nullptr) continue;
    Variant copy = *variant;
    copy.name = "ch" + from.name().substr(0, 2) + "_" + name;
    copy.format = from.format_of(*variant);
    copy.description = from.name() + ": " + variant->description;
    copy.line.clear();  // a step of the main line is counted once, in its own chapter
    into.add(std::move(copy));
  }
}

}  // namespace gauss
