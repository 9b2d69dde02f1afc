#!/usr/bin/env python3
"""Times the libraries a user would otherwise call for many sums at once (torch.sum over a
dimension, CuPy's sum over an axis) on row-major M x N matrices, for docs/benchmarks.md's
rows-and-columns table. torch twice for int32: `torch.sum(x, dim, dtype=torch.int32)` (library
"torch": int32 sums, half the bytes written that ReductionLab's int64 sums take, wrapping where a
sum overflows) and plain `torch.sum(x, dim)` (library "torch_int64": int64 sums, as ReductionLab
writes them). Run on a GPU machine with PyTorch and/or CuPy; the product never runs it.

Protocol, as the product's sampler: warm-up launches first, then each sample flushes L2 (writes a
buffer twice the L2's size) and times only the reduction with CUDA events; the median is reported.
Output: one JSON object per line (library, dtype, dim, rows, cols, median_us, gbps of the read).
"""
import argparse, json, statistics, sys


def shapes(totals, cols_list):
    for total in totals:
        for n in cols_list:
            if n <= total:
                yield total // n, n


def parse_int(text):
    return 2 ** int(text[2:]) if text.startswith("2^") else int(text)


def time_torch(m, n, dtype, dim, samples, flush, keep_dtype=True):
    import torch
    tdt = {"int32": torch.int32, "float32": torch.float32}[dtype]
    # keep_dtype=False: torch's own choice of the sums' type (int64 for int32).
    kw = {"dtype": tdt} if keep_dtype else {}
    if dtype == "int32":
        x = torch.randint(-8, 8, (m, n), dtype=tdt, device="cuda")
    else:
        x = torch.rand((m, n), dtype=tdt, device="cuda")
    ref = x.double().sum(dim=dim) if dtype == "float32" else x.long().sum(dim=dim)
    out = torch.sum(x, dim=dim, **kw)
    ok = torch.allclose(out.double(), ref.double(), rtol=1e-3, atol=1e-2)
    for _ in range(3):
        torch.sum(x, dim=dim, **kw)
    times = []
    for _ in range(samples):
        flush.fill_(1)
        a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        a.record(); torch.sum(x, dim=dim, **kw); b.record(); b.synchronize()
        times.append(a.elapsed_time(b) * 1e3)
    del x, out, ref
    return statistics.median(times), bool(ok)


def time_cupy(m, n, dtype, dim, samples, flush):
    import cupy
    x = (cupy.random.randint(-8, 8, (m, n)).astype(dtype) if dtype == "int32"
         else cupy.random.rand(m, n).astype(dtype))
    out = cupy.sum(x, axis=dim, dtype=dtype)
    ref = cupy.sum(x.astype("float64"), axis=dim)
    ok = bool(cupy.allclose(out.astype("float64"), ref, rtol=1e-3, atol=1e-2))
    for _ in range(3):
        cupy.sum(x, axis=dim, dtype=dtype)
    times = []
    for _ in range(samples):
        flush.fill(1)
        a, b = cupy.cuda.Event(), cupy.cuda.Event()
        a.record(); cupy.sum(x, axis=dim, dtype=dtype); b.record(); b.synchronize()
        times.append(cupy.cuda.get_elapsed_time(a, b) * 1e3)
    del x, out, ref
    return statistics.median(times), ok


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--totals", default="2^24,2^28", help="M x N totals, comma-separated")
    p.add_argument("--cols", default=",".join(f"2^{k}" for k in range(5, 25)) + ",1000,4097",
                   help="row lengths N, comma-separated")
    p.add_argument("--dtypes", default="int32,float32")
    p.add_argument("--libraries", default="torch,torch_int64,cupy")
    p.add_argument("--samples", type=int, default=15)
    args = p.parse_args()
    totals = [parse_int(t) for t in args.totals.split(",")]
    cols = [parse_int(c) for c in args.cols.split(",")]
    import torch
    flush_t = torch.empty(2 * 60 * 2**20 // 4 * 2, dtype=torch.int32, device="cuda")
    gpu = torch.cuda.get_device_name()
    libs = {"torch": (time_torch, flush_t),
            "torch_int64": (lambda *a: time_torch(*a, keep_dtype=False), flush_t)}
    if "cupy" in args.libraries:
        try:
            import cupy
            libs["cupy"] = (time_cupy, cupy.empty(flush_t.numel(), dtype="int32"))
        except ImportError:
            print("cupy not installed: skipped", file=sys.stderr)
    for lib in args.libraries.split(","):
        if lib not in libs:
            continue
        fn, flush = libs[lib]
        for m, n in shapes(totals, cols):
            for dtype in args.dtypes.split(","):
                if lib == "torch_int64" and dtype != "int32":
                    continue  # float32's sums are float32 either way: "torch" has them
                for dim, name in ((1, "rows"), (0, "columns")):
                    us, ok = fn(m, n, dtype, dim, args.samples, flush)
                    print(json.dumps({"library": lib, "gpu": gpu, "dtype": dtype, "reduce": name,
                                      "rows": m, "cols": n, "median_us": round(us, 2),
                                      "gbps": round(m * n * 4 / us / 1e3, 1), "verified": ok}),
                          flush=True)


if __name__ == "__main__":
    main()
