//! "A verdict nobody can fool by accident", through the binary: no silent passes, no
//! destroyed files, every message true. Each exit-2 case id is a row of the bad-input table
//! (README.md section "Bad input", or docs/bad-input.md); `every_case_is_documented` keeps the
//! two in step. `TRUST_DUMP=FILE cargo test --test it trust_cases::` writes each case's row to FILE.

use crate::support;

use std::path::Path;

use support::output::{append_to, assert_contains, first_line_cell, missing_in_order};
use support::Out;
use support::{in_repo, GateFile, TestContext};

/// `n` queries; the candidate's ndcg@10 is `shift` away from the baseline's on each, give or
/// take 0.002 (the change is `shift` on average over every five queries); `latency_ms` rises by
/// `rise`, give or take 0.2 ms. Every query is tagged lang=en, except the first `ko` ones,
/// tagged lang=ko.
fn data(ctx: &TestContext, n: usize, base: f64, shift: f64, rise: f64, ko: usize) {
    let mut b = String::new();
    let mut c = String::new();
    for i in 0..n {
        let lang = if i < ko { "ko" } else { "en" };
        let wiggle = 0.01 * ((i * 7 % 5) as f64 - 2.0);
        let jitter = (i * 3 % 5) as f64 - 2.0;
        let bv = (base + wiggle).clamp(0.0, 1.0);
        let cv = (base + shift + wiggle + 0.001 * jitter).clamp(0.0, 1.0);
        let rise = rise + 0.1 * jitter;
        let lat = 100.0 + (i % 9) as f64;
        b.push_str(&format!("{{\"query_id\":\"q{i:03}\",\"ndcg@10\":{bv},\"recall@30\":{bv},\"latency_ms\":{lat},\"slices\":{{\"lang\":\"{lang}\"}}}}\n"));
        c.push_str(&format!("{{\"query_id\":\"q{i:03}\",\"ndcg@10\":{cv},\"recall@30\":{bv},\"latency_ms\":{},\"slices\":{{\"lang\":\"{lang}\"}}}}\n", lat + rise));
    }
    ctx.write("b.jsonl", &b);
    ctx.write("c.jsonl", &c);
}

/// b.jsonl vs c.jsonl at 1000 resamples, then `rest` (tables and gates).
fn b_vs_c(rest: &str) -> GateFile {
    GateFile::new("b.jsonl", "c.jsonl")
        .resamples(1000)
        .raw(rest)
}

// ---------------------------------------------------------------- false passes

#[test]
fn a_small_set_that_collapses_fails_under_max_drop_and_under_min_mean() {
    let ctx = TestContext::new();
    data(&ctx, 20, 0.8, -0.6, 0.0, 0);
    for rule in ["max-drop = 0.01", "min-mean = 0.7"] {
        ctx.gate(b_vs_c(&format!("[[gate]]\nmetric = \"ndcg@10\"\n{rule}\n")));
        let o = ctx.check(&[]);
        assert_eq!(o.code, Some(1), "{rule}: {}{}", o.stdout, o.stderr);
        assert_contains(&o.stdout, "FAIL");
    }
    // min-mean is a fact about the mean: judged at any size, so it fails as itself.
    let o = ctx.check(&[]);
    assert_contains(
        &o.stdout,
        "ndcg@10 mean 0.2000 below the minimum 0.7000 on all",
    );
}

#[test]
fn all_below_min_queries_is_judged_on_its_interval_and_warns_by_default() {
    // 20 queries, every one better by 0.05: the interval judges it (a pass), and the size is
    // said as a warning, not a per-PR failure.
    let ctx = TestContext::new();
    data(&ctx, 20, 0.5, 0.05, 0.0, 0);
    ctx.gate(b_vs_c("[[gate]]\nmetric = \"ndcg@10\"\nmax-drop = 0.01\n"));
    let o = ctx.check(&[]);
    assert_eq!(o.code, Some(0), "{}", o.stdout);
    assert_contains(
        &o.stdout,
        "gate #1 ndcg@10 on all, max-drop: judged on 20 queries, fewer than min-queries 30: the interval decided",
    );
    // The same 20 queries all worse by 0.05: the interval fails it.
    data(&ctx, 20, 0.5, -0.05, 0.0, 0);
    let o = ctx.check(&[]);
    assert_eq!(o.code, Some(1), "{}", o.stdout);
    assert_contains(&o.stdout, "FAIL: ndcg@10 dropped");
}

