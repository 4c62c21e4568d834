#!/usr/bin/env python3
"""Turns the chapters' --json files into the benchmark's results.

Writes results/<device>.csv (one row per variant and API; the column `line`
says "main" for the main line's steps), results/<device>.png (the main line's
climb as % of the copy bandwidth, both APIs, beside the best variant of each
chapter) and rewrites the main-line table in the README (--readme), between
<!-- results:begin --> and <!-- results:end -->, and the side-by-side table of
two GPUs of results/ in the benchmarks page (--gpus-page, default
docs/benchmarks.md), between <!-- gpus:begin --> and <!-- gpus:end -->; then
every generated table of the lessons (scripts/readme_tables.py), so that they
move to the new run at once. Called by scripts/benchmark.sh:

  scripts/benchmark_report.py --commit abc1234 --results results --readme README.md run/*.json
  scripts/benchmark_report.py --from-csv results/NVIDIA_H200.csv --results results --readme README.md
  scripts/benchmark_report.py --commit abc1234 --results results --section radius sweep.json
"""
import argparse
import csv
import glob
import json
import os
import re
import subprocess
import sys

FIELDS = ["device", "driver", "date", "commit", "chapter", "variant", "api", "format", "reference", "line", "median_ms",
          "min_ms", "max_ms", "gbps", "percent_of_copy", "status"]


def device_and_driver(summary):
    """'NVIDIA H200 (NVIDIA CUDA; OpenCL 3.0 CUDA; driver 580.159.04)' -> name, driver."""
    name = summary.split(" (")[0]
    driver = re.search(r"driver (?:CUDA )?([^;)]+)", summary)
    return name, driver.group(1).strip() if driver else ""


def load(paths, commit):
    rows = []
    for path in paths:
        with open(path) as f:
            run = json.load(f)
        drivers = {}
        for entry in run.get("devices", []):
            api, summary = entry.split(": ", 1)
            drivers[api] = device_and_driver(summary)
        for r in run["results"]:
            if r["api"] == "CPU":
                continue  # the benchmark is about the GPU steps
            name, driver = drivers.get(r["api"], (r["device"], ""))
            rows.append({
                "device": name, "driver": driver, "date": run["date"], "commit": commit, "chapter": run["chapter"],
                "variant": r["variant"], "api": r["api"], "format": r.get("format", ""),
                "reference": r.get("reference", ""), "line": r.get("line", ""), "median_ms": r["median_ms"], "min_ms": r["min_ms"],
                "max_ms": r["max_ms"], "gbps": r["gbps"], "percent_of_copy": r["percent_of_copy"],
                "status": r["status"], "size": f'{run["width"]} x {run["height"]}'})
    return rows


def load_csv(path):
    """The rows of a results CSV this script wrote, as load() returns them
    (to redraw the plot and the tables from a committed benchmark)."""
    with open(path) as f:
        rows = list(csv.DictReader(f))
    for r in rows:
        for key in ("median_ms", "min_ms", "max_ms", "gbps"):
            r[key] = float(r[key]) if r[key] else 0.0
        r["percent_of_copy"] = float(r["percent_of_copy"]) if r["percent_of_copy"] else None
        r["size"] = "6720 x 4480"  # the benchmark's size: the CSV does not repeat it
    return rows


def slug(text):
    return re.sub(r"[^A-Za-z0-9]+", "_", text).strip("_")


def best_per_chapter(rows):
    """The fastest Gaussian blur of each chapter and API, gray where the
    chapter has a gray one (chapter 07 is colour only), each against its own
    format's copy: the step the chapter teaches, at its best. Copies, other
    filters (the recursive one, transposes) and sections' measurements
    (transfers, sums) are left out."""
    has_gray = {(r["chapter"], r["api"]) for r in rows if r["format"] == "gray" and r["reference"] == "gaussian"}
    best = {}
    for r in rows:
        if (r["chapter"], r["api"]) in has_gray and r["format"] != "gray":
            continue
        if r["reference"] != "gaussian" or not r["status"].startswith("ok"):
            continue
        if r["variant"].startswith("seminar_"):
            continue  # the seed's published kernels, run beside ours as a reference: not a step of the tutorial
        if re.match(r"ch\d\d_", r["variant"]):
            continue  # an earlier chapter's step, borrowed (ch05_main): counted in its own chapter
        if r["percent_of_copy"] is None:
            continue
        key = (r["chapter"], r["api"])
        if key not in best or r["percent_of_copy"] > best[key]["percent_of_copy"]:
            best[key] = r
    return best


