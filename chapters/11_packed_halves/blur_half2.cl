// Chapter 11: packed halves, two pixels per instruction, in OpenCL C:
// blur_half2.cu's packed-half warp strips (read that file's opening comment
// first), for the radius-2 blur with sigma 1's weights (half2_plan.hpp
// proves its error bound).
//
// Portable OpenCL 1.2 lacks three things that kernel uses, so each is a
// small function with two bodies:
//  * HFMA2 and HADD2, arithmetic on two half floats at once: NVIDIA's driver
//    offers no cl_khr_fp16, but its compiler accepts inline PTX, so with
//    -D NV_PTX (the host passes it on NVIDIA's platform) each is one PTX
//    instruction. Elsewhere (PoCL, Oclgrind) the halves are widened to float
//    by their bits, multiplied and added in float and rounded back to half:
//    a product of two halves is exact in float, so this rounds like the
//    hardware's fused multiply-add but for rare double roundings, far inside
//    the error bound's margin.
//  * byte permutes (PRMT): one PTX instruction, or shifts and masks that the
//    compiler folds, since every selector is a constant.
//  * the neighbouring lanes' sums: warp shuffles in PTX (a work-group's
//    dimension 0 is 32 items, one warp). Elsewhere each item loads the
//    bytes beside its own too and sums them itself: the same operations on
//    the same bytes give the same bits a shuffle would have brought. (An
//    exchange through local memory would need two barriers per row, and
//    barriers in an unrolled row loop take PoCL minutes to compile.)
//
// Built with -D CHANNELS=<1|4> -D NB=<bytes per item: 8 gray, 16 RGBA>
// -D ROWS=<output rows per item> -D AHEAD=<rows loaded ahead>
// -D WARPS=<items in dimension 1 of a group> [-D NV_PTX].

#ifndef CHANNELS
#error "build with -D CHANNELS=1 (gray) or 4 (RGBA)"
#endif

#define PAIRS (NB / 2)         /* half2 registers per item */
#define WORDS (NB / 4)         /* 32-bit words loaded per item */
#define ROWS_IN (ROWS + 4)
#define RAW ((AHEAD + 1 + 4) / 5 * 5) /* raw rows kept: whole rings of 5, so slots are constants */
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
        // EXERCISE: span_v[m] = w0 (r0 + r4) + w1 (r1 + r3) + w2 r2 - K: outer rows as integers, then 3 HFMA2
        const bool ba = CHANNELS == 4 && (m % 2); /* RGBA's (B, A) pair */
        const uint a = r0[m] + r4[m] - BIAS;
        const uint b = r1[m] + r3[m] - BIAS;
        uint t = hfma2(ba ? hw.w2_ba : hw.w2, r2[m], ba ? hw.minus_k_ba : hw.minus_k);
        t = hfma2(ba ? hw.w1_ba : hw.w1, b, t);
        span_v[m] = hfma2(ba ? hw.w0_ba : hw.w0, a, t);
        // STARTER:
        // span_v[m] = hfma2(0x3C003C00u, r2[m], 0xE400E400u); /* the middle row alone: 1 (1024 + r2) - 1024 */
        // END EXERCISE
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
        // EXERCISE: o[m], pixels 2m and 2m+1 summed across (5 HFMA2 over P and Q), rounded by adding 1024 (HADD2)
        uint h = hfma2(hw.w0, P[m], 0u);
        h = hfma2(hw.w0, P[m + 2], h);
        h = hfma2(hw.w1, Q[m], h);
        h = hfma2(hw.w1, Q[m + 1], h);
        h = hfma2(hw.w2, P[m + 1], h);
        o[m] = hadd2(h, BIAS); /* rounds to the nearest integer, in the low byte */
        // STARTER:
        // o[m] = hadd2(P[m + 1], BIAS); /* the pair itself, unweighted */
        // END EXERCISE
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
        // EXERCISE: o[m], RGBA: the same channels one and two pixels away are 2 and 4 pairs off; 5 HFMA2, 1 HADD2
        const bool ba = m % 2;
        uint h = hfma2(ba ? hw.w0_ba : hw.w0, P[m], 0u);
        h = hfma2(ba ? hw.w0_ba : hw.w0, P[m + 8], h);
        h = hfma2(ba ? hw.w1_ba : hw.w1, P[m + 2], h);
        h = hfma2(ba ? hw.w1_ba : hw.w1, P[m + 6], h);
        h = hfma2(ba ? hw.w2_ba : hw.w2, P[m + 4], h);
        o[m] = hadd2(h, BIAS);
        // STARTER:
        // o[m] = hadd2(P[m + 4], BIAS); /* the pair itself, unweighted */
        // END EXERCISE
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

/* Loads row r (clamped to the image) of the item's span: SPAN_BYTES bytes
 * from span_first, its own NB bytes and SIDE_PAIRS pairs on each side. */