#[test]
fn all_below_min_queries_is_not_judged_and_fails_under_on_small_slice_fail() {
    let ctx = TestContext::new();
    data(&ctx, 20, 0.5, 0.05, 0.0, 0);
    ctx.gate(b_vs_c(
        "[slices]\non-small-slice = \"fail\"\n[[gate]]\nmetric = \"ndcg@10\"\nmax-drop = 0.01\n",
    ));
    let o = ctx.check(&[]);
    assert_eq!(o.code, Some(1), "{}", o.stdout);
    assert_contains(
        &o.stdout,
        "ndcg@10 on all not judged: 20 queries, too few to judge max-drop",
    );
    assert_contains(&o.stdout, "not judged (FAIL)");
    // Lowering min-queries on purpose judges it.
    ctx.gate(b_vs_c(
        "[slices]\non-small-slice = \"fail\"\nmin-queries = 20\n[[gate]]\nmetric = \"ndcg@10\"\nmax-drop = 0.01\n",
    ));
    assert_eq!(ctx.check(&[]).code, Some(0));
}

#[test]
fn a_small_slice_is_not_judged_never_passed_and_never_the_headline_reason() {
    let ctx = TestContext::new();
    data(&ctx, 60, 0.5, 0.05, 0.0, 10);
    // on-small-slice = "warn": the slice warns (the default fails: tests/it/check_critical_slices.rs).
    let g = "[slices]\nby = [\"lang\"]\non-small-slice = \"warn\"\n[[gate]]\nmetric = \"ndcg@10\"\nmax-drop = 0.01\nslices = [\"all\", \"lang=ko\"]\n";
    ctx.gate(b_vs_c(g));
    let o = ctx.check(&["--format", "json"]);
    assert_eq!(o.code, Some(0), "{}", o.stderr);
    let v: serde_json::Value = serde_json::from_str(&o.stdout).unwrap();
    let ko = &v["gates"][1];
    assert_eq!(
        (
            ko["slice"].as_str(),
            ko["status"].as_str(),
            ko["passed"].as_bool()
        ),
        (Some("lang=ko"), Some("too-small"), Some(false))
    );
    let head = v["headline"].as_str().unwrap();
    assert_eq!(
        head,
        "PASS: 1 of 2 checks passed (1 gate); 1 not judged (slices too small), not passed"
    );
    // With on-small-slice = "fail" it fails, and a real failure elsewhere is the reason.
    ctx.gate(b_vs_c(
        &g.replace("on-small-slice = \"warn\"", "on-small-slice = \"fail\"")
            .replace("max-drop = 0.01", "max-drop = 0.01\nmin-mean = 0.9"),
    ));
    let o = ctx.check(&[]);
    assert_eq!(o.code, Some(1));
    assert!(
        o.stdout
            .starts_with("rag-gate gate: FAIL: ndcg@10 mean 0.5500 below the minimum 0.9000"),
        "{}",
        o.stdout
    );
}

