#!/usr/bin/env python3
"""Plots chapter 06's radius sweep from the CSV the program writes:

    build/bin/06_constant_memory --variant radius_sweep --csv sweep.csv
    python3 chapters/06_constant_memory/plot.py sweep.csv [--out sweep.png]

One panel per API: the median time of each variant against the radius
(1..16, sigma R/3), log scale, with the taps per pixel, (2R+1)^2, for scale.
"""
import argparse
import csv
import os
import re

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

VARIANTS = ["array_fixed", "array_runtime", "constant_runtime", "constant_fixed", "global_runtime"]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("csv")
    parser.add_argument("--out", help="PNG to write (default: the CSV's name with .png)")
    args = parser.parse_args()
    series = {}  # (api, variant) -> {radius: ms}
    device = {}
    with open(args.csv, newline="") as f:
        for r in csv.DictReader(f):
            match = re.fullmatch(r"(\w+)_r(\d\d)", r["variant"])
            if not match or match.group(1) not in VARIANTS or r["status"] != "ok":
                continue
            series.setdefault((r["api"], match.group(1)), {})[int(match.group(2))] = float(r["median_ms"])
            device[r["api"]] = r["device"]
    apis = sorted(device)
    if not apis:
        raise SystemExit(f"{args.csv}: no radius-sweep rows (run --variant radius_sweep)")
    figure, axes = plt.subplots(1, len(apis), figsize=(6 * len(apis), 4.5), squeeze=False)
    for axis, api in zip(axes[0], apis):
        for variant in VARIANTS:
            points = sorted(series.get((api, variant), {}).items())
            if points:
                axis.plot([p[0] for p in points], [p[1] for p in points], "o-", markersize=3, label=variant)
        axis.set_yscale("log")
        axis.set_xlabel("radius R (taps per pixel: (2R+1)^2)")
        axis.set_ylabel("median ms")
        axis.set_title(f"{api}: {device[api]}")
        axis.grid(True, which="both", alpha=0.3)
        axis.legend(fontsize=8)
    figure.suptitle(os.path.basename(args.csv))
    figure.tight_layout()
    out = args.out or os.path.splitext(args.csv)[0] + ".png"
    figure.savefig(out, dpi=120)
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
