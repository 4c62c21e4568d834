// Chapter 03: the recursive passes again, with BATCH loads in flight per work-item.
//
// recursive_gauss.cl's filter_line() loads one value, waits for it, computes
// one output and stores it, then loads the next: one load in flight per
// work-item, so each step of a line costs a whole memory latency. With a few
// thousand work-items on the whole GPU that is far too few bytes in flight to
// use its bandwidth (Little's law, README "Memory-level parallelism").
//
// Here each work-item loads the next BATCH values of its line into registers
// first, all of them independent of each other and of the arithmetic, so that
// the memory system serves them together; then it runs the same recursion
// over the registers, in the same order, with the same expressions, and
// stores BATCH results. The pointers are restrict: the input, the float
// scratch and the output never overlap, which lets the compiler issue the
// loads of a batch without waiting for the stores before them. The values
// that do not fill a whole batch (the line's length modulo BATCH) go one at
// a time, as in filter_line().
//
// Built with -D BATCH=<n> (16 and 32 here) and, as recursive_gauss.cl, with
// -D IN_T=uchar|float -D OUT_T=uchar|float -D OUT_IS_BYTE=1|0.

#ifndef IN_T
#error "build with -D IN_T=uchar|float -D OUT_T=uchar|float -D OUT_IS_BYTE=1|0 -D BATCH=<n>"
#endif
#ifndef BATCH
#error "build with -D BATCH=<values loaded before the arithmetic>"
#endif

// The coefficients: the same struct as recursive_gauss.cl (the host's
// DericheTaps in common/include/gauss/deriche.hpp, 14 floats).
typedef struct {
    float n[4];
    float m[4];
    float d[4];
    float causal_edge;
    float anticausal_edge;
} DericheTaps;

#if OUT_IS_BYTE
#define STORE(p, v) (*(p) = convert_uchar_sat((v) + 0.5f))
#else
#define STORE(p, v) (*(p) = (v))
#endif

// One step of each recursion, written once so that the batched and the
// one-at-a-time loops below compute exactly filter_line()'s expressions.
#define CAUSAL(x0) \
    (t.n[0] * (x0) + t.n[1] * x1 + t.n[2] * x2 + t.n[3] * x3 - t.d[0] * y1 - t.d[1] * y2 - t.d[2] * y3 - t.d[3] * y4)
#define ANTICAUSAL() \
    (t.m[0] * a1 + t.m[1] * a2 + t.m[2] * a3 + t.m[3] * a4 - t.d[0] * b1 - t.d[1] * b2 - t.d[2] * b3 - t.d[3] * b4)

void filter_line_batched(__global const IN_T* restrict in, int in_step,
                         __global float* restrict forward, int forward_step,
                         __global OUT_T* restrict out, int out_step,
                         int count, DericheTaps t)
{
    // Causal pass, first value to last, clamp-to-edge history as in filter_line().
    const float first = (float)in[0];
    float x1 = first, x2 = first, x3 = first;
    float y1 = first * t.causal_edge, y2 = y1, y3 = y1, y4 = y1;
    int i = 0;
    for (; i + BATCH <= count; i += BATCH) {
        // BATCH independent loads, all issued before the first multiply.
        float x[BATCH];
#pragma unroll
        for (int j = 0; j < BATCH; ++j) {
            x[j] = (float)in[(i + j) * in_step];
        }
#pragma unroll
        for (int j = 0; j < BATCH; ++j) {
            const float y0 = CAUSAL(x[j]);
            forward[(i + j) * forward_step] = y0;
            x3 = x2; x2 = x1; x1 = x[j];
            y4 = y3; y3 = y2; y2 = y1; y1 = y0;
        }
    }
    for (; i < count; ++i) {  // the last count % BATCH values, one at a time
        const float x0 = (float)in[i * in_step];
        const float y0 = CAUSAL(x0);
        forward[i * forward_step] = y0;
        x3 = x2; x2 = x1; x1 = x0;
        y4 = y3; y3 = y2; y2 = y1; y1 = y0;
    }

    // Anti-causal pass, last value to first; a batch loads the input and the
    // causal results it adds to, then walks them backwards.
    const float last = (float)in[(count - 1) * in_step];
    float a1 = last, a2 = last, a3 = last, a4 = last;
    float b1 = last * t.anticausal_edge, b2 = b1, b3 = b1, b4 = b1;
    int end = count;  // values end..count-1 are done
    for (; end - BATCH >= 0; end -= BATCH) {
        const int lo = end - BATCH;
        float x[BATCH];
        float f[BATCH];
#pragma unroll
        for (int j = 0; j < BATCH; ++j) {
            x[j] = (float)in[(lo + j) * in_step];
            f[j] = forward[(lo + j) * forward_step];
        }
#pragma unroll
        for (int j = BATCH - 1; j >= 0; --j) {
            const float b0 = ANTICAUSAL();
            STORE(out + (lo + j) * out_step, f[j] + b0);
            a4 = a3; a3 = a2; a2 = a1; a1 = x[j];
            b4 = b3; b3 = b2; b2 = b1; b1 = b0;
        }
    }
    for (int k = end - 1; k >= 0; --k) {  // the first count % BATCH values, one at a time
        const float b0 = ANTICAUSAL();
        const float x0 = (float)in[k * in_step];
        STORE(out + k * out_step, forward[k * forward_step] + b0);
        a4 = a3; a3 = a2; a2 = a1; a1 = x0;
        b4 = b3; b3 = b2; b2 = b1; b1 = b0;
    }
}

// rgH with BATCH loads in flight: work-item y filters row y.
__kernel void rg_rows_batched(__global const IN_T* restrict in, int in_pitch,
                              __global float* restrict forward, int forward_pitch,
                              __global OUT_T* restrict out, int out_pitch,
                              int width, int height, DericheTaps taps)
{
    const int y = get_global_id(0);
    if (y >= height) {
        return;
    }
    filter_line_batched(in + y * in_pitch, 1, forward + y * forward_pitch, 1, out + y * out_pitch, 1, width, taps);
}

// rgV with BATCH loads in flight: work-item x filters column x.
__kernel void rg_columns_batched(__global const IN_T* restrict in, int in_pitch,
                                 __global float* restrict forward, int forward_pitch,
                                 __global OUT_T* restrict out, int out_pitch,
                                 int width, int height, DericheTaps taps)
{
    const int x = get_global_id(0);
    if (x >= width) {
        return;
    }
    filter_line_batched(in + x, in_pitch, forward + x, forward_pitch, out + x, out_pitch, height, taps);
}
