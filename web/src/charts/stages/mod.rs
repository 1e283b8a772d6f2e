//! Memory per card stage by stage (SPEC §11): one stacked bar per pipeline stage, model states
//! below and activations on top, a dashed line at the card's capacity, and a caption with how
//! uneven the stages are (max ÷ min) and which stage is the busiest.
//!
//! Every figure comes from the core (`Plan::memory_by_stage`, `Plan::capacity`,
//! `stages_imbalance`, `Plan::busiest_stage`); the chart only converts bytes to GB and picks
//! where things go. With one stage (p = 1) the page shows a note instead of the canvas.

use leptos::prelude::*;
use parallel_core::{stages_imbalance, Bytes, Plan};
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, VPos};

use super::canvas::{series_canvas, CanvasSpec};
use super::layout::{
    anchored, category_axis, fail, label, legend, linear_ticks, message, Mark, Place, Scale, Ticked,
};
use super::palette::{ACTIVATIONS, BAD, GRID, INK, MUTED, PAPER, WEIGHTS};
use crate::format;
use crate::i18n::{use_lang, Lang, T};

/// Model states: the colour at the foot of the memory chart's stacks (weights).
const STATES: RGBColor = WEIGHTS;

/// Above this many stages the summary names only the busiest one.
const MAX_LISTED: usize = 16;

/// The sentences of the stage chart.
mod text {
    use crate::text::Text;

    /// The lower part of each bar, in the legend.
    pub const STATES: Text = Text {
        zh: "模型状态",
        en: "model states",
    };
    /// The upper part of each bar, in the legend.
    pub const ACTIVATIONS: Text = Text {
        zh: "激活",
        en: "activations",
    };
    /// A bar's name under it.
    pub const STAGE: Text = Text {
        zh: "第 {stage} 段",
        en: "stage {stage}",
    };
    /// The x axis, when the bars are too narrow for their names and carry numbers only.
    pub const STAGE_AXIS: Text = Text {
        zh: "流水线段（编号）",
        en: "pipeline stage",
    };
    /// The caption above the chart.
    pub const CAPTION: Text = Text {
        zh: "最大 ÷ 最小 = {imbalance}，最忙的是第 {busiest} 段",
        en: "max ÷ min = {imbalance}, busiest: stage {busiest}",
    };
    /// The capacity line's label.
    pub const CAPACITY: Text = Text {
        zh: "单卡显存 {capacity}",
        en: "card capacity {capacity}",
    };
    /// One bar of the summary.
    pub const BAR: Text = Text {
        zh: "第 {stage} 段 {total}（模型状态 {states} + 激活 {activations}）",
        en: "stage {stage} {total} (model states {states} + activations {activations})",
    };
    /// The chart in one sentence (`aria-label`); `bars` lists the bars above.
    pub const SUMMARY: Text = Text {
        zh: "各流水线段的每卡显存：{bars}；单卡显存 {capacity}；最大 ÷ 最小 = {imbalance}，\
             最忙的是第 {busiest} 段。",
        en: "Memory per card by pipeline stage: {bars}. Card capacity {capacity}; max ÷ min = \
             {imbalance}, busiest: stage {busiest}.",
    };
    /// The chart in one sentence when it has too many stages to list.
    pub const SUMMARY_MANY: Text = Text {
        zh: "{count} 个流水线段的每卡显存：最忙的是第 {busiest} 段，{total}（模型状态 {states} \
             + 激活 {activations}）；单卡显存 {capacity}；最大 ÷ 最小 = {imbalance}。",
        en: "Memory per card over {count} pipeline stages: the busiest is stage {busiest}, \
             {total} (model states {states} + activations {activations}). Card capacity \
             {capacity}; max ÷ min = {imbalance}.",
    };
    /// The note shown instead of the chart when p = 1 (and its summary).
    pub const ONE_STAGE: Text = Text {
        zh: "PP = 1：只有一个流水线段，每张卡的显存都一样：{total}（模型状态 {states} + 激活 \
             {activations}），单卡显存 {capacity}。",
        en: "PP = 1: there is one pipeline stage only, so every card holds the same memory: \
             {total} (model states {states} + activations {activations}), card capacity \
             {capacity}.",
    };
    /// A series without stages (the core never gives one).
    pub const NOTHING: Text = Text {
        zh: "没有可画的流水线段。",
        en: "No pipeline stage to draw.",
    };

