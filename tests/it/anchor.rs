//! The gate across time through the binary, against a stand-in for the Actions API (wiremock):
//! a repository whose main branch merges twelve changes, each losing a little ndcg@10 on a
//! generated collection of 400 queries (every fifth query −0.02, a different fifth each time;
//! 400 queries, so that a change that moves nothing is a proven no-op for `max-drop = 0.01`). Each main run fetches
//! its parent's stored results (`baseline fetch`), records its ledger (`ledger record`, the PR
//! read from the push event's merge message) and uploads results, fingerprint and ledger as the
//! artifact the next fetch brings. With `max-drop` alone every PR passes; with an anchor and a
//! budget the merge that crosses it fails naming the merges that spent it, a no-op PR on the
//! spent main passes with that warning, a PR adding a real drop fails, re-anchoring writes a
//! file the next check accepts, an anchor of another protocol is exit 2 and an edited ledger is
//! ignored with a warning.

use crate::support;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use serde_json::{json, Value};
use support::github::{Gh, TOKEN};
use support::output::{assert_contains, warnings};
use support::{GateFile, Out, TestContext};
use wiremock::matchers::{method, path, query_param};
use wiremock::{Mock, ResponseTemplate};

/// Queries of the generated collection: zero moves among 400 bound an unseen drop by
/// 1 − 0.025^(1/400) ≈ 0.0092, within `max-drop = 0.01` (the no-op rule).
const QUERIES: usize = 400;

/// A generated collection beside `out`: per query six judged documents graded 0–2 and a run of
/// fifteen (nine unjudged), ranked differently per query so ndcg@10 varies. Returns (qrels, run).
fn collection(out: &Path) -> (PathBuf, PathBuf) {
    let dir = out.parent().unwrap().join("collection");
    std::fs::create_dir_all(&dir).unwrap();
    let (mut qrels, mut run) = (String::new(), String::new());
    for q in 0..QUERIES {
        for j in 0..6 {
            qrels.push_str(&format!("q{q} 0 q{q}d{j} {}\n", (q + j) % 3));
        }
        for r in 0..15 {
            let d = (r * 7 + q) % 15;
            run.push_str(&format!("q{q} Q0 q{q}d{d} {} {} gen\n", r + 1, 15 - r));
        }
    }
    let (qp, rp) = (dir.join("qrels.txt"), dir.join("run.txt"));
    std::fs::write(&qp, qrels).unwrap();
    std::fs::write(&rp, run).unwrap();
    (qp, rp)
}
const MERGES: usize = 12;

fn sha(i: usize) -> String {
    format!("{:040x}", 0xc0ffee000 + i)
}

fn zip_of(files: &[(&str, Vec<u8>)]) -> Vec<u8> {
    let mut w = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let opts = zip::write::SimpleFileOptions::default();
    for (name, bytes) in files {
        w.start_file(*name, opts).unwrap();
        w.write_all(bytes).unwrap();
    }
    w.finish().unwrap().into_inner()
}

/// The generated collection evaluated by `rag-gate eval` into `out` (with its fingerprint).
fn eval_collection(out: &Path, extra: &[&str]) {
    let (qrels, run) = collection(out);
    Out::of(
        TestContext::new()
            .command()
            .args(["eval", "--metrics", "ndcg@10,recall@100", "--qrels"])
            .arg(qrels)
            .arg("--run")
            .arg(run)
            .args(extra)
            .arg("-o")
            .arg(out),
    )
    .expect(0);
}

/// `rows` written to `out` as JSONL, with `sidecar`'s fingerprint re-tied to the new rows (the
/// same evaluation protocol and query set; the retriever changed).
fn write_results(out: &Path, rows: &[Value], sidecar: &Value) {
    let text: String = rows.iter().map(|r| format!("{r}\n")).collect();
    std::fs::write(out, &text).unwrap();
    let mut s = sidecar.clone();
    s["rows-sha256"] = rag_gate::protocol::sha256_hex(text.as_bytes()).into();
    std::fs::write(format!("{}.protocol.json", out.display()), s.to_string()).unwrap();
}

