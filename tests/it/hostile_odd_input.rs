//! Odd input through the binary: legal input that gave wrong numbers (pipes read twice, keys
//! given twice, huge grades and values), untrusted names that became workflow commands or
//! terminal escapes, secrets in messages, runner files that hang, outputs that collide. Each
//! test is a row of docs/hostile.md, listed in `hostile_cases.rs`; the hostile-GitHub cases (a
//! mock server) are in `hostile_github.rs`.

use crate::support;

use std::io::Write;
use std::path::Path;
use std::process::{Command as StdCommand, Stdio};
use std::time::Duration;

use support::output::{assert_contains, assert_input_error};
use support::Out;
use support::{GateFile, TestContext};

const N: usize = 12;
/// A hang fails the test instead of hanging CI.
const TIMEOUT: Duration = Duration::from_secs(60);

fn ndcg(i: usize, cand: bool) -> f64 {
    ((i * 37) % 10) as f64 / 20.0 + 0.2 + if cand { 0.05 } else { 0.0 }
}

fn jsonl(cand: bool) -> String {
    (1..=N)
        .map(|i| {
            format!(
                "{{\"query_id\":\"q{i:02}\",\"ndcg@10\":{}}}\n",
                ndcg(i, cand)
            )
        })
        .collect()
}

fn queries(tag: &str) -> String {
    (1..=N)
        .map(|i| {
            let v = if i % 3 == 0 { tag } else { "en" };
            format!(
                "{{\"query_id\":\"q{i:02}\",\"slices\":{{\"lang\":{}}}}}\n",
                json(v)
            )
        })
        .collect()
}

fn json(s: &str) -> String {
    serde_json::Value::from(s).to_string()
}

/// b.jsonl vs c.jsonl by `lang` (q.jsonl), `extra_inputs` in `[inputs]`, `extra` in
/// `[bootstrap]`, ndcg@10 gated on a 0.4 drop.
fn by_lang(extra_inputs: &str, extra: &str) -> String {
    GateFile::new("b.jsonl", "c.jsonl")
        .queries("q.jsonl")
        .inputs_raw(extra_inputs)
        .table("bootstrap", &format!("resamples = 200\n{extra}"))
        .table("slices", "by = [\"lang\"]\nmin-queries = 1")
        .gate("ndcg@10", "max-drop = 0.4")
        .to_string()
}

/// The clean comparison: b.jsonl, c.jsonl, q.jsonl (tag `ko` on every third query), gate.toml;
/// runs are killed after [`TIMEOUT`].
fn clean_comparison() -> TestContext {
    let ctx = TestContext::new().timeout(TIMEOUT);
    ctx.write("b.jsonl", jsonl(false));
    ctx.write("c.jsonl", jsonl(true));
    ctx.write("q.jsonl", queries("ko"));
    ctx.gate(by_lang("", ""));
    ctx
}

// ---- TREC runs whose queries come back ----

/// q1, q2, q1: the second q1 line comes back after another query.
const INTERLEAVED: &str = "q1 Q0 A 1 3 t\nq2 Q0 B 1 3 t\nq1 Q0 C 2 2 t\n";
const GROUPED: &str = "q1 Q0 A 1 3 t\nq1 Q0 C 2 2 t\nq2 Q0 B 1 3 t\n";
const QRELS: &str = "q1 0 C 1\nq2 0 B 1\n";

fn eval_args(run: &str) -> Vec<String> {
    [
        "eval",
        "--run",
        run,
        "--qrels",
        "qrels.txt",
        "--metrics",
        "recall@1,ndcg@10",
    ]
    .map(String::from)
    .to_vec()
}

/// `rag-gate eval --run /dev/stdin` with `input` on stdin.
fn eval_stdin(ctx: &TestContext, input: &str) -> Out {
    let mut child = ctx
        .process()
        .args(eval_args("/dev/stdin"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_string();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(input.as_bytes());
    });
    let o = wait_with_timeout(child);
    writer.join().unwrap();
    o
}

