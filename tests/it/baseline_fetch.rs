//! `rag-gate baseline fetch` through the binary against a local mock of the Actions API
//! (wiremock): the merge-base's run, a fallback to an older ancestor, paginated run lists, an
//! expired artifact, no run at all, the zip's redirect to another host (no token sent there),
//! hostile zips refused with nothing written outside `--to`, a missing permission, the rate limit.

use crate::support;
use support::{Out, TestContext};

use std::io::Write;
use std::path::{Path, PathBuf};

use serde_json::{json, Value};
use support::github::{Gh, TOKEN};
use support::output::{assert_contains, tree};
use wiremock::matchers::{method, path, query_param};
use wiremock::{Mock, ResponseTemplate};

const RUNS: &str = "/repos/octo/repo/actions/workflows/eval.yml/runs";

/// Commit ids c0 (the merge-base) .. c9, each 40 hex digits.
fn sha(i: usize) -> String {
    format!("{i:x}").repeat(40)
}

fn run(id: u64, commit: usize) -> Value {
    json!({
        "id": id, "head_sha": sha(commit), "head_branch": "main", "event": "push",
        "conclusion": "success", "created_at": "2026-11-28T10:00:00Z",
        "html_url": format!("https://github.com/octo/repo/actions/runs/{id}"),
        "head_repository": {"full_name": "octo/repo"}
    })
}

fn zip_of(entries: &[(&str, &[u8])]) -> Vec<u8> {
    let mut w = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let opts = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated);
    for (name, bytes) in entries {
        w.start_file(*name, opts).unwrap();
        w.write_all(bytes).unwrap();
    }
    w.finish().unwrap().into_inner()
}

fn good_zip() -> Vec<u8> {
    zip_of(&[
        ("run.jsonl", b"{\"query_id\":\"q1\",\"ndcg@10\":0.5}\n"),
        ("run.protocol.json", b"{}\n"),
    ])
}

/// The Actions API (`gh`) and the artifact storage on another host (`blob`).
struct World {
    gh: Gh,
    blob: Gh,
    ctx: TestContext,
}

impl World {
    fn new() -> World {
        let w = World {
            gh: Gh::start(),
            blob: Gh::start(),
            ctx: TestContext::new(),
        };
        let commits: Vec<Value> = (0..10).map(|i| json!({"sha": sha(i)})).collect();
        w.gh.mount(
            Mock::given(method("GET"))
                .and(path("/repos/octo/repo/commits"))
                .and(query_param("sha", sha(0)))
                .respond_with(ResponseTemplate::new(200).set_body_json(commits)),
        );
        w
    }

    fn runs(&self, runs: Vec<Value>) {
        self.gh
            .mount(Mock::given(method("GET")).and(path(RUNS)).respond_with(
                ResponseTemplate::new(200).set_body_json(json!({
                    "total_count": runs.len(), "workflow_runs": runs
                })),
            ));
    }

    /// Run `id` has the artifact `baseline` (id 77), whose zip redirects to the blob host.
    fn artifact(&self, id: u64, zip: Vec<u8>) {
        self.gh.mount(
            Mock::given(method("GET"))
                .and(path(format!(
                    "/repos/octo/repo/actions/runs/{id}/artifacts"
                )))
                .respond_with(ResponseTemplate::new(200).set_body_json(json!({
                    "total_count": 1,
                    "artifacts": [{"id": 77, "name": "baseline", "expired": false}]
                }))),
        );
        let to = format!("{}/blob/77.zip?sig=SIGNATURE", self.blob.server.uri());
        self.gh.mount(
            Mock::given(method("GET"))
                .and(path("/repos/octo/repo/actions/artifacts/77/zip"))
                .respond_with(ResponseTemplate::new(302).insert_header("location", to.as_str())),
        );
        self.blob.mount(
            Mock::given(method("GET"))
                .and(path("/blob/77.zip"))
                .respond_with(ResponseTemplate::new(200).set_body_bytes(zip)),
        );
    }

