//! The figures of the lesson's evolution map (seed 001, "演进地图") that are ours to compute:
//! each generation of parallelism, the number that made it necessary and the one that stopped
//! it. Published figures (GPU hours, MFU, TFLOPS of a paper) stay with their sources and are
//! only combined here with our formulas.

use serde::Serialize;

use crate::config::{PlanConfig, Recompute, Schedule};
use crate::cp_layout::{causal_pairs, CpLayout};
use crate::error::PlanError;
use crate::grid::Dim;
use crate::model::Preset;
use crate::plan::Plan;
use crate::schedule::{simulate_schedule, ScheduleView};
use crate::units::{Bytes, BytesPerSec, Seconds};

/// DeepSeek-V3's pre-training cost as published: 2,664K H800 GPU hours (report §1).
pub const DEEPSEEK_V3_GPU_HOURS: f64 = 2_664_000.0;
/// Hours in a Julian year.
const HOURS_PER_YEAR: f64 = 24.0 * 365.25;
/// Effective compute assumed for the bucketing estimate: 400 TFLOPS per card.
pub const EFFECTIVE_FLOPS: f64 = 400e12;

/// Every computed figure of the evolution map.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct EvolutionFigures {
    /// Model states of the anchor on one card: 16 bytes × P (444.5 GB).
    pub single_card_states: Bytes,
    /// single_card_states ÷ an 80 GB card (5.6×).
    pub times_a_card: f64,
    /// DeepSeek-V3's GPU hours on one card, in years (≈ 304).
    pub one_card_years: f64,
    /// Ring all-reduce of BF16 gradients per card: 8 cards (97.2 GB) and 64 cards (109.4 GB).
    pub ring_dp_8: Bytes,
    /// The same on 64 cards.
    pub ring_dp_64: Bytes,
    /// Naive gather to card 0: (N−1)·2P bytes into one card, 8 cards (388.9 GB).
    pub naive_gather_8: Bytes,
    /// The same on 64 cards (3,500 GB).
    pub naive_gather_64: Bytes,
    /// ring_dp_8 over InfiniBand at 50 GB/s (1.94 s).
    pub ring_dp_8_over_ib: Seconds,
    /// Backward of 4,096 tokens on one card: 4·P·tokens FLOPs at [`EFFECTIVE_FLOPS`].
    pub backward_4096_tokens: Seconds,
    /// ZeRO-0 → 3 model states per card on 8 cards (444.5 → 152.8 → 104.2 → 55.6 GB).
    pub zero_chain_8: [Bytes; 4],
    /// ZeRO-3 traffic ÷ plain DP traffic (1.5).
    pub zero3_traffic_factor: f64,
    /// Selective-recompute activations on 8 cards with DP (45.6 GB).
    pub selective_activations_dp8: Bytes,
    /// What an 80 GB card has left beside ZeRO-3's 55.6 GB (24.4 GB).
    pub room_beside_zero3: Bytes,
    /// Selective-recompute activations with TP 8 (5.7 GB).
    pub selective_activations_tp8: Bytes,
    /// TP 8 traffic per card for one micro-batch of 4,096 tokens (18.8 GB).
    pub tp8_traffic_4096_tokens: Bytes,
    /// Bubble ratio, p = 8, m = 32 (21.9%).
    pub bubble_p8_m32: f64,
    /// Its share of the step (17.9%).
    pub bubble_share_p8_m32: f64,
    /// Interleaved, v = 4 (5.5%).
    pub bubble_p8_m32_v4: f64,
    /// ZB-H1's bubble as a fraction of 1F1B's with F = B = W (1/3).
    pub zb_h1_fraction: f64,
    /// Causal pairs of 16 tokens on CP 4, contiguous (10 : 26 : 42 : 58).
    pub cp4_contiguous_pairs: Vec<u64>,
    /// CP all-gather per full-attention layer per card, s = 131,072 on 8 cards (0.5 GB).
    pub cp8_per_layer_131k: Bytes,
    /// DeepSeek-V3's routed expert parameters (653.9e9).
    pub deepseek_routed_params: f64,
    /// Its routed experts per card per layer with EP 64 (4).
    pub deepseek_experts_per_card: f64,
    /// InfiniBand ÷ NVLink bandwidth (50/160 ≈ 0.31).
    pub ib_over_nvlink: f64,
}

