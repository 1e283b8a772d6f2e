"""Megatron-LM's own verdict on a launch line, in-process, with Megatron's own code (issue 49).

Given the words of a `torchrun ... pretrain_gpt.py FLAGS` line as `parallel-lab flags --engine
megatron --format json` prints them, `judge(words)` does what Megatron-LM does at start-up for
those sizes, calling its functions rather than copies of its rules:

1. `megatron.training.arguments.parse_and_validate_args()`: Megatron's own parser on the line's
   flags (after the script), `validate_args`, then `set_global_variables` (the tokenizer, which pads
   the vocabulary, and the micro-batch calculator, which checks the global batch), with WORLD_SIZE
   and RANK set as torchrun sets them from --nnodes x --nproc-per-node;
2. `core_transformer_config_from_args(args)`, as pretrain_gpt's model provider builds its config
   (TransformerConfig.__post_init__'s checks);
3. `megatron.training.initialize._initialize_distributed(...)`, the function that calls
   `parallel_state.initialize_model_parallel` with the sizes and rank order from args, with
   torch.distributed faked (below) so that every group it creates is recorded by its description;
   then `get_num_layers_to_build(config)`, the split of layers that TransformerBlock asks for;
4. `megatron.training.training.num_floating_point_operations(args, args.global_batch_size)`;
5. `megatron.training.theoretical_memory_usage.compute_weight_and_optimizer_memory(args)`, whose
   local `num_total_parameters` (Megatron's count of the model's parameters) is read as the
   function returns (a trace on that one frame: the function computes it but returns bytes);
   that count does not know linear attention, so each linear layer's parameters are those of
   Megatron's GatedDeltaNet module, transcribed (`gated_delta_net_params`).

Nothing real is created. torch.distributed: is_initialized -> True, get_world_size -> N,
get_rank -> 0, new_group -> a recorder of (group_desc, ranks) that returns a dummy group, barrier ->
nothing. CUDA: one visible Hopper card (compute capability 9.0, H100 80 GB) whose properties
validate_args reads. CUDA_DEVICE_MAX_CONNECTIONS, which validate_args reads from the environment,
is set exactly as the line sets it (a leading `NAME=value` word, as the shell applies it), and
unset otherwise: before Blackwell validate_args requires it at 1 for TP or CP above 1, and FSDP
requires it unset.

The line gets only what the lab says is the user's to add (data, tokenizer, training settings):
`USER_ARGS`. A run whose printed line lacks an argument Megatron requires is reported in
`missing_required`, and judged again with that argument filled by `FILLERS` (so that the sizes can
still be compared); the caller decides what that means.

Run as a program: the words as a JSON list (or the `--format json` object) on stdin, the verdict
as JSON on stdout.
"""

import contextlib
import functools
import io
import json
import logging
import os
import re
import sys
import types
import typing
import warnings

# megatron-core 0.19 says Python >= 3.12 (the machine's Python is 3.11). Of 3.12, the modules
# imported here need only `typing.override` (megatron/training/models/hybrid.py), which
# typing_extensions (pinned in scripts/setup.sh) provides. A Python-version shim, nothing of
# Megatron's rules; no Megatron import is stubbed.
if not hasattr(typing, "override"):
    import typing_extensions

    typing.override = typing_extensions.override

warnings.filterwarnings("ignore")
logging.disable(logging.WARNING)

import torch  # noqa: E402
import torch.distributed  # noqa: E402

# ---------------------------------------------------------------------------------------------
# The fake machine: one Hopper card per process, N processes.

_DEVICE = types.SimpleNamespace(
    major=9, minor=0, name="NVIDIA H100 80GB HBM3", total_memory=80 * 2**30, multi_processor_count=132
)
torch.cuda.is_available = lambda: True
torch.cuda.device_count = lambda: 1
torch.cuda.current_device = lambda: 0
torch.cuda.set_device = lambda *a, **k: None
torch.cuda.get_device_properties = lambda *a, **k: _DEVICE
torch.cuda.get_device_capability = lambda *a, **k: (_DEVICE.major, _DEVICE.minor)
torch.cuda.synchronize = lambda *a, **k: None
# The launch environment's one variable validate_args reads: set only as the line sets it (see
# judge()).
ENV_VAR = "CUDA_DEVICE_MAX_CONNECTIONS"
os.environ.pop(ENV_VAR, None)


