// Chapter 10: one pass in registers, in OpenCL C. Read blur_ring.cu's
// opening comment first: this is the same strip algorithm with one difference.
//
// OpenCL 1.2 has no warp shuffles (and NVIDIA's driver offers no subgroup
// shuffle extension), so a work-item cannot borrow its neighbours' vertical
// sums. Swapping them through local memory costs a barrier per row, and
// barriers inside an unrolled row loop also make CPU implementations (PoCL)
// take minutes to compile. So each work-item loads and sums the R halo
// pixels on each side itself: for gray, 16 + 4 = 20 columns of vertical sums
// for 16 outputs (25% more arithmetic than CUDA's); for RGBA, 4 + 4 pixels
// for 4 outputs (twice the vertical arithmetic), which RGBA's larger byte
// count per pixel can afford. This strip kernel serves radius 1 and 2; larger
// radii use the tile kernel at the end of the file.
//
// Built with -D CHANNELS=<1|4> -D RADIUS=<r> -D PX=<pixels per item>
// -D ROWS=<output rows per item> -D AHEAD=<rows loaded ahead>, and
// -D TILE=<side> for the tile kernel.

#ifndef CHANNELS
#error "build with -D CHANNELS=1 (gray) or 4 (RGBA)"
#endif

#define TAPS (2 * RADIUS + 1)
#define BLURRED (CHANNELS == 4 ? 3 : 1)  /* RGBA carries alpha */

/* Layout shared with the host: struct GaussTaps in common/include/gauss/blur.hpp. */
typedef struct {
    float w[33];
} GaussTaps;

/* A byte of a 32-bit word as a float: 0x4B0000bb is the float 2^23 + bb. */
inline float byte_to_float(uint word, int byte)
{
    return as_float(0x4B000000u | ((word >> (8 * byte)) & 0xFFu)) - 8388608.0f;
}

/* floor(s + 0.5) for 0 <= s < 255.5, the reference's rounding (half up).
 * OpenCL C 1.2 has no add in round-down mode (CUDA's __fadd_rd, which the
 * CUDA kernel uses with 2^23); adding 2^23 in the default mode would round
 * ties to even, one level below the reference wherever the float sum lands
 * exactly on k + 0.5. So: add 0.5 (exact here) and truncate, one conversion. */
inline uint round_to_low_byte(float s)
{
    return convert_uint_rtz(s + 0.5f);
}

#if defined(PX) && RADIUS <= 2
/* The halo a work-item loads on each side: one word (gray, 4 pixels) or two
 * (RGBA, 2 pixels), of which it uses the RADIUS nearest pixels. */
#define HALO_PX (CHANNELS == 4 ? 2 : 4)
#define SPAN (PX + 2 * RADIUS)          /* pixels whose vertical sums an item needs */
#define WORDS (PX * CHANNELS / 4)
#define HALO_WORDS (HALO_PX * CHANNELS / 4)
#define ALL_WORDS (WORDS + 2 * HALO_WORDS)

/* Pixel q of the span (0 .. SPAN-1), channel c, as a byte position in the
 * loaded words: the left halo words, the item's own, the right halo words. */
#define SPAN_BYTE(q, c) (((q) + HALO_PX - RADIUS) * CHANNELS + (c))

/* Raw rows alive at once: the AHEAD in flight, the one being converted and,
 * for RGBA, the R rows back to the row whose alpha is stored; rounded up to
 * whole rings of TAPS rows. */
#define KEEP (AHEAD + 1 + (CHANNELS == 4 ? RADIUS : 0))
#define RAW ((KEEP + TAPS - 1) / TAPS * TAPS)

/* Loads row r (clamped to the image) of the span of the item at x0 into
 * ALL_WORDS words: HALO_PX pixels left of x0, PX pixels, HALO_PX right. */
