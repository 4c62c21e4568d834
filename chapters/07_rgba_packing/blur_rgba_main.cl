// Chapter 07, the main line: chapter 05's kernel (the separable blur fused in
// local memory, blur_staged.cl) on RGBA pixels, one 32-bit word per pixel.
//
// In gray a word held four pixels, one byte each; in RGBA it holds one pixel,
// R, G, B and A in memory order. Everything else is chapter 05's: the tile
// staged once as words, one float4 per item and row, the vertical pass down
// the float4s, one packed store per row. A work-group of 32 x 8 items owns an
// output tile of 32 x TILE_ROWS pixels (128 bytes a row, as in gray) and runs
// three phases:
//
//   1. load:       the input tile with its halo, (32 + 2R) x (TILE_ROWS + 2R)
//                  pixels, clamped at the image's edges, into local memory,
//                  once, one 32-bit word each;
//   2. horizontal: each item unpacks the 2R+1 pixels around its own into
//                  float4s (R, G, B, A) and sums them, for every 8th row of
//                  the tile (halo rows included), into a float tile: one
//                  float4 per item and row, R, G, B and the pixel's own alpha;
//   --- barrier ---
//   3. vertical:   each item sums 2R+1 float4s down its column for its ROWS
//                  output rows, rounds, packs R, G, B and the pixel's alpha
//                  into one word and stores it.
//
//        x0 - R           x0                x0 + 32
//        +--------+------------------------+--------+  y0 - R
//        |  halo  |      halo rows         |  halo  |
//        |        +------------------------+        |  y0
//        |        | the group's 32 x       |        |
//        |        | TILE_ROWS output pixels|        |   pixels[][]: one word per pixel
//        |        +------------------------+        |  y0 + TILE_ROWS
//        |        |      halo rows         |        |
//        +--------+------------------------+--------+  y0 + TILE_ROWS + R
//                 row_sums[][]: one float4 a pixel, the halo rows included
//
// Alpha is carried, not blurred: the chapter's reference keeps each pixel's
// alpha. A row is 4 x width bytes, so every pixel is word-aligned whatever
// the width: chapter 05's byte path for unaligned words is gone.
//
// Built with -D RADIUS=<r> -D TILE_ROWS=<rows>; the host picks TILE_ROWS so
// that the two local arrays fit (blur_rgba_main.hpp, rgba_main_tile_rows).

#if !defined(RADIUS) || !defined(TILE_ROWS)
#error "build with -D RADIUS=<radius> -D TILE_ROWS=<64, 32, 16 or 8>"
#endif
#define GROUP_X 32
#define GROUP_Y 8
#define TAPS (2 * RADIUS + 1)
#define ROWS (TILE_ROWS / GROUP_Y)     // output rows per item
#define TILE_H (TILE_ROWS + 2 * RADIUS)  // tile rows, halo included
// The halo columns: R pixels, R words (in gray, R rounded up to whole words).
#define HALO_X RADIUS
#define TILE_WORDS (GROUP_X + 2 * HALO_X)
// The words an item reads for one row of its horizontal pass: its own pixel
// and R on each side.
#define SPAN_WORDS (1 + 2 * HALO_X)

#if TILE_H * TILE_WORDS * 4 + TILE_H * GROUP_X * 16 > 48 * 1024
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
    __local uint pixels[TILE_H][TILE_WORDS];
    // One float4 per item and row: R, G, B sums and the pixel's alpha, so a
    // warp reads and writes 512 contiguous bytes, free of bank conflicts.
    __local float4 row_sums[TILE_H][GROUP_X];

    const int lx = get_local_id(0);
    const int ly = get_local_id(1);
    const int x0 = get_group_id(0) * GROUP_X;    // the group's first output column
    const int y0 = get_group_id(1) * TILE_ROWS;  // and row

    float w[TAPS];
    for (int i = 0; i < TAPS; ++i) {
        w[i] = taps.w[i];
    }

    // 1. The load. The 256 items stride over the tile's words in one flat
    //    sequence (a row of TILE_WORDS is a little more than one pass of 32,
    //    a 2-D stride would leave most items idle in its second pass).
    //    A word is a pixel: one clamped 32-bit load each, at the image's
    //    edges too.
    for (int i = ly * GROUP_X + lx; i < TILE_H * TILE_WORDS; i += GROUP_X * GROUP_Y) {
        const int ty = i / TILE_WORDS;
        const int tw = i - ty * TILE_WORDS;
        __global const uint* row = (__global const uint*)(in + clamp(y0 - RADIUS + ty, 0, height - 1) * pitch);
        const int x = x0 - HALO_X + tw;  // the word's pixel
        pixels[ty][tw] = row[clamp(x, 0, width - 1)];
    }
    barrier(CLK_LOCAL_MEM_FENCE);

    // 2. The horizontal pass: every 8th tile row, halo rows included. Each
    //    word is unpacked into four floats once per row, then weighed once:
    //    one pixel's sums, three channels at a time.
    for (int ty = ly; ty < TILE_H; ty += GROUP_Y) {
        float4 v[SPAN_WORDS];  // the pixels around the item's own, which is v[HALO_X]
        for (int i = 0; i < SPAN_WORDS; ++i) {
            // EXERCISE: v[i], the pixel word pixels[ty][lx + i] as four floats: R, G, B, A (R in the lowest byte)
            v[i] = convert_float4(as_uchar4(pixels[ty][lx + i]));
            // STARTER:
            // v[i] = (float4)(0.0f);
            // END EXERCISE
        }
        float4 s = (float4)(0.0f);
        for (int d = 0; d < TAPS; ++d) {
            s += w[d] * v[d];
        }
        // The fourth lane carries the pixel's own alpha to the vertical pass.
        row_sums[ty][lx] = (float4)(s.x, s.y, s.z, v[HALO_X].w);
    }
    barrier(CLK_LOCAL_MEM_FENCE);

    // 3. The vertical pass, for the item's ROWS consecutive output rows: the
    //    unrolled loops read each of the ROWS + 2R float4s once.
    const int x = x0 + lx;
    if (x >= width) {
        return;
    }
    for (int j = 0; j < ROWS; ++j) {
        const int y = y0 + ly * ROWS + j;
        if (y >= height) {
            break;
        }
        float4 sum = (float4)(0.0f);
        for (int d = 0; d < TAPS; ++d) {
            sum += w[d] * row_sums[ly * ROWS + j + d][lx];
        }
        // EXERCISE: the pixel back in one word: R, G, B rounded half up and saturated, alpha the centre row's fourth lane
        // Round half up: convert_uchar4_sat truncates, so add 0.5 first.
        uchar4 result = convert_uchar4_sat(sum + 0.5f);
        result.w = convert_uchar(row_sums[ly * ROWS + j + RADIUS][lx].w);  // exact: a byte, as a float, back
        // STARTER:
        // const uchar4 result = (uchar4)(0);
        // END EXERCISE
        ((__global uint*)(out + y * pitch))[x] = as_uint(result);  // one packed store
    }
}
