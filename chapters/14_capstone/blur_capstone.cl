// Chapter 14: the capstone in OpenCL C, blur_capstone.cu's kernels (read its
// opening comment first). Two kernels, chosen with -D TILES=<1|0>:
//  * blur_capstone (TILES=1), the capstone as shipped: chapter 13's block
//    tiles (a group's 4 x ROWS output rows and 4 halo rows brought into local
//    memory at once, then each warp walks its rows), with every technique of
//    the climb, each behind a knob for the ablation;
//  * blur_stream (TILES=0), the overlap candidate: each warp (32 items of
//    dimension 0) walks a segment of its strip, its rows coming in stages of 5
//    into its own ring in local memory, STAGES stages in flight.
//
// Two ways to run them, chosen by the host:
//  * -D NV_PTX (NVIDIA's platform): cp.async, warp shuffles, packed-half
//    arithmetic and byte permutes as inline PTX, exactly blur_capstone.cu's
//    instructions;
//  * portable (no PTX, no vendor extension: PoCL, Oclgrind, any GPU): the
//    float arithmetic (-D HALVES=0; halves would be emulated in integers,
//    correct but a hundred times slower), plain loads and a barrier to fill
//    the tile, and each item summing its neighbours' pixels itself from local
//    memory (OpenCL C 1.2 has no shuffle).
//
// Built with -D CHANNELS=<1|4> -D NB=<8|16> -D WARPS=<warps per group>
// -D HALVES=<0|1> -D PERMUTES=<0|1> -D SHUFFLES=<0|1> -D RING=<0|1> [-D NV_PTX]
// [-D RADIUS=<2..5>, default 2; above 2 the shipped tile only: TILES, HALVES,
// RING] and
// TILES=1: -D ROWS=<output rows per warp> -D ONE_IN_FLIGHT=<0|1>; global size
// (32 x strips, WARPS x bands), local (32, WARPS);
// TILES=0: -D SEG=<output rows per segment, SEG + 4 a multiple of 5>
// -D STAGES=<stages in flight>; global size (32, WARPS x groups).

#ifndef CHANNELS
#error "build with -D CHANNELS=1 (gray) or 4 (RGBA)"
#endif
#if !TILES && (SEG + 4) % 5 != 0
#error "a segment is whole stages of 5 rows: SEG + 4 must be a multiple of 5"
#endif
#if !defined(NV_PTX) && SHUFFLES
#error "shuffles need NV_PTX: portable OpenCL C 1.2 has none"
#endif
#if !TILES && !RING && STAGES < 2
#error "without the ring a stage's rows stay until the next stage is done: STAGES >= 2"
#endif
#ifndef RADIUS
#define RADIUS 2
#endif
#if RADIUS != 2 && !(TILES && HALVES && RING)
#error "radius 3 - 5: the shipped tile only (TILES, HALVES, RING)"
#endif
#define TAPS (2 * RADIUS + 1) /* rows in the ring, and taps per sum */

#define WORDS (NB / 4)
#define ROW_BYTES (32 * NB)       /* one row of a warp's ring */
#if !TILES
#define RING_BYTES (STAGES * 5 * ROW_BYTES)
#define STAGES_PER_SEGMENT ((SEG + 4) / 5)
#endif
/* Bytes an item reads of each neighbour where it sums them itself (RADIUS
 * pixels, whole words: radius 2 two pixels). */
#if SHUFFLES
#define SIDE_BYTES 0
#elif CHANNELS == 4
#define SIDE_BYTES (4 * RADIUS)
#else
#define SIDE_BYTES ((RADIUS + 3) / 4 * 4)
#endif
#define SIDE_WORDS (SIDE_BYTES / 4)
#define SPAN_WORDS (WORDS + 2 * SIDE_WORDS)
#define SPAN_PAIRS (2 * SPAN_WORDS)
#define SPAN_VALUES (4 * SPAN_WORDS)
#define SIDE_PAIRS (SIDE_BYTES / 2)
#define PAIRS (NB / 2)
#define SENT (CHANNELS == 4 ? 2 * RADIUS : (RADIUS + 1) / 2) /* pairs taken from each neighbour */
#define BIAS 0x64006400u           /* the halves (1024, 1024) */
#if defined(NV_PTX)
#define USE_CP_ASYNC 1
#else
#define USE_CP_ASYNC 0
#endif

