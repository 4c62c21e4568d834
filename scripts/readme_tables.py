#!/usr/bin/env python3
"""Regenerates every measurement table in the project's Markdown from the
committed results, so that no number in a lesson can go stale.

A table is a pair of markers in a Markdown file; everything between them is
this script's output, rewritten on every run:

    <!-- table: variants chapter=05_local_memory variants=copy,main,tiled -->
    ...generated...
    <!-- table: end -->

Kinds and their keys (key=value, values without spaces; lists comma-separated):

  variants   a chapter's rows of the results CSV, both APIs side by side.
             chapter=NN_name (required); variants=a,b (default: every row of
             the chapter, in the order the chapter ran them); columns=ms,pct,gbps
             (default ms,pct); apis=OpenCL,CUDA; device=<results file stem>.
  profile    rows of results/<device>-profile.csv (Nsight Compute, CUDA).
             chapters=a,b (default: all); device=...
  devices    the same rows on two GPUs side by side and the ratio of times:
             chapter=..., variants=..., api=CUDA|OpenCL, devices=A,B.
  radius     chapter 15's radius sweep against its roof: main=main|main_rgba,
             api=CUDA|OpenCL; device=...
  climb      the main line from one device: every chapter's main-line rows (line
             "main": each chapter's `main`, chapter 01's `naive`), in chapter
             order, both APIs side by side; chapters=a,b (default: every chapter
             with main-line rows); columns=ms,pct,gbps (default ms,pct);
             apis=OpenCL,CUDA; device=<results file stem>.

device= names a file of results/ without .csv (NVIDIA_H200, say, or a
section measured on its own, NVIDIA_H200-radius); without it a
table takes the newest benchmark run in results/ (by its date column), so
a new run of scripts/benchmark.sh moves every table to it at once. Each table
ends with a line naming the GPU, driver, date, commit and file it came from.

  python3 scripts/readme_tables.py            # rewrite every table in place
  python3 scripts/readme_tables.py --check    # exit 1 if a table is out of date
  python3 scripts/readme_tables.py --lint     # exit 1 if a lesson has a measurement
                                              # table outside the markers

scripts/benchmark_report.py calls it after every benchmark run; the test
docs.tables runs --check and --lint.
"""
import argparse
import csv
import glob
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BEGIN = re.compile(r"<!-- table: (?!end -->)(\w+)((?: [\w-]+=[^\s>]+)*) -->")
END = "<!-- table: end -->"
# Every Markdown file of the project that may hold tables.
FILES = ["README.md", "chapters/*/README.md", "docs/*.md"]


def markdown_files(root):
    paths = []
    for pattern in FILES:
        paths += sorted(glob.glob(os.path.join(root, pattern)))
    return paths


def number(value):
    return float(value) if value not in ("", None) else None


def load_results(root):
    """{file stem: rows} for every benchmark CSV in results/."""
    runs = {}
    for path in sorted(glob.glob(os.path.join(root, "results", "*.csv"))):
        stem = os.path.basename(path)[:-4]
        with open(path, newline="") as f:
            rows = list(csv.DictReader(f))
        if not rows:
            continue
        for r in rows:
            for key in ("median_ms", "min_ms", "max_ms", "gbps", "percent_of_copy", "ms", "thread_instr_per_px",
                        "warp_instr_per_px", "issue_active_pct", "warps_active_pct", "registers",
                        "dram_bytes_per_px", "dram_gbps", "dram_pct", "l2_hit_pct"):
                if key in r:
                    r[key] = number(r[key])
        runs[stem] = rows
    return runs


def newest_benchmark(runs):
    # A benchmark run is results/<device>.csv; results/<device>-<what>.csv
    # (the profile, a section run alone) is named by device= where it is used.
    benchmarks = [s for s in runs if "-" not in s and "line" in runs[s][0]]
    if not benchmarks:
        return None
    return max(benchmarks, key=lambda s: max(r["date"] for r in runs[s]))


def milliseconds(ms):
    if ms is None or ms == 0:
        return "-"
    if ms < 0.1:
        return f"{ms:.4f}"
    if ms < 10:
        return f"{ms:.3f}"
    return f"{ms:.1f}"


def caption(rows, stem, what="median of the chapter's timed runs, 6720 x 4480"):
    first = rows[0]
    # OpenCL rows name NVIDIA's driver, CUDA rows the CUDA driver and runtime.
    drivers = []
    for api, label in (("OpenCL", "driver {}"), ("CUDA", "CUDA {}")):
        found = sorted({r["driver"].split(",")[0] for r in rows if r["api"] == api and r.get("driver")})
        drivers += [label.format(d) for d in found]
    driver = f" ({', '.join(drivers)})" if drivers else ""
    date = min(r["date"] for r in rows)[:10]
    commit = f", commit {first['commit']}" if first.get("commit") else ""
    return f"*{first['device']}{driver}, {date}{commit}; {what}; `results/{stem}.csv`.*"


