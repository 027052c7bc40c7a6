"""Compile generated ``ElementwiseKernel`` sources without a GPU.

Two wrappers of the same pieces (in_params, out_params, operation, preamble):
- ``compile_with_nvcc``: each kernel becomes a ``__global__`` function the way CuPy wraps
  it (inputs read into ``const`` locals, outputs bound by reference, a grid-stride loop),
  all kernels of a test module in ONE translation unit, ``nvcc -ptx -arch=sm_90``.
- ``run_on_cpu``: the same bodies in a plain C++ loop compiled with g++ (``__device__``
  defined away, shims for the CUDA intrinsics the helpers use), run over given inputs.
Each kernel sits in its own namespace with its own preamble, as CuPy compiles them one by
one. Complex numbers are ``thrust::complex`` from the CUDA toolkit's CCCL headers on both
sides (CuPy's ``cupy/complex.cuh`` is its own copy of thrust's, the same ``complex<T>``).
Builds are cached by source hash in a per-session directory. nvcc gets the kernels'
NVRTC ``options`` (``--fmad=false``); g++ gets ``-ffp-contract=off`` to match.
"""

from __future__ import annotations

import hashlib
import os
import pathlib
import shutil
import subprocess
from collections.abc import Sequence

import numpy
import pytest

from dask_gpunumeric._codegen.cuda import ElementwiseKernelSource
from dask_gpunumeric._codegen.cuda_types import cpp_type

CUDA_INCLUDE = pathlib.Path(os.environ.get("CUDA_HOME", "/usr/local/cuda")) / "include"
PRELUDE = "#include <thrust/complex.h>\nusing thrust::complex;\n"
CPU_SHIMS = """#define __device__
#define __global__
#include <math.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>
inline double __longlong_as_double(long long x) { double d; memcpy(&d, &x, 8); return d; }
inline float __int_as_float(int x) { float f; memcpy(&f, &x, 4); return f; }
inline int __popcll(unsigned long long x) { return __builtin_popcountll(x); }
"""
CPU_MAIN = r"""
typedef void (*kernel_fn)(char **, char **, long long);
static kernel_fn kernels[] = {KERNEL_TABLE};
static char *slurp(const char *path, long *size) {
  FILE *f = fopen(path, "rb"); fseek(f, 0, SEEK_END); *size = ftell(f); fseek(f, 0, SEEK_SET);
  char *data = (char *)malloc(*size + 1); if (fread(data, 1, *size, f) != (size_t)*size) exit(3);
  fclose(f); return data;
}
int main(int argc, char **argv) {
  FILE *spec = fopen(argv[1], "r");
  int k, nin, nout; long long n; char path[4096]; long size;
  while (fscanf(spec, "%d %lld %d %d", &k, &n, &nin, &nout) == 4) {
    char *in[8], *out[8], outpath[8][4096];
    for (int j = 0; j < nin; ++j) { if (fscanf(spec, "%4095s", path) != 1) return 2; in[j] = slurp(path, &size); }
    for (int j = 0; j < nout; ++j) { if (fscanf(spec, "%4095s", outpath[j]) != 1) return 2; out[j] = slurp(outpath[j], &size); }
    kernels[k](in, out, n);
    for (int j = 0; j < nout; ++j) {
      long s; free(slurp(outpath[j], &s));
      FILE *f = fopen(outpath[j], "wb"); fwrite(out[j], 1, s, f); fclose(f);
    }
  }
  return 0;
}
"""


def require_tool(name: str) -> str:
    """The path of compiler ``name``; skip without it, except under ``CI=true``."""
    path = shutil.which(name)
    if path is None:
        message = f"{name} is not on PATH: generated CUDA sources cannot be checked"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    return path


def _parameters(params: str) -> list[tuple[str, str]]:
    """``"float64 in0, int32 in1"`` -> ``[("double", "in0"), ("int", "in1")]``."""
    pairs = [entry.split() for entry in params.split(",") if entry.strip()]
    return [(cpp_type(numpy.dtype(dtype)), name) for dtype, name in pairs]


def _cuda_kernel(k: int, source: ElementwiseKernelSource) -> str:
    inputs, outputs = _parameters(source.in_params), _parameters(source.out_params)
    arguments = [f"const {t} *_raw_{n}" for t, n in inputs] + [f"{t} *_raw_{n}" for t, n in outputs]
    reads = [f"const {t} {n} = _raw_{n}[i];" for t, n in inputs]
    binds = [f"{t} &{n} = _raw_{n}[i];" for t, n in outputs]
    return f"""namespace k{k} {{
{source.preamble}
extern "C" __global__ void {source.name}_{k}({", ".join(arguments)}, long long _n) {{
  for (long long i = blockIdx.x * blockDim.x + threadIdx.x; i < _n;
       i += (long long)blockDim.x * gridDim.x) {{
    {" ".join(reads + binds)}
    {source.operation};
  }}
}}
}}
"""


