//! What a link carries: the two grids' plans and selected cards, the open [`Section`], the
//! [`Lang`] and the [`Widget`] shown alone in embed mode. Sections and widgets are typed: the
//! link codec, embed mode, the share buttons and the contents list all match them exhaustively.

use crate::config::PlanConfig;
use crate::lang::Lang;

/// One of the page's two grids.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GridId {
    /// One machine: 8 cards.
    Eight,
    /// Eight machines: 64 cards.
    SixtyFour,
}

impl GridId {
    /// Both grids, in page order.
    pub const ALL: [GridId; 2] = [GridId::Eight, GridId::SixtyFour];

    /// The link key of the grid's plan: "g8" or "g64".
    pub const fn key(self) -> &'static str {
        match self {
            GridId::Eight => "g8",
            GridId::SixtyFour => "g64",
        }
    }

    /// The link key of the grid's selected card: "c8" or "c64".
    pub const fn card_key(self) -> &'static str {
        match self {
            GridId::Eight => "c8",
            GridId::SixtyFour => "c64",
        }
    }

    /// Number of cards.
    pub const fn gpus(self) -> u32 {
        match self {
            GridId::Eight => 8,
            GridId::SixtyFour => 64,
        }
    }

    /// The config that tokens are differences from: the neutral defaults with this N.
    pub fn base(self) -> PlanConfig {
        PlanConfig {
            gpus: self.gpus(),
            ..PlanConfig::default()
        }
    }

    /// Where the page starts this grid (SPEC §2): the lesson's first plan.
    pub fn start(self) -> PlanConfig {
        match self {
            GridId::Eight => PlanConfig::lesson_8_gpus(),
            GridId::SixtyFour => PlanConfig::lesson_64_gpus(),
        }
    }

    /// The lesson's part that holds this grid: part one the 8-card machine, part two the
    /// 64-card cluster.
    ///
    /// ```
    /// use parallel_core::link::{GridId, Section};
    /// assert_eq!(GridId::Eight.section(), Section::PartOne);
    /// assert_eq!(GridId::SixtyFour.section(), Section::PartTwo);
    /// ```
    pub const fn section(self) -> Section {
        match self {
            GridId::Eight => Section::PartOne,
            GridId::SixtyFour => Section::PartTwo,
        }
    }
}

/// A section of the page that a link can open (`sec=`), in reading order. Its id is the
/// section element's `id` on the page.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Section {
    /// The introduction.
    Intro,
    /// Part one: one machine, 8 cards.
    PartOne,
    /// Part two: eight machines, 64 cards.
    PartTwo,
    /// Part three: real configurations (Llama 3, DeepSeek-V3, recipes).
    PartThree,
    /// Part four: three decisions.
    PartFour,
    /// The evolution map.
    Evolution,
    /// How the numbers are counted.
    CountingNote,
}

impl Section {
    /// Every section, in reading order.
    pub const ALL: [Section; 7] = [
        Section::Intro,
        Section::PartOne,
        Section::PartTwo,
        Section::PartThree,
        Section::PartFour,
        Section::Evolution,
        Section::CountingNote,
    ];

    /// The section's element id and link value, e.g. "part-one".
    pub const fn id(self) -> &'static str {
        match self {
            Section::Intro => "intro",
            Section::PartOne => "part-one",
            Section::PartTwo => "part-two",
            Section::PartThree => "part-three",
            Section::PartFour => "part-four",
            Section::Evolution => "evolution",
            Section::CountingNote => "counting-note",
        }
    }

    /// The section of an id, if it is one.
    pub fn from_id(id: &str) -> Option<Section> {
        Section::ALL.into_iter().find(|s| s.id() == id)
    }
}

/// A widget that embed mode shows alone (`embed=`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Widget {
    /// The 8-card grid with its controls and figures.
    Grid8,
    /// The 64-card grid with its controls and figures.
    Grid64,
    /// The 8-card plans table.
    Table8,
    /// The 64-card plans table.
    Table64,
    /// The Llama 3 405B table.
    Llama3,
    /// The 64-card grid's memory chart.
    ChartMemory64,
    /// The 64-card grid's bubble chart.
    ChartBubble64,
    /// The 64-card grid's traffic chart.
    ChartTraffic64,
}

