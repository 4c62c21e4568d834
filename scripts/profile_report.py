#!/usr/bin/env python3
"""Turns scripts/profile.sh's Nsight Compute CSVs (one main-line step each)
into results/<device>-profile.csv, and draws results/roofline.png from every
results/*-profile.csv present (one colour per GPU).

The roofline here is drawn in the units this tutorial's kernels are limited
by: achieved DRAM bandwidth (bytes read and written, as ncu counts them, per
second of kernel time) against thread-instructions per DRAM byte. Two roofs
per GPU: the copy bandwidth measured by the benchmark (results/<device>.csv,
chapter 10's CUDA copy), and the issue roof, SMs x 4 schedulers x 32 threads
x the SM clock ncu saw, divided by the instructions a byte costs. A point on
the flat roof is memory-bound; a point under the slanted one, issue-bound;
a point under both, latency-bound (neither the DRAM nor the schedulers are busy).

  scripts/profile_report.py --device "NVIDIA H200" --results results 01_naive:naive:file.csv ...
"""
import argparse
import csv
import glob
import os
import re

import ncu_table  # scripts/ncu_table.py: the same ncu CSV reader
from ncu_table import number

FIELDS = ["device", "chapter", "variant", "format", "pixels", "ms", "thread_instr_per_px", "warp_instr_per_px",
          "issue_active_pct", "warps_active_pct", "registers", "dram_bytes_per_px", "dram_gbps", "dram_pct",
          "l2_hit_pct", "instr_per_dram_byte", "sms", "sm_clock_ghz", "issue_roof_tinstr_per_s"]

# The main-line steps of scripts/profile.sh that blur RGBA: chapter 07's main, and from chapter 10 on each
# chapter's main_rgba (its main is gray).
RGBA_STEPS = {("07_rgba_packing", "main"), ("10_registers", "main_rgba"), ("11_packed_halves", "main_rgba"),
              ("12_async_copies", "main_rgba"), ("13_block_tiles", "main_rgba"), ("14_capstone", "main_rgba")}


def read_ncu(path):
    """The one profiled kernel's metrics as {name: (unit, value)}."""
    return ncu_table.read(path)[1]


def value(metrics, name, scale=None):
    unit, text = metrics.get(name, ("", ""))
    v = number(text)
    if v is None:
        return None
    if scale == "seconds":
        return v * {"nsecond": 1e-9, "usecond": 1e-6, "msecond": 1e-3, "second": 1.0}.get(unit, 1e-9)
    if scale == "bytes":
        return v * {"byte": 1, "Kbyte": 1e3, "Mbyte": 1e6, "Gbyte": 1e9, "KB": 1e3, "MB": 1e6, "GB": 1e9}.get(unit, 1)
    if scale == "hertz":
        return v * {"hz": 1, "Hz": 1, "khz": 1e3, "Khz": 1e3, "mhz": 1e6, "Mhz": 1e6, "ghz": 1e9, "Ghz": 1e9}.get(
            unit, 1) if unit else v
    if scale == "per_second":  # "cycle/nsecond", "cycle/usecond", "cycle/second"
        per = unit.split("/")[-1] if "/" in unit else "second"
        return v / {"nsecond": 1e-9, "usecond": 1e-6, "msecond": 1e-3, "second": 1.0}.get(per, 1.0)
    return v


def profile_row(device, chapter, variant, path, pixels):
    m = read_ncu(path)
    if not m:
        return None
    seconds = value(m, "gpu__time_duration.sum", "seconds")
    dram = (value(m, "dram__bytes_read.sum", "bytes") or 0) + (value(m, "dram__bytes_write.sum", "bytes") or 0)
    thread_instr = value(m, "smsp__thread_inst_executed.sum")
    warp_instr = value(m, "smsp__inst_executed.sum")
    sms = value(m, "device__attribute_multiprocessor_count")
    clock = value(m, "sm__cycles_elapsed.avg.per_second", "per_second")
    roof = sms * 4 * 32 * clock if sms and clock else None
    return {
        "device": device, "chapter": chapter, "variant": variant,
        "format": "RGBA" if (chapter, variant) in RGBA_STEPS else "gray", "pixels": pixels,
        "ms": round(seconds * 1e3, 5) if seconds else None,
        "thread_instr_per_px": round(thread_instr / pixels, 2) if thread_instr else None,
        "warp_instr_per_px": round(warp_instr / pixels, 3) if warp_instr else None,
        "issue_active_pct": value(m, "smsp__issue_active.avg.pct_of_peak_sustained_active"),
        "warps_active_pct": value(m, "sm__warps_active.avg.pct_of_peak_sustained_active"),
        "registers": value(m, "launch__registers_per_thread"),
        "dram_bytes_per_px": round(dram / pixels, 3),
        "dram_gbps": round(dram / seconds / 1e9, 1) if seconds else None,
        "dram_pct": value(m, "dram__throughput.avg.pct_of_peak_sustained_elapsed"),
        "l2_hit_pct": value(m, "lts__t_sector_hit_rate.pct"),
        "instr_per_dram_byte": round(thread_instr / dram, 3) if thread_instr and dram else None,
        "sms": sms, "sm_clock_ghz": round(clock / 1e9, 3) if clock else None,
        "issue_roof_tinstr_per_s": round(roof / 1e12, 2) if roof else None,
    }


