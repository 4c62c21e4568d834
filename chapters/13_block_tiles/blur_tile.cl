// Chapter 13: block tiles, in OpenCL C: blur_tile.cu's kernel (read that
// file's opening comment first). A group of WARPS warps first brings all the
// rows it needs (its WARPS x ROWS output rows and their 4 halo rows) into
// local memory at once, then each warp walks its rows out of it with chapter
// 11's packed-half arithmetic, for the radius-2 blur with sigma 1's weights
// (half2_plan.hpp proves its error bound).
//
// Everything but the tile is chapter 11's blur_half2.cl: the half arithmetic,
// the byte permutes and the neighbours' sums each have two bodies, inline PTX
// on NVIDIA's platform (-D NV_PTX, which the host passes there) and portable
// OpenCL C elsewhere (PoCL, Oclgrind), where each item also sums the pairs
// beside its own (SIDE_PAIRS), so the tile is a chunk wider on each side.
//
// The fill: with NV_PTX, chunks wholly inside an aligned row come by 16-byte
// cp.async (chapter 12's copies, now every item's at once), then one wait and
// one barrier; elsewhere by plain 16-byte loads and local stores, then the
// barrier. The chunks at the image's edges are gathered by hand (fill_tile).
//
// Built with -D CHANNELS=<1|4> -D NB=<bytes per item: 8 or 16> -D ROWS=<output rows per item>
// -D WARPS=<items in dimension 1 of a group> [-D NV_PTX].

#ifndef CHANNELS
#error "build with -D CHANNELS=1 (gray) or 4 (RGBA)"
#endif

#define PAIRS (NB / 2)         /* half2 registers per item */
#define WORDS (NB / 4)         /* 32-bit words loaded per item */
#define ROWS_IN (ROWS + 4)
#define SENT (CHANNELS == 4 ? 4 : 1)  /* pairs a lane takes from each neighbour */
/* Pairs an item loads and sums on each side of its own: none where shuffles
 * bring them; else whole words covering SENT pairs (gray 2, RGBA 4). */
#ifdef NV_PTX
#define SIDE_PAIRS 0
#else
#define SIDE_PAIRS (CHANNELS == 4 ? 4 : 2)
#endif
#define SPAN_PAIRS (PAIRS + 2 * SIDE_PAIRS) /* pairs an item sums vertically */
#define SPAN_WORDS (SPAN_PAIRS / 2)
#define SPAN_BYTES (2 * SPAN_PAIRS)
#define BIAS 0x64006400u              /* the halves (1024, 1024) */
/* Block tiles: a tile row starts at the 16-byte boundary at or before lane
 * 0's first byte (lane 0 starts at 30 NB x - NB: 8 bytes past a boundary
 * where NB = 8), with one more 16-byte chunk on each side where items sum
 * their neighbours' pairs themselves (SIDE_PAIRS). */
#if NB != 8 && NB != 16
#error "the block tile needs NB = 8 or 16: lane 0's first byte at the same place mod 16 in every strip"
#endif
#define TILE_SHIFT (NB == 8 ? 8 : 0)      /* lane 0's first byte past its 16-byte boundary */
#define TILE_PAD (SIDE_PAIRS ? 16 : 0)    /* a chunk on each side for the side pairs */
#define TILE_STRIDE (32 * NB + (TILE_SHIFT ? 16 : 0) + 2 * TILE_PAD) /* bytes per tile row */
#define TILE_CHUNKS (TILE_STRIDE / 16)
#define TILE_ROWS (WARPS * ROWS + 4)

/* Layout shared with the host: struct HalfWeights in half2_plan.hpp. */
typedef struct {
    uint w0, w1, w2, minus_k;          /* (R, G) pairs; gray: every pair */
    uint w0_ba, w1_ba, w2_ba, minus_k_ba; /* RGBA's (B, A) pairs: alpha passes */
} HalfWeights;