/* Layout shared with the host: chapter 11's struct HalfWeights (half2_plan.hpp). */
typedef struct {
    uint w0, w1, w2, minus_k;             /* (R, G) pairs; gray: every pair */
    uint w0_ba, w1_ba, w2_ba, minus_k_ba; /* RGBA's (B, A) pairs: alpha passes */
} HalfWeights;

/* Layout shared with the host: chapter 11's struct FarHalfWeights (distances 3 .. 5). */
typedef struct {
    uint w3, w4, w5;          /* (R, G) pairs; gray: every pair */
    uint w3_ba, w4_ba, w5_ba; /* RGBA's (B, A) pairs: alpha's high halves 0 */
} FarHalfWeights;

/* ---- Packed halves, byte permutes, shuffles: PTX, or portable emulation ---- */
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
inline uint shuffle_up(uint v)
{
    uint d;
    asm volatile("shfl.sync.up.b32 %0, %1, 1, 0, 0xffffffff;" : "=r"(d) : "r"(v));
    return d;
}
inline uint shuffle_down(uint v)
{
    uint d;
    asm volatile("shfl.sync.down.b32 %0, %1, 1, 31, 0xffffffff;" : "=r"(d) : "r"(v));
    return d;
}
inline void sync_warp(void)
{
    asm volatile("bar.warp.sync 0xffffffff;" ::: "memory");
}
inline uint half_from_uint(uint v)
{
    ushort h;
    asm("cvt.rn.f16.u32 %0, %1;" : "=h"(h) : "r"(v));
    return h;
}
inline uint uint_from_half(uint bits)
{
    uint d;
    asm("cvt.rzi.u32.f16 %0, %1;" : "=r"(d) : "h"((ushort)bits));
    return d;
}
#else
/* Half floats by their bits, in integer and float arithmetic: a product of two
 * halves is exact in float, so hfma2 rounds like the hardware's fused
 * multiply-add but for rare double roundings, far inside the error bound. */
inline float half_to_float(uint bits)
{
    const uint sign = (bits & 0x8000u) << 16;
    const uint exponent = (bits >> 10) & 0x1Fu;
    const uint mantissa = bits & 0x3FFu;
    if (exponent == 0) {
        return as_float(sign) + (float)mantissa * 0x1.0p-24f * (sign ? -1.0f : 1.0f);
    }
    return as_float(sign | (exponent + 112u) << 23 | mantissa << 13);
}
inline uint float_to_half(float f) /* rounded to nearest, ties to even */
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
inline uint half_from_uint(uint v)
{
    return float_to_half((float)v);
}
inline uint uint_from_half(uint bits)
{
    return (uint)half_to_float(bits & 0xFFFFu);
}
#endif

#if USE_CP_ASYNC
/* cp.async: 8 or 16 bytes from global to local (shared) memory, no register
 * in between; a local pointer's integer value is its shared-window address
 * on NVIDIA's platform. Completed by groups, in issue order. */
inline void copy_async(__local uchar* to, __global const uchar* from)
{
#if NB == 16
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"((uint)(size_t)to), "l"(from) : "memory");
#else
    asm volatile("cp.async.ca.shared.global [%0], [%1], 8;" ::"r"((uint)(size_t)to), "l"(from) : "memory");
#endif
}
inline void commit_copies(void)
{
    asm volatile("cp.async.commit_group;" ::: "memory");
}
#define WAIT_COPIES(pending) asm volatile("cp.async.wait_group %0;" ::"n"(pending) : "memory")
#endif

