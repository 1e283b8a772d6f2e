//! [`read_launch`]: a pasted Megatron-LM or slime command (a whole `torchrun … pretrain_gpt.py
//! …` line, a `python3 train.py …` line, or a script's argument arrays with `\` continuations)
//! read back into the [`PlanConfig`] it describes.

use super::kinds::{Engine, LaunchError};
use super::model::read_model;
use super::names as n;
use super::output::Note;
use super::shell::words;
use super::values::{bad, Values};
use crate::config::{
    OptimizerOffload, PlanConfig, Precision, RankOrder, Recompute, Rollout, Schedule,
};
use crate::error::PlanError;

/// What a pasted command says: the plan, which engine's command it was, the flags the lab
/// ignored and the ones it read but does not model, and notes on what it assumed.
#[derive(Clone, Debug, PartialEq)]
pub struct Launch {
    /// The plan; every field the command cannot say keeps its default.
    pub config: PlanConfig,
    /// slime when the command has slime's cluster flags, else Megatron-LM.
    pub engine: Engine,
    /// Flags the lab does not read (`--lr`, `--data-path` …), in order, each once; and flags
    /// whose value is a shell variable the text does not set (`--tensor-model-parallel-size
    /// $TP`).
    pub ignored: Vec<String>,
    /// Flags that change what the lab would count but that it does not model (`--fp16`,
    /// `--use-dynamic-batch-size` …), each once.
    pub not_modelled: Vec<String>,
    /// What the reader assumed (a default taken, a value rounded), in both languages.
    pub notes: Vec<Note>,
}

/// Flags the reader takes a value for, and switches.
const VALUED: &[&str] = &[
    n::TP,
    n::PP,
    n::CP,
    n::EP,
    n::ETP,
    n::MICRO_BATCH,
    n::GLOBAL_BATCH,
    n::SEQ_LENGTH,
    n::LAYERS_PER_VIRTUAL_STAGE,
    n::RECOMPUTE_GRANULARITY,
    n::RECOMPUTE_METHOD,
    n::RECOMPUTE_NUM_LAYERS,
    n::SHARDING,
    n::NUM_LAYERS,
    n::HIDDEN,
    n::FFN,
    n::HEADS,
    n::QUERY_GROUPS,
    n::KV_CHANNELS,
    n::VOCAB,
    n::VOCAB_DIVISOR,
    n::MAX_POSITIONS,
    n::CKPT_FORMAT,
    n::NORMALIZATION,
    n::POSITION_EMBEDDING,
    n::ROTARY_BASE,
    n::NUM_EXPERTS,
    n::TOPK,
    n::MOE_FFN,
    n::SHARED_FFN,
    n::MOE_LAYER_FREQ,
    n::ATTENTION_VARIANT,
    n::LINEAR_FREQ,
    n::KV_LORA_RANK,
    n::QK_POS_EMB_HEAD_DIM,
    n::Q_LORA_RANK,
    n::QK_HEAD_DIM,
    n::V_HEAD_DIM,
    n::LINEAR_KEY_HEADS,
    n::LINEAR_VALUE_HEADS,
    n::LINEAR_KEY_DIM,
    n::LINEAR_VALUE_DIM,
    n::LINEAR_CONV,
    n::ACTOR_NODES,
    n::ACTOR_GPUS_PER_NODE,
    n::ROLLOUT_GPUS,
    n::GPUS_PER_ENGINE,
    n::ROLLOUT_BATCH,
    n::SAMPLES_PER_PROMPT,
    n::MAX_PROMPT,
    n::MAX_RESPONSE,
    n::LOG_PROBS_CHUNK,
    n::NNODES,
    n::NPROC_PER_NODE,
    n::VOCAB_FILE,
    n::MERGE_FILE,
    n::TOKENIZER_TYPE,
];
const SWITCHES: &[&str] = &[
    n::SEQUENCE_PARALLEL,
    n::TP_PP_DP_MAPPING,
    n::ACCOUNT_EMBEDDING,
    n::ACCOUNT_LOSS,
    n::DISTRIBUTED_OPTIMIZER,
    n::MEGATRON_FSDP,
    n::CPU_OFFLOAD,
    n::OVERLAP_D2H_H2D,
    n::PRECISION_AWARE,
    n::BF16,
    n::GRAD_REDUCE_BF16,
    n::GQA,
    n::UNTIE,
    n::SWIGLU,
    n::NO_BIAS,
    n::PRE_SOFTMAX,
    n::QK_NORM,
    n::MLA,
    n::COLOCATE,
];

