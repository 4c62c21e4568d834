// Chapter 03: the recursive Gaussian (4th-order Deriche IIR) in OpenCL C.
//
// One work-item filters one whole line, because each output depends on the
// one before it: the recursion is sequential along the line. The only
// parallelism is across lines, and the two kernels below take it in the two
// possible ways:
//
//   rg_rows    one item per row, walking right  (Apple's rgH): at each step
//              the 32 items of a warp touch 32 different rows, pitch bytes
//              apart: 32 memory transactions for 32 values (uncoalesced);
//   rg_columns one item per column, walking down (Apple's rgV): at each step
//              the 32 items of a warp touch 32 neighbouring values of one
//              row: one transaction (coalesced).
//
// Both call the same filter_line(); only the step between the values of a
// line (1 or the pitch) and the line each item owns differ.
//
// Built with -D IN_T=uchar|float -D OUT_T=uchar|float -D OUT_IS_BYTE=1|0:
// the full blur reads the 8-bit image, keeps the intermediate in float, and
// rounds to 8 bits only at the very end.

#ifndef IN_T
#error "build with -D IN_T=uchar|float -D OUT_T=uchar|float -D OUT_IS_BYTE=1|0"
#endif

// The coefficients (chapters/03_coalescing/deriche.hpp, struct DericheTaps):
// y+[n] = sum_{k=0..3} n[k] x[n-k]   - sum_{k=1..4} d[k-1] y+[n-k]
// y-[n] = sum_{k=1..4} m[k-1] x[n+k] - sum_{k=1..4} d[k-1] y-[n+k]
typedef struct {
    float n[4];
    float m[4];
    float d[4];
    float causal_edge;      // y+ in front of a constant 1
    float anticausal_edge;  // y- after a constant 1
} DericheTaps;

#if OUT_IS_BYTE
// Round half up and saturate, like the CPU reference: floor(v + 0.5) in 0..255.
#define STORE(p, v) (*(p) = convert_uchar_sat((v) + 0.5f))
#else
#define STORE(p, v) (*(p) = (v))
#endif

// Filters the line in[0], in[in_step], ... (count values) into out[...],
// keeping the causal pass's results in forward[...] until the anti-causal
// pass adds its own. Every value is read twice (once per pass) and the
// forward scratch is written once and read once.
void filter_line(__global const IN_T* in, int in_step,
                 __global float* forward, int forward_step,
                 __global OUT_T* out, int out_step,
                 int count, DericheTaps t)
{
    // Causal pass, first value to last. The history before the line is the
    // first value repeated (clamp-to-edge), with the recursion at its steady
    // state for that value.
    const float first = (float)in[0];
    float x1 = first, x2 = first, x3 = first;
    float y1 = first * t.causal_edge, y2 = y1, y3 = y1, y4 = y1;
    for (int i = 0; i < count; ++i) {
        const float x0 = (float)in[i * in_step];
        const float y0 = t.n[0] * x0 + t.n[1] * x1 + t.n[2] * x2 + t.n[3] * x3
                       - t.d[0] * y1 - t.d[1] * y2 - t.d[2] * y3 - t.d[3] * y4;
        forward[i * forward_step] = y0;
        x3 = x2; x2 = x1; x1 = x0;
        y4 = y3; y3 = y2; y2 = y1; y1 = y0;
    }

    // Anti-causal pass, last value to first; the future after the line is
    // the last value repeated. The output is the sum of both passes.
    const float last = (float)in[(count - 1) * in_step];
    float a1 = last, a2 = last, a3 = last, a4 = last;
    float b1 = last * t.anticausal_edge, b2 = b1, b3 = b1, b4 = b1;
    for (int i = count - 1; i >= 0; --i) {
        const float b0 = t.m[0] * a1 + t.m[1] * a2 + t.m[2] * a3 + t.m[3] * a4
                       - t.d[0] * b1 - t.d[1] * b2 - t.d[2] * b3 - t.d[3] * b4;
        const float x0 = (float)in[i * in_step];
        STORE(out + i * out_step, forward[i * forward_step] + b0);
        a4 = a3; a3 = a2; a2 = a1; a1 = x0;
        b4 = b3; b3 = b2; b2 = b1; b1 = b0;
    }
}

// Apple's rgH: work-item y filters row y. Pitches are in elements.
__kernel void rg_rows(__global const IN_T* in, int in_pitch,
                      __global float* forward, int forward_pitch,
                      __global OUT_T* out, int out_pitch,
                      int width, int height, DericheTaps taps)
{
    const int y = get_global_id(0);
    if (y >= height) {
        return;
    }
    filter_line(in + y * in_pitch, 1, forward + y * forward_pitch, 1, out + y * out_pitch, 1, width, taps);
}

// Apple's rgV: work-item x filters column x.
__kernel void rg_columns(__global const IN_T* in, int in_pitch,
                         __global float* forward, int forward_pitch,
                         __global OUT_T* out, int out_pitch,
                         int width, int height, DericheTaps taps)
{
    // EXERCISE: item x filters column x: send the items past the right edge home, then filter_line() down it
    const int x = get_global_id(0);
    if (x >= width) {
        return;
    }
    filter_line(in + x, in_pitch, forward + x, forward_pitch, out + x, out_pitch, height, taps);
    // STARTER:
    // // (nothing filtered yet: the output keeps whatever it held)
    // END EXERCISE
}
