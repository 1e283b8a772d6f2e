//! "Run it" under a grid (issue 27, SPEC §16): the grid's plan as the launch command of an
//! engine people train with (Megatron-LM, slime, DeepSpeed), kept current as the controls
//! move, with a copy button and the notes on what the engine cannot say; and "paste a launch
//! command", which reads a Megatron-LM or slime command back into the grid, as
//! `parallel-lab eval --megatron` does, saying which flags it ignored or does not model.
//! Every word of the command is the core's (`flags::flags`, `flags::read_launch`).

use leptos::prelude::*;
use parallel_core::flags::{flags, read_launch, Engine, Flags};
use parallel_core::{PlanConfig, PlanError};

use crate::kit::error_text::explain;
use crate::kit::i18n::{use_lang, Lang, T};
use crate::kit::share::copy_text;
use crate::state::lab::GridLab;

/// The words of the panel.
mod text {
    use crate::kit::text::{text_table, Text};

    text_table! {
        /// A pasted command for another number of cards than the grid's.
        pub const OTHER_GRID: Text = Text {
            zh: "这条命令用 {gpus} 张卡；这张网格有 {grid} 张。",
            en: "This command runs on {gpus} cards; this grid has {grid}.",
        };
        /// What a read command held that the lab left out.
        pub const IGNORED: Text = Text {
            zh: "没有读的参数：{flags}",
            en: "Flags not read: {flags}",
        };
        /// What a read command held that changes what the lab counts, but the lab does not model.
        pub const NOT_MODELLED: Text = Text {
            zh: "会改变显存或通信、但本页不建模的参数：{flags}",
            en: "Flags that change memory or traffic but that the lab does not model: {flags}",
        };
    }
}

/// What reading a pasted command gave: the plan and its notices, or why not.
#[derive(Clone, Debug, PartialEq)]
struct Read {
    config: PlanConfig,
    notices: Vec<String>,
}

/// Reads a pasted command for a grid of `grid` cards (its card count, when the command does
/// not say one): the plan and what the page tells about it, in `lang`.
fn read_for_grid(lang: Lang, text: &str, grid: u32) -> Result<Read, String> {
    let launch = read_launch(text, Some(grid)).map_err(|e| explain(lang, &e))?;
    if launch.config.gpus != grid {
        return Err(text::OTHER_GRID.fill(lang, &[("gpus", &launch.config.gpus), ("grid", &grid)]));
    }
    let mut notices: Vec<String> = launch
        .notes
        .iter()
        .map(|n| n.text(lang).to_string())
        .collect();
    if !launch.not_modelled.is_empty() {
        notices.push(text::NOT_MODELLED.fill(lang, &[("flags", &launch.not_modelled.join(" "))]));
    }
    if !launch.ignored.is_empty() {
        notices.push(text::IGNORED.fill(lang, &[("flags", &launch.ignored.join(" "))]));
    }
    Ok(Read {
        config: launch.config,
        notices,
    })
}

