// Chapter 09: reduction. Does the blur keep the image's total brightness?
//
// To answer, add up every pixel of the input and of the output, on the GPU.
// Adding n numbers is the simplest job there is on one core and the first
// one that is hard on thousands: every item's result must end up in one
// place. The chapter climbs the ladder the seeds (the Yandex webinar,
// toropippi's Unity samples, rigaya's OpenCL memo) climb:
//
//   racy           every item adds into one global value: wrong, and
//                  differently wrong on every run (lost updates);
//   atomic         the same with atomic additions: right, one at a time;
//   atomic_group   atomics on a counter in local memory first;
//   interleaved    the webinar's first tree: interleaved addressing, a
//                  divergent `lid % (2 * i)` test and bank conflicts;
//   tree           the local-memory tree with barriers (and why the barrier
//                  must never be inside the `if`);
//   multipass      the tree over group sums, the host adding the last few;
//   many_per_item  each item adds many bytes (16 per load) before the tree;
//   shuffle        CUDA's warp shuffles instead of the tree;
//   rows_first     the webinar's image sum: one item per row, walking along
//                  it (a warp reads 32 rows at once: uncoalesced), against
//   columns_first  one item per column, walking down it (coalesced), both
//                  finished by the multipass tree on the line sums;
//
// plus the seeds' 256-value example (0 + 1 + ... + 255 = 32640) and the CPU
// references: exact in integers, in double, and in float (where the answer
// is badly wrong) with and without Kahan's compensation.
//
// The sums are of bytes and totals are 64-bit integers, so every correct
// kernel must return exactly the CPU's sum, on every run; the racy one is
// expected to be wrong and does not fail the run. The sums in both APIs and
// the sections' parts (the CPU references, the ladder, the brightness
// question, the sweep) are this chapter's second program part, in
// reduction.hpp; main.cpp says what runs. The lesson is in README.md beside
// this file.
#include <cstdint>
#include <string>
#include <vector>

#include "gauss/chapter.hpp"
#include "gauss/lesson_launch.hpp"
#include "gauss/oclgrind.hpp"
#include "gauss/reference.hpp"
#include "naive_blur.hpp"  // chapter 01's OpenCL kernel (USES 01_naive)
#include "reduction.hpp"   // the sums and the sections' parts: this chapter's second program part
#ifdef GAUSS_HAVE_CUDA
#include "blur_naive.cuh"  // chapter 01's CUDA kernel (USES 01_naive)
#endif