inline void load_row(__global const uchar* restrict in, int width, int height, int pitch, int x0, int r,
                     bool vector_io, uint* words)
{
    __global const uchar* row = in + clamp(r, 0, height - 1) * pitch;
    if (vector_io) {
        __global const uchar* first = row + (x0 - HALO_PX) * CHANNELS;
#if CHANNELS == 4
        const uint2 l = *(__global const uint2*)first;
        const uint4 m = *(__global const uint4*)(first + 8);
        const uint2 h = *(__global const uint2*)(first + 24);
        words[0] = l.x; words[1] = l.y;
        words[2] = m.x; words[3] = m.y; words[4] = m.z; words[5] = m.w;
        words[6] = h.x; words[7] = h.y;
#else
        words[0] = *(__global const uint*)first;
        const uint4 m = *(__global const uint4*)(first + 4);
        words[1] = m.x; words[2] = m.y; words[3] = m.z; words[4] = m.w;
        words[5] = *(__global const uint*)(first + 20);
#endif
    } else {
#pragma unroll
        for (int k = 0; k < ALL_WORDS; ++k) {
            words[k] = 0;
        }
#pragma unroll
        for (int p = 0; p < PX + 2 * HALO_PX; ++p) {
            const int x = clamp(x0 - HALO_PX + p, 0, width - 1);  /* clamp-to-edge */
#pragma unroll
            for (int b = 0; b < CHANNELS; ++b) {
                const int byte = p * CHANNELS + b;
                words[byte / 4] |= (uint)row[x * CHANNELS + b] << (8 * (byte % 4));
            }
        }
    }
}

__kernel void blur_strip(__global const uchar* restrict in,
                         __global uchar* restrict out,
                         int width,
                         int height,
                         int pitch,
                         int aligned,
                         GaussTaps taps)
{
    const int x0 = get_global_id(0) * PX;    /* this item's first pixel */
    const int y0 = get_global_id(1) * ROWS;  /* its first output row */
    if (x0 >= width || y0 >= height) {
        return;
    }
    /* Items whose words lie wholly inside the row load vectors; the others
     * (image edges, unaligned rows) load clamped bytes. */
    const bool vector_io = aligned && x0 >= HALO_PX && x0 + PX + HALO_PX <= width;

    float w[TAPS];
#pragma unroll
    for (int k = 0; k < TAPS; ++k) {
        w[k] = taps.w[k];
    }
    /* Rows are loaded AHEAD rows before they are used, so that each item keeps
     * several DRAM requests in flight. Two rings: the last 2R+1 rows converted
     * (ring, slot i % TAPS) and the rows as loaded (raw, slot i % RAW), deep
     * enough for the rows in flight and, for RGBA, for the row whose alpha is
     * stored (R rows back). The row loop is unrolled RAW times, a multiple of
     * TAPS, so slot indices are constants and both rings stay in registers. */
    float ring[TAPS][SPAN][BLURRED];
    uint raw[RAW][ALL_WORDS];
#pragma unroll
    for (int i = 0; i < AHEAD; ++i) {
        load_row(in, width, height, pitch, x0, y0 - RADIUS + i, vector_io, raw[i]);
    }

    for (int base = 0; base < ROWS + 2 * RADIUS; base += RAW) {
#pragma unroll
        for (int j = 0; j < RAW; ++j) {
            const int i = base + j;
            if (i >= ROWS + 2 * RADIUS) {
                break;
            }
            /* Start loading row i + AHEAD; convert row i, loaded earlier. */
            if (i + AHEAD < ROWS + 2 * RADIUS) {
                load_row(in, width, height, pitch, x0, y0 - RADIUS + i + AHEAD, vector_io, raw[(j + AHEAD) % RAW]);
            }
#pragma unroll
            for (int q = 0; q < SPAN; ++q) {
#pragma unroll
                for (int c = 0; c < BLURRED; ++c) {
                    ring[j % TAPS][q][c] = byte_to_float(raw[j][SPAN_BYTE(q, c) / 4], SPAN_BYTE(q, c) % 4);
                }
            }
            if (i < 2 * RADIUS) {
                continue;  /* the first 2R rows only fill the ring */
            }

            /* Output row y: vertical sums over input rows i - 2R .. i, for
             * every pixel of the span. */
            const int y = y0 + i - 2 * RADIUS;
            float v[SPAN][BLURRED];
#pragma unroll
            for (int q = 0; q < SPAN; ++q) {
#pragma unroll
                for (int c = 0; c < BLURRED; ++c) {
                    // EXERCISE: v[q][c], the weighted sum of span pixel q over input rows i - 2R .. i, from the ring
                    /* Those rows sit in slots (j + 1 + k) % (2R+1), k = 0 .. 2R. */
                    float s = w[0] * ring[(j + 1) % TAPS][q][c];
#pragma unroll
                    for (int k = 1; k < TAPS; ++k) {
                        s = fma(w[k], ring[(j + 1 + k) % TAPS][q][c], s);
                    }
                    v[q][c] = s;
                    // STARTER:
                    // v[q][c] = ring[j % TAPS][q][c];  /* row i alone, unweighted */
                    // END EXERCISE
                }
            }

            /* Horizontal sums, rounded, packed. */
            uint packed[WORDS];
#pragma unroll
            for (int p = 0; p < PX; ++p) {
                uint b[BLURRED];
#pragma unroll
                for (int c = 0; c < BLURRED; ++c) {
                    float s = 0.0f;
#pragma unroll
                    for (int k = 0; k < TAPS; ++k) {
                        s = fma(w[k], v[p + k][c], s);
                    }
                    b[c] = round_to_low_byte(s);
                }
#if CHANNELS == 4
                /* Alpha from input row i - R, the output row: raw slot (j - R) % RAW. */
                const uint alpha = raw[(j + RAW - RADIUS) % RAW][HALO_WORDS + p] & 0xFF000000u;
                packed[p] = b[0] | (b[1] << 8) | (b[2] << 16) | alpha;
#else
                if (p % 4 == 0) {
                    packed[p / 4] = b[0];
                } else {
                    packed[p / 4] |= b[0] << (8 * (p % 4));
                }
#endif
            }

            if (y < height) {
                __global uchar* dst = out + y * pitch + x0 * CHANNELS;
                if (vector_io) {
                    *(__global uint4*)dst = (uint4)(packed[0], packed[1], packed[2], packed[3]);
                } else {
                    for (int p = 0; p < PX && x0 + p < width; ++p) {
                        for (int b = 0; b < CHANNELS; ++b) {
                            const int byte = p * CHANNELS + b;
                            dst[p * CHANNELS + b] = (uchar)(packed[byte / 4] >> (8 * (byte % 4)));
                        }
                    }
                }
            }
        }
    }
}
#endif

