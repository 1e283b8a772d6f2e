//! Split points: parts of a page built by code in a wasm module of its own, which the page
//! fetches when it first draws them, so that the module it waits for before its controls
//! answer holds only what its first screen needs.
//!
//! [`split_part!`] declares such a part as an async function returning [`Split`]. In a build
//! for the page (`--cfg wasm_split`, set by `scripts/setup.sh`'s `release_env` with the link
//! argument `--emit-relocs`), `wasm_split_helpers`'s macro turns its body into an export that
//! `scripts/split.mjs` (`wasm-split-cli`) moves into a module of its own, together with
//! everything only it reaches, and the function into a call that first fetches that module.
//! Everywhere else (the tests, the first screens rendered at build time) it is a plain async
//! function that builds the part at once, and never fails.
//!
//! Parts sharing a split module's name are fetched together; code two modules share is put by
//! the splitter in a module both fetch.

/// A split point's call, boxed: for a part a const names ([`crate::kit::grid_kit::GridKit`]'s
/// `check`, which then holds only the call, the part's code staying in its module), and in
/// [`crate::state::later::LaterPart`], whose drawing is then compiled once for every part.
pub type SplitCall = std::pin::Pin<Box<dyn std::future::Future<Output = Split> + Send>>;

/// A part from a split point: its view, or [`SplitFailed`] when its module could not be
/// fetched (the network, or the page's files replaced by a newer build meanwhile).
pub type Split = Result<leptos::prelude::AnyView, SplitFailed>;

/// A split module that could not be fetched or instantiated; drawing the part again tries
/// again (the loader keeps no failure).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SplitFailed;

#[cfg(wasm_split)]
impl From<wasm_split_helpers::SplitLoaderError> for SplitFailed {
    fn from(_: wasm_split_helpers::SplitLoaderError) -> SplitFailed {
        SplitFailed
    }
}

/// `split_fn! { in module; /// doc \n pub fn name(arg: Type, ...) -> Ret { body } }`: an async
/// function `name` returning `Result<Ret, SplitFailed>` whose body runs in the split module
/// `module` (see this module's documentation). Arguments are concrete types, moved in.
///
/// The function is defined in a module of its own, which sees its parent's names and allows
/// `unsafe_code` for what `wasm_split_helpers`'s macro writes there alone: the imports and
/// exports that join the split module to the page's.
macro_rules! split_fn {
    (in $module:ident; $(#[$meta:meta])* $vis:vis fn $name:ident($($arg:ident: $ty:ty),* $(,)?) -> $ret:ty $body:block) => {
        #[allow(unsafe_code)]
        mod $name {
            #[allow(unused_imports)]
            use super::*;

            $(#[$meta])*
            #[cfg(wasm_split)]
            #[wasm_split_helpers::wasm_split($module, fallible)]
            pub fn $name($($arg: $ty),*) -> Result<$ret, $crate::state::split::SplitFailed> {
                Ok($body)
            }

            $(#[$meta])*
            #[cfg(not(wasm_split))]
            pub async fn $name($($arg: $ty),*) -> Result<$ret, $crate::state::split::SplitFailed> {
                Ok($body)
            }
        }
        $vis use self::$name::$name;
    };
}

/// `split_part! { in module; /// doc \n pub fn name(arg: Type, ...) { body } }`: a
/// [`split_fn!`] whose body is a view, returning [`Split`].
macro_rules! split_part {
    (in $module:ident; $(#[$meta:meta])* $vis:vis fn $name:ident($($arg:ident: $ty:ty),* $(,)?) $body:block) => {
        $crate::state::split::split_fn! { in $module;
            $(#[$meta])*
            $vis fn $name($($arg: $ty),*) -> leptos::prelude::AnyView {
                let part = $body;
                leptos::prelude::IntoAny::into_any(part)
            }
        }
    };
}

pub(crate) use split_fn;
pub(crate) use split_part;
