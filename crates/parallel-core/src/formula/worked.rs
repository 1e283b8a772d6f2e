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

/// A quantity with its working: see [`crate::formula`].
#[derive(Clone, Debug, PartialEq)]
pub struct Worked {
    value: f64,
    symbols: String,
    substituted: String,
    binding: Binding,
    definitions: Vec<Definition>,
}

impl Worked {
    fn term(value: f64, symbols: String, substituted: String) -> Worked {
        Worked {
            value,
            symbols,
            substituted,
            binding: Binding::Term,
            definitions: Vec::new(),
        }
    }

    /// The value, the same as the `f64` form of the formula gives.
    pub fn value(&self) -> f64 {
        self.value
    }

    /// The formula in symbols.
    pub fn symbols(&self) -> &str {
        &self.symbols
    }

    /// The formula with the plan's values.
    pub fn substituted(&self) -> &str {
        &self.substituted
    }

    /// The named quantities the formula went through, innermost first.
    pub fn definitions(&self) -> &[Definition] {
        &self.definitions
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
        let left = match binding {
            Binding::Sum => Binding::Sum,
            Binding::Quotient | Binding::Product => Binding::Product,
            Binding::Term => Binding::Term,
        };
        let wrap = |w: &Worked, least: Binding, text: &str| {
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
        Worked {
            value,
            symbols,
            substituted,
            binding,
            definitions,
        }
    }

    fn call(name: &str, a: Worked, b: Worked, value: f64) -> Worked {
        let mut definitions = a.definitions;
        merge(&mut definitions, b.definitions);
        Worked {
            value,
            symbols: format!("{name}({}, {})", a.symbols, b.symbols),
            substituted: format!("{name}({}, {})", a.substituted, b.substituted),
            binding: Binding::Term,
            definitions,
        }
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
        let value = self.value + rhs.value;
        Worked::join(self, " + ", rhs, Binding::Sum, value, Binding::Sum)
    }
}

impl Sub for Worked {
    type Output = Worked;
    fn sub(self, rhs: Worked) -> Worked {
        let value = self.value - rhs.value;
        Worked::join(self, " − ", rhs, Binding::Sum, value, Binding::Quotient)
    }
}

impl Mul for Worked {
    type Output = Worked;
    fn mul(self, rhs: Worked) -> Worked {
        let value = self.value * rhs.value;
        Worked::join(self, "·", rhs, Binding::Product, value, Binding::Product)
    }
}

impl Div for Worked {
    type Output = Worked;
    fn div(self, rhs: Worked) -> Worked {
        let value = self.value / rhs.value;
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

    fn named(self, symbol: &'static str, show: Show) -> Worked {
        let mut definitions = self.definitions;
        let definition = Definition {
            symbol,
            symbols: self.symbols,
            substituted: self.substituted,
            value: self.value,
            show,
        };
        merge(&mut definitions, vec![definition]);
        Worked {
            value: self.value,
            symbols: symbol.to_owned(),
            substituted: show.write(self.value),
            binding: Binding::Term,
            definitions,
        }
    }

    fn max(self, other: Worked) -> Worked {
        let value = f64::max(self.value, other.value);
        Worked::call("max", self, other, value)
    }

    fn min(self, other: Worked) -> Worked {
        let value = f64::min(self.value, other.value);
        Worked::call("min", self, other, value)
    }

    fn ceil(self) -> Worked {
        Worked {
            value: self.value.ceil(),
            symbols: format!("⌈{}⌉", self.symbols),
            substituted: format!("⌈{}⌉", self.substituted),
            binding: Binding::Term,
            definitions: self.definitions,
        }
    }

    fn value(&self) -> f64 {
        self.value
    }
}