    #[cfg(test)]
    pub const ALL: &[&Text] = &[
        &STATES,
        &ACTIVATIONS,
        &STAGE,
        &STAGE_AXIS,
        &CAPTION,
        &CAPACITY,
        &BAR,
        &SUMMARY,
        &SUMMARY_MANY,
        &ONE_STAGE,
        &NOTHING,
    ];
}

/// The stage chart's data, in GB, as the core reports it.
#[derive(Clone, Debug, PartialEq)]
pub struct StageSeries {
    /// (stage, model states GB, activations GB), stage 0 … p − 1 (`Plan::memory_by_stage`).
    pub stages: Vec<(u32, f64, f64)>,
    /// The card's capacity in GB (`Plan::capacity`).
    pub capacity_gb: f64,
    /// The largest total over the smallest (`stages_imbalance`).
    pub imbalance: f64,
    /// The stage with the largest total (`Plan::busiest_stage`).
    pub busiest: u32,
}

/// The stage chart's data for `plan`.
pub fn series(plan: &Plan) -> StageSeries {
    let stages = plan.memory_by_stage();
    StageSeries {
        stages: stages
            .iter()
            .map(|s| (s.stage, s.model_states.gb(), s.activations.gb()))
            .collect(),
        capacity_gb: plan.capacity().gb(),
        imbalance: stages_imbalance(&stages),
        busiest: plan.busiest_stage(),
    }
}

/// GB as the page writes bytes: "9.4 GB".
fn gb(value: f64) -> String {
    format::bytes(Bytes::from_gb(value))
}

/// The imbalance as the caption writes it: "1.47".
fn ratio(value: f64) -> String {
    format!("{value:.2}")
}

/// A number of an axis without noise: 0.30000000000000004 → "0.3", 500 → "500".
fn short(value: f64) -> String {
    format!("{}", (value * 100.0).round() / 100.0)
}

/// The smallest round stride (1, 2, 5 × 10^k) of at least `needed`.
fn stride(needed: f64) -> usize {
    let mut power = 1usize;
    loop {
        for m in [1, 2, 5] {
            let step = m * power;
            if step as f64 >= needed {
                return step;
            }
        }
        match power.checked_mul(10) {
            Some(next) => power = next,
            None => return usize::MAX,
        }
    }
}

