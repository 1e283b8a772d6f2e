//! The witnesses of the traffic's and the step-time estimate's omissions.

use super::fixtures::{close, inline, plan, preset, row, small, small_moe};
use parallel_core::estimate::{BACKWARD_SHARE, FULL_RECOMPUTE_FACTOR};
use parallel_core::{
    Accounting, Dim, InlineModel, OptimizerOffload, Plan, PlanConfig, Preset, Recompute, Traffic,
};

/// EP's bytes are m·(M/p)·4·((e−1)/e)·(s·b/(c·t))·k·h·2 whatever the number of experts (no
/// imbalance or capacity factor), double with top-k, take bytes ÷ bandwidth, and the MoE
/// layers' activations equal their dense twin's.
pub(super) fn expert_balance() -> Option<bool> {
    let config = PlanConfig {
        gpus: 16,
        ep: 8,
        tp: 2,
        ..PlanConfig::default()
    };
    let ep = |model: InlineModel| -> Option<(Plan, Traffic)> {
        let plan = plan(inline(model, config.clone()))?;
        let row = row(&plan, Dim::Ep)?;
        Some((plan, row))
    };
    let (few_plan, few) = ep(small_moe(16, 2))?;
    let (_, many) = ep(small_moe(32, 2))?;
    let (_, top4) = ep(small_moe(16, 4))?;
    let (m, s, e, t) = (8.0, 4096.0, 8.0, 2.0);
    let by_hand = m * 10.0 * 4.0 * ((e - 1.0) / e) * (s / t) * 2.0 * 1024.0 * 2.0;
    let dense = plan(inline(
        small(),
        PlanConfig {
            ep: 1,
            ..config.clone()
        },
    ))?;
    Some(
        close(few.bytes.get(), by_hand)
            && close(many.bytes.get(), few.bytes.get())
            && close(top4.bytes.get(), 2.0 * few.bytes.get())
            && close(
                few.seconds.get() * few_plan.bandwidth(few.link).get(),
                few.bytes.get(),
            )
            && close(
                few_plan.memory().activations.get(),
                dense.memory().activations.get(),
            ),
    )
}

/// A multi-node MoE plan with every dimension: Mixtral on 64 cards, TP 2 × CP 2 × PP 2, EP 4.
fn every_dimension(seq_len: u32) -> Option<Plan> {
    plan(preset(
        Preset::Mixtral8x7b,
        PlanConfig {
            gpus: 64,
            tp: 2,
            cp: 2,
            pp: 2,
            ep: 4,
            zero: 1,
            seq_len,
            ..PlanConfig::default()
        },
    ))
}

/// Every row's seconds are its bytes ÷ its link's bandwidth, and halving the sequence halves
/// the seconds of TP, CP, EP and PP: no fixed term.
pub(super) fn latency() -> Option<bool> {
    let (long, short) = (every_dimension(4096)?, every_dimension(2048)?);
    let mut plain = true;
    for plan in [&long, &short] {
        let rows = plan.traffic();
        plain &= rows.len() == 6;
        for t in &rows {
            plain &= close(
                t.seconds.get() * plan.bandwidth(t.link).get(),
                t.bytes.get(),
            );
        }
    }
    for dim in [Dim::Tp, Dim::Cp, Dim::Ep, Dim::Pp] {
        let (a, b) = (row(&long, dim)?, row(&short, dim)?);
        plain &= b.seconds.get() > 0.0 && close(a.seconds.get(), 2.0 * b.seconds.get());
    }
    Some(plain)
}

/// The estimate's exposed communication is TP + CP + EP + PP whole (their α–β times) plus
/// what of DP and expert DP two thirds of compute does not cover.
pub(super) fn overlap() -> Option<bool> {
    let plan = every_dimension(4096)?;
    let report = plan.report();
    let times = plan.comm_times(&report.comm);
    let seconds = |dims: &[Dim]| -> f64 {
        times
            .iter()
            .filter(|t| dims.contains(&t.dim))
            .map(|t| t.seconds.get())
            .sum()
    };
    let blocking = seconds(&[Dim::Tp, Dim::Cp, Dim::Ep, Dim::Pp]);
    let hidden = seconds(&[Dim::Dp, Dim::Edp]);
    let compute = report.estimate.compute_s.get();
    let exposed = blocking + (hidden - BACKWARD_SHARE * compute).max(0.0);
    Some(blocking > 0.0 && hidden > 0.0 && close(report.estimate.exposed_comm_s.get(), exposed))
}

/// Full recompute leaves TP's and EP's bytes as without it; its FLOPs are 4/3 of no
/// recompute's, selective's the same as no recompute's.
pub(super) fn recompute_traffic() -> Option<bool> {
    let at = |recompute| {
        plan(preset(
            Preset::Mixtral8x7b,
            PlanConfig {
                gpus: 16,
                tp: 2,
                ep: 8,
                recompute,
                ..PlanConfig::default()
            },
        ))
    };
    let (full, none, selective) = (
        at(Recompute::Full)?,
        at(Recompute::None)?,
        at(Recompute::Selective)?,
    );
    let mut same_bytes = true;
    for dim in [Dim::Tp, Dim::Ep] {
        same_bytes &= close(row(&full, dim)?.bytes.get(), row(&none, dim)?.bytes.get());
    }
    let flops = |plan: &Plan| plan.flops_per_step();
    Some(
        same_bytes
            && close(flops(&selective), flops(&none))
            && close(flops(&full), FULL_RECOMPUTE_FACTOR * flops(&none)),
    )
}

