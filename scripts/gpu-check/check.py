#!/usr/bin/env python3
"""Measure one card of a Parallel Lab plan on the GPU you have (SPEC section 19).

    parallel-lab check --emit --url 'LINK' > workload.json     # or the page's "check on a GPU"
    python3 check.py workload.json                              # writes measured.json

The workload names one card of a plan: its pipeline stage's layers at its own widths (after
tensor parallelism), its tokens (after context parallelism), its experts (after expert
parallelism) and the micro-batches its stage holds in flight. This program builds those
layers in PyTorch (Llama-style: RMSNorm, grouped-query attention with rotary embeddings,
SwiGLU or GPT's plain GeLU MLP; MoE layers with a router and their local experts at the tokens each receives), runs
them eager and under torch.compile, and writes what it measured to measured.json: each
layer's forward + backward time (the median of CUDA-event-timed repeats after warm-up), the
activation bytes of a layer and of the micro-batches in flight, the model states' bytes after
an optimizer step, the allocator's peak and its reserve (torch.cuda memory counters), with
the card, the software versions and the method. Load that file in the lab (the page's panel,
or `parallel-lab check --measured measured.json`) to see each figure beside the lab's.

Nothing is sent between cards: one GPU runs one card's compute and holds one card's memory.
The workload lists what is not built. Python 3 and PyTorch only.
"""

import argparse
import datetime
import json
import math
import os
import platform
import sys

WORKLOAD_FORMAT = "parallel-lab/workload"
MEASURED_FORMAT = "parallel-lab/measured"
VERSION = 1
GIB = 1024 ** 3

# What eager PyTorch keeps per layer over the lab's 34 s*b*h: 51.5 s*b*h measured for the
# Llama 3 8B layer on one H200 (PyTorch 2.11, 2026-12-04, ../shared/measured acts.json), so
# the fit check sizes eager activations at 51.5/34 of the lab's.
EAGER_OVER_LAB = 51.5 / 34.0
# Room left for the allocator's blocks, kernels' workspaces and the CUDA context.
HEADROOM = 1.25
RESERVE_BYTES = 2 * GIB


class WorkloadError(ValueError):
    """A workload this program cannot use; the message names the field."""


def _field(obj, path, kind):
    """The value at a dotted path, checked to be of `kind` ("count", "number", "object")."""
    value = obj
    walked = []
    for key in path.split("."):
        walked.append(key)
        if not isinstance(value, dict) or key not in value:
            raise WorkloadError(f"workload: `{'.'.join(walked)}` is missing")
        value = value[key]
    if kind == "count":
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise WorkloadError(f"workload: `{path}` should be a whole number >= 0, got {value!r}")
    elif kind == "number":
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            raise WorkloadError(f"workload: `{path}` should be a number, got {value!r}")
    elif kind == "object" and not isinstance(value, dict):
        raise WorkloadError(f"workload: `{path}` should be an object, got {value!r}")
    return value


def read_workload(text):
    """The workload from its JSON text, every field this program uses checked."""
    try:
        w = json.loads(text)
    except ValueError as e:
        raise WorkloadError(f"workload: not JSON ({e})") from None
    if not isinstance(w, dict):
        raise WorkloadError("workload: expected a JSON object from `parallel-lab check --emit`")
    fmt = w.get("format")
    if fmt == MEASURED_FORMAT:
        raise WorkloadError(
            "workload: this is a measured file (the output); give the workload from "
            "`parallel-lab check --emit` or the page's \"check on a GPU\" panel")
    if fmt != WORKLOAD_FORMAT:
        raise WorkloadError(
            f"workload: `format` should be \"{WORKLOAD_FORMAT}\", got {fmt!r}; make one with "
            "`parallel-lab check --emit`")
    if w.get("version") != VERSION:
        raise WorkloadError(
            f"workload: `version` {w.get('version')!r}; this program reads version {VERSION}")
    for path in ["layer.hidden", "layer.heads", "layer.kv_heads", "layer.head_dim", "layer.ffn",
                 "tokens.seq", "tokens.cp", "tokens.queries", "tokens.micro_batch",
                 "layers.total", "layers.moe", "layers.full_attention", "micro_batches", "card"]:
        _field(w, path, "count")
    for path in ["in_flight", "grad_bytes", "per_layer.activation_bytes", "per_layer.params",
                 "per_layer.states_bytes_per_param"]:
        _field(w, path, "number")
    for path in ["layer.hidden", "layer.heads", "layer.kv_heads", "layer.head_dim",
                 "tokens.queries", "tokens.micro_batch", "layers.total"]:
        if _field(w, path, "count") == 0:
            raise WorkloadError(f"workload: `{path}` is 0; this card has nothing to build")
    if w["layer"].get("mlp", "gated") not in ("gated", "plain"):
        raise WorkloadError(
            f"workload: `layer.mlp` should be \"gated\" or \"plain\", got {w['layer']['mlp']!r}")
    if w.get("recompute") not in ("none", "selective", "full"):
        raise WorkloadError(f"workload: `recompute` should be none, selective or full, got {w.get('recompute')!r}")
    if w["grad_bytes"] not in (2, 4):
        raise WorkloadError(f"workload: `grad_bytes` should be 2 or 4, got {w['grad_bytes']!r}")
    experts = w["layer"].get("experts")
    if experts is not None:
        for key in ["experts", "local", "ffn", "tokens", "shared_ffn"]:
            _field(w, f"layer.experts.{key}", "count")
    elif w["layers"]["moe"] > 0:
        raise WorkloadError("workload: `layers.moe` > 0 but `layer.experts` is null")
    return w


