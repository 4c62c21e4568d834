#include "gauss/table.hpp"

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <ostream>
#include <sstream>
#include <system_error>

#include <unistd.h>

#include "gauss/error.hpp"

namespace gauss {

Table::Table(std::vector<Column> columns) : columns_(std::move(columns)) {}

void Table::add_row(std::vector<std::string> cells) {
  cells.resize(columns_.size());
  rows_.push_back(std::move(cells));
}

void Table::print(std::ostream& out) const {
  std::vector<std::size_t> widths(columns_.size());
  for (std::size_t c = 0; c < columns_.size(); ++c) {
    widths[c] = columns_[c].title.size();
    for (const auto& row : rows_) widths[c] = std::max(widths[c], row[c].size());
  }
  auto print_cells = [&](const std::vector<std::string>& cells) {
    std::string line;
    for (std::size_t c = 0; c < cells.size(); ++c) {
      const std::string pad(widths[c] - cells[c].size(), ' ');
      if (c > 0) line += "  ";
      line += columns_[c].align == Align::Right ? pad + cells[c] : cells[c] + pad;
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out << line << '\n';
  };
  std::vector<std::string> titles;
  std::size_t total = 0;
  for (std::size_t c = 0; c < columns_.size(); ++c) {
    titles.push_back(columns_[c].title);
    total += widths[c] + (c > 0 ? 2 : 0);
  }
  print_cells(titles);
  out << std::string(total, '-') << '\n';
  for (const auto& row : rows_) print_cells(row);
}

std::string format_fixed(double value, int digits) {
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  if (std::isnan(value)) return "nan";
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", digits, value);
  return text;
}

namespace {

// Milliseconds with three significant decimals where they matter: 0.0213, 2.61, 510.
std::string format_ms(double ms) {
  if (ms < 0.1) return format_fixed(ms, 4);
  if (ms < 10) return format_fixed(ms, 3);
  if (ms < 1000) return format_fixed(ms, 1);
  return format_fixed(ms, 0);
}

std::string format_gbps(double gbps) { return gbps < 10 ? format_fixed(gbps, 2) : format_fixed(gbps, 1); }

std::string format_speedup(double speedup) {
  return (speedup < 10 ? format_fixed(speedup, 2) : format_fixed(speedup, 0)) + "x";
}

std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\n") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

std::string json_string(const std::string& text) {
  std::string out = "\"";
  for (unsigned char c : text) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (c < 0x20) {
          char escaped[8];
          std::snprintf(escaped, sizeof escaped, "\\u%04x", c);
          out += escaped;
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  return out + "\"";
}

// JSON has no infinity or NaN: write null.
std::string json_number(double value) {
  if (!std::isfinite(value)) return "null";
  char text[64];
  std::snprintf(text, sizeof text, "%.6g", value);
  return text;
}

std::string json_optional(const std::optional<double>& value) { return value ? json_number(*value) : "null"; }

}  // namespace

void print_results(std::ostream& out, const std::vector<ResultRow>& rows) {
  using A = Table::Align;
  Table table({{"variant", A::Left},
               {"api", A::Left},
               {"runs"},
               {"median ms"},
               {"min ms"},
               {"max ms"},
               {"GB/s"},
               {"% of copy"},
               {"speed-up"},
               {"max diff"},
               {"differ"},
               {"status", A::Left}});
  for (const ResultRow& row : rows) {
    const bool timed = row.runs > 0;
    table.add_row({row.variant, row.api, std::to_string(row.runs), timed ? format_ms(row.median_ms) : "-",
                   timed ? format_ms(row.min_ms) : "-", timed ? format_ms(row.max_ms) : "-",
                   timed ? format_gbps(row.gbps) : "-",
                   row.percent_of_copy ? format_fixed(*row.percent_of_copy, 1) : "-",
                   row.speedup ? format_speedup(*row.speedup) : "-", timed ? format_fixed(row.max_diff, 0) : "-",
                   timed ? std::to_string(row.differing) : "-", row.status});
  }
  table.print(out);
}

void write_file_atomically(const std::string& path, const std::string& text) {
  namespace fs = std::filesystem;
  const std::string temporary = path + ".partial-" + std::to_string(::getpid());
  {
    std::ofstream file(temporary, std::ios::binary);
    file << text;
    file.close();
    if (!file) {
      std::error_code ignored;
      fs::remove(temporary, ignored);
      throw InputError("cannot write '" + path + "'");
    }
  }
  std::error_code ec;
  fs::rename(temporary, path, ec);
  if (ec) {
    std::error_code ignored;
    fs::remove(temporary, ignored);
    throw InputError("cannot write '" + path + "': " + ec.message());
  }
}

void write_csv(const std::string& path, const RunInfo& info, const std::vector<ResultRow>& rows) {
  std::ostringstream csv;
  csv << "chapter,date,variant,api,device,format,reference,line,width,height,channels,sigma,radius,runs,median_ms,"
         "min_ms,max_ms,gbps,percent_of_copy,speedup,max_diff,differing,psnr_db,status\n";
  for (const ResultRow& r : rows) {
    const RowShape shape = r.shape.value_or(RowShape{info.width, info.height, info.channels, info.sigma, info.radius});
    csv << csv_field(info.chapter) << ',' << info.date << ',' << csv_field(r.variant) << ',' << r.api << ','
        << csv_field(r.device) << ',' << r.format << ',' << csv_field(r.reference) << ',' << r.line << ','
        << shape.width << ',' << shape.height << ',' << shape.channels << ',' << json_number(shape.sigma) << ','
        << shape.radius << ',' << r.runs << ',' << json_number(r.median_ms) << ',' << json_number(r.min_ms) << ','
        << json_number(r.max_ms) << ',' << json_number(r.gbps) << ','
        << (r.percent_of_copy ? json_number(*r.percent_of_copy) : "") << ','
        << (r.speedup ? json_number(*r.speedup) : "") << ',' << json_number(r.max_diff) << ',' << r.differing << ','
        << (std::isfinite(r.psnr_db) ? json_number(r.psnr_db) : "inf") << ',' << r.status << '\n';
  }
  write_file_atomically(path, csv.str());
}

void write_json(const std::string& path, const RunInfo& info, const std::vector<ResultRow>& rows) {
  std::ostringstream json;
  json << "{\n  \"chapter\": " << json_string(info.chapter) << ",\n  \"date\": " << json_string(info.date)
       << ",\n  \"image\": " << json_string(info.image) << ",\n  \"width\": " << info.width
       << ",\n  \"height\": " << info.height << ",\n  \"channels\": " << info.channels
       << ",\n  \"sigma\": " << json_number(info.sigma) << ",\n  \"radius\": " << info.radius
       << ",\n  \"warmup\": " << info.warmup << ",\n  \"repeat\": " << info.repeat << ",\n  \"devices\": [";
  for (std::size_t i = 0; i < info.devices.size(); ++i) json << (i ? ", " : "") << json_string(info.devices[i]);
  json << "],\n  \"results\": [";
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const ResultRow& r = rows[i];
    json << (i ? "," : "") << "\n    {\"variant\": " << json_string(r.variant) << ", \"api\": " << json_string(r.api)
         << ", \"device\": " << json_string(r.device) << ", \"format\": " << json_string(r.format)
         << ", \"reference\": " << json_string(r.reference) << ", \"line\": " << json_string(r.line)
         << ", \"runs\": " << r.runs << ", \"median_ms\": " << json_number(r.median_ms)
         << ", \"min_ms\": " << json_number(r.min_ms) << ", \"max_ms\": " << json_number(r.max_ms)
         << ", \"gbps\": " << json_number(r.gbps) << ", \"percent_of_copy\": " << json_optional(r.percent_of_copy)
         << ", \"speedup\": " << json_optional(r.speedup) << ", \"max_diff\": " << json_number(r.max_diff)
         << ", \"differing\": " << r.differing << ", \"psnr_db\": " << json_number(r.psnr_db)
         << ", \"ok\": " << (r.ok ? "true" : "false") << ", \"status\": " << json_string(r.status);
    if (r.shape) {
      json << ", \"width\": " << r.shape->width << ", \"height\": " << r.shape->height
           << ", \"channels\": " << r.shape->channels << ", \"sigma\": " << json_number(r.shape->sigma)
           << ", \"radius\": " << r.shape->radius;
    }
    json << "}";
  }
  json << "\n  ]\n}\n";
  write_file_atomically(path, json.str());
}

}  // namespace gauss
