// Chapter 05: the blur through CUDA texture objects, the same kernels as
// blur_image.cl. The texture unit clamps coordinates to the edge
// (cudaAddressModeClamp) and, with linear filtering, mixes two pixels per
// dimension in one read: the linear-sampling trick (samplers.hpp). The index
// mapping and bounds guard repeat chapter 01's kernel on purpose.
//
// A texture reads a CUDA array (or pitched memory whose rows are aligned to
// cudaDeviceProp::texturePitchAlignment; our images' rows are packed, so
// that would not do). Each run therefore copies the input buffer into the
// array first, device to device, and that copy is part of the run's time:
// it is the price of starting from a plain buffer.
#include <cstdint>
#include <stdexcept>

#include "blur_image.cuh"
#include "gauss/cuda.hpp"
#include "gauss/radius.hpp"

class ImageTexture {
 public:
  ImageTexture(const gauss::ImageGeometry& image, bool linear) {
    const cudaChannelFormatDesc channel = cudaCreateChannelDesc<unsigned char>();
    GAUSS_CUDA_CHECK(cudaMallocArray(&array_, &channel, image.width, image.height));
    cudaResourceDesc resource{};
    resource.resType = cudaResourceTypeArray;
    resource.res.array.array = array_;
    cudaTextureDesc texture{};
    texture.addressMode[0] = cudaAddressModeClamp;  // clamp-to-edge, in hardware
    texture.addressMode[1] = cudaAddressModeClamp;
    texture.filterMode = linear ? cudaFilterModeLinear : cudaFilterModePoint;
    texture.readMode = cudaReadModeNormalizedFloat;  // a byte b reads as b / 255
    texture.normalizedCoords = 0;                    // coordinates in pixels
    GAUSS_CUDA_CHECK(cudaCreateTextureObject(&object_, &resource, &texture, nullptr));
  }
  ~ImageTexture() {
    cudaDestroyTextureObject(object_);  // errors ignored: nothing to do about them here
    cudaFreeArray(array_);
  }
  ImageTexture(const ImageTexture&) = delete;
  ImageTexture& operator=(const ImageTexture&) = delete;

  // Copies the image into the array on @p stream (rows of @p pitch bytes).
  void fill(const std::uint8_t* in, const gauss::ImageGeometry& image, cudaStream_t stream) const {
    GAUSS_CUDA_CHECK(cudaMemcpy2DToArrayAsync(array_, 0, 0, in, image.pitch, image.width, image.height,
                                              cudaMemcpyDeviceToDevice, stream));
  }
  cudaTextureObject_t object() const { return object_; }

 private:
  cudaArray_t array_ = nullptr;
  cudaTextureObject_t object_ = 0;
};

namespace {

template <int RADIUS>
__global__ void blur_image(cudaTextureObject_t in, std::uint8_t* out, int width, int height, int pitch,
                           gauss::GaussTaps taps) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height) return;
  constexpr int kTaps = 2 * RADIUS + 1;
  float w[kTaps];
#pragma unroll
  for (int i = 0; i < kTaps; ++i) w[i] = taps.w[i];
  float sum = 0.0f;
#pragma unroll
  for (int dy = -RADIUS; dy <= RADIUS; ++dy) {
#pragma unroll
    for (int dx = -RADIUS; dx <= RADIUS; ++dx) {
      // Pixel centres are at +0.5; point filtering returns that pixel, or
      // the nearest edge pixel outside the image.
      const float texel = tex2D<float>(in, x + dx + 0.5f, y + dy + 0.5f);
      sum += w[dy + RADIUS] * w[dx + RADIUS] * texel;
    }
  }
  out[y * pitch + x] = static_cast<std::uint8_t>(min(static_cast<unsigned int>(sum * 255.0f + 0.5f), 255u));
}

template <int FETCHES>
__global__ void blur_image_linear(cudaTextureObject_t in, std::uint8_t* out, int width, int height, int pitch,
                                  gauss::GaussTaps offsets, gauss::GaussTaps weights) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height) return;
  float sum = 0.0f;
#pragma unroll
  for (int j = 0; j < FETCHES; ++j) {
    const float v = y + 0.5f + offsets.w[j];
#pragma unroll
    for (int i = 0; i < FETCHES; ++i) {
      // One bilinear read mixes up to four pixels, each clamped to the edge
      // first; the mixing weights have 8 fractional bits (see samplers.hpp).
      const float texel = tex2D<float>(in, x + 0.5f + offsets.w[i], v);
      sum += weights.w[j] * weights.w[i] * texel;
    }
  }
  out[y * pitch + x] = static_cast<std::uint8_t>(min(static_cast<unsigned int>(sum * 255.0f + 0.5f), 255u));
}

constexpr unsigned int kBlockX = 32;
constexpr unsigned int kBlockY = 8;

dim3 grid_for(const gauss::ImageGeometry& image) {
  return dim3(gauss::div_up(image.width, kBlockX), gauss::div_up(image.height, kBlockY));
}

}  // namespace

std::shared_ptr<ImageTexture> make_image_texture(const gauss::Problem& problem, bool linear) {
  return std::make_shared<ImageTexture>(problem.image, linear);
}

void launch_blur_image(const ImageTexture& texture, const std::uint8_t* in, std::uint8_t* out,
                       const gauss::Problem& problem, cudaStream_t stream) {
  const gauss::ImageGeometry& image = problem.image;
  texture.fill(in, image, stream);
  gauss::with_radius(problem.blur.radius, [&](auto radius) {
    blur_image<radius.value><<<grid_for(image), dim3(kBlockX, kBlockY), 0, stream>>>(
        texture.object(), out, image.width, image.height, image.pitch, problem.taps);
  });
}

void launch_blur_image_linear(const ImageTexture& texture, const std::uint8_t* in, std::uint8_t* out,
                              const gauss::Problem& problem, int fetches, const gauss::GaussTaps& offsets,
                              const gauss::GaussTaps& weights, cudaStream_t stream) {
  const gauss::ImageGeometry& image = problem.image;
  texture.fill(in, image, stream);
  // 1 + 2 ceil(R/2) reads per dimension: 3, 5, ... 17 for R = 1 .. 16.
  gauss::with_radius(problem.blur.radius, [&](auto radius) {
    constexpr int kFetches = 1 + 2 * ((radius.value + 1) / 2);
    if (fetches != kFetches) throw std::invalid_argument("linear taps do not match the radius");
    blur_image_linear<kFetches><<<grid_for(image), dim3(kBlockX, kBlockY), 0, stream>>>(
        texture.object(), out, image.width, image.height, image.pitch, offsets, weights);
  });
}
