//! How the report's floats read in JSON, for its schema: serde_json writes a non-finite float
//! (NaN, ±∞) as `null`, so a float that can be non-finite is a number or null. Fields marked
//! `#[schemars(with = "Real")]` say so; a plain `f64` field is finite by construction.

use std::borrow::Cow;

use schemars::{json_schema, JsonSchema, Schema, SchemaGenerator};

/// A float of the report that may be non-finite: a JSON number, or null for NaN and ±∞.
pub struct Real;

impl JsonSchema for Real {
    fn schema_name() -> Cow<'static, str> {
        "real".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "description": "A float: a JSON number in shortest round-trip form, or null when it is not finite (NaN, ±∞).",
            "type": ["number", "null"]
        })
    }
}
