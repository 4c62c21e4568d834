// The recursive Gaussian of the common library (gauss/deriche.hpp: its
// coefficients, the kernels' taps, the CPU references, the passes' layouts)
// under the names chapter 03's kernels, launchers and passes use: they are
// written in namespace chapter03 and name these unqualified. Chapter 04,
// whose pipeline runs chapter 03's passes (USES 03_coalescing), includes it
// too.
#pragma once

#include "gauss/deriche.hpp"

namespace chapter03 {
using gauss::deriche::bytes_of;
using gauss::deriche::deriche_coefficients;
using gauss::deriche::deriche_line;
using gauss::deriche::deriche_taps;
using gauss::deriche::DericheCoefficients;
using gauss::deriche::DericheTaps;
using gauss::deriche::Element;
using gauss::deriche::gaussian_pass_reference;
using gauss::deriche::Line;
using gauss::deriche::Passes;
using gauss::deriche::recursive_reference;
}  // namespace chapter03
