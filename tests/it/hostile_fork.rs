//! What a fork controls, through the binary: it must not choose its own slices, groups,
//! protocol, noise or verdict (each comes from the trusted side), and its run's `ir_metadata`
//! or its gate settings cannot cost more than bounded time. Each test is a row of
//! docs/hostile.md, listed in `hostile_cases.rs`.

use crate::support;

use std::path::Path;
use std::time::Duration;

use support::output::assert_input_error;
use support::Out;
use support::{GateFile, TestContext};

/// Queries in the comparison; the first `COMPLIANCE` are `risk=compliance` on the trusted side.
const N: usize = 200;
const COMPLIANCE: usize = 30;
/// A hang fails the test instead of hanging CI.
const TIMEOUT: Duration = Duration::from_secs(60);

/// A folder whose runs are killed after [`TIMEOUT`].
fn context() -> TestContext {
    TestContext::new().timeout(TIMEOUT)
}

/// One metric row per query; `label(i)` adds `"slices"`/`"group"` members (or nothing).
fn rows(value: impl Fn(usize) -> f64, label: impl Fn(usize) -> String) -> String {
    (0..N)
        .map(|i| {
            format!(
                "{{\"query_id\":\"q{i:03}\",\"ndcg@10\":{}{}}}\n",
                value(i),
                label(i)
            )
        })
        .collect()
}

fn base_value(i: usize) -> f64 {
    0.3 + ((i * 37) % 11) as f64 / 20.0
}

/// The candidate: the compliance queries regress by 0.3, the others are unchanged.
fn cand_value(i: usize) -> f64 {
    base_value(i) - if i < COMPLIANCE { 0.3 } else { 0.0 }
}

fn compliance_tag(i: usize) -> String {
    if i < COMPLIANCE {
        ",\"slices\":{\"risk\":\"compliance\"}".into()
    } else {
        String::new()
    }
}

/// Baseline tagged (the trusted side), a gate on the critical slice `risk=compliance`.
fn tagged_baseline(ctx: &TestContext, cand_label: impl Fn(usize) -> String) {
    ctx.write("b.jsonl", rows(base_value, compliance_tag));
    ctx.write("c.jsonl", rows(cand_value, cand_label));
    ctx.gate(
        GateFile::new("b.jsonl", "c.jsonl")
            .resamples(500)
            .table("slices", "critical = [\"risk=compliance\"]")
            .gate("ndcg@10", "max-drop = 0.05\nslices = \"critical\""),
    );
}

// ---- slices and groups come from the trusted side ----

#[test]
fn candidate_adds_slice_tag() {
    let ctx = context();
    // The honest candidate (same tags, or none at all): the 30 regressed queries fail the gate.
    tagged_baseline(&ctx, compliance_tag);
    let o = ctx.check(&[]);
    assert_eq!(o.code, Some(1), "{}\n{}", o.stdout, o.stderr);
    tagged_baseline(&ctx, |_| String::new());
    assert_eq!(ctx.check(&[]).code, Some(1));
    // The same numbers with every query tagged risk=compliance would dilute the slice: refused.
    tagged_baseline(&ctx, |_| ",\"slices\":{\"risk\":\"compliance\"}".into());
    let o = ctx.check(&[]);
    assert_input_error(
        &o,
        &[
            "c.jsonl:31: query \"q030\": slice tag \"risk\" is \"compliance\" here but b.jsonl leaves it untagged",
            "never the candidate",
        ],
    );
}

#[test]
fn candidate_changes_slice_tag() {
    let ctx = context();
    tagged_baseline(&ctx, |i| {
        if i < COMPLIANCE {
            ",\"slices\":{\"risk\":\"low\"}".into()
        } else {
            String::new()
        }
    });
    let o = ctx.check(&[]);
    assert_input_error(
        &o,
        &["c.jsonl:1: query \"q000\": slice tag \"risk\" is \"low\" here but \"compliance\" in b.jsonl:1"],
    );
    // With a queries file, it is trusted too: a candidate tag it does not give is refused.
    ctx.write(
        "q.jsonl",
        (0..N)
            .map(|i| format!("{{\"query_id\":\"q{i:03}\"}}\n"))
            .collect::<String>(),
    );
    let gate = ctx.read(support::GATE);
    ctx.gate(gate.replace(
        "candidate = \"c.jsonl\"\n",
        "candidate = \"c.jsonl\"\nqueries = \"q.jsonl\"\n",
    ));
    ctx.write("b.jsonl", rows(base_value, |_| String::new()));
    ctx.write(
        "c.jsonl",
        rows(cand_value, |i| {
            if i == 7 {
                ",\"slices\":{\"lang\":\"ko\"}".into()
            } else {
                String::new()
            }
        }),
    );
    let o = ctx.check(&[]);
    assert_input_error(
        &o,
        &["c.jsonl:8: query \"q007\": slice tag \"lang\" is \"ko\" here but b.jsonl or q.jsonl leaves it untagged"],
    );
}

