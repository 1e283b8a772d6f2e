//! Every flag and config key the lab writes or reads, spelled once, each with the source it
//! was read from. Pinned sources (read at these commits, not guessed):
//!
//! - Megatron-LM, NVIDIA/Megatron-LM @ d98e8a64ddf34856e74b24714e3bedb2f5a39553
//!   (`core_v0.15.0rc7-2333-gd98e8a64dd`, 2026-08-22). `megatron/training/arguments.py` adds
//!   some flags by hand and builds the rest from dataclasses with `ArgumentGroupFactory`
//!   (`megatron/training/argument_utils.py`: a field `a_b` becomes `--a-b`, a `bool` field
//!   defaulting to false a `store_true` switch): `TransformerConfig`
//!   (`megatron/core/transformer/transformer_config.py`, which extends `ModelParallelConfig`,
//!   `megatron/core/model_parallel_config.py`), `DistributedInitConfig`
//!   (`megatron/training/config/common_config.py`), `TrainingConfig` and `TokenizerConfig`
//!   (`megatron/training/config/training_config.py`).
//! - slime, THUDM/slime @ 624b824a898ab0ec1fcb4d373004c7f3852bf515 (`v0.3.1-38-g624b824a8`):
//!   `slime/utils/arguments.py`.
//! - DeepSpeed 0.19.8 (the PyPI release `scripts/setup.sh` installs and `tests/deepspeed` runs):
//!   `deepspeed/runtime/constants.py`, `deepspeed/runtime/config.py`,
//!   `deepspeed/runtime/zero/config.py`, `deepspeed/runtime/zero/offload_config.py`,
//!   `deepspeed/runtime/pipe/{module,topology}.py`, `deepspeed/launcher/runner.py`,
//!   `deepspeed/__init__.py`.
//! - torchrun's `--nnodes` and `--nproc-per-node` are PyTorch's (`torch/distributed/run.py`),
//!   not Megatron's; Megatron's own example scripts pass them (`examples/gpt3/
//!   train_gpt3_175b_distributed.sh`, spelled `--nproc_per_node`, which torchrun also takes).

// ---- degrees: ModelParallelConfig fields (model_parallel_config.py) ----
/// `tensor_model_parallel_size` (ModelParallelConfig).
pub const TP: &str = "--tensor-model-parallel-size";
/// `pipeline_model_parallel_size` (ModelParallelConfig).
pub const PP: &str = "--pipeline-model-parallel-size";
/// `context_parallel_size` (ModelParallelConfig).
pub const CP: &str = "--context-parallel-size";
/// `expert_model_parallel_size` (ModelParallelConfig).
pub const EP: &str = "--expert-model-parallel-size";
/// `expert_tensor_parallel_size` (ModelParallelConfig).
pub const ETP: &str = "--expert-tensor-parallel-size";
/// `sequence_parallel` (ModelParallelConfig, bool).
pub const SEQUENCE_PARALLEL: &str = "--sequence-parallel";
/// `use_tp_pp_dp_mapping` (DistributedInitConfig, common_config.py, bool).
pub const TP_PP_DP_MAPPING: &str = "--use-tp-pp-dp-mapping";

// ---- batch: TrainingConfig (training_config.py); seq-length by hand (arguments.py) ----
/// `micro_batch_size` (TrainingConfig).
pub const MICRO_BATCH: &str = "--micro-batch-size";
/// `global_batch_size` (TrainingConfig).
pub const GLOBAL_BATCH: &str = "--global-batch-size";
/// arguments.py `_add_data_args`.
pub const SEQ_LENGTH: &str = "--seq-length";
/// arguments.py `_add_network_size_args`; `validate_args` requires it (megatron-core 0.19.2,
/// even with RoPE) and asserts it is at least `seq_length`.
pub const MAX_POSITIONS: &str = "--max-position-embeddings";
/// The environment variable `validate_args` requires to be 1 when t or c > 1 on cards before
/// Blackwell, and not 1 with Megatron-FSDP (arguments.py, megatron-core 0.19.2).
pub const SINGLE_CONNECTION: &str = "CUDA_DEVICE_MAX_CONNECTIONS=1";

