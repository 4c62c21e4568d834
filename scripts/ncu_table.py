#!/usr/bin/env python3
"""One line per Nsight Compute CSV (ncu --csv --page raw, one kernel each):
duration, warp instructions per pixel, DRAM and SM throughput, issue slots,
L1 and L2 hit rates, shared-memory wavefronts and bank conflicts, global load
sectors per request, registers, shared memory. Used by the gpu-extra.conf
of chapters 05-07 (ncu_summary in scripts/gpu-extra.sh):
  scripts/ncu_table.py --pixels N file.csv...
"""
import argparse
import csv
import os

COLUMNS = [  # (title, metric, format)
    ("ms", "gpu__time_duration.sum", "ms"),
    ("instr/px", "smsp__inst_executed.sum", "per_pixel"),
    ("DRAM %", "dram__throughput.avg.pct_of_peak_sustained_elapsed", "pct"),
    ("SM %", "sm__throughput.avg.pct_of_peak_sustained_elapsed", "pct"),
    ("issue %", "smsp__issue_active.avg.pct_of_peak_sustained_active", "pct"),
    ("L1 hit %", "l1tex__t_sector_hit_rate.pct", "pct"),
    ("L2 hit %", "lts__t_sector_hit_rate.pct", "pct"),
    ("shared wavefronts", "l1tex__data_pipe_lsu_wavefronts_mem_shared.sum", "int"),
    ("bank conflicts", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum", "int"),
    ("sectors/request", None, "sectors"),
    ("local ld sectors", "l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum", "int"),
    ("warps active %", "sm__warps_active.avg.pct_of_peak_sustained_active", "pct"),
    ("regs", "launch__registers_per_thread", "int"),
]


def number(text):
    try:
        return float(str(text).replace(",", ""))
    except ValueError:
        return None


def read(path):
    """The first kernel's metrics as {name: (unit, value)}."""
    with open(path, newline="") as f:
        lines = [line for line in f if line.startswith('"')]
    rows = list(csv.reader(lines))
    if len(rows) < 3:
        return None, {}
    header, units, first = rows[0], rows[1], rows[2]
    values = {name: (units[i], first[i]) for i, name in enumerate(header)}
    return values.get("Kernel Name", ("", "?"))[1], values


def cell(values, metric, kind, pixels):
    if kind == "sectors":
        sectors = number(values.get("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", ("", ""))[1])
        requests = number(values.get("l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", ("", ""))[1])
        return f"{sectors / requests:.2f}" if sectors is not None and requests else "-"
    unit, text = values.get(metric, ("", ""))
    value = number(text)
    if value is None:
        return "-"
    if kind == "ms":
        scale = {"nsecond": 1e-6, "usecond": 1e-3, "msecond": 1.0, "second": 1e3}.get(unit, 1e-6)
        return f"{value * scale:.4f}"
    if kind == "per_pixel":  # warp instructions x 32 threads / pixels
        return f"{value * 32 / pixels:.0f}" if pixels else "-"
    if kind == "pct":
        return f"{value:.1f}"
    return f"{value:.0f}"


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--pixels", type=float, default=6720 * 4480)
    parser.add_argument("files", nargs="+")
    args = parser.parse_args()
    table = [["profile", "kernel"] + [title for title, _, _ in COLUMNS]]
    for path in args.files:
        name = os.path.basename(path).removeprefix("ncu.").removesuffix(".csv")
        if not os.path.exists(path):
            table.append([name, "no profile"] + ["-"] * len(COLUMNS))
            continue
        kernel, values = read(path)
        table.append([name, (kernel or "?")[:40]] + [cell(values, m, k, args.pixels) for _, m, k in COLUMNS])
    widths = [max(len(row[i]) for row in table) for i in range(len(table[0]))]
    for n, row in enumerate(table):
        print("  ".join(c.ljust(widths[i]) if i < 2 else c.rjust(widths[i]) for i, c in enumerate(row)))
        if n == 0:
            print("-" * (sum(widths) + 2 * (len(widths) - 1)))


if __name__ == "__main__":
    main()
