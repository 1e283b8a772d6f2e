//! A shell text as words, the way `sh` would split it before expanding variables: quotes
//! removed, `\` + newline joining lines, `#` comments dropped; `$VAR`s are kept as written.
//! And [`quote`], the other way.

use super::kinds::LaunchError;
use crate::error::PlanError;

/// The words of a shell text: whitespace separates them, `'…'` keeps everything, `"…"` keeps
/// everything but `\"`, `\\`, `\$` and `` \` ``, a `\` outside quotes keeps the next character
/// (and with a newline joins two lines), a `#` starting a word comments out the rest of the
/// line. A quote never closed is [`LaunchError::Unterminated`].
///
/// ```
/// use parallel_core::flags::words;
/// let w = words("torchrun --nnodes 2 \\\n  pretrain_gpt.py --data-path \"$DATA dir\" # note\n")?;
/// assert_eq!(w, ["torchrun", "--nnodes", "2", "pretrain_gpt.py", "--data-path", "$DATA dir"]);
/// # Ok::<(), parallel_core::PlanError>(())
/// ```
pub fn words(text: &str) -> Result<Vec<String>, PlanError> {
    let mut out = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some('\n') => {}
                Some('\r') if chars.peek() == Some(&'\n') => {
                    chars.next();
                }
                Some(next) => {
                    word.push(next);
                    in_word = true;
                }
                None => {}
            },
            '\'' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(ch) => word.push(ch),
                        None => return Err(unterminated('\'')),
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(ch @ ('"' | '\\' | '$' | '`')) => word.push(ch),
                            Some('\n') => {}
                            Some(ch) => {
                                word.push('\\');
                                word.push(ch);
                            }
                            None => return Err(unterminated('"')),
                        },
                        Some(ch) => word.push(ch),
                        None => return Err(unterminated('"')),
                    }
                }
            }
            '#' if !in_word => {
                for ch in chars.by_ref() {
                    if ch == '\n' {
                        break;
                    }
                }
            }
            c if c.is_whitespace() => {
                if in_word {
                    out.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            c => {
                word.push(c);
                in_word = true;
            }
        }
    }
    if in_word {
        out.push(word);
    }
    Ok(out)
}

fn unterminated(quote: char) -> PlanError {
    PlanError::Launch(LaunchError::Unterminated { quote })
}

/// A word as the shell should see it: as is when it holds only letters, digits and
/// `_-./:=,@+%`; else in single quotes (a `'` inside written `'\''`).
///
/// ```
/// use parallel_core::flags::quote;
/// assert_eq!(quote("--num-layers"), "--num-layers");
/// assert_eq!(quote("([0]*3+[1]*58)"), "'([0]*3+[1]*58)'");
/// ```
pub fn quote(word: &str) -> String {
    let plain = !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "_-./:=,@+%".contains(c));
    if plain {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', "'\\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoting_round_trips() {
        for word in ["a", "([0]*3+[1]*58)", "it's", "", "a b", "$X", "\\"] {
            assert_eq!(words(&quote(word)).unwrap(), [word], "{word:?}");
        }
        assert!(words("'open").is_err());
        assert!(words("\"open").is_err());
        assert_eq!(words("a\\").unwrap(), ["a"]);
    }
}
