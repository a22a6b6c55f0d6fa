"""Times numpy/scipy (or torch on CUDA) statements for bench/run.ts.

Reads one JSON object on stdin:
  {"kind": "numpy" | "torch" | "info", "timing": {...}, "cases": [{"name", "setup", "stmt", "timing"?}]}
(a case's own "timing" fields go over the request's) and writes one JSON object on stdout:
{"info": {...}, "results": [{"name", "seconds", "samples", "inner"} | {"name", "error"}]}.
Each case's setup runs once in a fresh namespace (with np, and torch for torch cases); stmt
is compiled once and timed like the JS side: warm-up, an estimate, then the median per-call
time over adaptive samples, within the case's budgetSeconds if it has one (no sample starts
past it; the warm-up's estimate stands if none was taken). Torch samples are bracketed by torch.cuda.synchronize() so
queued kernels are counted; a torch case whose setup sets `lapis_cuda_events = True` is timed by CUDA events
recorded around each sample instead (the GPU's own clock; bench/python_gdn_peer.py's cases).
"""
import json
import math
import sys
import time
import traceback


def median(xs):
    s = sorted(xs)
    n = len(s)
    if n == 0:
        return float("nan")
    h = n // 2
    return s[h] if n % 2 else (s[h - 1] + s[h]) / 2


def plan(est, o):
    est = max(est, 1e-9)
    if est >= o["slowCallSeconds"]:
        return 1, 1
    inner = max(1, math.ceil(o["minSampleSeconds"] / est))
    samples = round(o["targetSeconds"] / (inner * est))
    return inner, min(o["maxSamples"], max(o["minSamples"], samples))


def wall_clock(sync):
    """(begin, end) of a sample on the host clock, synchronised; end returns the seconds."""
    def begin():
        sync()
        return time.perf_counter()

    def end(t0):
        sync()
        return time.perf_counter() - t0

    return begin, end


def cuda_event_clock(torch):
    """(begin, end) of a sample as two CUDA events on the current stream; end returns the GPU seconds between them."""
    def begin():
        e = torch.cuda.Event(enable_timing=True)
        e.record()
        return e

    def end(e0):
        e1 = torch.cuda.Event(enable_timing=True)
        e1.record()
        e1.synchronize()
        return e0.elapsed_time(e1) / 1e3

    return begin, end


def measure(run, sync, o, clock=None):
    begin, end = clock or wall_clock(sync)
    est = float("inf")
    start = time.perf_counter()
    budget = o.get("budgetSeconds") or float("inf")
    for _ in range(max(1, o["warmup"])):
        t0 = begin()
        run(1)
        est = min(est, end(t0))
        if est >= o["slowCallSeconds"]:
            return {"seconds": est, "samples": 1, "inner": 1}
        if time.perf_counter() - start > budget:
            break
    inner, samples = plan(est, o)
    times = []
    for _ in range(samples):
        if time.perf_counter() - start > budget:
            break
        t0 = begin()
        run(inner)
        times.append(end(t0) / inner)
    if not times:
        return {"seconds": est, "samples": 1, "inner": 1}
    return {"seconds": median(times), "samples": len(times), "inner": inner}


def make_runner(stmt, name, ns):
    """A function running stmt n times in a loop (as timeit does), so call overhead stays out of the time."""
    body = "\n".join("        " + line for line in stmt.splitlines()) or "        pass"
    src = f"def __lapis_bench__(__n):\n    for __i in range(__n):\n{body}\n"
    exec(compile(src, f"<stmt {name}>", "exec"), ns)
    return ns["__lapis_bench__"]


def bundled_openblas():
    """numpy's own OpenBLAS (a wheel's scipy-openblas): its version and the core kernels it picked."""
    import ctypes
    import glob
    import os

    import numpy as np

    for path in glob.glob(os.path.join(os.path.dirname(np.__file__), os.pardir, "numpy.libs", "*openblas*")):
        lib = ctypes.CDLL(path)
        for prefix, suffix in (("scipy_openblas", "64_"), ("openblas", "64_"), ("openblas", "")):
            try:
                core = getattr(lib, f"{prefix}_get_corename{suffix}")
                config = getattr(lib, f"{prefix}_get_config{suffix}")
            except AttributeError:
                continue
            core.restype = config.restype = ctypes.c_char_p
            version = config().decode().split()
            return f"OpenBLAS {version[1] if len(version) > 1 else '?'} (core {core().decode()})"
    return None


