//! [`Plan`]: a [`PlanConfig`] that passed every check of SPEC §2, so later formulas can
//! trust it (every degree ≥ 1, t·p·c divides N, the model resolved).

use crate::checks::{
    at_least_one, at_most, bounded, effective, non_negative, params_at_peak, positive_finite,
    routing, share,
};
use crate::config::{
    Field, ModelField, OptimizerOffload, PlanConfig, Precision, RankOrder, Recompute, Schedule,
};
use crate::error::{PlanError, Warning};
use crate::formula::{count_of, Quantity};
use crate::grid::Grid;
use crate::kernels::Kernels;
use crate::model::{Model, ModelChoice};
use crate::units::{Bytes, BytesPerSec};

/// The largest grid the core accepts (2^20 cards): far beyond any real cluster, small enough
/// that every rank and product fits in 32 bits and no request can make the page crawl.
pub const MAX_GPUS: u32 = 1 << 20;

/// The largest sequence length accepted: 2^26 tokens (64 Mi).
pub const MAX_SEQ_LEN: u32 = 1 << 26;

/// The parallel degrees of a valid plan.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Degrees {
    /// Tensor parallel t.
    pub tp: u32,
    /// Pipeline parallel p.
    pub pp: u32,
    /// Context parallel c.
    pub cp: u32,
    /// Data parallel d = N / (t·p·c).
    pub dp: u32,
    /// Expert parallel e.
    pub ep: u32,
    /// Expert data parallel N/(e·p): the cards holding the same experts (MoE models only).
    pub expert_dp: Option<u32>,
}

impl Degrees {
    /// D = d·c: the cards holding the same dense weights (ZeRO and gradient group, SPEC §4).
    pub fn weight_group(&self) -> u32 {
        self.dp * self.cp
    }
}

/// A validated plan. Build it with [`Plan::new`]; every other function of the crate takes it.
///
/// # Example
/// ```
/// use parallel_core::{Plan, PlanConfig};
/// let plan = Plan::new(&PlanConfig { gpus: 64, tp: 8, pp: 2, ..PlanConfig::default() }).unwrap();
/// assert_eq!(plan.degrees().dp, 4);
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Plan {
    config: PlanConfig,
    model: Model,
    gpus: u32,
    gpus_per_node: u32,
    degrees: Degrees,
    micro_batches: u32,
    micro_batch_size: u32,
    seq_len: u32,
    zero: u8,
    recompute: Recompute,
    schedule: Schedule,
    virtual_stages: u32,
    precision: Precision,
    capacity: Bytes,
    nvlink: BytesPerSec,
    ib: BytesPerSec,
    pcie: BytesPerSec,
    order: RankOrder,
    warnings: Vec<Warning>,
}

impl Default for Plan {
    /// The plan of [`PlanConfig::default()`] (8 GPUs of DP, the anchor model), which is valid
    /// by construction: a test checks it equals `Plan::new(&PlanConfig::default())`. The page
    /// falls back to it without a panic path.
    fn default() -> Plan {
        let config = PlanConfig::default();
        Plan::assemble(
            &config,
            crate::model::Preset::Qwen38_27b.model(),
            config.gpus,
            Vec::new(),
        )
    }
}

/// The data-parallel degree d = N/(t·p·c) (SPEC §2), as a formula.
pub(crate) fn data_parallel_degree<Q: Quantity>(gpus: u32, tp: u32, pp: u32, cp: u32) -> Q {
    count_of::<Q>("N", gpus) / (count_of::<Q>("t", tp) * count_of("p", pp) * count_of("c", cp))
}

impl PlanConfig {
    /// The data-parallel degree d = N/(t·p·c) of this config as it stands (SPEC §2), when the
    /// degrees are at least 1 and divide the cards; `None` otherwise. What a page shows as the
    /// derived DP while its controls hold a plan the core refuses for any reason.
    ///
    /// ```
    /// use parallel_core::PlanConfig;
    /// let c = PlanConfig { gpus: 8, tp: 2, ..PlanConfig::default() };
    /// assert_eq!(c.derived_dp(), Some(4));
    /// assert_eq!(PlanConfig { tp: 3, ..c }.derived_dp(), None);
    /// ```
    pub fn derived_dp(&self) -> Option<u32> {
        if self.gpus == 0 || self.tp == 0 || self.pp == 0 || self.cp == 0 {
            return None;
        }
        let d: f64 = data_parallel_degree(self.gpus, self.tp, self.pp, self.cp);
        (d >= 1.0 && d.fract() == 0.0).then_some(d as u32)
    }
}

