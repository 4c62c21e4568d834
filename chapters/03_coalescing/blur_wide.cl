// Chapter 03, the main line: chapter 02's main-line blur (ROWS pixels per
// work-item down a column, a window of rows in registers) with wide loads
// and stores, in OpenCL C (blur_wide.cu is the same kernel in CUDA).
//
// Chapter 02's item loads every tap as its own byte: a warp's load
// instruction brings 32 bytes, one per lane, and each of its 8 outputs is a
// one-byte store. Here an item computes 4 adjacent pixels of each of its
// rows, so a warp spans 128 bytes of a row: it reads the 32-bit word that
// holds its 4 pixels and the words either side for the halo (each a
// warp-wide read of 128 contiguous bytes, the side ones shifted by 4), takes
// the bytes out of the words in registers, and writes its 4 results as
// one 32-bit store. Per row of input an item issues 3 loads, not 4(2R+1)
// (ROWS of them amortise each row's conversions as in chapter 02).
//
// Built with -D RADIUS=<r> -D ROWS=<n>; every radius 1..16 is correct, but
// only R <= 4 keeps the window and the word loads (see WINDOW_MAX_RADIUS).

#ifndef RADIUS
#error "build with -D RADIUS=<radius>"
#endif
#ifndef ROWS
#error "build with -D ROWS=<output rows per work-item>"
#endif
// Bytes are taken out of words by shifts: byte 0 of a word must be its
// lowest (true of every GPU and CPU OpenCL targets today).
#ifndef __ENDIAN_LITTLE__
#error "blur_wide.cl takes bytes out of 32-bit words: it needs a little-endian device"
#endif

#define TAPS (2 * RADIUS + 1)
// Output pixels per item along its row: the 4 bytes of one 32-bit word.
#define PIXELS 4
// The input columns an item's PIXELS outputs read: x0 - R .. x0 + 3 + R.
#define SPAN (PIXELS + 2 * RADIUS)

// Up to R = 4 the span lies inside the words w - 1, w, w + 1 around the
// item's word w, and the window (chapter 02's ring, now TAPS rows of SPAN
// floats) stays in registers. Larger radii would need more words and a
// window beyond the registers (chapter 02's WINDOW_MAX_RADIUS): they load
// bytes one row of taps at a time, still 4 x ROWS pixels per item.
#define WINDOW_MAX_RADIUS 4

// The layout of struct GaussTaps in common/include/gauss/blur.hpp (33 floats).
typedef struct {
    float w[33];
} GaussTaps;

// Rounds half up and saturates, as chapter 01 does.
inline uint to_level(float sum)
{
    return convert_uchar_sat(sum + 0.5f);
}

// Writes an item's PIXELS results to its row. Packed: one 32-bit store,
// which needs an aligned row and all 4 pixels inside the image (a word past
// the width of the last row lies outside the buffer). Otherwise byte by byte,
// only the pixels inside the image.
inline void store_pixels(__global uchar* row, int x0, int width, bool packed, const float* sum)
{
    if (packed) {
        // EXERCISE: the 4 levels as one 32-bit store: pixel x0 + k is byte k of word x0 / 4 of the row
        ((__global uint*)row)[x0 / PIXELS] =
            to_level(sum[0]) | to_level(sum[1]) << 8 | to_level(sum[2]) << 16 | to_level(sum[3]) << 24;
        // STARTER:
        // row[x0] = (uchar)to_level(sum[0]);  // only the first of the 4 pixels
        // END EXERCISE
    } else {
        for (int k = 0; k < PIXELS; ++k) {
            if (x0 + k < width) {
                row[x0 + k] = (uchar)to_level(sum[k]);
            }
        }
    }
}

#if RADIUS <= WINDOW_MAX_RADIUS
// Reads input row `row`'s SPAN columns into span[]. The word path (`words`
// true) needs an aligned row and words w - 1 and w + 1 inside it; it takes the
// bytes from the three words, so no column needs a clamp. The byte path
// reads the clamped columns one byte each: the image's left and right
// edges, the last partial word of a row, and unaligned images.
inline void load_span(__global const uchar* row, int x0, const bool words, const int* column, float* span)
{
    if (words) {
        // EXERCISE: span[j], column x0 - R + j, from 3 word loads: words x0 / 4 - 1 .. x0 / 4 + 1 of the row, no clamp
        __global const uint* word = (__global const uint*)row + x0 / PIXELS;
        const uint three[3] = {word[-1], word[0], word[1]};
        // Column x0 - R + j is byte (j + 4 - R) of the three words: byte b
        // of a word is bits 8b .. 8b + 7 (little-endian).
#pragma unroll
        for (int j = 0; j < SPAN; ++j) {
            const int byte = j + PIXELS - RADIUS;
            span[j] = (float)((three[byte / 4] >> (8 * (byte % 4))) & 0xffu);
        }
        // STARTER:
        // for (int j = 0; j < SPAN; ++j) {
        //     span[j] = 0.0f;
        // }
        // END EXERCISE
    } else {
#pragma unroll
        for (int j = 0; j < SPAN; ++j) {
            span[j] = (float)row[column[j]];
        }
    }
}

