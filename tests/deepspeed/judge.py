"""DeepSpeed's own verdict on the lab's DeepSpeed launch, in-process, with DeepSpeed's own code
(issue 56).

Given what `parallel-lab flags --engine deepspeed --format json` prints (`args`: the
`deepspeed ... train.py ...` words; `config`: ds_config.json; `notes`), `judge(out, per_node)`
does what a DeepSpeed 0.19.8 job does at start-up for those sizes, calling DeepSpeed's functions
rather than copies of its rules:

1. the launcher: `deepspeed.launcher.runner.main` on the line's words, against a hostfile that
   lists the cluster's nodes (`node-1 slots=g`, `node-2 slots=g`, ..., two more nodes than the job
   needs, so that the line has to pick them), or, when the line names no hostfile, against one
   node of g cards (`get_accelerator().device_count()`). Nothing is started: ssh, pdsh and the
   processes are stand-ins, and the resources the runner hands its backend
   (`encode_world_info(active_resources)`) are recorded: which slots of which nodes;
2. train.py's own arguments, parsed by `deepspeed.add_config_arguments`: `--deepspeed` and the
   config file the shell text writes (`ds_config.json`);
3. the model-parallel unit the notes tell train.py to pass, built by DeepSpeed's own classes: a
   `PipelineModule(layers, topology=...)` whose grid `deepspeed.initialize` takes as `mpu`
   (`model.mpu()`), or `mpu=PipelineParallelGrid(topology=...)` for a model without stages; with
   CP above 1 the notes ask the unit for a sequence-parallel axis (`get_sequence_parallel_world_size`
   and `get_sequence_data_parallel_group`, which deepspeed/utils/groups.py reads), added here to
   the grid as the notes describe it;
4. `DeepSpeedConfig(config, mpu)`, as `deepspeed.initialize` builds it (batch sizes, ZeRO, dtypes);
5. the engine: `PipelineEngine.__init__` (for a `PipelineModule`) over the start of
   `DeepSpeedEngine.__init__` that decides the optimizer (`_do_sanity_check`, the data-parallel
   groups `_configure_distributed_model` takes from the unit, `configure_zenflow`, then
   `_configure_optimizer`, which runs `_configure_basic_optimizer`,
   `_do_optimizer_sanity_check` and `_configure_zero_optimizer` / `_configure_bf16_optimizer` /
   `_configure_fp16_optimizer`). The optimizer classes those call (FusedAdam, DeepSpeedCPUAdam, the
   ZeRO optimizers, BF16_Optimizer, FP16_Optimizer) are recorders: they keep the arguments
   DeepSpeed passes them (offload, gradient dtype, the group the states are sharded over) and build
   nothing, since their kernels are CUDA builds that cannot run here;
6. for a MoE model, `groups._create_expert_and_data_parallel(e)`, as `MoE.set_deepspeed_parallelism`
   creates the expert groups (deepspeed/moe/layer.py, expert tensor parallelism off).

Nothing real is created. DeepSpeed's communication backend (`deepspeed.comm.comm.cdb`) is a fake:
initialized, rank 0 of N, `new_group` records its ranks, collectives do nothing. The accelerator is
DeepSpeed's CPU accelerator with one change: it reports BF16 support, as a Hopper card does.

Run as a program: the `--format json` object on stdin and the cards per node as the argument; the
verdict as JSON on stdout.
"""

import argparse
import ast
import base64
import contextlib
import io
import json
import logging
import os
import re
import sys
import tempfile
import warnings
from unittest import mock

warnings.filterwarnings("ignore")
logging.disable(logging.WARNING)
# DeepSpeed's CPU accelerator, whatever the machine has (no GPU is used).
os.environ["DS_ACCELERATOR"] = "cpu"
os.environ.setdefault("LOCAL_RANK", "0")

import torch  # noqa: E402

