// Chapter 02, the main line: chapter 01's blur with several output pixels
// per work-item, in OpenCL C (blur_rows.cu is the same kernel in CUDA).
//
// Chapter 01's item loads, converts and weighs (2R+1)^2 bytes for its one
// pixel, and the item below it loads 2R of the same rows again: the kernel
// is bound by the instructions it issues, not by memory. Here an item
// computes ROWS pixels down one column. It walks its ROWS + 2R input rows
// once, converts each row's 2R+1 bytes once, and keeps the last 2R+1 rows in
// registers, so that each output costs (2R+1)^2 multiply-adds but only
// (2R+1)(ROWS+2R)/ROWS loads and conversions instead of (2R+1)^2.
//
// Built with -D RADIUS=<r> -D ROWS=<n>; every radius 1..16 is correct, but
// only small ones keep the window (see WINDOW_MAX_RADIUS).

#ifndef RADIUS
#error "build with -D RADIUS=<radius>"
#endif
#define TAPS (2 * RADIUS + 1)

// Output pixels per work-item, down its column: the host passes -D ROWS=8
// and divides the NDRange's rows by it.
#ifndef ROWS
#error "build with -D ROWS=<output rows per work-item>"
#endif

// Above this radius the window, (2R+1)^2 floats and as many weight products,
// outgrows the registers: compiled by nvcc 13 for sm_90 the same kernel takes
// 242 registers per item at R = 6 and spills to memory from R = 7, losing
// what the window saves. The limit is 4, where chapter 03's three words end.
// Larger radii keep the ROWS outputs per item (the launch is the same for
// every radius) but compute each one like chapter 01, one row of taps at a
// time.
#define WINDOW_MAX_RADIUS 4

// The layout of struct GaussTaps in common/include/gauss/blur.hpp (33 floats).
typedef struct {
    float w[33];
} GaussTaps;

__kernel void blur_rows(__global const uchar* in,
                        __global uchar* out,
                        int width,
                        int height,
                        int pitch,  // bytes from one row to the next
                        GaussTaps taps)
{
    const int x = get_global_id(0);
    const int first_row = get_global_id(1) * ROWS;
    if (x >= width || first_row >= height) {
        return;
    }

    // The clamped columns are the same for every row the item reads.
    int column[TAPS];
#pragma unroll
    for (int dx = -RADIUS; dx <= RADIUS; ++dx) {
        column[dx + RADIUS] = clamp(x + dx, 0, width - 1);
    }

#if RADIUS <= WINDOW_MAX_RADIUS
    // w[dy] * w[dx] once per item instead of once per tap: the same float
    // chapter 01 multiplies each byte by, so the sums are its own, operation
    // for operation.
    float weight[TAPS][TAPS];
#pragma unroll
    for (int dy = 0; dy < TAPS; ++dy) {
#pragma unroll
        for (int dx = 0; dx < TAPS; ++dx) {
            weight[dy][dx] = taps.w[dy] * taps.w[dx];
        }
    }

    // The ring of the last TAPS input rows. Input row i lives in slot
    // i % TAPS; every loop below is unrolled, so every slot index is a
    // compile-time constant and the ring is registers, never memory.
    float window[TAPS][TAPS];
#pragma unroll
    for (int i = 0; i < ROWS + 2 * RADIUS; ++i) {
        const int source_row = clamp(first_row - RADIUS + i, 0, height - 1);
        // EXERCISE: put input row source_row in the ring: its bytes at column[0..TAPS), as floats, in slot i % TAPS
        __global const uchar* row = in + source_row * pitch;
#pragma unroll
        for (int dx = 0; dx < TAPS; ++dx) {
            window[i % TAPS][dx] = (float)row[column[dx]];
        }
        // STARTER:
        // #pragma unroll
        // for (int dx = 0; dx < TAPS; ++dx) {
        //     window[i % TAPS][dx] = 0.0f;
        // }
        // END EXERCISE

        // Once the ring holds input rows r .. r + 2R it holds every tap of
        // output row r; summed in chapter 01's order (dy, then dx).
        if (i >= 2 * RADIUS) {
            const int r = i - 2 * RADIUS;
            // EXERCISE: output row first_row + r from the ring: sum weight[dy][dx] times its tap (dy, dx), dy then dx
            // Input row first_row + r - R + dy was loaded at i = r + dy, into
            // slot (r + dy) % TAPS.
            float sum = 0.0f;
#pragma unroll
            for (int dy = 0; dy < TAPS; ++dy) {
#pragma unroll
                for (int dx = 0; dx < TAPS; ++dx) {
                    sum += weight[dy][dx] * window[(r + dy) % TAPS][dx];
                }
            }
            // STARTER:
            // float sum = 0.0f;
            // END EXERCISE
            // The last item of a column may have rows past the image: its
            // loads were clamped, only its stores must not happen.
            if (first_row + r < height) {
                out[(first_row + r) * pitch + x] = convert_uchar_sat(sum + 0.5f);
            }
        }
    }
#else
    float w[TAPS];
#pragma unroll
    for (int i = 0; i < TAPS; ++i) {
        w[i] = taps.w[i];
    }
    // Only the taps of one row are unrolled. A fully unrolled (2R+1)^2-tap
    // body, as in chapter 01, exceeds NVIDIA's registers from R = 10 (it
    // spills) and makes the compile slow; a loop over the rows costs one
    // weight (indexed in the argument) and a few loop instructions per row.
    const int last_row = min(first_row + ROWS, height);
#pragma unroll 1
    for (int y = first_row; y < last_row; ++y) {
        float sum = 0.0f;
#pragma unroll 1
        for (int dy = -RADIUS; dy <= RADIUS; ++dy) {
            const float weight_y = taps.w[dy + RADIUS];
            __global const uchar* row = in + clamp(y + dy, 0, height - 1) * pitch;
#pragma unroll
            for (int dx = 0; dx < TAPS; ++dx) {
                sum += weight_y * w[dx] * (float)row[column[dx]];
            }
        }
        out[y * pitch + x] = convert_uchar_sat(sum + 0.5f);
    }
#endif
}