fn wait_with_timeout(mut child: std::process::Child) -> Out {
    let start = std::time::Instant::now();
    loop {
        if child.try_wait().unwrap().is_some() {
            return child.wait_with_output().unwrap().into();
        }
        if start.elapsed() > TIMEOUT {
            let _ = child.kill();
            panic!("rag-gate hung for {TIMEOUT:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn mkfifo(p: &Path) {
    let ok = StdCommand::new("mkfifo").arg(p).status().unwrap();
    assert!(ok.success(), "mkfifo {}", p.display());
}

/// A named FIFO `run.fifo` in the folder and a thread that writes `text` into it once rag-gate opens it
/// (a second open by rag-gate would hang); join it after the run.
fn run_fifo(ctx: &TestContext, text: String) -> std::thread::JoinHandle<()> {
    let fifo = ctx.join("run.fifo");
    mkfifo(&fifo);
    std::thread::spawn(move || {
        if let Ok(mut w) = std::fs::OpenOptions::new().write(true).open(&fifo) {
            let _ = w.write_all(text.as_bytes());
        }
    })
}

#[test]
fn run_comes_back_pipe() {
    let ctx = TestContext::new().timeout(TIMEOUT);
    ctx.write("qrels.txt", QRELS);
    ctx.write("run.txt", GROUPED);
    let from_file = Out::of(ctx.command().args(eval_args("run.txt")));
    assert_eq!(from_file.code, Some(0), "{}", from_file.stderr);
    // A grouped run reads the same from a pipe as from a file...
    let piped = eval_stdin(&ctx, GROUPED);
    assert_eq!(piped.code, Some(0), "{}", piped.stderr);
    assert_eq!(piped.stdout, from_file.stdout);
    // ...and one whose query comes back is refused instead of read short.
    let o = eval_stdin(&ctx, INTERLEAVED);
    assert_input_error(
        &o,
        &[
            "/dev/stdin:3: query \"q1\" comes back after other queries",
            "sort it first",
        ],
    );
}

#[test]
fn run_comes_back_fifo() {
    let ctx = TestContext::new().timeout(TIMEOUT);
    ctx.write("qrels.txt", QRELS);
    let writer = run_fifo(&ctx, INTERLEAVED.to_string());
    let o = Out::of(ctx.command().args(eval_args("run.fifo")));
    assert_input_error(
        &o,
        &["run.fifo:3: query \"q1\" comes back after other queries"],
    );
    writer.join().unwrap();
}

/// `fifo-run-ir-metadata`: a grouped TREC run with an `ir_metadata` header through a named FIFO.
/// The run reader opens it once; the run context is not read from it (a second open waited for a
/// writer that was gone: a hang), and the note says so.
#[test]
fn fifo_run_ir_metadata() {
    let ctx = TestContext::new().timeout(TIMEOUT);
    ctx.write("qrels.txt", QRELS);
    let run = format!("# ir_metadata.start\n# tag: bm25\n# ir_metadata.end\n{GROUPED}");
    let writer = run_fifo(&ctx, run);
    let child = ctx
        .process()
        .args(eval_args("run.fifo"))
        .args(["-o", "rows.jsonl"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let o = wait_with_timeout(child);
    writer.join().unwrap();
    assert_eq!(o.code, Some(0), "{}", o.stderr);
    assert!(
        o.stderr.contains(
            "note: the run came through a pipe or device (run.fifo), which is read once: an ir_metadata header in it (tag, method, model) is not read"
        ),
        "{}",
        o.stderr
    );
    let sidecar = ctx.read("rows.jsonl.protocol.json");
    assert!(!sidecar.contains("bm25"), "{sidecar}");
}

/// `piped-run-ir-metadata-check`: `check` with a candidate `{ run = "/dev/stdin" }` whose
/// `ir_metadata` header names its tag. The run is read once; the report's note says its run
/// context is unknown (the "run context changed" line shows it as —), never silently.
#[test]
fn piped_run_ir_metadata_check() {
    let ctx = TestContext::new().timeout(TIMEOUT);
    ctx.write("qrels.txt", QRELS);
    let run = format!("# ir_metadata.start\n# tag: bm25\n# ir_metadata.end\n{GROUPED}");
    ctx.write("run.trec", &run);
    ctx.gate(
        GateFile::default()
            .path("qrels", "qrels.txt")
            .input("baseline", "{ run = \"run.trec\" }")
            .input("candidate", "{ run = \"/dev/stdin\" }")
            .table("slices", "min-queries = 1")
            .gate("ndcg@10", "max-drop = 0.05"),
    );
    let mut child = ctx
        .process()
        .args(["check", "gate.toml"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(run.as_bytes());
    });
    let o = wait_with_timeout(child);
    writer.join().unwrap();
    assert!(matches!(o.code, Some(0 | 1)), "{}", o.stderr);
    assert!(
        o.stdout.contains(
            "/dev/stdin: evaluated 2 queries against qrels.txt"
        ) && o.stdout.contains(
            "it came through a pipe or device, which is read once: an ir_metadata header in it (tag, method, model) is not read, so its run context is unknown"
        ),
        "{}",
        o.stdout
    );
}

#[test]
fn run_comes_back_file() {
    // A regular file can be read twice: the regrouped run gives the grouped run's numbers.
    let ctx = TestContext::new().timeout(TIMEOUT);
    ctx.write("qrels.txt", QRELS);
    ctx.write("a.txt", INTERLEAVED);
    ctx.write("b.txt", GROUPED);
    let a = Out::of(ctx.command().args(eval_args("a.txt")));
    let b = Out::of(ctx.command().args(eval_args("b.txt")));
    assert_eq!((a.code, b.code), (Some(0), Some(0)), "{}", a.stderr);
    assert_eq!(a.stdout, b.stdout);
    assert_contains(&a.stdout, "\"recall@1\":1");
}

// ---- queries-file rows that match no query ----

#[test]
fn queries_row_matches_nothing() {
    let ctx = clean_comparison();
    // A trailing space: "q03 " is no query, so q03 would silently leave lang=ko.
    let q = queries("ko").replace("\"q03\"", "\"q03 \"");
    ctx.write("q.jsonl", &q);
    let o = ctx.check(&[]);
    assert_input_error(
        &o,
        &[
            "q.jsonl:3: 1 row match no query of b.jsonl or c.jsonl: \"q03 \" (line 3)",
            "1 id is written two ways",
            "\"q03 \" in q.jsonl is \"q03\" in b.jsonl",
        ],
    );
}

#[test]
fn queries_row_matches_nothing_intersect() {
    let ctx = clean_comparison();
    ctx.write("q.jsonl", &(queries("ko") + "{\"query_id\":\"extra\"}\n"));
    ctx.gate(by_lang("missing = \"intersect\"", ""));
    let o = ctx.check(&[]);
    assert_eq!(o.code, Some(0), "{}", o.stderr);
    assert_contains(&o.stdout, "1 row of the queries file matches no query");
}

// ---- NaN and inverted intervals ----

#[test]
fn exponential_gain_overflow() {
    let ctx = TestContext::new().timeout(TIMEOUT);
    ctx.write("qrels.txt", "q1 0 A 2000\nq1 0 B 1999\n");
    ctx.write("run.txt", "q1 Q0 A 1 2 t\nq1 Q0 B 2 1 t\n");
    let o = ctx.run(&[
        "eval",
        "--run",
        "run.txt",
        "--qrels",
        "qrels.txt",
        "--metrics",
        "ndcg@10",
        "--gain",
        "exponential",
    ]);
    assert_input_error(
        &o,
        &[
            "qrels.txt:1: query \"q1\" has a grade 2000",
            "--gain exponential",
        ],
    );
    // The linear gain has no overflow: the same files evaluate.
    let lin = ctx.run(&[
        "eval",
        "--run",
        "run.txt",
        "--qrels",
        "qrels.txt",
        "--metrics",
        "ndcg@10",
    ]);
    assert_eq!(lin.code, Some(0), "{}", lin.stderr);
}

/// The JSON report of `check` (exit 0 or 1).
fn report(ctx: &TestContext, args: &[&str]) -> serde_json::Value {
    ctx.check_json(args).verdict_json().1
}

#[test]
fn bca_large_values() {
    let ctx = clean_comparison();
    let lat = |cand: bool| -> String {
        (1..=N)
            .map(|i| {
                let v = (i * i) as f64 * 3e297 + if cand { 1e297 } else { 0.0 };
                format!("{{\"query_id\":\"q{i:02}\",\"ndcg@10\":0.5,\"latency_ms\":{v:e}}}\n")
            })
            .collect()
    };
    ctx.write("b.jsonl", lat(false));
    ctx.write("c.jsonl", lat(true));
    let g = by_lang("", "method = \"bca\"").replace(
        "metric = \"ndcg@10\"\nmax-drop = 0.4",
        "metric = \"latency_ms\"\nhigher-is-better = true\nmax-drop = 1e300",
    );
    ctx.gate(&g);
    let r = report(&ctx, &[]);
    for c in r["comparisons"].as_array().unwrap() {
        let (lo, hi) = (c["ci"][0].as_f64(), c["ci"][1].as_f64());
        let (Some(lo), Some(hi)) = (lo, hi) else {
            panic!("a bound is not a number: {c}");
        };
        assert!(lo.is_finite() && hi.is_finite() && lo <= hi, "{c}");
    }
}

#[test]
fn confidence_beyond_resamples() {
    let ctx = clean_comparison();
    ctx.gate(by_lang("", "confidence = 0.999\nmethod = \"bca\""));
    let o = ctx.check(&[]);
    assert_input_error(
        &o,
        &[
            "confidence 0.999 with 200 resamples",
            "(1 − confidence) × resamples ≥ 2",
        ],
    );
    // Enough resamples: accepted, and the interval is in order.
    let r = report(&ctx, &["--resamples", "4000"]);
    for c in r["comparisons"].as_array().unwrap() {
        let (lo, hi) = (c["ci"][0].as_f64().unwrap(), c["ci"][1].as_f64().unwrap());
        assert!(lo <= hi, "{c}");
    }
}

// ---- a key twice in one JSON object ----

fn with_line(text: &str, line: usize, new: &str) -> String {
    let mut l: Vec<&str> = text.lines().collect();
    l[line - 1] = new;
    l.join("\n") + "\n"
}

#[test]
fn json_metric_twice() {
    let ctx = clean_comparison();
    let c = with_line(
        &jsonl(true),
        4,
        "{\"query_id\":\"q04\",\"ndcg@10\":0.1,\"ndcg@10\":0.9}",
    );
    ctx.write("c.jsonl", &c);
    let o = ctx.check(&[]);
    assert_input_error(
        &o,
        &["c.jsonl:4: key \"ndcg@10\" given twice in one object at column"],
    );
}

#[test]
fn json_query_id_twice() {
    let ctx = clean_comparison();
    let c = with_line(
        &jsonl(true),
        2,
        "{\"query_id\":\"q02\",\"query_id\":\"q99\",\"ndcg@10\":0.5}",
    );
    ctx.write("c.jsonl", &c);
    let o = ctx.check(&[]);
    assert_input_error(&o, &["c.jsonl:2: key \"query_id\" given twice"]);
}

#[test]
fn json_slice_tag_twice() {
    let ctx = clean_comparison();
    let q = with_line(
        &queries("ko"),
        3,
        "{\"query_id\":\"q03\",\"slices\":{\"lang\":\"ko\",\"lang\":\"en\"}}",
    );
    ctx.write("q.jsonl", &q);
    let o = ctx.check(&[]);
    assert_input_error(&o, &["q.jsonl:3: key \"lang\" given twice"]);
}

#[test]
fn qrels_jsonl_doc_twice() {
    let ctx = TestContext::new().timeout(TIMEOUT);
    ctx.write(
        "qrels.jsonl",
        "{\"query_id\":\"q1\",\"gold\":{\"A\":1,\"A\":0}}\n",
    );
    ctx.write("run.jsonl", "{\"query_id\":\"q1\",\"ranked\":[\"A\"]}\n");
    let o = ctx.run(&[
        "eval",
        "--run",
        "run.jsonl",
        "--qrels",
        "qrels.jsonl",
        "--metrics",
        "recall@1",
    ]);
    assert_input_error(&o, &["qrels.jsonl:1: ", "duplicate key \"A\""]);
}

// ---- ids that cannot round-trip ----

fn eval_jsonl_ids(ctx: &TestContext, id: &str, format: &str) -> Out {
    let q = json(id);
    ctx.write(
        "qrels.jsonl",
        format!("{{\"query_id\":{q},\"gold\":[\"A\"]}}\n"),
    );
    ctx.write(
        "run.jsonl",
        format!("{{\"query_id\":{q},\"ranked\":[\"A\"]}}\n"),
    );
    Out::of(ctx.command().args([
        "eval",
        "--run",
        "run.jsonl",
        "--qrels",
        "qrels.jsonl",
        "--metrics",
        "recall@1",
        "--format",
        format,
    ]))
}

#[test]
fn eval_trec_id_all() {
    let ctx = TestContext::new().timeout(TIMEOUT);
    let o = eval_jsonl_ids(&ctx, "all", "trec");
    assert_input_error(
        &o,
        &[
            "query id \"all\" cannot be written with --format trec",
            "--format jsonl",
        ],
    );
    assert_eq!(eval_jsonl_ids(&ctx, "all", "jsonl").code, Some(0));
}

#[test]
fn eval_trec_id_white_space() {
    let ctx = TestContext::new().timeout(TIMEOUT);
    for id in ["a b", "a\tb", "a\u{a0}b", "a\nb"] {
        let o = eval_jsonl_ids(&ctx, id, "trec");
        assert_input_error(&o, &["cannot be written with --format trec"]);
    }
    let o = eval_jsonl_ids(&ctx, " q1", "csv");
    assert_input_error(
        &o,
        &["query id \" q1\" cannot be written with --format csv"],
    );
    // What is written reads back: eval's trec output of a plain id is a valid check input.
    let ok = eval_jsonl_ids(&ctx, "q-1", "trec");
    assert_eq!(ok.code, Some(0), "{}", ok.stderr);
    assert!(ok.stdout.starts_with("recall_1\tq-1\t1\n"), "{}", ok.stdout);
}

// ---- untrusted text stays text ----

/// No line of `s` starts a workflow command other than rag-gate's own.
fn no_smuggled_commands(s: &str) {
    for l in s.lines() {
        let t = l.trim_start();
        assert!(
            !t.starts_with("::")
                || t.starts_with("::error title=rag-gate::")
                || t.starts_with("::warning title=rag-gate::"),
            "a smuggled workflow command: {l}"
        );
    }
}

#[test]
fn name_workflow_command() {
    let ctx = clean_comparison();
    let evil = "ko\n::add-mask::x\n::error::pwned\r\n::set-output name=verdict::pass";
    ctx.write("q.jsonl", queries(evil));
    let g = by_lang("", "").replace("max-drop = 0.4", "max-drop = 0.0\nslices = \"critical\"") + "";
    let g = g.replace(
        "min-queries = 1\n",
        &format!(
            "min-queries = 1\ncritical = [{}]\n",
            json(&format!("lang={evil}"))
        ),
    );
    ctx.gate(&g);
    for args in [&[][..], &["--format", "markdown"][..]] {
        let mut cmd = ctx.command();
        cmd.env("GITHUB_ACTIONS", "true");
        let o = Out::of(cmd.arg("check").arg("gate.toml").args(args));
        assert!(matches!(o.code, Some(0 | 1)), "{}", o.stderr);
        no_smuggled_commands(&o.stdout);
        no_smuggled_commands(&o.stderr);
        assert!(!o.stdout.contains("\n::error::pwned"), "{}", o.stdout);
    }
    // An error message about such a name is one line.
    let g2 = g.replace("lang=ko", "lang=none");
    let bad = g2.replace(
        &json(&format!("lang={evil}")),
        &json(&format!("lang={evil}!")),
    );
    ctx.gate(&bad);
    let o = ctx.check(&[]);
    assert_eq!(o.code, Some(2), "{}", o.stderr);
    no_smuggled_commands(&o.stderr);
}

#[test]
fn name_ansi_escape() {
    let ctx = clean_comparison();
    ctx.write("q.jsonl", queries("ko\u{1b}[2J\u{1b}]0;owned\u{7}"));
    let o = ctx.check(&[]);
    assert!(matches!(o.code, Some(0 | 1)), "{}", o.stderr);
    assert!(
        !o.stdout.contains('\u{1b}') && !o.stderr.contains('\u{1b}'),
        "{:?}",
        o.stdout
    );
    assert_contains(&o.stdout, "lang=ko\\u{1b}[2J");
}

#[test]
fn name_bidi_markdown() {
    let ctx = clean_comparison();
    ctx.write("q.jsonl", queries("ko\u{202e}ssap\u{2066}"));
    for fmt in ["markdown", "text"] {
        let o = ctx.check(&["--format", fmt]);
        assert!(matches!(o.code, Some(0 | 1)), "{}", o.stderr);
        for c in [
            '\u{202a}', '\u{202b}', '\u{202c}', '\u{202d}', '\u{202e}', '\u{2066}', '\u{2067}',
            '\u{2068}', '\u{2069}',
        ] {
            assert!(!o.stdout.contains(c), "[{fmt}] {c:?} in the report");
        }
    }
}

#[test]
fn name_10mb_tag() {
    let ctx = clean_comparison();
    let big = "t".repeat(10 << 20);
    // A 10 MB tag name: in the report a cut name, in an error a short message.
    let q = with_line(
        &queries("ko"),
        1,
        &format!("{{\"query_id\":\"q01\",\"slices\":{{\"{big}\":\"x\"}}}}"),
    );
    ctx.write("q.jsonl", &q);
    let g = by_lang("", "").replace("by = [\"lang\"]", "by = [\"lang\", \"nope\"]");
    ctx.gate(&g);
    let o = ctx.check(&[]);
    assert_input_error(&o, &["no query has the tag \"nope\"", "tttttttttt…"]);
}

// ---- secrets ----

fn publish_env(cmd: &mut assert_cmd::Command, api: &str, token: &str) {
    cmd.env("GITHUB_API_URL", api)
        .env("GITHUB_TOKEN", token)
        .env("GITHUB_REPOSITORY", "octo/repo");
}

/// `check --comment --pr 7` in the folder, publishing to `api` with `token`.
fn comment_to(ctx: &TestContext, api: &str, token: &str) -> Out {
    let mut cmd = ctx.command();
    publish_env(&mut cmd, api, token);
    Out::of(cmd.args(["check", "gate.toml", "--comment", "--pr", "7"]))
}

#[test]
fn api_url_credentials() {
    let ctx = clean_comparison();
    let clean = ctx.check(&[]).code;
    for api in [
        "http://user:s3cretpass@127.0.0.1:9/api",
        "http://127.0.0.1:9/api?access_token=s3cretpass",
    ] {
        let o = comment_to(&ctx, api, "tok_abcdefgh");
        assert_eq!(o.code, clean, "the verdict stands: {}", o.stderr);
        assert!(
            !o.stderr.contains("s3cretpass") && !o.stdout.contains("s3cretpass"),
            "{}",
            o.stderr
        );
        assert_contains(&o.stderr, "carries credentials");
    }
}

#[test]
fn token_control_character() {
    let ctx = clean_comparison();
    let clean = ctx.check(&[]).code;
    for token in ["tok\nX-Evil: 1", "tok\u{7f}en", "tok en"] {
        let o = comment_to(&ctx, "http://127.0.0.1:9", token);
        assert_eq!(o.code, clean, "not a panic, the verdict: {}", o.stderr);
        assert_contains(&o.stderr, "cannot go in an HTTP header");
        assert!(!o.stderr.contains("panicked"), "{}", o.stderr);
    }
}

// ---- runner files ----

#[test]
fn summary_fifo() {
    let ctx = clean_comparison();
    let clean = ctx.check(&[]).code;
    for var in ["GITHUB_STEP_SUMMARY", "GITHUB_OUTPUT"] {
        let fifo = ctx.path().join(format!("{var}.fifo"));
        mkfifo(&fifo);
        let mut cmd = ctx.command();
        cmd.env(var, &fifo);
        let o = Out::of(cmd.args(["check", "gate.toml"]));
        assert_eq!(o.code, clean, "{}", o.stderr);
        assert!(
            o.stderr.contains("not a regular file"),
            "[{var}] {}",
            o.stderr
        );
    }
    // A device is refused the same way.
    let mut cmd = ctx.command();
    cmd.env("GITHUB_OUTPUT", "/dev/null");
    let o = Out::of(cmd.args(["check", "gate.toml"]));
    assert_contains(&o.stderr, "not a regular file");
}

#[test]
fn event_path_endless() {
    let ctx = clean_comparison();
    let fifo = ctx.path().join("event.fifo");
    mkfifo(&fifo);
    for event in [Path::new("/dev/zero"), fifo.as_path()] {
        let mut cmd = ctx.command();
        publish_env(&mut cmd, "http://127.0.0.1:9", "tok_abcdefgh");
        cmd.env("GITHUB_EVENT_PATH", event);
        let o = Out::of(cmd.args(["check", "gate.toml", "--comment"]));
        assert!(matches!(o.code, Some(0 | 1)), "{}", o.stderr);
        assert_contains(&o.stderr, "not a regular file");
    }
}

// ---- resources ----

/// Ids crafted against the old unseeded FxHash: same length, same first four bytes.
fn crafted_ids(n: usize) -> Vec<String> {
    let a = b"abcdefghijklmnopqrstuvwxyz0123456789";
    (0..n)
        .map(|i| {
            let tail: String = (0..4)
                .map(|k| a[(i / 36usize.pow(k)) % 36] as char)
                .collect();
            format!("DDDD{tail}")
        })
        .collect()
}

#[test]
fn crafted_doc_ids() {
    // Correct numbers on crafted ids (their speed is in `cargo bench --bench doc_ids`).
    let ctx = TestContext::new().timeout(TIMEOUT);
    let ids = crafted_ids(20_000);
    let run_text: String = ids
        .iter()
        .enumerate()
        .map(|(r, d)| format!("q1 Q0 {d} {} {} t\n", r + 1, 1e6 - r as f64))
        .collect();
    ctx.write("run.txt", &run_text);
    ctx.write(
        "qrels.txt",
        format!("q1 0 {} 1\nq1 0 {} 1\n", ids[0], ids[19_999]),
    );
    let o = ctx.run(&[
        "eval",
        "--run",
        "run.txt",
        "--qrels",
        "qrels.txt",
        "--metrics",
        "recall@1,recall@20000",
    ]);
    assert_eq!(o.code, Some(0), "{}", o.stderr);
    assert_eq!(
        o.stdout,
        "{\"query_id\":\"q1\",\"recall@1\":0.5,\"recall@20000\":1.0}\n"
    );
    // A doc twice among them is still found.
    ctx.write(
        "run.txt",
        &(run_text + &format!("q1 Q0 {} 20001 0 t\n", ids[777])),
    );
    let o = ctx.run(&[
        "eval",
        "--run",
        "run.txt",
        "--qrels",
        "qrels.txt",
        "--metrics",
        "recall@1",
    ]);
    assert_input_error(&o, &[&format!("doc \"{}\" appears twice", ids[777])]);
}

#[test]
fn many_critical_slices() {
    // 2,000 critical slices through the binary (100,000 are timed by bench/hostile/slices.sh).
    let ctx = TestContext::new().timeout(TIMEOUT);
    let n = 2_000;
    let rows = |cand: bool| -> String {
        (0..n)
            .map(|i| {
                format!(
                    "{{\"query_id\":\"q{i}\",\"ndcg@10\":{},\"slices\":{{\"t\":\"v{i}\"}}}}\n",
                    ndcg(i, cand)
                )
            })
            .collect()
    };
    ctx.write("b.jsonl", rows(false));
    ctx.write("c.jsonl", rows(true));
    let critical: Vec<String> = (0..n).map(|i| json(&format!("t=v{i}"))).collect();
    ctx.gate(
        GateFile::new("b.jsonl", "c.jsonl")
            .resamples(40)
            .table(
                "slices",
                &format!("critical = [{}]\nmin-queries = 1", critical.join(", ")),
            )
            .gate("ndcg@10", "max-drop = 0.4\nslices = \"critical\""),
    );
    let r = report(&ctx, &[]);
    assert_eq!(r["gates"].as_array().unwrap().len(), n + 1);
}

// ---- outputs ----

#[test]
fn same_output_twice() {
    let ctx = clean_comparison();
    std::fs::create_dir(ctx.path().join("out")).unwrap();
    for (a, b) in [("r.json", "r.json"), ("r.json", "./out/../r.json")] {
        let o = ctx.check(&["-o", a, "--export-json", b]);
        let both = format!("--output {a} and --export-json {b} name the same file");
        assert_input_error(&o, &[both.as_str()]);
        assert!(!ctx.path().join("r.json").exists(), "a file was written");
    }
    let o = ctx.check(&["--export-json", "r.json", "--export-markdown", "r.json"]);
    assert_input_error(
        &o,
        &["--export-json r.json and --export-markdown r.json name the same file"],
    );
}

#[test]
fn dump_config_max_seed() {
    let ctx = clean_comparison();
    let o = ctx.check(&["--dump-config", "--seed", "18446744073709551615"]);
    assert_input_error(
        &o,
        &["--seed 18446744073709551615: expected 0 to 9223372036854775807"],
    );
    // The largest accepted seed is printed so that the loader takes it back.
    let o = ctx.check(&["--dump-config", "--seed", "9223372036854775807"]);
    assert_eq!(o.code, Some(0), "{}", o.stderr);
    ctx.write("dumped.toml", &o.stdout);
    let again = ctx.check_file("dumped.toml", &["--dump-config"]);
    assert_eq!(again.code, Some(0), "{}", again.stderr);
    assert_eq!(again.stdout, o.stdout);
}