/// main after `k` merges: every fifth query (a different fifth per merge) loses 0.02 ndcg@10.
fn drifted(rows: &[Value], k: usize) -> Vec<Value> {
    let mut rows = rows.to_vec();
    for step in 1..=k {
        for (i, r) in rows.iter_mut().enumerate() {
            if (i + step) % 5 == 0 {
                let v = r["ndcg@10"].as_f64().unwrap();
                r["ndcg@10"] = (v - 0.02).max(0.0).into();
            }
        }
    }
    rows
}

fn gate_file(dir: &Path, name: &str, base: &Path, cand: &Path, anchor: Option<&Path>) -> PathBuf {
    let anchor = anchor.map_or(String::new(), |a| {
        format!("[anchor]\nfile = {:?}\n", a.display().to_string())
    });
    let drift = if anchor.is_empty() {
        ""
    } else {
        "max-drift = 0.02\n"
    };
    let text = format!(
        "[inputs]\nbaseline = {:?}\ncandidate = {:?}\n[bootstrap]\nresamples = 2000\n{anchor}[[gate]]\nmetric = \"ndcg@10\"\nmax-drop = 0.01\n{drift}",
        base.display().to_string(),
        cand.display().to_string()
    );
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

/// The simulated repository: the Actions API (`gh`), the artifact storage (`blob`), the folder.
struct History {
    gh: Gh,
    blob: Gh,
    ctx: TestContext,
    rows: Vec<Value>,
    sidecar: Value,
}

impl History {
    fn root(&self) -> &Path {
        self.ctx.path()
    }

    fn anchor(&self) -> PathBuf {
        self.root().join("anchors/v1.jsonl")
    }

    /// Main run `k`'s stored results as its job wrote them.
    fn results(&self, k: usize) -> PathBuf {
        self.root().join(format!("main{k}/baseline.jsonl"))
    }

    /// `baseline fetch` of main's stored results for commit `k` into `to`.
    fn fetch(&self, k: usize, to: &Path) -> PathBuf {
        Out::of(
            self.ctx
                .command()
                .args(["baseline", "fetch", "--artifact", "rag-gate-baseline"])
                .args(["--workflow", "eval.yml", "--base-sha", &sha(k)])
                .arg("--to")
                .arg(to)
                .env("GITHUB_TOKEN", TOKEN)
                .env("GITHUB_REPOSITORY", "octo/repo")
                .env("GITHUB_API_URL", self.gh.server.uri())
                .env_remove("GITHUB_EVENT_PATH")
                .env_remove("GITHUB_ACTIONS"),
        )
        .expect(0);
        to.join("baseline.jsonl")
    }

    /// Uploads main run `k`'s results, fingerprint and ledger (when there is one) as its artifact.
    fn upload(&self, k: usize) {
        let r = self.results(k);
        let mut files = vec![
            ("baseline.jsonl", std::fs::read(&r).unwrap()),
            (
                "baseline.jsonl.protocol.json",
                std::fs::read(format!("{}.protocol.json", r.display())).unwrap(),
            ),
        ];
        if let Ok(l) = std::fs::read(format!("{}.ledger.json", r.display())) {
            files.push(("baseline.jsonl.ledger.json", l));
        }
        let (run, art) = (1000 + k, 500 + k);
        self.gh.mount(
            Mock::given(method("GET"))
                .and(path(format!(
                    "/repos/octo/repo/actions/runs/{run}/artifacts"
                )))
                .respond_with(ResponseTemplate::new(200).set_body_json(json!({
                    "total_count": 1,
                    "artifacts": [{"id": art, "name": "rag-gate-baseline", "expired": false}]
                }))),
        );
        let to = format!("{}/blob/{art}.zip", self.blob.server.uri());
        self.gh.mount(
            Mock::given(method("GET"))
                .and(path(format!(
                    "/repos/octo/repo/actions/artifacts/{art}/zip"
                )))
                .respond_with(ResponseTemplate::new(302).insert_header("location", to.as_str())),
        );
        self.blob.mount(
            Mock::given(method("GET"))
                .and(path(format!("/blob/{art}.zip")))
                .respond_with(ResponseTemplate::new(200).set_body_bytes(zip_of(&files))),
        );
    }

    /// Main's job for merge `k` (PR #80k): fetch the parent's results, record the ledger with
    /// the PR read from the push event's message, upload.
    fn main_run(&self, k: usize) {
        let results = self.results(k);
        std::fs::create_dir_all(results.parent().unwrap()).unwrap();
        write_results(&results, &drifted(&self.rows, k), &self.sidecar);
        let parent = self.fetch(k - 1, &self.root().join(format!("main{k}/parent")));
        let event = self.root().join(format!("main{k}/event.json"));
        let msg = format!("Tune the retriever (#{})\n\nlonger text", 800 + k);
        std::fs::write(&event, json!({"head_commit": {"message": msg}}).to_string()).unwrap();
        let gate = gate_file(
            self.root(),
            "main.toml",
            &parent,
            &results,
            Some(&self.anchor()),
        );
        Out::of(
            self.ctx
                .command()
                .args(["ledger", "record"])
                .arg(&gate)
                .arg("--results")
                .arg(&results)
                .arg("--parent")
                .arg(&parent)
                .args(["--commit", &sha(k)])
                .env("GITHUB_EVENT_PATH", &event),
        )
        .expect(0);
        self.upload(k);
    }

    fn build() -> History {
        let ctx = TestContext::new();
        let m0 = ctx.join("main0/baseline.jsonl");
        std::fs::create_dir_all(m0.parent().unwrap()).unwrap();
        eval_collection(&m0, &[]);
        let rows: Vec<Value> = std::fs::read_to_string(&m0)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        let sidecar: Value = serde_json::from_str(
            &std::fs::read_to_string(format!("{}.protocol.json", m0.display())).unwrap(),
        )
        .unwrap();
        let h = History {
            gh: Gh::start(),
            blob: Gh::start(),
            ctx,
            rows,
            sidecar,
        };
        for k in 0..=MERGES {
            let window: Vec<Value> = (0..=k).rev().map(|i| json!({"sha": sha(i)})).collect();
            h.gh.mount(
                Mock::given(method("GET"))
                    .and(path("/repos/octo/repo/commits"))
                    .and(query_param("sha", sha(k)))
                    .respond_with(ResponseTemplate::new(200).set_body_json(window)),
            );
        }
        let runs: Vec<Value> = (0..=MERGES)
            .rev()
            .map(|k| {
                json!({"id": 1000 + k, "head_sha": sha(k), "head_branch": "main", "event": "push",
                    "conclusion": "success", "created_at": "2026-11-28T10:00:00Z",
                    "html_url": format!("https://github.com/octo/repo/actions/runs/{}", 1000 + k),
                    "head_repository": {"full_name": "octo/repo"}})
            })
            .collect();
        h.gh.mount(
            Mock::given(method("GET"))
                .and(path("/repos/octo/repo/actions/workflows/eval.yml/runs"))
                .respond_with(ResponseTemplate::new(200).set_body_json(json!({
                    "total_count": runs.len(), "workflow_runs": runs
                }))),
        );
        // The approved anchor: main's first stored results, written by `anchor write`.
        Out::of(
            h.ctx
                .command()
                .args(["anchor", "write", "--name", "v1", "--from"])
                .arg(&m0)
                .arg("--to")
                .arg(h.anchor()),
        )
        .expect(0);
        h.upload(0);
        for k in 1..=MERGES {
            h.main_run(k);
        }
        h
    }

    /// `check --format json` of `cand` against `base`; exit code and report.
    fn check_pair(
        &self,
        name: &str,
        base: &Path,
        cand: &Path,
        anchor: Option<&Path>,
    ) -> (i32, Value) {
        let gate = gate_file(self.root(), name, base, cand, anchor);
        self.ctx
            .check_file(&gate, &["--format", "json"])
            .verdict_json()
    }
}

fn history() -> &'static History {
    static H: OnceLock<History> = OnceLock::new();
    H.get_or_init(History::build)
}

