#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "gauss/error.hpp"
#include "gauss/table.hpp"
#include "gauss/timing.hpp"
#include "support.hpp"

TEST_CASE("timing summaries: median, min, max", "[timing]") {
  const gauss::TimingStats odd = gauss::summarize({5, 1, 3});
  CHECK(odd.median_ms == 3);
  CHECK(odd.min_ms == 1);
  CHECK(odd.max_ms == 5);
  CHECK(odd.runs() == 3);
  CHECK(gauss::summarize({4, 1, 3, 2}).median_ms == 2.5);
  CHECK(gauss::summarize({}).runs() == 0);
  // 10^9 bytes in one second is 1 GB/s (decimal gigabytes, as NVIDIA's
  // bandwidth figures use), not 1 GiB/s.
  CHECK(gauss::gigabytes_per_second(1000000000, 1000.0) == Approx(1.0));
  CHECK(gauss::gigabytes_per_second(60211200, 0.02) == Approx(3010.56));
}

TEST_CASE("tables align numbers right and text left", "[table]") {
  gauss::Table table({{"name", gauss::Table::Align::Left}, {"ms"}});
  table.add_row({"a", "1.5"});
  table.add_row({"longer", "10.25"});
  std::ostringstream out;
  table.print(out);
  CHECK(out.str() == "name       ms\n-------------\na         1.5\nlonger  10.25\n");
}

TEST_CASE("CSV and JSON files hold every row, escaped", "[table]") {
  namespace fs = std::filesystem;
  const fs::path dir = fs::path(gauss::test::scratch_dir()) / "results";
  fs::remove_all(dir);
  fs::create_directories(dir);
  gauss::RunInfo info;
  info.chapter = "01_naive";
  info.image = "a \"quoted\" name";
  gauss::ResultRow row;
  row.variant = "naive";
  row.api = "OpenCL";
  row.device = "Device, with comma";
  row.runs = 3;
  row.median_ms = 1.5;
  row.percent_of_copy = 42.0;
  row.ok = true;
  row.status = "ok";
  gauss::write_csv((dir / "r.csv").string(), info, {row, row});
  gauss::write_json((dir / "r.json").string(), info, {row});

  std::ifstream csv(dir / "r.csv");
  std::string header, line;
  std::getline(csv, header);
  CHECK(header.rfind("chapter,date,variant,api,device", 0) == 0);
  std::getline(csv, line);
  CHECK(line.find("\"Device, with comma\"") != std::string::npos);
  CHECK(line.find(",42,") != std::string::npos);

  std::stringstream json;
  json << std::ifstream(dir / "r.json").rdbuf();
  CHECK(json.str().find("\"image\": \"a \\\"quoted\\\" name\"") != std::string::npos);
  CHECK(json.str().find("\"speedup\": null") != std::string::npos);
  CHECK(json.str().find("\"percent_of_copy\": 42") != std::string::npos);

  CHECK_THROWS_AS(gauss::write_file_atomically((dir / "no" / "such" / "file").string(), "x"), gauss::InputError);
}

TEST_CASE("a row measured on another image or blur says so in CSV and JSON", "[table]") {
  namespace fs = std::filesystem;
  const fs::path dir = fs::path(gauss::test::scratch_dir()) / "results_shape";
  fs::remove_all(dir);
  fs::create_directories(dir);
  gauss::RunInfo info;
  info.chapter = "14_capstone";
  info.width = 6720;
  info.height = 4480;
  gauss::ResultRow run_row;
  run_row.variant = "fused";
  gauss::ResultRow sweep_row = run_row;
  sweep_row.variant = "fused@608x405";
  sweep_row.shape = gauss::RowShape{608, 405, 4, 3.0, 9};
  gauss::write_csv((dir / "r.csv").string(), info, {run_row, sweep_row});
  gauss::write_json((dir / "r.json").string(), info, {sweep_row});

  std::ifstream csv(dir / "r.csv");
  std::string header, first, second;
  std::getline(csv, header);
  std::getline(csv, first);
  std::getline(csv, second);
  CHECK(first.find(",6720,4480,1,1,2,") != std::string::npos);
  CHECK(second.find(",608,405,4,3,9,") != std::string::npos);
  std::stringstream json;
  json << std::ifstream(dir / "r.json").rdbuf();
  CHECK(json.str().find("\"width\": 608, \"height\": 405, \"channels\": 4, \"sigma\": 3, \"radius\": 9") !=
        std::string::npos);
}
