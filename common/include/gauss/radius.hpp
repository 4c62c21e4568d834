/// @file radius.hpp
/// @brief Turning the run-time radius into a compile-time one.
///
/// A kernel whose radius is a template parameter has loops of known length:
/// the compiler unrolls them and keeps per-thread arrays in registers. The
/// host still learns the radius at run time (--radius), so it dispatches to
/// one of kMaxRadius instantiations.
#pragma once

#include <stdexcept>
#include <type_traits>

#include "gauss/blur.hpp"

namespace gauss {

/// Calls @p f(std::integral_constant<int, R>{}) with R == @p radius, for
/// radius 1..kMaxRadius; throws std::invalid_argument otherwise. Use it to
/// pick a kernel instantiation: with_radius(r, [&](auto R) { kernel<R.value><<<...>>>(...); });
template <int R = 1, class F>
void with_radius(int radius, F&& f) {
  if constexpr (R <= kMaxRadius) {
    if (radius == R) {
      f(std::integral_constant<int, R>{});
    } else {
      with_radius<R + 1>(radius, static_cast<F&&>(f));
    }
  } else {
    throw std::invalid_argument("radius out of range");
  }
}

}  // namespace gauss