fn drift_row(report: &Value) -> &Value {
    &report["anchor"]["drift"][0]
}

#[test]
fn twelve_small_merges_pass_max_drop_but_the_crossing_merge_fails_naming_the_spenders() {
    let h = history();
    let mut crossed = None;
    for k in 1..=MERGES {
        let base = h.root().join(format!("main{k}/parent/baseline.jsonl"));
        let cand = h.results(k);
        let (code, _) = h.check_pair(&format!("drop{k}.toml"), &base, &cand, None);
        assert_eq!(code, 0, "PR {k}: max-drop alone passes every small loss");
        let (code, r) = h.check_pair(&format!("drift{k}.toml"), &base, &cand, Some(&h.anchor()));
        let errs = crate::report_schema::violations(&r);
        assert!(errs.is_empty(), "PR {k}: {errs:#?}");
        let row = drift_row(&r);
        let status = row["status"].as_str().unwrap();
        match crossed {
            None if code == 0 => assert_eq!(status, "within", "PR {k}: {row}"),
            None => {
                assert_eq!(status, "crossed", "PR {k}: {row}");
                crossed = Some(k);
                let headline = r["headline"].as_str().unwrap();
                assert_contains(headline, "FAIL: ndcg@10 on all: drifted −0.0");
                assert_contains(headline, "from anchor v1 (budget 0.0200)");
                assert_contains(headline, "this change crosses the budget");
                // The merges before it that spent the budget, by pull request.
                for spender in 1..k {
                    assert_contains(headline, &format!("#{}", 800 + spender));
                }
                assert_eq!(r["anchor"]["ledger"], "verified");
                assert_eq!(r["anchor"]["ledger_entries"], k - 1);
            }
            // After the crossing main is spent; each further loss adds to the drift.
            Some(_) => {
                assert_eq!(code, 1, "PR {k}");
                assert_eq!(status, "added", "PR {k}: {row}");
            }
        }
    }
    let k = crossed.expect("the budget is crossed within twelve merges");
    assert!((3..=7).contains(&k), "crossed at merge {k}");
}