// ---- the interleaved schedule ----
/// arguments.py `_add_distributed_args`.
pub const LAYERS_PER_VIRTUAL_STAGE: &str = "--num-layers-per-virtual-pipeline-stage";
/// `account_for_embedding_in_pipeline_split` (TransformerConfig, bool).
pub const ACCOUNT_EMBEDDING: &str = "--account-for-embedding-in-pipeline-split";
/// `account_for_loss_in_pipeline_split` (TransformerConfig, bool).
pub const ACCOUNT_LOSS: &str = "--account-for-loss-in-pipeline-split";

// ---- recompute: TransformerConfig ----
/// `recompute_granularity` (TransformerConfig, "full" | "selective").
pub const RECOMPUTE_GRANULARITY: &str = "--recompute-granularity";
/// `recompute_method` (TransformerConfig, "uniform" | "block").
pub const RECOMPUTE_METHOD: &str = "--recompute-method";
/// `recompute_num_layers` (TransformerConfig).
pub const RECOMPUTE_NUM_LAYERS: &str = "--recompute-num-layers";

// ---- ZeRO ----
/// arguments.py `_add_distributed_args`.
pub const DISTRIBUTED_OPTIMIZER: &str = "--use-distributed-optimizer";
/// `use_megatron_fsdp` (DistributedInitConfig, bool).
pub const MEGATRON_FSDP: &str = "--use-megatron-fsdp";
/// arguments.py `_add_distributed_args`: no_shard, optim, optim_grads, optim_grads_params.
pub const SHARDING: &str = "--data-parallel-sharding-strategy";
/// arguments.py `_add_checkpointing_args`; `validate_args` asserts "Megatron-FSDP requires the
/// `fsdp_dtensor` checkpointing format" (megatron-core 0.19.2).
pub const CKPT_FORMAT: &str = "--ckpt-format";

// ---- offload (seed 000's recipes): arguments.py ----
/// arguments.py `_add_training_args`.
pub const CPU_OFFLOAD: &str = "--optimizer-cpu-offload";
/// arguments.py `_add_training_args`.
pub const OVERLAP_D2H_H2D: &str = "--overlap-cpu-optimizer-d2h-h2d";
/// arguments.py `_add_experimental_args`; validate_args requires it with the CPU offload.
pub const PRECISION_AWARE: &str = "--use-precision-aware-optimizer";

// ---- precision ----
/// `bf16` (ModelParallelConfig, bool).
pub const BF16: &str = "--bf16";
/// arguments.py `_add_mixed_precision_args`.
pub const GRAD_REDUCE_BF16: &str = "--grad-reduce-in-bf16";