/* ---- Bytes to values and back ---------------------------------------------- */
/* Pair m of a span holds bytes 2m and 2m+1 as the halves 1024 + b (0x64bb). */
inline uint unpack_pair(uint word, int high)
{
#if PERMUTES
    return prmt(word, 0x64u, high ? 0x4342u : 0x4140u);
#else
    const uint b0 = 1024u + ((word >> (high ? 16 : 0)) & 0xFFu);
    const uint b1 = 1024u + ((word >> (high ? 24 : 8)) & 0xFFu);
    return half_from_uint(b0) | half_from_uint(b1) << 16;
#endif
}
inline uint pack_bytes(uint lo, uint hi)
{
#if PERMUTES
    return prmt(lo, hi, 0x6420u);
#else
    return (uint_from_half(lo) - 1024u) | (uint_from_half(lo >> 16) - 1024u) << 8 |
           (uint_from_half(hi) - 1024u) << 16 | (uint_from_half(hi >> 16) - 1024u) << 24;
#endif
}
/* A byte as a float: 0x4B0000bb is 2^23 + bb (one permute and a subtraction). */
inline float byte_to_float(uint word, int byte)
{
    return as_float(prmt(word, 0x4B000000u, 0x7540u | (uint)byte)) - 8388608.0f;
}
/* floor(s) for 0 <= s < 256, in the low byte: 2^23 + s rounded down. */
inline uint floor_to_low_byte(float s)
{
#ifdef NV_PTX
    float r;
    asm("add.rm.f32 %0, %1, 0f4B000000;" : "=f"(r) : "f"(s));
    return as_uint(r);
#else
    return (uint)floor(s);
#endif
}

/* ---- One output row in packed halves (blur_capstone.cu's out_row) ---------- */
/* The tap at distance d (a constant once unrolled), for (R, G) or (B, A) pairs. */
inline uint tap(const HalfWeights hw, const FarHalfWeights far, int d, bool ba)
{
    return d == 0 ? (ba ? hw.w2_ba : hw.w2)
         : d == 1 ? (ba ? hw.w1_ba : hw.w1)
         : d == 2 ? (ba ? hw.w0_ba : hw.w0)
         : d == 3 ? (ba ? far.w3_ba : far.w3)
         : d == 4 ? (ba ? far.w4_ba : far.w4)
                  : (ba ? far.w5_ba : far.w5);
}

/* Rows k = 0 (top) .. 2 RADIUS (bottom) in ring[(newest + 1 + k) % TAPS]. */
inline void out_row(const uint (*ring)[SPAN_PAIRS], int newest, const HalfWeights hw, const FarHalfWeights far,
                    uint* packed)
{
    uint span[SPAN_PAIRS];
#pragma unroll
    for (int m = 0; m < SPAN_PAIRS; ++m) {
        const bool ba = CHANNELS == 4 && ((m - SIDE_PAIRS) & 1); /* RGBA's (B, A) pair */
        uint t = hfma2(tap(hw, far, 0, ba), ring[(newest + 1 + RADIUS) % TAPS][m], ba ? hw.minus_k_ba : hw.minus_k);
#pragma unroll
        for (int d = 1; d <= RADIUS; ++d) {
            const uint pair = ring[(newest + 1 + RADIUS - d) % TAPS][m] + ring[(newest + 1 + RADIUS + d) % TAPS][m] - BIAS;
            t = hfma2(tap(hw, far, d, ba), pair, t);
        }
        span[m] = t;
    }
    const uint* v = span + SIDE_PAIRS;
    uint P[PAIRS + 2 * SENT]; /* P[k + SENT] = pair k, k = -SENT .. PAIRS + SENT - 1 */
#pragma unroll
    for (int k = 0; k < SENT; ++k) {
#if SHUFFLES
        P[k] = shuffle_up(v[PAIRS - SENT + k]);
        P[PAIRS + SENT + k] = shuffle_down(v[k]);
#else
        P[k] = v[k - SENT];
        P[PAIRS + SENT + k] = v[PAIRS + k];
#endif
    }
#pragma unroll
    for (int m = 0; m < PAIRS; ++m) {
        P[m + SENT] = v[m];
    }
    uint o[PAIRS];
#if CHANNELS == 1
    uint Q[PAIRS + 2 * SENT - 1]; /* Q[k]: the pixels between P[k] and P[k + 1] */
#pragma unroll
    for (int k = 0; k < PAIRS + 2 * SENT - 1; ++k) {
        Q[k] = prmt(P[k], P[k + 1], 0x5432u);
    }
    /* Output pair m, offset d: a pair (d even) or the funnel between two (d odd). */
#define AT(m, d) ((d) % 2 == 0 ? P[(m) + SENT + (d) / 2] : Q[(m) + SENT + ((d) - 1) / 2])
#pragma unroll
    for (int m = 0; m < PAIRS; ++m) {
        uint h = 0u; /* the first HFMA2 adds its product to 0: rounds the product alone */
#pragma unroll
        for (int d = RADIUS; d >= 1; --d) {
            h = hfma2(tap(hw, far, d, false), AT(m, -d), h);
            h = hfma2(tap(hw, far, d, false), AT(m, d), h);
        }
        h = hfma2(tap(hw, far, 0, false), P[m + SENT], h);
        o[m] = hadd2(h, BIAS); /* rounds to the nearest integer, in the low byte */
    }
#undef AT
#else
#pragma unroll
    for (int m = 0; m < PAIRS; ++m) { /* two pairs per pixel: offset d is pair m + 2d */
        const bool ba = m % 2;
        uint h = 0u;
#pragma unroll
        for (int d = RADIUS; d >= 1; --d) {
            h = hfma2(tap(hw, far, d, ba), P[m + SENT - 2 * d], h);
            h = hfma2(tap(hw, far, d, ba), P[m + SENT + 2 * d], h);
        }
        h = hfma2(tap(hw, far, 0, ba), P[m + SENT], h);
        o[m] = hadd2(h, BIAS);
    }
#endif
#pragma unroll
    for (int k = 0; k < WORDS; ++k) {
        packed[k] = pack_bytes(o[2 * k], o[2 * k + 1]);
    }
}