class _Fake:
    """The fake torch.distributed: world size, rank 0, and every new_group recorded."""

    world_size = 1
    groups = []  # (group_desc, ranks, backend)


class _DummyGroup:
    def __init__(self, ranks, desc):
        self.ranks = list(ranks)
        self.desc = desc

    def size(self):
        return len(self.ranks)

    def rank(self):
        return self.ranks.index(0) if 0 in self.ranks else -1

    def __repr__(self):
        return f"<group {self.desc} {self.ranks}>"


def _new_group(ranks=None, timeout=None, backend=None, pg_options=None, use_local_synchronization=False,
               group_desc=None, **_):
    ranks = list(range(_Fake.world_size)) if ranks is None else [int(r) for r in ranks]
    _Fake.groups.append((group_desc or "UNNAMED", ranks, backend))
    return _DummyGroup(ranks, group_desc)


torch.distributed.is_initialized = lambda: True
torch.distributed.is_available = lambda: True
torch.distributed.get_world_size = lambda group=None: _Fake.world_size if group is None else group.size()
torch.distributed.get_rank = lambda group=None: 0 if group is None else group.rank()
torch.distributed.new_group = _new_group
torch.distributed.barrier = lambda *a, **k: None

# Megatron's imports (the first takes several seconds).
from megatron.core import parallel_state  # noqa: E402
from megatron.core.transformer.transformer_block import get_num_layers_to_build  # noqa: E402
from megatron.training import arguments as margs  # noqa: E402
from megatron.training import global_vars  # noqa: E402
from megatron.training import initialize as minit  # noqa: E402
from megatron.training.argument_utils import ArgumentGroupFactory  # noqa: E402
from megatron.training.training import num_floating_point_operations  # noqa: E402
from megatron.training.theoretical_memory_usage import compute_weight_and_optimizer_memory  # noqa: E402
from megatron.core.models.common.embeddings import rope_utils  # noqa: E402

# Transformer Engine, which every GPU install of Megatron-LM has, is a CUDA build that cannot be
# installed here. TransformerConfig checks that TE's fused RoPE imported (apply_rope_fusion is on
# by default): stand-ins that refuse to be called make that check pass as on a real machine,
# and nothing here ever applies RoPE.


def _no_te(*_args, **_kwargs):
    raise RuntimeError("Transformer Engine is not installed here: judge.py never runs a kernel")


if rope_utils.fused_apply_rotary_pos_emb is None:
    rope_utils.fused_apply_rotary_pos_emb = _no_te
if rope_utils.fused_apply_rotary_pos_emb_thd is None:
    rope_utils.fused_apply_rotary_pos_emb_thd = _no_te

# Building Megatron's parser reads the source of its config dataclasses for the fields' --help
# text (inspect.getsource + ast.parse, about 0.2 s a parse). The text is the same on every run:
# read it once per class. Help text only; the arguments, defaults and checks are untouched.
_DOCSTRINGS = {}
_field_docstrings = ArgumentGroupFactory._get_field_docstrings


def _cached_field_docstrings(self, src_cfg_class):
    if src_cfg_class not in _DOCSTRINGS:
        _DOCSTRINGS[src_cfg_class] = _field_docstrings(self, src_cfg_class)
    return dict(_DOCSTRINGS[src_cfg_class])


ArgumentGroupFactory._get_field_docstrings = _cached_field_docstrings

# create_group asks is_torch_min_version("2.4.0") for every group (a packaging.Version parse
# each time: most of initialize_model_parallel's time at 512 ranks). The installed torch does not
# change during a run: remember the answers.
parallel_state.is_torch_min_version = functools.lru_cache(maxsize=None)(parallel_state.is_torch_min_version)

