// Issue 14, second exploration: the 2026-11-25 harness (copies, reference,
// poisoned outputs, rotating buffers, median of 41 event timings) with the
// cp.async kernels of h2async.cuh added to its blur list.
//   BENCH_ONLY_EXTRA=1 ./bench_async   only this file's kernels (and the shipped shapes)
#define BENCH_EXTRA "../capstone-exploration-2026-11-26/h2async.cuh"
#include "../capstone-exploration-2026-11-25/bench.cu"
