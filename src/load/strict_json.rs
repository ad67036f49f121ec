//! JSON objects with every key once. serde_json keeps the last of two equal keys (`{"m": 0.1,
//! "m": 0.9}` reads as 0.9), so a line could say one thing to a reviewer and another to the
//! gate; these deserialisers refuse a repeated key in any object, at any depth, with the column
//! where the repeat ends. Used by every JSON reader of the inputs (metrics, queries, eval runs and
//! qrels).

use std::fmt;

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::map::Entry;
use serde_json::{Map, Number, Value};

/// The start of the message of a repeated key (`json_error` words it for the user).
pub const DUPLICATE: &str = "duplicate key ";

/// A top-level JSON object without repeated keys.
pub struct StrictObject(pub Map<String, Value>);

/// Any JSON value without repeated keys in its objects.
pub struct StrictValue(pub Value);

/// Parses one line as an object with unique keys (the errors are serde_json's, plus repeats).
pub fn object_from_str(s: &str) -> Result<Map<String, Value>, serde_json::Error> {
    serde_json::from_str::<StrictObject>(s).map(|o| o.0)
}

/// Parses bytes as any JSON value with unique keys in every object.
pub fn value_from_slice(b: &[u8]) -> Result<Value, serde_json::Error> {
    serde_json::from_slice::<StrictValue>(b).map(|v| v.0)
}

impl<'de> Deserialize<'de> for StrictObject {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_map(ObjectVisitor).map(StrictObject)
    }
}

impl<'de> Deserialize<'de> for StrictValue {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(ValueVisitor).map(StrictValue)
    }
}

struct ObjectVisitor;

impl<'de> Visitor<'de> for ObjectVisitor {
    type Value = Map<String, Value>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a map")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut out = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            // One search of the keys per key: the slot a new key goes to, or the repeat.
            match out.entry(key) {
                Entry::Occupied(e) => {
                    return Err(de::Error::custom(format!(
                        "{DUPLICATE}{}",
                        crate::error::quoted(e.key())
                    )))
                }
                Entry::Vacant(e) => {
                    let StrictValue(v) = map.next_value()?;
                    e.insert(v);
                }
            }
        }
        Ok(out)
    }
}

struct ValueVisitor;

impl<'de> Visitor<'de> for ValueVisitor {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }

    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::Number(v.into()))
    }

    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::Number(v.into()))
    }

    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        // JSON text cannot hold NaN or infinity; serde_json refuses overflow itself.
        Ok(Number::from_f64(v).map_or(Value::Null, Value::Number))
    }

    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_string()))
    }

    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(ValueVisitor)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut out = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(4096));
        while let Some(StrictValue(v)) = seq.next_element()? {
            out.push(v);
        }
        Ok(Value::Array(out))
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Value, A::Error> {
        ObjectVisitor.visit_map(map).map(Value::Object)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_values_as_serde_json_when_keys_are_unique() {
        let line = r#"{"query_id":"q1","m":0.5,"n":-3,"big":18446744073709551615,"s":{"a":"b"},"l":[1,{"x":null}],"t":true}"#;
        let want: Map<String, Value> = serde_json::from_str(line).unwrap();
        assert_eq!(object_from_str(line).unwrap(), want);
        assert_eq!(
            value_from_slice(line.as_bytes()).unwrap(),
            Value::Object(want)
        );
    }

    #[test]
    fn a_repeated_key_at_any_depth_is_an_error() {
        for line in [
            r#"{"m":1,"m":2}"#,
            r#"{"query_id":"a","slices":{"t":"x","t":"y"}}"#,
            r#"{"gold":[{"d":1,"d":1}]}"#,
        ] {
            let e = object_from_str(line).unwrap_err().to_string();
            assert!(e.starts_with(DUPLICATE), "{line}: {e}");
        }
        let e = object_from_str("[1]").unwrap_err().to_string();
        assert!(
            e.starts_with("invalid type: sequence, expected a map"),
            "{e}"
        );
    }
}
