#!/usr/bin/env python3
"""Chapter 09's plots from results CSVs (--csv of 09_reduction).

    python3 chapters/09_reduction/plot.py results.csv [output folder] [file name prefix]

Writes ladder.png (device time of each sum of the photo, per API, log scale)
from rows named sum.<method>, and sweep.png (GB/s against the bytes summed,
with the copy ceiling of the same run) from rows named sweep.<bytes>.<method>
(09_reduction --variant sweep). The CSV names the device: plots of a PoCL
run are plots of a CPU, not a GPU.
"""
import csv
import os
import sys
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def read(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def timed(row):
    return row["runs"] and int(row["runs"]) > 0


def plot_ladder(rows, out, prefix=""):
    by_api = defaultdict(list)
    for r in rows:
        if r["variant"].startswith("sum.") and timed(r):
            by_api[r["api"]].append((r["variant"][len("sum."):], float(r["median_ms"])))
    if not by_api:
        return False
    fig, ax = plt.subplots(figsize=(7.5, 4.5))
    width = 0.8 / len(by_api)
    methods = []
    for points in by_api.values():
        methods += [m for m, _ in points if m not in methods]
    for i, (api, points) in enumerate(sorted(by_api.items())):
        ms = dict(points)
        xs = [j + i * width for j, m in enumerate(methods) if m in ms]
        ax.bar(xs, [ms[m] for m in methods if m in ms], width, label=api)
    ax.set_xticks([j + 0.4 - width / 2 for j in range(len(methods))])
    ax.set_xticklabels(methods, rotation=30)
    ax.set_yscale("log")
    ax.set_ylabel("device ms (median), log scale")
    ax.set_title(f"09_reduction: summing {rows[0]['width']}x{rows[0]['height']} bytes on {rows[0]['device']}",
                 fontsize=9)
    ax.legend()
    fig.tight_layout()
    fig.savefig(os.path.join(out, prefix + "ladder.png"), dpi=120)
    return True


def plot_sweep(rows, out, prefix=""):
    curves = defaultdict(list)  # (api, method) -> [(bytes, GB/s)]
    ceilings = {}
    for r in rows:
        if r["variant"] == "copy" and timed(r):
            ceilings[r["api"]] = float(r["gbps"])
        parts = r["variant"].split(".")
        if len(parts) == 3 and parts[0] == "sweep" and timed(r):
            curves[(r["api"], parts[2])].append((int(parts[1]), float(r["gbps"])))
    if not curves:
        return False
    fig, ax = plt.subplots(figsize=(7.5, 4.5))
    for (api, method), points in sorted(curves.items()):
        points.sort()
        ax.plot([p[0] for p in points], [p[1] for p in points], "o-", label=f"{method} ({api})")
    # The two APIs' copy ceilings are a few percent apart: one label above
    # the first line, the next below the second, so that they do not overlap.
    for i, (api, gbps) in enumerate(sorted(ceilings.items())):
        ax.axhline(gbps, linestyle="--", color="gray")
        ax.annotate(f"copy ({api}), {gbps:.0f} GB/s", (1024, gbps), fontsize=8, va="bottom" if i % 2 == 0 else "top")
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlabel("bytes summed")
    ax.set_ylabel("GB/s = bytes / device time (median)")
    ax.set_title(f"09_reduction: sums of 1 KiB to 256 MiB on {rows[0]['device']}", fontsize=9)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(os.path.join(out, prefix + "sweep.png"), dpi=120)
    return True


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    rows = read(sys.argv[1])
    out = sys.argv[2] if len(sys.argv) > 2 else "."
    prefix = sys.argv[3] if len(sys.argv) > 3 else ""  # e.g. h200_ch08_: names unique across chapters
    os.makedirs(out, exist_ok=True)
    made = [name for name, ok in (("ladder.png", plot_ladder(rows, out, prefix)),
                                  ("sweep.png", plot_sweep(rows, out, prefix))) if ok]
    if made:
        print("wrote " + ", ".join(os.path.join(out, prefix + m) for m in made))
    else:
        print("nothing to plot in " + sys.argv[1])


if __name__ == "__main__":
    main()
