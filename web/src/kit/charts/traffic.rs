//! Bytes one card sends per step, one bar per parallel dimension, coloured by the link it
//! crosses and labelled with that link's name under the bar (a cue besides colour). When the
//! bars span two orders of magnitude or more, the axis is logarithmic and says so.

use leptos::prelude::*;
use parallel_core::{Bytes, Collective, Dim, Link, Traffic};
use plotters::coord::Shift;
use plotters::prelude::*;

use super::axes::{bar_plot, mesh, short, under_legend, Ticks};
use super::canvas::{series_figure, spaced, CanvasSpec};
use super::layout::{
    fail, label, linear_ticks, log_ticks, message, tick_text, Mark, Place, Scale, Ticked,
};
use super::palette::{self, IB, INK, NVLINK};
use crate::kit::format;
use crate::kit::i18n::Lang;
use crate::kit::vocab;

/// Bars whose largest and smallest non-zero values differ by this factor or more are drawn on
/// a log axis.
pub const LOG_SPAN: f64 = 100.0;

/// The sentences of the traffic chart.
mod text {
    use crate::kit::text::{text_table, Text};

    text_table! {
        /// One bar of the summary.
        pub const BAR: Text = Text {
            zh: "{dim} {bytes}，走 {link}，{collective}，{size} 张卡一组",
            en: "{dim} {bytes} over {link} ({collective}, group of {size})",
        };
        /// The chart in one sentence (`aria-label`); `bars` lists the bars above.
        pub const SUMMARY: Text = Text {
            zh: "每卡每步通信量：{bars}。",
            en: "Traffic per card per step: {bars}.",
        };
    }
}

/// One bar: the traffic of one dimension, as the core reports it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TrafficBar {
    /// The dimension.
    pub dim: Dim,
    /// Its collective.
    pub collective: Collective,
    /// Cards in its group.
    pub group_size: u32,
    /// Bytes one card sends per step.
    pub bytes: Bytes,
    /// The link it crosses.
    pub link: Link,
}

/// The traffic chart's data: bars in the core's order (tp, cp, ep, pp, dp, edp) and whether
/// the axis is logarithmic.
#[derive(Clone, Debug, PartialEq)]
pub struct TrafficSeries {
    /// One bar per dimension whose group has more than one card.
    pub bars: Vec<TrafficBar>,
    /// Whether the bars span [`LOG_SPAN`] or more (the axis is then logarithmic).
    pub log_scale: bool,
}

/// The bars of a traffic list (`Plan::traffic` or `Plan::traffic_for_card`).
pub fn traffic_series(traffic: &[Traffic]) -> TrafficSeries {
    let bars: Vec<TrafficBar> = traffic
        .iter()
        .map(|t| TrafficBar {
            dim: t.dim,
            collective: t.collective,
            group_size: t.group_size,
            bytes: t.bytes,
            link: t.link,
        })
        .collect();
    let (lo, hi) = positive_range(&bars);
    TrafficSeries {
        log_scale: hi > 0.0 && hi / lo >= LOG_SPAN,
        bars,
    }
}

/// The smallest and largest positive finite GB of the bars ((∞, 0) when there are none).
fn positive_range(bars: &[TrafficBar]) -> (f64, f64) {
    bars.iter()
        .map(|bar| bar.bytes.gb())
        .filter(|gb| gb.is_finite() && *gb > 0.0)
        .fold((f64::INFINITY, 0.0), |(lo, hi), gb| {
            (lo.min(gb), hi.max(gb))
        })
}

fn empty_text(lang: Lang) -> &'static str {
    lang.pick(
        "这个方案没有卡间通信（每一维都是 1）。",
        "No traffic between cards: every degree is 1.",
    )
}

/// The y axis: its range, its ticks with their text, and how a GB value maps onto it.
struct YAxis {
    range: std::ops::Range<f64>,
    ticks: Ticks,
    log: bool,
}

