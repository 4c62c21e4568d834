// The same kernels timed as the chapter times them (3 warm-ups, 30 runs back
// to back over 5 buffer pairs (SETS below), events around each, one synchronisation at the
// end, median), with one thing varied at a time:
//   back_to_back WIDTH HEIGHT LIST VALUE...
// VALUE is, per row of the table it prints:
//   by default  DELTA: the output placed DELTA bytes past the 2 MiB boundary after
//               its input, in one allocation per pair (where the output lies);
//   CARVE=1     the preferred shared-memory carveout in percent (-1 the driver's
//               choice, -2 prefer shared, -3 prefer L1) of every blur;
// and with
//   MODE=domain|prio|cluster2|pss|apw  every blur launched by cuLaunchKernelEx
//               with that launch attribute (remote memory-sync domain, high
//               priority, clusters of 2 blocks, programmatic stream
//               serialisation, its output in a streaming L2 access-policy window);
//   BATCH=1     also the same runs with no events between them ("/b": one event
//               pair around the 30, divided by 30);
//   SETS=N      N buffer pairs in turn instead of 5 (SETS=1 with an image whose
//               input and output fit in the L2 cache: the kernels with DRAM out
//               of the way);
//   INPLACE=1   every kernel writes over its input (a timing only: the blur's
//               output is then wrong, its instructions and launch the same, as
//               its control flow does not depend on the pixels): the whole
//               image's input and output in 30 MB, which the L2 cache holds;
//   PITCH=N     rows N bytes apart instead of width x channels (with N below a
//               row's bytes the rows overlap: RGBA's whole image with PITCH=6720
//               and INPLACE=1 lies in 30 MB, for the same instructions).
// LIST as in interleaved.cpp; kind clT is the OpenCL kernel with ctaid.x and
// ctaid.y swapped in its PTX (run.sh makes it), launched with the grid's x and
// y swapped: bands before strips.
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
  int channels = 1, nb = 16, rows = 4;
  CUfunction fn{};
};