/// The "Run it" panel of one grid.
#[component]
pub fn RunIt(lab: GridLab) -> impl IntoView {
    let lang = use_lang();
    let grid = lab.config.with_untracked(|c| c.gpus);
    let engine = RwSignal::new(Engine::Megatron);
    let command = Memo::new(move |_| -> Result<Flags, PlanError> {
        lab.plan.with(|plan| flags(plan.config(), engine.get()))
    });
    let copied = RwSignal::new(None::<bool>);
    let on_copy = move |_| {
        if let Ok(out) = command.get_untracked() {
            leptos::task::spawn_local(async move {
                copied.set(Some(copy_text(out.shell()).await));
            });
        }
    };
    let pasted = RwSignal::new(String::new());
    let outcome = RwSignal::new(None::<Result<Vec<String>, String>>);
    let on_apply = move |_| {
        let result =
            read_for_grid(lang.get_untracked(), &pasted.get_untracked(), grid).map(|read| {
                lab.selected.set(None);
                lab.load(read.config);
                read.notices
            });
        outcome.set(Some(result));
    };
    let select_id = format!("select-engine-{grid}");
    let paste_id = format!("paste-command-{grid}");
    let options = Engine::ALL
        .into_iter()
        .map(|e| view! { <option value=e.id() selected=move || engine.get() == e>{e.name()}</option> })
        .collect_view();
    view! {
        <details class="run-it" data-testid="run-it">
            <summary><T zh="跑起来：启动命令" en="Run it: the launch command" /></summary>
            <div class="control">
                <label for=select_id.clone()><span class="control-name"><T zh="训练框架" en="Engine" /></span></label>
                <select id=select_id data-testid="select-engine"
                    prop:value=move || engine.get().id()
                    on:change=move |event| {
                        if let Some(e) = Engine::from_id(&event_target_value(&event)) {
                            copied.set(None);
                            engine.set(e);
                        }
                    }>
                    {options}
                </select>
            </div>
            {move || match command.get() {
                Ok(out) => {
                    let notes = out.notes.clone();
                    view! {
                        <pre class="command" data-testid="command" data-engine=out.engine.id()>{out.shell()}</pre>
                        <button type="button" class="small" data-testid="copy-command" on:click=on_copy>
                            <T zh="复制命令" en="Copy the command" />
                        </button>
                        {move || copied.get().map(|ok| view! {
                            <span class="share-status" role="status">
                                {move || if ok { lang.get().pick("已复制", "Copied") } else { lang.get().pick("浏览器不让复制：请选中上面的命令手动复制。", "The browser refused: select the command above and copy it by hand.") }}
                            </span>
                        })}
                        <ul class="notes" data-testid="notes">
                            {notes.into_iter().map(|note| view! { <li>{move || note.text(lang.get()).to_string()}</li> }).collect_view()}
                        </ul>
                    }
                    .into_any()
                }
                Err(error) => view! {
                    <p class="control-error" role="alert" data-testid="command-error">{move || explain(lang.get(), &error)}</p>
                }
                .into_any(),
            }}
            <div class="paste-command">
                <label for=paste_id.clone()>
                    <span class="control-name"><T zh="粘贴一条启动命令（Megatron-LM 或 slime）" en="Paste a launch command (Megatron-LM or slime)" /></span>
                </label>
                <textarea id=paste_id data-testid="paste-command" rows="6" spellcheck="false"
                    prop:value=move || pasted.get()
                    on:input=move |event| pasted.set(event_target_value(&event))></textarea>
                <button type="button" class="small" data-testid="paste-command-apply" on:click=on_apply>
                    <T zh="读进网格" en="Read it into the grid" />
                </button>
                {move || outcome.get().map(|result| match result {
                    Ok(notices) => view! {
                        <ul class="notes" role="status" data-testid="paste-command-notice">
                            <li><T zh="已读进网格。" en="Read into the grid." /></li>
                            {notices.into_iter().map(|n| view! { <li>{n}</li> }).collect_view()}
                        </ul>
                    }
                    .into_any(),
                    Err(reason) => view! {
                        <p class="control-error" role="alert" data-testid="paste-command-error">{reason}</p>
                    }
                    .into_any(),
                })}
            </div>
        </details>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kit::text::testing::assert_each_lang_uses_all;

    #[test]
    fn a_command_reads_back_into_its_grid_and_another_grid_s_is_refused() {
        let plan = PlanConfig {
            gpus: 64,
            tp: 8,
            pp: 2,
            zero: 1,
            ..PlanConfig::default()
        };
        let shell = flags(&plan, Engine::Megatron).unwrap().shell();
        assert_each_lang_uses_all(text::ALL, |lang| {
            let read = read_for_grid(lang, &shell, 64).unwrap();
            assert_eq!(read.config, plan);
            let other = read_for_grid(lang, &shell, 8).unwrap_err();
            assert!(other.contains("64") && other.contains('8'), "{other}");
            let extra = format!("{} --lr 1e-4 --fp16", shell.trim_end());
            let read = read_for_grid(lang, &extra, 64).unwrap();
            assert_eq!(read.notices.len(), 2, "{:?}", read.notices);
        });
        let refused = read_for_grid(
            Lang::En,
            "torchrun pretrain_gpt.py --tensor-model-parallel-size x",
            8,
        );
        assert!(refused.is_err());
    }
}
