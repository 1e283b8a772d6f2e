//! `parallel-lab bench`: how fast the core evaluates plans (a benchmark, not a test).
//!
//! 1. One full [`evaluate`] of the lesson's 64-GPU plan TP 8 × PP 2 × DP 4, ZeRO-1, in ns per
//!    evaluation: the median over batches of many calls, each call behind `black_box`; then
//!    the same for its parts (`Plan::new`, `memory`, `traffic`, `bubble`) to show where the
//!    time goes.
//! 2. A sweep over every plan of 1,024 GPUs: t·p·c·d = 1024 in powers of two, m = 1..=64,
//!    ZeRO 0–3 and the three recompute modes; the median total of several sweeps.
//!
//! 3. The plan search of SPEC §12 over 1,024 GPUs ([`parallel_core::search::bench_config`]),
//!    the same search the page runs; the median of several searches.
//!
//! Targets: ≤ 200 ns per evaluation, ≤ 50 ms per sweep, ≤ 50 ms per search. Run it in release:
//! `cargo run --release -p parallel-cli -- bench`.

use std::hint::black_box;
use std::io::Write;
use std::time::Instant;

use parallel_core::{evaluate, search, Plan, PlanConfig, Recompute};

use crate::args::Format;
use crate::cells::thousands;
use crate::error::CliError;
use crate::table::{self, Column, Row, RowData, Table};

/// Nanoseconds per evaluation the core should stay under.
const EVALUATE_TARGET_NS: f64 = 200.0;
/// Milliseconds the 1,024-GPU sweep should stay under.
const SWEEP_TARGET_MS: f64 = 50.0;
/// GPUs of the sweep.
const SWEEP_GPUS: u32 = 1024;

/// How long to measure.
#[derive(Clone, Copy, Debug)]
struct Effort {
    batches: usize,
    calls_per_batch: u32,
    sweeps: usize,
}

/// Runs the benchmark and prints a table of results. `quick` is a smoke run for tests.
pub fn run(quick: bool, out: &mut dyn Write) -> Result<(), CliError> {
    let effort = if quick {
        Effort {
            batches: 3,
            calls_per_batch: 200,
            sweeps: 1,
        }
    } else {
        Effort {
            batches: 15,
            calls_per_batch: 200_000,
            sweeps: 7,
        }
    };
    let config = PlanConfig::lesson_64_zero1();
    let plan = Plan::new(&config)?;

    let full = median_ns_per_call(effort, || evaluate(black_box(&config)).is_ok());
    let parts = [
        (
            "  Plan::new",
            median_ns_per_call(effort, || Plan::new(black_box(&config)).is_ok()),
        ),
        (
            "  Plan::memory",
            median_ns_per_call(effort, || black_box(&plan).memory()),
        ),
        (
            "  Plan::traffic",
            median_ns_per_call(effort, || black_box(&plan).traffic()),
        ),
        (
            "  Plan::bubble",
            median_ns_per_call(effort, || black_box(&plan).bubble()),
        ),
        (
            "  Plan::report (memory + traffic + bubble + warnings)",
            median_ns_per_call(effort, || black_box(&plan).report()),
        ),
    ];

    let ((tried, valid), sweep_ms) = median_ms(effort.sweeps, sweep);
    let (found, search_ms) = median_ms(effort.sweeps, || {
        search::search(black_box(&search::bench_config()), search::DEFAULT_TOP)
    });
    let (considered, fitting) = found.map_or((0, 0), |f| (f.considered, f.fitting));

    let mark = |ok: bool| if ok { "✓" } else { "✗ over target" };
    let mut results = Table::new(
        "bench",
        "parallel-lab bench",
        vec![
            Column {
                key: "measurement",
                header: "measurement".into(),
            },
            Column {
                key: "result",
                header: "result".into(),
            },
            Column {
                key: "target",
                header: "target".into(),
            },
        ],
    );
    let row = |cells: [String; 3]| Row {
        cells: cells.to_vec(),
        data: RowData::None,
    };
    results.rows.push(row([
        "evaluate: 64 GPUs, TP 8 × PP 2 × DP 4, ZeRO-1".into(),
        format!("{full:.0} ns per evaluation"),
        format!(
            "≤ {EVALUATE_TARGET_NS:.0} ns {}",
            mark(full <= EVALUATE_TARGET_NS)
        ),
    ]));
    for (name, ns) in parts {
        results
            .rows
            .push(row([name.into(), format!("{ns:.0} ns"), String::new()]));
    }
    results.rows.push(row([
        format!(
            "sweep: {} GPUs, {} plans tried, {} valid",
            thousands(f64::from(SWEEP_GPUS)),
            thousands(tried as f64),
            thousands(valid as f64)
        ),
        format!(
            "{sweep_ms:.1} ms ({:.0} ns per plan)",
            sweep_ms * 1e6 / tried.max(1) as f64
        ),
        format!(
            "≤ {SWEEP_TARGET_MS:.0} ms {}",
            mark(sweep_ms <= SWEEP_TARGET_MS)
        ),
    ]));
    results.rows.push(row([
        format!(
            "search: {} GPUs, global batch {}, {} plans considered, {} fitting",
            thousands(f64::from(SWEEP_GPUS)),
            thousands(f64::from(search::bench_config().global_batch.unwrap_or(0))),
            thousands(considered as f64),
            thousands(fitting as f64)
        ),
        format!("{search_ms:.1} ms"),
        format!(
            "≤ {SWEEP_TARGET_MS:.0} ms {}",
            mark(search_ms <= SWEEP_TARGET_MS)
        ),
    ]));

    let build = if cfg!(debug_assertions) {
        "DEBUG build: figures are meaningless, run with --release"
    } else {
        "release build"
    };
    writeln!(
        out,
        "parallel-lab bench ({build}; median of {} batches of {} calls, median of {} sweeps)\n",
        effort.batches,
        thousands(f64::from(effort.calls_per_batch)),
        effort.sweeps
    )?;
    table::write(&[results], Format::Markdown, out)
}

