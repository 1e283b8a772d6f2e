//! The text of `parallel-lab --help`: the usage written here, and the list of what the lab
//! does not count, from the core's one list (`parallel_core::omissions`).

use parallel_core::omissions::Topic;
use parallel_core::Lang;

/// The help text: usage, flags, the config's fields, what is not counted, examples.
///
/// ```
/// let help = parallel_cli::usage();
/// assert!(help.contains("NOT COUNTED") && help.contains("Latency of each message"));
/// ```
pub fn usage() -> String {
    let mut out = String::with_capacity(HEAD.len() + TAIL.len() + 2048);
    out.push_str(&with_constants(HEAD));
    out.push_str(&not_counted());
    out.push_str(TAIL);
    out
}

/// The usage with the core's constants in place of their markers (`@SAFE@` → "80%", …), so
/// the help quotes the numbers the formulas use.
fn with_constants(text: &str) -> String {
    use parallel_core::estimate::{
        BACKWARD_SHARE, CP_BACKWARD_BYTES, DP_BUCKET_BYTES, FULL_RECOMPUTE_FACTOR,
        MEGATRON_BUCKET_PARAMS, MEGATRON_BUCKET_PARAMS_PER_RANK, TP_FULL_RECOMPUTE_BYTES,
    };
    use parallel_core::numbers::{fraction, megabytes, millions, rule_percent};
    [
        ("@SAFE@", rule_percent(parallel_core::margin::SAFE_SHARE)),
        (
            "@TIE@",
            rule_percent(parallel_core::search::EQUAL_TIME_SHARE),
        ),
        ("@RECOMPUTE@", fraction(FULL_RECOMPUTE_FACTOR)),
        ("@TP_BYTES@", fraction(TP_FULL_RECOMPUTE_BYTES)),
        ("@CP_BYTES@", fraction(CP_BACKWARD_BYTES)),
        ("@BUCKET@", megabytes(DP_BUCKET_BYTES)),
        ("@BUCKET_MIN@", millions(MEGATRON_BUCKET_PARAMS)),
        ("@BUCKET_RANK@", millions(MEGATRON_BUCKET_PARAMS_PER_RANK)),
        ("@BACKWARD@", fraction(BACKWARD_SHARE)),
    ]
    .iter()
    .fold(text.to_string(), |text, (marker, value)| {
        text.replace(marker, value)
    })
}

/// The "NOT COUNTED" section: every omission's English title, by topic.
fn not_counted() -> String {
    let mut out = String::from(
        "\nNOT COUNTED (each item's reason, and what the lab counts of it: docs/formulas.md §11)\n",
    );
    for topic in Topic::ALL {
        out.push_str("  ");
        out.push_str(topic.title(Lang::En));
        out.push('\n');
        for item in topic.omissions() {
            out.push_str("    - ");
            out.push_str(item.title(Lang::En));
            out.push('\n');
        }
    }
    out
}

/// Usage, flags, the config's fields and the report, before the list of what is not counted.
const HEAD: &str = r#"parallel-lab: memory, traffic and pipeline bubble of a GPU training plan, per card.

