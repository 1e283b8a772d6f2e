//! The panel's sentences, Chinese and English side by side. Figures are formatted before they
//! are passed; the core's own words (each figure's label, each row's note, what is not built)
//! come from `Comparison` in the page's language.

use crate::kit::text::{text_table, Text};

text_table! {
    /// The folded panel.
    pub const SUMMARY: Text = Text {
        zh: "在 GPU 上核对",
        en: "Check on a GPU",
    };
    /// The card the panel checks, from its workload.
    pub const CARD: Text = Text {
        zh: "核对卡 {card}：它在流水线第 {stage} 段，这一段有 {layers} 层，在途微批 {held} 个。点网格里的另一张卡，就核对那一张。",
        en: "Checking card {card}: pipeline stage {stage}, whose {layers} layers it runs with {held} micro-batches in flight. Click another card in the grid to check that one.",
    };
    /// Step one: the two downloads.
    pub const STEP_DOWNLOAD: Text = Text {
        zh: "下载这张卡的工作负载和测量程序：",
        en: "Download this card's workload and the measuring program:",
    };
    /// The workload's download button.
    pub const DOWNLOAD: Text = Text {
        zh: "下载 {file}",
        en: "Download {file}",
    };
    /// The measuring program's link.
    pub const SCRIPT: Text = Text {
        zh: "下载 check.py",
        en: "Download check.py",
    };
    /// Step two: the command.
    pub const STEP_RUN: Text = Text {
        zh: "在有 GPU 的机器上运行它（只需要 Python 3 和 PyTorch）：",
        en: "Run it on a machine with a GPU (Python 3 and PyTorch, nothing else):",
    };
    /// The command's copy button.
    pub const COPY: Text = Text {
        zh: "复制命令",
        en: "Copy the command",
    };
    /// The copy went through.
    pub const COPIED: Text = Text {
        zh: "已复制",
        en: "Copied",
    };
    /// The browser refused the clipboard.
    pub const COPY_REFUSED: Text = Text {
        zh: "浏览器不让复制：请选中上面的命令手动复制。",
        en: "The browser refused: select the command above and copy it by hand.",
    };
    /// Step three: bring the measured file back.
    pub const STEP_LOAD: Text = Text {
        zh: "它写出 measured.json：选择它、把它拖到这里，或粘贴它的全文，和实验室的数对照。",
        en: "It writes measured.json: choose it, drop it here or paste its text to set it beside the lab's figures.",
    };
    /// The file input's label.
    pub const FILE: Text = Text {
        zh: "选择 measured.json",
        en: "Choose measured.json",
    };
    /// The text area's label.
    pub const PASTE: Text = Text {
        zh: "或粘贴 measured.json 的全文",
        en: "Or paste the text of measured.json",
    };
    /// The compare button.
    pub const COMPARE: Text = Text {
        zh: "对照",
        en: "Compare",
    };
    /// A file the browser could not read.
    pub const UNREADABLE: Text = Text {
        zh: "浏览器读不了这个文件。",
        en: "The browser could not read this file.",
    };
    /// The comparison's first line.
    pub const MEASURED_ON: Text = Text {
        zh: "实测于 {card} · {software} · {date}",
        en: "Measured on {card} · {software} · {date}",
    };
    /// The comparison's second line.
    pub const BUILT: Text = Text {
        zh: "卡 {rank}，流水线第 {stage} 段：构建了 {built} / {stage_layers} 层，在途微批 {held} 个",
        en: "card {rank}, stage {stage}: layers built {built} / {stage_layers}, micro-batches held {held}",
    };
    /// How it was measured.
    pub const METHOD: Text = Text {
        zh: "方法：{method}",
        en: "Method: {method}",
    };
    /// Why `torch.compile` did not run.
    pub const COMPILED_ERROR: Text = Text {
        zh: "torch.compile 未运行：{why}",
        en: "torch.compile did not run: {why}",
    };
    /// The notes' heading.
    pub const NOTES: Text = Text {
        zh: "差异从何而来",
        en: "Where the differences come from",
    };
    /// The not-built list's heading.
    pub const NOT_BUILT: Text = Text {
        zh: "没有构建的",
        en: "Not built",
    };
    /// The table's name (its scrolling box).
    pub const TABLE: Text = Text {
        zh: "实验室与实测逐项对照",
        en: "The lab beside the measurement, figure by figure",
    };
    /// The lesson's last step: the measured file goes to the planner.
    pub const TO_PLANNER: Text = Text {
        zh: "把它写出的 measured.json 拿到规划器的同一张卡下对照（计划和卡随链接带过去）：",
        en: "Bring the measured.json it writes to the same card in the planner (the link carries the plan and the card):",
    };
    /// The link to the planner.
    pub const PLANNER: Text = Text {
        zh: "在规划器里打开这个计划",
        en: "Open this plan in the planner",
    };
    /// A shipped measurement of this card's shapes (SPEC §19): the lab's figures come with it.
    pub const KNOWN: Text = Text {
        zh: "这张卡的形状已在一张 {card} 上实测过（{date}）：",
        en: "A card of these shapes was measured on one {card} ({date}):",
    };
    /// Its button.
    pub const SHOW_KNOWN: Text = Text {
        zh: "对照这次实测",
        en: "Compare with that measurement",
    };
}