// One item's 4 x ROWS pixels: chapter 02's ring of input rows, each row now
// SPAN wide. `words` is a constant at both calls, so each call is compiled
// into its own copy with no branch inside the loop, whose loads can then be
// scheduled ahead freely.
inline void blur_item(__global const uchar* in,
                      __global uchar* out,
                      int width,
                      int height,
                      int pitch,
                      const float weight[TAPS][TAPS],
                      int x0,
                      int first_row,
                      const bool words,
                      const bool packed)
{
    int column[SPAN];
#pragma unroll
    for (int j = 0; j < SPAN; ++j) {
        column[j] = clamp(x0 - RADIUS + j, 0, width - 1);
    }

    // Input row i in slot i % TAPS; unrolled, so every index is a constant.
    float window[TAPS][SPAN];
#pragma unroll
    for (int i = 0; i < ROWS + 2 * RADIUS; ++i) {
        const int source_row = clamp(first_row - RADIUS + i, 0, height - 1);
        load_span(in + source_row * pitch, x0, words, column, window[i % TAPS]);

        if (i >= 2 * RADIUS) {
            const int r = i - 2 * RADIUS;
            float sum[PIXELS];
#pragma unroll
            for (int k = 0; k < PIXELS; ++k) {
                // Chapter 01's order: dy, then dx. An explicit fma, as
                // chapter 01's sum += w * v compiles on a GPU: written that
                // way, the compiler may share the product of a byte and a
                // weight between two pixels whose weights are equal (w[a] *
                // w[b] == w[b] * w[a]), a multiply and two adds instead of
                // two fused multiply-adds.
                sum[k] = 0.0f;
#pragma unroll
                for (int dy = 0; dy < TAPS; ++dy) {
#pragma unroll
                    for (int dx = 0; dx < TAPS; ++dx) {
                        sum[k] = fma(weight[dy][dx], window[(r + dy) % TAPS][k + dx], sum[k]);
                    }
                }
            }
            // Rows past the image were loaded clamped; only their stores must
            // not happen.
            if (first_row + r < height) {
                store_pixels(out + (first_row + r) * pitch, x0, width, packed, sum);
            }
        }
    }
}
#endif

__kernel void blur_wide(__global const uchar* in,
                        __global uchar* out,
                        int width,
                        int height,
                        int pitch,    // bytes from one row to the next
                        int aligned,  // pitch and both buffers 4-byte aligned: rows can be read as words
                        GaussTaps taps)
{
    const int x0 = get_global_id(0) * PIXELS;
    const int first_row = get_global_id(1) * ROWS;
    if (x0 >= width || first_row >= height) {
        return;
    }
    const bool packed = aligned && x0 + PIXELS <= width;

#if RADIUS <= WINDOW_MAX_RADIUS
    // The same products chapter 01 multiplies each byte by (chapter 02).
    float weight[TAPS][TAPS];
#pragma unroll
    for (int dy = 0; dy < TAPS; ++dy) {
#pragma unroll
        for (int dx = 0; dx < TAPS; ++dx) {
            weight[dy][dx] = taps.w[dy] * taps.w[dx];
        }
    }
    // Words w - 1 and w + 1 inside the row: then no tap needs a clamp.
    if (aligned && x0 >= PIXELS && x0 + 2 * PIXELS <= width) {
        blur_item(in, out, width, height, pitch, weight, x0, first_row, true, true);
    } else {
        blur_item(in, out, width, height, pitch, weight, x0, first_row, false, packed);
    }
#else
    int column[SPAN];
#pragma unroll
    for (int j = 0; j < SPAN; ++j) {
        column[j] = clamp(x0 - RADIUS + j, 0, width - 1);
    }
    float w[TAPS];
#pragma unroll
    for (int i = 0; i < TAPS; ++i) {
        w[i] = taps.w[i];
    }
    // Chapter 02's loops for large radii: one input row of taps at a time,
    // its SPAN bytes loaded once for the item's 4 pixels.
    const int last_row = min(first_row + ROWS, height);
#pragma unroll 1
    for (int y = first_row; y < last_row; ++y) {
        float sum[PIXELS] = {0.0f, 0.0f, 0.0f, 0.0f};
#pragma unroll 1
        for (int dy = -RADIUS; dy <= RADIUS; ++dy) {
            const float weight_y = taps.w[dy + RADIUS];
            __global const uchar* row = in + clamp(y + dy, 0, height - 1) * pitch;
            float span[SPAN];
#pragma unroll
            for (int j = 0; j < SPAN; ++j) {
                span[j] = (float)row[column[j]];
            }
#pragma unroll
            for (int k = 0; k < PIXELS; ++k) {
#pragma unroll
                for (int dx = 0; dx < TAPS; ++dx) {
                    sum[k] += weight_y * w[dx] * span[k + dx];
                }
            }
        }
        store_pixels(out + y * pitch, x0, width, packed, sum);
    }
#endif
}
