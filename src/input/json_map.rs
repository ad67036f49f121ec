//! A two-level JSON map `{outer: {inner: number}}` read as a stream, one outer entry at a time
//! (ranx and BEIR runs `{qid: {doc_id: score}}` and qrels `{qid: {doc_id: rel}}`). A key given
//! twice at either level is an error (serde_json would keep the last silently); errors carry
//! the line and column serde_json reports.

use std::collections::HashSet;
use std::fmt;
use std::io::Read;

use serde::de::{self, DeserializeSeed, MapAccess, Visitor};
use serde_json::Number;

use crate::error::{quoted, Error, Result};

/// One outer entry: its key and its inner map in file order.
pub type Entry = (String, Vec<(String, Number)>);

/// Reads `reader` as a two-level map and calls `f` with each outer entry in file order. `f`
/// returns a message for an entry it refuses; it is reported at the entry's place.
pub fn for_each_entry(
    reader: impl Read,
    shown: &str,
    f: &mut dyn FnMut(Entry) -> std::result::Result<(), String>,
) -> Result<usize> {
    let mut de = serde_json::Deserializer::from_reader(std::io::BufReader::new(reader));
    let n = de::Deserializer::deserialize_map(&mut de, Outer { f })
        .and_then(|n| de.end().map(|()| n))
        .map_err(|e| json_error(shown, &e))?;
    Ok(n)
}

fn json_error(shown: &str, e: &serde_json::Error) -> Error {
    if e.is_io() {
        return Error::input(shown, 0, e.to_string());
    }
    let full = e.to_string();
    let suffix = format!(" at line {} column {}", e.line(), e.column());
    let what = full.strip_suffix(&suffix).unwrap_or(&full);
    Error::input(
        shown,
        e.line(),
        format!(
            "{what} (column {}); expected a JSON object {{query: {{doc: number}}}}",
            e.column()
        ),
    )
}

struct Outer<'f> {
    f: &'f mut dyn FnMut(Entry) -> std::result::Result<(), String>,
}

impl<'de> Visitor<'de> for Outer<'_> {
    type Value = usize;

    fn expecting(&self, out: &mut fmt::Formatter) -> fmt::Result {
        out.write_str("a JSON object {query: {doc: number}}")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> std::result::Result<usize, A::Error> {
        let mut seen: HashSet<String> = HashSet::new();
        while let Some(key) = map.next_key::<String>()? {
            if !seen.insert(key.clone()) {
                return Err(de::Error::custom(format!(
                    "query {} given twice",
                    quoted(&key)
                )));
            }
            let inner = map.next_value_seed(Inner(&key))?;
            (self.f)((key, inner)).map_err(de::Error::custom)?;
        }
        Ok(seen.len())
    }
}

/// The inner map of the query it names (for the messages).
struct Inner<'k>(&'k str);

impl<'de> DeserializeSeed<'de> for Inner<'_> {
    type Value = Vec<(String, Number)>;

    fn deserialize<D: de::Deserializer<'de>>(
        self,
        d: D,
    ) -> std::result::Result<Self::Value, D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for Inner<'_> {
    type Value = Vec<(String, Number)>;

    fn expecting(&self, out: &mut fmt::Formatter) -> fmt::Result {
        write!(
            out,
            "an object {{doc: number}} for query {}",
            quoted(self.0)
        )
    }

    fn visit_map<A: MapAccess<'de>>(
        self,
        mut map: A,
    ) -> std::result::Result<Self::Value, A::Error> {
        let mut seen: HashSet<String> = HashSet::new();
        let mut out = Vec::new();
        while let Some(doc) = map.next_key::<String>()? {
            let v: serde_json::Value = map.next_value()?;
            let serde_json::Value::Number(n) = v else {
                return Err(de::Error::custom(format!(
                    "query {} doc {}: expected a number, found {}",
                    quoted(self.0),
                    quoted(&doc),
                    crate::safe_text::shown(&v.to_string())
                )));
            };
            if !seen.insert(doc.clone()) {
                return Err(de::Error::custom(format!(
                    "query {} doc {} given twice",
                    quoted(self.0),
                    quoted(&doc)
                )));
            }
            out.push((doc, n));
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(s: &str) -> Result<Vec<Entry>> {
        let mut out = Vec::new();
        for_each_entry(s.as_bytes(), "r.json", &mut |e| {
            out.push(e);
            Ok(())
        })?;
        Ok(out)
    }

    #[test]
    fn entries_in_file_order() {
        let got = read("{\"q2\": {\"d1\": 1.5, \"d0\": 2}, \"q1\": {}}").unwrap();
        assert_eq!(got.len(), 2);
        assert_eq!(got[0].0, "q2");
        assert_eq!(got[0].1[1].0, "d0");
        assert!(got[1].1.is_empty());
    }

    #[test]
    fn duplicates_and_bad_values_name_the_place() {
        for (s, needle) in [
            (
                "{\"q\": {\"d\": 1, \"d\": 2}}",
                "r.json:1: query \"q\" doc \"d\" given twice",
            ),
            (
                "{\"q\": {}, \n\"q\": {}}",
                "r.json:2: query \"q\" given twice",
            ),
            ("{\"q\": {\"d\": \"x\"}}", "doc \"d\": expected a number"),
            ("[1]", "r.json:1: invalid type"),
            ("{\"q\": {\"d\": 1}", "r.json:1: EOF"),
            ("{} {}", "trailing characters"),
        ] {
            let e = read(s).unwrap_err().to_string();
            assert!(e.contains(needle), "{s}: {e}");
        }
    }
}