/// Reads a Megatron-LM or slime command back into a plan (SPEC §16).
///
/// The card count comes from slime's `--actor-num-nodes` × `--actor-num-gpus-per-node`, else
/// a `WORLD_SIZE=` the text sets, else torchrun's `--nnodes` × `--nproc-per-node` (which also
/// gives `gpus_per_node`), else `gpus`, else the default 8. Shell variables the text sets to a
/// plain number (`GPUS_PER_NODE=8`) are used; others are left as written, and a flag whose
/// value is one is listed in `ignored`. Unknown flags are listed in `ignored`; flags the lab
/// does not model, in `not_modelled`. A value the lab cannot read is an error naming the flag.
///
/// ```
/// use parallel_core::flags::read_launch;
/// let line = "torchrun --nnodes 2 --nproc-per-node 8 pretrain_gpt.py --tensor-model-parallel-size 8 \
///   --num-layers 32 --hidden-size 4096 --ffn-hidden-size 14336 --num-attention-heads 32 \
///   --group-query-attention --num-query-groups 8 --vocab-size 128256 \
///   --untie-embeddings-and-output-weights --swiglu --micro-batch-size 1 --global-batch-size 16 \
///   --seq-length 8192 --bf16 --lr 3e-4";
/// let read = read_launch(line, None)?;
/// assert_eq!((read.config.gpus, read.config.tp, read.config.micro_batches), (16, 8, 8));
/// assert_eq!(read.config.model.label(), "Llama 3 8B");
/// assert_eq!(read.ignored, ["--lr"]);
/// # Ok::<(), parallel_core::PlanError>(())
/// ```
pub fn read_launch(text: &str, gpus: Option<u32>) -> Result<Launch, PlanError> {
    let all = words(text)?;
    let vars = assignments(&all);
    let mut v = Values::default();
    let mut ignored: Vec<String> = Vec::new();
    let mut not_modelled: Vec<String> = Vec::new();
    let mut i = 0;
    while i < all.len() {
        let word = &all[i];
        i += 1;
        let Some(body) = word.strip_prefix("--").filter(|b| !b.is_empty()) else {
            continue;
        };
        let (name, inline) = match body.split_once('=') {
            Some((name, value)) => (format!("--{name}"), Some(value.to_string())),
            None => (word.clone(), None),
        };
        let name = match name.as_str() {
            "--nproc_per_node" => n::NPROC_PER_NODE.to_string(),
            _ => name,
        };
        if let Some(&flag) = SWITCHES.iter().find(|f| **f == name) {
            v.set(flag, None);
        } else if let Some(&flag) = VALUED.iter().find(|f| **f == name) {
            let raw = match inline {
                Some(value) => value,
                None => match all.get(i).filter(|w| !w.starts_with("--")) {
                    Some(value) => {
                        i += 1;
                        value.clone()
                    }
                    None => return Err(PlanError::Launch(LaunchError::NoValue { flag })),
                },
            };
            match expand(&raw, &vars) {
                Some(value) => v.set(flag, Some(value)),
                // A tokenizer file says which tokenizer runs, wherever it is.
                None if flag == n::VOCAB_FILE || flag == n::MERGE_FILE => v.set(flag, Some(raw)),
                None => {
                    push_once(&mut ignored, format!("{flag} {raw}"));
                    v.unresolved.push(flag.to_string());
                }
            }
        } else if n::NOT_MODELLED.contains(&name.as_str()) {
            push_once(&mut not_modelled, name);
        } else {
            push_once(&mut ignored, name);
        }
    }
    let mut notes = Vec::new();
    let mut config = plan_of(&v, &vars, gpus, &mut notes)?;
    // Absent, sequence parallelism is off (Megatron's default); at t = 1 it means nothing and
    // the config keeps its default (SPEC §22).
    config.sequence_parallel = config.tp == 1 || v.has(n::SEQUENCE_PARALLEL);
    if !v.has(n::BF16) {
        push_once(&mut not_modelled, format!("{} (absent)", n::BF16));
    }
    let engine =
        if v.has(n::ACTOR_NODES) || v.has(n::ACTOR_GPUS_PER_NODE) || config.rollout.is_some() {
            Engine::Slime
        } else {
            Engine::Megatron
        };
    Ok(Launch {
        config,
        engine,
        ignored,
        not_modelled,
        notes,
    })
}