/// CP's bytes on the anchor (8 cards, CP 4) are the forward all-gather alone,
/// m·(F/p)·((c−1)/c)·2·kv_local·head_dim·s·b·2, worked out here from the preset.
pub(super) fn cp_backward() -> Option<bool> {
    let config = PlanConfig {
        gpus: 8,
        cp: 4,
        ..PlanConfig::default()
    };
    let model = Preset::Qwen38_27b.model();
    let (m, c, s, b) = (
        f64::from(config.micro_batches),
        f64::from(config.cp),
        f64::from(config.seq_len),
        f64::from(config.micro_batch_size),
    );
    let kv_local = f64::from(model.kv_heads).max(1.0);
    let forward = m
        * f64::from(model.full_attention_layers)
        * ((c - 1.0) / c)
        * 2.0
        * kv_local
        * f64::from(model.head_dim)
        * s
        * b
        * 2.0;
    let cp = row(&plan(config)?, Dim::Cp)?;
    Some(forward > 0.0 && close(cp.bytes.get(), forward))
}

/// PP's bytes on the anchor at PP 2 are m·2·x with x = 2·s·b·h, at TP 1 and at TP 4 alike.
pub(super) fn pipeline_messages() -> Option<bool> {
    let at = |tp| {
        plan(PlanConfig {
            gpus: 8,
            pp: 2,
            tp,
            ..PlanConfig::default()
        })
    };
    let (one, four) = (at(1)?, at(4)?);
    let h = f64::from(Preset::Qwen38_27b.model().hidden);
    let whole = 8.0 * 2.0 * (2.0 * 4096.0 * 1.0 * h);
    let (pp_one, pp_four) = (row(&one, Dim::Pp)?, row(&four, Dim::Pp)?);
    Some(
        close(pp_one.bytes.get(), whole)
            && close(pp_four.bytes.get(), whole)
            && row(&four, Dim::Tp).is_some_and(|t| t.bytes.get() > 0.0),
    )
}

/// Compute per token is the same for TP 8, PP 8, DP 8 and DP 8 with 4 sequences a
/// micro-batch on the anchor, and halves when gpu_tflops doubles.
pub(super) fn kernel_efficiency() -> Option<bool> {
    let per_token = |config: PlanConfig| -> Option<f64> {
        let e = plan(config)?.estimate();
        Some(e.compute_s.get() / e.tokens_per_step)
    };
    let base = per_token(PlanConfig::default())?;
    let mut flat = true;
    for config in [
        PlanConfig {
            tp: 8,
            ..PlanConfig::default()
        },
        PlanConfig {
            pp: 8,
            ..PlanConfig::default()
        },
        PlanConfig {
            micro_batch_size: 4,
            ..PlanConfig::default()
        },
    ] {
        flat &= close(per_token(config)?, base);
    }
    let faster = per_token(PlanConfig {
        gpu_tflops: 800.0,
        ..PlanConfig::default()
    })?;
    Some(flat && close(2.0 * faster, base))
}

/// Llama 3 405B's 126 layers on 16 stages (7 on stage 0, 8 on stage 1): the bubble is
/// compute × 15/16 and the estimate is the same in both accountings.
pub(super) fn stage_time() -> Option<bool> {
    let at = |accounting| {
        plan(preset(
            Preset::Llama3_405b,
            PlanConfig {
                gpus: 16,
                pp: 16,
                micro_batches: 16,
                accounting,
                ..PlanConfig::default()
            },
        ))
    };
    let (even, stages) = (at(Accounting::Even)?, at(Accounting::Stages)?);
    let (a, b) = (even.estimate(), stages.estimate());
    Some(
        stages.stage_layers(0) != stages.stage_layers(1)
            && close(even.bubble().ratio, 15.0 / 16.0)
            && close(a.bubble_s.get(), a.compute_s.get() * 15.0 / 16.0)
            && a == b,
    )
}

/// A step is compute + bubble + exposed communication, and ZeRO 0 and ZeRO 3 (whose DP
/// traffic differs) take the same compute.
pub(super) fn outside_the_step() -> Option<bool> {
    let mut sums = true;
    for plan in [
        plan(PlanConfig::default())?,
        plan(PlanConfig::lesson_64_gpus())?,
        every_dimension(4096)?,
    ] {
        let e = plan.estimate();
        sums &= close(
            e.step_s.get(),
            e.compute_s.get() + e.bubble_s.get() + e.exposed_comm_s.get(),
        );
    }
    let (zero0, zero3) = (
        plan(PlanConfig::default())?,
        plan(PlanConfig::lesson_8_gpus())?,
    );
    let dp_differs = !close(
        row(&zero0, Dim::Dp)?.bytes.get(),
        row(&zero3, Dim::Dp)?.bytes.get(),
    );
    Some(
        sums && dp_differs
            && close(
                zero0.estimate().compute_s.get(),
                zero3.estimate().compute_s.get(),
            ),
    )
}

/// With the optimizer on the host, the step is the same step plus the PCIe row's seconds and
/// nothing else (no CPU term); the control: the PCIe bandwidth does move it.
pub(super) fn cpu_update() -> Option<bool> {
    let on_card = PlanConfig {
        zero: 1,
        ..PlanConfig::default()
    };
    let on_host = |pcie_gbps: f64| PlanConfig {
        optimizer_offload: OptimizerOffload::Cpu,
        pcie_gbps,
        ..on_card.clone()
    };
    let (card, host, slow) = (
        plan(on_card.clone())?,
        plan(on_host(50.0))?,
        plan(on_host(25.0))?,
    );
    let pcie = row(&host, Dim::Offload)?.seconds.get();
    let (e_card, e_host, e_slow) = (card.estimate(), host.estimate(), slow.estimate());
    Some(
        pcie > 0.0
            && close(e_host.step_s.get(), e_card.step_s.get() + pcie)
            && e_host.compute_s == e_card.compute_s
            && close(e_slow.step_s.get() - e_card.step_s.get(), 2.0 * pcie),
    )
}
