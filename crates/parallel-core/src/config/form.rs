//! The serde form of [`PlanConfig`]: what a config file, the CLI's stdin or a page's JSON
//! holds. Every field may be left out; the card fields that are left out come from the
//! `hardware` preset, so that an explicit field wins over the preset's (SPEC §17).

use serde::Deserialize;

use super::{
    Accounting, OptimizerOffload, PlanConfig, Precision, RankOrder, Recompute, Rollout, Schedule,
};
use crate::hardware::Hardware;
use crate::model::ModelChoice;

/// [`PlanConfig`] as written: the card fields are optional.
#[derive(Deserialize)]
#[serde(default, deny_unknown_fields)]
pub(super) struct PlanConfigForm {
    model: ModelChoice,
    gpus: u32,
    gpus_per_node: u32,
    tp: u32,
    pp: u32,
    cp: u32,
    ep: u32,
    micro_batches: u32,
    micro_batch_size: u32,
    seq_len: u32,
    zero: u8,
    recompute: Recompute,
    schedule: Schedule,
    virtual_stages: u32,
    precision: Precision,
    gpu_memory_gb: Option<f64>,
    nvlink_gbps: Option<f64>,
    ib_gbps: Option<f64>,
    order: RankOrder,
    accounting: Accounting,
    gpu_tflops: Option<f64>,
    global_batch: Option<u32>,
    hardware: Hardware,
    hbm_tbps: Option<f64>,
    peak_tflops: Option<f64>,
    matmul_efficiency: Option<f64>,
    nvlink_latency_us: Option<f64>,
    ib_latency_us: Option<f64>,
    optimizer_offload: OptimizerOffload,
    pcie_gbps: f64,
    host_memory_gb: f64,
    rollout: Option<Rollout>,
    log_probs_chunk: u32,
    routing_skew: f64,
    capacity_factor: Option<f64>,
    sequence_parallel: bool,
    runtime_memory: bool,
    sequence_skew: f64,
}

impl Default for PlanConfigForm {
    fn default() -> Self {
        let c = PlanConfig::default();
        PlanConfigForm {
            model: c.model,
            gpus: c.gpus,
            gpus_per_node: c.gpus_per_node,
            tp: c.tp,
            pp: c.pp,
            cp: c.cp,
            ep: c.ep,
            micro_batches: c.micro_batches,
            micro_batch_size: c.micro_batch_size,
            seq_len: c.seq_len,
            zero: c.zero,
            recompute: c.recompute,
            schedule: c.schedule,
            virtual_stages: c.virtual_stages,
            precision: c.precision,
            gpu_memory_gb: None,
            nvlink_gbps: None,
            ib_gbps: None,
            order: c.order,
            accounting: c.accounting,
            gpu_tflops: None,
            global_batch: c.global_batch,
            hardware: c.hardware,
            hbm_tbps: None,
            peak_tflops: None,
            matmul_efficiency: None,
            nvlink_latency_us: None,
            ib_latency_us: None,
            optimizer_offload: c.optimizer_offload,
            pcie_gbps: c.pcie_gbps,
            host_memory_gb: c.host_memory_gb,
            rollout: c.rollout,
            log_probs_chunk: c.log_probs_chunk,
            routing_skew: c.routing_skew,
            capacity_factor: c.capacity_factor,
            sequence_parallel: c.sequence_parallel,
            runtime_memory: c.runtime_memory,
            sequence_skew: c.sequence_skew,
        }
    }
}

