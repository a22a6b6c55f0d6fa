"""flash-linear-attention (fla-core 0.5.2) on torch CUDA: the peer of the gdn-gpu suite.

Imported by the torch cases' setup code in bench/suites/gdn-gpu.ts, which bench/python_peer.py
runs (the script's folder, bench/, is on sys.path there). Each function builds seeded inputs
on the GPU in flash-linear-attention's layout (batch, time, heads, dim), log-space gates g and
β, and returns a callable that python_peer.py times (with CUDA events: the setup sets
lapis_cuda_events). Inputs follow the same laws as the lapis side (uniform(-1, 1) q, k, v;
g in [-0.5, 0]; β in [0.25, 0.75]), not the same values: timings do not depend on them.
"""


def _fla(what):
    """Imports from fla with an error that says what is missing (the peer column shows it)."""
    try:
        if what == "chunk":
            from fla.ops.gated_delta_rule import chunk_gated_delta_rule as f
        elif what == "recurrent":
            from fla.ops.gated_delta_rule import fused_recurrent_gated_delta_rule as f
        else:
            from fla.ops.utils import solve_tril as f
    except ImportError as e:
        raise RuntimeError(f"flash-linear-attention is not importable ({e}); pip install fla-core==0.5.2") from e
    return f


def _dtype(torch, name):
    return {"float32": torch.float32, "bfloat16": torch.bfloat16, "float16": torch.float16}[name]


def _inputs(torch, B, T, H, D, dtype, seed):
    dev = "cuda"
    gen = torch.Generator(device=dev).manual_seed(seed)
    u = lambda *shape: torch.rand(*shape, device=dev, generator=gen) * 2 - 1  # noqa: E731
    dt = _dtype(torch, dtype)
    q = u(B, T, H, D).to(dt)
    k = u(B, T, H, D).to(dt)
    v = u(B, T, H, D).to(dt)
    g = (-0.25 * (u(B, T, H) + 1)).to(dt)
    beta = (0.5 + 0.25 * u(B, T, H)).to(dt)
    return q, k, v, g, beta


def forward(torch, B, T, H, D, dtype, seed):
    """chunk_gated_delta_rule with the final state, scale D^-1/2, q and k L2-normalised in the kernel."""
    f = _fla("chunk")
    q, k, v, g, beta = _inputs(torch, B, T, H, D, dtype, seed)
    scale = D ** -0.5

    def run():
        return f(q, k, v, g, beta, scale=scale, output_final_state=True, use_qk_l2norm_in_kernel=True)

    run()
    return run


def recurrent_steps(torch, B, H, D, R, seed):
    """R chained decoding steps (T = 1) of fused_recurrent_gated_delta_rule from a float32 state."""
    f = _fla("recurrent")
    q, k, v, g, beta = _inputs(torch, B, 1, H, D, "float32", seed)
    gen = torch.Generator(device="cuda").manual_seed(seed + 1)
    h0 = torch.rand(B, H, D, D, device="cuda", generator=gen) - 0.5
    scale = D ** -0.5

    def run():
        h = h0
        for _ in range(R):
            _, h = f(q, k, v, g=g, beta=beta, scale=scale, initial_state=h, output_final_state=True,
                     use_qk_l2norm_in_kernel=True)
        return h

    run()
    return run


def solve_tril_chunks(torch, count, C, R, seed):
    """R calls of solve_tril: (I + A)^-1 of `count` C×C chunks, A (1, T, 16, C) strictly lower per chunk."""
    f = _fla("solve_tril")
    H = 16
    T = count * C // H
    gen = torch.Generator(device="cuda").manual_seed(seed)
    A = (torch.rand(1, T, H, C, device="cuda", generator=gen) - 0.5) / C ** 0.5
    row = torch.arange(T, device="cuda") % C
    A = A * (torch.arange(C, device="cuda")[None, :] < row[:, None]).to(A.dtype)[None, :, None, :]

    def run():
        for _ in range(R):
            out = f(A, output_dtype=torch.float32)
        return out

    run()
    return run
