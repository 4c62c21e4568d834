#!/usr/bin/env python3
"""The chapters' figures, from the CSV files their runs write (--csv, and the
sections' <csv>.<section>.csv files beside it):

    python3 scripts/plotting.py <NN_name> RUN.csv [MORE.csv ...] [--out FOLDER] [--prefix PREFIX]

Each CSV is read on its own, with the sections' files beside it found by
name; every figure of the chapter that has rows in it is written as
FOLDER/PREFIX<figure>.png (FOLDER: the CSV's folder unless given). The
figures in the chapters' READMEs are these, written with --out
chapters/<NN_name> and a prefix naming the GPU (h200_chNN_, say). The CSV
names the device: plots of a PoCL run are plots of a CPU, not a GPU.

The figures, per chapter (the config at the end of this file, FIGURES):
  02_work_size        shapes (every group shape), compute_sweep (<csv>.compute_sweep.csv and
                      <csv>.compute_sweep_reserved.csv: time and occupancy against the group size)
  03_coalescing       width_sweep (<csv>.width_sweep.csv: MP/s of rgh, rgv, fir_h against the width)
  04_transpose        transposes (% of copy, 8-bit and <csv>.transpose_float.csv), estimates
                      (<csv>.estimates.csv: Apple's estimates against the run)
  05_local_memory     <csv name> (the group-shape sweep: --variant group_shapes)
  06_constant_memory  <csv name> (the radius sweep: --variant radius_sweep)
  08_data_transfer    transfers (each method's parts, stacked), overlap (end to end against strips)
  09_reduction        ladder (sum.<method> rows), sweep (sweep.<bytes>.<method> rows, GB/s)
  14_capstone         <csv name> (the size sweep: --variant size_sweep)
  15_every_radius     radius_sweep (the radius sweep's rows, from a run's CSV or the benchmark's
                      results/<device>.csv: time and % of the roof against the radius, both roofs drawn)
"""
import argparse
import csv
import os
import re
import sys
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")  # files only, no display
import matplotlib.pyplot as plt  # noqa: E402

API_STYLE = {"OpenCL": {"color": "tab:blue", "marker": "o"}, "CUDA": {"color": "tab:green", "marker": "s"}}
WRITTEN = []  # the files save() wrote


# --- Reading and writing ------------------------------------------------------------


def read_rows(path):
    """The CSV file's rows as dicts (empty list if the file does not exist)."""
    if not path or not os.path.exists(path):
        return []
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def beside(path, section):
    """The file a section writes beside the run's --csv: RUN.csv -> RUN.<section>.csv."""
    stem, extension = os.path.splitext(path)
    return f"{stem}.{section}{extension or '.csv'}"


def section_rows(path, section):
    """A section's rows: from the file beside @path, or from @path itself if it is that file."""
    if os.path.basename(path).endswith(f".{section}.csv"):
        return read_rows(path)
    return read_rows(beside(path, section))


def number(text):
    """A CSV field as a float; None where it is empty or not a number."""
    try:
        return float(text)
    except (TypeError, ValueError):
        return None


def devices(rows):
    """'OpenCL: <device>; CUDA: <device>' for the APIs present in rows."""
    seen = {}
    for row in rows:
        seen.setdefault(row.get("api", "?"), row.get("device", "?"))
    return "; ".join(f"{api}: {device}" for api, device in seen.items())


def save(figure, out_dir, name, rect=None):
    """Writes figure as <out_dir>/<name>.png and says so."""
    os.makedirs(out_dir, exist_ok=True)
    path = os.path.join(out_dir, name + ".png")
    if rect:
        figure.tight_layout(rect=rect)
    else:
        figure.tight_layout()
    figure.savefig(path, dpi=120)
    plt.close(figure)
    print("wrote", path)
    WRITTEN.append(path)
    return path


def stem(path):
    """The CSV's name without folder and extension: the figure's name for one-figure chapters."""
    return os.path.splitext(os.path.basename(path))[0]


# --- 02_work_size -----------------------------------------------------------------------


def _ch02_shapes(rows, out, prefix):
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


def _ch02_compute_sweep(plain, reserved, out, prefix):
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


