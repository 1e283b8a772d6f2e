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
    *c.real_mut(field).unwrap() = value;
    c
}

/// The bounded fields are the config's real-valued ones, each read and set as the same field.
#[test]
fn the_bounded_fields_are_the_real_ones() {
    let fields = PlanConfig::default().reals().map(|(field, _)| field);
    assert_eq!(fields, BOUNDED);
    for field in Field::PLAIN {
        let mut c = PlanConfig::default();
        let real = c.real_mut(field).is_some();
        assert_eq!(real, BOUNDED.contains(&field), "{field:?}");
        assert_eq!(real, bound(field).is_some(), "{field:?}");
        if let Some(v) = c.real_mut(field) {
            *v = 12.5;
            assert!(c.reals().contains(&(field, 12.5)), "{field:?}");
            assert_eq!(serde_json::to_value(&c).unwrap()[field.key()], 12.5);
        }
    }
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
