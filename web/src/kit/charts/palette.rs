//! The page's palette as plotters colours (the same values as `assets/style/frame.css`).

use parallel_core::{Dim, Link};
use plotters::style::RGBColor;

/// Text.
pub const INK: RGBColor = RGBColor(0x1d, 0x23, 0x2b);
/// Secondary text and axes.
pub const MUTED: RGBColor = RGBColor(0x5f, 0x6b, 0x78);
/// Grid lines.
pub const GRID: RGBColor = RGBColor(0xe0, 0xdd, 0xd5);
/// Background of a figure.
pub const PAPER: RGBColor = RGBColor(0xff, 0xff, 0xff);
/// Something that does not fit.
pub const BAD: RGBColor = RGBColor(0xc9, 0x2a, 0x2a);

/// Tensor parallel.
pub const TP: RGBColor = RGBColor(0x4c, 0x6e, 0xf5);
/// Context parallel.
pub const CP: RGBColor = RGBColor(0x12, 0xb8, 0x86);
/// Pipeline parallel.
pub const PP: RGBColor = RGBColor(0xf0, 0x8c, 0x00);
/// Data parallel.
pub const DP: RGBColor = RGBColor(0xae, 0x3e, 0xc9);
/// Expert parallel.
pub const EP: RGBColor = RGBColor(0xe6, 0x49, 0x80);
/// Expert data parallel.
pub const EDP: RGBColor = RGBColor(0x86, 0x2e, 0x9c);
/// A rollout engine (SPEC §15).
pub const ENGINE: RGBColor = RGBColor(0x0b, 0x72, 0x85);

/// NVLink (inside a node).
pub const NVLINK: RGBColor = RGBColor(0x3b, 0x5b, 0xdb);
/// InfiniBand (across nodes).
pub const IB: RGBColor = RGBColor(0xe8, 0x59, 0x0c);

/// The optimizer offload's traffic (SPEC §14): the optimizer's colour.
pub const OFFLOAD: RGBColor = OPTIMIZER;
/// PCIe, between a card and its host.
pub const PCIE: RGBColor = RGBColor(0x8a, 0x8a, 0x8a);
/// BF16 weights.
pub const WEIGHTS: RGBColor = RGBColor(0x6c, 0x8e, 0xbf);
/// Gradients.
pub const GRADIENTS: RGBColor = RGBColor(0x82, 0xb2, 0x9a);
/// FP32 master weights and Adam moments.
pub const OPTIMIZER: RGBColor = RGBColor(0xe0, 0xb5, 0x5b);
/// Saved activations.
pub const ACTIVATIONS: RGBColor = RGBColor(0xb0, 0x7a, 0xa1);
/// The runtime terms (SPEC §24): a neutral grey, as `.bar-runtime` in `assets/style/lab.css`.
pub const RUNTIME: RGBColor = RGBColor(0x86, 0x8e, 0x96);

/// A published run beside the lab (the runs chart's dots).
pub const RUN: RGBColor = RGBColor(0x3b, 0x5b, 0xdb);
/// A figure measured on one H200 (the runs chart's squares): PP's orange, darkened so a
/// small mark stands out on white.
pub const MEASURED: RGBColor = RGBColor(0xb3, 0x5c, 0x00);
/// The ±20% band around lab = reference.
pub const BAND: RGBColor = RGBColor(0xdc, 0xea, 0xd2);

/// The colour of a parallel dimension.
pub fn dim(dim: Dim) -> RGBColor {
    match dim {
        Dim::Tp => TP,
        Dim::Cp => CP,
        Dim::Ep => EP,
        Dim::Pp => PP,
        Dim::Dp => DP,
        Dim::Edp => EDP,
        Dim::Offload => OFFLOAD,
        Dim::Engine => ENGINE,
    }
}

/// The colour of a link.
pub fn link(link: Link) -> RGBColor {
    match link {
        Link::NvLink => NVLINK,
        Link::InfiniBand => IB,
        Link::Pcie => PCIE,
    }
}
