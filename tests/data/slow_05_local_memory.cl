// A correct but slow answer to chapter 05's exercise, for the grader's own
// test (tests/CMakeLists.txt, 05_local_memory.speed.slow): the kernel and
// arguments of chapter 05's blur_staged.cl, launched the same way (32 x 8
// groups, each owning 128 x TILE_ROWS output pixels, 4 columns and
// TILE_ROWS / 8 rows per item), but each pixel is computed like chapter 01's:
// (2R+1)^2 taps read from global memory, no local memory. Its outputs match
// the reference; on a GPU it takes several times the solution's time, so the
// grader must say that it misses the step's target.

#if !defined(RADIUS) || !defined(TILE_ROWS)
#error "build with -D RADIUS=<radius> -D TILE_ROWS=<64 or 32>"
#endif
#define TAPS (2 * RADIUS + 1)

typedef struct {
    float w[33];
} GaussTaps;

__kernel __attribute__((reqd_work_group_size(32, 8, 1)))
void blur_staged(__global const uchar* in,
                 __global uchar* out,
                 int width,
                 int height,
                 int pitch,
                 GaussTaps taps,
                 int aligned)  // unused: every store is a byte
{
    const int x0 = get_group_id(0) * 128 + 4 * get_local_id(0);
    const int rows = TILE_ROWS / 8;
    const int y0 = get_group_id(1) * TILE_ROWS + get_local_id(1) * rows;
    for (int j = 0; j < rows; ++j) {
        const int y = y0 + j;
        for (int k = 0; k < 4; ++k) {
            const int x = x0 + k;
            if (x >= width || y >= height) {
                continue;
            }
            float sum = 0.0f;
            for (int dy = -RADIUS; dy <= RADIUS; ++dy) {
                const int sy = clamp(y + dy, 0, height - 1);
                for (int dx = -RADIUS; dx <= RADIUS; ++dx) {
                    const int sx = clamp(x + dx, 0, width - 1);
                    sum += taps.w[dy + RADIUS] * taps.w[dx + RADIUS] * (float)in[sy * pitch + sx];
                }
            }
            out[y * pitch + x] = convert_uchar_sat(sum + 0.5f);
        }
    }
}
