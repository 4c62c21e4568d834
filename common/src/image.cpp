#include "gauss/image.hpp"

#include <stb_image.h>
#include <stb_image_resize.h>
#include <stb_image_write.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <string>
#include <system_error>

#include <unistd.h>

#include "gauss/error.hpp"

namespace fs = std::filesystem;

namespace gauss {
namespace {

std::string quoted(const std::string& path) { return "'" + path + "'"; }

void check_size(int width, int height, const std::string& what) {
  if (width < 1 || height < 1 || width > kMaxImageSide || height > kMaxImageSide ||
      static_cast<std::size_t>(width) * static_cast<std::size_t>(height) > kMaxImagePixels) {
    throw InputError(what + " is " + std::to_string(width) + "x" + std::to_string(height) + ": sizes must be 1 to " +
                     std::to_string(kMaxImageSide) + " pixels a side and at most " +
                     std::to_string(kMaxImagePixels >> 20) + " megapixels");
  }
}

// Rec. 601 luma in integers, rounded: the same bytes on every machine.
std::uint8_t luma(std::uint8_t r, std::uint8_t g, std::uint8_t b) {
  return static_cast<std::uint8_t>((299 * r + 587 * g + 114 * b + 500) / 1000);
}

// Writes one pixel given as R, G, B, A into @p q, laid out as @p format.
void store_pixel(std::uint8_t* q, PixelFormat format, std::uint8_t r, std::uint8_t g, std::uint8_t b, std::uint8_t a) {
  switch (format) {
    case PixelFormat::Gray:
      q[0] = luma(r, g, b);  // luma(v, v, v) == v: gray files stay as they are
      break;
    case PixelFormat::Rgba:
      q[3] = a;
      [[fallthrough]];
    case PixelFormat::Rgb:
      q[0] = r;
      q[1] = g;
      q[2] = b;
      break;
  }
}

}  // namespace

int channels_of(PixelFormat format) {
  switch (format) {
    case PixelFormat::Gray:
      return 1;
    case PixelFormat::Rgb:
      return 3;
    case PixelFormat::Rgba:
      return 4;
  }
  return 1;
}

const char* name_of(PixelFormat format) {
  switch (format) {
    case PixelFormat::Gray:
      return "gray";
    case PixelFormat::Rgb:
      return "RGB";
    case PixelFormat::Rgba:
      return "RGBA";
  }
  return "?";
}

Image Image::make(int width, int height, PixelFormat format, std::uint8_t fill) {
  check_size(width, height, "the image");
  Image image;
  image.width = width;
  image.height = height;
  image.channels = channels_of(format);
  image.pitch = width * image.channels;
  image.pixels.assign(static_cast<std::size_t>(image.pitch) * static_cast<std::size_t>(height), fill);
  return image;
}

ImageFileInfo probe_image(const std::string& path) {
  std::error_code ec;
  const fs::file_status status = fs::status(path, ec);
  if (ec || !fs::exists(status)) throw InputError("cannot open " + quoted(path) + ": no such file");
  if (fs::is_directory(status)) throw InputError(quoted(path) + " is a directory, not an image file");
  if (!fs::is_regular_file(status)) throw InputError(quoted(path) + " is not a regular file");
  if (fs::file_size(path, ec) == 0) throw InputError(quoted(path) + " is empty");

  std::FILE* file = std::fopen(path.c_str(), "rb");
  if (file == nullptr) throw InputError("cannot open " + quoted(path) + ": " + std::strerror(errno));
  ImageFileInfo info;
  const int known = stbi_info_from_file(file, &info.width, &info.height, &info.channels);
  if (!known) {
    // stb_image refuses PNGs too large to decode without saying how large;
    // the size is in the header (IHDR), so name it.
    unsigned char header[24] = {};
    std::rewind(file);
    const bool png = std::fread(header, 1, sizeof header, file) == sizeof header &&
                     std::memcmp(header, "\x89PNG\r\n\x1a\n", 8) == 0 && std::memcmp(header + 12, "IHDR", 4) == 0;
    std::fclose(file);
    if (png) {
      auto be32 = [&](int at) {
        return (std::uint32_t{header[at]} << 24) | (std::uint32_t{header[at + 1]} << 16) |
               (std::uint32_t{header[at + 2]} << 8) | std::uint32_t{header[at + 3]};
      };
      const std::uint32_t w = be32(16);
      const std::uint32_t h = be32(20);
      if (w > static_cast<std::uint32_t>(kMaxImageSide) || h > static_cast<std::uint32_t>(kMaxImageSide) ||
          std::uint64_t{w} * h > kMaxImagePixels) {
        throw InputError(quoted(path) + " is " + std::to_string(w) + "x" + std::to_string(h) + ": sizes must be 1 to " +
                         std::to_string(kMaxImageSide) + " pixels a side and at most " +
                         std::to_string(kMaxImagePixels >> 20) + " megapixels");
      }
    }
  } else {
    std::fclose(file);
  }
  if (!known) {
    throw InputError(quoted(path) +
                     " is not an image this program reads (PNG, JPEG, BMP, PGM/PPM): " + stbi_failure_reason());
  }
  check_size(info.width, info.height, quoted(path));
  return info;
}

Image load_image(const std::string& path, PixelFormat format) {
  const ImageFileInfo info = probe_image(path);
  int width = 0;
  int height = 0;
  int channels = 0;
  std::unique_ptr<stbi_uc, void (*)(void*)> data(stbi_load(path.c_str(), &width, &height, &channels, 0),
                                                 stbi_image_free);
  if (!data) throw InputError("cannot decode " + quoted(path) + ": " + stbi_failure_reason());
  if (width != info.width || height != info.height) {
    throw InputError("cannot decode " + quoted(path) + ": header and data disagree on the size");
  }

  Image image = Image::make(width, height, format);
  const stbi_uc* src = data.get();
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) {
      const stbi_uc* p = src + (static_cast<std::size_t>(y) * width + x) * channels;
      // The file's channels: 1 gray, 2 gray+alpha, 3 RGB, 4 RGBA.
      const std::uint8_t r = p[0];
      const std::uint8_t g = channels >= 3 ? p[1] : p[0];
      const std::uint8_t b = channels >= 3 ? p[2] : p[0];
      const std::uint8_t a = channels == 4 ? p[3] : channels == 2 ? p[1] : 255;
      store_pixel(&image.at(x, y), format, r, g, b, a);
    }
  }
  return image;
}

