// Chapter 06: constant memory, and what a run-time radius costs.
//
// Until now the radius was a compile-time constant (-D RADIUS, a template
// parameter): loops of known length, unrolled, the weights in registers. A
// real program takes the radius from its user (--radius). This chapter runs
// the naive blur five ways, the Fixstars seminar's ladder:
//
//   array_fixed       per-item weight array, compile-time radius (chapter 01)
//   array_runtime     the same array, run-time radius: spilled to local memory
//   constant_runtime  weights in __constant / __constant__ memory, run-time radius
//   constant_fixed    __constant weights, compile-time radius
//   global_runtime    weights in an ordinary global buffer, run-time radius
//
// and, on request, sweeps the radius from 1 to 16 (--variant radius_sweep).
// Beside them, the seminar's own four kernels as published (seminar_*: a
// "valid" convolution with its 5x5 table built in, on the input padded by
// the host; seminar_ladder.hpp, this chapter's second program part), so that
// each of its factors can be measured, not inferred.
// The main line (main, listed first) carries chapter 05's kernel forward; this
// chapter's candidate step (symmetric) tells it what is known about its
// weights, the radius and their symmetry: mirrored taps are added before
// their shared weight multiplies them. Measured, it does not win.
// The lesson is in README.md beside this file; the compiler's evidence
// (registers, stack frames, ld.local against ld.const) comes from gpu-extra.sh.
#include <memory>
#include <ostream>
#include <stdexcept>
#include <string>
#include <vector>

#include "blur_staged_setup.hpp"  // chapter 05's main line (USES 05_local_memory)
#include "blur_symmetric_cl.hpp"  // the candidate's kernel
#include "blur_weights_cl.hpp"    // the OpenCL kernels, embedded at build time
#include "gauss/chapter.hpp"
#include "gauss/lesson_launch.hpp"
#include "gauss/reference.hpp"
#include "gauss/section_runs.hpp"
#include "seminar_ladder.hpp"  // the seminar's own kernels: chapter 06's second program part
#ifdef GAUSS_HAVE_CUDA
#include "blur_symmetric.cuh"
#include "blur_weights.cuh"
#include "gauss/cuda.hpp"
#endif

