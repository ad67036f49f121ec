//! The JSON report against its published layout, `docs/report.schema.json`: the committed file
//! is what the report model generates (`bash scripts/generate-report-schema.sh`), and real
//! reports made by the binary (the shipped example, `compare`, a gate on evaluated runs, a set
//! too small to judge, a judge, three gate files in one check) fit it. The checker below covers
//! the JSON Schema keywords the generated file uses (a test fails when it starts using another);
//! CI also validates the same reports with check-jsonschema, a full validator
//! (scripts/validate-report-schema.sh).

use crate::support;
use support::{Out, TestContext};

use std::path::Path;

use serde_json::Value;

fn schema() -> Value {
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/report.schema.json"),
    )
    .unwrap();
    serde_json::from_str(&text).unwrap()
}

/// Every way `v` breaks `s` (empty when it fits), each with its JSON path.
fn validate(root: &Value, s: &Value, v: &Value, at: &str, errs: &mut Vec<String>) {
    if let Some(r) = s.get("$ref").and_then(Value::as_str) {
        let name = r.strip_prefix("#/$defs/").expect("local $ref");
        return validate(root, &root["$defs"][name], v, at, errs);
    }
    if let Some(one) = s.get("oneOf").and_then(Value::as_array) {
        let errors: Vec<Vec<String>> = one
            .iter()
            .map(|alt| {
                let mut e = Vec::new();
                validate(root, alt, v, at, &mut e);
                e
            })
            .collect();
        let fits = errors.iter().filter(|e| e.is_empty()).count();
        if fits != 1 {
            errs.push(format!(
                "{at}: {v} fits {fits} alternatives of oneOf, not one"
            ));
        }
        return;
    }
    if let Some(any) = s.get("anyOf").and_then(Value::as_array) {
        // No alternative fits: the errors of the closest one (the fewest), so a report that
        // is almost right says where it is wrong.
        let closest = any
            .iter()
            .map(|alt| {
                let mut e = Vec::new();
                validate(root, alt, v, at, &mut e);
                e
            })
            .min_by_key(Vec::len)
            .unwrap_or_default();
        if !closest.is_empty() {
            errs.push(format!("{at}: fits no alternative of anyOf"));
            errs.extend(closest);
        }
        return;
    }
    if let Some(c) = s.get("const") {
        if c != v {
            errs.push(format!("{at}: {v} is not {c}"));
        }
    }
    if let Some(e) = s.get("enum").and_then(Value::as_array) {
        if !e.contains(v) {
            errs.push(format!("{at}: {v} is not one of {e:?}"));
        }
    }
    if let Some(t) = s.get("type") {
        let types: Vec<&str> = match t {
            Value::String(x) => vec![x.as_str()],
            Value::Array(xs) => xs.iter().filter_map(Value::as_str).collect(),
            _ => panic!("bad type in schema at {at}"),
        };
        let ok = types.iter().any(|t| match *t {
            "object" => v.is_object(),
            "array" => v.is_array(),
            "string" => v.is_string(),
            "boolean" => v.is_boolean(),
            "null" => v.is_null(),
            "number" => v.is_number(),
            "integer" => v.is_u64() || v.is_i64(),
            other => panic!("type {other} not handled"),
        });
        if !ok {
            errs.push(format!("{at}: {v} is not of type {types:?}"));
            return;
        }
    }
    if let Some(x) = v.as_f64() {
        let below = |k: &str, f: fn(f64, f64) -> bool| {
            s.get(k).and_then(Value::as_f64).is_some_and(|m| f(x, m))
        };
        if below("minimum", |x, m| x < m)
            || below("maximum", |x, m| x > m)
            || below("exclusiveMinimum", |x, m| x <= m)
            || below("exclusiveMaximum", |x, m| x >= m)
        {
            errs.push(format!("{at}: {x} is out of range"));
        }
    }
    if let Some(items) = v.as_array() {
        let n = items.len() as u64;
        if s.get("minItems")
            .and_then(Value::as_u64)
            .is_some_and(|m| n < m)
            || s.get("maxItems")
                .and_then(Value::as_u64)
                .is_some_and(|m| n > m)
        {
            errs.push(format!("{at}: {n} items"));
        }
        if let Some(item) = s.get("items") {
            for (i, x) in items.iter().enumerate() {
                validate(root, item, x, &format!("{at}[{i}]"), errs);
            }
        }
    }
    if let Some(o) = v.as_object() {
        let props = s.get("properties").and_then(Value::as_object);
        for r in s
            .get("required")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            if !o.contains_key(r.as_str().unwrap()) {
                errs.push(format!("{at}: no {r}"));
            }
        }
        for (k, x) in o {
            match props.and_then(|p| p.get(k)) {
                Some(ps) => validate(root, ps, x, &format!("{at}.{k}"), errs),
                None => match s.get("additionalProperties") {
                    Some(Value::Bool(false)) => {
                        errs.push(format!("{at}: {k} is not in the schema"))
                    }
                    // A map: every value fits the one schema.
                    Some(each @ Value::Object(_)) => {
                        validate(root, each, x, &format!("{at}.{k}"), errs)
                    }
                    _ => {}
                },
            }
        }
    }
}

