// Chapter 03: the recursive Gaussian in CUDA, the same as recursive_gauss.cl:
// one thread per line, rg_rows (rgH, uncoalesced) and rg_columns (rgV,
// coalesced) around one filter_line().
#include <cstdint>
#include <stdexcept>

#include "gauss/cuda.hpp"
#include "recursive_gauss.cuh"

namespace chapter03 {
namespace {

__device__ void store(float* p, float v) { *p = v; }
// Round half up and saturate, like the CPU reference: floor(v + 0.5) in 0..255.
__device__ void store(std::uint8_t* p, float v) {
  *p = static_cast<std::uint8_t>(fminf(fmaxf(v + 0.5f, 0.0f), 255.0f));
}

// Filters in[0], in[in_step], ... (count values) into out[...]; the causal
// results wait in forward[...] until the anti-causal pass adds its own.
template <class In, class Out>
__device__ void filter_line(const In* in, int in_step, float* forward, int forward_step, Out* out, int out_step,
                            int count, const DericheTaps& t) {
  // Causal pass, with the first value repeated before the line (clamp-to-edge).
  const float first = static_cast<float>(in[0]);
  float x1 = first, x2 = first, x3 = first;
  float y1 = first * t.causal_edge, y2 = y1, y3 = y1, y4 = y1;
  for (int i = 0; i < count; ++i) {
    const float x0 = static_cast<float>(in[i * in_step]);
    const float y0 =
        t.n[0] * x0 + t.n[1] * x1 + t.n[2] * x2 + t.n[3] * x3 - t.d[0] * y1 - t.d[1] * y2 - t.d[2] * y3 - t.d[3] * y4;
    forward[i * forward_step] = y0;
    x3 = x2, x2 = x1, x1 = x0;
    y4 = y3, y3 = y2, y2 = y1, y1 = y0;
  }
  // Anti-causal pass, with the last value repeated after the line.
  const float last = static_cast<float>(in[(count - 1) * in_step]);
  float a1 = last, a2 = last, a3 = last, a4 = last;
  float b1 = last * t.anticausal_edge, b2 = b1, b3 = b1, b4 = b1;
  for (int i = count - 1; i >= 0; --i) {
    const float b0 =
        t.m[0] * a1 + t.m[1] * a2 + t.m[2] * a3 + t.m[3] * a4 - t.d[0] * b1 - t.d[1] * b2 - t.d[2] * b3 - t.d[3] * b4;
    const float x0 = static_cast<float>(in[i * in_step]);
    store(out + i * out_step, forward[i * forward_step] + b0);
    a4 = a3, a3 = a2, a2 = a1, a1 = x0;
    b4 = b3, b3 = b2, b2 = b1, b1 = b0;
  }
}

// rgH: thread y filters row y. Pitches are in elements.
template <class In, class Out>
__global__ void rg_rows(const In* in, int in_pitch, float* forward, int forward_pitch, Out* out, int out_pitch,
                        int width, int height, DericheTaps taps) {
  const int y = blockIdx.x * blockDim.x + threadIdx.x;
  if (y >= height) return;
  filter_line(in + y * in_pitch, 1, forward + y * forward_pitch, 1, out + y * out_pitch, 1, width, taps);
}

// rgV: thread x filters column x.
template <class In, class Out>
__global__ void rg_columns(const In* in, int in_pitch, float* forward, int forward_pitch, Out* out, int out_pitch,
                           int width, int height, DericheTaps taps) {
  // EXERCISE: thread x filters column x: send the threads past the right edge home, then filter_line() down it
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  if (x >= width) return;
  filter_line(in + x, in_pitch, forward + x, forward_pitch, out + x, out_pitch, height, taps);
  // STARTER:
  // // (nothing filtered yet: the output keeps whatever it held)
  // END EXERCISE
}

template <class In, class Out>
void launch_typed(Line line, const void* in, int in_pitch, float* forward, int forward_pitch, void* out, int out_pitch,
                  int width, int height, const DericheTaps& taps, int group, cudaStream_t stream) {
  const In* typed_in = static_cast<const In*>(in);
  Out* typed_out = static_cast<Out*>(out);
  const int lines = line == Line::Rows ? height : width;
  const unsigned int grid = gauss::div_up(static_cast<unsigned int>(lines), static_cast<unsigned int>(group));
  if (line == Line::Rows) {
    rg_rows<In, Out><<<grid, group, 0, stream>>>(typed_in, in_pitch, forward, forward_pitch, typed_out, out_pitch,
                                                 width, height, taps);
  } else {
    rg_columns<In, Out><<<grid, group, 0, stream>>>(typed_in, in_pitch, forward, forward_pitch, typed_out, out_pitch,
                                                    width, height, taps);
  }
}

}  // namespace

void launch_recursive_pass(Line line, Element in_type, const void* in, int in_pitch, float* forward, int forward_pitch,
                           Element out_type, void* out, int out_pitch, int width, int height, const DericheTaps& taps,
                           int group, cudaStream_t stream) {
  using U8 = std::uint8_t;
  if (in_type == Element::U8 && out_type == Element::U8) {
    launch_typed<U8, U8>(line, in, in_pitch, forward, forward_pitch, out, out_pitch, width, height, taps, group,
                         stream);
  } else if (in_type == Element::U8) {
    launch_typed<U8, float>(line, in, in_pitch, forward, forward_pitch, out, out_pitch, width, height, taps, group,
                            stream);
  } else if (out_type == Element::U8) {
    launch_typed<float, U8>(line, in, in_pitch, forward, forward_pitch, out, out_pitch, width, height, taps, group,
                            stream);
  } else {
    launch_typed<float, float>(line, in, in_pitch, forward, forward_pitch, out, out_pitch, width, height, taps, group,
                               stream);
  }
}

}  // namespace chapter03
