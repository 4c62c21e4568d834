// Chapter 05: the tiled blur in OpenCL C. The tile of input pixels a
// work-group needs, its halo included, is loaded once into local memory by
// all the group's items together; then each item computes its pixel from
// local memory instead of global memory.
//
//        tile origin (x0 - R, y0 - R)
//        +---------------------------------+
//        | halo (R rows)                   |     TILE_W = GROUP_X + 2R
//        |   +-------------------------+   |     TILE_H = GROUP_Y + 2R
//        | R | the group's GROUP_X x   | R |
//        |   | GROUP_Y output pixels   |   |     every cell is loaded by some
//        |   +-------------------------+   |     item, whatever the image size:
//        | halo (R rows)                   |     the items stride over the tile
//        +---------------------------------+
//
// Built with -D RADIUS=<r> -D GROUP_X=<w> -D GROUP_Y=<h>: the tile's size is
// a compile-time constant (local arrays need one) and the loops unroll.

#if !defined(RADIUS) || !defined(GROUP_X) || !defined(GROUP_Y)
#error "build with -D RADIUS=<radius> -D GROUP_X=<width> -D GROUP_Y=<height>"
#endif
#define TAPS (2 * RADIUS + 1)
#define TILE_W (GROUP_X + 2 * RADIUS)
#define TILE_H (GROUP_Y + 2 * RADIUS)

// The 1-D weights, offset k at w[k + RADIUS], passed by value (the layout of
// struct GaussTaps in common/include/gauss/blur.hpp).
typedef struct {
    float w[33];
} GaussTaps;

// reqd_work_group_size: the host must launch exactly this shape, because the
// tile below is sized for it (and the compiler may use the fact).
__kernel __attribute__((reqd_work_group_size(GROUP_X, GROUP_Y, 1)))
void blur_tiled(__global const uchar* in,
                __global uchar* out,
                int width,
                int height,
                int pitch,
                GaussTaps taps)
{
    // Floats, not bytes: each input byte is converted once, when it is
    // loaded, instead of once per tap that reads it ((2R+1)^2 times).
    __local float tile[TILE_H][TILE_W];

    const int lx = get_local_id(0);
    const int ly = get_local_id(1);
    const int x0 = get_group_id(0) * GROUP_X;  // the group's first output pixel
    const int y0 = get_group_id(1) * GROUP_Y;

    // EXERCISE: load the whole tile, halo included, into tile[][]: every cell by some item, as a float, clamped
    // 1. The cooperative load. The items stride over the whole tile, so the
    //    halo is loaded whatever the group's shape and radius, and items
    //    whose own pixel lies past the image's edge load too: their cells are
    //    the halo of pixels that do exist. Coordinates are clamped to the
    //    image (clamp-to-edge), so no load is ever out of bounds. Items next
    //    to each other load bytes next to each other: coalesced.
    for (int ty = ly; ty < TILE_H; ty += GROUP_Y) {
        const int sy = clamp(y0 - RADIUS + ty, 0, height - 1);
        for (int tx = lx; tx < TILE_W; tx += GROUP_X) {
            const int sx = clamp(x0 - RADIUS + tx, 0, width - 1);
            tile[ty][tx] = (float)in[sy * pitch + sx];
        }
    }
    // END EXERCISE

    // EXERCISE: wait until every item of the group has stored its cells (every item must get here)
    // 2. Wait until every item's loads are in local memory. Every item of the
    //    group must reach this barrier, which is why the bounds guard comes
    //    after it: an item that returned earlier would leave the others
    //    waiting (undefined behaviour in OpenCL, a hang or garbage in practice).
    barrier(CLK_LOCAL_MEM_FENCE);
    // END EXERCISE

    // 3. The arithmetic, reading local memory only.
    const int x = x0 + lx;
    const int y = y0 + ly;
    if (x >= width || y >= height) {
        return;
    }
    float w[TAPS];
    for (int i = 0; i < TAPS; ++i) {
        w[i] = taps.w[i];
    }
    // EXERCISE: sum the (2R+1)^2 taps of pixel (x, y) from tile[][] (the tile starts R pixels up and left of the group)
    float sum = 0.0f;
    for (int dy = 0; dy < TAPS; ++dy) {
        for (int dx = 0; dx < TAPS; ++dx) {
            sum += w[dy] * w[dx] * tile[ly + dy][lx + dx];
        }
    }
    // STARTER:
    // float sum = 0.0f;
    // END EXERCISE
    out[y * pitch + x] = convert_uchar_sat(sum + 0.5f);
}