#[test]
fn candidate_adds_group() {
    let ctx = context();
    // Groups decide the resampling unit: the candidate cannot regroup the queries either.
    tagged_baseline(&ctx, |i| {
        format!("{},\"group\":\"g{}\"", compliance_tag(i), i % 4)
    });
    let o = ctx.check(&[]);
    assert_input_error(
        &o,
        &["c.jsonl:1: query \"q000\": group is \"g0\" here but b.jsonl gives it no group"],
    );
}

// ---- a protocol sidecar is bound to its file ----

const COVID: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/data/eval/fixtures/trec-covid-r2"
);

fn covid(name: &str) -> std::path::PathBuf {
    Path::new(COVID).join(name)
}

/// `rag-gate eval` of `run` against `qrels` into `out` in the folder (with its sidecar).
fn eval_to(ctx: &TestContext, qrels: &Path, run: &Path, out: &str) {
    let o = Out::of(
        ctx.command()
            .args(["eval", "--metrics", "ndcg@10", "--qrels"])
            .arg(qrels)
            .arg("--run")
            .arg(run)
            .arg("-o")
            .arg(out),
    );
    assert_eq!(o.code, Some(0), "{}", o.stderr);
}

fn protocol_gate() -> GateFile {
    GateFile::new("b.jsonl", "c.jsonl")
        .table("protocol", "require = true")
        .resamples(200)
        .gate("ndcg@10", "max-drop = 0.4")
}

/// The baseline's sidecar as JSON, to copy onto the candidate.
fn baseline_sidecar(ctx: &TestContext) -> serde_json::Value {
    serde_json::from_str(&ctx.read("b.jsonl.protocol.json")).unwrap()
}

fn sha256(bytes: &[u8]) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

#[test]
fn sidecar_hash_dropped() {
    let ctx = context();
    let qrels = covid("qrels.covid-round2.txt");
    eval_to(&ctx, &qrels, &covid("run.covidex-sim.txt"), "b.jsonl");
    eval_to(&ctx, &qrels, &covid("run.covidex-t5.txt"), "c.jsonl");
    ctx.gate(protocol_gate());
    let o = ctx.check(&["--format", "json"]);
    assert!(matches!(o.code, Some(0 | 1)), "{}", o.stderr);
    assert!(o.stdout.contains("\"status\": \"checked\""), "{}", o.stdout);
    // The baseline's sidecar copied next to the candidate with its rows hash dropped.
    let mut side = baseline_sidecar(&ctx);
    side.as_object_mut().unwrap().remove("rows-sha256");
    ctx.write("c.jsonl.protocol.json", side.to_string());
    let o = ctx.check(&[]);
    assert_input_error(
        &o,
        &["c.jsonl.protocol.json: has no rows-sha256, so nothing binds it to c.jsonl"],
    );
}

#[test]
fn sidecar_hash_recomputed() {
    let ctx = context();
    eval_to(
        &ctx,
        &covid("qrels.covid-round2.txt"),
        &covid("run.covidex-sim.txt"),
        "b.jsonl",
    );
    // The candidate measured on other qrels (one topic's judgements dropped: fewer queries).
    let qrels = std::fs::read_to_string(covid("qrels.covid-round2.txt")).unwrap();
    let first = qrels.split_whitespace().next().unwrap().to_string();
    let other: String = qrels
        .lines()
        .filter(|l| l.split_whitespace().next() != Some(&first))
        .map(|l| format!("{l}\n"))
        .collect();
    ctx.write("other-qrels.txt", other);
    eval_to(
        &ctx,
        &ctx.join("other-qrels.txt"),
        &covid("run.covidex-t5.txt"),
        "c.jsonl",
    );
    ctx.gate(protocol_gate());
    // The baseline's sidecar, its rows hash recomputed for the candidate's file.
    let mut side = baseline_sidecar(&ctx);
    side["rows-sha256"] = sha256(&std::fs::read(ctx.join("c.jsonl")).unwrap()).into();
    ctx.write("c.jsonl.protocol.json", side.to_string());
    let o = ctx.check(&[]);
    assert_input_error(
        &o,
        &[
            "c.jsonl.protocol.json: its query set (",
            "is not the ",
            "queries of c.jsonl",
        ],
    );
}

