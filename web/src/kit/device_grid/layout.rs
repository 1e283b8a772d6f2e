//! Where everything of the device grid sits: the card and node-box geometry ([`Layout`], a
//! pure function of N and the node size), the arrow keys' neighbours, and the ring hops of the
//! selected card's groups ([`hops`]) with their paths.

use parallel_core::{Dim, Groups, Link};

/// Card size and spacing of the drawing, in SVG units.
pub(super) const CARD_W: f64 = 58.0;
pub(super) const CARD_H: f64 = 46.0;
const GAP: f64 = 8.0;
pub(super) const NODE_PAD: f64 = 10.0;
const NODE_TITLE: f64 = 20.0;
const NODE_GAP: f64 = 18.0;
/// Cards per row inside a node box.
const CARDS_PER_ROW: u32 = 4;

/// A card's width in a compact grid, whose cards draw no coordinates: room for the rank, the
/// hottest expert's "▲" and the "!" of a card over its capacity on the first line (each
/// ending by `NARROW_CARD_W` − 6), the group badges on the second, where the coordinates were.
const NARROW_CARD_W: f64 = 48.0;

/// How a card is drawn: with its coordinates ([`CARD_W`] wide, the badges on the first line),
/// or narrow, in a compact grid ([`NARROW_CARD_W`], the badges on the second line).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CardShape {
    Full,
    Narrow,
}

impl CardShape {
    /// The card's width in drawing units.
    pub(super) fn units_wide(self) -> f64 {
        match self {
            CardShape::Full => CARD_W,
            CardShape::Narrow => NARROW_CARD_W,
        }
    }

    /// Where the "!" of a card over its capacity goes (its text's anchor, the end of the line),
    /// for a card whose top-left corner is `(x, y)`: at the right, between the rank's line
    /// (baseline 20) and the coordinates' (baseline `CARD_H` − 8), which run a full card's
    /// width; on a narrow card, at the end of the rank's line.
    pub(super) fn over_mark_at(self, (x, y): (f64, f64)) -> (f64, f64) {
        match self {
            CardShape::Full => (x + CARD_W - 6.0, y + 31.0),
            // The badges have the second line: the mark ends the first, after the rank and "▲".
            CardShape::Narrow => (x + NARROW_CARD_W - 6.0, y + 20.0),
        }
    }

    /// Where the group badges' text ends or starts, and its anchor, for a card at `(x, y)`.
    pub(super) fn badge_at(self, (x, y): (f64, f64)) -> (f64, f64, &'static str) {
        match self {
            CardShape::Full => (x + CARD_W - 6.0, y + 17.0, "end"),
            CardShape::Narrow => (x + 8.0, y + CARD_H - 8.0, "start"),
        }
    }
}

/// Where everything sits: a pure function of N and the node size.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Layout {
    gpus: u32,
    gpus_per_node: u32,
    node_columns: u32,
    drawn_as: CardShape,
}

/// The smallest scale (CSS pixels per drawing unit) at which two node boxes share a row: below
/// it a card's coordinates, 7.5 units high (`.card-coords` in lab.css), would read under about
/// 7 px, as on a 390-px phone (4.7 px, issue 37).
const TWO_COLUMNS_MIN_SCALE: f64 = 0.9;

/// The smallest scale at which a compact grid (an embedded one, whose cards' coordinates are
/// not drawn) puts four node boxes in a row: a card's number, 15 units high (`.card-rank` in
/// lab.css), then reads at 9 px or more.
const COMPACT_MIN_SCALE: f64 = 0.6;

/// Node boxes a row in a compact grid, where they fit.
const COMPACT_COLUMNS: u32 = 4;

/// Page margins around a grid that spans the screen's width, in CSS pixels.
const PAGE_MARGINS: f64 = 32.0;

impl Layout {
    /// One box per node, two node boxes a row when there are several.
    pub fn new(gpus: u32, gpus_per_node: u32) -> Layout {
        let gpus_per_node = gpus_per_node.max(1);
        let nodes = gpus.div_ceil(gpus_per_node);
        Layout {
            gpus,
            gpus_per_node,
            node_columns: if nodes > 1 { 2 } else { 1 },
            drawn_as: CardShape::Full,
        }
    }

    /// [`Layout::new`] for a window `width` CSS pixels wide: one node box a row where two would
    /// draw the cards' labels too small to read (the drawing then grows downwards instead).
    pub fn for_width(gpus: u32, gpus_per_node: u32, width: f64) -> Layout {
        let two = Layout::new(gpus, gpus_per_node);
        let (w, _) = two.node_size();
        let drawing = f64::from(two.node_columns) * w + f64::from(two.node_columns - 1) * NODE_GAP;
        if two.node_columns > 1 && (width - PAGE_MARGINS) < drawing * TWO_COLUMNS_MIN_SCALE {
            Layout {
                node_columns: 1,
                ..two
            }
        } else {
            two
        }
    }

