// Chapter 09: summing every byte of an image, from the wrong way to the fast way.
//
// Every kernel adds the n bytes at `in` (or, for the second pass of a
// multi-pass sum, n 64-bit partial sums). Totals are 64-bit integers: a
// 6720 x 4480 photograph sums to about 3.3 x 10^9, past what 32 bits hold
// (4.29 x 10^9 is reached by a bright one), and integer sums are exact, so
// every correct kernel must return exactly the CPU's answer on every run.
//
// Built twice by the host: with -D ELEMENT=uchar -D ELEMENT_IS_BYTE=1 (the
// image) and -D ELEMENT=ulong -D ELEMENT_IS_BYTE=0 (partial sums).
// GROUP is the work-group size, 256, a power of two (the host's kGroup).

// The kernels that add into one 64-bit total with atom_add need 64-bit
// atomics, an extension of OpenCL 1.2 (NVIDIA, PoCL and Oclgrind have it);
// where it is missing they are left out and the host skips them.
#ifdef cl_khr_int64_base_atomics
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#define HAVE_INT64_ATOMICS 1
#endif

#ifndef ELEMENT
#error "build with -D ELEMENT=uchar -D ELEMENT_IS_BYTE=1 or -D ELEMENT=ulong -D ELEMENT_IS_BYTE=0"
#endif
#define GROUP 256

// --- 1. racy: every item adds into one global value --------------------------
// `*total += x` is three steps: load the total, add, store it back. Thousands
// of items do this at once: two that load the same old total both store old
// + their own value, and one of the two additions is lost. The result is
// wrong, and differently wrong on every run. (This is a data race: Oclgrind
// reports it, which is why the host does not run it there.)
__kernel void sum_racy(__global const uchar* in, uint n, __global ulong* total)
{
    const size_t i = get_global_id(0);
    if (i < n) {
        *total += in[i];
    }
}

#ifdef HAVE_INT64_ATOMICS
// --- 2. atomic: the same, each addition indivisible ---------------------------
// atom_add does the load, add and store as one operation that no other item
// can interleave with (64-bit: cl_khr_int64_base_atomics). Correct, but every
// one of the n additions goes to the same address, one after the other.
// (OpenCL 1.2's atomics are integer-only: a float total needs an
// atomic_cmpxchg loop or the cl_ext_float_atomics extension.)
__kernel void sum_atomic(__global const uchar* in, uint n, __global ulong* total)
{
    const size_t i = get_global_id(0);
    if (i < n) {
        atom_add(total, (ulong)in[i]);
    }
}

// --- 3. atomic_group: atomics in local memory first ----------------------------
// Each work-group adds into a counter in its own local memory (fast, and only
// 256 items contend), then one item adds the group's sum to the global total:
// n / 256 global atomics instead of n. A group's sum fits 32 bits (256 x 255).
__kernel void sum_atomic_group(__global const uchar* in, uint n, __global ulong* total)
{
    __local uint group_total;
    if (get_local_id(0) == 0) {
        group_total = 0;
    }
    barrier(CLK_LOCAL_MEM_FENCE);  // the zero is written before anyone adds to it
    const size_t i = get_global_id(0);
    if (i < n) {
        atomic_add(&group_total, (uint)in[i]);
    }
    barrier(CLK_LOCAL_MEM_FENCE);  // every addition is done before item 0 reads the sum
    if (get_local_id(0) == 0) {
        atom_add(total, (ulong)group_total);
    }
}
#endif

