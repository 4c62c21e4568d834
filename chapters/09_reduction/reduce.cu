// Chapter 09: the same sums in CUDA (reduce.cl has the long comments), plus
// the step OpenCL 1.2 cannot take: warp shuffles.
//
// Totals are unsigned long long (64 bits): exact, and large enough for any
// image. kGroup = 256 threads per block.
#include <cstdint>

#include "reduce.cuh"

namespace {

using Total = unsigned long long;  // what atomicAdd and __shfl_down_sync take for 64 bits

// 1. racy: load, add, store, by every thread at once: lost updates.
__global__ void sum_racy(const std::uint8_t* in, unsigned n, Total* total) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) *total += in[i];
}

// 2. atomic: each addition indivisible; n of them on one address.
__global__ void sum_atomic(const std::uint8_t* in, unsigned n, Total* total) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(total, static_cast<Total>(in[i]));
}

// 3. atomic_group: a shared-memory counter per block, one global atomic per block.
__global__ void sum_atomic_group(const std::uint8_t* in, unsigned n, Total* total) {
  __shared__ unsigned block_total;
  if (threadIdx.x == 0) block_total = 0;
  __syncthreads();
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(&block_total, static_cast<unsigned>(in[i]));
  __syncthreads();
  if (threadIdx.x == 0) atomicAdd(total, static_cast<Total>(block_total));
}

// 4. The tree in shared memory; __syncthreads() outside the `if`, as the
// barrier in reduce.cl. Every thread may read s[0] afterwards.
__device__ Total block_sum_tree(Total* s, Total mine) {
  // EXERCISE: put this thread's value where the whole block can read it, and wait until every thread has
  const unsigned t = threadIdx.x;
  s[t] = mine;
  __syncthreads();
  // END EXERCISE
  // EXERCISE: the tree: halve the active threads each step until s[0] holds the sum; all threads reach every barrier
  for (unsigned offset = kGroup / 2; offset > 0; offset /= 2) {
    if (t < offset) s[t] += s[t + offset];
    __syncthreads();
  }
  return s[0];
  // STARTER:
  // return mine;  // this thread's value alone: the block's sum only if the block has one thread
  // END EXERCISE
}

// 4b. The webinar's first tree, interleaved addressing (reduce.cl:
// group_sum_interleaved): at step i the threads 2i apart add the slot i above
// them. A divergent modulo test, active threads spread over every warp, and
// their slots 2i apart share banks. __syncthreads() outside the `if`.
__device__ Total block_sum_interleaved(Total* s, Total mine) {
  const unsigned t = threadIdx.x;
  s[t] = mine;
  __syncthreads();
  for (unsigned i = 1; i < kGroup; i *= 2) {
    if (t % (2 * i) == 0) s[t] += s[t + i];  // t + i < kGroup: t is at most kGroup - 2i
    __syncthreads();
  }
  return s[0];
}

// 5. Warp shuffles. The 32 threads of a warp run together, and
// __shfl_down_sync hands each thread the value of the thread `offset` lanes
// above it, register to register: 5 steps add a warp's 32 values with no
// shared memory and no barrier. Each warp's sum then goes through shared
// memory (8 values for 256 threads) and the first warp adds those the same
// way: one __syncthreads() in all, instead of eight.
__device__ Total warp_sum(Total v) {
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffffu, v, offset);
  return v;  // lane 0 holds the warp's sum
}

__device__ Total block_sum_shuffle(Total* s, Total mine) {
  constexpr unsigned kWarps = kGroup / 32;
  const unsigned lane = threadIdx.x % 32;
  const unsigned warp = threadIdx.x / 32;
  const Total warp_total = warp_sum(mine);
  if (lane == 0) s[warp] = warp_total;
  __syncthreads();  // every warp's sum is in s[] before warp 0 reads them
  Total block_total = 0;
  if (warp == 0) block_total = warp_sum(lane < kWarps ? s[lane] : 0);
  return block_total;  // valid in thread 0
}

