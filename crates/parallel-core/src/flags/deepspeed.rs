//! The DeepSpeed writer (DeepSpeed 0.19.8; every key and flag in `names`, with the file it was
//! read from): a `deepspeed … train.py --deepspeed --deepspeed_config ds_config.json` line that
//! starts one process on each card the plan uses, node by node as the cluster has them, and the
//! JSON config that states every setting the lab's report counts: the batch sizes, BF16, the
//! dtype gradients accumulate and are reduced in (the 16- or 18-byte ledger's g), AdamW, the ZeRO
//! stage and whether the optimizer is on the host. DeepSpeed's parallel degrees live in the
//! training script: the notes name the model-parallel unit it must pass for the batch sizes to
//! hold, and the MoE layers' expert-parallel size.

use serde::ser::{Serialize, SerializeMap, Serializer};
use serde_json::Value;

use super::names as n;
use super::output::{Flags, Note};
use crate::config::{Precision, RankOrder, Schedule};
use crate::flags::Engine;
use crate::plan::Plan;

/// The hostfile a multi-node line names (the user writes it: one line per node).
const HOSTFILE: &str = "hostfile";
/// The training script and the config file the shell text writes.
const SCRIPT: &str = "train.py";
const CONFIG_FILE: &str = "ds_config.json";

/// A JSON value whose objects keep their keys in the order written (serde_json's own map, as
/// this workspace builds it, sorts them).
enum Json {
    Leaf(Value),
    Object(Vec<(&'static str, Json)>),
}

impl Json {
    fn leaf(value: impl Into<Value>) -> Json {
        Json::Leaf(value.into())
    }
}

impl Serialize for Json {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Json::Leaf(value) => value.serialize(serializer),
            Json::Object(entries) => {
                let mut map = serializer.serialize_map(Some(entries.len()))?;
                for (key, value) in entries {
                    map.serialize_entry(key, value)?;
                }
                map.end()
            }
        }
    }
}

/// The launch of `plan` for DeepSpeed (the plan already passed DeepSpeed's rules).
pub(super) fn write(plan: &Plan) -> Flags {
    let mut notes = Vec::new();
    let mut args = launcher(plan, &mut notes);
    args.extend(
        [SCRIPT, n::DS_ENABLE, n::DS_CONFIG, CONFIG_FILE]
            .into_iter()
            .map(String::from),
    );
    unit_note(plan, &mut notes);
    if let Some(note) = schedule_note(plan) {
        notes.push(note);
    }
    notes.push(Note::new(
        "DeepSpeed 配置不设置重计算、序列长度和模型形状，也不设置优化器的 params（学习率、betas、权重衰减）：这些由训练脚本和你补上。",
        "The DeepSpeed config does not set recompute, the sequence length or the model's shape, nor the optimizer's params (learning rate, betas, weight decay): those are the training script's and yours to add.",
    ));
    let config = serde_json::to_string_pretty(&config(plan))
        .expect("an object of strings, numbers and booleans serializes");
    Flags {
        engine: Engine::DeepSpeed,
        args,
        config: Some(config),
        notes,
    }
}

