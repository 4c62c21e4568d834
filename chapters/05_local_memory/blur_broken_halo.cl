// Chapter 05: the Fixstars seminar's shared-memory kernel (GaussianKernelShared
// in fixstars/CudaOptimizeSample), ported to OpenCL with its bug kept.
//
// The seminar computed a "valid" convolution: the item at (ox, oy) computes
// the output pixel whose window has its top-left corner at input (ox, oy),
// that is, output pixel (ox + R, oy + R), for ox < width - 2R and
// oy < height - 2R. Its 32x8 group loads a (32 + 2R) x (8 + 2R) tile whose
// halo lies to the right and below only:
//
//     tile col 0 ........ 31 | 32 ... 31+2R
//     row 0   own cells      | right halo: items lx < 2R load col lx + 32
//     ...     (one per item) |
//     row 7                  |
//     -----------------------+------------
//     row 8   bottom halo: rows 8 .. 7+2R, loaded by the items of rows ly,
//     ...     ly + 8, ... < 2R (the seminar: ly < 4, for R = 2)
//
// THE BUG: an item loads its cells only if its own window lies inside the
// image. In the last group of a row whose windows do not fill all 32 columns,
// the items past the edge load nothing, yet the windows of their neighbours
// reach into the cells they should have loaded. The kernel is right only
// when width - 2R is a multiple of 32 and height - 2R a multiple of 8.
//
// Two changes make the port safe to run under Oclgrind and compute-sanitizer
// without hiding the bug: every coordinate is clamped to the image (the
// seminar's right and bottom halo loads read past the row's end), and the
// tile is zero-filled first (the seminar read whatever an earlier group had
// left in shared memory; here a missing cell reads 0, the same every run).
// The border ring of R pixels that the valid convolution never computes is
// written beforehand by chapter 01's naive kernel (see main.cpp), so that the
// halo is the only thing wrong.

#ifndef RADIUS
#error "build with -D RADIUS=<radius>"
#endif
#define TAPS (2 * RADIUS + 1)
#define GROUP_X 32
#define GROUP_Y 8
#define TILE_W (GROUP_X + 2 * RADIUS)
#define TILE_H (GROUP_Y + 2 * RADIUS)

typedef struct {
    float w[33];
} GaussTaps;

__kernel __attribute__((reqd_work_group_size(GROUP_X, GROUP_Y, 1)))
void blur_broken_halo(__global const uchar* in,
                      __global uchar* out,
                      int width,
                      int height,
                      int pitch,
                      GaussTaps taps)
{
    __local float tile[TILE_H][TILE_W];
    const int lx = get_local_id(0);
    const int ly = get_local_id(1);

    // The zero fill (not in the seminar; see above), then a barrier so that
    // no item's fill lands after another item's load of the same cell.
    for (int ty = ly; ty < TILE_H; ty += GROUP_Y) {
        for (int tx = lx; tx < TILE_W; tx += GROUP_X) {
            tile[ty][tx] = 0.0f;
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);

    const int ox = get_global_id(0);  // the window's top-left input pixel
    const int oy = get_global_id(1);
    const int valid_width = width - 2 * RADIUS;  // the seminar's output size
    const int valid_height = height - 2 * RADIUS;
    const bool inside = ox < valid_width && oy < valid_height;

    if (inside) {  // THE BUG: items outside load nothing, not even the halo
        const int right = min(ox + GROUP_X, width - 1);
        tile[ly][lx] = (float)in[oy * pitch + ox];
        if (lx < 2 * RADIUS) {
            tile[ly][lx + GROUP_X] = (float)in[oy * pitch + right];
        }
        for (int ty = ly + GROUP_Y; ty < TILE_H; ty += GROUP_Y) {
            const int row = min(oy + ty - ly, height - 1);
            tile[ty][lx] = (float)in[row * pitch + ox];
            if (lx < 2 * RADIUS) {
                tile[ty][lx + GROUP_X] = (float)in[row * pitch + right];
            }
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (!inside) {
        return;
    }

    float w[TAPS];
    for (int i = 0; i < TAPS; ++i) {
        w[i] = taps.w[i];
    }
    float sum = 0.0f;
    for (int dy = 0; dy < TAPS; ++dy) {
        for (int dx = 0; dx < TAPS; ++dx) {
            sum += w[dy] * w[dx] * tile[ly + dy][lx + dx];
        }
    }
    out[(oy + RADIUS) * pitch + ox + RADIUS] = convert_uchar_sat(sum + 0.5f);
}
