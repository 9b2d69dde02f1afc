# Sourced by the other scripts: puts the CUDA toolkit on PATH when it is not there yet.
if ! command -v nvcc >/dev/null 2>&1 && [ -x /usr/local/cuda/bin/nvcc ]; then
  export PATH="/usr/local/cuda/bin:$PATH"
fi
export CUDACXX="${CUDACXX:-$(command -v nvcc)}"