    /// A compact grid (an embedded one, its cards' coordinates not drawn) for a window `width`
    /// CSS pixels wide: four node boxes a row of narrow cards where the cards' numbers still
    /// read (down to about 631 px, so a docs theme's 688-px column keeps them), else as
    /// [`Layout::for_width`].
    pub fn compact(gpus: u32, gpus_per_node: u32, width: f64) -> Layout {
        let wide = Layout {
            node_columns: COMPACT_COLUMNS,
            drawn_as: CardShape::Narrow,
            ..Layout::new(gpus, gpus_per_node)
        };
        let (w, _) = wide.node_size();
        let drawing = f64::from(COMPACT_COLUMNS) * w + f64::from(COMPACT_COLUMNS - 1) * NODE_GAP;
        if wide.nodes() >= COMPACT_COLUMNS && width - PAGE_MARGINS >= drawing * COMPACT_MIN_SCALE {
            wide
        } else {
            Layout::for_width(gpus, gpus_per_node, width)
        }
    }

    /// Whether the node boxes stand one a row (the drawing is then taller than a screen).
    pub fn one_column(&self) -> bool {
        self.node_columns == 1 && self.nodes() > 1
    }

    pub(super) fn nodes(&self) -> u32 {
        self.gpus.div_ceil(self.gpus_per_node)
    }

    pub(super) fn node_size(&self) -> (f64, f64) {
        let cols = self.gpus_per_node.min(CARDS_PER_ROW);
        let rows = self.gpus_per_node.div_ceil(CARDS_PER_ROW);
        (
            2.0 * NODE_PAD
                + f64::from(cols) * self.drawn_as.units_wide()
                + f64::from(cols - 1) * GAP,
            NODE_TITLE + 2.0 * NODE_PAD + f64::from(rows) * CARD_H + f64::from(rows - 1) * GAP,
        )
    }

    /// Top-left corner of a node box.
    pub fn node_origin(&self, node: u32) -> (f64, f64) {
        let (w, h) = self.node_size();
        let col = node % self.node_columns;
        let row = node / self.node_columns;
        (
            f64::from(col) * (w + NODE_GAP),
            f64::from(row) * (h + NODE_GAP),
        )
    }

    /// Top-left corner of a card.
    pub fn card_origin(&self, card: u32) -> (f64, f64) {
        let node = card / self.gpus_per_node;
        let slot = card % self.gpus_per_node;
        let (nx, ny) = self.node_origin(node);
        (
            nx + NODE_PAD + f64::from(slot % CARDS_PER_ROW) * (self.drawn_as.units_wide() + GAP),
            ny + NODE_TITLE + NODE_PAD + f64::from(slot / CARDS_PER_ROW) * (CARD_H + GAP),
        )
    }

    /// Centre of a card.
    pub fn card_centre(&self, card: u32) -> (f64, f64) {
        let (x, y) = self.card_origin(card);
        (x + self.drawn_as.units_wide() / 2.0, y + CARD_H / 2.0)
    }

    /// How its cards are drawn.
    pub fn card_shape(&self) -> CardShape {
        self.drawn_as
    }

    /// The SVG view box "0 0 W H".
    pub fn view_box(&self) -> String {
        let (w, h) = self.node_size();
        let rows = self.nodes().div_ceil(self.node_columns);
        let cols = self.node_columns.min(self.nodes());
        let width = f64::from(cols) * w + f64::from(cols - 1) * NODE_GAP;
        let height = f64::from(rows) * h + f64::from(rows.saturating_sub(1)) * NODE_GAP;
        format!("-2 -2 {} {}", width + 4.0, height + 4.0)
    }

    /// The card the arrow key leads to from `card`, staying on the grid.
    pub fn neighbour(&self, card: u32, key: &str) -> Option<u32> {
        let step = CARDS_PER_ROW.min(self.gpus_per_node);
        let next = match key {
            "ArrowRight" => card.checked_add(1),
            "ArrowLeft" => card.checked_sub(1),
            "ArrowDown" => card.checked_add(step),
            "ArrowUp" => card.checked_sub(step),
            "Home" => Some(0),
            "End" => self.gpus.checked_sub(1),
            _ => None,
        }?;
        (next < self.gpus).then_some(next)
    }
}

/// A ring hop between two cards of one group.
#[derive(Clone, Debug, PartialEq)]
pub struct Hop {
    /// The group's dimension.
    pub dim: Dim,
    /// From card.
    pub from: u32,
    /// To card.
    pub to: u32,
    /// The link this hop crosses.
    pub link: Link,
}