#ifdef NV_PTX
inline uint hfma2(uint a, uint b, uint c)
{
    uint d;
    asm("fma.rn.f16x2 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c));
    return d;
}
inline uint hadd2(uint a, uint b)
{
    uint d;
    asm("add.rn.f16x2 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b));
    return d;
}
inline uint prmt(uint a, uint b, uint selector)
{
    uint d;
    asm("prmt.b32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(selector));
    return d;
}
#else
/* Half floats by their bits, in integer arithmetic (vload_half/vstore_half
 * would need a half pointer to a ushort: type punning the compiler may break). */
inline float half_to_float(uint bits)
{
    const uint sign = (bits & 0x8000u) << 16;
    const uint exponent = (bits >> 10) & 0x1Fu;
    const uint mantissa = bits & 0x3FFu;
    if (exponent == 0) {
        return as_float(sign) + (float)mantissa * 0x1.0p-24f * (sign ? -1.0f : 1.0f); /* zero or subnormal */
    }
    return as_float(sign | (exponent + 112u) << 23 | mantissa << 13); /* 112 = 127 - 15; no inf or NaN here */
}
/* Rounded to nearest, ties to even, as the hardware's .rn does. */
inline uint float_to_half(float f)
{
    const uint x = as_uint(f);
    const uint sign = (x >> 16) & 0x8000u;
    const int exponent = (int)((x >> 23) & 0xFFu) - 112;
    uint mantissa = x & 0x7FFFFFu;
    if (exponent >= 31) {
        return sign | 0x7C00u; /* too large: infinity (never reached by the blur's sums) */
    }
    int shift = 13;
    uint h = sign | (uint)max(exponent, 0) << 10;
    if (exponent <= 0) { /* subnormal half: the implicit bit joins the mantissa */
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
        ++h; /* a carry out of the mantissa raises the exponent, as it should */
    }
    return h;
}
inline uint hfma2(uint a, uint b, uint c)
{
    const float lo = half_to_float(a) * half_to_float(b) + half_to_float(c);
    const float hi = half_to_float(a >> 16) * half_to_float(b >> 16) + half_to_float(c >> 16);
    return float_to_half(lo) | float_to_half(hi) << 16;
}
inline uint hadd2(uint a, uint b)
{
    return float_to_half(half_to_float(a) + half_to_float(b)) |
           float_to_half(half_to_float(a >> 16) + half_to_float(b >> 16)) << 16;
}
/* Byte k of the result is byte (selector >> 4k) & 7 of the 8 bytes b:a. */
inline uint prmt(uint a, uint b, uint selector)
{
    const ulong both = (ulong)b << 32 | a;
    uint d = 0;
    for (int k = 0; k < 4; ++k) {
        d |= (uint)(both >> (8 * ((selector >> (4 * k)) & 7u)) & 0xFFu) << (8 * k);
    }
    return d;
}
#endif

#ifdef NV_PTX
/* from_left[k]: lane - 1's to_right[k] (this lane's own on lane 0);
 * from_right[k]: lane + 1's to_left[k] (own on lane 31). */
inline void shuffle_with_neighbours(const uint* to_right, const uint* to_left, uint* from_left, uint* from_right)
{
    for (int k = 0; k < SENT; ++k) {
        asm volatile("shfl.sync.up.b32 %0, %1, 1, 0, 0xffffffff;" : "=r"(from_left[k]) : "r"(to_right[k]));
        asm volatile("shfl.sync.down.b32 %0, %1, 1, 31, 0xffffffff;" : "=r"(from_right[k]) : "r"(to_left[k]));
    }
}
#endif

#ifdef NV_PTX
/* cp.async: 16 bytes from global memory to local (shared) memory, no
 * register in between; a local pointer's integer value is its shared-window
 * address on NVIDIA's platform. Completed by groups, in issue order. */
inline void copy_async_16(__local uchar* to, __global const uchar* from)
{
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"((uint)(size_t)to), "l"(from) : "memory");
}
inline void commit_copies(void)
{
    asm volatile("cp.async.commit_group;" ::: "memory");
}
#define WAIT_COPIES(pending) asm volatile("cp.async.wait_group %0;" ::"n"(pending) : "memory")
#else
/* Without cp.async the tile's chunks are plain loads and local stores,
 * complete when they return: no group to commit, none to wait for (the
 * barrier is still needed: items read chunks that other items stored). */
inline void commit_copies(void)
{
}
#define WAIT_COPIES(pending)
#endif

/* A row's words as biased halves: bytes 2m, 2m+1 become the halves of pair
 * m (0x64bb: 1024 + bb), one byte permute per pair. */
inline void unpack_row(const uint* words, uint* pairs)
{
#pragma unroll
    for (int m = 0; m < SPAN_PAIRS; ++m) {
        pairs[m] = prmt(words[m / 2], 0x64u, (m % 2) ? 0x4342u : 0x4140u);
    }
}

/* One output row of an item from the five input rows around it (r0 the top,
 * r4 the bottom, as biased halves over the item's span): the vertical sums,
 * the horizontal sums with the neighbours' edge pairs (by shuffle: every item
 * of the warp must call it; or summed by the item itself), and the bytes
 * packed into words. Chapters 12 and 13 keep it as it is: they change only
 * where the rows come from. */
inline void out_row(const uint* r0, const uint* r1, const uint* r2, const uint* r3, const uint* r4, const HalfWeights hw,
                    uint* packed)
{
    /* Vertical sums (symmetric taps): the outer rows added as integers first. */
    uint span_v[SPAN_PAIRS];
#pragma unroll
    for (int m = 0; m < SPAN_PAIRS; ++m) {
        const bool ba = CHANNELS == 4 && (m % 2); /* RGBA's (B, A) pair */
        const uint a = r0[m] + r4[m] - BIAS;
        const uint b = r1[m] + r3[m] - BIAS;
        uint t = hfma2(ba ? hw.w2_ba : hw.w2, r2[m], ba ? hw.minus_k_ba : hw.minus_k);
        t = hfma2(ba ? hw.w1_ba : hw.w1, b, t);
        span_v[m] = hfma2(ba ? hw.w0_ba : hw.w0, a, t);
    }

    /* This item's pairs, and its neighbours' edge pairs. */
    const uint* v = span_v + SIDE_PAIRS;
    uint from_left[SENT], from_right[SENT];
#ifdef NV_PTX
    uint to_right[SENT], to_left[SENT];
#pragma unroll
    for (int k = 0; k < SENT; ++k) {
        to_right[k] = v[PAIRS - SENT + k];
        to_left[k] = v[k];
    }
    shuffle_with_neighbours(to_right, to_left, from_left, from_right);
#else
#pragma unroll
    for (int k = 0; k < SENT; ++k) {
        from_left[k] = v[k - SENT];
        from_right[k] = v[PAIRS + k];
    }
#endif

    /* Horizontal sums. */
    uint o[PAIRS];
#if CHANNELS == 1
    /* P[k + 1] = pair k (pixels 2k, 2k+1), k = -1 .. PAIRS. */
    uint P[PAIRS + 2];
    P[0] = from_left[0];
    P[PAIRS + 1] = from_right[0];
#pragma unroll
    for (int m = 0; m < PAIRS; ++m) {
        P[m + 1] = v[m];
    }
    /* Q[k + 1] = pixels (2k + 1, 2k + 2): one byte permute each. */
    uint Q[PAIRS + 1];
#pragma unroll
    for (int k = 0; k < PAIRS + 1; ++k) {
        Q[k] = prmt(P[k], P[k + 1], 0x5432u);
    }
#pragma unroll
    for (int m = 0; m < PAIRS; ++m) {
        uint h = hfma2(hw.w0, P[m], 0u);
        h = hfma2(hw.w0, P[m + 2], h);
        h = hfma2(hw.w1, Q[m], h);
        h = hfma2(hw.w1, Q[m + 1], h);
        h = hfma2(hw.w2, P[m + 1], h);
        o[m] = hadd2(h, BIAS); /* rounds to the nearest integer, in the low byte */
    }
#else
    /* Two pairs per pixel: P[k + 4] = pair k, k = -4 .. PAIRS + 3. */
    uint P[PAIRS + 8];
#pragma unroll
    for (int k = 0; k < 4; ++k) {
        P[k] = from_left[k];
        P[PAIRS + 4 + k] = from_right[k];
    }
#pragma unroll
    for (int m = 0; m < PAIRS; ++m) {
        P[m + 4] = v[m];
    }
#pragma unroll
    for (int m = 0; m < PAIRS; ++m) {
        const bool ba = m % 2;
        uint h = hfma2(ba ? hw.w0_ba : hw.w0, P[m], 0u);
        h = hfma2(ba ? hw.w0_ba : hw.w0, P[m + 8], h);
        h = hfma2(ba ? hw.w1_ba : hw.w1, P[m + 2], h);
        h = hfma2(ba ? hw.w1_ba : hw.w1, P[m + 6], h);
        h = hfma2(ba ? hw.w2_ba : hw.w2, P[m + 4], h);
        o[m] = hadd2(h, BIAS);
    }
#endif
#pragma unroll
    for (int k = 0; k < WORDS; ++k) {
        packed[k] = prmt(o[2 * k], o[2 * k + 1], 0x6420u);
    }
}

/* An item's NB bytes of one output row: one vector store (word stores
 * without NV_PTX: Oclgrind 21.10 takes a vector built from these words for
 * uninitialised, though its values are right), or (vector false: the image's
 * right edge, unaligned rows) byte by byte, at most bytes_left. */
inline void store_row(__global uchar* at, const uint* packed, bool vector, int bytes_left)
{
    if (vector) {
#if defined(NV_PTX) && NB == 16
        *(__global uint4*)at = (uint4)(packed[0], packed[1], packed[2], packed[3]);
#elif defined(NV_PTX) && NB == 8
        *(__global uint2*)at = (uint2)(packed[0], packed[1]);
#else
        for (int k = 0; k < WORDS; ++k) {
            ((__global uint*)at)[k] = packed[k];
        }
#endif
    } else {
        /* Unrolled, so packed[] is indexed by constants and stays in registers. */
#pragma unroll
        for (int b = 0; b < NB; ++b) {
            if (b < bytes_left) {
                at[b] = (uchar)(packed[b / 4] >> (8 * (b % 4)));
            }
        }
    }
}

/* Brings the group's tile into local memory: chunks wholly inside an aligned
 * row by 16-byte cp.async (NV_PTX) or 16-byte loads and stores; the rest (the
 * image's left and right edges, rows whose pitch is not a multiple of 16)
 * byte by byte with the column clamped, spread over every item. Rows are
 * clamped to the image. Ends with the group's barrier. */
inline void fill_tile(__global const uchar* restrict in, int width, int height, int pitch, int aligned,
                      int tile_first, int band, __local uchar* tile)
{
    const int row_bytes = width * CHANNELS;
    const int item = get_local_id(1) * 32 + get_local_id(0);
    /* Chunk k of a row is inside for k_lo <= k < k_hi (none on unaligned rows). */
    const int k_lo = aligned ? clamp((15 - tile_first) / 16, 0, TILE_CHUNKS) : TILE_CHUNKS;
    const int k_hi = aligned ? max(min((row_bytes - tile_first) / 16, TILE_CHUNKS), k_lo) : TILE_CHUNKS;
    for (int c = item; c < TILE_ROWS * TILE_CHUNKS; c += 32 * WARPS) { /* row-major: a warp's chunks are contiguous */
        const int r = c / TILE_CHUNKS;
        const int k = c - r * TILE_CHUNKS;
        if (k < k_lo || k >= k_hi) {
            continue;
        }
        // EXERCISE: copy chunk k of tile row r: 16 bytes of image row band - 2 + r (clamped) from byte tile_first + 16 k
        __global const uchar* from = in + clamp(band - 2 + r, 0, height - 1) * pitch + tile_first + k * 16;
#ifdef NV_PTX
        copy_async_16(tile + r * TILE_STRIDE + k * 16, from);
#else
        *(__local uint4*)(tile + r * TILE_STRIDE + k * 16) = *(__global const uint4*)from;
#endif
        // STARTER:
        // *(__local uint4*)(tile + r * TILE_STRIDE + k * 16) = (uint4)(0u, 0u, 0u, 0u); /* nothing copied: zeros */
        // END EXERCISE
    }
    // EXERCISE: close the group of this item's copies
    commit_copies();
    // END EXERCISE
    const int edge_chunks = k_lo + (TILE_CHUNKS - k_hi); /* per row */
    for (int e = item; e < TILE_ROWS * edge_chunks; e += 32 * WARPS) {
        const int r = e / edge_chunks;
        const int n = e - r * edge_chunks;
        const int k = n < k_lo ? n : k_hi + (n - k_lo);
        __global const uchar* row = in + clamp(band - 2 + r, 0, height - 1) * pitch;
        const int b0 = tile_first + k * 16;
        uint words[4] = {0, 0, 0, 0};
        if (aligned && (b0 >= row_bytes || b0 + 16 <= 0)) {
            /* Wholly left or right of the row: its edge pixel repeated, one load
             * (b0 is a multiple of 16, so byte j of the chunk is channel j mod CHANNELS). */
            __global const uchar* edge = row + (b0 < 0 ? 0 : row_bytes - CHANNELS);
#if CHANNELS == 4
            const uint word = *(__global const uint*)edge;
#else
            const uint word = (uint)edge[0] * 0x01010101u;
#endif
            words[0] = words[1] = words[2] = words[3] = word;
        } else {
#pragma unroll
            for (int j = 0; j < 16; ++j) {
                const int b = b0 + j;
                const int x = b >= 0 ? b / CHANNELS : -((CHANNELS - 1 - b) / CHANNELS); /* floor(b / CHANNELS) */
                const int channel = b - x * CHANNELS;
                words[j / 4] |= (uint)row[clamp(x, 0, width - 1) * CHANNELS + channel] << (8 * (j % 4));
            }
        }
        /* Word stores: Oclgrind 21.10 takes a vector built from words set on
         * two paths for uninitialised (its values are right); edge chunks are
         * few, so the four stores cost nothing measurable. */
        for (int j = 0; j < 4; ++j) {
            ((__local uint*)(tile + r * TILE_STRIDE + k * 16))[j] = words[j];
        }
    }
    // EXERCISE: wait until this item's copies have landed, then until every item's have (and the edge chunks)
    WAIT_COPIES(0);
    barrier(CLK_LOCAL_MEM_FENCE);
    // END EXERCISE
}

/* Block tiles: the group's WARPS x ROWS output rows and their 4 halo rows
 * come into local memory at once, then each warp walks its rows out of it.
 * Global size: (32 x groups across, WARPS x groups down); local (32, WARPS). */
__kernel __attribute__((reqd_work_group_size(32, WARPS, 1))) void blur_half2_tile(
    __global const uchar* restrict in, __global uchar* restrict out, int width, int height, int pitch, int aligned,
    HalfWeights hw)
{
    __local uint4 tile_words[TILE_ROWS * TILE_STRIDE / 16]; /* uint4: 16-byte aligned */
    __local uchar* tile = (__local uchar*)tile_words;
    const int group_first_byte = get_group_id(0) * 30 * NB - NB; /* lane 0's first byte */
    const int band = get_group_id(1) * WARPS * ROWS;              /* the group's first output row */
    fill_tile(in, width, height, pitch, aligned, group_first_byte - TILE_SHIFT - TILE_PAD, band, tile);

    const int lane = get_local_id(0);
    const int y0 = band + get_local_id(1) * ROWS;
    if (y0 >= height) {
        return; /* the whole warp leaves, after the barrier */
    }
    const int row_bytes = width * CHANNELS;
    const int first_byte = group_first_byte + lane * NB;
    const bool writes = lane >= 1 && lane < 31 && first_byte < row_bytes;
    const bool vector_out = aligned && first_byte + NB <= row_bytes;
    /* The item's span (its NB bytes and SIDE_PAIRS pairs each side) in the warp's first tile row. */
    __local const uchar* mine =
        tile + get_local_id(1) * ROWS * TILE_STRIDE + TILE_PAD + TILE_SHIFT + lane * NB - 2 * SIDE_PAIRS;
    __global uchar* dst = out + y0 * pitch + first_byte;
    uint ring[5][SPAN_PAIRS]; /* the last 5 rows, as biased halves */
#pragma unroll
    for (int i = 0; i < ROWS_IN; ++i) {
        __local const uchar* at = mine + i * TILE_STRIDE;
        uint words[SPAN_WORDS];
#if SIDE_PAIRS == 0 && NB == 16
        const uint4 v = *(__local const uint4*)at;
        words[0] = v.x; words[1] = v.y; words[2] = v.z; words[3] = v.w;
#elif SIDE_PAIRS == 0 && NB == 8
        const uint2 v = *(__local const uint2*)at;
        words[0] = v.x; words[1] = v.y;
#else
        for (int k = 0; k < SPAN_WORDS; ++k) {
            words[k] = ((__local const uint*)at)[k]; /* with the side words the span is only 4-byte aligned */
        }
#endif
        unpack_row(words, ring[i % 5]);
        if (i < 4) {
            continue; /* the first 4 rows only fill the ring */
        }
        uint packed[WORDS];
        out_row(ring[(i + 1) % 5], ring[(i + 2) % 5], ring[(i + 3) % 5], ring[(i + 4) % 5], ring[i % 5], hw, packed);
        if (writes && y0 + i - 4 < height) {
            store_row(dst, packed, vector_out, row_bytes - first_byte);
        }
        dst += pitch;
    }
}
