// Chapter 15: the OpenCL set-up of blur_mma.cl's two kernels: the tensor-core
// kernel (inline PTX on NVIDIA's platform, or its emulation anywhere, which the
// tests and the section `mma_check` run on the CPU) and the portable float one.
#pragma once

#include <algorithm>
#include <cstddef>
#include <string>
#include <vector>

#include "blur_mma_cl.hpp"  // blur_mma.cl, embedded at build time
#include "blur_mma_plan.hpp"
#include "gauss/opencl.hpp"
#include "gauss/problem.hpp"
#include "gauss/section_tools.hpp"
#include "gauss/variant.hpp"

namespace mma {

/// NVIDIA's platform takes inline PTX (mma.sync, ldmatrix).
inline bool has_ptx(const gauss::OpenClSession& cl) {
  return cl.info.platform_name.find("NVIDIA") != std::string::npos;
}

/// Which kernel of blur_mma.cl.
enum class OpenClKernel {
  TensorCores,  ///< blur_mma with mma.sync (NVIDIA's platform only)
  Emulated,     ///< blur_mma with the matrix instructions emulated (correct anywhere, slow)
  Float,        ///< blur_tiles_f32: the portable kernel, float multiply-adds
};

/// The OpenCL launch of @p kernel for @p p: one group of kWarps warps per
/// compute unit x blocks_per_sm, each looping over the tiles.
inline gauss::OpenClLaunch opencl_setup(gauss::OpenClSession& cl, const gauss::Problem& p, OpenClKernel kernel) {
  const gauss::ImageGeometry g = p.image;
  const int radius = p.blur.radius;
  const std::string options = "-D RADIUS=" + std::to_string(radius) + " -D CHANNELS=" + std::to_string(g.channels) +
                              " -D TH=" + std::to_string(tile_rows(g.channels)) + " -D TW=" +
                              std::to_string(kTileWidth) + " -D WARPS=" + std::to_string(kWarps) +
                              (kernel == OpenClKernel::TensorCores ? " -D NV_PTX" : "");
  const bool floats = kernel == OpenClKernel::Float;
  cl::Kernel k = cl.kernel(gauss::embedded::blur_mma_cl, floats ? "blur_tiles_f32" : "blur_mma", options);
  const int tiles = ((g.width + kTileWidth - 1) / kTileWidth) *
                    ((g.height + tile_rows(g.channels) - 1) / tile_rows(g.channels));
  const int groups = std::min(tiles, std::max(cl.info.compute_units, 1) * blocks_per_sm(g.channels));
  const cl::NDRange local(32, kWarps);
  const cl::NDRange global(32 * static_cast<std::size_t>(groups), kWarps);
  const Weights weights = quantise(p.blur);
  return [&cl, k, global, local, g, floats, weights, taps = p.taps](const cl::Buffer& in, const cl::Buffer& out) mutable {
    if (floats)
      gauss::sections::set_args(k, in, out, g.width, g.height, g.pitch, taps);
    else
      gauss::sections::set_args(k, in, out, g.width, g.height, g.pitch, weights);
    cl::Event done;
    cl.queue.enqueueNDRangeKernel(k, cl::NullRange, global, local, nullptr, &done);
    return std::vector<cl::Event>{done};
  };
}

}  // namespace mma
