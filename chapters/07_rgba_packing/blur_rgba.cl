// Chapter 07: colour pixels, 3 bytes against 4, in OpenCL C.
// (The kernels repeat chapter 01's index mapping, bounds guard and clamped
// taps, and each other's, on purpose: what changes between them is the loads.)
//
// The same blur on three channels. What changes is how a pixel is loaded:
//
//   blur_rgb24      R,G,B packed in 3 bytes (RGB24): vload3 reads 3 bytes
//                   at any address, three 1-byte loads; rows are width * 3
//                   bytes, so they are not even 4-byte aligned.
//   blur_rgba32     R,G,B,A in 4 bytes (RGBA32): one aligned 32-bit load per
//                   tap (uchar4), float4 arithmetic, alpha carried through.
//   blur_rgba32_x4  four RGBA pixels per item: each row of the window is
//                   loaded as aligned 16-byte vectors (uint4), each byte
//                   converted to float once, and reused by the four outputs.
//
// Alpha is not blurred: each output pixel keeps its input pixel's alpha, as
// the reference does (the seminar's kernel wrote 0; ALPHA_ZERO keeps that bug
// for the alpha_zero variant).
//
// Built with -D RADIUS=<r>.

#ifndef RADIUS
#error "build with -D RADIUS=<radius>"
#endif
#define TAPS (2 * RADIUS + 1)

typedef struct {
    float w[33];
} GaussTaps;

__kernel void blur_rgb24(__global const uchar* in, __global uchar* out, int width, int height, int pitch,
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
    // Three float sums, one per channel. (A float3 would say the same; Oclgrind
    // 21.10's uninitialised-value check crashes on 3-element float vectors.)
    float r = 0.0f, g = 0.0f, b = 0.0f;
    for (int dy = -RADIUS; dy <= RADIUS; ++dy) {
        __global const uchar* row = in + clamp(y + dy, 0, height - 1) * pitch;
        for (int dx = -RADIUS; dx <= RADIUS; ++dx) {
            // vload3(i, p) reads bytes p[3i], p[3i+1], p[3i+2]: no alignment needed.
            const uchar3 pixel = vload3(clamp(x + dx, 0, width - 1), row);
            const float weight = w[dy + RADIUS] * w[dx + RADIUS];
            r += weight * pixel.x;
            g += weight * pixel.y;
            b += weight * pixel.z;
        }
    }
    vstore3((uchar3)(convert_uchar_sat(r + 0.5f), convert_uchar_sat(g + 0.5f), convert_uchar_sat(b + 0.5f)), x,
            out + y * pitch);
}

__kernel void blur_rgba32(__global const uchar* in, __global uchar* out, int width, int height, int pitch,
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
        // EXERCISE: this window row as uchar4 pixels (clamped row); add each tap, one uchar4 load, to sum as a float4
        __global const uchar4* row = (__global const uchar4*)(in + clamp(y + dy, 0, height - 1) * pitch);
        for (int dx = -RADIUS; dx <= RADIUS; ++dx) {
            sum += w[dy + RADIUS] * w[dx + RADIUS] * convert_float4(row[clamp(x + dx, 0, width - 1)]);
        }
        // END EXERCISE
    }
    // EXERCISE: the float4 sum back to 4 bytes: rounded half up, saturated to 0..255
    uchar4 result = convert_uchar4_sat(sum + 0.5f);  // .w, the blurred alpha, is replaced:
    // STARTER:
    // uchar4 result = (uchar4)(0);  // .w, the blurred alpha, is replaced:
    // END EXERCISE
#ifdef ALPHA_ZERO
    result.w = 0;  // the seminar's bug
#else
    result.w = ((__global const uchar4*)(in + y * pitch))[x].w;  // the pixel's own alpha
#endif
    ((__global uchar4*)(out + y * pitch))[x] = result;
}

// --- Four pixels per item, 16-byte loads ------------------------------------------
// Item i computes pixels 4i .. 4i+3 of its row. For each row of the window it
// needs pixels 4i - R .. 4i + 3 + R; it loads the aligned 16-byte vectors
// (4 pixels each) that cover them: CHUNKS of them, starting LEAD pixels left
// of 4i. Each byte is converted to float once per row, not once per tap.
#define LEAD (4 * ((RADIUS + 3) / 4))  // pixels loaded left of the first output
#define CHUNKS (1 + 2 * LEAD / 4)      // 16-byte vectors per row
#define SPAN (4 * CHUNKS)              // pixels loaded per row

// The four RGBA pixels of a 16-byte vector, as floats.
#define UNPACK(v, p, i)                                    \
    p[(i) + 0] = convert_float4(as_uchar4((v).x));         \
    p[(i) + 1] = convert_float4(as_uchar4((v).y));         \
    p[(i) + 2] = convert_float4(as_uchar4((v).z));         \
    p[(i) + 3] = convert_float4(as_uchar4((v).w))

__kernel void blur_rgba32_x4(__global const uchar* in, __global uchar* out, int width, int height, int pitch,
                             GaussTaps taps)
{
    const int x0 = 4 * get_global_id(0);  // the first of this item's four pixels
    const int y = get_global_id(1);
    if (x0 >= width || y >= height) {
        return;
    }
    float w[TAPS];
    for (int i = 0; i < TAPS; ++i) {
        w[i] = taps.w[i];
    }
    // 16-byte loads need 16-byte aligned addresses: rows must start at a
    // multiple of 16 bytes (width a multiple of 4) and the vectors must lie
    // inside the row. Items near the left and right edges, and every item of
    // an image whose width is not a multiple of 4, load pixel by pixel,
    // clamped; the arithmetic is the same.
    const bool vectors = pitch % 16 == 0 && x0 - LEAD >= 0 && x0 - LEAD + SPAN <= width;

    float4 sum[4] = {(float4)(0.0f), (float4)(0.0f), (float4)(0.0f), (float4)(0.0f)};
    float4 p[SPAN];
    for (int dy = -RADIUS; dy <= RADIUS; ++dy) {
        __global const uchar* row = in + clamp(y + dy, 0, height - 1) * pitch;
        if (vectors) {
            __global const uint4* chunks = (__global const uint4*)(row + 4 * (x0 - LEAD));
            for (int c = 0; c < CHUNKS; ++c) {
                const uint4 v = chunks[c];  // one 16-byte load: four pixels
                UNPACK(v, p, 4 * c);
            }
        } else {
            for (int i = 0; i < SPAN; ++i) {
                p[i] = convert_float4(vload4(clamp(x0 - LEAD + i, 0, width - 1), row));
            }
        }
        for (int k = 0; k < 4; ++k) {
            for (int dx = -RADIUS; dx <= RADIUS; ++dx) {
                sum[k] += w[dy + RADIUS] * w[dx + RADIUS] * p[LEAD + k + dx];
            }
        }
    }

    __global const uchar* centre = in + y * pitch;
    __global uchar* target = out + y * pitch;
    uint packed[4];
    for (int k = 0; k < 4; ++k) {
        uchar4 result = convert_uchar4_sat(sum[k] + 0.5f);
        result.w = centre[4 * min(x0 + k, width - 1) + 3];  // the pixel's own alpha
        packed[k] = as_uint(result);
    }
    if (pitch % 16 == 0 && x0 + 4 <= width) {
        *(__global uint4*)(target + 4 * x0) = (uint4)(packed[0], packed[1], packed[2], packed[3]);  // one 16-byte store
    } else {
        for (int k = 0; k < 4 && x0 + k < width; ++k) {
            vstore4(as_uchar4(packed[k]), x0 + k, target);
        }
    }
}
