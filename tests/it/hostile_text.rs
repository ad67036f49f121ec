//! Hostile text, one safe-text path: hostile strings planted in every
//! input field (query ids, doc ids, metric names, slice tags and values, file names, ir_metadata
//! fields, replicates, the `aa` noise file) and every command and section run on them, in every
//! format, under Actions too. No line of stdout, stderr or any written file may start a GitHub
//! workflow command (other than rag-gate's own `::error title=rag-gate::` /
//! `::warning title=rag-gate::`), contain the legacy `##[`, a raw control character (but tab),
//! a bidi control or a Unicode line separator, or start with text a line break in an input put
//! there (`FORGED`, or the final guard's `\::`, which means a renderer let a line break through).

use crate::support;

use std::path::PathBuf;
use std::time::Duration;

use support::Out;
use support::{GateFile, TestContext};

/// A name with a line break into a workflow command, a CR, `::add-mask::`, the legacy form,
/// an ANSI escape, a bidi override, a line separator and NEL.
const H: &str = "h\n::error::FORGED\r::add-mask::M ##[add-mask]N\u{1b}[31m\u{202e}\u{2028}\u{85}x";
/// The same without white space, for fields split on it (TREC runs and qrels).
const H_WORD: &str = "::add-mask::W##[add-mask]W\u{1b}[2J\u{202e}\u{2066}w";

/// A folder whose runs are killed after two minutes.
fn context() -> TestContext {
    TestContext::new().timeout(Duration::from_secs(120))
}

fn json_str(s: &str) -> String {
    serde_json::to_string(s).unwrap()
}

/// TOML basic string with escapes (TOML allows no raw control characters).
fn toml_str(s: &str) -> String {
    let mut o = String::from("\"");
    for c in s.chars() {
        match c {
            '"' | '\\' => {
                o.push('\\');
                o.push(c)
            }
            c if c.is_control() || (c as u32) > 0x7e => o.push_str(&format!("\\U{:08X}", c as u32)),
            c => o.push(c),
        }
    }
    o.push('"');
    o
}

fn is_own_command(line: &str) -> bool {
    line.starts_with("::error title=rag-gate::") || line.starts_with("::warning title=rag-gate::")
}

fn bad_char(c: char) -> bool {
    (c.is_control() && c != '\t')
        || matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' | '\u{200E}' | '\u{200F}' | '\u{061C}')
        || matches!(c, '\u{2028}' | '\u{2029}' | '\u{FEFF}')
}

/// Every line of `text` (from `what`) is safe to print on a runner.
fn assert_safe(what: &str, text: &str) {
    for (i, line) in text.split('\n').enumerate() {
        let t = line.trim_start();
        let at = format!("{what}, line {}: {line:?}", i + 1);
        assert!(
            !line.chars().any(bad_char),
            "raw control/bidi character in {at}"
        );
        if !is_own_command(line) {
            assert!(!t.starts_with("::"), "workflow command in {at}");
        }
        assert!(!line.contains("##["), "legacy workflow command in {at}");
        assert!(
            !t.starts_with("FORGED") && !t.starts_with("\\::"),
            "a line break from an input reached {at}"
        );
    }
}

/// Runs `args` in the folder (optionally as on an Actions runner) and checks stdout, stderr and
/// every file in the folder not in `inputs`. Returns the output for further checks.
fn sweep(ctx: &TestContext, args: &[&str], actions: bool, inputs: &[PathBuf]) -> Out {
    let mut cmd = ctx.command();
    cmd.args(args);
    if actions {
        cmd.env("GITHUB_ACTIONS", "true")
            .env("GITHUB_STEP_SUMMARY", ctx.join("summary.md"))
            .env("GITHUB_OUTPUT", ctx.join("gh-output.txt"));
    }
    let o = Out::of(&mut cmd);
    let what = format!("rag-gate {}", args.join(" "));
    eprintln!(
        "SWEEP {:?} {what} {}",
        o.code,
        o.stderr.lines().next().unwrap_or("")
    );
    assert!(
        o.code.is_some_and(|c| c <= 2),
        "{what}: {:?} {}",
        o.code,
        o.stderr
    );
    assert!(!o.stderr.contains("panicked"), "{what}: {}", o.stderr);
    assert_safe(&format!("{what}: stdout"), &o.stdout);
    assert_safe(&format!("{what}: stderr"), &o.stderr);
    for e in std::fs::read_dir(ctx.path()).unwrap() {
        let p = e.unwrap().path();
        if inputs.contains(&p) || !p.is_file() {
            continue;
        }
        let text = String::from_utf8_lossy(&std::fs::read(&p).unwrap()).into_owned();
        assert_safe(&format!("{what}: file {}", p.display()), &text);
        std::fs::remove_file(&p).unwrap();
    }
    o
}

