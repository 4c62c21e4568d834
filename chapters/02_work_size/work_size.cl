// Chapter 02: the two small kernels of the work-size experiments, in OpenCL C.
// (The blur itself is chapter 01's, ../01_naive/blur_naive.cl, launched here
// with other work-group shapes.)

// --- rigaya's add kernel ------------------------------------------------------
// c = a + b over a width x height grid of ints: one load of a, one of b and
// one store per item, nothing else. Every cycle is memory traffic or launch
// overhead, so the work-group shape shows undisguised.
//
// The seed's first version took its width from get_global_size(0) and had no
// bounds guard, which only works when the grid is a multiple of the group.
// Here the host rounds the NDRange up to whole groups and passes the real
// width and height; the items past the edge return.
__kernel void add_ints(__global const int* a,
                       __global const int* b,
                       __global int* c,
                       int width,
                       int height)
{
    const int x = get_global_id(0);
    const int y = get_global_id(1);
    if (x >= width || y >= height) {
        return;
    }
    const int i = y * width + x;
    c[i] = a[i] + b[i];
}

// --- toropippi's compute-bound loop ---------------------------------------------
// Each item iterates a chain of a sine and a division `iterations` times and
// stores one uint. Each step needs the previous step's x, so one item is a
// long serial chain of arithmetic, and the only memory traffic is the final
// store: the time measures how fast the device issues arithmetic for the
// group size it was given.
//
// The constant 1.3001 matters: with the seed's first 1.0001, sin = -1 gives
// y = 2.3456 / 0.0001 and 1e8 * y overflows the conversion to uint, which is
// undefined. With 1.3001, y stays within [1.0198, 7.8161] and 1e8 * y within
// [1.02e8, 7.82e8], well inside a uint.
//
// `reserved` is dynamic local memory that the kernel never touches: the host
// sets its size (0 or some KiB per group) only to limit how many groups fit on
// a compute unit at once, the seed's "wavefront test" without its data race.
__kernel void sin_divide_loop(__global uint* out,
                              uint items,
                              uint iterations,
                              __local float* reserved)
{
    (void)reserved;
    const uint id = get_global_id(0);
    if (id >= items) {
        return;
    }
    uint x = id;
    for (uint i = 0; i < iterations; ++i) {
        float y = sin(1.234f * (float)(x % 12345u));
        y = 2.3456f / (y + 1.3001f);
        x = (uint)(1e8f * y) + id;
    }
    out[id] = x;
}
