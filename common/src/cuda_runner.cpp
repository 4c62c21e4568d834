// The CUDA runner: the same steps as the OpenCL runner in runners.cpp, timed
// with CUDA events. Built only when CUDA is enabled.
#include <exception>
#include <string>
#include <utility>

#include "gauss/cuda.hpp"
#include "gauss/error.hpp"
#include "gauss/runners.hpp"
#include "measure.hpp"

namespace gauss {

struct CudaRunner::State {
  CudaDeviceInfo device;
  Image input;
  CudaStream stream;
  int sets = 1;
  std::vector<CudaBuffer> inputs;
  std::vector<CudaBuffer> outputs;

  State(const CudaDeviceInfo& d, const Image& image) : device(d), input(image) {}

  void launch_checked(const CudaLaunch& launch, int set) {
    const std::size_t i = static_cast<std::size_t>(set);
    launch(inputs[i].data(), outputs[i].data(), stream.get());
    // A bad launch configuration fails here, not in the launch statement.
    GAUSS_CUDA_CHECK(cudaGetLastError());
  }

  // Launches warmup + repeat runs, rotating through the buffer sets, each run
  // between two events on the stream; waits once at the end.
  std::vector<double> timed_runs(const CudaLaunch& launch, const RunSettings& settings, int& last_set) {
    int warmup = settings.warmup;
    int repeat = settings.repeat;
    if (settings.budget_ms > 0 && warmup > 0) {
      // One warm-up run on its own tells how long a run takes.
      CudaEvent start;
      CudaEvent stop;
      start.record(stream.get());
      launch_checked(launch, 0);
      stop.record(stream.get());
      GAUSS_CUDA_CHECK(cudaStreamSynchronize(stream.get()));
      repeat = runs_within_budget(settings, elapsed_ms(start, stop));
      warmup = repeat < settings.repeat ? 0 : warmup - 1;
    }
    const int total = warmup + repeat;
    std::vector<CudaEvent> starts(static_cast<std::size_t>(repeat));
    std::vector<CudaEvent> stops(static_cast<std::size_t>(repeat));
    for (int r = 0; r < total; ++r) {
      const int set = r % sets;
      const int timed = r - warmup;
      if (timed >= 0) starts[static_cast<std::size_t>(timed)].record(stream.get());
      launch_checked(launch, set);
      if (timed >= 0) stops[static_cast<std::size_t>(timed)].record(stream.get());
      last_set = set;
    }
    GAUSS_CUDA_CHECK(cudaStreamSynchronize(stream.get()));
    std::vector<double> samples;
    for (std::size_t i = 0; i < starts.size(); ++i) samples.push_back(elapsed_ms(starts[i], stops[i]));
    return samples;
  }

  void poison_outputs(const Image& poison) {
    for (CudaBuffer& out : outputs) out.upload(poison.pixels.data(), poison.bytes());
  }

  Image read_output(int set, const Image& like) const {
    Image output = Image::make(like.width, like.height, like.format());
    outputs[static_cast<std::size_t>(set)].download(output.pixels.data(), output.bytes());
    return output;
  }
};

CudaRunner::CudaRunner(const CudaDeviceInfo& device, const Image& input)
    : state_(std::make_unique<State>(device, input)) {
  State& s = *state_;
  s.sets = rotation_sets(input.bytes(), device.l2_cache, device.global_memory);
  for (int i = 0; i < s.sets; ++i) {
    s.inputs.emplace_back(input.bytes());
    s.outputs.emplace_back(input.bytes());
    s.inputs.back().upload(input.pixels.data(), input.bytes());
  }
}

CudaRunner::~CudaRunner() = default;

int CudaRunner::sets() const { return state_->sets; }

VariantResult CudaRunner::copy(const RunSettings& settings) {
  State& s = *state_;
  auto setup = [&s]() -> CudaLaunch {
    const std::size_t bytes = s.input.bytes();
    return [bytes](const std::uint8_t* in, std::uint8_t* out, cudaStream_t stream) {
      launch_copy_kernel(in, out, bytes, stream);
    };
  };
  return detail::measure(s, Api::Cuda, "copy", setup, s.input, 0, settings);
}

VariantResult CudaRunner::run(const Variant& variant, const BlurSpec& blur, const Image& reference,
                              const RunSettings& settings) {
  State& s = *state_;
  auto setup = [&]() { return variant.cuda(make_problem(s.input.geometry(), blur)); };
  return detail::measure(s, Api::Cuda, variant.name, setup, reference, variant.tolerance, settings);
}

TimerComparison CudaRunner::compare_timers(const Variant& variant, const BlurSpec& blur, const RunSettings& settings) {
  State& s = *state_;
  const CudaLaunch launch = variant.cuda(make_problem(s.input.geometry(), blur));
  CudaEvent start;
  CudaEvent stop;
  std::vector<double> enqueue_only;
  std::vector<double> with_wait;
  std::vector<double> device;
  int warmup = settings.warmup;
  int repeat = settings.repeat;
  for (int r = 0; r < warmup + repeat; ++r) {
    HostTimer timer;
    start.record(s.stream.get());
    s.launch_checked(launch, r % s.sets);
    stop.record(s.stream.get());
    const double after_launch = timer.elapsed_ms();  // the mistake: launches return before the kernel runs
    GAUSS_CUDA_CHECK(cudaStreamSynchronize(s.stream.get()));
    const double after_wait = timer.elapsed_ms();
    if (r == 0 && settings.budget_ms > 0) {  // a slow device: fewer runs (see RunSettings)
      repeat = runs_within_budget(settings, elapsed_ms(start, stop));
      if (repeat < settings.repeat) warmup = 1;
    }
    if (r < warmup) continue;
    enqueue_only.push_back(after_launch);
    with_wait.push_back(after_wait);
    device.push_back(elapsed_ms(start, stop));
  }
  return {summarize(enqueue_only).median_ms, summarize(with_wait).median_ms, summarize(device).median_ms, repeat};
}

}  // namespace gauss
