//! The device grid's one DOM patcher. The cards are written once as markup (`card_markup`);
//! afterwards a PP move changes nearly all 64 cards at once, and one effect writes into each
//! card's elements only the attributes and texts that changed ([`CardNodes::write`]), instead
//! of ~15 reactive nodes per card each running again ([`keep_cards_current`]).

use leptos::prelude::*;

use super::card::{card_class, CardFace, CardMemory};
use super::layout::{over_mark_at, Layout};

const SVG_NS: &str = "http://www.w3.org/2000/svg";

/// Sets an element's text: in its one text node when it has one (cheaper than replacing the
/// node, as `textContent` does).
pub(super) fn set_text(element: &web_sys::Element, text: &str) {
    match element.first_child() {
        Some(node)
            if node.node_type() == web_sys::Node::TEXT_NODE && node.next_sibling().is_none() =>
        {
            node.set_node_value(Some(text))
        }
        _ => element.set_text_content(Some(text)),
    }
}

/// Keeps the cards of `svg` current: one effect compares each card's new face and memory with
/// what its elements show (at first `shown`, the state the markup was written in) and writes
/// the difference.
pub(super) fn keep_cards_current(
    svg: NodeRef<leptos::svg::Svg>,
    layout: Layout,
    gpus: u32,
    faces: Memo<Vec<CardFace>>,
    memories: Memo<Vec<Option<CardMemory>>>,
    shown: (Vec<CardFace>, Vec<Option<CardMemory>>),
) {
    Effect::new(move |previous: Option<Option<Drawn>>| {
        let (faces, memories) = (faces.get(), memories.get());
        let drawn = match previous.flatten() {
            Some(drawn) => drawn,
            None => {
                let root = svg.get()?;
                let nodes = (0..gpus)
                    .map(|card| CardNodes::find(&root, card, layout.card_origin(card)))
                    .collect::<Option<Vec<_>>>()?;
                Drawn {
                    nodes,
                    faces: shown.0.clone(),
                    memories: shown.1.clone(),
                }
            }
        };
        for (i, node) in drawn.nodes.iter().enumerate() {
            let (Some(face), Some(memory)) = (faces.get(i), memories.get(i)) else {
                continue;
            };
            let old = (
                drawn.faces.get(i),
                drawn.memories.get(i).and_then(Option::as_ref),
            );
            node.write(old, (face, memory.as_ref()));
        }
        Some(Drawn {
            nodes: drawn.nodes,
            faces,
            memories,
        })
    });
}

/// A card's elements that change: found once, written by `CardNodes::write`.
struct CardNodes {
    g: web_sys::Element,
    tint: web_sys::Element,
    badge: web_sys::Element,
    coords: web_sys::Element,
    /// The card's top-left corner in the drawing.
    origin: (f64, f64),
}

/// What the cards' elements show, with the elements.
struct Drawn {
    nodes: Vec<CardNodes>,
    faces: Vec<CardFace>,
    memories: Vec<Option<CardMemory>>,
}

impl CardNodes {
    fn find(svg: &web_sys::Element, card: u32, origin: (f64, f64)) -> Option<CardNodes> {
        let g = svg
            .query_selector(&format!("[data-card='{card}']"))
            .ok()??;
        let child = |selector: &str| g.query_selector(selector).ok().flatten();
        Some(CardNodes {
            tint: child(".card-tint")?,
            badge: child(".card-badge")?,
            coords: child(".card-coords")?,
            g,
            origin,
        })
    }

    /// Writes into the card's elements whatever differs between `old` (what they show) and
    /// `new`.
    fn write(
        &self,
        old: (Option<&CardFace>, Option<&CardMemory>),
        new: (&CardFace, Option<&CardMemory>),
    ) {
        let (old_face, old_memory) = old;
        let (face, memory) = new;
        let set = |element: &web_sys::Element, name: &str, value: Option<&str>| {
            let _ = match value {
                Some(value) => element.set_attribute(name, value),
                None => element.remove_attribute(name),
            };
        };
        let over = |m: Option<&CardMemory>| m.is_some_and(|m| !m.fits);
        let class = card_class(face, memory);
        if old_face.map(|f| card_class(f, old_memory)) != Some(class.clone()) {
            set(&self.g, "class", Some(&class));
        }
        if old_face != Some(face) {
            let old = old_face;
            let was = old.map(CardFace::attributes);
            for (i, (name, value)) in CardFace::ATTRIBUTES
                .into_iter()
                .zip(face.attributes())
                .enumerate()
            {
                if was.map(|values| values[i]) != Some(value) {
                    set(&self.g, name, value);
                }
            }
            // The name, a sentence, only ever through the DOM (see `card_markup`).
            if old.map(CardFace::label) != Some(face.label()) {
                set(&self.g, "aria-label", Some(face.label()));
            }
            if old.map(|f| &f.badges) != Some(&face.badges) {
                set_text(&self.badge, &face.badges);
            }
            if old.map(|f| &f.coords) != Some(&face.coords) {
                set_text(&self.coords, &face.coords);
            }
        }
        if old_memory != memory {
            let (was, now) = (
                old_memory.map(CardMemory::attributes),
                memory.map(CardMemory::attributes),
            );
            for (i, name) in CardMemory::ATTRIBUTES.into_iter().enumerate() {
                let value = now.and_then(|values| values[i]);
                if was.and_then(|values| values[i]) != value {
                    set(&self.g, name, value);
                }
            }
            if old_memory.map(|m| &m.tint) != memory.map(|m| &m.tint) {
                // The `fill` presentation attribute (the page's Content-Security-Policy would
                // refuse a `style` attribute).
                set(&self.tint, "fill", memory.map(|m| m.tint.as_str()));
            }
        }
        // The "!" of a card over its capacity, after a space (as the card's other texts).
        if over(old_memory) != over(memory) {
            let mark = self.g.query_selector(".card-over").ok().flatten();
            match (over(memory), mark) {
                (true, None) => self.add_over_mark(),
                (false, Some(mark)) => {
                    if let Some(space) = mark.previous_sibling() {
                        if space.node_type() == web_sys::Node::TEXT_NODE {
                            let _ = self.g.remove_child(&space);
                        }
                    }
                    mark.remove();
                }
                _ => {}
            }
        }
    }

    fn add_over_mark(&self) {
        let Some(document) = self.g.owner_document() else {
            return;
        };
        let Ok(mark) = document.create_element_ns(Some(SVG_NS), "text") else {
            return;
        };
        let (x, y) = over_mark_at(self.origin);
        let _ = mark.set_attribute("class", "card-over");
        let _ = mark.set_attribute("x", &x.to_string());
        let _ = mark.set_attribute("y", &y.to_string());
        let _ = mark.set_attribute("text-anchor", "end");
        mark.set_text_content(Some("!"));
        let _ = self.g.append_with_str_1(" ");
        let _ = self.g.append_with_node_1(&mark);
    }
}
