#!/usr/bin/env python3
"""Chapter 10's plots from the sweeps' CSV files (--csv of 10_capstone):

    build/bin/10_capstone --variant size_sweep --csv size_sweep.csv
    build/bin/10_capstone --variant radius_sweep --csv radius_sweep.csv
    python3 chapters/10_capstone/plot.py size_sweep.csv [--out size_sweep.png]
    python3 chapters/10_capstone/plot.py radius_sweep.csv [--out radius_sweep.png]

The sweeps' rows are named <variant>@<point>: fused@<width>x<height> in the
size sweep, fused@<radius> and fused_rgba@<radius> in the radius sweep. Each
row's percent_of_copy is against a copy kernel run at the same point (the same
image, the same API), so the copy's time there is median_ms x
percent_of_copy / 100. Read the point from the name: the width, height,
channels and radius columns of these rows are the program's defaults, not the
point's.

Size sweep: median time against megapixels, log-log, the fused kernel and the
copy in each API, and the fused kernel's % of copy on a second panel. Radius
sweep: median time against the radius, gray and RGBA in each API, and % of
copy on a second panel. The CSV names the device: plots of a PoCL run are
plots of a CPU, not a GPU.
"""
import argparse
import csv
import os
import re

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

COLOURS = {"OpenCL": "#4C78A8", "CUDA": "#76B900"}  # as in results/<device>.png
STYLES = {"fused": "-", "fused_rgba": "--"}
FORMATS = {"fused": "gray", "fused_rgba": "RGBA"}


def read_points(path):
    """(variant, point label, api) -> (fused ms, copy ms, % of copy); and the device per API."""
    points = {}
    device = {}
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            if "@" not in r["variant"] or not r["runs"] or int(r["runs"]) == 0:
                continue
            if not r["status"].startswith("ok"):
                continue  # a mismatch: its time says nothing about a correct blur
            variant, label = r["variant"].split("@", 1)
            fused_ms = float(r["median_ms"])
            percent = float(r["percent_of_copy"])
            points[(variant, label, r["api"])] = (fused_ms, fused_ms * percent / 100.0, percent)
            device[r["api"]] = r["device"]
    return points, device


def plot_sizes(points, device, out):
    sizes = {}  # (api) -> [(megapixels, fused ms, copy ms, %)]
    for (variant, label, api), (fused_ms, copy_ms, percent) in points.items():
        match = re.fullmatch(r"(\d+)x(\d+)", label)
        if variant == "fused" and match:
            megapixels = int(match.group(1)) * int(match.group(2)) / 1e6
            sizes.setdefault(api, []).append((megapixels, fused_ms, copy_ms, percent))
    if not sizes:
        return False
    figure, (time_axis, percent_axis) = plt.subplots(1, 2, figsize=(12, 4.6))
    for api in sorted(sizes):
        rows = sorted(sizes[api])
        mp = [r[0] for r in rows]
        colour = COLOURS.get(api)
        time_axis.plot(mp, [r[1] for r in rows], "o-", color=colour, label=f"fused ({api})")
        time_axis.plot(mp, [r[2] for r in rows], "s--", color=colour, alpha=0.6, markersize=4,
                       label=f"copy ({api})")
        percent_axis.plot(mp, [r[3] for r in rows], "o-", color=colour, label=f"fused ({api})")
    time_axis.set_xscale("log")
    time_axis.set_yscale("log")
    time_axis.set_xlabel("image size, megapixels (3:2, gray)")
    time_axis.set_ylabel("median ms (device events)")
    time_axis.set_title("time: nearly flat on small images (launch, latency), proportional to the pixels from ~16 MP", fontsize=9)
    time_axis.grid(True, which="both", alpha=0.3)
    time_axis.legend(fontsize=8)
    percent_axis.set_xscale("log")
    percent_axis.set_ylim(0, 100)
    percent_axis.axhline(100, color="gray", linestyle="--", linewidth=1)
    percent_axis.set_xlabel("image size, megapixels (3:2, gray)")
    percent_axis.set_ylabel("% of the copy at the same size, same API")
    percent_axis.set_title("fused as % of the copy", fontsize=9)
    percent_axis.grid(True, which="both", alpha=0.3)
    percent_axis.legend(fontsize=8)
    names = "; ".join(f"{api}: {device[api]}" for api in sorted(device))
    figure.suptitle(f"10_capstone size sweep, radius 2 ({names})", fontsize=10)
    figure.tight_layout()
    figure.savefig(out, dpi=120)
    return True