# What the lab's note leaves to the user: the tokenizer (NullTokenizer: --vocab-size as given,
# padded by Megatron as any tokenizer's is), mock data, a learning rate and a length of training.
USER_ARGS = ["--tokenizer-type", "NullTokenizer", "--mock-data", "--lr", "1e-4", "--train-iters", "10"]

# Arguments Megatron requires that the lab's line may lack, each known by Megatron's refusal: the
# verdict names each one the line needed (`missing_required`), and the line is judged again with
# it, so that the sizes can still be compared. (name, Megatron's message, the flags to add).
FILLERS = [
    # validate_args requires it whatever the position embedding; the sequence length is the
    # least a learned table may have, and changes nothing for RoPE.
    ("max_position_embeddings", r"max_position_embeddings argument is None",
     lambda flags: ["--max-position-embeddings", str(_flag_int(flags, "--seq-length") or 4096)]),
    # --use-megatron-fsdp (the lab's ZeRO 2 and 3) saves only in this format.
    ("ckpt_format", r"Megatron-FSDP requires the `fsdp_dtensor` checkpointing format",
     lambda flags: ["--ckpt-format", "fsdp_dtensor"]),
]

# group_desc -> the short kind used in reports.
KINDS = {
    "TENSOR_MODEL_PARALLEL_GROUP": "tp",
    "CONTEXT_PARALLEL_GROUP": "cp",
    "PIPELINE_MODEL_PARALLEL_GROUP": "pp",
    "DATA_PARALLEL_GROUP": "dp",
    "DATA_PARALLEL_GROUP_WITH_CP": "dp-cp",
    "TENSOR_AND_CONTEXT_PARALLEL_GROUP": "tp-cp",
    "MODEL_PARALLEL_GROUP": "tp-pp",
    "TENSOR_AND_DATA_PARALLEL_GROUP": "tp-dp",
    "TENSOR_AND_DATA_PARALLEL_GROUP_WITH_CP": "tp-dp-cp",
    "EMBEDDING_GROUP": "embedding",
    "POSITION_EMBEDDING_GROUP": "position-embedding",
    "EXPERT_MODEL_PARALLEL_GROUP": "ep",
    "EXPERT_TENSOR_PARALLEL_GROUP": "etp",
    "EXPERT_TENSOR_AND_MODEL_PARALLEL_GROUP": "etp-ep",
    "EXPERT_TENSOR_MODEL_PIPELINE_PARALLEL_GROUP": "etp-ep-pp",
    "EXPERT_DATA_PARALLEL_GROUP": "edp",
}


def split_line(words):
    """(launcher words, script, flags) of a torchrun line (or of bare flags)."""
    for i, w in enumerate(words):
        if w.endswith(".py"):
            return list(words[:i]), w, list(words[i + 1:])
    return [], "pretrain_gpt.py", list(words)


def _launcher_value(launcher, *names):
    for i, w in enumerate(launcher):
        for n in names:
            if w == n and i + 1 < len(launcher):
                return launcher[i + 1]
            if w.startswith(n + "="):
                return w.split("=", 1)[1]
    return None


def world_size_of(launcher):
    """torchrun's WORLD_SIZE: --nnodes x --nproc-per-node (1 each when absent)."""
    nnodes = _launcher_value(launcher, "--nnodes") or "1"
    nproc = _launcher_value(launcher, "--nproc-per-node", "--nproc_per_node") or "1"
    # --nnodes MIN:MAX (elastic) starts with MIN nodes.
    return int(nnodes.split(":")[0]) * int(nproc)


def _reset():
    """Megatron's own teardown between runs (its tests use the same two calls)."""
    try:
        parallel_state.destroy_model_parallel()
    except Exception:  # noqa: BLE001 (a half-initialized state: reset what is there)
        pass
    global_vars.unset_global_variables()
    global_vars.set_args(None)
    _Fake.groups = []


