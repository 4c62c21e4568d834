#!/usr/bin/env python3
"""Times the Gaussian blurs a user reaches for first, beside the tutorial's
kernels: CuPy's cupyx.scipy.ndimage.gaussian_filter on the 8-bit image, and
PyTorch's separable conv2d on float32 tensors (two grouped convolutions,
cuDNN), each against a device-to-device copy of the image's bytes timed in
the same run, at the benchmark's size and blur (6720 x 4480, sigma 1,
radius 2, clamp-to-edge borders), gray and RGBA.

Timing as the chapters do it: warm-up runs, then timed runs between CUDA
events, the median reported, the inputs rotated through enough buffers that
no run finds its input in the L2 cache. Each output is checked against a
double-precision blur on the CPU (numpy), rounded half up: the row's status
says "ok" within one level, "MISMATCH" otherwise, and gives the largest
difference. The input is random bytes (seeded): none of these kernels
branches on the data.

What is timed is the library call on data already on the GPU in the
library's own layout: CuPy takes the interleaved 8-bit image (RGBA: all four
channels blurred, sigma 0 along the channel axis); PyTorch takes float32
planes (N, C, H, W), so its conversion from bytes and back is not in its
time. The % of copy is against the copy of the 8-bit image (the job is the
same image for every row), so PyTorch's row includes the cost of working in
floats.

  python3 scripts/library_baselines.py --commit abc1234 --results results   # on a GPU machine

writes results/<device>-libraries.csv (the results CSV's columns, chapter
"libraries", api "CuPy" or "PyTorch"), which a lesson shows with
<!-- table: variants chapter=libraries apis=CuPy,PyTorch device=<stem>-libraries -->.
A library that is not installed is skipped, with a line saying so; with
neither, the script exits 2.
"""
import argparse
import datetime
import math
import os
import statistics
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from benchmark_report import FIELDS, slug, write_csv  # noqa: E402

import numpy as np  # noqa: E402


def gaussian_weights(sigma, radius):
    """The tutorial's weights (common/src/blur.cpp): exp(-k^2 / 2 sigma^2), normalised."""
    w = np.array([math.exp(-(k * k) / (2.0 * sigma * sigma)) for k in range(-radius, radius + 1)])
    return w / w.sum()


def reference(image, weights):
    """The blur in double on the CPU, clamp-to-edge, rounded half up to bytes.
    image: (H, W) or (H, W, C) uint8."""
    radius = len(weights) // 2
    x = image.astype(np.float64)
    pad = [(radius, radius), (0, 0)] + [(0, 0)] * (x.ndim - 2)
    padded = np.pad(x, pad, mode="edge")
    vertical = sum(weights[k] * padded[k:k + x.shape[0]] for k in range(len(weights)))
    pad = [(0, 0), (radius, radius)] + [(0, 0)] * (x.ndim - 2)
    padded = np.pad(vertical, pad, mode="edge")
    both = sum(weights[k] * padded[:, k:k + x.shape[1]] for k in range(len(weights)))
    return np.floor(both + 0.5).clip(0, 255).astype(np.uint8)


def median_min_max(samples):
    return statistics.median(samples), min(samples), max(samples)


def rotation_sets(image_bytes, l2_bytes):
    """Enough input/output pairs that between two uses of one pair the others
    move at least 2.5 times the L2 cache (the chapters' own rule, in
    common/src/runners.cpp, asks for 3 times or 256 MB; either evicts it)."""
    return max(2, min(32, math.ceil(2.5 * l2_bytes / (2 * image_bytes)) + 1))


def timed(run, sets, args, event, elapsed_ms, synchronize):
    """Times run(i) between two events, i rotating through the sets, after
    args.warmup runs; returns args.repeat times in ms."""
    for r in range(args.warmup):
        run(r % sets)
    synchronize()
    samples = []
    for r in range(args.repeat):
        start, stop = event(), event()
        start.record()
        run((args.warmup + r) % sets)
        stop.record()
        stop.synchronize()
        samples.append(elapsed_ms(start, stop))
    return samples


