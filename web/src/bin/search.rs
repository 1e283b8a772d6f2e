//! The planner's search worker (`parallel-search_loader.js`, started by `plan.html`'s search
//! panel): see `sections::search::worker`.

fn main() {
    console_error_panic_hook::set_once();
    parallel_web::pages::plan::search::worker::serve();
}