/// Draws the stage chart on `area`.
pub fn draw<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    data: &StageSeries,
    lang: Lang,
) -> Result<(), String> {
    let s = Scale::of(area)?;
    if data.stages.is_empty() {
        return message(area, text::NOTHING.get(lang));
    }
    area.fill(&PAPER).map_err(fail)?;
    let (head, body) = area.split_vertically(s.px(56.0));
    let (caption_row, legend_row) = head.split_vertically(s.px(26.0));
    let caption = text::CAPTION.fill(
        lang,
        &[
            ("imbalance", &ratio(data.imbalance)),
            ("busiest", &data.busiest),
        ],
    );
    caption_row
        .draw(&Text::new(
            caption,
            (s.px(12.0), s.px(15.0)),
            anchored(s.bold(14.0, &INK), HPos::Left, VPos::Center),
        ))
        .map_err(fail)?;
    legend(
        &legend_row,
        s,
        &[
            (Mark::Swatch(STATES), text::STATES.get(lang).to_string()),
            (
                Mark::Swatch(ACTIVATIONS),
                text::ACTIVATIONS.get(lang).to_string(),
            ),
        ],
        None,
    )?;

    let capacity = Some(data.capacity_gb).filter(|gb| gb.is_finite() && *gb > 0.0);
    let highest = data
        .stages
        .iter()
        .map(|&(_, states, activations)| states + activations)
        .filter(|gb| gb.is_finite())
        .fold(capacity.unwrap_or(0.0), f64::max);
    let (ticks, y_end) = linear_ticks(highest * 1.1, 5);
    let (x_range, centres) = category_axis(data.stages.len(), 4);
    let x_end = x_range.end;
    let mut chart = ChartBuilder::on(&body)
        .margin_left(s.px(8.0))
        .margin_right(s.px(16.0))
        .margin_top(s.px(6.0))
        .x_label_area_size(s.px(44.0))
        .y_label_area_size(s.px(52.0))
        .build_cartesian_2d(Ticked::new(x_range, vec![]), Ticked::new(0.0..y_end, ticks))
        .map_err(fail)?;

    // Names under the bars: "stage i" under each when they fit, else numbers at a round
    // stride and the axis named once.
    let slot =
        f64::from(chart.backend_coord(&(1.0, 0.0)).0 - chart.backend_coord(&(0.0, 0.0)).0).max(1.0);
    let last = data.stages.iter().map(|t| t.0).max().unwrap_or(0);
    let width = |text: &str, style: &TextStyle<'static>| -> Result<f64, String> {
        let (w, _) = area.estimate_text_size(text, style).map_err(fail)?;
        Ok(f64::from(w))
    };
    let name_style = s.text(13.0, &INK);
    let full_name = |stage: u32| text::STAGE.fill(lang, &[("stage", &stage)]);
    let named = width(&full_name(last), &s.bold(13.0, &INK))? + f64::from(s.px(6.0)) <= slot;
    let every = if named {
        1
    } else {
        stride((width(&last.to_string(), &name_style)? + f64::from(s.px(8.0))) / slot)
    };

    let y_label = |v: &f64| short(*v);
    let mut mesh = chart.configure_mesh();
    mesh.disable_x_mesh()
        .bold_line_style(GRID.stroke_width(1))
        .light_line_style(TRANSPARENT)
        .axis_style(MUTED.stroke_width(s.stroke(1.0)))
        .set_all_tick_mark_size(s.px(4.0))
        .label_style(s.text(12.0, &MUTED))
        .y_label_formatter(&y_label)
        .y_desc("GB")
        .axis_desc_style(s.text(12.0, &MUTED));
    if !named {
        mesh.x_desc(text::STAGE_AXIS.get(lang));
    }
    mesh.draw().map_err(fail)?;

    const HALF: f64 = 0.3;
    for (&(stage, states, activations), &x) in data.stages.iter().zip(&centres) {
        let top = states + activations;
        chart
            .draw_series([
                Rectangle::new([(x - HALF, 0.0), (x + HALF, states)], STATES.filled()),
                Rectangle::new([(x - HALF, states), (x + HALF, top)], ACTIVATIONS.filled()),
            ])
            .map_err(fail)?;
        if stage == data.busiest && data.stages.len() > 1 {
            chart
                .draw_series(std::iter::once(Rectangle::new(
                    [(x - HALF, 0.0), (x + HALF, top)],
                    INK.stroke_width(s.stroke(2.0)),
                )))
                .map_err(fail)?;
        }
    }
    if let Some(capacity) = capacity {
        chart
            .draw_series(DashedLineSeries::new(
                vec![(0.0, capacity), (x_end, capacity)],
                s.px(7.0),
                s.px(4.0),
                BAD.stroke_width(s.stroke(1.5)),
            ))
            .map_err(fail)?;
    }

    // Totals above the bars when they fit, else the busiest one only.
    let widest_total = data
        .stages
        .iter()
        .map(|&(_, states, activations)| gb(states + activations))
        .max_by_key(String::len)
        .unwrap_or_default();
    let all_totals = width(&widest_total, &s.bold(12.0, &INK))? + f64::from(s.px(4.0)) <= slot;
    for (&(stage, states, activations), &x) in data.stages.iter().zip(&centres) {
        let busiest = stage == data.busiest;
        let total = states + activations;
        if all_totals || busiest {
            let value = if busiest {
                s.bold(12.0, &INK)
            } else {
                s.text(12.0, &INK)
            };
            let above = Place {
                at: chart.backend_coord(&(x, total)),
                shift: (0, -s.px(4.0)),
                h: HPos::Center,
                v: VPos::Bottom,
            };
            label(area, &gb(total), above, value, true)?;
        }
        if stage as usize % every == 0 {
            let below = Place {
                at: chart.backend_coord(&(x, 0.0)),
                shift: (0, s.px(8.0)),
                h: HPos::Center,
                v: VPos::Top,
            };
            let style = if busiest {
                s.bold(13.0, &INK)
            } else {
                name_style.clone()
            };
            let name = if named {
                full_name(stage)
            } else {
                stage.to_string()
            };
            label(area, &name, below, style, false)?;
        }
    }
    if let Some(capacity) = capacity {
        let place = Place {
            at: chart.backend_coord(&(x_end, capacity)),
            shift: (-s.px(4.0), -s.px(3.0)),
            h: HPos::Right,
            v: VPos::Bottom,
        };
        let text = text::CAPACITY.fill(lang, &[("capacity", &gb(capacity))]);
        label(area, &text, place, s.text(12.0, &BAD), true)?;
    }
    Ok(())
}

