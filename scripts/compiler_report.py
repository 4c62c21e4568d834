#!/usr/bin/env python3
"""Chapter 06's compiler evidence: where each kernel reads its weights from.

Compiles blur_weights.cu for sm_90 with nvcc (no GPU needed) and prints, per
kernel at radius 2 (the compile-time ones) and for the run-time ones:
  - ptxas -v: registers, stack frame, spill stores/loads;
  - PTX: how many ld.local / st.local (the per-thread stack), ld.const
    (constant bank), ld.param (kernel parameters), ld.global loads;
  - SASS (cuobjdump): LDL / STL (local), LDC (constant), LDG (global), and
    the instruction count of the kernel.
With --cl-ptx DIR it also counts the same PTX lines in the OpenCL programs
that NVIDIA's driver returned (GAUSS_DUMP_CL_BINARIES=DIR), on the GPU machine.

  scripts/compiler_report.py [--nvcc nvcc] [--out FOLDER] [--cl-ptx DIR]
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
HERE = os.path.join(ROOT, "chapters", "06_constant_memory")  # blur_weights.cu
KERNELS = [  # (variant, mangled-name fragment)
    ("array_fixed (R=2)", "blur_array_fixedILi2E"),
    ("array_runtime", "blur_array_runtime"),
    ("constant_runtime", "blur_constant_runtime"),
    ("constant_fixed (R=2)", "blur_constant_fixedILi2E"),
    ("global_runtime", "blur_global_runtime"),
]


def run(command):
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(" ".join(command) + " failed:\n" + result.stdout + result.stderr)
    return result.stdout + result.stderr


def ptx_functions(ptx):
    """{mangled name: body} of every .entry in a PTX file."""
    bodies = {}
    for match in re.finditer(r"\.entry\s+(\S+?)\s*\((.*?)\n}[ \t]*(?:\n|\Z)", ptx, re.S):
        bodies[match.group(1)] = match.group(0)
    return bodies


def sass_functions(sass):
    bodies = {}
    for match in re.finditer(r"Function : (\S+)\n(.*?)(?=\n\s*\.+\n|\n\s*Function : |\Z)", sass, re.S):
        bodies[match.group(1)] = match.group(2)
    return bodies


def count(pattern, text):
    return len(re.findall(pattern, text))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--nvcc", default="nvcc")
    parser.add_argument("--cuobjdump", help="default: the one beside nvcc, else on the PATH; none: no SASS columns")
    parser.add_argument("--out", help="folder for the PTX, SASS and ptxas report (default: a temporary folder)")
    parser.add_argument("--cl-ptx", help="folder of OpenCL binaries dumped by GAUSS_DUMP_CL_BINARIES")
    args = parser.parse_args()
    out = args.out or tempfile.mkdtemp(prefix="ch06-")
    os.makedirs(out, exist_ok=True)
    source = os.path.join(HERE, "blur_weights.cu")
    common = [args.nvcc, "-std=c++17", "-O3", "-arch=sm_90", "-I" + os.path.join(ROOT, "common", "include"),
              "-I" + HERE]
    ptxas = run(common + ["-Xptxas", "-v", "-cubin", "-o", os.path.join(out, "blur_weights.cubin"), source])
    ptx = run(common + ["-ptx", "-o", "-", source])
    nvcc_path = shutil.which(args.nvcc) or args.nvcc
    cuobjdump = args.cuobjdump or os.path.join(os.path.dirname(nvcc_path), "cuobjdump")
    if not os.path.exists(cuobjdump):
        cuobjdump = shutil.which("cuobjdump")
    sass = run([cuobjdump, "-sass", os.path.join(out, "blur_weights.cubin")]) if cuobjdump else ""
    for name, text in (("ptxas.txt", ptxas), ("blur_weights.ptx", ptx), ("blur_weights.sass", sass)):
        with open(os.path.join(out, name), "w") as f:
            f.write(text)

    resources = {}
    for match in re.finditer(r"Compiling entry function '(\S+)'.*?\n(?:.*\n)*?.*?(\d+) bytes stack frame, (\d+) bytes "
                             r"spill stores, (\d+) bytes spill loads\n.*?Used (\d+) registers", ptxas):
        resources[match.group(1)] = (int(match.group(5)), int(match.group(2)), int(match.group(3)),
                                     int(match.group(4)))
    ptx_bodies = ptx_functions(ptx)
    sass_bodies = sass_functions(sass)

    print("CUDA (nvcc " + run([args.nvcc, "--version"]).strip().splitlines()[-1] + ", sm_90): per kernel")
    header = ("variant", "regs", "stack B", "spill st/ld B", "ptx ld.local", "st.local", "ld.const", "ld.param",
              "ld.global", "sass LDL", "STL", "LDC", "LDG", "sass instr")
    rows = [header]
    for variant, fragment in KERNELS:
        mangled = next((m for m in resources if fragment in m), None)
        body = next((b for m, b in ptx_bodies.items() if fragment in m), "")
        code = next((b for m, b in sass_bodies.items() if fragment in m), "")
        regs, stack, spill_st, spill_ld = resources.get(mangled, (-1, -1, -1, -1))
        instructions = count(r"/\*[0-9a-f]{4}\*/", code)
        # No SASS (no cuobjdump): "-", not a count of 0 that looks measured.
        sass_cells = ((count(r"\bLDL\b", code), count(r"\bSTL\b", code), count(r"\bLDC\b", code),
                       count(r"\bLDG\b", code), instructions) if code else ("-",) * 5)
        rows.append((variant, regs, stack, f"{spill_st}/{spill_ld}", count(r"ld\.local", body),
                     count(r"st\.local", body), count(r"ld\.const", body), count(r"ld\.param", body),
                     count(r"ld\.global", body)) + sass_cells)
    print_table(rows)
    if not sass:
        print("(no cuobjdump found: no SASS columns; pass --cuobjdump PATH)")

    if args.cl_ptx:
        print("\nOpenCL on NVIDIA: the PTX the driver returned as the program binary, per kernel")
        rows = [("kernel (file)", "ld.local", "st.local", "ld.const", "ld.param", "ld.global")]
        wanted = {"blur_weights.bin": ("runtime",), "blur_weights._D_RADIUS_2.bin": ("fixed",)}
        for name, kinds in wanted.items():
            path = os.path.join(args.cl_ptx, name)
            if not os.path.exists(path):
                rows.append((name + ": not found", "", "", "", "", ""))
                continue
            with open(path, errors="replace") as f:
                bodies = ptx_functions(f.read())
            for kernel, body in sorted(bodies.items()):
                if not any(kernel.endswith(kind) for kind in kinds):
                    continue
                rows.append((f"{kernel} ({name})", count(r"ld\.local", body), count(r"st\.local", body),
                             count(r"ld\.const", body), count(r"ld\.param", body), count(r"ld\.global", body)))
        print_table(rows)
    print(f"\n(PTX, SASS and the ptxas report are in {out})")


def print_table(rows):
    widths = [max(len(str(row[i])) for row in rows) for i in range(len(rows[0]))]
    for n, row in enumerate(rows):
        print("  ".join(str(cell).ljust(widths[i]) if i == 0 else str(cell).rjust(widths[i])
                        for i, cell in enumerate(row)))
        if n == 0:
            print("-" * (sum(widths) + 2 * (len(widths) - 1)))


if __name__ == "__main__":
    main()
