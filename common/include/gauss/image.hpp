/// @file image.hpp
/// @brief 8-bit images: load (PNG, JPEG, BMP, PGM/PPM through stb_image),
///        convert, resample and save PNG (atomically).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace gauss {

/// The pixel layouts the chapters blur.
enum class PixelFormat {
  Gray,  ///< one byte per pixel
  Rgb,   ///< three bytes per pixel: R, G, B (24-bit, rows not a multiple of 4 bytes)
  Rgba,  ///< four bytes per pixel: R, G, B, A
};

/// Bytes per pixel of a format (1, 3 or 4).
int channels_of(PixelFormat format);
/// "gray", "RGB" or "RGBA".
const char* name_of(PixelFormat format);

/// Largest accepted image: 65536 pixels a side and 2^28 pixels (1 GiB as RGBA).
inline constexpr int kMaxImageSide = 65536;
inline constexpr std::size_t kMaxImagePixels = std::size_t{1} << 28;

/// What a kernel needs to know about an image in device memory.
struct ImageGeometry {
  int width = 0;
  int height = 0;
  int channels = 1;  ///< 1 (gray), 3 (RGB) or 4 (RGBA)
  int pitch = 0;     ///< bytes from one row to the next (>= width * channels)

  /// Bytes the image occupies: pitch * height.
  std::size_t bytes() const { return static_cast<std::size_t>(pitch) * static_cast<std::size_t>(height); }
};

/// An 8-bit image in host memory, rows @c pitch bytes apart.
struct Image {
  int width = 0;
  int height = 0;
  int channels = 1;  ///< 1 (gray), 3 (RGB) or 4 (RGBA)
  int pitch = 0;     ///< bytes per row
  std::vector<std::uint8_t> pixels;

  /// A width x height image of the given format, every byte set to @p fill.
  /// Throws InputError for sizes outside 1..kMaxImageSide or above kMaxImagePixels.
  static Image make(int width, int height, PixelFormat format, std::uint8_t fill = 0);

  PixelFormat format() const {
    return channels == 4 ? PixelFormat::Rgba : channels == 3 ? PixelFormat::Rgb : PixelFormat::Gray;
  }
  ImageGeometry geometry() const { return {width, height, channels, pitch}; }
  std::size_t bytes() const { return pixels.size(); }
  std::uint8_t* row(int y) { return pixels.data() + static_cast<std::size_t>(y) * pitch; }
  const std::uint8_t* row(int y) const { return pixels.data() + static_cast<std::size_t>(y) * pitch; }
  /// Channel @p c of pixel (x, y).
  std::uint8_t& at(int x, int y, int c = 0) { return row(y)[x * channels + c]; }
  std::uint8_t at(int x, int y, int c = 0) const { return row(y)[x * channels + c]; }
};

/// What an image file holds, read from its header without decoding it.
struct ImageFileInfo {
  int width = 0;
  int height = 0;
  int channels = 0;  ///< in the file: 1 gray, 2 gray+alpha, 3 RGB, 4 RGBA
};

/// Reads the header of an image file. Throws InputError naming the problem:
/// missing file, a directory, an empty or unreadable file, an unknown format,
/// a size beyond kMaxImageSide / kMaxImagePixels.
ImageFileInfo probe_image(const std::string& path);

/// Loads an image file and converts it to @p format (colour to gray uses
/// integer Rec. 601 luma; gray to colour replicates; missing alpha is 255;
/// alpha is dropped for RGB).
/// Throws InputError as probe_image() does, and for corrupt or truncated data.
Image load_image(const std::string& path, PixelFormat format);

/// Converts between gray, RGB and RGBA (same rules as load_image()).
Image convert(const Image& image, PixelFormat format);

/// Resamples to width x height (stb_image_resize, Mitchell/Catmull-Rom filters).
Image resize(const Image& image, int width, int height);

/// Writes a PNG. It writes a temporary file beside @p path and renames it,
/// so a failed or interrupted run never leaves a half-written image.
/// Throws InputError if the file cannot be written.
void save_png(const Image& image, const std::string& path);

/// A width and a height.
struct ImageSize {
  int width = 0;
  int height = 0;
};

/// Parses "WxH" (e.g. "6720x4480"). Throws InputError for anything else,
/// for zero or negative sides and for sizes beyond the limits above.
ImageSize parse_size(const std::string& text);

/// "6720x4480".
std::string to_string(ImageSize size);

}  // namespace gauss