class TableError(Exception):
    pass


def pick(rows, chapter, variants, apis):
    chosen = [r for r in rows if r["chapter"] == chapter and r["api"] in apis]
    if not chosen:
        raise TableError(f"no rows for chapter {chapter}")
    if variants:
        known = {r["variant"] for r in chosen}
        missing = [v for v in variants if v not in known]
        if missing:
            raise TableError(f"chapter {chapter} has no variant {', '.join(missing)}")
    return chosen


def status_note(r):
    return "" if r["status"].startswith("ok") else f" ({r['status']})"


def variants_table(runs, keys):
    stem = keys.get("device") or newest_benchmark(runs)
    if stem not in runs:
        raise TableError(f"no results/{stem}.csv")
    apis = keys.get("apis", "OpenCL,CUDA").split(",")
    variants = keys["variants"].split(",") if "variants" in keys else []
    columns = keys.get("columns", "ms,pct").split(",")
    rows = pick(runs[stem], keys["chapter"], variants, apis)
    order = variants or list(dict.fromkeys(r["variant"] for r in rows))
    by_key = {}
    for r in rows:  # the first run of a variant: a chapter's table before its sections' runs
        by_key.setdefault((r["variant"], r["api"]), r)
    present = [a for a in apis if any((v, a) in by_key for v in order)]
    heads = {"ms": "ms", "pct": "% of copy", "gbps": "GB/s"}
    header = ["variant"] + [f"{a} {heads[c]}" if c == "ms" else heads[c] for a in present for c in columns]
    out = ["| " + " | ".join(header) + " |", "|---" + "|---:" * (len(header) - 1) + "|"]
    for v in order:
        cells = [f"`{v}`"]
        for a in present:
            r = by_key.get((v, a))
            for c in columns:
                if r is None:
                    cells.append("")
                elif c == "ms":
                    cells.append(milliseconds(r["median_ms"]) + status_note(r))
                elif c == "pct":
                    cells.append(f"{r['percent_of_copy']:.1f}" if r["percent_of_copy"] is not None else "")
                else:
                    cells.append(f"{r['gbps']:.0f}" if r["gbps"] else "")
        out.append("| " + " | ".join(cells) + " |")
    used = [by_key[(v, a)] for v in order for a in present if (v, a) in by_key]
    return "\n".join(out + ["", caption(used, stem)])


PROFILE_COLUMNS = [
    ("thread_instr_per_px", "instructions per pixel", "{:.1f}"),
    ("issue_active_pct", "issue slots busy %", "{:.0f}"),
    ("warps_active_pct", "warps active %", "{:.0f}"),
    ("registers", "registers", "{:.0f}"),
    ("dram_bytes_per_px", "DRAM bytes per pixel", "{:.2f}"),
    ("dram_pct", "DRAM % of peak", "{:.0f}"),
    ("ms", "ncu ms", "{:.4f}"),
]


def profile_table(runs, keys):
    base = keys.get("device") or newest_benchmark(runs)
    stem = base + "-profile"
    if stem not in runs:
        raise TableError(f"no results/{stem}.csv")
    rows = runs[stem]
    if "chapters" in keys:
        wanted = keys["chapters"].split(",")
        rows = [r for r in rows if r["chapter"] in wanted]
    if "variants" in keys:
        wanted = keys["variants"].split(",")
        rows = [r for r in rows if r["variant"] in wanted]
    if not rows:
        raise TableError(f"no profile rows in results/{stem}.csv for {keys}")
    header = ["step", "kernel"] + [name for _, name, _ in PROFILE_COLUMNS]
    out = ["| " + " | ".join(header) + " |", "|---|---" + "|---:" * len(PROFILE_COLUMNS) + "|"]
    for r in rows:
        cells = [r["chapter"], f"`{r['variant']}` ({r['format']})"]
        cells += [fmt.format(r[key]) if r.get(key) is not None else "" for key, _, fmt in PROFILE_COLUMNS]
        out.append("| " + " | ".join(cells) + " |")
    first = rows[0]
    note = (f"*{first['device']}; Nsight Compute, CUDA, one launch after the warm-up, clocks as found; "
            f"`results/{stem}.csv`.*")
    return "\n".join(out + ["", note])