int main(int argc, char** argv) {
  if (argc < 5) return 2;
  const int width = std::atoi(argv[1]), height = std::atoi(argv[2]);
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
    if (!modules.count(k.file)) {
      std::ifstream f(k.file, std::ios::binary);
      std::string image((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
      image.erase(std::remove(image.begin(), image.end(), '\0'), image.end());
      if (k.file.substr(k.file.size() - 4) != ".ptx") {  // a cubin: keep its bytes
        std::ifstream g(k.file, std::ios::binary);
        image.assign((std::istreambuf_iterator<char>(g)), std::istreambuf_iterator<char>());
      }
      CUmodule m;
      CHECK(cuModuleLoadData(&m, image.data()));
      modules[k.file] = m;
    }
    CHECK(cuModuleGetFunction(&k.fn, modules[k.file], k.entry.c_str()));
    kernels.push_back(k);
  }
  const int channels = kernels.front().channels;
  int window_max = 0;
  CHECK(cuDeviceGetAttribute(&window_max, CU_DEVICE_ATTRIBUTE_MAX_ACCESS_POLICY_WINDOW_SIZE, dev));
  if (std::getenv("MODE")) std::printf("largest access-policy window: %d bytes\n", window_max);
  const size_t bytes = size_t(width) * height * channels;
  const size_t two_mib = size_t(2) << 20;
  const size_t out_start = (bytes + two_mib - 1) / two_mib * two_mib;
  std::vector<uint8_t> host(bytes);
  std::mt19937 rng(1);
  for (auto& b : host) b = uint8_t(rng());
  const double w0 = 223.0 / 4096, w1 = 1001.0 / 4096, w2 = 1648.0 / 4096, kk = 1024.0 * (w0 + w1 + w2);
  fused::HalfWeights hw{fused::half_pair(w0, w0),   fused::half_pair(w1, w1),      fused::half_pair(w2, w2),
                        fused::half_pair(-kk, -kk), fused::half_pair(w0, 0.0),     fused::half_pair(w1, 0.0),
                        fused::half_pair(w2, 1.0),  fused::half_pair(-kk, -1024.0)};
  std::printf("%-10s", "delta");
  for (const Kernel& k : kernels) std::printf(" %14s", k.label.c_str());
  std::printf("\n");
  for (int a = 4; a < argc; ++a) {
    const bool carve = std::getenv("CARVE") != nullptr;
    const long delta = carve ? 0 : std::atol(argv[a]);
    if (carve) {
      const int carveout = std::atoi(argv[a]);
      for (Kernel& k : kernels) {
        if (k.kind == "copy") continue;
        if (carveout >= -1) {
          CHECK(cuFuncSetAttribute(k.fn, CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT, carveout));
          CHECK(cuFuncSetCacheConfig(k.fn, CU_FUNC_CACHE_PREFER_NONE));
        } else if (carveout == -2) {
          CHECK(cuFuncSetAttribute(k.fn, CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT, -1));
          CHECK(cuFuncSetCacheConfig(k.fn, CU_FUNC_CACHE_PREFER_SHARED));
        } else if (carveout == -3) {
          CHECK(cuFuncSetAttribute(k.fn, CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT, -1));
          CHECK(cuFuncSetCacheConfig(k.fn, CU_FUNC_CACHE_PREFER_L1));
        }
      }
    }
    const int sets = std::getenv("SETS") ? std::max(1, std::atoi(std::getenv("SETS"))) : 5;
    std::vector<CUdeviceptr> pools(sets), ins(sets), outs(sets);
    for (int s = 0; s < sets; ++s) {
      CHECK(cuMemAlloc(&pools[s], out_start + two_mib * 4 + bytes));
      ins[s] = pools[s];
      outs[s] = std::getenv("INPLACE") ? ins[s] : pools[s] + out_start + delta;
      CHECK(cuMemcpyHtoD(ins[s], host.data(), bytes));
    }
    std::printf("%-10ld", delta);
    for (Kernel& k : kernels) {
      auto launch = [&](int set) {
        CUdeviceptr in = ins[set], out = outs[set];
        int w = width, h = height, pitch = std::getenv("PITCH") ? std::atoi(std::getenv("PITCH")) : width * k.channels,
            aligned_i = 1;
        unsigned char aligned_b = 1;
        unsigned nbytes = unsigned(bytes);
        if (k.kind == "copy") {
          void* params[] = {&in, &out, &nbytes};
          const unsigned items = nbytes / 16 + nbytes % 16;
          CHECK(cuLaunchKernel(k.fn, (items + 255) / 256, 1, 1, 256, 1, 1, 0, nullptr, params, nullptr));
          return;
        }
        void* params_cl[] = {&in, &out, &w, &h, &pitch, &aligned_i, &hw};
        void* params_cu[] = {&in, &out, &w, &h, &pitch, &aligned_b, &hw};
        const unsigned gx = (w * k.channels + 30 * k.nb - 1) / (30 * k.nb), gy = (h + 4 * k.rows - 1) / (4 * k.rows);
        if (k.kind == "ring") {  // persistent blocks: as many as fit on the device at once
          int per_sm = 0, sms = 0;
          CHECK(cuOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, k.fn, 128, 0));
          CHECK(cuDeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev));
          CHECK(cuLaunchKernel(k.fn, unsigned(per_sm * sms), 1, 1, 32, 4, 1, 0, nullptr, params_cu, nullptr));
          return;
        }
        if (const char* mode_c = std::getenv("MODE"); mode_c && std::string(mode_c) != "none") {
          const std::string mode = mode_c;
          CUlaunchAttribute attr{};
          if (mode == "domain") {
            attr.id = CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN;
            attr.value.memSyncDomain = CU_LAUNCH_MEM_SYNC_DOMAIN_REMOTE;
          } else if (mode == "prio") {
            attr.id = CU_LAUNCH_ATTRIBUTE_PRIORITY;
            attr.value.priority = -5;
          } else if (mode == "cluster2") {
            attr.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
            attr.value.clusterDim.x = 2;
            attr.value.clusterDim.y = 1;
            attr.value.clusterDim.z = 1;
          } else if (mode == "apw") {  // the output in an L2 access-policy window, streaming (evict first)
            attr.id = CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW;
            attr.value.accessPolicyWindow.base_ptr = reinterpret_cast<void*>(out);
            attr.value.accessPolicyWindow.num_bytes = std::min<size_t>(bytes, size_t(window_max));
            attr.value.accessPolicyWindow.hitRatio = 1.0f;
            attr.value.accessPolicyWindow.hitProp = CU_ACCESS_PROPERTY_STREAMING;
            attr.value.accessPolicyWindow.missProp = CU_ACCESS_PROPERTY_STREAMING;
          } else if (mode == "pss") {
            attr.id = CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION;
            attr.value.programmaticStreamSerializationAllowed = 1;
          }
          CUlaunchConfig config{};
          config.gridDimX = gx;
          config.gridDimY = gy;
          config.gridDimZ = 1;
          config.blockDimX = 32;
          config.blockDimY = 4;
          config.blockDimZ = 1;
          config.attrs = &attr;
          config.numAttrs = 1;
          CHECK(cuLaunchKernelEx(&config, k.fn, k.kind == "cl" ? params_cl : params_cu, nullptr));
        } else if (k.kind == "clT")  // the same kernel with ctaid.x and ctaid.y swapped: bands fastest
          CHECK(cuLaunchKernel(k.fn, gy, gx, 1, 32, 4, 1, 0, nullptr, params_cl, nullptr));
        else
          CHECK(cuLaunchKernel(k.fn, gx, gy, 1, 32, 4, 1, 0, nullptr, k.kind == "cl" ? params_cl : params_cu, nullptr));
      };
      const int warmup = 3, repeat = 30;
      std::vector<CUevent> starts(repeat), stops(repeat);
      for (int r = 0; r < repeat; ++r) {
        CHECK(cuEventCreate(&starts[r], CU_EVENT_DEFAULT));
        CHECK(cuEventCreate(&stops[r], CU_EVENT_DEFAULT));
      }
      for (int r = 0; r < warmup + repeat; ++r) {
        if (r >= warmup) CHECK(cuEventRecord(starts[r - warmup], nullptr));
        launch(r % sets);
        if (r >= warmup) CHECK(cuEventRecord(stops[r - warmup], nullptr));
      }
      CHECK(cuCtxSynchronize());
      if (std::getenv("BATCH")) {  // the same runs with no events between them: one pair around all
        for (int r = 0; r < warmup; ++r) launch(r % sets);
        CHECK(cuEventRecord(starts[0], nullptr));
        for (int r = 0; r < repeat; ++r) launch(r % sets);
        CHECK(cuEventRecord(stops[0], nullptr));
        CHECK(cuCtxSynchronize());
        float total = 0;
        CHECK(cuEventElapsedTime(&total, starts[0], stops[0]));
        std::printf(" %8.4f/b", total / repeat);
      }
      std::vector<float> ms(repeat);
      for (int r = 0; r < repeat; ++r) {
        CHECK(cuEventElapsedTime(&ms[r], starts[r], stops[r]));
        CHECK(cuEventDestroy(starts[r]));
        CHECK(cuEventDestroy(stops[r]));
      }
      std::sort(ms.begin(), ms.end());
      std::printf(" %14.4f", ms[repeat / 2]);
    }
    std::printf("\n");
    std::fflush(stdout);
    for (int s = 0; s < sets; ++s) CHECK(cuMemFree(pools[s]));
  }
  return 0;
}