impl Widget {
    /// Every widget, in page order.
    pub const ALL: [Widget; 8] = [
        Widget::Grid8,
        Widget::Grid64,
        Widget::Table8,
        Widget::Table64,
        Widget::Llama3,
        Widget::ChartMemory64,
        Widget::ChartBubble64,
        Widget::ChartTraffic64,
    ];

    /// The widget's link value, e.g. "grid-64".
    pub const fn id(self) -> &'static str {
        match self {
            Widget::Grid8 => "grid-8",
            Widget::Grid64 => "grid-64",
            Widget::Table8 => "table-8",
            Widget::Table64 => "table-64",
            Widget::Llama3 => "llama3",
            Widget::ChartMemory64 => "chart-memory-64",
            Widget::ChartBubble64 => "chart-bubble-64",
            Widget::ChartTraffic64 => "chart-traffic-64",
        }
    }

    /// The widget of an id, if it is one.
    pub fn from_id(id: &str) -> Option<Widget> {
        Widget::ALL.into_iter().find(|w| w.id() == id)
    }

    /// The grid whose state the widget shows, if any (the Llama 3 table shows none).
    pub const fn grid(self) -> Option<GridId> {
        match self {
            Widget::Grid8 | Widget::Table8 => Some(GridId::Eight),
            Widget::Grid64
            | Widget::Table64
            | Widget::ChartMemory64
            | Widget::ChartBubble64
            | Widget::ChartTraffic64 => Some(GridId::SixtyFour),
            Widget::Llama3 => None,
        }
    }
}

/// Everything a link carries.
#[derive(Clone, Debug, PartialEq)]
pub struct LinkState {
    /// The 8-card grid's plan.
    pub g8: PlanConfig,
    /// The 64-card grid's plan.
    pub g64: PlanConfig,
    /// The 8-card grid's selected card.
    pub card8: Option<u32>,
    /// The 64-card grid's selected card.
    pub card64: Option<u32>,
    /// The open section.
    pub section: Option<Section>,
    /// The language.
    pub lang: Lang,
    /// The widget shown alone.
    pub embed: Option<Widget>,
    /// The controls an embedded grid shows; `None`: the lesson's.
    pub controls: Option<super::Controls>,
    /// The parts an embedded grid draws; `None`: the grid and its figures
    /// ([`super::Parts::EMBED`]).
    pub parts: Option<super::Parts>,
    /// The course page an embedded widget takes messages from; `None`: the window that
    /// frames it, whatever its origin.
    pub parent: Option<super::Origin>,
}

impl Default for LinkState {
    fn default() -> LinkState {
        LinkState {
            g8: GridId::Eight.start(),
            g64: GridId::SixtyFour.start(),
            card8: None,
            card64: None,
            section: None,
            lang: Lang::Zh,
            embed: None,
            controls: None,
            parts: None,
            parent: None,
        }
    }
}

impl LinkState {
    /// The lesson at its start with `grid` showing `plan`, no card selected, opened at that
    /// grid's part in `lang`: the link a question of the lesson opens.
    ///
    /// ```
    /// use parallel_core::link::{encode, GridId, LinkState};
    /// use parallel_core::{Lang, PlanConfig};
    /// let plan = PlanConfig { tp: 4, zero: 0, ..GridId::Eight.start() };
    /// let state = LinkState::opening(GridId::Eight, plan.clone(), Lang::En);
    /// assert_eq!((state.plan(GridId::Eight), state.card(GridId::Eight)), (&plan, None));
    /// assert_eq!(state.g64, GridId::SixtyFour.start());
    /// assert_eq!(encode(&state), "g8=tp4&sec=part-one&lang=en");
    /// ```
    pub fn opening(grid: GridId, plan: PlanConfig, lang: Lang) -> LinkState {
        let mut state = LinkState {
            section: Some(grid.section()),
            lang,
            ..LinkState::default()
        };
        match grid {
            GridId::Eight => state.g8 = plan,
            GridId::SixtyFour => state.g64 = plan,
        }
        state
    }

    /// The plan of one grid.
    pub fn plan(&self, grid: GridId) -> &PlanConfig {
        match grid {
            GridId::Eight => &self.g8,
            GridId::SixtyFour => &self.g64,
        }
    }

    /// The selected card of one grid.
    pub fn card(&self, grid: GridId) -> Option<u32> {
        match grid {
            GridId::Eight => self.card8,
            GridId::SixtyFour => self.card64,
        }
    }
}
