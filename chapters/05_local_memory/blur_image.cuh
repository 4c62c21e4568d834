// Chapter 05: the host's view of blur_image.cu (texture objects).
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <memory>

#include "gauss/blur.hpp"
#include "gauss/problem.hpp"

/// A CUDA array holding a copy of the input image and a texture object that
/// reads it with clamp-to-edge addressing, nearest or linear filtering, and
/// bytes read as floats in [0, 1]. Freed when the last owner lets go.
class ImageTexture;

/// Allocates the array and creates the texture object for @p problem's image.
std::shared_ptr<ImageTexture> make_image_texture(const gauss::Problem& problem, bool linear);

/// Copies @p in into the texture's array, then launches the (2R+1)^2-read
/// blur through the texture (nearest filtering), on @p stream.
void launch_blur_image(const ImageTexture& texture, const std::uint8_t* in, std::uint8_t* out,
                       const gauss::Problem& problem, cudaStream_t stream);

/// The same with the linear-sampling trick: @p fetches reads per dimension at
/// @p offsets, weighted @p weights (samplers.hpp); the texture must be linear.
void launch_blur_image_linear(const ImageTexture& texture, const std::uint8_t* in, std::uint8_t* out,
                              const gauss::Problem& problem, int fetches, const gauss::GaussTaps& offsets,
                              const gauss::GaussTaps& weights, cudaStream_t stream);
