//! The model a grid is filled with, in its key figures: parameters (and active parameters for
//! a mixture of experts), layers, hidden size, attention heads and KV heads, experts and top-k.
//! Every figure is the core's resolved [`Model`]; nothing is computed here.

use leptos::prelude::*;
use parallel_core::numbers::thousands;
use parallel_core::Model;

use crate::kit::i18n::{use_lang, Lang};

/// The card's sentences.
mod text {
    use crate::kit::text::{text_table, Text};

    text_table! {
        /// A dense model.
        pub const DENSE: Text = Text {
            zh: "{params} 个参数 · {layers} 层 · 隐藏维度 {hidden} · {heads} 个注意力头、{kv} 个 KV 头",
            en: "{params} parameters · {layers} layers · hidden {hidden} · {heads} attention heads, {kv} KV heads",
        };
        /// A mixture of experts.
        pub const MOE: Text = Text {
            zh: "{params} 个参数（每个 token 激活 {active}）· {layers} 层，其中 {moe_layers} 层 MoE · 隐藏维度 {hidden} · {heads} 个注意力头、{kv} 个 KV 头 · {experts} 个专家选 {top_k} 个",
            en: "{params} parameters ({active} active per token) · {layers} layers, {moe_layers} of them MoE · hidden {hidden} · {heads} attention heads, {kv} KV heads · top-{top_k} of {experts} experts",
        };
    }
}

/// The key figures of a model in one line.
pub fn model_line(lang: Lang, m: &Model) -> String {
    let params = thousands(m.params);
    let (layers, hidden, heads, kv) = (m.layers, m.hidden, m.heads, m.kv_heads);
    match m.moe {
        None => text::DENSE.fill(
            lang,
            &[
                ("params", &params),
                ("layers", &layers),
                ("hidden", &hidden),
                ("heads", &heads),
                ("kv", &kv),
            ],
        ),
        Some(moe) => text::MOE.fill(
            lang,
            &[
                ("params", &params),
                ("active", &thousands(m.active_params())),
                ("layers", &layers),
                ("moe_layers", &moe.moe_layers),
                ("hidden", &hidden),
                ("heads", &heads),
                ("kv", &kv),
                ("experts", &moe.experts),
                ("top_k", &moe.top_k),
            ],
        ),
    }
}

/// The model's key figures, under the model picker.
#[component]
pub fn ModelCard(#[prop(into)] model: Signal<Model>) -> impl IntoView {
    let lang = use_lang();
    view! {
        <p class="control-note model-figures" data-testid="model-figures">
            {move || model.with(|m| model_line(lang.get(), m))}
        </p>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kit::text::testing::assert_each_lang_uses_all;
    use parallel_core::Preset;

    #[test]
    fn every_sentence_is_filled_with_its_names() {
        assert_each_lang_uses_all(text::ALL, |lang| {
            for preset in Preset::ALL {
                model_line(lang, &preset.model());
            }
        });
        let llama = model_line(Lang::En, &Preset::Llama3_8b.model());
        assert_eq!(
            llama,
            "8,030,261,248 parameters · 32 layers · hidden 4096 · 32 attention heads, 8 KV heads"
        );
        let mixtral = model_line(Lang::Zh, &Preset::Mixtral8x7b.model());
        assert!(mixtral.contains("8 个专家选 2 个"), "{mixtral}");
    }
}