fn inputs_of(ctx: &TestContext) -> Vec<PathBuf> {
    std::fs::read_dir(ctx.path())
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect()
}

/// 40 queries, one with the hostile id; ndcg@10 and a hostile metric column; a hostile slice tag.
fn metric_rows(drop: f64, shift: f64) -> String {
    (0..40)
        .map(|i| {
            let id = if i == 7 {
                format!("q07{H}")
            } else {
                format!("q{i:02}")
            };
            let v = 0.3 + ((i * 37) % 11) as f64 / 20.0 + shift - if i < 20 { drop } else { 0.0 };
            let tag = if i % 2 == 0 { H } else { "plain" };
            format!(
                "{{\"query_id\":{},\"ndcg@10\":{v:.4},{}:{:.4},\"slices\":{{{}:{}}}}}\n",
                json_str(&id),
                json_str(H),
                v / 2.0,
                json_str(H),
                json_str(tag)
            )
        })
        .collect()
}

/// `inputs` (the `[inputs]` lines) by the hostile tag, ndcg@10 gated, then `extra`.
fn hostile_gate(inputs: &str, extra: &str) -> GateFile {
    GateFile::default()
        .inputs_raw(inputs)
        .resamples(200)
        .table(
            "slices",
            &format!("by = [{}]\nmin-queries = 5", toml_str(H)),
        )
        .gate("ndcg@10", "max-drop = 0.01")
        .gates_raw(extra)
}

fn every_format(ctx: &TestContext) {
    let inputs = inputs_of(ctx);
    for f in ["text", "markdown", "json"] {
        sweep(ctx, &["check", "gate.toml", "--format", f], false, &inputs);
    }
    sweep(
        ctx,
        &[
            "check",
            "gate.toml",
            "--format",
            "json",
            "-o",
            "r.json",
            "--export-html",
            "r.html",
            "--export-markdown",
            "r.md",
        ],
        false,
        &inputs,
    );
    sweep(ctx, &["check", "gate.toml"], true, &inputs);
}

#[test]
fn check_with_hostile_metric_files_prints_nothing_unsafe() {
    let ctx = context();
    ctx.write("b.jsonl", metric_rows(0.0, 0.0));
    ctx.write("c.jsonl", metric_rows(0.2, 0.0));
    ctx.gate(hostile_gate(
        "baseline = \"b.jsonl\"\ncandidate = \"c.jsonl\"",
        "",
    ));
    every_format(&ctx);
    // A gate on the hostile metric itself, and [report] metrics naming it.
    let extra = format!("\n[[gate]]\nmetric = {}\nmax-drop = 0.01\n", toml_str(H));
    ctx.gate(hostile_gate(
        "baseline = \"b.jsonl\"\ncandidate = \"c.jsonl\"",
        &extra,
    ));
    every_format(&ctx);
    let extra = format!(
        "\n[[gate]]\nmetric = {}\nmax-drop = 0.01\n",
        toml_str(&format!("{H}@10"))
    );
    ctx.gate(hostile_gate(
        "baseline = \"b.jsonl\"\ncandidate = \"c.jsonl\"",
        &extra,
    ));
    every_format(&ctx);
}

