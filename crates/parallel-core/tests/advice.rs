//! The search's advice against the layouts of published runs (issue 25): searching a run's
//! cluster, model, sequence length and global batch on its card puts the best plan with the
//! published TP, CP and PP degrees in the top tenth of the fitting plans.

#![allow(clippy::unwrap_used, clippy::panic)]

use parallel_core::runs::runs;
use parallel_core::search::search;
use parallel_core::{Plan, PlanConfig};

/// The rank (1-based) of the best plan with `run`'s TP, CP and PP degrees, the fitting plans
/// the search found, and its first plan's layout in words (for the log).
fn rank_of_published(run: &PlanConfig) -> (usize, u64, String) {
    let plan = Plan::new(run).unwrap();
    let base = PlanConfig {
        global_batch: Some(run.micro_batches * run.micro_batch_size * plan.degrees().dp),
        ..run.clone()
    };
    let found = search(&base, usize::MAX).unwrap();
    let degrees = |c: &PlanConfig| (c.tp, c.cp, c.pp);
    let rank = found
        .plans
        .iter()
        .position(|f| degrees(&f.config) == degrees(run))
        .unwrap_or_else(|| panic!("no fitting plan has the degrees of {run:?}"));
    let first = &found.plans[0];
    let c = &first.config;
    let words = format!(
        "TP {} × CP {} × PP {} × EP {} (v {}), ZeRO-{}, b {}, m {}, {:?} recompute: {:.2} s",
        c.tp,
        c.cp,
        c.pp,
        c.ep,
        c.virtual_stages,
        c.zero,
        c.micro_batch_size,
        c.micro_batches,
        c.recompute,
        first.report.estimate.step_s.get()
    );
    (rank + 1, found.fitting, words)
}

#[test]
fn published_layouts_rank_in_the_top_tenth() {
    // Every run whose published figure is the throughput of a named TP × CP × PP layout at a
    // given global batch: Llama 3's three 405B layouts on H100, Narayanan et al.'s ten and
    // Korthikanti et al.'s four on A100 (torchtitan's rows fix FSDP's layout, not a search's).
    let published: Vec<_> = runs()
        .into_iter()
        .filter(|r| !r.id.starts_with("torchtitan"))
        .collect();
    assert_eq!(published.len(), 17);
    for run in published {
        let id = run.id;
        let (rank, fitting, first) = rank_of_published(&run.config);
        println!("{id}: the published TP × CP × PP ranks {rank} of {fitting} fitting plans; first: {first}");
        assert!(
            rank as f64 <= 0.1 * fitting as f64,
            "{id}: rank {rank} of {fitting}, not in the top tenth"
        );
    }
}
