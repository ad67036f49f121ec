//! Re-runs cannot buy a pass: through the binary against a local stand-in for the GitHub API
//! (wiremock) that keeps the pull request's one comment and lists its changed files. Each class
//! of docs/hostile.md ("Re-runs and the comment's state") has its test here: every rule judged
//! on the pooled attempts, attempts keyed by the change rather than the head commit, a bounded
//! state whose values are checked when read back, and the sticky comment's identity.

use std::path::Path;

use crate::support::github::*;
use crate::support::{GateFile, TestContext};
use serde_json::{json, Value};
use wiremock::matchers::{method, path};
use wiremock::{Mock, ResponseTemplate};

const N: usize = 300;
const FILES: &str = "/repos/octo/repo/pulls/7/files";

/// A deterministic number in [0, 1) for (query, stream).
fn unit(i: usize, stream: u64) -> f64 {
    let mut z = (i as u64)
        .wrapping_mul(0x9e37_79b9_7f4a_7c15)
        .wrapping_add(stream.wrapping_mul(0xbf58_476d_1ce4_e5b9));
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    ((z ^ (z >> 31)) >> 11) as f64 / (1u64 << 53) as f64
}

fn baseline(i: usize) -> f64 {
    0.3 + 0.4 * unit(i, 1)
}

/// One run of the candidate: the baseline moved by `shift`, with run-to-run noise (`stream`).
fn candidate(shift: f64, stream: u64) -> String {
    (0..N)
        .map(|i| {
            let noise = (unit(i, stream) - 0.5) * 0.1;
            let v = (baseline(i) + shift + noise).clamp(0.0, 1.0);
            format!("{{\"query_id\":\"q{i}\",\"ndcg@10\":{v}}}\n")
        })
        .collect()
}

/// The pull request's changed files as GitHub lists them (`blob` stands for the content).
fn listing(blob: &str) -> Value {
    json!([
        { "filename": "retriever/rank.py", "status": "modified", "sha": blob },
        { "filename": "results/candidate.jsonl", "status": "modified", "sha": "c0ffee" },
    ])
}

struct Repo {
    /// The repository's folder; its runs get an empty environment but what each sets.
    ctx: TestContext,
    gh: Gh,
    comment: std::cell::RefCell<Option<String>>,
    /// The listing `pulls/7/files` answers (None: 404, as on a forge that cannot list it).
    files: std::cell::RefCell<Option<Value>>,
    /// The finished runs of the workflow on the pull request's branch, as GitHub lists them
    /// (None: the runs routes answer 404). Each check is run number = its run id.
    runs: std::cell::RefCell<Option<Vec<Value>>>,
    /// The event of this check's run as GitHub records it.
    event: std::cell::Cell<&'static str>,
}

struct Run {
    code: i32,
    report: Value,
    stderr: String,
    /// How many comments the run created (a second comment is a lost identity).
    created: usize,
}

impl Repo {
    fn new(gate: &str) -> Repo {
        let ctx = TestContext::new().env_clear();
        let base: String = (0..N)
            .map(|i| format!("{{\"query_id\":\"q{i}\",\"ndcg@10\":{}}}\n", baseline(i)))
            .collect();
        ctx.write("baseline.jsonl", base);
        ctx.gate(gate);
        Repo {
            ctx,
            gh: Gh::start(),
            comment: Default::default(),
            files: Default::default(),
            runs: Default::default(),
            event: std::cell::Cell::new("pull_request"),
        }
    }

    fn plain() -> Repo {
        Repo::new(
            &GateFile::new("baseline.jsonl", "candidate.jsonl")
                .id("prod")
                .resamples(2000)
                .gate("ndcg@10", "max-drop = 0.02")
                .to_string(),
        )
    }

    fn serve(&self) {
        self.gh.reset();
        let listed: Vec<Value> = self
            .comment
            .borrow()
            .iter()
            .map(|b| comment(101, b))
            .collect();
        self.gh.mount(list(listed));
        self.gh.mount(create().respond_with(created(101)));
        self.gh.mount(update(101).respond_with(updated(101)));
        let files = match &*self.files.borrow() {
            Some(v) => ResponseTemplate::new(200).set_body_json(v),
            None => ResponseTemplate::new(404).set_body_json(json!({"message": "Not Found"})),
        };
        self.gh.mount(
            Mock::given(method("GET"))
                .and(path(FILES))
                .respond_with(files),
        );
    }

    /// `check --comment` on head `sha` (one character, repeated), CI run `run`/`attempt`.
    fn pr_run(&self, sha: char, (run, attempt): (u32, u32), cand: &str, key: Option<&str>) -> Run {
        std::fs::write(self.ctx.path().join("candidate.jsonl"), cand).unwrap();
        self.serve();
        if let Some(finished) = &*self.runs.borrow() {
            let me = json!({
                "id": run, "run_number": run, "workflow_id": 77, "head_branch": "tune",
                "event": self.event.get(), "conclusion": null,
                "head_repository": { "full_name": "octo/repo" },
            });
            self.gh.mount(
                Mock::given(method("GET"))
                    .and(path(format!("/repos/octo/repo/actions/runs/{run}")))
                    .respond_with(ResponseTemplate::new(200).set_body_json(me)),
            );
            self.gh.mount(
                Mock::given(method("GET"))
                    .and(path("/repos/octo/repo/actions/workflows/77/runs"))
                    .and(wiremock::matchers::query_param("branch", "tune"))
                    .and(wiremock::matchers::query_param("event", "pull_request"))
                    .and(wiremock::matchers::query_param("status", "completed"))
                    .respond_with(ResponseTemplate::new(200).set_body_json(
                        json!({ "total_count": finished.len(), "workflow_runs": finished }),
                    )),
            );
        }
        let event = self.ctx.path().join("event.json");
        let head = sha.to_string().repeat(40);
        let payload = json!({ "pull_request": { "number": 7, "head": { "sha": head } } });
        std::fs::write(&event, payload.to_string()).unwrap();
        let mut cmd = self.ctx.command();
        cmd.env("GITHUB_ACTIONS", "true")
            .env("GITHUB_TOKEN", TOKEN)
            .env("GITHUB_REPOSITORY", "octo/repo")
            .env("GITHUB_API_URL", self.gh.server.uri())
            .env("GITHUB_EVENT_PATH", &event)
            .env("GITHUB_RUN_ID", run.to_string())
            .env("GITHUB_RUN_ATTEMPT", attempt.to_string());
        if let Some(k) = key {
            cmd.env("RAG_GATE_STATE_KEY", k);
        }
        let out = cmd
            .arg("check")
            .arg(self.ctx.path().join("gate.toml"))
            .args(["--comment", "--export-json"])
            .arg(self.ctx.path().join("report.json"))
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        let requests = self.gh.requests();
        let written = requests
            .iter()
            .rfind(|r| matches!(r.method.as_str(), "POST" | "PATCH"))
            .map(|r| {
                let v: Value = serde_json::from_slice(&r.body).unwrap();
                v["body"].as_str().unwrap().to_string()
            });
        if written.is_some() {
            *self.comment.borrow_mut() = written;
        }
        Run {
            code: out.status.code().unwrap(),
            report: std::fs::read(self.ctx.path().join("report.json"))
                .map(|b| serde_json::from_slice(&b).unwrap())
                .unwrap_or_else(|e| panic!("{e}: {stderr}")),
            created: requests
                .iter()
                .filter(|r| r.method.as_str() == "POST")
                .count(),
            stderr,
        }
    }

    fn body(&self) -> String {
        self.comment.borrow().clone().expect("a comment was posted")
    }
}

fn warnings(r: &Value) -> String {
    r["warnings"].to_string()
}

fn earlier_results(r: &Value) -> Vec<String> {
    r["attempts"]["earlier"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|e| {
                    format!(
                        "{} {}",
                        e["verdict"].as_str().unwrap(),
                        e["results"].as_str().unwrap()
                    )
                })
                .collect()
        })
        .unwrap_or_default()
}