USAGE
  parallel-lab eval [--card N] [--explain]
                                    read a plan (JSON) on stdin, print its report (JSON); with
                                    --card, the traffic's links are card N's own (as the page
                                    shows a selected card); with --explain, "explain" lists every
                                    figure's formula, its substituted values, result and source
  parallel-lab groups --card N      read a plan on stdin, print card N's TP/CP/PP/DP(/EP) groups
  parallel-lab groups --card N --phase rollout
                                    card N's rollout engine instead: {"engine": [...]}, the
                                    card numbered in the rollout pool (needs "rollout")
  parallel-lab eval --url LINK [--grid 8|64]
  parallel-lab groups --url LINK [--grid 8|64] [--card N]
                                    the plan (and selected card) of a page link instead of stdin
  parallel-lab flags [--engine megatron|slime|deepspeed] [--format shell|json] [--lang en|zh]
                                    read a plan on stdin, print the engine's launch arguments
                                    (docs/flags.md). shell (default): the launcher and script on
                                    the first line, then one flag per line joined by ` \`
                                    continuations, the notes after it as `#` lines; json:
                                    {"engine", "args": [...], "notes": [...]} (deepspeed adds
                                    "config": its ds_config.json). A plan the engine's own
                                    checks refuse exits 2 naming the field, rule and engine
  parallel-lab eval --megatron 'ARGS' [--gpus N]
  parallel-lab groups --megatron 'ARGS' [--gpus N] --card N
                                    the plan of a Megatron-LM or slime command (a torchrun or
                                    python3 train.py line, or a script's argument block; $VARs
                                    the text sets to a number are used); the report gains
                                    "launch": {"engine", "ignored", "not_modelled", "notes"};
                                    cards from --actor-num-nodes x --actor-num-gpus-per-node,
                                    WORLD_SIZE, --nnodes x --nproc-per-node, else --gpus N
  parallel-lab model               read a Hugging Face config.json on stdin, print the inline
                                    model it stands for with its exact parameter counts:
                                    {"model": {INLINE}, "params", "active_params", "notes"}
  parallel-lab search [--top K]     read a plan on stdin and search every plan of its model,
                                    gpus, gpus_per_node, seq_len and global_batch (required),
                                    memory, bandwidths and gpu_tflops: t <= gpus_per_node, p, c,
                                    e (MoE), b in 1/2/4/8 with m = global_batch/(d*b) whole,
                                    ZeRO 0-3, recompute, gpipe/1f1b/interleaved (v 2, 4); print
                                    {"considered", "valid", "fitting", "comfortable", "plans":
                                    [{"config", "report"}...], "why_first": [{"against",
                                    "rank", "reason": {"id", ...}}...]}: the K (default 20)
                                    best fitting plans, those under @SAFE@ of the card first
                                    (comfortable: how many; Fujii et al. 2024), then by
                                    estimated step_s; steps within @TIE@ of the quickest are a
                                    tie, ranked no CP first, then fewer of TP/CP/PP/EP above 1,
                                    then smaller PP ("quickest": the quickest plan when a tie
                                    put another first; "without_cp": the best CP-1 plan when
                                    the first splits the sequence)
  parallel-lab check --emit [--card N] [--url LINK [--grid 8|64]]
                                    print card N's workload (SPEC §19; default the link's
                                    selected card, else 0): its stage's layers at its own
                                    widths, tokens and micro-batches in flight, with the lab's
                                    figures, for scripts/gpu-check/check.py to measure
  parallel-lab check --measured FILE [--format md|json] [--lang en|zh]
                                    read the measured.json that check.py wrote (FILE or - for
                                    stdin) and print each figure as the lab predicts it,
                                    measured eager and compiled, their ratios and what the lab
                                    does not count; a bad file is named by its field, as is a
                                    figure no card can measure: a layer's time outside 1 µs to
                                    a day, a card's memory outside the known cards' range, a
                                    byte count above it, a peak below half the lab's model
                                    states of the layers built
  parallel-lab defaults            print {"config": {PLAN}, "presets": [{"id", "name"}...],
                                    "hardware": [{"id", "name", "config"}...], "sliders":
                                    {"8": [{"field", "min", "max", "powers_of_two", "zero"}...],
                                    "64": [...]}, "routing": {"skews": [{"id", "skew",
                                    "source"}...], "capacity_factors": [{"id", "factor"}...]}}:
                                    every field of the plan an empty input stands for, the model
                                    presets in the page's order, each card preset's plan, the
                                    values each grid's sliders offer, and the page's choices of
                                    uneven routing (SPEC §20)
  parallel-lab balance             read PLAN on stdin and print the 3D balance (SPEC §23):
                                    [{"lever": "tp"|"pp"|"zero", "current", "points": [{"value",
                                    "memory", "sent", "bubble_share", "fits"}...]}...], the plan
                                    with TP, PP or the ZeRO stage moved alone: memory per card
                                    (bytes) against the bytes a card sends per step
  parallel-lab table [OPTIONS]      render the lesson's tables (Markdown by default)
  parallel-lab bench [--quick]      time the core: one evaluation, and a sweep of 1,024-GPU plans
  parallel-lab help | --help        print this text

