//! The active labelling sample through the binary, on TREC-COVID round 2 with the simulated
//! judge of tests/data/judges: `label-plan --active` writes the sample (the labelled topics and
//! a batch drawn by the judge's uncertainty, each with its inclusion probability); the test
//! labels the new topics with their real qrels, and `check` with `[judge] sample` weights the
//! labelled topics by 1/probability. Bad or missing probabilities are exit 2 with file, line and
//! key.

use crate::support::{Out, TestContext};
use serde_json::Value;
use std::path::Path;

fn data(name: &str) -> String {
    format!("{}/tests/data/judges/{name}", env!("CARGO_MANIFEST_DIR"))
}

fn full_qrels() -> String {
    format!(
        "{}/tests/data/eval/fixtures/trec-covid-r2/qrels.covid-round2.txt",
        env!("CARGO_MANIFEST_DIR")
    )
}

/// corrected.toml with its relative paths made absolute, the human qrels at `human` and
/// `extra` added to `[judge]`.
fn gate_file(ctx: &TestContext, name: &str, human: &str, extra: &str) -> std::path::PathBuf {
    let text = std::fs::read_to_string(data("corrected.toml"))
        .unwrap()
        .replace("\"../eval/", &format!("\"{}/../eval/", data("")))
        .replace("\"human.qrels\"", &format!("{human:?}"))
        .replace("\"judge.qrels\"", &format!("{:?}", data("judge.qrels")))
        .replace(
            "gate-on = \"corrected\"",
            &format!("gate-on = \"corrected\"\n{extra}"),
        );
    ctx.write(name, text)
}

fn plan(gate: &Path, out: &Path, extra: &[&str]) -> (Value, Vec<Value>) {
    let ctx = TestContext::new();
    let o = Out::of(
        ctx.command()
            .arg("label-plan")
            .arg(gate)
            .args(["--active", "--format", "json", "-o"])
            .arg(out)
            .args(extra),
    );
    assert_eq!(o.code, Some(0), "{}", o.stderr);
    let rows = std::fs::read_to_string(out)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    (serde_json::from_str(&o.stdout).unwrap(), rows)
}

/// The human qrels with the real labels of `topics` added (the labelling step).
fn label(ctx: &TestContext, topics: &[&str]) -> String {
    let mut text = std::fs::read_to_string(data("human.qrels")).unwrap();
    for l in std::fs::read_to_string(full_qrels()).unwrap().lines() {
        if topics.contains(&l.split_whitespace().next().unwrap()) {
            text.push_str(l);
            text.push('\n');
        }
    }
    ctx.write("human2.qrels", text).display().to_string()
}