/* ---- One output row in float: every value in its own register ------------- */
#define SENT_VALUES (2 * CHANNELS) /* values (two pixels) taken from each neighbour */
inline void out_row_f32(const float* r0, const float* r1, const float* r2, const float* r3, const float* r4,
                        const float* w, uint* packed)
{
    float span[SPAN_VALUES];
#pragma unroll
    for (int m = 0; m < SPAN_VALUES; ++m) {
        if (CHANNELS == 4 && ((m - SIDE_BYTES) & 3) == 3) {
            span[m] = r2[m]; /* alpha: the output row's own */
        } else {
            float s = w[2] * r2[m];
            s = fma(w[1], r1[m] + r3[m], s);
            span[m] = fma(w[0], r0[m] + r4[m], s);
        }
    }
    const float* v = span + SIDE_BYTES;
    float left[SENT_VALUES], right[SENT_VALUES];
#pragma unroll
    for (int k = 0; k < SENT_VALUES; ++k) {
#if SHUFFLES
        left[k] = as_float(shuffle_up(as_uint(v[NB - SENT_VALUES + k])));
        right[k] = as_float(shuffle_down(as_uint(v[k])));
#else
        left[k] = v[k - SENT_VALUES];
        right[k] = v[NB + k];
#endif
    }
#pragma unroll
    for (int k = 0; k < WORDS; ++k) {
        uint word = 0;
#pragma unroll
        for (int b = 0; b < 4; ++b) {
            const int m = 4 * k + b;
            uint byte;
            if (CHANNELS == 4 && m % 4 == 3) {
                byte = floor_to_low_byte(v[m]) & 0xFFu; /* alpha, exact */
            } else {
                float s = 0.5f; /* rounding half up: floor(sum + 0.5) */
#pragma unroll
                for (int d = -2; d <= 2; ++d) {
                    const int q = m + d * CHANNELS; /* the same channel d pixels away */
                    const float value = q < 0 ? left[SENT_VALUES + q] : q >= NB ? right[q - NB] : v[q];
                    s = fma(w[d + 2], value, s);
                }
                byte = floor_to_low_byte(s) & 0xFFu;
            }
            word |= byte << (8 * b);
        }
        packed[k] = word;
    }
}

/* ---- Loads and stores ---------------------------------------------------------- */
/* An item's NB bytes of a row that is not wholly inside an aligned row: the
 * edge pixel repeated where the item lies wholly outside it, else byte by
 * byte with the column clamped. */
inline void edge_words(__global const uchar* row, int width, int first_byte, uint* words)
{
    const int row_bytes = width * CHANNELS;
    if (first_byte >= row_bytes || first_byte + NB <= 0) {
        __global const uchar* edge = row + (first_byte < 0 ? 0 : row_bytes - CHANNELS);
#if CHANNELS == 4
        const uint word = (uint)edge[0] | (uint)edge[1] << 8 | (uint)edge[2] << 16 | (uint)edge[3] << 24;
#else
        const uint word = (uint)edge[0] * 0x01010101u;
#endif
        for (int k = 0; k < WORDS; ++k) {
            words[k] = word;
        }
        return;
    }
    for (int k = 0; k < WORDS; ++k) {
        words[k] = 0;
    }
    for (int j = 0; j < NB; ++j) {
        const int b = first_byte + j;
        const int x = b >= 0 ? b / CHANNELS : -((CHANNELS - 1 - b) / CHANNELS); /* floor(b / CHANNELS) */
        const int channel = b - x * CHANNELS;
        words[j / 4] |= (uint)row[clamp(x, 0, width - 1) * CHANNELS + channel] << (8 * (j % 4));
    }
}