    fn to(&self) -> PathBuf {
        self.ctx.path().join("out").join("baseline")
    }

    fn fetch(&self, extra: &[&str]) -> Out {
        Out::of(
            self.ctx
                .command()
                .args([
                    "baseline",
                    "fetch",
                    "--artifact",
                    "baseline",
                    "--workflow",
                    "eval.yml",
                ])
                .arg("--to")
                .arg(self.to())
                .args(extra)
                .env("GITHUB_TOKEN", TOKEN)
                .env("GITHUB_REPOSITORY", "octo/repo")
                .env("GITHUB_API_URL", self.gh.server.uri())
                .env_remove("GITHUB_EVENT_PATH")
                .env_remove("GITHUB_ACTIONS"),
        )
    }

    fn fetch_base(&self) -> Out {
        self.fetch(&["--base-sha", &sha(0)])
    }

    fn fetch_base_with(&self, workflow: &str) -> Out {
        let mut cmd = self.ctx.command();
        cmd.args([
            "baseline",
            "fetch",
            "--artifact",
            "baseline",
            "--workflow",
            workflow,
        ])
        .arg("--to")
        .arg(self.to())
        .args(["--base-sha", &sha(0)])
        .env("GITHUB_TOKEN", TOKEN)
        .env("GITHUB_REPOSITORY", "octo/repo")
        .env("GITHUB_API_URL", self.gh.server.uri());
        Out::of(&mut cmd)
    }

    fn provenance(&self) -> Value {
        let text = std::fs::read_to_string(self.to().join("rag-gate-baseline.json")).unwrap();
        serde_json::from_str(&text).unwrap()
    }
}

#[test]
fn the_merge_base_run_from_the_event_and_the_zip_without_the_token() {
    let w = World::new();
    let ctx = &w.ctx;
    let event = w.ctx.path().join("event.json");
    let pr = json!({"pull_request": {"number": 7,
        "base": {"sha": sha(0xb)}, "head": {"sha": sha(0xc)}}});
    std::fs::write(&event, pr.to_string()).unwrap();
    w.gh.mount(
        Mock::given(method("GET"))
            .and(path(format!(
                "/repos/octo/repo/compare/{}...{}",
                sha(0xb),
                sha(0xc)
            )))
            .respond_with(
                ResponseTemplate::new(200)
                    .set_body_json(json!({"merge_base_commit": {"sha": sha(0)}})),
            ),
    );
    // A newer run of an ancestor comes first in the list; the merge-base's own run wins.
    w.runs(vec![run(200, 1), run(123456, 0)]);
    w.artifact(123456, good_zip());
    let out = Out::of(
        ctx.command()
            .args([
                "baseline",
                "fetch",
                "--artifact",
                "baseline",
                "--workflow",
                "eval.yml",
            ])
            .arg("--to")
            .arg(w.to())
            .env("GITHUB_TOKEN", TOKEN)
            .env("GITHUB_REPOSITORY", "octo/repo")
            .env("GITHUB_API_URL", w.gh.server.uri())
            .env("GITHUB_EVENT_PATH", &event),
    );
    let out = out.expect(0);
    assert_contains(&out.stderr, "from run 123456 of eval.yml on main@0000000");
    assert_contains(&out.stderr, "(the merge-base itself)");
    assert!(w.to().join("run.jsonl").is_file());
    assert!(w.to().join("run.protocol.json").is_file());
    let p = w.provenance();
    assert_eq!(p["merge-base"], sha(0));
    assert_eq!(p["found"]["commit"], sha(0));
    assert_eq!(p["found"]["commits-behind"], 0);
    assert_eq!(p["found"]["run-id"], 123456);
    assert_eq!(p["found"]["run-date"], "2026-11-28T10:00:00Z");
    assert_eq!(
        p["found"]["files"],
        json!(["run.jsonl", "run.protocol.json"])
    );
    // The API got the token; the storage host never did.
    assert!(w
        .gh
        .requests()
        .iter()
        .all(|r| r.headers.get("authorization").is_some()));
    let blob = w.blob.requests();
    assert_eq!(blob.len(), 1);
    assert!(blob[0].headers.get("authorization").is_none());
    assert!(!format!("{:?}", blob[0].headers).contains(TOKEN));
}

