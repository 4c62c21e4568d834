// Chapter 09: the sums in CUDA. Include only under GAUSS_HAVE_CUDA.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "gauss/cuda.hpp"
#include "reduction.hpp"

namespace chapter09 {

/// The sums in CUDA on the current device; the same methods as
/// OpenClSummer, plus warp shuffles.
class CudaSummer {
 public:
  explicit CudaSummer(const gauss::CudaDeviceInfo& device);

  /// Every method runs on CUDA.
  bool runs(SumMethod method, std::string* why = nullptr) const;
  /// Untimed, before every sum: fills the total and the partial sums with garbage.
  void poison();
  /// Sums the first @p n bytes at @p data (device memory) with @p method (n >= 1, < 2^32).
  SumRun sum(SumMethod method, const std::uint8_t* data, std::size_t n);
  /// The seed's example: one block of 256 threads adds @p values (256 of them).
  std::uint32_t sum_256(const std::vector<std::uint32_t>& values);
  /// Blocks of the first pass of ManyPerItem and Shuffle for @p n bytes.
  unsigned strided_blocks(std::size_t n) const;

 private:
  unsigned long long* partials(int which, std::size_t count);

  int multiprocessors_ = 1;
  gauss::CudaStream stream_;
  gauss::CudaBuffer total_;
  gauss::CudaBuffer partials_[2];
  gauss::CudaEvent start_;
  gauss::CudaEvent stop_;
};

}  // namespace chapter09
