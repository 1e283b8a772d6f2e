//! [`Flags`] and [`Note`]: what the writers return, and the shell text of a command.

use super::shell::quote;
use crate::flags::kinds::Engine;
use crate::lang::Lang;

/// A sentence about the command, in both languages: what the engine cannot express, what the
/// lab does not set, or what a pasted command held that the lab does not model.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Note {
    /// 中文.
    pub zh: String,
    /// English.
    pub en: String,
}

impl Note {
    /// A note from its two sentences.
    pub fn new(zh: impl Into<String>, en: impl Into<String>) -> Note {
        Note {
            zh: zh.into(),
            en: en.into(),
        }
    }

    /// The sentence in `lang`.
    pub fn text(&self, lang: Lang) -> &str {
        lang.pick(&self.zh, &self.en)
    }
}

/// A plan as one engine's launch: the argument words (launcher and script first), for
/// DeepSpeed its JSON config, and the notes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Flags {
    /// The engine.
    pub engine: Engine,
    /// The command's words, unquoted: `["torchrun", "--nnodes", "1", …, "pretrain_gpt.py",
    /// "--tensor-model-parallel-size", "8", …]`.
    pub args: Vec<String>,
    /// DeepSpeed's `ds_config.json` (pretty JSON text); `None` for the other engines.
    pub config: Option<String>,
    /// What the command cannot say, or what the lab does not set.
    pub notes: Vec<Note>,
}

impl Flags {
    /// The command as a copyable shell text: the launcher and script on the first line, then
    /// one flag (with its value) per line, each line but the last ending in ` \`; values that
    /// the shell would change are single-quoted. For DeepSpeed, a here-document writing
    /// `ds_config.json` comes first. [`crate::flags::read_launch`] reads this text back.
    pub fn shell(&self) -> String {
        let mut lines: Vec<String> = Vec::new();
        let mut current: Vec<String> = Vec::new();
        let mut in_launcher = true;
        for word in &self.args {
            if word.starts_with("--") && !in_launcher {
                if !current.is_empty() {
                    lines.push(current.join(" "));
                }
                current = Vec::new();
            }
            if in_launcher && word.ends_with(".py") {
                in_launcher = false;
            }
            current.push(quote(word));
        }
        if !current.is_empty() {
            lines.push(current.join(" "));
        }
        let mut text = lines.join(" \\\n  ");
        text.push('\n');
        match &self.config {
            Some(config) => format!("cat > ds_config.json <<'EOF'\n{config}\nEOF\n{text}"),
            None => text,
        }
    }
}
