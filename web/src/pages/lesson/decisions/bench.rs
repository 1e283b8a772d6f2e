//! The acceptance line's TP bench, really run in the page: splitting W by columns and V by
//! rows matches the unsplit result to rounding; splitting W by rows does not.

use leptos::prelude::*;
use parallel_core::{tp_bench, BenchShape, TpBench};

use super::check::*;
use crate::kit::i18n::{use_lang, Lang, T};

/// The sentences of the TP bench.
mod text {
    use crate::kit::text::{text_table, Text};

    text_table! {
        /// What runs, and the seed of its matrices.
        pub const HINT: Text = Text {
            zh: "在你的浏览器里真算：X 是 {tokens}×{hidden}，W 是 {hidden}×{ffn}，V 是 \
                 {ffn}×{hidden}，切给 {tp} 张“卡”，f32。矩阵由种子 {seed} 生成。",
            en: "Computed for real in your browser: X is {tokens}×{hidden}, W is {hidden}×{ffn}, V \
                 is {ffn}×{hidden}, split over {tp} \"cards\", in f32. The matrices come from seed \
                 {seed}.",
        };
        // The difference stands as a word of its own, "= 4.8e-7 （…）": the page's tests read it.
        /// The column split, at rounding level as it should be.
        pub const COLUMN_OK: Text = Text {
            zh: "✓ W 按列切、V 按行切，部分和相加：max |Y − Y_split| = {diff} （舍入级）",
            en: "✓ W split by columns and V by rows, partial outputs summed: max |Y − Y_split| = \
                 {diff} (rounding level)",
        };
        /// The column split, above rounding level.
        pub const COLUMN_OFF: Text = Text {
            zh: "✗ W 按列切、V 按行切，部分和相加：max |Y − Y_split| = {diff} （超出舍入级）",
            en: "✗ W split by columns and V by rows, partial outputs summed: max |Y − Y_split| = \
                 {diff} (above rounding level)",
        };
        /// The row split, clearly off as it should be.
        pub const ROW_OK: Text = Text {
            zh: "✓ W 按行切（GeLU 作用在部分和上）：max |Y − Y_split| = {diff} （明显不为 0）",
            en: "✓ W split by rows (GeLU applied to partial sums): max |Y − Y_split| = {diff} \
                 (clearly non-zero)",
        };
        /// The row split, unexpectedly close.
        pub const ROW_OFF: Text = Text {
            zh: "✗ W 按行切（GeLU 作用在部分和上）：max |Y − Y_split| = {diff} （意外地接近 0）",
            en: "✗ W split by rows (GeLU applied to partial sums): max |Y − Y_split| = {diff} \
                 (unexpectedly near zero)",
        };
        /// The output's scale.
        pub const SCALE: Text = Text {
            zh: "输出 Y 的最大绝对值 {max}",
            en: "largest |Y| of the output {max}",
        };
    }
}

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
    let column = if column_ok {
        text::COLUMN_OK
    } else {
        text::COLUMN_OFF
    };
    let column = column.fill(
        lang,
        &[("diff", &format!("{:.1e}", bench.column_split_max_diff))],
    );
    let row = if row_ok { text::ROW_OK } else { text::ROW_OFF };
    let row = row.fill(
        lang,
        &[("diff", &format!("{:.3}", bench.row_split_max_diff))],
    );
    (column, row, column_ok && row_ok)
}

/// The output's largest |Y|, for scale.
fn scale_text(lang: Lang, bench: &TpBench) -> String {
    text::SCALE.fill(lang, &[("max", &format!("{:.2}", bench.output_max_abs))])
}

/// What the bench computes: the shapes, the split and the seed.
fn hint_text(lang: Lang, shape: BenchShape, seed: u64) -> String {
    text::HINT.fill(
        lang,
        &[
            ("tokens", &shape.tokens),
            ("hidden", &shape.hidden),
            ("ffn", &shape.ffn),
            ("tp", &shape.tp),
            ("seed", &seed),
        ],
    )
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
                let scale = scale_text(lang, &bench);
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
                {move || hint_text(lang.get(), shape, seed.get())}
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
    use crate::kit::text::testing::assert_each_lang_uses_all;

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

    #[test]
    fn every_sentence_is_filled_with_its_names() {
        let good = tp_bench(1, BenchShape::default()).expect("default shape");
        let bad = TpBench {
            column_split_max_diff: 1.0,
            row_split_max_diff: 0.0,
            ..good
        };
        assert_each_lang_uses_all(text::ALL, |lang| {
            bench_lines(lang, &good);
            bench_lines(lang, &bad);
            scale_text(lang, &good);
            hint_text(lang, BenchShape::default(), 7);
        });
        let (column, row, _) = bench_lines(Lang::Zh, &good);
        assert!(column.starts_with("✓ W 按列切、V 按行切，部分和相加：max |Y − Y_split| = "));
        assert!(column.ends_with(" （舍入级）") && row.ends_with(" （明显不为 0）"));
        assert!(hint_text(Lang::En, BenchShape::default(), 7)
            .ends_with("The matrices come from seed 7."));
    }
}
