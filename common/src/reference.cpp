#include "gauss/reference.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <thread>
#include <vector>

namespace gauss {
namespace {

// Rounds half up to 8 bits: floor(sum + 0.5), kept within 0..255.
std::uint8_t round_to_byte(double sum) {
  const double rounded = std::floor(sum + 0.5);
  return static_cast<std::uint8_t>(std::clamp(rounded, 0.0, 255.0));
}

// Byte offset of column x + k for k = -r..r, clamped to the image: entry
// [x + r + k]. One table per image saves a clamp per tap.
std::vector<int> clamped_columns(int width, int radius, int channels) {
  std::vector<int> offsets(static_cast<std::size_t>(width + 2 * radius));
  for (int i = 0; i < width + 2 * radius; ++i)
    offsets[static_cast<std::size_t>(i)] = std::clamp(i - radius, 0, width - 1) * channels;
  return offsets;
}

// Gray and RGB blur every channel; RGBA blurs R, G, B and carries alpha.
int blurred_channels(const Image& image) { return image.channels == 4 ? 3 : image.channels; }

// Rows [y0, y1) of the direct 2-D sum: (2r+1)^2 products per value.
void direct_rows(const Image& in, Image& out, const std::vector<double>& w, int radius, int y0, int y1) {
  const int taps = 2 * radius + 1;
  const std::vector<int> columns = clamped_columns(in.width, radius, in.channels);
  std::vector<double> w2(static_cast<std::size_t>(taps * taps));
  for (int i = 0; i < taps; ++i)
    for (int j = 0; j < taps; ++j)
      w2[static_cast<std::size_t>(i * taps + j)] = w[static_cast<std::size_t>(i)] * w[static_cast<std::size_t>(j)];

  std::vector<const std::uint8_t*> rows(static_cast<std::size_t>(taps));
  for (int y = y0; y < y1; ++y) {
    for (int i = 0; i < taps; ++i)
      rows[static_cast<std::size_t>(i)] = in.row(std::clamp(y + i - radius, 0, in.height - 1));
    std::uint8_t* dst = out.row(y);
    for (int x = 0; x < in.width; ++x) {
      for (int c = 0; c < blurred_channels(in); ++c) {
        double sum = 0.0;
        for (int i = 0; i < taps; ++i) {
          const std::uint8_t* src = rows[static_cast<std::size_t>(i)] + c;
          const double* wi = &w2[static_cast<std::size_t>(i * taps)];
          for (int j = 0; j < taps; ++j) sum += wi[j] * src[columns[static_cast<std::size_t>(x + j)]];
        }
        dst[x * in.channels + c] = round_to_byte(sum);
      }
      if (in.channels == 4) dst[x * 4 + 3] = in.row(y)[x * 4 + 3];  // alpha is carried through
    }
  }
}

// Rows [y0, y1) of the separable sum: a horizontal pass per input row (kept
// in double), then a vertical pass over the 2r+1 horizontal rows each output
// row needs. Input row s is kept in slot s % (2r+1): the rows one output row
// needs are consecutive, so they never share a slot.
void separable_rows(const Image& in, Image& out, const std::vector<double>& w, int radius, int y0, int y1) {
  const int taps = 2 * radius + 1;
  const int channels = blurred_channels(in);
  const std::vector<int> columns = clamped_columns(in.width, radius, in.channels);
  const std::size_t row_values = static_cast<std::size_t>(in.width) * static_cast<std::size_t>(channels);
  std::vector<std::vector<double>> slots(static_cast<std::size_t>(taps), std::vector<double>(row_values));
  std::vector<int> held(static_cast<std::size_t>(taps), -1);

  auto horizontal = [&](int s) -> const std::vector<double>& {
    std::vector<double>& h = slots[static_cast<std::size_t>(s % taps)];
    int& owner = held[static_cast<std::size_t>(s % taps)];
    if (owner != s) {
      const std::uint8_t* src = in.row(s);
      for (int x = 0; x < in.width; ++x)
        for (int c = 0; c < channels; ++c) {
          double sum = 0.0;
          for (int j = 0; j < taps; ++j)
            sum += w[static_cast<std::size_t>(j)] * src[columns[static_cast<std::size_t>(x + j)] + c];
          h[static_cast<std::size_t>(x * channels + c)] = sum;
        }
      owner = s;
    }
    return h;
  };

  std::vector<const double*> rows(static_cast<std::size_t>(taps));
  for (int y = y0; y < y1; ++y) {
    for (int i = 0; i < taps; ++i)
      rows[static_cast<std::size_t>(i)] = horizontal(std::clamp(y + i - radius, 0, in.height - 1)).data();
    std::uint8_t* dst = out.row(y);
    for (int x = 0; x < in.width; ++x) {
      for (int c = 0; c < channels; ++c) {
        double sum = 0.0;
        for (int i = 0; i < taps; ++i)
          sum += w[static_cast<std::size_t>(i)] * rows[static_cast<std::size_t>(i)][x * channels + c];
        dst[x * in.channels + c] = round_to_byte(sum);
      }
      if (in.channels == 4) dst[x * 4 + 3] = in.row(y)[x * 4 + 3];
    }
  }
}

}  // namespace

int hardware_threads() { return static_cast<int>(std::max(1u, std::thread::hardware_concurrency())); }

void blur_reference(const Image& in, Image& out, const BlurSpec& spec, ReferenceMethod method, int threads) {
  const std::vector<double> weights = gaussian_weights(spec);  // validates spec
  if (out.width != in.width || out.height != in.height || out.channels != in.channels) {
    out = Image::make(in.width, in.height, in.format());
  }
  const auto rows = method == ReferenceMethod::Direct2D ? direct_rows : separable_rows;

  const int workers = std::clamp(threads <= 0 ? hardware_threads() : threads, 1, in.height);
  if (workers == 1) {
    rows(in, out, weights, spec.radius, 0, in.height);
    return;
  }
  // Each thread owns a band of output rows: no two threads write the same byte.
  std::vector<std::thread> pool;
  pool.reserve(static_cast<std::size_t>(workers));
  for (int t = 0; t < workers; ++t) {
    const int y0 = static_cast<int>(static_cast<long long>(in.height) * t / workers);
    const int y1 = static_cast<int>(static_cast<long long>(in.height) * (t + 1) / workers);
    pool.emplace_back(rows, std::cref(in), std::ref(out), std::cref(weights), spec.radius, y0, y1);
  }
  for (std::thread& thread : pool) thread.join();
}

Image blur_reference(const Image& in, const BlurSpec& spec, ReferenceMethod method, int threads) {
  Image out;
  blur_reference(in, out, spec, method, threads);
  return out;
}

}  // namespace gauss