#[test]
fn hostile_file_names_print_nothing_unsafe() {
    let ctx = context();
    let name = format!("c{H}.jsonl");
    ctx.write("b.jsonl", metric_rows(0.0, 0.0));
    ctx.write(&name, metric_rows(0.2, 0.0));
    ctx.gate(hostile_gate(
        &format!("baseline = \"b.jsonl\"\ncandidate = {}", toml_str(&name)),
        "",
    ));
    every_format(&ctx);
    // A missing file named like that.
    ctx.gate(hostile_gate(
        &format!(
            "baseline = \"b.jsonl\"\ncandidate = {}",
            toml_str(&format!("x{H}"))
        ),
        "",
    ));
    every_format(&ctx);
}

const AA_TO_NOISE_FILE: [&str; 7] = [
    "aa",
    "b0.jsonl",
    "b1.jsonl",
    "c0.jsonl",
    "c1.jsonl",
    "--output",
    "noise.json",
];

#[test]
fn replicates_and_aa_print_nothing_unsafe() {
    let ctx = context();
    for (n, drop, shift) in [
        ("b0", 0.0, 0.0),
        ("b1", 0.0, 0.01),
        ("c0", 0.2, 0.0),
        ("c1", 0.2, -0.01),
    ] {
        ctx.write(format!("{n}.jsonl"), metric_rows(drop, shift));
    }
    ctx.gate(hostile_gate(
        "baseline = [\"b0.jsonl\", \"b1.jsonl\"]\ncandidate = [\"c0.jsonl\", \"c1.jsonl\"]",
        "",
    ));
    every_format(&ctx);
    let inputs = inputs_of(&ctx);
    for f in ["text", "json"] {
        let args = [
            "aa", "b0.jsonl", "b1.jsonl", "c0.jsonl", "c1.jsonl", "--format", f,
        ];
        sweep(&ctx, &args, false, &inputs);
    }
    let args = AA_TO_NOISE_FILE;
    let o = sweep(&ctx, &args, false, &inputs);
    assert!(o.code.is_some_and(|c| c < 2), "{}", o.stderr);
    // The sweep removed what it checked; write the noise file again for `[noise] file`.
    Out::of(ctx.command().args(args));
    ctx.gate(hostile_gate(
        "baseline = \"b0.jsonl\"\ncandidate = \"c0.jsonl\"",
        "\n[noise]\nfile = \"noise.json\"\n",
    ));
    every_format(&ctx);
    let inputs = inputs_of(&ctx);
    sweep(&ctx, &["compare", "b0.jsonl", "c0.jsonl"], false, &inputs);
    let hb = ["compare", "b0.jsonl", "c0.jsonl", "--higher-is-better", H];
    sweep(&ctx, &hb, false, &inputs);
}

/// A TREC run with a hostile ir_metadata header, query and doc ids.
fn trec_run(shift: usize) -> String {
    let yaml_h = json_str(H); // JSON strings are YAML double-quoted strings
    let mut s = format!(
        "# ir_metadata.start\n# tag: {yaml_h}\n# method:\n#   retrieval:\n#     - name: {yaml_h}\n#       model: {yaml_h}\n# ir_metadata.end\n"
    );
    for q in 0..30 {
        let qid = if q == 3 {
            format!("q3{H_WORD}")
        } else {
            format!("q{q}")
        };
        for r in 0..10 {
            let doc = if r == (q + shift) % 10 {
                format!("D{H_WORD}{r}")
            } else {
                format!("d{q}-{r}")
            };
            s.push_str(&format!("{qid} Q0 {doc} {} {} t\n", r + 1, 10 - r));
        }
    }
    s
}

fn qrels() -> String {
    let mut s = String::new();
    for q in 0..30 {
        let qid = if q == 3 {
            format!("q3{H_WORD}")
        } else {
            format!("q{q}")
        };
        s.push_str(&format!("{qid} 0 d{q}-0 1\n{qid} 0 d{q}-5 0\n"));
    }
    s
}