TABLE OPTIONS
  --table 8gpu|64gpu|llama3|deepseek|recipes|runs|all   which table (default: all)
  --format md|csv|json    Markdown (default); CSV (one table); JSON (raw bytes and formatted text)
  --lang en|zh            language of labels and headers (default: en)
  --stdin                 render one plan table from a JSON array on stdin:
                          [{"label": "...", "config": {PLAN}}, ...]

PLAN (a JSON object; every field is optional, empty input = all defaults)
  model             a preset: "qwen3.8-27b" (default) | "llama3-8b" | "llama3-70b" |
                    "llama3-405b" | "qwen3-30b-a3b" | "mixtral-8x7b" | "deepseek-v3";
                    or an inline model
                    {"params", "hidden", "layers", "heads", "kv_heads", "head_dim", "ffn", "vocab",
                     "full_attention_layers", "tied_embeddings", "moe_layers", "experts",
                     "top_k", "expert_ffn", "shared_experts", "kv_lora_rank",
                     "qk_rope_head_dim" (MLA: both or neither)};
                    or {"hf_config": {CONFIG.JSON}}, counted as `parallel-lab model` does
  gpus 8, gpus_per_node 8, tp 1, pp 1, cp 1, ep 1, micro_batches 8, micro_batch_size 1,
  seq_len 4096, zero 0 (0-3), recompute "full" (none|selective|full),
  schedule "1f1b" (gpipe|1f1b|interleaved), virtual_stages 1,
  precision "bf16-grads" (bf16-grads|fp32-grads), gpu_memory_gb 80, nvlink_gbps 160,
  ib_gbps 50, order "tp-cp-pp-dp" (tp-cp-pp-dp|tp-cp-dp-pp), accounting "even" (even|stages),
  gpu_tflops 400 (effective TFLOP/s per card, for the step-time estimate),
  global_batch (sequences per step; the search only),
  hardware "lesson" (lesson|a100-80gb|h100-sxm|h200|b200|mi300x): a card preset that sets
    gpu_memory_gb, nvlink_gbps, ib_gbps, hbm_tbps, peak_tflops and gpu_tflops = peak_tflops *
    matmul_efficiency (the lesson's card: 400); the fields given explicitly win,
  hbm_tbps 3.35, peak_tflops 989 (dense BF16, for MFU), matmul_efficiency 0.75 (0-1],
  nvlink_latency_us 1, ib_latency_us 5 (alpha per step of a collective),
  optimizer_offload "none" (none|cpu): "cpu" keeps Adam on the host (CPU Adam): the card
    keeps the ledger less its 12 bytes (ZeRO 0/1 (2+g)*psi, 2 2*psi + g*psi/D, 3 (2+g)*psi/D),
    the host 16*psi_o a card (psi_o = psi at ZeRO 0, psi/D at 1-3; MoE experts likewise),
  pcie_gbps 50 (host link per card, GB/s), host_memory_gb 2048 (host memory per node),
  rollout null (training only) or {} with the RL step's inference engines:
    {"gpus_per_engine" 8 (E), "rollout_gpus" 0 (R; 0 = colocated on the N training cards),
     "prompts" 8, "samples_per_prompt" 8, "prompt_len" 2048, "response_len" 131072,
     "kv_bytes" 2 (1|2|4)}; checked after the rest: counts >= 1, the pool (R or N) divisible
    by E, prompt_len + response_len <= 2^26, kv_bytes 1, 2 or 4 (errors name rollout.<field>),
  log_probs_chunk 0 (tokens whose FP32 logits the last stage holds at once; 0 = the whole
    micro-batch: the logits term becomes 4*min(chunk, s'*b)*V/t; by_stage names it)
  routing_skew 1 (MoE: the hottest expert's tokens over an even split, 1 to experts/top_k;
    only 1 on a dense model), capacity_factor absent (dropless; else 1 to experts/top_k: an
    expert keeps at most capacity_factor x an even split and drops the rest); SPEC §20
  sequence_parallel true (false: with tp > 1 every card keeps the norms' and dropouts'
    activations whole, (10 + 24/t)*s'*b*h a layer instead of 34*s'*b*h/t; an MoE model
    with ep > 1 at tp > 1 warns, as Megatron-Core does); SPEC §22
  runtime_memory false (true: memory.runtime = {"context" (the CUDA context, 787,283,968 B
    measured on one H200), "buffers" (Megatron-Core's SP all-gather buffer, 2*s'*b*h),
    "reserve" ((1.0529 - 1) x the allocated bytes, the allocator's reserve measured on one
    H200), "total"}, added to every total; by_stage entries carry "runtime"); SPEC §24
  sequence_skew 1 (the longest micro-batch's tokens over s, 1 to 2^26/s: sequences of uneven
    length put one micro-batch of sequence_skew*s tokens on DP replica 0, whose cards hold
    (sigma - 1)*its per-layer bytes + (sigma^2 - 1)*its scores more); SPEC §25

REPORT
  {"dp", "memory", "comm", "bubble", "warnings", "estimate"}; with optimizer_offload "cpu",
  memory.host = {"per_gpu", "per_node" (the fullest node), "capacity", "fits"} (over capacity
  is a warning) and comm ends with {"dim": "offload", "collective": "d2h+h2d",
  "group_size": 1, "bytes": 6*psi_o, "link": "pcie", "seconds": bytes/pcie_gbps}; estimate (an estimate, not a
  measurement) = {"tokens_per_step", "flops_per_step", "compute_s", "exposed_comm_s",
  "latency_s", "roofline_factor", "bubble_s", "step_s", "tokens_per_s_per_gpu", "mfu"};
  with rollout, "rollout" = {"engines" (pool/E), "gpus_per_engine", "sequences"
  (n = prompts*samples_per_prompt), "sequences_per_engine" (ceil(n/engines)),
  "tokens_per_sequence" (T_seq = prompt_len + response_len), "weights" (2*P/E), "kv_cache"
  (ceil(n/engines)*T_seq*F*k; k = 2*max(kv_heads/E, 1)*head_dim*kv_bytes, MLA
  (kv_lora_rank + qk_rope_head_dim)*kv_bytes), "total", "fits", "tight" (fits, above @SAFE@ of
  the card), "colocated", "cards" (N, or
  N + R), "peak" (colocated: max(training total, rollout total)), "peak_phase"
  (training|rollout)}; for a MoE model, "routing" (SPEC §20) = {"skew", "capacity_factor",
  "tokens_even" (slots an EP rank receives per MoE layer and micro-batch, s*b/(c*t)*top_k),
  "tokens_hot" (EP rank 0, which holds the hottest expert), "tokens_cold", "dropped_share",
  "dropped_per_step", "expert_activations_hot", "expert_activations_even", "dispatch_hot",
  "dispatch_even", "excess" (what a card of EP rank 0 holds beyond the even split, in its
  activations), "all_to_all_busiest", "all_to_all_even", "expert_s_even",
  "expert_s_busiest", "added_s" (what the busiest rank adds to compute)}. In the estimate:
  FLOPs = (6*P_mm + 6*F*a*head_dim*s)*T (x @RECOMPUTE@ with full recompute), P_mm = P_act less an
  untied input embedding, the norms and the routers, as Megatron counts; compute = the weight
  FLOPs x max(1, R/T_l) (R = gpu_tflops/hbm_tbps, T_l = s*b/c tokens a card; routed experts
  at T_e = T_l*top_k*e/experts) + attention FLOPs, / (N*gpu_tflops*1e12); each dimension
  costs calls*steps*alpha + bytes/bandwidth (TP bytes x @TP_BYTES@ and 6 calls a layer with full
  recompute, CP bytes x @CP_BYTES@, DP in @BUCKET@ buckets); step = compute*(1+bubble ratio) + tp + cp
  + ep + pp (+ offload, no alpha) + max(0, dp + edp - @BACKWARD@*compute); mfu = model FLOPs/(N*peak_tflops*1e12*step).
  On a card with kernel tables (hardware other than "lesson", SPEC §18) compute is timed kernel by
  kernel from the H200 measurement, alpha follows NCCL's ring model, PP sends each card's
  sequence-parallel shard (bytes/t) and DP runs in Megatron-Core's buckets of
  max(@BUCKET_MIN@, @BUCKET_RANK@*D) parameters; the optimizer step follows the pipeline's drain
"#;

/// Examples, model config and exit status, after the list of what is not counted.
const TAIL: &str = r#"
EXAMPLES
  echo '{"gpus":64,"tp":8,"pp":2,"zero":1}' | parallel-lab eval
  echo '{"gpus":64,"tp":8,"pp":2}' | parallel-lab groups --card 0
  parallel-lab eval --url 'https://example.org/lab/#g64=tp8.pp2.z1&c64=0'
  parallel-lab groups --url '#g64=tp8.pp2.z1&c64=0'
  parallel-lab model < Meta-Llama-3-8B/config.json
  jq '{model: {hf_config: .}, gpus: 64, tp: 8, pp: 2}' config.json | parallel-lab eval
  parallel-lab table --table 8gpu
  parallel-lab table --table llama3 --format csv > llama3.csv
  parallel-lab table --lang zh --format json > tables.json
  echo '[{"label":"DP 8, ZeRO-3","config":{"zero":3}}]' | parallel-lab table --stdin
  echo '{"gpus":64,"global_batch":256,"seq_len":8192}' | parallel-lab search --top 5
  echo '{"zero":1,"optimizer_offload":"cpu","pcie_gbps":25}' | parallel-lab eval
  echo '{"gpus":32,"rollout":{"gpus_per_engine":2},"log_probs_chunk":1024}' | parallel-lab eval
  echo '{"model":"mixtral-8x7b","gpus":64,"ep":8,"routing_skew":1.72,"capacity_factor":1.25}' | parallel-lab eval
  cargo run --release -p parallel-cli -- bench

CONFIG.JSON (parallel-lab model, {"hf_config": ...})
  architectures: LlamaForCausalLM (Llama 1-3), MistralForCausalLM, MixtralForCausalLM,
  Qwen2ForCausalLM, Qwen3ForCausalLM, Qwen2MoeForCausalLM, Qwen3MoeForCausalLM,
  DeepseekV3ForCausalLM (MLA). The total is the checkpoint's exact count: q/k/v biases
  (Qwen2), q/k norms (Qwen3), shared experts and their gates, MLA's low-rank projections and
  norms, DeepSeek's e_score_correction_bias; DeepSeek-V3's MTP module is not counted.
  active_params = params - P_routed * (1 - top_k / experts). Other keys are ignored; a missing
  key the count needs, an unknown architecture or model_type, or an attention kind the counter
  does not model is an error naming the key (model.hf_config.<key>).

EXIT STATUS (every command)
  0 success.
  2 any bad input: not JSON, not UTF-8 or unreadable stdin, an unknown command, flag or field,
    a value out of its range, a plan, link, launch command or measured file refused, or a
    result that would hold a NaN or an infinity (the inputs beyond what the lab answers).
    One line on stderr that starts with the field or flag at fault; a value it quotes is cut
    to 80 characters, so the line stays under 1 KB however large the value.
  1 only the lab's own failure, none of the input's doing (e.g. stdout cannot be written).
"#;

#[cfg(test)]
mod tests {
    #[test]
    fn the_help_quotes_the_core_s_constants() {
        let help = super::usage();
        assert!(!help.contains('@'), "a marker is left: {help}");
        for quoted in [
            "those under 80% of the card first",
            "(x 4/3 with full recompute)",
            "TP bytes x 3/2",
            "CP bytes x 2,",
            "DP in 50 MB buckets",
            "edp - 2/3*compute",
        ] {
            assert!(help.contains(quoted), "{quoted}");
        }
    }
}
