//! `rag-gate baseline fetch` in a GitLab merge-request pipeline, against a local stand-in of
//! GitLab's REST API v4 and of its object storage (two wiremock servers): the target branch's
//! pipeline for `CI_MERGE_REQUEST_DIFF_BASE_SHA` or its nearest ancestor, the job named by
//! `--artifact`, its artifacts archive unpacked safely with the provenance file; expired
//! artifacts are a missing baseline; a hostile zip is refused with nothing written outside; the
//! token goes to GitLab's host only, never to the redirect's; pipelines and jobs are read on every
//! page (same host only, at most 10 pages).

use crate::support::{Out, TestContext};
use std::io::Write;
use std::path::PathBuf;

use serde_json::{json, Value};
use wiremock::matchers::{header, method, path, query_param};
use wiremock::{Mock, MockServer, ResponseTemplate};

use crate::support::output::{assert_contains, tree};

const TOKEN: &str = "glpat-TOPSECRET-abcdef987654";
const PROJECT: &str = "/api/v4/projects/42";

fn sha(i: usize) -> String {
    format!("{i:040x}").replace('0', "a")
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
        (
            "eval/baseline.jsonl",
            b"{\"query_id\":\"q1\",\"ndcg@10\":0.5}\n",
        ),
        ("eval/baseline.jsonl.protocol.json", b"{}\n"),
    ])
}

struct World {
    rt: tokio::runtime::Runtime,
    lab: MockServer,
    blob: MockServer,
    ctx: TestContext,
}

impl World {
    /// The merge-base sha(0) and its ancestors sha(1..10), newest first.
    fn new() -> World {
        let rt = tokio::runtime::Runtime::new().unwrap();
        let lab = rt.block_on(MockServer::start());
        let blob = rt.block_on(MockServer::start());
        let w = World {
            rt,
            lab,
            blob,
            ctx: TestContext::new(),
        };
        let commits: Vec<Value> = (0..10).map(|i| json!({ "id": sha(i) })).collect();
        w.mount(
            Mock::given(method("GET"))
                .and(path(format!("{PROJECT}/repository/commits")))
                .and(query_param("ref_name", sha(0)))
                .and(header("private-token", TOKEN))
                .respond_with(ResponseTemplate::new(200).set_body_json(commits)),
        );
        // No pipeline for any commit unless a test says so.
        w.mount(
            Mock::given(method("GET"))
                .and(path(format!("{PROJECT}/pipelines")))
                .respond_with(ResponseTemplate::new(200).set_body_json(json!([])))
                .with_priority(10),
        );
        w
    }

    fn mount(&self, m: Mock) {
        self.rt.block_on(m.mount(&self.lab));
    }

    /// Commit `i` has the successful main pipeline `id`, whose job `eval-main` (job `id + 1`)
    /// keeps artifacts (`expired`: no longer).
    fn pipeline(&self, i: usize, id: u64, expired: bool) {
        self.mount(
            Mock::given(method("GET"))
                .and(path(format!("{PROJECT}/pipelines")))
                .and(query_param("sha", sha(i)))
                .and(query_param("ref", "main"))
                .and(query_param("status", "success"))
                .respond_with(ResponseTemplate::new(200).set_body_json(json!([{
                    "id": id, "sha": sha(i), "ref": "main", "status": "success",
                    "created_at": "2026-11-28T10:00:00.000Z",
                    "web_url": format!("https://gitlab.example/g/p/-/pipelines/{id}")
                }])))
                .with_priority(1),
        );
        let mut job = json!({ "id": id + 1, "name": "eval-main", "status": "success" });
        if !expired {
            job["artifacts_file"] = json!({ "filename": "artifacts.zip", "size": 1000 });
        }
        self.mount(
            Mock::given(method("GET"))
                .and(path(format!("{PROJECT}/pipelines/{id}/jobs")))
                .respond_with(
                    ResponseTemplate::new(200)
                        .set_body_json(json!([{ "id": 5, "name": "lint" }, job])),
                ),
        );
    }

