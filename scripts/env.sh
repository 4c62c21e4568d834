# Sourced by the scripts: where the CUDA compiler is, if anywhere.
# CMake finds nvcc on the PATH; the CUDA toolkit's own folder is not always on it.
if ! command -v nvcc >/dev/null 2>&1 && [ -x /usr/local/cuda/bin/nvcc ]; then
  export PATH="/usr/local/cuda/bin:$PATH"
fi
jobs=$(nproc 2>/dev/null || echo 2)
# Whether an NVIDIA GPU is here to run CUDA (ON/OFF): the quick start builds
# only what this machine can run.
cuda_device=OFF
if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L 2>/dev/null | grep -q '^GPU '; then
  cuda_device=ON
fi
