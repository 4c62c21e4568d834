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
//   GAUSS_DUMP_CL_BINARIES=/tmp/ptx build/bin/15_every_radius --api opencl --variant main --radius 2
//   cuobjdump -xelf all build/chapters/15_every_radius/CMakeFiles/15_every_radius_kernels.dir/blur_mma.cu.o
//   build/tools/ptx_under_cuda /tmp/ptx/blur_mma.<options>.bin blur_mma.sm_90.cubin 2 3
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

namespace {

constexpr int kWidth = 6720;
constexpr int kHeight = 4480;
constexpr int kPairs = 5;  // input/output pairs, rotated: 300 MB, far beyond the L2
constexpr int kWarmup = 3;

// Every driver and runtime call is checked; a failure ends the program with
// one line naming the call.
[[noreturn]] void fail(const std::string& what) {
  std::fprintf(stderr, "ptx_under_cuda: %s\n", what.c_str());
  std::exit(1);
}
void check(CUresult result, const char* call) {
  if (result == CUDA_SUCCESS) return;
  const char* text = nullptr;
  cuGetErrorString(result, &text);
  fail(std::string(call) + ": " + (text ? text : "unknown error"));
}
void check(cudaError_t result, const char* call) {
  if (result != cudaSuccess) fail(std::string(call) + ": " + cudaGetErrorString(result));
}
#define CHECK(call) check((call), #call)

[[noreturn]] void usage(const std::string& problem) {
  std::fprintf(stderr, "ptx_under_cuda: %s (usage: ptx_under_cuda opencl.ptx cuda.cubin radius groups_per_cu [runs])\n",
               problem.c_str());
  std::exit(2);
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
  CHECK(cuModuleGetFunctionCount(&count, module));
  std::vector<CUfunction> functions(count);
  CHECK(cuModuleEnumerateFunctions(functions.data(), count, module));
  const std::string wanted = "blur_mmaILi" + std::to_string(radius) + "ELi1ELb1EE";
  for (CUfunction function : functions) {
    const char* name = nullptr;
    CHECK(cuFuncGetName(&name, function));
    if (std::string(name).find(wanted) != std::string::npos) return function;
  }
  usage("the cubin holds no " + wanted + " (chapter 15's gray kernel, overlapped)");
}

struct Launch {
  CUfunction function;
  int blocks;
  mma::TileWalk walk;
};

float median_ms(std::vector<float> times) {
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 5 || argc > 6) usage("four or five arguments");
  const std::string ptx = read_ptx(argv[1]);
  const int radius = positive(argv[3], "the radius", 16);
  const int groups_per_cu = positive(argv[4], "work-groups a compute unit", 32);
  const int runs = argc > 5 ? positive(argv[5], "the timed runs", 1000) : 20;

  CHECK(cudaFree(nullptr));  // the runtime's context, which the driver calls share
  int sms = 0;
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));

  CUmodule opencl_module, cuda_module;
  CHECK(cuModuleLoadData(&opencl_module, ptx.c_str()));
  CHECK(cuModuleLoad(&cuda_module, argv[2]));
  Launch opencl{}, cuda{};
  CHECK(cuModuleGetFunction(&opencl.function, opencl_module, "blur_mma"));
  cuda.function = find_cuda_kernel(cuda_module, radius);
  int cuda_per_sm = 0;
  CHECK(cuOccupancyMaxActiveBlocksPerMultiprocessor(&cuda_per_sm, cuda.function, 256, 0));
  opencl.blocks = sms * groups_per_cu;
  cuda.blocks = sms * cuda_per_sm;  // as launch_tiles does
  for (Launch* l : {&opencl, &cuda})
    l->walk = mma::tile_walk(kWidth, kHeight, mma::kTileWidth, mma::tile_rows(1), l->blocks);
  for (const auto& [name, l] : {std::pair{"OpenCL's PTX", &opencl}, std::pair{"CUDA's kernel", &cuda}}) {
    int registers = 0, fit = 0;
    CHECK(cuFuncGetAttribute(&registers, CU_FUNC_ATTRIBUTE_NUM_REGS, l->function));
    CHECK(cuOccupancyMaxActiveBlocksPerMultiprocessor(&fit, l->function, 256, 0));
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
  // Memory, stream and events from the runtime API (the primary context the
  // driver calls share), as the chapters' CUDA code has them.
  unsigned char* in[kPairs];
  unsigned char* out[kPairs];
  for (int k = 0; k < kPairs; ++k) {
    CHECK(cudaMalloc(reinterpret_cast<void**>(&in[k]), bytes));
    CHECK(cudaMalloc(reinterpret_cast<void**>(&out[k]), bytes));
    CHECK(cudaMemcpy(in[k], image.data(), bytes, cudaMemcpyHostToDevice));
  }
  cudaStream_t stream;
  CHECK(cudaStreamCreate(&stream));
  auto launch = [&](Launch& l, int pair) {
    CUdeviceptr from = reinterpret_cast<CUdeviceptr>(in[pair]);
    CUdeviceptr to = reinterpret_cast<CUdeviceptr>(out[pair]);
    int width = kWidth, height = kHeight, pitch = kWidth;
    void* params[] = {&from, &to, &width, &height, &pitch, &weights, &l.walk};
    CHECK(cuLaunchKernel(l.function, l.blocks, 1, 1, 32, mma::kWarps, 1, 0, stream, params, nullptr));
  };

  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  for (int round = 0; round < 2; ++round)
    for (const auto& [name, l] : {std::pair{"OpenCL's PTX ", &opencl}, std::pair{"CUDA's kernel", &cuda}}) {
      for (int i = 0; i < kWarmup; ++i) launch(*l, i % kPairs);
      std::vector<float> times;
      for (int i = 0; i < runs; ++i) {
        CHECK(cudaEventRecord(start, stream));
        launch(*l, i % kPairs);
        CHECK(cudaEventRecord(stop, stream));
        CHECK(cudaEventSynchronize(stop));
        float ms = 0;
        CHECK(cudaEventElapsedTime(&ms, start, stop));
        times.push_back(ms);
      }
      std::printf("round %d, %s: median %.4f ms of %d runs (min %.4f)\n", round + 1, name, median_ms(times), runs,
                  *std::min_element(times.begin(), times.end()));
    }

  // The two outputs, each into a poisoned buffer, byte for byte.
  std::vector<unsigned char> from_opencl(bytes), from_cuda(bytes);
  for (auto& [l, poison, host] : {std::tuple{&opencl, 0xAB, &from_opencl}, std::tuple{&cuda, 0xCD, &from_cuda}}) {
    CHECK(cudaMemset(out[0], poison, bytes));
    launch(*l, 0);
    CHECK(cudaStreamSynchronize(stream));
    CHECK(cudaMemcpy(host->data(), out[0], bytes, cudaMemcpyDeviceToHost));
  }
  std::size_t differ = 0;
  for (std::size_t i = 0; i < bytes; ++i) differ += from_opencl[i] != from_cuda[i];
  std::printf("outputs: %zu of %zu bytes differ\n", differ, bytes);
  return differ == 0 ? 0 : 1;
}