/// The keywords [`validate`] reads, and those that only annotate (names, descriptions, the
/// integer or float width of `format`).
const CHECKED: [&str; 16] = [
    "$ref",
    "oneOf",
    "anyOf",
    "const",
    "enum",
    "type",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "minItems",
    "maxItems",
    "items",
    "required",
    "properties",
    "additionalProperties",
];
const ANNOTATIONS: [&str; 6] = ["$schema", "$id", "$defs", "title", "description", "format"];

/// Every keyword of `s` and its subschemas (the names under `properties` and `$defs` are not
/// keywords).
fn keywords(s: &Value, out: &mut std::collections::BTreeSet<String>) {
    match s {
        Value::Object(o) => {
            for (k, v) in o {
                out.insert(k.clone());
                match (k.as_str(), v) {
                    ("properties" | "$defs", Value::Object(named)) => {
                        named.values().for_each(|x| keywords(x, out))
                    }
                    ("const" | "enum", _) => {}
                    _ => keywords(v, out),
                }
            }
        }
        Value::Array(xs) => xs.iter().for_each(|x| keywords(x, out)),
        _ => {}
    }
}

pub fn violations(report: &Value) -> Vec<String> {
    let s = schema();
    let mut errs = Vec::new();
    validate(&s, &s, report, "$", &mut errs);
    errs
}

/// `rag-gate ARGS --format json` run from `dir` (a test's folder, or the one
/// `RAG_GATE_REPORTS_DIR` names): the report.
fn json_of(dir: &Path, args: &[&str]) -> Value {
    let out = Out::of(
        TestContext::new()
            .cwd(dir)
            .command()
            .args(args)
            .args(["--format", "json"]),
    );
    assert!(matches!(out.code, Some(0 | 1)), "{args:?}: {}", out.stderr);
    out.json()
}

