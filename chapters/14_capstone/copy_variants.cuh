// Chapter 14: the copies the ceiling section compares (copy_variants.cu).
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

/// How many copy kernels copy_variants.cu has, and each one's name.
int copy_variant_count();
const char* copy_variant_name(int kind);

/// Copies @p bytes from @p in to @p out with copy kernel @p kind.
void launch_copy_variant(int kind, const std::uint8_t* in, std::uint8_t* out, std::size_t bytes, cudaStream_t stream);

/// The device's peak DRAM bandwidth in bytes per second, from its attributes:
/// memory clock x bus width x 2 (double data rate). 0 where not reported.
double peak_dram_bytes_per_second(int device);
