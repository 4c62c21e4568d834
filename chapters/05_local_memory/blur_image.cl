// Chapter 05: the blur through OpenCL images and samplers.
//
// An image object is read through the texture units, and a sampler tells
// them what to do at the edges and between pixels: CLK_ADDRESS_CLAMP_TO_EDGE
// is exactly the tutorial's border rule, done by the hardware, so the kernel
// has no clamp() at all. The image holds the input as CL_R / CL_UNORM_INT8:
// a byte b reads as the float b / 255.
//
// Two kernels:
//   blur_image         (2R+1)^2 reads at pixel centres, nearest filtering;
//   blur_image_linear  the linear-sampling trick: a bilinear read between
//                      two pixels returns their weighted average, so a
//                      pair of taps costs one read. Per dimension the centre
//                      tap is read alone and taps (k, k+1) together, at
//                      offset k + w[k+1] / (w[k] + w[k+1]) with weight
//                      w[k] + w[k+1]: 1 + 2 ceil(R/2) reads instead of 2R+1,
//                      9 instead of 25 for R = 2 (the host computes the
//                      offsets, samplers.hpp).
//
// Built with -D RADIUS=<r>.

#ifndef RADIUS
#error "build with -D RADIUS=<radius>"
#endif
#define TAPS (2 * RADIUS + 1)
#define FETCHES (1 + 2 * ((RADIUS + 1) / 2))

typedef struct {
    float w[33];
} GaussTaps;

// The samplers: coordinates in pixels (not normalized to 0..1), clamp to the
// edge, and either the nearest pixel or a bilinear mix of the four nearest.
#define NEAREST (CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST)
#define LINEAR (CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_LINEAR)

__kernel void blur_image(__read_only image2d_t in,
                         __global uchar* out,
                         int width,
                         int height,
                         int pitch,
                         GaussTaps taps)
{
    const int x = get_global_id(0);
    const int y = get_global_id(1);
    if (x >= width || y >= height) {
        return;
    }
    const sampler_t nearest = NEAREST;
    float sum = 0.0f;
    for (int dy = -RADIUS; dy <= RADIUS; ++dy) {
        for (int dx = -RADIUS; dx <= RADIUS; ++dx) {
            // Integer coordinates, nearest filtering: the pixel itself, or
            // the nearest edge pixel when (x + dx, y + dy) is outside.
            const float texel = read_imagef(in, nearest, (int2)(x + dx, y + dy)).x;
            sum += taps.w[dy + RADIUS] * taps.w[dx + RADIUS] * texel;
        }
    }
    out[y * pitch + x] = convert_uchar_sat(sum * 255.0f + 0.5f);
}

__kernel void blur_image_linear(__read_only image2d_t in,
                                __global uchar* out,
                                int width,
                                int height,
                                int pitch,
                                GaussTaps offsets,  // FETCHES offsets, in pixels from the centre
                                GaussTaps weights)  // FETCHES merged weights
{
    const int x = get_global_id(0);
    const int y = get_global_id(1);
    if (x >= width || y >= height) {
        return;
    }
    const sampler_t linear = LINEAR;
    float sum = 0.0f;
    for (int j = 0; j < FETCHES; ++j) {
        // Pixel (x, y) is the square [x, x+1) x [y, y+1); its centre is at +0.5.
        const float v = (float)y + 0.5f + offsets.w[j];
        for (int i = 0; i < FETCHES; ++i) {
            const float u = (float)x + 0.5f + offsets.w[i];
            // One bilinear read: up to four pixels, each clamped to the edge
            // before they are mixed. The mixing weights are fixed-point in
            // the texture unit (8 fractional bits on NVIDIA): see README.
            const float texel = read_imagef(in, linear, (float2)(u, v)).x;
            sum += weights.w[j] * weights.w[i] * texel;
        }
    }
    out[y * pitch + x] = convert_uchar_sat(sum * 255.0f + 0.5f);
}
