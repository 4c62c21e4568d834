// Is it the code? Chapter 10's OpenCL and CUDA block-tile kernels loaded as
// modules by the CUDA driver API and timed in one harness, each in turn, so
// the only difference left between them is the code: PTX from NVIDIA's
// OpenCL compiler or from nvcc, compiled by the driver at load (JIT) or
// ahead of time by the toolkit's ptxas (a cubin). Every blur's output is
// checked against the first blur's (the outputs poisoned first). Each run is
// its own launch, synchronised, events around it: 3 rounds of warm-up, then
// ROUNDS rounds over the list, five buffer pairs in turn; medians.
//   interleaved WIDTH HEIGHT LIST [ROUNDS]
// LIST as harness.hpp says; run.sh writes the lists.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <random>
#include <vector>

#include "harness.hpp"

int main(int argc, char** argv) {
  if (argc < 4) return 2;
  const int width = std::atoi(argv[1]), height = std::atoi(argv[2]);
  const int rounds = argc > 4 ? std::atoi(argv[4]) : 30;
  const CUdevice dev = open_device();
  const std::vector<Kernel> kernels = load_kernels(argv[3]);
  for (const Kernel& k : kernels) {
    int regs = 0, smem = 0, blocks = 0;
    CHECK(cuFuncGetAttribute(&regs, CU_FUNC_ATTRIBUTE_NUM_REGS, k.fn));
    CHECK(cuFuncGetAttribute(&smem, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, k.fn));
    CHECK(cuOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, k.fn, k.kind == "copy" ? 256 : 128, 0));
    std::printf("%-24s %3d registers %6d B shared %2d blocks/SM  %s\n", k.label.c_str(), regs, smem, blocks,
                k.file.c_str());
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
  const fused::HalfWeights hw = default_blur_weights();
  CUevent start, stop;
  CHECK(cuEventCreate(&start, CU_EVENT_DEFAULT));
  CHECK(cuEventCreate(&stop, CU_EVENT_DEFAULT));
  auto run = [&](const Kernel& k, int set) {
    const unsigned bytes = unsigned(size_t(width) * height * k.channels);
    launch(k, dev, ins[k.channels][set], outs[k.channels][set], width, height, width * k.channels, bytes, hw);
  };
  // Correctness: every blur's output equals the first blur's of its channel count.
  std::map<int, std::vector<uint8_t>> first;
  for (const Kernel& k : kernels) {
    if (k.kind == "copy") continue;
    const size_t bytes = size_t(width) * height * k.channels;
    CHECK(cuMemsetD8(outs[k.channels][0], 0xA5, bytes));
    run(k, 0);
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
  std::vector<std::vector<float>> times(kernels.size());
  int set = 0;
  for (int r = 0; r < 3 + rounds; ++r) {
    for (std::size_t i = 0; i < kernels.size(); ++i) {
      CHECK(cuEventRecord(start, nullptr));
      run(kernels[i], set);
      CHECK(cuEventRecord(stop, nullptr));
      CHECK(cuEventSynchronize(stop));
      float ms = 0;
      CHECK(cuEventElapsedTime(&ms, start, stop));
      if (r >= 3) times[i].push_back(ms);
      set = (set + 1) % sets;
    }
  }
  std::map<int, double> copy_ms;
  for (std::size_t i = 0; i < kernels.size(); ++i) {
    const Kernel& k = kernels[i];
    std::vector<float>& ms = times[i];
    std::sort(ms.begin(), ms.end());
    const double median = ms[ms.size() / 2];
    if (k.kind == "copy") copy_ms[k.channels] = median;
    const double pct = copy_ms.count(k.channels) ? 100.0 * copy_ms[k.channels] / median : 0;
    std::printf("%-24s median %.4f ms  min %.4f  max %.4f  %5.1f%% of copy\n", k.label.c_str(), median, ms.front(),
                ms.back(), pct);
  }
  return 0;
}
