#!/usr/bin/env python3
"""Plots for chapter 02 from the CSV files of a run.

  python3 chapters/02_work_size/plot.py --results RUN.csv \
      --sweep SWEEPS.compute_sweep.csv --reserved SWEEPS.compute_sweep_reserved.csv \
      --out chapters/02_work_size [--prefix gpu_]

RUN.csv is the --csv of a default run (the shapes); the sweep files are what
`--variant compute_sweep --variant compute_sweep_reserved --csv SWEEPS.csv`
writes beside SWEEPS.csv (chapters/02_work_size/gpu-extra.sh makes all of
them). Writes <prefix>shapes.png and <prefix>compute_sweep.png.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from plotting import API_STYLE, devices, number, plt, read_rows, save  # noqa: E402


def plot_shapes(rows, out, prefix):
    shapes = [r for r in rows if r["variant"].startswith("naive_") and number(r["median_ms"])]
    if not shapes:
        return
    names = list(dict.fromkeys(r["variant"][len("naive_"):] for r in shapes))
    apis = [api for api in ("OpenCL", "CUDA") if any(r["api"] == api for r in shapes)]
    figure, axis = plt.subplots(figsize=(11, 4.5))
    width = 0.8 / len(apis)
    for i, api in enumerate(apis):
        by_name = {r["variant"][len("naive_"):]: number(r["median_ms"]) for r in shapes if r["api"] == api}
        xs = [k + (i - (len(apis) - 1) / 2) * width for k in range(len(names))]
        axis.bar(xs, [by_name.get(n, 0) or 0 for n in names], width, label=api, color=API_STYLE[api]["color"])
    axis.set_xticks(range(len(names)))
    axis.set_xticklabels(names, rotation=45, ha="right")
    axis.set_yscale("log")
    axis.set_ylabel("median time, ms (log scale)")
    axis.set_xlabel("work-group / block shape")
    first = shapes[0]
    axis.set_title(f"Chapter 01's blur in every group shape, {first['width']}x{first['height']}, radius "
                   f"{first['radius']}\n{devices(shapes)}", fontsize=9)
    axis.legend()
    axis.grid(axis="y", which="both", alpha=0.3)
    save(figure, out, prefix + "shapes")


def plot_sweep(plain, reserved, out, prefix):
    series = [("no local memory", plain, "-"), ("32 KiB local memory per group", reserved, "--")]
    if not plain and not reserved:
        return
    figure, (time_axis, occupancy_axis) = plt.subplots(1, 2, figsize=(12, 4.5))
    for label, rows, line in series:
        for api in ("OpenCL", "CUDA"):
            points = [(int(r["group"]), number(r["median_ms"]), number(r["occupancy"].rstrip("%")))
                      for r in rows if r["api"] == api and number(r["median_ms"])]
            if not points:
                continue
            style = API_STYLE[api]
            time_axis.plot([p[0] for p in points], [p[1] for p in points], line, marker=style["marker"],
                           color=style["color"], label=f"{api}, {label}")
            occupancy = [(p[0], p[2]) for p in points if p[2] is not None]
            if occupancy:
                occupancy_axis.plot([p[0] for p in occupancy], [p[1] for p in occupancy], line,
                                    marker=style["marker"], color=style["color"], label=f"{api}, {label}")
    for axis in (time_axis, occupancy_axis):
        axis.set_xscale("log", base=2)
        axis.set_xlabel("items per work-group / threads per block")
        axis.grid(which="both", alpha=0.3)
    time_axis.set_yscale("log")
    time_axis.set_ylabel("median time, ms (log scale)")
    time_axis.axvline(32, color="grey", alpha=0.5)
    time_axis.legend(fontsize=8)
    occupancy_axis.set_ylabel("theoretical occupancy, % (CUDA occupancy API)")
    occupancy_axis.set_ylim(0, 105)
    if occupancy_axis.lines:
        occupancy_axis.legend(fontsize=8)
    else:
        occupancy_axis.text(0.5, 0.5, "no occupancy data (CUDA only)", ha="center", transform=occupancy_axis.transAxes)
    rows = plain + reserved
    first = rows[0]
    time_axis.set_title(f"toropippi's loop: {int(first['items']):,} items x {first['iterations']} steps\n"
                        f"{devices(rows)}", fontsize=9)
    occupancy_axis.set_title("resident warps over the SM's maximum", fontsize=9)
    save(figure, out, prefix + "compute_sweep")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--results", help="the --csv of a default run (the shape variants)")
    parser.add_argument("--sweep", help="<csv>.compute_sweep.csv")
    parser.add_argument("--reserved", help="<csv>.compute_sweep_reserved.csv")
    parser.add_argument("--out", default=os.path.dirname(os.path.abspath(__file__)), help="folder for the PNG files")
    parser.add_argument("--prefix", default="", help="prefix of the PNG names (e.g. pocl_)")
    args = parser.parse_args()
    plot_shapes(read_rows(args.results), args.out, args.prefix)
    plot_sweep(read_rows(args.sweep), read_rows(args.reserved), args.out, args.prefix)


if __name__ == "__main__":
    main()
