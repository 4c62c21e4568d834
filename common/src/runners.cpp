#include "gauss/runners.hpp"

#include <algorithm>
#include <exception>
#include <string>
#include <utility>

#include "copy_cl.hpp"  // embedded common/kernels/copy.cl
#include "gauss/error.hpp"
#include "measure.hpp"

namespace gauss {

const char* name_of(Api api) {
  switch (api) {
    case Api::Cpu:
      return "CPU";
    case Api::OpenCL:
      return "OpenCL";
    case Api::Cuda:
      return "CUDA";
  }
  return "?";
}

Problem make_problem(const ImageGeometry& image, const BlurSpec& blur) { return {image, blur, gaussian_taps(blur)}; }

Image poison_for(const Image& expected) {
  Image poison = expected;
  for (std::uint8_t& byte : poison.pixels) byte ^= 0x80;
  return poison;
}

int rotation_sets(std::size_t image_bytes, std::size_t cache_bytes, std::size_t device_memory) {
  constexpr std::size_t kFloor = std::size_t{256} << 20;
  constexpr int kMaxSets = 32;
  const std::size_t set_bytes = std::max<std::size_t>(2 * image_bytes, 1);
  const std::size_t target = std::max(3 * cache_bytes, kFloor);
  int sets = static_cast<int>(std::min<std::size_t>((target + set_bytes - 1) / set_bytes, kMaxSets));
  while (sets > 1 && static_cast<std::size_t>(sets) * set_bytes > device_memory / 4) --sets;
  return std::max(sets, 1);
}

int runs_within_budget(const RunSettings& settings, double run_ms) {
  if (settings.budget_ms <= 0 || run_ms <= 0) return settings.repeat;
  const double fit = settings.budget_ms / run_ms;
  return std::min(settings.repeat, std::max(kMinTimedRuns, static_cast<int>(fit)));
}

// ---------------------------------------------------------------- CPU ---

VariantResult run_cpu_variant(const Variant& variant, const Image& input, const Image& reference, const BlurSpec& blur,
                              const RunSettings& settings) {
  VariantResult result;
  result.name = variant.name;
  result.api = Api::Cpu;
  result.bytes_moved = 2 * input.bytes();
  try {
    Image output = poison_for(reference);
    std::vector<double> samples;
    for (int r = 0; r < settings.repeat; ++r) {
      HostTimer timer;
      variant.cpu(input, output, blur);
      samples.push_back(timer.elapsed_ms());
    }
    result.time = summarize(std::move(samples));
    result.comparison = compare_images(output, reference, variant.tolerance);
    result.output = std::move(output);
  } catch (const Unsupported& reason) {
    result.skipped = reason.what();
  } catch (const std::exception& error) {
    result.error = error.what();
  }
  return result;
}

// ------------------------------------------------------------- OpenCL ---

struct OpenClRunner::State {
  OpenClSession& session;
  Image input;
  int sets = 1;
  std::vector<cl::Buffer> inputs;
  std::vector<cl::Buffer> outputs;
  cl::Kernel copy_kernel;  // built on first use

  State(OpenClSession& s, const Image& image) : session(s), input(image) {}

  void poison_outputs(const Image& poison) {
    for (cl::Buffer& buffer : outputs) {
      session.queue.enqueueWriteBuffer(buffer, CL_TRUE, 0, poison.bytes(), poison.pixels.data());
    }
  }

  // Launches warmup + repeat runs, rotating through the buffer sets, and
  // returns the device time of each timed run. Every run is enqueued before
  // the first wait: the GPU goes from one run to the next with no gap, and
  // each run's profiling events still time that run alone.
  std::vector<double> timed_runs(const OpenClLaunch& launch, const RunSettings& settings, int& last_set) {
    std::vector<std::vector<cl::Event>> runs;
    int warmup = settings.warmup;
    int repeat = settings.repeat;
    if (settings.budget_ms > 0 && warmup > 0) {
      // One warm-up run on its own tells how long a run takes.
      const std::vector<cl::Event> first = launch(inputs[0], outputs[0]);
      session.queue.finish();
      repeat = runs_within_budget(settings, event_span_ms(first.front(), first.back()));
      warmup = repeat < settings.repeat ? 0 : warmup - 1;  // a slow run needs no more warming
    }
    const int total = warmup + repeat;
    for (int r = 0; r < total; ++r) {
      const int set = r % sets;
      std::vector<cl::Event> events =
          launch(inputs[static_cast<std::size_t>(set)], outputs[static_cast<std::size_t>(set)]);
      if (events.empty()) throw ApiError("the launch enqueued nothing (it must return its kernels' events)");
      if (r >= warmup) runs.push_back(std::move(events));
      last_set = set;
    }
    session.queue.finish();
    std::vector<double> samples;
    for (const std::vector<cl::Event>& events : runs) samples.push_back(event_span_ms(events.front(), events.back()));
    return samples;
  }

