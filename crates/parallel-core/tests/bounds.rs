//! The physical bounds of the real-valued inputs (`parallel_core::bounds`, issue 50): every
//! known card and the defaults are inside; a slipped exponent is refused by its field, with
//! its range, quoted short.

#![allow(clippy::unwrap_used, clippy::panic)]

use parallel_core::bounds::{bound, BOUNDED};
use parallel_core::hardware::Hardware;
use parallel_core::{evaluate, Field, PlanConfig};

/// The config with `field` set to `value`.
fn with(field: Field, value: f64) -> PlanConfig {
    let mut c = PlanConfig::default();
    match field {
        Field::GpuMemoryGb => c.gpu_memory_gb = value,
        Field::NvlinkGbps => c.nvlink_gbps = value,
        Field::IbGbps => c.ib_gbps = value,
        Field::GpuTflops => c.gpu_tflops = value,
        Field::HbmTbps => c.hbm_tbps = value,
        Field::PeakTflops => c.peak_tflops = value,
        Field::MatmulEfficiency => c.matmul_efficiency = value,
        Field::NvlinkLatencyUs => c.nvlink_latency_us = value,
        Field::IbLatencyUs => c.ib_latency_us = value,
        Field::PcieGbps => c.pcie_gbps = value,
        Field::HostMemoryGb => c.host_memory_gb = value,
        other => panic!("{other:?} is not bounded"),
    }
    c
}

#[test]
fn every_known_card_and_the_default_are_inside() {
    for h in Hardware::ALL {
        let card = h.card();
        for (field, v) in [
            (Field::GpuMemoryGb, card.memory_gb),
            (Field::HbmTbps, card.hbm_tbps),
            (Field::PeakTflops, card.peak_tflops),
            (Field::NvlinkGbps, card.scale_up_gbps),
            (Field::IbGbps, card.scale_out_gbps),
            (Field::NvlinkLatencyUs, card.step_latency_us[0]),
            (Field::IbLatencyUs, card.step_latency_us[1]),
        ] {
            assert!(bound(field).unwrap().holds(v), "{h:?} {field:?} {v}");
        }
        assert!(evaluate(&PlanConfig::on(h)).is_ok(), "{h:?}");
    }
    let d = PlanConfig::default();
    for (field, v) in [
        (Field::GpuTflops, d.gpu_tflops),
        (Field::PcieGbps, d.pcie_gbps),
        (Field::HostMemoryGb, d.host_memory_gb),
        (Field::MatmulEfficiency, d.matmul_efficiency),
    ] {
        assert!(bound(field).unwrap().holds(v), "{field:?}");
    }
}

#[test]
fn a_slipped_exponent_is_named_with_its_range() {
    for field in BOUNDED {
        let mut bad = vec![1e300, -1.0, f64::NAN, f64::INFINITY];
        if bound(field).unwrap().min > 0.0 {
            bad.push(5e-324);
        }
        for v in bad {
            let err = evaluate(&with(field, v)).unwrap_err();
            assert_eq!(err.field(), field, "{v}");
            assert!(err.to_string().len() < 300, "{err}");
        }
    }
    let err = evaluate(&with(Field::GpuTflops, 1e300)).unwrap_err();
    assert_eq!(
        err.to_string(),
        "gpu_tflops: must be between 31.2 and 22,500 TFLOP/s, ten times beyond the slowest \
         and the fastest card the lab knows (A100 to B200) (got 1e300)"
    );
    // A latency may be 0; an efficiency may not.
    assert!(evaluate(&with(Field::IbLatencyUs, 0.0)).is_ok());
    assert!(evaluate(&with(Field::MatmulEfficiency, 0.0)).is_err());
    // An effective rate above the peak would make MFU pass 1.
    let err = evaluate(&with(Field::GpuTflops, 2000.0)).unwrap_err();
    assert_eq!(err.field(), Field::GpuTflops);
    assert!(err.to_string().contains("peak_tflops"), "{err}");
}
