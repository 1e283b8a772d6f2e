//! `rl.html`'s entry point: the RL layout step (see `pages::rl`).

fn main() {
    parallel_web::pages::start(
        parallel_core::link::Entry::Rl,
        parallel_web::pages::rl::RlPage,
    );
}
