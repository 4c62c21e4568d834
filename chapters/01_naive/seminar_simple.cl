// Chapter 01: the Fixstars seminar's first GPU kernel ("Simple"), ported to
// OpenCL C as published, to be timed beside our naive kernel.
//
// Its shape, kept as it was: one work-item per output pixel in 32x32
// work-groups, the 5x5 weights as a table of literals in each item's private
// memory, fixed 5x5 loops, and a "valid" convolution: output (x, y) sums the
// input pixels (x..x+4, y..y+4), with no clamping, for x < width and
// y < height. The host hands it the image padded by 2 pixels on every side
// (copies of the edge pixels), so that this output is our centred,
// clamp-to-edge blur (common/include/gauss/seminar.hpp says how and why).
//
// What our naive kernel does that this one does not: clamp every tap's row
// and column to the image, and read its weights from a kernel argument. With
// loops of known length and indices known when compiling, the compiler folds
// every weight of this table into the multiply instructions as an immediate.
//
// The one change to the seminar's code: the output has its own row pitch
// (dst_step), since the padded input's rows are 4 pixels longer.

__kernel void seminar_simple(__global const uchar* src,
                             __global uchar* dst,
                             int width,     // the output's width: the padded input's, less 4
                             int height,    // the output's height
                             int src_step,  // bytes from one padded input row to the next
                             int dst_step)  // bytes from one output row to the next
{
    // The 2-D Gaussian, sigma 1: entry [i][j] is w[i] * w[j] with
    // w = 0.054488685, 0.244201342, 0.402619947, 0.244201342, 0.054488685.
    const float table[5][5] = {
        {0.002969017f, 0.01330621f, 0.021938231f, 0.01330621f, 0.002969017f},
        {0.01330621f, 0.059634295f, 0.098320331f, 0.059634295f, 0.01330621f},
        {0.021938231f, 0.098320331f, 0.162102822f, 0.098320331f, 0.021938231f},
        {0.01330621f, 0.059634295f, 0.098320331f, 0.059634295f, 0.01330621f},
        {0.002969017f, 0.01330621f, 0.021938231f, 0.01330621f, 0.002969017f},
    };

    const int x = get_global_id(0);
    const int y = get_global_id(1);
    if (x < width && y < height) {
        float sum = 0.0f;
        for (int dy = 0; dy < 5; ++dy) {
            for (int dx = 0; dx < 5; ++dx) {
                sum += table[dy][dx] * src[(x + dx) + (y + dy) * src_step];
            }
        }
        // Round half up, as the seminar did: truncate sum + 0.5 (at most 255:
        // the weights sum to 1).
        dst[x + y * dst_step] = (int)(sum + 0.5f);
    }
}
