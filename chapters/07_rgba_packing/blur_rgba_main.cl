// Chapter 07, the main line: chapter 06's kernel (the separable blur fused
// in local memory, mirrored taps added before weighing) on RGBA pixels.
//
// A pixel is one 32-bit word (R, G, B, A in memory order) and a row is
// 4 x width bytes, so every pixel is word-aligned: the byte path of the gray
// kernels is gone, and every load and store is one word. A work-group of
// 32 x 8 items owns 32 x TILE_ROWS output pixels (one column, TILE_ROWS / 8
// rows per item: the 4 bytes an item stores per row are the gray kernel's):
//
//   1. load:       the tile and its halo, (32 + 2R) x (TILE_ROWS + 2R) pixels,
//                  clamped, one 32-bit load each, into local memory;
//   2. horizontal: each item sums its column's row, R, G and B apart, for
//                  every 8th tile row: w[R] c + sum_d w[R+d] (left_d + right_d),
//                  the mirrored bytes added as integers before one conversion;
//                  one float4 (R, G, B, and the pixel's alpha) per item and row;
//   --- barrier ---
//   3. vertical:   each item sums its column down, mirrored rows added first,
//                  rounds, takes the pixel's own alpha from the centre row's
//                  fourth lane and stores one word per pixel.
//
// Alpha is carried, not blurred: the chapter's reference keeps each pixel's alpha.
// Built with -D RADIUS=<r> -D TILE_ROWS=<rows>: main.cpp picks the rows that
// fit in the device's local memory (rgba_main_tile_rows, blur_rgba_main.hpp).

#if !defined(RADIUS) || !defined(TILE_ROWS)
#error "build with -D RADIUS=<radius> -D TILE_ROWS=<64, 32, 16 or 8>"
#endif
#define GROUP_X 32
#define GROUP_Y 8
#define TAPS (2 * RADIUS + 1)
#define ROWS (TILE_ROWS / GROUP_Y)       // output rows per item
#define TILE_H (TILE_ROWS + 2 * RADIUS)  // tile rows, halo included
#define TILE_W (GROUP_X + 2 * RADIUS)    // tile columns (pixels), halo included

#if TILE_H * TILE_W * 4 + TILE_H * GROUP_X * 16 > 48 * 1024
#error "the local tiles exceed 48 KB: use fewer TILE_ROWS"
#endif

typedef struct {
    float w[33];
} GaussTaps;


__kernel __attribute__((reqd_work_group_size(GROUP_X, GROUP_Y, 1)))
void blur_rgba_staged(__global const uchar* in,
                      __global uchar* out,
                      int width,
                      int height,
                      int pitch,  // 4 * width: every row word-aligned
                      GaussTaps taps)
{
    __local uchar4 pixels[TILE_H][TILE_W];  // a uchar4 is one 32-bit word
    // R, G, B sums and the pixel's alpha: one float4 per item and row, so a
    // warp reads and writes 512 contiguous bytes, free of bank conflicts.
    __local float4 row_sums[TILE_H][GROUP_X];

    const int lx = get_local_id(0);
    const int ly = get_local_id(1);
    const int x0 = get_group_id(0) * GROUP_X;  // the group's first output pixel
    const int y0 = get_group_id(1) * TILE_ROWS;

    float w[TAPS];
    for (int i = 0; i < TAPS; ++i) {
        w[i] = taps.w[i];
    }

    // 1. The load: one flat stride of the 256 items over the tile's pixels,
    //    each one aligned 32-bit load, clamped to the image.
    for (int i = ly * GROUP_X + lx; i < TILE_H * TILE_W; i += GROUP_X * GROUP_Y) {
        const int ty = i / TILE_W;
        const int tx = i - ty * TILE_W;
        __global const uchar4* row = (__global const uchar4*)(in + clamp(y0 - RADIUS + ty, 0, height - 1) * pitch);
        pixels[ty][tx] = row[clamp(x0 - RADIUS + tx, 0, width - 1)];
    }
    barrier(CLK_LOCAL_MEM_FENCE);

    // 2. The horizontal pass, every 8th tile row, the item's column centred
    //    at tile column lx + R; the mirrored bytes of each channel added as
    //    integers (exact), then one conversion and one multiply-add.
    for (int ty = ly; ty < TILE_H; ty += GROUP_Y) {
        const uchar4 centre = pixels[ty][lx + RADIUS];
        float r = w[RADIUS] * convert_float(centre.x);
        float g = w[RADIUS] * convert_float(centre.y);
        float b = w[RADIUS] * convert_float(centre.z);
        for (int d = 1; d <= RADIUS; ++d) {
            const uchar4 left = pixels[ty][lx + RADIUS - d];
            const uchar4 right = pixels[ty][lx + RADIUS + d];
            r += w[RADIUS + d] * convert_float((int)left.x + (int)right.x);
            g += w[RADIUS + d] * convert_float((int)left.y + (int)right.y);
            b += w[RADIUS + d] * convert_float((int)left.z + (int)right.z);
        }
        // The fourth lane carries the pixel's own alpha to the vertical pass.
        // (vstore4, not an assignment: Oclgrind 21.10 turns the assignment of
        // this vector into a store of undef followed by four lane stores, and
        // its uninitialised-value check reports the first.)
        vstore4((float4)(r, g, b, convert_float(centre.w)), 0, (__local float*)&row_sums[ty][lx]);
    }
    barrier(CLK_LOCAL_MEM_FENCE);

    // 3. The vertical pass, the item's ROWS consecutive output rows.
    const int x = x0 + lx;
    if (x >= width) {
        return;
    }
    for (int j = 0; j < ROWS; ++j) {
        const int y = y0 + ly * ROWS + j;
        if (y >= height) {
            break;
        }
        const int c = ly * ROWS + j + RADIUS;  // the output row's tile row
        const float4 centre = row_sums[c][lx];
        float4 sum = w[RADIUS] * centre;
        for (int d = 1; d <= RADIUS; ++d) {
            sum += w[RADIUS + d] * (row_sums[c - d][lx] + row_sums[c + d][lx]);
        }
        // Round half up (convert_uchar4_sat truncates); alpha is not blurred
        // but the pixel's own, from the centre row's fourth lane (exact: a
        // byte converted to float and back).
        uchar4 result = convert_uchar4_sat(sum + 0.5f);
        result.w = convert_uchar(centre.w);
        ((__global uchar4*)(out + y * pitch))[x] = result;  // one 32-bit store
    }
}
