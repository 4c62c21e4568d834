#!/usr/bin/env python3
"""Plots chapter 05's group-shape sweep from the CSV the program writes:

    build/bin/05_local_memory --variant group_shapes --csv shapes.csv
    python3 chapters/05_local_memory/plot.py shapes.csv [--out shapes.png]

One panel per kernel (tiled, separable_local): the median time of each
256-item group shape, a bar per API, and the shape's overhead (halo cells
loaded per pixel for tiled, fake items for separable_local) on the right axis.
"""
import argparse
import csv
import os

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

SHAPES = [(16, 16), (32, 8), (64, 4), (128, 2), (256, 1)]
KERNELS = ["tiled", "separable_local"]


def overhead(kernel, shape, radius):
    x, y = shape
    if kernel == "tiled":
        return 100.0 * ((x + 2 * radius) * (y + 2 * radius) - x * y) / (x * y)
    return 100.0 * 2 * radius / x


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("csv")
    parser.add_argument("--out", help="PNG to write (default: the CSV's name with .png)")
    args = parser.parse_args()
    with open(args.csv, newline="") as f:
        rows = [r for r in csv.DictReader(f) if r["status"] == "ok"]
    times = {}  # (kernel, shape, api) -> ms
    device, radius = {}, 2
    for r in rows:
        for kernel in KERNELS:
            for shape in SHAPES:
                if r["variant"] == f"{kernel}_{shape[0]}x{shape[1]}":
                    times[(kernel, shape, r["api"])] = float(r["median_ms"])
                    device[r["api"]] = r["device"]
                    radius = int(r["radius"])
    apis = sorted(device)
    if not apis:
        raise SystemExit(f"{args.csv}: no group-shape rows (run --variant group_shapes)")
    figure, axes = plt.subplots(1, 2, figsize=(11, 4.2))
    width = 0.8 / len(apis)
    for axis, kernel in zip(axes, KERNELS):
        for i, api in enumerate(apis):
            values = [times.get((kernel, s, api), float("nan")) for s in SHAPES]
            axis.bar([n + i * width - 0.4 + width / 2 for n in range(len(SHAPES))], values, width,
                     label=f"{api} ({device[api]})")
        axis.set_xticks(range(len(SHAPES)), [f"{x}x{y}" for x, y in SHAPES])
        axis.set_xlabel("work-group shape (256 items)")
        axis.set_ylabel("median ms")
        axis.set_title(f"{kernel}, radius {radius}")
        right = axis.twinx()
        right.plot(range(len(SHAPES)), [overhead(kernel, s, radius) for s in SHAPES], "k.--")
        right.set_ylabel("halo cells per pixel, %" if kernel == "tiled" else "fake items, %")
        # Headroom on both axes, so that the legend (upper left) covers no bar and no point.
        axis.set_ylim(0, axis.get_ylim()[1] * 1.3)
        right.set_ylim(0, right.get_ylim()[1] * 1.3)
        axis.legend(fontsize=7, loc="upper left")
    figure.suptitle(os.path.basename(args.csv))
    figure.tight_layout()
    out = args.out or os.path.splitext(args.csv)[0] + ".png"
    figure.savefig(out, dpi=120)
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
