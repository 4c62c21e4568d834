// Chapter 08: data transfer, the whole job a user has.
//
// Every chapter so far kept the image in device memory and timed the kernel
// alone. A user has a photograph in host memory and wants the blurred
// photograph back in host memory. This chapter times that whole job: the
// upload (H2D), the kernel and the download (D2H), each with device events,
// and the job end to end with the host clock, for every way the two APIs
// offer of getting bytes across the link:
//
//   OpenCL: clEnqueueWriteBuffer/ReadBuffer, pinned staging buffers
//           (CL_MEM_ALLOC_HOST_PTR), map/unmap on CL_MEM_ALLOC_HOST_PTR and
//           CL_MEM_USE_HOST_PTR buffers;
//   CUDA:   pageable cudaMemcpy, pinned (cudaMallocHost, cudaHostRegister),
//           mapped zero copy (both images, or the output only), managed
//           memory with and without cudaMemPrefetchAsync.
//
// Then it splits the image into strips whose copies overlap the kernels of
// other strips (several in-order queues, several streams), so that the job
// takes about as long as its largest part instead of the sum of the parts.
// The kernel is chapter 01's naive blur, a kernel the reader already knows;
// every output is checked against the CPU reference, from poisoned memory.
//
// The second program part, transfers.hpp, holds the methods, each a class of
// its own (what it allocates, what run() enqueues, which events time which
// part); main.cpp picks and reports them. How a job is measured and tabled,
// the host memory and the strip plan are in common/ (gauss/transfer_job.hpp,
// host_memory.hpp, cuda_host_memory.hpp, row_strips.hpp). The lesson is in
// README.md beside this file.
#include <algorithm>
#include <functional>
#include <iostream>
#include <string>
#include <vector>

#include "gauss/chapter.hpp"
#include "gauss/oclgrind.hpp"
#include "gauss/reference.hpp"
#include "gauss/row_strips.hpp"
#include "gauss/section_tools.hpp"
#include "gauss/transfer_job.hpp"
#include "naive_blur.hpp"  // chapter 01's OpenCL kernel (USES 01_naive)
#include "transfers.hpp"   // the methods: chapter 08's second program part
#ifdef GAUSS_HAVE_CUDA
#include "blur_naive.cuh"  // chapter 01's CUDA kernel (USES 01_naive)
#endif