impl Plan {
    /// Checks a config and resolves its model (SPEC §2).
    ///
    /// Field checks run in the order of the config table (model, gpus, gpus_per_node, tp, pp,
    /// cp, ep, micro_batches, micro_batch_size, seq_len, zero, virtual_stages, gpu_memory_gb,
    /// nvlink_gbps, ib_gbps, gpu_tflops, hbm_tbps, peak_tflops, matmul_efficiency, the two
    /// latencies, pcie_gbps, host_memory_gb; `optimizer_offload`'s value is checked when the
    /// config is read), then the checks across fields, in this order: N divisible by
    /// t·p·c (`gpus`); v > 1 only when interleaved (`virtual_stages`); interleaved needs p > 1
    /// (`schedule`), m divisible by p (`micro_batches`) and L (or L + 2, Llama 3's uneven first and last stage) divisible by p·v
    /// (`virtual_stages`); e > 1 only for MoE models (`ep`); for MoE, N divisible by e·p (`ep`);
    /// then the rollout engines' checks ([`crate::Rollout::check`], SPEC §15). The first
    /// failing check is returned. Beyond the spec, N is capped at [`MAX_GPUS`] and
    /// s at [`MAX_SEQ_LEN`] so that every product stays exact and fast.
    ///
    /// Warnings (the plan is still valid): t > gpus_per_node, L not divisible by p,
    /// s not divisible by 2c when c > 1, and, with the optimizer on the host, a node whose
    /// offloaded states outgrow `host_memory_gb` (SPEC §14).
    pub fn new(config: &PlanConfig) -> Result<Plan, PlanError> {
        Plan::with_model(config, config.model.resolve()?)
    }