#[test]
fn a_rise_of_a_lower_is_better_metric_fails_and_compare_reads_it_with_the_flag() {
    let ctx = TestContext::new();
    data(&ctx, 40, 0.5, 0.0, 40.0, 0);
    ctx.gate(b_vs_c(
        "[[gate]]\nmetric = \"latency_ms\"\nhigher-is-better = false\nmax-drop = 10.0\n",
    ));
    let o = ctx.check(&[]);
    assert_eq!(o.code, Some(1), "{}", o.stdout);
    assert_contains(&o.stdout, "latency_ms rose 40.0000");
    let o = ctx.run(&[
        "compare",
        "b.jsonl",
        "c.jsonl",
        "--lower-is-better",
        "latency_ms",
        "--format",
        "json",
    ]);
    let v: serde_json::Value = serde_json::from_str(&o.stdout).unwrap();
    let lat = v["comparisons"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["metric"] == "latency_ms")
        .unwrap();
    assert_eq!(lat["label"], "worse");
    assert_eq!(lat["higher_is_better"], false);
    // Without the flag, compare does not guess (a 9x rise once read "better"): latency_ms is
    // left out, named in a warning, and the metrics of known direction are compared.
    let o = ctx.run(&["compare", "b.jsonl", "c.jsonl"]);
    assert_eq!(o.code, Some(0), "{}", o.stderr);
    assert_contains(&o.stdout, "not compared, direction unknown: \"latency_ms\"; latency_ms: is a higher latency_ms better or worse? rag-gate knows the direction of IR metrics only; pass --lower-is-better latency_ms (latency, cost) or --higher-is-better latency_ms");
    assert!(!o.stdout.contains("latency_ms  "), "{}", o.stdout);
    let o = ctx.run(&[
        "compare",
        "b.jsonl",
        "c.jsonl",
        "--higher-is-better",
        "latency_ms",
    ]);
    assert_eq!(o.code, Some(0), "{}", o.stderr);
    assert!(!o.stdout.contains("direction unknown"), "{}", o.stdout);
}

#[test]
fn labels_say_better_for_an_interval_above_zero() {
    let ctx = TestContext::new();
    data(&ctx, 200, 0.5, 0.02, 0.0, 0);
    ctx.gate(b_vs_c("[[gate]]\nmetric = \"ndcg@10\"\nmax-drop = 0.01\n"));
    let o = ctx.check(&[]);
    assert_eq!(o.code, Some(0));
    assert_contains(&o.stdout, "better (±0.0100)");
    assert_contains(&o.stdout, "label, from the interval: better / worse");
    data(&ctx, 200, 0.5, 0.004, 0.0, 0);
    let o = ctx.check(&[]);
    assert_contains(&o.stdout, "better, below margin (±0.0100)");
}

#[test]
fn the_mde_warning_is_only_where_power_matters() {
    let ctx = TestContext::new();
    // 40 noisy queries, no real change: max-drop 0.01 cannot be shown, and the MDE says why.
    let mut b = String::new();
    let mut c = String::new();
    for i in 0..40 {
        let d = 0.2 * (((i * 37) % 11) as f64 - 5.0) / 5.0;
        b.push_str(&format!("{{\"query_id\":\"q{i}\",\"ndcg@10\":0.5}}\n"));
        c.push_str(&format!(
            "{{\"query_id\":\"q{i}\",\"ndcg@10\":{}}}\n",
            0.5 + d
        ));
    }
    ctx.write("b.jsonl", &b);
    ctx.write("c.jsonl", &c);
    ctx.gate(b_vs_c("[[gate]]\nmetric = \"ndcg@10\"\nmax-drop = 0.01\n"));
    let o = ctx.check(&[]);
    assert_eq!(o.code, Some(1));
    assert_contains(&o.stdout, "can only detect drops ≥");
    // A proven collapse, or a pass, needs no such warning.
    data(&ctx, 40, 0.8, -0.5, 0.0, 0);
    let o = ctx.check(&[]);
    assert_eq!(o.code, Some(1));
    assert!(!o.stdout.contains("can only detect"), "{}", o.stdout);
    data(&ctx, 40, 0.5, 0.05, 0.0, 0);
    let o = ctx.check(&[]);
    assert_eq!(o.code, Some(0));
    assert!(!o.stdout.contains("can only detect"), "{}", o.stdout);
}

// ---------------------------------------------------------------- files

fn eval_data(ctx: &TestContext) {
    let run: String = (1..=3)
        .flat_map(|q| (1..=4).map(move |d| format!("q{q} Q0 D{d} {d} {} t\n", 5 - d)))
        .collect();
    let qrels: String = (1..=3).map(|q| format!("q{q} 0 D{q} 1\n")).collect();
    ctx.write("run.txt", &run);
    ctx.write("qrels.txt", &qrels);
}

