// The whole job, measured and reported (transfer_job.hpp).
#include "gauss/transfer_job.hpp"

#include <algorithm>
#include <cstring>
#include <exception>
#include <iostream>
#include <ostream>
#include <utility>

#include "gauss/blur.hpp"
#include "gauss/progress.hpp"
#include "gauss/section_tools.hpp"
#include "gauss/variant.hpp"

namespace gauss::transfer {

using sections::format_gbps;
using sections::format_ms;
using sections::timing_row;

std::string JobStats::status() const {
  if (!error.empty()) return "ERROR";
  if (!skipped.empty()) return "skipped";
  return comparison.matches() ? "ok" : "MISMATCH";
}

JobStats measure_job(const TransferMethod& method, const std::string& api, const Image& input, const Image& reference,
                     const RunSettings& settings) {
  JobStats stats;
  stats.method = method.name;
  stats.api = api;
  const ProgressLine line(std::cout, api + " " + method.name);  // the whole job takes long on a CPU
  const Image poison = poison_for(reference);
  Image output = poison;  // the user's output image
  try {
    HostTimer setup;
    // Declared after `output`, so destroyed first: a job that registered the
    // user's images unregisters them before they are freed.
    const std::unique_ptr<TransferJob> job = method.make(input, output);
    stats.setup_ms = setup.elapsed_ms();

    std::vector<double> end_to_end, h2d, kernel, d2h, host_copies;
    int warmup = settings.warmup;
    int repeat = settings.repeat;
    for (int r = 0; r < warmup + repeat; ++r) {
      std::copy(poison.pixels.begin(), poison.pixels.end(), output.pixels.begin());
      job->poison(poison);
      HostTimer timer;
      const JobParts parts = job->run();
      const double ms = timer.elapsed_ms();
      job->collect();
      if (r == 0 && settings.budget_ms > 0) {  // a slow device: fewer runs (see RunSettings)
        repeat = runs_within_budget(settings, ms);
        if (repeat < settings.repeat) warmup = std::min(warmup, 1);
      }
      if (r < warmup) continue;
      end_to_end.push_back(ms);
      if (parts.h2d_ms) h2d.push_back(*parts.h2d_ms);
      kernel.push_back(parts.kernel_ms);
      if (parts.d2h_ms) d2h.push_back(*parts.d2h_ms);
      host_copies.push_back(parts.host_copy_ms);
      stats.h2d_bytes = parts.h2d_bytes;
    }
    stats.end_to_end = summarize(end_to_end);
    if (!h2d.empty()) stats.h2d = summarize(h2d);
    stats.kernel = summarize(kernel);
    if (!d2h.empty()) stats.d2h = summarize(d2h);
    stats.host_copies = summarize(host_copies);
    stats.comparison = compare_images(output, reference, kFloatTolerance);
  } catch (const Unsupported& why) {
    stats.skipped = why.what();
  } catch (const cl::Error& error) {  // its what() is only the call's name
    stats.error = describe(error);
  } catch (const std::exception& error) {
    stats.error = error.what();
  }
  return stats;
}

namespace {

std::string median_of(const std::optional<TimingStats>& stats) { return stats ? format_ms(stats->median_ms) : "-"; }

std::string gbps_of(const std::optional<TimingStats>& stats, std::size_t bytes) {
  return stats && stats->median_ms > 0 ? format_gbps(gigabytes_per_second(bytes, stats->median_ms)) : "-";
}

// The lines under a table: why a method was skipped, failed or mismatched.
void print_notes(std::ostream& out, const std::vector<JobStats>& jobs) {
  for (const JobStats& job : jobs) {
    if (!job.skipped.empty()) out << job.method << " (" << job.api << "): skipped: " << job.skipped << '\n';
    if (!job.error.empty()) out << job.method << " (" << job.api << "): ERROR: " << job.error << '\n';
    if (job.error.empty() && job.skipped.empty() && !job.comparison.matches()) {
      out << job.method << " (" << job.api << "): MISMATCH: " << job.comparison.summary() << '\n';
    }
  }
}

}  // namespace

void print_jobs(std::ostream& out, const std::vector<JobStats>& jobs, std::size_t image_bytes, double kernel_alone_ms) {
  using Align = Table::Align;
  Table table({{"method", Align::Left},
               {"api", Align::Left},
               {"runs"},
               {"set-up ms"},
               {"H2D ms"},
               {"H2D GB/s"},
               {"kernel ms"},
               {"D2H ms"},
               {"D2H GB/s"},
               {"host copies ms"},
               {"end to end ms"},
               {"x kernel"},
               {"max diff"},
               {"status", Align::Left}});
  for (const JobStats& job : jobs) {
    if (!job.error.empty() || !job.skipped.empty()) {
      table.add_row({job.method, job.api, "0", "-", "-", "-", "-", "-", "-", "-", "-", "-", "-", job.status()});
      continue;
    }
    const double e2e = job.end_to_end.median_ms;
    table.add_row({job.method, job.api, std::to_string(job.end_to_end.runs()), format_ms(job.setup_ms),
                   median_of(job.h2d), gbps_of(job.h2d, job.h2d_bytes > 0 ? job.h2d_bytes : image_bytes),
                   format_ms(job.kernel.median_ms), median_of(job.d2h), gbps_of(job.d2h, image_bytes),
                   format_ms(job.host_copies.median_ms), format_ms(e2e),
                   kernel_alone_ms > 0 ? format_fixed(e2e / kernel_alone_ms, 1) + "x" : std::string("-"),
                   format_fixed(job.comparison.max_abs_diff, 0), job.status()});
  }
  table.print(out);
  print_notes(out, jobs);
}

void add_job_rows(std::vector<ResultRow>& rows, const JobStats& job, const std::string& device, std::size_t image_bytes,
                  bool with_parts) {
  const bool ok = job.ok();
  const std::string status = job.status();
  auto add = [&](const char* part, const TimingStats& stats, std::size_t bytes) {
    ResultRow row = timing_row(job.method + "." + part, job.api, device, stats, bytes, ok, status);
    row.max_diff = job.comparison.max_abs_diff;
    row.differing = job.comparison.differing;
    row.psnr_db = job.comparison.psnr_db;
    rows.push_back(std::move(row));
  };
  if (!job.error.empty() || !job.skipped.empty()) {
    add("end_to_end", {}, 0);
    return;
  }
  // End to end: the image in and the image out, over the whole job's time.
  add("end_to_end", job.end_to_end, 2 * image_bytes);
  if (!with_parts) return;
  if (job.h2d) add("h2d", *job.h2d, job.h2d_bytes > 0 ? job.h2d_bytes : image_bytes);
  add("kernel", job.kernel, 2 * image_bytes);
  if (job.d2h) add("d2h", *job.d2h, image_bytes);
  add("host_copies", job.host_copies, 2 * image_bytes);
}

void print_overlap(std::ostream& out, const std::vector<int>& strip_counts, const std::vector<JobStats>& jobs) {
  // The floor: with perfect overlap the job takes as long as its largest
  // part, measured without overlap in the one-strip run.
  double largest = 0;
  if (!jobs.empty() && jobs.front().error.empty() && jobs.front().skipped.empty()) {
    const JobStats& one = jobs.front();
    const double h2d = one.h2d ? one.h2d->median_ms : 0;
    const double d2h = one.d2h ? one.d2h->median_ms : 0;
    largest = std::max({h2d, one.kernel.median_ms, d2h});
    out << one.api << ", one strip (no overlap): H2D " << format_ms(h2d) << " ms + kernel "
        << format_ms(one.kernel.median_ms) << " ms + D2H " << format_ms(d2h)
        << " ms = " << format_ms(h2d + one.kernel.median_ms + d2h)
        << " ms; the floor with full overlap is the largest part, " << format_ms(largest) << " ms\n";
  }
  using Align = Table::Align;
  Table table({{"method", Align::Left},
               {"strips"},
               {"api", Align::Left},
               {"runs"},
               {"end to end ms"},
               {"min ms"},
               {"speed-up vs 1 strip"},
               {"e2e / floor"},
               {"max diff"},
               {"status", Align::Left}});
  const double one_strip = jobs.empty() ? 0 : jobs.front().end_to_end.median_ms;
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    const JobStats& job = jobs[i];
    const std::string strips = std::to_string(strip_counts[i]);
    if (!job.error.empty() || !job.skipped.empty()) {
      table.add_row({job.method, strips, job.api, "0", "-", "-", "-", "-", "-", job.status()});
      continue;
    }
    const double e2e = job.end_to_end.median_ms;
    table.add_row({job.method, strips, job.api, std::to_string(job.end_to_end.runs()), format_ms(e2e),
                   format_ms(job.end_to_end.min_ms),
                   one_strip > 0 && e2e > 0 ? format_fixed(one_strip / e2e, 2) + "x" : std::string("-"),
                   largest > 0 ? format_fixed(e2e / largest, 2) : std::string("-"),
                   format_fixed(job.comparison.max_abs_diff, 0), job.status()});
  }
  table.print(out);
  print_notes(out, jobs);
}

double timed_memcpy(void* to, const void* from, std::size_t bytes) {
  HostTimer timer;
  std::memcpy(to, from, bytes);
  return timer.elapsed_ms();
}

void finish_quietly(const cl::CommandQueue& queue) {
  try {
    queue.finish();
  } catch (const cl::Error&) {  // called from destructors: nothing left to do about it
  }
}

}  // namespace gauss::transfer
