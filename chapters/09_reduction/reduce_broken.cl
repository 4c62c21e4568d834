// Chapter 09: the seed's 256-value sum with the barrier moved INSIDE the `if`.
// It repeats reduce.cl's sum_256 on purpose, the barrier's place the only change.
//
// DO NOT RUN THIS ON A REAL DEVICE. A barrier must be reached by every item
// of the work-group or by none (OpenCL 1.2, section 6.12.8; CUDA's
// __syncthreads alike). Here, at offset 128 only items 0..127 reach it, at
// offset 64 only 0..63, and so on. What happens is undefined:
//   - an implementation whose barrier waits for every item of the group
//     waits for items that will never come: the group, and the program, hang;
//   - one that waits only for items that have not exited (NVIDIA since Volta)
//     lets the group go on once the skipping items have run to the end and
//     exited; whether each addition read its partner's value after it was
//     written is then a matter of timing: right, or silently wrong.
// The compiler accepts it without a warning. The host builds it only on
// Oclgrind, which simulates every item and reports "Work-group divergence
// detected (barrier)" instead of hanging: run
//   oclgrind build/bin/09_reduction --api opencl --variant barrier_in_if --size 37x23
__kernel void sum_256_barrier_in_if(__global const uint* in, __global uint* out)
{
    __local uint s[256];
    const uint lid = get_local_id(0);
    s[lid] = in[lid];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint offset = 128; offset > 0; offset /= 2) {
        if (lid < offset) {
            s[lid] += s[lid + offset];
            barrier(CLK_LOCAL_MEM_FENCE);  // THE BUG: only the items below `offset` get here
        }
    }
    if (lid == 0) {
        out[0] = s[0];
    }
}