const EVAL: &[&str] = &[
    "eval",
    "--run",
    "run.txt",
    "--qrels",
    "qrels.txt",
    "--metrics",
    "ndcg@10",
];

#[test]
fn eval_refuses_to_overwrite_its_own_inputs_through_symlinks_too() {
    let ctx = TestContext::new();
    eval_data(&ctx);
    let before = std::fs::read(ctx.path().join("run.txt")).unwrap();
    std::os::unix::fs::symlink("run.txt", ctx.path().join("link.txt")).unwrap();
    for out in ["run.txt", "qrels.txt", "link.txt"] {
        let o = ctx.run(&[EVAL, &["-o", out]].concat());
        assert_eq!(o.code, Some(2), "{out}");
        assert_contains(&o.stderr, "refusing to overwrite it");
    }
    assert_eq!(std::fs::read(ctx.path().join("run.txt")).unwrap(), before);
}

#[test]
fn dash_is_stdout_for_every_output() {
    let ctx = TestContext::new();
    eval_data(&ctx);
    let plain = ctx.run(EVAL);
    let dashed = ctx.run(&[EVAL, &["-o", "-"]].concat());
    assert_eq!((dashed.code, &dashed.stdout), (Some(0), &plain.stdout));
    assert!(!ctx.path().join("-").exists());
    data(&ctx, 40, 0.5, 0.05, 0.0, 0);
    ctx.gate(b_vs_c("[[gate]]\nmetric = \"ndcg@10\"\nmax-drop = 0.01\n"));
    let o = ctx.run(&[
        "check",
        "gate.toml",
        "--output",
        "r.txt",
        "--export-json",
        "-",
    ]);
    assert_eq!(o.code, Some(0));
    let v: serde_json::Value = serde_json::from_str(&o.stdout).unwrap();
    assert_eq!(v["verdict"], "pass");
    assert!(!ctx.path().join("-").exists());
    let o = ctx.check(&["--export-json", "-"]);
    assert_eq!(o.code, Some(2), "two outputs on stdout");
}

#[test]
fn a_symlinked_output_is_written_through_and_stays_a_link() {
    let ctx = TestContext::new();
    data(&ctx, 40, 0.5, 0.05, 0.0, 0);
    ctx.gate(b_vs_c("[[gate]]\nmetric = \"ndcg@10\"\nmax-drop = 0.01\n"));
    std::fs::create_dir(ctx.path().join("reports")).unwrap();
    ctx.write("reports/r.json", "old");
    std::os::unix::fs::symlink("reports/r.json", ctx.path().join("r.json")).unwrap();
    let o = ctx.check(&["--export-json", "r.json"]);
    assert_eq!(o.code, Some(0), "{}", o.stderr);
    let meta = std::fs::symlink_metadata(ctx.path().join("r.json")).unwrap();
    assert!(meta.file_type().is_symlink());
    let text = std::fs::read_to_string(ctx.path().join("reports/r.json")).unwrap();
    assert!(text.contains("\"verdict\": \"pass\""));
}

#[test]
fn a_fifo_is_written_in_place_never_replaced() {
    use std::os::unix::fs::FileTypeExt;
    let ctx = TestContext::new();
    eval_data(&ctx);
    let fifo = ctx.path().join("pipe");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success());
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::read_to_string(fifo).unwrap())
    };
    let o = ctx.run(&[EVAL, &["-o", "pipe"]].concat());
    assert_eq!(o.code, Some(0), "{}", o.stderr);
    let got = reader.join().unwrap();
    assert!(got.contains("\"ndcg@10\""), "{got}");
    assert!(std::fs::symlink_metadata(&fifo)
        .unwrap()
        .file_type()
        .is_fifo());
}