/// ds_config.json: every setting the report counts, under DeepSpeed 0.19.8's keys.
fn config(plan: &Plan) -> Json {
    let d = plan.degrees();
    let (b, m) = (plan.micro_batch_size(), plan.micro_batches());
    let global = u64::from(d.dp) * u64::from(m) * u64::from(b);
    // The ledger's g: the dtype gradients accumulate in and the one they are reduced in (the
    // report's data-parallel traffic counts g bytes a gradient).
    let grads = match plan.precision() {
        Precision::Bf16Grads => n::DS_DTYPE_BF16,
        Precision::Fp32Grads => n::DS_DTYPE_FP32,
    };
    let object = |entries: Vec<(&'static str, Json)>| Json::Object(entries);
    let mut zero = vec![(n::DS_ZERO_STAGE, Json::leaf(plan.zero()))];
    if plan.optimizer_offload().on_host() {
        zero.push((
            n::DS_OFFLOAD_OPTIMIZER,
            object(vec![
                (n::DS_OFFLOAD_DEVICE, Json::leaf(n::DS_OFFLOAD_CPU)),
                (n::DS_PIN_MEMORY, Json::leaf(true)),
            ]),
        ));
    }
    object(vec![
        (n::DS_TRAIN_BATCH, Json::leaf(global)),
        (n::DS_MICRO_BATCH, Json::leaf(b)),
        (n::DS_ACCUMULATION_STEPS, Json::leaf(m)),
        (n::DS_BF16, object(vec![(n::DS_ENABLED, Json::leaf(true))])),
        (
            n::DS_DATA_TYPES,
            object(vec![(n::DS_GRAD_ACCUM_DTYPE, Json::leaf(grads))]),
        ),
        (n::DS_COMMUNICATION_DTYPE, Json::leaf(grads)),
        (
            n::DS_OPTIMIZER,
            object(vec![(n::DS_OPTIMIZER_TYPE, Json::leaf(n::DS_ADAMW))]),
        ),
        (n::DS_ZERO, object(zero)),
    ])
}

/// The launcher's words: `deepspeed --num_gpus N` on one node (DeepSpeed's local cards 0…N−1);
/// on several, a hostfile of the cluster's nodes with `--num_nodes K --num_gpus g` for whole
/// nodes, else `--include` naming every card (DeepSpeed's runner starts the same number of
/// processes on every node it is given with `--num_gpus`, and takes no `--num_nodes` beside
/// `--include`).
fn launcher(plan: &Plan, notes: &mut Vec<Note>) -> Vec<String> {
    let (gpus, per_node) = (plan.gpus(), plan.gpus_per_node());
    let mut words = vec!["deepspeed".to_string()];
    if gpus <= per_node {
        words.extend([n::DS_NUM_GPUS.to_string(), gpus.to_string()]);
        return words;
    }
    let (whole, rest) = (gpus / per_node, gpus % per_node);
    words.extend([n::DS_HOSTFILE.to_string(), HOSTFILE.to_string()]);
    let full = match whole {
        1 => ("node-1".to_string(), "node-1".to_string()),
        2 => (
            "node-1、node-2".to_string(),
            "node-1 and node-2".to_string(),
        ),
        _ => (
            format!("node-1 … node-{whole}"),
            format!("node-1 … node-{whole}"),
        ),
    };
    let spread = if rest == 0 {
        words.extend([
            n::DS_NUM_NODES.to_string(),
            whole.to_string(),
            n::DS_NUM_GPUS.to_string(),
            per_node.to_string(),
        ]);
        (
            format!("{} 的全部 {per_node} 张卡", full.0),
            format!("all {per_node} cards of {}", full.1),
        )
    } else {
        let mut hosts: Vec<String> = (1..=whole).map(|k| format!("node-{k}")).collect();
        let slots: Vec<String> = (0..rest).map(|s| s.to_string()).collect();
        hosts.push(format!("node-{}:{}", whole + 1, slots.join(",")));
        words.extend([n::DS_INCLUDE.to_string(), hosts.join("@")]);
        (
            format!("{} 的全部 {per_node} 张卡，再加 node-{} 的 {rest} 张（--include 逐张列出：--num_gpus 在每个节点上起同样多的进程，而且不能与 --include 同用）", full.0, whole + 1),
            format!("all {per_node} cards of {}, and {rest} of node-{} (--include names each card: --num_gpus starts as many processes on every node, and does not go with --include)", full.1, whole + 1),
        )
    };
    notes.push(Note::new(
        format!("hostfile 列出集群的节点，每行一个（`node-1 slots={per_node}`、`node-2 slots={per_node}` …，DeepSpeed runner 的 MPI 格式），请把 node-1 … 换成你的主机名；DeepSpeed 在 {gpus} 张卡上各起一个进程：{}。", spread.0),
        format!("The hostfile lists the cluster's nodes, one a line (`node-1 slots={per_node}`, `node-2 slots={per_node}`, …: the MPI style DeepSpeed's runner reads); rename node-1 … to your hosts. DeepSpeed starts one process on each of the {gpus} cards: {}.", spread.1),
    ));
    words
}

/// What train.py must pass for DeepSpeed to count d data-parallel replicas (its
/// `train_batch_size` check divides by the unit's data-parallel size, else by every process), and
/// the MoE layers' expert-parallel size.
fn unit_note(plan: &Plan, notes: &mut Vec<Note>) {
    let dg = plan.degrees();
    let (t, p, c, d, e) = (dg.tp, dg.pp, dg.cp, dg.dp, dg.ep);
    let (gpus, model_axis) = (plan.gpus(), dg.tp * dg.cp);
    let global =
        u64::from(d) * u64::from(plan.micro_batches()) * u64::from(plan.micro_batch_size());
    let pipe_outermost = p == 1 || d == 1 || plan.order() == RankOrder::TpCpDpPp;
    // PipeModelDataParallelTopology's axes are pipe, data, model (the last fastest): the lab's
    // tp-cp-dp-pp. The lab's tp-cp-pp-dp puts data outermost.
    let topology = if pipe_outermost {
        format!(
            "{}(num_pp={p}, num_mp={model_axis}, num_dp={d})",
            n::DS_PIPE_MODEL_DATA_TOPOLOGY
        )
    } else {
        format!(
            "{}(axes=['data', 'pipe', 'model'], dims=[{d}, {p}, {model_axis}])",
            n::DS_PROCESS_TOPOLOGY
        )
    };
    let axes = (
        format!("data 轴 {d}、pipe 轴 {p}、model 轴 TP {t} × CP {c} = {model_axis}（TP 最快），即实验室的顺序 {}", plan.order()),
        format!("data axis {d}, pipe axis {p}, model axis TP {t} × CP {c} = {model_axis} (TP fastest): the lab's order {}", plan.order()),
    );
    if p > 1 {
        notes.push(Note::new(
            format!("train_batch_size {global} = d·m·b 只在 DeepSpeed 数出数据并行大小 d = {d} 时成立：train.py 用 `{}(layers, topology={topology})` 建模型（deepspeed.initialize 把它的 model.mpu() 当作模型并行单元：{}）；只给 num_stages={p} 时 DeepSpeed 数出 {gpus}/{p} = {}，并拒绝这个批量。", n::DS_PIPELINE_MODULE, axes.0, gpus / p),
            format!("train_batch_size {global} = d·m·b holds only when DeepSpeed counts a data-parallel size of d = {d}: train.py builds its model as `{}(layers, topology={topology})` (deepspeed.initialize takes its model.mpu() as the model-parallel unit: {}); with num_stages={p} alone DeepSpeed counts {gpus}/{p} = {} and refuses the batch size.", n::DS_PIPELINE_MODULE, axes.1, gpus / p),
        ));
    } else if model_axis > 1 {
        notes.push(Note::new(
            format!("train_batch_size {global} = d·m·b 只在 DeepSpeed 数出数据并行大小 d = {d} 时成立：train.py 调用 `deepspeed.initialize(..., mpu={}(topology={topology}))`（或所用模型库自己的单元，其 get_data_parallel_world_size() 为 {d}；{}）；不给 mpu 时 DeepSpeed 数出全部 {gpus} 个进程，并拒绝这个批量。", n::DS_GRID, axes.0),
            format!("train_batch_size {global} = d·m·b holds only when DeepSpeed counts a data-parallel size of d = {d}: train.py calls `deepspeed.initialize(..., mpu={}(topology={topology}))` (or passes its model library's own unit whose get_data_parallel_world_size() is {d}; {}); without an mpu DeepSpeed counts all {gpus} processes and refuses the batch size.", n::DS_GRID, axes.1),
        ));
    }
    if c > 1 {
        let group = d * c;
        notes.push(Note::new(
            format!("CP = {c}：这个单元还要给出 `get_sequence_parallel_world_size() == {c}` 和 `get_sequence_data_parallel_group()`，即同一 TP 分片、同一段的 {group} 张卡：DeepSpeed 在这组卡上切分 ZeRO 状态并归约梯度（deepspeed/utils/groups.py），实验室也按 d·c = {group} 计算。Megatron-DeepSpeed 的单元有这两个方法，PipelineParallelGrid 没有；上下文并行的注意力由模型库实现。"),
            format!("CP {c}: the unit also reports `get_sequence_parallel_world_size() == {c}` and `get_sequence_data_parallel_group()`, the {group} cards of the same TP shard and stage, over which DeepSpeed shards the ZeRO states and reduces gradients (deepspeed/utils/groups.py), as the lab counts them over d·c = {group}. Megatron-DeepSpeed's unit has both; PipelineParallelGrid does not; the context-parallel attention is the model library's."),
        ));
    }
    if plan.model().is_moe() {
        notes.push(Note::new(
            format!("MoE 层用 DeepSpeed 的 `MoE(..., ep_size={e})`（deepspeed.moe.layer，不开专家张量并行）：每段内连续的 {e} 个 rank 组成专家并行组，与实验室的 EP 组相同。"),
            format!("The MoE layers are DeepSpeed's `MoE(..., ep_size={e})` (deepspeed.moe.layer, expert tensor parallelism off): {e} consecutive ranks of each stage form an expert-parallel group, the lab's EP groups."),
        ));
    }
}

/// DeepSpeed's pipeline engine runs one schedule: a plan's GPipe or interleaved schedule is not
/// a setting it has.
fn schedule_note(plan: &Plan) -> Option<Note> {
    let p = plan.degrees().pp;
    let (zh, en) = match plan.schedule() {
        _ if p <= 1 => return None,
        Schedule::Gpipe => ("GPipe", "GPipe"),
        Schedule::Interleaved if plan.virtual_stages() > 1 => ("interleaved", "interleaved"),
        _ => return None,
    };
    Some(Note::new(
        format!("DeepSpeed 的流水线引擎只跑它自己的 TrainSchedule（1F1B：每段至多 {p} 个 micro-batch 在飞）：方案的 {zh} 调度不是 DeepSpeed 的设置。"),
        format!("DeepSpeed's pipeline engine runs its own TrainSchedule (1F1B: at most {p} micro-batches in flight a stage): the plan's {en} schedule is not a DeepSpeed setting."),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{OptimizerOffload, PlanConfig};

    fn plan(config: PlanConfig) -> Plan {
        Plan::new(&config).expect("a valid plan")
    }

    #[test]
    fn the_config_keeps_its_keys_in_reading_order() {
        let p = plan(PlanConfig {
            gpus: 16,
            zero: 3,
            optimizer_offload: OptimizerOffload::Cpu,
            precision: Precision::Fp32Grads,
            ..PlanConfig::default()
        });
        let text = serde_json::to_string(&config(&p)).expect("serializes");
        assert_eq!(
            text,
            r#"{"train_batch_size":128,"train_micro_batch_size_per_gpu":1,"gradient_accumulation_steps":8,"bf16":{"enabled":true},"data_types":{"grad_accum_dtype":"fp32"},"communication_data_type":"fp32","optimizer":{"type":"AdamW"},"zero_optimization":{"stage":3,"offload_optimizer":{"device":"cpu","pin_memory":true}}}"#
        );
    }

    #[test]
    fn the_launcher_spreads_cards_as_the_nodes_hold_them() {
        let words = |gpus, gpus_per_node| {
            let mut notes = Vec::new();
            launcher(
                &plan(PlanConfig {
                    gpus,
                    gpus_per_node,
                    ..PlanConfig::default()
                }),
                &mut notes,
            )
            .join(" ")
        };
        assert_eq!(words(4, 8), "deepspeed --num_gpus 4");
        assert_eq!(
            words(16, 8),
            "deepspeed --hostfile hostfile --num_nodes 2 --num_gpus 8"
        );
        assert_eq!(
            words(12, 8),
            "deepspeed --hostfile hostfile --include node-1@node-2:0,1,2,3"
        );
    }
}