def _message(exc):
    text = str(exc).strip()
    text = re.sub(r"\s+", " ", text)
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def _run(flags, script, world):
    """One start-up of Megatron on these flags. Returns (result dict, args or None)."""
    _reset()
    _Fake.world_size = world
    os.environ["WORLD_SIZE"] = str(world)
    os.environ["RANK"] = "0"
    os.environ["LOCAL_RANK"] = "0"
    out = {"accepted": False, "error": None, "stage": None, "groups": {}, "flops": None, "params": None, "params_unpadded_vocab": None,
           "flops_unpadded_vocab": None, "padded_vocab_size": None, "world_size": world}
    saved_argv = sys.argv
    sys.argv = [script] + flags
    stage = "parse_and_validate_args"
    args = None
    printed = io.StringIO()
    try:
        with contextlib.redirect_stdout(printed), contextlib.redirect_stderr(printed):
            # argparse exits on an unknown or malformed flag: that is a refusal too.
            try:
                args = margs.parse_and_validate_args()
            except SystemExit as exc:
                said = printed.getvalue().strip().splitlines()
                raise RuntimeError(
                    f"argparse refused the line (exit {exc.code}): {said[-1] if said else ''}"
                ) from None
            out["padded_vocab_size"] = args.padded_vocab_size
            stage = "core_transformer_config_from_args"
            config = margs.core_transformer_config_from_args(args)
            stage = "initialize_model_parallel"
            minit._initialize_distributed(None, None, None)
            stage = "get_num_layers_to_build"
            # What each stage's TransformerBlock asks for (and asserts on), every stage and
            # virtual stage.
            for vp in range(args.virtual_pipeline_model_parallel_size or 1):
                for pp_rank in range(args.pipeline_model_parallel_size):
                    get_num_layers_to_build(
                        config,
                        vp_stage=vp if args.virtual_pipeline_model_parallel_size else None,
                        pp_rank=pp_rank,
                    )
            stage = "num_floating_point_operations"
            # The formula reads args (and sets num_query_groups without GQA): a copy each time.
            out["flops"] = float(num_floating_point_operations(types.SimpleNamespace(**vars(args)),
                                                               args.global_batch_size))
            unpadded = types.SimpleNamespace(**vars(args))
            unpadded.padded_vocab_size = args.vocab_size
            out["flops_unpadded_vocab"] = float(num_floating_point_operations(unpadded, args.global_batch_size))
            stage = "compute_weight_and_optimizer_memory"
            out["params"] = megatron_params(args)
            out["params_unpadded_vocab"] = megatron_params(unpadded)
        out["accepted"] = True
    # Megatron refuses with these; anything else (AttributeError, TypeError...) is more likely a
    # gap in the fakes above, and is left to reach the caller.
    except (AssertionError, ValueError, RuntimeError, NotImplementedError) as exc:
        out["error"] = _message(exc)
        out["stage"] = stage
    finally:
        sys.argv = saved_argv
    groups = {}
    for desc, ranks, backend in _Fake.groups:
        if backend == "gloo" or desc.endswith("_GLOO"):
            continue  # the same ranks again, for CPU-side collectives
        kind = KINDS.get(desc, desc.lower())
        groups.setdefault(kind, set()).add(tuple(ranks))
    out["groups"] = {k: sorted(list(g) for g in v) for k, v in sorted(groups.items())}
    return out, args


def megatron_params(args):
    """Megatron's parameter count of the model `args` describes: the local `num_total_parameters`
    of theoretical_memory_usage.compute_weight_and_optimizer_memory, read when it returns.

    That function counts every layer's attention as `self_attn_term` (standard or MLA) and does
    not know linear attention; for a line with `--experimental-attention-variant
    gated_delta_net` each linear layer's `self_attn_term` is replaced by the parameters Megatron's
    GatedDeltaNet module creates (`gated_delta_net_params`)."""
    code = compute_weight_and_optimizer_memory.__code__
    seen = {}

    def local(frame, event, _arg):
        if event == "return":
            seen["total"] = frame.f_locals.get("num_total_parameters")
            seen["attention"] = frame.f_locals.get("self_attn_term")
        return local

    def calls(frame, event, _arg):
        return local if event == "call" and frame.f_code is code else None

    previous = sys.gettrace()
    sys.settrace(calls)
    try:
        compute_weight_and_optimizer_memory(types.SimpleNamespace(**vars(args)))
    finally:
        sys.settrace(previous)
    total = float(seen["total"])
    linear_layers = linear_attention_layers(args)
    if linear_layers:
        total += linear_layers * (gated_delta_net_params(args) - float(seen["attention"]))
    return total


