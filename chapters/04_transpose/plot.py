#!/usr/bin/env python3
"""Plots for chapter 04 from the CSV files of a run.

  python3 chapters/04_transpose/plot.py --results RUN.csv --out chapters/04_transpose [--prefix gpu_]

RUN.csv is the --csv of a default run; the sections' files beside it
(RUN.transpose_float.csv, RUN.estimates.csv) are found by name. Writes
<prefix>transposes.png (each transpose as % of the copy, 8-bit and float)
and <prefix>estimates.png (Apple's estimates against this run's measurements).
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "02_work_size"))
from plotting import API_STYLE, devices, number, plt, read_rows, save  # noqa: E402


def beside(path, section):
    stem, extension = os.path.splitext(path)
    return f"{stem}.{section}{extension or '.csv'}"


def plot_transposes(results, floats, out, prefix):
    # The main CSV also holds the float section's rows (transpose_*_float): keep them out of the 8-bit panel.
    eight_bit = [r for r in results if r["variant"].startswith("transpose_") and not r["variant"].endswith("_float")
                 and number(r["percent_of_copy"])]
    floats = [r for r in floats if number(r["percent_of_copy"])]
    if not eight_bit and not floats:
        return
    figure, axes = plt.subplots(1, 2, figsize=(12, 4.5), sharey=True)
    for axis, rows, what in ((axes[0], eight_bit, "8-bit image"), (axes[1], floats, "float image")):
        names = list(dict.fromkeys(r["variant"].replace("_float", "") for r in rows))
        apis = [api for api in ("OpenCL", "CUDA") if any(r["api"] == api for r in rows)]
        width = 0.8 / max(1, len(apis))
        for i, api in enumerate(apis):
            by_name = {r["variant"].replace("_float", ""): number(r["percent_of_copy"]) for r in rows if r["api"] == api}
            xs = [k + (i - (len(apis) - 1) / 2) * width for k in range(len(names))]
            axis.bar(xs, [by_name.get(n, 0) or 0 for n in names], width, label=api, color=API_STYLE[api]["color"])
        axis.set_xticks(range(len(names)))
        axis.set_xticklabels([n.replace("transpose_", "") for n in names], rotation=30, ha="right")
        axis.set_title(what, fontsize=9)
        axis.grid(axis="y", alpha=0.3)
        if apis:
            axis.legend(fontsize=8)
    axes[0].set_ylabel("% of the copy bandwidth (same run, same API)")
    figure.suptitle(f"Transposes as % of copy\n{devices(eight_bit + floats)}", fontsize=9)
    save(figure, out, prefix + "transposes")


def plot_estimates(rows, out, prefix, device_text=""):
    rows = [r for r in rows if number(r["estimate_by_bytes_mpix_s"])]
    if not rows:
        return
    apis = [api for api in ("OpenCL", "CUDA") if any(r["api"] == api for r in rows)]
    figure, axes = plt.subplots(1, len(apis), figsize=(6 * len(apis), 4.5), squeeze=False)
    for axis, api in zip(axes[0], apis):
        mine = [r for r in rows if r["api"] == api]
        labels = [r["variant"] for r in mine]
        xs = range(len(mine))
        axis.bar([x - 0.3 for x in xs], [number(r["estimate_mpix_s"]) for r in mine], 0.3,
                 label="estimate (Apple's float count)", color="lightgrey")
        axis.bar(list(xs), [number(r["estimate_by_bytes_mpix_s"]) for r in mine], 0.3,
                 label="estimate (bytes here)", color="grey")
        axis.bar([x + 0.3 for x in xs], [number(r["measured_mpix_s"]) or 0 for r in mine], 0.3,
                 label="measured", color=API_STYLE[api]["color"])
        axis.set_xticks(list(xs))
        axis.set_xticklabels(labels, rotation=30, ha="right")
        axis.set_yscale("log")
        axis.set_ylabel("megapixels per second (log scale)")
        axis.set_title(f"{api}, radius {mine[0]['radius']}", fontsize=9)
        axis.grid(axis="y", which="both", alpha=0.3)
        axis.legend(fontsize=8)
    if device_text:
        figure.suptitle(f"Apple's estimates against this run\n{device_text}", fontsize=9)
    save(figure, out, prefix + "estimates")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--results", required=True, help="the --csv of a default run")
    parser.add_argument("--out", default=os.path.dirname(os.path.abspath(__file__)), help="folder for the PNG files")
    parser.add_argument("--prefix", default="", help="prefix of the PNG names (e.g. pocl_)")
    args = parser.parse_args()
    results = read_rows(args.results)
    plot_transposes(results, read_rows(beside(args.results, "transpose_float")), args.out, args.prefix)
    plot_estimates(read_rows(beside(args.results, "estimates")), args.out, args.prefix,
                   devices([r for r in results if r["api"] != "CPU"]))


if __name__ == "__main__":
    main()
