// Chapter 07: colour, and how a pixel's bytes are packed.
//
// The blur of a colour photo is three gray blurs, one per channel. How the
// channels lie in memory decides how many loads a tap costs and whether they
// are aligned:
//
//   rgb24      R,G,B in 3 bytes: three byte loads per tap, rows not 4-byte aligned
//   rgba32     R,G,B,A in 4 bytes: one aligned 32-bit load per tap, float4 sums
//   rgba32_x4  four RGBA pixels per item: 16-byte loads, each byte converted once
//   planar     three planes (all R, all G, all B), each blurred as gray; the
//              split and the join are part of its time
//   alpha_zero rgba32 as the Fixstars seminar wrote it: alpha = 0 (a known bug)
//
// Every output carries its input pixel's alpha through, and the tests use
// random alpha to check it. The Fixstars seminar measured RGB24 at 4.83 ms and
// RGBA32 at 3.69 ms; the lesson is in README.md beside this file.
#include <algorithm>
#include <array>
#include <functional>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "../05_local_memory/launch_helpers.hpp"  // shared by chapters 05-07
#include "../05_local_memory/section_runs.hpp"
#include "blur_naive_cl.hpp"  // chapter 01's gray kernel, for the planes
#include "blur_planar_cl.hpp"
#include "blur_rgba_cl.hpp"
#include "gauss/chapter.hpp"
#include "gauss/reference.hpp"
#ifdef GAUSS_HAVE_CUDA
#include "blur_rgba.cuh"
#include "gauss/cuda.hpp"
#endif

namespace chapter07 {
namespace {

// The seminar's 32x8 groups, for every kernel.
constexpr gauss::lesson::GroupShape kShape{32, 8};

std::string radius_option(const gauss::Problem& p) { return "-D RADIUS=" + std::to_string(p.blur.radius); }

// --- The interleaved kernels (OpenCL) -------------------------------------------
// One item per pixel, or per four pixels for the _x4 kernel.
gauss::OpenClSetup interleaved_opencl(const char* kernel_name, int pixels_per_item, std::string extra_options = "") {
  return [=](gauss::OpenClSession& cl, const gauss::Problem& p) {
    cl::Kernel kernel = cl.kernel(gauss::embedded::blur_rgba_cl, kernel_name, radius_option(p) + extra_options);
    gauss::lesson::set_geometry_args(kernel, p);
    kernel.setArg(5, p.taps);
    gauss::ImageGeometry items = p.image;
    items.width = (p.image.width + pixels_per_item - 1) / pixels_per_item;
    return gauss::lesson::enqueue_kernel(cl, kernel, gauss::lesson::global_for(items, kShape),
                                         cl::NDRange(kShape.x, kShape.y));
  };
}

// --- The planar variant (OpenCL) ----------------------------------------------------
// Five commands per run: split, three gray blurs, join. The run's time spans
// all five, so the split and the join, which a program that keeps its images
// planar would not need, are paid here; the section planar_split times them
// apart.
gauss::OpenClLaunch planar_opencl(gauss::OpenClSession& cl, const gauss::Problem& p) {
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
gauss::CudaSetup colour_cuda(ColourKernel kernel) {
  return [kernel](const gauss::Problem& p) -> gauss::CudaLaunch {
    return [kernel, p](const std::uint8_t* in, std::uint8_t* out, cudaStream_t stream) {
      launch_blur_colour(kernel, in, out, p, stream);
    };
  };
}

gauss::CudaLaunch planar_cuda(const gauss::Problem& p) {
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

std::vector<std::string> median_cells(const StageTimes& t) {
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

void planar_split(gauss::SectionContext& context) {
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

}  // namespace

gauss::Chapter make_chapter() {
  gauss::Chapter chapter("07_rgba_packing", "colour: RGB24, RGBA32, planar, four pixels per item",
                         gauss::PixelFormat::Rgba);

  // --- The CPU: the baseline of the speed-up column (RGBA) ---------------------
  chapter.add_cpu("cpu_single", "CPU reference (double), one thread",
                  [](const gauss::Image& in, gauss::Image& out, const gauss::BlurSpec& blur) {
                    gauss::blur_reference(in, out, blur, gauss::ReferenceMethod::Direct2D, 1);
                  });

  // --- OpenCL ---------------------------------------------------------------------------
  // 3 bytes a pixel: three byte loads a tap (vload3), rows of any alignment.
  chapter
      .add_opencl("rgb24", "RGB24, 3 bytes a pixel: vload3, three byte loads per tap",
                  interleaved_opencl("blur_rgb24", 1))
      .format = gauss::PixelFormat::Rgb;
  // Three planes, each blurred as gray; the split and the join are timed too.
  chapter.add_opencl("planar", "three planes (R, G, B), each blurred as gray; split and join included", planar_opencl)
      .format = gauss::PixelFormat::Rgb;
  // 4 bytes a pixel: one aligned 32-bit load a tap, float4 arithmetic.
  chapter.add_opencl("rgba32", "RGBA32, 4 bytes a pixel: one 32-bit load per tap, float4 sums, alpha kept",
                     interleaved_opencl("blur_rgba32", 1));
  // Four pixels an item: 16-byte loads, each byte converted once per row.
  chapter.add_opencl("rgba32_x4", "RGBA32, four pixels per item: 16-byte loads, each byte converted once",
                     interleaved_opencl("blur_rgba32_x4", 4));
  // The seminar's kernel wrote alpha = 0: kept to be caught.
  const std::string alpha_bug =
      "alpha is written as 0, as in the seminar's GaussianKernelColor4; the reference "
      "keeps each pixel's alpha";
  chapter
      .add_opencl("alpha_zero", "rgba32 as the seminar wrote it: alpha = 0",
                  interleaved_opencl("blur_rgba32", 1, " -D ALPHA_ZERO"))
      .known_bug = alpha_bug;

  // --- CUDA -------------------------------------------------------------------------------
#ifdef GAUSS_HAVE_CUDA
  chapter
      .add_cuda("rgb24", "RGB24, 3 bytes a pixel: uchar3, three byte loads per tap", colour_cuda(ColourKernel::Rgb24))
      .format = gauss::PixelFormat::Rgb;
  chapter.add_cuda("planar", "three planes (R, G, B), each blurred as gray; split and join included", planar_cuda)
      .format = gauss::PixelFormat::Rgb;
  chapter.add_cuda("rgba32", "RGBA32, 4 bytes a pixel: one 32-bit load per tap, float4 sums, alpha kept",
                   colour_cuda(ColourKernel::Rgba32));
  chapter.add_cuda("rgba32_x4", "RGBA32, four pixels per thread: 16-byte loads, each byte converted once",
                   colour_cuda(ColourKernel::Rgba32x4));
  chapter.add_cuda("alpha_zero", "rgba32 as the seminar wrote it: alpha = 0", colour_cuda(ColourKernel::AlphaZero))
      .known_bug = alpha_bug;
#endif

  // --- After the table: the planar variant's stages, timed apart ----------------------------
  chapter.add_section("planar_split", "planar: the split, the blur of the planes and the join, timed apart",
                      planar_split);

  // The exercise (README, section Exercise): blur_rgba.cl/.cu with the
  // rgba32 kernel's 32-bit loads, float4 sums and conversion back left for
  // the student to write.
  chapter.set_exercise("blur_rgba.cl", {"rgba32"});
  return chapter;
}

}  // namespace chapter07

#ifndef GAUSS_CHAPTER_NO_MAIN
int main(int argc, char** argv) { return chapter07::make_chapter().run(argc, argv); }
#endif
