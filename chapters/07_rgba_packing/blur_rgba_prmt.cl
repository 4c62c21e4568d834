// Chapter 07: rgba32 with a byte-permute unpack, in OpenCL C (variant
// rgba32_prmt; the CUDA twin is blur_rgba_prmt.cu).
//
// blur_rgba32_prmt is blur_rgba32 of blur_rgba.cl (one item per pixel, one
// aligned 32-bit load per tap, float4 sums, alpha carried through, rounding
// half up with saturation) except for how a byte of the loaded word becomes
// a float. convert_float4(uchar4) pulls each byte out and converts it
// (shift, mask, integer-to-float); here each byte is placed in the low 8 bits
// of the bit pattern 0x4B0000bb, which is the float 2^23 + bb, and 2^23 is
// subtracted: exact, one bit operation and one float subtraction. OpenCL C 1.2
// has no byte-permute builtin, so the pattern is written as a shift, a mask
// and an or; in CUDA it is one __byte_perm.
//
// Built with -D RADIUS=<r>.

#ifndef RADIUS
#error "build with -D RADIUS=<radius>"
#endif
#define TAPS (2 * RADIUS + 1)

typedef struct {
    float w[33];
} GaussTaps;

// Byte k of word (R in the lowest byte) as a float: as_float(0x4B0000bb) = 2^23 + bb.
#define BYTE_AS_FLOAT(word, k) (as_float((((word) >> (8 * (k))) & 0xFFu) | 0x4B000000u) - 8388608.0f)

float4 unpack_rgba(uint word)
{
    return (float4)(BYTE_AS_FLOAT(word, 0), BYTE_AS_FLOAT(word, 1), BYTE_AS_FLOAT(word, 2), BYTE_AS_FLOAT(word, 3));
}

__kernel void blur_rgba32_prmt(__global const uchar* in, __global uchar* out, int width, int height, int pitch,
                               GaussTaps taps)
{
    const int x = get_global_id(0);
    const int y = get_global_id(1);
    if (x >= width || y >= height) {
        return;
    }
    float w[TAPS];
    for (int i = 0; i < TAPS; ++i) {
        w[i] = taps.w[i];
    }
    float4 sum = (float4)(0.0f);
    for (int dy = -RADIUS; dy <= RADIUS; ++dy) {
        // Rows are width * 4 bytes: every pixel is 4-byte aligned, one 32-bit load.
        __global const uint* row = (__global const uint*)(in + clamp(y + dy, 0, height - 1) * pitch);
        for (int dx = -RADIUS; dx <= RADIUS; ++dx) {
            sum += w[dy + RADIUS] * w[dx + RADIUS] * unpack_rgba(row[clamp(x + dx, 0, width - 1)]);
        }
    }
    uchar4 result = convert_uchar4_sat(sum + 0.5f);              // as rgba32: half up, saturated
    result.w = ((__global const uchar4*)(in + y * pitch))[x].w;  // the pixel's own alpha
    ((__global uchar4*)(out + y * pitch))[x] = result;
}