/// The parameters of one stage's figures: total, model states and activations.
fn figures(states: f64, activations: f64) -> [(&'static str, String); 3] {
    [
        ("total", gb(states + activations)),
        ("states", gb(states)),
        ("activations", gb(activations)),
    ]
}

/// The note shown instead of the chart: with one stage, its figures; otherwise none.
pub fn note(data: &StageSeries, lang: Lang) -> Option<String> {
    match data.stages.as_slice() {
        [(_, states, activations)] => {
            let [total, st, act] = figures(*states, *activations);
            Some(text::ONE_STAGE.fill(
                lang,
                &[
                    (total.0, &total.1),
                    (st.0, &st.1),
                    (act.0, &act.1),
                    ("capacity", &gb(data.capacity_gb)),
                ],
            ))
        }
        _ => None,
    }
}

/// The chart as one sentence, for `aria-label`.
pub fn summary(data: &StageSeries, lang: Lang) -> String {
    if data.stages.is_empty() {
        return text::NOTHING.get(lang).to_string();
    }
    if let Some(one) = note(data, lang) {
        return one;
    }
    let capacity = gb(data.capacity_gb);
    let imbalance = ratio(data.imbalance);
    if data.stages.len() > MAX_LISTED {
        let &(_, states, activations) = data
            .stages
            .iter()
            .find(|t| t.0 == data.busiest)
            .unwrap_or(&data.stages[0]);
        let [total, st, act] = figures(states, activations);
        return text::SUMMARY_MANY.fill(
            lang,
            &[
                ("count", &data.stages.len()),
                ("busiest", &data.busiest),
                (total.0, &total.1),
                (st.0, &st.1),
                (act.0, &act.1),
                ("capacity", &capacity),
                ("imbalance", &imbalance),
            ],
        );
    }
    let bars: Vec<String> = data
        .stages
        .iter()
        .map(|&(stage, states, activations)| {
            let [total, st, act] = figures(states, activations);
            text::BAR.fill(
                lang,
                &[
                    ("stage", &stage),
                    (total.0, &total.1),
                    (st.0, &st.1),
                    (act.0, &act.1),
                ],
            )
        })
        .collect();
    text::SUMMARY.fill(
        lang,
        &[
            ("bars", &bars.join(lang.pick("，", ", "))),
            ("capacity", &capacity),
            ("imbalance", &imbalance),
            ("busiest", &data.busiest),
        ],
    )
}

/// The drawn values for `data-series`: "capacity=… imbalance=… busiest=…", then one
/// "stage:states:activations" triple per stage, all in GB.
pub fn values(data: &StageSeries) -> String {
    let head = format!(
        "capacity={} imbalance={} busiest={}",
        data.capacity_gb, data.imbalance, data.busiest
    );
    std::iter::once(head)
        .chain(
            data.stages
                .iter()
                .map(|(stage, states, activations)| format!("{stage}:{states}:{activations}")),
        )
        .collect::<Vec<_>>()
        .join(" ")
}

/// Memory per card for each pipeline stage of `plan`, drawn on a canvas
/// (`data-testid="chart-stages"`); with one stage a note (`chart-stages-note`) stands in for
/// it. `data-series` is [`values`].
#[component]
pub fn StageChart(#[prop(into)] plan: Signal<Plan>) -> impl IntoView {
    let lang = use_lang();
    let data = Memo::new(move |_| plan.with(series));
    let spec = CanvasSpec {
        test_id: "chart-stages",
        summary: Signal::derive(move || data.with(|d| summary(d, lang.get()))),
        values: Signal::derive(move || data.with(values)),
        note: Signal::derive(move || data.with(|d| note(d, lang.get()))),
    };
    view! {
        <div class="figure chart-figure chart-stages-figure">
            <h4><T zh="各流水线段的每卡显存" en="Memory per card, stage by stage" /></h4>
            {series_canvas(spec, data, draw)}
        </div>
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::panic)]
mod tests {
    use super::*;
    use crate::charts::test_support::{has_cjk, svg};
    use parallel_core::PlanConfig;

    fn of(config: PlanConfig) -> StageSeries {
        series(&Plan::new(&config).unwrap())
    }

    /// 64 cards, PP 64: more stages than names fit under the bars.
    fn many() -> PlanConfig {
        PlanConfig {
            gpus: 64,
            pp: 64,
            ..PlanConfig::default()
        }
    }

    /// How many filled rectangles of `color` the SVG holds.
    fn rects(svg: &str, color: RGBColor) -> usize {
        let fill = format!("fill=\"#{:02X}{:02X}{:02X}\"", color.0, color.1, color.2);
        svg.lines()
            .filter(|line| line.starts_with("<rect") && line.contains(&fill))
            .count()
    }

    /// The texts of the SVG (plotters writes each on a line of its own).
    fn texts(svg: &str) -> Vec<&str> {
        svg.lines()
            .map(str::trim)
            .filter(|line| !line.is_empty() && !line.starts_with('<'))
            .collect()
    }

    #[test]
    fn series_reads_the_core_s_stages() {
        let plan = Plan::new(&PlanConfig::lesson_64_gpus()).unwrap();
        let data = series(&plan);
        let core = plan.memory_by_stage();
        assert_eq!(data.stages.len(), 8);
        for (&(stage, states, activations), s) in data.stages.iter().zip(&core) {
            assert_eq!(stage, s.stage);
            assert_eq!(states, s.model_states.gb());
            assert_eq!(activations, s.activations.gb());
        }
        assert_eq!(data.capacity_gb, 80.0);
        assert_eq!(data.imbalance, stages_imbalance(&core));
        // 9.40 GB on stage 7 over 6.39 GB on stage 6.
        assert_eq!(ratio(data.imbalance), "1.47");
        assert_eq!(data.busiest, 7);
    }

    #[test]
    fn one_bar_per_stage_and_the_capacity_line() {
        let data = of(PlanConfig::lesson_64_gpus());
        let (ok, en) = svg((640, 360), |area| draw(area, &data, Lang::En));
        ok.unwrap();
        // One swatch in the legend, one bar part per stage.
        assert_eq!(rects(&en, STATES), 9);
        assert_eq!(rects(&en, ACTIVATIONS), 9);
        let words = texts(&en);
        for stage in 0..8 {
            assert!(
                words.contains(&format!("stage {stage}").as_str()),
                "stage {stage}"
            );
        }
        assert!(words.contains(&"card capacity 80.0 GB"));
        assert!(words.contains(&"max ÷ min = 1.47, busiest: stage 7"));
        assert!(words.contains(&"9.4 GB") && words.contains(&"6.4 GB"));
        assert!(en.contains("stroke=\"#C92A2A\""), "no capacity line");
        assert!(!has_cjk(&en), "English chart holds Chinese text");

        let (ok, zh) = svg((1280, 720), |area| draw(area, &data, Lang::Zh));
        ok.unwrap();
        assert_eq!(rects(&zh, STATES), 9);
        let words = texts(&zh);
        assert!(words.contains(&"第 7 段") && words.contains(&"单卡显存 80.0 GB"));
        assert!(words.contains(&"最大 ÷ 最小 = 1.47，最忙的是第 7 段"));
    }

    #[test]
    fn many_stages_are_numbered_at_a_stride() {
        let data = of(many());
        assert_eq!(data.stages.len(), 64);
        let (ok, en) = svg((640, 360), |area| draw(area, &data, Lang::En));
        ok.unwrap();
        assert_eq!(rects(&en, STATES), 65);
        let words = texts(&en);
        assert!(words.contains(&"pipeline stage") && !words.contains(&"stage 1"));
        // Every fifth stage is numbered.
        assert!(words.contains(&"55") && !words.contains(&"56"));
        assert_eq!(stride(1.0), 1);
        assert_eq!(stride(2.3), 5);
        assert_eq!(stride(11.0), 20);
    }

    #[test]
    fn summaries_in_both_languages() {
        let data = of(PlanConfig::lesson_64_gpus());
        let en = summary(&data, Lang::En);
        assert!(en.starts_with("Memory per card by pipeline stage: stage 0 "));
        assert!(en.ends_with("Card capacity 80.0 GB; max ÷ min = 1.47, busiest: stage 7."));
        assert!(!has_cjk(&en));
        let zh = summary(&data, Lang::Zh);
        assert!(zh.starts_with("各流水线段的每卡显存：第 0 段 "));
        assert!(zh.ends_with("单卡显存 80.0 GB；最大 ÷ 最小 = 1.47，最忙的是第 7 段。"));
        assert_eq!(note(&data, Lang::En), None);
        let v = values(&data);
        assert!(v.starts_with("capacity=80 imbalance=1.4"));
        assert_eq!(v.split(' ').count(), 3 + 8);

        let one = of(PlanConfig::lesson_8_gpus());
        assert_eq!(one.stages.len(), 1);
        let note_en = note(&one, Lang::En).unwrap();
        assert!(note_en.starts_with("PP = 1: there is one pipeline stage only"));
        assert_eq!(summary(&one, Lang::En), note_en);
        assert!(note(&one, Lang::Zh).unwrap().contains("只有一个流水线段"));

        let long = summary(&of(many()), Lang::En);
        assert!(long.starts_with("Memory per card over 64 pipeline stages"));
    }

    #[test]
    fn every_sentence_is_filled_with_its_names() {
        let eight = of(PlanConfig::lesson_64_gpus());
        let one = of(PlanConfig::lesson_8_gpus());
        let wide = of(many());
        let empty = StageSeries {
            stages: vec![],
            ..eight.clone()
        };
        crate::text::testing::assert_all_used(text::ALL, || {
            for lang in [Lang::Zh, Lang::En] {
                for data in [&eight, &one, &wide, &empty] {
                    summary(data, lang);
                    let _ = svg((640, 360), |area| draw(area, data, lang));
                }
            }
        });
    }

    #[test]
    fn degenerate_inputs_do_not_panic() {
        let data = of(PlanConfig::lesson_64_gpus());
        let empty = StageSeries {
            stages: vec![],
            ..data.clone()
        };
        let (ok, out) = svg((640, 360), |area| draw(area, &empty, Lang::En));
        ok.unwrap();
        assert!(out.contains("No pipeline stage to draw."));
        assert!(svg((0, 0), |area| draw(area, &data, Lang::En)).0.is_err());
        assert!(svg((64, 36), |area| draw(area, &data, Lang::Zh)).0.is_ok());
        let odd = StageSeries {
            capacity_gb: f64::NAN,
            imbalance: f64::INFINITY,
            stages: vec![(0, f64::NAN, 1.0), (1, 0.0, 0.0)],
            busiest: 9,
        };
        assert!(svg((640, 360), |area| draw(area, &odd, Lang::En)).0.is_ok());
        let _ = summary(&odd, Lang::Zh);
        let huge = of(PlanConfig {
            gpus: 1024,
            pp: 1024,
            ..PlanConfig::default()
        });
        assert!(svg((640, 360), |area| draw(area, &huge, Lang::En))
            .0
            .is_ok());
    }
}
