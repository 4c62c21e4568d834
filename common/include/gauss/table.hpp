/// @file table.hpp
/// @brief Aligned text tables, and the results of a run as a table, CSV and JSON.
#pragma once

#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

namespace gauss {

/// A text table with aligned columns: numbers right-aligned, text left-aligned.
class Table {
 public:
  enum class Align { Left, Right };
  struct Column {
    std::string title;
    Align align = Align::Right;
  };

  explicit Table(std::vector<Column> columns);
  /// Adds a row; it must have one cell per column.
  void add_row(std::vector<std::string> cells);
  /// Prints the header, a rule and the rows.
  void print(std::ostream& out) const;

 private:
  std::vector<Column> columns_;
  std::vector<std::vector<std::string>> rows_;
};

/// One row of a chapter's results: a variant on one API (or the copy ceiling).
/// What a row measured where it is not the run's image and blur (a section
/// that sweeps sizes or radii): its CSV and JSON row say this instead.
struct RowShape {
  int width = 0;
  int height = 0;
  int channels = 1;
  double sigma = 1;
  int radius = 2;
};

struct ResultRow {
  std::string variant;
  std::string api;        ///< "CPU", "OpenCL", "CUDA"
  std::string device;     ///< the device's name
  std::string format;     ///< "gray", "RGB", "RGBA" ("" where it does not apply)
  std::string reference;  ///< what the output is checked against: "gaussian" (the blur), "copy" (the ceiling),
                          ///< a chapter's own reference's name, or "" (a section's measurement)
  std::string line;       ///< "main" for a main-line step (Variant::line), else ""
  int runs = 0;
  double median_ms = 0;
  double min_ms = 0;
  double max_ms = 0;
  double gbps = 0;                        ///< effective GB/s (10^9 B/s) of the median run
  std::optional<double> percent_of_copy;  ///< GB/s over the same API's copy GB/s, in %
  std::optional<double> speedup;          ///< baseline median over this median
  double max_diff = 0;                    ///< against the reference, in levels
  std::size_t differing = 0;              ///< values that differ from the reference at all
  double psnr_db = 0;
  bool ok = false;
  std::string status;             ///< "ok", "MISMATCH", "ERROR", "ceiling"
  std::optional<RowShape> shape;  ///< unset: the run's image and blur (RunInfo)
};

/// What the run was: written at the top of the JSON file and in every CSV row.
struct RunInfo {
  std::string chapter;
  std::string date;   ///< ISO 8601, UTC
  std::string image;  ///< "images/astronaut.png as gray, resampled to 6720x4480"
  int width = 0;
  int height = 0;
  int channels = 1;
  double sigma = 1;
  int radius = 2;
  int warmup = 0;
  int repeat = 0;
  std::vector<std::string> devices;  ///< "OpenCL: ...", "CUDA: ..."
};

/// Prints the results table.
void print_results(std::ostream& out, const std::vector<ResultRow>& rows);

/// Writes the results as CSV (one header line, one line per row), atomically.
/// Throws InputError if the file cannot be written.
void write_csv(const std::string& path, const RunInfo& info, const std::vector<ResultRow>& rows);

/// Writes the run and its results as JSON, atomically. Throws InputError if
/// the file cannot be written.
void write_json(const std::string& path, const RunInfo& info, const std::vector<ResultRow>& rows);

/// Writes @p text to @p path through a temporary file and a rename, so that a
/// failure never leaves a half-written file. Throws InputError on failure.
void write_file_atomically(const std::string& path, const std::string& text);

/// @p value with @p digits significant decimals, fixed notation ("0.312").
std::string format_fixed(double value, int digits);

}  // namespace gauss