    /// [`Plan::new`] with the config's model already resolved (the search resolves it once
    /// for every candidate plan).
    pub(crate) fn with_model(config: &PlanConfig, model: Model) -> Result<Plan, PlanError> {
        let c = config;
        at_least_one(c.gpus, Field::Gpus)?;
        at_most(c.gpus, MAX_GPUS, Field::Gpus)?;
        at_least_one(c.gpus_per_node, Field::GpusPerNode)?;
        at_least_one(c.tp, Field::Tp)?;
        at_least_one(c.pp, Field::Pp)?;
        at_least_one(c.cp, Field::Cp)?;
        at_least_one(c.ep, Field::Ep)?;
        at_least_one(c.micro_batches, Field::MicroBatches)?;
        at_most(c.micro_batches, MAX_GPUS, Field::MicroBatches)?;
        at_least_one(c.micro_batch_size, Field::MicroBatchSize)?;
        at_most(c.micro_batch_size, MAX_GPUS, Field::MicroBatchSize)?;
        at_least_one(c.seq_len, Field::SeqLen)?;
        at_most(c.seq_len, MAX_SEQ_LEN, Field::SeqLen)?;
        if c.zero > 3 {
            return Err(PlanError::ZeroStage { got: c.zero });
        }
        at_least_one(c.virtual_stages, Field::VirtualStages)?;
        // Each real-valued field in the config's order: its kind (a latency may be 0, an
        // efficiency is a share, the others are positive), then its physical bound (`bounds`).
        for (field, value) in c.reals() {
            let value = match field {
                Field::MatmulEfficiency => share(value, field)?,
                Field::NvlinkLatencyUs | Field::IbLatencyUs => non_negative(value, field)?,
                _ => positive_finite(value, field)?,
            };
            bounded(value, field)?;
        }
        let kernels = Kernels::of(c);
        let fastest = kernels.map_or(c.gpu_tflops, |k| k.max_rate());
        effective(c.gpu_tflops, c.peak_tflops, fastest)?;
        if kernels.is_some() {
            let field = match c.model {
                ModelChoice::Inline(_) => Field::InlineModel(ModelField::Params),
                _ => Field::Model,
            };
            let ratio = model.given_over_shape().max(1.0);
            params_at_peak(model.params, ratio, fastest, c.peak_tflops, field)?;
        }

        let (p, cp, e) = (u64::from(c.pp), u64::from(c.cp), u64::from(c.ep));
        let n = u64::from(c.gpus);
        // In u128: three factors of up to 2^32 each cannot overflow it.
        let tpc = u128::from(c.tp) * u128::from(c.pp) * u128::from(c.cp);
        if tpc > u128::from(n) || u128::from(n) % tpc != 0 {
            return Err(PlanError::NotDivisible {
                gpus: c.gpus,
                tp: c.tp,
                pp: c.pp,
                cp: c.cp,
            });
        }
        let interleaved = c.schedule == Schedule::Interleaved;
        if c.virtual_stages > 1 && !interleaved {
            return Err(PlanError::ChunksNeedInterleaved {
                virtual_stages: c.virtual_stages,
                schedule: c.schedule.as_str(),
            });
        }
        if interleaved {
            if c.pp == 1 {
                return Err(PlanError::InterleavedNeedsPipeline);
            }
            if c.micro_batches % c.pp != 0 {
                return Err(PlanError::InterleavedMicroBatches {
                    micro_batches: c.micro_batches,
                    pp: c.pp,
                });
            }
            // L or L + 2 in whole chunks: Llama 3 (arXiv 2407.21783 §3.3.2) runs 126 layers
            // on 16 interleaved stages by giving the first and the last stage one layer fewer
            // (their embedding and output head take its place).
            let chunks = p * u64::from(c.virtual_stages);
            let layers = u64::from(model.layers);
            if layers % chunks != 0 && (layers + 2) % chunks != 0 {
                return Err(PlanError::InterleavedLayers {
                    layers: model.layers,
                    pp: c.pp,
                    virtual_stages: c.virtual_stages,
                });
            }
        }
        match model.moe {
            None if c.ep > 1 => {
                return Err(PlanError::EpNeedsMoe {
                    model: c.model.label().to_string(),
                })
            }
            Some(_) if n % (e * p) != 0 || e * p > n => {
                return Err(PlanError::EpNotDivisible {
                    gpus: c.gpus,
                    ep: c.ep,
                    pp: c.pp,
                })
            }
            Some(moe) if moe.experts % c.ep != 0 => {
                return Err(PlanError::ExpertsNotDivisible {
                    experts: moe.experts,
                    ep: c.ep,
                })
            }
            _ => {}
        }

        routing(
            c.routing_skew,
            c.capacity_factor,
            model
                .moe
                .map(|moe| f64::from(moe.experts) / f64::from(moe.top_k)),
        )?;
        crate::checks::sequence_skew(c.sequence_skew, c.seq_len, MAX_SEQ_LEN)?;
        if let Some(rollout) = &c.rollout {
            rollout.check(c.gpus)?;
        }

        let mut warnings = Vec::new();
        if c.tp > c.gpus_per_node {
            warnings.push(Warning::TpAcrossNodes {
                tp: c.tp,
                gpus_per_node: c.gpus_per_node,
            });
        }
        // Megatron-Core warns and runs (ModelParallelConfig.__post_init__, SPEC §22).
        if model.is_moe() && c.ep > 1 && c.tp > 1 && !c.sequence_parallel {
            warnings.push(Warning::ExpertsWithoutSequenceParallel { tp: c.tp, ep: c.ep });
        }
        if model.layers % c.pp != 0 {
            warnings.push(Warning::LayersNotDivisible {
                layers: model.layers,
                pp: c.pp,
            });
        }
        if c.cp > 1 && u64::from(c.seq_len) % (2 * cp) != 0 {
            warnings.push(Warning::ZigzagPadding {
                seq_len: c.seq_len,
                cp: c.cp,
            });
        }

        // N is a multiple of t·p·c (checked above), so d is whole.
        let dp = data_parallel_degree::<f64>(c.gpus, c.tp, c.pp, c.cp) as u32;
        let mut plan = Plan::assemble(c, model, dp, warnings);
        if let Some(host) = plan.host_memory().filter(|host| !host.fits) {
            plan.warnings.push(Warning::HostMemoryOver {
                per_node_gb: host.per_node.get() / 1e9,
                host_memory_gb: c.host_memory_gb,
            });
        }
        Ok(plan)
    }

    /// Builds the plan from a config already checked by [`Plan::new`] (or known valid).
    fn assemble(c: &PlanConfig, model: Model, dp: u32, warnings: Vec<Warning>) -> Plan {
        let moe = model.is_moe();
        Plan {
            config: c.clone(),
            model,
            gpus: c.gpus,
            gpus_per_node: c.gpus_per_node,
            degrees: Degrees {
                tp: c.tp,
                pp: c.pp,
                cp: c.cp,
                dp,
                ep: c.ep,
                expert_dp: moe.then(|| c.gpus / (c.ep * c.pp)),
            },
            micro_batches: c.micro_batches,
            micro_batch_size: c.micro_batch_size,
            seq_len: c.seq_len,
            zero: c.zero,
            recompute: c.recompute,
            schedule: c.schedule,
            virtual_stages: c.virtual_stages,
            precision: c.precision,
            capacity: Bytes::from_gb(c.gpu_memory_gb),
            nvlink: BytesPerSec::from_gbps(c.nvlink_gbps),
            ib: BytesPerSec::from_gbps(c.ib_gbps),
            pcie: BytesPerSec::from_gbps(c.pcie_gbps),
            order: c.order,
            warnings,
        }
    }