fn push_once(list: &mut Vec<String>, item: String) {
    if !list.contains(&item) {
        list.push(item);
    }
}

/// The shell variables the text sets to a whole number (`NUM_NODES=1`, `export
/// WORLD_SIZE=16`, `NNODES=${SLURM_NNODES:-1}` through the variables set before it), the last
/// setting winning.
fn assignments(all: &[String]) -> Vec<(String, String)> {
    let mut vars: Vec<(String, String)> = Vec::new();
    for word in all {
        let Some((name, value)) = word.split_once('=') else {
            continue;
        };
        let is_name = name
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
            && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
        let Some(value) = expand(value, &vars) else {
            continue;
        };
        if is_name && !value.is_empty() && value.chars().all(|c| c.is_ascii_digit()) {
            vars.retain(|(n, _)| n != name);
            vars.push((name.to_string(), value.to_string()));
        }
    }
    vars
}

/// A value with its shell variable replaced: `$X`, `${X}` (when the text sets X to a number)
/// or `${X:-8}`; `None` when it names a variable the text does not set.
fn expand(raw: &str, vars: &[(String, String)]) -> Option<String> {
    if !raw.contains('$') {
        return Some(raw.to_string());
    }
    let inner = raw
        .strip_prefix("${")
        .and_then(|r| r.strip_suffix('}'))
        .or_else(|| raw.strip_prefix('$'))?;
    let (name, fallback) = match inner.split_once(":-") {
        Some((name, fallback)) => (name, Some(fallback)),
        None => (inner, None),
    };
    let set = vars.iter().find(|(n, _)| n == name).map(|(_, v)| v.clone());
    set.or_else(|| fallback.filter(|f| !f.contains('$')).map(str::to_string))
}

