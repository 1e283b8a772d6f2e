//! `plan.html`'s entry point: the planner (see `pages::plan`).

fn main() {
    parallel_web::pages::start(
        parallel_core::link::Entry::Plan,
        parallel_web::pages::plan::PlanPage,
    );
}
