//! The Megatron-LM and slime writer: a plan as `torchrun … pretrain_gpt.py …` (Megatron-LM)
//! or `python3 train.py …` (slime), flag by flag in SPEC §16's order. Names are in `names`.

use super::kinds::Engine;
use super::model::model_args;
use super::names as n;
use super::output::{Flags, Note};
use crate::config::{OptimizerOffload, Precision, RankOrder, Recompute, Schedule};
use crate::plan::Plan;

/// The layers as Megatron's pipeline split counts them: L, or L + 2 when an interleaved plan
/// needs one slot each for the embedding and the loss (the lab's "L + 2 divisible by p·v").
pub(super) fn megatron_layers(plan: &Plan) -> u32 {
    let layers = plan.model().layers;
    if accounts_embedding_and_loss(plan) {
        layers + 2
    } else {
        layers
    }
}

/// Whether an interleaved plan needs `--account-for-embedding-in-pipeline-split` and
/// `--account-for-loss-in-pipeline-split`: L is not divisible by p·v (so L + 2 is).
fn accounts_embedding_and_loss(plan: &Plan) -> bool {
    let chunks = u64::from(plan.degrees().pp) * u64::from(plan.virtual_stages());
    interleaved(plan) && u64::from(plan.model().layers) % chunks != 0
}

/// Whether Megatron runs `plan` interleaved: the interleaved schedule with v > 1 (with one
/// chunk per stage, Megatron sets no virtual pipeline and runs plain 1F1B, as the lab's
/// figures for v = 1 are 1F1B's).
pub(super) fn interleaved(plan: &Plan) -> bool {
    plan.schedule() == Schedule::Interleaved && plan.virtual_stages() > 1
}

/// The expert layers' data-parallel size in Megatron-Core's expert mesh, N/(etp·e·p): etp = 1
/// and e as written for a MoE model, etp = t and e = 1 (Megatron's defaults) for a dense one.
pub(super) fn expert_dp(plan: &Plan) -> u32 {
    let d = plan.degrees();
    let (etp, ep) = if plan.model().is_moe() {
        (1, d.ep)
    } else {
        (d.tp, 1)
    };
    plan.gpus() / (etp * ep * d.pp).max(1)
}

/// Whether Megatron-Core refuses the plan's order as written: tp-cp-pp-dp (not pp-last) with
/// p > 1 and the expert mesh's data-parallel size other than d.
pub(super) fn order_clash(plan: &Plan) -> bool {
    let d = plan.degrees();
    plan.order() == RankOrder::TpCpPpDp && d.pp > 1 && expert_dp(plan) != d.dp
}

/// Whether the Megatron writer uses the pp-last order tp-cp-dp-pp for a tp-cp-pp-dp plan
/// that Megatron refuses as written: at d = 1 the two orders give every card the same groups.
pub(super) fn pp_last_instead(plan: &Plan) -> bool {
    order_clash(plan) && plan.degrees().dp == 1
}

/// The rank order the Megatron-LM and slime lines launch `plan` in: its own, or Megatron's
/// pp-last tp-cp-dp-pp where Megatron refuses tp-cp-pp-dp and d = 1 (the same groups).
pub fn launch_order(plan: &Plan) -> RankOrder {
    if pp_last_instead(plan) {
        RankOrder::TpCpDpPp
    } else {
        plan.order()
    }
}

/// Whether the line sets `CUDA_DEVICE_MAX_CONNECTIONS=1`: Megatron's `validate_args` requires
/// it when t or c > 1 (on cards before Blackwell; harmless after), except with Megatron-FSDP
/// (ZeRO 2 and 3), which requires it unset.
fn single_connection(plan: &Plan) -> bool {
    let d = plan.degrees();
    (d.tp > 1 || d.cp > 1) && plan.zero() < 2
}

struct Args(Vec<String>);

impl Args {
    fn flag(&mut self, name: &str) {
        self.0.push(name.to_string());
    }
    fn value(&mut self, name: &str, value: impl ToString) {
        self.0.push(name.to_string());
        self.0.push(value.to_string());
    }
}