#[test]
fn falls_back_three_commits_and_ignores_pull_request_runs() {
    let w = World::new();
    let mut fork = run(999, 0);
    fork["event"] = json!("pull_request");
    fork["head_repository"] = json!({"full_name": "mallory/repo"});
    let mut failed = run(998, 1);
    failed["conclusion"] = json!("failure");
    w.runs(vec![fork, failed, run(300, 3), run(301, 5)]);
    w.artifact(300, good_zip());
    let out = w.fetch_base();
    let out = out.expect(0);
    assert_contains(&out.stderr, "3 commits behind the merge-base 0000000");
    let p = w.provenance();
    assert_eq!(p["found"]["commit"], sha(3));
    assert_eq!(p["found"]["commits-behind"], 3);
    assert_eq!(p["found"]["run-id"], 300);
}

#[test]
fn follows_the_pages_of_the_run_list() {
    let w = World::new();
    let page2 = format!("{}{RUNS}?page=2", w.gh.server.uri());
    w.gh.mount(
        Mock::given(method("GET"))
            .and(path(RUNS))
            .and(query_param("page", "2"))
            .respond_with(
                ResponseTemplate::new(200).set_body_json(json!({"workflow_runs": [run(401, 1)]})),
            ),
    );
    w.gh.mount(
        Mock::given(method("GET"))
            .and(path(RUNS))
            .and(query_param("status", "success"))
            .respond_with(
                ResponseTemplate::new(200)
                    .insert_header("link", format!("<{page2}>; rel=\"next\"").as_str())
                    .set_body_json(json!({"workflow_runs": [run(400, 5)]})),
            ),
    );
    w.artifact(401, good_zip());
    w.fetch_base().expect(0);
    let p = w.provenance();
    assert_eq!(p["found"]["run-id"], 401);
    assert_eq!(p["found"]["commits-behind"], 1);
}

#[test]
fn an_expired_artifact_is_exit_2_saying_so() {
    let w = World::new();
    w.runs(vec![run(500, 0)]);
    w.gh.mount(
        Mock::given(method("GET"))
            .and(path("/repos/octo/repo/actions/runs/500/artifacts"))
            .respond_with(ResponseTemplate::new(200).set_body_json(json!({
                "artifacts": [{"id": 77, "name": "baseline", "expired": false}]
            }))),
    );
    w.gh.mount(
        Mock::given(method("GET"))
            .and(path("/repos/octo/repo/actions/artifacts/77/zip"))
            .respond_with(ResponseTemplate::new(410)),
    );
    let out = w.fetch_base();
    let out = out.expect(2);
    assert_contains(&out.stderr, "of run 500 has expired");
    assert_contains(&out.stderr, "retention-days");
    assert!(!out.stderr.contains(TOKEN));
    // The reason is kept for check's [baseline] on-missing; --missing-ok makes it a warning.
    assert_contains(w.provenance()["missing"].as_str().unwrap(), "has expired");
    let out = w.fetch(&["--base-sha", &sha(0), "--missing-ok"]);
    let out = out.expect(0);
    assert_contains(&out.stderr, "no baseline fetched");
}

#[test]
fn no_run_at_all_says_how_far_it_looked() {
    let w = World::new();
    w.runs(vec![run(600, 42)]);
    let out = w.fetch_base();
    let out = out.expect(2);
    let err = out.stderr.clone();
    assert_contains(
        &err,
        "no successful run of eval.yml on main for 0000000 or any of its 9 older ancestors",
    );
    assert_contains(&err, "looked through 1 runs on 1 page");
    assert!(w.to().join("rag-gate-baseline.json").is_file());
}

