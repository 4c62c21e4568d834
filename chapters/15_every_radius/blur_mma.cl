// Chapter 15: every radius on the tensor cores, in OpenCL C (blur_mma.cu is
// the same kernel in CUDA; read its opening comment first).
//
// A blur is two banded matrix products. Along a row, out[x] = sum_k w[k]
// in[x - R + k]: a 16 x 16 band of weights times 16 input columns of 8 rows
// gives 16 outputs of each row (transposed: 16 columns x 8 rows), one
// mma.sync on the tensor cores, two or more such steps covering the 16 + 2R
// columns (the last 8 wide where 8 are enough: m16n8k8). Down a column, a
// 16 x 16 band of weights times 16 rows of those sums (the last step 8 rows,
// likewise). Per tile of TH x TW output pixels a work-group
//  1. stores the tile's input bytes and their halo, which its items loaded
//     into registers during the tile before, into local memory as planes
//     (RGBA: one plane per channel), and loads its next tile's;
//  2. horizontal pass: half-float weights times the input bytes, each made
//     the half 1024 + b by a byte permute (exact), float sums that start at
//     -1024 x the weights' sum; each sum becomes a half float, and the
//     halves, as the products leave them in a lane's registers, are the
//     vertical pass's operand: they never go through local memory;
//  3. vertical pass: the band of half-float weights times the halves, float
//     sums (f16 products are exact in float), rounded half up to a byte.
// blur_mma_plan.hpp quantises the weights and bounds the error (< 1 level).
//
// With -D NV_PTX the matrix products are the PTX instruction mma.sync.
// Without it (PoCL, Oclgrind) they are emulated, each lane writing its
// fragments to local memory and reading back what it needs, exactly as the
// PTX ISA lays the fragments out: the same data paths, checked on the CPU,
// slowly. The portable fast path for other GPUs is the float kernel at the
// end of this file (blur_tiles_f32).
//
// -D RADIUS=<1..16> -D CHANNELS=<1|4> -D TH=<output rows per tile>
// -D TW=<128: blur_mma; 64: blur_tiles_f32> -D WARPS=8 [-D NV_PTX] [-D SERIAL]
// [-D SHIFTED_ROWS].
// Global size (32 x groups, WARPS); each group loops over tiles.

#ifndef RADIUS
#error "build with -D RADIUS=<1..16>"
#endif
#define TAPS (2 * RADIUS + 1)
#define THREADS (32 * WARPS)
#define PLANES (CHANNELS == 4 ? 3 : 1)
/* Columns: a tile's plane starts 16 columns left of its first output column
 * x0 (a 16-byte boundary of the image). The 16 outputs x0 + 16w .. of warp w
 * take their inputs from plane column 16w + OFFSET on, which the warp reads
 * from the 4-byte boundary START + 16w, SHIFT columns earlier. */
#define OFFSET (16 - RADIUS)
#define START (OFFSET & ~3)
#define SHIFT (OFFSET & 3)
#define SPAN (SHIFT + 16 + 2 * RADIUS)          /* the columns a warp reads */
#define KH ((SPAN + 15) / 16)                   /* column steps of the horizontal pass (TAIL8_H: the last 8) */
#define READ_COLS (16 * KH)
#define RAW_COLS ((TW - 16 + START + READ_COLS + 15) / 16 * 16) /* bytes per plane row */
/* An odd number of 16-byte chunks per row: the 8 rows a warp's loads read at once fall in different banks. */
#define RAW_STRIDE ((RAW_COLS / 16) % 2 ? RAW_COLS : RAW_COLS + 16)
#define LOAD_ROWS (TH + 2 * RADIUS)             /* the rows a tile reads */
#define GROUPS ((LOAD_ROWS + 7) / 8)            /* 8-row groups of the horizontal pass */
#define RAW_ROWS (8 * GROUPS)                   /* past LOAD_ROWS: never loaded, weight 0 (below) */
#define KV ((16 + 2 * RADIUS + 15) / 16)        /* row steps of the vertical pass (TAIL8_V: the last 8) */
/* Where a pass's last step needs at most 8 columns (rows), it is an m16n8k8
 * product: half the tensor cores' work of a 16-wide step. */
#define TAIL8_H (SPAN - 16 * (KH - 1) <= 8)
#define TAIL8_V (16 + 2 * RADIUS - 16 * (KV - 1) <= 8)
#define BAND_GROUPS (2 * KV - (TAIL8_V ? 1 : 0))          /* 8-row groups a band of 16 rows reads */
#define GROUPS_READ (2 * (TH / 16 - 1) + BAND_GROUPS) /* groups the vertical pass reads; past GROUPS: zero */
#define OUT_STRIDE (TW * CHANNELS)              /* bytes per staged output row (blur_tiles_f32) */
#define MMA_OUT_STRIDE (TW * CHANNELS + 16)     /* blur_mma's, padded: a warp's stores in different banks */
#if WARPS != 8 || TH % 16 != 0 || (TW != 16 * WARPS && TW != 64)
#error "WARPS = 8, TH a multiple of 16, TW = 128 (blur_mma) or 64 (blur_tiles_f32)"
#endif
/* The group's local memory, as byte offsets into one array: the planes, then
 * the staged output. With the tiles opencl_setup asks for (blur_mma_plan.hpp:
 * RGBA 16 rows high, 32 serial where 48 KB hold them, to radius 12) it fits
 * 48 KB; CUDA's 32-row RGBA tiles stage their output over the planes from
 * radius 9 (blur_mma.cu, Tile::kOutOverRaw), which this kernel never needs:
 * it writes the output pixels' alpha straight into the staged pixels. */
#define RAW_BYTES (PLANES * RAW_ROWS * RAW_STRIDE)
#define OUT_OFFSET RAW_BYTES
#define SMEM_BYTES (OUT_OFFSET + TH * MMA_OUT_STRIDE)