impl YAxis {
    fn of(data: &TrafficSeries) -> YAxis {
        let (lo, hi) = positive_range(&data.bars);
        if data.log_scale && hi > 0.0 {
            // Room above the tallest bar for its label: a factor of 3 is half a decade.
            let (ticks, range) = log_ticks(lo, hi * 3.0);
            YAxis {
                range: range.start.log10()..range.end.log10(),
                ticks: Ticks(
                    ticks
                        .into_iter()
                        .map(|(v, d)| (v.log10(), tick_text(v, d)))
                        .collect(),
                ),
                log: true,
            }
        } else {
            let (ticks, end) = linear_ticks(hi * 1.15, 5);
            YAxis {
                range: 0.0..end,
                ticks: Ticks(ticks.into_iter().map(|v| (v, short(v))).collect()),
                log: false,
            }
        }
    }

    /// Where `gb` sits on the axis (`None`: below a log axis, i.e. zero).
    fn at(&self, gb: f64) -> Option<f64> {
        if !gb.is_finite() {
            None
        } else if self.log {
            (gb > 0.0).then(|| gb.log10().max(self.range.start))
        } else {
            Some(gb.max(0.0))
        }
    }
}

/// Draws the traffic chart on `area`; an empty series draws a short message.
pub fn draw<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    data: &TrafficSeries,
    lang: Lang,
) -> Result<(), String> {
    let s = Scale::of(area)?;
    if data.bars.is_empty() {
        return message(area, empty_text(lang));
    }
    let entries = [(NVLINK, Link::NvLink), (IB, Link::InfiniBand)].map(|(color, link)| {
        (
            Mark::Swatch(color),
            vocab::link_where(lang, link).to_string(),
        )
    });
    let note = data.log_scale.then(|| lang.pick("对数坐标", "log scale"));
    let body = under_legend(area, s, &entries, note)?;

    let axis = YAxis::of(data);
    let y = Ticked::new(axis.range.clone(), axis.ticks.places());
    let (mut chart, centres) = bar_plot(&body, s, data.bars.len(), y)?;
    let tick_label = |v: &f64| axis.ticks.label(v);
    let y_desc = if axis.log {
        lang.pick("GB（对数）", "GB (log)")
    } else {
        "GB"
    };
    let mut grid = mesh(&mut chart, s, 12.0);
    grid.disable_x_mesh()
        .y_label_formatter(&tick_label)
        .y_desc(y_desc);
    grid.draw().map_err(fail)?;

    let floor = axis.range.start;
    let half = 0.28;
    for (bar, &x) in data.bars.iter().zip(&centres) {
        let color = palette::link(bar.link);
        let top = axis.at(bar.bytes.gb());
        if let Some(top) = top {
            chart
                .draw_series(std::iter::once(Rectangle::new(
                    [(x - half, floor), (x + half, top)],
                    color.filled(),
                )))
                .map_err(fail)?;
        }
        let top = chart.backend_coord(&(x, top.unwrap_or(floor)));
        let bytes = format::bytes(bar.bytes);
        label(area, &bytes, Place::above(top, s), s.text(12.0, &INK), true)?;
        let foot = chart.backend_coord(&(x, floor));
        let names = [
            (vocab::dim(lang, bar.dim), 8.0, s.bold(13.0, &INK)),
            (bar.link.short_name(), 24.0, s.bold(12.0, &color)),
        ];
        for (name, dy, style) in names {
            label(area, name, Place::below(foot, s, dy), style, false)?;
        }
    }
    Ok(())
}

/// The chart as one sentence, for `aria-label`.
pub fn summary(data: &TrafficSeries, lang: Lang) -> String {
    if data.bars.is_empty() {
        return empty_text(lang).to_string();
    }
    let bars: Vec<String> = data
        .bars
        .iter()
        .map(|bar| {
            // Chinese names where the link runs; in English the sentence says "over" the link.
            let link = match lang {
                Lang::Zh => vocab::link_where(lang, bar.link),
                Lang::En => vocab::link(lang, bar.link),
            };
            text::BAR.fill(
                lang,
                &[
                    ("dim", &vocab::dim(lang, bar.dim)),
                    ("bytes", &format::bytes(bar.bytes)),
                    ("link", &link),
                    ("collective", &vocab::collective(lang, bar.collective)),
                    ("size", &bar.group_size),
                ],
            )
        })
        .collect();
    text::SUMMARY.fill(lang, &[("bars", &bars.join(lang.pick("；", "; ")))])
}