#[test]
fn without_actions_read_the_403_says_which_permission() {
    let w = World::new();
    w.gh.mount(
        Mock::given(method("GET")).and(path(RUNS)).respond_with(
            ResponseTemplate::new(403)
                .set_body_json(json!({"message": "Resource not accessible by integration"})),
        ),
    );
    let out = w.fetch_base();
    let out = out.expect(2);
    assert_contains(&out.stderr, "Resource not accessible by integration");
    assert_contains(&out.stderr, "actions: read");
}

#[test]
fn a_used_up_rate_limit_is_named_and_not_retried() {
    let w = World::new();
    w.gh.mount(
        Mock::given(method("GET"))
            .and(path(RUNS))
            .respond_with(
                ResponseTemplate::new(403)
                    .insert_header("x-ratelimit-remaining", "0")
                    .insert_header("x-ratelimit-reset", "1764590400")
                    .set_body_json(json!({"message": "API rate limit exceeded"})),
            )
            .expect(1),
    );
    let out = w.fetch_base();
    let out = out.expect(2);
    assert_contains(
        &out.stderr,
        "rate limit for this token is used up (it resets at 12:00 UTC)",
    );
    w.gh.verify();
}

/// A zip with `entries` is refused with `why`, and nothing is left anywhere under the temp
/// folder but the (empty) destination.
fn refused(zip: Vec<u8>, why: &str) {
    let w = World::new();
    w.runs(vec![run(700, 0)]);
    w.artifact(700, zip);
    let out = w.fetch_base();
    let out = out.expect(2);
    assert_contains(&out.stderr, why);
    assert_eq!(
        tree(w.ctx.path()),
        ["out", "out/baseline"],
        "{}",
        out.stderr.clone()
    );
}

#[test]
fn a_zip_with_dot_dot_is_refused() {
    refused(
        zip_of(&[("ok.jsonl", b"{}\n"), ("../evil.jsonl", b"{}\n")]),
        "refused entry \"../evil.jsonl\": a `..` part in the path",
    );
    refused(zip_of(&[("a/../../evil", b"x")]), "a `..` part in the path");
}

/// Class `zip-repeated-name`: two central-directory entries of one name (the zip reader keeps
/// the last, `unzip` the first) are refused, naming it.
#[test]
fn a_zip_with_a_repeated_name_is_refused() {
    // Names that differ in one byte, patched to one name in the local headers and the central
    // directory, as a hostile artifact carries them (the zip writer refuses to write one twice).
    let zip = zip_of(&[
        ("run.jsonl", b"{\"query_id\":\"q1\",\"ndcg@10\":0.9}\n"),
        ("ruN.jsonl", b"{\"query_id\":\"q1\",\"ndcg@10\":0.1}\n"),
    ]);
    let mut patched = zip.clone();
    let mut at = 0;
    while let Some(i) = patched[at..].windows(9).position(|x| x == b"ruN.jsonl") {
        patched[at + i..at + i + 9].copy_from_slice(b"run.jsonl");
        at += i + 9;
    }
    assert!(at > 0);
    refused(
        patched,
        "refused entry \"run.jsonl\": the name appears twice",
    );
}

#[test]
fn a_zip_with_an_absolute_path_is_refused() {
    let ctx = TestContext::new();
    let target = ctx.join("abs-evil");
    let name = target.display().to_string();
    refused(zip_of(&[(name.as_str(), b"x")]), "an absolute path");
    assert!(!target.exists());
}

#[test]
fn a_zip_with_a_symlink_is_refused() {
    let mut w = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let opts = zip::write::SimpleFileOptions::default();
    w.add_symlink("link", "/etc/passwd", opts).unwrap();
    w.start_file("link/../x", opts).unwrap();
    let zip = w.finish().unwrap().into_inner();
    refused(zip, "refused entry \"link\": it is a symbolic link");
}

#[test]
fn a_zip_bomb_is_refused() {
    let zeros = vec![0u8; 64 << 20];
    refused(
        zip_of(&[("big.jsonl", &zeros)]),
        "refused entry \"big.jsonl\": it inflates more than 200-fold (a zip bomb?)",
    );
}

