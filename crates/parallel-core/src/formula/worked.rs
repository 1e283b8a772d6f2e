//! [`Worked`]: a value with its formula in symbols, the same with the plan's values, and the
//! definitions of the named quantities it was built from.

use core::ops::{Add, Div, Mul, Sub};

use super::quantity::{count, Quantity, Show};

/// How tightly an expression binds, for parentheses: a sum inside a product is bracketed, a
/// quotient inside a product too ("m·(L/p)"), anything but a single term under a divisor.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Binding {
    Sum,
    Quotient,
    Product,
    Term,
}

/// A named quantity a formula went through, with its own formula.
#[derive(Clone, Debug, PartialEq)]
pub struct Definition {
    /// Its symbol ("x", "Ψ").
    pub symbol: &'static str,
    /// Its formula in symbols ("2·s'·b·h").
    pub symbols: String,
    /// Its formula with the plan's values ("2·4,096·1·5,120").
    pub substituted: String,
    /// Its value.
    pub value: f64,
    /// How the value is written.
    pub show: Show,
}

impl Definition {
    /// "x = 2·s'·b·h".
    pub fn in_symbols(&self) -> String {
        format!("{} = {}", self.symbol, self.symbols)
    }

    /// "x = 2·4,096·1·5,120 = 41.9 MB", or "D = 8" when the definition is its value.
    pub fn worked(&self) -> String {
        let shown = self.show.write(self.value);
        if self.substituted == shown {
            format!("{} = {shown}", self.symbol)
        } else {
            format!("{} = {} = {shown}", self.symbol, self.substituted)
        }
    }
}

/// A quantity with its working: see [`crate::formula`]. Boxed, so that a formula's every
/// step moves one pointer rather than the whole working (the page's wasm is smaller).
#[derive(Clone, Debug, PartialEq)]
pub struct Worked(Box<Working>);

/// What a [`Worked`] holds.
#[derive(Clone, Debug, PartialEq)]
struct Working {
    value: f64,
    symbols: String,
    substituted: String,
    binding: Binding,
    definitions: Vec<Definition>,
}

impl Worked {
    fn new(
        value: f64,
        symbols: String,
        substituted: String,
        binding: Binding,
        definitions: Vec<Definition>,
    ) -> Worked {
        Worked(Box::new(Working {
            value,
            symbols,
            substituted,
            binding,
            definitions,
        }))
    }

    fn term(value: f64, symbols: String, substituted: String) -> Worked {
        Worked::new(value, symbols, substituted, Binding::Term, Vec::new())
    }

    /// The value, the same as the `f64` form of the formula gives.
    pub fn value(&self) -> f64 {
        self.0.value
    }

    /// The formula in symbols.
    pub fn symbols(&self) -> &str {
        &self.0.symbols
    }

    /// The formula with the plan's values.
    pub fn substituted(&self) -> &str {
        &self.0.substituted
    }

    /// The named quantities the formula went through, innermost first.
    pub fn definitions(&self) -> &[Definition] {
        &self.0.definitions
    }

    /// Joins `a` and `b` with `op`, bracketing each side that binds less than `left` or
    /// `right`.
    fn join(
        a: Worked,
        op: &str,
        b: Worked,
        binding: Binding,
        value: f64,
        right: Binding,
    ) -> Worked {
        let (a, b) = (*a.0, *b.0);
        let left = match binding {
            Binding::Sum => Binding::Sum,
            Binding::Quotient | Binding::Product => Binding::Product,
            Binding::Term => Binding::Term,
        };
        let wrap = |w: &Working, least: Binding, text: &str| {
            if w.binding < least {
                format!("({text})")
            } else {
                text.to_owned()
            }
        };
        let symbols = format!(
            "{}{op}{}",
            wrap(&a, left, &a.symbols),
            wrap(&b, right, &b.symbols)
        );
        let substituted = format!(
            "{}{op}{}",
            wrap(&a, left, &a.substituted),
            wrap(&b, right, &b.substituted)
        );
        let mut definitions = a.definitions;
        merge(&mut definitions, b.definitions);
        Worked::new(value, symbols, substituted, binding, definitions)
    }

    fn call(name: &str, a: Worked, b: Worked, value: f64) -> Worked {
        let (a, b) = (*a.0, *b.0);
        let mut definitions = a.definitions;
        merge(&mut definitions, b.definitions);
        Worked::new(
            value,
            format!("{name}({}, {})", a.symbols, b.symbols),
            format!("{name}({}, {})", a.substituted, b.substituted),
            Binding::Term,
            definitions,
        )
    }
}

/// Adds to `into` the definitions of `from` it does not hold yet.
fn merge(into: &mut Vec<Definition>, from: Vec<Definition>) {
    for d in from {
        if !into.iter().any(|e| e.symbol == d.symbol) {
            into.push(d);
        }
    }
}

impl Add for Worked {
    type Output = Worked;
    fn add(self, rhs: Worked) -> Worked {
        let value = self.value() + rhs.value();
        Worked::join(self, " + ", rhs, Binding::Sum, value, Binding::Sum)
    }
}

impl Sub for Worked {
    type Output = Worked;
    fn sub(self, rhs: Worked) -> Worked {
        let value = self.value() - rhs.value();
        Worked::join(self, " − ", rhs, Binding::Sum, value, Binding::Quotient)
    }
}

impl Mul for Worked {
    type Output = Worked;
    fn mul(self, rhs: Worked) -> Worked {
        let value = self.value() * rhs.value();
        Worked::join(self, "·", rhs, Binding::Product, value, Binding::Product)
    }
}

impl Div for Worked {
    type Output = Worked;
    fn div(self, rhs: Worked) -> Worked {
        let value = self.value() / rhs.value();
        Worked::join(self, "/", rhs, Binding::Quotient, value, Binding::Term)
    }
}

impl Quantity for Worked {
    fn var(symbol: &'static str, value: f64, show: Show) -> Worked {
        Worked::term(value, symbol.to_owned(), show.write(value))
    }

    fn lit(value: f64) -> Worked {
        let text = count(value);
        Worked::term(value, text.clone(), text)
    }

    fn constant(text: &'static str, value: f64) -> Worked {
        Worked::term(value, text.to_owned(), text.to_owned())
    }

    fn factor(value: f64) -> Worked {
        let text = crate::numbers::fraction(value);
        Worked::term(value, text.clone(), text)
    }

    fn named(self, symbol: &'static str, show: Show) -> Worked {
        let w = *self.0;
        let mut definitions = w.definitions;
        let definition = Definition {
            symbol,
            symbols: w.symbols,
            substituted: w.substituted,
            value: w.value,
            show,
        };
        merge(&mut definitions, vec![definition]);
        Worked::new(
            w.value,
            symbol.to_owned(),
            show.write(w.value),
            Binding::Term,
            definitions,
        )
    }

    fn max(self, other: Worked) -> Worked {
        let value = f64::max(self.value(), other.value());
        Worked::call("max", self, other, value)
    }

    fn min(self, other: Worked) -> Worked {
        let value = f64::min(self.value(), other.value());
        Worked::call("min", self, other, value)
    }

    fn ceil(self) -> Worked {
        let w = *self.0;
        Worked::new(
            w.value.ceil(),
            format!("⌈{}⌉", w.symbols),
            format!("⌈{}⌉", w.substituted),
            Binding::Term,
            w.definitions,
        )
    }

    fn value(&self) -> f64 {
        self.0.value
    }
}
