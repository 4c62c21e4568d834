// Chapter 09: the sums in CUDA, the host side (the kernels are in reduce.cu).
#ifdef GAUSS_HAVE_CUDA

#include "reduction_cuda.hpp"

#include <algorithm>
#include <limits>

#include "gauss/error.hpp"
#include "reduce.cuh"

namespace chapter09 {
namespace {

using Total = unsigned long long;

// The garbage poison() leaves: 0xA5 in every byte, far from any real sum.
constexpr int kPoisonByte = 0xA5;

unsigned checked_count(std::size_t n) {
  if (n == 0 || n > std::numeric_limits<unsigned>::max()) {
    throw gauss::ApiError("a sum of " + std::to_string(n) + " elements: the kernels take 1 to 2^32 - 1");
  }
  return static_cast<unsigned>(n);
}

unsigned blocks_for(std::size_t elements) { return static_cast<unsigned>((elements + kGroup - 1) / kGroup); }

Total* as_totals(const gauss::CudaBuffer& buffer) { return reinterpret_cast<Total*>(buffer.data()); }

}  // namespace

CudaSummer::CudaSummer(const gauss::CudaDeviceInfo& device)
    : multiprocessors_(std::max(device.multiprocessors, 1)), total_(sizeof(Total)) {}

bool CudaSummer::runs(SumMethod, std::string* why) const {
  if (why != nullptr) why->clear();
  return true;
}

unsigned long long* CudaSummer::partials(int which, std::size_t count) {
  if (partials_[which].bytes() < count * sizeof(Total)) partials_[which] = gauss::CudaBuffer(count * sizeof(Total));
  return as_totals(partials_[which]);
}

void CudaSummer::poison() {
  GAUSS_CUDA_CHECK(cudaMemsetAsync(total_.data(), kPoisonByte, total_.bytes(), stream_.get()));
  for (const gauss::CudaBuffer& buffer : partials_) {
    if (buffer.bytes() > 0)
      GAUSS_CUDA_CHECK(cudaMemsetAsync(buffer.data(), kPoisonByte, buffer.bytes(), stream_.get()));
  }
  GAUSS_CUDA_CHECK(cudaStreamSynchronize(stream_.get()));
}

unsigned CudaSummer::strided_blocks(std::size_t n) const {
  // 8 blocks of 256 threads fill one SM's 2048 threads; no more blocks than
  // give every thread 16 bytes to load.
  const std::size_t fill = 8 * static_cast<std::size_t>(multiprocessors_);
  const std::size_t useful = (n + kGroup * 16 - 1) / (kGroup * 16);
  return static_cast<unsigned>(std::max<std::size_t>(1, std::min(fill, useful)));
}

SumRun CudaSummer::sum(SumMethod method, const std::uint8_t* data, std::size_t n) {
  const unsigned count = checked_count(n);
  const cudaStream_t s = stream_.get();
  SumRun run;
  Total total = 0;
  gauss::HostTimer host;
  start_.record(s);
  switch (method) {
    case SumMethod::Racy:
    case SumMethod::Atomic:
    case SumMethod::AtomicGroup:
    case SumMethod::Tree: {
      GAUSS_CUDA_CHECK(cudaMemsetAsync(total_.data(), 0, sizeof(Total), s));
      const CudaSum kind = method == SumMethod::Racy     ? CudaSum::Racy
                           : method == SumMethod::Atomic ? CudaSum::Atomic
                           : method == SumMethod::Tree   ? CudaSum::TreeAtomic
                                                         : CudaSum::AtomicGroup;
      launch_sum_one_per_item(kind, data, count, as_totals(total_), s);
      GAUSS_CUDA_CHECK(cudaGetLastError());
      stop_.record(s);
      GAUSS_CUDA_CHECK(cudaMemcpyAsync(&total, total_.data(), sizeof total, cudaMemcpyDeviceToHost, s));
      break;
    }
    case SumMethod::MultiPass: {
      // As in OpenCL: pass after pass until one block's worth is left for the host.
      unsigned elements = count;
      unsigned groups = blocks_for(elements);
      Total* out = partials(0, groups);
      launch_sum_tree(data, elements, out, s);
      GAUSS_CUDA_CHECK(cudaGetLastError());
      int which = 0;
      elements = groups;
      while (elements > kGroup) {
        groups = blocks_for(elements);
        which = 1 - which;
        Total* next = partials(which, groups);
        launch_sum_tree(out, elements, next, s);
        GAUSS_CUDA_CHECK(cudaGetLastError());
        out = next;
        elements = groups;
      }
      stop_.record(s);
      std::vector<Total> tail(elements, 0);
      GAUSS_CUDA_CHECK(cudaMemcpyAsync(tail.data(), out, elements * sizeof(Total), cudaMemcpyDeviceToHost, s));
      GAUSS_CUDA_CHECK(cudaStreamSynchronize(s));
      for (Total value : tail) total += value;
      break;
    }
    case SumMethod::ManyPerItem:
    case SumMethod::Shuffle: {
      const bool shuffle = method == SumMethod::Shuffle;
      const unsigned blocks = strided_blocks(n);
      Total* sums = partials(0, blocks);
      launch_sum_strided(shuffle, data, count, blocks, sums, s);
      GAUSS_CUDA_CHECK(cudaGetLastError());
      Total* result = partials(1, 1);
      launch_sum_strided(shuffle, sums, blocks, 1, result, s);
      GAUSS_CUDA_CHECK(cudaGetLastError());
      stop_.record(s);
      GAUSS_CUDA_CHECK(cudaMemcpyAsync(&total, result, sizeof total, cudaMemcpyDeviceToHost, s));
      break;
    }
  }
  GAUSS_CUDA_CHECK(cudaStreamSynchronize(s));
  run.round_trip_ms = host.elapsed_ms();
  run.device_ms = gauss::elapsed_ms(start_, stop_);
  run.total = total;
  return run;
}

std::uint32_t CudaSummer::sum_256(const std::vector<std::uint32_t>& values) {
  if (values.size() != 256) throw gauss::ApiError("the seed's example adds exactly 256 values");
  gauss::CudaBuffer in(256 * sizeof(unsigned));
  gauss::CudaBuffer out(sizeof(unsigned));
  in.upload(values.data(), in.bytes());
  launch_sum_256(reinterpret_cast<const unsigned*>(in.data()), reinterpret_cast<unsigned*>(out.data()), stream_.get());
  GAUSS_CUDA_CHECK(cudaGetLastError());
  GAUSS_CUDA_CHECK(cudaStreamSynchronize(stream_.get()));
  std::uint32_t result = 0;
  out.download(&result, sizeof result);
  return result;
}

}  // namespace chapter09

#endif  // GAUSS_HAVE_CUDA