/// `zip-declares-a-false-size`: the zip bomb with its compressed size declared as 1 GiB in
/// both headers, so that a ratio of declared sizes passes. The ratio counts the bytes actually
/// read from the zip for the entry: refused all the same, nothing written.
#[test]
fn a_zip_that_lies_about_its_compressed_size_is_refused() {
    let zeros = vec![0u8; 64 << 20];
    let mut zip = zip_of(&[("big.jsonl", &zeros)]);
    let lie = (1u32 << 30).to_le_bytes();
    let local = 0;
    assert_eq!(&zip[local..local + 4], b"PK\x03\x04");
    zip[local + 18..local + 22].copy_from_slice(&lie);
    let central = zip
        .windows(4)
        .position(|w| w == b"PK\x01\x02")
        .expect("a central directory");
    zip[central + 20..central + 24].copy_from_slice(&lie);
    assert!(zip.len() < 1 << 20, "{} bytes", zip.len());
    refused(
        zip,
        "refused entry \"big.jsonl\": it inflates more than 200-fold (a zip bomb?)",
    );
}

/// `fetch-all-or-nothing`: `--to` holds an earlier fetch (its baseline, its sidecar, its
/// provenance) and a folder where the new artifact has a file. The refusal comes before
/// anything moves: every old file is byte for byte as it was, the provenance still describes
/// them, and no staging or backup folder stays behind.
#[test]
fn a_refusal_partway_leaves_the_earlier_fetch_whole() {
    let w = World::new();
    let to = w.to();
    std::fs::create_dir_all(to.join("z.protocol.json")).unwrap();
    std::fs::write(to.join("a.jsonl"), "old baseline\n").unwrap();
    std::fs::write(to.join("a.protocol.json"), "old sidecar\n").unwrap();
    std::fs::write(to.join("rag-gate-baseline.json"), "old provenance\n").unwrap();
    let before = tree(&to);
    w.runs(vec![run(900, 0)]);
    w.artifact(
        900,
        zip_of(&[
            ("a.jsonl", b"new baseline\n"),
            ("a.protocol.json", b"new sidecar\n"),
            ("z.protocol.json", b"{}\n"),
        ]),
    );
    let out = w.fetch_base();
    let out = out.expect(2);
    assert_contains(
        &out.stderr,
        "is a folder; the artifact has a file of that name",
    );
    assert_contains(&out.stderr, "nothing was changed in");
    assert_eq!(tree(&to), before, "{}", out.stderr);
    let read = |n: &str| std::fs::read_to_string(to.join(n)).unwrap();
    assert_eq!(read("a.jsonl"), "old baseline\n");
    assert_eq!(read("a.protocol.json"), "old sidecar\n");
    assert_eq!(read("rag-gate-baseline.json"), "old provenance\n");
}

#[test]
fn check_names_the_fetched_baseline() {
    let examples = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples");
    let w = World::new();
    let ctx = &w.ctx;
    w.runs(vec![run(300, 3)]);
    let rows = std::fs::read(examples.join("baseline.jsonl")).unwrap();
    w.artifact(300, zip_of(&[("baseline.jsonl", &rows)]));
    w.fetch_base().expect(0);
    let gate = w.ctx.path().join("gate.toml");
    let text = format!(
        "[inputs]\nbaseline = \"out/baseline/baseline.jsonl\"\ncandidate = {:?}\nqueries = {:?}\n\
         [baseline]\nmax-commits-behind = 5\n[[gate]]\nmetric = \"ndcg@10\"\nmax-drop = 0.2\n",
        examples.join("candidate.jsonl"),
        examples.join("queries.jsonl")
    );
    std::fs::write(&gate, text).unwrap();
    let out = Out::of(
        ctx.command()
            .arg("check")
            .arg(&gate)
            .args(["--resamples", "200", "--today", "2026-12-01"])
            .env_remove("GITHUB_ACTIONS")
            .env_remove("GITHUB_STEP_SUMMARY"),
    );
    let out = out.expect(0);
    assert_contains(
        out.stdout.as_str(),
        "baseline: main@3333333 (run 300, 3 days old, 3 commits behind the merge-base)",
    );
}