/* Loops unrolled for the GPU (register arrays indexed by constants); the
 * emulation's loops hold barriers, which the CPU compilers split the kernel
 * at: unrolled, they take minutes to compile, so there they stay loops. */
#ifdef NV_PTX
#define UNROLL _Pragma("unroll")
#define UNROLL_BY_4 _Pragma("unroll 4")
#else
#define UNROLL
#define UNROLL_BY_4
#endif

/* A lane's group (lane >> 2) and its place in the group (lane & 3), as the
 * PTX ISA names them groupID and threadID_in_group: shifts rather than / 4 and
 * % 4, whose signed pair LLVM rewrites with a "freeze" that Oclgrind's check
 * of uninitialised values cannot run. */

/* Layout shared with the host (blur_mma_plan.hpp): the quantised weights. */
typedef struct {
    uint v16[33]; /* the weights as half-float bits (both passes) */
    float bias;   /* -1024 x their sum: where the horizontal sums start */
} MmaWeights;

/* The persistent grid's walk over the tiles (blur_mma_plan.hpp): group b of G
 * takes tiles b, b + G, ... in row-major order; from one to the next the
 * column steps by G % tiles_x and the row by G / tiles_x, so no tile divides. */
typedef struct {
    int tiles_x, tiles_y;
    int step_x, step_y;
} TileWalk;

inline void next_tile(const TileWalk* walk, int* tx, int* ty)
{
    *tx += walk->step_x;
    *ty += walk->step_y;
    if (*tx >= walk->tiles_x) {
        *tx -= walk->tiles_x;
        ++*ty;
    }
}

inline uint byte_of(uint word, int k)
{
    return (word >> (8 * k)) & 0xFFu;
}

/* ---- The warp-level matrix instructions: PTX, or their emulation ----------------- */
#ifdef NV_PTX
#define SCRATCH_PARAM
#define SCRATCH_ARG
/* D = A B + D: 16x16 f16 times 16x8 f16, float sums. */
inline void mma_f16(float* d, const uint* a, const uint* b)
{
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
                 "{%0,%1,%2,%3};"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}
/* The same with k = 8: A 16x8 (a0 row g, a1 row g+8; k 2t, 2t+1), B 8x8 (b0: k 2t, 2t+1; column g). */
inline void mma_f16_k8(float* d, const uint* a, uint b)
{
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%0,%1,%2,%3};"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(b));
}
inline uint pack_halves(float lo, float hi)
{
    uint d;
    asm("cvt.rn.f16x2.f32 %0, %1, %2;" : "=r"(d) : "f"(hi), "f"(lo));
    return d;
}
/* Bytes 0 and 1 (part 0) or 2 and 3 (part 1) of @p bytes as two halves 1024 + b: bits 0x64, b. */
inline uint bytes_as_halves(uint bytes, int part)
{
    uint d;
    asm("prmt.b32 %0, %1, 0x64646464, %2;" : "=r"(d) : "r"(bytes), "r"(part ? 0x5342 : 0x5140));
    return d;
}
#else
/* Emulation: each lane's registers go to the warp's scratch in local memory
 * (8 words a lane), one barrier, then every lane reads the elements its
 * outputs need from their owners, as the PTX ISA lays the fragments out, and
 * a barrier before the scratch is used again. Every lane of the group calls
 * these together (they hold the group's barrier). */
#define SCRATCH_PARAM , __local uint* scratch
#define SCRATCH_ARG , scratch
inline float half_to_float(uint bits)
{
    const uint sign = (bits & 0x8000u) << 16;
    const uint exponent = (bits >> 10) & 0x1Fu;
    const uint mantissa = bits & 0x3FFu;
    if (exponent == 0) {
        return (sign ? -1.0f : 1.0f) * (float)mantissa * 0x1.0p-24f;
    }
    return as_float(sign | (exponent + 112u) << 23 | mantissa << 13);
}
inline uint float_to_half(float f) /* to nearest, ties to even */
{
    const uint x = as_uint(f);
    const uint sign = (x >> 16) & 0x8000u;
    const int exponent = (int)((x >> 23) & 0xFFu) - 112;
    uint mantissa = x & 0x7FFFFFu;
    if (exponent >= 31) {
        return sign | 0x7C00u;
    }
    int shift = 13;
    uint h = sign | (uint)max(exponent, 0) << 10;
    if (exponent <= 0) {
        if (exponent < -10) {
            return sign;
        }
        mantissa |= 0x800000u;
        shift = 14 - exponent;
    }
    h |= mantissa >> shift;
    const uint rest = mantissa & ((1u << shift) - 1u);
    const uint halfway = 1u << (shift - 1);
    if (rest > halfway || (rest == halfway && (h & 1u))) {
        ++h;
    }
    return h;
}
inline uint pack_halves(float lo, float hi)
{
    return float_to_half(lo) | float_to_half(hi) << 16;
}
#define LANE_WORDS 8
inline __local uint* my_scratch(__local uint* scratch)
{
    return scratch + (get_local_id(1) * 32 + get_local_id(0)) * LANE_WORDS;
}
inline uint bytes_as_halves(uint bytes, int part)
{
    const uint pair = part ? bytes >> 16 : bytes;
    return 0x64006400u | (pair & 0xFFu) | (pair & 0xFF00u) << 8;
}
/* D = A B + D with K = 16 (a lane's A in 4 registers, its B in 2) or K = 8
 * (2 and 1: the first registers of the same layout). */
