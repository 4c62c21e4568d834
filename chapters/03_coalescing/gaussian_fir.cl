// Chapter 03: one pass of the ordinary (FIR) Gaussian, one work-item per
// output pixel, for contrast with the recursive passes: plenty of work-items,
// neighbouring items on neighbouring pixels of a row (coalesced), and 2R+1
// reads per pixel instead of a recursion.
// The row pass and the column pass repeat each other on purpose: only the
// direction of the taps, and so which reads are coalesced, differs.
//
// Built with -D RADIUS=<r> -D IN_T=uchar|float -D OUT_T=uchar|float
// -D OUT_IS_BYTE=1|0. The separable blur is fir_rows (8-bit in, float out)
// then fir_columns (float in, 8-bit out): rounded once, at the end.

#ifndef RADIUS
#error "build with -D RADIUS=<radius> -D IN_T=... -D OUT_T=... -D OUT_IS_BYTE=..."
#endif

// The 1-D weights, offset k at w[k + RADIUS] (struct GaussTaps in
// common/include/gauss/blur.hpp).
typedef struct {
    float w[33];
} GaussTaps;

#if OUT_IS_BYTE
#define STORE(p, v) (*(p) = convert_uchar_sat((v) + 0.5f))
#else
#define STORE(p, v) (*(p) = (v))
#endif

// Along the row: item (x, y) reads in(x - R .. x + R, y), clamped to the row.
__kernel void fir_rows(__global const IN_T* in, int in_pitch,
                       __global OUT_T* out, int out_pitch,
                       int width, int height, GaussTaps taps)
{
    const int x = get_global_id(0);
    const int y = get_global_id(1);
    if (x >= width || y >= height) {
        return;
    }
    __global const IN_T* row = in + y * in_pitch;
    float sum = 0.0f;
    for (int k = -RADIUS; k <= RADIUS; ++k) {
        sum += taps.w[k + RADIUS] * (float)row[clamp(x + k, 0, width - 1)];
    }
    STORE(out + y * out_pitch + x, sum);
}

// Down the column: item (x, y) reads in(x, y - R .. y + R), clamped.
__kernel void fir_columns(__global const IN_T* in, int in_pitch,
                          __global OUT_T* out, int out_pitch,
                          int width, int height, GaussTaps taps)
{
    const int x = get_global_id(0);
    const int y = get_global_id(1);
    if (x >= width || y >= height) {
        return;
    }
    float sum = 0.0f;
    for (int k = -RADIUS; k <= RADIUS; ++k) {
        sum += taps.w[k + RADIUS] * (float)in[clamp(y + k, 0, height - 1) * in_pitch + x];
    }
    STORE(out + y * out_pitch + x, sum);
}
