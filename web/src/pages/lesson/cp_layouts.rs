//! Context parallelism drawn (SPEC §7): a short sequence cut among the CP ranks two ways.
//! Each token is coloured by the rank that holds it, the causal mask shows which query-key
//! pairs each rank computes, and the pair counts per rank show why zigzag balances the work.
//! Every rank and count comes from `parallel_core::{cp_token_ranks, causal_pairs}`.

use leptos::prelude::*;
use parallel_core::{causal_pairs, cp_token_ranks, pair_imbalance, CpLayout};

use crate::kit::format;
use crate::kit::i18n::{use_lang, Lang, T};

/// The sentences of the figure.
mod text {
    use crate::kit::text::{text_table, Text};

    text_table! {
        /// The pair counts of a layout.
        pub const PAIRS: Text = Text {
            zh: "{layout}：各 rank 的查询-键对 {counts}（最多 ÷ 最少 = {ratio}）",
            en: "{layout}: query-key pairs per rank {counts} (most ÷ least = {ratio})",
        };
        /// The sequence slider's value.
        pub const TOKENS: Text = Text {
            zh: "{tokens} 个 token",
            en: "{tokens} tokens",
        };
    }
}

/// The shortest and longest sequence drawn, and the step between.
pub const TOKENS_MIN: u32 = 8;
/// See [`TOKENS_MIN`].
pub const TOKENS_MAX: u32 = 64;
/// See [`TOKENS_MIN`].
pub const TOKENS_STEP: u32 = 8;
/// The CP degrees offered.
pub const DEGREES: [u32; 4] = [1, 2, 4, 8];

/// Pixels per token in the strips and per cell in the masks.
const CELL: u32 = 6;

fn layout_name(lang: Lang, layout: CpLayout) -> &'static str {
    match layout {
        CpLayout::Contiguous => lang.pick("连续切（allgather CP）", "contiguous (allgather CP)"),
        CpLayout::Zigzag => lang.pick("之字形切（zigzag）", "zigzag"),
    }
}

/// "10 : 26" and the ratio most ÷ least.
fn pairs_text(lang: Lang, layout: CpLayout, counts: &[u64]) -> String {
    let list: Vec<String> = counts.iter().map(|c| format::thousands(*c)).collect();
    let ratio = pair_imbalance(counts).map_or_else(|| "—".to_string(), |r| format!("{r:.2}"));
    text::PAIRS.fill(
        lang,
        &[
            ("layout", &layout_name(lang, layout)),
            ("counts", &list.join(" : ")),
            ("ratio", &ratio),
        ],
    )
}

/// One SVG path per rank covering its query rows of the causal mask (k ≤ q).
fn mask_paths(ranks: &[u32], cp: u32) -> Vec<(u32, String)> {
    (0..cp)
        .map(|rank| {
            let mut d = String::new();
            for (q, owner) in ranks.iter().enumerate() {
                if *owner == rank {
                    let y = q as u32 * CELL;
                    let width = (q as u32 + 1) * CELL;
                    d.push_str(&format!("M0 {y}h{width}v{CELL}h-{width}z"));
                }
            }
            (rank, d)
        })
        .collect()
}

/// One layout: the token strip, the causal mask and the pair counts.
#[component]
fn LayoutView(layout: CpLayout, tokens: Signal<u32>, cp: Signal<u32>) -> impl IntoView {
    let lang = use_lang();
    let ranks =
        Memo::new(move |_| cp_token_ranks(tokens.get(), cp.get(), layout).unwrap_or_default());
    let counts =
        Memo::new(move |_| causal_pairs(tokens.get(), cp.get(), layout).unwrap_or_default());
    let id = match layout {
        CpLayout::Contiguous => "contiguous",
        CpLayout::Zigzag => "zigzag",
    };
    let strip = move || {
        ranks
            .get()
            .into_iter()
            .enumerate()
            .map(|(token, rank)| {
                view! {
                    <rect x=token as u32 * CELL y="0" width=CELL - 1 height="14"
                        class=format!("cp-rank-{rank}") data-token=token data-rank=rank>
                        <title>{format!("token {token} · rank {rank}")}</title>
                    </rect>
                }
            })
            .collect_view()
    };
    let mask = move || {
        mask_paths(&ranks.get(), cp.get())
            .into_iter()
            .map(|(rank, d)| view! { <path d=d class=format!("cp-rank-{rank}") data-mask-rank=rank /> })
            .collect_view()
    };
    let size = move || tokens.get() * CELL;
    let counts_attr = move || {
        counts
            .get()
            .iter()
            .map(u64::to_string)
            .collect::<Vec<_>>()
            .join(",")
    };
    let strip_label = move || {
        let ranks: Vec<String> = ranks.get().iter().map(u32::to_string).collect();
        format!("{}: {}", layout_name(lang.get(), layout), ranks.join(" "))
    };
    view! {
        <figure class="cp-layout" data-testid="cp-layout" data-layout=id>
            <figcaption>{move || layout_name(lang.get(), layout)}</figcaption>
            <svg class="cp-strip" viewBox=move || format!("0 0 {} 14", size()) role="img"
                aria-label=strip_label>
                {strip}
            </svg>
            <svg class="cp-mask" viewBox=move || format!("0 0 {0} {0}", size()) role="img"
                aria-label=move || lang.get().pick("因果掩码：每一行是一个查询 token，颜色是算它的 rank", "Causal mask: each row is a query token, coloured by the rank that computes it")>
                <rect x="0" y="0" width=size height=size class="cp-mask-bg" />
                {mask}
            </svg>
            <p class="cp-pairs" data-testid="cp-pairs" data-layout=id
                data-counts=counts_attr>
                {move || pairs_text(lang.get(), layout, &counts.get())}
            </p>
        </figure>
    }
}