/// Bytes per card per step for each dimension of `traffic`, drawn on a canvas
/// (`data-testid="chart-traffic"`); an empty list shows a short message instead. `data-series`
/// holds "dim:link:bytes" triples for tests.
#[component]
pub fn TrafficChart(#[prop(into)] traffic: Signal<Vec<Traffic>>) -> impl IntoView {
    let series = Memo::new(move |_| traffic.with(|t| traffic_series(t)));
    let values = |s: &TrafficSeries| {
        spaced(
            s.bars
                .iter()
                .map(|bar| format!("{}:{}:{}", bar.dim, bar.link.as_str(), bar.bytes.get())),
        )
    };
    let note = |s: &TrafficSeries, lang| s.bars.is_empty().then(|| empty_text(lang).to_string());
    let spec = CanvasSpec::of("chart-traffic", series, summary, values, note);
    let title = (
        "每卡每步通信量（按维度）",
        "Traffic per card per step, by dimension",
    );
    series_figure(title, spec, series, draw)
}

#[cfg(test)]
// `|a, d, l| draw(a, d, l)` is no redundant closure: it takes an SVG of any lifetime, which
// the generic `draw` alone does not.
#[allow(clippy::unwrap_used, clippy::panic, clippy::redundant_closure)]
mod tests {
    use super::*;
    use crate::kit::charts::test_support::{assert_said, svg, Said};
    use crate::kit::text::testing::assert_each_lang_uses_all;
    use parallel_core::{Plan, PlanConfig, Precision};

    fn traffic(config: PlanConfig) -> Vec<Traffic> {
        Plan::new(&config).unwrap().traffic()
    }

    fn bars(series: &TrafficSeries) -> Vec<(Dim, String, Link)> {
        series
            .bars
            .iter()
            .map(|b| (b.dim, b.bytes.to_string(), b.link))
            .collect()
    }

    #[test]
    fn bars_carry_bytes_and_link() {
        // SPEC §9: TP 2 × PP 4 on one machine: tp 21.5 GB, pp 0.7 GB, both over NVLink.
        let series = traffic_series(&traffic(PlanConfig {
            tp: 2,
            pp: 4,
            ..PlanConfig::default()
        }));
        assert_eq!(
            bars(&series),
            [
                (Dim::Tp, "21.5 GB".into(), Link::NvLink),
                (Dim::Pp, "0.7 GB".into(), Link::NvLink)
            ]
        );
        assert!(!series.log_scale, "21.5 / 0.7 is less than {LOG_SPAN}");

        // The 64-GPU start, TP 8 × PP 8: PP crosses nodes; 18.8 / 0.7 stays linear.
        let series = traffic_series(&traffic(PlanConfig::lesson_64_gpus()));
        let links: Vec<(Dim, Link)> = series.bars.iter().map(|b| (b.dim, b.link)).collect();
        assert_eq!(
            links,
            [(Dim::Tp, Link::NvLink), (Dim::Pp, Link::InfiniBand)]
        );
        assert!(!series.log_scale);

        // Two machines, PP 2 × DP 8 with FP32 gradients: 97.2 GB of DP over InfiniBand
        // against 0.7 GB of PP over NVLink, more than 100× apart: a log axis.
        let series = traffic_series(&wide_span());
        assert_eq!(
            bars(&series),
            [
                (Dim::Pp, "0.7 GB".into(), Link::NvLink),
                (Dim::Dp, "97.2 GB".into(), Link::InfiniBand)
            ]
        );
        assert!(series.log_scale);
    }

    fn wide_span() -> Vec<Traffic> {
        traffic(PlanConfig {
            gpus: 16,
            pp: 2,
            precision: Precision::Fp32Grads,
            ..PlanConfig::default()
        })
    }