def linear_attention_layers(args):
    """The linear layers of `--linear-attention-freq`, read as num_floating_point_operations reads
    it (an integer N: (N-1) linear layers of every N; or a list, 1 = linear)."""
    if getattr(args, "experimental_attention_variant", None) != "gated_delta_net":
        return 0
    freq = args.linear_attention_freq
    if isinstance(freq, int):
        return sum(0 if (i + 1) % freq == 0 else 1 for i in range(args.num_layers))
    return sum(freq)


def gated_delta_net_params(args):
    """One GatedDeltaNet layer's parameters as megatron/core/ssm/gated_delta_net/common.py and
    gdn.py (megatron-core 0.19.2) create them, transcribed: in_proj hidden -> 2*qk_dim + 2*v_dim
    + 2*num_value_heads (q, k, v, the gate z, beta, alpha; no bias with
    --disable-bias-linear), conv1d depthwise over 2*qk_dim + v_dim channels with the kernel
    (conv_bias False), dt_bias and A_log (num_value_heads each), out_norm over value_head_dim
    (RMSNorm: one weight), out_proj v_dim -> hidden. The layer's input norm is fused into in_proj
    and counted by theoretical_memory_usage with the layer's norms, as for standard attention."""
    qk_dim = args.linear_key_head_dim * args.linear_num_key_heads
    v_dim = args.linear_value_head_dim * args.linear_num_value_heads
    nv = args.linear_num_value_heads
    norm = 1 if args.normalization == "RMSNorm" else 2
    return float(
        args.hidden_size * (2 * qk_dim + 2 * v_dim + 2 * nv)
        + args.linear_conv_kernel_dim * (2 * qk_dim + v_dim)
        + 2 * nv
        + norm * args.linear_value_head_dim
        + v_dim * args.hidden_size
    )


def _run_env(flags, script, world, env):
    """_run with the environment the line sets (its leading NAME=value words) and no other:
    CUDA_DEVICE_MAX_CONNECTIONS is set exactly when the line sets it."""
    os.environ.pop(ENV_VAR, None)
    for name, value in env.items():
        os.environ[name] = value
    try:
        result, args = _run(flags, script, world)
    finally:
        for name in env:
            os.environ.pop(name, None)
    result["env"] = dict(env)
    return result, args


def line_env(launcher):
    """The NAME=value words before the launcher's command, as a shell applies them."""
    env = {}
    for w in launcher:
        if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*=.*", w):
            name, value = w.split("=", 1)
            env[name] = value
        else:
            break
    return env


def judge(words):
    """Megatron's verdict on a launch line: see the module's docstring."""
    launcher, script, flags = split_line([str(w) for w in words])
    world = world_size_of(launcher)
    env = line_env(launcher)
    flags = flags + USER_ARGS
    missing = []
    result, args = _run_env(flags, script, world, env)
    # A required argument the line lacks: say so, and judge the sizes with it filled.
    while not result["accepted"]:
        done = [x["arg"] for x in missing]
        filler = next((f for f in FILLERS if f[0] not in done and re.search(f[1], result["error"] or "")),
                      None)
        if filler is None:
            break
        added = filler[2](flags)
        missing.append({"arg": filler[0], "error": result["error"], "filled": added})
        flags = flags + added
        result, args = _run_env(flags, script, world, env)
    result["missing_required"] = missing
    _reset()
    return result


def _flag_int(flags, name):
    for i, w in enumerate(flags):
        if w == name and i + 1 < len(flags):
            try:
                return int(flags[i + 1])
            except ValueError:
                return None
    return None


def main():
    data = json.load(sys.stdin)
    words = data["args"] if isinstance(data, dict) else data
    json.dump(judge(words), sys.stdout)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