def devices_table(runs, keys):
    stems = keys["devices"].split(",")
    for s in stems:
        if s not in runs:
            raise TableError(f"no results/{s}.csv")
    api = keys.get("api", "CUDA")
    variants = keys["variants"].split(",")
    picked = [pick(runs[s], keys["chapter"], variants, [api]) for s in stems]
    names = [p[0]["device"] for p in picked]
    header = ["variant"] + [f"{n} ms" for n in names] + [f"{n} % of copy" for n in names]
    header.append(f"time {names[0]} / {names[1]}")
    out = ["| " + " | ".join(header) + " |", "|---" + "|---:" * (len(header) - 1) + "|"]
    for v in variants:
        rs = [{r["variant"]: r for r in p}.get(v) for p in picked]
        cells = [f"`{v}`"] + [milliseconds(r["median_ms"]) if r else "" for r in rs]
        cells += [f"{r['percent_of_copy']:.1f}" if r and r["percent_of_copy"] is not None else "" for r in rs]
        cells.append(f"{rs[0]['median_ms'] / rs[1]['median_ms']:.2f}" if all(rs) else "")
        out.append("| " + " | ".join(cells) + " |")
    notes = [caption(p, s) for p, s in zip(picked, stems)]
    return "\n".join(out + [""] + notes)


def climb_table(runs, keys):
    stem = keys.get("device") or newest_benchmark(runs)
    if stem not in runs:
        raise TableError(f"no results/{stem}.csv")
    apis = keys.get("apis", "OpenCL,CUDA").split(",")
    columns = keys.get("columns", "ms,pct").split(",")
    rows = [r for r in runs[stem] if r.get("line") == "main" and r["api"] in apis]
    if "chapters" in keys:
        wanted = keys["chapters"].split(",")
        missing = [c for c in wanted if not any(r["chapter"] == c for r in rows)]
        if missing:
            raise TableError(f"no main-line rows for chapter {', '.join(missing)}")
        rows = [r for r in rows if r["chapter"] in wanted]
    if not rows:
        raise TableError(f"no main-line rows in results/{stem}.csv")
    # One line per chapter and variant (a chapter's gray and RGBA steps are two).
    steps = sorted(dict.fromkeys((r["chapter"], r["variant"], r["format"]) for r in rows),
                   key=lambda step: step[0])
    by_key = {}
    for r in rows:  # the first run of a step, as the variants table takes it
        by_key.setdefault((r["chapter"], r["variant"], r["api"]), r)
    present = [a for a in apis if any(r["api"] == a for r in rows)]
    heads = {"ms": "ms", "pct": "% of copy", "gbps": "GB/s"}
    header = ["chapter", "variant", "pixels"] + [f"{a} {heads[c]}" if c == "ms" else heads[c]
                                                 for a in present for c in columns]
    out = ["| " + " | ".join(header) + " |", "|---|---|---" + "|---:" * (len(header) - 3) + "|"]
    for chapter, variant, pixel_format in steps:
        cells = [chapter, f"`{variant}`", pixel_format]
        for a in present:
            r = by_key.get((chapter, variant, a))
            for c in columns:
                if r is None:
                    cells.append("")
                elif c == "ms":
                    cells.append(milliseconds(r["median_ms"]) + status_note(r))
                elif c == "pct":
                    cells.append(f"{r['percent_of_copy']:.1f}" if r["percent_of_copy"] is not None else "")
                else:
                    cells.append(f"{r['gbps']:.0f}" if r["gbps"] else "")
        out.append("| " + " | ".join(cells) + " |")
    return "\n".join(out + ["", caption(rows, stem, "each chapter's main-line step, median of its timed runs, "
                                                   "6720 x 4480, % of the copy of the same bytes in the same run")])