def chapter02(path, rows, out, prefix):
    _ch02_shapes(rows, out, prefix)
    _ch02_compute_sweep(section_rows(path, "compute_sweep"), section_rows(path, "compute_sweep_reserved"), out, prefix)


# --- 03_coalescing ----------------------------------------------------------------------


PASS_STYLE = {"rgh": "-", "rgv": "--", "fir_h": ":"}


def _ch03_width_sweep(rows, out, prefix):
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


def chapter03(path, rows, out, prefix):
    _ch03_width_sweep(section_rows(path, "width_sweep"), out, prefix)


# --- 04_transpose -----------------------------------------------------------------------


def _ch04_transposes(results, floats, out, prefix):
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


def _ch04_estimates(rows, out, prefix, device_text=""):
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


def chapter04(path, rows, out, prefix):
    _ch04_transposes(rows, section_rows(path, "transpose_float"), out, prefix)
    _ch04_estimates(section_rows(path, "estimates"), out, prefix, devices([r for r in rows if r["api"] != "CPU"]))


# --- 05_local_memory --------------------------------------------------------------------

SHAPES = [(16, 16), (32, 8), (64, 4), (128, 2), (256, 1)]


KERNELS = ["tiled", "separable_local"]


def overhead(kernel, shape, radius):
    x, y = shape
    if kernel == "tiled":
        return 100.0 * ((x + 2 * radius) * (y + 2 * radius) - x * y) / (x * y)
    return 100.0 * 2 * radius / x


def chapter05(path, rows, out, prefix):
    """The group-shape sweep: one panel per kernel, a bar per API, the shape's overhead on the right axis."""
    rows = [r for r in rows if r["status"] == "ok"]
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
        return
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
    figure.suptitle(os.path.basename(path))
    save(figure, out, prefix + stem(path))


# --- 06_constant_memory -----------------------------------------------------------------

VARIANTS = ["array_fixed", "array_runtime", "constant_runtime", "constant_fixed", "global_runtime"]


def chapter06(path, rows, out, prefix):
    """The radius sweep: one panel per API, each variant's time against the radius (1..16, sigma R/3)."""
    series = {}  # (api, variant) -> {radius: ms}
    device = {}
    for r in rows:
        match = re.fullmatch(r"(\w+)_r(\d\d)", r["variant"])
        if not match or match.group(1) not in VARIANTS or r["status"] != "ok":
            continue
        series.setdefault((r["api"], match.group(1)), {})[int(match.group(2))] = float(r["median_ms"])
        device[r["api"]] = r["device"]
    apis = sorted(device)
    if not apis:
        return
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
    figure.suptitle(os.path.basename(path))
    save(figure, out, prefix + stem(path))


# --- 08_data_transfer -------------------------------------------------------------------

PARTS = ["h2d", "kernel", "d2h", "host_copies"]


LABELS = {"h2d": "H2D", "kernel": "kernel", "d2h": "D2H", "host_copies": "host copies"}


def split(variant):
    """'pinned.h2d' -> ('pinned', 'h2d'); None for rows that are not parts."""
    if "." not in variant:
        return None
    method, part = variant.rsplit(".", 1)
    return method, part


def _ch08_transfers(rows, out, prefix=""):
    by_api = defaultdict(lambda: defaultdict(dict))  # api -> method -> part -> ms
    device = {}
    for r in rows:
        key = split(r["variant"])
        if key is None or key[0].startswith("strips_") or not r["runs"] or int(r["runs"]) == 0:
            continue
        by_api[r["api"]][key[0]][key[1]] = float(r["median_ms"])
        device[r["api"]] = r["device"]
    if not by_api:
        return None
    apis = sorted(by_api)
    fig, axes = plt.subplots(1, len(apis), figsize=(6.5 * len(apis), 4.5), squeeze=False)
    for ax, api in zip(axes[0], apis):
        methods = list(by_api[api])
        bottom = [0.0] * len(methods)
        for part in PARTS:
            values = [by_api[api][m].get(part, 0.0) for m in methods]
            ax.bar(methods, values, bottom=bottom, label=LABELS[part])
            bottom = [b + v for b, v in zip(bottom, values)]
        ends = [by_api[api][m].get("end_to_end", 0.0) for m in methods]
        ax.plot(methods, ends, "kD", label="end to end (host clock)")
        ax.set_ylabel("ms (median)")
        ax.set_title(f"{api}: {device[api]}", fontsize=9)
        ax.tick_params(axis="x", rotation=35)
    # One legend for both panels, below them: inside a panel it hides bars.
    handles, labels = axes[0][0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=len(labels), fontsize=8)
    size = f"{rows[0]['width']}x{rows[0]['height']}"
    fig.suptitle(f"08_data_transfer: the whole job, {size} gray, by part")
    return save(fig, out, prefix + "transfers", rect=(0, 0.07, 1, 1))