/// The figure: a tokens slider (8 … 64), a CP select (1, 2, 4, 8), both layouts side by side.
#[component]
pub fn CpLayouts() -> impl IntoView {
    let lang = use_lang();
    let tokens = RwSignal::new(16u32);
    let cp = RwSignal::new(4u32);
    let options = DEGREES
        .iter()
        .map(|c| view! { <option value=c.to_string() selected=move || cp.get() == *c>{format!("CP {c}")}</option> })
        .collect_view();
    view! {
        <div class="cp-layouts figure" data-testid="cp-layouts">
            <h3 class="figure-title"><T zh="上下文并行怎样切一条序列" en="How context parallelism cuts a sequence" /></h3>
            <p class="caption">
                <T zh="因果注意力里第 i 个 token 要看前面 i + 1 个，越靠后越贵。连续切让最后一个 rank 干最多的活；之字形把第 r 块和第 2c−1−r 块配给同一个 rank，前后搭配，每个 rank 的对数一样多。"
                   en="Under causal attention token i looks at i + 1 tokens, so later tokens cost more. Cutting contiguously gives the last rank the most work; zigzag gives rank r chunks r and 2c−1−r, an early one and a late one, so every rank computes as many pairs." />
            </p>
            <div class="cp-controls">
                <label>
                    <span>{move || text::TOKENS.fill(lang.get(), &[("tokens", &tokens.get())])}</span>
                    <input type="range" data-testid="cp-tokens" min=TOKENS_MIN max=TOKENS_MAX step=TOKENS_STEP
                        prop:value=move || tokens.get().to_string()
                        aria-valuetext=move || tokens.get().to_string()
                        on:input=move |ev| {
                            let v = event_target_value(&ev).parse::<u32>().unwrap_or(TOKENS_MIN);
                            tokens.set(v.clamp(TOKENS_MIN, TOKENS_MAX));
                        } />
                </label>
                <label>
                    <span><T zh="CP 度" en="CP degree" /></span>
                    <select data-testid="cp-degree" prop:value=move || cp.get().to_string()
                        on:change=move |ev| cp.set(event_target_value(&ev).parse::<u32>().ok().filter(|c| DEGREES.contains(c)).unwrap_or(1))>
                        {options}
                    </select>
                </label>
            </div>
            <div class="cp-layout-pair">
                <LayoutView layout=CpLayout::Contiguous tokens=tokens.into() cp=cp.into() />
                <LayoutView layout=CpLayout::Zigzag tokens=tokens.into() cp=cp.into() />
            </div>
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kit::text::testing::assert_each_lang_uses_all;

    #[test]
    fn every_sentence_is_filled_with_its_names() {
        assert_each_lang_uses_all(text::ALL, |lang| {
            pairs_text(lang, CpLayout::Zigzag, &[18, 18]);
            text::TOKENS.fill(lang, &[("tokens", &16)]);
        });
        assert_eq!(
            pairs_text(Lang::En, CpLayout::Contiguous, &[10, 26, 42, 58]),
            "contiguous (allgather CP): query-key pairs per rank 10 : 26 : 42 : 58 (most ÷ least = 5.80)"
        );
    }

    #[test]
    fn every_query_row_belongs_to_one_rank() {
        for (tokens, cp) in [(8, 2), (16, 4), (64, 8), (8, 8)] {
            let ranks = cp_token_ranks(tokens, cp, CpLayout::Zigzag).unwrap();
            let paths = mask_paths(&ranks, cp);
            let rows: usize = paths.iter().map(|(_, d)| d.matches('M').count()).sum();
            assert_eq!(rows, tokens as usize);
        }
    }
}
