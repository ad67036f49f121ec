//! A run card (`[efficiency] baseline = "b.card.json"`): one JSON object saying how a run was
//! made and what it measured at the run level. Read strictly: a repeated key, an unknown
//! top-level key, a non-number metric or a malformed curve point is an error naming the file and
//! the key (`b.card.json: metrics."index-bytes": …`). The layout is published as
//! `docs/run-card.schema.json`.
//!
//! ```json
//! { "model": { "id": "bge-m3", "dimension": 1024, "dtype": "float32" },
//!   "conditions": { "query-batch": 1, "hardware": "c6i.2xlarge" },
//!   "metrics": { "index-bytes": 4096000, "query-latency-p95-ms": [12.1, 12.4, 11.9] },
//!   "curves": { "qps_at_recall": [ { "ann-recall@10": 0.90, "qps": 1800 } ] } }
//! ```

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::{Map, Value};

use crate::error::{quoted, Error, Result};
use crate::model::RunCard;

const EXPECTED: &str = "a run card (a JSON object with model, conditions, metrics, curves)";
const TOP_KEYS: [&str; 5] = ["$schema", "model", "conditions", "metrics", "curves"];
const CURVES: [&str; 1] = ["qps_at_recall"];

/// Reads and checks one run card; `shown` names it in errors.
pub fn load(path: &Path, shown: &str) -> Result<RunCard> {
    let bytes = super::source::read_bytes(path, shown, EXPECTED)?;
    let text = super::source::decode_text(bytes, shown, EXPECTED)?;
    parse(&text, shown)
}

/// Parses the text of a run card (as `load` does after reading it).
pub fn parse(text: &str, shown: &str) -> Result<RunCard> {
    let value = super::strict_json::value_from_slice(text.as_bytes())
        .map_err(|e| super::source::json_error(shown, e.line(), &e, EXPECTED))?;
    let bad = |key: &str, msg: String| Error::input(shown, 0, format!("{key}: {msg}"));
    let Value::Object(top) = value else {
        return Err(Error::input(
            shown,
            0,
            format!("expected {EXPECTED}, found {}", kind(&value)),
        ));
    };
    for key in top.keys() {
        if !TOP_KEYS.contains(&key.as_str()) {
            return Err(bad(
                &quoted(key),
                format!("unknown key; expected {}", TOP_KEYS[1..].join(", ")),
            ));
        }
    }
    let card = RunCard {
        source: shown.to_string(),
        model: model(&top, shown)?,
        conditions: conditions(&top, shown)?,
        metrics: metrics(&top, shown)?,
        qps_at_recall: curves(&top, shown)?,
    };
    if card.metrics.is_empty() && card.qps_at_recall.is_empty() {
        return Err(bad(
            "metrics",
            "the card measures nothing: give \"metrics\" (name → number or list of numbers) or \"curves\"".into(),
        ));
    }
    Ok(card)
}

/// What a JSON value is, for messages.
fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}

/// The object under `key` (absent: empty), or an error naming the key.
fn object<'a>(
    top: &'a Map<String, Value>,
    key: &str,
    shown: &str,
) -> Result<Option<&'a Map<String, Value>>> {
    match top.get(key) {
        None => Ok(None),
        Some(Value::Object(m)) => Ok(Some(m)),
        Some(v) => Err(Error::input(
            shown,
            0,
            format!("{key}: expected an object, found {}", kind(v)),
        )),
    }
}

/// `model` or `conditions`: free-form keys, each value kept as written (a string as is, a number
/// or boolean or anything else as compact JSON); null is refused (say the value, or leave it out).
fn fields(top: &Map<String, Value>, key: &str, shown: &str) -> Result<BTreeMap<String, String>> {
    let mut out = BTreeMap::new();
    for (k, v) in object(top, key, shown)?.into_iter().flatten() {
        let text = match v {
            Value::String(s) => s.clone(),
            Value::Null => {
                return Err(Error::input(
                    shown,
                    0,
                    format!(
                        "{key}.{}: null; give the value, or leave the key out",
                        quoted(k)
                    ),
                ))
            }
            other => other.to_string(),
        };
        out.insert(k.clone(), text);
    }
    Ok(out)
}

/// `conditions`: free-form keys as `fields` reads them, except `deterministic`, which must be
/// true or false (false: the retriever does not give the same results on every run, so a gate
/// without run-to-run noise in its interval warns; docs/efficiency.md).
fn conditions(top: &Map<String, Value>, shown: &str) -> Result<BTreeMap<String, String>> {
    if let Some(v) = object(top, "conditions", shown)?.and_then(|c| c.get(DETERMINISTIC)) {
        if !v.is_boolean() {
            return Err(Error::input(
                shown,
                0,
                format!(
                    "conditions.{DETERMINISTIC}: expected true or false (whether the retriever gives the same results on every run), found {}",
                    kind(v)
                ),
            ));
        }
    }
    fields(top, "conditions", shown)
}

