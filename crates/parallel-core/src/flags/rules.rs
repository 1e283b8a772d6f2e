//! Each engine's own checks (SPEC §16), run on a valid [`Plan`] before any flag is written.
//!
//! Megatron-LM (and slime, which runs it), NVIDIA/Megatron-LM @ d98e8a64dd:
//! - `TransformerConfig.__post_init__` (transformer_config.py): num_attention_heads a
//!   multiple of tensor_model_parallel_size; num_query_groups a multiple or a divisor of it;
//! - `validate_args` (arguments.py): seq_length a multiple of 2·context_parallel_size when
//!   c > 1; the layers (plus one for the embedding and one for the loss when accounted) a
//!   multiple of the pipeline size; num_experts a multiple of expert_model_parallel_size; an
//!   interleaved (virtual) pipeline needs pipeline_model_parallel_size > 1;
//! - `forward_backward_pipelining_with_interleaving` (megatron/core/pipeline_parallel/
//!   schedules.py): micro-batches come in groups of `microbatch_group_size_per_vp_stage`
//!   (default p) that must not exceed their number, so m ≥ p;
//! - `TransformerConfig.__post_init__` for Gated DeltaNet: linear_num_key_heads (default 16)
//!   and linear_num_value_heads (default 32) multiples of t·c.
//!
//! Megatron-Core 0.19.2, `parallel_state.initialize_model_parallel`: with an order that does
//! not end in pp (`--use-tp-pp-dp-mapping`, the lab's tp-cp-pp-dp) and p > 1, the expert
//! mesh's data-parallel size N/(etp·e·p) must equal the attention's N/(t·c·p). The lab writes
//! MoE plans with `--expert-tensor-parallel-size 1`; a dense model keeps Megatron's defaults
//! etp = t, e = 1. So a dense plan with c > 1, or a MoE plan with e ≠ t·c, is refused in that
//! order. When d = 1 both orders give the same groups, and the writer uses Megatron's pp-last
//! order instead (`megatron::pp_last_instead`), with a note.
//!
//! DeepSpeed 0.19.8, in the order checked (each is also judged by DeepSpeed's own code in
//! `tests/deepspeed`):
//! - `PipelineEngine.__init__` (deepspeed/runtime/pipe/engine.py) asserts "ZeRO-2 and ZeRO-3
//!   are incompatible with pipeline parallelism";
//! - `DeepSpeedEngine._do_optimizer_sanity_check` (deepspeed/runtime/engine.py): without ZeRO,
//!   BF16 weights with FP32 gradient accumulation are an "unsupported mix";
//! - only the ZeRO optimizers read `zero_optimization.offload_optimizer` ("Valid for ZeRO
//!   stage 1, 2, 3", deepspeed/runtime/zero/config.py): no offload at ZeRO 0;
//! - `_do_optimizer_sanity_check` again: the pipeline engine without ZeRO wraps a BF16 model's
//!   optimizer in BF16_Optimizer, which shards the FP32 states over the data-parallel group
//!   (ZeRO 1's ledger): refused where that group has more than one card;
//! - `groups._create_expert_and_data_parallel` (deepspeed/utils/groups.py, called by
//!   `MoE.set_deepspeed_parallelism`) takes each stage as N/p consecutive ranks: a MoE plan in
//!   the order tp-cp-pp-dp with p > 1 and d > 1 interleaves them.
//!
//! [`Plan::new`] already refuses some of these for every plan (experts over e, interleaved with
//! p = 1 or m not divisible by p): they are checked here again so that the engines' rules stand
//! on their own.

use super::kinds::{Engine, EngineRule, LaunchError, MovedGroups};
use super::megatron::{expert_dp, interleaved, megatron_layers, order_clash};
use crate::config::{Precision, RankOrder};
use crate::error::PlanError;
use crate::grid::Dim;
use crate::model::LinearAttention;
use crate::plan::Plan;

/// The first of `engine`'s rules that `plan` breaks, as [`PlanError::Launch`], in the order
/// of the module's list.
///
/// ```
/// use parallel_core::flags::{check, Engine, EngineRule, LaunchError};
/// use parallel_core::{Plan, PlanConfig, PlanError};
/// // The anchor has 24 heads: TP 16 splits them unevenly.
/// let plan = Plan::new(&PlanConfig { gpus: 16, tp: 16, ..PlanConfig::default() })?;
/// let rule = EngineRule::HeadsByTp { heads: 24, tp: 16 };
/// assert_eq!(
///     check(&plan, Engine::Megatron),
///     Err(PlanError::Launch(LaunchError::Refused { engine: Engine::Megatron, rule }))
/// );
/// assert_eq!(check(&plan, Engine::DeepSpeed), Ok(()));
/// # Ok::<(), PlanError>(())
/// ```
pub fn check(plan: &Plan, engine: Engine) -> Result<(), PlanError> {
    let broken = match engine {
        Engine::Megatron | Engine::Slime => megatron_rule(plan),
        Engine::DeepSpeed => deepspeed_rule(plan),
    };
    match broken {
        Some(rule) => Err(PlanError::Launch(LaunchError::Refused { engine, rule })),
        None => Ok(()),
    }
}

