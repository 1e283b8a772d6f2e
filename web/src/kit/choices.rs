//! A `<select>`'s typed options and the one way back from an option's DOM value to its value.
//!
//! Every select of the page holds a typed value (a `Recompute`, a `Preset`, a ZeRO stage…),
//! never a string: its options are listed as values, each spelled once by a total function
//! (`Recompute::as_str`, `Preset::id`…), and the spelling the browser hands back is read
//! against that same list. Since the options come from the list, a spelling it does not hold
//! can only be a bug of the page: [`Choices::read`] names it as an [`UnknownOption`], and the
//! select logs it and keeps its value; it never stands in another value.

use core::fmt;

/// A DOM value that no option of the select spells.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownOption {
    /// The value the browser handed back.
    pub value: String,
}

impl fmt::Display for UnknownOption {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "no option is spelled `{}`", self.value)
    }
}

impl std::error::Error for UnknownOption {}

/// A select's options: (value, 中文, English) in the select's order, and each value's spelling
/// as its option's DOM value.
#[derive(Clone, Debug)]
pub struct Choices<T: 'static> {
    /// (value, 中文, English), in order.
    pub list: Vec<(T, &'static str, &'static str)>,
    /// A value's spelling as its option's DOM value (its config or link word).
    pub id: fn(T) -> &'static str,
}

impl Choices<bool> {
    /// A switch's two options, spelled "true" and "false" (the config's words), `first`
    /// listed first, with their names in both languages.
    pub fn switch(
        first: bool,
        on: (&'static str, &'static str),
        off: (&'static str, &'static str),
    ) -> Choices<bool> {
        Choices::named(
            &[first, !first],
            |v| if v { "true" } else { "false" },
            move |v| if v { on } else { off },
        )
    }
}

impl<T: Copy> Choices<T> {
    /// The options of `values`, each named by `name` in both languages.
    pub fn named(
        values: &[T],
        id: fn(T) -> &'static str,
        name: impl Fn(T) -> (&'static str, &'static str),
    ) -> Choices<T> {
        let list = values
            .iter()
            .map(|&v| {
                let (zh, en) = name(v);
                (v, zh, en)
            })
            .collect();
        Choices { list, id }
    }

    /// The value of the option spelled `text`; no option spelled so is an [`UnknownOption`].
    ///
    /// ```
    /// use parallel_core::Recompute;
    /// use parallel_web::kit::choices::{Choices, UnknownOption};
    /// let choices = Choices::named(&[Recompute::Full, Recompute::None], Recompute::as_str, |r| {
    ///     (r.as_str(), r.as_str())
    /// });
    /// assert_eq!(choices.read("none"), Ok(Recompute::None));
    /// assert_eq!(choices.read("most"), Err(UnknownOption { value: "most".into() }));
    /// ```
    pub fn read(&self, text: &str) -> Result<T, UnknownOption> {
        self.list
            .iter()
            .map(|(v, ..)| *v)
            .find(|&v| (self.id)(v) == text)
            .ok_or_else(|| UnknownOption {
                value: text.to_string(),
            })
    }

    /// The values, in the select's order.
    pub fn values(&self) -> impl Iterator<Item = T> + '_ {
        self.list.iter().map(|(v, ..)| *v)
    }
}

/// Test helpers: a select's options round-trip through their spellings.
#[cfg(test)]
pub mod testing {
    use super::*;

    /// Every option's spelling is its own and reads back as its value; a spelling no option
    /// has, or one in another case, is an error.
    pub fn assert_round_trips<T: Copy + PartialEq + fmt::Debug>(choices: &Choices<T>) {
        let spellings: Vec<&str> = choices.values().map(choices.id).collect();
        for (i, (value, zh, en)) in choices.list.iter().enumerate() {
            let spelled = (choices.id)(*value);
            assert!(
                !spellings[..i].contains(&spelled),
                "{value:?}: `{spelled}` spells two options"
            );
            assert!(!zh.is_empty() && !en.is_empty(), "{value:?} has its words");
            assert_eq!(choices.read(spelled), Ok(*value), "`{spelled}` reads back");
            let shouted = spelled.to_uppercase();
            if shouted != spelled {
                assert!(choices.read(&shouted).is_err(), "`{shouted}` is no option");
            }
        }
        assert!(choices.read("no such option").is_err());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use parallel_core::Recompute;

    #[test]
    fn an_option_reads_back_and_an_unknown_one_is_named() {
        let choices = Choices::named(
            &[Recompute::Full, Recompute::Selective, Recompute::None],
            Recompute::as_str,
            |r| (r.as_str(), r.as_str()),
        );
        testing::assert_round_trips(&choices);
        let unknown = choices.read("most").err().map(|e| e.to_string());
        assert_eq!(unknown.as_deref(), Some("no option is spelled `most`"));
        assert_eq!(
            choices.values().collect::<Vec<_>>(),
            [Recompute::Full, Recompute::Selective, Recompute::None]
        );
    }
}
