//! The seed of a randomized test, shared by the core's, the CLI's and the page's tests (the
//! latter two include this file by path): read from an environment variable to replay a run,
//! otherwise taken from the clock, and printed with the line that replays it. Each test draws
//! its numbers from the core's `SplitMix` at this seed.

/// The seed in `var` when it holds a number, otherwise one from the clock; printed as
/// `"{what}: seed {seed} ({var}={seed} replays it)"`.
pub fn seed(var: &str, what: &str) -> u64 {
    let seed = std::env::var(var)
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(1, |d| d.as_nanos() as u64 % 1_000_000_007)
        });
    println!("{what}: seed {seed} ({var}={seed} replays it)");
    seed
}
