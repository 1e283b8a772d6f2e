//! The acceptance line's TP bench, really run in the page: splitting W by columns and V by
//! rows matches the unsplit result to rounding; splitting W by rows does not.

use leptos::prelude::*;
use parallel_core::{tp_bench, BenchShape, TpBench};

use super::check::*;
use super::fields::mark;
use crate::i18n::{use_lang, Lang, T};

/// A seed for the bench from the browser's generator (the core has no randomness).
#[cfg(target_arch = "wasm32")]
fn fresh_seed() -> u64 {
    use web_sys::js_sys::Math;
    let half = || (Math::random() * 4_294_967_296.0) as u64;
    (half() << 32) | half()
}

/// Outside the browser (native tests) a fixed seed.
#[cfg(not(target_arch = "wasm32"))]
fn fresh_seed() -> u64 {
    0x5EED
}

fn bench_lines(lang: Lang, bench: &TpBench) -> (String, String, bool) {
    let column_ok = is_rounding_level(bench.column_split_max_diff, bench.output_max_abs);
    let row_ok = !is_rounding_level(bench.row_split_max_diff, bench.output_max_abs);
    let column = format!(
        "{} {}: max |Y − Y_split| = {:.1e} {}",
        mark(column_ok),
        lang.pick(
            "W 按列切、V 按行切，部分和相加",
            "W split by columns and V by rows, partial outputs summed"
        ),
        bench.column_split_max_diff,
        if column_ok {
            lang.pick("（舍入级）", "(rounding level)")
        } else {
            lang.pick("（超出舍入级）", "(above rounding level)")
        }
    );
    let row = format!(
        "{} {}: max |Y − Y_split| = {:.3} {}",
        mark(row_ok),
        lang.pick(
            "W 按行切（GeLU 作用在部分和上）",
            "W split by rows (GeLU applied to partial sums)"
        ),
        bench.row_split_max_diff,
        if row_ok {
            lang.pick("（明显不为 0）", "(clearly non-zero)")
        } else {
            lang.pick("（意外地接近 0）", "(unexpectedly near zero)")
        }
    );
    (column, row, column_ok && row_ok)
}

#[component]
pub fn TpBenchView() -> impl IntoView {
    let lang = use_lang();
    let seed = RwSignal::new(fresh_seed());
    let shape = BenchShape::default();
    let result = Memo::new(move |_| tp_bench(seed.get(), shape));
    let body = move || {
        let lang = lang.get();
        match result.get() {
            Ok(bench) => {
                let (column, row, both) = bench_lines(lang, &bench);
                let scale = format!(
                    "{} {:.2}",
                    lang.pick("输出 Y 的最大绝对值", "largest |Y| of the output"),
                    bench.output_max_abs
                );
                view! {
                    <ul class="verdict-lines">
                        <li data-testid="tp-bench-column" data-diff=bench.column_split_max_diff.to_string()>{column}</li>
                        <li data-testid="tp-bench-row" data-diff=bench.row_split_max_diff.to_string()>{row}</li>
                        <li class="muted">{scale}</li>
                    </ul>
                    <p data-testid="tp-bench-verdict" data-pass=both.to_string()>
                        <strong>{if both {
                            lang.pick("✓ 两个结论都复现了。", "✓ Both conclusions reproduced.")
                        } else {
                            lang.pick("✗ 这一次没有复现，再跑一次看看。", "✗ Not reproduced this time; run it again.")
                        }}</strong>
                    </p>
                }
                .into_any()
            }
            Err(error) => view! { <p role="alert">{error.to_string()}</p> }.into_any(),
        }
    };
    view! {
        <div class="tp-bench figure" data-testid="tp-bench">
            <h4><T zh="第 3 课的验算台：Y = GeLU(X·W)·V" en="Lesson 3's bench: Y = GeLU(X·W)·V" /></h4>
            <p class="hint">
                {move || match lang.get() {
                    Lang::Zh => format!(
                        "在你的浏览器里真算：X 是 {}×{}，W 是 {}×{}，V 是 {}×{}，切给 {} 张“卡”，f32。矩阵由种子 {} 生成。",
                        shape.tokens, shape.hidden, shape.hidden, shape.ffn, shape.ffn, shape.hidden, shape.tp, seed.get()
                    ),
                    Lang::En => format!(
                        "Computed for real in your browser: X is {}×{}, W is {}×{}, V is {}×{}, split over {} \"cards\", in f32. The matrices come from seed {}.",
                        shape.tokens, shape.hidden, shape.hidden, shape.ffn, shape.ffn, shape.hidden, shape.tp, seed.get()
                    ),
                }}
            </p>
            <div role="status" aria-live="polite">{body}</div>
            <button type="button" data-testid="tp-bench-rerun" on:click=move |_| seed.set(fresh_seed())>
                <T zh="换一组随机矩阵，再跑一次" en="Run again with new random matrices" />
            </button>
        </div>
    }
}

/// Part four: the three decisions, the acceptance line and the TP bench.
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bench_verdicts() {
        for seed in [1, 7, 42, u64::MAX] {
            let bench = tp_bench(seed, BenchShape::default()).expect("default shape");
            let (_, _, both) = bench_lines(Lang::En, &bench);
            assert!(both, "seed {seed}: {bench:?}");
        }
        assert!(is_rounding_level(1e-6, 5.0));
        assert!(!is_rounding_level(0.5, 5.0));
    }
}
