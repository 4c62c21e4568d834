// Chapter 01: the naive blur in OpenCL C.
//
// One work-item computes one output pixel: it reads the (2R+1) x (2R+1)
// input pixels around it straight from global memory, weighs them, and
// writes one byte. Nothing is shared between work-items; neighbouring items
// read almost the same pixels, and only the caches notice.
//
// Built with -D RADIUS=<r>: a compile-time radius gives loops of known
// length, which the compiler unrolls, so the per-item weight array below
// lives in registers (chapter 06 shows what a run-time radius costs).

#ifndef RADIUS
#error "build with -D RADIUS=<radius>"
#endif
#define TAPS (2 * RADIUS + 1)

// The 1-D Gaussian weights, offset k at w[k + RADIUS]. The layout must match
// struct GaussTaps in common/include/gauss/blur.hpp (33 floats); the host
// passes it by value.
typedef struct {
    float w[33];
} GaussTaps;

__kernel void blur_naive(__global const uchar* in,
                         __global uchar* out,
                         int width,
                         int height,
                         int pitch,  // bytes from one row to the next
                         GaussTaps taps)
{
    // EXERCISE: map this work-item to its pixel (x, y), and send the items past the image's edges home
    // The index mapping: work-item (x, y) of the 2-D NDRange is pixel (x, y).
    const int x = get_global_id(0);
    const int y = get_global_id(1);

    // The bounds guard. The host rounds the NDRange up to whole work-groups
    // (OpenCL 1.2 requires it), so the last groups have items past the right
    // and bottom edges. They have no pixel: without this line they would
    // write outside the image.
    if (x >= width || y >= height) {
        return;
    }
    // STARTER:
    // const int x = 0;
    // const int y = 0;
    // END EXERCISE

    // The weights in a per-item array: with a compile-time size and unrolled
    // loops every index is a constant, so these are registers, not memory.
    float w[TAPS];
    for (int i = 0; i < TAPS; ++i) {
        w[i] = taps.w[i];
    }

    float sum = 0.0f;
    for (int dy = -RADIUS; dy <= RADIUS; ++dy) {
        // EXERCISE: the row this tap reads, clamped to the image (clamp-to-edge)
        // Clamp-to-edge: rows above and below the image repeat the edge row.
        const int sy = clamp(y + dy, 0, height - 1);
        // STARTER:
        // const int sy = y;
        // END EXERCISE
        for (int dx = -RADIUS; dx <= RADIUS; ++dx) {
            // EXERCISE: the column this tap reads, clamped to the image
            const int sx = clamp(x + dx, 0, width - 1);
            // STARTER:
            // const int sx = x;
            // END EXERCISE
            sum += w[dy + RADIUS] * w[dx + RADIUS] * (float)in[sy * pitch + sx];
        }
    }

    // Round half up: convert_uchar_sat truncates toward zero (and clamps to
    // 0..255), so adding 0.5 first rounds to the nearest level.
    out[y * pitch + x] = convert_uchar_sat(sum + 0.5f);
}