import deepspeed  # noqa: E402
import deepspeed.ops.adam  # noqa: E402
from deepspeed.accelerator import get_accelerator  # noqa: E402
from deepspeed.comm import comm as ds_comm  # noqa: E402
from deepspeed.launcher import multinode_runner, runner  # noqa: E402
from deepspeed.runtime import engine as engine_module  # noqa: E402
from deepspeed.runtime.config import DeepSpeedConfig  # noqa: E402
from deepspeed.runtime.engine import DeepSpeedEngine  # noqa: E402
from deepspeed.runtime.pipe import topology as ds_topology  # noqa: E402
from deepspeed.runtime.pipe.engine import PipelineEngine  # noqa: E402
from deepspeed.runtime.pipe.module import PipelineModule  # noqa: E402
# Imported here, before stage 3's optimizer is replaced by a recorder: it subclasses it.
from deepspeed.runtime.superoffload import superoffload_stage3  # noqa: E402, F401
from deepspeed.runtime.zenflow.engine import configure_zenflow  # noqa: E402
from deepspeed.runtime.zero import stage3  # noqa: E402
from deepspeed.runtime.zero.offload_config import OffloadDeviceEnum  # noqa: E402
from deepspeed.utils import groups  # noqa: E402

VERSION = deepspeed.__version__

# ---------------------------------------------------------------------------------------------
# The fake machine.

_ACCELERATOR = get_accelerator()
_ACCELERATOR.is_bf16_supported = lambda: True


class Group:
    """A process group: its ranks."""

    def __init__(self, ranks):
        self.ranks = [int(r) for r in ranks]

    def __repr__(self):
        return f"<group {self.ranks}>"


class FakeBackend:
    """deepspeed.comm's backend: rank 0 of `world`, every new group recorded."""

    def __init__(self, world):
        self.world = world
        self.created = []

    def is_initialized(self):
        return True

    def get_rank(self, group=None):
        if group is None:
            return 0
        return group.ranks.index(0) if 0 in group.ranks else -1

    def get_world_size(self, group=None):
        return self.world if group is None else len(group.ranks)

    def get_global_rank(self, group, group_rank):
        return group.ranks[group_rank]

    def new_group(self, ranks):
        group = Group(ranks)
        self.created.append(group)
        return group

    def get_world_group(self):
        return Group(range(self.world))

    def __getattr__(self, name):
        # Collectives, send and receive: nothing moves.
        return lambda *args, **kwargs: None


def _fresh_groups():
    """deepspeed.utils.groups' module state, as a new process has it."""
    groups.mpu = None
    groups.mesh_device = None
    for name in ("_EXPERT_PARALLEL_GROUP", "_EXPERT_DATA_PARALLEL_GROUP", "_EXPERT_PARALLEL_GROUP_RANKS",
                 "_EXPERT_DATA_PARALLEL_GROUP_RANKS"):
        getattr(groups, name).clear()
    for name in ("_WORLD_GROUP", "_ZERO_PARAM_INTRA_PARALLEL_GROUP", "_DATA_PARALLEL_GROUP"):
        if hasattr(groups, name):
            setattr(groups, name, None)


# ---------------------------------------------------------------------------------------------
# 1. The launcher.


class _Process:
    returncode = 0

    def wait(self):
        return 0

    def send_signal(self, _signal):
        pass


def launch(launcher_words, user_script, user_args, per_node, hosts):
    """DeepSpeed's runner on the line, against `hosts` nodes of `per_node` cards.

    Returns {"resources": {host: [slots]}} or {"error": message}."""
    seen = {}

    def record(active_resources):
        seen["resources"] = {host: list(slots) for host, slots in active_resources.items()}
        return base64.urlsafe_b64encode(json.dumps(seen["resources"]).encode()).decode()

    words = list(launcher_words)
    with tempfile.TemporaryDirectory() as tmp:
        hostfile = os.path.join(tmp, "hostfile")
        with open(hostfile, "w") as f:
            f.write("".join(f"node-{k} slots={per_node}\n" for k in range(1, hosts + 1)))
        # The line's hostfile is the user's file of the cluster's nodes: the judge's. Without one,
        # DeepSpeed looks for /job/hostfile: there is none here.
        for i, w in enumerate(words):
            if w in ("-H", "--hostfile") and i + 1 < len(words):
                words[i + 1] = hostfile
            elif w.startswith("--hostfile="):
                words[i] = "--hostfile=" + hostfile
        argv = words + [user_script] + list(user_args)
        out = io.StringIO()
        patches = [
            mock.patch.object(runner, "DLTS_HOSTFILE", os.path.join(tmp, "absent")),
            mock.patch.object(runner, "encode_world_info", record),
            mock.patch.object(runner.subprocess, "check_call", lambda *a, **k: 0),
            mock.patch.object(runner.subprocess, "check_output", lambda *a, **k: b"10.0.0.1\n"),
            mock.patch.object(runner.subprocess, "Popen", lambda *a, **k: _Process()),
            mock.patch.object(runner.signal, "signal", lambda *a, **k: None),
            mock.patch.object(multinode_runner.shutil, "which", lambda name: f"/usr/bin/{name}"),
            mock.patch.object(_ACCELERATOR, "device_count", lambda: per_node, create=True),
            mock.patch.dict(os.environ, {}),
        ]
        with contextlib.ExitStack() as stack:
            for p in patches:
                stack.enter_context(p)
            for name in _ACCELERATOR.visible_devices_envs():
                os.environ.pop(name, None)
            try:
                with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
                    runner.main(argv)
            except SystemExit as exc:
                if exc.code not in (0, None):
                    said = out.getvalue().strip().splitlines()
                    return {"error": f"the runner exits {exc.code}: {said[-1] if said else ''}"}
            except (ValueError, RuntimeError, AssertionError) as exc:
                return {"error": _message(exc)}
    if "resources" not in seen:
        return {"error": "the runner started nothing"}
    return seen