def radius_table(runs, keys):
    """Chapter 15's radius sweep: per radius, the roof (the larger of the
    copy's time and the multiply-add roof's), each kernel's time and its %
    of the roof, and the growth over the previous radius. keys: main (main
    or main_rgba), api, device, and optionally portable (portable or
    portable_rgba: a column for it); the rows main@rNN, ch14_main@rNN,
    portable@rNN and main.roof@rNN of chapter 15."""
    stem = keys.get("device") or newest_benchmark(runs)
    if stem not in runs:
        raise TableError(f"no results/{stem}.csv")
    main = keys.get("main", "main")
    api = keys.get("api", "CUDA")
    before = "ch14_" + main
    portable = keys.get("portable")
    found = {}
    used = []
    for r in runs[stem]:
        m = re.fullmatch(r"(\w+?)(\.roof)?@r(\d+)", r["variant"])
        if r["chapter"] != "15_every_radius" or r["api"] != api or not m:
            continue
        name = "roof" if m.group(2) else m.group(1)
        if m.group(2) and m.group(1) != main:
            continue
        found.setdefault(int(m.group(3)), {})[name] = r
        used.append(r)
    wanted = {"roof", main, before} | ({portable} if portable else set())
    radii = sorted(r for r in found if wanted <= set(found[r]))
    if not radii:
        raise TableError(f"no radius sweep rows for {', '.join(sorted(wanted - {'roof'}))} ({api})")
    head = f"| radius | roof ms | `{main}` ms | % of roof | x previous radius | `{before}` ms | % of roof |"
    rule = "|---:|---:|---:|---:|---:|---:|---:|"
    if portable:
        head += f" `{portable}` ms | % of roof |"
        rule += "---:|---:|"
    out = [head, rule]
    previous = None
    for radius in radii:
        roof = found[radius]["roof"]["median_ms"]
        ms = found[radius][main]["median_ms"]
        earlier = found[radius][before]["median_ms"]
        growth = f"{ms / previous:.2f}" if previous else "-"
        line = (f"| {radius} | {milliseconds(roof)} | {milliseconds(ms)}{status_note(found[radius][main])} | "
                f"{100 * roof / ms:.1f} | {growth} | {milliseconds(earlier)} | {100 * roof / earlier:.1f} |")
        if portable:
            other = found[radius][portable]["median_ms"]
            line += f" {milliseconds(other)} | {100 * roof / other:.1f} |"
        out.append(line)
        previous = ms
    what = ("the radius sweep (--variant radius_sweep), sigma = max(0.5, R / 3), median of its timed runs; the roof "
            "is the larger of the same-run copy and 2 (2R+1) multiply-adds per value at the measured rate")
    return "\n".join(out + ["", caption(used, stem, what)])


KINDS = {"variants": variants_table, "profile": profile_table, "devices": devices_table, "climb": climb_table,
         "radius": radius_table}


def render(text, runs, path, missing):
    """@p text with every table regenerated; raises TableError on a bad marker.
    Tables without results are appended to @p missing."""
    out, pos = [], 0
    for m in BEGIN.finditer(text):
        if m.start() < pos:
            continue
        end = text.find(END, m.end())
        if end < 0:
            raise TableError(f"{path}: '{m.group(0)}' has no '{END}'")
        kind = m.group(1)
        if kind not in KINDS:
            raise TableError(f"{path}: unknown table kind '{kind}'")
        keys = dict(item.split("=", 1) for item in m.group(2).split())
        try:
            block = KINDS[kind](runs, keys)
        except (TableError, KeyError) as error:
            # Left as a visible placeholder (a chapter not yet benchmarked), and
            # reported: --check fails on it.
            missing.append(f"{path}: {m.group(0)}: {error}")
            block = f"*(no results yet for this table: {error}; run scripts/benchmark.sh on a GPU)*"
        out += [text[pos:m.end()], "\n", block, "\n"]
        pos = end
    out.append(text[pos:])
    return "".join(out)


# A measurement table: a Markdown table whose header names a time, a share of
# the copy or a bandwidth.
MEASUREMENT_HEADER = re.compile(r"^\|.*(\bms\b|% of copy|GB/s|TB/s|MP/s)", re.IGNORECASE)


def lint(text, path):
    """Measurement tables outside the markers, as 'path:line: header'."""
    problems, inside, previous = [], False, ""
    for number_, line in enumerate(text.splitlines(), 1):
        if BEGIN.search(line):
            inside = True
        elif END in line:
            inside = False
        elif not inside and line.startswith("|") and not previous.startswith("|") and MEASUREMENT_HEADER.search(line):
            problems.append(f"{path}:{number_}: {line[:100]}")
        previous = line
    return problems


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--root", default=ROOT)
    parser.add_argument("--check", action="store_true", help="report tables that are out of date; change nothing")
    parser.add_argument("--lint", action="store_true",
                        help="report measurement tables outside the markers in the chapters' lessons")
    parser.add_argument("files", nargs="*", help="Markdown files (default: every one of the project)")
    args = parser.parse_args()
    runs = load_results(args.root)
    paths = args.files or markdown_files(args.root)
    stale, problems = [], []
    for path in paths:
        with open(path) as f:
            text = f.read()
        shown = os.path.relpath(path, args.root)
        if args.lint and shown.startswith("chapters/"):
            problems += lint(text, shown)
        try:
            new = render(text, runs, shown, problems)
        except TableError as error:
            problems.append(str(error))
            continue
        if new != text:
            stale.append(shown)
            if not args.check:
                with open(path, "w") as f:
                    f.write(new)
    for p in problems:
        print(p, file=sys.stderr)
    if args.check and stale:
        print("out of date (run python3 scripts/readme_tables.py): " + ", ".join(stale), file=sys.stderr)
    elif stale:
        print("regenerated the tables in " + ", ".join(stale))
    return 1 if problems or (args.check and stale) else 0


if __name__ == "__main__":
    sys.exit(main())