// ---- the model: TransformerConfig unless said ----
/// `num_layers`.
pub const NUM_LAYERS: &str = "--num-layers";
/// `hidden_size`.
pub const HIDDEN: &str = "--hidden-size";
/// `ffn_hidden_size` (default 4·hidden, `TransformerConfig.__post_init__`).
pub const FFN: &str = "--ffn-hidden-size";
/// `num_attention_heads`.
pub const HEADS: &str = "--num-attention-heads";
/// arguments.py `_add_network_size_args`.
pub const GQA: &str = "--group-query-attention";
/// `num_query_groups`.
pub const QUERY_GROUPS: &str = "--num-query-groups";
/// `kv_channels` (default hidden/heads).
pub const KV_CHANNELS: &str = "--kv-channels";
/// `vocab_size` (TokenizerConfig, training_config.py).
pub const VOCAB: &str = "--vocab-size";
/// arguments.py `_add_network_size_args` (megatron-core 0.19.2, default 128): Megatron pads
/// the vocabulary to a multiple of this × tensor_model_parallel_size
/// (`vocab_size_with_padding`, megatron/core/tokenizers/utils/build_tokenizer.py).
pub const VOCAB_DIVISOR: &str = "--make-vocab-size-divisible-by";
/// arguments.py `_add_network_size_args`: a gated SiLU MLP (`gated_linear_unit` and
/// `activation_func` silu in `core_transformer_config_from_args`); without it, GeLU and two
/// matrices.
pub const SWIGLU: &str = "--swiglu";
/// `normalization` (TransformerConfig: "LayerNorm" by default, or "RMSNorm").
pub const NORMALIZATION: &str = "--normalization";
/// `add_bias_linear` (TransformerConfig, default true; its flag stores false).
pub const NO_BIAS: &str = "--disable-bias-linear";
/// arguments.py `_add_network_size_args` (default "learned_absolute"; "rope" adds no
/// parameter).
pub const POSITION_EMBEDDING: &str = "--position-embedding-type";
/// arguments.py `_add_network_size_args` (default 10,000).
pub const ROTARY_BASE: &str = "--rotary-base";
/// `qk_layernorm` (TransformerConfig, bool): a norm on each head's queries and keys.
pub const QK_NORM: &str = "--qk-layernorm";
/// `moe_router_pre_softmax` (TransformerConfig): `__post_init__` raises "Please use
/// --moe-router-pre-softmax when topk is 1" for a softmax router at top-1.
pub const PRE_SOFTMAX: &str = "--moe-router-pre-softmax";
/// arguments.py `_add_network_size_args`.
pub const UNTIE: &str = "--untie-embeddings-and-output-weights";
/// arguments.py `_add_moe_args` (`num_moe_experts` in TransformerConfig).
pub const NUM_EXPERTS: &str = "--num-experts";
/// `moe_router_topk`.
pub const TOPK: &str = "--moe-router-topk";
/// `moe_ffn_hidden_size`.
pub const MOE_FFN: &str = "--moe-ffn-hidden-size";
/// `moe_shared_expert_intermediate_size` (all shared experts together).
pub const SHARED_FFN: &str = "--moe-shared-expert-intermediate-size";
/// arguments.py `_add_moe_args` (`moe_freq_type`: N, or a pattern such as `"([0]*3+[1]*58)"`).
pub const MOE_LAYER_FREQ: &str = "--moe-layer-freq";
/// `experimental_attention_variant` (TransformerConfig, a Literal: gdn, gdn2, dsa,
/// gated_delta_net).
pub const ATTENTION_VARIANT: &str = "--experimental-attention-variant";
/// arguments.py `_add_experimental_attention_variant_args` (`la_freq_type`: N = (N−1) linear
/// layers for every full-attention layer).
pub const LINEAR_FREQ: &str = "--linear-attention-freq";
/// `multi_latent_attention` (TransformerConfig, bool).
pub const MLA: &str = "--multi-latent-attention";
/// arguments.py `_add_mla_args`.
pub const KV_LORA_RANK: &str = "--kv-lora-rank";
/// arguments.py `_add_mla_args`.
pub const QK_POS_EMB_HEAD_DIM: &str = "--qk-pos-emb-head-dim";
/// arguments.py `_add_mla_args` (default None: queries are not compressed).
pub const Q_LORA_RANK: &str = "--q-lora-rank";
/// arguments.py `_add_mla_args` (default 128): a query's and key's dimension without RoPE.
pub const QK_HEAD_DIM: &str = "--qk-head-dim";
/// arguments.py `_add_mla_args` (default 128).
pub const V_HEAD_DIM: &str = "--v-head-dim";
/// `linear_num_key_heads` (TransformerConfig, default 16).
pub const LINEAR_KEY_HEADS: &str = "--linear-num-key-heads";
/// `linear_num_value_heads` (TransformerConfig, default 32).
pub const LINEAR_VALUE_HEADS: &str = "--linear-num-value-heads";
/// `linear_key_head_dim` (TransformerConfig, default 128).
pub const LINEAR_KEY_DIM: &str = "--linear-key-head-dim";
/// `linear_value_head_dim` (TransformerConfig, default 128).
pub const LINEAR_VALUE_DIM: &str = "--linear-value-head-dim";
/// `linear_conv_kernel_dim` (TransformerConfig, default 4).
pub const LINEAR_CONV: &str = "--linear-conv-kernel-dim";

// ---- the tokenizer, for a vocabulary a command does not give: TokenizerConfig ----
/// `vocab_file` (TokenizerConfig): with `--merge-file`, GPT-2's BPE tokenizer.
pub const VOCAB_FILE: &str = "--vocab-file";
/// `merge_file` (TokenizerConfig): only GPT-2's BPE tokenizer reads one.
pub const MERGE_FILE: &str = "--merge-file";
/// `tokenizer_type` (TokenizerConfig): GPT2BPETokenizer, Llama2Tokenizer, ….
pub const TOKENIZER_TYPE: &str = "--tokenizer-type";