#[test]
fn a_device_is_written_in_place_never_replaced() {
    use std::os::unix::fs::FileTypeExt;
    let ctx = TestContext::new();
    eval_data(&ctx);
    // A character device like /dev/null (1, 3), made in the temp folder (needs root, as CI is).
    let null = ctx.path().join("null");
    let made = std::process::Command::new("mknod")
        .arg(&null)
        .args(["c", "1", "3"])
        .status()
        .unwrap();
    if !made.success() {
        eprintln!("skipped: mknod needs root");
        return;
    }
    let o = ctx.run(&[EVAL, &["-o", "null"]].concat());
    assert_eq!(o.code, Some(0), "{}", o.stderr);
    let t = std::fs::symlink_metadata(&null).unwrap().file_type();
    assert!(t.is_char_device(), "the device was replaced: {t:?}");
}

#[test]
fn new_files_get_the_usual_mode_and_rewritten_ones_keep_theirs() {
    use std::os::unix::fs::PermissionsExt;
    let ctx = TestContext::new();
    eval_data(&ctx);
    let bin = ctx.bin();
    let sh = |out: &str| {
        std::process::Command::new("sh")
            .current_dir(ctx.path())
            .arg("-c")
            .arg(format!(
                "umask 022; exec '{}' eval --run run.txt --qrels qrels.txt --metrics ndcg@10 -o {out}",
                bin.display()
            ))
            .status()
            .unwrap()
    };
    assert!(sh("new.jsonl").success());
    let mode = |p: &str| {
        std::fs::metadata(ctx.path().join(p))
            .unwrap()
            .permissions()
            .mode()
            & 0o777
    };
    assert_eq!(mode("new.jsonl"), 0o644);
    ctx.write("old.jsonl", "x");
    std::fs::set_permissions(
        ctx.path().join("old.jsonl"),
        std::fs::Permissions::from_mode(0o600),
    )
    .unwrap();
    assert!(sh("old.jsonl").success());
    assert_eq!(mode("old.jsonl"), 0o600);
}

// ---------------------------------------------------------------- inputs and names

#[test]
fn trec_eval_count_rows_are_never_metrics() {
    let ctx = TestContext::new();
    let te = |shift: f64| -> String {
        let mut s = String::from("runid\tall\tbm25\nnum_q\tall\t40\n");
        for i in 0..40 {
            let v = 0.3 + 0.01 * (i % 7) as f64 + shift;
            s.push_str(&format!("num_ret\tq{i}\t1000\nnum_rel\tq{i}\t{}\nnum_rel_ret\tq{i}\t7\nndcg_cut_10\tq{i}\t{v:.4}\n", 10 + i));
        }
        s
    };
    ctx.write("b.te", te(0.0));
    ctx.write("c.te", te(0.01));
    let o = ctx.run(&[
        "compare",
        "b.te",
        "c.te",
        "--input-format",
        "trec-eval",
        "--format",
        "json",
    ]);
    assert_eq!(o.code, Some(0), "{}", o.stderr);
    let v: serde_json::Value = serde_json::from_str(&o.stdout).unwrap();
    let metrics: Vec<&str> = v["comparisons"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["metric"].as_str().unwrap())
        .collect();
    assert_eq!(metrics, ["ndcg@10"]);
}

#[test]
fn hash_lines_are_comments_in_runs_and_qrels_and_data_inside_an_id() {
    let ctx = TestContext::new();
    eval_data(&ctx);
    let clean = ctx.run(EVAL).stdout;
    let run_text = std::fs::read_to_string(ctx.path().join("run.txt")).unwrap();
    let qrels_text = std::fs::read_to_string(ctx.path().join("qrels.txt")).unwrap();
    ctx.write("run.txt", format!("# ir_metadata: tag t\n{run_text}#end\n"));
    ctx.write("qrels.txt", format!("#qrels v1\n{qrels_text}"));
    let o = ctx.run(EVAL);
    assert_eq!((o.code, &o.stdout), (Some(0), &clean), "{}", o.stderr);
    // A `#` inside a doc id is data: D#1 is a different doc from D1.
    ctx.write("run.txt", run_text.replace("D1 ", "D#1 "));
    assert_ne!(ctx.run(EVAL).stdout, clean);
}