/* 16 bytes of a row from byte first_byte, as edge_words does for NB (the
 * tile's chunks). */
inline void edge_words_16(__global const uchar* row, int width, int first_byte, uint* words)
{
    const int row_bytes = width * CHANNELS;
    if (first_byte >= row_bytes || first_byte + 16 <= 0) {
        __global const uchar* edge = row + (first_byte < 0 ? 0 : row_bytes - CHANNELS);
#if CHANNELS == 4
        const uint word = (uint)edge[0] | (uint)edge[1] << 8 | (uint)edge[2] << 16 | (uint)edge[3] << 24;
#else
        const uint word = (uint)edge[0] * 0x01010101u;
#endif
        for (int k = 0; k < 4; ++k) {
            words[k] = word;
        }
        return;
    }
    for (int k = 0; k < 4; ++k) {
        words[k] = 0;
    }
    for (int j = 0; j < 16; ++j) {
        const int b = first_byte + j;
        const int x = b >= 0 ? b / CHANNELS : -((CHANNELS - 1 - b) / CHANNELS); /* floor(b / CHANNELS) */
        const int channel = b - x * CHANNELS;
        words[j / 4] |= (uint)row[clamp(x, 0, width - 1) * CHANNELS + channel] << (8 * (j % 4));
    }
}

/* An item's NB bytes of one output row: one vector store (word stores
 * without NV_PTX: Oclgrind 21.10 takes a vector built from words for
 * uninitialised), or byte by byte at the right edge and on unaligned rows,
 * unrolled so that packed[] keeps constant indices (chapter 12). */
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
#pragma unroll
        for (int b = 0; b < NB; ++b) {
            if (b < bytes_left) {
                at[b] = (uchar)(packed[b / 4] >> (8 * (b % 4)));
            }
        }
    }
}

/* An item's span of a ring row: its own words, and (no shuffles) the
 * neighbours' edge words on each side, clamped at the warp's ends, where the
 * values go unused (items 0 and 31 write nothing). */
inline void read_span(__local const uchar* row_start, int lane, uint* words)
{
    __local const uint* own = (__local const uint*)(row_start + lane * NB);
#if defined(NV_PTX) && SIDE_WORDS == 0 && NB == 16
    const uint4 v = *(__local const uint4*)own;
    words[0] = v.x; words[1] = v.y; words[2] = v.z; words[3] = v.w;
#else
    for (int k = 0; k < WORDS; ++k) {
        words[SIDE_WORDS + k] = own[k];
    }
#endif
#if SIDE_WORDS > 0
    __local const uint* left = (__local const uint*)(row_start + max(lane * NB - SIDE_BYTES, 0));
    __local const uint* right = (__local const uint*)(row_start + min(lane * NB + NB, ROW_BYTES - SIDE_BYTES));
    for (int k = 0; k < SIDE_WORDS; ++k) {
        words[k] = left[k];
        words[SIDE_WORDS + WORDS + k] = right[k];
    }
#endif
}

#if HALVES
#define VALUE uint
#define PER_ROW SPAN_PAIRS
inline void unpack(const uint* words, uint* pairs)
{
#pragma unroll
    for (int m = 0; m < SPAN_PAIRS; ++m) {
        pairs[m] = unpack_pair(words[m / 2], m % 2);
    }
}
/* The output row of ring rows (newest + 1 .. newest + TAPS) % TAPS. */
#define OUT_ROW(ring, newest, packed) out_row(ring, newest, hw, far, packed)
#else
#define VALUE float
#define PER_ROW SPAN_VALUES
inline void unpack(const uint* words, float* values)
{
#pragma unroll
    for (int m = 0; m < SPAN_VALUES; ++m) {
        values[m] = byte_to_float(words[m / 4], m % 4);
    }
}
#define OUT_ROW(ring, newest, packed)                                                                         \
    out_row_f32(ring[((newest) + 1) % 5], ring[((newest) + 2) % 5], ring[((newest) + 3) % 5],                    \
                ring[((newest) + 4) % 5], ring[(newest) % 5], w, packed)