def held(w):
    """Micro-batches held at once: the stage's in-flight count rounded up, at least one."""
    return max(1, math.ceil(w["in_flight"] - 1e-9))


def first_layers(w, n):
    """n of the stage's layers in its proportions of MoE and full-attention layers (the
    lab's StageLayers::first)."""
    total = w["layers"]["total"]
    n = min(n, total)

    def part(k):
        if k == 0 or total == 0:
            return 0
        return min(max(int(math.floor(k * n / total + 0.5)), 1), n)
    return {"total": n, "moe": part(w["layers"]["moe"]),
            "full_attention": part(w["layers"]["full_attention"])}


def need_bytes(w, n):
    """Bytes n built layers need at their peak: the lab's states and in-flight activations
    (activations at eager PyTorch's measured share over the lab's), with headroom."""
    f = w["per_layer"]
    states = f["params"] * f["states_bytes_per_param"] * n
    per_layer = f["activation_bytes"]
    if w["recompute"] != "full":
        per_layer *= EAGER_OVER_LAB
    activations = per_layer * n * held(w)
    return (states + activations) * HEADROOM + RESERVE_BYTES


def layers_that_fit(w, free_bytes, asked=None):
    """How many of the stage's layers to build on a card with `free_bytes` free: `asked` (if
    it fits) or as many as fit. Raises WorkloadError when not even one layer fits."""
    total = w["layers"]["total"]
    if asked is not None:
        if asked < 1 or asked > total:
            raise WorkloadError(f"--layers {asked}: the stage has {total} layers; pick 1 to {total}")
        if need_bytes(w, asked) > free_bytes:
            raise WorkloadError(
                f"--layers {asked} does not fit: it needs about {need_bytes(w, asked) / GIB:.1f} GiB "
                f"and this GPU has {free_bytes / GIB:.1f} GiB free; try fewer layers")
        return asked
    n = total
    while n >= 1 and need_bytes(w, n) > free_bytes:
        n -= 1
    if n == 0:
        raise WorkloadError(
            f"this card's workload does not fit this GPU: one layer with {held(w)} micro-batch(es) "
            f"in flight needs about {need_bytes(w, 1) / GIB:.1f} GiB and the GPU has "
            f"{free_bytes / GIB:.1f} GiB free. Pick a plan with more TP, shorter sequences, a "
            "smaller micro-batch or full recompute, or a card of a bigger plan.")
    return n


def method_text(w, built, compiled):
    modes = "eager and torch.compile" if compiled else "eager"
    return (
        f"{built['total']} of the stage's {w['layers']['total']} layers built in bf16 ({modes}); "
        "time: median of CUDA-event-timed forward + backward repeats after warm-up, divided "
        "by the layers; memory: torch.cuda.memory_allocated before and after each part, "
        "max_memory_allocated and max_memory_reserved over one step of "
        f"{held(w)} micro-batch(es) in flight, their backward passes and an Adam step with "
        "FP32 master weights.")


# ---------------------------------------------------------------------------------------------
# Everything below needs PyTorch and a GPU; the functions above are tested without either.
# ---------------------------------------------------------------------------------------------


def find_gpu():
    """torch and the device, or a clear refusal."""
    try:
        import torch
    except ImportError:
        raise WorkloadError(
            "PyTorch is not installed: `pip install torch` (https://pytorch.org) and run again") from None
    if not torch.cuda.is_available():
        raise WorkloadError(
            "no GPU found: torch.cuda.is_available() is False (PyTorch "
            f"{torch.__version__}); this program measures a GPU and runs on one")
    return torch


