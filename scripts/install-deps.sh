#!/usr/bin/env bash
# Installs the Debian packages the tutorial needs, if any are missing.
# Called by run-chapters.sh and run-tests.sh; uses sudo when not root.
set -euo pipefail
# GAUSS_NO_INSTALL=1: this machine's packages come from elsewhere (a GPU
# machine without network, say); check nothing, install nothing.
if [ "${GAUSS_NO_INSTALL:-0}" = 1 ]; then
  exit 0
fi

packages=(
  cmake g++ make              # the build
  ocl-icd-opencl-dev          # OpenCL ICD loader (libOpenCL)
  opencl-headers              # OpenCL C headers (CL/cl.h)
  opencl-clhpp-headers        # Khronos C++ bindings (CL/opencl.hpp)
  pocl-opencl-icd             # OpenCL on the CPU: the device where there is no GPU
  libstb-dev                  # stb_image, stb_image_write, stb_image_resize
  catch2                      # tests (Catch2 v2)
  libcli11-dev                # command-line options
  doxygen                     # the docs site
  oclgrind                    # OpenCL simulator: races and out-of-bounds accesses
)

missing=()
for package in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$package")
  fi
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

echo "installing Debian packages: ${missing[*]}"
sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}"
