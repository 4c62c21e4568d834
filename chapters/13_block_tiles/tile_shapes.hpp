// Chapter 13's section `tile_shapes` (on request): the block tiles in other
// shapes, each point against the copy of the same image and API
// (gauss/copy_sweep.hpp), at radius 2 with sigma 1, the blur they serve.
// OpenCL's shapes are -D options at run time; CUDA's are compiled into
// blur_tile.cu (a template instance each). The first point of each list is
// tile_plan.hpp's shape. main.cpp adds the section.
#pragma once

#include <functional>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "gauss/chapter.hpp"
#include "gauss/copy_sweep.hpp"
#include "gauss/reference.hpp"
#include "gauss/runners.hpp"
#include "tile_plan.hpp"
#ifdef GAUSS_HAVE_CUDA
#include "blur_tile.cuh"
#include "gauss/cuda.hpp"
#endif

namespace chapter13 {

/// The OpenCL tile kernel's set-up with @p lane_bytes bytes per item and
/// @p rows output rows per item: main.cpp's tile_opencl_shaped.
using ShapedOpenCl =
    std::function<gauss::OpenClLaunch(gauss::OpenClSession& cl, const gauss::Problem& p, int lane_bytes, int rows)>;

/// A point of the section: the tile kernel in one shape, checked like `main`.
inline gauss::Variant tile_point(gauss::Api api) {
  gauss::Variant v;
  v.name = "main";
  v.api = api;
  v.tolerance = gauss::kFloatTolerance;
  return v;
}

inline void tile_shapes(gauss::SectionContext& context, const ShapedOpenCl& tile_opencl_shaped) {
  const gauss::RunSettings settings{context.options.warmup, context.options.repeat, 0.0};
  const gauss::BlurSpec blur{1.0, 2};
  for (gauss::PixelFormat format : {gauss::PixelFormat::Gray, gauss::PixelFormat::Rgba}) {
    const gauss::Image input = gauss::convert(context.input, format);
    const gauss::Image reference = gauss::blur_reference(input, blur);
    if (context.opencl != nullptr) {
      gauss::OpenClRunner runner(*context.opencl, input);
      const gauss::VariantResult copy = runner.copy(settings);
      // The shipped shape first, then 8 and 16 bytes per item by 2 to 16 rows.
      const int shipped_bytes = tile::opencl_tile_lane_bytes(input.channels);
      const int shipped_rows = tile::opencl_tile_rows(input.channels);
      std::vector<std::pair<int, int>> shapes{{shipped_bytes, shipped_rows}};
      for (int lane_bytes : {8, 16})
        for (int rows : {2, 4, 8, 16})
          if (lane_bytes != shipped_bytes || rows != shipped_rows) shapes.push_back({lane_bytes, rows});
      std::vector<gauss::SweepPoint> points;
      for (const auto& [lane_bytes, rows] : shapes) {
        gauss::Variant v = tile_point(gauss::Api::OpenCL);
        v.opencl = [lane_bytes = lane_bytes, rows = rows, tile_opencl_shaped](gauss::OpenClSession& cl,
                                                                              const gauss::Problem& p) {
          return tile_opencl_shaped(cl, p, lane_bytes, rows);
        };
        const std::string label =
            std::to_string(lane_bytes) + " B, " + std::to_string(rows) + " rows" + (points.empty() ? " (shipped)" : "");
        points.push_back({label, copy, runner.run(v, blur, reference, settings), gauss::shape_of(input, blur)});
      }
      context.out << gauss::name_of(format) << ", OpenCL:\n";
      gauss::print_sweep(context, "shape", points, context.opencl->info.name);
    }
#ifdef GAUSS_HAVE_CUDA
    if (context.cuda != nullptr) {
      gauss::CudaRunner runner(*context.cuda, input);
      const gauss::VariantResult copy = runner.copy(settings);
      std::vector<gauss::SweepPoint> points;
      for (int shape = 0; shape < tile_shape_count(input.channels); ++shape) {
        gauss::Variant v = tile_point(gauss::Api::Cuda);
        v.cuda = [shape](const gauss::Problem& p) -> gauss::CudaLaunch {
          return [p, shape](const std::uint8_t* in, std::uint8_t* out, cudaStream_t stream) {
            launch_blur_tile_shape(in, out, p, shape, stream);
          };
        };
        points.push_back({tile_shape_name(input.channels, shape), copy, runner.run(v, blur, reference, settings),
                          gauss::shape_of(input, blur)});
      }
      context.out << gauss::name_of(format) << ", CUDA:\n";
      gauss::print_sweep(context, "shape", points, context.cuda->name);
    }
#endif
  }
}

}  // namespace chapter13
