// Chapter 05: the separable blur in one kernel, its two passes joined through
// local memory (the Yandex webinar's kernel).
// (Its tile loading repeats the shape of blur_broken_halo.cl's on purpose:
// compare the two to see what the halo needs.)
//
// A Gaussian is separable: the 2-D sum over (2R+1)^2 taps equals a vertical
// 1-D sum over 2R+1 rows followed by a horizontal 1-D sum of those column
// sums. Each item computes one column sum (vertical pass, from global
// memory) into local memory; after a barrier, each item sums 2R+1 of its
// neighbours' column sums (horizontal pass, from local memory): 2(2R+1) taps
// per pixel instead of (2R+1)^2.
//
// The horizontal pass of the group's edge items needs column sums of R
// columns on either side, which belong to the neighbouring groups. So the
// groups overlap: a group of GROUP_X items covers GROUP_X columns but writes
// only the middle GROUP_X - 2R of them.
//
//   image columns  ... | g0 writes these GROUP_X-2R | g1 writes these ...
//   group 0        [ffRRRRRRRRRRRRRRRRRRRRRRRRRRRRff]
//   group 1                               [ffRRRRRRRRRRRRRRRRRRRRRRRRRRRRff]
//                   ^^ "fake" items: they compute a column sum for their
//                      neighbours, reach the barrier, and write nothing
//
// 2R of every GROUP_X items do no output: 2R / GROUP_X of the work is
// overhead (the webinar's "about 1.6%" is 4/256, R = 2 and 256 items).
//
// Built with -D RADIUS=<r> -D GROUP_X=<w> -D GROUP_Y=<h>.

#if !defined(RADIUS) || !defined(GROUP_X) || !defined(GROUP_Y)
#error "build with -D RADIUS=<radius> -D GROUP_X=<width> -D GROUP_Y=<height>"
#endif
#if GROUP_X <= 2 * RADIUS
#error "a group must be wider than 2 * RADIUS to write any pixel"
#endif
#define TAPS (2 * RADIUS + 1)
#define OUTPUTS_X (GROUP_X - 2 * RADIUS)  // columns each group writes

typedef struct {
    float w[33];
} GaussTaps;

__kernel __attribute__((reqd_work_group_size(GROUP_X, GROUP_Y, 1)))
void blur_separable_local(__global const uchar* in,
                          __global uchar* out,
                          int width,
                          int height,
                          int pitch,
                          GaussTaps taps)
{
    __local float column_sums[GROUP_Y][GROUP_X];

    const int lx = get_local_id(0);
    const int ly = get_local_id(1);
    // The group's columns start R columns left of the first one it writes.
    const int x = get_group_id(0) * OUTPUTS_X - RADIUS + lx;
    const int y = get_global_id(1);

    float w[TAPS];
    for (int i = 0; i < TAPS; ++i) {
        w[i] = taps.w[i];
    }

    // 1. The vertical pass: the sum down this item's column. A column left
    //    or right of the image is the edge column (clamp-to-edge), so its sum
    //    is the edge column's sum. Rows below the image need no sum: only
    //    items of the same row read it, and they write nothing.
    float column = 0.0f;
    if (y < height) {
        const int sx = clamp(x, 0, width - 1);
        for (int dy = -RADIUS; dy <= RADIUS; ++dy) {
            const int sy = clamp(y + dy, 0, height - 1);
            column += w[dy + RADIUS] * (float)in[sy * pitch + sx];
        }
    }
    column_sums[ly][lx] = column;

    // 2. Every item, fake or past the image, reaches the barrier before any
    //    returns: the horizontal pass reads its neighbours' sums.
    barrier(CLK_LOCAL_MEM_FENCE);

    // 3. The horizontal pass, by the items that own an output pixel.
    const bool fake = lx < RADIUS || lx >= GROUP_X - RADIUS;
    if (fake || x >= width || y >= height) {
        return;
    }
    float sum = 0.0f;
    for (int dx = -RADIUS; dx <= RADIUS; ++dx) {
        sum += w[dx + RADIUS] * column_sums[ly][lx + dx];
    }
    out[y * pitch + x] = convert_uchar_sat(sum + 0.5f);
}
