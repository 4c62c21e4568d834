// Chapter 04: transposes in OpenCL C. out is height x width: out(y, x) = in(x, y).
//
// A transpose reads rows and writes columns. Done naively, one of the two is
// uncoalesced: neighbouring work-items read neighbouring values of a row but
// write values a whole output row apart. The tiled kernels read a tile of
// the input row by row into local memory, wait for the whole group, then
// write the tile's columns as rows of the output: both global accesses are
// coalesced, and the strided access moves into local memory, where it costs
// bank conflicts instead of memory transactions.
//
// Built with -D IN_T=uchar|float -D OUT_T=uchar|float -D ROUND_TO_BYTE=0|1
// (1: float in, 8-bit out, rounded half up: the last transpose of chapter
// 04's pipeline). Tiled kernels also take -D TILE=16 -D PAD=0|1 -D SKEW=0|1.
// Every kernel works for any width and height: items outside the image do
// not load or store, but still reach the barrier.

#ifndef IN_T
#error "build with -D IN_T=... -D OUT_T=... -D ROUND_TO_BYTE=..."
#endif

#if ROUND_TO_BYTE
#define CONVERT(v) convert_uchar_sat((v) + 0.5f)
#else
#define CONVERT(v) ((OUT_T)(v))
#endif

// Naive: item (x, y) reads in(x, y) and writes out(y, x). The reads of a
// warp are consecutive; its writes are out_pitch elements apart.
__kernel void transpose_naive(__global const IN_T* in, int in_pitch,
                              __global OUT_T* out, int out_pitch,
                              int width, int height)
{
    const int x = get_global_id(0);
    const int y = get_global_id(1);
    if (x < width && y < height) {
        out[x * out_pitch + y] = CONVERT(in[y * in_pitch + x]);
    }
}

#ifdef TILE
// One TILE x TILE tile per group of TILE x TILE items (Apple's transposeL,
// with bounds checks). PAD = 1 adds a column to the local tile, so that the
// column read below touches TILE different banks instead of a few. SKEW = 1
// visits the tiles in diagonal order (Apple's transposeLS).
__kernel __attribute__((reqd_work_group_size(TILE, TILE, 1)))
void transpose_tiled(__global const IN_T* in, int in_pitch,
                     __global OUT_T* out, int out_pitch,
                     int width, int height)
{
    __local IN_T tile[TILE][TILE + PAD];
    const int group_x = get_group_id(0);
#if SKEW
    // Diagonal block order: group (gx, gy) takes tile row (gy + gx) mod
    // groups(1). Consecutive groups then read and write different rows of
    // tiles, spread over more DRAM partitions at once (a remedy for
    // "partition camping"; it does nothing for bank conflicts).
    const int group_y = (get_group_id(1) + group_x) % get_num_groups(1);
#else
    const int group_y = get_group_id(1);
#endif
    const int lx = get_local_id(0);
    const int ly = get_local_id(1);

    // EXERCISE: load the tile: item (lx, ly) copies its input pixel into tile[ly][lx], if it is in the image
    // Load: row ly of the tile from input row group_y*TILE + ly, coalesced.
    const int x = group_x * TILE + lx;
    const int y = group_y * TILE + ly;
    if (x < width && y < height) {
        tile[ly][lx] = in[y * in_pitch + x];
    }
    // END EXERCISE
    // EXERCISE: no item may read the tile before every item of the group has loaded its value
    // Every item's load must land before any item reads a column of the
    // tile: the column holds values that other items loaded.
    barrier(CLK_LOCAL_MEM_FENCE);
    // END EXERCISE

    // EXERCISE: store the tile transposed: consecutive lx write consecutive values of an output row
    // Store: output row group_x*TILE + ly is input column group_x*TILE + ly,
    // whose values sit in column ly of the tile. Items with consecutive lx
    // write consecutive output values (coalesced) and read tile[lx][ly],
    // TILE + PAD elements apart in local memory.
    const int out_x = group_y * TILE + lx;
    const int out_y = group_x * TILE + ly;
    if (out_x < height && out_y < width) {
        out[out_y * out_pitch + out_x] = CONVERT(tile[lx][ly]);
    }
    // END EXERCISE
}
#endif

// 32 x 8 items over a 32 x 32 tile (padded to 33 columns): each item moves
// four values, 8 rows apart, so a group has fewer items (256) than values
// (1024), and every warp's loads and stores are 32 consecutive values.
__kernel __attribute__((reqd_work_group_size(32, 8, 1)))
void transpose_32x8(__global const IN_T* in, int in_pitch,
                    __global OUT_T* out, int out_pitch,
                    int width, int height)
{
    __local IN_T tile[32][33];
    const int lx = get_local_id(0);
    const int ly = get_local_id(1);
    const int x = get_group_id(0) * 32 + lx;
    for (int j = 0; j < 32; j += 8) {
        const int y = get_group_id(1) * 32 + ly + j;
        if (x < width && y < height) {
            tile[ly + j][lx] = in[y * in_pitch + x];
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    const int out_x = get_group_id(1) * 32 + lx;
    for (int j = 0; j < 32; j += 8) {
        const int out_y = get_group_id(0) * 32 + ly + j;
        if (out_x < height && out_y < width) {
            out[out_y * out_pitch + out_x] = CONVERT(tile[lx][ly + j]);
        }
    }
}
