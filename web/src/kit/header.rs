//! The header every page shares: the page's title, the way to the other two pages (carrying
//! the grids' state), the copy-link button and the language switch.

use leptos::prelude::*;
use parallel_core::link::{encode, for_page, Entry};

use crate::kit::i18n::{self, Lang, T};
use crate::kit::share::CopyLink;
use crate::state::permalink::PageState;

/// A page's name in the header's links (中文, English).
fn page_name(entry: Entry) -> (&'static str, &'static str) {
    match entry {
        Entry::Lesson => ("课堂", "The lesson"),
        Entry::Rl => ("RL 布局", "RL layout"),
        Entry::Plan | Entry::Embed => ("规划器", "Planner"),
    }
}

/// What a page is for (中文, English), the title of the link to it.
fn page_title(entry: Entry) -> (&'static str, &'static str) {
    match entry {
        Entry::Lesson => (
            "预测再核对：8 卡与 64 卡网格、真实配置、拍板",
            "Predict, then check: the 8- and 64-card grids, real configurations, decisions",
        ),
        Entry::Rl => (
            "CPU Adam、rollout 引擎与卡池、起步配方、slime 命令",
            "CPU Adam, rollout engines and pools, starting recipes, the slime command",
        ),
        Entry::Plan | Entry::Embed => (
            "任意卡型与模型、方案搜索、公开与实测的训练、启动参数",
            "Any card or model, the plan search, published and measured runs, launch flags",
        ),
    }
}

/// The language switch: shows the language it switches to.
#[component]
pub fn LangToggle() -> impl IntoView {
    let lang = i18n::use_lang();
    let set = use_context::<i18n::LangContext>();
    view! {
        <button
            type="button"
            class="lang-toggle"
            data-testid="lang-toggle"
            title=move || lang.get().pick("Switch to English", "切换到中文")
            on:click=move |_| {
                if let Some(i18n::LangContext(signal)) = set {
                    signal.update(|l| *l = l.toggled());
                }
            }
        >
            <span class:current=move || lang.get() == Lang::Zh>"中文"</span>
            " / "
            <span class:current=move || lang.get() == Lang::En>"English"</span>
        </button>
    }
}

/// Links to the other pages, each carrying the grids' plans and cards as that page can show
/// them (`link::for_page`), so "open this plan in the planner" and "back to the lesson" keep
/// the plan.
#[component]
pub fn PageLinks(page: PageState, here: Entry) -> impl IntoView {
    let links = Entry::PAGES
        .into_iter()
        .filter(|entry| *entry != here)
        .map(|entry| {
            let (zh, en) = page_name(entry);
            let (title_zh, title_en) = page_title(entry);
            let href = move || {
                let state = for_page(&page.to_link(), entry);
                format!("{}#{}", entry.file(), encode(&state))
            };
            view! {
                <li>
                    <a href=href data-testid=format!("to-{}", entry.id()) title=move || page.lang.get().pick(title_zh, title_en)>
                        <T zh=zh en=en />
                    </a>
                </li>
            }
        })
        .collect_view();
    view! {
        <nav class="page-links" aria-label=move || page.lang.get().pick("其他页面", "Other pages")>
            <ul>{links}</ul>
        </nav>
    }
}

/// The header: the kicker, the page's title (`zh`, `en`), the links to the other pages, copy
/// link and the language switch.
#[component]
pub fn PageHeader(
    page: PageState,
    here: Entry,
    title_zh: &'static str,
    title_en: &'static str,
) -> impl IntoView {
    view! {
        <header class="page-header">
            <div class="brand">
                <p class="kicker"><T zh="从 0 训练 LLM · 实验课" en="Training an LLM from scratch · lab" /></p>
                <h1><T zh=title_zh en=title_en /></h1>
            </div>
            <PageLinks page=page here=here />
            <div class="header-actions">
                <CopyLink page=page />
                <LangToggle />
            </div>
        </header>
    }
}