#[test]
fn runs_with_hostile_ir_metadata_and_ids_print_nothing_unsafe() {
    let ctx = context();
    ctx.write("b.trec", trec_run(0));
    ctx.write("c.trec", trec_run(3));
    ctx.write("qrels.txt", qrels());
    ctx.gate(
        GateFile::default()
            .input("baseline", "{ run = \"b.trec\" }")
            .input("candidate", "{ run = \"c.trec\" }")
            .path("qrels", "qrels.txt")
            .resamples(200)
            .table("slices", "min-queries = 5")
            .gate("ndcg@10", "max-drop = 0.01"),
    );
    every_format(&ctx);
    let inputs = inputs_of(&ctx);
    sweep(
        &ctx,
        &["check", "gate.toml", "--holes", "holes.txt"],
        false,
        &inputs,
    );
    for f in ["trec", "csv", "jsonl", "json"] {
        let args = [
            "eval",
            "--qrels",
            "qrels.txt",
            "--run",
            "c.trec",
            "--metrics",
            "ndcg@10",
            "--format",
            f,
        ];
        let o = sweep(&ctx, &args, false, &inputs);
        // Text formats refuse an id the output guard would change; JSON carries it exactly.
        let want = if matches!(f, "trec" | "csv") { 2 } else { 0 };
        assert_eq!(o.code, Some(want), "{f}: {}", o.stderr);
        let mut with_files = args.to_vec();
        with_files.extend(["-o", "rows.out", "--holes", "h.txt"]);
        sweep(&ctx, &with_files, false, &inputs);
    }
    let unknown = [
        "eval",
        "--qrels",
        "qrels.txt",
        "--run",
        "c.trec",
        "--metrics",
        H,
    ];
    sweep(&ctx, &unknown, false, &inputs);
    // Protocol mismatch: the sides evaluated on different qrels, under hostile file names.
    // (Other grades, the same documents: doc ids that never met the qrels would stop `eval`.)
    ctx.write("qrels2.txt", qrels().replace("-5 0\n", "-5 2\n"));
    let (bn, cn) = (format!("b{H_WORD}.jsonl"), format!("c{H_WORD}.jsonl"));
    for (q, r, n) in [("qrels.txt", "b.trec", &bn), ("qrels2.txt", "c.trec", &cn)] {
        Out::of(ctx.command().args([
            "eval",
            "--qrels",
            q,
            "--run",
            r,
            "--metrics",
            "ndcg@10",
            "-o",
            n,
        ]));
    }
    ctx.gate(
        GateFile::default()
            .input("baseline", toml_str(&bn))
            .input("candidate", toml_str(&cn))
            .resamples(200)
            .gate("ndcg@10", "max-drop = 0.01"),
    );
    let o = sweep(&ctx, &["check", "gate.toml"], false, &inputs_of(&ctx));
    assert!(o.stderr.contains("protocol mismatch"), "{}", o.stderr);
}

#[test]
fn holes_refuse_ids_that_would_forge_a_qrels_line() {
    let ctx = context();
    ctx.write("qrels.json", "{\"q1\": {\"d0\": 1}}\n");
    for bad in ["d1\nq1 0 FORGED 2", "d1 0 x", "d1\tx", "d1\r"] {
        let run = format!("{{\"q1\": {{\"d0\": 2.0, {}: 1.0}}}}\n", json_str(bad));
        ctx.write("run.json", run);
        let inputs = inputs_of(&ctx);
        let args = [
            "eval",
            "--qrels",
            "qrels.json",
            "--run",
            "run.json",
            "--metrics",
            "ndcg@10",
            "--holes",
            "h.txt",
        ];
        let o = sweep(&ctx, &args, false, &inputs);
        assert_eq!(o.code, Some(2), "{bad:?}: {}", o.stderr);
        assert!(o.stderr.contains("--holes"), "{}", o.stderr);
        assert!(!ctx.path().join("h.txt").exists());
    }
}

