// Chapter 05's group shapes: the tiled and the separable kernels' set-ups for
// any group shape (the table runs each in one shape; main.cpp), and the
// section group_shapes, which runs both in every 256-item shape and prints
// what each shape wastes.
//
// Each shape has 256 items. The tiled kernel loads (X+2R)(Y+2R) cells for X*Y
// pixels: its overhead is the halo, smallest for a square. The separable
// kernel's overhead is its 2R fake items of every X: smallest for a wide row.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>

#include "blur_separable_local_cl.hpp"  // the OpenCL kernels, embedded at build time
#include "blur_tiled_cl.hpp"
#include "gauss/chapter.hpp"
#include "gauss/lesson_launch.hpp"
#include "gauss/reference.hpp"
#include "gauss/section_runs.hpp"
#ifdef GAUSS_HAVE_CUDA
#include "blur_tiled.cuh"
#endif

namespace chapter05 {

/// The shapes the group-shape sweep measures: 256 items each.
inline constexpr gauss::lesson::GroupShape kSweepShapes[] = {{16, 16}, {32, 8}, {64, 4}, {128, 2}, {256, 1}};

// --- The tiled kernel and the separable kernel, for any group shape -----------
// Both are built with the radius and the shape as compile-time constants
// (-D RADIUS, GROUP_X, GROUP_Y): the local arrays need a constant size.

inline gauss::OpenClSetup tiled_opencl(gauss::lesson::GroupShape shape) {
  return [shape](gauss::OpenClSession& cl, const gauss::Problem& p) {
    cl::Kernel kernel = gauss::lesson::blur_kernel(cl, gauss::embedded::blur_tiled_cl, "blur_tiled",
                                                   gauss::lesson::build_options(p.blur.radius, shape), p);
    // One item per output pixel; the tile's halo is loaded by the same items.
    return gauss::lesson::enqueue_kernel(cl, kernel, gauss::lesson::global_for(p.image, shape),
                                         cl::NDRange(shape.x, shape.y));
  };
}

inline gauss::OpenClSetup separable_local_opencl(gauss::lesson::GroupShape shape) {
  return [shape](gauss::OpenClSession& cl, const gauss::Problem& p) {
    cl::Kernel kernel = gauss::lesson::blur_kernel(cl, gauss::embedded::blur_separable_local_cl, "blur_separable_local",
                                                   gauss::lesson::build_options(p.blur.radius, shape), p);
    // The groups overlap: each writes shape.x - 2R columns, so there are
    // more groups than width / shape.x.
    const std::size_t outputs_x = static_cast<std::size_t>(shape.x - 2 * p.blur.radius);
    const std::size_t groups_x = (static_cast<std::size_t>(p.image.width) + outputs_x - 1) / outputs_x;
    const cl::NDRange global(groups_x * shape.x, gauss::round_up(p.image.height, shape.y));
    return gauss::lesson::enqueue_kernel(cl, kernel, global, cl::NDRange(shape.x, shape.y));
  };
}

#ifdef GAUSS_HAVE_CUDA
inline gauss::CudaSetup tiled_cuda(gauss::lesson::GroupShape shape) {
  return gauss::lesson::cuda_launch(
      [shape](const std::uint8_t* in, std::uint8_t* out, const gauss::Problem& p, cudaStream_t stream) {
        launch_blur_tiled(in, out, p, dim3(shape.x, shape.y), stream);
      });
}

inline gauss::CudaSetup separable_local_cuda(gauss::lesson::GroupShape shape) {
  return gauss::lesson::cuda_launch(
      [shape](const std::uint8_t* in, std::uint8_t* out, const gauss::Problem& p, cudaStream_t stream) {
        launch_blur_separable_local(in, out, p, dim3(shape.x, shape.y), stream);
      });
}
#endif

// --- The group-shape sweep --------------------------------------------------------

/// Halo cells loaded per output pixel: (X+2R)(Y+2R)/(XY) - 1, in percent.
inline double tiled_overhead(gauss::lesson::GroupShape s, int r) {
  const double cells = static_cast<double>(s.x + 2 * r) * (s.y + 2 * r);
  return 100.0 * (cells - s.x * s.y) / (s.x * s.y);
}

/// Fake items (they only sum a column) per group: 2R/X, in percent.
inline double separable_overhead(gauss::lesson::GroupShape s, int r) { return 100.0 * 2 * r / s.x; }

inline void group_shape_sweep(gauss::SectionContext& context) {
  const int r = context.blur.radius;
  const gauss::Image reference = gauss::blur_reference(context.input, context.blur);
  gauss::lesson::SectionRunners runners(context, context.input);
  gauss::Table table({{"kernel", gauss::Table::Align::Left},
                      {"group"},
                      {"overhead"},
                      {"API", gauss::Table::Align::Left},
                      {"median ms"},
                      {"GB/s"},
                      {"% of copy"},
                      {"status", gauss::Table::Align::Left}});
  for (const std::string kernel : {"tiled", "separable_local"}) {
    const bool tiled = kernel == "tiled";
    for (const gauss::lesson::GroupShape shape : kSweepShapes) {
      const std::string name = kernel + "_" + gauss::lesson::to_string(shape);
      const double overhead = tiled ? tiled_overhead(shape, r) : separable_overhead(shape, r);
      for (const gauss::Api api : {gauss::Api::OpenCL, gauss::Api::Cuda}) {
        if (!runners.has(api)) continue;
        if (!tiled && shape.x <= 2 * r) {  // no column left to write
          table.add_row({kernel, gauss::lesson::to_string(shape), "-", gauss::name_of(api), "-", "-", "-",
                         "a group must be wider than 2R"});
          continue;
        }
        gauss::OpenClSetup opencl = tiled ? tiled_opencl(shape) : separable_local_opencl(shape);
        gauss::CudaSetup cuda;
#ifdef GAUSS_HAVE_CUDA
        cuda = tiled ? tiled_cuda(shape) : separable_local_cuda(shape);
#endif
        const gauss::VariantResult result =
            runners.measure(name, api, std::move(opencl), std::move(cuda), context.blur, reference, name);
        const gauss::ResultRow& row = context.rows.back();
        table.add_row({kernel, gauss::lesson::to_string(shape), gauss::format_fixed(overhead, 1) + "%",
                       gauss::name_of(api), gauss::lesson::format_ms(row.median_ms),
                       gauss::lesson::format_gbps(row.gbps),
                       row.percent_of_copy ? gauss::format_fixed(*row.percent_of_copy, 1) : "-",
                       gauss::lesson::status_of(result)});
      }
    }
  }
  table.print(context.out);
  context.out << "\noverhead: tiled = halo cells loaded per output pixel, (X+2R)(Y+2R)/(XY) - 1;\n"
              << "          separable_local = items that only sum a column (fake items), 2R/X\n";
}

}  // namespace chapter05