    /// Job `job`'s archive redirects to the storage host, which serves `zip`.
    fn archive(&self, job: u64, zip: Vec<u8>) {
        let to = format!("{}/store/{job}.zip?X-Amz-Signature=SIG", self.blob.uri());
        self.mount(
            Mock::given(method("GET"))
                .and(path(format!("{PROJECT}/jobs/{job}/artifacts")))
                .respond_with(ResponseTemplate::new(302).insert_header("location", to.as_str())),
        );
        self.rt.block_on(
            Mock::given(method("GET"))
                .and(path(format!("/store/{job}.zip")))
                .respond_with(ResponseTemplate::new(200).set_body_bytes(zip))
                .mount(&self.blob),
        );
    }

    fn to(&self) -> PathBuf {
        self.ctx.path().join("out")
    }

    fn fetch(&self, extra: &[&str]) -> Out {
        let out = Out::of(
            self.ctx
                .command()
                .args([
                    "baseline",
                    "fetch",
                    "--artifact",
                    "eval-main",
                    "--workflow",
                    ".gitlab-ci.yml",
                ])
                .arg("--to")
                .arg(self.to())
                .args(extra)
                .env_remove("GITHUB_ACTIONS")
                .env_remove("GITHUB_TOKEN")
                .env("GITLAB_CI", "true")
                .env("CI_API_V4_URL", format!("{}/api/v4", self.lab.uri()))
                .env("CI_PROJECT_ID", "42")
                .env("CI_MERGE_REQUEST_IID", "7")
                .env("CI_MERGE_REQUEST_DIFF_BASE_SHA", sha(0))
                .env("GITLAB_TOKEN", TOKEN),
        );
        let printed = format!("{}{}", out.stdout, out.stderr);
        assert!(!printed.contains(TOKEN), "the token was printed: {printed}");
        out
    }

    fn provenance(&self) -> Value {
        let text = std::fs::read_to_string(self.to().join("rag-gate-baseline.json")).unwrap();
        serde_json::from_str(&text).unwrap()
    }
}

#[test]
fn the_nearest_ancestor_with_a_pipeline_gives_the_baseline_without_the_token_on_the_storage_host() {
    let w = World::new();
    // The merge-base itself has no pipeline; its parent has one.
    w.pipeline(1, 900, false);
    w.archive(901, good_zip());
    let out = w.fetch(&[]);
    let out = out.expect(0);
    assert_contains(&out.stderr, "1 commit behind the merge-base");
    let p = w.provenance();
    assert_eq!(p["merge-base"], sha(0));
    assert_eq!(p["found"]["commit"], sha(1));
    assert_eq!(p["found"]["commits-behind"], 1);
    assert_eq!(p["found"]["run-id"], 900);
    assert_eq!(
        p["found"]["run-url"],
        "https://gitlab.example/g/p/-/pipelines/900"
    );
    assert!(w.to().join("eval/baseline.jsonl").exists());
    let stored = w.rt.block_on(w.blob.received_requests()).unwrap();
    assert_eq!(stored.len(), 1);
    assert!(
        stored[0].headers.get("private-token").is_none()
            && stored[0].headers.get("authorization").is_none(),
        "the token went to the storage host"
    );
}

#[test]
fn the_merge_base_pipeline_comes_first() {
    let w = World::new();
    w.pipeline(0, 800, false);
    w.pipeline(1, 700, false);
    w.archive(801, good_zip());
    w.fetch(&[]).expect(0);
    assert_eq!(w.provenance()["found"]["commits-behind"], 0);
    assert_eq!(w.provenance()["found"]["run-id"], 800);
}