// ---- noise comes from the trusted side ----

/// 60 queries; `shift` moves the whole run, `drop` is the candidate's true regression.
fn replicate(shift: f64, drop: f64) -> String {
    (0..60)
        .map(|i| {
            let v = 0.5 + ((i * 7) % 11) as f64 / 100.0 - drop + shift;
            format!("{{\"query_id\":\"q{i:02}\",\"ndcg@10\":{v:.4}}}\n")
        })
        .collect()
}

/// Baseline runs shifted by `base`, candidate runs by `cand` (0.1 worse throughout), and a
/// proven-harm gate that a drop of 0.1 fails.
fn replicates(ctx: &TestContext, base: &[f64], cand: &[f64]) {
    let mut names = [Vec::new(), Vec::new()];
    for (side, (shifts, drop)) in [(base, 0.0), (cand, 0.1)].into_iter().enumerate() {
        for (r, shift) in shifts.iter().enumerate() {
            let name = format!("{}-{r}.jsonl", ["b", "c"][side]);
            ctx.write(&name, replicate(*shift, drop));
            names[side].push(format!("\"{name}\""));
        }
    }
    ctx.gate(
        GateFile::default()
            .input("baseline", format!("[{}]", names[0].join(", ")))
            .input("candidate", format!("[{}]", names[1].join(", ")))
            .resamples(500)
            .gate("ndcg@10", "fail-if-significant-drop = 0.02"),
    );
}

fn warnings(o: &Out) -> Vec<String> {
    let v: serde_json::Value = serde_json::from_str(&o.stdout).expect(&o.stderr);
    support::output::warnings(&v)
}

#[test]
fn candidate_replicates_spread() {
    let ctx = context();
    let steady = [0.0, 0.004, -0.003];
    // Honest candidate runs: the drop of 0.1 is proven and fails.
    replicates(&ctx, &steady, &[0.002, -0.002, 0.001]);
    let o = ctx.check(&["--format", "json"]);
    assert_eq!(o.code, Some(1), "{}", o.stderr);
    assert!(!warnings(&o).iter().any(|w| w.contains("spread far more")));
    // The same drop, the candidate's runs shifted ±0.35 apart: still fails, and is flagged.
    replicates(&ctx, &steady, &[0.35, 0.0, -0.35]);
    let o = ctx.check(&["--format", "json"]);
    assert_eq!(
        o.code,
        Some(1),
        "the candidate's spread widened the interval: {}",
        o.stdout
    );
    let w = warnings(&o);
    assert!(
        w.iter().any(|w| w.starts_with(
            "ndcg@10: the candidate's replicate runs spread far more than the baseline's"
        )),
        "{w:?}"
    );
}

#[test]
fn candidate_replicates_no_baseline_noise() {
    let ctx = context();
    // One baseline run: the candidate's replicates only average, they never widen.
    replicates(&ctx, &[0.0], &[0.35, 0.0, -0.35]);
    let o = ctx.check(&["--format", "json"]);
    assert_eq!(o.code, Some(1), "{}", o.stdout);
    let w = warnings(&o);
    assert!(
        w.iter().any(|w| w.starts_with(
            "the candidate's 3 replicate runs are averaged per query but do not widen any interval"
        )),
        "{w:?}"
    );
}

// ---- ir_metadata limits apply while scanning ----