#[test]
fn a_no_op_pr_on_a_spent_main_passes_with_a_warning_naming_the_merges() {
    let h = history();
    let main = h.fetch(MERGES, &h.root().join("noop/baseline"));
    let (code, r) = h.check_pair("noop.toml", &main, &main, Some(&h.anchor()));
    assert_eq!(code, 0, "{r}");
    let row = drift_row(&r);
    assert_eq!(row["status"], "inherited");
    assert!(row["used"].as_f64().unwrap() > 1.0, "{row}");
    assert_eq!(row["spent_by"].as_array().unwrap().len(), MERGES);
    let w = warnings(&r).join("\n");
    assert_contains(&w, "main has spent the 0.0200 drift budget since anchor v1");
    assert_contains(&w, "#801 ");
    // Identical results: the pass rests on nothing having moved, and says what that leaves.
    assert_contains(
        &w,
        "this change passes because it moved no query among 400 queries",
    );
}

#[test]
fn a_pr_adding_a_real_drop_on_a_spent_main_fails() {
    let h = history();
    let main = h.fetch(MERGES, &h.root().join("drop/baseline"));
    let mut rows = drifted(&h.rows, MERGES);
    for (i, r) in rows.iter_mut().enumerate() {
        if i % 3 == 0 {
            let v = r["ndcg@10"].as_f64().unwrap();
            r["ndcg@10"] = (v - 0.05).max(0.0).into();
        }
    }
    let cand = h.root().join("drop/candidate.jsonl");
    write_results(&cand, &rows, &h.sidecar);
    let (code, r) = h.check_pair("drop.toml", &main, &cand, Some(&h.anchor()));
    assert_eq!(code, 1);
    assert_eq!(drift_row(&r)["status"], "added");
    let drift = r["gates"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["rule"] == "max-drift")
        .unwrap();
    assert_eq!(drift["fails_build"], true);
    assert_contains(drift["detail"].as_str().unwrap(), "may add to the drift");
}