    /// The config this plan was checked from (to evaluate a variant: change a field and
    /// call [`Plan::new`] again).
    ///
    /// ```
    /// use parallel_core::{Plan, PlanConfig};
    /// let plan = Plan::new(&PlanConfig::lesson_8_gpus())?;
    /// let zero0 = Plan::new(&PlanConfig { zero: 0, ..plan.config().clone() })?;
    /// assert_eq!(zero0.memory().model_states.to_string(), "444.5 GB");
    /// # Ok::<(), parallel_core::PlanError>(())
    /// ```
    pub fn config(&self) -> &PlanConfig {
        &self.config
    }

    /// The resolved model.
    pub fn model(&self) -> &Model {
        &self.model
    }
    /// N, total GPUs.
    pub fn gpus(&self) -> u32 {
        self.gpus
    }
    /// GPUs per node.
    pub fn gpus_per_node(&self) -> u32 {
        self.gpus_per_node
    }
    /// t, p, c, d, e.
    pub fn degrees(&self) -> Degrees {
        self.degrees
    }
    /// m, micro-batches per step per pipeline.
    pub fn micro_batches(&self) -> u32 {
        self.micro_batches
    }
    /// b, sequences per micro-batch.
    pub fn micro_batch_size(&self) -> u32 {
        self.micro_batch_size
    }
    /// s, tokens per sequence.
    pub fn seq_len(&self) -> u32 {
        self.seq_len
    }
    /// ZeRO stage 0–3.
    pub fn zero(&self) -> u8 {
        self.zero
    }
    /// Activation recomputation.
    pub fn recompute(&self) -> Recompute {
        self.recompute
    }
    /// Whether sequence parallelism splits the norms' and dropouts' activations: on in the
    /// config and t > 1 (at t = 1 there is nothing to split; Megatron-LM turns it off there
    /// too, megatron/training/arguments.py). SPEC §22.
    pub fn sequence_parallel(&self) -> bool {
        self.config.sequence_parallel && self.degrees.tp > 1
    }
    /// Whether each card of a TP group keeps the whole sequence outside TP's blocks: t > 1
    /// and sequence parallelism off. At t = 1 the split and the whole are the same tensor and
    /// the formulas keep their split form.
    pub(crate) fn sequence_whole(&self) -> bool {
        self.degrees.tp > 1 && !self.config.sequence_parallel
    }
    /// Pipeline schedule.
    pub fn schedule(&self) -> Schedule {
        self.schedule
    }
    /// v, model chunks per stage (1 unless interleaved).
    pub fn virtual_stages(&self) -> u32 {
        self.virtual_stages
    }
    /// Byte ledger.
    pub fn precision(&self) -> Precision {
        self.precision
    }
    /// Where the optimizer states live (SPEC §14).
    pub fn optimizer_offload(&self) -> OptimizerOffload {
        self.config.optimizer_offload
    }
    /// Card capacity.
    pub fn capacity(&self) -> Bytes {
        self.capacity
    }
    /// Rank order.
    pub fn order(&self) -> RankOrder {
        self.order
    }
    /// Soft problems found while checking.
    pub fn warnings(&self) -> &[Warning] {
        &self.warnings
    }

    /// The bandwidth of a link class.
    pub fn bandwidth(&self, link: crate::grid::Link) -> BytesPerSec {
        match link {
            crate::grid::Link::NvLink => self.nvlink,
            crate::grid::Link::InfiniBand => self.ib,
            crate::grid::Link::Pcie => self.pcie,
        }
    }

    /// The device grid of this plan.
    pub fn grid(&self) -> Grid {
        let d = self.degrees;
        let grid = Grid::new(
            self.gpus,
            self.gpus_per_node,
            [d.tp, d.cp, d.pp, d.dp],
            self.order,
        );
        if self.model.is_moe() {
            grid.with_ep(d.ep)
        } else {
            grid
        }
    }

    /// Tokens per step across the whole grid: d · m · b · s (each pipeline runs m micro-batches
    /// of b sequences of s tokens; CP splits a sequence, it adds no tokens).
    pub fn tokens_per_step(&self) -> f64 {
        self.tokens()
    }

    /// [`Plan::tokens_per_step`] as a formula: T = d·m·b·s.
    pub(crate) fn tokens<Q: Quantity>(&self) -> Q {
        count_of::<Q>("d", self.degrees.dp)
            * count_of("m", self.micro_batches)
            * count_of("b", self.micro_batch_size)
            * count_of("s", self.seq_len)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_plan_is_the_checked_default_config() {
        assert_eq!(Plan::default(), Plan::new(&PlanConfig::default()).unwrap());
    }
}