// tree: one element per thread, the tree, one global atomic per block.
__global__ void sum_tree_atomic(const std::uint8_t* in, unsigned n, Total* total) {
  __shared__ Total s[kGroup];
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  const Total sum = block_sum_tree(s, i < n ? in[i] : 0);
  if (threadIdx.x == 0) atomicAdd(total, sum);
}

// interleaved: sum_tree_atomic with the interleaved tree, nothing else changed.
__global__ void sum_interleaved_atomic(const std::uint8_t* in, unsigned n, Total* total) {
  __shared__ Total s[kGroup];
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  const Total sum = block_sum_interleaved(s, i < n ? in[i] : 0);
  if (threadIdx.x == 0) atomicAdd(total, sum);
}

// multipass: each block's sum to partials[block].
template <class Element>
__global__ void sum_tree(const Element* in, unsigned n, Total* partials) {
  __shared__ Total s[kGroup];
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  const Total sum = block_sum_tree(s, i < n ? static_cast<Total>(in[i]) : 0);
  if (threadIdx.x == 0) partials[blockIdx.x] = sum;
}

// The four bytes of x, added (reduce.cl: add_bytes).
__device__ unsigned add_bytes(unsigned x) {
  const unsigned pairs = (x & 0x00FF00FFu) + ((x >> 8) & 0x00FF00FFu);
  return (pairs & 0xFFFFu) + (pairs >> 16);
}

// Each thread's own sum over a grid-stride loop: 16 bytes per load for bytes.
__device__ Total thread_sum(const std::uint8_t* in, unsigned n) {
  const unsigned stride = gridDim.x * blockDim.x;
  const unsigned first = blockIdx.x * blockDim.x + threadIdx.x;
  const uint4* in16 = reinterpret_cast<const uint4*>(in);  // cudaMalloc aligns to 256 bytes
  const unsigned n16 = n / 16;
  unsigned mine = 0;  // fits 32 bits: see sum_strided in reduce.cl
  for (unsigned j = first; j < n16; j += stride) {
    const uint4 v = in16[j];
    mine += add_bytes(v.x) + add_bytes(v.y) + add_bytes(v.z) + add_bytes(v.w);
  }
  const unsigned tail = n16 * 16 + first;
  if (tail < n) mine += in[tail];
  return mine;
}

__device__ Total thread_sum(const Total* in, unsigned n) {
  const unsigned stride = gridDim.x * blockDim.x;
  Total mine = 0;
  for (unsigned j = blockIdx.x * blockDim.x + threadIdx.x; j < n; j += stride) mine += in[j];
  return mine;
}

// many_per_item (kShuffle false) and shuffle (kShuffle true): each block's sum to partials[block].
template <bool kShuffle, class Element>
__global__ void sum_strided(const Element* in, unsigned n, Total* partials) {
  __shared__ Total s[kGroup];
  const Total mine = thread_sum(in, n);
  const Total sum = kShuffle ? block_sum_shuffle(s, mine) : block_sum_tree(s, mine);
  if (threadIdx.x == 0) partials[blockIdx.x] = sum;
}

// 6. The image as rows of `width` bytes (the last may be short), one thread
// per row or per column, each line's sum to partials[line] (reduce.cl has the
// picture). Rows first: a warp's 32 threads read 32 bytes a row apart at each
// step (32 sectors); columns first: 32 neighbouring bytes of one row (one
// sector). 64-bit indices, as in reduce.cl: no wrap past 2^32.
__global__ void sum_rows_first(const std::uint8_t* in, unsigned n, unsigned width, Total* partials) {
  const unsigned long long row = blockIdx.x * static_cast<unsigned long long>(blockDim.x) + threadIdx.x;
  const unsigned long long begin = row * width;
  if (begin >= n) return;  // past the last row
  const unsigned long long end = begin + width < n ? begin + width : n;
  Total mine = 0;
  for (unsigned long long i = begin; i < end; ++i) mine += in[i];
  partials[row] = mine;
}