#[test]
fn re_anchoring_writes_a_file_the_next_check_accepts_and_never_replaces_one() {
    let h = history();
    let main = h.fetch(MERGES, &h.root().join("reanchor/baseline"));
    let v2 = h.root().join("reanchor/anchors/v2.jsonl");
    let write = || {
        Out::of(
            h.ctx
                .command()
                .args(["anchor", "write", "--name", "v2", "--from"])
                .arg(&main)
                .arg("--to")
                .arg(&v2),
        )
    };
    write().expect(0);
    let record: Value = serde_json::from_str(
        &std::fs::read_to_string(format!("{}.anchor.json", v2.display())).unwrap(),
    )
    .unwrap();
    assert_eq!(record["commit"], sha(MERGES));
    assert_eq!(record["name"], "v2");
    let spent = record["ledger_final"]["entries"].as_array().unwrap();
    assert_eq!(spent.len(), MERGES);
    assert_eq!(spent[0]["pr"], 801);
    let before = std::fs::read(&v2).unwrap();
    let again = write().expect(2);
    assert_contains(&again.stderr, "never replaced silently");
    assert_eq!(std::fs::read(&v2).unwrap(), before);
    // The next check against the new anchor: main is the anchor, a no-op is within budget.
    let (code, r) = h.check_pair("reanchor.toml", &main, &main, Some(&v2));
    assert_eq!(code, 0, "{r}");
    assert_eq!(drift_row(&r)["status"], "within");
    assert_eq!(r["anchor"]["name"], "v2");
    assert_eq!(r["anchor"]["commit"], sha(MERGES));
    // main's ledger measured against v1: not trusted for v2, and not a tampering warning.
    assert_eq!(r["anchor"]["ledger"], "absent");
    assert!(!warnings(&r).iter().any(|w| w.contains("ledger")), "{r}");
}

#[test]
fn an_anchor_measured_with_another_protocol_is_exit_2() {
    let h = history();
    let other = h.root().join("other/v1.jsonl");
    std::fs::create_dir_all(other.parent().unwrap()).unwrap();
    eval_collection(&other, &["--judged-only"]);
    let gate = gate_file(
        h.root(),
        "other.toml",
        &h.results(1),
        &h.results(2),
        Some(&other),
    );
    let out = h.ctx.check_file(&gate, &[]).expect(2);
    let err = &out.stderr;
    assert_contains(err, "[anchor] file = ");
    assert_contains(err, "protocol mismatch");
    assert_contains(err, "ndcg@10.unjudged: anchor");
}

#[test]
fn an_anchor_without_its_fingerprint_is_exit_2() {
    let h = history();
    let bare = h.root().join("bare/v1.jsonl");
    std::fs::create_dir_all(bare.parent().unwrap()).unwrap();
    std::fs::copy(h.anchor(), &bare).unwrap();
    let gate = gate_file(
        h.root(),
        "bare.toml",
        &h.results(1),
        &h.results(2),
        Some(&bare),
    );
    let out = h.ctx.check_file(&gate, &[]).expect(2);
    assert_contains(&out.stderr, "has no protocol fingerprint");
}