#ifdef TILE
/* The tile kernel, for radii above 2: a TILE x TILE work-group computes a
 * TILE x TILE tile. It stages the tile and its halo in local memory as
 * floats (each byte converted once), sums vertically into a second local
 * array, then horizontally. Two barriers, outside any loop. */
#define TSPAN (TILE + 2 * RADIUS)

__kernel __attribute__((reqd_work_group_size(TILE, TILE, 1)))
void blur_tile(__global const uchar* restrict in,
               __global uchar* restrict out,
               int width,
               int height,
               int pitch,
               GaussTaps taps)
{
    __local float tile[TSPAN][TSPAN][BLURRED];
    __local float vertical[TILE][TSPAN][BLURRED];
    const int tx = get_local_id(0);
    const int ty = get_local_id(1);
    const int x_base = get_group_id(0) * TILE;
    const int y_base = get_group_id(1) * TILE;

    /* Nested strided loops rather than one flattened index with / and %:
     * the same work, and no division per pixel. */
    for (int sy = ty; sy < TSPAN; sy += TILE) {
        const int y = clamp(y_base + sy - RADIUS, 0, height - 1);
        for (int sx = tx; sx < TSPAN; sx += TILE) {
            const int x = clamp(x_base + sx - RADIUS, 0, width - 1);
            __global const uchar* p = in + y * pitch + x * CHANNELS;
            for (int c = 0; c < BLURRED; ++c) {
                tile[sy][sx][c] = (float)p[c];
            }
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);  /* every item reads pixels others converted */

    /* Vertical sums for the tile's TILE rows and all TSPAN columns. */
    for (int vx = tx; vx < TSPAN; vx += TILE) {
        for (int c = 0; c < BLURRED; ++c) {
            // EXERCISE: vertical[ty][vx][c], the weighted sum of column vx over the 2R+1 tile rows around output row ty
            float s = 0.0f;
            for (int k = 0; k < TAPS; ++k) {
                s = fma(taps.w[k], tile[ty + k][vx][c], s);
            }
            vertical[ty][vx][c] = s;
            // STARTER:
            // vertical[ty][vx][c] = tile[ty][vx][c];  /* one row, unweighted */
            // END EXERCISE
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);  /* the horizontal pass reads the neighbours' sums */

    const int x = x_base + tx;
    const int y = y_base + ty;
    if (x >= width || y >= height) {
        return;  /* after the last barrier: safe */
    }
    __global uchar* dst = out + y * pitch + x * CHANNELS;
    for (int c = 0; c < BLURRED; ++c) {
        float s = 0.0f;
        for (int k = 0; k < TAPS; ++k) {
            s = fma(taps.w[k], vertical[ty][tx + k][c], s);
        }
        dst[c] = (uchar)round_to_low_byte(s);
    }
#if CHANNELS == 4
    dst[3] = in[y * pitch + x * CHANNELS + 3];  /* alpha is carried through */
#endif
}
#endif
