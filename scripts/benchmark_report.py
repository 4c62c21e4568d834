#!/usr/bin/env python3
"""Turns the chapters' --json files into the benchmark's results.

Writes results/<device>.csv (one row per variant and API), results/<device>.png
(the best variant of each chapter as % of the copy bandwidth, both APIs) and
rewrites the table between <!-- results:begin --> and <!-- results:end --> in
the README. Called by scripts/benchmark.sh.
"""
import argparse
import csv
import json
import os
import re
import sys

FIELDS = ["device", "driver", "date", "commit", "chapter", "variant", "api", "format", "reference", "median_ms",
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
                "reference": r.get("reference", ""), "median_ms": r["median_ms"], "min_ms": r["min_ms"],
                "max_ms": r["max_ms"], "gbps": r["gbps"], "percent_of_copy": r["percent_of_copy"],
                "status": r["status"], "size": f'{run["width"]} x {run["height"]}'})
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
        if r["chapter"] == "10_capstone" and r["variant"].startswith("ch"):
            continue  # the earlier chapters' steps, borrowed: counted in their own chapters
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


def plot(best, device, size, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    chapters = sorted({c for c, _ in best})
    fig, ax = plt.subplots(figsize=(10, 4.5))
    width = 0.38
    for i, (api, colour) in enumerate([("OpenCL", "#4878a8"), ("CUDA", "#76b900")]):
        xs = [k + (i - 0.5) * width for k in range(len(chapters))]
        ys = [best[(c, api)]["percent_of_copy"] if (c, api) in best else 0 for c in chapters]
        bars = ax.bar(xs, ys, width, label=api, color=colour)
        for bar, c in zip(bars, chapters):
            if (c, api) in best:
                ax.annotate(best[(c, api)]["variant"], (bar.get_x() + bar.get_width() / 2, bar.get_height()),
                            ha="center", va="bottom", fontsize=6, rotation=90, xytext=(0, 2),
                            textcoords="offset points")
    ax.set_xticks(range(len(chapters)))
    ax.set_xticklabels(chapters, rotation=30, ha="right")
    ax.set_ylabel("% of the copy bandwidth (same run, same API)")
    ax.set_ylim(0, 110)
    ax.axhline(100, color="grey", linewidth=0.8, linestyle="--")
    ax.set_title(f"Best variant of each chapter, {size}, {device}")
    ax.legend(loc="upper left")
    fig.tight_layout()
    fig.savefig(path, dpi=120)


def table(best, device, driver, date, commit, size):
    chapters = sorted({c for c, _ in best})
    lines = [f"Measured on {device} (driver {driver}), {date[:10]}, commit {commit}; {size}; "
             "median of the chapter's timed runs; % of copy = against a copy kernel of the same bytes on the "
             "same API in the same run.", "",
             "| chapter | best OpenCL blur | ms | % of copy | best CUDA blur | ms | % of copy |",
             "|---|---|---:|---:|---|---:|---:|"]
    for c in chapters:
        cells = [c]
        for api in ("OpenCL", "CUDA"):
            r = best.get((c, api))
            name = f"`{r['variant']}` ({r['format']})" if r else ""
            cells += [name, f"{r['median_ms']:.4f}", f"{r['percent_of_copy']:.1f}"] if r else ["-"] * 3
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--commit", required=True)
    parser.add_argument("--results", required=True)
    parser.add_argument("--readme")
    parser.add_argument("json", nargs="+")
    args = parser.parse_args()
    rows = load(args.json, args.commit)
    if not rows:
        sys.exit("benchmark_report: no GPU results in the JSON files")
    gpu_rows = [r for r in rows if r["device"]]
    device, driver, date = gpu_rows[0]["device"], gpu_rows[0]["driver"], gpu_rows[0]["date"]
    size = gpu_rows[0]["size"]
    os.makedirs(args.results, exist_ok=True)
    base = os.path.join(args.results, slug(device))
    write_csv(rows, base + ".csv")
    best = best_per_chapter(rows)
    plot(best, device, size, base + ".png")
    print(f"wrote {base}.csv and {base}.png")
    if args.readme:
        with open(args.readme) as f:
            text = f.read()
        begin, end = "<!-- results:begin -->", "<!-- results:end -->"
        if begin not in text or end not in text:
            sys.exit(f"benchmark_report: {args.readme} has no {begin} ... {end} markers")
        image = os.path.relpath(base + ".png", os.path.dirname(os.path.abspath(args.readme)) or ".")
        block = f"{begin}\n![% of copy bandwidth per chapter]({image})\n\n{table(best, device, driver, date, args.commit, size)}\n{end}"
        text = text[:text.index(begin)] + block + text[text.index(end) + len(end):]
        with open(args.readme, "w") as f:
            f.write(text)
        print(f"updated the results table in {args.readme}")


if __name__ == "__main__":
    main()