#[test]
fn issue_references_and_urls_in_ids_do_not_link() {
    let ctx = context();
    let id = "GH-123 https://github.com/o/r/issues/1 www.x.io #7 @bob";
    let rows = |drop: f64| -> String {
        (0..40)
            .map(|i| {
                let q = if i == 0 {
                    id.to_string()
                } else {
                    format!("q{i:02}")
                };
                let v = 0.5 + (i % 7) as f64 / 20.0 - if i == 0 { drop } else { drop / 10.0 };
                format!("{{\"query_id\":{},\"ndcg@10\":{v:.4}}}\n", json_str(&q))
            })
            .collect()
    };
    ctx.write("b.jsonl", rows(0.0));
    ctx.write("c.jsonl", rows(0.4));
    ctx.gate(
        GateFile::new("b.jsonl", "c.jsonl")
            .resamples(200)
            .gate("ndcg@10", "max-drop = 0.01"),
    );
    let o = sweep(
        &ctx,
        &["check", "gate.toml", "--format", "markdown"],
        false,
        &inputs_of(&ctx),
    );
    assert_eq!(o.code, Some(1), "{}", o.stderr);
    let j = "&#8288;";
    for want in [
        format!("GH{j}-123"),
        format!("https:{j}//github.com/o/r/issues/1"),
        format!("www{j}.x.io"),
        format!("#{j}7"),
        format!("@{j}bob"),
    ] {
        assert!(o.stdout.contains(&want), "no {want:?} in {}", o.stdout);
    }
    for raw in ["GH-123", "https://github.com/o", "www.x", "#7", "@bob"] {
        assert!(!o.stdout.contains(raw), "{raw:?} would link: {}", o.stdout);
    }
}

#[test]
fn a_piped_run_says_its_ir_metadata_is_not_read() {
    let ctx = context();
    ctx.write("qrels.txt", qrels());
    let run = trec_run(0).replace(H, "bm25").replace(&json_str(H), "bm25");
    ctx.write("run.trec", &run);
    let eval = |run_arg: &str| {
        let mut c = ctx.command();
        c.args([
            "eval",
            "--qrels",
            "qrels.txt",
            "--metrics",
            "ndcg@10",
            "--run",
            run_arg,
        ]);
        c.args(["--format", "jsonl", "-o", "rows.jsonl"]);
        c.write_stdin(run.clone());
        let o = Out::of(&mut c);
        assert_eq!(o.code, Some(0), "{}", o.stderr);
        let sidecar = std::fs::read_to_string(ctx.path().join("rows.jsonl.protocol.json")).unwrap();
        (o.stderr, sidecar)
    };
    let (stderr, sidecar) = eval("-");
    assert!(
        stderr.contains("note: the run came on standard input, which is read once: an ir_metadata header in it (tag, method, model) is not read"),
        "{stderr}"
    );
    assert!(!sidecar.contains("bm25"), "{sidecar}");
    // A pipe by another name says so too.
    let (stderr, sidecar) = eval("/dev/stdin");
    assert!(
        stderr.contains("note: the run came through a pipe or device (/dev/stdin), which is read once: an ir_metadata header in it"),
        "{stderr}"
    );
    assert!(!sidecar.contains("bm25"), "{sidecar}");
    let (stderr, sidecar) = eval("run.trec");
    assert!(!stderr.contains("standard input"), "{stderr}");
    assert!(
        sidecar.contains("bm25"),
        "the file's run context: {sidecar}"
    );
}

/// `html-well-formed`: a report whose p-values are below 0.0001 (shown `<0.0001`) and whose
/// names hold `<`, `&` and quotes: the HTML report is well-formed XML (every cell escaped).
#[test]
fn the_html_report_with_tiny_p_values_is_well_formed() {
    let ctx = context();
    let rows = |drop: f64| -> String {
        (0..300)
            .map(|i| {
                let v = 0.5 + ((i * 7) % 11) as f64 / 50.0 - drop;
                format!("{{\"query_id\":\"q<{i}&\\\"\",\"ndcg@10\":{v:.4},\"slices\":{{\"lang\":\"<b>&\"}}}}\n")
            })
            .collect()
    };
    ctx.write("b.jsonl", rows(0.0));
    ctx.write("c.jsonl", rows(0.2));
    ctx.write(
        "g.toml",
        GateFile::new("b.jsonl", "c.jsonl")
            .resamples(20000)
            .gate("ndcg@10", "max-drop = 0.05")
            .to_string(),
    );
    let o = ctx.run(&["check", "g.toml", "--export-html", "r.html"]);
    assert_eq!(o.code, Some(1), "{}", o.stderr);
    let html = std::fs::read_to_string(ctx.path().join("r.html")).unwrap();
    assert!(html.contains("&lt;0.0001"), "no escaped tiny p-value");
    let opts = roxmltree::ParsingOptions {
        allow_dtd: true,
        ..Default::default()
    };
    if let Err(e) = roxmltree::Document::parse_with_options(&html, opts) {
        panic!("the HTML report is not well-formed: {e}");
    }
}

