//! Prints the JSON report's schema, generated from the report model (docs/report.schema.json):
//!   cargo run --example report_schema > docs/report.schema.json
//! (`bash scripts/generate-report-schema.sh` does this.)

fn main() {
    print!("{}", rag_gate::report::json::schema());
}
