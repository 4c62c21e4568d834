#!/usr/bin/env python3
"""Chapter 08's plots from a results CSV (--csv of 08_data_transfer).

    python3 chapters/08_data_transfer/plot.py results.csv [output folder] [file name prefix]

Writes transfers.png (each method's parts, stacked, and its end-to-end time,
per API) and overlap.png (end-to-end time against the number of strips).
The CSV names the device: plots of a PoCL run are plots of a CPU, not a GPU.
"""
import csv
import os
import sys
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

PARTS = ["h2d", "kernel", "d2h", "host_copies"]
LABELS = {"h2d": "H2D", "kernel": "kernel", "d2h": "D2H", "host_copies": "host copies"}


def read(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def split(variant):
    """'pinned.h2d' -> ('pinned', 'h2d'); None for rows that are not parts."""
    if "." not in variant:
        return None
    method, part = variant.rsplit(".", 1)
    return method, part


def plot_transfers(rows, out, prefix=""):
    by_api = defaultdict(lambda: defaultdict(dict))  # api -> method -> part -> ms
    device = {}
    for r in rows:
        key = split(r["variant"])
        if key is None or key[0].startswith("strips_") or not r["runs"] or int(r["runs"]) == 0:
            continue
        by_api[r["api"]][key[0]][key[1]] = float(r["median_ms"])
        device[r["api"]] = r["device"]
    if not by_api:
        return False
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
    fig.tight_layout(rect=(0, 0.07, 1, 1))
    fig.savefig(os.path.join(out, prefix + "transfers.png"), dpi=120)
    return True


def plot_overlap(rows, out, prefix=""):
    by_api = defaultdict(list)
    for r in rows:
        key = split(r["variant"])
        if key is None or not key[0].startswith("strips_") or key[1] != "end_to_end" or not r["runs"]:
            continue
        if int(r["runs"]) == 0:
            continue
        by_api[r["api"]].append((int(key[0][len("strips_"):]), float(r["median_ms"])))
    if not by_api:
        return False
    fig, ax = plt.subplots(figsize=(6.5, 4.5))
    for api, points in sorted(by_api.items()):
        points.sort()
        ax.plot([p[0] for p in points], [p[1] for p in points], "o-", label=api)
    ax.set_xscale("log", base=2)
    ax.set_xlabel("strips asked for")
    ax.set_ylabel("end to end, ms (median)")
    ax.set_title(f"08_data_transfer: overlap on {rows[0]['device']}", fontsize=9)
    ax.legend()
    fig.tight_layout()
    fig.savefig(os.path.join(out, prefix + "overlap.png"), dpi=120)
    return True


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    rows = read(sys.argv[1])
    out = sys.argv[2] if len(sys.argv) > 2 else "."
    prefix = sys.argv[3] if len(sys.argv) > 3 else ""  # e.g. h200_ch08_: names unique across chapters
    os.makedirs(out, exist_ok=True)
    made = [name for name, ok in (("transfers.png", plot_transfers(rows, out, prefix)),
                                  ("overlap.png", plot_overlap(rows, out, prefix))) if ok]
    if made:
        print("wrote " + ", ".join(os.path.join(out, prefix + m) for m in made))
    else:
        print("nothing to plot in " + sys.argv[1])


if __name__ == "__main__":
    main()
