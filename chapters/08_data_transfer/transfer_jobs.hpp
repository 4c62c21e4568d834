// Chapter 08: the whole job a user has, and how it is measured.
//
// The chapters before this one keep the image in device memory and time the
// kernel alone (the runners of common/ do that). A user has an image in host
// memory and wants the blurred image back in host memory. A TransferJob is
// one way of doing that whole job: it owns whatever memory its method needs
// (device buffers, pinned staging, mapped or managed memory), and each run()
// takes the user's input image to the user's output image once, timing each
// part on the device with events.
#pragma once

#include <functional>
#include <iosfwd>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "gauss/compare.hpp"
#include "gauss/image.hpp"
#include "gauss/runners.hpp"
#include "gauss/table.hpp"
#include "gauss/timing.hpp"

namespace chapter08 {

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
/// and output images (the registered method page-locks exactly those).
class TransferJob {
 public:
  virtual ~TransferJob() = default;
  /// Untimed, before every run: fill every buffer the output passes through
  /// on its way to the user's image with @p poison, so that a pixel a run does
  /// not deliver is 128 levels off.
  virtual void poison(const gauss::Image& poison) = 0;
  /// Does the job once: the user's input image to the user's output image.
  /// Returns when the output is in host memory.
  virtual JobParts run() = 0;
  /// Untimed, after every run: where a job's output lands in memory the
  /// application owns but the check does not see (pinned images in the
  /// overlap section), copy it into the user's output image.
  virtual void collect() {}
};

/// Thrown by a job's constructor when the device or the size rules its method
/// out (no managed memory, not enough free memory): the row says "skipped"
/// and why, and the run does not fail.
class Skipped : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Makes a job bound to the user's @p input and @p output images.
using JobFactory = std::function<std::unique_ptr<TransferJob>(const gauss::Image& input, gauss::Image& output)>;

/// A method: its stable name (tables, CSV, tests), one line, and its factory.
struct TransferMethod {
  std::string name;
  std::string description;
  JobFactory make;
};

/// The medians and spread of one method's runs, and its check.
struct JobStats {
  std::string method;
  std::string api;                ///< "OpenCL", "CUDA"
  double setup_ms = 0;            ///< host clock: constructing the job (allocating, registering), once
  gauss::TimingStats end_to_end;  ///< host clock: run() from start to the output in host memory
  std::optional<gauss::TimingStats> h2d;
  gauss::TimingStats kernel;
  std::optional<gauss::TimingStats> d2h;
  gauss::TimingStats host_copies;
  std::size_t h2d_bytes = 0;     ///< bytes the H2D part moves; 0: the image's
  gauss::Comparison comparison;  ///< the user's output image against the reference
  std::string error;             ///< a failed call: the run fails
  std::string skipped;           ///< the method does not apply here: the run does not fail

  bool ok() const { return error.empty() && (!skipped.empty() || comparison.matches()); }
  std::string status() const;
};

/// Makes @p method's job for @p input, runs it settings.warmup + settings.repeat
/// times (fewer under a time budget, as the runners do), poisoning the output
/// before each run, and checks the last run's output against @p reference.
JobStats measure_job(const TransferMethod& method, const std::string& api, const gauss::Image& input,
                     const gauss::Image& reference, const gauss::RunSettings& settings);

/// Prints one API's table of methods. @p kernel_alone_ms is the blur with the
/// image already on the device, to show what the whole job costs beyond it.
void print_jobs(std::ostream& out, const std::vector<JobStats>& jobs, std::size_t image_bytes, double kernel_alone_ms);

/// Appends @p job's times to the --csv/--json rows as "<method>.<part>":
/// end_to_end, and unless @p with_parts is false h2d, kernel, d2h, host_copies.
void add_job_rows(std::vector<gauss::ResultRow>& rows, const JobStats& job, const std::string& device,
                  std::size_t image_bytes, bool with_parts = true);

/// The strips of the overlap section: output rows [row0, row0 + rows), and
/// the input rows [upload0, upload0 + upload_rows) the strip is the first to
/// need, so that every input row is uploaded exactly once.
struct Strip {
  int row0 = 0;
  int rows = 0;
  int upload0 = 0;
  int upload_rows = 0;
};

/// Splits @p height rows into at most @p count strips of whole multiples of
/// @p multiple rows (the last may be shorter), for a blur of @p radius.
std::vector<Strip> plan_strips(int height, int count, int multiple, int radius);

/// The strips whose uploads strip @p k must wait for: those that upload any
/// of the input rows it reads, [row0 - radius, row0 + rows + radius).
std::vector<int> strips_needed_by(const std::vector<Strip>& strips, int k, int radius);

/// Prints the overlap table: per strip count (@p jobs[0] is one strip, no
/// overlap), the end-to-end time, its speed-up over one strip, and how close
/// it comes to the floor, the largest part of the one-strip run.
void print_overlap(std::ostream& out, const std::vector<int>& strip_counts, const std::vector<JobStats>& jobs);

}  // namespace chapter08
