//! The checks of one input field, in one place for every reader of input: [`Plan::new`], inline
//! models, `config.json` models, the search and the standalone views (CP layouts, schedules,
//! the TP bench). Each returns the value it checked, or the [`PlanError`] naming the field.
//!
//! [`Plan::new`]: crate::Plan::new

use crate::bounds;
use crate::config::Field;
use crate::error::PlanError;

/// `value` at least 1.
pub(crate) fn at_least_one(value: u32, field: Field) -> Result<u32, PlanError> {
    if value == 0 {
        Err(PlanError::BelowOne { field })
    } else {
        Ok(value)
    }
}

/// A field that must be given, and at least 1.
pub(crate) fn required(value: Option<u32>, field: Field) -> Result<u32, PlanError> {
    at_least_one(value.ok_or(PlanError::Missing { field })?, field)
}

/// A field that may be absent (then `default`, taken as it is) but not 0.
pub(crate) fn at_least_one_or(
    value: Option<u32>,
    field: Field,
    default: u32,
) -> Result<u32, PlanError> {
    value.map_or(Ok(default), |v| at_least_one(v, field))
}

/// A field that must be given but may be `null` (then `None`); a number must be at least 1.
pub(crate) fn required_nullable(
    value: Option<Option<u32>>,
    field: Field,
) -> Result<Option<u32>, PlanError> {
    match value.ok_or(PlanError::Missing { field })? {
        None => Ok(None),
        Some(v) => at_least_one(v, field).map(Some),
    }
}

/// `value` at most `max`.
pub(crate) fn at_most(value: u32, max: u32, field: Field) -> Result<u32, PlanError> {
    if value > max {
        Err(PlanError::AtMost {
            field,
            max: u64::from(max),
            got: u64::from(value),
        })
    } else {
        Ok(value)
    }
}

/// A finite number above 0 (a capacity, a bandwidth, a throughput).
pub(crate) fn positive_finite(value: f64, field: Field) -> Result<f64, PlanError> {
    if value.is_finite() && value > 0.0 {
        Ok(value)
    } else {
        Err(PlanError::NotPositive { field, got: value })
    }
}

/// A share above 0 and at most 1 (an efficiency).
pub(crate) fn share(value: f64, field: Field) -> Result<f64, PlanError> {
    if value > 0.0 && value <= 1.0 {
        Ok(value)
    } else {
        Err(PlanError::NotAShare { field, got: value })
    }
}

/// A finite number of at least 0 (a latency).
pub(crate) fn non_negative(value: f64, field: Field) -> Result<f64, PlanError> {
    if value.is_finite() && value >= 0.0 {
        Ok(value)
    } else {
        Err(PlanError::Negative { field, got: value })
    }
}

/// ρ (`routing_skew`) and c_f (`capacity_factor`), SPEC §20: each finite, at least 1 and at
/// most E/top_k on a MoE model (`experts_over_top_k`), only 1 on a dense one.
pub(crate) fn routing(
    skew: f64,
    capacity_factor: Option<f64>,
    experts_over_top_k: Option<f64>,
) -> Result<(), PlanError> {
    let bound = bounds::Bound {
        min: 1.0,
        max: experts_over_top_k.unwrap_or(1.0),
        min_allowed: true,
        unit: "",
        basis: bounds::Basis::Routing,
    };
    for (field, value) in [
        (Field::RoutingSkew, Some(skew)),
        (Field::CapacityFactor, capacity_factor),
    ] {
        if let Some(got) = value.filter(|v| !bound.holds(*v)) {
            return Err(PlanError::OutOfRange { field, got, bound });
        }
    }
    Ok(())
}

/// σ (`sequence_skew`, SPEC §25): finite, at least 1, and σ·s at most `longest`, the lab's
/// longest sequence.
pub(crate) fn sequence_skew(skew: f64, seq_len: u32, longest: u32) -> Result<(), PlanError> {
    let bound = bounds::Bound {
        min: 1.0,
        max: f64::from(longest) / f64::from(seq_len.max(1)),
        min_allowed: true,
        unit: "",
        basis: bounds::Basis::Sequence,
    };
    if bound.holds(skew) {
        Ok(())
    } else {
        Err(PlanError::OutOfRange {
            field: Field::SequenceSkew,
            got: skew,
            bound,
        })
    }
}

