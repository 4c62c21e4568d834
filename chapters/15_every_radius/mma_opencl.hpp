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

/// @p ptx with `.minnctapersm @p groups_per_cu` on the line after its
/// `.reqntid` (the kernel's one entry). Throws ApiError where there is no
/// `.reqntid` line: the directive needs it (or `.maxntid`).
inline std::string with_min_groups_directive(std::string ptx, int groups_per_cu) {
  while (!ptx.empty() && ptx.back() == '\0') ptx.pop_back();
  const std::size_t directive = ptx.find(".reqntid");
  const std::size_t line_end = directive == std::string::npos ? directive : ptx.find('\n', directive);
  if (line_end == std::string::npos) throw gauss::ApiError("15_every_radius: the kernel's PTX has no .reqntid line");
  ptx.insert(line_end + 1, ".minnctapersm " + std::to_string(groups_per_cu) + "\n");
  return ptx;
}

/// OpenCL C has no `__launch_bounds__`: NVIDIA's compiler chooses each item's
/// registers by its own rule, and at some radii it spills a few bytes to reach
/// an occupancy the launch never asks for (H200, driver 580: gray at radius 1, 2
/// and 4, 64 registers, the budget of four work-groups of 256 a compute unit,
/// where the launch runs three; README, Why). PTX has the directive that CUDA's
/// `__launch_bounds__(256, N)` writes, `.minnctapersm N`, and NVIDIA's runtime
/// builds PTX given as a program's binary: this rebuilds @p kernel's PTX with
/// the launch's work-groups a compute unit there (after its `.reqntid`, which
/// the kernel's reqd_work_group_size gives it).
inline cl::Kernel with_groups_per_cu(gauss::OpenClSession& cl, const cl::Kernel& kernel, int groups_per_cu) {
  const auto program = kernel.getInfo<CL_KERNEL_PROGRAM>();
  const std::vector<std::vector<unsigned char>> binaries = program.getInfo<CL_PROGRAM_BINARIES>();
  if (binaries.size() != 1) throw gauss::ApiError("15_every_radius: expected one PTX program for the one device");
  const std::string ptx =
      with_min_groups_directive(std::string(binaries.front().begin(), binaries.front().end()), groups_per_cu);
  std::vector<unsigned char> patched(ptx.begin(), ptx.end());
  patched.push_back('\0');
  cl::Program rebuilt(cl.context, std::vector<cl::Device>{cl.info.device}, cl::Program::Binaries{patched});
  try {
    rebuilt.build(std::vector<cl::Device>{cl.info.device});
  } catch (const cl::Error& error) {
    throw gauss::ApiError("15_every_radius: building the PTX with .minnctapersm " + std::to_string(groups_per_cu) +
                          " failed: " + gauss::describe(error) + "\n" +
                          rebuilt.getBuildInfo<CL_PROGRAM_BUILD_LOG>(cl.info.device));
  }
  return cl::Kernel(rebuilt, kernel.getInfo<CL_KERNEL_FUNCTION_NAME>().c_str());
}

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
  int rows = floats ? portable_tile_rows(g.channels) : opencl_tile_rows(g.channels, schedule);
  for (;; rows = rows > 32 ? 32 : rows / 2) {  // multiples of 16
    const std::string options = "-D RADIUS=" + std::to_string(p.blur.radius) +
                                " -D CHANNELS=" + std::to_string(g.channels) + " -D TH=" + std::to_string(rows) +
                                " -D TW=" + std::to_string(tile_width) + " -D WARPS=" + std::to_string(kWarps) +
                                // No -cl-nv-maxrregcount: with the group's size fixed in the kernel
                                // (reqd_work_group_size), NVIDIA's compiler ignores that cap (README, Why).
                                (kernel == OpenClKernel::TensorCores ? " -D NV_PTX" : "") +
                                (schedule == Schedule::Serial && !floats ? " -D SERIAL" : "") +
                                // Rows not all 16-byte aligned: the kernel that shifts words into place.
                                (aligned_rows(g) ? "" : " -D SHIFTED_ROWS");
    k = cl.kernel(gauss::embedded::blur_mma_cl, floats ? "blur_tiles_f32" : "blur_mma", options);
    const std::size_t local_bytes = k.getWorkGroupInfo<CL_KERNEL_LOCAL_MEM_SIZE>(cl.info.device);
    if (local_bytes <= cl.info.local_memory) break;
    if (rows == 16) {
      throw gauss::InputError("15_every_radius: a tile of 16 rows needs " + std::to_string(local_bytes) +
                              " bytes of local memory at radius " + std::to_string(p.blur.radius) + "; " +
                              cl.info.name + " gives a work-group " + std::to_string(cl.info.local_memory));
    }
  }
  const int per_cu = floats ? opencl_portable_groups_per_cu : opencl_groups_per_cu(g.channels, p.blur.radius);
  const int groups = walk_blocks(g.width, g.height, tile_width, rows, std::max(cl.info.compute_units, 1) * per_cu);
  // Private memory is where the compiler spilled: there, tell it the launch's
  // work-groups. So too the 32-row RGBA tile, which it gives 254-255 registers
  // (no spill, one group a compute unit: opencl_tile_rows). Only there: with
  // the directive ptxas spills 16-24 bytes at 80 registers where its own rule
  // had given 80 with none (gray radius 3 and 5-8), 1.03-1.11x slower on the H200.
  const bool over_budget = g.channels == 4 && rows == 32;
  if (kernel == OpenClKernel::TensorCores &&
      (over_budget || k.getWorkGroupInfo<CL_KERNEL_PRIVATE_MEM_SIZE>(cl.info.device) > 0))
    k = with_groups_per_cu(cl, k, per_cu);
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
