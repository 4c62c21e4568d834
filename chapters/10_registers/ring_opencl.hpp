// Chapter 10: the OpenCL set-up of the ring-of-rows blur (blur_ring.cl), here
// rather than in main.cpp so that later chapters, whose own kernels serve
// only some blurs, fall back to it for the rest by including this header
// (their CMakeLists.txt USES 10_registers).
//
// Radius 1 and 2 take the strip kernel (16-byte loads, a ring of rows in
// registers), larger radii the tile kernel. The shape is baked into the
// program with -D options, so its loops unroll.
#pragma once

#include <string>
#include <vector>

#include "blur_ring_cl.hpp"  // blur_ring.cl, embedded at build time
#include "gauss/opencl.hpp"
#include "gauss/problem.hpp"
#include "gauss/variant.hpp"
#include "ring_plan.hpp"

namespace ring {

/// The OpenCL launch of blur_ring.cl for @p p. The section `shapes` overrides
/// the output rows per item and the rows loaded ahead (0 and -1: ring_plan.hpp's).
inline gauss::OpenClLaunch opencl_shaped(gauss::OpenClSession& cl, const gauss::Problem& p, int rows_override,
                                         int ahead_override) {
  const gauss::ImageGeometry g = p.image;
  const int channels = g.channels;
  const int radius = p.blur.radius;
  const int px = opencl_pixels_per_item(channels);
  const int rows = rows_override > 0 ? rows_override : opencl_rows_per_item(radius);
  const int ahead = ahead_override >= 0 ? ahead_override : opencl_rows_ahead(channels);
  // Halve the tile where the device's local memory cannot hold it (RGBA at
  // large radii needs 37 KB; OpenCL promises only 32 KB).
  const int tile = tile_bytes(kTile, channels, radius) <= static_cast<int>(cl.info.local_memory) ? kTile : kTile / 2;
  const std::string options = "-D CHANNELS=" + std::to_string(channels) + " -D RADIUS=" + std::to_string(radius) +
                              " -D PX=" + std::to_string(px) + " -D ROWS=" + std::to_string(rows) +
                              " -D AHEAD=" + std::to_string(ahead) + " -D TILE=" + std::to_string(tile);
  const bool strip = opencl_uses_strip(radius);
  cl::Kernel kernel = cl.kernel(gauss::embedded::blur_ring_cl, strip ? "blur_strip" : "blur_tile", options);

  cl::NDRange local(tile, tile);
  cl::NDRange global(gauss::round_up(g.width, tile), gauss::round_up(g.height, tile));
  if (strip) {
    // One item per PX x ROWS block of pixels, rounded up to whole groups.
    local = cl::NDRange(32, kWarpsPerBlock);
    global = cl::NDRange(gauss::round_up((g.width + px - 1) / px, 32),
                         gauss::round_up((g.height + rows - 1) / rows, kWarpsPerBlock));
  }
  // Buffers are aligned far beyond 16 bytes; rows are when the pitch is.
  const int aligned = g.pitch % 16 == 0 ? 1 : 0;
  return [&cl, kernel, global, local, p, strip, aligned](const cl::Buffer& in, const cl::Buffer& out) mutable {
    int arg = 0;
    kernel.setArg(arg++, in);
    kernel.setArg(arg++, out);
    kernel.setArg(arg++, p.image.width);
    kernel.setArg(arg++, p.image.height);
    kernel.setArg(arg++, p.image.pitch);
    if (strip) kernel.setArg(arg++, aligned);
    kernel.setArg(arg++, p.taps);
    cl::Event done;
    cl.queue.enqueueNDRangeKernel(kernel, cl::NullRange, global, local, nullptr, &done);
    return std::vector<cl::Event>{done};
  };
}

/// The OpenCL launch of blur_ring.cl in ring_plan.hpp's shape: chapter 10's
/// `main` and `main_rgba`, and every later chapter's fallback.
inline gauss::OpenClLaunch opencl_setup(gauss::OpenClSession& cl, const gauss::Problem& p) {
  return opencl_shaped(cl, p, 0, -1);
}

}  // namespace ring