/// `gpu_tflops` if the card's fastest rate at it, `fastest` (gpu_tflops itself, or with
/// kernel tables their fastest measured rate scaled to it), is at most `peak_tflops`: an MFU
/// never passes 1. Both fields already inside their bounds.
pub(crate) fn effective(gpu_tflops: f64, peak_tflops: f64, fastest: f64) -> Result<f64, PlanError> {
    let bound = bounds::Bound {
        max: gpu_tflops * peak_tflops / fastest,
        basis: bounds::Basis::Peak,
        ..bounds::cards(|c| c.peak_tflops, "TFLOP/s")
    };
    if bound.holds(gpu_tflops) {
        Ok(gpu_tflops)
    } else {
        Err(PlanError::OutOfRange {
            field: Field::GpuTflops,
            got: gpu_tflops,
            bound,
        })
    }
}

/// A given total `params`, `ratio` times its shape's matrix parameters, on a card whose
/// kernels run at most `fastest` TFLOP/s: MFU counts the total's FLOPs while the layers run at
/// the shape's, so `fastest · ratio` must stay at most `peak_tflops`.
pub(crate) fn params_at_peak(
    params: f64,
    ratio: f64,
    fastest: f64,
    peak_tflops: f64,
    field: Field,
) -> Result<f64, PlanError> {
    if fastest * ratio <= peak_tflops {
        return Ok(params);
    }
    Err(PlanError::OutOfRange {
        field,
        got: params,
        bound: bounds::Bound {
            min: 0.0,
            max: params * peak_tflops / (fastest * ratio),
            min_allowed: false,
            unit: "",
            basis: bounds::Basis::ParamsPeak,
        },
    })
}

/// `value` if it is inside its field's bound; else [`PlanError::OutOfRange`] naming the field,
/// the value and the range. A field without a bound passes.
pub(crate) fn bounded(value: f64, field: Field) -> Result<f64, PlanError> {
    match bounds::bound(field) {
        Some(b) if !b.holds(value) => Err(PlanError::OutOfRange {
            field,
            got: value,
            bound: b,
        }),
        _ => Ok(value),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const F: Field = Field::InlineModel(crate::config::ModelField::Layers);

    #[test]
    fn each_check_keeps_a_good_value_and_names_the_field_otherwise() {
        let below = Err(PlanError::BelowOne { field: F });
        let missing = Err(PlanError::Missing { field: F });
        assert_eq!(at_least_one(3, F), Ok(3));
        assert_eq!(at_least_one(0, F), below);
        assert_eq!(required(Some(3), F), Ok(3));
        assert_eq!(required(Some(0), F), below);
        assert_eq!(required(None, F), missing);
        assert_eq!(at_least_one_or(Some(3), F, 7), Ok(3));
        assert_eq!(at_least_one_or(None, F, 7), Ok(7));
        assert_eq!(at_least_one_or(Some(0), F, 7), below);
        assert_eq!(required_nullable(Some(Some(3)), F), Ok(Some(3)));
        assert_eq!(required_nullable(Some(None), F), Ok(None));
        assert_eq!(required_nullable(Some(Some(0)), F), below.map(Some));
        assert_eq!(required_nullable(None, F), missing.map(Some));
        assert_eq!(at_most(4, 4, F), Ok(4));
        assert_eq!(
            at_most(5, 4, F),
            Err(PlanError::AtMost {
                field: F,
                max: 4,
                got: 5
            })
        );
        assert_eq!(positive_finite(0.5, F), Ok(0.5));
        for bad in [0.0, -1.0, f64::NAN, f64::INFINITY] {
            assert!(
                matches!(
                    positive_finite(bad, F),
                    Err(PlanError::NotPositive { field: F, .. })
                ),
                "{bad}"
            );
        }
    }
}