// --- 4. the tree in local memory ----------------------------------------------
// Every item of the group puts its value into s[lid]; then, for offset = 128,
// 64, ..., 1, the items below offset add the element `offset` places above:
//
//   offset 128:  s[0] += s[128]  s[1] += s[129] ... s[127] += s[255]
//   offset  64:  s[0] += s[64]   ...                s[63]  += s[127]
//   ...
//   offset   1:  s[0] += s[1]                       -> s[0] is the group's sum
//
// 8 steps for 256 values instead of 255 additions in a row. Between two steps
// every item waits at a barrier: a step reads what the step before wrote, and
// items of a group do not run in lockstep. The barrier is OUTSIDE the `if`:
// a barrier must be reached by every item of the group or by none. Inside the
// `if`, only the items below `offset` would reach it; on a GPU the others
// never arrive and the group can hang, or the barrier lets the group go on
// and items read partners' values before they are written (undefined
// behaviour: reduce_broken.cl has that kernel, which only runs on Oclgrind).
//
// All items may read s[0] after the last barrier.
ulong group_sum(__local ulong* s, ulong mine)
{
    // EXERCISE: put this item's value where the whole group can read it, and wait until every item has
    const uint lid = get_local_id(0);
    s[lid] = mine;
    barrier(CLK_LOCAL_MEM_FENCE);
    // END EXERCISE
    // EXERCISE: the tree: halve the active items each step until s[0] holds the sum; every item reaches every barrier
    for (uint offset = GROUP / 2; offset > 0; offset /= 2) {
        if (lid < offset) {
            s[lid] += s[lid + offset];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    return s[0];
    // STARTER:
    // return mine;  // this item's value alone: the group's sum only if the group has one item
    // END EXERCISE
}

#ifdef HAVE_INT64_ATOMICS
// tree: one element per item, the tree, then one global atomic per group.
__kernel void sum_tree_atomic(__global const uchar* in, uint n, __global ulong* total)
{
    __local ulong s[GROUP];
    const size_t i = get_global_id(0);
    const ulong sum = group_sum(s, i < n ? (ulong)in[i] : 0);  // zero past the end
    if (get_local_id(0) == 0) {
        atom_add(total, sum);
    }
}
#endif

#ifdef HAVE_INT64_ATOMICS
// --- 4b. the webinar's first tree: interleaved addressing ------------------------
// The same tree with the other pairing, the one the Yandex webinar shows first:
//
//   i = 1:  s[0] += s[1]   s[2] += s[3]   s[4] += s[5]   ...  (items 0, 2, 4, ...)
//   i = 2:  s[0] += s[2]   s[4] += s[6]   ...                 (items 0, 4, 8, ...)
//   ...
//   i = 128: s[0] += s[128]                                    -> s[0] is the group's sum
//
// Same 8 steps, same additions in number, same barriers (outside the `if`).
// What differs is which items work: at step i the active items are 2i apart,
// so `lid % (2 * i)` splits every warp, and all 8 warps of the group stay
// busy (with 16, 8, 4, 2, 1 active lanes) for the first five steps, where in
// sequential addressing the active items are the lowest ones: half the warps
// fall idle at once, then one warp does the last six steps. And which slots
// they touch: item lid reads s[lid] and s[lid + i], 8-byte slots 2i apart,
// so a warp's few active lanes hit the same banks of local memory (bank
// conflicts) and cost as many local-memory cycles as a full warp reading 32
// consecutive slots. sum_tree_atomic, with only the pairing changed.
ulong group_sum_interleaved(__local ulong* s, ulong mine)
{
    const uint lid = get_local_id(0);
    s[lid] = mine;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint i = 1; i < GROUP; i *= 2) {
        if (lid % (2 * i) == 0) {  // lid + i < GROUP: lid is at most GROUP - 2i
            s[lid] += s[lid + i];
        }
        barrier(CLK_LOCAL_MEM_FENCE);  // outside the if, as in group_sum
    }
    return s[0];
}

__kernel void sum_interleaved_atomic(__global const uchar* in, uint n, __global ulong* total)
{
    __local ulong s[GROUP];
    const size_t i = get_global_id(0);
    const ulong sum = group_sum_interleaved(s, i < n ? (ulong)in[i] : 0);
    if (get_local_id(0) == 0) {
        atom_add(total, sum);
    }
}
#endif

// multipass: the same tree writing each group's sum to partials[group]; the
// host launches it again on the partials until few are left, and adds those.
__kernel void sum_tree(__global const ELEMENT* in, uint n, __global ulong* partials)
{
    __local ulong s[GROUP];
    const size_t i = get_global_id(0);
    const ulong sum = group_sum(s, i < n ? (ulong)in[i] : 0);
    if (get_local_id(0) == 0) {
        partials[get_group_id(0)] = sum;
    }
}

// --- 5. many elements per item -------------------------------------------------
// The tree spends 8 barriers to add 256 values, and one item per byte means
// 30 million items each loading one byte. Instead: launch only enough groups
// to fill the GPU, and let each item first add many elements on its own, in
// registers, striding over the whole input by the total number of items (so
// that neighbouring items still load neighbouring addresses: coalesced). For
// bytes, each load takes 16 of them at once (a uint4). The tree then runs once
// per group, on the items' sums.

// The four bytes of x, added: two 16-bit lanes at once, then the two lanes.
uint add_bytes(uint x)
{
    const uint pairs = (x & 0x00FF00FFu) + ((x >> 8) & 0x00FF00FFu);
    return (pairs & 0xFFFFu) + (pairs >> 16);
}

__kernel void sum_strided(__global const ELEMENT* in, uint n, __global ulong* partials)
{
    __local ulong s[GROUP];
    const uint stride = get_global_size(0);
#if ELEMENT_IS_BYTE
    // 16 bytes per load. An item adds at most n / stride + 1 loads of at most
    // 4080 each: with n < 2^30 and stride >= 256 that fits 32 bits.
    __global const uint4* in16 = (__global const uint4*)in;  // buffers are aligned to far more than 16 bytes
    const uint n16 = n / 16;
    uint mine = 0;
    for (uint j = get_global_id(0); j < n16; j += stride) {
        const uint4 v = in16[j];
        mine += add_bytes(v.x) + add_bytes(v.y) + add_bytes(v.z) + add_bytes(v.w);
    }
    // The last n % 16 bytes, one per item.
    const uint tail = n16 * 16 + get_global_id(0);
    if (tail < n) {
        mine += in[tail];
    }
    const ulong sum = group_sum(s, mine);
#else
    ulong mine = 0;
    for (uint j = get_global_id(0); j < n; j += stride) {
        mine += in[j];
    }
    const ulong sum = group_sum(s, mine);
#endif
    if (get_local_id(0) == 0) {
        partials[get_group_id(0)] = sum;
    }
}

// --- 6. an image in rows or in columns, one item per row or column ---------------
// The webinar's second sum: the n bytes are an image of rows `width` bytes
// long (the last row may be short), and each item walks one line of it, byte
// by byte, into partials[line]; the multipass tree above then adds the
// partials. Which way the items walk decides what a warp reads at once:
//
//   rows first:    item r walks row r. At each step the 32 items of a warp
//                  read 32 bytes a whole row apart: 32 different 32-byte
//                  sectors for 32 useful bytes (uncoalesced).
//   columns first: item c walks column c down. At each step the 32 items
//                  read 32 neighbouring bytes of one row: one sector
//                  (coalesced).
//
// Both read every byte once and write one partial per line. Indices are ulong
// so that a row start or a step down a column cannot wrap past 2^32.
__kernel void sum_rows_first(__global const uchar* in, uint n, uint width, __global ulong* partials)
{
    const ulong row = get_global_id(0);
    const ulong begin = row * width;
    if (begin >= n) {
        return;  // the last group's items past the last row
    }
    const ulong end = min(begin + width, (ulong)n);
    ulong mine = 0;
    for (ulong i = begin; i < end; ++i) {
        mine += in[i];
    }
    partials[row] = mine;
}

__kernel void sum_columns_first(__global const uchar* in, uint n, uint width, __global ulong* partials)
{
    const ulong column = get_global_id(0);
    if (column >= width || column >= n) {
        return;  // past the last column (or past a one-row image's end)
    }
    ulong mine = 0;
    for (ulong i = column; i < n; i += width) {
        mine += in[i];
    }
    partials[column] = mine;
}

// --- The seed's example: one group adds 256 numbers ------------------------------
// toropippi's Unity compute shader, in OpenCL C: 256 items, one group, the
// tree above with the barrier outside the `if`. Given 0, 1, ..., 255 it must
// return 32640. It works for exactly 256 values in one group and no others:
// the kernels above are what it becomes for any n.
__kernel void sum_256(__global const uint* in, __global uint* out)
{
    __local uint s[256];
    const uint lid = get_local_id(0);
    s[lid] = in[lid];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint offset = 128; offset > 0; offset /= 2) {
        if (lid < offset) {
            s[lid] += s[lid + offset];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0) {
        out[0] = s[0];
    }
}