# ---------------------------------------------------------------------------------------------
# 3. The model-parallel unit the notes name.

_TOPOLOGIES = {
    "PipeModelDataParallelTopology": ds_topology.PipeModelDataParallelTopology,
    "PipeDataParallelTopology": ds_topology.PipeDataParallelTopology,
    "ProcessTopology": ds_topology.ProcessTopology,
}


def _code_spans(notes):
    return [span for note in notes for span in re.findall(r"`([^`]+)`", note)]


def unit_of(notes):
    """What the notes tell train.py to pass: {"pipeline": bool, "topology": ProcessTopology,
    "expression": text, "sequence": c} or None when they name no unit."""
    for span in _code_spans(notes):
        text = span.strip()
        try:
            tree = ast.parse(text, mode="eval")
        except SyntaxError:
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in _TOPOLOGIES:
                args = [ast.literal_eval(a) for a in node.args]
                kwargs = {k.arg: ast.literal_eval(k.value) for k in node.keywords}
                sequence = 1
                for other in _code_spans(notes):
                    m = re.search(r"get_sequence_parallel_world_size\(\)\s*==?\s*(\d+)", other)
                    if m:
                        sequence = int(m.group(1))
                return {"pipeline": "PipelineModule(" in text,
                        "topology": _TOPOLOGIES[node.func.id](*args, **kwargs),
                        "expression": ast.get_source_segment(text, node), "sequence": sequence}
    return None


def _add_sequence_axis(grid, sequence):
    """The sequence-parallel axis the notes ask of train.py's unit when CP > 1: of the model axis'
    t·c ranks (TP fastest), those with the same TP index form the sequence group; with the data
    axis, the sequence-data-parallel group, over which deepspeed/utils/groups.py shards ZeRO and
    reduces gradients."""
    topo = grid._topo
    model = topo.get_dim("model")
    tp = model // sequence

    def same(rank, other, *, data):
        a, b = topo.get_coord(rank), topo.get_coord(other)
        if a.pipe != b.pipe or a.model % tp != b.model % tp:
            return False
        return data or a.data == b.data

    world = grid.world_size
    seq_dp_lists = sorted({tuple(r for r in range(world) if same(x, r, data=True)) for x in range(world)})
    seq_lists = sorted({tuple(r for r in range(world) if same(x, r, data=False)) for x in range(world)})
    mine = next(g for g in seq_dp_lists if grid.global_rank in g)
    seq_dp_group = ds_comm.new_group(ranks=list(mine))
    grid.get_sequence_parallel_world_size = lambda: sequence
    grid.get_sequence_data_parallel_group = lambda: seq_dp_group
    grid.get_sequence_data_parallel_world_size = lambda: len(mine)
    grid.sequence_data_parallel_groups = [list(g) for g in seq_dp_lists]
    grid.sequence_parallel_groups = [list(g) for g in seq_lists]


# ---------------------------------------------------------------------------------------------
# 5. The engine, as far as it decides the optimizer.


