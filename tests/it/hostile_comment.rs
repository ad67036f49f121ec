//! The sticky PR comment against a mock GitHub, through the binary: no verdict ever stands for a
//! commit nothing judged. A run that stops with exit 2, or has no baseline under
//! `on-missing = "warn"`, marks the previous comment stale; the comment names the commit it
//! judged, duplicate own-marker comments are collapsed, and the default key is unique per gate
//! file. Each test is a row of docs/hostile.md, listed in `hostile_cases.rs`.

use crate::support;

use serde_json::{json, Value};
use support::github::*;
use support::{GateFile, TestContext};
use wiremock::matchers::body_string_contains;

const SHA: &str = "0123456789abcdef0123456789abcdef01234567";

/// 30 queries' ndcg@10, each lowered by `drop` give or take `spread` (`drop` on average).
fn rows(drop: f64, spread: f64) -> String {
    (0..30)
        .map(|i| {
            let jitter = ((i * 3) % 5) as f64 - 2.0;
            let v = 0.5 + ((i * 7) % 11) as f64 / 50.0 - drop + spread * jitter;
            format!("{{\"query_id\":\"q{i:02}\",\"ndcg@10\":{v:.4}}}\n")
        })
        .collect()
}

/// `sub/NAME` in the folder: a gate file on b.jsonl and c.jsonl next to it (a passing gate).
fn gate_at(ctx: &TestContext, sub: &str, name: &str) {
    ctx.write(format!("{sub}/b.jsonl"), rows(0.0, 0.0));
    // Every query 0.001 better: moved, so the pass is judged (a no-op on 30 queries is not
    // proven within max-drop 0.05).
    ctx.write(format!("{sub}/c.jsonl"), rows(-0.001, 0.0005));
    ctx.write(
        format!("{sub}/{name}"),
        GateFile::new("b.jsonl", "c.jsonl")
            .resamples(200)
            .gate("ndcg@10", "max-drop = 0.05")
            .to_string(),
    );
}

/// A folder set up as a run of PR 7 at commit [`SHA`] against the mock.
fn pull_request(gh: &Gh) -> TestContext {
    gh.pull_request(TestContext::new(), SHA)
}