inline void mma_emulated(float* d, const uint* a, const uint* b, int k_size, __local uint* scratch)
{
    __local uint* mine = my_scratch(scratch);
    for (int r = 0; r < k_size / 4; ++r) {
        mine[r] = a[r];
    }
    for (int r = 0; r < k_size / 8; ++r) {
        mine[4 + r] = b[r];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    __local const uint* warp = scratch + get_local_id(1) * 32 * LANE_WORDS;
    const int lane = get_local_id(0);
    const int g = lane >> 2;
    const int t = lane & 3;
    for (int q = 0; q < 4; ++q) {
        const int row = g + 8 * (q / 2);
        const int col = 2 * t + (q % 2);
        float sum = 0.0f;
        for (int kk = 0; kk < k_size; ++kk) {
            /* A[row][kk]: lane 4 (row % 8) + (kk % 8) / 2, register (row >= 8) + 2 (kk >= 8), half kk % 2 */
            const uint a_word = warp[(4 * (row % 8) + (kk % 8) / 2) * LANE_WORDS + (row >= 8) + 2 * (kk >= 8)];
            /* B[kk][col]: lane 4 col + (kk % 8) / 2, register kk >= 8, half kk % 2 */
            const uint b_word = warp[(4 * col + (kk % 8) / 2) * LANE_WORDS + 4 + (kk >= 8)];
            sum += half_to_float(a_word >> (16 * (kk % 2))) * half_to_float(b_word >> (16 * (kk % 2)));
        }
        d[q] += sum;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
}
inline void mma_f16(float* d, const uint* a, const uint* b, __local uint* scratch)
{
    mma_emulated(d, a, b, 16, scratch);
}
inline void mma_f16_k8(float* d, const uint* a, uint b, __local uint* scratch)
{
    mma_emulated(d, a, &b, 8, scratch);
}
#endif

/* The group's local memory, at an address the compiler cannot know before the
 * tile: NVIDIA's compiler otherwise computes every local-memory address that is
 * the same for each tile once, before the tile loop, and holds them all the way
 * through, two registers each (its local pointers are 64-bit). The serial kernel
 * takes its addresses from this each tile; that keeps it within 128 registers at
 * radius 9-16 without spilling (README, section Why). */
#ifdef NV_PTX
inline __local uchar* fresh_local_address(__local uint4* words)
{
    size_t address = (size_t)words;
    asm volatile("mov.b64 %0, %0;" : "+l"(address));
    return (__local uchar*)address;
}
#else
#define fresh_local_address(words) ((__local uchar*)(words))
#endif

/* floor(v) of 0 <= v < 256 in the low byte (the rest: other bits). The
 * vertical sums start at 0.5, so this is the blur rounded half up; the error
 * bound (below 1/2) keeps v within [0, 256), so no saturation is needed. On
 * the GPU, 2^23 + v rounded down, whose float bits end in floor(v). */
#ifdef NV_PTX
inline uint rounded_bits(float v)
{
    float r;
    asm("add.rm.f32 %0, %1, 0f4B000000;" : "=f"(r) : "f"(v));
    return as_uint(r);
}
#else
inline uint rounded_bits(float v)
{
    return (uint)floor(v);
}
#endif

/* ---- The weights' bands, as each lane holds them ---------------------------------- */
/* The horizontal band, the A operand: A[m][k] = v[16 ks + col(k) - SHIFT - m]
 * (output column m of the warp's 16, input column col(k) of the step's 16; 0
 * outside 0..2R), half floats. The order of k within a product is the
 * kernel's to choose, so long as A and B agree: k = 2t + h is column 4t + h,
 * k = 2t + 8 + h column 4t + 2 + h, so that the B fragment (b0: k 2t, 2t+1;
 * b1: k 2t+8, 2t+9) is the 4 bytes of row g at column 4t. Lane (g, t) holds
 * register reg: m = g + 8 (reg % 2), columns 4t + 2 (reg / 2), +1. */
inline uint band_horizontal(__constant const MmaWeights* w, int ks, int reg, int g, int t)
{
    /* An 8-column step (the last, TAIL8_H) takes its columns in order: k = 2t + h is column 2t + h. */
    const bool tail8 = TAIL8_H && ks == KH - 1;
    const int m = g + 8 * (reg % 2);
    uint word = 0;
    for (int h = 0; h < 2; ++h) {
        const int col = tail8 ? 2 * t + h : 4 * t + 2 * (reg / 2) + h;
        const int tap = 16 * ks + col - SHIFT - m;
        word |= ((tap >= 0 && tap < TAPS) ? w->v16[tap] : 0u) << (16 * h);
    }
    return word;
}
/* The vertical band, the A operand too: A[m][kk] = v[16 ks + kk - m]; lane (g, t) holds (row g,
 * kk 2t, 2t+1) in register 0, (row g+8, ...) in 1, (row g, kk 2t+8, +9) in 2,
 * (row g+8, ...) in 3, half floats. */
inline uint band_f16(__constant const MmaWeights* w, int ks, int reg, int g, int t)
{
    const int m = g + 8 * (reg % 2);
    uint word = 0;
    for (int h = 0; h < 2; ++h) {
        const int k = 16 * ks + 2 * t + 8 * (reg / 2) + h - m;
        word |= ((k >= 0 && k < TAPS) ? w->v16[k] : 0u) << (16 * h);
    }
    return word;
}

/* ---- The tile's input, as planes of bytes --------------------------------------------- */
/* 16 bytes at a time: gray, 16 pixels of a plane row; RGBA, 4 pixels, split
 * into the three planes (and the output pixels' alpha) when stored. Plane
 * rows are image rows y0 - R + r, plane columns image columns x0 - 16 + c,
 * both clamped to the image. The fill is two halves: load_tile brings a
 * tile's words into registers, store_tile writes them into local memory;
 * between the two the group computes the tile before, so the next tile's
 * loads are in flight during the arithmetic (unless -D SERIAL: fill, then
 * compute). */
#define WORD_PIXELS (16 / CHANNELS)
#define WORDS_PER_ROW (RAW_COLS / WORD_PIXELS)
#define TILE_WORDS (LOAD_ROWS * WORDS_PER_ROW)
#define LOADS ((TILE_WORDS + THREADS - 1) / THREADS) /* words an item holds */
/* RGBA in the tensor-core tiles (TW = 128), at every radius: tiles wholly inside
 * the image are filled and stored with no clamps or tests (blur_mma.cu's
 * kInsidePath, which CUDA takes from radius 7 only). On the H200, same run:
 * 1.09-1.11x faster at radius 2-6 (0.122 -> 0.111 ms at 2, 0.131 -> 0.118 at 4,
 * 0.139 -> 0.126 at 5), 1.03-1.06x at 7, 9 and 12. */
#define INSIDE_PATH (CHANNELS == 4 && TW == 16 * WARPS)
#if INSIDE_PATH && TH * TW * CHANNELS / 16 % THREADS != 0
#error "the inside path stores as many 16-byte chunks from every item"
#endif

/* A word of `row` from image column x on, each pixel clamped to the image (the
 * image's edges). A word wholly past an edge (the plane's 16 columns beyond it,
 * at every radius) is its edge pixel repeated: one pixel's load; a word across
 * the edge, 16 one-byte loads. */
inline uint4 load_clamped(__global const uchar* row, int x, int width)
{
    if (x + 16 / CHANNELS <= 0 || x >= width) {
        __global const uchar* edge = row + (x < 0 ? 0 : width - 1) * CHANNELS;
#if CHANNELS == 1
        const uint pixels = edge[0] * 0x01010101u; /* one pixel in each byte */
#else
        const uint pixels = edge[0] | (uint)edge[1] << 8 | (uint)edge[2] << 16 | (uint)edge[3] << 24;
#endif
        return (uint4)(pixels, pixels, pixels, pixels);
    }
    uint bytes[4] = {0, 0, 0, 0};
    for (int i = 0; i < 16; ++i) {
        bytes[i / 4] |= (uint)row[clamp(x + i / CHANNELS, 0, width - 1) * CHANNELS + i % CHANNELS] << (8 * (i % 4));
    }
    return (uint4)(bytes[0], bytes[1], bytes[2], bytes[3]);
}

#ifdef SHIFTED_ROWS
/* -D SHIFTED_ROWS: the kernel for images whose rows are not all 16-byte aligned
 * (a gray image of odd width, an RGBA one whose width is not a multiple of 4),
 * which would take 16 one-byte loads a word and 16 one-byte stores a chunk. A
 * kernel of its own so that the others stay as they are (in one kernel the
 * shifted fill cost 1.2-1.3x at some radii on the H200). */

/* The low 32 bits of (hi:lo) >> s, s in 0..31 (a funnel shift; hi's two shifts
 * keep each below 32). */
inline uint funnel_right(uint lo, uint hi, uint s)
{
    return (lo >> s) | ((hi << (31 - s)) << 1);
}

/* The 16 bytes at p from the five aligned 4-byte words over them, shifted into
 * place. It reads up to 4 bytes past the word: the caller checks that they lie
 * in the buffer. */
inline uint4 load_shifted(__global const uchar* p)
{
    const uint offset = (uint)((size_t)p & 3);
    __global const uint* base = (__global const uint*)(p - offset);
    const uint w0 = base[0], w1 = base[1], w2 = base[2], w3 = base[3], w4 = base[4];
    const uint s = 8 * offset;
    return (uint4)(funnel_right(w0, w1, s), funnel_right(w1, w2, s), funnel_right(w2, w3, s), funnel_right(w3, w4, s));
}

/* 16 bytes to p as 4-byte words where they fall on 4 bytes and single bytes at
 * the two ends (RGBA rows always start on 4 bytes: four words). */
inline void store_shifted(__global uchar* p, uint4 v)
{
    const uint w[4] = {v.x, v.y, v.z, v.w};
    const uint offset = (uint)((size_t)p & 3);
    if (offset == 0) {
        for (int k = 0; k < 4; ++k) {
            ((__global uint*)p)[k] = w[k];
        }
        return;
    }
    const uint head = 4 - offset; /* bytes before the first 4-byte boundary */
    for (uint i = 0; i < head; ++i) {
        p[i] = (uchar)(w[0] >> (8 * i));
    }
    __global uint* body = (__global uint*)(p + head);
    for (int k = 0; k < 3; ++k) {
        body[k] = funnel_right(w[k], w[k + 1], 8 * head);
    }
    for (uint i = 0; i < offset; ++i) {
        p[12 + head + i] = (uchar)(w[3] >> (8 * (head + i)));
    }
}
#endif

inline void load_tile(__global const uchar* restrict in, int width, int height, int pitch, int x0, int y0,
                      uint4* words)
{
    const int item = get_local_id(1) * 32 + get_local_id(0);
    const bool aligned = (pitch & 15) == 0 && ((size_t)in & 15) == 0;
#if INSIDE_PATH
    /* The tile and its halo inside the image, rows 16-byte aligned: one address a
     * word (the whole group takes the same branch). */
    if (aligned && x0 >= 16 && x0 - 16 + RAW_COLS <= width && y0 >= RADIUS && y0 - RADIUS + LOAD_ROWS <= height) {
        __global const uchar* corner = in + (y0 - RADIUS) * pitch + (x0 - 16) * CHANNELS;
UNROLL
        for (int n = 0; n < LOADS; ++n) {
            const int e = item + n * THREADS;
            if (e < TILE_WORDS) {
                const int r = e / WORDS_PER_ROW;
                const int c = (e - r * WORDS_PER_ROW) * WORD_PIXELS;
                words[n] = *(__global const uint4*)(corner + r * pitch + c * CHANNELS);
            }
        }
        return;
    }
#endif
#ifdef SHIFTED_ROWS
    /* load_shifted where its five words lie in the buffer (offsets from `in`,
     * which starts on 4 bytes; images are below 2^30 bytes); clamped bytes
     * elsewhere, as at the edges. */
    const int end = ((size_t)in & 3) == 0 ? (height - 1) * pitch + width * CHANNELS : 0;
#endif
UNROLL
    for (int n = 0; n < LOADS; ++n) {
        const int e = item + n * THREADS;
        if (e < TILE_WORDS) {
            const int r = e / WORDS_PER_ROW;
            const int c = (e - r * WORDS_PER_ROW) * WORD_PIXELS; /* plane column */
            __global const uchar* row = in + clamp(y0 - RADIUS + r, 0, height - 1) * pitch;
            const int x = x0 - 16 + c; /* image column of the word's first pixel */
            if (aligned && x >= 0 && x + WORD_PIXELS <= width) {
                words[n] = *(__global const uint4*)(row + x * CHANNELS);
#ifdef SHIFTED_ROWS
            } else if (x >= 0 && x + WORD_PIXELS <= width && (((int)(row - in) + x * CHANNELS) | 3) + 17 <= end) {
                words[n] = load_shifted(row + x * CHANNELS);
#endif
            } else {
                words[n] = load_clamped(row, x, width);
            }
        }
    }
}

inline void store_tile(const uint4* words, __local uchar* raw, __local uchar* alpha)
{
    const int item = get_local_id(1) * 32 + get_local_id(0);
UNROLL
    for (int n = 0; n < LOADS; ++n) {
        const int e = item + n * THREADS;
        if (e < TILE_WORDS) {
            const int r = e / WORDS_PER_ROW;
            const int c = (e - r * WORDS_PER_ROW) * WORD_PIXELS;
#if CHANNELS == 4
            const uint4 p = words[n];
            uint planes[4]; /* R, G, B and alpha, 4 pixels each */
            for (int k = 0; k < 4; ++k) {
                planes[k] = byte_of(p.x, k) | byte_of(p.y, k) << 8 | byte_of(p.z, k) << 16 | byte_of(p.w, k) << 24;
            }
            for (int k = 0; k < 3; ++k) {
                *(__local uint*)(raw + (k * RAW_ROWS + r) * RAW_STRIDE + c) = planes[k];
            }
            /* The output pixels' own alpha, carried through (blur_tiles_f32; blur_mma
             * stages it with the pixels: stage_alpha): rows R .. R + TH - 1, columns
             * 16 .. 16 + TW - 1 of the planes (a word lies wholly in or out). */
            if (alpha && r >= RADIUS && r < RADIUS + TH && c >= 16 && c < 16 + TW) {
                *(__local uint*)(alpha + (r - RADIUS) * TW + c - 16) = planes[3];
            }
#else
            *(__local uint4*)(raw + r * RAW_STRIDE + c) = words[n];
#endif
        }
    }
}

/* blur_mma's RGBA: the output pixels' own alpha, straight into their staged
 * pixels' bytes 3, once the tile before has left (after the first barrier) and
 * before the words are reused; the passes then write bytes 0-2. */
inline void stage_alpha(const uint4* words, __local uchar* staged, int stride)
{
    const int item = get_local_id(1) * 32 + get_local_id(0);
UNROLL
    for (int n = 0; n < LOADS; ++n) {
        const int e = item + n * THREADS;
        const int r = e / WORDS_PER_ROW;
        const int c = (e - r * WORDS_PER_ROW) * WORD_PIXELS;
        if (e < TILE_WORDS && r >= RADIUS && r < RADIUS + TH && c >= 16 && c < 16 + TW) {
            __local uchar* pixel = staged + (r - RADIUS) * stride + 4 * (c - 16);
            pixel[3] = (uchar)(words[n].x >> 24);
            pixel[7] = (uchar)(words[n].y >> 24);
            pixel[11] = (uchar)(words[n].z >> 24);
            pixel[15] = (uchar)(words[n].w >> 24);
        }
    }
}

/* The tile's staged output (TH rows of `stride` bytes) to rows y0 .. of the
 * image: 16-byte chunks inside rows that are 16-byte aligned (store_shifted's
 * in the kernel for the others), bytes at the edge.
 * An item's chunks are the same each tile. */
inline void store_rows(__global uchar* restrict out, int width, int height, int pitch, int x0, int y0,
                       __local const uchar* tile, int stride)
{
    const int item = get_local_id(1) * 32 + get_local_id(0);
    const int row_bytes = width * CHANNELS;
    const bool aligned = (pitch & 15) == 0 && ((size_t)out & 15) == 0;
    const int chunks_per_row = TW * CHANNELS / 16;
#if INSIDE_PATH
    if (aligned && y0 + TH <= height && (x0 + TW) * CHANNELS <= row_bytes) {
        __global uchar* corner = out + y0 * pitch + x0 * CHANNELS; /* the whole tile inside: no test */
UNROLL
        for (int chunk = 0; chunk < TH * TW * CHANNELS / 16 / THREADS; ++chunk) {
            const int e = item + chunk * THREADS;
            const int r = e / chunks_per_row;
            const int c = (e - r * chunks_per_row) * 16;
            *(__global uint4*)(corner + r * pitch + c) = *(__local const uint4*)(tile + r * stride + c);
        }
        return;
    }
#endif
UNROLL
    for (int chunk = 0; chunk < (TH * TW * CHANNELS / 16 + THREADS - 1) / THREADS; ++chunk) {
        const int e = item + chunk * THREADS;
        const int r = e / chunks_per_row;
        const int c = (e - r * chunks_per_row) * 16;
        const int y = y0 + r;
        const int b0 = x0 * CHANNELS + c;
        if (r >= TH || y >= height || b0 >= row_bytes) {
            continue;
        }
        __global uchar* dst = out + y * pitch + b0;
        __local const uchar* src = tile + r * stride + c;
        if (aligned && b0 + 16 <= row_bytes) {
            *(__global uint4*)dst = *(__local const uint4*)src;
#ifdef SHIFTED_ROWS
        } else if (b0 + 16 <= row_bytes) {
            store_shifted(dst, *(__local const uint4*)src);
#endif
        } else {
            for (int b = 0; b < 16 && b0 + b < row_bytes; ++b) {
                dst[b] = src[b];
            }
        }
    }
}

/* ---- The kernel ---------------------------------------------------------------------- */
/* The weights come from a __constant buffer: each lane indexes them by its
 * place in the fragment, and an argument passed by value is copied into each
 * item's private (local) memory to be indexed (README, Why). */
#if TW == 16 * WARPS
__kernel __attribute__((reqd_work_group_size(32, WARPS, 1))) void blur_mma(
    __global const uchar* restrict in, __global uchar* restrict out, int width, int height, int pitch,
    __constant const MmaWeights* restrict weights, const TileWalk walk)
{
    __local uint4 smem_words[SMEM_BYTES / 16 + 1];
#ifndef NV_PTX
    __local uint scratch[WARPS * 32 * LANE_WORDS];
#endif
    const int lane = get_local_id(0);
    const int warp = get_local_id(1);
    const int g = lane >> 2;
    const int t = lane & 3;

    /* The bands, once per group (the group then loops over tiles): [step][register];
     * the same for every warp, whose inputs all start SHIFT past a 4-byte boundary. */
    uint hband[KH][4];
    uint vband[KV][4];
    const float bias = weights->bias; /* -1024 x the weights' sum: the horizontal sums' start */
UNROLL
    for (int ks = 0; ks < KH; ++ks)
UNROLL
        for (int reg = 0; reg < 4; ++reg)
            hband[ks][reg] = band_horizontal(weights, ks, reg, g, t);
UNROLL
    for (int ks = 0; ks < KV; ++ks)
UNROLL
        for (int reg = 0; reg < 4; ++reg)
            vband[ks][reg] = band_f16(weights, ks, reg, g, t);

#if !defined(NV_PTX)
    /* Bytes that are read but never written: the planes' rows past LOAD_ROWS
     * (the last 8-row group reaches beyond TH + 2R). They meet only zero
     * weights, and any bytes would do (their sums are finite: 0 times them is
     * 0), so on the GPU they stay unwritten; the emulation zeroes its local
     * memory once, so that Oclgrind sees no uninitialised values. */
    for (int e = get_local_id(1) * 32 + lane; e < SMEM_BYTES; e += THREADS) {
        ((__local uchar*)smem_words)[e] = 0;
    }
    barrier(CLK_LOCAL_MEM_FENCE); /* before the fill writes the rows loaded */
#endif
    int ty = (int)get_group_id(0) / walk.tiles_x; /* the group's first tile */
    int tx = (int)get_group_id(0) - ty * walk.tiles_x;
    uint4 words[LOADS]; /* the next tile's input, in flight */
#ifndef SERIAL
    if (ty < walk.tiles_y) {
        load_tile(in, width, height, pitch, tx * TW, ty * TH, words);
    }
#endif
    /* Two barriers a tile: the planes are read by every warp (after the first),
     * the staged rows too (after the second); every warp has read the planes
     * before it reaches the second, so the next tile's fill may overwrite them,
     * and has stored the staged rows before it reaches the next tile's first,
     * after which the staged pixels take their alpha. Between the passes nothing
     * goes through local memory: the horizontal sums stay in the registers of
     * the lanes that made them. */
    for (; ty < walk.tiles_y; next_tile(&walk, &tx, &ty)) {
        const int x0 = tx * TW;
        const int y0 = ty * TH;
#ifdef SERIAL
        __local uchar* smem = fresh_local_address(smem_words);
        load_tile(in, width, height, pitch, x0, y0, words);
#else
        __local uchar* smem = (__local uchar*)smem_words;
#endif
        store_tile(words, smem, 0);
        barrier(CLK_LOCAL_MEM_FENCE);
#if CHANNELS == 4
        stage_alpha(words, smem + OUT_OFFSET, MMA_OUT_STRIDE);
#endif
#ifndef SERIAL
        /* The next tile's loads, issued now: they land while this tile is computed. */
        int next_tx = tx;
        int next_ty = ty;
        next_tile(&walk, &next_tx, &next_ty);
        if (next_ty < walk.tiles_y) {
            load_tile(in, width, height, pitch, next_tx * TW, next_ty * TH, words);
        }
#endif

        /* Warp w computes output columns 16w .. 16w + 15 of the tile, a plane at a
         * time, 16 rows (a band p) at a time. halves[q]: the horizontal sums of
         * 8-row group q (plane rows 8q .. 8q + 7), as the vertical product's B
         * fragments: [0] columns 0-7, [1] columns 8-15 of the warp's 16. */
UNROLL
        for (int plane = 0; plane < PLANES; ++plane) {
            const int strip = plane * RAW_ROWS * RAW_STRIDE + 16 * warp + START + 4 * t;
            uint halves[GROUPS_READ][2];
UNROLL
            for (int p = 0; p < TH / 16; ++p) {
                /* 2. Horizontal: the sums of the groups band p reads first. H^T (16
                 * columns x 8 rows) = band (16 x 16) x input^T (16 x 8) a step, float
                 * sums; lane (g, t) reads 4 bytes of row g at column 4t of each
                 * 16-column step: its B fragment, as halves 1024 + b. */
UNROLL
                for (int q = p == 0 ? 0 : 2 * p + BAND_GROUPS - 2; q < 2 * p + BAND_GROUPS; ++q) {
                    if (q >= GROUPS) {
                        halves[q][0] = halves[q][1] = 0; /* rows past the tile's: zero weights */
                        continue;
                    }
                    float h[4] = {bias, bias, bias, bias};
UNROLL
                    for (int ks = 0; ks < KH; ++ks) {
                        if (TAIL8_H && ks == KH - 1) {
                            /* 8 columns: 2 bytes of row g at column 2t, as two halves. */
                            const uint pair =
                                *(__local const ushort*)(smem + strip - 2 * t + (8 * q + g) * RAW_STRIDE + 16 * ks);
                            mma_f16_k8(h, hband[ks], bytes_as_halves(pair, 0) SCRATCH_ARG);
                            continue;
                        }
                        const uint bytes = *(__local const uint*)(smem + strip + (8 * q + g) * RAW_STRIDE + 16 * ks);
                        const uint b[2] = {bytes_as_halves(bytes, 0), bytes_as_halves(bytes, 1)};
                        mma_f16(h, hband[ks], b SCRATCH_ARG);
                    }
                    /* Lane (g, t) holds columns g, g + 8 of rows 2t, 2t + 1: packed in
                     * pairs down the rows, exactly the B fragments of the vertical product. */
                    halves[q][0] = pack_halves(h[0], h[1]);
                    halves[q][1] = pack_halves(h[2], h[3]);
                }
                /* 3. Vertical: output rows 16p .. 16p + 15, columns 8 nt .. 8 nt + 7 of
                 * the warp's: the band of weights (16 x 16 a step) times the halves of
                 * groups 2p + 2ks and 2p + 2ks + 1 (16 x 8), float sums. */
UNROLL
                for (int nt = 0; nt < 2; ++nt) {
                    float v[4] = {0.5f, 0.5f, 0.5f, 0.5f}; /* + 0.5: rounded half up at the end */
UNROLL
                    for (int ks = 0; ks < KV; ++ks) {
                        /* An 8-row last step (TAIL8_V) takes one group's halves, the others two. */
                        const bool tail8 = TAIL8_V && ks == KV - 1;
                        const uint b[2] = {halves[2 * p + 2 * ks][nt], tail8 ? 0u : halves[2 * p + 2 * ks + 1][nt]};
                        // EXERCISE: add vband[ks] times the halves' fragment (b) into v: mma_f16, or mma_f16_k8 of b[0] where tail8
                        if (tail8) {
                            mma_f16_k8(v, vband[ks], b[0] SCRATCH_ARG);
                        } else {
                            mma_f16(v, vband[ks], b SCRATCH_ARG);
                        }
                        // STARTER:
                        // v[0] += 0.0f; /* nothing summed: the tile comes out black */
                        // END EXERCISE
                    }
UNROLL
                    for (int k = 0; k < 4; ++k) {
                        /* Lane (g, t) holds rows g, g + 8 and columns 2t, 2t + 1. */
                        const uint value = rounded_bits(v[k]) & 0xFFu;
                        const int r = 16 * p + g + 8 * (k / 2);
                        const int c = 16 * warp + 8 * nt + 2 * t + k % 2;
#if CHANNELS == 1
                        /* Gray: staged at once, two neighbouring bytes a store. */
                        if (k % 2 == 1) {
                            *(__local ushort*)(smem + OUT_OFFSET + r * MMA_OUT_STRIDE + c - 1) =
                                (ushort)((rounded_bits(v[k - 1]) & 0xFFu) | value << 8);
                        }
#else
                        /* RGBA: staged at once, byte `plane` of its pixel (byte 3: stage_alpha). */
                        smem[OUT_OFFSET + r * MMA_OUT_STRIDE + 4 * c + plane] = (uchar)value;
#endif
                    }
                }
            }
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        /* 4. The tile's rows to global memory. */
        store_rows(out, width, height, pitch, x0, y0, smem + OUT_OFFSET, MMA_OUT_STRIDE);
    }
}
#endif

/* ---- The portable kernel: the same tiles, float multiply-adds ------------------------- */
/* What a GPU without PTX runs (AMD, Intel, PoCL): the same planes and the same
 * two passes, each a loop of float multiply-adds, 2R + 1 per value and pass,
 * so above radius 4 or so it is bound by the multiply-add rate, not memory.
 * Built with the same options; the weights as floats (exact taps), read from
 * the argument where they are used rather than copied into 33 registers.
 * Each item computes 4 neighbouring values at a time from a window held in
 * registers (every input converted to float once, not once a tap), and the
 * tile leaves in 16-byte stores, as blur_mma's does. */
typedef struct {
    float w[33];
} FloatTaps;

#define VROWS (TH / 16) /* output rows per item in the vertical pass: 16 items a row of 64 */
#define H_ROW_STEP (THREADS / (TW / 4)) /* rows between an item's rows in the horizontal pass */
/* The horizontal window: output columns c .. c+3 need plane columns OFFSET + c
 * .. OFFSET + c + 3 + 2R; read as the 32-bit words that hold them. */
#define LEAD (OFFSET % 4)                     /* bytes of the first word before the window */
#define WINDOW_WORDS ((LEAD + 4 + 2 * RADIUS + 3) / 4)

#if TW == 64
__kernel __attribute__((reqd_work_group_size(32, WARPS, 1))) void blur_tiles_f32(
    __global const uchar* restrict in, __global uchar* restrict out, int width, int height, int pitch,
    const FloatTaps taps, const TileWalk walk)
{
    /* The planes as bytes (as blur_mma); one plane of horizontal sums, 4 columns a float4. */
    __local uint4 raw_words[RAW_BYTES / 16];
    __local float4 hsum[(TH + 2 * RADIUS) * (TW / 4)];
    __local uint4 out_words[(TH * OUT_STRIDE + 15) / 16];
    __local uint alpha_words[CHANNELS == 4 ? TH * TW / 4 : 1];
    __local uchar* smem = (__local uchar*)raw_words;
    __local uchar* out_tile = (__local uchar*)out_words;
    const int item = get_local_id(1) * 32 + get_local_id(0);
    int ty = (int)get_group_id(0) / walk.tiles_x; /* the group's first tile */
    int tx = (int)get_group_id(0) - ty * walk.tiles_x;
    uint4 words[LOADS]; /* the next tile's input, in flight (as blur_mma) */
    if (ty < walk.tiles_y) {
        load_tile(in, width, height, pitch, tx * TW, ty * TH, words);
    }
    /* Each item's 4 columns (quad, a float4 of sums) and its row among the 16
     * the group's items cover: the horizontal pass takes rows quad_row,
     * quad_row + 16, ...; the vertical pass VROWS output rows from v_row. (The
     * remainder by subtraction: LLVM rewrites a signed / and % pair with a
     * "freeze", which Oclgrind cannot run.) */
    const int quad_row = item / (TW / 4);
    const int quad = item - quad_row * (TW / 4);
    const int v_row = quad_row * VROWS;
    for (; ty < walk.tiles_y; next_tile(&walk, &tx, &ty)) {
        const int x0 = tx * TW;
        const int y0 = ty * TH;
        barrier(CLK_LOCAL_MEM_FENCE);
        store_tile(words, smem, (__local uchar*)alpha_words);
        barrier(CLK_LOCAL_MEM_FENCE);
        int next_tx = tx;
        int next_ty = ty;
        next_tile(&walk, &next_tx, &next_ty);
        if (next_ty < walk.tiles_y) {
            load_tile(in, width, height, pitch, next_tx * TW, next_ty * TH, words);
        }
        uint packed[VROWS][4]; /* the blurred pixels, one byte per plane (as blur_mma's RGBA) */
#pragma unroll
        for (int i = 0; i < VROWS; ++i) {
            packed[i][0] = packed[i][1] = packed[i][2] = packed[i][3] = 0u;
        }
        for (int plane = 0; plane < PLANES; ++plane) {
            __local const uchar* raw_plane = smem + plane * RAW_ROWS * RAW_STRIDE;
            /* Horizontal: 4 neighbouring columns of one row per item, from a window of
             * 4 + 2R bytes read as words and converted once. An item keeps its 4
             * columns and steps down the rows, so its addresses only add. */
            for (int r = quad_row; r < TH + 2 * RADIUS; r += H_ROW_STEP) {
                __local const uint* at =
                    (__local const uint*)(raw_plane + r * RAW_STRIDE + OFFSET - LEAD + 4 * quad);
                float x[4 * WINDOW_WORDS];
#pragma unroll
                for (int i = 0; i < WINDOW_WORDS; ++i) {
                    const uint word = at[i];
#pragma unroll
                    for (int b = 0; b < 4; ++b) {
                        x[4 * i + b] = (float)byte_of(word, b);
                    }
                }
                float4 s = (float4)(0.0f);
#pragma unroll
                for (int k = 0; k < TAPS; ++k) {
                    s = fma((float4)(taps.w[k]), (float4)(x[LEAD + k], x[LEAD + k + 1], x[LEAD + k + 2], x[LEAD + k + 3]),
                            s);
                }
                hsum[r * (TW / 4) + quad] = s;
            }
            barrier(CLK_LOCAL_MEM_FENCE);
            /* Vertical: VROWS output rows of 4 columns per item; each row of sums read
             * once and added into every output row it reaches. Rounded half up. */
            float4 acc[VROWS];
#pragma unroll
            for (int i = 0; i < VROWS; ++i) {
                acc[i] = (float4)(0.5f);
            }
#pragma unroll
            for (int j = 0; j < VROWS - 1 + TAPS; ++j) {
                const float4 row = hsum[(v_row + j) * (TW / 4) + quad];
#pragma unroll
                for (int i = 0; i < VROWS; ++i) {
                    if (j - i >= 0 && j - i < TAPS) {
                        acc[i] = fma((float4)(taps.w[j - i]), row, acc[i]);
                    }
                }
            }
#pragma unroll
            for (int i = 0; i < VROWS; ++i) {
                const uint4 bytes = min(convert_uint4(floor(acc[i])), (uint4)(255u));
                packed[i][0] |= bytes.x << (8 * plane);
                packed[i][1] |= bytes.y << (8 * plane);
                packed[i][2] |= bytes.z << (8 * plane);
                packed[i][3] |= bytes.w << (8 * plane);
            }
            barrier(CLK_LOCAL_MEM_FENCE); /* the sums are free for the next plane */
        }
        /* Stage the pixels: gray, 4 bytes a row; RGBA, 4 pixels with their alpha. */
#pragma unroll
        for (int i = 0; i < VROWS; ++i) {
            const int r = v_row + i;
#if CHANNELS == 4
            const uint alpha = alpha_words[(r * TW + 4 * quad) / 4];
            __local uint* pixels = (__local uint*)(out_tile + r * OUT_STRIDE + 16 * quad);
#pragma unroll
            for (int q = 0; q < 4; ++q) {
                pixels[q] = packed[i][q] | byte_of(alpha, q) << 24;
            }
#else
            *(__local uint*)(out_tile + r * OUT_STRIDE + 4 * quad) =
                packed[i][0] | packed[i][1] << 8 | packed[i][2] << 16 | packed[i][3] << 24;
#endif
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        store_rows(out, width, height, pitch, x0, y0, out_tile, OUT_STRIDE);
    }
}
#endif