  Image read_output(int set, const Image& like) {
    Image output = Image::make(like.width, like.height, like.format());
    session.queue.enqueueReadBuffer(outputs[static_cast<std::size_t>(set)], CL_TRUE, 0, output.bytes(),
                                    output.pixels.data());
    return output;
  }
};

OpenClRunner::OpenClRunner(OpenClSession& session, const Image& input)
    : state_(std::make_unique<State>(session, input)) {
  State& s = *state_;
  s.sets = rotation_sets(input.bytes(), session.info.global_cache, session.info.global_memory);
  try {
    for (int i = 0; i < s.sets; ++i) {
      s.inputs.emplace_back(session.context, CL_MEM_READ_ONLY, input.bytes());
      s.outputs.emplace_back(session.context, CL_MEM_READ_WRITE, input.bytes());
      session.queue.enqueueWriteBuffer(s.inputs.back(), CL_TRUE, 0, input.bytes(), input.pixels.data());
    }
  } catch (const cl::Error& error) {
    throw ApiError("allocating " + std::to_string(s.sets) + " pairs of " + std::to_string(input.bytes()) +
                   "-byte buffers: " + describe(error));
  }
}

OpenClRunner::~OpenClRunner() = default;

int OpenClRunner::sets() const { return state_->sets; }

VariantResult OpenClRunner::copy(const RunSettings& settings) {
  State& s = *state_;
  auto setup = [&s]() -> OpenClLaunch {
    if (!s.copy_kernel()) s.copy_kernel = s.session.kernel(embedded::copy_cl, "copy_bytes");
    const auto bytes = static_cast<cl_uint>(s.input.bytes());
    const std::size_t items = bytes / 16 + bytes % 16;
    const cl::NDRange local(256);
    const cl::NDRange global(round_up(items, 256));
    return [&s, bytes, global, local](const cl::Buffer& in, const cl::Buffer& out) {
      cl::Kernel& kernel = s.copy_kernel;
      kernel.setArg(0, in);
      kernel.setArg(1, out);
      kernel.setArg(2, bytes);
      cl::Event done;
      s.session.queue.enqueueNDRangeKernel(kernel, cl::NullRange, global, local, nullptr, &done);
      return std::vector<cl::Event>{done};
    };
  };
  return detail::measure(s, Api::OpenCL, "copy", setup, s.input, 0, settings);
}

VariantResult OpenClRunner::run(const Variant& variant, const BlurSpec& blur, const Image& reference,
                                const RunSettings& settings) {
  State& s = *state_;
  auto setup = [&]() { return variant.opencl(s.session, make_problem(s.input.geometry(), blur)); };
  return detail::measure(s, Api::OpenCL, variant.name, setup, reference, variant.tolerance, settings);
}

TimerComparison OpenClRunner::compare_timers(const Variant& variant, const BlurSpec& blur,
                                             const RunSettings& settings) {
  State& s = *state_;
  const OpenClLaunch launch = variant.opencl(s.session, make_problem(s.input.geometry(), blur));
  std::vector<double> enqueue_only;
  std::vector<double> with_wait;
  std::vector<double> device;
  int warmup = settings.warmup;
  int repeat = settings.repeat;
  for (int r = 0; r < warmup + repeat; ++r) {
    const std::size_t set = static_cast<std::size_t>(r % s.sets);
    HostTimer timer;
    const std::vector<cl::Event> events = launch(s.inputs[set], s.outputs[set]);
    const double after_enqueue = timer.elapsed_ms();  // the mistake: the GPU may not even have started
    s.session.queue.finish();
    const double after_wait = timer.elapsed_ms();
    if (r == 0 && settings.budget_ms > 0) {  // a slow device: fewer runs (see RunSettings)
      repeat = runs_within_budget(settings, event_span_ms(events.front(), events.back()));
      if (repeat < settings.repeat) warmup = 1;
    }
    if (r < warmup) continue;
    enqueue_only.push_back(after_enqueue);
    with_wait.push_back(after_wait);
    device.push_back(event_span_ms(events.front(), events.back()));
  }
  return {summarize(enqueue_only).median_ms, summarize(with_wait).median_ms, summarize(device).median_ms, repeat};
}

}  // namespace gauss
