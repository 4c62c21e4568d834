// Chapter 07: planar colour. An RGB24 image is split into three planes (all
// the R bytes, then all G, then all B), each plane is blurred as a gray image
// by chapter 01's kernel, and the planes are joined again. Each of these
// kernels moves whole bytes with no arithmetic; the blur of a plane is the
// gray blur, with consecutive items reading consecutive bytes.

// One item per pixel: RGB24 -> three planes of width x height bytes.
__kernel void deinterleave_rgb(__global const uchar* in, __global uchar* r, __global uchar* g, __global uchar* b,
                               int width, int height, int pitch)
{
    const int x = get_global_id(0);
    const int y = get_global_id(1);
    if (x >= width || y >= height) {
        return;
    }
    const uchar3 pixel = vload3(x, in + y * pitch);
    const int i = y * width + x;
    r[i] = pixel.x;
    g[i] = pixel.y;
    b[i] = pixel.z;
}

// One item per pixel: three planes -> RGB24.
__kernel void interleave_rgb(__global const uchar* r, __global const uchar* g, __global const uchar* b,
                             __global uchar* out, int width, int height, int pitch)
{
    const int x = get_global_id(0);
    const int y = get_global_id(1);
    if (x >= width || y >= height) {
        return;
    }
    const int i = y * width + x;
    vstore3((uchar3)(r[i], g[i], b[i]), x, out + y * pitch);
}