    /// What the SVG draws: one bar per dimension in its link's colour, as tall as its bytes
    /// on the value axis (read from the axis's labels), left to right in the table's order;
    /// on the log axis the larger sender is the taller bar.
    #[test]
    fn each_bar_is_its_dimension_s_bytes_in_its_link_s_colour() {
        use crate::kit::charts::test_support::{rects, value_scale};
        for config in [
            PlanConfig::lesson_64_gpus(),
            PlanConfig {
                tp: 2,
                pp: 4,
                ..PlanConfig::default()
            },
        ] {
            let series = traffic_series(&traffic(config));
            assert!(!series.log_scale);
            let (ok, en) = svg((1280, 720), |area| draw(area, &series, Lang::En));
            ok.unwrap();
            let (axis, per_gb) = value_scale(&en);
            let mut last_x = f64::MIN;
            for bar in &series.bars {
                let drawn: Vec<_> = rects(&en, palette::link(bar.link))
                    .into_iter()
                    .filter(|r| r.0 > last_x && (r.1 + r.3 - axis).abs() <= 1.5)
                    .collect();
                let Some(&(x, _, _, height)) = drawn.first() else {
                    panic!("no {:?} bar after x = {last_x}", bar.dim);
                };
                assert!(
                    (height - bar.bytes.gb() * per_gb).abs() <= 1.5,
                    "{:?}: {height} px for {}",
                    bar.dim,
                    bar.bytes
                );
                last_x = x;
            }
        }
        let series = traffic_series(&wide_span());
        let (ok, en) = svg((1280, 720), |area| draw(area, &series, Lang::En));
        ok.unwrap();
        let pp = rects(&en, palette::link(Link::NvLink));
        let dp = rects(&en, palette::link(Link::InfiniBand));
        let tallest = |r: &[(f64, f64, f64, f64)]| r.iter().map(|r| r.3).fold(0.0, f64::max);
        assert!(tallest(&dp) > tallest(&pp), "{dp:?} {pp:?}");
    }

    #[test]
    fn linear_and_log_axes_both_draw() {
        for list in [traffic(PlanConfig::lesson_64_gpus()), wide_span()] {
            let series = traffic_series(&list);
            let (ok, en) = svg((640, 360), |area| draw(area, &series, Lang::En));
            ok.unwrap();
            assert_eq!(en.contains("log scale"), series.log_scale);
        }
    }

    #[test]
    fn draws_link_names_beside_colours() {
        let said = Said {
            en: &[
                "NVLink",
                "IB",
                "InfiniBand (across nodes)",
                "log scale",
                "DP",
                "PP",
                "97.2 GB",
            ],
            zh: &["跨机", "对数坐标"],
            zh_summary: &["InfiniBand（跨机）"],
        };
        assert_said(
            |a, d, l| draw(a, d, l),
            summary,
            &traffic_series(&wide_span()),
            said,
        );
    }

    #[test]
    fn every_sentence_is_filled_with_its_names() {
        let series = traffic_series(&wide_span());
        assert_each_lang_uses_all(text::ALL, |lang| {
            summary(&series, lang);
        });
        assert_eq!(
            summary(&series, Lang::En),
            "Traffic per card per step: PP 0.7 GB over NVLink (point-to-point, group of 2); \
             DP 97.2 GB over InfiniBand (all-reduce, group of 8)."
        );
    }

    #[test]
    fn empty_and_degenerate_lists_do_not_panic() {
        let empty = traffic_series(&traffic(PlanConfig {
            gpus: 1,
            ..PlanConfig::default()
        }));
        assert!(empty.bars.is_empty());
        let (ok, en) = svg((640, 360), |area| draw(area, &empty, Lang::En));
        ok.unwrap();
        assert!(en.contains("No traffic"));
        assert_eq!(summary(&empty, Lang::Zh), empty_text(Lang::Zh));

        let one = traffic(PlanConfig {
            tp: 8,
            ..PlanConfig::default()
        });
        let zero = Traffic {
            bytes: Bytes::new(0.0),
            ..one[0]
        };
        let nan = Traffic {
            bytes: Bytes::new(f64::NAN),
            ..one[0]
        };
        let tiny = Traffic {
            bytes: Bytes::new(1.0),
            ..one[0]
        };
        for list in [
            vec![zero],
            vec![zero, tiny, one[0]],
            vec![nan, one[0]],
            vec![one[0]; 12],
        ] {
            let series = traffic_series(&list);
            let _ = svg((640, 360), |area| draw(area, &series, Lang::En));
            let _ = svg((64, 36), |area| draw(area, &series, Lang::Zh));
        }
        assert!(
            svg((0, 0), |area| draw(area, &traffic_series(&one), Lang::En))
                .0
                .is_err()
        );
    }
}
