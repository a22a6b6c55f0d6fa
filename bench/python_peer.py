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
With --serve it answers one case per line instead (serve(): the interleaved rounds of `--rounds`).
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


def options(o):
    return {
        "targetSeconds": o.get("targetSeconds", 1.0),
        "minSampleSeconds": o.get("minSampleSeconds", 0.01),
        "minSamples": o.get("minSamples", 5),
        "maxSamples": o.get("maxSamples", 50),
        "warmup": o.get("warmup", 1),
        "slowCallSeconds": o.get("slowCallSeconds", 3.0),
        "budgetSeconds": o.get("budgetSeconds"),
    }


def peer_base(kind):
    """The namespace every case starts from, and the sync that brackets a sample."""
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
    return base, sync


def prepare(case, base):
    """Runs the case's setup in a fresh namespace; returns (namespace, runner)."""
    ns = dict(base)
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
    return ns, run


def time_case(kind, ns, run, sync, o, case):
    clock = cuda_event_clock(ns["torch"]) if kind == "torch" and ns.get("lapis_cuda_events") else None
    r = measure(run, sync, {**o, **{k: v for k, v in case.get("timing", {}).items() if v is not None}}, clock)
    r["name"] = case["name"]
    return r


def failure(case, e):
    return {"name": case["name"], "error": f"{type(e).__name__}: {e}", "trace": traceback.format_exc(limit=3)}


def main():
    req = json.load(sys.stdin)
    kind = req.get("kind", "numpy")
    o = options(req.get("timing", {}))
    results = []
    base, sync = peer_base(kind)
    for case in req.get("cases", []):
        ns = None
        try:
            ns, run = prepare(case, base)
            results.append(time_case(kind, ns, run, sync, o, case))
        except Exception as e:  # noqa: BLE001
            results.append(failure(case, e))
        del ns
        if kind == "torch":
            import torch

            torch.cuda.empty_cache()
    json.dump({"info": info(kind), "results": results}, sys.stdout)


def serve():
    """--serve: one request per line, one JSON answer per line, for bench/run.ts's interleaved rounds.

    The first line is {"kind", "timing"} and is answered with {"info"}; then each line is a case
    ({"name", "setup", "stmt", "timing"?}), answered with its result; a case's setup runs once and
    its namespace is kept for its later rounds until a line {"forget": name} (answered with {}).
    """
    first = json.loads(sys.stdin.readline())
    kind = first.get("kind", "numpy")
    o = options(first.get("timing", {}))
    base, sync = peer_base(kind)
    print(json.dumps({"info": info(kind)}), flush=True)
    kept = {}
    for line in sys.stdin:
        req = json.loads(line)
        if "forget" in req:
            kept.pop(req["forget"], None)
            print("{}", flush=True)
            continue
        try:
            if req["name"] not in kept:
                kept[req["name"]] = prepare(req, base)
            ns, run = kept[req["name"]]
            out = time_case(kind, ns, run, sync, o, req)
        except Exception as e:  # noqa: BLE001
            kept.pop(req["name"], None)
            out = failure(req, e)
        print(json.dumps(out), flush=True)


if __name__ == "__main__":
    serve() if "--serve" in sys.argv[1:] else main()
