#!/usr/bin/env python3
"""Plots for chapter 03 from the width sweep's CSV file.

  python3 chapters/03_coalescing/plot.py --sweep SWEEP.width_sweep.csv \
      --out chapters/03_coalescing [--prefix gpu_]

SWEEP.width_sweep.csv is what `--variant width_sweep --csv SWEEP.csv` writes
beside SWEEP.csv (chapters/03_coalescing/gpu-extra.sh makes it). Writes
<prefix>width_sweep.png: megapixels per second of rgh, rgv and fir_h against
the image width, at a fixed height.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "02_work_size"))
from plotting import API_STYLE, devices, number, plt, read_rows, save  # noqa: E402

PASS_STYLE = {"rgh": "-", "rgv": "--", "fir_h": ":"}


def plot_sweep(rows, out, prefix):
    rows = [r for r in rows if r["status"] == "ok"]
    if not rows:
        return
    figure, axis = plt.subplots(figsize=(8, 5))
    for api in ("OpenCL", "CUDA"):
        for name, line in PASS_STYLE.items():
            points = [(int(r["width"]), number(r["mpix_per_s"])) for r in rows if r["api"] == api and r["pass"] == name]
            if points:
                style = API_STYLE[api]
                axis.plot([p[0] for p in points], [p[1] for p in points], line, marker=style["marker"],
                          color=style["color"], label=f"{name} ({api})")
    axis.set_xscale("log", base=2)
    axis.set_yscale("log")
    axis.set_xlabel("image width, pixels (rgv: work-items)")
    axis.set_ylabel("megapixels per second (log scale)")
    axis.set_title(f"One recursive pass against image width, height {rows[0]['height']}\n{devices(rows)}", fontsize=9)
    axis.grid(which="both", alpha=0.3)
    axis.legend(fontsize=8)
    save(figure, out, prefix + "width_sweep")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sweep", required=True, help="<csv>.width_sweep.csv")
    parser.add_argument("--out", default=os.path.dirname(os.path.abspath(__file__)), help="folder for the PNG files")
    parser.add_argument("--prefix", default="", help="prefix of the PNG names (e.g. pocl_)")
    args = parser.parse_args()
    plot_sweep(read_rows(args.sweep), args.out, args.prefix)


if __name__ == "__main__":
    main()