/// Class `rerun-empty-commit`: attempts are keyed by the pull request's change, so an empty
/// commit, an amend and a rebase of the same change are further attempts of one candidate; a
/// real edit starts a new one.
#[test]
fn rerun_empty_commit_amend_and_rebase_are_attempts_of_one_candidate() {
    let repo = Repo::plain();
    *repo.files.borrow_mut() = Some(listing("b10b1"));
    // The change really costs about 0.04: two attempts on commit a say so.
    let one = repo.pr_run('a', (1, 1), &candidate(-0.04, 11), None);
    assert_eq!(one.code, 1, "{}", one.stderr);
    let two = repo.pr_run('a', (1, 2), &candidate(-0.04, 12), None);
    assert_eq!(two.code, 1);
    // The lucky results alone pass (another pull request, nothing pooled).
    let alone = Repo::plain();
    assert_eq!(
        alone.pr_run('a', (1, 1), &candidate(0.01, 13), None).code,
        0
    );
    // `git commit --allow-empty`: a new head SHA, the same change: attempt 3, pooled, fails.
    let empty = repo.pr_run('b', (2, 1), &candidate(0.01, 13), None);
    assert_eq!(empty.code, 1, "{}", empty.stderr);
    assert_eq!(empty.report["attempts"]["attempt"], 3);
    assert_eq!(empty.report["attempts"]["runs"], 3);
    assert_eq!(
        earlier_results(&empty.report),
        ["fail pooled", "fail pooled"]
    );
    // An amend and a rebase onto a main that moved elsewhere: the same files, the same blobs.
    let amend = repo.pr_run('c', (3, 1), &candidate(-0.035, 14), None);
    assert_eq!(
        (amend.code, amend.report["attempts"]["attempt"].clone()),
        (1, json!(4))
    );
    let rebase = repo.pr_run('d', (4, 1), &candidate(-0.035, 15), None);
    assert_eq!(
        (rebase.code, rebase.report["attempts"]["attempt"].clone()),
        (1, json!(5))
    );
    assert_eq!(rebase.report["attempts"]["runs"], 5);
    // A real edit of the retriever: another change, judged on its own.
    *repo.files.borrow_mut() = Some(listing("e0e0e"));
    let edit = repo.pr_run('e', (5, 1), &candidate(0.01, 13), None);
    assert!(
        edit.report.get("attempts").is_none(),
        "{}",
        edit.report["attempts"]
    );
    assert_eq!(edit.code, 0, "{}", edit.stderr);
    // Without a listing (a forge that refuses it), the run says attempts are per commit.
    *repo.files.borrow_mut() = None;
    let unlisted = repo.pr_run('f', (6, 1), &candidate(0.01, 13), None);
    assert!(
        warnings(&unlisted.report).contains(
            "attempts are counted per commit: the pull request's changed files could not be listed"
        ),
        "{}",
        warnings(&unlisted.report)
    );
}

/// Class `rerun-fail-to-pass`: a pass after a failing attempt of the same change is flagged,
/// however small the move.
#[test]
fn rerun_fail_to_pass_of_one_change_is_flagged_whatever_the_move() {
    let repo = Repo::plain();
    *repo.files.borrow_mut() = Some(listing("f1f1f"));
    let one = repo.pr_run('a', (1, 1), &candidate(-0.0185, 61), None);
    assert_eq!(one.code, 1, "{}", one.report["gates"]);
    // An empty commit; the pooled estimate moves well within the noise, and passes.
    let two = repo.pr_run('b', (2, 1), &candidate(-0.005, 62), None);
    assert_eq!(two.code, 0, "{}", two.report["gates"]);
    let w = warnings(&two.report);
    assert!(
        w.contains("pass after a fail with nothing the evaluation reads changed: bbbbbbb is the same change as its failing attempt(s) 1"),
        "{w}"
    );
    assert!(repo
        .body()
        .contains("pass after a fail with nothing the evaluation reads changed"));
}

/// Writes `rows` as JSONL to `out` with `sidecar` re-tied to them.
fn with_sidecar(out: &Path, text: &str, sidecar: &Value) {
    std::fs::write(out, text).unwrap();
    let mut s = sidecar.clone();
    s["rows-sha256"] = rag_gate::protocol::sha256_hex(text.as_bytes()).into();
    std::fs::write(format!("{}.protocol.json", out.display()), s.to_string()).unwrap();
}

/// A protocol fingerprint for the N generated query ids (from `rag-gate eval` of a generated
/// collection with those ids).
fn fingerprint(dir: &Path) -> Value {
    let (mut qrels, mut run) = (String::new(), String::new());
    for q in 0..N {
        for j in 0..4 {
            qrels.push_str(&format!("q{q} 0 q{q}d{j} {}\n", (q + j) % 3));
            run.push_str(&format!(
                "q{q} Q0 q{q}d{} {} {} gen\n",
                (j + q) % 4,
                j + 1,
                4 - j
            ));
        }
    }
    let (qp, rp, out) = (
        dir.join("qrels.txt"),
        dir.join("run.txt"),
        dir.join("eval.jsonl"),
    );
    std::fs::write(&qp, qrels).unwrap();
    std::fs::write(&rp, run).unwrap();
    let o = TestContext::new()
        .command()
        .args(["eval", "--metrics", "ndcg@10", "--qrels"])
        .arg(&qp)
        .arg("--run")
        .arg(&rp)
        .arg("-o")
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    serde_json::from_slice(&std::fs::read(dir.join("eval.jsonl.protocol.json")).unwrap()).unwrap()
}

/// Class `rerun-drift-pooled`: `max-drift` and the inherited-drift rule read the pooled
/// attempts, and the drift row shows the pooled candidate.
#[test]
fn rerun_drift_pooled_max_drift_reads_every_attempt() {
    let gate =
        "id = \"prod\"\n[inputs]\nbaseline = \"baseline.jsonl\"\ncandidate = \"candidate.jsonl\"\n\
                [bootstrap]\nresamples = 2000\n[anchor]\nfile = \"anchor.jsonl\"\n\
                [[gate]]\nmetric = \"ndcg@10\"\nmax-drop = 0.1\nmax-drift = 0.02\n";
    let repo = Repo::new(gate);
    *repo.files.borrow_mut() = Some(listing("d1d1d"));
    let fp = fingerprint(repo.ctx.path());
    let base: String = (0..N)
        .map(|i| format!("{{\"query_id\":\"q{i}\",\"ndcg@10\":{}}}\n", baseline(i)))
        .collect();
    // main is the anchor: no drift spent; the candidate's own change is all the drift.
    with_sidecar(&repo.ctx.path().join("anchor.jsonl"), &base, &fp);
    with_sidecar(&repo.ctx.path().join("baseline.jsonl"), &base, &fp);
    let attempt = |sha, run, shift, stream| {
        let text = candidate(shift, stream);
        let mut s = fp.clone();
        s["rows-sha256"] = rag_gate::protocol::sha256_hex(text.as_bytes()).into();
        std::fs::write(
            repo.ctx.path().join("candidate.jsonl.protocol.json"),
            s.to_string(),
        )
        .unwrap();
        repo.pr_run(sha, (run, 1), &text, None)
    };
    let one = attempt('a', 1, -0.04, 11);
    assert_eq!(one.code, 1, "{}", one.stderr);
    let two = attempt('a', 2, -0.04, 12);
    assert_eq!(two.code, 1);
    // Alone, the lucky third run is within the drift budget.
    let lone = Repo::new(gate);
    for f in ["anchor.jsonl", "baseline.jsonl"] {
        with_sidecar(&lone.ctx.path().join(f), &base, &fp);
    }
    let text = candidate(0.01, 13);
    with_sidecar(&lone.ctx.path().join("candidate.jsonl"), &text, &fp);
    let alone = lone.pr_run('a', (1, 1), &text, None);
    assert_eq!(alone.code, 0, "alone: {}", alone.report["gates"]);
    // As the third attempt: every rule, the drift rule included, reads the three runs.
    let three = attempt('b', 3, 0.01, 13);
    assert_eq!(three.code, 1, "{}", three.report["gates"]);
    assert_eq!(three.report["attempts"]["runs"], 3);
    let row = &three.report["anchor"]["drift"][0];
    let pooled = three.report["comparisons"][0]["delta"].as_f64().unwrap();
    let drift = row["candidate"]["estimate"].as_f64().unwrap();
    // main is the anchor, so the pooled candidate's drift is its pooled change.
    assert!(
        (drift - pooled).abs() < 1e-9,
        "drift {drift}, pooled change {pooled}"
    );
    assert!(pooled < -0.015, "{pooled}");
    assert_eq!(row["status"], "crossed", "{row}");
    let drift_gate = three.report["gates"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["rule"] == "max-drift")
        .expect("a drift gate");
    assert_eq!(drift_gate["status"], "fail", "{drift_gate}");
}

/// A comment body holding `state` under prod's marker, as an older or hostile run left it.
fn body_with(state: &rag_gate::publish::state::State, key: Option<&[u8]>) -> String {
    let marker = rag_gate::report::markdown::marker("prod");
    let block = rag_gate::publish::state::block(state, "octo/repo#7/prod", key);
    format!("{marker}\n### ❌ rag-gate failed\n\nreport\n\n{block}")
}

fn attempt_values(shift: f64, stream: u64) -> rag_gate::model::looks::AttemptValues {
    // The pairing's order: query ids in byte order.
    let mut rows: Vec<(String, f64)> = candidate(shift, stream)
        .lines()
        .map(|l| {
            let v: Value = serde_json::from_str(l).unwrap();
            (
                v["query_id"].as_str().unwrap().to_string(),
                v["ndcg@10"].as_f64().unwrap(),
            )
        })
        .collect();
    rows.sort_by(|a, b| a.0.cmp(&b.0));
    let ids: Vec<String> = rows.iter().map(|r| r.0.clone()).collect();
    let v: Vec<f64> = rows.iter().map(|r| r.1).collect();
    rag_gate::model::looks::AttemptValues {
        ids: rag_gate::check::attempts::ids_hash(&ids),
        metrics: [("ndcg@10".to_string(), vec![v])].into(),
    }
}