#[test]
fn the_workflow_may_be_given_as_its_path_but_not_as_another_path() {
    let w = World::new();
    w.runs(vec![run(800, 0)]);
    w.artifact(800, good_zip());
    w.fetch_base_with(".github/workflows/eval.yml").expect(0);
    let out = w.fetch_base_with("ci/eval.yml");
    let out = out.expect(2);
    assert_contains(
        &out.stderr,
        "expected the workflow's file name under .github/workflows",
    );
}

/// `base-sha-upper-case`: an upper-case `--base-sha` names the same commit as GitHub's lower-case
/// id: its own run is "the merge-base itself", never "1 commit behind" (which would trip
/// `max-commits-behind = 0`), and the record holds the id in lower case.
#[test]
fn an_upper_case_base_sha_is_the_merge_base_itself() {
    let w = World::new();
    let commits: Vec<Value> = [0xa, 1, 2]
        .iter()
        .map(|&i| json!({"sha": sha(i)}))
        .collect();
    w.gh.mount(
        Mock::given(method("GET"))
            .and(path("/repos/octo/repo/commits"))
            .and(query_param("sha", sha(0xa)))
            .respond_with(ResponseTemplate::new(200).set_body_json(commits)),
    );
    w.runs(vec![run(500, 1), run(501, 0xa)]);
    w.artifact(501, good_zip());
    let out = w.fetch(&["--base-sha", &sha(0xa).to_uppercase()]);
    let out = out.expect(0);
    assert_contains(&out.stderr, "(the merge-base itself)");
    let p = w.provenance();
    assert_eq!(p["merge-base"], sha(0xa));
    assert_eq!(p["found"]["commits-behind"], 0);
    assert_eq!(p["found"]["run-id"], 501);
}

/// `merge-base-behind-main`: a fork branched from an old commit. How far main moved on past the
/// merge-base (the compare API's `behind_by`) is printed by the fetch, recorded, shown on the
/// report's baseline line, and bounded by `[baseline] max-behind` (exit 2 at the key; a
/// warning under `on-missing = "warn"`; unknown is refused too).
#[test]
fn how_far_main_moved_past_the_merge_base_is_reported_and_bounded() {
    let examples = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples");
    let w = World::new();
    let ctx = &w.ctx;
    let event = w.ctx.path().join("event.json");
    let pr = json!({"pull_request": {"number": 7,
        "base": {"sha": sha(0xb)}, "head": {"sha": sha(0xc)}}});
    std::fs::write(&event, pr.to_string()).unwrap();
    w.gh.mount(
        Mock::given(method("GET"))
            .and(path(format!(
                "/repos/octo/repo/compare/{}...{}",
                sha(0xb),
                sha(0xc)
            )))
            .respond_with(ResponseTemplate::new(200).set_body_json(
                json!({"merge_base_commit": {"sha": sha(0)}, "behind_by": 400, "ahead_by": 2}),
            )),
    );
    w.runs(vec![run(600, 0)]);
    let rows = std::fs::read(examples.join("baseline.jsonl")).unwrap();
    w.artifact(600, zip_of(&[("baseline.jsonl", &rows)]));
    let out = Out::of(
        ctx.command()
            .args(["baseline", "fetch", "--artifact", "baseline"])
            .args(["--workflow", "eval.yml", "--to"])
            .arg(w.to())
            .env("GITHUB_TOKEN", TOKEN)
            .env("GITHUB_REPOSITORY", "octo/repo")
            .env("GITHUB_API_URL", w.gh.server.uri())
            .env("GITHUB_EVENT_PATH", &event)
            .env_remove("GITHUB_ACTIONS"),
    );
    let out = out.expect(0);
    assert_contains(&out.stderr, "; main is 400 commits past the merge-base");
    assert_eq!(w.provenance()["merge-base-behind"], 400);

    let check = |baseline_table: &str| {
        let gate = w.ctx.path().join("gate.toml");
        let text = format!(
            "[inputs]\nbaseline = \"out/baseline/baseline.jsonl\"\ncandidate = {:?}\nqueries = {:?}\n\
             [baseline]\n{baseline_table}\n[[gate]]\nmetric = \"ndcg@10\"\nmax-drop = 0.2\n",
            examples.join("candidate.jsonl"),
            examples.join("queries.jsonl")
        );
        std::fs::write(&gate, text).unwrap();
        ctx.check_file(&gate, &["--resamples", "200", "--today", "2026-12-01"])
    };
    let ok = check("max-behind = 500");
    let ok = ok.expect(0);
    assert_contains(
        &ok.stdout,
        "at the merge-base; main is 400 commits past the merge-base)",
    );
    let over = check("max-behind = 50");
    let over = over.expect(2);
    assert_contains(
        &over.stderr,
        "[baseline] max-behind: the pull request's merge-base 0000000 is 400 commits behind main",
    );
    assert_contains(&over.stderr, "more than max-behind = 50");
    let warned = check("max-behind = 50\non-missing = \"warn\"");
    let warned = warned.expect(0);
    let said = format!("{}{}", warned.stdout, warned.stderr);
    assert_contains(
        &said,
        "[baseline] max-behind: the pull request's merge-base 0000000",
    );

    // A fetch that could not learn the distance (no compare answer for --base-sha) records
    // none, and max-behind refuses the unknown.
    std::fs::remove_dir_all(w.to()).unwrap();
    w.fetch_base().expect(0);
    assert!(w.provenance().get("merge-base-behind").is_none());
    let unknown = check("max-behind = 500");
    let unknown = unknown.expect(2);
    assert_contains(
        &unknown.stderr,
        "the baseline's merge-base's distance behind the base branch is unknown",
    );
}