/// Nodes and cards per node for a launcher: N/g × g when g divides N; else the largest
/// common divisor, with a note (a launcher starts the same number of processes per node).
fn nodes(plan: &Plan, notes: &mut Vec<Note>) -> (u32, u32) {
    let (gpus, per_node) = (plan.gpus(), plan.gpus_per_node());
    if gpus % per_node == 0 {
        return (gpus / per_node, per_node);
    }
    let mut g = gcd(gpus, per_node);
    if gpus < per_node {
        g = gpus;
    }
    notes.push(Note::new(
        format!("{gpus} 张卡不是每节点 {per_node} 张的整数个节点：启动器每节点起同样多的进程，命令写成 {} 个节点 × {g} 张。", gpus / g),
        format!("{gpus} cards are not whole nodes of {per_node}: a launcher starts as many processes on every node, so the command runs {} nodes × {g}.", gpus / g),
    ));
    (gpus / g, g)
}

fn gcd(a: u32, b: u32) -> u32 {
    if b == 0 {
        a.max(1)
    } else {
        gcd(b, a % b)
    }
}

/// The launch of `plan` for Megatron-LM or slime (the plan already passed the engine's rules).
pub(super) fn write(plan: &Plan, engine: Engine) -> Flags {
    let mut notes = Vec::new();
    let mut a = Args(Vec::new());
    let (node_count, per_node) = nodes(plan, &mut notes);
    if single_connection(plan) {
        a.flag(n::SINGLE_CONNECTION);
    }
    if engine == Engine::Slime {
        a.0.extend(["python3".to_string(), "train.py".to_string()]);
        a.value(n::ACTOR_NODES, node_count);
        a.value(n::ACTOR_GPUS_PER_NODE, per_node);
    } else {
        a.flag("torchrun");
        a.value(n::NNODES, node_count);
        a.value(n::NPROC_PER_NODE, per_node);
        a.flag("pretrain_gpt.py");
    }
    let c = plan.config();
    let d = plan.degrees();
    let model = plan.model();
    a.value(n::TP, d.tp);
    a.value(n::PP, d.pp);
    a.value(n::CP, d.cp);
    if model.is_moe() {
        a.value(n::EP, d.ep);
        a.value(n::ETP, 1);
    }
    if plan.sequence_parallel() {
        a.flag(n::SEQUENCE_PARALLEL);
    }
    if pp_last_instead(plan) {
        notes.push(Note::new(
            "Megatron-Core 拒绝 --use-tp-pp-dp-mapping（注意力层与专家层的 DP 大小不同）；DP = 1 时两种顺序的分组完全相同，所以命令用 Megatron 默认的 tp-cp-dp-pp 顺序。",
            "Megatron-Core refuses --use-tp-pp-dp-mapping here (the attention and expert layers' data-parallel sizes differ); with DP 1 both orders give every card the same groups, so the command keeps Megatron's default order tp-cp-dp-pp.",
        ));
    } else if plan.order() == RankOrder::TpCpPpDp {
        a.flag(n::TP_PP_DP_MAPPING);
    }
    let b = plan.micro_batch_size();
    let global = u64::from(d.dp) * u64::from(plan.micro_batches()) * u64::from(b);
    a.value(n::MICRO_BATCH, b);
    a.value(n::GLOBAL_BATCH, global);
    a.value(n::SEQ_LENGTH, plan.seq_len());
    a.value(n::MAX_POSITIONS, plan.seq_len());
    match plan.schedule() {
        Schedule::Interleaved if !interleaved(plan) => notes.push(Note::new(
            "每段只有 1 个模型块的 interleaved 就是 1F1B：命令里不写虚拟流水线。",
            "Interleaved with one model chunk per stage is 1F1B: the command sets no virtual pipeline.",
        )),
        Schedule::Interleaved => {
            if accounts_embedding_and_loss(plan) {
                a.flag(n::ACCOUNT_EMBEDDING);
                a.flag(n::ACCOUNT_LOSS);
            }
            let chunks = d.pp * plan.virtual_stages();
            a.value(n::LAYERS_PER_VIRTUAL_STAGE, megatron_layers(plan) / chunks);
        }
        Schedule::Gpipe => notes.push(Note::new(
            "Megatron-LM 没有 GPipe 调度，流水线按 1F1B 运行：在飞 micro-batch 从 m 个降到 min(m, p) 个。",
            "Megatron-LM has no GPipe schedule: the pipeline runs 1F1B, holding min(m, p) micro-batches in flight instead of m.",
        )),
        Schedule::OneFOneB => {}
    }
    match plan.recompute() {
        Recompute::Full => {
            a.value(n::RECOMPUTE_GRANULARITY, "full");
            a.value(n::RECOMPUTE_METHOD, "uniform");
            a.value(n::RECOMPUTE_NUM_LAYERS, 1);
        }
        Recompute::Selective => a.value(n::RECOMPUTE_GRANULARITY, "selective"),
        Recompute::None => {}
    }
    match plan.zero() {
        1 => a.flag(n::DISTRIBUTED_OPTIMIZER),
        2 => {
            a.flag(n::MEGATRON_FSDP);
            a.value(n::SHARDING, "optim_grads");
            a.value(n::CKPT_FORMAT, "fsdp_dtensor");
        }
        3 => {
            a.flag(n::MEGATRON_FSDP);
            a.value(n::SHARDING, "optim_grads_params");
            a.value(n::CKPT_FORMAT, "fsdp_dtensor");
        }
        _ => {}
    }
    if plan.optimizer_offload() == OptimizerOffload::Cpu {
        a.flag(n::CPU_OFFLOAD);
        a.flag(n::OVERLAP_D2H_H2D);
        a.flag(n::PRECISION_AWARE);
    }
    a.flag(n::BF16);
    if plan.precision() == Precision::Bf16Grads {
        a.flag(n::GRAD_REDUCE_BF16);
    }
    model_args(&c.model, model, d.tp, &mut a.0, &mut notes);
    rollout_args(c, engine, &mut a, &mut notes);
    notes.push(Note::new(
        "显存容量、NVLink/网络/PCIe 带宽和主机内存是集群本身的，不是启动参数；数据、分词器、学习率等训练设置由你补上。",
        "The card's memory, the NVLink, network and PCIe bandwidths and the host memory are the cluster's, not launch flags; data, tokenizer, learning rate and the other training settings are yours to add.",
    ));
    Flags {
        engine,
        args: a.0,
        config: None,
        notes,
    }
}