namespace chapter06 {
namespace {

// The seminar's 32x8 groups, for every kernel.
constexpr gauss::lesson::GroupShape kShape{32, 8};

// One way of storing the weights, in both APIs.
struct Storage {
  const char* name;
  const char* description;
  const char* kernel;  // in blur_weights.cl
  bool fixed_radius;   // built with -D RADIUS (OpenCL), a template (CUDA)
#ifdef GAUSS_HAVE_CUDA
  WeightStorage cuda;
#endif
};

#ifdef GAUSS_HAVE_CUDA
#define CUDA_STORAGE(s) , s
#else
#define CUDA_STORAGE(s)
#endif

const Storage kStorages[] = {
    {"array_fixed", "per-item weight array, compile-time radius: registers", "blur_array_fixed",
     true CUDA_STORAGE(WeightStorage::ArrayFixed)},
    {"array_runtime", "per-item weight array, run-time radius: local memory (the stack)", "blur_array_runtime",
     false CUDA_STORAGE(WeightStorage::ArrayRuntime)},
    {"constant_runtime", "weights in __constant memory, run-time radius", "blur_constant_runtime",
     false CUDA_STORAGE(WeightStorage::ConstantRuntime)},
    {"constant_fixed", "weights in __constant memory, compile-time radius", "blur_constant_fixed",
     true CUDA_STORAGE(WeightStorage::ConstantFixed)},
    {"global_runtime", "weights in a global buffer, run-time radius", "blur_global_runtime",
     false CUDA_STORAGE(WeightStorage::GlobalRuntime)},
};

// --- The main line's candidate: chapter 05's fused kernel, symmetric weights -------
// Chapter 05's tiles, groups and arguments (its set-up, with this kernel).
gauss::OpenClLaunch symmetric_opencl(gauss::OpenClSession& cl, const gauss::Problem& p) {
  return chapter05::staged_tiles_opencl(cl, p, gauss::embedded::blur_symmetric_cl, "blur_symmetric");
}

// --- OpenCL ------------------------------------------------------------------------
// The kernel's arguments after the image: the weights (by value for the
// arrays, a buffer for __constant and __global), then the radius when it is
// not compiled in.
gauss::OpenClSetup opencl_setup(const Storage& storage) {
  return [&storage](gauss::OpenClSession& cl, const gauss::Problem& p) -> gauss::OpenClLaunch {
    const std::string options = storage.fixed_radius ? "-D RADIUS=" + std::to_string(p.blur.radius) : "";
    cl::Kernel kernel = cl.kernel(gauss::embedded::blur_weights_cl, storage.kernel, options);
    gauss::lesson::set_geometry_args(kernel, p);
    const bool array = std::string(storage.name).rfind("array", 0) == 0;
    cl::Buffer weights;  // __constant or __global: 2R+1 floats on the device
    if (array) {
      kernel.setArg(5, p.taps);
    } else {
      weights = cl::Buffer(cl.context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof(float) * p.blur.taps(),
                           const_cast<float*>(p.taps.w));
      kernel.setArg(5, weights);
    }
    if (!storage.fixed_radius) kernel.setArg(6, p.blur.radius);
    gauss::OpenClLaunch launch = gauss::lesson::enqueue_kernel(cl, kernel, gauss::lesson::global_for(p.image, kShape),
                                                               cl::NDRange(kShape.x, kShape.y));
    // The launch keeps the weight buffer alive: a kernel argument does not.
    return [launch, weights](const cl::Buffer& in, const cl::Buffer& out) { return launch(in, out); };
  };
}

// --- CUDA ----------------------------------------------------------------------------
#ifdef GAUSS_HAVE_CUDA
gauss::CudaSetup cuda_setup(const Storage& storage) {
  return [&storage](const gauss::Problem& p) -> gauss::CudaLaunch {
    const WeightStorage kind = storage.cuda;
    // Set-up, untimed: the weights go where this kernel reads them.
    std::shared_ptr<gauss::CudaBuffer> weights;
    if (kind == WeightStorage::ConstantFixed || kind == WeightStorage::ConstantRuntime) {
      upload_constant_weights(p.taps);
    } else if (kind == WeightStorage::GlobalRuntime) {
      weights = std::make_shared<gauss::CudaBuffer>(sizeof(float) * p.blur.taps());
      weights->upload(p.taps.w, sizeof(float) * p.blur.taps());
    }
    return [kind, p, weights](const std::uint8_t* in, std::uint8_t* out, cudaStream_t stream) {
      const float* global = weights ? reinterpret_cast<const float*>(weights->data()) : nullptr;
      launch_blur_weights(kind, in, out, p, global, stream);
    };
  };
}
#endif

// --- The radius sweep ------------------------------------------------------------------
// Radius 1 to 16 (sigma = R / 3, the blur each radius is meant for), every
// variant on every API, each checked against the reference. The work grows
// as (2R+1)^2 and does not shrink with anything but --size: on request only.

void radius_sweep(gauss::SectionContext& context) {
  gauss::lesson::SectionRunners runners(context, context.input);
  for (const gauss::Api api : {gauss::Api::OpenCL, gauss::Api::Cuda}) {
    if (!runners.has(api)) continue;
    std::vector<gauss::Table::Column> columns{{"R"}, {"taps"}};
    for (const Storage& s : kStorages) columns.push_back({std::string(s.name) + " ms (GB/s)"});
    gauss::Table table(columns);
    for (int r = 1; r <= gauss::kMaxRadius; ++r) {
      const gauss::BlurSpec blur{r / 3.0, r};
      const gauss::Image reference = gauss::blur_reference(context.input, blur, gauss::ReferenceMethod::Separable, 0);
      std::vector<std::string> cells{std::to_string(r), std::to_string(blur.taps() * blur.taps())};
      for (const Storage& s : kStorages) {
        gauss::CudaSetup cuda;
#ifdef GAUSS_HAVE_CUDA
        cuda = cuda_setup(s);
#endif
        const std::string name = std::string(s.name) + (r < 10 ? "_r0" : "_r") + std::to_string(r);
        const gauss::VariantResult result = runners.measure(s.name, api, opencl_setup(s), cuda, blur, reference, name);
        if (!result.ok()) {
          cells.push_back(result.error.empty() ? "MISMATCH" : "ERROR");
          context.out << name << " (" << gauss::name_of(api) << "): " << gauss::lesson::status_of(result) << '\n';
          continue;
        }
        cells.push_back(gauss::lesson::format_ms(result.time.median_ms) + " (" +
                        gauss::lesson::format_gbps(result.gbps()) + ")");
      }
      table.add_row(cells);
    }
    context.out << gauss::name_of(api) << ", " << runners.device(api) << ", sigma = R/3:\n";
    table.print(context.out);
    context.out << '\n';
  }
}

}  // namespace

gauss::Chapter make_chapter() {
  gauss::Chapter chapter("06_constant_memory", "where the weights live: registers, local, constant, global memory");

  // --- The main line, first: chapter 05's kernel, and this chapter's candidate --------
  // The candidate tells chapter 05's kernel what is known at compile time about
  // its weights, besides the radius: their symmetry. Measured, it does not beat
  // chapter 05's kernel (README: "The main line"), so it runs beside it.
  const char* main_line = "main line: chapter 05's main, unchanged (symmetric, the candidate, did not beat it)";
  const char* symmetric = "chapter 05's main with mirrored taps added before weighing (R+1 multiply-adds per 1-D sum)";
  chapter.add_opencl("main", main_line, chapter05::staged_opencl).line = "main";
  chapter.add_opencl("symmetric", symmetric, symmetric_opencl);
#ifdef GAUSS_HAVE_CUDA
  chapter.add_cuda("main", main_line, chapter05::staged_cuda()).line = "main";
  chapter.add_cuda("symmetric", symmetric, gauss::lesson::cuda_launch(launch_blur_symmetric));
#endif

  // --- The CPU: the baseline of the speed-up column -------------------------
  chapter.add_cpu("cpu_single", "CPU reference (double), one thread",
                  [](const gauss::Image& in, gauss::Image& out, const gauss::BlurSpec& blur) {
                    gauss::blur_reference(in, out, blur, gauss::ReferenceMethod::Direct2D, 1);
                  });

  // --- The five kernels, OpenCL then CUDA ----------------------------------------
  for (const Storage& s : kStorages) chapter.add_opencl(s.name, s.description, opencl_setup(s));
#ifdef GAUSS_HAVE_CUDA
  for (const Storage& s : kStorages) chapter.add_cuda(s.name, s.description, cuda_setup(s));
#endif

  // --- The seminar's four kernels as published (seminar_ladder.hpp) ------------------
  add_seminar_ladder(chapter);

  // --- On request: every radius from 1 to 16 -----------------------------------------
  chapter.add_section("radius_sweep", "the radius sweep: R = 1..16, every variant, ms and (GB/s)", radius_sweep,
                      gauss::Chapter::SectionRuns::OnRequest);

  // The exercise (README, section Exercise): blur_weights.cl/.cu, the two constant
  // kernels' __constant weights left to declare (CUDA), fill (CUDA) and read (both).
  chapter.set_exercise("blur_weights.cl", {"constant_runtime", "constant_fixed"});
  return chapter;
}

}  // namespace chapter06

#ifndef GAUSS_CHAPTER_NO_MAIN
int main(int argc, char** argv) { return chapter06::make_chapter().run(argc, argv); }
#endif