class _Recorded:
    """What an optimizer class was built with, in place of the optimizer."""

    def __init__(self, kind, args, kwargs):
        self.kind = kind
        self.args = args
        self.kwargs = kwargs
        self.param_groups = [{"params": []}]

    def __repr__(self):
        return f"<{self.kind}>"


class _Recorder:
    """A stand-in for an optimizer class: records each construction."""

    def __init__(self, kind, log):
        self.kind = kind
        self.log = log

    def __call__(self, *args, **kwargs):
        made = _Recorded(self.kind, args, kwargs)
        self.log.append(made)
        return made


def _basic_recorder(real, log):
    """FusedAdam / DeepSpeedCPUAdam: an object of the real type (is_zero_supported_optimizer and
    _configure_fp16_optimizer test the type), its constructor's arguments recorded."""

    def build(params, **kwargs):
        made = real.__new__(real)
        made.param_groups = [{"params": list(params)}]
        made.judge_kwargs = kwargs
        log.append(made)
        return made

    return build


def _base_init(self, args=None, model=None, optimizer=None, model_parameters=None, training_data=None,
               lr_scheduler=None, mpu=None, dist_init_required=None, collate_fn=None, config=None,
               config_class=None, mesh_device=None, dont_change_device=False):
    """DeepSpeedEngine.__init__'s own steps up to the optimizer, in its order, without the model's
    placement and broadcast (there is no model), the monitors or the checkpoint engine."""
    torch.nn.Module.__init__(self)
    self.dont_change_device = dont_change_device
    self.client_optimizer = optimizer
    self.client_lr_scheduler = lr_scheduler
    self.training_data = training_data
    self.collate_fn = collate_fn
    self.mpu = mpu
    self.config = config
    self._config = config_class
    self.gradient_average = config_class.gradient_allreduce_op == engine_module.GRADIENT_ALLREDUCE_OP_MEAN
    self.has_moe_layers = False
    self.num_experts = []
    self.optimizer = None
    self.basic_optimizer = None
    self.lr_scheduler = None
    self.mesh_device = mesh_device
    self._autoep_folding_spec = None
    self.pipeline_parallelism = isinstance(model, PipelineModule)
    self._do_sanity_check()
    self.local_rank = 0
    self.world_size = ds_comm.get_world_size()
    self.global_rank = ds_comm.get_rank()
    self.device = torch.device("cpu")
    self.module = model
    # _configure_distributed_model: the unit goes to groups, the groups come from it.
    if self.mpu is not None:
        groups.mpu = self.mpu
    self.local_all_to_all_group = None
    self.data_parallel_group = groups._get_data_parallel_group()
    self.dp_world_size = groups._get_data_parallel_world_size()
    self.seq_data_parallel_group = groups._get_sequence_data_parallel_group()
    self.seq_dp_world_size = groups._get_sequence_data_parallel_world_size()
    self.mp_world_size = groups._get_model_parallel_world_size()
    self.expert_parallel_group = None
    self.expert_data_parallel_group = None
    self.sequence_parallel_size = groups._get_sequence_parallel_world_size()
    self.param_names = {}
    self.timers = None
    configure_zenflow(self)
    if optimizer or self.optimizer_name():
        self._configure_optimizer(optimizer, list(self.module.parameters()))
    elif self.zero_optimization():
        self.optimizer = self._configure_zero_optimizer(optimizer=None)
    elif self.bfloat16_enabled():
        self.optimizer = self._configure_bf16_optimizer(optimizer=None)


def _dtype_bytes(dtype):
    return torch.tensor([], dtype=dtype).element_size()


