//! Formulas written once: each figure of the report is a generic function over a
//! [`Quantity`], so the same lines of code both compute the figure and explain it.
//!
//! - With `f64` as the quantity, a formula is plain arithmetic: `var` is its value, `named`
//!   is the identity, and the operators are `f64`'s. The report is computed this way (no
//!   allocation, no strings).
//! - With [`Worked`] as the quantity, the same formula keeps, beside each value, the formula
//!   in symbols ("m·(L/p)·4·2·((t − 1)/t)·x"), the same with the plan's values
//!   ("8·(36/2)·4·2·((2 − 1)/2)·1.3 GB") and the definitions of the named sub-quantities it
//!   went through ("x = 2·s'·b·h"). [`crate::explain`] renders it.
//!
//! Both evaluate the same operations in the same order, so the explanation's value is the
//! report's value to the last bit.
//!
//! ```
//! use parallel_core::formula::{Quantity, Show, Worked};
//! // One definition: the ring factor (k − 1)/k of a group of k cards, times a tensor.
//! fn sent<Q: Quantity>(k: f64, x: f64) -> Q {
//!     let k = Q::var("k", k, Show::Count);
//!     (k.clone() - Q::lit(1.0)) / k * Q::var("x", x, Show::Bytes)
//! }
//! let value: f64 = sent(4.0, 2e9);
//! let worked: Worked = sent(4.0, 2e9);
//! assert_eq!(value, 1.5e9);
//! assert_eq!(worked.value(), value);
//! assert_eq!(worked.symbols(), "((k − 1)/k)·x");
//! assert_eq!(worked.substituted(), "((4 − 1)/4)·2.0 GB");
//! ```

mod quantity;
mod worked;

pub use quantity::{count_of, ring, sum, Quantity, Show};
pub use worked::{Definition, Worked};

#[cfg(test)]
mod tests;
