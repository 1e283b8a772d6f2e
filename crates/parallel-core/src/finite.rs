//! Every number out is finite (issue 50): [`non_finite`] walks anything serializable (a
//! [`crate::Report`], a check's comparison, a search result) and names each number that is NaN
//! or infinite by its JSON path, which `serde_json` would otherwise write as `null`
//! indistinguishable from a field left empty.
//!
//! ```
//! #[derive(serde::Serialize)]
//! struct Step { seconds: f64, parts: Vec<f64> }
//! let step = Step { seconds: 1.5, parts: vec![0.5, f64::NAN] };
//! assert_eq!(parallel_core::finite::non_finite(&step), vec!["parts[1]".to_string()]);
//! ```

use core::fmt;

use serde::ser::{self, Impossible, Serialize};

/// The JSON paths (`memory.total`, `comm[2].seconds`) of the NaN and infinite numbers in
/// `value`; empty when every number is finite.
pub fn non_finite<T: Serialize + ?Sized>(value: &T) -> Vec<String> {
    let mut walker = Walker::default();
    // The walker never fails: a value that cannot serialize has no numbers to name.
    let _ = value.serialize(&mut walker);
    walker.found
}

/// The walk: the path to the current value, and what it found.
#[derive(Default)]
struct Walker {
    path: Vec<String>,
    found: Vec<String>,
}

impl Walker {
    fn number(&mut self, v: f64) {
        if !v.is_finite() {
            self.found
                .push(self.path.concat().trim_start_matches('.').to_string());
        }
    }

    fn within<T: Serialize + ?Sized>(&mut self, step: String, value: &T) -> Result<(), Never> {
        self.path.push(step);
        let result = value.serialize(&mut *self);
        self.path.pop();
        result
    }
}

/// The walker's error, which it never returns.
#[derive(Debug)]
pub struct Never;

impl fmt::Display for Never {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("unreachable")
    }
}

impl std::error::Error for Never {}

impl ser::Error for Never {
    fn custom<T: fmt::Display>(_: T) -> Self {
        Never
    }
}

/// A sequence or a map being walked: its next index.
pub struct Items<'a> {
    walker: &'a mut Walker,
    index: usize,
}

/// Methods of a serializer that take one value (and nothing to walk into) and answer `$answer`.
macro_rules! leaf {
    ($answer:expr; $($name:ident: $t:ty),* $(,)?) => {
        $(fn $name(self, _: $t) -> Result<Self::Ok, Never> { $answer })*
    };
}

/// The compound openers after `serialize_seq` (tuple, tuple struct, tuple variant, map, struct,
/// struct variant), each answering `$answer`, which may use the serializer as `$this`.
macro_rules! compounds {
    ($this:ident => $answer:expr) => {
        fn serialize_tuple($this, _: usize) -> Result<Self::SerializeTuple, Never> {
            $answer
        }
        fn serialize_tuple_struct(
            $this,
            _: &'static str,
            _: usize,
        ) -> Result<Self::SerializeTupleStruct, Never> {
            $answer
        }
        fn serialize_tuple_variant(
            $this,
            _: &'static str,
            _: u32,
            _: &'static str,
            _: usize,
        ) -> Result<Self::SerializeTupleVariant, Never> {
            $answer
        }
        fn serialize_map($this, _: Option<usize>) -> Result<Self::SerializeMap, Never> {
            $answer
        }
        fn serialize_struct($this, _: &'static str, _: usize) -> Result<Self::SerializeStruct, Never> {
            $answer
        }
        fn serialize_struct_variant(
            $this,
            _: &'static str,
            _: u32,
            _: &'static str,
            _: usize,
        ) -> Result<Self::SerializeStructVariant, Never> {
            $answer
        }
    };
}

impl<'a> ser::Serializer for &'a mut Walker {
    type Ok = ();
    type Error = Never;
    type SerializeSeq = Items<'a>;
    type SerializeTuple = Items<'a>;
    type SerializeTupleStruct = Items<'a>;
    type SerializeTupleVariant = Items<'a>;
    type SerializeMap = Items<'a>;
    type SerializeStruct = Items<'a>;
    type SerializeStructVariant = Items<'a>;