/// Class `rerun-thousand-attempts`: a state of 1,000 attempts (written by a run without a cap)
/// is folded within the budget; the marker and the verdict stay in the comment, the next runs
/// read it back and count on (no second comment, no restart at attempt 1).
#[test]
fn rerun_thousand_attempts_keep_the_marker_the_verdict_and_the_count() {
    use rag_gate::model::Verdict;
    use rag_gate::publish::state::*;
    let repo = Repo::plain();
    let commit = "a".repeat(40);
    let attempts: Vec<StoredAttempt> = (1..=1000u32)
        .map(|k| {
            let v = attempt_values(-0.04, 1000 + k as u64);
            StoredAttempt::new(k, Some(format!("{k}/1")), Verdict::Fail, &v)
        })
        .collect();
    let state = State {
        looks: vec![StoredLook {
            commit: commit.clone(),
            change: None,
            verdict: Verdict::Fail,
            rows: Vec::new(),
            attempts,
            summary: None,
        }],
        dropped_looks: 0,
        reference: None,
    };
    *repo.comment.borrow_mut() = Some(body_with(&state, None));
    let next = repo.pr_run('a', (2000, 1), &candidate(0.02, 7), None);
    assert_eq!(next.created, 0, "a second comment: {}", next.stderr);
    let a = &next.report["attempts"];
    assert_eq!(a["attempt"], 1001, "{a}");
    let s = &a["summarised"];
    assert_eq!(s["results"], "pooled", "{a}");
    assert_eq!(s["first"], 1);
    let folded = s["verdicts"]["fail"].as_u64().unwrap();
    let kept = a["earlier"].as_array().unwrap().len() as u64;
    assert_eq!(folded + kept, 1000, "{a}");
    assert_eq!(a["runs"].as_u64().unwrap(), 1001, "{a}");
    // 1,000 failing runs outweigh one lucky one.
    assert_eq!(next.code, 1);
    assert_eq!(
        crate::report_schema::violations(&next.report),
        Vec::<String>::new()
    );
    let body = repo.body();
    assert!(
        body.starts_with("<!-- rag-gate:v1 id=prod"),
        "{}",
        &body[..200]
    );
    assert!(
        body.contains("rag-gate failed") || body.contains("❌"),
        "{}",
        &body[..400]
    );
    assert!(body.len() <= 65_536, "{}", body.len());
    let block = &body[body.find("<!-- rag-gate:state").unwrap()..];
    assert!(block.len() <= BUDGET, "{}", block.len());
    // The next run reads the folded state back and counts on.
    let after = repo.pr_run('a', (2001, 1), &candidate(0.02, 8), None);
    assert_eq!(after.created, 0);
    assert_eq!(after.report["attempts"]["attempt"], 1002);
    assert_eq!(after.report["attempts"]["runs"], 1002);
}

/// Class `state-values-checked`: values read back from the state go through the input checks:
/// a forged 5.0 for an nDCG, a NaN or an infinity (under a plain SHA-256 anyone can recompute)
/// are refused with a warning, never pooled.
#[test]
fn state_values_checked_forged_values_are_never_pooled() {
    use rag_gate::model::Verdict;
    use rag_gate::publish::state::*;
    for bad in [5.0, f64::NAN, f64::INFINITY] {
        let repo = Repo::plain();
        let mut v = attempt_values(-0.04, 3);
        v.metrics.get_mut("ndcg@10").unwrap()[0][0] = bad;
        let state = State {
            looks: vec![StoredLook {
                commit: "a".repeat(40),
                change: None,
                verdict: Verdict::Fail,
                rows: Vec::new(),
                attempts: vec![StoredAttempt::new(1, Some("1/1".into()), Verdict::Fail, &v)],
                summary: None,
            }],
            dropped_looks: 0,
            reference: None,
        };
        *repo.comment.borrow_mut() = Some(body_with(&state, None));
        let run = repo.pr_run('a', (2, 1), &candidate(0.0, 4), None);
        let w = warnings(&run.report);
        assert!(
            w.contains("attempt 1 of aaaaaaa: a value read back fails the input checks: metric"),
            "{bad}: {w}"
        );
        assert_eq!(earlier_results(&run.report), ["fail lost"], "{bad}");
        let est = run.report["comparisons"][0]["delta"].as_f64().unwrap();
        assert!(est.is_finite(), "{bad}: {est}");
    }
}