/// Run 700 on the merge-base, answered after one `first` answer to the run list.
fn after_one(w: &World, first: ResponseTemplate) {
    w.gh.mount(
        Mock::given(method("GET"))
            .and(path(RUNS))
            .respond_with(first)
            .up_to_n_times(1)
            .with_priority(1),
    );
    w.runs(vec![run(700, 0)]);
    w.artifact(700, good_zip());
}

fn run_list_requests(w: &World) -> usize {
    w.gh.requests()
        .iter()
        .filter(|r| r.url.path() == RUNS)
        .count()
}

#[test]
fn a_429_is_retried_after_the_wait_retry_after_names() {
    let w = World::new();
    after_one(
        &w,
        ResponseTemplate::new(429)
            .insert_header("retry-after", "1")
            .set_body_json(json!({"message": "slow down"})),
    );
    let started = std::time::Instant::now();
    let out = w.fetch_base();
    let out = out.expect(0);
    assert!(
        started.elapsed() >= std::time::Duration::from_secs(1),
        "the second request came before Retry-After said: {:?}",
        started.elapsed()
    );
    assert_eq!(run_list_requests(&w), 2);
    assert_contains(
        &out.stderr,
        "GitHub answered 429; retrying in 1 s (Retry-After, retry 1 of 2)",
    );
    assert!(w.to().join("run.jsonl").exists());

    // -q: the same retry, without the status line.
    let w = World::new();
    after_one(
        &w,
        ResponseTemplate::new(429).insert_header("retry-after", "0"),
    );
    let out = w.fetch(&["--base-sha", &sha(0), "-q"]);
    let out = out.expect(0);
    assert_eq!(run_list_requests(&w), 2);
    assert!(!out.stderr.contains("retrying"), "{}", out.stderr.clone());
}

#[test]
fn a_wait_longer_than_the_budget_is_not_waited_for() {
    let w = World::new();
    w.gh.mount(
        Mock::given(method("GET"))
            .and(path(RUNS))
            .respond_with(
                ResponseTemplate::new(403)
                    .insert_header("retry-after", "3600")
                    .set_body_json(json!({"message": "secondary rate limit"})),
            )
            .expect(1),
    );
    let started = std::time::Instant::now();
    let out = w.fetch_base();
    let out = out.expect(2);
    assert!(started.elapsed() < std::time::Duration::from_secs(30));
    assert_contains(
        &out.stderr,
        "it asks for a wait of 3600 s (Retry-After), more than rag-gate waits for one request (60 s): not retried",
    );
    w.gh.verify();
}