#[test]
fn an_active_sample_is_drawn_labelled_and_weighted_by_the_corrected_gate() {
    let ctx = TestContext::new();
    let gate = gate_file(&ctx, "plan.toml", &data("human.qrels"), "");
    let out = ctx.path().join("sample.jsonl");
    let (p, rows) = plan(&gate, &out, &["--batch", "8"]);
    assert_eq!(p["design"], "active");
    let new: Vec<&str> = rows
        .iter()
        .filter(|r| r["labelled"] == false)
        .map(|r| r["query_id"].as_str().unwrap())
        .collect();
    let old = rows.iter().filter(|r| r["labelled"] == true).count();
    assert_eq!(old, 12, "every labelled topic is in the sample");
    assert_eq!(Some(new.len() as u64), p["batch"].as_u64());
    let probs: Vec<f64> = rows
        .iter()
        .map(|r| r["inclusion_probability"].as_f64().unwrap())
        .collect();
    assert!(probs.iter().all(|p| *p > 0.0 && *p <= 1.0), "{probs:?}");
    let (lo, hi) = probs
        .iter()
        .fold((1.0_f64, 0.0_f64), |(a, b), p| (a.min(*p), b.max(*p)));
    assert!(hi > lo + 0.1, "unequal probabilities: {lo}..{hi}");
    // The same seed, the same bytes.
    let bytes = std::fs::read(&out).unwrap();
    let again = ctx.path().join("again.jsonl");
    plan(&gate, &again, &["--batch", "8"]);
    assert_eq!(bytes, std::fs::read(&again).unwrap());

    // Label the drawn topics; the corrected gate reads the sample.
    let human = label(&ctx, &new);
    let weighted = gate_file(&ctx, "weighted.toml", &human, "sample = \"sample.jsonl\"");
    let r = ctx
        .check_file(&weighted, &["--format", "json"])
        .expect(1)
        .json();
    assert_eq!(r["judge"]["sample"], "sample.jsonl");
    let c = &r["judge"]["deltas"][0]["corrected"];
    assert_eq!(c["labelled"].as_u64(), Some(12 + new.len() as u64));
    // All 35 topics labelled by humans: the truth the weighted interval should hold.
    let all = gate_file(&ctx, "all.toml", &full_qrels(), "");
    let truth = ctx.check_file(&all, &["--format", "json"]).expect(1).json()["judge"]["deltas"][0]
        ["human"]["delta"]
        .as_f64()
        .unwrap();
    let ci = [c["ci"][0].as_f64().unwrap(), c["ci"][1].as_f64().unwrap()];
    assert!(ci[0] <= truth && truth <= ci[1], "{ci:?} misses {truth}");
    assert_eq!(r["comparisons"][0]["delta"], c["delta"]);
    // The same labels read as a uniform sample give another delta: the weights are applied.
    let plain = gate_file(&ctx, "plain.toml", &human, "");
    let u = ctx
        .check_file(&plain, &["--format", "json"])
        .expect(1)
        .json();
    let ud = u["judge"]["deltas"][0]["corrected"]["delta"]
        .as_f64()
        .unwrap();
    assert!(
        (ud - c["delta"].as_f64().unwrap()).abs() > 1e-6,
        "{ud} vs {c}"
    );
}

/// A sample giving every labelled topic the same probability is a uniform one: the weighted
/// human-only delta is the plain mean of the labelled topics' deltas.
#[test]
fn equal_probabilities_give_the_unweighted_human_mean() {
    let ctx = TestContext::new();
    let human = std::fs::read_to_string(data("human.qrels")).unwrap();
    let mut topics: Vec<&str> = human
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    topics.dedup();
    let lines: String = topics
        .iter()
        .map(|t| format!("{{\"query_id\":\"{t}\",\"inclusion_probability\":0.25}}\n"))
        .collect();
    ctx.write("flat.jsonl", lines);
    let flat = gate_file(
        &ctx,
        "flat.toml",
        &data("human.qrels"),
        "sample = \"flat.jsonl\"",
    );
    let plain = gate_file(&ctx, "plain.toml", &data("human.qrels"), "");
    let a = ctx
        .check_file(&flat, &["--format", "json"])
        .expect(1)
        .json();
    let b = ctx
        .check_file(&plain, &["--format", "json"])
        .expect(1)
        .json();
    let d = |r: &Value| r["judge"]["deltas"][0]["human"]["delta"].as_f64().unwrap();
    assert!((d(&a) - d(&b)).abs() < 1e-12, "{} vs {}", d(&a), d(&b));
}

fn refused(gate: &Path, want: &[&str]) {
    let o = TestContext::new().check_file(gate, &[]);
    let err = o.stderr.as_str();
    assert_eq!(o.code, Some(2), "{err}");
    for w in want {
        assert!(err.contains(w), "{err} lacks {w}");
    }
    assert!(o.stdout.is_empty());
}

