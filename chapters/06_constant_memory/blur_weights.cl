// Chapter 06: where the filter's weights live, in OpenCL C.
//
// Every kernel below is the naive blur of chapter 01 (one item per pixel,
// (2R+1)^2 taps from global memory). They differ in two things only:
//
//   where the weights are read from     and   whether R is known when compiling
//   ---------------------------------         ----------------------------------
//   a per-item (private) array                -D RADIUS=<r>: loops of known
//   __constant memory (a kernel argument)     length, unrolled; or an argument
//   __global memory (a kernel argument)       `radius`: loops of unknown length
//
// A private array indexed with values known only at run time cannot live in
// registers (registers are not addressable): the compiler puts it in "local
// memory", the per-thread stack in device memory, and each weight read
// becomes a load (NVIDIA PTX: ld.local). __constant memory is read through
// the constant cache, which broadcasts one value to all items of a warp that
// read the same address, as every item here does (NVIDIA PTX: ld.const).
//
// SUM_2D is the loop every kernel runs; WEIGHT(k) says where weight k (at
// offset k - R) comes from, R is RADIUS or `radius`.

typedef struct {
    float w[33];
} GaussTaps;

// The (2R+1)^2 taps around (x, y), clamped to the image, rounded half up.
#define SUM_2D(WEIGHT, R)                                                  \
    float sum = 0.0f;                                                      \
    for (int dy = -(R); dy <= (R); ++dy) {                                 \
        const int sy = clamp(y + dy, 0, height - 1);                       \
        for (int dx = -(R); dx <= (R); ++dx) {                             \
            const int sx = clamp(x + dx, 0, width - 1);                    \
            sum += WEIGHT(dy + (R)) * WEIGHT(dx + (R)) * (float)in[sy * pitch + sx]; \
        }                                                                  \
    }                                                                      \
    out[y * pitch + x] = convert_uchar_sat(sum + 0.5f)

#define FROM_ARRAY(k) w[k]
#define FROM_BUFFER(k) weights[k]

// --- Run-time radius ------------------------------------------------------------

// The weights copied into a per-item array, as chapter 01 does, but with the
// radius an argument: the array is sized for the largest radius, indexed by
// run-time values, and so spilled to local memory (the seminar's 14.36 ms).
__kernel void blur_array_runtime(__global const uchar* in, __global uchar* out, int width, int height, int pitch,
                                 GaussTaps taps, int radius)
{
    const int x = get_global_id(0);
    const int y = get_global_id(1);
    if (x >= width || y >= height) {
        return;
    }
    float w[33];
    for (int i = 0; i < 2 * radius + 1; ++i) {
        w[i] = taps.w[i];
    }
    SUM_2D(FROM_ARRAY, radius);
}

// The weights in __constant memory, read in place (the seminar's 3.481 ms).
__kernel void blur_constant_runtime(__global const uchar* in, __global uchar* out, int width, int height,
                                    int pitch, __constant float* weights, int radius)
{
    const int x = get_global_id(0);
    const int y = get_global_id(1);
    if (x >= width || y >= height) {
        return;
    }
    // EXERCISE: blur pixel (x, y) over `radius`, weight k read from the __constant argument `weights` (SUM_2D)
    SUM_2D(FROM_BUFFER, radius);
    // STARTER:
    // out[y * pitch + x] = in[y * pitch + x];
    // END EXERCISE
}

// The weights in an ordinary __global buffer: read through the L1 cache.
__kernel void blur_global_runtime(__global const uchar* in, __global uchar* out, int width, int height,
                                  int pitch, __global const float* weights, int radius)
{
    const int x = get_global_id(0);
    const int y = get_global_id(1);
    if (x >= width || y >= height) {
        return;
    }
    SUM_2D(FROM_BUFFER, radius);
}

// --- Compile-time radius (built with -D RADIUS=<r>) ---------------------------------
#ifdef RADIUS

// Chapter 01's kernel: a per-item array, but every index a constant once the
// loops are unrolled, so the array lives in registers (the seminar's 2.605 ms).
__kernel void blur_array_fixed(__global const uchar* in, __global uchar* out, int width, int height, int pitch,
                               GaussTaps taps)
{
    const int x = get_global_id(0);
    const int y = get_global_id(1);
    if (x >= width || y >= height) {
        return;
    }
    float w[2 * RADIUS + 1];
    for (int i = 0; i < 2 * RADIUS + 1; ++i) {
        w[i] = taps.w[i];
    }
    SUM_2D(FROM_ARRAY, RADIUS);
}

// __constant weights and unrolled loops (the seminar's 1.63 ms).
__kernel void blur_constant_fixed(__global const uchar* in, __global uchar* out, int width, int height, int pitch,
                                  __constant float* weights)
{
    const int x = get_global_id(0);
    const int y = get_global_id(1);
    if (x >= width || y >= height) {
        return;
    }
    // EXERCISE: the same with the compile-time radius RADIUS, weights again from __constant memory
    SUM_2D(FROM_BUFFER, RADIUS);
    // STARTER:
    // out[y * pitch + x] = in[y * pitch + x];
    // END EXERCISE
}

#endif