/// The hops of the selected card's groups: consecutive members in rank order, closed into a
/// ring for the collectives (TP, CP, DP); PP is a chain of point-to-point sends.
pub fn hops(groups: &Groups, gpus_per_node: u32) -> Vec<Hop> {
    let mut out = Vec::new();
    // The rings of the dense groups and of a rollout engine (its cards split the weights as
    // a TP group does); EP and expert DP are drawn by their outlines only.
    let ringed = [Dim::Tp, Dim::Cp, Dim::Pp, Dim::Dp, Dim::Engine];
    for (dim, members) in groups.each().filter(|(dim, _)| ringed.contains(dim)) {
        if members.len() < 2 {
            continue;
        }
        let mut pairs: Vec<(u32, u32)> = members.windows(2).map(|w| (w[0], w[1])).collect();
        if dim != Dim::Pp && members.len() > 2 {
            pairs.push((members[members.len() - 1], members[0]));
        }
        out.extend(pairs.into_iter().map(|(from, to)| Hop {
            dim,
            from,
            to,
            link: Link::of_cards(&[from, to], gpus_per_node),
        }));
    }
    out
}

impl Hop {
    /// The hop's key in the list of paths: its cards and its group's dimension (the link
    /// follows from the cards).
    pub(super) fn key(&self) -> (u32, u32, Dim) {
        (self.from, self.to, self.dim)
    }

    /// Its path's class: the dimension and the link ("hop hop-tp hop-nvlink").
    pub(super) fn class(&self) -> String {
        format!("hop hop-{} hop-{}", self.dim.as_str(), self.link.as_str())
    }

