# Sourced by the scripts: where the CUDA compiler is, if anywhere.
# CMake finds nvcc on the PATH; the CUDA toolkit's own folder is not always on it.
if ! command -v nvcc >/dev/null 2>&1 && [ -x /usr/local/cuda/bin/nvcc ]; then
  export PATH="/usr/local/cuda/bin:$PATH"
fi
jobs=$(nproc 2>/dev/null || echo 2)