// ---- slime: slime/utils/arguments.py ----
/// `add_cluster_arguments`.
pub const ACTOR_NODES: &str = "--actor-num-nodes";
/// `add_cluster_arguments`.
pub const ACTOR_GPUS_PER_NODE: &str = "--actor-num-gpus-per-node";
/// `add_cluster_arguments`.
pub const ROLLOUT_GPUS: &str = "--rollout-num-gpus";
/// `add_cluster_arguments`.
pub const GPUS_PER_ENGINE: &str = "--rollout-num-gpus-per-engine";
/// `add_cluster_arguments`.
pub const COLOCATE: &str = "--colocate";
/// `add_data_arguments` (required by slime).
pub const ROLLOUT_BATCH: &str = "--rollout-batch-size";
/// `add_data_arguments`.
pub const SAMPLES_PER_PROMPT: &str = "--n-samples-per-prompt";
/// `add_rollout_arguments` (not in SPEC §16's list; read from slime for `prompt_len`).
pub const MAX_PROMPT: &str = "--rollout-max-prompt-len";
/// `add_rollout_arguments`.
pub const MAX_RESPONSE: &str = "--rollout-max-response-len";
/// `add_train_arguments`.
pub const LOG_PROBS_CHUNK: &str = "--log-probs-chunk-size";

// ---- launchers ----
/// PyTorch's torchrun.
pub const NNODES: &str = "--nnodes";
/// PyTorch's torchrun (also spelled `--nproc_per_node`).
pub const NPROC_PER_NODE: &str = "--nproc-per-node";
/// DeepSpeed 0.19.8 deepspeed/launcher/runner.py `parse_args`: an MPI-style file of
/// `host slots=n` lines (`_parse_hostfile`); without it (default /job/hostfile) `main` runs on
/// the local node only, and refuses `--num_nodes` above 1.
pub const DS_HOSTFILE: &str = "--hostfile";
/// DeepSpeed 0.19.8 runner.py `parse_args`: `NAME[:SLOT[,SLOT…]]` joined by `@`, the named
/// slots of each host (`parse_resource_filter`); `main` refuses it beside --num_nodes or
/// --num_gpus.
pub const DS_INCLUDE: &str = "--include";
/// DeepSpeed 0.19.8 runner.py `parse_args`: the first n hosts of the hostfile
/// (`apply_num_nodes_and_gpus`).
pub const DS_NUM_NODES: &str = "--num_nodes";
/// DeepSpeed 0.19.8 runner.py `parse_args`: slots 0…n−1 of every host
/// (`apply_num_nodes_and_gpus`; nothing checks that a node has n cards).
pub const DS_NUM_GPUS: &str = "--num_gpus";
/// DeepSpeed 0.19.8 deepspeed/__init__.py `_add_core_arguments` (read by train.py's parser,
/// `deepspeed.add_config_arguments`).
pub const DS_ENABLE: &str = "--deepspeed";
/// DeepSpeed 0.19.8 deepspeed/__init__.py `_add_core_arguments`.
pub const DS_CONFIG: &str = "--deepspeed_config";