    /// Its path's `d`, one decimal: a curve from card to card, bent a little by its group's
    /// dimension, so that hops of different groups between the same cards stay apart.
    pub(super) fn path(&self, layout: &Layout) -> String {
        let (x1, y1) = layout.card_centre(self.from);
        let (x2, y2) = layout.card_centre(self.to);
        let bend = match self.dim {
            Dim::Tp | Dim::Engine => 10.0,
            Dim::Cp => -10.0,
            Dim::Pp => 22.0,
            _ => -22.0,
        };
        let (mx, my) = ((x1 + x2) / 2.0, (y1 + y2) / 2.0);
        let (dx, dy) = (x2 - x1, y2 - y1);
        let len = (dx * dx + dy * dy).sqrt().max(1.0);
        let (cx, cy) = (mx - dy / len * bend, my + dx / len * bend);
        format!("M{x1:.1},{y1:.1} Q{cx:.1},{cy:.1} {x2:.1},{y2:.1}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use parallel_core::{Plan, PlanConfig};

    /// The drawing's width and height as its view box gives them.
    fn drawn_size(layout: &Layout) -> (f64, f64) {
        let numbers: Vec<f64> = layout
            .view_box()
            .split(' ')
            .map(|v| v.parse().unwrap())
            .collect();
        (numbers[2], numbers[3])
    }

    /// Card 0's hops on 64 cards, TP 8 × PP 2 (DP 4), 8 cards a machine.
    fn card_0_hops() -> Vec<Hop> {
        let plan = Plan::new(&PlanConfig {
            gpus: 64,
            tp: 8,
            pp: 2,
            ..PlanConfig::default()
        })
        .unwrap();
        hops(&plan.grid().groups(0).unwrap(), 8)
    }

    #[test]
    fn hops_close_rings_but_not_pipelines() {
        let hops = card_0_hops();
        let count = |dim| hops.iter().filter(|h| h.dim == dim).count();
        assert_eq!((count(Dim::Tp), count(Dim::Pp), count(Dim::Dp)), (8, 1, 4));
        assert!(hops
            .iter()
            .filter(|h| h.dim == Dim::Tp)
            .all(|h| h.link == Link::NvLink));
        assert!(hops
            .iter()
            .filter(|h| h.dim != Dim::Tp)
            .all(|h| h.link == Link::InfiniBand));
    }

    #[test]
    fn each_hop_names_its_cards_and_link_in_a_path_of_one_decimal() {
        let drawn = card_0_hops();
        let layout = Layout::new(64, 8);
        let keys: std::collections::HashSet<_> = drawn.iter().map(Hop::key).collect();
        assert_eq!(keys.len(), drawn.len(), "one key per hop");
        let first = &drawn[0];
        assert_eq!((first.from, first.to), (0, 1));
        assert_eq!(first.class(), "hop hop-tp hop-nvlink");
        let pp = drawn.iter().find(|h| h.dim == Dim::Pp).unwrap();
        assert_eq!(
            (pp.from, pp.to, pp.class().as_str()),
            (0, 8, "hop hop-pp hop-ib")
        );
        let (x1, y1) = layout.card_centre(0);
        let (x2, y2) = layout.card_centre(1);
        // A TP hop between two neighbours of a row: its control point 10 units below them.
        assert_eq!(
            first.path(&layout),
            format!(
                "M{x1:.1},{y1:.1} Q{:.1},{:.1} {x2:.1},{y2:.1}",
                (x1 + x2) / 2.0,
                y1 + 10.0
            )
        );
        for hop in &drawn {
            let d = hop.path(&layout);
            assert!(!d.contains("NaN"), "{d}");
            let numbers = d.split([' ', ',', 'M', 'Q']).filter(|n| !n.is_empty());
            assert!(
                numbers
                    .into_iter()
                    .all(|n| n.split('.').nth(1).map(str::len) == Some(1)),
                "{d}"
            );
        }
    }

    #[test]
    fn a_phone_stands_the_nodes_one_a_row() {
        let phone = Layout::for_width(64, 8, 390.0);
        assert!(phone.one_column());
        assert!(phone.node_origin(1).1 > phone.node_origin(0).1);
        assert_eq!(phone.node_origin(1).0, phone.node_origin(0).0);
        // Its drawing is one node box wide: a card's labels at 358 px read above 7 px.
        let (width, _) = drawn_size(&phone);
        assert!(7.5 * (390.0 - PAGE_MARGINS) / width > 7.0, "{width}");
        // The arrow keys still walk the cards in their node's rows.
        assert_eq!(phone.neighbour(3, "ArrowDown"), Some(7));
        let desktop = Layout::for_width(64, 8, 1280.0);
        assert_eq!(desktop, Layout::new(64, 8));
        assert!(!desktop.one_column());
        assert!(!Layout::for_width(8, 8, 390.0).one_column());
    }

    #[test]
    fn a_compact_grid_puts_four_nodes_a_row_where_the_numbers_read() {
        // An 800-px course column: four node boxes a row, two rows, numbers above 9 px.
        let column = Layout::compact(64, 8, 800.0);
        assert_eq!(column.node_origin(3).1, column.node_origin(0).1);
        assert!(column.node_origin(4).1 > column.node_origin(0).1);
        let (width, _) = drawn_size(&column);
        assert!(15.0 * (800.0 - PAGE_MARGINS) / width >= 9.0, "{width}");
        // Too narrow for four: as any grid of that width; one node: one box.
        assert_eq!(
            Layout::compact(64, 8, 600.0),
            Layout::for_width(64, 8, 600.0)
        );
        assert_eq!(
            Layout::compact(64, 8, 390.0),
            Layout::for_width(64, 8, 390.0)
        );
        assert_eq!(Layout::compact(8, 8, 1280.0), Layout::new(8, 8));
    }

    #[test]
    fn a_compact_grid_keeps_four_nodes_a_row_in_a_docs_theme_column() {
        // MkDocs Material's content column at 1,400 × 900 is 688 px
        // (tests/course-site.test.mjs): narrow cards keep four node boxes a row there, their
        // numbers above 9 px, and the drawing under a third of the column's width in height.
        let column = Layout::compact(64, 8, 688.0);
        assert_eq!(column.card_shape(), CardShape::Narrow);
        assert_eq!(column.node_origin(3).1, column.node_origin(0).1);
        let (width, height) = drawn_size(&column);
        let scale = (688.0 - PAGE_MARGINS) / width;
        assert!(15.0 * scale >= 9.0, "{width} × {height}");
        assert!(
            height * scale < (688.0 - PAGE_MARGINS) / 3.0,
            "{width} × {height}"
        );
        // A narrow card's texts end inside it: the "!" by its right edge, on the rank's line.
        let (x, y) = column.card_origin(9);
        let (mark_x, mark_y) = CardShape::Narrow.over_mark_at((x, y));
        assert!(mark_x < x + CardShape::Narrow.units_wide() && mark_y == y + 20.0);
        // Every other grid draws its cards whole, with their coordinates.
        assert_eq!(
            Layout::for_width(64, 8, 1280.0).card_shape(),
            CardShape::Full
        );
        assert_eq!(Layout::compact(64, 8, 600.0).card_shape(), CardShape::Full);
    }

    #[test]
    fn layout_puts_nodes_in_two_columns() {
        let layout = Layout::new(64, 8);
        assert_eq!(layout.node_origin(0).1, layout.node_origin(1).1);
        assert!(layout.node_origin(2).1 > layout.node_origin(0).1);
        assert_eq!(layout.neighbour(0, "ArrowLeft"), None);
        assert_eq!(layout.neighbour(3, "ArrowDown"), Some(7));
        assert_eq!(layout.neighbour(63, "ArrowRight"), None);
    }
}