#[test]
fn bad_or_missing_probabilities_are_refused_with_file_line_and_key() {
    let ctx = TestContext::new();
    let with = |name: &str, text: &str| {
        ctx.write(format!("{name}.jsonl"), text);
        gate_file(
            &ctx,
            &format!("{name}.toml"),
            &data("human.qrels"),
            &format!("sample = \"{name}.jsonl\""),
        )
    };
    let human = std::fs::read_to_string(data("human.qrels")).unwrap();
    let mut topics: Vec<&str> = human
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    topics.dedup();
    let good: String = topics
        .iter()
        .map(|t| format!("{{\"query_id\":\"{t}\",\"inclusion_probability\":0.3}}\n"))
        .collect();
    refused(
        &with("big", &good.replacen("0.3", "1.5", 1)),
        &["big.jsonl:1:", "key inclusion_probability", "(0, 1]", "1.5"],
    );
    refused(
        &with(
            "none",
            &good.replacen(",\"inclusion_probability\":0.3", "", 1),
        ),
        &[
            "none.jsonl:1:",
            "key inclusion_probability",
            "found nothing",
        ],
    );
    refused(
        &with(
            "short",
            &good
                .lines()
                .skip(1)
                .map(|l| format!("{l}\n"))
                .collect::<String>(),
        ),
        &["short.jsonl", topics[0], "not in the sample"],
    );
    let unlabelled = "{\"query_id\":\"1\",\"inclusion_probability\":0.3}\n";
    assert!(!topics.contains(&"1"));
    refused(
        &with("drawn", &format!("{good}{unlabelled}")),
        &[
            &format!("drawn.jsonl:{}:", topics.len() + 1),
            "query 1 was drawn but has no human labels",
        ],
    );
    refused(
        &with("text", "not json\n"),
        &["text.jsonl:1:", "not a JSON object"],
    );
    refused(
        &with("twice", &format!("{good}{}", good.lines().next().unwrap())),
        &["twice.jsonl:", "drawn twice"],
    );
    // gate-on = "human" would read the weighted labels unweighted.
    ctx.write("ok.jsonl", &good);
    let human_on = ctx.write(
        "human-on.toml",
        std::fs::read_to_string(gate_file(
            &ctx,
            "x.toml",
            &data("human.qrels"),
            "sample = \"ok.jsonl\"",
        ))
        .unwrap()
        .replace("gate-on = \"corrected\"", "gate-on = \"human\""),
    );
    refused(
        &human_on,
        &["human-on.toml:", "[judge] sample", "gate-on = \"human\""],
    );
    // An active draw on top of a weighted sample is refused.
    let o = Out::of(
        ctx.command()
            .arg("label-plan")
            .arg(gate_file(
                &ctx,
                "again.toml",
                &data("human.qrels"),
                "sample = \"ok.jsonl\"",
            ))
            .arg("--active"),
    );
    assert_eq!(o.code, Some(2));
    assert!(o.stderr.contains("not supported"));
    // A batch of nothing is a usage error, under either design, and writes no sample.
    let plain = gate_file(&ctx, "plain.toml", &data("human.qrels"), "");
    for design in [&[][..], &["--active"][..]] {
        let out = ctx.join("zero.jsonl");
        let o = Out::of(
            ctx.command()
                .arg("label-plan")
                .arg(&plain)
                .args(["--batch", "0", "-o"])
                .arg(&out)
                .args(design),
        );
        let err = o.stderr.as_str();
        assert_eq!(o.code, Some(2), "{err}");
        assert!(err.contains("--batch 0: expected at least 1"), "{err}");
        assert!(!out.exists());
    }
}

/// With the group unit whole conversations are drawn, each with one probability.
#[test]
fn the_group_unit_draws_whole_conversations_with_one_probability() {
    let ctx = TestContext::new();
    let out = ctx.path().join("s.jsonl");
    let (p, rows) = plan(
        Path::new(&data("ppi/group-unit.toml")),
        &out,
        &["--batch", "3"],
    );
    assert_eq!(
        (p["unit"].as_str(), p["design"].as_str()),
        (Some("group"), Some("active"))
    );
    let mut by_group: std::collections::BTreeMap<&str, Vec<f64>> = Default::default();
    for r in &rows {
        by_group
            .entry(r["group"].as_str().unwrap())
            .or_default()
            .push(r["inclusion_probability"].as_f64().unwrap());
    }
    assert!(
        by_group
            .values()
            .all(|v| v.len() >= 2 && v.iter().all(|p| *p == v[0])),
        "{by_group:?}"
    );
    let new = rows.iter().filter(|r| r["labelled"] == false).count();
    assert!(new > 0);
}
