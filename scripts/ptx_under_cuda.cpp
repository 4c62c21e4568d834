// A lab tool for chapter 15, built with it where CUDA is (build/tools/ptx_under_cuda).
//
// Is NVIDIA's OpenCL slower than CUDA because of its runtime or because of
// the code its compiler makes? This program takes the PTX that NVIDIA's
// OpenCL compiler made of blur_mma.cl and launches it through the CUDA driver
// API, beside the CUDA kernel blur_mma<R, 1, true> taken from the build's
// cubin: one process, one launch path, the same buffers (5 pairs of 6720 x
// 4480 gray, rotated so that L2 never serves a timed run), medians of
// event-timed runs, and the two outputs compared byte for byte (each buffer
// poisoned first). Nsight Compute, which does not profile OpenCL, profiles
// both kernels here (they are both named blur_mma; --launch-skip picks one:
// the OpenCL kernel's 4 launches of a round come first, with repeat 1).
//
// On a machine with an NVIDIA GPU, from the repository root:
//   mkdir -p ptx && GAUSS_DUMP_CL_BINARIES=ptx build/bin/15_every_radius --api opencl --variant main --radius 2
//   cuobjdump -xelf all build/chapters/15_every_radius/CMakeFiles/15_every_radius_kernels.dir/blur_mma.cu.o
//   build/tools/ptx_under_cuda ptx/blur_mma.<options>.bin blur_mma.sm_90.cubin 2 3
// Arguments: the OpenCL PTX, the CUDA cubin, the radius (gray, the tiles
// blur_mma_plan.hpp gives: 128 x 64), work-groups a compute unit (3 as
// opencl_groups_per_cu gives to radius 8), and timed runs (default 20).
//
// OpenCL's PTX adds %envreg0, the runtime's work-group offset, to %ctaid.x;
// under CUDA that register is not the program's, so it is replaced by 0.
#include <cuda.h>
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "blur_mma_plan.hpp"
#include "gauss/blur.hpp"
#include "gauss/cuda.hpp"
#include "gauss/error.hpp"
#include "gauss/timing.hpp"

namespace {

constexpr int kWidth = 6720;
constexpr int kHeight = 4480;
constexpr int kPairs = 5;  // input/output pairs, rotated: 300 MB, far beyond the L2
constexpr int kWarmup = 3;

// Runtime calls are checked by GAUSS_CUDA_CHECK (gauss/cuda.hpp), driver
// calls the same way here; main() prints a failure on one line.
void check_driver(CUresult result, const char* call) {
  if (result == CUDA_SUCCESS) return;
  const char* text = nullptr;
  cuGetErrorString(result, &text);
  throw gauss::ApiError(std::string(call) + ": " + (text ? text : "unknown error"));
}
#define CU_CHECK(call) check_driver((call), #call)

[[noreturn]] void usage(const std::string& problem) {
  throw gauss::InputError(problem + " (usage: ptx_under_cuda opencl.ptx cuda.cubin radius groups_per_cu [runs])");
}

int positive(const char* text, const char* what, int most) {
  char* end = nullptr;
  const long value = std::strtol(text, &end, 10);
  if (end == text || *end != '\0' || value < 1 || value > most)
    usage(std::string(what) + " must be 1 to " + std::to_string(most) + ", not '" + text + "'");
  return static_cast<int>(value);
}

std::string read_ptx(const char* path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) usage(std::string("cannot read ") + path);
  std::stringstream text;
  text << file.rdbuf();
  std::string ptx = text.str();
  while (!ptx.empty() && ptx.back() == '\0') ptx.pop_back();  // the driver's binary ends in a NUL
  if (ptx.find(".entry blur_mma") == std::string::npos) usage(std::string(path) + " holds no PTX entry blur_mma");
  for (std::size_t at; (at = ptx.find("%envreg0")) != std::string::npos;) ptx.replace(at, 8, "0");
  return ptx;
}

// blur_mma<radius, 1, true> in the cubin (its name is mangled inside an
// anonymous namespace, so it is found by its template arguments).
CUfunction find_cuda_kernel(CUmodule module, int radius) {
  unsigned count = 0;
  CU_CHECK(cuModuleGetFunctionCount(&count, module));
  std::vector<CUfunction> functions(count);
  CU_CHECK(cuModuleEnumerateFunctions(functions.data(), count, module));
  const std::string wanted = "blur_mmaILi" + std::to_string(radius) + "ELi1ELb1EE";
  for (CUfunction function : functions) {
    const char* name = nullptr;
    CU_CHECK(cuFuncGetName(&name, function));
    if (std::string(name).find(wanted) != std::string::npos) return function;
  }
  usage("the cubin holds no " + wanted + " (chapter 15's gray kernel, overlapped)");
}

struct Launch {
  CUfunction function;
  int blocks;
  mma::TileWalk walk;
  bool weights_by_value;  // CUDA's kernel, and blur_mma.cl before it read them from a __constant buffer
};

