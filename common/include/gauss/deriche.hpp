// The recursive Gaussian (4th-order Deriche) on the host: its coefficients,
// the taps the kernels take, and the CPU reference in double. Chapter 03
// measures its kernels, chapter 04 runs them again in its pipeline (both
// name these through chapter 03's deriche_names.hpp).
//
// The filter is run along a line x[0..N-1] as two recursions whose outputs add up:
//
//   causal, left to right:       y+[n] = sum_{k=0..3} n_k x[n-k] - sum_{k=1..4} d_k y+[n-k]
//   anti-causal, right to left:  y-[n] = sum_{k=1..4} m_k x[n+k] - sum_{k=1..4} d_k y-[n+k]
//   out[n] = y+[n] + y-[n]
//
// with Deriche's coefficients (INRIA RR-1893, 1993) normalised as Farneback
// and Westin (2006, eq. 25) do, so that the impulse response sums to 1. The
// borders are clamp-to-edge: each recursion starts as if the edge value had
// repeated forever, with its state at that value's steady state.
#pragma once

#include <cstddef>
#include <vector>

#include "gauss/image.hpp"

namespace gauss::deriche {

/// The recursive Gaussian's coefficients for one sigma, in double.
struct DericheCoefficients {
  double n[4];             ///< causal feed-forward taps n0..n3 (Apple's a0..a3)
  double m[4];             ///< anti-causal feed-forward taps m1..m4
  double d[4];             ///< feedback taps d1..d4, shared by both passes (Apple's c1..c4)
  double causal_edge;      ///< steady state of y+ for a constant 1: sum(n) / (1 + sum(d))
  double anticausal_edge;  ///< the same for y-: sum(m) / (1 + sum(d))
};

/// Deriche's 4th-order coefficients for @p sigma (pixels), normalised.
DericheCoefficients deriche_coefficients(double sigma);

/// The coefficients as every kernel receives them: float, passed by value.
/// The layout is shared with recursive_gauss.cl and recursive_gauss.cu.
struct DericheTaps {
  float n[4];
  float m[4];
  float d[4];
  float causal_edge;
  float anticausal_edge;
};
static_assert(sizeof(DericheTaps) == 14 * sizeof(float), "DericheTaps must have the layout the kernels expect");

/// deriche_coefficients() rounded to float.
DericheTaps deriche_taps(double sigma);

/// The filter along one line of @p values, in double (both recursions, summed).
std::vector<double> deriche_line(const std::vector<double>& values, const DericheCoefficients& coefficients);

/// Which lines a pass filters.
enum class Passes {
  Rows,     ///< along each row only (what rgH computes)
  Columns,  ///< along each column only (what rgV computes)
  Both,     ///< rows and columns: the 2-D blur
};

/// The recursive Gaussian of an 8-bit gray image in double precision,
/// rounded half up to 8 bits at the end only: the reference the GPU passes
/// are checked against. Uses every hardware thread.
Image recursive_reference(const Image& input, double sigma, Passes passes);

/// The truncated Gaussian of blur.hpp (the weights gaussian_weights() gives),
/// along rows or columns only, in double, rounded: the reference of one FIR pass.
Image gaussian_pass_reference(const Image& input, double sigma, int radius, Passes passes);

// --- How the GPU passes are laid out ----------------------------------------------

/// Which way the work-items of a recursive pass lie.
enum class Line {
  Rows,     ///< one work-item per row, walking along it: Apple's rgH
  Columns,  ///< one work-item per column, walking down it: Apple's rgV
};

/// What a pass reads or writes: the 8-bit image, or a float scratch image.
enum class Element { U8, F32 };

/// Bytes per element.
inline int bytes_of(Element element) { return element == Element::U8 ? 1 : 4; }

}  // namespace gauss::deriche