fn rollout_args(c: &crate::PlanConfig, engine: Engine, a: &mut Args, notes: &mut Vec<Note>) {
    if engine == Engine::Megatron {
        if c.rollout.is_some() || c.log_probs_chunk > 0 {
            notes.push(Note::new(
                "Megatron-LM 只训练：推理引擎和 log-prob 分块属于 slime（--engine slime）。",
                "Megatron-LM only trains: the rollout engines and the log-prob chunks are slime's (--engine slime).",
            ));
        }
        return;
    }
    match c.rollout {
        Some(r) => {
            a.value(n::GPUS_PER_ENGINE, r.gpus_per_engine);
            if r.colocated() {
                a.flag(n::COLOCATE);
            } else {
                a.value(n::ROLLOUT_GPUS, r.rollout_gpus);
            }
            a.value(n::ROLLOUT_BATCH, r.prompts);
            a.value(n::SAMPLES_PER_PROMPT, r.samples_per_prompt);
            a.value(n::MAX_PROMPT, r.prompt_len);
            a.value(n::MAX_RESPONSE, r.response_len);
            if r.kv_bytes != 2 {
                notes.push(Note::new(
                    format!("KV 缓存每个值 {} 字节：SGLang 的 KV 缓存精度没有写进命令，引擎默认用模型的 BF16。", r.kv_bytes),
                    format!("KV cache at {} bytes a value: SGLang's KV cache dtype is not written, and the engine keeps the model's BF16.", r.kv_bytes),
                ));
            }
        }
        None => notes.push(Note::new(
            "方案没有推理引擎：slime 还需要 --rollout-batch-size 等 rollout 参数。",
            "The plan has no rollout engines: slime still needs --rollout-batch-size and the other rollout flags.",
        )),
    }
    if c.log_probs_chunk > 0 {
        a.value(n::LOG_PROBS_CHUNK, c.log_probs_chunk);
    }
}