inline void load_row(__global const uchar* restrict in, int width, int height, int pitch, int span_first, int r,
                     bool vector_io, uint* words)
{
    __global const uchar* row = in + clamp(r, 0, height - 1) * pitch;
    if (vector_io) {
#if SIDE_PAIRS == 0 && NB == 16
        const uint4 v = *(__global const uint4*)(row + span_first);
        words[0] = v.x; words[1] = v.y; words[2] = v.z; words[3] = v.w;
#elif SIDE_PAIRS == 0 && NB == 8
        const uint2 v = *(__global const uint2*)(row + span_first);
        words[0] = v.x; words[1] = v.y;
#else
        /* With the side words the span is only 4-byte aligned: word loads. */
        for (int k = 0; k < SPAN_WORDS; ++k) {
            words[k] = ((__global const uint*)(row + span_first))[k];
        }
#endif
    } else {
        for (int k = 0; k < SPAN_WORDS; ++k) {
            words[k] = 0;
        }
        const int first_pixel = span_first / CHANNELS; /* span_first is a multiple of 4, so of CHANNELS */
        for (int p = 0; p < SPAN_BYTES / CHANNELS; ++p) {
            const int x = clamp(first_pixel + p, 0, width - 1); /* clamp-to-edge */
            for (int b = 0; b < CHANNELS; ++b) {
                const int byte = p * CHANNELS + b;
                words[byte / 4] |= (uint)row[x * CHANNELS + b] << (8 * (byte % 4));
            }
        }
    }
}

/* One warp's strip; edge: the group touches the right edge or unaligned rows
 * (called with a constant, so each call compiles to its own body). */
inline void half2_strip(__global const uchar* restrict in, __global uchar* restrict out, int width, int height,
                        int pitch, int aligned, const HalfWeights hw, const bool edge)
{
    const int lane = get_local_id(0);
    const int first_byte = get_group_id(0) * 30 * NB + (lane - 1) * NB; /* this lane's first byte in a row */
    const int y0 = get_global_id(1) * ROWS;
    if (y0 >= height) {
        return; /* the whole warp (one y0) leaves: the shuffles need every lane */
    }
    const int row_bytes = width * CHANNELS;
    const int span_first = first_byte - 2 * SIDE_PAIRS;
    const bool vector_io = !edge || (aligned && span_first >= 0 && span_first + SPAN_BYTES <= row_bytes);
    const bool writes = lane >= 1 && lane < 31 && first_byte < row_bytes;

    uint ring[5][SPAN_PAIRS]; /* the last 5 rows, as biased halves */
    uint raw[RAW][SPAN_WORDS]; /* rows as loaded, AHEAD in flight */
#pragma unroll
    for (int i = 0; i < AHEAD; ++i) {
        load_row(in, width, height, pitch, span_first, y0 - 2 + i, vector_io, raw[i]);
    }

    for (int base = 0; base < ROWS_IN; base += RAW) {
#pragma unroll
        for (int j = 0; j < RAW; ++j) {
            const int i = base + j;
            if (i >= ROWS_IN) {
                break;
            }
            if (i + AHEAD < ROWS_IN) {
                load_row(in, width, height, pitch, span_first, y0 - 2 + i + AHEAD, vector_io,
                         raw[(j + AHEAD) % RAW]);
            }
            unpack_row(raw[j], ring[j % 5]);
            if (i < 4) {
                continue; /* the first 4 rows only fill the ring */
            }
            const int y = y0 + i - 4;

            /* Rows i-4 .. i sit in ring slots (j+1) .. (j+4), j (mod 5). */
            uint packed[WORDS];
            out_row(ring[(j + 1) % 5], ring[(j + 2) % 5], ring[(j + 3) % 5], ring[(j + 4) % 5], ring[j % 5], hw, packed);
            if (writes && y < height) {
                store_row(out + y * pitch + first_byte, packed, vector_io, row_bytes - first_byte);
            }
        }
    }
}

/* Global size: (32 x groups across, WARPS x groups down); local (32, WARPS). */
__kernel __attribute__((reqd_work_group_size(32, WARPS, 1))) void blur_half2(
    __global const uchar* restrict in, __global uchar* restrict out, int width, int height, int pitch, int aligned,
    HalfWeights hw)
{
    /* Lane 0's span starts 2 x SIDE_PAIRS bytes before its first byte, lane 31's ends as far after. */
    const int group_first_byte = get_group_id(0) * 30 * NB - NB - 2 * SIDE_PAIRS;
    const bool interior =
        aligned && group_first_byte >= 0 && group_first_byte + 32 * NB + 4 * SIDE_PAIRS <= width * CHANNELS;
    if (interior) {
        half2_strip(in, out, width, height, pitch, aligned, hw, false);
    } else {
        half2_strip(in, out, width, height, pitch, aligned, hw, true);
    }
}
