// The whole job a user has, and how it is measured: the image from host
// memory to the device, blurred, and back to host memory, each part timed.
//
// The chapters before 08 keep the image in device memory and time the kernel
// alone (the runners do that). A TransferJob is one way of doing the whole
// job: it owns whatever memory its method needs (device buffers, pinned
// staging, mapped or managed memory), and each run() takes the user's input
// image to the user's output image once, timing each part on the device with
// events. This file is the measuring and the reporting; which mechanism moves
// the bytes is the chapter's lesson (chapters/08_data_transfer/transfers.hpp).
#pragma once

#include <cstddef>
#include <functional>
#include <iosfwd>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "gauss/compare.hpp"
#include "gauss/error.hpp"
#include "gauss/image.hpp"
#include "gauss/opencl.hpp"
#include "gauss/runners.hpp"
#include "gauss/table.hpp"
#include "gauss/timing.hpp"
#ifdef GAUSS_HAVE_CUDA
#include "gauss/cuda.hpp"
#endif

namespace gauss::transfer {

/// What one run of a job took, part by part, in milliseconds. Device parts
/// come from device events. A part a method does not have is empty: mapped
/// memory has no copy (the kernel reads and writes across the link itself),
/// managed memory without a prefetch migrates pages inside the kernel.
struct JobParts {
  std::optional<double> h2d_ms;  ///< host-to-device copy, prefetch or unmap
  double kernel_ms = 0;          ///< the kernel (with any transfers it makes itself)
  std::optional<double> d2h_ms;  ///< device-to-host copy, prefetch or map
  double host_copy_ms = 0;       ///< host clock: memcpy between the user's images and staging memory
  std::size_t h2d_bytes = 0;     ///< bytes the H2D part moves; 0: the image's
};

/// One way of doing the whole job, bound at construction to the user's input
/// and output images (a method that page-locks memory locks exactly those).
/// Its constructor throws Unsupported (error.hpp) where the device or the
/// size rules the method out (no managed memory, not enough free memory): the
/// row then says "skipped" and why, and the run does not fail.
class TransferJob {
 public:
  virtual ~TransferJob() = default;
  /// Untimed, before every run: fill every buffer the output passes through
  /// on its way to the user's image with @p poison, so that a pixel a run does
  /// not deliver is 128 levels off.
  virtual void poison(const Image& poison) = 0;
  /// Does the job once: the user's input image to the user's output image.
  /// Returns when the output is in host memory.
  virtual JobParts run() = 0;
  /// Untimed, after every run: where a job's output lands in memory the
  /// application owns but the check does not see (pinned images in the
  /// overlap section), copy it into the user's output image.
  virtual void collect() {}
};

/// Makes a job bound to the user's @p input and @p output images.
using JobFactory = std::function<std::unique_ptr<TransferJob>(const Image& input, Image& output)>;

/// A method: its stable name (tables, CSV, tests), one line, and its factory.
struct TransferMethod {
  std::string name;
  std::string description;
  JobFactory make;
};

/// The medians and spread of one method's runs, and its check.
struct JobStats {
  std::string method;
  std::string api;         ///< "OpenCL", "CUDA"
  double setup_ms = 0;     ///< host clock: constructing the job (allocating, registering), once
  TimingStats end_to_end;  ///< host clock: run() from start to the output in host memory
  std::optional<TimingStats> h2d;
  TimingStats kernel;
  std::optional<TimingStats> d2h;
  TimingStats host_copies;
  std::size_t h2d_bytes = 0;  ///< bytes the H2D part moves; 0: the image's
  Comparison comparison;      ///< the user's output image against the reference
  std::string error;          ///< a failed call: the run fails
  std::string skipped;        ///< the method does not apply here: the run does not fail

  bool ok() const { return error.empty() && (!skipped.empty() || comparison.matches()); }
  std::string status() const;
};

/// Makes @p method's job for @p input, runs it settings.warmup + settings.repeat
/// times (fewer under a time budget, as the runners do), poisoning the output
/// before each run, and checks the last run's output against @p reference.
/// Prints a line on stdout as it starts, ended with its time (progress.hpp).
JobStats measure_job(const TransferMethod& method, const std::string& api, const Image& input, const Image& reference,
                     const RunSettings& settings);

/// Prints one API's table of methods. @p kernel_alone_ms is the blur with the
/// image already on the device, to show what the whole job costs beyond it.
void print_jobs(std::ostream& out, const std::vector<JobStats>& jobs, std::size_t image_bytes, double kernel_alone_ms);

/// Appends @p job's times to the --csv/--json rows as "<method>.<part>":
/// end_to_end, and unless @p with_parts is false h2d, kernel, d2h, host_copies.
void add_job_rows(std::vector<ResultRow>& rows, const JobStats& job, const std::string& device, std::size_t image_bytes,
                  bool with_parts = true);

/// Prints the overlap table: per strip count (@p jobs[0] is one strip, no
/// overlap), the end-to-end time, its speed-up over one strip, and how close
/// it comes to the floor, the largest part of the one-strip run.
void print_overlap(std::ostream& out, const std::vector<int>& strip_counts, const std::vector<JobStats>& jobs);

/// std::memcpy timed with the host clock: the host side of a job's copies.
double timed_memcpy(void* to, const void* from, std::size_t bytes);

// --- Freeing a job safely ----------------------------------------------------------
// After a failed run, commands may still be queued that use a job's memory:
// each job waits for its queue or stream before its memory is freed.

/// Waits until @p queue has run everything, for destructors (which must not throw).
void finish_quietly(const cl::CommandQueue& queue);

/// Declared last in an OpenCL job, so destroyed first: waits until the queue
/// no longer uses the job's memory.
struct FinishFirst {
  cl::CommandQueue queue;
  ~FinishFirst() { finish_quietly(queue); }
};

#ifdef GAUSS_HAVE_CUDA
/// Four events around H2D, kernel and D2H on one stream: the parts are the
/// times between consecutive events.
struct PartEvents {
  CudaEvent start, copied_in, blurred, done;
};

/// A CUDA job's stream and the events that time its parts. Declared last in
/// a job, so destroyed first: it waits until the stream no longer uses the
/// job's memory.
struct TimedStream {
  CudaStream stream;
  PartEvents e;
  ~TimedStream() { cudaStreamSynchronize(stream.get()); }  // nothing to do about a failure in a destructor
};
#endif

}  // namespace gauss::transfer