#[test]
fn expired_artifacts_are_a_missing_baseline() {
    let w = World::new();
    w.pipeline(0, 800, true);
    let out = w.fetch(&[]);
    let out = out.expect(2);
    assert_contains(&out.stderr, "have expired");
    w.fetch(&["--missing-ok"]).expect(0);
    assert_contains(
        w.provenance()["missing"].as_str().unwrap(),
        "artifacts of job \"eval-main\"",
    );
}

#[test]
fn no_pipeline_within_reach_is_a_missing_baseline() {
    let w = World::new();
    let out = w.fetch(&[]);
    let out = out.expect(2);
    assert_contains(
        &out.stderr,
        "no successful pipeline of \"main\" with a job \"eval-main\"",
    );
}

#[test]
fn a_hostile_zip_is_refused_and_nothing_lands_outside() {
    let w = World::new();
    w.pipeline(0, 800, false);
    w.archive(
        801,
        zip_of(&[("ok.jsonl", b"{}\n"), ("../evil.jsonl", b"{}\n")]),
    );
    let out = w.fetch(&[]);
    let out = out.expect(2);
    assert_contains(&out.stderr, "a `..` part in the path");
    assert_eq!(tree(w.ctx.path()), ["out"], "{}", out.stderr);
}

#[test]
fn a_refused_token_is_exit_2_and_not_printed() {
    let w = World::new();
    let ctx = &w.ctx;
    let rt = tokio::runtime::Runtime::new().unwrap();
    let lab = rt.block_on(MockServer::start());
    rt.block_on(
        Mock::given(method("GET"))
            .respond_with(
                ResponseTemplate::new(401)
                    .set_body_json(json!({ "message": format!("401 Unauthorized {TOKEN}") })),
            )
            .mount(&lab),
    );
    let out = Out::of(
        ctx.command()
            .args([
                "baseline",
                "fetch",
                "--artifact",
                "eval-main",
                "--workflow",
                ".gitlab-ci.yml",
            ])
            .arg("--to")
            .arg(w.to())
            .env_remove("GITHUB_ACTIONS")
            .env("GITLAB_CI", "true")
            .env("CI_API_V4_URL", format!("{}/api/v4", lab.uri()))
            .env("CI_PROJECT_ID", "42")
            .env("CI_MERGE_REQUEST_DIFF_BASE_SHA", sha(0))
            .env("GITLAB_TOKEN", TOKEN),
    );
    let out = out.expect(2);
    let err = out.stderr.clone();
    assert_contains(&err, "GitLab rejected the token (401");
    assert!(!err.contains(TOKEN), "{err}");
}

/// A pipeline record of commit `i`.
fn pipeline_json(i: usize, id: u64) -> Value {
    json!({
        "id": id, "sha": sha(i), "ref": "main", "status": "success",
        "created_at": "2026-11-28T10:00:00.000Z",
        "web_url": format!("https://gitlab.example/g/p/-/pipelines/{id}")
    })
}

/// The job that keeps the results, `id`, with its artifacts.
fn eval_job(id: u64) -> Value {
    json!({ "id": id, "name": "eval-main", "status": "success",
            "artifacts_file": { "filename": "artifacts.zip", "size": 1000 } })
}

impl World {
    /// `Link: <…>; rel="next"` to `route` on `host` (GitLab's offset pagination).
    fn next(host: &str, route: &str) -> String {
        format!("<{host}{route}>; rel=\"next\"")
    }

    /// The merge-base sha(0) has the successful main pipeline 800 (its jobs: the test's).
    fn merge_base_pipeline_800(&self) {
        self.mount(
            Mock::given(method("GET"))
                .and(path(format!("{PROJECT}/pipelines")))
                .and(query_param("sha", sha(0)))
                .respond_with(
                    ResponseTemplate::new(200).set_body_json(json!([pipeline_json(0, 800)])),
                )
                .with_priority(1),
        );
    }