def _cpu_kernel(k: int, source: ElementwiseKernelSource) -> str:
    inputs, outputs = _parameters(source.in_params), _parameters(source.out_params)
    reads = [f"const {t} {n} = ((const {t} *)_in[{j}])[i];" for j, (t, n) in enumerate(inputs)]
    binds = [f"{t} &{n} = (({t} *)_out[{j}])[i];" for j, (t, n) in enumerate(outputs)]
    return f"""namespace k{k} {{
{source.preamble}
void run(char **_in, char **_out, long long _n) {{
  for (long long i = 0; i < _n; ++i) {{
    {" ".join(reads + binds)}
    {source.operation};
  }}
}}
}}
"""


def _build(command: list[str], text: str, suffix: str, cache: pathlib.Path) -> pathlib.Path:
    """Compile ``text`` once per session (errors are cached too): ``pytest.fail`` with the
    compiler's message if it rejects the source."""
    digest = hashlib.sha1((" ".join(command) + text).encode()).hexdigest()[:20]
    target, errors = cache / f"{digest}{suffix}", cache / f"{digest}.errors"
    if not target.exists() and not errors.exists():
        source = cache / f"{digest}{'.cu' if suffix == '.ptx' else '.cpp'}"
        source.write_text(text)
        result = subprocess.run(
            [*command, str(source), "-o", str(target)], capture_output=True, text=True
        )
        if result.returncode != 0:
            errors.write_text(f"{command[0]} rejected {source}:\n{result.stderr[-6000:]}")
    if errors.exists():
        pytest.fail(errors.read_text())
    return target


def compile_with_nvcc(sources: Sequence[ElementwiseKernelSource], cache: pathlib.Path) -> None:
    """Compile every kernel to PTX for sm_90 in one translation unit; fail on any error."""
    nvcc = require_tool("nvcc")
    text = PRELUDE + "\n".join(_cuda_kernel(k, s) for k, s in enumerate(sources))
    options = sorted({option for source in sources for option in source.options})
    _build([nvcc, "-ptx", "-arch=sm_90", "-std=c++17", *options], text, ".ptx", cache)


def run_on_cpu(
    cases: Sequence[tuple[ElementwiseKernelSource, Sequence[numpy.ndarray], Sequence[numpy.dtype]]],
    cache: pathlib.Path,
) -> list[list[numpy.ndarray]]:
    """Run each (source, inputs, output dtypes) on the CPU; the outputs, per case."""
    gxx = require_tool("g++")
    kernels = "\n".join(_cpu_kernel(k, source) for k, (source, _, _) in enumerate(cases))
    table = ", ".join(f"k{k}::run" for k in range(len(cases)))
    text = CPU_SHIMS + PRELUDE + kernels + CPU_MAIN.replace("KERNEL_TABLE", table)
    flags = ["-std=c++17", "-O0", "-ffp-contract=off", f"-I{CUDA_INCLUDE / 'cccl'}"]
    flags.append(f"-I{CUDA_INCLUDE}")
    executable = _build([gxx, *flags], text, ".exe", cache)
    work = cache / f"run-{executable.stem}-{os.getpid()}"
    work.mkdir(exist_ok=True)
    lines, results = [], []
    for k, (_, inputs, out_dtypes) in enumerate(cases):
        n = inputs[0].size
        in_paths = [work / f"{k}_in{j}" for j in range(len(inputs))]
        out_paths = [work / f"{k}_out{j}" for j in range(len(out_dtypes))]
        for array, path in zip(inputs, in_paths, strict=True):
            numpy.ascontiguousarray(array).tofile(path)
        for dtype, path in zip(out_dtypes, out_paths, strict=True):
            numpy.zeros(n, dtype).tofile(path)
        lines.append(
            " ".join(
                [str(k), str(n), str(len(inputs)), str(len(out_dtypes))]
                + [str(p) for p in in_paths + out_paths]
            )
        )
        results.append(list(zip(out_dtypes, out_paths, strict=True)))
    spec = work / "spec.txt"
    spec.write_text("\n".join(lines) + "\n")
    subprocess.run([str(executable), str(spec)], check=True)
    return [[numpy.fromfile(path, dtype) for dtype, path in outs] for outs in results]