// ---- DeepSpeed 0.19.8's ds_config.json keys ----
/// runtime/constants.py `TRAIN_BATCH_SIZE`; `DeepSpeedConfig._batch_assertion` requires it to
/// equal micro-batch × accumulation steps × the data-parallel size (the unit's
/// `get_data_parallel_world_size()`, else the world size).
pub const DS_TRAIN_BATCH: &str = "train_batch_size";
/// runtime/constants.py `TRAIN_MICRO_BATCH_SIZE_PER_GPU`.
pub const DS_MICRO_BATCH: &str = "train_micro_batch_size_per_gpu";
/// runtime/constants.py `GRADIENT_ACCUMULATION_STEPS` (the pipeline engine's micro-batches).
pub const DS_ACCUMULATION_STEPS: &str = "gradient_accumulation_steps";
/// runtime/constants.py `BFLOAT16` (runtime/precision_config.py reads it).
pub const DS_BF16: &str = "bf16";
/// runtime/constants.py `BFLOAT16_ENABLED` (default false).
pub const DS_ENABLED: &str = "enabled";
/// runtime/constants.py `DATA_TYPES`.
pub const DS_DATA_TYPES: &str = "data_types";
/// runtime/constants.py `GRAD_ACCUM_DTYPE` (default: the model's dtype): the dtype the
/// optimizer wrappers accumulate gradients in (`DeepSpeedEngine.get_data_types`).
pub const DS_GRAD_ACCUM_DTYPE: &str = "grad_accum_dtype";
/// runtime/constants.py `COMMUNICATION_DATA_TYPE` (default: BF16 when bf16 is on,
/// `DeepSpeedEngine.communication_data_type`): the dtype gradients are reduced in.
pub const DS_COMMUNICATION_DTYPE: &str = "communication_data_type";
/// `DtypeEnum.bf16` (runtime/config.py).
pub const DS_DTYPE_BF16: &str = "bf16";
/// `DtypeEnum.fp32` (runtime/config.py).
pub const DS_DTYPE_FP32: &str = "fp32";
/// runtime/constants.py `OPTIMIZER`.
pub const DS_OPTIMIZER: &str = "optimizer";
/// runtime/constants.py `TYPE`.
pub const DS_OPTIMIZER_TYPE: &str = "type";
/// runtime/config.py `ADAMW_OPTIMIZER` ("adamw", matched lowercased): FusedAdam on the card,
/// DeepSpeedCPUAdam with FP32 moments when the optimizer is offloaded
/// (`DeepSpeedEngine.get_optimizer_configuration`).
pub const DS_ADAMW: &str = "AdamW";
/// runtime/zero/config.py `ZERO_OPTIMIZATION`.
pub const DS_ZERO: &str = "zero_optimization";
/// `DeepSpeedZeroConfig.stage` (runtime/zero/config.py, 0–3).
pub const DS_ZERO_STAGE: &str = "stage";
/// `DeepSpeedZeroConfig.offload_optimizer` (runtime/zero/config.py: "Valid for ZeRO stage 1,
/// 2, 3"; only the ZeRO optimizers read it).
pub const DS_OFFLOAD_OPTIMIZER: &str = "offload_optimizer";
/// `DeepSpeedZeroOffloadOptimizerConfig.device` (runtime/zero/offload_config.py).
pub const DS_OFFLOAD_DEVICE: &str = "device";
/// `OffloadDeviceEnum.cpu` (runtime/zero/offload_config.py).
pub const DS_OFFLOAD_CPU: &str = "cpu";
/// `DeepSpeedZeroOffloadOptimizerConfig.pin_memory` (runtime/zero/offload_config.py, default
/// true in 0.19.8): page-locked host buffers, the full PCIe bandwidth the lab counts.
pub const DS_PIN_MEMORY: &str = "pin_memory";

// ---- DeepSpeed 0.19.8's classes a training script passes (named in the notes) ----
/// runtime/pipe/module.py: its `topology=` makes the grid `deepspeed.initialize` takes as the
/// model-parallel unit (`model.mpu()`).
pub const DS_PIPELINE_MODULE: &str = "PipelineModule";
/// runtime/pipe/topology.py: axes pipe, data, model (the last fastest).
pub const DS_PIPE_MODEL_DATA_TOPOLOGY: &str = "PipeModelDataParallelTopology";
/// runtime/pipe/topology.py: any axes, the last fastest.
pub const DS_PROCESS_TOPOLOGY: &str = "ProcessTopology";
/// runtime/pipe/topology.py: the groups of a topology, with the unit's methods
/// (`get_data_parallel_world_size` …).
pub const DS_GRID: &str = "PipelineParallelGrid";

/// Megatron and slime flags that change what the lab would count but that it does not model:
/// a pasted command using them is read, and the notice names them.
pub const NOT_MODELLED: &[&str] = &[
    "--fp16",
    "--fp8-format",
    "--fp8-param-gather",
    "--use-dynamic-batch-size",
    "--max-tokens-per-gpu",
    "--decoder-first-pipeline-num-layers",
    "--decoder-last-pipeline-num-layers",
    "--pipeline-model-parallel-layout",
    "--num-virtual-stages-per-pipeline-rank",
    "--accumulate-allreduce-grads-in-fp32",
    "--recompute-activations",
    "--recompute-modules",
    "--moe-layer-recompute",
    "--cpu-offloading",
    "--offload-train",
    "--offload-rollout",
    "--use-torch-fsdp2",
    "--num-distributed-optimizer-instances",
    "--mtp-num-layers",
    "--step-batch-size-schedule",
    "--rampup-batch-size",
    "--num-steps-per-rollout",
    "--rollout-num-gpus-per-node",
];
