/// @file reference.hpp
/// @brief The CPU reference blur, in double precision: the answer every GPU
///        variant is checked against, and the CPU rows of the tables.
#pragma once

#include "gauss/blur.hpp"
#include "gauss/image.hpp"

namespace gauss {

/// How the reference computes the sum.
enum class ReferenceMethod {
  Direct2D,   ///< (2r+1)^2 taps per pixel: the definition in blur.hpp, term for term
  Separable,  ///< a horizontal then a vertical pass of 2r+1 taps, in double
};

/// Blurs @p in into @p out (same size and format; reallocated if not) with
/// the blur of blur.hpp in double precision. Gray and RGB images have every
/// channel blurred independently; RGBA images have R, G and B blurred and
/// alpha copied from the input pixel. @p threads = 0 uses every hardware thread, 1 runs on the
/// calling thread only. Every method and thread count gives the same bytes.
void blur_reference(const Image& in, Image& out, const BlurSpec& spec,
                    ReferenceMethod method = ReferenceMethod::Direct2D, int threads = 0);

/// The same, returning a new image.
Image blur_reference(const Image& in, const BlurSpec& spec, ReferenceMethod method = ReferenceMethod::Direct2D,
                     int threads = 0);

/// Number of threads blur_reference() uses for @p threads = 0.
int hardware_threads();

}  // namespace gauss