fn megatron_rule(plan: &Plan) -> Option<EngineRule> {
    let model = plan.model();
    let d = plan.degrees();
    let (tp, pp, cp) = (d.tp, d.pp, d.cp);
    if model.heads % tp != 0 {
        return Some(EngineRule::HeadsByTp {
            heads: model.heads,
            tp,
        });
    }
    let groups = model.kv_heads;
    if groups % tp != 0 && tp % groups.max(1) != 0 {
        return Some(EngineRule::QueryGroupsByTp { groups, tp });
    }
    // transformer_config.py (0.19.2): linear_num_key_heads and linear_num_value_heads each a
    // multiple of t·c (its defaults, 16 and 32, where the model's are not published); the
    // value heads are a multiple of the key heads, so the key heads decide.
    if model.full_attention_layers < model.layers {
        let key_heads = model
            .linear
            .map_or(LinearAttention::QWEN3_NEXT.key_heads, |la| la.key_heads);
        if u64::from(key_heads) % (u64::from(tp) * u64::from(cp)).max(1) != 0 {
            return Some(EngineRule::LinearHeadsByTpCp { key_heads, tp, cp });
        }
    }
    let seq_len = plan.seq_len();
    if cp > 1 && u64::from(seq_len) % (2 * u64::from(cp)) != 0 {
        return Some(EngineRule::SeqByTwiceCp { seq_len, cp });
    }
    let layers = megatron_layers(plan);
    if layers % pp != 0 {
        return Some(EngineRule::LayersByPp { layers, pp });
    }
    if let Some(moe) = model.moe {
        if moe.experts % d.ep != 0 {
            return Some(EngineRule::ExpertsByEp {
                experts: moe.experts,
                ep: d.ep,
            });
        }
    }
    if order_clash(plan) && d.dp > 1 {
        return Some(EngineRule::OrderDataParallel {
            attention_dp: d.dp,
            expert_dp: expert_dp(plan),
            moved: moved_by_pp_last(plan),
        });
    }
    if interleaved(plan) {
        if pp <= 1 {
            return Some(EngineRule::InterleavedPp);
        }
        if plan.micro_batches() < pp {
            return Some(EngineRule::InterleavedMicroBatches {
                micro_batches: plan.micro_batches(),
                pp,
            });
        }
    }
    None
}

/// The groups that differ, for some card, between the plan's grid and the same plan in
/// Megatron's default order tp-cp-dp-pp.
fn moved_by_pp_last(plan: &Plan) -> MovedGroups {
    let config = crate::PlanConfig {
        order: RankOrder::TpCpDpPp,
        ..plan.config().clone()
    };
    let Ok(other) = Plan::new(&config) else {
        return MovedGroups::default();
    };
    let (a, b) = (plan.grid(), other.grid());
    // The grid's own `groups` says which groups a card has (EP and EDP only for MoE).
    let (mine, theirs): (Vec<_>, Vec<_>) = (0..plan.gpus())
        .filter_map(|card| Some((a.groups(card).ok()?, b.groups(card).ok()?)))
        .unzip();
    let dims = [Dim::Tp, Dim::Cp, Dim::Pp, Dim::Dp, Dim::Ep, Dim::Edp];
    let mut bits = 0u8;
    for (i, dim) in dims.into_iter().enumerate() {
        if mine
            .iter()
            .zip(&theirs)
            .any(|(x, y)| x.of(dim) != y.of(dim))
        {
            bits |= 1 << i;
        }
    }
    MovedGroups(bits)
}

fn deepspeed_rule(plan: &Plan) -> Option<EngineRule> {
    let d = plan.degrees();
    let zero = plan.zero();
    if zero >= 2 && d.pp > 1 {
        return Some(EngineRule::PipelineZero { zero, pp: d.pp });
    }
    if zero == 0 && plan.precision() == Precision::Fp32Grads {
        return Some(EngineRule::Fp32GradsWithoutZero);
    }
    if zero == 0 && plan.optimizer_offload().on_host() {
        return Some(EngineRule::OffloadWithoutZero);
    }
    let group = d.dp * d.cp;
    if zero == 0 && d.pp > 1 && group > 1 {
        return Some(EngineRule::PipelineShardsStates { pp: d.pp, group });
    }
    if plan.model().is_moe() && plan.order() == RankOrder::TpCpPpDp && d.pp > 1 && d.dp > 1 {
        return Some(EngineRule::MoeStagesInterleaved { pp: d.pp, dp: d.dp });
    }
    None
}