#[test]
fn an_edited_ledger_is_ignored_with_a_warning() {
    let h = history();
    let main = h.fetch(MERGES, &h.root().join("edited/baseline"));
    let ledger = PathBuf::from(format!("{}.ledger.json", main.display()));
    let text = std::fs::read_to_string(&ledger).unwrap();
    // A hostile edit: the first merge's PR number changed to blame another PR.
    let edited = text.replacen("\"pr\": 801", "\"pr\": 999", 1);
    assert_ne!(edited, text);
    std::fs::write(&ledger, edited).unwrap();
    let (code, r) = h.check_pair("edited.toml", &main, &main, Some(&h.anchor()));
    assert_eq!(code, 0, "{r}");
    assert_eq!(r["anchor"]["ledger"], "ignored");
    assert_eq!(drift_row(&r)["spent_by"], json!([]));
    assert!(crate::report_schema::violations(&r).is_empty());
    let w = warnings(&r).join("\n");
    assert_contains(&w, "ignored: entry 1");
    assert_contains(&w, "it was edited");
    assert!(!w.contains("#999"), "{w}");
}

#[test]
fn ledger_record_without_an_anchor_writes_nothing_and_says_so() {
    let h = history();
    let dir = h.root().join("no-anchor");
    std::fs::create_dir_all(&dir).unwrap();
    let results = dir.join("r.jsonl");
    std::fs::copy(h.results(3), &results).unwrap();
    let gate = gate_file(&dir, "plain.toml", &h.results(2), &results, None);
    let out = Out::of(
        h.ctx
            .command()
            .args(["ledger", "record"])
            .arg(&gate)
            .arg("--results")
            .arg(&results)
            .args(["--commit", &sha(3)])
            .env_remove("GITHUB_EVENT_PATH"),
    )
    .expect(0);
    assert_contains(&out.stderr, "no [anchor], so there is no drift to record");
    assert!(!dir.join("r.jsonl.ledger.json").exists());
}

/// A spent main without the forge: the generated collection evaluated (the anchor, written by
/// `anchor write`), main after every merge (twelve fifths lost 0.02 each: past the 0.02 budget).
struct Spent {
    ctx: TestContext,
    rows: Vec<Value>,
    sidecar: Value,
}

impl Spent {
    fn new() -> Spent {
        let ctx = TestContext::new();
        let m0 = ctx.join("m0/results.jsonl");
        std::fs::create_dir_all(m0.parent().unwrap()).unwrap();
        eval_collection(&m0, &[]);
        let rows: Vec<Value> = std::fs::read_to_string(&m0)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        let sidecar: Value = serde_json::from_str(
            &std::fs::read_to_string(format!("{}.protocol.json", m0.display())).unwrap(),
        )
        .unwrap();
        Out::of(
            ctx.command()
                .args(["anchor", "write", "--name", "v1", "--from"])
                .arg(&m0)
                .arg("--to")
                .arg(ctx.join("v1.jsonl")),
        )
        .expect(0);
        write_results(&ctx.join("main.jsonl"), &drifted(&rows, MERGES), &sidecar);
        Spent { ctx, rows, sidecar }
    }

    /// `check --format json` of `cand` (main's rows changed by `change`) on the spent main under
    /// `guarantee`, `max-drift = 0.02` alone on ndcg@10.
    fn check_changed(&self, guarantee: &str, change: impl Fn(usize, f64) -> f64) -> (i32, Value) {
        let root = self.ctx.path();
        let mut rows = drifted(&self.rows, MERGES);
        for (i, r) in rows.iter_mut().enumerate() {
            r["ndcg@10"] = change(i, r["ndcg@10"].as_f64().unwrap()).into();
        }
        write_results(&root.join("cand.jsonl"), &rows, &self.sidecar);
        let gate = GateFile::new("main.jsonl", "cand.jsonl")
            .resamples(2000)
            .table("verdict", &format!("guarantee = \"{guarantee}\""))
            .table("anchor", "file = \"v1.jsonl\"")
            .gate("ndcg@10", "max-drift = 0.02");
        self.ctx.gate(gate);
        self.ctx.check_json(&[]).verdict_json()
    }
}

fn drift_gate(report: &Value) -> &Value {
    report["gates"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["rule"] == "max-drift")
        .unwrap()
}