def row(common, variant, api, fmt, samples, image_bytes, copy_ms, status):
    median, low, high = median_min_max(samples)
    out = dict(common)
    out.update({"chapter": "libraries", "variant": variant, "api": api, "format": fmt,
                "reference": "copy" if variant.startswith("copy") else "gaussian", "line": "",
                "median_ms": round(median, 6), "min_ms": round(low, 6), "max_ms": round(high, 6),
                "gbps": round(2 * image_bytes / (median * 1e6), 2),
                "percent_of_copy": round(100.0 * copy_ms / median, 4) if copy_ms else 100,
                "status": status})
    return out


def check(output, expected):
    diff = int(np.abs(output.astype(np.int16) - expected.astype(np.int16)).max())
    return ("ok" if diff <= 1 else "MISMATCH") + f" (max diff {diff})"


def cupy_rows(images, sigma, radius, args, common):
    try:
        import cupy
        from cupyx.scipy import ndimage
    except ImportError as e:
        print(f"CuPy: not installed here ({e}); skipped")
        return []
    l2 = cupy.cuda.runtime.getDeviceProperties(0)["l2CacheSize"]
    rows = []
    for fmt, image, expected in images:
        sets = rotation_sets(image.nbytes, l2)
        inputs = [cupy.asarray(image) for _ in range(sets)]
        outputs = [cupy.empty_like(inputs[0]) for _ in range(sets)]
        sigmas = (sigma, sigma) + (0,) * (image.ndim - 2)
        truncate = radius / sigma  # scipy's radius: int(truncate * sigma + 0.5) = radius

        def blur(i):
            ndimage.gaussian_filter(inputs[i], sigmas, output=outputs[i], mode="nearest", truncate=truncate)

        def copy(i):
            cupy.copyto(outputs[i], inputs[i])

        sync = cupy.cuda.Device().synchronize
        elapsed = cupy.cuda.get_elapsed_time
        copy_samples = timed(copy, sets, args, cupy.cuda.Event, elapsed, sync)
        copy_ms = median_min_max(copy_samples)[0]
        rows.append(row(common, "copy" if fmt == "gray" else "copy_rgba", "CuPy", fmt, copy_samples, image.nbytes,
                        None, "ok (ceiling)"))
        blur_samples = timed(blur, sets, args, cupy.cuda.Event, elapsed, sync)
        blur(0)
        sync()
        status = check(cupy.asnumpy(outputs[0]), expected)
        rows.append(row(common, "gaussian_filter" if fmt == "gray" else "gaussian_filter_rgba", "CuPy", fmt,
                        blur_samples, image.nbytes, copy_ms, status))
        del inputs, outputs
        cupy.get_default_memory_pool().free_all_blocks()
    return rows