namespace chapter09 {

gauss::Chapter make_chapter() {
  gauss::Chapter chapter("09_reduction", "reduction: does the blur keep the image's total brightness?");

  // The blur whose output the chapter sums: chapter 01's naive kernel, here
  // to be checked and timed like in every chapter.
  chapter.add_opencl("naive", "chapter 01's kernel: the blur whose output is summed", gauss::naive::naive_blur_setup());
#ifdef GAUSS_HAVE_CUDA
  chapter.add_cuda("naive", "chapter 01's kernel: the blur whose output is summed",
                   gauss::lesson::cuda_launch(
                       [](const std::uint8_t* in, std::uint8_t* out, const gauss::Problem& p, cudaStream_t stream) {
                         launch_blur_naive(in, out, p, dim3(gauss::naive::kGroupX, gauss::naive::kGroupY), stream);
                       }));
#endif

  // --- The ladder ------------------------------------------------------------
  // Every method sums the input's bytes, warmup + repeat times; every total
  // is compared with the exact sum. GB/s = bytes read / device time, against
  // the copy kernel measured in this run (which reads and writes).
  chapter.add_section(
      "reduction", "Summing every pixel: from a racy kernel to warp shuffles", [](gauss::SectionContext& context) {
        const std::vector<std::uint8_t>& bytes = context.input.pixels;
        const std::size_t n = bytes.size();
        print_cpu_references(context.out, bytes);
        const std::uint64_t exact = sum_exact(bytes.data(), n);
        const gauss::RunSettings settings = settings_of(context.options);
        const std::vector<SumStats> all =
            sums_on_each_api(context, "sum.", [&](auto& summer, const char* api, const auto& inputs) {
              return run_ladder(summer, api, inputs, n, exact, settings, static_cast<std::size_t>(context.input.pitch));
            });
        context.out << "GB/s = bytes read / device time; % of copy = against this run's copy "
                       "kernel, which reads and writes\n";
        print_sums(context.out, all, context.opencl_copy_gbps, context.cuda_copy_gbps);
        check_ladder(context, all);
      });

  // --- The answer --------------------------------------------------------------
  chapter.add_section("brightness", "Does the blur keep the total brightness?", [](gauss::SectionContext& context) {
    const gauss::Image reference = gauss::blur_reference(context.input, context.blur);
    std::vector<GpuBrightness> gpus;
    if (context.opencl != nullptr) {
      OpenClSummer summer(*context.opencl);
      gpus.push_back(opencl_brightness(context, summer));
    }
#ifdef GAUSS_HAVE_CUDA
    if (context.cuda != nullptr) {
      CudaSummer summer(*context.cuda);
      gpus.push_back(cuda_brightness(context, summer));
    }
#endif
    print_brightness(context.out, context.input, reference, context.blur, gpus);
    for (const GpuBrightness& g : gpus)
      if (!g.ok()) context.failed = true;
  });

  // --- The seeds' example ------------------------------------------------------
  chapter.add_section("sum_0_to_255", "The seeds' example: one work-group adds 0, 1, ..., 255",
                      [](gauss::SectionContext& context) {
                        constexpr std::uint32_t kExpected = 255 * 256 / 2;  // 32640
                        auto report = [&](const char* api, std::uint32_t got) {
                          context.out << api << ": " << got << (got == kExpected ? " (right: " : " (WRONG: expected ")
                                      << kExpected << ")\n";
                          if (got != kExpected) context.failed = true;
                        };
                        if (context.opencl != nullptr)
                          report("OpenCL", OpenClSummer(*context.opencl).sum_256(zero_to_255()));
#ifdef GAUSS_HAVE_CUDA
                        if (context.cuda != nullptr) report("CUDA", CudaSummer(*context.cuda).sum_256(zero_to_255()));
#endif
                      });

  // --- The barrier inside the `if`, where it cannot hang anything --------------------
  chapter.add_section(
      "barrier_in_if", "A barrier inside an if (reduce_broken.cl), on Oclgrind only",
      [](gauss::SectionContext& context) {
        if (context.opencl == nullptr || !gauss::is_oclgrind(*context.opencl)) {
          context.out << "not run: a barrier that only some items of a group reach may hang a GPU or silently\n"
                         "give a wrong sum. Oclgrind simulates every item and reports it instead; run\n"
                         "  oclgrind build/bin/09_reduction --api opencl --variant barrier_in_if --size 37x23\n";
          return;
        }
        const std::uint32_t got = OpenClSummer(*context.opencl).sum_256_barrier_in_if(zero_to_255());
        context.out << "sum_256_barrier_in_if on Oclgrind returned " << got
                    << "; Oclgrind's \"Work-group divergence detected (barrier)\" reports on stderr are the "
                       "lesson (a right-looking result proves nothing)\n";
      },
      gauss::Chapter::SectionRuns::OnRequest);

  // --- The sweep -------------------------------------------------------------------
  chapter.add_section(
      "sweep", "GB/s against the number of bytes summed (1 KiB to 256 MiB of random bytes)",
      [](gauss::SectionContext& context) {
        const std::vector<std::uint8_t> bytes = random_bytes(std::size_t{1} << kSweepMaxLog2);
        if (context.opencl != nullptr) {
          gauss::OpenClSession& cl = *context.opencl;
          const std::size_t n = std::min<std::size_t>(bytes.size(), cl.info.max_buffer);
          OpenClSummer summer(cl);
          cl::Buffer data(cl.context, CL_MEM_READ_ONLY, n);
          cl.queue.enqueueWriteBuffer(data, CL_TRUE, 0, n, bytes.data());
          sweep_api(context, summer, "OpenCL", cl.info.name, data, bytes, n, context.opencl_copy_gbps);
        }
#ifdef GAUSS_HAVE_CUDA
        if (context.cuda != nullptr) {
          CudaSummer summer(*context.cuda);
          gauss::CudaBuffer data(bytes.size());
          data.upload(bytes.data(), bytes.size());
          sweep_api(context, summer, "CUDA", context.cuda->name, data.data(), bytes, bytes.size(),
                    context.cuda_copy_gbps);
        }
#endif
      },
      gauss::Chapter::SectionRuns::OnRequest);

  // --- The exercise ----------------------------------------------------------------
  // The sums built on the tree in local memory, on the input's bytes, each
  // wrong total on a MISMATCH line of its own: what the exercise's grader
  // reads (README, section Exercise). The ladder runs the same kernels.
  chapter.add_section(
      "tree_sums", "The exercise: the sums built on the tree in local memory (tree, multipass, many_per_item)",
      [](gauss::SectionContext& context) {
        const std::vector<std::uint8_t>& bytes = context.input.pixels;
        const std::size_t n = bytes.size();
        const std::uint64_t exact = sum_exact(bytes.data(), n);
        const gauss::RunSettings settings = settings_of(context.options);
        const std::vector<SumStats> all =
            sums_on_each_api(context, "tree_sums.", [&](auto& summer, const char* api, const auto& inputs) {
              std::vector<SumStats> sums;
              run_tree_sums(context.out, summer, api, inputs, n, exact, settings, sums);
              return sums;
            });
        context.out << "the input's " << grouped(static_cast<double>(n)) << " bytes sum to "
                    << grouped(static_cast<double>(exact)) << " (the CPU, in 64-bit integers)\n";
        print_sums(context.out, all, context.opencl_copy_gbps, context.cuda_copy_gbps);
        report_mismatches(context.out, all);
        check_ladder(context, all);
      },
      gauss::Chapter::SectionRuns::OnRequest);

  // The exercise (README, section Exercise): group_sum in reduce.cl and
  // block_sum_tree in reduce.cu, store and tree left for the student.
  chapter.set_exercise("reduce.cl", {"tree_sums"});
  return chapter;
}

}  // namespace chapter09

// The tests link this file without main() (GAUSS_CHAPTER_NO_MAIN).
#ifndef GAUSS_CHAPTER_NO_MAIN
int main(int argc, char** argv) { return chapter09::make_chapter().run(argc, argv); }
#endif