/// Median over batches of the time per call of `f`, in nanoseconds, after a warm-up batch.
/// Each result goes through `black_box`, so that no call is optimised away.
fn median_ns_per_call<T>(effort: Effort, mut f: impl FnMut() -> T) -> f64 {
    for _ in 0..effort.calls_per_batch {
        black_box(f());
    }
    let mut samples: Vec<f64> = (0..effort.batches)
        .map(|_| {
            let start = Instant::now();
            for _ in 0..effort.calls_per_batch {
                black_box(f());
            }
            start.elapsed().as_nanos() as f64 / f64::from(effort.calls_per_batch)
        })
        .collect();
    samples.sort_by(f64::total_cmp);
    samples[samples.len() / 2]
}

/// Runs `f` `runs` times; returns the result of the run of median wall time, with that time
/// in milliseconds.
fn median_ms<T>(runs: usize, mut f: impl FnMut() -> T) -> (T, f64) {
    let mut timed: Vec<(T, f64)> = (0..runs)
        .map(|_| {
            let start = Instant::now();
            let result = f();
            (result, start.elapsed().as_secs_f64() * 1e3)
        })
        .collect();
    timed.sort_by(|a, b| a.1.total_cmp(&b.1));
    timed.swap_remove(timed.len() / 2)
}

/// Evaluates every plan of the sweep; returns (plans tried, plans valid).
fn sweep() -> (u64, u64) {
    let powers: Vec<u32> = (0..=SWEEP_GPUS.trailing_zeros()).map(|k| 1 << k).collect();
    let (mut tried, mut valid) = (0u64, 0u64);
    for &tp in &powers {
        for &pp in &powers {
            for &cp in &powers {
                // d = N/(t·p·c) must be a whole power of two: t·p·c ≤ N.
                if u64::from(tp) * u64::from(pp) * u64::from(cp) > u64::from(SWEEP_GPUS) {
                    continue;
                }
                for micro_batches in 1..=64 {
                    for zero in 0..=3 {
                        for recompute in [Recompute::None, Recompute::Selective, Recompute::Full] {
                            let config = PlanConfig {
                                gpus: SWEEP_GPUS,
                                tp,
                                pp,
                                cp,
                                micro_batches,
                                zero,
                                recompute,
                                ..PlanConfig::default()
                            };
                            tried += 1;
                            if let Ok(report) = evaluate(black_box(&config)) {
                                valid += 1;
                                black_box(report);
                            }
                        }
                    }
                }
            }
        }
    }
    (tried, valid)
}
