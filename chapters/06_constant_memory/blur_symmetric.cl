// Chapter 06, the main line: chapter 05's fused separable kernel
// (blur_staged.cl: its comment has the picture), using what is known about
// the weights when the kernel is compiled: the radius (-D RADIUS) and their
// symmetry, w[R - d] == w[R + d].
//
// Each sum pairs the two taps that share a weight and adds them first:
//
//   horizontal, from bytes:  w[R] b[0] + sum_{d=1..R} w[R+d] (b[-d] + b[+d])
//                            the pair added as integers (exact: at most 510),
//                            converted once: R+1 conversions and multiply-adds
//                            per sum instead of 2R+1;
//   vertical, from floats:   w[R] t[0] + sum_{d=1..R} w[R+d] (t[-d] + t[+d])
//                            R adds and R+1 multiply-adds instead of 2R+1
//                            multiply-adds (the same number of instructions:
//                            an add costs what a multiply-add costs).
//
// The weights stay in the by-value kernel argument, read from the constant
// bank: the chapter's measurements show it is as fast as literals. What the
// compiler cannot know from them is that they are symmetric; the kernel says so.
//
// Built with -D RADIUS=<r> -D TILE_ROWS=<rows>: chapter 05's blur_staged.hpp has the rule (the same tiles).

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
void blur_symmetric(__global const uchar* in,
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
    }
    barrier(CLK_LOCAL_MEM_FENCE);

    // 2. The horizontal pass, every 8th tile row: the mirrored bytes of each
    //    sum added as integers, then one conversion and one multiply-add a pair.
    for (int ty = ly; ty < TILE_H; ty += GROUP_Y) {
        uchar span[4 * SPAN_WORDS];  // the bytes around the item's 4 pixels, which start at span[HALO_X]
        for (int i = 0; i < SPAN_WORDS; ++i) {
            vstore4(as_uchar4(pixels[ty][lx + i]), i, span);
        }
        float s[4];
        for (int k = 0; k < 4; ++k) {
            const int c = HALO_X + k;  // the sum's centre in span[]
            s[k] = w[RADIUS] * convert_float(span[c]);
            for (int d = 1; d <= RADIUS; ++d) {
                s[k] += w[RADIUS + d] * convert_float((int)span[c - d] + (int)span[c + d]);
            }
        }
        row_sums[ty][lx] = (float4)(s[0], s[1], s[2], s[3]);
    }
    barrier(CLK_LOCAL_MEM_FENCE);

    // 3. The vertical pass, for the item's ROWS consecutive output rows, the
    //    mirrored rows added before their weight multiplies them.
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
        const int c = ly * ROWS + j + RADIUS;  // the output row's tile row
        float4 sum = w[RADIUS] * row_sums[c][lx];
        for (int d = 1; d <= RADIUS; ++d) {
            sum += w[RADIUS + d] * (row_sums[c - d][lx] + row_sums[c + d][lx]);
        }
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
