// Chapter 06: the Fixstars seminar's ladder as published, ported to OpenCL C:
// the three kernels after "Simple" (chapter 01's seminar_simple.cl, which
// this chapter runs too). All three are Simple's "valid" convolution, run on
// the input padded by 2 pixels per side by the host (common/include/gauss/
// seminar.hpp), in 32x8 work-groups; they differ in where the weights live
// and whether the loops' bound is known when compiling. Their loops repeat
// Simple's, and each other's, on purpose: the seminar's code as published,
// so that each step's one change is what the timings compare.
//
//   seminar_array           Simple's per-item table of literals, bound ks at run time
//   seminar_constant        a program-scope __constant table, bound ks at run time
//   seminar_constant_fixed  the same __constant table, bound 5 when compiling
//
// ks is the number of taps per row (5), a kernel argument. Beside this
// chapter's own kernels (blur_weights.cl), which read weight w[i] * w[j] from
// a 1-D array and clamp every tap, these index one 5x5 table [dy][dx].
//
// The one change to the seminar's code: the output has its own row pitch
// (dst_step), since the padded input's rows are 4 pixels longer.

// The 2-D Gaussian, sigma 1: entry [i][j] is w[i] * w[j] with
// w = 0.054488685, 0.244201342, 0.402619947, 0.244201342, 0.054488685.
#define SEMINAR_TABLE                                                          \
    {                                                                          \
        {0.002969017f, 0.01330621f, 0.021938231f, 0.01330621f, 0.002969017f},  \
        {0.01330621f, 0.059634295f, 0.098320331f, 0.059634295f, 0.01330621f},  \
        {0.021938231f, 0.098320331f, 0.162102822f, 0.098320331f, 0.021938231f},\
        {0.01330621f, 0.059634295f, 0.098320331f, 0.059634295f, 0.01330621f},  \
        {0.002969017f, 0.01330621f, 0.021938231f, 0.01330621f, 0.002969017f},  \
    }

// The __constant table of the last two kernels: program-scope constant
// memory with an initializer, as the seminar's __constant__ array.
__constant float c_table[5][5] = SEMINAR_TABLE;

// Simple's table with a loop bound known only when running: the indices are
// no longer constants, so the table cannot be registers or immediates; the
// compiler gives each item a copy in memory (on NVIDIA, local memory: the
// seminar's 14.36 ms, "seen in PTX").
__kernel void seminar_array(__global const uchar* src, __global uchar* dst, int width, int height, int src_step,
                            int dst_step, int ks)
{
    const float table[5][5] = SEMINAR_TABLE;
    const int x = get_global_id(0);
    const int y = get_global_id(1);
    if (x < width && y < height) {
        float sum = 0.0f;
        for (int dy = 0; dy < ks; ++dy) {
            for (int dx = 0; dx < ks; ++dx) {
                sum += table[dy][dx] * src[(x + dx) + (y + dy) * src_step];
            }
        }
        dst[x + y * dst_step] = (int)(sum + 0.5f);  // round half up; at most 255
    }
}

// The table in __constant memory, the bound still a run-time ks (3.481 ms).
__kernel void seminar_constant(__global const uchar* src, __global uchar* dst, int width, int height,
                               int src_step, int dst_step, int ks)
{
    const int x = get_global_id(0);
    const int y = get_global_id(1);
    if (x < width && y < height) {
        float sum = 0.0f;
        for (int dy = 0; dy < ks; ++dy) {
            for (int dx = 0; dx < ks; ++dx) {
                sum += c_table[dy][dx] * src[(x + dx) + (y + dy) * src_step];
            }
        }
        dst[x + y * dst_step] = (int)(sum + 0.5f);
    }
}

// The __constant table with the fixed 5x5 loops of Simple (1.63 ms).
__kernel void seminar_constant_fixed(__global const uchar* src, __global uchar* dst, int width, int height,
                                     int src_step, int dst_step)
{
    const int x = get_global_id(0);
    const int y = get_global_id(1);
    if (x < width && y < height) {
        float sum = 0.0f;
        for (int dy = 0; dy < 5; ++dy) {
            for (int dx = 0; dx < 5; ++dx) {
                sum += c_table[dy][dx] * src[(x + dx) + (y + dy) * src_step];
            }
        }
        dst[x + y * dst_step] = (int)(sum + 0.5f);
    }
}