def _ch08_overlap(rows, out, prefix=""):
    by_api = defaultdict(list)
    for r in rows:
        key = split(r["variant"])
        if key is None or not key[0].startswith("strips_") or key[1] != "end_to_end" or not r["runs"]:
            continue
        if int(r["runs"]) == 0:
            continue
        by_api[r["api"]].append((int(key[0][len("strips_"):]), float(r["median_ms"])))
    if not by_api:
        return None
    fig, ax = plt.subplots(figsize=(6.5, 4.5))
    for api, points in sorted(by_api.items()):
        points.sort()
        ax.plot([p[0] for p in points], [p[1] for p in points], "o-", label=api)
    ax.set_xscale("log", base=2)
    ax.set_xlabel("strips asked for")
    ax.set_ylabel("end to end, ms (median)")
    ax.set_title(f"08_data_transfer: overlap on {rows[0]['device']}", fontsize=9)
    ax.legend()
    return save(fig, out, prefix + "overlap")


def chapter08(path, rows, out, prefix):
    _ch08_transfers(rows, out, prefix)
    _ch08_overlap(rows, out, prefix)


# --- 09_reduction -----------------------------------------------------------------------


def timed(row):
    return row["runs"] and int(row["runs"]) > 0


def _ch09_ladder(rows, out, prefix=""):
    by_api = defaultdict(list)
    for r in rows:
        if r["variant"].startswith("sum.") and timed(r):
            by_api[r["api"]].append((r["variant"][len("sum."):], float(r["median_ms"])))
    if not by_api:
        return None
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
    return save(fig, out, prefix + "ladder")


def _ch09_sweep(rows, out, prefix=""):
    curves = defaultdict(list)  # (api, method) -> [(bytes, GB/s)]
    ceilings = {}
    for r in rows:
        if r["variant"] == "copy" and timed(r):
            ceilings[r["api"]] = float(r["gbps"])
        parts = r["variant"].split(".")
        if len(parts) == 3 and parts[0] == "sweep" and timed(r):
            curves[(r["api"], parts[2])].append((int(parts[1]), float(r["gbps"])))
    if not curves:
        return None
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
    return save(fig, out, prefix + "sweep")


def chapter09(path, rows, out, prefix):
    _ch09_ladder(rows, out, prefix)
    _ch09_sweep(rows, out, prefix)


# --- 14_capstone ------------------------------------------------------------------------
# The size sweep's rows are named <variant>@<point>: main@<width>x<height>. Each
# row's percent_of_copy is against a copy kernel run at the same point (the same
# image, the same API), so the copy's time there is median_ms x
# percent_of_copy / 100. Read the point from the name: the width, height,
# channels and radius columns of these rows are the program's defaults, not the
# point's.

COLOURS = {"OpenCL": "#4C78A8", "CUDA": "#76B900"}


STYLES = {"main": "-", "main_rgba": "--"}


FORMATS = {"main": "gray", "main_rgba": "RGBA"}


def read_points(rows):
    """(variant, point label, api) -> (fused ms, copy ms, % of copy); and the device per API."""
    points = {}
    device = {}
    for r in rows:
        if "@" not in r["variant"] or not r.get("runs", "1") or int(r.get("runs", "1")) == 0:
            continue
        if not r["status"].startswith("ok"):
            continue  # a mismatch: its time says nothing about a correct blur
        variant, label = r["variant"].split("@", 1)
        fused_ms = float(r["median_ms"])
        percent = float(r["percent_of_copy"])
        points[(variant, label, r["api"])] = (fused_ms, fused_ms * percent / 100.0, percent)
        device[r["api"]] = r["device"]
    return points, device