#endif

#if TILES
/* ---- Block tiles: the capstone as shipped ------------------------------------------ */
/* A tile row starts at the 16-byte boundary at or before lane 0's first byte
 * (8 bytes before it where NB = 8, so that rows are one chunk wider). */
#define TILE_SHIFT (NB == 8 ? 8 : 0)
#define TILE_STRIDE (32 * NB + (TILE_SHIFT ? 16 : 0)) /* bytes per tile row */
#define TILE_CHUNKS (TILE_STRIDE / 16)
#define TILE_ROWS (WARPS * ROWS + 2 * RADIUS)

/* Brings the group's tile into local memory: chunks wholly inside an aligned
 * row by 16-byte cp.async (NV_PTX) or 16-byte loads and stores; the rest (the
 * image's edges, rows whose pitch is not a multiple of 16) with the edge pixel
 * repeated or byte by byte, spread over every item. Ends with the barrier. */
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
        __global const uchar* from = in + clamp(band - RADIUS + r, 0, height - 1) * pitch + tile_first + k * 16;
#if USE_CP_ASYNC
        asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"((uint)(size_t)(tile + r * TILE_STRIDE + k * 16)),
                     "l"(from)
                     : "memory");
#if ONE_IN_FLIGHT /* the ablation: each chunk waited for before the next */
        commit_copies();
        WAIT_COPIES(0);
#endif
#else
        *(__local uint4*)(tile + r * TILE_STRIDE + k * 16) = *(__global const uint4*)from;
#endif
    }
#if USE_CP_ASYNC
    commit_copies();
#endif
    const int edge_chunks = k_lo + (TILE_CHUNKS - k_hi); /* per row */
    for (int e = item; e < TILE_ROWS * edge_chunks; e += 32 * WARPS) {
        const int r = e / edge_chunks;
        const int n = e - r * edge_chunks;
        const int k = n < k_lo ? n : k_hi + (n - k_lo);
        __global const uchar* row = in + clamp(band - RADIUS + r, 0, height - 1) * pitch;
        uint words[4];
        edge_words_16(row, width, tile_first + k * 16, words);
        /* Word stores: Oclgrind 21.10 takes a vector built from words set on
         * two paths for uninitialised (its values are right). */
        for (int j = 0; j < 4; ++j) {
            ((__local uint*)(tile + r * TILE_STRIDE + k * 16))[j] = words[j];
        }
    }
#if USE_CP_ASYNC
    WAIT_COPIES(0);
#endif
    barrier(CLK_LOCAL_MEM_FENCE);
}

