// Chapter 07's second program part: the planar variant. The RGB image split
// into three planes, each blurred with chapter 01's gray kernel, and joined
// again (OpenCL and CUDA), and the section that times the three stages apart
// (planar_split): what planar costs if the images are kept planar from start
// to end, and what converting costs.
#pragma once

#include <array>
#include <functional>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "blur_naive_cl.hpp"  // chapter 01's gray kernel, for the planes (USES 01_naive)
#include "blur_planar_cl.hpp"
#include "gauss/chapter.hpp"
#include "gauss/lesson_launch.hpp"
#include "gauss/reference.hpp"
#include "gauss/section_runs.hpp"
#ifdef GAUSS_HAVE_CUDA
#include "blur_rgba.cuh"
#include "gauss/cuda.hpp"
#endif

namespace chapter07 {

// The seminar's 32x8 groups, for every kernel of the chapter.
inline constexpr gauss::lesson::GroupShape kShape{32, 8};

inline std::string radius_option(const gauss::Problem& p) { return "-D RADIUS=" + std::to_string(p.blur.radius); }

// --- The planar variant (OpenCL) ----------------------------------------------------
// Five commands per run: split, three gray blurs, join. The run's time spans
// all five, so the split and the join, which a program that keeps its images
// planar would not need, are paid here; the section planar_split times them
// apart.
inline gauss::OpenClLaunch planar_opencl(gauss::OpenClSession& cl, const gauss::Problem& p) {
  const std::size_t plane = static_cast<std::size_t>(p.image.width) * p.image.height;
  std::vector<cl::Buffer> planes;  // R, G, B in; R, G, B blurred
  for (int i = 0; i < 6; ++i) planes.emplace_back(cl.context, CL_MEM_READ_WRITE, plane);
  cl::Kernel split = cl.kernel(gauss::embedded::blur_planar_cl, "deinterleave_rgb");
  cl::Kernel join = cl.kernel(gauss::embedded::blur_planar_cl, "interleave_rgb");
  for (int c = 0; c < 3; ++c) {
    split.setArg(1 + c, planes[c]);
    join.setArg(c, planes[3 + c]);
  }
  for (cl::Kernel* k : {&split, &join}) {
    k->setArg(4, p.image.width);
    k->setArg(5, p.image.height);
    k->setArg(6, p.image.pitch);
  }
  // The gray kernel of chapter 01 on each plane: one byte a pixel, pitch = width.
  std::vector<cl::Kernel> blurs;
  for (int c = 0; c < 3; ++c) {
    blurs.push_back(cl.kernel(gauss::embedded::blur_naive_cl, "blur_naive", radius_option(p)));
    blurs[c].setArg(0, planes[c]);
    blurs[c].setArg(1, planes[3 + c]);
    blurs[c].setArg(2, p.image.width);
    blurs[c].setArg(3, p.image.height);
    blurs[c].setArg(4, p.image.width);
    blurs[c].setArg(5, p.taps);
  }
  const cl::NDRange global = gauss::lesson::global_for(p.image, kShape);
  const cl::NDRange local(kShape.x, kShape.y);
  return [&cl, split, join, blurs, planes, global, local](const cl::Buffer& in, const cl::Buffer& out) mutable {
    std::vector<cl::Event> events(5);
    split.setArg(0, in);
    cl.queue.enqueueNDRangeKernel(split, cl::NullRange, global, local, nullptr, &events[0]);
    for (int c = 0; c < 3; ++c)
      cl.queue.enqueueNDRangeKernel(blurs[c], cl::NullRange, global, local, nullptr, &events[1 + c]);
    join.setArg(3, out);
    cl.queue.enqueueNDRangeKernel(join, cl::NullRange, global, local, nullptr, &events[4]);
    return events;
  };
}

#ifdef GAUSS_HAVE_CUDA
inline gauss::CudaLaunch planar_cuda(const gauss::Problem& p) {
  // Scratch for six planes, allocated once at set-up.
  auto planes = std::make_shared<gauss::CudaBuffer>(6 * static_cast<std::size_t>(p.image.width) * p.image.height);
  return [p, planes](const std::uint8_t* in, std::uint8_t* out, cudaStream_t stream) {
    launch_blur_planar(in, out, planes->data(), p, stream);
  };
}
#endif

// --- The planar stages, timed apart ---------------------------------------------------
// The planar variant's time includes the split and the join. This section
// runs the same launch and reads each stage's own time: what planar costs if
// the images are kept planar from start to end, and what converting costs.

struct StageTimes {
  std::vector<double> split, blur, join, whole;
};

inline std::vector<std::string> median_cells(const StageTimes& t) {
  return {gauss::lesson::format_ms(gauss::summarize(t.split).median_ms),
          gauss::lesson::format_ms(gauss::summarize(t.blur).median_ms),
          gauss::lesson::format_ms(gauss::summarize(t.join).median_ms),
          gauss::lesson::format_ms(gauss::summarize(t.whole).median_ms)};
}

// Runs @p once until the settings' runs are done (fewer where slow, as the
// runners do), then checks the last output against @p reference.
template <class Once>
void time_stages(gauss::SectionContext& context, const char* api, Once once, StageTimes& times,
                 const std::function<gauss::Image()>& output, const gauss::Image& reference) {
  const gauss::RunSettings settings = gauss::lesson::section_settings(context.options);
  for (int r = 0; r < settings.warmup; ++r) once(nullptr);
  StageTimes first;
  once(&first);
  const int runs = gauss::runs_within_budget(settings, first.whole.front());
  times = first;
  for (int r = 1; r < runs; ++r) once(&times);
  const gauss::Comparison comparison = gauss::compare_images(output(), reference, gauss::kFloatTolerance);
  if (!comparison.matches()) {
    context.failed = true;
    context.out << "planar (" << api << "): MISMATCH: " << comparison.summary() << '\n';
  }
}

inline void planar_split(gauss::SectionContext& context) {
  const gauss::Image rgb = gauss::convert(context.input, gauss::PixelFormat::Rgb);
  const gauss::Image reference = gauss::blur_reference(rgb, context.blur);
  const gauss::Problem problem = gauss::make_problem(rgb.geometry(), context.blur);
  gauss::Table table(
      {{"API", gauss::Table::Align::Left}, {"split ms"}, {"blur 3 planes ms"}, {"join ms"}, {"whole ms"}});
  if (context.opencl != nullptr) {
    gauss::OpenClSession& cl = *context.opencl;
    cl::Buffer in(cl.context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, rgb.bytes(),
                  const_cast<std::uint8_t*>(rgb.pixels.data()));
    cl::Buffer out(cl.context, CL_MEM_READ_WRITE, rgb.bytes());
    gauss::OpenClLaunch launch = planar_opencl(cl, problem);
    StageTimes times;
    auto once = [&](StageTimes* record) {
      const std::vector<cl::Event> e = launch(in, out);
      cl.queue.finish();
      if (record == nullptr) return;
      record->split.push_back(gauss::event_span_ms(e[0], e[0]));
      record->blur.push_back(gauss::event_span_ms(e[1], e[3]));
      record->join.push_back(gauss::event_span_ms(e[4], e[4]));
      record->whole.push_back(gauss::event_span_ms(e[0], e[4]));
    };
    auto output = [&] {
      gauss::Image image = gauss::Image::make(rgb.width, rgb.height, gauss::PixelFormat::Rgb);
      cl.queue.enqueueReadBuffer(out, CL_TRUE, 0, image.bytes(), image.pixels.data());
      return image;
    };
    time_stages(context, "OpenCL", once, times, output, reference);
    std::vector<std::string> row{"OpenCL"};
    for (std::string& cell : median_cells(times)) row.push_back(cell);
    table.add_row(row);
  }
#ifdef GAUSS_HAVE_CUDA
  if (context.cuda != nullptr) {
    gauss::CudaBuffer in(rgb.bytes());
    gauss::CudaBuffer out(rgb.bytes());
    gauss::CudaBuffer planes(6 * static_cast<std::size_t>(rgb.width) * rgb.height);
    in.upload(rgb.pixels.data(), rgb.bytes());
    gauss::CudaStream stream;
    std::array<gauss::CudaEvent, 4> marks;
    std::array<cudaEvent_t, 4> handles{marks[0].get(), marks[1].get(), marks[2].get(), marks[3].get()};
    StageTimes times;
    auto once = [&](StageTimes* record) {
      launch_blur_planar(in.data(), out.data(), planes.data(), problem, stream.get(), handles.data());
      GAUSS_CUDA_CHECK(cudaGetLastError());
      GAUSS_CUDA_CHECK(cudaStreamSynchronize(stream.get()));
      if (record == nullptr) return;
      record->split.push_back(gauss::elapsed_ms(marks[0], marks[1]));
      record->blur.push_back(gauss::elapsed_ms(marks[1], marks[2]));
      record->join.push_back(gauss::elapsed_ms(marks[2], marks[3]));
      record->whole.push_back(gauss::elapsed_ms(marks[0], marks[3]));
    };
    auto output = [&] {
      gauss::Image image = gauss::Image::make(rgb.width, rgb.height, gauss::PixelFormat::Rgb);
      out.download(image.pixels.data(), image.bytes());
      return image;
    };
    time_stages(context, "CUDA", once, times, output, reference);
    std::vector<std::string> row{"CUDA"};
    for (std::string& cell : median_cells(times)) row.push_back(cell);
    table.add_row(row);
  }
#endif
  table.print(context.out);
  context.out
      << "\nsplit: RGB24 -> three planes; blur: chapter 01's gray kernel on each plane; join: planes -> RGB24.\n"
      << "The table's planar row times the three together over rotating buffers; this one\n"
      << "reuses one buffer pair, so an image that fits in the cache is read from the cache here.\n";
}

}  // namespace chapter07
