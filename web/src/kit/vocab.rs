//! The page's one vocabulary: the localised names of the parallel dimensions, of their groups,
//! of the links and of the collectives, as every figure, chart, legend, form and sentence of
//! the page shows them.
//!
//! The core names these things (`Dim`, `Link`, `Collective`); this module says them in the
//! page's language, once. The compact forms that are the same in both languages stay the
//! core's own and are not spelt here: `Dim::label` ("TP", "EDP") and `Link::short_name`
//! ("IB") in table cells, one-line summaries and under a chart's bars.
//!
//! Spelling, decided once: the acronyms as the core writes them; expert data parallelism is
//! "专家 DP" and, in English, "expert DP" (lower case, also at the head of a row); a link's
//! place is a node (机), as in the grid's node boxes.

use parallel_core::{Collective, Dim, Link};

use crate::kit::i18n::Lang;

/// A dimension's name: "TP", "CP", "EP", "PP", "DP", and "专家 DP" / "expert DP".
pub fn dim(lang: Lang, dim: Dim) -> &'static str {
    match dim {
        Dim::Edp => lang.pick("专家 DP", "expert DP"),
        Dim::Offload => lang.pick("优化器卸载", "optimizer offload"),
        Dim::Engine => lang.pick("推理引擎", "rollout engine"),
        Dim::Tp | Dim::Cp | Dim::Ep | Dim::Pp | Dim::Dp => dim.label(),
    }
}

/// The name of a dimension's traffic, heading its row of the traffic table and its
/// explanations: [`dim`], except DP's, which carries ZeRO's collectives and says so:
/// "DP（含 ZeRO）" / "DP (with ZeRO)".
pub fn dim_traffic(lang: Lang, dim: Dim) -> &'static str {
    match dim {
        Dim::Dp => lang.pick("DP（含 ZeRO）", "DP (with ZeRO)"),
        other => self::dim(lang, other),
    }
}

/// The name of the group of a dimension that a card shares with the selected card, in the
/// device grid's legend and the cards' accessible names: "Same TP group", "Same pipeline
/// (PP)", "Same expert DP group".
pub fn group(lang: Lang, dim: Dim) -> &'static str {
    match dim {
        Dim::Tp => lang.pick("同一个 TP 组", "Same TP group"),
        Dim::Cp => lang.pick("同一个 CP 组", "Same CP group"),
        Dim::Pp => lang.pick("同一条流水线（PP）", "Same pipeline (PP)"),
        Dim::Dp => lang.pick("同一个 DP 组", "Same DP group"),
        Dim::Ep => lang.pick("同一个 EP 组", "Same EP group"),
        Dim::Edp => lang.pick("同一个专家 DP 组", "Same expert DP group"),
        Dim::Offload => lang.pick(
            "这张卡和它的主机（优化器卸载）",
            "The card and its host (optimizer offload)",
        ),
        Dim::Engine => lang.pick("同一个推理引擎", "Same rollout engine"),
    }
}

/// A link's name in tables, legends and sentences: "NVLink", "InfiniBand" (in Chinese
/// "InfiniBand（跨机）": the one link that leaves the node says so).
pub fn link(lang: Lang, link: Link) -> &'static str {
    match link {
        Link::NvLink => "NVLink",
        Link::InfiniBand => lang.pick("InfiniBand（跨机）", "InfiniBand"),
        Link::Pcie => "PCIe",
    }
}

/// A link's name with where it runs, where the two are offered or keyed side by side (a
/// chart's legend, a choice of link): "NVLink (inside a node)", "InfiniBand (across nodes)".
pub fn link_where(lang: Lang, link: Link) -> &'static str {
    match link {
        Link::NvLink => lang.pick("NVLink（机内）", "NVLink (inside a node)"),
        Link::InfiniBand => lang.pick("InfiniBand（跨机）", "InfiniBand (across nodes)"),
        Link::Pcie => lang.pick("PCIe（卡与主机之间）", "PCIe (between a card and its host)"),
    }
}

/// A collective's name: "all-reduce", "point-to-point" (点对点 p2p), "reduce-scatter +
/// all-gather" … (the core's `Collective::as_str`, "p2p" and "reduce-scatter+all-gather",
/// stays in `data-collective` and the CLI's reports).
pub fn collective(lang: Lang, collective: Collective) -> &'static str {
    match collective {
        Collective::AllReduce => "all-reduce",
        Collective::AllGather => "all-gather",
        Collective::AllToAll => "all-to-all",
        Collective::P2p => lang.pick("点对点 p2p", "point-to-point"),
        Collective::ReduceScatterAllGather => "reduce-scatter + all-gather",
        Collective::AllGatherReduceScatter => "all-gather + reduce-scatter",
        Collective::DeviceHostRoundTrip => lang.pick(
            "梯度下到主机 + 权重回到卡上",
            "gradients to the host + weights back",
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use parallel_core::lang::has_cjk;

    const LINKS: [Link; 3] = [Link::NvLink, Link::InfiniBand, Link::Pcie];
    const COLLECTIVES: [Collective; 7] = [
        Collective::AllReduce,
        Collective::AllGather,
        Collective::AllToAll,
        Collective::P2p,
        Collective::ReduceScatterAllGather,
        Collective::AllGatherReduceScatter,
        Collective::DeviceHostRoundTrip,
    ];

    /// Every name of the vocabulary in `lang`, by kind.
    fn names(lang: Lang) -> Vec<(&'static str, &'static str)> {
        let mut out = Vec::new();
        for d in Dim::ALL {
            out.push(("dim", dim(lang, d)));
            out.push(("dim_traffic", dim_traffic(lang, d)));
            out.push(("group", group(lang, d)));
        }
        for l in LINKS {
            out.push(("link", link(lang, l)));
            out.push(("link_where", link_where(lang, l)));
        }
        for c in COLLECTIVES {
            out.push(("collective", collective(lang, c)));
        }
        out
    }

    #[test]
    fn english_names_hold_no_chinese_and_every_name_is_written() {
        for (kind, name) in names(Lang::En) {
            assert!(!name.is_empty() && !has_cjk(name), "{kind}: {name}");
        }
        for (kind, name) in names(Lang::Zh) {
            assert!(!name.is_empty(), "{kind}");
        }
    }

    #[test]
    fn each_dimension_is_spelt_once_in_every_name_of_it() {
        for lang in [Lang::Zh, Lang::En] {
            for d in Dim::ALL {
                let name = dim(lang, d);
                assert!(dim_traffic(lang, d).starts_with(name), "{d} traffic");
                assert!(group(lang, d).contains(name), "{d} group");
            }
        }
        assert_eq!(dim(Lang::En, Dim::Edp), "expert DP");
        assert_eq!(dim(Lang::Zh, Dim::Edp), "专家 DP");
        assert_eq!(dim(Lang::En, Dim::Dp), Dim::Dp.label());
        assert_eq!(dim_traffic(Lang::En, Dim::Dp), "DP (with ZeRO)");
    }

    #[test]
    fn a_link_s_place_follows_its_name() {
        for lang in [Lang::Zh, Lang::En] {
            for l in LINKS {
                assert!(link_where(lang, l).starts_with(&l.to_string()), "{l}");
            }
        }
        assert_eq!(
            link(Lang::En, Link::InfiniBand),
            Link::InfiniBand.to_string()
        );
    }
}