/* Global size (32 x strips, WARPS x bands); local (32, WARPS). */
__kernel __attribute__((reqd_work_group_size(32, WARPS, 1))) void blur_capstone(
    __global const uchar* restrict in, __global uchar* restrict out, int width, int height, int pitch, int aligned,
    HalfWeights hw, FarHalfWeights far, float w0, float w1, float w2)
{
    __local uint4 tile_words[TILE_ROWS * TILE_STRIDE / 16]; /* uint4: 16-byte aligned, as cp.async needs */
    __local uchar* tile = (__local uchar*)tile_words;
    const float w[5] = {w0, w1, w2, w1, w0};
    const int group_first_byte = get_group_id(0) * 30 * NB - NB; /* lane 0's first byte */
    const int band = get_group_id(1) * WARPS * ROWS;              /* the group's first output row */
    fill_tile(in, width, height, pitch, aligned, group_first_byte - TILE_SHIFT, band, tile);

    const int lane = get_local_id(0);
    const int y0 = band + get_local_id(1) * ROWS;
#ifdef NV_PTX
    if (y0 >= height) {
        return; /* the whole warp leaves, after the barrier */
    }
#endif
    const int row_bytes = width * CHANNELS;
    const int first_byte = group_first_byte + lane * NB;
    const bool writes = lane >= 1 && lane < 31 && first_byte < row_bytes;
    const bool vector_out = aligned && first_byte + NB <= row_bytes;
    /* Row i of the warp's rows, from lane 0's first byte. */
    __local const uchar* rows = tile + get_local_id(1) * ROWS * TILE_STRIDE + TILE_SHIFT;
    __global uchar* dst = out + y0 * pitch + first_byte;
    VALUE ring[RING ? TAPS : 1][PER_ROW]; /* the last 2 RADIUS + 1 rows, unpacked */
#pragma unroll
    for (int i = 0; i < ROWS + 2 * RADIUS; ++i) {
#if RING
        {
            uint words[SPAN_WORDS];
            read_span(rows + i * TILE_STRIDE, lane, words);
            unpack(words, ring[i % TAPS]);
        }
#endif
        if (i < 2 * RADIUS) {
            continue; /* the first 2 RADIUS rows only fill the ring */
        }
        uint packed[WORDS];
#if RING
        OUT_ROW(ring, i % TAPS, packed);
#else
        VALUE five[5][PER_ROW];
#pragma unroll
        for (int k = 0; k < 5; ++k) {
            uint words[SPAN_WORDS];
            read_span(rows + (i - 4 + k) * TILE_STRIDE, lane, words);
            unpack(words, five[k]);
        }
        OUT_ROW(five, 4, packed);
#endif
        if (writes && y0 + i - 2 * RADIUS < height) {
            store_row(dst, packed, vector_out, row_bytes - first_byte);
        }
        dst += pitch;
    }
}
#else
__kernel __attribute__((reqd_work_group_size(32, WARPS, 1))) void blur_stream(
    __global const uchar* restrict in, __global uchar* restrict out, int width, int height, int pitch, int aligned,
    int strips, HalfWeights hw, FarHalfWeights far, float w0, float w1, float w2)
{
    __local uint4 ring_words[WARPS * RING_BYTES / 16]; /* uint4: 16-byte aligned, as cp.async needs */
    const float w[5] = {w0, w1, w2, w1, w0};
    const int lane = get_local_id(0);
    const int item = get_group_id(1) * WARPS + get_local_id(1);
    const int segment = item / strips;
    const int strip = item - segment * strips; /* not item % strips: Oclgrind 21.10 cannot run the freeze LLVM makes of / and % together */
    const int first_row = segment * SEG;
#if USE_CP_ASYNC
    if (first_row >= height) {
        return; /* the whole warp leaves: no barrier waits for it */
    }
#endif
    /* Portable: every item takes part in every barrier; a segment below the
     * image only computes nothing. */
    const int rows_left = min(SEG, height - first_row); /* its output rows inside the image (<= 0: none) */
    const int row_bytes = width * CHANNELS;
    const int first_byte = strip * 30 * NB - NB + lane * NB;
    const bool vector_in = aligned && first_byte >= 0 && first_byte + NB <= row_bytes;
    const bool writes = lane >= 1 && lane < 31 && first_byte < row_bytes;
    const bool vector_out = aligned && first_byte + NB <= row_bytes;
    __local uchar* ring = (__local uchar*)ring_words + get_local_id(1) * RING_BYTES;

#if USE_CP_ASYNC
    /* Stage t: rows 5t .. 5t+4 of the segment into ring rows (t % STAGES) * 5 + j. */
#define ISSUE_STAGE(t)                                                                                          \
    do {                                                                                                        \
        if ((t) < STAGES_PER_SEGMENT) {                                                                         \
            const int slot = ((t) % STAGES) * 5;                                                                \
            for (int j = 0; j < 5; ++j) {                                                                       \
                __global const uchar* row = in + clamp(first_row - 2 + 5 * (t) + j, 0, height - 1) * pitch;     \
                __local uchar* to = ring + (slot + j) * ROW_BYTES + lane * NB;                                  \
                if (vector_in) {                                                                                \
                    copy_async(to, row + first_byte);                                                           \
                } else {                                                                                        \
                    uint words[WORDS];                                                                          \
                    edge_words(row, width, first_byte, words);                                                  \
                    for (int k = 0; k < WORDS; ++k) {                                                           \
                        ((__local uint*)to)[k] = words[k];                                                      \
                    }                                                                                           \
                }                                                                                               \
            }                                                                                                   \
        }                                                                                                       \
        commit_copies();                                                                                        \
    } while (0)
#pragma unroll
    for (int t = 0; t < STAGES; ++t) {
        ISSUE_STAGE(t);
    }
#else
    /* The next stage's rows, loaded into registers while this one is computed. */
    uint pending[5][WORDS];
#define LOAD_STAGE(t)                                                                                           \
    do {                                                                                                        \
        for (int j = 0; j < 5; ++j) {                                                                           \
            __global const uchar* row = in + clamp(first_row - 2 + 5 * (t) + j, 0, height - 1) * pitch;         \
            if (vector_in) {                                                                                    \
                for (int k = 0; k < WORDS; ++k) {                                                               \
                    pending[j][k] = ((__global const uint*)(row + first_byte))[k];                              \
                }                                                                                               \
            } else {                                                                                            \
                edge_words(row, width, first_byte, pending[j]);                                                 \
            }                                                                                                   \
        }                                                                                                       \
    } while (0)
#define STORE_STAGE(t)                                                                                          \
    do {                                                                                                        \
        const int slot = ((t) % STAGES) * 5;                                                                    \
        for (int j = 0; j < 5; ++j) {                                                                           \
            for (int k = 0; k < WORDS; ++k) {                                                                   \
                ((__local uint*)(ring + (slot + j) * ROW_BYTES + lane * NB))[k] = pending[j][k];                \
            }                                                                                                   \
        }                                                                                                       \
    } while (0)
    LOAD_STAGE(0);
    STORE_STAGE(0);
#endif

    __global uchar* dst = out + first_row * pitch + first_byte;
    VALUE hring[RING ? 5 : 1][PER_ROW]; /* the last five rows, unpacked */

    for (int t = 0; t < STAGES_PER_SEGMENT; ++t) {
#if USE_CP_ASYNC
#if RING
        WAIT_COPIES(STAGES - 1); /* this item's copies of stage t are done */
#else
        WAIT_COPIES(STAGES - 2);
#endif
#if !SHUFFLES
        sync_warp(); /* ... and the neighbours' too: their bytes are read here */
#endif
#else
        if (t + 1 < STAGES_PER_SEGMENT) {
            LOAD_STAGE(t + 1); /* in flight while stage t is computed */
        }
        barrier(CLK_LOCAL_MEM_FENCE); /* stage t stored by every item; stage t - 1 read by every item */
#endif
        __local const uchar* stage = ring + (t % STAGES) * 5 * ROW_BYTES;
        __local const uchar* previous = ring + ((t + STAGES - 1) % STAGES) * 5 * ROW_BYTES;
#pragma unroll
        for (int j = 0; j < 5; ++j) {
#if RING
            {
                uint words[SPAN_WORDS];
                read_span(stage + j * ROW_BYTES, lane, words);
                unpack(words, hring[j]);
            }
#endif
            const int r = 5 * t + j; /* input row of the segment; output row r - 4 */
            if (r < 4 || r - 4 >= rows_left) {
                continue;
            }
            uint packed[WORDS];
#if RING
            /* Rows r-4 .. r sit in ring slots (j+1) .. (j+4), j (mod 5). */
            OUT_ROW(hring, j, packed);
#else
            VALUE rows[5][PER_ROW];
#pragma unroll
            for (int k = 0; k < 5; ++k) {
                const int at = j + k - 4; /* < 0: stage t - 1 */
                uint words[SPAN_WORDS];
                read_span(at >= 0 ? stage + at * ROW_BYTES : previous + (at + 5) * ROW_BYTES, lane, words);
                unpack(words, rows[k]);
            }
            OUT_ROW(rows, 4, packed);
#endif
            if (writes) {
                store_row(dst, packed, vector_out, row_bytes - first_byte);
            }
            dst += pitch;
        }
#if USE_CP_ASYNC && !SHUFFLES
        sync_warp(); /* the neighbours are done with this stage's rows */
#endif
        // EXERCISE: refill the slots just freed: the stage STAGES ahead by cp.async (ISSUE_STAGE), or (portable) the next stage loaded above (STORE_STAGE)
#if USE_CP_ASYNC
#if RING
        ISSUE_STAGE(t + STAGES);
#else
        if (t > 0) {
            ISSUE_STAGE(t - 1 + STAGES);
        }
#endif
#else
        if (t + 1 < STAGES_PER_SEGMENT) {
            STORE_STAGE(t + 1);
        }
#endif
        // STARTER:
        // #if USE_CP_ASYNC
        //         commit_copies(); /* an empty group keeps the count WAIT_COPIES relies on */
        // #endif
        // END EXERCISE
    }
}
#endif /* TILES */
