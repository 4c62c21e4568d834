// Chapters 08 and 09: small helpers for the sections' own tables, printed in
// the same units as the chapters' main table (ms with three significant
// decimals, GB/s = 10^9 bytes per second).
#pragma once

#include <optional>
#include <string>

#include "gauss/table.hpp"
#include "gauss/timing.hpp"

namespace chapter08 {

/// Milliseconds as the main table prints them: 0.0213, 2.61, 510.
inline std::string format_ms(double ms) {
  if (ms < 0.1) return gauss::format_fixed(ms, 4);
  if (ms < 10) return gauss::format_fixed(ms, 3);
  if (ms < 1000) return gauss::format_fixed(ms, 1);
  return gauss::format_fixed(ms, 0);
}

/// "-" for a part that does not exist.
inline std::string format_ms(const std::optional<double>& ms) { return ms ? format_ms(*ms) : "-"; }

/// GB/s (10^9 bytes per second) as the main table prints them.
inline std::string format_gbps(double gbps) {
  return gbps < 10 ? gauss::format_fixed(gbps, 2) : gauss::format_fixed(gbps, 1);
}

/// A row for --csv/--json: @p name's timing @p stats, moving @p bytes.
inline gauss::ResultRow timing_row(const std::string& name, const std::string& api, const std::string& device,
                                   const gauss::TimingStats& stats, std::size_t bytes, bool ok,
                                   const std::string& status) {
  gauss::ResultRow row;
  row.variant = name;
  row.api = api;
  row.device = device;
  row.runs = stats.runs();
  row.median_ms = stats.median_ms;
  row.min_ms = stats.min_ms;
  row.max_ms = stats.max_ms;
  row.gbps = gauss::gigabytes_per_second(bytes, stats.median_ms);
  row.ok = ok;
  row.status = status;
  return row;
}

}  // namespace chapter08