def _ch10_time_axis(axis, xlabel, title):
    """The left-hand panel of both sweeps: median time, log scale."""
    axis.set_yscale("log")
    axis.set_xlabel(xlabel)
    axis.set_ylabel("median ms (device events)")
    axis.set_title(title, fontsize=9)
    axis.grid(True, which="both", alpha=0.3)
    axis.legend(fontsize=8)


def _ch10_percent_axis(axis, xlabel, ylabel):
    """The right-hand panel of both sweeps: the fused kernel as % of the copy, 0 to 100."""
    axis.set_ylim(0, 100)
    axis.axhline(100, color="gray", linestyle="--", linewidth=1)
    axis.set_xlabel(xlabel)
    axis.set_ylabel(ylabel)
    axis.set_title("main as % of the copy", fontsize=9)
    axis.grid(True, which="both", alpha=0.3)
    axis.legend(fontsize=8)


def _ch10_sizes(points, device, out, figure_name):
    sizes = {}  # (api) -> [(megapixels, fused ms, copy ms, %)]
    for (variant, label, api), (fused_ms, copy_ms, percent) in points.items():
        match = re.fullmatch(r"(\d+)x(\d+)", label)
        if variant == "main" and match:
            megapixels = int(match.group(1)) * int(match.group(2)) / 1e6
            sizes.setdefault(api, []).append((megapixels, fused_ms, copy_ms, percent))
    if not sizes:
        return None
    figure, (time_axis, percent_axis) = plt.subplots(1, 2, figsize=(12, 4.6))
    for api in sorted(sizes):
        rows = sorted(sizes[api])
        mp = [r[0] for r in rows]
        colour = COLOURS.get(api)
        time_axis.plot(mp, [r[1] for r in rows], "o-", color=colour, label=f"main ({api})")
        time_axis.plot(mp, [r[2] for r in rows], "s--", color=colour, alpha=0.6, markersize=4,
                       label=f"copy ({api})")
        percent_axis.plot(mp, [r[3] for r in rows], "o-", color=colour, label=f"main ({api})")
    time_axis.set_xscale("log")
    _ch10_time_axis(time_axis, "image size, megapixels (3:2, gray)",
                    "time: nearly flat on small images (launch, latency), proportional to the pixels from ~16 MP")
    percent_axis.set_xscale("log")
    _ch10_percent_axis(percent_axis, "image size, megapixels (3:2, gray)", "% of the copy at the same size, same API")
    names = "; ".join(f"{api}: {device[api]}" for api in sorted(device))
    figure.suptitle(f"14_capstone size sweep, radius 2 ({names})", fontsize=10)
    return save(figure, out, figure_name)


def chapter14(path, rows, out, prefix):
    points, device = read_points(rows)
    _ch10_sizes(points, device, out, prefix + stem(path))


# --- 15_every_radius -----------------------------------------------------------------------
# The radius sweep's rows: <kernel>@rNN (main, main_rgba, ch14_main,
# ch14_main_rgba, and in OpenCL portable, portable_rgba; their % of copy
# against the copy at the same point) and
# <format's main>.roof@rNN, whose time is the roof: the larger of the copy's
# time and the multiply-add roof's. From a run's CSV or the benchmark's.