/// Real reports of every kind, written to `dir` as `*.json` (for check-jsonschema too).
fn real_reports(dir: &Path) -> Vec<(String, Value)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let fixtures = root.join("tests/data/eval/fixtures/trec-covid-r2");
    let small: String = (0..12)
        .map(|i| format!("{{\"query_id\":\"q{i}\",\"ndcg@10\":0.{}}}\n", 2 + i % 7))
        .collect();
    std::fs::write(dir.join("b.jsonl"), &small).unwrap();
    std::fs::write(dir.join("c.jsonl"), small.replace("0.", "0.0")).unwrap();
    std::fs::write(
        dir.join("small.toml"),
        "[inputs]\nbaseline = \"b.jsonl\"\ncandidate = \"c.jsonl\"\n[slices]\non-small-slice = \"fail\"\n[[gate]]\nmetric = \"ndcg@10\"\nmax-drop = 0.01\nmin-mean = 0.1\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("runs.toml"),
        format!(
            "[inputs]\nqrels = \"{q}\"\nbaseline = {{ run = \"{b}\" }}\ncandidate = {{ run = \"{c}\" }}\n\
             [bootstrap]\nresamples = 500\n[eval]\nmetrics = [\"map\"]\n[judged]\ncondensed = true\n[[gate]]\nmetric = \"ndcg@10\"\nmax-drop = 0.02\n",
            q = fixtures.join("qrels.covid-round2.txt").display(),
            b = fixtures.join("run.covidex-t5.txt").display(),
            c = fixtures.join("run.covidex-sim.txt").display(),
        ),
    )
    .unwrap();
    let prod = root.join("gates/prod.toml");
    let base = root.join("examples/baseline.jsonl");
    let cand = root.join("examples/candidate.jsonl");
    let cases: Vec<(&str, Vec<String>)> = vec![
        ("prod", vec!["check".into(), prod.display().to_string()]),
        (
            "compare",
            vec![
                "compare".into(),
                base.display().to_string(),
                cand.display().to_string(),
                "--resamples".into(),
                "500".into(),
            ],
        ),
        ("small", vec!["check".into(), "small.toml".into()]),
        ("runs", vec!["check".into(), "runs.toml".into()]),
        (
            "many",
            vec![
                "check".into(),
                prod.display().to_string(),
                root.join("tests/data/junit/pass.toml")
                    .display()
                    .to_string(),
                root.join("tests/data/junit/not-judged.toml")
                    .display()
                    .to_string(),
                "--resamples".into(),
                "500".into(),
            ],
        ),
        (
            "judge",
            vec![
                "check".into(),
                root.join("tests/data/judges/corrected.toml")
                    .display()
                    .to_string(),
            ],
        ),
    ];
    cases
        .into_iter()
        .map(|(name, args)| {
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            let v = json_of(dir, &args);
            std::fs::write(dir.join(format!("{name}.json")), v.to_string()).unwrap();
            (name.to_string(), v)
        })
        .collect()
}

#[test]
fn real_reports_fit_the_published_schema() {
    // RAG_GATE_REPORTS_DIR keeps the reports for check-jsonschema (scripts/validate-report-schema.sh).
    let ctx = TestContext::new();
    let dir = std::env::var_os("RAG_GATE_REPORTS_DIR").map_or(ctx.path().to_path_buf(), Into::into);
    std::fs::create_dir_all(&dir).unwrap();
    let reports = real_reports(&dir);
    for (name, r) in &reports {
        let errs = violations(r);
        assert!(errs.is_empty(), "{name}: {errs:#?}");
    }
    // The reports cover what the schema describes: evaluated runs, a too-small set, compare.
    let by = |n: &str| &reports.iter().find(|(k, _)| k == n).unwrap().1;
    assert_eq!(by("runs")["inputs"]["eval"]["metrics"][0], "map");
    let statuses: Vec<&Value> = by("small")["gates"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| &g["status"])
        .collect();
    assert!(
        statuses.contains(&&Value::from("too-small")),
        "{statuses:?}"
    );
    assert_eq!(by("compare")["gates"].as_array().unwrap().len(), 0);
    let version = &schema()["$defs"]["report"]["properties"]["schema_version"]["const"];
    assert_eq!(&by("prod")["schema_version"], version);
    // The report of several gate files: one verdict, each file's own report under its name.
    let many = by("many");
    assert_eq!(&many["schema_version"], version);
    let files = many["gate_files"].as_array().unwrap();
    assert_eq!(files.len(), 3);
    assert!(files.iter().all(|f| f["report"]["gates"].is_array()));
}

