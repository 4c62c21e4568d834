// Is it the code? Chapter 10's OpenCL and CUDA block-tile kernels loaded as
// modules by the CUDA driver API and timed in one harness, each in turn, so
// the only difference left between them is the code: PTX from NVIDIA's
// OpenCL compiler or from nvcc, compiled by the driver at load (JIT) or
// ahead of time by the toolkit's ptxas (a cubin). Every blur's output is
// checked against the first blur's (the outputs poisoned first). Each run is
// its own launch, synchronised, events around it: 3 rounds of warm-up, then
// ROUNDS rounds over the list, five buffer pairs in turn; medians.
//   interleaved WIDTH HEIGHT LIST [ROUNDS]
// LIST: lines "label file entry kind C NB ROWS [MAXREG]", kind cl (OpenCL's
// parameters: int aligned), cu (CUDA's: bool aligned) or copy (OpenCL's
// copy_bytes); MAXREG caps the JIT's registers. run.sh writes the lists.
#include <cuda.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "fused_plan.hpp"

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
  std::vector<float> ms;
};

static std::string slurp(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream s;
  s << f.rdbuf();
  std::string text = s.str();
  text.erase(std::remove(text.begin(), text.end(), '\0'), text.end());
  return text;
}

int main(int argc, char** argv) {
  if (argc < 4) return 2;
  const int width = std::atoi(argv[1]), height = std::atoi(argv[2]);
  const int rounds = argc > 4 ? std::atoi(argv[4]) : 30;
  CHECK(cuInit(0));
  CUdevice dev;
  CHECK(cuDeviceGet(&dev, 0));
  CUcontext ctx;
  CHECK(cuDevicePrimaryCtxRetain(&ctx, dev));
  CHECK(cuCtxSetCurrent(ctx));
  std::vector<Kernel> kernels;
  std::map<std::string, CUmodule> modules;
  std::ifstream list(argv[3]);
  for (std::string line; std::getline(list, line);) {
    if (line.empty() || line[0] == '#') continue;
    Kernel k;
    std::istringstream in(line);
    in >> k.label >> k.file >> k.entry >> k.kind >> k.channels >> k.nb >> k.rows;
    if (!(in >> k.maxreg)) k.maxreg = 0;
    const std::string key = k.file + "#" + std::to_string(k.maxreg);
    if (!modules.count(key)) {
      CUmodule m;
      const bool is_ptx = k.file.size() > 4 && k.file.substr(k.file.size() - 4) == ".ptx";
      std::string image = is_ptx ? slurp(k.file) : [&] {
        std::ifstream f(k.file, std::ios::binary);
        return std::string((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
      }();
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
    int regs = 0, smem = 0;
    CHECK(cuFuncGetAttribute(&regs, CU_FUNC_ATTRIBUTE_NUM_REGS, k.fn));
    CHECK(cuFuncGetAttribute(&smem, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, k.fn));
    int blocks = 0;
    CHECK(cuOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, k.fn, k.kind == "copy" ? 256 : 128, 0));
    std::printf("%-24s %3d registers %6d B shared %2d blocks/SM  %s\n", k.label.c_str(), regs, smem, blocks,
                k.file.c_str());
    kernels.push_back(k);
  }
  const int sets = 5;
  std::map<int, std::vector<CUdeviceptr>> ins, outs;  // per channel count
  std::mt19937 rng(1);
  for (const Kernel& k : kernels) {
    if (ins.count(k.channels)) continue;
    const size_t bytes = size_t(width) * height * k.channels;
    std::vector<uint8_t> host(bytes);
    for (auto& b : host) b = uint8_t(rng());
    for (int s = 0; s < sets; ++s) {
      CUdeviceptr a, b;
      CHECK(cuMemAlloc(&a, bytes));
      CHECK(cuMemAlloc(&b, bytes));
      CHECK(cuMemcpyHtoD(a, host.data(), bytes));
      ins[k.channels].push_back(a);
      outs[k.channels].push_back(b);
    }
  }
  const double w0 = 223.0 / 4096, w1 = 1001.0 / 4096, w2 = 1648.0 / 4096, kk = 1024.0 * (w0 + w1 + w2);
  fused::HalfWeights hw{fused::half_pair(w0, w0),   fused::half_pair(w1, w1),      fused::half_pair(w2, w2),
                        fused::half_pair(-kk, -kk), fused::half_pair(w0, 0.0),     fused::half_pair(w1, 0.0),
                        fused::half_pair(w2, 1.0),  fused::half_pair(-kk, -1024.0)};
  CUevent start, stop;
  CHECK(cuEventCreate(&start, CU_EVENT_DEFAULT));
  CHECK(cuEventCreate(&stop, CU_EVENT_DEFAULT));
  auto launch = [&](Kernel& k, int set) {
    CUdeviceptr in = ins[k.channels][set], out = outs[k.channels][set];
    int w = width, h = height, pitch = width * k.channels, aligned_i = 1;
    unsigned char aligned_b = 1;
    unsigned bytes = unsigned(size_t(width) * height * k.channels);
    if (k.kind == "copy") {
      void* params[] = {&in, &out, &bytes};
      const unsigned items = bytes / 16 + bytes % 16;
      CHECK(cuLaunchKernel(k.fn, (items + 255) / 256, 1, 1, 256, 1, 1, 0, nullptr, params, nullptr));
      return;
    }
    void* params_cl[] = {&in, &out, &w, &h, &pitch, &aligned_i, &hw};
    void* params_cu[] = {&in, &out, &w, &h, &pitch, &aligned_b, &hw};
    const unsigned gx = (pitch + 30 * k.nb - 1) / (30 * k.nb), gy = (h + 4 * k.rows - 1) / (4 * k.rows);
    if (k.kind == "ring") {  // persistent blocks: as many as fit on the device at once
      int per_sm = 0, sms = 0;
      CHECK(cuOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, k.fn, 128, 0));
      CHECK(cuDeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev));
      CHECK(cuLaunchKernel(k.fn, unsigned(per_sm * sms), 1, 1, 32, 4, 1, 0, nullptr, params_cu, nullptr));
      return;
    }
    CHECK(cuLaunchKernel(k.fn, gx, gy, 1, 32, 4, 1, 0, nullptr, k.kind == "cl" ? params_cl : params_cu, nullptr));
  };
  // Correctness: every blur's output equals the first blur's of its channel count.
  std::map<int, std::vector<uint8_t>> first;
  for (Kernel& k : kernels) {
    if (k.kind == "copy") continue;
    const size_t bytes = size_t(width) * height * k.channels;
    CHECK(cuMemsetD8(outs[k.channels][0], 0xA5, bytes));
    launch(k, 0);
    CHECK(cuCtxSynchronize());
    std::vector<uint8_t> got(bytes);
    CHECK(cuMemcpyDtoH(got.data(), outs[k.channels][0], bytes));
    if (!first.count(k.channels)) {
      first[k.channels] = got;
    } else if (got != first[k.channels]) {
      size_t diff = 0;
      for (size_t i = 0; i < bytes; ++i) diff += got[i] != first[k.channels][i];
      std::printf("%s: %zu bytes differ from the first kernel's output\n", k.label.c_str(), diff);
    }
  }
  int set = 0;
  for (int r = 0; r < 3 + rounds; ++r) {
    for (Kernel& k : kernels) {
      CHECK(cuEventRecord(start, nullptr));
      launch(k, set);
      CHECK(cuEventRecord(stop, nullptr));
      CHECK(cuEventSynchronize(stop));
      float ms = 0;
      CHECK(cuEventElapsedTime(&ms, start, stop));
      if (r >= 3) k.ms.push_back(ms);
      set = (set + 1) % sets;
    }
  }
  std::map<int, double> copy_ms;
  for (Kernel& k : kernels) {
    std::sort(k.ms.begin(), k.ms.end());
    const double median = k.ms[k.ms.size() / 2];
    if (k.kind == "copy") copy_ms[k.channels] = median;
    const double pct = copy_ms.count(k.channels) ? 100.0 * copy_ms[k.channels] / median : 0;
    std::printf("%-24s median %.4f ms  min %.4f  max %.4f  %5.1f%% of copy\n", k.label.c_str(), median, k.ms.front(),
                k.ms.back(), pct);
  }
  return 0;
}
