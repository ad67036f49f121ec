//! JSON renderer: the report model as pretty JSON with a final newline. Deterministic: fields in
//! model order, floats in shortest round-trip form, non-finite numbers as null. Its layout,
//! docs/report.schema.json, is generated from the model's types by [`schema`].

use schemars::generate::SchemaSettings;
use schemars::transform::RecursiveTransform;
use schemars::Schema;
use serde::Serialize;
use serde_json::{Map, Value};

use crate::model::{CombinedReport, Report};

pub fn render(r: &Report) -> String {
    let mut s = serde_json::to_string_pretty(r).expect("the report model always serialises");
    s.push('\n');
    s
}

/// Where the published schema lives, and what it is called.
const SCHEMA_ID: &str = "https://github.com/rag-gate/rag-gate/docs/report.schema.json";
const SCHEMA_TITLE: &str = "rag-gate JSON report";
const SCHEMA_DESCRIPTION: &str = "The report of `rag-gate check` and `rag-gate compare` with \
--format json or --export-json. schema_version changes whenever a field changes meaning or \
disappears. Floats are JSON numbers in shortest round-trip form; a non-finite float is null. \
`check` on several gate files writes a combined report (`gate_files`: each file's own report \
under its name); one gate file, or `compare`, writes the report itself. Generated from the \
report model (`bash scripts/generate-report-schema.sh`); do not edit by hand.";

/// The JSON Schema (2020-12) of what [`render`] and the combined report write: derived from the
/// model's types as they serialise (renames, skipped and optional fields), their doc comments
/// as descriptions, every object closed to unknown keys. Pretty JSON with a final newline: what
/// docs/report.schema.json holds.
pub fn schema() -> String {
    let mut generator = SchemaSettings::draft2020_12()
        .for_serialize()
        .with_transform(RecursiveTransform(tidy))
        .into_generator();
    let report = generator.subschema_for::<Report>();
    let combined = generator.subschema_for::<CombinedReport>();
    let root = Root {
        schema: "https://json-schema.org/draft/2020-12/schema",
        id: SCHEMA_ID,
        title: SCHEMA_TITLE,
        description: SCHEMA_DESCRIPTION,
        any_of: [report, combined],
        defs: generator.take_definitions(true),
    };
    let mut s = serde_json::to_string_pretty(&root).expect("a schema always serialises");
    s.push('\n');
    s
}

/// The schema's top level, its keys in the order a reader looks for them (the definitions, in
/// name order, last).
#[derive(Serialize)]
struct Root {
    #[serde(rename = "$schema")]
    schema: &'static str,
    #[serde(rename = "$id")]
    id: &'static str,
    title: &'static str,
    description: &'static str,
    #[serde(rename = "anyOf")]
    any_of: [Schema; 2],
    #[serde(rename = "$defs")]
    defs: Map<String, Value>,
}

/// Every object with named properties admits no other key: a report field the schema does not
/// describe fails validation (maps, which have no named properties, stay open). A description
/// reads as one paragraph: the doc comment's line breaks become spaces.
fn tidy(schema: &mut Schema) {
    let Some(o) = schema.as_object_mut() else {
        return;
    };
    if o.contains_key("properties") && !o.contains_key("additionalProperties") {
        o.insert("additionalProperties".into(), Value::Bool(false));
    }
    if let Some(Value::String(d)) = o.get_mut("description") {
        *d = d.lines().map(str::trim).collect::<Vec<_>>().join(" ");
    }
}