def torch_rows(images, weights, args, common):
    try:
        import torch
        import torch.nn.functional as F
    except ImportError as e:
        print(f"PyTorch: not installed here ({e}); skipped")
        return []
    if not torch.cuda.is_available():
        print("PyTorch: no CUDA device; skipped")
        return []
    torch.backends.cudnn.benchmark = True  # let cuDNN pick its fastest algorithm in the warm-up
    l2 = torch.cuda.get_device_properties(0).L2_cache_size
    radius = len(weights) // 2
    rows = []
    for fmt, image, expected in images:
        channels = 1 if image.ndim == 2 else image.shape[2]
        planes = torch.from_numpy(image.reshape(image.shape[0], image.shape[1], channels)).permute(2, 0, 1)
        planes = planes.unsqueeze(0).contiguous().cuda()
        sets = rotation_sets(4 * image.nbytes, l2)
        inputs = [planes.float() for _ in range(sets)]
        w = torch.tensor(weights, dtype=torch.float32, device="cuda")
        along_x = w.view(1, 1, 1, -1).repeat(channels, 1, 1, 1)
        along_y = w.view(1, 1, -1, 1).repeat(channels, 1, 1, 1)
        results = [None] * sets

        def blur(i):
            x = F.conv2d(F.pad(inputs[i], (radius, radius, 0, 0), mode="replicate"), along_x, groups=channels)
            results[i] = F.conv2d(F.pad(x, (0, 0, radius, radius), mode="replicate"), along_y, groups=channels)

        bytes_in = [planes.clone() for _ in range(sets)]
        bytes_out = [torch.empty_like(planes) for _ in range(sets)]

        def copy(i):
            bytes_out[i].copy_(bytes_in[i])

        def event():
            return torch.cuda.Event(enable_timing=True)

        def elapsed(start, stop):
            return start.elapsed_time(stop)

        copy_samples = timed(copy, sets, args, event, elapsed, torch.cuda.synchronize)
        copy_ms = median_min_max(copy_samples)[0]
        rows.append(row(common, "copy" if fmt == "gray" else "copy_rgba", "PyTorch", fmt, copy_samples, image.nbytes,
                        None, "ok (ceiling)"))
        blur_samples = timed(blur, sets, args, event, elapsed, torch.cuda.synchronize)
        blur(0)
        torch.cuda.synchronize()
        out = torch.floor(results[0] + 0.5).clamp(0, 255).to(torch.uint8)[0].permute(1, 2, 0).cpu().numpy()
        status = check(out.reshape(image.shape), expected)
        rows.append(row(common, "conv2d" if fmt == "gray" else "conv2d_rgba", "PyTorch", fmt, blur_samples,
                        image.nbytes, copy_ms, status))
        del inputs, results, bytes_in, bytes_out
        torch.cuda.empty_cache()
    return rows


def device_name_and_driver():
    try:
        out = subprocess.run(["nvidia-smi", "--query-gpu=name,driver_version", "--format=csv,noheader"],
                             capture_output=True, text=True, check=True).stdout.splitlines()[0]
        name, driver = [part.strip() for part in out.split(",", 1)]
        return name, driver
    except (OSError, subprocess.CalledProcessError, IndexError, ValueError):
        return "", ""


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--commit", required=True, help="the project's commit the run belongs to")
    parser.add_argument("--results", required=True, help="the folder of the results CSVs")
    parser.add_argument("--size", default="6720x4480", help="WIDTHxHEIGHT (default: the benchmark's)")
    parser.add_argument("--sigma", type=float, default=1.0)
    parser.add_argument("--radius", type=int, default=2)
    parser.add_argument("--warmup", type=int, default=3)
    parser.add_argument("--repeat", type=int, default=30)
    args = parser.parse_args()
    try:
        width, height = (int(v) for v in args.size.lower().split("x"))
        if width < 1 or height < 1 or args.radius < 1 or args.radius > 16 or not args.sigma > 0 or args.repeat < 1:
            raise ValueError
    except ValueError:
        print(f"library_baselines: bad --size {args.size!r}, --sigma, --radius (1-16) or --repeat", file=sys.stderr)
        sys.exit(2)
    weights = gaussian_weights(args.sigma, args.radius)
    rng = np.random.default_rng(2026)
    images = []
    for fmt, shape in (("gray", (height, width)), ("rgba", (height, width, 4))):
        image = rng.integers(0, 256, shape, dtype=np.uint8)
        images.append((fmt, image, reference(image, weights)))
    name, driver = device_name_and_driver()
    common = {"device": name, "driver": driver, "commit": args.commit,
              "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")}
    rows = cupy_rows(images, args.sigma, args.radius, args, common)
    rows += torch_rows(images, weights, args, common)
    if not rows:
        print("library_baselines: neither CuPy nor PyTorch with a GPU here: nothing timed", file=sys.stderr)
        sys.exit(2)
    for r in rows:
        print(f"{r['api']:8} {r['variant']:22} {r['format']:5} {r['median_ms']:9.4f} ms  "
              f"{r['percent_of_copy']:6.1f}% of copy  {r['status']}")
    os.makedirs(args.results, exist_ok=True)
    path = os.path.join(args.results, slug(name or "unknown") + "-libraries.csv")
    write_csv(rows, path)
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