impl From<PlanConfigForm> for PlanConfig {
    fn from(f: PlanConfigForm) -> PlanConfig {
        let d = PlanConfig::default();
        let card = f.hardware.card();
        let mut c = PlanConfig {
            model: f.model,
            gpus: f.gpus,
            gpus_per_node: f.gpus_per_node,
            tp: f.tp,
            pp: f.pp,
            cp: f.cp,
            ep: f.ep,
            micro_batches: f.micro_batches,
            micro_batch_size: f.micro_batch_size,
            seq_len: f.seq_len,
            zero: f.zero,
            recompute: f.recompute,
            schedule: f.schedule,
            virtual_stages: f.virtual_stages,
            precision: f.precision,
            gpu_memory_gb: f.gpu_memory_gb.unwrap_or(card.memory_gb),
            nvlink_gbps: f.nvlink_gbps.unwrap_or(card.scale_up_gbps),
            ib_gbps: f.ib_gbps.unwrap_or(card.scale_out_gbps),
            order: f.order,
            accounting: f.accounting,
            gpu_tflops: d.gpu_tflops,
            global_batch: f.global_batch,
            hardware: f.hardware,
            hbm_tbps: f.hbm_tbps.unwrap_or(card.hbm_tbps),
            peak_tflops: f.peak_tflops.unwrap_or(card.peak_tflops),
            matmul_efficiency: f.matmul_efficiency.unwrap_or(d.matmul_efficiency),
            nvlink_latency_us: f.nvlink_latency_us.unwrap_or(card.step_latency_us[0]),
            ib_latency_us: f.ib_latency_us.unwrap_or(card.step_latency_us[1]),
            optimizer_offload: f.optimizer_offload,
            pcie_gbps: f.pcie_gbps,
            host_memory_gb: f.host_memory_gb,
            rollout: f.rollout,
            log_probs_chunk: f.log_probs_chunk,
            routing_skew: f.routing_skew,
            capacity_factor: f.capacity_factor,
            sequence_parallel: f.sequence_parallel,
            runtime_memory: f.runtime_memory,
            sequence_skew: f.sequence_skew,
        };
        // An explicit efficiency sets a measured card's rate too (SPEC §18): the H200 and the
        // H100 state their measured large-GEMM rate only while no efficiency is given.
        let measured = card.effective_tflops.is_some() && f.hardware != Hardware::Lesson;
        c.gpu_tflops = f.gpu_tflops.unwrap_or_else(|| match f.matmul_efficiency {
            Some(e) if measured => c.peak_tflops * e,
            _ => c.derived_tflops(),
        });
        c
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(json: &str) -> PlanConfig {
        serde_json::from_str(json).unwrap()
    }

    #[test]
    fn a_preset_fills_the_card_and_explicit_fields_win() {
        assert_eq!(read("{}"), PlanConfig::default());
        assert_eq!(
            read(r#"{"hardware":"h100-sxm"}"#),
            PlanConfig::on(Hardware::H100)
        );
        let c = read(r#"{"hardware":"h200","gpu_memory_gb":120,"matmul_efficiency":0.5}"#);
        assert_eq!(
            (c.gpu_memory_gb, c.hbm_tbps, c.nvlink_gbps),
            (120.0, 4.8, 450.0)
        );
        assert_eq!(c.gpu_tflops, 989.0 * 0.5);
        let c = read(r#"{"hardware":"a100-80gb","gpu_tflops":250}"#);
        assert_eq!(
            (c.gpu_tflops, c.peak_tflops, c.ib_gbps),
            (250.0, 312.0, 25.0)
        );
    }

    #[test]
    fn every_config_reads_back_as_written() {
        for h in Hardware::ALL {
            let c = PlanConfig {
                ib_latency_us: 3.0,
                ..PlanConfig::on(h)
            };
            let json = serde_json::to_string(&c).unwrap();
            assert_eq!(read(&json), c, "{json}");
        }
    }

    #[test]
    fn the_offload_fields_read_back_and_name_their_values() {
        let c = read(r#"{"optimizer_offload":"cpu","pcie_gbps":25,"host_memory_gb":1024}"#);
        assert_eq!(
            (c.optimizer_offload, c.pcie_gbps, c.host_memory_gb),
            (OptimizerOffload::Cpu, 25.0, 1024.0)
        );
        assert_eq!(read(&serde_json::to_string(&c).unwrap()), c);
        let e = serde_json::from_str::<PlanConfig>(r#"{"optimizer_offload":"gpu"}"#).unwrap_err();
        assert!(
            e.to_string().contains("`none`") && e.to_string().contains("`cpu`"),
            "{e}"
        );
    }

    #[test]
    fn the_rollout_fields_take_their_defaults_and_read_back() {
        assert_eq!(read(r#"{"rollout":null}"#).rollout, None);
        assert_eq!(read(r#"{"rollout":{}}"#).rollout, Some(Rollout::default()));
        let c =
            read(r#"{"rollout":{"gpus_per_engine":2,"rollout_gpus":16},"log_probs_chunk":1024}"#);
        let rollout = c.rollout.unwrap();
        assert_eq!(
            (
                rollout.gpus_per_engine,
                rollout.rollout_gpus,
                rollout.prompts
            ),
            (2, 16, 8)
        );
        assert_eq!(c.log_probs_chunk, 1024);
        assert_eq!(read(&serde_json::to_string(&c).unwrap()), c);
        let e = serde_json::from_str::<PlanConfig>(r#"{"rollout":{"engines":2}}"#).unwrap_err();
        assert!(e.to_string().contains("gpus_per_engine"), "{e}");
    }

    #[test]
    fn an_unknown_card_is_named() {
        let e = serde_json::from_str::<PlanConfig>(r#"{"hardware":"h300"}"#).unwrap_err();
        assert!(e.to_string().contains("h100-sxm"), "{e}");
    }
}