/// `name-5000-characters`: two query ids of 5,002 characters that share their first 40, a slice
/// tag and value of 5,000 characters (a critical slice) and a 100-character gate id. Every
/// shown name is cut to its first 40 characters with `…` and its length in bytes — text,
/// Markdown (the report, the PR comment's body), HTML and its forest plot — and JSON keeps each
/// whole (identity: the two ids stay two queries, each with its own numbers).
#[test]
fn name_5000_characters() {
    let ctx = context();
    let (long_q, tag, value) = ("Q".repeat(5000), "s".repeat(5000), "v".repeat(5000));
    let (mut b, mut c) = (String::new(), String::new());
    for i in 0..40 {
        let qid = match i < 2 {
            true => format!("{long_q}q{i}"),
            false => format!("q{i}"),
        };
        let v = 0.5 + (i % 7) as f64 / 20.0;
        let drop = if i < 2 { 0.3 + i as f64 / 10.0 } else { 0.01 };
        let t = if i % 2 == 1 { value.as_str() } else { "x" };
        for (out, x) in [(&mut b, v), (&mut c, v - drop)] {
            out.push_str(&format!(
                "{{\"query_id\":\"{qid}\",\"ndcg@10\":{x},\"slices\":{{\"{tag}\":\"{t}\"}}}}\n"
            ));
        }
    }
    ctx.write("b.jsonl", b);
    ctx.write("c.jsonl", c);
    ctx.gate(
        GateFile::new("b.jsonl", "c.jsonl")
            .id(&"g".repeat(100))
            .resamples(200)
            .table(
                "slices",
                &format!("critical = [\"{tag}={value}\"]\nmin-queries = 5"),
            )
            .gate("ndcg@10", "max-drop = 0.005\nslices = \"critical\""),
    );
    let run = |args: &[&str]| -> Out {
        let o = Out::of(ctx.command().args(["check", "gate.toml"]).args(args));
        assert_eq!(o.code, Some(1), "{}", o.stderr);
        o
    };
    let longest_run = |text: &str, ch: char| -> usize {
        text.split(|x| x != ch).map(str::len).max().unwrap_or(0)
    };
    let text = run(&[]).stdout;
    let markdown = run(&["--format", "markdown"]).stdout;
    run(&["--export-html", "r.html"]);
    let html = ctx.read("r.html");
    // The comment's first line is its marker, which keys the sticky comment by the whole id.
    let (marker, body) = markdown.split_once('\n').unwrap();
    for (what, shown) in [
        ("text", &text),
        ("markdown", &body.to_string()),
        ("html", &html),
    ] {
        for ch in ['Q', 's', 'v', 'g'] {
            assert!(
                longest_run(shown, ch) <= 40,
                "{what}: a name of {ch:?} shown {} characters long",
                longest_run(shown, ch)
            );
        }
        assert!(
            shown.contains("… (5002 bytes)"),
            "{what}: the query ids' marker"
        );
        assert!(
            shown.contains("… (10001 bytes)"),
            "{what}: the slice's marker"
        );
    }
    assert!(markdown.contains(&format!("{}… (100 bytes)", "g".repeat(40))));
    // The comment's marker keys the sticky comment: the id stays whole there.
    assert!(marker.starts_with(&format!("<!-- rag-gate:v1 id={} ", "g".repeat(100))));
    let json: serde_json::Value = serde_json::from_str(&run(&["--format", "json"]).stdout).unwrap();
    let worst = json.to_string();
    for i in 0..2 {
        assert!(
            worst.contains(&format!("\"{long_q}q{i}\"")),
            "query {i} whole in JSON"
        );
    }
    assert!(
        worst.contains(&format!("\"{tag}={value}\"")),
        "the slice whole in JSON"
    );
}