def chapter15(path, rows, out, prefix):
    sweep = defaultdict(dict)  # (api, format's main) -> {kernel: {radius: ms}}
    device = {}
    for r in rows:
        if r.get("chapter", "15_every_radius") != "15_every_radius":
            continue
        match = re.fullmatch(r"(\w+?)(\.roof)?@r(\d+)", r["variant"])
        if not match or not r["status"].startswith("ok"):
            continue
        kernel, roof, radius = match.group(1), match.group(2), int(match.group(3))
        main = kernel[len("ch14_"):] if kernel.startswith("ch14_") else kernel
        main = {"portable": "main", "portable_rgba": "main_rgba"}.get(main, main)
        key = (r["api"], main)
        sweep[key].setdefault("roof" if roof else kernel, {})[radius] = float(r["median_ms"])
        if r["status"] == "ok (roof)":
            copy = float(r["median_ms"]) if not r.get("percent_of_copy") else None
        device[r["api"]] = r["device"]
    if not sweep:
        return None
    figure, (time_axis, percent_axis) = plt.subplots(1, 2, figsize=(12, 4.8))
    for (api, main), curves in sorted(sweep.items()):
        colour = COLOURS.get(api)
        style = STYLES.get(main, "-")
        name = FORMATS.get(main, main)
        roof = curves.get("roof", {})
        radii = sorted(roof)
        if radii:
            time_axis.plot(radii, [roof[r] for r in radii], style, color="gray", linewidth=1.2,
                           label=f"roof, {name}: max(copy, multiply-adds)")
        portable = "portable" + main[len("main"):]
        for kernel, marker, what, tint in ((main, "o", "tensor cores", colour),
                                           ("ch14_" + main, "x", "chapter 14 (packed halves to radius 5, RGBA 4; then float)",
                                            "tab:red"), (portable, "s", "portable OpenCL C", "tab:green")):
            if kernel not in curves:
                continue
            rs = sorted(r for r in curves[kernel] if r in roof)
            label = f"{what}, {name} ({api})"
            time_axis.plot(rs, [curves[kernel][r] for r in rs], marker + style, color=tint, markersize=4, label=label)
            percent_axis.plot(rs, [100.0 * roof[r] / curves[kernel][r] for r in rs], marker + style, color=tint,
                              markersize=4, label=label)
    time_axis.set_yscale("log")
    time_axis.set_xlabel("radius R (sigma = max(0.5, R / 3); 2R+1 taps per pass)")
    time_axis.set_ylabel("median ms (device events)")
    time_axis.set_title("time against the roof: the copy below radius ~4, the multiply-add rate above", fontsize=9)
    time_axis.grid(True, which="both", alpha=0.3)
    time_axis.legend(fontsize=6)
    percent_axis.axhline(100, color="gray", linestyle="--", linewidth=1)
    percent_axis.axhline(70, color="gray", linestyle=":", linewidth=1)
    percent_axis.set_xlabel("radius R")
    percent_axis.set_ylabel("% of the roof (roof time / kernel time)")
    percent_axis.set_title("% of the roof (dotted: 70%)", fontsize=9)
    percent_axis.grid(True, alpha=0.3)
    percent_axis.legend(fontsize=6)
    for axis in (time_axis, percent_axis):
        axis.set_xticks(range(1, 17))
    names = "; ".join(f"{api}: {device[api]}" for api in sorted(device))
    figure.suptitle(f"15_every_radius radius sweep, 6720 x 4480 ({names})", fontsize=10)
    return save(figure, out, prefix + "radius_sweep")


# --- The config: each chapter's figures -------------------------------------------------

FIGURES = {
    "02_work_size": chapter02,
    "03_coalescing": chapter03,
    "04_transpose": chapter04,
    "05_local_memory": chapter05,
    "06_constant_memory": chapter06,
    "08_data_transfer": chapter08,
    "09_reduction": chapter09,
    "14_capstone": chapter14,
    "15_every_radius": chapter15,
}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("chapter", choices=sorted(FIGURES), help="the chapter whose figures to draw")
    parser.add_argument("csv", nargs="+", help="a run's --csv (the sections' files beside it are found by name)")
    parser.add_argument("--out", help="folder for the PNG files (default: each CSV's folder)")
    parser.add_argument("--prefix", default="", help="prefix of the PNG names (e.g. h200_ch05_)")
    args = parser.parse_args()
    for path in args.csv:
        out = args.out or os.path.dirname(os.path.abspath(path))
        FIGURES[args.chapter](path, read_rows(path), out, args.prefix)
    if not WRITTEN:
        sys.exit(f"{args.chapter}: nothing to plot in {', '.join(args.csv)}")


if __name__ == "__main__":
    main()