Image convert(const Image& image, PixelFormat format) {
  if (image.format() == format) return image;
  Image out = Image::make(image.width, image.height, format);
  for (int y = 0; y < image.height; ++y) {
    for (int x = 0; x < image.width; ++x) {
      const std::uint8_t* p = image.row(y) + static_cast<std::size_t>(x) * image.channels;
      const bool gray = image.channels == 1;
      store_pixel(&out.at(x, y), format, p[0], gray ? p[0] : p[1], gray ? p[0] : p[2],
                  image.channels == 4 ? p[3] : 255);
    }
  }
  return out;
}

Image resize(const Image& image, int width, int height) {
  if (image.width == width && image.height == height) return image;
  Image out = Image::make(width, height, image.format());
  if (!stbir_resize_uint8(image.pixels.data(), image.width, image.height, image.pitch, out.pixels.data(), width, height,
                          out.pitch, image.channels)) {
    throw InputError("cannot resample the image to " + to_string({width, height}));
  }
  return out;
}

void save_png(const Image& image, const std::string& path) {
  // Write beside the target, then rename: readers never see a partial file.
  const std::string temporary = path + ".partial-" + std::to_string(::getpid());
  if (!stbi_write_png(temporary.c_str(), image.width, image.height, image.channels, image.pixels.data(), image.pitch)) {
    std::error_code ignored;
    fs::remove(temporary, ignored);
    throw InputError("cannot write " + quoted(path) + ": " + std::strerror(errno));
  }
  std::error_code ec;
  fs::rename(temporary, path, ec);
  if (ec) {
    std::error_code ignored;
    fs::remove(temporary, ignored);
    throw InputError("cannot write " + quoted(path) + ": " + ec.message());
  }
}

ImageSize parse_size(const std::string& text) {
  const std::string expected = "size " + quoted(text) + ": expected WIDTHxHEIGHT, e.g. 6720x4480";
  const std::size_t x = text.find('x');
  if (x == std::string::npos || x == 0 || x + 1 == text.size()) throw InputError(expected);
  ImageSize size;
  try {
    std::size_t used_w = 0;
    std::size_t used_h = 0;
    const long w = std::stol(text.substr(0, x), &used_w);
    const long h = std::stol(text.substr(x + 1), &used_h);
    if (used_w != x || used_h != text.size() - x - 1) throw InputError(expected);
    if (w < 1 || h < 1 || w > kMaxImageSide || h > kMaxImageSide) {
      throw InputError("size " + quoted(text) + ": width and height must each be 1 to " +
                       std::to_string(kMaxImageSide));
    }
    size = {static_cast<int>(w), static_cast<int>(h)};
  } catch (const std::logic_error&) {  // stol: not a number, or out of range
    throw InputError(expected);
  }
  check_size(size.width, size.height, "size " + quoted(text));
  return size;
}

std::string to_string(ImageSize size) { return std::to_string(size.width) + "x" + std::to_string(size.height); }

}  // namespace gauss