__global__ void sum_columns_first(const std::uint8_t* in, unsigned n, unsigned width, Total* partials) {
  const unsigned long long column = blockIdx.x * static_cast<unsigned long long>(blockDim.x) + threadIdx.x;
  if (column >= width || column >= n) return;  // past the last column
  Total mine = 0;
  for (unsigned long long i = column; i < n; i += width) mine += in[i];
  partials[column] = mine;
}

// The seed's example: one block of 256 threads adds 256 numbers.
__global__ void sum_256(const unsigned* in, unsigned* out) {
  __shared__ unsigned s[256];
  const unsigned t = threadIdx.x;
  s[t] = in[t];
  __syncthreads();
  for (unsigned offset = 128; offset > 0; offset /= 2) {
    if (t < offset) s[t] += s[t + offset];
    __syncthreads();
  }
  if (t == 0) out[0] = s[0];
}

unsigned blocks_for(unsigned n) { return (n + kGroup - 1) / kGroup; }

}  // namespace

void launch_sum_one_per_item(CudaSum kind, const std::uint8_t* in, unsigned n, Total* total, cudaStream_t stream) {
  const unsigned blocks = blocks_for(n);
  switch (kind) {
    case CudaSum::Racy:
      sum_racy<<<blocks, kGroup, 0, stream>>>(in, n, total);
      break;
    case CudaSum::Atomic:
      sum_atomic<<<blocks, kGroup, 0, stream>>>(in, n, total);
      break;
    case CudaSum::AtomicGroup:
      sum_atomic_group<<<blocks, kGroup, 0, stream>>>(in, n, total);
      break;
    case CudaSum::TreeAtomic:
      sum_tree_atomic<<<blocks, kGroup, 0, stream>>>(in, n, total);
      break;
    case CudaSum::InterleavedAtomic:
      sum_interleaved_atomic<<<blocks, kGroup, 0, stream>>>(in, n, total);
      break;
  }
}

void launch_sum_lines(bool rows_first, const std::uint8_t* in, unsigned n, unsigned width, unsigned lines,
                      Total* partials, cudaStream_t stream) {
  const unsigned blocks = (lines + kWalkGroup - 1) / kWalkGroup;
  if (rows_first) {
    sum_rows_first<<<blocks, kWalkGroup, 0, stream>>>(in, n, width, partials);
  } else {
    sum_columns_first<<<blocks, kWalkGroup, 0, stream>>>(in, n, width, partials);
  }
}

void launch_sum_tree(const std::uint8_t* in, unsigned n, Total* partials, cudaStream_t stream) {
  sum_tree<<<blocks_for(n), kGroup, 0, stream>>>(in, n, partials);
}

void launch_sum_tree(const Total* in, unsigned n, Total* partials, cudaStream_t stream) {
  sum_tree<<<blocks_for(n), kGroup, 0, stream>>>(in, n, partials);
}

namespace {

template <class Element>
void launch_strided(bool shuffle, const Element* in, unsigned n, unsigned blocks, Total* partials,
                    cudaStream_t stream) {
  if (shuffle) {
    sum_strided<true><<<blocks, kGroup, 0, stream>>>(in, n, partials);
  } else {
    sum_strided<false><<<blocks, kGroup, 0, stream>>>(in, n, partials);
  }
}

}  // namespace

void launch_sum_strided(bool shuffle, const std::uint8_t* in, unsigned n, unsigned blocks, Total* partials,
                        cudaStream_t stream) {
  launch_strided(shuffle, in, n, blocks, partials, stream);
}

void launch_sum_strided(bool shuffle, const Total* in, unsigned n, unsigned blocks, Total* partials,
                        cudaStream_t stream) {
  launch_strided(shuffle, in, n, blocks, partials, stream);
}

void launch_sum_256(const unsigned* in, unsigned* out, cudaStream_t stream) { sum_256<<<1, 256, 0, stream>>>(in, out); }