def plot_radii(points, device, out):
    radii = {}  # (variant, api) -> [(radius, fused ms, copy ms, %)]
    for (variant, label, api), (fused_ms, copy_ms, percent) in points.items():
        if variant in STYLES and label.isdigit():
            radii.setdefault((variant, api), []).append((int(label), fused_ms, copy_ms, percent))
    if not radii:
        return False
    figure, (time_axis, percent_axis) = plt.subplots(1, 2, figsize=(12, 4.6))
    for (variant, api) in sorted(radii, key=lambda k: (k[1], k[0])):
        rows = sorted(radii[(variant, api)])
        rs = [r[0] for r in rows]
        colour = COLOURS.get(api)
        label = f"{FORMATS[variant]} ({api})"
        time_axis.plot(rs, [r[1] for r in rows], "o" + STYLES[variant], color=colour, markersize=4, label=label)
        percent_axis.plot(rs, [r[3] for r in rows], "o" + STYLES[variant], color=colour, markersize=4, label=label)
    # The copy of each format, averaged over the sweep's points (it does not
    # depend on the radius): the floor under each curve.
    for variant, name in FORMATS.items():
        copies = [r[2] for (v, _), rows in radii.items() if v == variant for r in rows]
        if copies:
            floor = sum(copies) / len(copies)
            time_axis.axhline(floor, color="gray", linestyle=STYLES[variant], linewidth=1)
            time_axis.annotate(f"copy, {name}: {floor:.4f} ms", (16, floor), fontsize=7, ha="right",
                               va="bottom", color="dimgray")
    time_axis.set_yscale("log")
    time_axis.set_xlabel("radius R (sigma = max(0.5, R / 3); 2R+1 taps per pass)")
    time_axis.set_ylabel("median ms (device events)")
    time_axis.set_title("time; the jumps are where a kernel runs out of registers or switches to the tile", fontsize=9)
    time_axis.grid(True, which="both", alpha=0.3)
    time_axis.legend(fontsize=8)
    percent_axis.set_ylim(0, 100)
    percent_axis.axhline(100, color="gray", linestyle="--", linewidth=1)
    percent_axis.set_xlabel("radius R")
    percent_axis.set_ylabel("% of the copy of the same format, same API")
    percent_axis.set_title("fused as % of the copy", fontsize=9)
    percent_axis.grid(True, which="both", alpha=0.3)
    percent_axis.legend(fontsize=8)
    for axis in (time_axis, percent_axis):
        axis.set_xticks(range(1, 17))
    names = "; ".join(f"{api}: {device[api]}" for api in sorted(device))
    figure.suptitle(f"10_capstone radius sweep ({names})", fontsize=10)
    figure.tight_layout()
    figure.savefig(out, dpi=120)
    return True


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("csv")
    parser.add_argument("--out", help="PNG to write (default: the CSV's name with .png)")
    args = parser.parse_args()
    points, device = read_points(args.csv)
    out = args.out or os.path.splitext(args.csv)[0] + ".png"
    if plot_sizes(points, device, out) or plot_radii(points, device, out):
        print(f"wrote {out}")
    else:
        raise SystemExit(f"{args.csv}: no size-sweep or radius-sweep rows (run --variant size_sweep or radius_sweep)")


if __name__ == "__main__":
    main()
