// Chapter 05, the main line: the separable blur fused in local memory, on
// top of chapter 03's kernel (four adjacent pixels per item from 32-bit
// words, eight rows per item, one packed store per row).
//
// A work-group of 32 x 8 items owns an output tile of 128 x TILE_ROWS pixels
// and runs three phases:
//
//   1. load:       the input tile with its halo, (128 + 2 HALO_X) x
//                  (TILE_ROWS + 2R) bytes, clamped at the image's edges,
//                  into local memory, once, as 32-bit words;
//   2. horizontal: each item sums 2R+1 taps along the row for its 4 columns,
//                  for every 8th row of the tile (halo rows included), into
//                  a float tile: one float4 per item and row;
//   --- barrier ---
//   3. vertical:   each item sums 2R+1 float4s down its 4 columns for its
//                  ROWS output rows, rounds, packs and stores 4 bytes a row.
//
//        x0 - HALO_X        x0                x0 + 128
//        +--------+------------------------+--------+  y0 - R
//        |  halo  |      halo rows         |  halo  |
//        |        +------------------------+        |  y0
//        |        | the group's 128 x      |        |
//        |        | TILE_ROWS output pixels|        |   pixels[][]: bytes, as words
//        |        +------------------------+        |  y0 + TILE_ROWS
//        |        |      halo rows         |        |
//        +--------+------------------------+--------+  y0 + TILE_ROWS + R
//                 row_sums[][]: 128 floats a row, the halo rows included
//
// Multiply-adds per pixel: (2R+1)^2 in one pass, 2(2R+1) in two (plus the
// halo rows' horizontal sums: 2R of every TILE_ROWS + 2R rows).
//
// Built with -D RADIUS=<r> -D TILE_ROWS=<rows>; the host picks TILE_ROWS so
// that the two local arrays fit in 48 KB (blur_staged.hpp, staged_tile_rows).

#if !defined(RADIUS) || !defined(TILE_ROWS)
#error "build with -D RADIUS=<radius> -D TILE_ROWS=<64 or 32>"
#endif
#define GROUP_X 32
#define GROUP_Y 8
#define TAPS (2 * RADIUS + 1)
#define ROWS (TILE_ROWS / GROUP_Y)     // output rows per item
#define TILE_H (TILE_ROWS + 2 * RADIUS)  // tile rows, halo included
// The halo columns rounded up to whole words, so that the tile starts on a
// word boundary and its words are the image's words.
#define HALO_X (4 * ((RADIUS + 3) / 4))
#define TILE_WORDS (GROUP_X + 2 * HALO_X / 4)
// The words an item reads for one row of its horizontal pass: its own word
// and HALO_X / 4 on each side.
#define SPAN_WORDS (1 + 2 * HALO_X / 4)

#if TILE_H * TILE_WORDS * 4 + TILE_H * GROUP_X * 16 > 48 * 1024
#error "the local tiles exceed 48 KB: use fewer TILE_ROWS"
#endif

typedef struct {
    float w[33];
} GaussTaps;

