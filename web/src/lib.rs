//! The Parallel Lab page: Leptos components that show what `parallel-core` computes.
//!
//! For now the page holds one figure, the model states each card keeps under the lesson's
//! starting plan. The formulas live in `parallel-core`; this crate only asks and shows.

use leptos::prelude::*;
use parallel_core::{evaluate, PlanConfig, PlanError, Report};

/// The core's answer for `plan`: computed once per change of the plan, read by every view.
pub fn use_report(plan: Signal<PlanConfig>) -> Memo<Result<Report, PlanError>> {
    Memo::new(move |_| evaluate(&plan.get()))
}

/// The whole page. `main.rs` mounts it on `<body>`.
#[component]
pub fn App() -> impl IntoView {
    // The lesson's 8-GPU start: DP 8, ZeRO-3, every other knob at its default.
    let plan = RwSignal::new(PlanConfig::lesson_8_gpus());
    let report = use_report(plan.into());
    view! {
        <main class="page">
            <header class="page-header">
                <h1>"并行实验室"</h1>
                <p class="subtitle" lang="en">"Parallel Lab: GPU training parallelism"</p>
            </header>
            <ModelStatesFigure report=report />
        </main>
    }
}

/// Model states (weights, gradients, optimizer states) per card.
///
/// The figure carries `data-testid="mem-states"` and the raw byte count in `data-bytes`,
/// which the browser tests read. A plan the core rejects shows the core's message instead.
#[component]
pub fn ModelStatesFigure(#[prop(into)] report: Signal<Result<Report, PlanError>>) -> impl IntoView {
    view! {
        <section class="figure" aria-labelledby="mem-states-label">
            <h2 id="mem-states-label">
                "每张卡的模型状态" <span class="en" lang="en">"Model states per card"</span>
            </h2>
            {move || match report.get() {
                Ok(report) => {
                    let states = report.memory.model_states;
                    view! {
                        <p class="figure-value">
                            <strong data-testid="mem-states" data-bytes=states.get().to_string()>
                                {states.to_string()}
                            </strong>
                        </p>
                    }
                        .into_any()
                }
                Err(error) => {
                    view! {
                        <p class="figure-error" role="alert" data-testid="plan-error">
                            {error.to_string()}
                        </p>
                    }
                        .into_any()
                }
            }}
        </section>
    }
}
