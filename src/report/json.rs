//! JSON renderer: the report model as pretty JSON with a final newline. Deterministic: fields in
//! model order, floats in shortest round-trip form, non-finite numbers as null.

use crate::model::Report;

pub fn render(r: &Report) -> String {
    let mut s = serde_json::to_string_pretty(r).expect("the report model always serialises");
    s.push('\n');
    s
}