__kernel __attribute__((reqd_work_group_size(GROUP_X, GROUP_Y, 1)))
void blur_staged(__global const uchar* in,
                 __global uchar* out,
                 int width,
                 int height,
                 int pitch,
                 GaussTaps taps,
                 int aligned)  // the host's word test: pitch % 4 == 0 and both buffers' bases word-aligned
{
    __local uint pixels[TILE_H][TILE_WORDS];
    // One float4 per item and row: the four columns of an item are adjacent,
    // so a warp reads and writes 512 contiguous bytes, free of bank conflicts.
    __local float4 row_sums[TILE_H][GROUP_X];

    const int lx = get_local_id(0);
    const int ly = get_local_id(1);
    const int x0 = get_group_id(0) * (4 * GROUP_X);  // the group's first output column
    const int y0 = get_group_id(1) * TILE_ROWS;      // and row

    float w[TAPS];
    for (int i = 0; i < TAPS; ++i) {
        w[i] = taps.w[i];
    }

    // 1. The load. The 256 items stride over the tile's words in one flat
    //    sequence (a row of TILE_WORDS is a little more than one pass of 32,
    //    a 2-D stride would leave most items idle in its second pass).
    //    Words wholly inside the image are one 32-bit load; the words that
    //    straddle or pass its left or right edge, and every word of an
    //    image whose rows are not word-aligned, are four clamped byte loads.
    for (int i = ly * GROUP_X + lx; i < TILE_H * TILE_WORDS; i += GROUP_X * GROUP_Y) {
        const int ty = i / TILE_WORDS;
        const int tw = i - ty * TILE_WORDS;
        // EXERCISE: pixels[ty][tw]: 4 pixels from column x0 - HALO_X + 4 tw of row y0 - R + ty, clamped to the image
        __global const uchar* row = in + clamp(y0 - RADIUS + ty, 0, height - 1) * pitch;
        const int x = x0 - HALO_X + 4 * tw;  // the word's first pixel
        uint word;
        if (aligned && x >= 0 && x + 4 <= width) {
            word = ((__global const uint*)row)[x / 4];
        } else {
            word = as_uint((uchar4)(row[clamp(x, 0, width - 1)], row[clamp(x + 1, 0, width - 1)],
                                    row[clamp(x + 2, 0, width - 1)], row[clamp(x + 3, 0, width - 1)]));
        }
        pixels[ty][tw] = word;
        // STARTER:
        // pixels[ty][tw] = 0u;
        // END EXERCISE
    }
    // EXERCISE: no item may read the tile before every item of the group has stored its words
    barrier(CLK_LOCAL_MEM_FENCE);
    // END EXERCISE

    // 2. The horizontal pass: every 8th tile row, halo rows included. Each
    //    byte is converted to float once per row, then serves up to 2R+1 sums.
    for (int ty = ly; ty < TILE_H; ty += GROUP_Y) {
        // EXERCISE: row_sums[ty][lx]: the 2R+1-tap horizontal sums of the item's 4 columns in tile row ty, a float4
        uchar span[4 * SPAN_WORDS];  // the bytes around the item's 4 pixels, which start at span[HALO_X]
        for (int i = 0; i < SPAN_WORDS; ++i) {
            vstore4(as_uchar4(pixels[ty][lx + i]), i, span);
        }
        float v[4 + 2 * RADIUS];
        for (int j = 0; j < 4 + 2 * RADIUS; ++j) {
            v[j] = convert_float(span[HALO_X - RADIUS + j]);
        }
        float s[4];
        for (int k = 0; k < 4; ++k) {
            s[k] = 0.0f;
            for (int d = 0; d < TAPS; ++d) {
                s[k] += w[d] * v[k + d];
            }
        }
        row_sums[ty][lx] = (float4)(s[0], s[1], s[2], s[3]);
        // STARTER:
        // row_sums[ty][lx] = (float4)(0.0f);
        // END EXERCISE
    }
    // EXERCISE: no item may read row_sums before every item of the group has stored its sums
    barrier(CLK_LOCAL_MEM_FENCE);
    // END EXERCISE

    // 3. The vertical pass, for the item's ROWS consecutive output rows: the
    //    unrolled loops read each of the ROWS + 2R float4s once.
    const int x = x0 + 4 * lx;
    if (x >= width) {
        return;
    }
    const bool whole_word = aligned && x + 4 <= width;
    for (int j = 0; j < ROWS; ++j) {
        const int y = y0 + ly * ROWS + j;
        if (y >= height) {
            break;
        }
        // EXERCISE: sum, output row y's 4 pixels: the 2R+1 row sums around it in the item's column, weighed by w[]
        // Output row y is tile row ly * ROWS + j + R of row_sums.
        float4 sum = (float4)(0.0f);
        for (int d = 0; d < TAPS; ++d) {
            sum += w[d] * row_sums[ly * ROWS + j + d][lx];
        }
        // STARTER:
        // float4 sum = (float4)(0.0f);
        // END EXERCISE
        // Round half up: convert_uchar4_sat truncates, so add 0.5 first.
        const uchar4 result = convert_uchar4_sat(sum + 0.5f);
        __global uchar* target = out + y * pitch;
        if (whole_word) {
            ((__global uint*)target)[x / 4] = as_uint(result);  // one packed store
        } else {
            // The last word of a row not a multiple of 4 wide, or rows not word-aligned.
            target[x] = result.s0;
            if (x + 1 < width) target[x + 1] = result.s1;
            if (x + 2 < width) target[x + 2] = result.s2;
            if (x + 3 < width) target[x + 3] = result.s3;
        }
    }
}