int run(int argc, char** argv) {
  if (argc < 5 || argc > 6) usage("four or five arguments");
  const std::string ptx = read_ptx(argv[1]);
  const int radius = positive(argv[3], "the radius", 16);
  const int groups_per_cu = positive(argv[4], "work-groups a compute unit", 32);
  const int runs = argc > 5 ? positive(argv[5], "the timed runs", 1000) : 20;

  GAUSS_CUDA_CHECK(cudaFree(nullptr));  // the runtime's context, which the driver calls share
  int sms = 0;
  GAUSS_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));

  CUmodule opencl_module, cuda_module;
  CU_CHECK(cuModuleLoadData(&opencl_module, ptx.c_str()));
  CU_CHECK(cuModuleLoad(&cuda_module, argv[2]));
  Launch opencl{}, cuda{};
  CU_CHECK(cuModuleGetFunction(&opencl.function, opencl_module, "blur_mma"));
  opencl.weights_by_value = ptx.find("blur_mma_param_5[") != std::string::npos;  // else a pointer
  cuda.weights_by_value = true;
  cuda.function = find_cuda_kernel(cuda_module, radius);
  int cuda_per_sm = 0;
  CU_CHECK(cuOccupancyMaxActiveBlocksPerMultiprocessor(&cuda_per_sm, cuda.function, 256, 0));
  opencl.blocks = sms * groups_per_cu;
  cuda.blocks = sms * cuda_per_sm;  // as launch_tiles does
  for (Launch* l : {&opencl, &cuda})
    l->walk = mma::tile_walk(kWidth, kHeight, mma::kTileWidth, mma::tile_rows(1), l->blocks);
  for (const auto& [name, l] : {std::pair{"OpenCL's PTX", &opencl}, std::pair{"CUDA's kernel", &cuda}}) {
    int registers = 0, fit = 0;
    CU_CHECK(cuFuncGetAttribute(&registers, CU_FUNC_ATTRIBUTE_NUM_REGS, l->function));
    CU_CHECK(cuOccupancyMaxActiveBlocksPerMultiprocessor(&fit, l->function, 256, 0));
    std::printf("%s: %d registers, %d blocks fit an SM, %d launched (%d SMs)\n", name, registers, fit, l->blocks, sms);
  }

  const gauss::BlurSpec blur{std::max(0.5, radius / 3.0), radius};  // the radius sweep's sigma
  mma::Weights weights = mma::quantise(blur);
  const std::size_t bytes = std::size_t{kWidth} * kHeight;
  std::vector<unsigned char> image(bytes);
  unsigned state = 12345;  // a gradient with noise: every byte value, no two rows alike
  for (std::size_t i = 0; i < bytes; ++i) {
    state = state * 1664525u + 1013904223u;
    image[i] = static_cast<unsigned char>(((i % kWidth) * 7 + (i / kWidth) * 3) / 5 + (state >> 28));
  }
  // Memory, stream and events from gauss/cuda.hpp (the runtime's primary
  // context, which the driver calls share), as the chapters have them.
  std::vector<gauss::CudaBuffer> in, out;
  for (int k = 0; k < kPairs; ++k) {
    in.emplace_back(bytes).upload(image.data(), bytes);
    out.emplace_back(bytes);
  }
  gauss::CudaBuffer weight_buffer(sizeof(weights));
  weight_buffer.upload(&weights, sizeof(weights));
  CUdeviceptr weight_pointer = reinterpret_cast<CUdeviceptr>(weight_buffer.data());
  const gauss::CudaStream stream;
  auto launch = [&](Launch& l, int pair) {
    CUdeviceptr from = reinterpret_cast<CUdeviceptr>(in[pair].data());
    CUdeviceptr to = reinterpret_cast<CUdeviceptr>(out[pair].data());
    int width = kWidth, height = kHeight, pitch = kWidth;
    void* weights_param = l.weights_by_value ? static_cast<void*>(&weights) : static_cast<void*>(&weight_pointer);
    void* params[] = {&from, &to, &width, &height, &pitch, weights_param, &l.walk};
    CU_CHECK(cuLaunchKernel(l.function, l.blocks, 1, 1, 32, mma::kWarps, 1, 0, stream.get(), params, nullptr));
  };

  // Each timed run is waited for before the next starts (unlike
  // gauss::time_cuda, which waits once at the end: the numbers quoted in
  // chapter 15's README were taken this way).
  gauss::CudaEvent start, stop;
  for (int round = 0; round < 2; ++round)
    for (const auto& [name, l] : {std::pair{"OpenCL's PTX ", &opencl}, std::pair{"CUDA's kernel", &cuda}}) {
      for (int i = 0; i < kWarmup; ++i) launch(*l, i % kPairs);
      std::vector<double> samples;
      for (int i = 0; i < runs; ++i) {
        start.record(stream.get());
        launch(*l, i % kPairs);
        stop.record(stream.get());
        GAUSS_CUDA_CHECK(cudaEventSynchronize(stop.get()));
        samples.push_back(gauss::elapsed_ms(start, stop));
      }
      const gauss::TimingStats stats = gauss::summarize(std::move(samples));
      std::printf("round %d, %s: median %.4f ms of %d runs (min %.4f)\n", round + 1, name, stats.median_ms, runs,
                  stats.min_ms);
    }

  // The two outputs, each into a poisoned buffer, byte for byte.
  std::vector<unsigned char> from_opencl(bytes), from_cuda(bytes);
  for (auto& [l, poison, host] : {std::tuple{&opencl, 0xAB, &from_opencl}, std::tuple{&cuda, 0xCD, &from_cuda}}) {
    GAUSS_CUDA_CHECK(cudaMemset(out[0].data(), poison, bytes));
    launch(*l, 0);
    GAUSS_CUDA_CHECK(cudaStreamSynchronize(stream.get()));
    out[0].download(host->data(), bytes);
  }
  std::size_t differ = 0;
  for (std::size_t i = 0; i < bytes; ++i) differ += from_opencl[i] != from_cuda[i];
  std::printf("outputs: %zu of %zu bytes differ\n", differ, bytes);
  return differ == 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const gauss::InputError& error) {
    std::fprintf(stderr, "ptx_under_cuda: %s\n", error.what());
    return gauss::kExitBadInput;
  } catch (const std::exception& error) {
    std::fprintf(stderr, "ptx_under_cuda: %s\n", error.what());
    return 1;
  }
}