namespace chapter08 {

using gauss::is_oclgrind;
using gauss::sections::run_settings;
namespace naive = gauss::naive;        // chapter 01's kernel (USES 01_naive)
namespace transfer = gauss::transfer;  // the measuring and the tables (common/)

namespace {

// The strip counts of the overlap section. One strip is the job without
// overlap; beyond about 16 strips the cost of each command (a few
// microseconds) outweighs what finer overlap could still save.
const std::vector<int> kStripCounts{1, 2, 4, 8, 16};

// The Fixstars seminar's chart of the same job (6720 x 4480 gray, its Simple
// kernel, a GeForce RTX 2060 on PCIe 3.0 x16), in the order of its bars. The
// chart's title says the times include the transfers: end to end, like ours.
// Its wrappers also allocate and free device memory on every call.
struct SeminarBar {
  const char* bar;
  double ms;
  const char* ours;
};
const SeminarBar kSeminarChart[] = {{"Normal", 19.0, "pageable"},
                                    {"Pinned", 8.39, "pinned"},
                                    {"Mapped", 9.176, "mapped"},
                                    {"MappedOut", 6.933, "mapped_out"},
                                    {"Unified Memory", 324.0, "managed"}};

// Prints the seminar's bars beside this run's end-to-end times (CUDA).
void print_seminar_chart(std::ostream& out, const std::vector<transfer::JobStats>& jobs) {
  out << "The Fixstars seminar's chart (RTX 2060, PCIe 3.0; its times include the transfers) beside this run:\n";
  for (const SeminarBar& bar : kSeminarChart) {
    const auto job = std::find_if(jobs.begin(), jobs.end(), [&](const auto& j) { return j.method == bar.ours; });
    out << "  " << bar.bar << ": " << gauss::format_fixed(bar.ms, 3) << " ms there; " << bar.ours << ": "
        << (job != jobs.end() && job->ok() && job->skipped.empty()
                ? gauss::format_fixed(job->end_to_end.median_ms, 3) + " ms end to end here"
                : std::string("not run here"))
        << '\n';
  }
  out << '\n';
}

// Runs @p methods on one API, prints their table, and adds their rows.
void run_methods(gauss::SectionContext& context, const std::string& api, const std::string& device,
                 const std::vector<TransferMethod>& methods, const gauss::Image& reference) {
  std::vector<transfer::JobStats> jobs;
  for (const TransferMethod& method : methods) {
    jobs.push_back(transfer::measure_job(method, api, context.input, reference, run_settings(context.options)));
    transfer::add_job_rows(context.rows, jobs.back(), device, context.input.bytes());
    if (!jobs.back().ok()) context.failed = true;
  }
  // The first method's kernel runs on plain device buffers: the kernel alone.
  const double kernel_alone = jobs.front().ok() ? jobs.front().kernel.median_ms : 0.0;
  context.out << api << " on " << device << ":\n";
  transfer::print_jobs(context.out, jobs, context.input.bytes(), kernel_alone);
  context.out << '\n';
  if (api == "CUDA") print_seminar_chart(context.out, jobs);
}

// Runs the overlap for each strip count, prints the table and adds the rows.
// A strip count that gives the same strips as a smaller one (a small image
// has few whole 16-row groups to cut) is left out.
void run_overlap(gauss::SectionContext& context, const std::string& api, const std::string& device,
                 const std::function<TransferMethod(int strips)>& method_for, const gauss::Image& reference) {
  std::vector<transfer::JobStats> jobs;
  std::vector<int> strips;
  for (int asked : kStripCounts) {
    const int count = static_cast<int>(
        transfer::plan_strips(context.input.height, asked, naive::kGroupY, context.blur.radius).size());
    if (std::find(strips.begin(), strips.end(), count) != strips.end()) continue;
    jobs.push_back(
        transfer::measure_job(method_for(asked), api, context.input, reference, run_settings(context.options)));
    strips.push_back(count);
    if (!jobs.back().ok()) context.failed = true;
    // The parts of strips > 1 overlap: only the end-to-end time says something.
    transfer::add_job_rows(context.rows, jobs.back(), device, context.input.bytes(), jobs.size() == 1);
  }
  transfer::print_overlap(context.out, strips, jobs);
  context.out << '\n';
}

}  // namespace

gauss::Chapter make_chapter() {
  gauss::Chapter chapter("08_data_transfer", "data transfer: the image from host memory to host memory");

  // --- The kernel alone ----------------------------------------------------
  // Chapter 01's naive blur on data that is already in device memory, as
  // every chapter measures it: the yardstick for the whole job below.
  chapter.add_opencl("naive", "chapter 01's kernel alone, the image already on the device", naive::naive_blur_setup());
#ifdef GAUSS_HAVE_CUDA
  chapter.add_cuda("naive", "chapter 01's kernel alone, the image already on the device",
                   [](const gauss::Problem& p) -> gauss::CudaLaunch {
                     return [p](const std::uint8_t* in, std::uint8_t* out, cudaStream_t stream) {
                       launch_blur_naive(in, out, p, dim3(naive::kGroupX, naive::kGroupY), stream);
                     };
                   });
#endif

  // --- The whole job -------------------------------------------------------
  // Each method takes the user's image (a std::vector in ordinary, pageable
  // host memory) to the user's output image; transfers.hpp says how each
  // method moves the bytes and what each of its events times.
  chapter.add_section(
      "transfers", "The whole job: the image from host memory, blurred, back to host memory",
      [](gauss::SectionContext& context) {
        const gauss::Image reference = gauss::blur_reference(context.input, context.blur);
        const gauss::Problem problem = gauss::make_problem(context.input.geometry(), context.blur);
        const std::size_t bytes = context.input.bytes();
        context.out << "H2D and D2H move "
                    << (bytes < 100000 ? std::to_string(bytes) + " bytes" : gauss::format_fixed(bytes / 1e6, 1) + " MB")
                    << " each; x kernel = end to end / the first row's kernel alone\n\n";
        if (context.opencl != nullptr) {
          gauss::OpenClSession& cl = *context.opencl;
          const cl::Kernel kernel = naive::build_naive_blur(cl, context.blur);
          run_methods(context, "OpenCL", cl.info.name, opencl_methods(cl, kernel, problem), reference);
        }
#ifdef GAUSS_HAVE_CUDA
        if (context.cuda != nullptr) {
          run_methods(context, "CUDA", context.cuda->name, cuda_methods(*context.cuda, problem), reference);
        }
#endif
      });

  // --- Overlap -------------------------------------------------------------
  // The parts of one job run one after the other: upload, kernel, download.
  // Cut the image into strips and the upload of strip k+1 can run while
  // strip k is blurred and strip k-1 downloaded, on different engines.
  chapter.add_section("overlap", "Overlap: strips whose copies run while other strips are blurred",
                      [](gauss::SectionContext& context) {
                        const gauss::Image reference = gauss::blur_reference(context.input, context.blur);
                        const gauss::Problem problem = gauss::make_problem(context.input.geometry(), context.blur);
                        context.out << "the images in pinned host memory; strips of whole 16-row groups, "
                                    << kOverlapQueues << " in-order queues (OpenCL) or streams (CUDA), round robin\n";
                        if (context.opencl != nullptr) {
                          gauss::OpenClSession& cl = *context.opencl;
                          if (is_oclgrind(cl)) {
                            context.out << "on Oclgrind the first strip uploads the whole image (oclgrind.hpp "
                                           "says why)\n";
                          }
                          const cl::Kernel kernel = build_blur_strip(cl, context.blur);  // blur_strip.cl
                          run_overlap(
                              context, "OpenCL", cl.info.name,
                              [&](int strips) { return opencl_overlap(cl, kernel, problem, strips); }, reference);
                        }
#ifdef GAUSS_HAVE_CUDA
                        if (context.cuda != nullptr) {
                          context.out << "CUDA: the device runs " << copy_engines(*context.cuda)
                                      << " copies at a time beside its kernels (cudaDevAttrAsyncEngineCount)\n";
                          run_overlap(
                              context, "CUDA", context.cuda->name,
                              [&](int strips) { return cuda_overlap(problem, strips); }, reference);
                        }
#endif
                      });

  // The exercise (README, section Exercise): the strip kernel,
  // blur_strip.cl/.cu, with its rows (the strip's first row, the guard at
  // its end) and its row clamp left for the student; the overlap section
  // runs it.
  chapter.set_exercise("blur_strip.cl", {"overlap"});
  return chapter;
}

}  // namespace chapter08

// The tests link this file without main() (GAUSS_CHAPTER_NO_MAIN).
#ifndef GAUSS_CHAPTER_NO_MAIN
int main(int argc, char** argv) { return chapter08::make_chapter().run(argc, argv); }
#endif