/// The condition that says whether the retriever gives the same results on every run.
pub const DETERMINISTIC: &str = "deterministic";

/// Whether `card` declares its retriever nondeterministic (`conditions.deterministic = false`).
pub fn nondeterministic(card: &RunCard) -> bool {
    card.conditions.get(DETERMINISTIC).map(String::as_str) == Some("false")
}

/// The model keys whose type is known (the seeds' model_eval fields) and what each must be.
const MODEL_KEYS: [(&str, &str); 10] = [
    ("id", "string"),
    ("revision", "string"),
    ("query_prompt", "string"),
    ("document_prompt", "string"),
    ("pooling", "string"),
    ("dtype", "string"),
    ("normalize", "boolean"),
    ("dimension", "count"),
    ("max_tokens", "count"),
    ("truncation_side", "side"),
];

/// `model`: free-form, but the known keys have their type (`dimension` a whole number ≥ 1, …).
fn model(top: &Map<String, Value>, shown: &str) -> Result<BTreeMap<String, String>> {
    for (k, v) in object(top, "model", shown)?.into_iter().flatten() {
        let Some((_, want)) = MODEL_KEYS.iter().find(|(name, _)| name == k) else {
            continue;
        };
        let ok = match *want {
            "string" => v.is_string(),
            "boolean" => v.is_boolean(),
            "count" => v.as_u64().is_some_and(|n| n >= 1),
            _ => matches!(v.as_str(), Some("left" | "right")),
        };
        if !ok {
            let expected = match *want {
                "string" => "a string",
                "boolean" => "true or false",
                "count" => "a whole number ≥ 1",
                _ => "\"left\" or \"right\"",
            };
            return Err(Error::input(
                shown,
                0,
                format!("model.{k}: expected {expected}, found {v}"),
            ));
        }
    }
    fields(top, "model", shown)
}

/// `metrics`: name → a finite number, or a non-empty list of finite numbers (replicates).
fn metrics(top: &Map<String, Value>, shown: &str) -> Result<BTreeMap<String, Vec<f64>>> {
    let mut out = BTreeMap::new();
    for (name, v) in object(top, "metrics", shown)?.into_iter().flatten() {
        let key = format!("metrics.{}", quoted(name));
        let bad = |msg: String| Error::input(shown, 0, format!("{key}: {msg}"));
        let values = match v {
            Value::Array(items) if items.is_empty() => {
                return Err(bad(
                    "an empty list; give one number or several measurements".into(),
                ))
            }
            Value::Array(items) => items
                .iter()
                .enumerate()
                .map(|(i, x)| {
                    number(x).ok_or_else(|| {
                        bad(format!(
                            "item {}: expected a finite number, found {}",
                            i + 1,
                            kind(x)
                        ))
                    })
                })
                .collect::<Result<Vec<f64>>>()?,
            x => vec![number(x).ok_or_else(|| {
                bad(format!(
                    "expected a number or a list of numbers (replicate measurements), found {}",
                    kind(x)
                ))
            })?],
        };
        out.insert(crate::metric_names::canonical(name), values);
    }
    Ok(out)
}

fn number(v: &Value) -> Option<f64> {
    v.as_f64().filter(|x| x.is_finite())
}

/// `curves`: only `qps_at_recall`, a list of points, each with a positive `qps` and at least one
/// recall metric in [0, 1].
fn curves(top: &Map<String, Value>, shown: &str) -> Result<Vec<BTreeMap<String, f64>>> {
    let Some(c) = object(top, "curves", shown)? else {
        return Ok(Vec::new());
    };
    for k in c.keys() {
        if !CURVES.contains(&k.as_str()) {
            return Err(Error::input(
                shown,
                0,
                format!(
                    "curves.{}: unknown curve; expected qps_at_recall",
                    quoted(k)
                ),
            ));
        }
    }
    let Some(points) = c.get("qps_at_recall") else {
        return Ok(Vec::new());
    };
    let Value::Array(points) = points else {
        return Err(Error::input(
            shown,
            0,
            format!(
                "curves.qps_at_recall: expected a list of points, found {}",
                kind(points)
            ),
        ));
    };
    points
        .iter()
        .enumerate()
        .map(|(i, p)| point(p, &format!("curves.qps_at_recall[{i}]"), shown))
        .collect()
}

