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
#include "gauss/error.hpp"
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

/// The OpenCL launch of @p kernel for @p p: opencl_groups_per_cu() groups of
/// kWarps warps per compute unit (the portable kernel:
/// opencl_portable_groups_per_cu), each looping over the tiles, loading each
/// tile as @p schedule says (the portable kernel: always overlapped). Tiles are
/// opencl_tile_rows() high where the group's local memory fits the device (NVIDIA
/// gives a group 48 KB, AMD and Intel 64 KB); a device with less (Oclgrind,
/// some mobile GPUs: 32 KB) gets lower tiles: 32 rows, then 16.
inline gauss::OpenClLaunch opencl_setup(gauss::OpenClSession& cl, const gauss::Problem& p, OpenClKernel kernel,
                                        Schedule schedule = Schedule::Overlapped) {
  const gauss::ImageGeometry g = p.image;
  const bool floats = kernel == OpenClKernel::Float;
  cl::Kernel k;
  const int tile_width = floats ? kPortableTileWidth : kTileWidth;
  int rows = floats ? portable_tile_rows(g.channels) : opencl_tile_rows(g.channels);
  for (;; rows = rows > 32 ? 32 : rows / 2) {  // multiples of 16
    const std::string options = "-D RADIUS=" + std::to_string(p.blur.radius) +
                                " -D CHANNELS=" + std::to_string(g.channels) + " -D TH=" + std::to_string(rows) +
                                " -D TW=" + std::to_string(tile_width) + " -D WARPS=" + std::to_string(kWarps) +
                                // No -cl-nv-maxrregcount: with the group's size fixed in the kernel
                                // (reqd_work_group_size), NVIDIA's compiler ignores that cap (README, Why).
                                (kernel == OpenClKernel::TensorCores ? " -D NV_PTX" : "") +
                                (schedule == Schedule::Serial && !floats ? " -D SERIAL" : "");
    k = cl.kernel(gauss::embedded::blur_mma_cl, floats ? "blur_tiles_f32" : "blur_mma", options);
    const std::size_t local_bytes = k.getWorkGroupInfo<CL_KERNEL_LOCAL_MEM_SIZE>(cl.info.device);
    if (local_bytes <= cl.info.local_memory) break;
    if (rows == 16) {
      throw gauss::InputError("15_every_radius: a tile of 16 rows needs " + std::to_string(local_bytes) +
                              " bytes of local memory at radius " + std::to_string(p.blur.radius) + "; " +
                              cl.info.name + " gives a work-group " + std::to_string(cl.info.local_memory));
    }
  }
  const int tiles = ((g.width + tile_width - 1) / tile_width) * ((g.height + rows - 1) / rows);
  const int per_cu = floats ? opencl_portable_groups_per_cu : opencl_groups_per_cu(g.channels, p.blur.radius);
  const int groups = std::min(tiles, std::max(cl.info.compute_units, 1) * per_cu);
  const cl::NDRange local(32, kWarps);
  const cl::NDRange global(32 * static_cast<std::size_t>(groups), kWarps);
  // The tensor-core kernel reads its weights from a __constant buffer: passed
  // by value, NVIDIA's compiler copies the 264 bytes into each item's local
  // memory to index them by lane (README, Why). The portable kernel takes its
  // float taps by value (it reads them at fixed indices): no buffer.
  cl::Buffer weight_buffer;
  if (!floats) {
    Weights weights = quantise(p.blur);
    weight_buffer = cl::Buffer(cl.context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof(weights), &weights);
  }
  const TileWalk walk = tile_walk(g.width, g.height, tile_width, rows, groups);
  return [&cl, k, global, local, g, floats, weight_buffer, walk, taps = p.taps](const cl::Buffer& in,
                                                                                const cl::Buffer& out) mutable {
    if (floats)
      gauss::sections::set_args(k, in, out, g.width, g.height, g.pitch, taps, walk);
    else
      gauss::sections::set_args(k, in, out, g.width, g.height, g.pitch, weight_buffer, walk);
    cl::Event done;
    cl.queue.enqueueNDRangeKernel(k, cl::NullRange, global, local, nullptr, &done);
    return std::vector<cl::Event>{done};
  };
}

}  // namespace mma
