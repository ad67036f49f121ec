//! Re-runs add evidence, they do not replace it; the pull request's history of looks. Through the
//! binary against a local stand-in for the GitHub API that keeps the PR's one comment between
//! runs: each run reads the sticky comment's hidden state, pools the earlier attempts of the
//! same head commit as replicates of the candidate, and writes the state back.

use std::path::{Path, PathBuf};

use crate::support::command_in;
use crate::support::github::*;
use serde_json::{json, Value};

const N: usize = 300;

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
fn results(dir: &Path, name: &str, shift: f64, stream: u64) -> PathBuf {
    let text: String = (0..N)
        .map(|i| {
            let noise = (unit(i, stream) - 0.5) * 0.1;
            let v = (baseline(i) + shift + noise).clamp(0.0, 1.0);
            format!("{{\"query_id\":\"q{i}\",\"ndcg@10\":{v}}}\n")
        })
        .collect();
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

/// A tree of files: the baseline, the gate file (max-drop 0.02), and the candidate slot.
struct Repo {
    dir: tempfile::TempDir,
    gh: Gh,
    /// The PR's one comment as the stand-in stores it (None before the first post).
    comment: std::cell::RefCell<Option<String>>,
}

struct Run {
    code: i32,
    /// The run created or edited the comment.
    wrote: bool,
    report: Value,
    stdout: String,
    stderr: String,
}

impl Repo {
    fn new() -> Repo {
        Repo::with_id("prod")
    }

    fn with_id(id: &str) -> Repo {
        let dir = tempfile::tempdir().unwrap();
        let base: String = (0..N)
            .map(|i| format!("{{\"query_id\":\"q{i}\",\"ndcg@10\":{}}}\n", baseline(i)))
            .collect();
        std::fs::write(dir.path().join("baseline.jsonl"), base).unwrap();
        std::fs::write(
            dir.path().join("gate.toml"),
            format!(
                "id = \"{id}\"\n[inputs]\nbaseline = \"baseline.jsonl\"\ncandidate = \"candidate.jsonl\"\n\
                 [bootstrap]\nresamples = 2000\n[[gate]]\nmetric = \"ndcg@10\"\nmax-drop = 0.02\n"
            ),
        )
        .unwrap();
        Repo {
            dir,
            gh: Gh::start(),
            comment: Default::default(),
        }
    }

    /// The stand-in: the stored comment listed (written by the Actions bot), a create and an
    /// update that succeed.
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
    }

    /// `check --comment` on head `sha`, run attempt `attempt`, with the candidate moved by
    /// `shift` (noise stream `stream`); the comment the stand-in stores afterwards.
    fn attempt(&self, sha: char, attempt: u32, shift: f64, stream: u64, key: Option<&str>) -> Run {
        self.attempt_with(sha, attempt, shift, stream, key, &[])
    }

    /// [`Repo::attempt`] with more flags; the JSON report goes to `report.json`.
    fn attempt_with(
        &self,
        sha: char,
        attempt: u32,
        shift: f64,
        stream: u64,
        key: Option<&str>,
        extra: &[&str],
    ) -> Run {
        results(self.dir.path(), "candidate.jsonl", shift, stream);
        self.serve();
        let event = self.dir.path().join("event.json");
        let head = sha.to_string().repeat(40);
        let payload = json!({ "pull_request": { "number": 7, "head": { "sha": head } } });
        std::fs::write(&event, payload.to_string()).unwrap();
        let mut cmd = command_in(self.dir.path());
        cmd.env_clear()
            .env("GITHUB_ACTIONS", "true")
            .env("GITHUB_TOKEN", TOKEN)
            .env("GITHUB_REPOSITORY", "octo/repo")
            .env("GITHUB_API_URL", self.gh.server.uri())
            .env("GITHUB_EVENT_PATH", &event)
            .env("GITHUB_RUN_ID", (1000 + sha as u32).to_string())
            .env("GITHUB_RUN_ATTEMPT", attempt.to_string());
        if let Some(k) = key {
            cmd.env("RAG_GATE_STATE_KEY", k);
        }
        let out = cmd
            .arg("check")
            .arg(self.dir.path().join("gate.toml"))
            .args(["--comment", "--export-json"])
            .arg(self.dir.path().join("report.json"))
            .args(extra)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        let written = self
            .gh
            .requests()
            .into_iter()
            .rfind(|r| matches!(r.method.as_str(), "POST" | "PATCH"))
            .map(|r| {
                let v: Value = serde_json::from_slice(&r.body).unwrap();
                v["body"].as_str().unwrap().to_string()
            });
        let wrote = written.is_some();
        if wrote {
            *self.comment.borrow_mut() = written;
        }
        Run {
            code: out.status.code().unwrap(),
            wrote,
            report: std::fs::read(self.dir.path().join("report.json"))
                .map(|b| serde_json::from_slice(&b).unwrap())
                .unwrap_or_else(|e| panic!("{e}: {stderr}")),
            stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
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

#[test]
fn a_lucky_third_attempt_is_judged_on_all_three_and_fails() {
    let repo = Repo::new();
    // The change really costs about 0.04; two attempts say so.
    let one = repo.attempt('a', 1, -0.04, 11, None);
    assert_eq!(one.code, 1, "{}", one.stderr);
    assert!(one.report.get("attempts").is_none(), "a first attempt");
    let two = repo.attempt('a', 2, -0.04, 12, None);
    assert_eq!(two.code, 1, "{}", two.stderr);
    assert_eq!(two.report["attempts"]["runs"], 2);

    // The third attempt alone would pass: checked on its own (another commit's PR) it does.
    let alone = Repo::new();
    let lucky = alone.attempt('a', 1, 0.01, 13, None);
    assert_eq!(lucky.code, 0, "alone: {}", lucky.stderr);

    // As the third attempt of the same commit, it is judged on all three runs and fails.
    let three = repo.attempt('a', 3, 0.01, 13, None);
    assert_eq!(three.code, 1, "{}", three.stderr);
    let a = &three.report["attempts"];
    assert_eq!(a["attempt"], 3);
    assert_eq!(a["runs"], 3);
    assert_eq!(
        a["earlier"],
        json!([
            { "attempt": 1, "verdict": "fail", "results": "pooled" },
            { "attempt": 2, "verdict": "fail", "results": "pooled" },
        ])
    );
    assert_eq!(three.report["noise"]["replicates"], json!([1, 3]));
    assert_eq!(
        crate::report_schema::violations(&three.report),
        Vec::<String>::new()
    );
    // The same attempt checked again in the same run (a second step), in text and HTML.
    let html = repo.dir.path().join("attempt.html");
    let again = repo.attempt_with(
        'a',
        3,
        0.01,
        13,
        None,
        &["--export-html", html.to_str().unwrap()],
    );
    assert_eq!(again.report, three.report);
    let line = "attempt 3 of aaaaaaa: judged on 3 runs (earlier verdicts FAIL, FAIL)";
    assert!(again.stdout.contains(line), "{}", again.stdout);
    assert!(std::fs::read_to_string(&html).unwrap().contains(line));
    let body = repo.body();
    assert!(
        body.contains(
            "**attempt 3 of aaaaaaa: judged on 3 runs (earlier verdicts FAIL, FAIL) at 99.875%, \
             the level left after 2 earlier attempts that did not pass or were lost (its max-drop \
             and max-change rules)**"
        ),
        "{body}"
    );
    // The pooled mean lies between the attempts' own.
    let pooled = three.report["comparisons"][0]["delta"].as_f64().unwrap();
    let own = lucky.report["comparisons"][0]["delta"].as_f64().unwrap();
    assert!(pooled < own - 0.02, "pooled {pooled}, alone {own}");
}

/// The comment as a reader sees it: without its hidden state block.
fn visible(body: &str) -> &str {
    body.split("<!-- rag-gate:state").next().unwrap()
}

#[test]
fn identical_attempts_give_the_identical_report() {
    let repo = Repo::new();
    let one = repo.attempt('b', 1, -0.005, 21, None);
    assert!(one.wrote);
    let first = repo.body();
    for attempt in [2, 3] {
        let again = repo.attempt('b', attempt, -0.005, 21, None);
        assert_eq!(one.code, again.code);
        assert_eq!(one.report, again.report, "attempt {attempt}");
        assert_eq!(one.stdout, again.stdout, "attempt {attempt}");
        // Only the hidden state records the attempt.
        assert_eq!(visible(&repo.body()), visible(&first));
    }
    // A noisy fourth attempt is judged with the first (the identical ones counted once).
    let four = repo.attempt('b', 4, -0.010, 22, None);
    let a = &four.report["attempts"];
    assert_eq!(
        (a["attempt"].clone(), a["runs"].clone()),
        (json!(4), json!(2))
    );
    let results: Vec<&str> = a["earlier"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["results"].as_str().unwrap())
        .collect();
    assert_eq!(results, ["pooled", "identical", "identical"]);
    assert!(repo.body().contains(
        "attempt 4 of bbbbbbb: judged on 2 runs (earlier verdicts PASS, PASS, PASS) at 95%; attempts 2, 3: identical results, counted once"
    ), "{}", repo.body());
}

#[test]
fn a_second_check_in_the_same_run_attempt_replaces_its_record() {
    let repo = Repo::new();
    repo.attempt('c', 1, -0.04, 31, None);
    // The same run attempt checks again (a second step), with other results: not a re-run.
    let again = repo.attempt('c', 1, 0.01, 32, None);
    assert!(again.report.get("attempts").is_none(), "{}", again.stderr);
    assert_eq!(again.code, 0, "{}", again.stderr);
}

#[test]
fn an_edited_state_is_ignored_with_a_warning_never_trusted() {
    let repo = Repo::new();
    let key = Some("s3cret-state-key");
    let one = repo.attempt('d', 1, -0.04, 41, key);
    assert_eq!(one.code, 1);
    // Someone with write access edits the hidden state: one character of its payload.
    let body = repo.body();
    let at = body.find("\n<!--\n").expect("a state block") + 10;
    let mut edited = body.clone().into_bytes();
    edited[at] = if edited[at] == b'A' { b'B' } else { b'A' };
    *repo.comment.borrow_mut() = Some(String::from_utf8(edited).unwrap());
    let two = repo.attempt('d', 2, 0.01, 43, key);
    assert!(
        warnings(&two.report).contains("hidden state was ignored: its state failed its check"),
        "{}",
        warnings(&two.report)
    );
    assert!(two.report.get("attempts").is_none());

    // A state forged without the key (a plain SHA-256 recomputed over an edited payload) is
    // not trusted either when a key is set.
    let forged = Repo::new();
    forged.attempt('d', 1, -0.04, 41, None);
    *repo.comment.borrow_mut() = Some(forged.body());
    let three = repo.attempt('d', 3, 0.01, 43, key);
    assert!(
        warnings(&three.report).contains("its state is not signed, and a state key is set"),
        "{}",
        warnings(&three.report)
    );
    assert!(three.report.get("attempts").is_none());
}

#[test]
fn a_state_copied_from_another_gates_comment_is_ignored() {
    let other = Repo::with_id("staging");
    other.attempt('e', 1, -0.04, 51, None);
    // staging's state pasted under prod's marker: the check covers the gate key, so it fails.
    let repo = Repo::new();
    let pasted = other.body().replacen("id=staging", "id=prod", 1);
    *repo.comment.borrow_mut() = Some(pasted);
    let two = repo.attempt('e', 2, 0.01, 53, None);
    assert!(
        warnings(&two.report).contains("its state failed its check"),
        "{}",
        warnings(&two.report)
    );
    assert!(two.report.get("attempts").is_none());
    assert_eq!(two.code, 0);
}

#[test]
fn the_history_of_looks_flags_a_fail_to_pass_by_changes_within_the_noise() {
    let repo = Repo::new();
    // Commit 1 fails narrowly; commit 2 passes narrowly, having moved less than the noise.
    let one = repo.attempt('1', 1, -0.0185, 61, None);
    assert_eq!(one.code, 1, "{}", one.report["gates"]);
    let two = repo.attempt('2', 1, -0.0165, 61, None);
    assert_eq!(two.code, 0, "{}", two.report["gates"]);
    let looks = &two.report["looks"];
    assert_eq!(looks["looks"].as_array().unwrap().len(), 2, "{looks}");
    assert_eq!(looks["looks"][0]["verdict"], "fail");
    assert_eq!(looks["looks"][1]["verdict"], "pass");
    let tuning = looks["tuning"].as_str().expect("flagged");
    assert!(
        tuning.contains("went from fail (1111111) to pass (2222222) by changes within the noise"),
        "{tuning}"
    );
    assert_eq!(
        crate::report_schema::violations(&two.report),
        Vec::<String>::new()
    );
    let body = repo.body();
    assert!(
        body.contains("**History of looks** (2 commits checked)"),
        "{body}"
    );
    assert!(body.contains("**Possible tuning:**"), "{body}");
    // The text report and the HTML report show the looks too.
    let html = repo.dir.path().join("report.html");
    let again = repo.attempt_with(
        '2',
        1,
        -0.0165,
        61,
        None,
        &["--export-html", html.to_str().unwrap()],
    );
    assert!(
        !again.wrote,
        "the same check again leaves the comment alone"
    );
    assert!(
        again
            .stdout
            .contains("History of looks (2 commits checked)"),
        "{}",
        again.stdout
    );
    assert!(again
        .stdout
        .contains("possible tuning: this pull request went from fail"));
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(page.contains("<h2>History of looks</h2>"), "{page}");
    assert!(page.contains("possible tuning: this pull request went from fail"));
    // A real improvement is no tuning.
    let three = repo.attempt('3', 1, 0.02, 61, None);
    assert_eq!(three.code, 0);
    assert!(three.report["looks"].get("tuning").is_none());
    assert_eq!(three.report["looks"]["looks"].as_array().unwrap().len(), 3);
}
