// Chapter 03: the recursive passes with Batch loads in flight per thread, the
// same as recursive_gauss_batched.cl. recursive_gauss.cu's filter_line() loads
// one value, waits for it, computes and stores one output: one load in flight
// per thread. Here each thread loads the next Batch values of its line into
// registers first (independent loads, issued together), then runs the same
// recursion over them, in the same order and with the same expressions, and
// stores Batch results. The pointers are __restrict__: input, float scratch
// and output never overlap, so the compiler may issue a batch's loads without
// waiting for the stores before them.
#include <cstdint>
#include <stdexcept>
#include <string>

#include "gauss/cuda.hpp"
#include "recursive_gauss_batched.cuh"

namespace chapter03 {
namespace {

__device__ void store(float* p, float v) { *p = v; }
// Round half up and saturate, like the CPU reference: floor(v + 0.5) in 0..255.
__device__ void store(std::uint8_t* p, float v) {
  *p = static_cast<std::uint8_t>(fminf(fmaxf(v + 0.5f, 0.0f), 255.0f));
}

// The recursion's state and its two steps, written once so that the batched
// loops and the one-at-a-time tails compute exactly filter_line()'s expressions.
struct Causal {
  float x1, x2, x3, y1, y2, y3, y4;
  __device__ float step(float x0, const DericheTaps& t) {
    const float y0 =
        t.n[0] * x0 + t.n[1] * x1 + t.n[2] * x2 + t.n[3] * x3 - t.d[0] * y1 - t.d[1] * y2 - t.d[2] * y3 - t.d[3] * y4;
    x3 = x2, x2 = x1, x1 = x0;
    y4 = y3, y3 = y2, y2 = y1, y1 = y0;
    return y0;
  }
};

struct AntiCausal {
  float a1, a2, a3, a4, b1, b2, b3, b4;
  // The anti-causal output at n, from the values after n; then x[n] joins the history.
  __device__ float step(float x0, const DericheTaps& t) {
    const float b0 =
        t.m[0] * a1 + t.m[1] * a2 + t.m[2] * a3 + t.m[3] * a4 - t.d[0] * b1 - t.d[1] * b2 - t.d[2] * b3 - t.d[3] * b4;
    a4 = a3, a3 = a2, a2 = a1, a1 = x0;
    b4 = b3, b3 = b2, b2 = b1, b1 = b0;
    return b0;
  }
};

template <int Batch, class In, class Out>
__device__ void filter_line_batched(const In* __restrict__ in, int in_step, float* __restrict__ forward,
                                    int forward_step, Out* __restrict__ out, int out_step, int count,
                                    const DericheTaps& t) {
  // Causal pass, first value to last, clamp-to-edge history.
  const float first = static_cast<float>(in[0]);
  const float causal_start = first * t.causal_edge;
  Causal causal{first, first, first, causal_start, causal_start, causal_start, causal_start};
  int i = 0;
  for (; i + Batch <= count; i += Batch) {
    float x[Batch];  // Batch independent loads, all issued before the first multiply
#pragma unroll
    for (int j = 0; j < Batch; ++j) x[j] = static_cast<float>(in[(i + j) * in_step]);
#pragma unroll
    for (int j = 0; j < Batch; ++j) forward[(i + j) * forward_step] = causal.step(x[j], t);
  }
  for (; i < count; ++i)  // the last count % Batch values, one at a time
    forward[i * forward_step] = causal.step(static_cast<float>(in[i * in_step]), t);

  // Anti-causal pass, last value to first: a batch loads the input and the
  // causal results it adds to, then walks them backwards.
  const float last = static_cast<float>(in[(count - 1) * in_step]);
  const float anticausal_start = last * t.anticausal_edge;
  AntiCausal anti{last, last, last, last, anticausal_start, anticausal_start, anticausal_start, anticausal_start};
  int end = count;  // values end..count-1 are done
  for (; end - Batch >= 0; end -= Batch) {
    const int lo = end - Batch;
    float x[Batch];
    float f[Batch];
#pragma unroll
    for (int j = 0; j < Batch; ++j) {
      x[j] = static_cast<float>(in[(lo + j) * in_step]);
      f[j] = forward[(lo + j) * forward_step];
    }
#pragma unroll
    for (int j = Batch - 1; j >= 0; --j) store(out + (lo + j) * out_step, f[j] + anti.step(x[j], t));
  }
  for (int k = end - 1; k >= 0; --k)  // the first count % Batch values, one at a time
    store(out + k * out_step, forward[k * forward_step] + anti.step(static_cast<float>(in[k * in_step]), t));
}

// rgH with Batch loads in flight: thread y filters row y. Pitches are in elements.
template <int Batch, class In, class Out>
__global__ void rg_rows_batched(const In* __restrict__ in, int in_pitch, float* __restrict__ forward, int forward_pitch,
                                Out* __restrict__ out, int out_pitch, int width, int height, DericheTaps taps) {
  const int y = blockIdx.x * blockDim.x + threadIdx.x;
  if (y >= height) return;
  filter_line_batched<Batch>(in + y * in_pitch, 1, forward + y * forward_pitch, 1, out + y * out_pitch, 1, width, taps);
}

// rgV with Batch loads in flight: thread x filters column x.
template <int Batch, class In, class Out>
__global__ void rg_columns_batched(const In* __restrict__ in, int in_pitch, float* __restrict__ forward,
                                   int forward_pitch, Out* __restrict__ out, int out_pitch, int width, int height,
                                   DericheTaps taps) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  if (x >= width) return;
  filter_line_batched<Batch>(in + x, in_pitch, forward + x, forward_pitch, out + x, out_pitch, height, taps);
}

template <int Batch, class In, class Out>
void launch_typed(Line line, const void* in, int in_pitch, float* forward, int forward_pitch, void* out, int out_pitch,
                  int width, int height, const DericheTaps& taps, int group, cudaStream_t stream) {
  const In* typed_in = static_cast<const In*>(in);
  Out* typed_out = static_cast<Out*>(out);
  const int lines = line == Line::Rows ? height : width;
  const unsigned int grid = gauss::div_up(static_cast<unsigned int>(lines), static_cast<unsigned int>(group));
  if (line == Line::Rows) {
    rg_rows_batched<Batch, In, Out><<<grid, group, 0, stream>>>(typed_in, in_pitch, forward, forward_pitch, typed_out,
                                                                out_pitch, width, height, taps);
  } else {
    rg_columns_batched<Batch, In, Out><<<grid, group, 0, stream>>>(typed_in, in_pitch, forward, forward_pitch,
                                                                   typed_out, out_pitch, width, height, taps);
  }
}

template <int Batch>
void launch_batch(Line line, Element in_type, const void* in, int in_pitch, float* forward, int forward_pitch,
                  Element out_type, void* out, int out_pitch, int width, int height, const DericheTaps& taps, int group,
                  cudaStream_t stream) {
  using U8 = std::uint8_t;
  if (in_type == Element::U8 && out_type == Element::U8) {
    launch_typed<Batch, U8, U8>(line, in, in_pitch, forward, forward_pitch, out, out_pitch, width, height, taps, group,
                                stream);
  } else if (in_type == Element::U8) {
    launch_typed<Batch, U8, float>(line, in, in_pitch, forward, forward_pitch, out, out_pitch, width, height, taps,
                                   group, stream);
  } else if (out_type == Element::U8) {
    launch_typed<Batch, float, U8>(line, in, in_pitch, forward, forward_pitch, out, out_pitch, width, height, taps,
                                   group, stream);
  } else {
    launch_typed<Batch, float, float>(line, in, in_pitch, forward, forward_pitch, out, out_pitch, width, height, taps,
                                      group, stream);
  }
}

}  // namespace

void launch_recursive_pass_batched(Line line, int batch, Element in_type, const void* in, int in_pitch, float* forward,
                                   int forward_pitch, Element out_type, void* out, int out_pitch, int width, int height,
                                   const DericheTaps& taps, int group, cudaStream_t stream) {
  switch (batch) {
    case 16:
      launch_batch<16>(line, in_type, in, in_pitch, forward, forward_pitch, out_type, out, out_pitch, width, height,
                       taps, group, stream);
      break;
    case 32:
      launch_batch<32>(line, in_type, in, in_pitch, forward, forward_pitch, out_type, out, out_pitch, width, height,
                       taps, group, stream);
      break;
    default:
      throw std::invalid_argument("launch_recursive_pass_batched: batch " + std::to_string(batch) +
                                  " is not built (16 or 32)");
  }
}

}  // namespace chapter03