#[test]
fn eval_metrics_take_every_gate_spelling() {
    let ctx = TestContext::new();
    eval_data(&ctx);
    let ours = ctx.run(&[
        "eval",
        "--run",
        "run.txt",
        "--qrels",
        "qrels.txt",
        "--metrics",
        "ndcg@10,p@10,mrr",
    ]);
    for spelled in ["ndcg_cut_10,P_10,recip_rank", "NDCG@10,P@10,RR"] {
        let o = ctx.run(&[
            "eval",
            "--run",
            "run.txt",
            "--qrels",
            "qrels.txt",
            "--metrics",
            spelled,
        ]);
        assert_eq!(
            (o.code, &o.stdout),
            (Some(0), &ours.stdout),
            "{spelled}: {}",
            o.stderr
        );
    }
}

#[test]
fn dump_config_shows_every_default_eval_and_policy_included() {
    let ctx = TestContext::new();
    data(&ctx, 40, 0.5, 0.05, 0.0, 0);
    ctx.gate(b_vs_c("[[gate]]\nmetric = \"ndcg@10\"\nmax-drop = 0.01\n"));
    let o = ctx.check(&["--dump-config"]);
    assert_eq!(o.code, Some(0));
    for key in [
        "[eval]",
        "rel-level = 1",
        "gain = \"linear\"",
        "empty-gold = \"exclude\"",
        "[policy]",
        "min-queries = 30",
    ] {
        assert!(o.stdout.contains(key), "{key}: {}", o.stdout);
    }
}

#[test]
fn a_key_with_no_effect_is_a_warning() {
    let ctx = TestContext::new();
    data(&ctx, 40, 0.5, 0.05, 0.0, 0);
    ctx.gate(b_vs_c(
        "[eval]\nrel-level = 2\n[[gate]]\nmetric = \"ndcg@10\"\nmax-drop = 0.01\n",
    ));
    let o = ctx.check(&[]);
    assert_eq!(o.code, Some(0));
    assert_contains(
        &o.stdout,
        "gate.toml:6: [eval] has no effect: no input is a run",
    );
}

// ---------------------------------------------------------------- report wording

#[test]
fn the_shipped_example_fails_on_compliance_with_counts_that_say_what_they_count() {
    let o = in_repo(&["check", "gates/prod.toml"]);
    assert_eq!(o.code, Some(1));
    let head = o.stdout.lines().next().unwrap();
    assert!(head.contains("on risk=compliance"), "{head}");
    assert!(
        head.ends_with("; 2 of 6 checks failed (3 gates); 3 of 3 run-level checks passed"),
        "{head}"
    );
    let md = in_repo(&["check", "gates/prod.toml", "--format", "markdown"]).stdout;
    assert!(md.contains("`ndcg@10`"), "metric names as code spans");
    assert!(
        !md.contains("ndcg@&#8203;"),
        "no zero-width character inside a metric name"
    );
    let json = in_repo(&["check", "gates/prod.toml", "--format", "json"]).stdout;
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["rag_gate_version"], env!("CARGO_PKG_VERSION"));
    let details: Vec<&str> = v["gates"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["detail"].as_str().unwrap())
        .collect();
    assert!(
        details
            .iter()
            .any(|d| d.contains("must be ≥ −0.0100 (CI [")),
        "{details:?}"
    );
    // One minus sign (U+2212), never a hyphen before a number, never a space after a sign.
    let hyphen_number = |d: &str| {
        d.as_bytes()
            .windows(2)
            .any(|w| w[0] == b'-' && w[1].is_ascii_digit())
    };
    assert!(
        details
            .iter()
            .all(|d| !d.contains("− ") && !hyphen_number(d)),
        "{details:?}"
    );
}