def slug(text):
    return re.sub(r"[^A-Za-z0-9]+", "_", text).strip("_")


# Whose CUDA gray copy draws the copy roof: chapter 10's, named 10_capstone in runs from before the split.
COPY_CHAPTERS = ("10_registers", "10_capstone")


def copy_gbps(results, device):
    """Chapter 10's CUDA gray copy from the benchmark of the same GPU, if any."""
    path = os.path.join(results, slug(device) + ".csv")
    if not os.path.exists(path):
        return None
    with open(path) as f:
        copies = {r["chapter"]: float(r["gbps"]) for r in csv.DictReader(f)
                  if r["chapter"] in COPY_CHAPTERS and r["variant"] == "copy" and r["api"] == "CUDA"}
    return next((copies[c] for c in COPY_CHAPTERS if c in copies), None)


def plot(results):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    profiles = sorted(glob.glob(os.path.join(results, "*-profile.csv")))
    if not profiles:
        return None
    fig, ax = plt.subplots(figsize=(9, 5.5))
    colours = ["#76b900", "#4878a8", "#c44e52", "#8172b2"]
    xs_all = []
    for colour, path in zip(colours, profiles):
        with open(path) as f:
            rows = [r for r in csv.DictReader(f) if r["instr_per_dram_byte"] and r["dram_gbps"]]
        if not rows:
            continue
        device = rows[0]["device"]
        xs = [float(r["instr_per_dram_byte"]) for r in rows]
        ys = [float(r["dram_gbps"]) for r in rows]
        xs_all += xs
        ax.scatter(xs, ys, color=colour, label=f"{device}: main-line steps", zorder=3)
        for r, x, y in zip(rows, xs, ys):
            label = r["chapter"][:2] + (" RGBA" if r["format"] == "RGBA" else "")
            ax.annotate(label, (x, y), fontsize=7, xytext=(4, 3), textcoords="offset points", color=colour)
        copy = copy_gbps(results, device)
        roof = float(rows[0]["issue_roof_tinstr_per_s"] or 0) * 1e12
        grid = [10 ** (k / 20) for k in range(-40, 61)]
        if copy:
            ax.plot(grid, [copy] * len(grid), color=colour, linestyle="--", linewidth=1,
                    label=f"{device}: copy {copy:.0f} GB/s")
        if roof:
            ax.plot(grid, [roof / x / 1e9 for x in grid], color=colour, linestyle=":", linewidth=1,
                    label=f"{device}: issue roof {roof / 1e12:.1f} T thread-instr/s")
    ax.set_xscale("log")
    ax.set_yscale("log")
    if xs_all:
        ax.set_xlim(min(xs_all) / 3, max(xs_all) * 3)
    ax.set_ylim(30, 8000)
    ax.set_xlabel("thread-instructions per DRAM byte (ncu)")
    ax.set_ylabel("achieved DRAM bandwidth, GB/s (ncu)")
    ax.set_title("The main line against the copy and issue roofs (6720x4480, radius 2)")
    ax.legend(fontsize=7, loc="lower left")
    ax.grid(True, which="both", linewidth=0.3)
    fig.tight_layout()
    out = os.path.join(results, "roofline.png")
    fig.savefig(out, dpi=120)
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--device", required=True)
    parser.add_argument("--results", required=True)
    parser.add_argument("--pixels", type=int, default=6720 * 4480)
    parser.add_argument("--plot-only", action="store_true", help="redraw results/roofline.png from the CSVs")
    parser.add_argument("steps", nargs="*", help="chapter:variant:ncu.csv")
    args = parser.parse_args()
    if not args.plot_only:
        rows = []
        for step in args.steps:
            chapter, variant, path = step.split(":", 2)
            row = profile_row(args.device, chapter, variant, path, args.pixels)
            if row is None:
                print(f"profile_report: no kernel in {path} (see {path}.err)")
                continue
            rows.append(row)
        os.makedirs(args.results, exist_ok=True)
        out = os.path.join(args.results, slug(args.device) + "-profile.csv")
        with open(out, "w", newline="") as f:
            writer = csv.DictWriter(f, fieldnames=FIELDS)
            writer.writeheader()
            writer.writerows(rows)
        print(f"wrote {out}")
        for r in rows:
            print(f'{r["chapter"]:20} {r["variant"]:11} {r["ms"]} ms  {r["thread_instr_per_px"]} instr/px  '
                  f'issue {r["issue_active_pct"]}%  warps {r["warps_active_pct"]}%  regs {r["registers"]}  '
                  f'DRAM {r["dram_bytes_per_px"]} B/px {r["dram_gbps"]} GB/s ({r["dram_pct"]}%)  L2 hit {r["l2_hit_pct"]}%')
    out = plot(args.results)
    if out:
        print(f"wrote {out}")


if __name__ == "__main__":
    main()