/// The key rag-gate gives a gate file without `id` at `path` (as given on the command line).
fn key(stem_id: &str, path: &str) -> String {
    use sha2::Digest;
    let h: String = sha2::Sha256::digest(path.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    format!("{stem_id}.{}", &h[..8])
}

fn bodies(gh: &Gh, verb: &str) -> Vec<String> {
    gh.requests()
        .iter()
        .filter(|r| r.method.as_str() == verb)
        .map(|r| {
            let v: Value = serde_json::from_slice(&r.body).unwrap();
            v["body"].as_str().unwrap().to_string()
        })
        .collect()
}

#[test]
fn stale_after_error() {
    let gh = Gh::start();
    let d = pull_request(&gh);
    gate_at(&d, "svc", "prod.toml");
    let k = key("prod", "svc/prod.toml");
    let old = format!("<!-- rag-gate:v1 id={k} state=aaaa -->\n### ✅ rag-gate pass: all good\n");
    gh.mount(list(vec![comment(5, &old)]));
    gh.mount(
        update(5)
            .and(body_string_contains("Stale verdict"))
            .respond_with(updated(5))
            .expect(1),
    );
    gh.mount(never("POST"));
    // The candidate file breaks: exit 2, and the ✅ of the earlier run is marked stale.
    d.write("svc/c.jsonl", "{\"query_id\": \n");
    let o = d.check_file("svc/prod.toml", &["--comment"]);
    assert_eq!(o.code, Some(2), "{}", o.stderr);
    assert!(o.stderr.starts_with("error: "), "{}", o.stderr);
    assert!(
        o.stderr.contains("rag-gate: marked PR comment 5 stale"),
        "{}",
        o.stderr
    );
    let body = &bodies(&gh, "PATCH")[0];
    assert!(
        body.starts_with(&format!("<!-- rag-gate:v1 id={k} state=stale -->\n")),
        "{body}"
    );
    assert!(
        body.contains(&format!("The run on commit {SHA} stopped with an error")),
        "{body}"
    );
    assert!(
        body.contains("### ✅ rag-gate pass: all good"),
        "the old report stays below: {body}"
    );
    gh.verify();
}

#[test]
fn comment_names_commit() {
    let gh = Gh::start();
    let d = pull_request(&gh);
    gate_at(&d, "svc", "prod.toml");
    gh.mount(list(vec![]));
    gh.mount(create().respond_with(created(9)).expect(1));
    let o = d.check_file("svc/prod.toml", &["--comment"]);
    assert_eq!(o.code, Some(0), "{}", o.stderr);
    let body = &bodies(&gh, "POST")[0];
    assert!(body.contains(&format!("judged commit {SHA}")), "{body}");
}

#[test]
fn duplicate_comments_collapsed() {
    let gh = Gh::start();
    let d = pull_request(&gh);
    gate_at(&d, "svc", "prod.toml");
    let k = key("prod", "svc/prod.toml");
    let m = |v: &str| format!("<!-- rag-gate:v1 id={k} state=aaaa -->\n### {v}\n");
    // Two of our comments with the key (the newer a ✅), and one with the old bare-id marker.
    gh.mount(list(vec![
        comment(3, &m("❌ rag-gate fail")),
        comment(4, &m("✅ rag-gate pass")),
        comment(
            6,
            "<!-- rag-gate:v1 id=prod state=bbbb -->\n### ✅ rag-gate pass\n",
        ),
    ]));
    gh.mount(update(3).respond_with(updated(3)).expect(1));
    for id in [4, 6] {
        gh.mount(
            update(id)
                .and(body_string_contains("superseded"))
                .respond_with(updated(id))
                .expect(1),
        );
    }
    gh.mount(never("POST"));
    let o = d.check_file("svc/prod.toml", &["--comment"]);
    assert_eq!(o.code, Some(0), "{}", o.stderr);
    for b in bodies(&gh, "PATCH")
        .iter()
        .filter(|b| b.contains("superseded"))
    {
        assert!(!b.contains("rag-gate pass") && !b.contains("id="), "{b}");
    }
    gh.verify();
}

#[test]
fn sticky_key_per_gate_path() {
    // Same stem in two folders, and two non-ASCII stems that clean to the same id.
    let gates = [
        "svc-a/prod.toml",
        "svc-b/prod.toml",
        "x/données.toml",
        "x/donnëes.toml",
    ];
    let mut markers = Vec::new();
    for g in gates {
        let (sub, name) = g.split_once('/').unwrap();
        let gh = Gh::start();
        let d = pull_request(&gh);
        gate_at(&d, sub, name);
        gh.mount(list(vec![]));
        gh.mount(create().respond_with(created(9)).expect(1));
        let o = d.check_file(g, &["--comment"]);
        assert_eq!(o.code, Some(0), "{g}: {}", o.stderr);
        let body = bodies(&gh, "POST").remove(0);
        markers.push(
            body.lines()
                .next()
                .unwrap()
                .split(" state=")
                .next()
                .unwrap()
                .to_string(),
        );
    }
    assert_eq!(
        markers[0],
        format!("<!-- rag-gate:v1 id={}", key("prod", "svc-a/prod.toml"))
    );
    assert_eq!(
        markers[2],
        format!("<!-- rag-gate:v1 id={}", key("donn-es", "x/données.toml"))
    );
    let distinct: std::collections::BTreeSet<&String> = markers.iter().collect();
    assert_eq!(distinct.len(), 4, "{markers:?}");
}

/// `no-baseline-not-checked`: a fork branched from an old commit, so the fetch found no baseline
/// and `[baseline] on-missing = "warn"` lets the run through with exit 0. The sticky comment's
/// earlier ✅ must not stand for this commit: it gets the stale banner saying the commit was not
/// checked and why, the job summary says "not checked", and the step output `verdict` is
/// `not-checked` (never `pass`).
#[test]
fn no_baseline_marks_the_comment_not_checked() {
    let gh = Gh::start();
    let d = pull_request(&gh);
    gate_at(&d, "svc", "prod.toml");
    let gate = d.path().join("svc/prod.toml");
    let text = std::fs::read_to_string(&gate).unwrap();
    std::fs::write(
        &gate,
        format!("{text}\n[baseline]\non-missing = \"warn\"\n"),
    )
    .unwrap();
    let record = json!({
        "provenance-format": 1, "repository": "octo/repo", "workflow": "eval.yml",
        "branch": "main", "artifact": "baseline", "merge-base": "a".repeat(40),
        "missing": "no successful run of eval.yml on main for aaaaaaa or any of its 49 older ancestors"
    });
    d.write("svc/rag-gate-baseline.json", record.to_string());
    let k = key("prod", "svc/prod.toml");
    let old = format!("<!-- rag-gate:v1 id={k} state=aaaa -->\n### ✅ rag-gate pass: all good\n");
    gh.mount(list(vec![comment(5, &old)]));
    gh.mount(
        update(5)
            .and(body_string_contains("was not checked"))
            .respond_with(updated(5))
            .expect(1),
    );
    gh.mount(never("POST"));
    let summary = d.write("summary.md", "");
    let output = d.write("output.txt", "");
    let d = d
        .env("GITHUB_STEP_SUMMARY", &summary)
        .env("GITHUB_OUTPUT", &output);
    let o = d.check_file("svc/prod.toml", &["--comment"]);
    assert_eq!(o.code, Some(0), "{}", o.stderr);
    assert!(
        o.stderr.contains("not checked: no baseline"),
        "{}",
        o.stderr
    );
    assert!(
        o.stderr.contains("rag-gate: marked PR comment 5 stale"),
        "{}",
        o.stderr
    );
    let body = &bodies(&gh, "PATCH")[0];
    assert!(
        body.starts_with(&format!("<!-- rag-gate:v1 id={k} state=stale -->\n")),
        "{body}"
    );
    assert!(
        body.contains(&format!("The run on commit {SHA} was not checked:")),
        "{body}"
    );
    assert!(body.contains("no successful run of eval.yml"), "{body}");
    let summary = std::fs::read_to_string(&summary).unwrap();
    assert!(summary.contains("rag-gate not checked"), "{summary}");
    assert!(
        summary.contains("no successful run of eval.yml"),
        "{summary}"
    );
    let output = std::fs::read_to_string(&output).unwrap();
    assert_eq!(output, "verdict=not-checked\n");
    gh.verify();
}

/// `sticky-key-same-file`: one gate file named relatively, absolutely and through `..` on one
/// PR keys one comment (its real path relative to the repository or the working folder): each
/// run edits comment 5, none posts a second.
#[test]
fn one_gate_file_named_three_ways_keys_one_comment() {
    let gh = Gh::start();
    let d = pull_request(&gh);
    gate_at(&d, "svc", "prod.toml");
    let k = key("prod", "svc/prod.toml");
    let old = format!("<!-- rag-gate:v1 id={k} state=aaaa -->\n### ✅ rag-gate pass: all good\n");
    gh.mount(list(vec![comment(5, &old)]));
    gh.mount(update(5).respond_with(updated(5)).expect(3));
    gh.mount(never("POST"));
    let absolute = d.path().join("svc/prod.toml").display().to_string();
    for gate in ["svc/prod.toml", absolute.as_str(), "svc/../svc/prod.toml"] {
        let o = d.check_file(gate, &["--comment"]);
        assert_eq!(o.code, Some(0), "{gate}: {}", o.stderr);
    }
    gh.verify();
}
