//! A set of the items a link names by word, written as the words joined by commas (`tp,pp,m`)
//! or `none`: the controls an embedded grid shows and the parts it draws.

/// Declares `$set`, a set of `$item`s (an enum with `ALL`, `id`, `from_id` and a `const fn
/// bit`), with `NONE`, `contains`, `with`, `iter`, `write` and `read`.
macro_rules! word_set {
    ($(#[$doc:meta])* $set:ident of $item:ident, $example:literal) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub struct $set(u32);

        impl $set {
            /// The empty set.
            pub const NONE: $set = $set(0);

            /// Whether `item` is in the set.
            pub const fn contains(self, item: $item) -> bool {
                self.0 & item.bit() != 0
            }

            /// The set with `item` in it (`on`) or not.
            pub const fn with(self, item: $item, on: bool) -> $set {
                if on {
                    $set(self.0 | item.bit())
                } else {
                    $set(self.0 & !item.bit())
                }
            }

            #[doc = concat!("The items in the set, in [`", stringify!($item), "::ALL`]'s order.")]
            pub fn iter(self) -> impl Iterator<Item = $item> {
                $item::ALL.into_iter().filter(move |c| self.contains(*c))
            }

            #[doc = concat!("The link value: the words joined by commas (`", $example, "`), `none` for the empty set.")]
            pub fn write(self) -> String {
                if self == $set::NONE {
                    return "none".to_string();
                }
                self.iter().map($item::id).collect::<Vec<_>>().join(",")
            }

            /// Reads a link value (see `write`); the first word that names no item is the
            /// error.
            pub fn read(value: &str) -> Result<$set, String> {
                if value.trim() == "none" {
                    return Ok($set::NONE);
                }
                let mut set = $set::NONE;
                for word in value.split(',').map(str::trim) {
                    match $item::from_id(word) {
                        Some(item) => set = set.with(item, true),
                        None => return Err(word.to_string()),
                    }
                }
                Ok(set)
            }
        }
    };
}
pub(super) use word_set;