/// Class `comment-identity`: the sticky comment's key is the gate file's path relative to the
/// checkout, however the path is spelled and wherever the run starts.
#[test]
fn comment_identity_is_the_path_from_the_checkout_root() {
    let repo = Repo::new(
        "[inputs]\nbaseline = \"baseline.jsonl\"\ncandidate = \"candidate.jsonl\"\n\
         [bootstrap]\nresamples = 200\n[[gate]]\nmetric = \"ndcg@10\"\nmax-drop = 0.02\n",
    );
    let root = repo.ctx.path().canonicalize().unwrap();
    std::fs::rename(root.join("gate.toml"), root.join("prod.toml")).unwrap();
    std::fs::write(root.join("candidate.jsonl"), candidate(0.0, 5)).unwrap();
    std::fs::create_dir(root.join("sub")).unwrap();
    let abs = root.join("prod.toml").display().to_string();
    let mut ids = Vec::new();
    for (cwd, spelled) in [
        (root.clone(), "prod.toml"),
        (root.clone(), "./prod.toml"),
        (root.clone(), abs.as_str()),
        (root.join("sub"), "../prod.toml"),
    ] {
        repo.serve();
        let out = repo
            .ctx
            .command()
            .env("GITHUB_ACTIONS", "true")
            .env("GITHUB_WORKSPACE", &root)
            .env("GITHUB_TOKEN", TOKEN)
            .env("GITHUB_REPOSITORY", "octo/repo")
            .env("GITHUB_API_URL", repo.gh.server.uri())
            .current_dir(&cwd)
            .args(["check", spelled, "--comment", "--pr", "7"])
            .output()
            .unwrap();
        assert_eq!(
            out.status.code(),
            Some(0),
            "{spelled}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let posted = repo
            .gh
            .requests()
            .into_iter()
            .find(|r| r.method.as_str() == "POST")
            .expect("posted");
        let v: Value = serde_json::from_slice(&posted.body).unwrap();
        let first = v["body"]
            .as_str()
            .unwrap()
            .lines()
            .next()
            .unwrap()
            .to_string();
        ids.push(first.split(" state=").next().unwrap().to_string());
    }
    assert!(ids[0].starts_with("<!-- rag-gate:v1 id=prod."), "{ids:?}");
    assert!(ids.iter().all(|i| *i == ids[0]), "{ids:?}");
}

/// Class `check-many-no-state`: several gate files in one check keep no state, and the run says
/// so (a re-run of them is judged alone).
#[test]
fn check_many_no_state_is_said_in_the_run() {
    let repo = Repo::plain();
    let root = repo.ctx.path();
    std::fs::write(root.join("candidate.jsonl"), candidate(0.0, 5)).unwrap();
    let second = std::fs::read_to_string(root.join("gate.toml"))
        .unwrap()
        .replace("id = \"prod\"", "id = \"staging\"");
    std::fs::write(root.join("staging.toml"), second).unwrap();
    repo.serve();
    let out = repo
        .ctx
        .command()
        .env("GITHUB_ACTIONS", "true")
        .env("GITHUB_TOKEN", TOKEN)
        .env("GITHUB_REPOSITORY", "octo/repo")
        .env("GITHUB_API_URL", repo.gh.server.uri())
        .args([
            "check",
            "gate.toml",
            "staging.toml",
            "--comment",
            "--pr",
            "7",
        ])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(
        stderr.contains("2 gate files in one check keep no state in their combined comment: a re-run, an empty commit or a rebase is judged on its own attempt"),
        "{stderr}"
    );
}

/// Class `state-rolled-back`: with a state key, GitHub's re-run attempts of one CI run are a
/// monotonic reference: a state removed, or replaced by an older signed one, between attempts of
/// a run is reported.
#[test]
fn state_rolled_back_between_attempts_of_a_run_is_reported() {
    let key = Some("s3cret-state-key");
    let repo = Repo::plain();
    *repo.files.borrow_mut() = Some(listing("a0a0a"));
    repo.pr_run('a', (9, 1), &candidate(-0.04, 11), key);
    let after_one = repo.body();
    let two = repo.pr_run('a', (9, 2), &candidate(-0.04, 12), key);
    assert!(
        !warnings(&two.report).contains("holds no record"),
        "{}",
        warnings(&two.report)
    );
    // The older signed state pasted back: attempt 2's record is gone.
    *repo.comment.borrow_mut() = Some(after_one);
    let three = repo.pr_run('a', (9, 3), &candidate(0.01, 13), key);
    assert!(
        warnings(&three.report).contains("this is attempt 3 of CI run 9, but the sticky comment's signed state holds no record of its attempt(s) 2"),
        "{}",
        warnings(&three.report)
    );
    // The state removed: the comment without its block.
    let body = repo.body();
    *repo.comment.borrow_mut() =
        Some(body[..body.find("<!-- rag-gate:state").unwrap()].to_string());
    let four = repo.pr_run('a', (9, 4), &candidate(0.01, 14), key);
    assert!(
        warnings(&four.report).contains("holds no record of its attempt(s) 1, 2, 3"),
        "{}",
        warnings(&four.report)
    );
}

/// Class `ledger-merged-pr`: `ledger record` takes the merged pull request from the forge (the
/// commit's pull requests), not from the head commit's message, which after a rebase merge names
/// the pull request's own "(#801)"; without the forge the message is a labelled fallback.
#[test]
fn ledger_merged_pr_comes_from_the_forge() {
    let repo = Repo::new(
        "[inputs]\nbaseline = \"baseline.jsonl\"\ncandidate = \"results.jsonl\"\n\
         [bootstrap]\nresamples = 200\n[anchor]\nfile = \"anchor.jsonl\"\n\
         [[gate]]\nmetric = \"ndcg@10\"\nmax-drop = 0.1\nmax-drift = 0.02\n",
    );
    let root = repo.ctx.path();
    let fp = fingerprint(root);
    let base: String = (0..N)
        .map(|i| format!("{{\"query_id\":\"q{i}\",\"ndcg@10\":{}}}\n", baseline(i)))
        .collect();
    with_sidecar(&root.join("anchor.jsonl"), &base, &fp);
    with_sidecar(&root.join("results.jsonl"), &candidate(-0.01, 3), &fp);
    let event = root.join("push.json");
    let message = "Tune the reranker (#801)\n\nrebased onto main";
    std::fs::write(
        &event,
        json!({ "head_commit": { "message": message } }).to_string(),
    )
    .unwrap();
    let sha = "f".repeat(40);
    let record = |forge: bool| {
        repo.gh.reset();
        if forge {
            repo.gh.mount(
                Mock::given(method("GET"))
                    .and(path(format!("/repos/octo/repo/commits/{sha}/pulls")))
                    .respond_with(ResponseTemplate::new(200).set_body_json(json!([
                        { "number": 801, "merge_commit_sha": "e".repeat(40), "merged_at": null },
                        { "number": 820, "merge_commit_sha": sha, "merged_at": "2026-12-01T10:00:00Z" }
                    ]))),
            );
        }
        let out = repo
            .ctx
            .command()
            .env("GITHUB_TOKEN", TOKEN)
            .env("GITHUB_REPOSITORY", "octo/repo")
            .env("GITHUB_API_URL", repo.gh.server.uri())
            .env("GITHUB_EVENT_PATH", &event)
            .args([
                "ledger",
                "record",
                "gate.toml",
                "--results",
                "results.jsonl",
                "--commit",
                &sha,
            ])
            .output()
            .unwrap();
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let ledger: Value =
            serde_json::from_slice(&std::fs::read(root.join("results.jsonl.ledger.json")).unwrap())
                .unwrap();
        (
            ledger["entries"][0]["pr"].clone(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let (pr, stderr) = record(true);
    assert_eq!(pr, 820, "{stderr}");
    assert!(
        !stderr.contains("read from the head commit's message"),
        "{stderr}"
    );
    let (pr, stderr) = record(false);
    assert_eq!(pr, 801);
    assert!(
        stderr.contains("the merged pull request #801 was read from the head commit's message, not from the forge (listing the pull requests of commit fffffff: GitHub answered 404"),
        "{stderr}"
    );
}

/// Class `ledger-merged-mr-gitlab`: on GitLab, `ledger record` takes the merge request from
/// GitLab's merge requests of the commit (the one whose merge or squash commit it is, else the
/// merged one), not from the message; without the forge, `CI_COMMIT_MESSAGE`'s "See merge
/// request …!N" is a labelled fallback.
#[test]
fn ledger_merged_mr_comes_from_gitlab() {
    let repo = Repo::new(
        "[inputs]\nbaseline = \"baseline.jsonl\"\ncandidate = \"results.jsonl\"\n\
         [bootstrap]\nresamples = 200\n[anchor]\nfile = \"anchor.jsonl\"\n\
         [[gate]]\nmetric = \"ndcg@10\"\nmax-drop = 0.1\nmax-drift = 0.02\n",
    );
    let root = repo.ctx.path();
    let fp = fingerprint(root);
    let base: String = (0..N)
        .map(|i| format!("{{\"query_id\":\"q{i}\",\"ndcg@10\":{}}}\n", baseline(i)))
        .collect();
    with_sidecar(&root.join("anchor.jsonl"), &base, &fp);
    with_sidecar(&root.join("results.jsonl"), &candidate(-0.01, 3), &fp);
    let message =
        "Merge branch 'tune' into 'main'\n\nTune the reranker\n\nSee merge request grp/proj!801";
    let sha = "f".repeat(40);
    let route = format!("/api/v4/projects/42/repository/commits/{sha}/merge_requests");
    let record = |answer: Option<Value>| {
        repo.gh.reset();
        if let Some(a) = answer {
            repo.gh.mount(
                Mock::given(method("GET"))
                    .and(path(route.clone()))
                    .and(wiremock::matchers::header("private-token", TOKEN))
                    .respond_with(ResponseTemplate::new(200).set_body_json(a)),
            );
        }
        let out = repo
            .ctx
            .command()
            .env("GITLAB_CI", "true")
            .env("CI_API_V4_URL", format!("{}/api/v4", repo.gh.server.uri()))
            .env("CI_PROJECT_ID", "42")
            .env("CI_COMMIT_SHA", &sha)
            .env("CI_COMMIT_MESSAGE", message)
            .env("GITLAB_TOKEN", TOKEN)
            .args([
                "ledger",
                "record",
                "gate.toml",
                "--results",
                "results.jsonl",
            ])
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        assert_eq!(out.status.code(), Some(0), "{stderr}");
        assert!(!stderr.contains(TOKEN), "{stderr}");
        let ledger: Value =
            serde_json::from_slice(&std::fs::read(root.join("results.jsonl.ledger.json")).unwrap())
                .unwrap();
        std::fs::remove_file(root.join("results.jsonl.ledger.json")).unwrap();
        (ledger["entries"][0]["pr"].clone(), stderr)
    };
    // A merge commit: the merge request whose merge commit it is, not the other merged one.
    let merged = json!([
        { "iid": 801, "state": "merged", "merge_commit_sha": "e".repeat(40) },
        { "iid": 820, "state": "merged", "merge_commit_sha": sha }
    ]);
    let (pr, stderr) = record(Some(merged));
    assert_eq!(pr, 820, "{stderr}");
    assert!(
        !stderr.contains("read from the head commit's message"),
        "{stderr}"
    );
    // A squash merge: the merge request whose squash commit it is.
    let squashed = json!([
        { "iid": 801, "state": "merged", "merge_commit_sha": null },
        { "iid": 830, "state": "merged", "merge_commit_sha": "e".repeat(40), "squash_commit_sha": sha }
    ]);
    assert_eq!(record(Some(squashed)).0, 830);
    // A rebase merge (no merge or squash commit): the one merged, never an open one.
    let rebased = json!([
        { "iid": 840, "state": "opened" },
        { "iid": 841, "state": "merged" }
    ]);
    assert_eq!(record(Some(rebased)).0, 841);
    // GitLab refuses (404): the message's merge request, labelled as such.
    let (pr, stderr) = record(None);
    assert_eq!(pr, 801);
    assert!(
        stderr.contains("the merged merge request !801 was read from the head commit's message (CI_COMMIT_MESSAGE), not from the forge (listing the merge requests of commit fffffff: GitLab answered 404"),
        "{stderr}"
    );
}

/// A run card whose `query-latency-ms` measurements are `ms`.
fn card(ms: &[f64]) -> String {
    json!({
        "model": { "id": "bge-m3" },
        "conditions": { "hardware": "c6i.2xlarge" },
        "metrics": { "query-latency-ms": ms },
    })
    .to_string()
}

/// The gate file of the run-card tests: a per-query gate and a latency gate on the run cards.
const CARD_GATE: &str = "id = \"prod\"\n[inputs]\nbaseline = \"baseline.jsonl\"\n\
    candidate = \"candidate.jsonl\"\n[bootstrap]\nresamples = 2000\n\
    [efficiency]\nbaseline = \"b.card.json\"\ncandidate = \"c.card.json\"\n\
    [[gate]]\nmetric = \"ndcg@10\"\nmax-drop = 0.02\n\
    [[gate]]\nmetric = \"query-latency-ms\"\nmax-increase = 0.10\n";

const SLOW: [f64; 5] = [18.1, 18.6, 17.9, 18.9, 18.0];
const QUICK: [f64; 5] = [12.0, 12.3, 12.1, 12.5, 11.9];

/// A repository with the run-card gate, main's card written.
fn card_repo() -> Repo {
    let repo = Repo::new(CARD_GATE);
    *repo.files.borrow_mut() = Some(listing("c4c4c"));
    std::fs::write(
        repo.ctx.path().join("b.card.json"),
        card(&[12.1, 12.4, 11.9, 12.6, 12.0]),
    )
    .unwrap();
    repo
}

/// Class `rerun-card-worst`: a run-level gate reads every attempt's run card (kept in the
/// comment's state): after a slow card failed it, a re-run of the same change with a quick card
/// still fails, decided by the worst attempt's card, and the report says which.
#[test]
fn rerun_card_worst_attempt_decides_a_run_level_gate() {
    let repo = card_repo();
    let root = repo.ctx.path();
    // Attempt 1: a slow run card fails the latency gate.
    std::fs::write(root.join("c.card.json"), card(&SLOW)).unwrap();
    let one = repo.pr_run('a', (1, 1), &candidate(0.0, 21), None);
    assert_eq!(one.code, 1, "{}", one.report["efficiency"]);
    // A re-run of the same change on a quick card: alone it passes (another pull request).
    std::fs::write(root.join("c.card.json"), card(&QUICK)).unwrap();
    let lone = card_repo();
    std::fs::write(lone.ctx.path().join("c.card.json"), card(&QUICK)).unwrap();
    let alone = lone.pr_run('a', (1, 1), &candidate(0.0, 22), None);
    assert_eq!(alone.code, 0, "{}", alone.report["efficiency"]);
    // Pooled with attempt 1's card, the worst attempt decides: a fail.
    let two = repo.pr_run('a', (1, 2), &candidate(0.0, 22), None);
    assert_eq!(two.code, 1, "{}", two.report["efficiency"]);
    let rule = "gate #2 max-increase query-latency-ms: the run cards ([efficiency])";
    let g = &two.report["efficiency"]["gates"][0];
    assert_eq!(g["passed"], false);
    assert!(
        g["detail"]
            .as_str()
            .unwrap()
            .starts_with("attempt 1's run card, the worst of 2 attempts: "),
        "{g}"
    );
    // The row shows the card that decided: attempt 1's slow mean.
    assert!(
        (g["candidate_value"].as_f64().unwrap() - 18.3).abs() < 1e-9,
        "{g}"
    );
    assert_eq!(two.report["attempts"]["pooled"][0]["rule"], rule);
    assert_eq!(two.report["attempts"]["pooled"][0]["attempts"], 2);
    assert!(two.report["attempts"].get("judged_alone").is_none());
    let body = repo.body();
    assert!(
        body.contains("pooled beyond the results: gate #&#8288;2 max-increase query-latency-ms"),
        "{body}"
    );
    // A third attempt, quick again: still the worst of three.
    let three = repo.pr_run('a', (1, 3), &candidate(0.0, 23), None);
    assert_eq!(three.code, 1);
    assert_eq!(three.report["attempts"]["pooled"][0]["attempts"], 3);
}

/// Class `rerun-rule-judged-alone`: a state recorded without what a rule beyond the per-query
/// results reads (an older rag-gate's) leaves that rule judged on the newest attempt alone; the
/// report says so, and its failure turning into a hold is flagged.
#[test]
fn rerun_rule_judged_alone_is_said_and_its_flip_flagged() {
    let repo = card_repo();
    let root = repo.ctx.path();
    std::fs::write(root.join("c.card.json"), card(&SLOW)).unwrap();
    let one = repo.pr_run('a', (1, 1), &candidate(0.0, 21), None);
    assert_eq!(one.code, 1, "{}", one.report["efficiency"]);
    // The state as an older rag-gate wrote it: no run card kept.
    let scope = "octo/repo#7/prod";
    let found = rag_gate::publish::state::read(&repo.body(), scope, None);
    let rag_gate::publish::state::Found::Trusted(mut state) = found else {
        panic!("{found:?}")
    };
    for a in &mut state.looks[0].attempts {
        assert!(a.extra.as_ref().is_some_and(|x| x.card.is_some()));
        a.extra = None;
    }
    let block = rag_gate::publish::state::block(&state, scope, None);
    let kept = rag_gate::publish::state::without(&repo.body()).to_string();
    *repo.comment.borrow_mut() = Some(format!("{kept}{block}"));
    std::fs::write(root.join("c.card.json"), card(&QUICK)).unwrap();
    let two = repo.pr_run('a', (1, 2), &candidate(0.0, 22), None);
    assert_eq!(two.code, 0, "{}", two.report["gates"]);
    let rule = "gate #2 max-increase query-latency-ms: the run cards ([efficiency])";
    assert_eq!(two.report["attempts"]["runs"], 2);
    assert_eq!(
        two.report["attempts"]["judged_alone"],
        json!([{ "rule": rule, "failed": false }])
    );
    let w = warnings(&two.report);
    assert!(
        w.contains(&format!(
            "{rule}, judged on the newest attempt alone, failed in attempt(s) 1 of aaaaaaa and \
             holds now with nothing the evaluation reads changed"
        )),
        "{w}"
    );
    let body = repo.body();
    assert!(
        body.contains(
            "judged on the newest attempt alone: gate #&#8288;2 max-increase query-latency-ms: \
             the run cards"
        ),
        "{body}"
    );
    assert!(!w.contains("gate #1 max-drop ndcg@10 on all: "), "{w}");
}

/// A TREC run of 40 queries: `top` (unjudged documents) first on every query, then the judged
/// d0..d3.
fn run_with(top: &[&str]) -> String {
    let mut s = String::new();
    for q in 0..40 {
        let docs = top
            .iter()
            .map(|d| d.to_string())
            .chain((0..4).map(|j| format!("d{j}")));
        for (r, d) in docs.enumerate() {
            s.push_str(&format!("q{q} Q0 {d} {} {} gen\n", r + 1, 100 - r));
        }
    }
    s
}

/// The gate file and runs of the judged-bounds tests: both sides are TREC runs of 40 queries.
fn bounds_repo(extra: &str) -> Repo {
    let repo = Repo::new(&format!(
        "id = \"prod\"\n[inputs]\nqrels = \"qrels.txt\"\nbaseline = {{ run = \"baseline.run\" }}\n\
         candidate = {{ run = \"candidate.run\" }}\n[bootstrap]\nresamples = 500\n{extra}\
         [[gate]]\nmetric = \"ndcg@10\"\nmax-drop = 0.02\n"
    ));
    *repo.files.borrow_mut() = Some(listing("b0b0b"));
    let root = repo.ctx.path();
    let qrels: String = (0..40)
        .flat_map(|q| (0..4).map(move |j| format!("q{q} 0 d{j} {}\n", u8::from(j < 2))))
        .collect();
    std::fs::write(root.join("qrels.txt"), qrels).unwrap();
    std::fs::write(root.join("baseline.run"), run_with(&[])).unwrap();
    repo
}

/// Class `rerun-bounds-pooled`: the judged bounds read every attempt (each side's value at each
/// bound, per query, kept in the comment's state and averaged): attempt 1's candidate ranks an
/// unjudged document first on every query (its `max-drop` is unreliable: a failure); a re-run
/// of the same change that ranks none (reliable alone) is still unreliable on the pooled bounds.
#[test]
fn rerun_bounds_pooled_over_every_attempt() {
    let gate = "[judged]\non-unreliable = \"fail\"\n";
    let repo = bounds_repo(gate);
    let root = repo.ctx.path();
    std::fs::write(root.join("candidate.run"), run_with(&["u0"])).unwrap();
    let one = repo.pr_run('a', (3, 1), "", None);
    assert_eq!(one.code, 1, "{}", one.stderr);
    assert_eq!(one.report["gates"][0]["judged"]["unreliable"], true);
    // The re-run alone (another pull request): reliable.
    let lone = bounds_repo(gate);
    std::fs::write(lone.ctx.path().join("candidate.run"), run_with(&[])).unwrap();
    let alone = lone.pr_run('a', (3, 1), "", None);
    assert_eq!(alone.report["gates"][0]["judged"]["unreliable"], false);
    std::fs::write(root.join("candidate.run"), run_with(&[])).unwrap();
    let two = repo.pr_run('a', (3, 2), "", None);
    assert_eq!(two.code, 1, "{}", two.report["gates"]);
    let rule = "gate #1 max-drop ndcg@10 on all: its judged bounds ([judged])";
    assert_eq!(two.report["attempts"]["pooled"][0]["rule"], rule);
    assert_eq!(two.report["attempts"]["pooled"][0]["attempts"], 2);
    assert!(two.report["attempts"].get("judged_alone").is_none());
    let j = &two.report["gates"][0]["judged"];
    assert_eq!(j["unreliable"], true, "{j}");
    // The pooled lower bound is the mean of the attempts' (attempt 2's is its own delta, 0).
    let lower = |r: &Value| {
        r["comparisons"][0]["judged"]["lower"]["delta"]
            .as_f64()
            .unwrap()
    };
    assert!((lower(&two.report) - lower(&one.report) / 2.0).abs() < 1e-9);
}

/// Class `rerun-bounds-pooled`, coverage: `min-judged` reads the candidate's judged@k averaged
/// over the attempts, so a re-run that ranks only judged documents does not lift a candidate
/// whose earlier attempt filled its rankings with unjudged ones.
#[test]
fn rerun_min_judged_reads_the_pooled_coverage() {
    let gate = "[judged]\nmin-judged = 0.7\n[verdict]\non-inconclusive = \"fail\"\n";
    let repo = bounds_repo(gate);
    let root = repo.ctx.path();
    // Ten judged documents a query (d0, d1 relevant); main ranks a non-relevant one first.
    let qrels: String = (0..40)
        .flat_map(|q| (0..10).map(move |j| format!("q{q} 0 d{j} {}\n", u8::from(j < 2))))
        .collect();
    std::fs::write(root.join("qrels.txt"), qrels).unwrap();
    let ranking = |docs: &[String]| -> String {
        (0..40)
            .flat_map(|q| {
                docs.iter()
                    .enumerate()
                    .map(move |(r, d)| format!("q{q} Q0 {d} {} {} gen\n", r + 1, 100 - r))
            })
            .collect()
    };
    let names = |xs: &[&str], prefix: &str, n: usize| -> Vec<String> {
        xs.iter()
            .map(|x| x.to_string())
            .chain((0..n).map(|i| format!("{prefix}{i}")))
            .collect()
    };
    let main = names(&["d2", "d0", "d1"], "", 0)
        .into_iter()
        .chain((3..10).map(|j| format!("d{j}")))
        .collect::<Vec<_>>();
    std::fs::write(root.join("baseline.run"), ranking(&main)).unwrap();
    // Attempt 1: the relevant two first (a gain), then eight unjudged documents: judged@10 0.2.
    std::fs::write(
        root.join("candidate.run"),
        ranking(&names(&["d0", "d1"], "u", 8)),
    )
    .unwrap();
    let one = repo.pr_run('a', (4, 1), "", None);
    assert_eq!(one.code, 1, "{}", one.report["gates"]);
    let covered = |r: &Value| {
        r["comparisons"][0]["judged"]["candidate_judged"]
            .as_f64()
            .unwrap()
    };
    assert!(covered(&one.report) < 0.5, "{}", covered(&one.report));
    // A re-run of the same change that ranks judged documents only: alone, a pass.
    let full: Vec<String> = (0..10).map(|j| format!("d{j}")).collect();
    std::fs::write(root.join("candidate.run"), ranking(&full)).unwrap();
    let two = repo.pr_run('a', (4, 2), "", None);
    assert_eq!(two.code, 1, "{}", two.report["gates"]);
    assert!((covered(&two.report) - (covered(&one.report) + 1.0) / 2.0).abs() < 1e-9);
    let rule = "gate #1 max-drop ndcg@10 on all: its judged bounds ([judged])";
    assert_eq!(
        two.report["attempts"]["pooled"][0]["rule"], rule,
        "{} {}",
        two.report["attempts"], two.report["gates"]
    );
    let g = &two.report["gates"][0];
    assert_eq!(g["status"], "inconclusive", "{g}");
    let detail = g["detail"].as_str().unwrap();
    assert!(
        detail.contains("the candidate's mean judged@10 0.600 < min-judged 0.7"),
        "{detail}"
    );
}

/// A finished run of the workflow: its number, conclusion and head repository.
fn finished(n: u32, conclusion: &str, repo: &str) -> Value {
    json!({ "id": n, "run_number": n, "workflow_id": 77, "head_branch": "tune",
            "event": "pull_request", "conclusion": conclusion,
            "head_repository": { "full_name": repo } })
}

/// Class `state-rolled-back-across-runs`: with a state key, the signed state records the newest
/// workflow run number that wrote it; a run of the pull request that GitHub lists as finished
/// after it means the state went back in time (an older signed state pasted back: reported,
/// and not pooled), and no state at all while earlier runs finished means it was removed.
#[test]
fn state_rolled_back_across_runs_is_reported_and_not_pooled() {
    let key = Some("s3cret-state-key");
    let repo = Repo::plain();
    *repo.files.borrow_mut() = Some(listing("d0d0d"));
    *repo.runs.borrow_mut() = Some(Vec::new());
    let done = |n: u32, c: &str| {
        repo.runs
            .borrow_mut()
            .as_mut()
            .unwrap()
            .push(finished(n, c, "octo/repo"))
    };
    let one = repo.pr_run('a', (1, 1), &candidate(-0.04, 11), key);
    assert_eq!(one.code, 1);
    assert!(!warnings(&one.report).contains("judged without the request's history"));
    let after_one = repo.body();
    done(1, "failure");
    // An empty commit: run 2, attempt 2 of the change, pooled; nothing went back.
    let two = repo.pr_run('b', (2, 1), &candidate(-0.04, 12), key);
    assert_eq!(two.report["attempts"]["attempt"], 2);
    assert!(
        !warnings(&two.report).contains("judged without the request's history"),
        "{}",
        warnings(&two.report)
    );
    done(2, "failure");
    // Run 1's signed state pasted back before run 3: run 2 finished after it.
    *repo.comment.borrow_mut() = Some(after_one);
    let three = repo.pr_run('c', (3, 1), &candidate(0.01, 13), key);
    let w = warnings(&three.report);
    assert!(
        w.contains("the sticky comment's signed state was last written by workflow run #1, but workflow run #2 of this request finished after it (this is workflow run #3): the state was replaced by an older one"),
        "{w}"
    );
    // The replayed state is not trusted: its attempt 1 is not pooled with this one.
    assert!(
        three.report.get("attempts").is_none(),
        "{}",
        three.report["attempts"]
    );
    assert!(repo.body().contains("judged without the request"));
    done(3, "success");
    // The comment deleted before run 4: no state, while runs 1–3 finished.
    *repo.comment.borrow_mut() = None;
    let four = repo.pr_run('d', (4, 1), &candidate(0.01, 14), key);
    assert!(
        warnings(&four.report).contains("the sticky comment holds no state, but workflow runs #1, #2, #3 of this request finished before this one (workflow run #4): the state or the comment was removed"),
        "{}",
        warnings(&four.report)
    );
    done(4, "success");
    // Run 6 after run 4's state: a finished run #5 of a fork's branch of the same name and a
    // cancelled run do not count; nothing is reported.
    repo.runs
        .borrow_mut()
        .as_mut()
        .unwrap()
        .push(finished(5, "failure", "someone/repo"));
    done(5, "cancelled");
    let six = repo.pr_run('e', (6, 1), &candidate(0.01, 15), key);
    assert!(
        !warnings(&six.report).contains("judged without the request's history"),
        "{}",
        warnings(&six.report)
    );
    // A pull_request_target run lists the base branch's runs of every pull request: not counted.
    repo.event.set("pull_request_target");
    let target = repo.pr_run('f', (8, 1), &candidate(0.01, 16), key);
    assert!(
        warnings(&target.report).contains("could not be checked against the forge's runs (workflow run 8 is a pull_request_target run, not a pull_request one"),
        "{}",
        warnings(&target.report)
    );
    repo.event.set("pull_request");
    // Without actions: read the check says it could not be made.
    *repo.runs.borrow_mut() = None;
    let seven = repo.pr_run('f', (7, 1), &candidate(0.01, 16), key);
    assert!(
        warnings(&seven.report).contains("the sticky comment's signed state could not be checked against the forge's runs (reading workflow run 7: GitHub answered 404"),
        "{}",
        warnings(&seven.report)
    );
}

/// A stand-in for GitLab's merge request !7 of project 42: its one note (the state lives in
/// it), its diffs and its pipelines.
struct Lab {
    gh: Gh,
    note: std::cell::RefCell<Option<String>>,
    /// The merge request's pipelines as GitLab lists them (id, status).
    pipelines: std::cell::RefCell<Vec<Value>>,
}

impl Lab {
    const MR: &'static str = "/api/v4/projects/42/merge_requests/7";
    const BOT: &'static str = "project_42_bot";

    fn note(&self, body: &str) -> Value {
        json!({ "id": 500, "body": body, "author": { "username": Lab::BOT }, "system": false })
    }

    /// `check --comment` in pipeline `pipeline` of the merge request, with the state key.
    fn mr_run(&self, repo: &Repo, pipeline: u64, cand: &str) -> Value {
        let root = repo.ctx.path();
        std::fs::write(root.join("candidate.jsonl"), cand).unwrap();
        let gh = &self.gh;
        gh.reset();
        let get = |p: String, body: Value| {
            gh.mount(
                Mock::given(method("GET"))
                    .and(path(p))
                    .respond_with(ResponseTemplate::new(200).set_body_json(body)),
            )
        };
        get(
            "/api/v4/user".into(),
            json!({ "id": 9, "username": Lab::BOT }),
        );
        let listed: Vec<Value> = self.note.borrow().iter().map(|b| self.note(b)).collect();
        get(format!("{}/notes", Lab::MR), Value::Array(listed));
        get(
            format!("{}/diffs", Lab::MR),
            json!([{ "old_path": "rank.py", "new_path": "rank.py", "diff": "@@ -1 +1 @@" }]),
        );
        get(
            format!("{}/pipelines", Lab::MR),
            Value::Array(self.pipelines.borrow().clone()),
        );
        for verb in ["POST", "PUT"] {
            gh.mount(
                Mock::given(method(verb))
                    .respond_with(ResponseTemplate::new(200).set_body_json(self.note("x"))),
            );
        }
        let out = repo
            .ctx
            .command()
            .env("GITLAB_CI", "true")
            .env("CI_API_V4_URL", format!("{}/api/v4", gh.server.uri()))
            .env("CI_PROJECT_ID", "42")
            .env("CI_MERGE_REQUEST_IID", "7")
            .env("CI_COMMIT_SHA", "a".repeat(40))
            .env("CI_PIPELINE_ID", pipeline.to_string())
            .env("CI_JOB_ID", (pipeline * 10).to_string())
            .env("GITLAB_TOKEN", TOKEN)
            .env("RAG_GATE_STATE_KEY", "s3cret-state-key")
            .arg("check")
            .arg(root.join("gate.toml"))
            .args(["--comment", "--export-json"])
            .arg(root.join("report.json"))
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        assert!(!stderr.contains(TOKEN), "{stderr}");
        let written = gh
            .requests()
            .iter()
            .rfind(|r| matches!(r.method.as_str(), "POST" | "PUT"))
            .map(|r| {
                let v: Value = serde_json::from_slice(&r.body).unwrap();
                v["body"].as_str().unwrap().to_string()
            });
        if written.is_some() {
            *self.note.borrow_mut() = written;
        }
        self.pipelines
            .borrow_mut()
            .push(json!({ "id": pipeline, "status": "failed" }));
        serde_json::from_slice(&std::fs::read(root.join("report.json")).unwrap())
            .unwrap_or_else(|e| panic!("{e}: {stderr}"))
    }
}

/// Class `state-rolled-back-gitlab`: on GitLab the monotonic reference is the pipeline id; an
/// older signed state pasted back into the note after a later pipeline finished is reported and
/// not pooled, and a removed note while earlier pipelines finished is reported.
#[test]
fn state_rolled_back_on_gitlab_by_pipeline_ids() {
    let repo = Repo::plain();
    let lab = Lab {
        gh: Gh::start(),
        note: Default::default(),
        pipelines: Default::default(),
    };
    let one = lab.mr_run(&repo, 801, &candidate(-0.04, 11));
    assert!(
        !warnings(&one).contains("judged without"),
        "{}",
        warnings(&one)
    );
    let after_one = lab.note.borrow().clone().expect("a note was posted");
    let two = lab.mr_run(&repo, 805, &candidate(-0.04, 12));
    assert_eq!(two["attempts"]["attempt"], 2, "{}", warnings(&two));
    assert!(
        !warnings(&two).contains("judged without"),
        "{}",
        warnings(&two)
    );
    // Pipeline 801's signed state pasted back before pipeline 809.
    *lab.note.borrow_mut() = Some(after_one);
    let three = lab.mr_run(&repo, 809, &candidate(0.01, 13));
    assert!(
        warnings(&three).contains("the sticky comment's signed state was last written by pipeline 801, but pipeline 805 of this request finished after it (this is pipeline 809)"),
        "{}",
        warnings(&three)
    );
    assert!(three.get("attempts").is_none(), "{}", three["attempts"]);
    // The note removed before pipeline 812.
    *lab.note.borrow_mut() = None;
    let four = lab.mr_run(&repo, 812, &candidate(0.01, 14));
    assert!(
        warnings(&four).contains("the sticky comment holds no state, but pipelines 801, 805, 809 of this request finished before this one (pipeline 812)"),
        "{}",
        warnings(&four)
    );
}

/// Class `rerun-judge-corrected-pooled`: a gate on the judge-corrected delta reads every
/// attempt on both its parts (the human-labelled values pooled as runs, the judge's labels'
/// values averaged per query from the comment's state); a weaker run whose re-run is main's own
/// run still fails.
#[test]
fn rerun_judge_corrected_gate_pools_both_parts() {
    let root_dir = env!("CARGO_MANIFEST_DIR");
    let runs = format!("{root_dir}/tests/data/eval/fixtures/trec-covid-r2");
    let judges = format!("{root_dir}/tests/data/judges");
    let repo = Repo::new(&format!(
        "id = \"prod\"\n[inputs]\nbaseline = {{ run = \"{runs}/run.covidex-t5.txt\" }}\n\
         candidate = {{ run = \"candidate.run\" }}\nqrels = \"{judges}/human.qrels\"\n\
         [bootstrap]\nresamples = 500\n\
         [judge]\nqrels = \"{judges}/judge.qrels\"\nmin-labelled = 10\n\
         [[gate]]\nmetric = \"ndcg@10\"\nmax-drop = 0.02\n"
    ));
    *repo.files.borrow_mut() = Some(listing("e1e1e"));
    let cand = repo.ctx.path().join("candidate.run");
    // Attempt 1: the weaker run, which the corrected delta fails.
    std::fs::copy(format!("{runs}/run.covidex-sim.txt"), &cand).unwrap();
    let one = repo.pr_run('a', (5, 1), "", None);
    assert_eq!(one.code, 1, "{}", one.report["gates"]);
    let human = |r: &Value| r["judge"]["deltas"][0]["human"]["delta"].as_f64().unwrap();
    let rule = "gate #1 max-drop ndcg@10 on all: the judge's part of its corrected delta ([judge] gate-on = \"corrected\")";
    assert!(one.report.get("attempts").is_none());
    // A re-run of the same change whose run is main's own: alone it would be untouched.
    std::fs::copy(format!("{runs}/run.covidex-t5.txt"), &cand).unwrap();
    let two = repo.pr_run('a', (5, 2), "", None);
    assert_eq!(two.code, 1, "{}", two.report["gates"]);
    let pooled = &two.report["attempts"]["pooled"];
    assert_eq!(pooled[0]["rule"], rule, "{}", two.report["attempts"]);
    assert_eq!(pooled[0]["attempts"], 2);
    assert_eq!(pooled[0]["failed"], true);
    assert!(two.report["attempts"].get("judged_alone").is_none());
    // Both parts read the two attempts: the human-labelled delta and the judge-only delta are
    // each the mean of the attempts' (half the first one's: the second is main's own run).
    let judge = |r: &Value| {
        r["judge"]["deltas"][0]["judge_only"]["delta"]
            .as_f64()
            .unwrap()
    };
    assert!((human(&two.report) - human(&one.report) / 2.0).abs() < 1e-9);
    assert!(judge(&one.report) != 0.0, "{}", judge(&one.report));
    assert!((judge(&two.report) - judge(&one.report) / 2.0).abs() < 1e-9);
}

/// A gate file with one quantile gate (`statistic`) on nDCG@10.
fn quantile_repo(statistic: &str) -> Repo {
    Repo::new(&format!(
        "id = \"prod\"\n[inputs]\nbaseline = \"baseline.jsonl\"\ncandidate = \"candidate.jsonl\"\n\
         [bootstrap]\nresamples = 2000\n[[gate]]\nmetric = \"ndcg@10\"\nstatistic = \"{statistic}\"\n\
         max-drop = 0.02\n"
    ))
}

/// Class `rerun-quantile-stacked`: a median or p95 gate reads every attempt: the candidate's
/// quantile is taken over the values of all the pooled runs (stacked), so a lucky re-run of a
/// change that failed does not pass on its own draw; the gate row says how many runs it read.
#[test]
fn rerun_quantile_stacked_reads_every_attempt() {
    for statistic in ["median", "p95"] {
        let repo = quantile_repo(statistic);
        *repo.files.borrow_mut() = Some(listing("9a9a9"));
        let one = repo.pr_run('a', (1, 1), &candidate(-0.04, 71), None);
        assert_eq!(one.code, 1, "{statistic}: {}", one.report["gates"]);
        assert!(one.report["gates"][0].get("stacked_runs").is_none());
        // The lucky draw alone passes (another pull request, nothing pooled).
        let alone = quantile_repo(statistic);
        let lone = alone.pr_run('a', (1, 1), &candidate(0.0, 72), None);
        assert_eq!(lone.code, 0, "{statistic}: {}", lone.report["gates"]);
        // An empty commit of the same change: attempt 2, both runs stacked, still failing.
        let two = repo.pr_run('b', (2, 1), &candidate(0.0, 72), None);
        assert_eq!(two.code, 1, "{statistic}: {}", two.report["gates"]);
        let gate = &two.report["gates"][0];
        assert_eq!(gate["stacked_runs"], 2, "{gate}");
        let detail = gate["detail"].as_str().unwrap();
        assert!(
            detail.contains(&format!(
                "the candidate's {statistic} over every value of 2 runs (the pooled attempts, stacked)"
            )),
            "{detail}"
        );
        assert_eq!(two.report["comparisons"][0]["stacked_runs"], 2);
        assert_eq!(two.report["attempts"]["runs"], 2);
        assert_eq!(earlier_results(&two.report), ["fail pooled"]);
        let w = warnings(&two.report);
        assert!(!w.contains("not pooled"), "{w}");
        // The stacked estimate lies between the two runs' own.
        let est = |r: &Value| r["comparisons"][0]["estimate"].as_f64().unwrap();
        let (a, b, both) = (est(&one.report), est(&lone.report), est(&two.report));
        assert!(a < both && both < b, "{statistic}: {a} {both} {b}");
        let body = repo.body();
        assert!(
            body.contains(&format!(
                "| `ndcg@10` ({statistic} over 2 runs, stacked) | all | max-drop |"
            )),
            "{body}"
        );
        assert_eq!(
            crate::report_schema::violations(&two.report),
            Vec::<String>::new()
        );
    }
}

/// Class `rerun-quantile-stacked`, past the cap: the attempts folded into per-query means are
/// runs to a mean gate but not to a quantile; the median gate reads the attempts kept in full and
/// the report names the ones it cannot read.
#[test]
fn rerun_quantile_past_the_cap_says_what_it_reads() {
    use rag_gate::model::Verdict;
    use rag_gate::publish::state::*;
    let repo = Repo::new(
        "id = \"prod\"\n[inputs]\nbaseline = \"baseline.jsonl\"\ncandidate = \"candidate.jsonl\"\n\
         [bootstrap]\nresamples = 2000\n[[gate]]\nmetric = \"ndcg@10\"\nstatistic = \"median\"\n\
         max-drop = 0.02\n[[gate]]\nmetric = \"ndcg@10\"\nmax-drop = 0.02\n",
    );
    let attempts: Vec<StoredAttempt> = (1..=30u32)
        .map(|k| {
            let v = attempt_values(-0.04, 3000 + k as u64);
            StoredAttempt::new(k, Some(format!("{k}/1")), Verdict::Fail, &v)
        })
        .collect();
    let mut state = State {
        looks: vec![StoredLook {
            commit: "a".repeat(40),
            change: None,
            verdict: Verdict::Fail,
            rows: Vec::new(),
            attempts,
            summary: None,
        }],
        dropped_looks: 0,
        reference: None,
    };
    cap(&mut state);
    let kept = state.looks[0].attempts.len();
    assert_eq!(kept, MAX_ATTEMPTS);
    *repo.comment.borrow_mut() = Some(body_with(&state, None));
    let next = repo.pr_run('a', (40, 1), &candidate(0.0, 7), None);
    assert_eq!(next.code, 1, "{}", next.report["gates"]);
    let a = &next.report["attempts"];
    assert_eq!(a["attempt"], 31, "{a}");
    assert_eq!(a["runs"], 31, "{a}");
    let median = next.report["gates"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["statistic"] == "median")
        .unwrap();
    assert_eq!(median["stacked_runs"], kept as u64 + 1, "{median}");
    let w = warnings(&next.report);
    assert!(
        w.contains("attempts 1–6 of aaaaaaa were summarised past the sticky comment's cap (their results kept as per-query means): the mean gates read them, but gate #1 (ndcg@10 median) cannot"),
        "{w}"
    );
}

/// Class `rerun-level-spent`: each attempt of one change that did not pass spends the level
/// the next is judged at, however it was triggered (a CI re-run, an empty commit, an amend, a
/// rebase, a force-push of the same change), and the attempt line and the gate row say which
/// attempt it is and the level it read; a removed state spends the level too.
#[test]
fn rerun_level_spent_over_every_trigger() {
    let key = Some("s3cret-state-key");
    let repo = Repo::plain();
    *repo.files.borrow_mut() = Some(listing("5e5e5"));
    let one = repo.pr_run('a', (1, 1), &candidate(-0.03, 71), key);
    assert_eq!(one.code, 1, "{}", one.report["gates"]);
    assert!(one.report.get("attempts").is_none());
    // The same change, re-triggered: (head, CI run and attempt); each fails again.
    let triggers = [
        ("CI re-run", 'a', (1, 2)),
        ("empty commit", 'b', (2, 1)),
        ("amend", 'c', (3, 1)),
        ("rebase", 'd', (4, 1)),
        ("force-push", 'e', (5, 1)),
    ];
    for (k, (what, sha, run)) in triggers.into_iter().enumerate() {
        let failed = k as u32 + 1;
        let r = repo.pr_run(sha, run, &candidate(-0.03, 72 + k as u64), key);
        let a = &r.report["attempts"];
        assert_eq!(a["attempt"], json!(failed + 1), "{what}: {a}");
        assert_eq!(a["failed_before"], json!(failed), "{what}: {a}");
        let spent = rag_gate::stats::spending::spent_confidence(0.95, failed);
        assert_eq!(a["confidence"].as_f64(), Some(spent), "{what}: {a}");
        let level = rag_gate::verdict::spent::level(spent);
        let line = format!(
            "attempt {} of {}: judged on {} runs",
            failed + 1,
            sha.to_string().repeat(7),
            failed + 1
        );
        let body = repo.body();
        assert!(body.contains(&line), "{what}: {body}");
        assert!(
            body.contains(&format!(
                " at {level}, the level left after {failed} earlier attempt"
            )),
            "{what}: {body}"
        );
        let detail = r.report["gates"][0]["detail"].as_str().unwrap().to_string();
        assert!(
            detail.contains(&format!("judged at {level}")),
            "{what}: {detail}"
        );
    }
    // The state removed from the comment before the next run: the forge lists five earlier
    // runs of the request, which the state cannot account for; they spend the level.
    *repo.runs.borrow_mut() = Some(
        (1..=5)
            .map(|n| finished(n, "failure", "octo/repo"))
            .collect(),
    );
    let body = repo.body();
    *repo.comment.borrow_mut() =
        Some(body[..body.find("<!-- rag-gate:state").unwrap()].to_string());
    let lost = repo.pr_run('f', (6, 1), &candidate(-0.03, 80), key);
    assert!(
        warnings(&lost.report).contains("each of those runs spends the level as a failing attempt"),
        "{}",
        warnings(&lost.report)
    );
    let detail = lost.report["gates"][0]["detail"].as_str().unwrap();
    let level =
        rag_gate::verdict::spent::level(rag_gate::stats::spending::spent_confidence(0.95, 5));
    assert!(detail.contains(&format!("judged at {level}")), "{detail}");
}

/// Class `rerun-level-spent`: a re-run whose pooled interval at the configured 95% would pass
/// fails at the level left after a failing attempt; its comparison still shows the 95% interval,
/// and its gate row the bound it read.
#[test]
fn rerun_level_spent_blocks_a_pass_at_the_configured_level() {
    let repo = Repo::plain();
    *repo.files.borrow_mut() = Some(listing("5a5a5"));
    let one = repo.pr_run('a', (1, 1), &candidate(-0.0185, 61), None);
    assert_eq!(one.code, 1, "{}", one.report["gates"]);
    let two = repo.pr_run('b', (2, 1), &candidate(-0.0155, 62), None);
    let ci95 = two.report["comparisons"][0]["ci"][0].as_f64().unwrap();
    let judged = two.report["gates"][0]["value"].as_f64().unwrap();
    assert!(ci95 >= -0.02, "the 95% bound {ci95} passes");
    assert!(judged < -0.02, "the spent bound {judged} fails");
    assert_eq!(two.code, 1, "{}", two.report["gates"]);
    assert!(two.report["gates"][0]["detail"]
        .as_str()
        .unwrap()
        .contains("judged at 99.75%, the level left after 1 earlier attempt of this change"));
    // The headline shows the bound the verdict read beside the 95% interval.
    let body = repo.body();
    assert!(
        body.contains(&format!(
            "(judged at 99.75%: {})",
            rag_gate::numbers::signed(judged)
        )),
        "{body}"
    );
}