/// One curve point: `{"ann-recall@10": 0.95, "qps": 1200}`.
fn point(p: &Value, at: &str, shown: &str) -> Result<BTreeMap<String, f64>> {
    let bad = |msg: String| Error::input(shown, 0, format!("{at}: {msg}"));
    let Value::Object(m) = p else {
        return Err(bad(format!(
            "expected a point like {{\"ann-recall@10\": 0.95, \"qps\": 1200}}, found {}",
            kind(p)
        )));
    };
    let mut out = BTreeMap::new();
    for (k, v) in m {
        let x = number(v).ok_or_else(|| {
            bad(format!(
                "{}: expected a finite number, found {}",
                quoted(k),
                kind(v)
            ))
        })?;
        if k == "qps" && x <= 0.0 {
            return Err(bad(format!("qps = {x}: expected a number > 0")));
        }
        if k != "qps" && !(0.0..=1.0).contains(&x) {
            return Err(bad(format!(
                "{} = {x}: a recall is between 0 and 1",
                quoted(k)
            )));
        }
        out.insert(
            if k == "qps" {
                k.clone()
            } else {
                crate::metric_names::canonical(k)
            },
            x,
        );
    }
    if !out.contains_key("qps") || out.len() < 2 {
        return Err(bad(
            "a point needs \"qps\" and a recall metric, e.g. {\"ann-recall@10\": 0.95, \"qps\": 1200}".into(),
        ));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(text: &str) -> String {
        parse(text, "c.json").unwrap_err().to_string()
    }

    #[test]
    fn a_full_card_reads() {
        let c = parse(
            r#"{"model": {"id": "m", "dimension": 256, "normalize": true},
                "conditions": {"query-batch": 1},
                "metrics": {"index-bytes": 100, "latency-ms": [1, 2.5, 3]},
                "curves": {"qps_at_recall": [{"ann-recall@10": 0.9, "qps": 50}]}}"#,
            "c.json",
        )
        .unwrap();
        assert_eq!(c.model["dimension"], "256");
        assert_eq!(c.model["normalize"], "true");
        assert_eq!(c.conditions["query-batch"], "1");
        assert_eq!(c.metrics["latency-ms"], vec![1.0, 2.5, 3.0]);
        assert_eq!(c.qps_at_recall[0]["qps"], 50.0);
    }

    #[test]
    fn deterministic_is_true_or_false() {
        let card = |v: &str| {
            parse(
                &format!(r#"{{"conditions": {{"deterministic": {v}}}, "metrics": {{"a": 1}}}}"#),
                "c.json",
            )
        };
        assert!(nondeterministic(&card("false").unwrap()));
        assert!(!nondeterministic(&card("true").unwrap()));
        let absent = parse(r#"{"metrics": {"a": 1}}"#, "c.json").unwrap();
        assert!(!nondeterministic(&absent));
        assert_eq!(
            card("\"no\"").unwrap_err().to_string(),
            "c.json: conditions.deterministic: expected true or false (whether the retriever gives the same results on every run), found a string"
        );
        assert!(card("0")
            .unwrap_err()
            .to_string()
            .ends_with("found a number"));
    }

    #[test]
    fn errors_name_the_file_and_the_key() {
        assert_eq!(
            err(r#"{"metrics": {"index-bytes": "4GB"}}"#),
            "c.json: metrics.\"index-bytes\": expected a number or a list of numbers (replicate measurements), found a string"
        );
        assert!(err(r#"{"metric": {}}"#).starts_with("c.json: \"metric\": unknown key"));
        assert!(err(r#"{"metrics": {"a": 1, "a": 2}}"#).contains("given twice"));
        assert!(err(r#"{"metrics": {"a": []}}"#).contains("metrics.\"a\": an empty list"));
        assert!(err(r#"{"curves": {"qps_at_recall": [{"qps": 3}]}}"#)
            .contains("curves.qps_at_recall[0]: a point needs"));
        assert!(
            err(r#"{"curves": {"qps_at_recall": [{"r": 1.5, "qps": 3}]}}"#)
                .contains("between 0 and 1")
        );
        assert!(err(r#"{"model": {"id": "m"}}"#).contains("measures nothing"));
        assert!(err(r#"[1]"#).contains("found a list"));
        assert_eq!(
            err(r#"{"model": {"dimension": "1024"}, "metrics": {"a": 1}}"#),
            "c.json: model.dimension: expected a whole number ≥ 1, found \"1024\""
        );
    }
}