    /// Every page of pipeline 800's jobs (only "lint") links to page 2 on `host`; the route.
    fn jobs_linking_to(&self, host: &str) -> String {
        let jobs = format!("{PROJECT}/pipelines/800/jobs");
        let link = Self::next(host, &format!("{jobs}?page=2&per_page=100"));
        self.mount(
            Mock::given(method("GET"))
                .and(path(jobs.as_str()))
                .respond_with(
                    ResponseTemplate::new(200)
                        .insert_header("link", link.as_str())
                        .set_body_json(json!([{ "id": 5, "name": "lint" }])),
                ),
        );
        jobs
    }

    /// Pipeline `id`'s jobs: `first` on page 1 with a link to page 2, `second` on page 2.
    fn jobs_on_two_pages(&self, id: u64, first: Value, second: Value) {
        let jobs = format!("{PROJECT}/pipelines/{id}/jobs");
        let link = Self::next(&self.lab.uri(), &format!("{jobs}?page=2&per_page=100"));
        self.mount(
            Mock::given(method("GET"))
                .and(path(jobs.as_str()))
                .and(query_param("page", "2"))
                .respond_with(ResponseTemplate::new(200).set_body_json(second))
                .with_priority(1),
        );
        self.mount(
            Mock::given(method("GET"))
                .and(path(jobs.as_str()))
                .respond_with(
                    ResponseTemplate::new(200)
                        .insert_header("link", link.as_str())
                        .set_body_json(first),
                )
                .with_priority(5),
        );
    }
}

#[test]
fn the_job_on_the_second_page_of_jobs_is_found() {
    let w = World::new();
    w.merge_base_pipeline_800();
    let lint: Vec<Value> = (0..100)
        .map(|i| json!({ "id": 1000 + i, "name": format!("lint-{i}") }))
        .collect();
    w.jobs_on_two_pages(800, json!(lint), json!([eval_job(801)]));
    w.archive(801, good_zip());
    w.fetch(&[]).expect(0);
    assert_eq!(w.provenance()["found"]["run-id"], 800);
    assert!(w.to().join("eval/baseline.jsonl").exists());
    let asked: Vec<String> =
        w.rt.block_on(w.lab.received_requests())
            .unwrap()
            .iter()
            .filter(|r| r.url.path().ends_with("/jobs"))
            .map(|r| r.url.query().unwrap_or("").to_string())
            .collect();
    assert_eq!(asked.len(), 2, "{asked:?}");
    assert!(asked[0].contains("per_page=100"), "{asked:?}");
    assert!(asked[1].contains("page=2"), "{asked:?}");
}

#[test]
fn the_pipeline_on_the_second_page_of_pipelines_is_found() {
    let w = World::new();
    let route = format!("{PROJECT}/pipelines");
    let link = World::next(
        &w.lab.uri(),
        &format!(
            "{route}?page=2&per_page=100&ref=main&sha={}&status=success",
            sha(0)
        ),
    );
    // Page 1: a newer pipeline of the merge-base that did not run the job; page 2: one that did.
    w.mount(
        Mock::given(method("GET"))
            .and(path(route.as_str()))
            .and(query_param("sha", sha(0)))
            .and(query_param("page", "2"))
            .respond_with(ResponseTemplate::new(200).set_body_json(json!([pipeline_json(0, 800)])))
            .with_priority(1),
    );
    w.mount(
        Mock::given(method("GET"))
            .and(path(route.as_str()))
            .and(query_param("sha", sha(0)))
            .respond_with(
                ResponseTemplate::new(200)
                    .insert_header("link", link.as_str())
                    .set_body_json(json!([pipeline_json(0, 810)])),
            )
            .with_priority(2),
    );
    w.mount(
        Mock::given(method("GET"))
            .and(path(format!("{route}/810/jobs")))
            .respond_with(
                ResponseTemplate::new(200).set_body_json(json!([{ "id": 5, "name": "lint" }])),
            ),
    );
    w.mount(
        Mock::given(method("GET"))
            .and(path(format!("{route}/800/jobs")))
            .respond_with(ResponseTemplate::new(200).set_body_json(json!([eval_job(801)]))),
    );
    w.archive(801, good_zip());
    let out = w.fetch(&[]);
    let out = out.expect(0);
    let p = w.provenance();
    assert_eq!(p["found"]["run-id"], 800, "{}", out.stderr);
    assert_eq!(p["found"]["commits-behind"], 0);
}