def write_csv(rows, path):
    with open(path, "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=FIELDS, extrasaction="ignore")
        writer.writeheader()
        for r in rows:
            writer.writerow(r)


def main_line(rows):
    """The main line's steps in the order of the climb: per chapter and API,
    the rows marked line "main" (gray, and RGBA where the chapter has one),
    each with its step speed-up (over the previous step of the same API) and
    cumulative speed-up (over chapter 01). Speed-ups are ratios of % of copy,
    which is the ratio of times within one pixel format and stays fair where
    the line moves from gray to RGBA (a pixel there is 4 bytes)."""
    steps = {}
    for r in rows:
        if r.get("line") != "main" or r["percent_of_copy"] is None or not r["status"].startswith("ok"):
            continue
        steps[(r["chapter"], r["format"], r["api"])] = r
    order = sorted({(c, f) for c, f, _ in steps}, key=lambda cf: (cf[0], cf[1] != "gray"))
    line = []
    for api in ("OpenCL", "CUDA"):
        previous = {}  # format -> the last step's row of that format
        first = None
        for chapter, fmt in order:
            r = steps.get((chapter, fmt, api))
            if r is None:
                continue
            # A step follows the last one of its format; the first RGBA step follows the last gray one.
            before = previous.get(fmt) or previous.get("gray")
            first = first or r
            line.append({**r, "step": r["percent_of_copy"] / before["percent_of_copy"] if before else None,
                         "cumulative": r["percent_of_copy"] / first["percent_of_copy"]})
            previous[fmt] = r
    return order, {(r["chapter"], r["format"], r["api"]): r for r in line}


def interludes(rows):
    """Chapters 08 and 09's own headline metrics: the fastest end-to-end blur
    (upload, kernel, download) in ms, and the fastest correct sum in GB/s."""
    best = {}
    for r in rows:
        if not r["status"].startswith("ok"):
            continue
        if r["chapter"] == "08_data_transfer" and r["variant"].endswith(".end_to_end"):
            key = ("08_data_transfer", r["api"])
            if key not in best or r["median_ms"] < best[key]["median_ms"]:
                best[key] = r
        if r["chapter"] == "09_reduction" and r["variant"].startswith("sum."):
            key = ("09_reduction", r["api"])
            if key not in best or r["gbps"] > best[key]["gbps"]:
                best[key] = r
    return best


def plot(order, line, best, device, size, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, (climb, bars) = plt.subplots(1, 2, figsize=(14, 4.8), gridspec_kw={"width_ratios": [1.1, 1]})
    # Left: the climb, one point per main-line step.
    labels = [c[:2] + (" RGBA" if f != "gray" else "") for c, f in order]
    for api, colour, marker in [("OpenCL", "#4878a8", "s"), ("CUDA", "#76b900", "o")]:
        xs = [i for i, (c, f) in enumerate(order) if (c, f, api) in line]
        ys = [line[(c, f, api)]["percent_of_copy"] for c, f in order if (c, f, api) in line]
        climb.plot(xs, ys, marker=marker, color=colour, label=api)
        for x, y in zip(xs, ys):
            climb.annotate(f"{y:.0f}", (x, y), fontsize=7, xytext=(0, 5 if api == "CUDA" else -11),
                           textcoords="offset points", ha="center", color=colour)
    climb.set_xticks(range(len(order)))
    climb.set_xticklabels(labels)
    climb.set_xlabel("chapter (main-line step; 08 and 09 are interludes)")
    climb.set_ylabel("% of the copy bandwidth (same run, same API)")
    climb.set_ylim(0, 110)
    climb.axhline(100, color="grey", linewidth=0.8, linestyle="--")
    climb.set_title("The main line: each chapter adds one technique")
    climb.legend(loc="upper left")
    # Right: the best blur of each chapter, whatever it is.
    chapters = sorted({c for c, _ in best})
    width = 0.38
    for i, (api, colour) in enumerate([("OpenCL", "#4878a8"), ("CUDA", "#76b900")]):
        xs = [k + (i - 0.5) * width for k in range(len(chapters))]
        ys = [best[(c, api)]["percent_of_copy"] if (c, api) in best else 0 for c in chapters]
        drawn = bars.bar(xs, ys, width, label=api, color=colour)
        for bar, c in zip(drawn, chapters):
            if (c, api) in best:
                bars.annotate(best[(c, api)]["variant"], (bar.get_x() + bar.get_width() / 2, bar.get_height()),
                              ha="center", va="bottom", fontsize=6, rotation=90, xytext=(0, 2),
                              textcoords="offset points")
    bars.set_xticks(range(len(chapters)))
    bars.set_xticklabels([c[:2] for c in chapters])
    bars.set_ylim(0, 110)
    bars.axhline(100, color="grey", linewidth=0.8, linestyle="--")
    bars.set_title("The best blur of each chapter (any variant)")
    fig.suptitle(f"{size}, radius 2, {device}")
    fig.tight_layout()
    fig.savefig(path, dpi=120)


def speedup(value):
    return f"{value:.2f}x" if value else "-"


def table(order, line, extra, device, driver, date, commit, size):
    lines = [f"Measured on {device} (driver {driver}), {date[:10]}, commit {commit}; {size}, sigma 1, radius 2; "
             "median of the chapter's timed runs; % of copy = against a copy kernel of the same bytes on the "
             "same API in the same run; step and cumulative speed-ups are ratios of % of copy (of times, within "
             "one pixel format).", "",
             "| chapter | main-line kernel | OpenCL ms | % of copy | step | cumulative | CUDA ms | % of copy | step "
             "| cumulative |",
             "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    rows_out = []
    for chapter, fmt in order:
        names = {line[(chapter, fmt, api)]["variant"] for api in ("OpenCL", "CUDA") if (chapter, fmt, api) in line}
        cells = [chapter, ", ".join(f"`{n}`" for n in sorted(names)) + f" ({fmt})"]
        for api in ("OpenCL", "CUDA"):
            r = line.get((chapter, fmt, api))
            cells += ([f"{r['median_ms']:.4f}", f"{r['percent_of_copy']:.1f}", speedup(r["step"]),
                       speedup(r["cumulative"])] if r else ["-"] * 4)
        rows_out.append((chapter, "| " + " | ".join(cells) + " |"))
    # The interludes, in chapter order, with their own metric.
    for chapter in ("08_data_transfer", "09_reduction"):
        cells = []
        for api in ("OpenCL", "CUDA"):
            r = extra.get((chapter, api))
            if r is None:
                cells.append("-")
            elif chapter == "08_data_transfer":
                cells.append(f"`{r['variant'].split('.')[0]}` {r['median_ms']:.2f} ms end to end")
            else:
                cells.append(f"`{r['variant']}` {r['gbps']:.0f} GB/s")
        what = "interlude: upload + blur + download" if chapter == "08_data_transfer" else "interlude: a sum"
        rows_out.append((chapter, f"| {chapter} | {what} | {cells[0]} | | | | {cells[1]} | | | |"))
    rows_out.sort(key=lambda cr: cr[0])
    return "\n".join(lines + [text for _, text in rows_out])


def gpus_table(results):
    """Every GPU's benchmark in results/ side by side: the main line's CUDA and
    OpenCL % of copy per GPU, and the ratio of times between the first two
    GPUs (a memory-bound kernel moves by the bandwidth ratio, an issue-bound
    one not at all)."""
    runs = {}
    for path in sorted(glob.glob(os.path.join(results, "*.csv"))):
        if path.endswith("-profile.csv"):
            continue
        with open(path) as f:
            rows = list(csv.DictReader(f))
        if not rows or "line" not in rows[0]:
            continue
        for r in rows:
            r["percent_of_copy"] = float(r["percent_of_copy"]) if r["percent_of_copy"] else None
            r["median_ms"] = float(r["median_ms"])
        runs[rows[0]["device"]] = rows
    if len(runs) < 2:
        return None
    devices = sorted(runs)[:2]
    steps = {d: main_line(runs[d])[1] for d in devices}
    # The copy both GPUs measured in the last chapter they share: the
    # bandwidth ratio that a memory-bound step would follow.
    copies = {d: {r["chapter"]: r["median_ms"] for r in runs[d]
                  if r["variant"] == "copy" and r["api"] == "CUDA" and r.get("format", "gray") == "gray"}
              for d in devices}
    a, b = devices
    shared = sorted(set(copies[a]) & set(copies[b]))
    order = sorted({(c, f) for d in devices for c, f, _ in steps[d]}, key=lambda cf: (cf[0], cf[1] != "gray"))
    lines = [f"| chapter | kernel | API | {a} ms | % of copy | {b} ms | % of copy | time {a} / {b} |",
             "|---|---|---|---:|---:|---:|---:|---:|"]
    if shared:
        chapter = shared[-1]
        lines.append(f"| {chapter} | `copy` (gray) | CUDA | {copies[a][chapter]:.4f} | 100 | "
                     f"{copies[b][chapter]:.4f} | 100 | {copies[a][chapter] / copies[b][chapter]:.2f} |")
    for chapter, fmt in order:
        for api in ("CUDA", "OpenCL"):
            ra, rb = steps[a].get((chapter, fmt, api)), steps[b].get((chapter, fmt, api))
            if not ra or not rb:
                continue
            lines.append(f"| {chapter} | `{ra['variant']}` ({fmt}) | {api} | {ra['median_ms']:.4f} | "
                         f"{ra['percent_of_copy']:.1f} | {rb['median_ms']:.4f} | {rb['percent_of_copy']:.1f} | "
                         f"{ra['median_ms'] / rb['median_ms']:.2f} |")
    return "\n".join(lines)


def replace_block(text, name, block, path):
    """The text with the lines between the markers, each alone on its line,
    replaced by block (a page may quote the markers in its prose)."""
    begin, end = f"<!-- {name}:begin -->", f"<!-- {name}:end -->"
    found = re.search(f"^{re.escape(begin)}$.*?^{re.escape(end)}$", text, re.M | re.S)
    if not found:
        sys.exit(f"benchmark_report: {path} has no {begin} ... {end} markers, each alone on a line")
    return text[:found.start()] + f"{begin}\n{block}\n{end}" + text[found.end():]


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--commit", help="the commit measured (JSON runs; a CSV names its own)")
    parser.add_argument("--results", required=True)
    parser.add_argument("--readme", help="the README whose results block to rewrite (README.md)")
    parser.add_argument("--gpus-page", help="the page whose gpus block to rewrite (default: docs/benchmarks.md beside "
                        "the README)")
    parser.add_argument("--from-csv", help="redraw from this results CSV instead of running JSON files")
    parser.add_argument("--section", help="a section measured on its own: write only results/<device>-SECTION.csv "
                        "from the JSON files (no figure, no tables; a lesson names it with device=)")
    parser.add_argument("json", nargs="*")
    args = parser.parse_args()
    if not args.from_csv and (not args.json or not args.commit):
        sys.exit("benchmark_report: give --commit and the chapters' JSON files, or --from-csv")
    rows = load_csv(args.from_csv) if args.from_csv else load(args.json, args.commit)
    commit = rows[0]["commit"] if rows else args.commit
    if not rows:
        sys.exit("benchmark_report: no GPU results in the JSON files")
    gpu_rows = [r for r in rows if r["device"]]
    device, driver, date = gpu_rows[0]["device"], gpu_rows[0]["driver"], gpu_rows[0]["date"]
    size = gpu_rows[0]["size"]
    os.makedirs(args.results, exist_ok=True)
    base = os.path.join(args.results, slug(device))
    if args.section:
        if args.from_csv or not re.fullmatch(r"[a-z0-9_]+", args.section):
            sys.exit("benchmark_report: --section takes JSON files and a name of letters, digits and _")
        write_csv(rows, f"{base}-{args.section}.csv")
        print(f"wrote {base}-{args.section}.csv")
        return
    if not args.from_csv:
        write_csv(rows, base + ".csv")
    order, line = main_line(rows)
    plot(order, line, best_per_chapter(rows), device, size, base + ".png")
    print(f"wrote {base}.csv and {base}.png")
    if args.readme:
        with open(args.readme) as f:
            text = f.read()
        image = os.path.relpath(base + ".png", os.path.dirname(os.path.abspath(args.readme)) or ".")
        block = (f"![the main line's climb, and each chapter's best]({image})\n\n"
                 f"{table(order, line, interludes(rows), device, driver, date, commit, size)}")
        text = replace_block(text, "results", block, args.readme)
        with open(args.readme, "w") as f:
            f.write(text)
        print(f"updated the results table in {args.readme}")
        gpus_page = args.gpus_page or os.path.join(os.path.dirname(os.path.abspath(args.readme)), "docs",
                                                   "benchmarks.md")
        gpus = gpus_table(args.results)
        if gpus:
            with open(gpus_page) as f:
                text = f.read()
            with open(gpus_page, "w") as f:
                f.write(replace_block(text, "gpus", gpus, gpus_page))
            print(f"updated the two GPUs' table in {gpus_page}")
        # The lessons' generated tables take the newest run (readme_tables.py);
        # a table whose rows no run holds yet stays a placeholder, and says so.
        tables = os.path.join(os.path.dirname(os.path.abspath(__file__)), "readme_tables.py")
        if subprocess.run([sys.executable, tables]).returncode != 0:
            print("benchmark_report: scripts/readme_tables.py reported tables it could not fill (above)")


if __name__ == "__main__":
    main()
