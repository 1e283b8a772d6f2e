//! The keys of every field, and reading them back.

use super::*;

#[test]
fn every_field_writes_its_key() {
    let plain = [
        "model",
        "gpus",
        "gpus_per_node",
        "tp",
        "pp",
        "cp",
        "ep",
        "micro_batches",
        "micro_batch_size",
        "seq_len",
        "zero",
        "recompute",
        "schedule",
        "virtual_stages",
        "precision",
        "gpu_memory_gb",
        "nvlink_gbps",
        "ib_gbps",
        "order",
        "accounting",
        "gpu_tflops",
        "global_batch",
        "hardware",
        "hbm_tbps",
        "peak_tflops",
        "matmul_efficiency",
        "nvlink_latency_us",
        "ib_latency_us",
        "optimizer_offload",
        "pcie_gbps",
        "host_memory_gb",
        "rollout",
        "log_probs_chunk",
        "routing_skew",
        "capacity_factor",
        "sequence_parallel",
        "runtime_memory",
        "sequence_skew",
    ];
    let keys: Vec<String> = Field::PLAIN.into_iter().map(Field::key).collect();
    assert_eq!(keys, plain);
    let model = [
        "params",
        "hidden",
        "layers",
        "heads",
        "kv_heads",
        "head_dim",
        "full_attention_layers",
        "ffn",
        "mlp",
        "vocab",
        "tied_embeddings",
        "moe_layers",
        "experts",
        "top_k",
        "expert_ffn",
        "shared_experts",
        "kv_lora_rank",
        "qk_rope_head_dim",
        "q_lora_rank",
        "qk_nope_head_dim",
        "v_head_dim",
        "linear_num_key_heads",
        "linear_num_value_heads",
        "linear_key_head_dim",
        "linear_value_head_dim",
        "linear_conv_kernel_dim",
    ];
    assert_eq!(ModelField::ALL.len(), model.len());
    for (field, name) in ModelField::ALL.into_iter().zip(model) {
        assert_eq!(Field::InlineModel(field).key(), format!("model.{name}"));
    }
    let rollout = [
        "gpus_per_engine",
        "rollout_gpus",
        "prompts",
        "samples_per_prompt",
        "prompt_len",
        "response_len",
        "kv_bytes",
        "pool",
    ];
    for (field, name) in RolloutField::ALL.into_iter().zip(rollout) {
        assert_eq!(Field::InRollout(field).key(), format!("rollout.{name}"));
    }
    let bench = ["tokens", "hidden", "ffn", "tp"];
    for (field, name) in BenchField::ALL.into_iter().zip(bench) {
        assert_eq!(Field::Bench(field).key(), name);
    }
    assert_eq!(
        Field::HfConfig("num_key_value_heads").key(),
        "model.hf_config.num_key_value_heads"
    );
    assert_eq!(Field::Card.key(), "card");
    assert_eq!(Field::Command.key(), "command");
    assert_eq!(
        Field::Flag("--tensor-model-parallel-size").key(),
        "--tensor-model-parallel-size"
    );
}

#[test]
fn every_key_the_lab_writes_reads_back() {
    let fields = Field::PLAIN
        .into_iter()
        .chain(ModelField::ALL.map(Field::InlineModel))
        .chain(RolloutField::ALL.map(Field::InRollout))
        .chain([Field::Card, Field::Command])
        .chain([BenchField::Tokens, BenchField::Hidden, BenchField::Ffn].map(Field::Bench));
    for field in fields {
        assert_eq!(Field::from_key(&field.key()), Some(field), "{field}");
    }
    // The bench's t is written as the plan's.
    assert_eq!(Field::from_key("tp"), Some(Field::Tp));
    for external in [
        "model.hf_config.head_dim",
        "--num-layers",
        "model.unknown",
        "rollout.",
        "",
    ] {
        assert_eq!(Field::from_key(external), None, "{external}");
    }
}

#[test]
fn a_field_serializes_as_its_key() {
    let json = serde_json::to_string(&[Field::Tp, Field::InRollout(RolloutField::KvBytes)]);
    assert_eq!(json.unwrap(), r#"["tp","rollout.kv_bytes"]"#);
}
