// Chapter 03: the GPU passes on the host side.
#include "passes.hpp"

#include <string>

#include "../02_work_size/section_tools.hpp"
#include "gaussian_fir_cl.hpp"     // embedded gaussian_fir.cl
#include "recursive_gauss_cl.hpp"  // embedded recursive_gauss.cl
#ifdef GAUSS_HAVE_CUDA
#include "gauss/cuda.hpp"
#include "gaussian_fir.cuh"
#include "recursive_gauss.cuh"
#endif

namespace chapter03 {
namespace {

// The build options that choose a kernel's element types.
std::string type_options(Element in, Element out) {
  auto name = [](Element e) { return e == Element::U8 ? "uchar" : "float"; };
  return std::string("-D IN_T=") + name(in) + " -D OUT_T=" + name(out) +
         " -D OUT_IS_BYTE=" + (out == Element::U8 ? "1" : "0");
}

}  // namespace

RecursivePassCl::RecursivePassCl(gauss::OpenClSession& cl, Line line, Element in, Element out, int group)
    : cl_(&cl),
      kernel_(cl.kernel(gauss::embedded::recursive_gauss_cl, line == Line::Rows ? "rg_rows" : "rg_columns",
                        type_options(in, out))),
      line_(line),
      group_(group) {}

cl::Event RecursivePassCl::enqueue(const cl::Buffer& in, int in_pitch, const cl::Buffer& forward, int forward_pitch,
                                   const cl::Buffer& out, int out_pitch, int width, int height,
                                   const DericheTaps& taps) {
  gauss::sections::set_args(kernel_, in, in_pitch, forward, forward_pitch, out, out_pitch, width, height, taps);
  // One item per line: as many items as rows (rgH) or columns (rgV).
  const std::size_t lines = static_cast<std::size_t>(line_ == Line::Rows ? height : width);
  cl::Event done;
  cl_->queue.enqueueNDRangeKernel(kernel_, cl::NullRange, cl::NDRange(gauss::round_up(lines, group_)),
                                  cl::NDRange(group_), nullptr, &done);
  return done;
}

FirPassCl::FirPassCl(gauss::OpenClSession& cl, Line line, int radius, Element in, Element out)
    : cl_(&cl),
      kernel_(cl.kernel(gauss::embedded::gaussian_fir_cl, line == Line::Rows ? "fir_rows" : "fir_columns",
                        "-D RADIUS=" + std::to_string(radius) + " " + type_options(in, out))) {}

cl::Event FirPassCl::enqueue(const cl::Buffer& in, int in_pitch, const cl::Buffer& out, int out_pitch, int width,
                             int height, const gauss::GaussTaps& taps) {
  gauss::sections::set_args(kernel_, in, in_pitch, out, out_pitch, width, height, taps);
  cl::Event done;
  cl_->queue.enqueueNDRangeKernel(kernel_, cl::NullRange,
                                  cl::NDRange(gauss::round_up(width, 16), gauss::round_up(height, 16)),
                                  cl::NDRange(16, 16), nullptr, &done);
  return done;
}

cl::Buffer float_image(gauss::OpenClSession& cl, int width, int height) {
  return cl::Buffer(cl.context, CL_MEM_READ_WRITE,
                    static_cast<std::size_t>(width) * static_cast<std::size_t>(height) * sizeof(float));
}

#ifdef GAUSS_HAVE_CUDA
CudaFloatImage::CudaFloatImage(int width, int height)
    : buffer_(std::make_shared<gauss::CudaBuffer>(static_cast<std::size_t>(width) * static_cast<std::size_t>(height) *
                                                  sizeof(float))) {}

float* CudaFloatImage::data() const { return reinterpret_cast<float*>(buffer_->data()); }
#endif

// --- One recursive pass alone ----------------------------------------------------
// 8-bit in, 8-bit out, like every variant; the causal pass's results wait in
// a float scratch image allocated once, at set-up.
gauss::OpenClSetup recursive_pass_opencl(Line line) {
  return [line](gauss::OpenClSession& cl, const gauss::Problem& p) -> gauss::OpenClLaunch {
    RecursivePassCl pass(cl, line, Element::U8, Element::U8);
    const cl::Buffer forward = float_image(cl, p.image.width, p.image.height);
    const DericheTaps taps = deriche_taps(p.blur.sigma);
    return [=](const cl::Buffer& in, const cl::Buffer& out) mutable {
      return std::vector<cl::Event>{pass.enqueue(in, p.image.pitch, forward, p.image.width, out, p.image.pitch,
                                                 p.image.width, p.image.height, taps)};
    };
  };
}

// --- One FIR pass alone, and the separable FIR blur ---------------------------------
gauss::OpenClSetup fir_pass_opencl(Line line) {
  return [line](gauss::OpenClSession& cl, const gauss::Problem& p) -> gauss::OpenClLaunch {
    FirPassCl pass(cl, line, p.blur.radius, Element::U8, Element::U8);
    return [=](const cl::Buffer& in, const cl::Buffer& out) mutable {
      return std::vector<cl::Event>{
          pass.enqueue(in, p.image.pitch, out, p.image.pitch, p.image.width, p.image.height, p.taps)};
    };
  };
}

gauss::OpenClSetup fir_separable_opencl() {
  return [](gauss::OpenClSession& cl, const gauss::Problem& p) -> gauss::OpenClLaunch {
    FirPassCl along(cl, Line::Rows, p.blur.radius, Element::U8, Element::F32);
    FirPassCl down(cl, Line::Columns, p.blur.radius, Element::F32, Element::U8);
    const cl::Buffer rows = float_image(cl, p.image.width, p.image.height);  // the horizontal pass's result
    return [=](const cl::Buffer& in, const cl::Buffer& out) mutable {
      const cl::Event first =
          along.enqueue(in, p.image.pitch, rows, p.image.width, p.image.width, p.image.height, p.taps);
      const cl::Event second =
          down.enqueue(rows, p.image.width, out, p.image.pitch, p.image.width, p.image.height, p.taps);
      return std::vector<cl::Event>{first, second};
    };
  };
}

#ifdef GAUSS_HAVE_CUDA
gauss::CudaSetup recursive_pass_cuda(Line line) {
  return [line](const gauss::Problem& p) -> gauss::CudaLaunch {
    const CudaFloatImage forward(p.image.width, p.image.height);
    const DericheTaps taps = deriche_taps(p.blur.sigma);
    return [=](const std::uint8_t* in, std::uint8_t* out, cudaStream_t stream) {
      launch_recursive_pass(line, Element::U8, in, p.image.pitch, forward.data(), p.image.width, Element::U8, out,
                            p.image.pitch, p.image.width, p.image.height, taps, kLineGroup, stream);
    };
  };
}

gauss::CudaSetup fir_pass_cuda(Line line) {
  return [line](const gauss::Problem& p) -> gauss::CudaLaunch {
    return [=](const std::uint8_t* in, std::uint8_t* out, cudaStream_t stream) {
      launch_fir_pass(line, p.blur.radius, Element::U8, in, p.image.pitch, Element::U8, out, p.image.pitch,
                      p.image.width, p.image.height, p.taps, stream);
    };
  };
}

gauss::CudaSetup fir_separable_cuda() {
  return [](const gauss::Problem& p) -> gauss::CudaLaunch {
    const CudaFloatImage rows(p.image.width, p.image.height);  // the horizontal pass's result
    return [=](const std::uint8_t* in, std::uint8_t* out, cudaStream_t stream) {
      float* scratch = rows.data();
      launch_fir_pass(Line::Rows, p.blur.radius, Element::U8, in, p.image.pitch, Element::F32, scratch, p.image.width,
                      p.image.width, p.image.height, p.taps, stream);
      launch_fir_pass(Line::Columns, p.blur.radius, Element::F32, scratch, p.image.width, Element::U8, out,
                      p.image.pitch, p.image.width, p.image.height, p.taps, stream);
    };
  };
}
#endif

// --- The full recursive blur -------------------------------------------------------

gauss::OpenClSetup recursive_blur_opencl() {
  return [](gauss::OpenClSession& cl, const gauss::Problem& p) -> gauss::OpenClLaunch {
    const int width = p.image.width;
    const int height = p.image.height;
    RecursivePassCl down(cl, Line::Columns, Element::U8, Element::F32);  // rgV: 8-bit in, float out
    RecursivePassCl along(cl, Line::Rows, Element::F32, Element::U8);    // rgH: float in, 8-bit out
    const cl::Buffer forward = float_image(cl, width, height);           // the causal passes' scratch
    const cl::Buffer blurred_columns = float_image(cl, width, height);   // rgV's result
    const DericheTaps taps = deriche_taps(p.blur.sigma);
    return [=](const cl::Buffer& in, const cl::Buffer& out) mutable {
      const cl::Event first =
          down.enqueue(in, p.image.pitch, forward, width, blurred_columns, width, width, height, taps);
      const cl::Event second =
          along.enqueue(blurred_columns, width, forward, width, out, p.image.pitch, width, height, taps);
      return std::vector<cl::Event>{first, second};
    };
  };
}

#ifdef GAUSS_HAVE_CUDA
gauss::CudaSetup recursive_blur_cuda() {
  return [](const gauss::Problem& p) -> gauss::CudaLaunch {
    const int width = p.image.width;
    const int height = p.image.height;
    const CudaFloatImage forward(width, height);          // the causal passes' scratch
    const CudaFloatImage blurred_columns(width, height);  // rgV's result
    const DericheTaps taps = deriche_taps(p.blur.sigma);
    return [=](const std::uint8_t* in, std::uint8_t* out, cudaStream_t stream) {
      float* scratch = forward.data();
      float* columns = blurred_columns.data();
      launch_recursive_pass(Line::Columns, Element::U8, in, p.image.pitch, scratch, width, Element::F32, columns, width,
                            width, height, taps, kLineGroup, stream);
      launch_recursive_pass(Line::Rows, Element::F32, columns, width, scratch, width, Element::U8, out, p.image.pitch,
                            width, height, taps, kLineGroup, stream);
    };
  };
}
#endif

}  // namespace chapter03
