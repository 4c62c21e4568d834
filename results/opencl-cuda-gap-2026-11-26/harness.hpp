// What the two harnesses share (interleaved.cpp, back_to_back.cpp): the
// kernel list, the modules, the blur's packed-half weights (fused_plan.hpp's,
// from gauss::gaussian_taps: build with common/src/blur.cpp) and one launch of
// a kernel as its API passes its parameters.
//
// LIST: lines "label file entry kind C NB ROWS [MAXREG]"; file a .ptx (the
// driver compiles it at load; MAXREG caps its registers) or a cubin; kind
//   copy  OpenCL's copy_bytes (in, out, bytes), 256 items a group;
//   cl    an OpenCL kernel (int aligned), grid (row bytes / 30 NB, rows / 4 ROWS);
//   clT   the same with ctaid.x and ctaid.y swapped in its PTX, grid swapped;
//   cu    a CUDA kernel (bool aligned), the same grid;
//   ring  a CUDA kernel of persistent blocks: as many as fit at once, 1D.
#pragma once

#include <cuda.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "fused_plan.hpp"
#include "gauss/blur.hpp"

#define CHECK(call)                                                          \
  do {                                                                       \
    CUresult r_ = (call);                                                    \
    if (r_ != CUDA_SUCCESS) {                                                \
      const char* s_ = nullptr;                                              \
      cuGetErrorString(r_, &s_);                                             \
      std::fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #call, s_); \
      std::exit(1);                                                          \
    }                                                                        \
  } while (0)

struct Kernel {
  std::string label, file, entry, kind;
  int channels = 1, nb = 16, rows = 4, maxreg = 0;
  CUfunction fn{};
};

// Device 0's primary context, made current.
inline CUdevice open_device() {
  CHECK(cuInit(0));
  CUdevice dev;
  CHECK(cuDeviceGet(&dev, 0));
  CUcontext ctx;
  CHECK(cuDevicePrimaryCtxRetain(&ctx, dev));
  CHECK(cuCtxSetCurrent(ctx));
  return dev;
}

// The list's kernels, each module (file and register cap) loaded once. The
// PTX the OpenCL driver dumps ends in NUL bytes: dropped; a cubin is kept whole.
inline std::vector<Kernel> load_kernels(const char* path) {
  std::vector<Kernel> kernels;
  std::map<std::string, CUmodule> modules;
  std::ifstream list(path);
  for (std::string line; std::getline(list, line);) {
    if (line.empty() || line[0] == '#') continue;
    Kernel k;
    std::istringstream in(line);
    in >> k.label >> k.file >> k.entry >> k.kind >> k.channels >> k.nb >> k.rows;
    if (!(in >> k.maxreg)) k.maxreg = 0;
    const std::string key = k.file + "#" + std::to_string(k.maxreg);
    if (!modules.count(key)) {
      std::ifstream f(k.file, std::ios::binary);
      std::string image((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
      if (k.file.size() > 4 && k.file.substr(k.file.size() - 4) == ".ptx")
        image.erase(std::remove(image.begin(), image.end(), '\0'), image.end());
      CUmodule m;
      if (k.maxreg > 0) {
        CUjit_option option = CU_JIT_MAX_REGISTERS;
        void* value = reinterpret_cast<void*>(static_cast<uintptr_t>(k.maxreg));
        CHECK(cuModuleLoadDataEx(&m, image.data(), 1, &option, &value));
      } else {
        CHECK(cuModuleLoadData(&m, image.data()));
      }
      modules[key] = m;
    }
    CHECK(cuModuleGetFunction(&k.fn, modules[key], k.entry.c_str()));
    kernels.push_back(k);
  }
  return kernels;
}

// The weights the chapter passes for its default blur (sigma 1, radius 2).
inline fused::HalfWeights default_blur_weights() { return *fused::half2_weights(2, gauss::gaussian_taps({1.0, 2})); }

// One launch of @p k over an image of @p width x @p height (rows @p pitch
// bytes apart, @p bytes in all), with @p attr where given (cl, clT, cu).
inline void launch(const Kernel& k, CUdevice dev, CUdeviceptr in, CUdeviceptr out, int width, int height, int pitch,
                   unsigned bytes, const fused::HalfWeights& weights, const CUlaunchAttribute* attr = nullptr) {
  fused::HalfWeights hw = weights;
  int w = width, h = height, aligned_i = 1;
  unsigned char aligned_b = 1;
  if (k.kind == "copy") {
    void* params[] = {&in, &out, &bytes};
    const unsigned items = bytes / 16 + bytes % 16;
    CHECK(cuLaunchKernel(k.fn, (items + 255) / 256, 1, 1, 256, 1, 1, 0, nullptr, params, nullptr));
    return;
  }
  void* params_cl[] = {&in, &out, &w, &h, &pitch, &aligned_i, &hw};
  void* params_cu[] = {&in, &out, &w, &h, &pitch, &aligned_b, &hw};
  if (k.kind == "ring") {
    int per_sm = 0, sms = 0;
    CHECK(cuOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, k.fn, 128, 0));
    CHECK(cuDeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev));
    CHECK(cuLaunchKernel(k.fn, unsigned(per_sm * sms), 1, 1, 32, 4, 1, 0, nullptr, params_cu, nullptr));
    return;
  }
  unsigned gx = (w * k.channels + 30 * k.nb - 1) / (30 * k.nb), gy = (h + 4 * k.rows - 1) / (4 * k.rows);
  if (k.kind == "clT") std::swap(gx, gy);  // bands before strips
  void** params = k.kind == "cu" ? params_cu : params_cl;
  if (attr == nullptr) {
    CHECK(cuLaunchKernel(k.fn, gx, gy, 1, 32, 4, 1, 0, nullptr, params, nullptr));
    return;
  }
  CUlaunchConfig config{};
  config.gridDimX = gx;
  config.gridDimY = gy;
  config.gridDimZ = 1;
  config.blockDimX = 32;
  config.blockDimY = 4;
  config.blockDimZ = 1;
  config.attrs = const_cast<CUlaunchAttribute*>(attr);
  config.numAttrs = 1;
  CHECK(cuLaunchKernelEx(&config, k.fn, params, nullptr));
}
