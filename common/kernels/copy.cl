// The bandwidth ceiling: a copy of the image's bytes, input to output.
//
// A blur that reads its input once and writes its output once can go no
// faster than this copy, so every table reports each variant as a percentage
// of it. Each work-item moves one 16-byte vector (uint4), the widest load a
// thread can issue; consecutive items touch consecutive vectors, so a warp
// reads 512 contiguous bytes. The last bytes % 16 are copied one byte per item.

__kernel void copy_bytes(__global const uint4* restrict in,
                         __global uint4* restrict out,
                         uint bytes)
{
    const uint i = (uint)get_global_id(0);
    const uint vectors = bytes / 16u;
    if (i < vectors) {
        out[i] = in[i];
    } else {
        const uint b = vectors * 16u + (i - vectors);  // one tail byte per item
        if (b < bytes) {
            ((__global uchar*)out)[b] = ((__global const uchar*)in)[b];
        }
    }
}