def engine(config, unit, world, ep=None):
    """DeepSpeedConfig and the engine for `config` under `unit` (or none) on `world` processes.

    Returns the derived settings, or {"error", "stage"}."""
    backend = FakeBackend(world)
    ds_comm.cdb = backend
    _fresh_groups()
    out = {"accepted": False, "error": None, "stage": None}
    stage = "model-parallel unit"
    printed = io.StringIO()
    log = []
    try:
        with contextlib.redirect_stdout(printed), contextlib.ExitStack() as stack:
            model, mpu = torch.nn.Module(), None
            if unit is not None:
                if unit["pipeline"]:
                    stages = unit["topology"].get_dim("pipe")
                    model = PipelineModule(layers=[torch.nn.Identity() for _ in range(stages)],
                                           topology=unit["topology"], partition_method="uniform")
                    mpu = model.mpu()
                else:
                    mpu = ds_topology.PipelineParallelGrid(topology=unit["topology"])
                if unit["sequence"] > 1:
                    _add_sequence_axis(mpu, unit["sequence"])
            stage = "DeepSpeedConfig"
            ds_config = DeepSpeedConfig(config, mpu)
            stage = "engine"
            for name, real in (("FusedAdam", deepspeed.ops.adam.FusedAdam),
                               ("DeepSpeedCPUAdam", deepspeed.ops.adam.DeepSpeedCPUAdam)):
                stack.enter_context(mock.patch.object(deepspeed.ops.adam, name, _basic_recorder(real, log)))
            for name in ("DeepSpeedZeroOptimizer", "FP16_Optimizer", "FP16_UnfusedOptimizer", "BF16_Optimizer",
                         "DeepSpeedZeRoOffload"):
                stack.enter_context(mock.patch.object(engine_module, name, _Recorder(name, log)))
            stack.enter_context(mock.patch.object(stage3, "DeepSpeedZeroOptimizer_Stage3",
                                                  _Recorder("DeepSpeedZeroOptimizer_Stage3", log)))
            stack.enter_context(mock.patch.object(DeepSpeedEngine, "__init__", _base_init))
            cls = PipelineEngine if isinstance(model, PipelineModule) else DeepSpeedEngine
            eng = cls.__new__(cls)
            eng.__init__(args=None, model=model, mpu=mpu, config=config, config_class=ds_config)
            experts = None
            if ep is not None:
                stage = "MoE groups"
                said = []
                with mock.patch.object(groups, "log_dist", lambda message, ranks=None, **_: said.append(message)):
                    groups._create_expert_and_data_parallel(
                        ep, use_data_before_expert_parallel_=ds_config.use_data_before_expert_parallel_)
                experts = {"ep": _logged_groups(said, "creating expert parallel process group"),
                           "edp": _logged_groups(said, "Creating expert data parallel process group")}
    # DeepSpeed refuses with these (pydantic's ValidationError is a ValueError); anything else is
    # more likely a gap in the fakes above, and is left to reach the caller.
    except (AssertionError, ValueError, RuntimeError, NotImplementedError) as exc:
        out["error"] = _message(exc)
        out["stage"] = stage
        return out
    basic = [o for o in log if not isinstance(o, _Recorded)]
    wrappers = [o for o in log if isinstance(o, _Recorded)]
    wrapper = wrappers[-1] if wrappers else None
    kw = wrapper.kwargs if wrapper else {}
    if wrapper is None:
        shard, grad_dtype = 1, eng.get_data_types()[0]
    elif wrapper.kind in ("DeepSpeedZeroOptimizer", "DeepSpeedZeroOptimizer_Stage3"):
        shard = len(kw["dp_process_group"].ranks) if kw.get("dp_process_group") else world
        grad_dtype = kw["gradient_accumulation_dtype"]
    elif wrapper.kind == "BF16_Optimizer":
        shard = len(kw["dp_process_group"].ranks) if kw.get("dp_process_group") else world
        grad_dtype = kw["grad_acc_dtype"]
    else:
        # FP16_Optimizer (with BF16 too): every rank keeps all its states; gradients accumulate in
        # the parameters' own .grad, in the model's dtype. (DeepSpeedZeRoOffload, ZeRO 3 without
        # an optimizer, holds none.)
        shard, grad_dtype = 1, kw.get("low_precision_dtype", eng.get_data_types()[0])
    offload_config = kw.get("offload_optimizer_config")
    grid = mpu if mpu is not None else None
    out.update({
        "accepted": True,
        "dp": ds_config.world_size,
        "train_batch_size": ds_config.train_batch_size,
        "micro_batch_size": ds_config.train_micro_batch_size_per_gpu,
        "gradient_accumulation_steps": ds_config.gradient_accumulation_steps,
        "zero_stage": int(ds_config.zero_optimization_stage),
        "bf16": ds_config.bfloat16_config.enabled,
        "pipeline": isinstance(model, PipelineModule),
        "optimizer": type(basic[-1]).__name__ if basic else None,
        "optimizer_fp32_states": (basic[-1].judge_kwargs.get("fp32_optimizer_states", True) if basic else None),
        "wrapper": wrapper.kind if wrapper else None,
        "states_sharded_over": shard,
        # stage_1_and_2.py and stage3.py: the optimizer is offloaded when the ZeRO optimizer's
        # offload_optimizer_config names a device other than none.
        "offload": bool(wrapper and wrapper.kind.startswith("DeepSpeedZero") and offload_config is not None
                        and offload_config.device != OffloadDeviceEnum.none),
        "offload_named": ds_config.zero_config.offload_optimizer is not None,
        "grad_accum_bytes": _dtype_bytes(grad_dtype),
        "grad_reduce_bytes": _dtype_bytes(eng.communication_data_type),
        "groups": {
            "dp": grid.dp_groups if grid is not None else [list(range(world))],
            "pp": grid.pipe_groups if grid is not None else [[r] for r in range(world)],
        },
    })
    if grid is not None and hasattr(grid, "sequence_data_parallel_groups"):
        out["groups"]["dp-cp"] = grid.sequence_data_parallel_groups
    if experts is not None:
        out["groups"].update(experts)
    return out