def openblas_version():
    """The BLAS numpy itself uses (a wheel bundles its own; Debian's links the system one)."""
    try:
        found = bundled_openblas()
        if found:
            return found
    except Exception:
        pass
    try:
        from threadpoolctl import threadpool_info

        for lib in threadpool_info():
            if lib.get("user_api") == "blas":
                return f"{lib.get('internal_api')} {lib.get('version')} ({lib.get('architecture')}, {lib.get('num_threads')} threads)"
    except Exception:
        pass
    try:
        import numpy as np

        blas = np.show_config(mode="dicts")["Build Dependencies"]["blas"]
        return f"{blas.get('name')} {blas.get('version')}"
    except Exception:
        pass
    try:
        import ctypes
        import ctypes.util
        import numpy as np

        cands = []
        try:
            import numpy.core._multiarray_umath as mu

            cands.append(mu.__file__)
        except Exception:
            pass
        cands += ["libopenblas.so.0", "libopenblas.so", ctypes.util.find_library("openblas") or ""]
        for c in cands:
            if not c:
                continue
            try:
                lib = ctypes.CDLL(c)
                f = lib.openblas_get_config
            except (OSError, AttributeError):
                continue
            f.restype = ctypes.c_char_p
            return f().decode()
    except Exception:
        pass
    return None


def info(kind):
    out = {"python": sys.version.split()[0]}
    try:
        import numpy as np

        out["numpy"] = np.__version__
        out["openblas"] = openblas_version()
    except Exception:
        out["numpy"] = None
    try:
        import scipy

        out["scipy"] = scipy.__version__
    except Exception:
        out["scipy"] = None
    if kind == "torch":
        try:
            import torch

            out["torch"] = torch.__version__
            out["cuda"] = torch.version.cuda
            out["torch device"] = torch.cuda.get_device_name(0) if torch.cuda.is_available() else None
            out["tf32"] = str(torch.backends.cuda.matmul.allow_tf32)
        except Exception as e:  # noqa: BLE001
            out["torch"] = None
            out["torch error"] = str(e)
    return out


def main():
    req = json.load(sys.stdin)
    kind = req.get("kind", "numpy")
    o = req.get("timing", {})
    o = {
        "targetSeconds": o.get("targetSeconds", 1.0),
        "minSampleSeconds": o.get("minSampleSeconds", 0.01),
        "minSamples": o.get("minSamples", 5),
        "maxSamples": o.get("maxSamples", 50),
        "warmup": o.get("warmup", 1),
        "slowCallSeconds": o.get("slowCallSeconds", 3.0),
        "budgetSeconds": o.get("budgetSeconds"),
    }
    results = []
    base = {}
    sync = lambda: None  # noqa: E731
    if kind == "numpy":
        import numpy as np

        base["np"] = np
    elif kind == "torch":
        import numpy as np
        import torch

        if not torch.cuda.is_available():
            raise SystemExit("torch: CUDA is not available")
        # Peers are measured without TF32: lapis computes in true float32.
        torch.backends.cuda.matmul.allow_tf32 = False
        torch.backends.cudnn.allow_tf32 = False
        base.update(np=np, torch=torch, dev="cuda")
        sync = torch.cuda.synchronize
    for case in req.get("cases", []):
        ns = dict(base)
        try:
            exec(compile(case["setup"], f"<setup {case['name']}>", "exec"), ns)
            run = make_runner(case["stmt"], case["name"], ns)
            try:
                run(1)
            except UnboundLocalError:
                # stmt rebinds a setup name: run it at module level instead (a little call overhead).
                code = compile(case["stmt"], f"<stmt {case['name']}>", "exec")

                def run(n, code=code, ns=ns):
                    for _ in range(n):
                        exec(code, ns)
            clock = cuda_event_clock(ns["torch"]) if kind == "torch" and ns.get("lapis_cuda_events") else None
            r = measure(run, sync, {**o, **{k: v for k, v in case.get("timing", {}).items() if v is not None}}, clock)
            r["name"] = case["name"]
            results.append(r)
        except Exception as e:  # noqa: BLE001
            results.append({"name": case["name"], "error": f"{type(e).__name__}: {e}",
                            "trace": traceback.format_exc(limit=3)})
        del ns
        if kind == "torch":
            import torch

            torch.cuda.empty_cache()
    json.dump({"info": info(kind), "results": results}, sys.stdout)


if __name__ == "__main__":
    main()