#[test]
fn evaluated_runs_give_notes_not_warnings_and_the_report_names_qrels_and_eval() {
    let ctx = TestContext::new();
    eval_data(&ctx);
    ctx.gate(
        GateFile::default()
            .path("qrels", "qrels.txt")
            .input("baseline", "{ run = \"run.txt\" }")
            .input("candidate", "{ run = \"run.txt\" }")
            .table("slices", "min-queries = 3")
            .gate("ndcg@10", "min-mean = 0.1"),
    );
    let o = ctx.check(&["--format", "json"]);
    assert_eq!(o.code, Some(0), "{}", o.stderr);
    let v: serde_json::Value = serde_json::from_str(&o.stdout).unwrap();
    assert_eq!(v["inputs"]["qrels"], "qrels.txt");
    assert_eq!(v["inputs"]["eval"]["order"], "score");
    assert!(v["notes"][0]
        .as_str()
        .unwrap()
        .contains("evaluated 3 queries"));
    assert_eq!(
        v["warnings"].as_array().unwrap().len(),
        0,
        "{}",
        v["warnings"]
    );
}

// ---------------------------------------------------------------- exit 2, with the table row

struct Case {
    id: &'static str,
    /// Appended to INPUTS as the gate file (None: `gate.toml` as `data` leaves it unwritten).
    gate: &'static str,
    args: &'static [&'static str],
    want: &'static [&'static str],
}

fn cases() -> Vec<Case> {
    const G: &str = "[[gate]]\nmetric = \"ndcg@10\"\nmax-drop = 0.01\n";
    vec![
        Case { id: "gate-no-gates", gate: "", args: &[], want: &["gate.toml: no [[gate]] table: nothing would be judged"] },
        Case { id: "gate-single-bracket", gate: "[gate]\nmetric = \"ndcg@10\"\nmax-drop = 0.01\n", args: &[], want: &["gate.toml:6:1: `[gate]` is a single table; write `[[gate]]`"] },
        Case { id: "gate-unknown-direction", gate: "[[gate]]\nmetric = \"latency_ms\"\nmax-drop = 10.0\n", args: &[], want: &["gate.toml:7:10: [[gate]] #1 (latency_ms): is a higher latency_ms better or worse?", "higher-is-better = false"] },
        Case { id: "gate-metric-did-you-mean", gate: "[[gate]]\nmetric = \"ndgc@10\"\nmax-drop = 0.01\n", args: &[], want: &["gate.toml:7:10: [[gate]] #1: unknown metric \"ndgc@10\"; did you mean ndcg@10?"] },
        Case { id: "gate-cutoff-above-max-k", gate: "[policy]\nmax-k = 5\n[[gate]]\nmetric = \"recall@30\"\nmin-mean = 0.1\n", args: &[], want: &["gate.toml:9:10: [[gate]] #1 (recall@30): cutoff 30 is above [policy] max-k = 5"] },
        Case { id: "gate-uncut-metric-under-max-k", gate: "[policy]\nmax-k = 5\n[[gate]]\nmetric = \"ndcg\"\nmin-mean = 0.1\n", args: &[], want: &["[[gate]] #1 (ndcg): no cutoff, so it scores the whole ranking, beyond [policy] max-k = 5"] },
        Case { id: "gate-input-path-missing", gate: G, args: &[], want: &["gate.toml:3:13: [inputs] candidate: nope.jsonl: opening: No such file"] },
        Case { id: "output-folder-missing", gate: G, args: &["--export-json", "out/r.json"], want: &["out/r.json: the folder out does not exist; create it first"] },
        Case { id: "eval-output-is-the-run", gate: "", args: &["-o", "run.txt"], want: &["-o run.txt: that is the --run file run.txt; refusing to overwrite it"] },
        Case { id: "eval-metric-did-you-mean", gate: "", args: &["--metrics", "ndgc@10"], want: &["--metrics: unknown metric \"ndgc@10\"; did you mean ndcg@10?"] },
        Case { id: "compare-id-column", gate: "", args: &["b.csv", "c.csv"], want: &["the header has no \"query_id\" column", "pass --id-column NAME"] },
        Case { id: "compare-missing-queries", gate: "", args: &["b.jsonl", "short.jsonl"], want: &["short.jsonl: lacks 1 query that b.jsonl has", "or pass --missing intersect"] },
        Case { id: "compare-unknown-format", gate: "", args: &["b.txt", "b.txt"], want: &["b.txt: cannot tell the format", "pass --input-format jsonl|csv|tsv|parquet|trec-eval|ir-measures"] },
        Case { id: "compare-run-as-metrics", gate: "", args: &["run.txt", "run.txt"], want: &["run.txt:1: this is a TREC run (qid Q0 docid rank score tag), not per-query metrics", "evaluate it first with rag-gate eval --run FILE --qrels FILE"] },
        Case { id: "gate-run-as-metrics", gate: "[[gate]]\nmetric = \"ndcg@10\"\nmax-drop = 0.05\n", args: &[], want: &["run.txt:1: this is a TREC run", "give it as { run = \"...\" } with qrels in [inputs]"] },
    ]
}