/// A one-query run under `header` (YAML lines, each written as a `# ` comment).
fn run_with_header(ctx: &TestContext, header: &[String]) -> Out {
    let mut run = String::from("# ir_metadata.start\n");
    for l in header {
        run.push_str(&format!("# {l}\n"));
    }
    run.push_str("# ir_metadata.end\nq1 Q0 d1 1 1 t\n");
    ctx.write("run.trec", run);
    ctx.write("qrels.txt", "q1 0 d1 1\n");
    let args = [
        "eval",
        "--qrels",
        "qrels.txt",
        "--run",
        "run.trec",
        "--metrics",
        "ndcg@10",
    ];
    Out::of(ctx.command().args(args))
}

#[test]
fn ir_metadata_deep_flow() {
    // 200 KB of nested flow sequences took ~25 s (quadratic in the YAML parser); the count of
    // `[`/`{` is checked line by line as the block is read, before any parsing.
    let ctx = context();
    let deep = format!("tag: {}{}", "[".repeat(100_000), "]".repeat(100_000));
    let o = run_with_header(&ctx, &[deep]);
    assert_input_error(
        &o,
        &["run.trec:2: the ir_metadata block opens more than 1024 flow collections (`[` or `{`)"],
    );
    // Spread over lines, and in quotes, the count is the same.
    let lines: Vec<String> = (0..2000).map(|i| format!("k{i}: \"{{[\"")).collect();
    let o = run_with_header(&ctx, &lines);
    assert_input_error(&o, &["run.trec:", "opens more than 1024 flow collections"]);
    // Under the limit the parser's own recursion limit answers, at once.
    let nested = format!("tag: {}{}", "[".repeat(1000), "]".repeat(1000));
    let o = run_with_header(&ctx, &[nested]);
    assert_input_error(
        &o,
        &["run.trec:1: ir_metadata block is not valid YAML: recursion limit exceeded"],
    );
    // A real header is read.
    let o = run_with_header(
        &ctx,
        &[
            "tag: bm25".into(),
            "method: {retrieval: [{name: bm25}]}".into(),
        ],
    );
    assert_eq!(o.code, Some(0), "{}", o.stderr);
}

#[test]
fn ir_metadata_huge() {
    let ctx = context();
    let wide: Vec<String> = (0..40_000).map(|i| format!("method_{i}: x")).collect();
    let o = run_with_header(&ctx, &wide);
    assert_input_error(&o, &["run.trec:", "the ir_metadata block is over 256 KiB"]);
    // Reading stops at the limit: the error names a line near 256 KiB, not the end of the block.
    let line: usize = o.stderr["error: run.trec:".len()..]
        .split(':')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert!(line < 25_000, "{}", o.stderr);
}

// ---- a quantile gate's time is bounded for any input size ----

#[test]
fn median_time_bound() {
    let ctx = context();
    let rows = |shift: f64| -> String {
        (0..1000)
            .map(|i| {
                format!(
                    "{{\"query_id\":\"q{i}\",\"ndcg@10\":{:.3},\"slices\":{{\"t\":\"v{}\"}}}}\n",
                    // 97 levels, about 1% of the values each: the median is not on an atom.
                    0.4 + (i % 97) as f64 / 300.0 + shift,
                    i % 2
                )
            })
            .collect()
    };
    ctx.write("b.jsonl", rows(0.0));
    ctx.write("c.jsonl", rows(0.01));
    let gate = |resamples: u64, statistic: &str| {
        ctx.gate(
            GateFile::new("b.jsonl", "c.jsonl")
                .resamples(resamples as usize)
                .table("slices", "by = [\"t\"]")
                .gate(
                    "ndcg@10",
                    &format!("statistic = \"{statistic}\"\nmax-drop = 0.05"),
                ),
        );
        ctx.check(&["--format", "json"])
    };
    // 1,000 queries in `all` and 1,000 in the two slices, × 11 (the close-call re-run) × 10^7
    // resamples (the most `resamples` takes): 2.2 × 10^11 draws, refused before any resampling.
    for statistic in ["median", "p95"] {
        let o = gate(10_000_000, statistic);
        assert_input_error(
            &o,
            &[
                "gate.toml:",
                &format!("[[gate]] #1 (ndcg@10): statistic = \"{statistic}\" on 1 metric(s) × 2000 query-slice memberships × 10000000 resamples"),
                "is 220000000000 draws, over the budget of 200000000000",
                "set [bootstrap] resamples to at most 9090909",
            ],
        );
    }
    // Within the budget it runs.
    let o = gate(400, "median");
    assert_eq!(o.code, Some(0), "{}", o.stderr);
}
