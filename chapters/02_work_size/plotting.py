"""Helpers shared by the plot scripts of chapters 02-04 (imported by path).

Each chapter's plot.py turns the CSV files a run wrote (--csv, and the
sections' <csv>.<section>.csv files) into PNG figures for its README.
"""
import csv
import os

import matplotlib

matplotlib.use("Agg")  # files only, no display
import matplotlib.pyplot as plt  # noqa: E402


def read_rows(path):
    """The CSV file's rows as dicts (empty list if the file does not exist)."""
    if not path or not os.path.exists(path):
        return []
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


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


def save(figure, out_dir, name):
    """Writes figure as <out_dir>/<name>.png and says so."""
    os.makedirs(out_dir, exist_ok=True)
    path = os.path.join(out_dir, name + ".png")
    figure.tight_layout()
    figure.savefig(path, dpi=120)
    plt.close(figure)
    print("wrote", path)
    return path


API_STYLE = {"OpenCL": {"color": "tab:blue", "marker": "o"}, "CUDA": {"color": "tab:green", "marker": "s"}}