def _logged_groups(messages, start):
    """The ranks of each group groups.py announced with `start` ("... with ranks: [0, 1]"): it
    keeps only the caller's own group, and announces every one it creates."""
    return sorted(ast.literal_eval(m.split("with ranks: ", 1)[1]) for m in messages if m.startswith(start))


def _message(exc):
    text = re.sub(r"\s+", " ", str(exc).strip())
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


# ---------------------------------------------------------------------------------------------


def split_line(words):
    """(launcher words after `deepspeed`, script, the script's words)."""
    for i, w in enumerate(words):
        if w.endswith(".py"):
            return list(words[1:i]), w, list(words[i + 1:])
    return list(words[1:]), None, []


def expert_parallel_of(notes):
    """The `ep_size` of the `MoE(...)` layers the notes name, or None."""
    for span in _code_spans(notes):
        m = re.search(r"\bMoE\(.*\bep_size=(\d+)", span)
        if m:
            return int(m.group(1))
    return None


def judge(out, per_node):
    """DeepSpeed's verdict on the lab's `--format json` object `out` on nodes of `per_node` cards.

    {"accepted", "error", "stage", "launch": {"resources"|"error"}, "script_args", "unit", and the
    derived settings (see engine())}."""
    launcher, script, script_words = split_line(out["args"])
    verdict = {"accepted": False, "error": None, "stage": "launcher"}
    if script is None:
        verdict["error"] = "no training script on the line"
        return verdict
    # Enough nodes for any line the lab could print, and two more.
    asked = _launcher_value(launcher, "--num_nodes")
    hosts = max(int(asked) if asked else 1, _include_hosts(launcher)) + 2
    started = launch(launcher, script, script_words, per_node, hosts)
    verdict["launch"] = started
    if "error" in started:
        verdict["error"] = started["error"]
        return verdict
    world = sum(len(slots) for slots in started["resources"].values())
    parser = deepspeed.add_config_arguments(argparse.ArgumentParser())
    parsed, unknown = parser.parse_known_args(script_words)
    verdict["script_args"] = {"deepspeed": parsed.deepspeed, "deepspeed_config": parsed.deepspeed_config,
                              "unknown": unknown}
    unit = unit_of(out.get("notes", []))
    verdict["unit"] = unit["expression"] if unit else None
    verdict["unit_pipeline"] = unit["pipeline"] if unit else False
    verdict["world"] = world
    verdict["ep_size"] = ep = expert_parallel_of(out.get("notes", []))
    result = engine(out["config"], unit, world, ep)
    verdict.update(result)
    return verdict


def _launcher_value(words, name):
    for i, w in enumerate(words):
        if w == name and i + 1 < len(words):
            return words[i + 1]
        if w.startswith(name + "="):
            return w.split("=", 1)[1]
    return None


def _include_hosts(words):
    text = _launcher_value(words, "--include") or _launcher_value(words, "-i") or ""
    numbers = [int(n) for n in re.findall(r"node-(\d+)", text)]
    return max(numbers, default=0)


if __name__ == "__main__":
    printed = json.load(sys.stdin)
    per_node = int(sys.argv[1]) if len(sys.argv) > 1 else 8
    result = judge(printed, per_node)
    json.dump(result, sys.stdout, indent=1, default=str)
    print()