/// The plan the flags describe (see [`read_launch`]).
fn plan_of(
    v: &Values,
    vars: &[(String, String)],
    gpus: Option<u32>,
    notes: &mut Vec<Note>,
) -> Result<PlanConfig, PlanError> {
    let mut c = PlanConfig::default();
    let world = vars
        .iter()
        .find(|(n, _)| n == "WORLD_SIZE")
        .and_then(|(_, w)| w.parse::<u32>().ok());
    if v.has(n::ACTOR_NODES) || v.has(n::ACTOR_GPUS_PER_NODE) {
        // slime's defaults: --actor-num-nodes 1, --actor-num-gpus-per-node 8.
        let nodes = v.count(n::ACTOR_NODES)?.unwrap_or(1);
        c.gpus_per_node = v.count(n::ACTOR_GPUS_PER_NODE)?.unwrap_or(8);
        c.gpus = nodes.saturating_mul(c.gpus_per_node);
    } else if v.has(n::NNODES) || v.has(n::NPROC_PER_NODE) {
        let nodes = v.count(n::NNODES)?.unwrap_or(1);
        c.gpus_per_node = v.count(n::NPROC_PER_NODE)?.unwrap_or(1);
        c.gpus = world.unwrap_or(nodes.saturating_mul(c.gpus_per_node));
    } else if let Some(count) = world.or(gpus) {
        c.gpus = count;
    } else {
        notes.push(Note::new(
            "命令没有给出卡数：按默认 8 张卡计。",
            "The command gives no card count: the default 8 cards are counted.",
        ));
    }
    c.tp = v.count(n::TP)?.unwrap_or(1);
    c.pp = v.count(n::PP)?.unwrap_or(1);
    c.cp = v.count(n::CP)?.unwrap_or(1);
    c.ep = v.count(n::EP)?.unwrap_or(1);
    c.micro_batch_size = v.count(n::MICRO_BATCH)?.unwrap_or(1);
    c.model = read_model(v, notes)?;
    let layers = c.model.resolve()?.layers;
    c.order = if v.has(n::TP_PP_DP_MAPPING) {
        RankOrder::TpCpPpDp
    } else {
        RankOrder::TpCpDpPp
    };
    if let Some(per_chunk) = v.count(n::LAYERS_PER_VIRTUAL_STAGE)? {
        let extra = u32::from(v.has(n::ACCOUNT_EMBEDDING)) + u32::from(v.has(n::ACCOUNT_LOSS));
        let counted = u64::from(layers) + u64::from(extra);
        let chunks = u64::from(per_chunk) * u64::from(c.pp);
        if counted % chunks != 0 {
            let text = per_chunk.to_string();
            return Err(bad(
                n::LAYERS_PER_VIRTUAL_STAGE,
                &text,
                "a divisor of the layers of a pipeline stage",
            ));
        }
        let v_stages = (counted / chunks) as u32;
        if v_stages > 1 {
            c.schedule = Schedule::Interleaved;
            c.virtual_stages = v_stages;
        }
    }
    c.recompute = match v.text(n::RECOMPUTE_GRANULARITY) {
        None => Recompute::None,
        Some("full") => Recompute::Full,
        Some("selective") => Recompute::Selective,
        Some(other) => return Err(bad(n::RECOMPUTE_GRANULARITY, other, "full or selective")),
    };
    if c.recompute == Recompute::Full
        && (v.text(n::RECOMPUTE_METHOD).is_some_and(|m| m != "uniform")
            || v.count(n::RECOMPUTE_NUM_LAYERS)?.is_some_and(|k| k != 1))
    {
        notes.push(Note::new(
            "重计算的方法或层数不是 uniform / 1：实验室按每层都只存输入的完全重计算来算。",
            "Recompute other than uniform over 1 layer: the lab counts full recompute, each layer keeping only its input.",
        ));
    }
    c.zero = if v.has(n::MEGATRON_FSDP) {
        // arguments.py: --data-parallel-sharding-strategy defaults to optim_grads_params.
        match v.text(n::SHARDING).unwrap_or("optim_grads_params") {
            "no_shard" => 0,
            "optim" => 1,
            "optim_grads" => 2,
            "optim_grads_params" => 3,
            other => {
                return Err(bad(
                    n::SHARDING,
                    other,
                    "no_shard, optim, optim_grads or optim_grads_params",
                ))
            }
        }
    } else {
        u8::from(v.has(n::DISTRIBUTED_OPTIMIZER))
    };
    if v.has(n::CPU_OFFLOAD) {
        c.optimizer_offload = OptimizerOffload::Cpu;
    }
    c.precision = if v.has(n::GRAD_REDUCE_BF16) {
        Precision::Bf16Grads
    } else {
        Precision::Fp32Grads
    };
    c.rollout = rollout_of(v, notes)?;
    c.log_probs_chunk = match v.text(n::LOG_PROBS_CHUNK) {
        None | Some("-1") => 0,
        Some(_) => v.number(n::LOG_PROBS_CHUNK, 0)?.unwrap_or(0),
    };
    c.seq_len = match (v.count(n::SEQ_LENGTH)?, c.rollout) {
        (Some(s), _) => s,
        (None, Some(r)) => r.prompt_len.saturating_add(r.response_len),
        (None, None) => {
            notes.push(Note::new(
                "没有 --seq-length：按默认 4,096 计。",
                "No --seq-length: the default 4,096 is counted.",
            ));
            c.seq_len
        }
    };
    let per_step = u64::from(c.tp) * u64::from(c.pp) * u64::from(c.cp);
    let global = match (v.big(n::GLOBAL_BATCH)?, c.rollout) {
        (Some(g), _) => Some(g),
        // slime: one training step per rollout, rollout_batch_size × n_samples_per_prompt.
        (None, Some(r)) => Some(u64::from(r.prompts) * u64::from(r.samples_per_prompt)),
        (None, None) => None,
    };
    match global {
        // No cards (`WORLD_SIZE=0`) split no batch: `Plan::new` names `gpus` for it.
        Some(global) if per_step > 0 && c.gpus > 0 && u64::from(c.gpus) % per_step == 0 => {
            let per_micro_batch = u64::from(c.gpus) / per_step * u64::from(c.micro_batch_size);
            if global % per_micro_batch != 0 {
                return Err(PlanError::Launch(LaunchError::GlobalBatch { global, per_micro_batch }));
            }
            c.micro_batches = u32::try_from(global / per_micro_batch).unwrap_or(u32::MAX);
        }
        _ => notes.push(Note::new(
            "没能从全局批量算出 micro-batch 数：按默认 8 个计。",
            "The micro-batches per step could not be read from a global batch: the default 8 are counted.",
        )),
    }
    Ok(c)
}