fn run_case(ctx: &TestContext, c: &Case) -> Out {
    data(ctx, 40, 0.5, 0.05, 0.0, 0);
    eval_data(ctx);
    ctx.write("b.csv", "qid,ndcg@10\nq1,0.5\n");
    ctx.write("c.csv", "qid,ndcg@10\nq1,0.5\n");
    ctx.write("b.txt", "hello world\n");
    let b = ctx.read("b.jsonl");
    ctx.write(
        "short.jsonl",
        b.lines()
            .skip(1)
            .map(|l| format!("{l}\n"))
            .collect::<String>(),
    );
    let args: Vec<&str> = if c.id.starts_with("eval-") {
        let mut a = EVAL.to_vec();
        if let Some(i) = c.args.iter().position(|a| *a == "--metrics") {
            a.truncate(a.len() - 2);
            a.extend_from_slice(&c.args[i..]);
        } else {
            a.extend_from_slice(c.args);
        }
        a
    } else if c.id.starts_with("compare-") {
        [&["compare"][..], c.args].concat()
    } else {
        let text = b_vs_c(c.gate).to_string();
        let text = if c.id == "gate-input-path-missing" {
            text.replace("candidate = \"c.jsonl\"", "candidate = \"nope.jsonl\"")
        } else if c.id == "gate-run-as-metrics" {
            text.replace("baseline = \"b.jsonl\"", "baseline = \"run.txt\"")
        } else {
            text
        };
        ctx.gate(&text);
        [&["check", "gate.toml"][..], c.args].concat()
    };
    ctx.run(&args)
}

#[test]
fn mistakes_exit_2_with_one_message_naming_the_place() {
    let mut failures = Vec::new();
    for c in cases() {
        let ctx = TestContext::new();
        let o = run_case(&ctx, &c);
        let mut problems = Vec::new();
        if o.code != Some(2) {
            problems.push(format!("exit {:?}", o.code));
        }
        if !o.stdout.is_empty() {
            problems.push("printed a report".into());
        }
        for w in missing_in_order(&o.stderr, c.want) {
            problems.push(format!("no {w:?} (in order)"));
        }
        if let Ok(dump) = std::env::var("TRUST_DUMP") {
            let row = format!(
                "| `{}` | | {} | {} |\n",
                c.id,
                first_line_cell(&o.stderr),
                o.code.unwrap_or(-1)
            );
            append_to(&dump, &row);
        }
        if !problems.is_empty() {
            failures.push(format!(
                "[{}] {}\n  stderr: {}",
                c.id,
                problems.join("; "),
                o.stderr
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

fn id_in_docs(id: &str) -> bool {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    ["README.md", "docs/bad-input.md"].iter().any(|f| {
        std::fs::read_to_string(root.join(f))
            .unwrap_or_default()
            .contains(&format!("`{id}`"))
    })
}

#[test]
fn every_case_is_documented() {
    let missing: Vec<&str> = cases()
        .iter()
        .map(|c| c.id)
        .filter(|id| !id_in_docs(id))
        .collect();
    assert!(
        missing.is_empty(),
        "not in the bad-input table: {missing:?}"
    );
}