#[test]
fn the_checker_rejects_what_the_schema_forbids() {
    let ctx = TestContext::new();
    let mut r = real_reports(ctx.path()).remove(0).1;
    r["comparisons"][0]["label"] = "inconclusive".into();
    r["gates"][0]["extra"] = 1.into();
    r.as_object_mut().unwrap().remove("notes");
    r["schema_version"] = 2.into();
    let errs = violations(&r);
    for want in [
        "label",
        "extra is not in the schema",
        "no \"notes\"",
        "schema_version",
    ] {
        assert!(errs.iter().any(|e| e.contains(want)), "{want}: {errs:#?}");
    }
}

#[test]
fn the_checker_reads_each_section_of_a_several_file_report() {
    let ctx = TestContext::new();
    let reports = real_reports(ctx.path());
    let mut many = reports.into_iter().find(|(k, _)| k == "many").unwrap().1;
    assert!(violations(&many).is_empty());
    many["gate_files"][1]["report"]["gates"][0]["extra"] = 1.into();
    many["gate_files"][2].as_object_mut().unwrap().remove("key");
    many["verdict"] = "too-small".into();
    let errs = violations(&many);
    for want in [
        "$.gate_files[1].report.gates[0]: extra is not in the schema",
        "$.gate_files[2]: no \"key\"",
        "$.verdict",
    ] {
        assert!(errs.iter().any(|e| e.contains(want)), "{want}: {errs:#?}");
    }
}

#[test]
fn the_committed_schema_is_what_the_model_generates() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/report.schema.json");
    let committed = std::fs::read_to_string(&path).unwrap();
    assert!(
        committed == rag_gate::report::json::schema(),
        "docs/report.schema.json differs from what the report model generates: run `bash \
         scripts/generate-report-schema.sh` and commit the result"
    );
}

#[test]
fn the_checker_knows_every_keyword_the_schema_uses() {
    let mut used = std::collections::BTreeSet::new();
    keywords(&schema(), &mut used);
    let unknown: Vec<&String> = used
        .iter()
        .filter(|k| !CHECKED.contains(&k.as_str()) && !ANNOTATIONS.contains(&k.as_str()))
        .collect();
    assert!(
        unknown.is_empty(),
        "the schema uses {unknown:?}, which validate() does not check: teach it them"
    );
    // And the checker's keywords are the schema's: none is kept for a keyword no longer used.
    let unused: Vec<&&str> = CHECKED.iter().filter(|k| !used.contains(**k)).collect();
    assert!(
        unused.is_empty(),
        "validate() checks {unused:?}, which the schema no longer uses"
    );
}

#[test]
fn the_checker_reads_maps_and_documented_enums() {
    let dir = tempfile::tempdir().unwrap();
    let mut r = real_reports(dir.path()).remove(0).1;
    // `verdict` is a oneOf (its variants carry their own descriptions).
    r["verdict"] = "maybe".into();
    let errs = violations(&r);
    assert!(
        errs.iter()
            .any(|e| e.starts_with("$.verdict: ") && e.contains("oneOf")),
        "{errs:#?}"
    );
    // A ratio above 1 where the schema says at most 1.
    r["verdict"] = "pass".into();
    r["resolution"][0]["share"] = 1.5.into();
    let errs = violations(&r);
    assert!(
        errs.iter().any(|e| e.starts_with("$.resolution[0].share")),
        "{errs:#?}"
    );
    // A map's values each fit its one schema: a quarantined query's deltas are floats or null.
    let root = schema();
    let quarantined = |deltas: Value| {
        let q = serde_json::json!({
            "query_id": "q1", "reason": "flaky", "owner": "me", "expires": "2027-01-01",
            "deltas": deltas,
        });
        let mut e = Vec::new();
        validate(&root, &root["$defs"]["quarantined"], &q, "$", &mut e);
        e
    };
    assert_eq!(
        quarantined(serde_json::json!({"ndcg@10": -0.5, "map": null})),
        Vec::<String>::new()
    );
    let errs = quarantined(serde_json::json!({"ndcg@10": "low"}));
    assert!(
        errs.iter().any(|e| e.starts_with("$.deltas.ndcg@10")),
        "{errs:#?}"
    );
}