/// The rollout engines of a slime command, when it has any rollout flag.
fn rollout_of(v: &Values, notes: &mut Vec<Note>) -> Result<Option<Rollout>, PlanError> {
    let any = [
        n::ROLLOUT_BATCH,
        n::GPUS_PER_ENGINE,
        n::SAMPLES_PER_PROMPT,
        n::MAX_PROMPT,
        n::MAX_RESPONSE,
        n::COLOCATE,
        n::ROLLOUT_GPUS,
    ]
    .iter()
    .any(|f| v.has(f));
    if !any {
        return Ok(None);
    }
    let d = Rollout::default();
    let rollout_gpus = if v.has(n::COLOCATE) {
        0
    } else {
        v.number(n::ROLLOUT_GPUS, 0)?.unwrap_or(0)
    };
    let prompt_len = match v.count(n::MAX_PROMPT)? {
        Some(p) => p,
        None => {
            notes.push(Note::new(
                "没有 --rollout-max-prompt-len：提示按默认 2,048 个 token 计。",
                "No --rollout-max-prompt-len: prompts are counted at the default 2,048 tokens.",
            ));
            d.prompt_len
        }
    };
    Ok(Some(Rollout {
        // slime's defaults: one card per engine, one sample per prompt.
        gpus_per_engine: v.count(n::GPUS_PER_ENGINE)?.unwrap_or(1),
        rollout_gpus,
        prompts: v.count(n::ROLLOUT_BATCH)?.unwrap_or(d.prompts),
        samples_per_prompt: v.count(n::SAMPLES_PER_PROMPT)?.unwrap_or(1),
        prompt_len,
        response_len: v.count(n::MAX_RESPONSE)?.unwrap_or(d.response_len),
        kv_bytes: d.kv_bytes,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variables_the_text_sets() {
        let all = words("S=4\nN=${S:-\"1\"}\nW=$((S*N))\nX=${UNSET:-2}").unwrap();
        let vars = assignments(&all);
        let get = |name: &str| {
            vars.iter()
                .find(|(n, _)| n == name)
                .map(|(_, v)| v.as_str())
        };
        assert_eq!(
            (get("S"), get("N"), get("W"), get("X")),
            (Some("4"), Some("4"), None, Some("2"))
        );
        assert_eq!(expand("${N}", &vars).as_deref(), Some("4"));
        assert_eq!(expand("$N", &vars).as_deref(), Some("4"));
        assert_eq!(expand("$UNSET", &vars), None);
    }
}
