// Chapter 08: chapter 01's naive blur, for a strip of output rows, in OpenCL C
// (blur_strip.cu is the same kernel in CUDA).
// (It repeats chapter 01's blur_naive.cl on purpose, line for line but the
// strip's rows: that difference is the lesson.)
//
// The overlap section cuts the image into strips and blurs each one as soon
// as its input rows have arrived, while other strips are still being copied.
// A strip's kernel computes the output rows row0 .. row_end - 1 only: rows
// past row_end belong to the next strip, whose input may not be on the device
// yet. OpenCL could shift get_global_id(1) by a global work offset instead;
// this kernel takes the strip's rows as parameters, as CUDA must (its
// blockIdx and threadIdx start at zero in every launch), so that the two
// kernels are the same. Everything that reads memory is chapter 01's.
//
// Built with -D RADIUS=<r>.

#ifndef RADIUS
#error "build with -D RADIUS=<radius>"
#endif
#define TAPS (2 * RADIUS + 1)

// The layout of struct GaussTaps in common/include/gauss/blur.hpp (33 floats).
typedef struct {
    float w[33];
} GaussTaps;

__kernel void blur_strip(__global const uchar* in,
                         __global uchar* out,
                         int width,
                         int height,
                         int pitch,  // bytes from one row to the next
                         GaussTaps taps,
                         int row0,     // the strip's first output row
                         int row_end)  // one past its last
{
    // EXERCISE: this item's pixel (x, y): the strip starts at row row0; items past its end or the right edge go home
    const int x = get_global_id(0);
    const int y = row0 + get_global_id(1);  // the NDRange covers the strip's rows only
    // The bounds guard, against the strip's end: rows past it belong to the
    // next strip, whose input rows may not have arrived yet.
    if (x >= width || y >= row_end) {
        return;
    }
    // STARTER:
    // const int x = get_global_id(0);
    // const int y = get_global_id(1);
    // if (x >= width || y >= height) {
    //     return;
    // }
    // END EXERCISE

    float w[TAPS];
    for (int i = 0; i < TAPS; ++i) {
        w[i] = taps.w[i];
    }

    float sum = 0.0f;
    for (int dy = -RADIUS; dy <= RADIUS; ++dy) {
        // EXERCISE: the input row this tap reads (rows above and below the strip are its halo)
        // Clamp to the image, not to the strip.
        const int sy = clamp(y + dy, 0, height - 1);
        // STARTER:
        // const int sy = y;
        // END EXERCISE
        for (int dx = -RADIUS; dx <= RADIUS; ++dx) {
            const int sx = clamp(x + dx, 0, width - 1);
            sum += w[dy + RADIUS] * w[dx + RADIUS] * (float)in[sy * pitch + sx];
        }
    }
    out[y * pitch + x] = convert_uchar_sat(sum + 0.5f);
}