def build(torch, w, built, compiled, device="cuda"):
    """The built layers as one nn.Module stack, bf16, on `device`, and their forward."""
    import torch.nn as nn
    import torch.nn.functional as F

    NATIVE_GQA = "enable_gqa" in (F.scaled_dot_product_attention.__doc__ or "")
    L = w["layer"]
    h, heads, kv, hd = L["hidden"], L["heads"], L["kv_heads"], L["head_dim"]
    if heads % kv:
        kv = heads  # grouped-query attention needs heads to be a multiple of the KV heads
    cp, queries = w["tokens"]["cp"], w["tokens"]["queries"]
    dev = torch.device(device)

    class RMSNorm(nn.Module):
        """As Llama's reference code writes it: computed in FP32, scaled in bf16."""

        def __init__(self):
            super().__init__()
            self.weight = nn.Parameter(torch.ones(h))

        def forward(self, x):
            xf = x.float()
            y = xf * torch.rsqrt(xf.pow(2).mean(-1, keepdim=True) + 1e-5)
            return y.to(x.dtype) * self.weight

    def rotary(x, cos, sin):
        half = x.shape[-1] // 2
        return x * cos + torch.cat((-x[..., half:], x[..., :half]), -1) * sin

    def attend(q, k, v, causal):
        if k.shape[1] != q.shape[1]:
            if NATIVE_GQA:
                return F.scaled_dot_product_attention(q, k, v, is_causal=causal, enable_gqa=True)
            k = k.repeat_interleave(q.shape[1] // k.shape[1], 1)
            v = v.repeat_interleave(q.shape[1] // v.shape[1], 1)
        return F.scaled_dot_product_attention(q, k, v, is_causal=causal)

    class GatedMlp(nn.Module):
        def __init__(self, width):
            super().__init__()
            self.width = width
            self.up = nn.Linear(h, 2 * width, bias=False)
            self.down = nn.Linear(width, h, bias=False)

        def forward(self, x):
            gate, up = self.up(x).split(self.width, -1)
            return self.down(F.silu(gate) * up)

    class PlainMlp(nn.Module):
        """GPT's MLP: up (h → ffn), GeLU (tanh form, as Megatron-LM's fused bias-GeLU), down."""

        def __init__(self, width):
            super().__init__()
            self.up = nn.Linear(h, width, bias=False)
            self.down = nn.Linear(width, h, bias=False)

        def forward(self, x):
            return self.down(F.gelu(self.up(x), approximate="tanh"))

    dense_mlp = PlainMlp if L.get("mlp", "gated") == "plain" else GatedMlp

    class Experts(nn.Module):
        """The router over all experts, this card's experts at the tokens each receives
        (balanced, as the lab counts), and the shared experts."""

        def __init__(self, e):
            super().__init__()
            self.e = e
            self.router = nn.Linear(h, e["experts"], bias=False)
            self.local = nn.ModuleList(GatedMlp(e["ffn"]) for _ in range(e["local"]))
            self.shared = GatedMlp(e["shared_ffn"]) if e["shared_ffn"] else None

        def forward(self, x):
            flat = x.reshape(-1, h)
            tokens = flat.shape[0]
            probs = self.router(flat).float().softmax(-1)
            out = torch.zeros_like(flat)
            each = self.e["tokens"]
            for i, expert in enumerate(self.local):
                rows = (torch.arange(each, device=flat.device) * 7 + i * each) % tokens
                weight = probs[rows, i % self.e["experts"]].unsqueeze(-1).to(flat.dtype)
                out = out.index_add(0, rows, expert(flat[rows]) * weight)
            if self.shared is not None:
                out = out + self.shared(flat)
            return out.view_as(x)

    class Layer(nn.Module):
        def __init__(self, moe, full_attention):
            super().__init__()
            self.full_attention = full_attention
            self.norm1, self.norm2 = RMSNorm(), RMSNorm()
            self.q = nn.Linear(h, heads * hd, bias=False)
            self.k = nn.Linear(h, kv * hd, bias=False)
            self.v = nn.Linear(h, kv * hd, bias=False)
            self.o = nn.Linear(heads * hd, h, bias=False)
            self.mlp = Experts(L["experts"]) if moe else dense_mlp(L["ffn"])

        def forward(self, x, cos, sin):
            b, s, _ = x.shape
            y = self.norm1(x)
            q = self.q(y).view(b, s, heads, hd).transpose(1, 2)
            k = self.k(y).view(b, s, kv, hd).transpose(1, 2)
            v = self.v(y).view(b, s, kv, hd).transpose(1, 2)
            if self.full_attention:
                q, k = rotary(q, cos, sin), rotary(k, cos, sin)
                a = attend(q, k, v, True)
                # Context parallelism: the card's chunk against each other chunk's keys, half
                # of whose pairs the causal mask keeps (ring attention's compute, no ring).
                half = max(1, s // 2)
                for _ in range(cp - 1):
                    a = a + attend(q, k[:, :, :half], v[:, :, :half], False)
            else:
                # A linear-attention layer: its projections, without its kernel.
                a = q + F.pad(k + v, (0, 0, 0, 0, 0, heads - kv))
            x = x + self.o(a.transpose(1, 2).reshape(b, s, heads * hd))
            return x + self.mlp(self.norm2(x))

    kinds = []
    for i in range(built["total"]):
        moe = i < built["moe"]
        full = i >= built["total"] - built["full_attention"]
        kinds.append((moe, full))
    layers = nn.ModuleList(Layer(moe, full) for moe, full in kinds).to(dev, torch.bfloat16)
    pos = torch.arange(queries, device=dev, dtype=torch.float32)
    inv = 1.0 / (10000 ** (torch.arange(0, hd, 2, device=dev, dtype=torch.float32) / hd))
    angles = torch.cat([torch.outer(pos, inv)] * 2, -1)
    cos, sin = angles.cos().to(torch.bfloat16), angles.sin().to(torch.bfloat16)
    run = [torch.compile(layer) if compiled else layer for layer in layers]
    full_recompute = w["recompute"] == "full"

    def forward(x):
        for layer in run:
            if full_recompute:
                import torch.utils.checkpoint as ckpt
                x = ckpt.checkpoint(layer, x, cos, sin, use_reentrant=False)
            else:
                x = layer(x, cos, sin)
        return x
    return layers, forward


class States:
    """The lab's ledger, built: bf16 weights, gradients of `grad_bytes`, and Adam's FP32
    master weights and two moments."""

    def __init__(self, torch, layers, grad_bytes):
        self.torch = torch
        self.params = [p for p in layers.parameters()]
        self.master = [p.detach().float().clone().requires_grad_(True) for p in self.params]
        self.main_grads = ([torch.zeros_like(m) for m in self.master] if grad_bytes == 4 else None)
        try:
            self.adam = torch.optim.AdamW(self.master, lr=1e-5, fused=True)
        except (RuntimeError, TypeError):
            self.adam = torch.optim.AdamW(self.master, lr=1e-5)

    def after_backward(self):
        if self.main_grads is not None:
            for p, g in zip(self.params, self.main_grads):
                g.add_(p.grad)
                p.grad = None

    def step(self):
        torch = self.torch
        grads = self.main_grads or [p.grad for p in self.params]
        for m, g in zip(self.master, grads):
            m.grad = g.float() if g.dtype != torch.float32 else g
        self.adam.step()
        with torch.no_grad():
            for p, m in zip(self.params, self.master):
                p.copy_(m)
                m.grad = None


def median_ms(torch, fn, warm=2, reps=10, budget_ms=2000.0):
    """Median milliseconds of fn() by CUDA events after `warm` calls."""
    for _ in range(warm):
        fn()
    torch.cuda.synchronize()
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    times = []
    for _ in range(reps):
        start.record()
        fn()
        end.record()
        torch.cuda.synchronize()
        times.append(start.elapsed_time(end))
        if sum(times) > budget_ms and len(times) >= 3:
            break
    times.sort()
    return times[len(times) // 2]


def measure_mode(torch, w, built, compiled, device="cuda"):
    """One mode's figures: time, activations, states, peak and reserve."""
    import gc
    gc.collect()
    torch.cuda.empty_cache()
    torch.cuda.synchronize()
    base = torch.cuda.memory_allocated()
    layers, forward = build(torch, w, built, compiled, device)
    states = States(torch, layers, w["grad_bytes"])
    b, s, h = w["tokens"]["micro_batch"], w["tokens"]["queries"], w["layer"]["hidden"]
    n, k = built["total"], held(w)

    def micro_batch():
        return torch.randn(b, s, h, device=device, dtype=torch.bfloat16, requires_grad=True)

    def one_pass():
        y = forward(micro_batch())
        y.backward(torch.randn_like(y))
        states.after_backward()

    # Warm-up (and compile), then one optimizer step so that Adam's moments exist.
    one_pass()
    states.step()
    for p in layers.parameters():
        if p.grad is not None:
            p.grad.zero_()
    torch.cuda.synchronize()
    states_bytes = torch.cuda.memory_allocated() - base

    layer_ms = median_ms(torch, one_pass) / n

    # Activations: k micro-batches' forwards held at once, as the stage holds them in flight.
    torch.cuda.synchronize()
    gc.collect()
    torch.cuda.empty_cache()
    torch.cuda.reset_peak_memory_stats()
    before = torch.cuda.memory_allocated()
    outputs = []
    per_layer = None
    for i in range(k):
        y = forward(micro_batch())
        outputs.append(y)
        if i == 0:
            torch.cuda.synchronize()
            per_layer = (torch.cuda.memory_allocated() - before - y.numel() * y.element_size()) / n
    torch.cuda.synchronize()
    out_bytes = sum(y.numel() * y.element_size() for y in outputs)
    in_flight = torch.cuda.memory_allocated() - before - out_bytes
    for y in outputs:
        y.backward(torch.randn_like(y))
        states.after_backward()
    del outputs, y
    states.step()
    torch.cuda.synchronize()
    peak = torch.cuda.max_memory_allocated() - base
    reserved = torch.cuda.max_memory_reserved()
    del layers, forward, states
    if compiled:
        torch._dynamo.reset()
    gc.collect()
    torch.cuda.empty_cache()
    return {
        "layer_fwd_bwd_s": layer_ms / 1e3,
        "activation_per_layer_bytes": per_layer,
        "activation_in_flight_bytes": in_flight,
        "states_bytes": states_bytes,
        "peak_bytes": peak,
        "reserved_bytes": reserved,
    }


def main(argv=None):
    parser = argparse.ArgumentParser(
        description="Measure one card of a Parallel Lab plan on this GPU (writes measured.json).")
    parser.add_argument("workload", help="the workload JSON from `parallel-lab check --emit` or the page")
    parser.add_argument("-o", "--out", default="measured.json", help="where to write (default measured.json)")
    parser.add_argument("--layers", type=int, help="build this many of the stage's layers (default: as many as fit)")
    parser.add_argument("--eager-only", action="store_true", help="skip torch.compile (faster)")
    args = parser.parse_args(argv)
    try:
        with open(args.workload, encoding="utf-8") as f:
            w = read_workload(f.read())
        torch = find_gpu()
        torch.backends.cuda.matmul.allow_tf32 = False
        # The lab's attention rates are the flash kernel's; keep cuDNN's out of the choice.
        if hasattr(torch.backends.cuda, "enable_cudnn_sdp"):
            torch.backends.cuda.enable_cudnn_sdp(False)
        free, total = torch.cuda.mem_get_info()
        n = layers_that_fit(w, free, args.layers)
    except (OSError, WorkloadError) as e:
        print(f"check.py: {e}", file=sys.stderr)
        return 2
    built = first_layers(w, n)
    props = torch.cuda.get_device_properties(0)
    print(f"check.py: card {w['card']} of the plan, stage {w['coords']['pp']}: building {n} of "
          f"{w['layers']['total']} layers on {props.name}", file=sys.stderr)
    eager = measure_mode(torch, w, built, compiled=False)
    compiled, why = None, None
    if not args.eager_only:
        try:
            compiled = measure_mode(torch, w, built, compiled=True)
        except Exception as e:  # a compiler that fails leaves the eager figures standing
            why = f"{type(e).__name__}: {str(e)[:300]}"
    result = {
        "format": MEASURED_FORMAT,
        "version": VERSION,
        "workload": w,
        "card": {"name": props.name, "memory_bytes": total, "sms": props.multi_processor_count},
        "software": {"torch": torch.__version__, "cuda": torch.version.cuda or torch.version.hip or "",
                     "python": platform.python_version()},
        "date": datetime.date.today().isoformat(),
        "method": method_text(w, built, compiled is not None),
        "built": {"layers": built["total"], "moe": built["moe"],
                  "full_attention": built["full_attention"], "held": held(w)},
        "eager": eager,
        "compiled": compiled,
    }
    if why:
        result["compiled_error"] = why
    with open(args.out, "w", encoding="utf-8") as f:
        json.dump(result, f, indent=1)
    print(f"check.py: wrote {args.out}; load it in the lab's \"check on a GPU\" panel or run "
          f"`parallel-lab check --measured {args.out}`", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
