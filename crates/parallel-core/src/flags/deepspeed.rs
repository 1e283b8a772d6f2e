//! The DeepSpeed writer: a `deepspeed … train.py --deepspeed --deepspeed_config ds_config.json`
//! line and the JSON config (keys from deepspeed/runtime/constants.py and
//! deepspeed/runtime/zero/config.py, offload_config.py @ edaa722126). DeepSpeed's
//! parallel degrees live in the training script (its `PipelineModule`, a tensor-parallel
//! library), not in the config: those are notes.

use super::names as n;
use super::output::{Flags, Note};
use crate::config::OptimizerOffload;
use crate::flags::Engine;
use crate::plan::Plan;

/// The launch of `plan` for DeepSpeed (the plan already passed DeepSpeed's rule).
pub(super) fn write(plan: &Plan) -> Flags {
    let d = plan.degrees();
    let mut notes = Vec::new();
    let (gpus, per_node) = (plan.gpus(), plan.gpus_per_node());
    let (nodes, per_node) = if gpus % per_node == 0 {
        (gpus / per_node, per_node)
    } else {
        (1, gpus)
    };
    let b = plan.micro_batch_size();
    let m = plan.micro_batches();
    let global = u64::from(d.dp) * u64::from(m) * u64::from(b);
    let offload = plan.optimizer_offload() == OptimizerOffload::Cpu && plan.zero() >= 1;
    if plan.optimizer_offload() == OptimizerOffload::Cpu && plan.zero() == 0 {
        notes.push(Note::new(
            "DeepSpeed 只在 ZeRO 1–3 下把优化器卸载到 CPU：ZeRO 0 的配置没有写 offload_optimizer。",
            "DeepSpeed offloads the optimizer only under ZeRO 1–3: the ZeRO-0 config has no offload_optimizer.",
        ));
    }
    let offload_text = if offload {
        ",\n    \"offload_optimizer\": {\n      \"device\": \"cpu\"\n    }"
    } else {
        ""
    };
    let config = format!(
        "{{\n  \"train_batch_size\": {global},\n  \"train_micro_batch_size_per_gpu\": {b},\n  \"gradient_accumulation_steps\": {m},\n  \"bf16\": {{\n    \"enabled\": true\n  }},\n  \"zero_optimization\": {{\n    \"stage\": {}{offload_text}\n  }}\n}}",
        plan.zero()
    );
    if d.tp > 1 || d.pp > 1 || d.cp > 1 || plan.model().is_moe() {
        notes.push(Note::new(
            format!("TP {} / PP {} / CP {} / EP {} 不在 DeepSpeed 配置里：流水线由训练脚本的 PipelineModule(num_stages={}) 决定，张量、上下文和专家并行由所用的模型库决定。", d.tp, d.pp, d.cp, d.ep, d.pp),
            format!("TP {} / PP {} / CP {} / EP {} are not DeepSpeed config keys: the pipeline is the training script's PipelineModule(num_stages={}), and tensor, context and expert parallelism come from the model library it uses.", d.tp, d.pp, d.cp, d.ep, d.pp),
        ));
    }
    notes.push(Note::new(
        "DeepSpeed 配置不设置重计算、序列长度、模型形状和精度账本（16 或 18 字节）：这些在训练脚本里。",
        "The DeepSpeed config does not set recompute, sequence length, the model's shape or the 16- or 18-byte ledger: those are in the training script.",
    ));
    let args = [
        "deepspeed".to_string(),
        n::DS_NUM_NODES.to_string(),
        nodes.to_string(),
        n::DS_NUM_GPUS.to_string(),
        per_node.to_string(),
        "train.py".to_string(),
        n::DS_ENABLE.to_string(),
        n::DS_CONFIG.to_string(),
        "ds_config.json".to_string(),
    ]
    .to_vec();
    Flags {
        engine: Engine::DeepSpeed,
        args,
        config: Some(config),
        notes,
    }
}