fn plan(config: PlanConfig) -> Result<Plan, PlanError> {
    Plan::new(&config)
}

fn traffic_of(plan: &Plan, dim: Dim) -> Bytes {
    plan.traffic()
        .into_iter()
        .find(|t| t.dim == dim)
        .map_or(Bytes::ZERO, |t| t.bytes)
}

impl EvolutionFigures {
    /// Computes every figure from the anchor model, the lesson's defaults and DeepSeek-V3.
    ///
    /// ```
    /// use parallel_core::evolution::EvolutionFigures;
    /// let f = EvolutionFigures::compute()?;
    /// assert_eq!(f.single_card_states.to_string(), "444.5 GB");
    /// assert_eq!(f.ring_dp_8_over_ib.to_string(), "1.94 s");
    /// assert_eq!(f.cp4_contiguous_pairs, [10, 26, 42, 58]);
    /// # Ok::<(), parallel_core::PlanError>(())
    /// ```
    pub fn compute() -> Result<EvolutionFigures, PlanError> {
        let anchor = Preset::Qwen38_27b.model();
        let p = anchor.params;
        let single = plan(PlanConfig {
            gpus: 1,
            ..PlanConfig::default()
        })?;
        let single_card_states = single.memory().model_states;
        let ring = |gpus| -> Result<Bytes, PlanError> {
            Ok(traffic_of(
                &plan(PlanConfig {
                    gpus,
                    ..PlanConfig::default()
                })?,
                Dim::Dp,
            ))
        };
        let ring_dp_8 = ring(8)?;
        let zero = |zero| {
            plan(PlanConfig {
                zero,
                ..PlanConfig::default()
            })
        };
        let mut zero_chain_8 = [Bytes::ZERO; 4];
        for (stage, slot) in zero_chain_8.iter_mut().enumerate() {
            *slot = zero(stage as u8)?.memory().model_states;
        }
        let zero3 = zero(3)?;
        let zero3_traffic_factor = traffic_of(&zero3, Dim::Dp).get() / ring_dp_8.get();
        let selective = |tp| -> Result<Bytes, PlanError> {
            let config = PlanConfig {
                tp,
                zero: 3,
                recompute: Recompute::Selective,
                ..PlanConfig::default()
            };
            Ok(plan(config)?.memory().activations)
        };
        let zero3 = zero3.memory();
        let tp8_one_micro_batch = plan(PlanConfig {
            tp: 8,
            micro_batches: 1,
            ..PlanConfig::default()
        })?;
        let pipeline = |schedule, virtual_stages| -> Result<crate::Bubble, PlanError> {
            let config = PlanConfig {
                gpus: 64,
                tp: 8,
                pp: 8,
                micro_batches: 32,
                schedule,
                virtual_stages,
                ..PlanConfig::default()
            };
            Ok(plan(config)?.bubble())
        };
        let one_f_one_b = pipeline(Schedule::OneFOneB, 1)?;
        let cp8 = plan(PlanConfig {
            cp: 8,
            seq_len: 131_072,
            micro_batches: 1,
            ..PlanConfig::default()
        })?;
        let per_layer = traffic_of(&cp8, Dim::Cp) / f64::from(anchor.full_attention_layers);
        // ZB-H1 against 1F1B with F = B = W, p = 8, m = 32: idle ticks beyond the 3m of work.
        let idle = |view| -> Result<f64, PlanError> {
            Ok(f64::from(
                simulate_schedule(view, 8, 32, 1)?.total_ticks - 3 * 32,
            ))
        };
        let zb_h1_fraction = idle(ScheduleView::ZbH1)? / idle(ScheduleView::OneFOneB)?;
        let deepseek = Preset::DeepseekV3.model();
        let deepseek_experts = deepseek.moe.map_or(0.0, |m| f64::from(m.experts));
        let nvlink = BytesPerSec::from_gbps(PlanConfig::default().nvlink_gbps);
        let ib = BytesPerSec::from_gbps(PlanConfig::default().ib_gbps);
        Ok(EvolutionFigures {
            single_card_states,
            times_a_card: single_card_states.get() / single.capacity().get(),
            one_card_years: DEEPSEEK_V3_GPU_HOURS / HOURS_PER_YEAR,
            ring_dp_8,
            ring_dp_64: ring(64)?,
            naive_gather_8: Bytes::new(7.0 * 2.0 * p),
            naive_gather_64: Bytes::new(63.0 * 2.0 * p),
            ring_dp_8_over_ib: ring_dp_8 / ib,
            backward_4096_tokens: Seconds::new(4.0 * p * 4096.0 / EFFECTIVE_FLOPS),
            zero_chain_8,
            zero3_traffic_factor,
            selective_activations_dp8: selective(1)?,
            room_beside_zero3: Bytes::new(zero3.capacity.get() - zero3.model_states.get()),
            selective_activations_tp8: selective(8)?,
            tp8_traffic_4096_tokens: traffic_of(&tp8_one_micro_batch, Dim::Tp),
            bubble_p8_m32: one_f_one_b.ratio,
            bubble_share_p8_m32: one_f_one_b.share,
            bubble_p8_m32_v4: pipeline(Schedule::Interleaved, 4)?.ratio,
            zb_h1_fraction,
            cp4_contiguous_pairs: causal_pairs(16, 4, CpLayout::Contiguous).unwrap_or_default(),
            cp8_per_layer_131k: per_layer,
            deepseek_routed_params: deepseek.routed_params(),
            deepseek_experts_per_card: deepseek_experts / 64.0,
            ib_over_nvlink: ib.get() / nvlink.get(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn figures_match_the_lesson() {
        let f = EvolutionFigures::compute().unwrap();
        let gb = |b: Bytes| b.to_string();
        assert_eq!(format!("{:.1}", f.times_a_card), "5.6");
        assert_eq!(format!("{:.0}", f.one_card_years), "304");
        assert_eq!(
            (gb(f.ring_dp_8), gb(f.ring_dp_64)),
            ("97.2 GB".into(), "109.4 GB".into())
        );
        assert_eq!(gb(f.naive_gather_8), "388.9 GB");
        assert_eq!(format!("{:.0}", f.naive_gather_64.gb()), "3500");
        assert_eq!(
            f.zero_chain_8.map(gb),
            ["444.5 GB", "152.8 GB", "104.2 GB", "55.6 GB"]
        );
        assert_eq!(format!("{:.2}", f.zero3_traffic_factor), "1.50");
        assert_eq!(gb(f.selective_activations_dp8), "45.6 GB");
        assert_eq!(gb(f.room_beside_zero3), "24.4 GB");
        assert_eq!(gb(f.selective_activations_tp8), "5.7 GB");
        assert_eq!(gb(f.tp8_traffic_4096_tokens), "18.8 GB");
        assert_eq!(format!("{:.1}%", f.bubble_p8_m32 * 100.0), "21.9%");
        assert_eq!(format!("{:.1}%", f.bubble_share_p8_m32 * 100.0), "17.9%");
        assert_eq!(format!("{:.1}%", f.bubble_p8_m32_v4 * 100.0), "5.5%");
        assert_eq!(f.zb_h1_fraction, 1.0 / 3.0);
        assert_eq!(gb(f.cp8_per_layer_131k), "0.5 GB");
        assert_eq!(format!("{:.1}", f.deepseek_routed_params / 1e9), "653.9");
        assert_eq!(f.deepseek_experts_per_card, 4.0);
        assert_eq!(format!("{:.2}", f.backward_4096_tokens.get()), "1.14");
    }
}
