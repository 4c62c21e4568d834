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
// LIST as harness.hpp says (clT: bands before strips); run.sh writes the lists.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "harness.hpp"

// MODE's launch attribute for a blur writing @p out (@p bytes).
static CUlaunchAttribute mode_attribute(const std::string& mode, CUdeviceptr out, size_t bytes, int window_max) {
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
  } else {
    std::fprintf(stderr, "MODE: unknown mode %s\n", mode.c_str());
    std::exit(2);
  }
  return attr;
}

// The preferred shared-memory carveout of @p fn: percent, -1 the driver's
// choice, -2 prefer shared, -3 prefer L1.
static void set_carveout(CUfunction fn, int carveout) {
  CHECK(cuFuncSetAttribute(fn, CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT, carveout >= -1 ? carveout : -1));
  CHECK(cuFuncSetCacheConfig(fn, carveout == -2   ? CU_FUNC_CACHE_PREFER_SHARED
                                 : carveout == -3 ? CU_FUNC_CACHE_PREFER_L1
                                                  : CU_FUNC_CACHE_PREFER_NONE));
}

int main(int argc, char** argv) {
  if (argc < 5) return 2;
  const int width = std::atoi(argv[1]), height = std::atoi(argv[2]);
  const CUdevice dev = open_device();
  const std::vector<Kernel> kernels = load_kernels(argv[3]);
  const int channels = kernels.front().channels;
  const char* mode = std::getenv("MODE");
  const bool with_mode = mode != nullptr && std::string(mode) != "none";
  const bool carve = std::getenv("CARVE") != nullptr;
  const bool in_place = std::getenv("INPLACE") != nullptr;
  const bool batch = std::getenv("BATCH") != nullptr;
  const int sets = std::getenv("SETS") ? std::max(1, std::atoi(std::getenv("SETS"))) : 5;
  const int pitch = std::getenv("PITCH") ? std::atoi(std::getenv("PITCH")) : width * channels;
  int window_max = 0;
  CHECK(cuDeviceGetAttribute(&window_max, CU_DEVICE_ATTRIBUTE_MAX_ACCESS_POLICY_WINDOW_SIZE, dev));
  if (mode != nullptr) std::printf("largest access-policy window: %d bytes\n", window_max);
  const size_t bytes = size_t(width) * height * channels;
  const size_t two_mib = size_t(2) << 20;
  const size_t out_start = (bytes + two_mib - 1) / two_mib * two_mib;
  std::vector<uint8_t> host(bytes);
  std::mt19937 rng(1);
  for (auto& b : host) b = uint8_t(rng());
  const fused::HalfWeights hw = default_blur_weights();
  std::printf("%-10s", "delta");
  for (const Kernel& k : kernels) std::printf(" %14s", k.label.c_str());
  std::printf("\n");
  for (int a = 4; a < argc; ++a) {
    const long delta = carve ? 0 : std::atol(argv[a]);
    if (carve)
      for (const Kernel& k : kernels)
        if (k.kind != "copy") set_carveout(k.fn, std::atoi(argv[a]));
    std::vector<CUdeviceptr> pools(sets), ins(sets), outs(sets);
    for (int s = 0; s < sets; ++s) {
      CHECK(cuMemAlloc(&pools[s], out_start + two_mib * 4 + bytes));
      ins[s] = pools[s];
      outs[s] = in_place ? ins[s] : pools[s] + out_start + delta;
      CHECK(cuMemcpyHtoD(ins[s], host.data(), bytes));
    }
    std::printf("%-10ld", delta);
    for (const Kernel& k : kernels) {
      auto run = [&](int set) {
        const bool attributed = with_mode && k.kind != "copy" && k.kind != "ring";
        const CUlaunchAttribute attr =
            attributed ? mode_attribute(mode, outs[set], bytes, window_max) : CUlaunchAttribute{};
        launch(k, dev, ins[set], outs[set], width, height, k.kind == "copy" ? 0 : pitch, unsigned(bytes), hw,
               attributed ? &attr : nullptr);
      };
      const int warmup = 3, repeat = 30;
      std::vector<CUevent> starts(repeat), stops(repeat);
      for (int r = 0; r < repeat; ++r) {
        CHECK(cuEventCreate(&starts[r], CU_EVENT_DEFAULT));
        CHECK(cuEventCreate(&stops[r], CU_EVENT_DEFAULT));
      }
      for (int r = 0; r < warmup + repeat; ++r) {
        if (r >= warmup) CHECK(cuEventRecord(starts[r - warmup], nullptr));
        run(r % sets);
        if (r >= warmup) CHECK(cuEventRecord(stops[r - warmup], nullptr));
      }
      CHECK(cuCtxSynchronize());
      std::vector<float> ms(repeat);
      for (int r = 0; r < repeat; ++r) CHECK(cuEventElapsedTime(&ms[r], starts[r], stops[r]));
      if (batch) {  // the same runs with no events between them: one pair around all
        for (int r = 0; r < warmup; ++r) run(r % sets);
        CHECK(cuEventRecord(starts[0], nullptr));
        for (int r = 0; r < repeat; ++r) run(r % sets);
        CHECK(cuEventRecord(stops[0], nullptr));
        CHECK(cuCtxSynchronize());
        float total = 0;
        CHECK(cuEventElapsedTime(&total, starts[0], stops[0]));
        std::printf(" %8.4f/b", total / repeat);
      }
      for (int r = 0; r < repeat; ++r) {
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