#[test]
fn a_rate_limit_that_resets_within_the_budget_is_waited_for() {
    let w = World::new();
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs();
    after_one(
        &w,
        ResponseTemplate::new(403)
            .insert_header("x-ratelimit-remaining", "0")
            .insert_header("x-ratelimit-reset", (now + 2).to_string().as_str())
            .set_body_json(json!({"message": "API rate limit exceeded"})),
    );
    let out = w.fetch_base();
    let out = out.expect(0);
    assert_eq!(run_list_requests(&w), 2);
    assert_contains(&out.stderr, "(rate limit reset, retry 1 of 2)");
}

/// `[probe]` with main's stored runs: main's artifact carries its run and its run on the
/// unlabelled probe queries; `baseline fetch` unpacks both beside the provenance record, and a
/// check whose `[inputs] baseline` and `[probe] baseline` point into that folder reads both (the
/// same ranking on the PR's side: untouched, the probe's 12 CACM queries in the report, the
/// baseline's provenance the fetch's).
#[test]
fn the_artifact_brings_mains_probe_run_with_its_results() {
    let fixtures = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/eval/fixtures/cacm");
    let ranking = std::fs::read_to_string(format!("{fixtures}/run.cacm-bm25.txt")).unwrap();
    let qrels = format!("{fixtures}/qrels.cacm.txt");
    let judged: std::collections::BTreeSet<String> = std::fs::read_to_string(&qrels)
        .unwrap()
        .lines()
        .filter_map(|l| l.split_whitespace().next().map(str::to_string))
        .collect();
    let probe: String = ranking
        .lines()
        .filter(|l| !judged.contains(l.split_whitespace().next().unwrap()))
        .map(|l| format!("{l}\n"))
        .collect();
    let w = World::new();
    let ctx = &w.ctx;
    w.runs(vec![run(900, 0)]);
    w.artifact(
        900,
        zip_of(&[
            ("run.txt", ranking.as_bytes()),
            ("probe.txt", probe.as_bytes()),
        ]),
    );
    w.fetch_base().expect(0);
    let files = &w.provenance()["found"]["files"];
    assert_eq!(files, &json!(["run.txt", "probe.txt"]), "{files}");
    // The pull request's side: the same rankings, as the PR's own evaluation writes them.
    let pr = w.ctx.path().join("pr");
    std::fs::create_dir_all(&pr).unwrap();
    std::fs::write(pr.join("run.txt"), &ranking).unwrap();
    std::fs::write(pr.join("probe.txt"), &probe).unwrap();
    let gate = w.ctx.path().join("gate.toml");
    let to = w.to();
    std::fs::write(
        &gate,
        format!(
            "[inputs]\nqrels = {qrels:?}\nbaseline = {{ run = {b:?} }}\ncandidate = {{ run = {c:?} }}\n\
             [bootstrap]\nresamples = 500\n\
             [probe]\nbaseline = {pb:?}\ncandidate = {pc:?}\n\
             [[gate]]\nmetric = \"ndcg@10\"\nmax-drop = 0.05\n",
            b = to.join("run.txt"),
            c = pr.join("run.txt"),
            pb = to.join("probe.txt"),
            pc = pr.join("probe.txt"),
        ),
    )
    .unwrap();
    let out = Out::of(ctx.command().arg("check").arg(&gate).args([
        "--format",
        "json",
        "--today",
        "2026-11-28",
    ]));
    let out = out.expect(0);
    let v: Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(v["verdict"], "untouched", "{}", v["headline"]);
    assert_eq!(v["probe"]["queries"], 12, "{}", v["probe"]);
    assert_eq!(v["probe"]["changed"], 0);
    assert_eq!(v["baseline"]["source"], "fetch", "{}", v["baseline"]);
    assert_eq!(v["baseline"]["run_id"], 900);
}