#[test]
fn a_no_op_on_a_spent_main_inherits_under_regular_and_states_the_resolution() {
    let s = Spent::new();
    let (code, r) = s.check_changed("regular", |_, v| v);
    assert_eq!(code, 0, "{r}");
    assert_eq!(drift_row(&r)["status"], "inherited");
    // The pass rests on nothing having moved: the report says what that leaves unseen,
    // 1 − 0.025^(1/400) = 0.92% of the queries.
    let w = warnings(&r).join("\n");
    assert_contains(
        &w,
        "this change passes because it moved no query among 400 queries",
    );
    assert_contains(&w, "a change touching fewer than 0.9");
    assert_contains(
        &w,
        "of the 400 queries can hide here, the gate's resolution",
    );
    assert_contains(
        drift_gate(&r)["detail"].as_str().unwrap(),
        "inherited — the drift is main's and it moved no query among 400 queries",
    );
}

#[test]
fn under_distribution_free_a_no_op_on_a_spent_main_is_not_shown_to_add_nothing() {
    let s = Spent::new();
    let (code, r) = s.check_changed("distribution-free", |_, v| v);
    assert_eq!(code, 1, "{r}");
    assert_eq!(drift_row(&r)["status"], "added");
    let g = drift_gate(&r);
    assert_eq!(g["fails_build"], true);
    let detail = g["detail"].as_str().unwrap();
    assert_contains(detail, "may add to the drift");
    assert_contains(
        detail,
        "it moved no query among 400 queries, but under guarantee = \"distribution-free\"",
    );
    // The change's own interval is the distribution-free one: it reaches an unseen loss,
    // about 1 − 0.025^(1/400) = 0.0092 below zero.
    let lo = drift_row(&r)["change"]["ci"][0].as_f64().unwrap();
    assert!((-0.0125..=-0.006).contains(&lo), "{lo}");
}

#[test]
fn under_distribution_free_a_clear_gain_on_a_spent_main_inherits() {
    // Not vacuous: a change that shows it improves beyond the unseen query's reach passes.
    let s = Spent::new();
    // +0.02 on every query: the candidate still drifts past the budget (main lost about 0.05).
    let (code, r) = s.check_changed("distribution-free", |_, v| (v + 0.02).min(1.0));
    assert_eq!(code, 0, "{r}");
    assert_eq!(drift_row(&r)["status"], "inherited");
    let w = warnings(&r).join("\n");
    assert_contains(
        &w,
        "this change passes because it is shown not to add to the drift",
    );
}

#[test]
fn under_distribution_free_a_drift_gate_on_an_unbounded_metric_needs_its_worst_loss() {
    let ctx = TestContext::new();
    ctx.gate(
        "[inputs]\nbaseline = \"b.jsonl\"\ncandidate = \"c.jsonl\"\n[verdict]\nguarantee = \"distribution-free\"\n\
         [anchor]\nfile = \"v1.jsonl\"\n[[gate]]\nmetric = \"latency_ms\"\nhigher-is-better = false\nmax-drift = 5\n",
    );
    let o = ctx.check(&[]).expect(2);
    let err = &o.stderr;
    assert_contains(err, "gate.toml:9");
    assert_contains(err, "max-unit-loss");
}

#[test]
fn a_candidate_equal_to_the_anchor_on_a_spent_main_is_within_and_not_untouched() {
    // The candidate repairs main back to the anchor: nothing moved against the anchor, but the
    // change moved every drifted query against the baseline, so the verdict is a pass.
    let s = Spent::new();
    let anchor: Vec<f64> = s
        .rows
        .iter()
        .map(|r| r["ndcg@10"].as_f64().unwrap())
        .collect();
    for g in ["regular", "distribution-free"] {
        let (code, r) = s.check_changed(g, |i, _| anchor[i]);
        assert_eq!(code, 0, "{g}: {r}");
        assert_eq!(drift_row(&r)["status"], "within", "{g}");
        assert_eq!(drift_gate(&r)["status"], "pass", "{g}");
        assert_eq!(r["verdict"], "pass", "{g}");
    }
}