    leaf!(Ok(()); serialize_bool: bool, serialize_i8: i8, serialize_i16: i16, serialize_i32: i32,
          serialize_i64: i64, serialize_u8: u8, serialize_u16: u16, serialize_u32: u32,
          serialize_u64: u64, serialize_char: char, serialize_str: &str,
          serialize_bytes: &[u8], serialize_unit_struct: &'static str);

    fn serialize_f32(self, v: f32) -> Result<(), Never> {
        self.number(f64::from(v));
        Ok(())
    }
    fn serialize_f64(self, v: f64) -> Result<(), Never> {
        self.number(v);
        Ok(())
    }
    fn serialize_none(self) -> Result<(), Never> {
        Ok(())
    }
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<(), Never> {
        value.serialize(self)
    }
    fn serialize_unit(self) -> Result<(), Never> {
        Ok(())
    }
    fn serialize_unit_variant(self, _: &'static str, _: u32, _: &'static str) -> Result<(), Never> {
        Ok(())
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        value: &T,
    ) -> Result<(), Never> {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<(), Never> {
        self.within(format!(".{variant}"), value)
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<Items<'a>, Never> {
        Ok(Items {
            walker: self,
            index: 0,
        })
    }
    compounds!(self => self.serialize_seq(None));
}

impl Items<'_> {
    fn element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Never> {
        let step = format!("[{}]", self.index);
        self.index += 1;
        self.walker.within(step, value)
    }

    fn field<T: Serialize + ?Sized>(&mut self, key: &str, value: &T) -> Result<(), Never> {
        self.walker.within(format!(".{key}"), value)
    }
}

/// The compound serializers whose parts are elements (`[i]`), then those whose parts are named
/// fields (`.key`): each part is walked, and nothing is left to do at the end.
macro_rules! parts {
    ($($kind:ident :: $method:ident ( $($key:ident: $key_type:ty,)? ) => $step:ident;)+) => {$(
        impl ser::$kind for Items<'_> {
            type Ok = ();
            type Error = Never;
            fn $method<T: Serialize + ?Sized>(
                &mut self,
                $($key: $key_type,)?
                value: &T,
            ) -> Result<(), Never> {
                self.$step($($key,)? value)
            }
            fn end(self) -> Result<(), Never> {
                Ok(())
            }
        }
    )+};
}

parts! {
    SerializeSeq::serialize_element() => element;
    SerializeTuple::serialize_element() => element;
    SerializeTupleStruct::serialize_field() => element;
    SerializeTupleVariant::serialize_field() => element;
    SerializeStruct::serialize_field(key: &'static str,) => field;
    SerializeStructVariant::serialize_field(key: &'static str,) => field;
}

impl ser::SerializeMap for Items<'_> {
    type Ok = ();
    type Error = Never;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), Never> {
        // Keys are named by the value that follows; a key that is a number is not an output.
        let _ = key;
        Ok(())
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Never> {
        self.element(value)
    }
    fn serialize_entry<K: Serialize + ?Sized, V: Serialize + ?Sized>(
        &mut self,
        key: &K,
        value: &V,
    ) -> Result<(), Never> {
        match key.serialize(KeyName) {
            Ok(name) => self.field(&name, value),
            Err(Never) => self.element(value),
        }
    }
    fn end(self) -> Result<(), Never> {
        Ok(())
    }
}

/// A map's key as a name, when it is a string.
struct KeyName;

impl ser::Serializer for KeyName {
    type Ok = String;
    type Error = Never;
    type SerializeSeq = Impossible<String, Never>;
    type SerializeTuple = Impossible<String, Never>;
    type SerializeTupleStruct = Impossible<String, Never>;
    type SerializeTupleVariant = Impossible<String, Never>;
    type SerializeMap = Impossible<String, Never>;
    type SerializeStruct = Impossible<String, Never>;
    type SerializeStructVariant = Impossible<String, Never>;

    fn serialize_str(self, v: &str) -> Result<String, Never> {
        Ok(v.to_string())
    }
    fn serialize_unit_variant(
        self,
        _: &'static str,
        _: u32,
        v: &'static str,
    ) -> Result<String, Never> {
        Ok(v.to_string())
    }
    leaf!(Err(Never); serialize_bool: bool, serialize_i8: i8, serialize_i16: i16,
          serialize_i32: i32, serialize_i64: i64, serialize_u8: u8, serialize_u16: u16,
          serialize_u32: u32, serialize_u64: u64, serialize_f32: f32, serialize_f64: f64,
          serialize_char: char, serialize_bytes: &[u8], serialize_unit_struct: &'static str);
    fn serialize_none(self) -> Result<String, Never> {
        Err(Never)
    }
    fn serialize_some<T: Serialize + ?Sized>(self, _: &T) -> Result<String, Never> {
        Err(Never)
    }
    fn serialize_unit(self) -> Result<String, Never> {
        Err(Never)
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        v: &T,
    ) -> Result<String, Never> {
        v.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result<String, Never> {
        Err(Never)
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<Self::SerializeSeq, Never> {
        Err(Never)
    }
    compounds!(self => Err(Never));
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    #[derive(serde::Serialize)]
    enum Part {
        Time { seconds: f64 },
    }

    #[derive(serde::Serialize)]
    struct Outer {
        total: f64,
        by_name: BTreeMap<String, f64>,
        parts: Vec<Part>,
        maybe: Option<f64>,
        pair: (f64, f32),
    }

    #[test]
    fn each_non_finite_number_is_named_by_its_path() {
        let outer = Outer {
            total: f64::INFINITY,
            by_name: BTreeMap::from([("tp".to_string(), f64::NAN), ("dp".to_string(), 1.0)]),
            parts: vec![
                Part::Time { seconds: 2.0 },
                Part::Time {
                    seconds: f64::NEG_INFINITY,
                },
            ],
            maybe: Some(f64::NAN),
            pair: (0.0, f32::NAN),
        };
        assert_eq!(
            non_finite(&outer),
            [
                "total",
                "by_name.tp",
                "parts[1].seconds",
                "maybe",
                "pair[1]"
            ]
        );
        let fine = Outer {
            total: 1.0,
            by_name: BTreeMap::new(),
            parts: vec![],
            maybe: None,
            pair: (0.0, 0.0),
        };
        assert!(non_finite(&fine).is_empty());
    }
}