#[test]
fn an_endless_chain_of_pages_stops_at_the_bound() {
    let w = World::new();
    w.merge_base_pipeline_800();
    // Every page of jobs links to another one.
    let jobs = w.jobs_linking_to(&w.lab.uri());
    let out = w.fetch(&[]);
    let out = out.expect(2);
    assert_contains(
        &out.stderr,
        "listing the jobs of pipeline 800: more than 10 pages",
    );
    let asked =
        w.rt.block_on(w.lab.received_requests())
            .unwrap()
            .iter()
            .filter(|r| r.url.path() == jobs)
            .count();
    assert_eq!(asked, 10);
}

#[test]
fn a_next_page_on_another_host_is_not_followed() {
    let w = World::new();
    w.merge_base_pipeline_800();
    w.jobs_linking_to(&w.blob.uri());
    let out = w.fetch(&[]);
    let out = out.expect(2);
    assert_contains(&out.stderr, "the next-page link points to another host");
    assert!(w
        .rt
        .block_on(w.blob.received_requests())
        .unwrap()
        .is_empty());
}

/// Class `gitlab-max-behind`: GitLab's `baseline fetch` records how far the target branch moved
/// past the merge-base (its compare API), and `check` enforces `[baseline] max-behind` on it.
#[test]
fn gitlab_max_behind_is_recorded_and_enforced() {
    let w = World::new();
    w.pipeline(0, 800, false);
    w.archive(
        801,
        zip_of(&[(
            "eval/baseline.jsonl",
            b"{\"query_id\":\"q1\",\"ndcg@10\":0.5}\n{\"query_id\":\"q2\",\"ndcg@10\":0.25}\n",
        )]),
    );
    w.mount(
        Mock::given(method("GET"))
            .and(path(format!("{PROJECT}/repository/compare")))
            .and(query_param("from", sha(0)))
            .and(query_param("to", "main"))
            .respond_with(ResponseTemplate::new(200).set_body_json(json!({
                "commits": [{ "id": "c1" }, { "id": "c2" }, { "id": "c3" }, { "id": "c4" }, { "id": "c5" }],
                "diffs": []
            }))),
    );
    let out = w.fetch(&[]);
    let out = out.expect(0);
    assert_contains(&out.stderr, "main is 5 commits past the merge-base");
    assert_eq!(w.provenance()["merge-base-behind"], 5);
    let ctx = &w.ctx;
    std::fs::write(
        ctx.join("cand.jsonl"),
        "{\"query_id\":\"q1\",\"ndcg@10\":0.5}\n{\"query_id\":\"q2\",\"ndcg@10\":0.25}\n",
    )
    .unwrap();
    let gate = |max: u64| {
        format!(
            "[inputs]\nbaseline = \"out/eval/baseline.jsonl\"\ncandidate = \"cand.jsonl\"\n\
             [baseline]\nmax-behind = {max}\n[[gate]]\nmetric = \"ndcg@10\"\nmax-drop = 0.05\n"
        )
    };
    ctx.write("gate.toml", gate(2));
    let check = Out::of(
        ctx.command()
            .env_remove("GITHUB_ACTIONS")
            .args(["check", "gate.toml"]),
    );
    let check = check.expect(2);
    assert_contains(
        &check.stderr,
        "[baseline] max-behind: the pull request's merge-base aaaaaaa is 5 commits behind main",
    );
    ctx.write("gate.toml", gate(5));
    let within = Out::of(
        ctx.command()
            .env_remove("GITHUB_ACTIONS")
            .args(["check", "gate.toml"]),
    );
    assert_ne!(within.code, Some(2), "{}", within.stderr);
}
