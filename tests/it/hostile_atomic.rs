//! Report files are written atomically: an error, or a kill, mid-way leaves the previous report
//! files byte for byte as they were and no temporary file behind (a SIGKILL between writing the
//! temporary and renaming it can leave a hidden `.rag-gate-*.tmp`, never a partial report).

use crate::support;

use std::path::Path;
use std::time::Duration;

use support::TestContext;

fn dataset(ctx: &TestContext, n: usize, shift: f64) {
    let mut b = String::new();
    let mut c = String::new();
    for i in 0..n {
        let v = ((i * 37) % 100) as f64 / 200.0 + 0.2;
        let lang = ["en", "ko", "fr"][i % 3];
        b.push_str(&format!(
            "{{\"query_id\":\"q{i}\",\"ndcg@10\":{v},\"slices\":{{\"lang\":\"{lang}\"}}}}\n"
        ));
        c.push_str(&format!(
            "{{\"query_id\":\"q{i}\",\"ndcg@10\":{}}}\n",
            v + shift
        ));
    }
    ctx.write("b.jsonl", b);
    ctx.write("c.jsonl", c);
}

const GATE: &str = "[inputs]\nbaseline = \"b.jsonl\"\ncandidate = \"c.jsonl\"\n[bootstrap]\nresamples = 500\n\
                    [slices]\nby = [\"lang\"]\nmin-queries = 1\n[[gate]]\nmetric = \"ndcg@10\"\nmax-drop = 0.05\n";

const OUTPUTS: [&str; 6] = [
    "-o",
    "report.txt",
    "--export-json",
    "report.json",
    "--export-markdown",
    "report.md",
];

/// The report files' contents, and the names of any other files that appeared.
fn snapshot(dir: &Path) -> (Vec<Vec<u8>>, Vec<String>) {
    let contents = ["report.txt", "report.json", "report.md"]
        .iter()
        .map(|f| std::fs::read(dir.join(f)).unwrap())
        .collect();
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    (contents, names)
}

/// 90 queries by language, checked once with the reports written to `OUTPUTS`.
fn with_reports() -> TestContext {
    let ctx = TestContext::new();
    dataset(&ctx, 90, 0.01);
    ctx.gate(GATE);
    ctx.check(&OUTPUTS).expect(0);
    ctx
}

#[test]
fn bad_input_after_a_report_leaves_it_intact() {
    let ctx = with_reports();
    let before = snapshot(ctx.path());
    std::fs::write(
        ctx.path().join("c.jsonl"),
        "{\"query_id\":\"q0\",\"ndcg@10\":0.5}\n{\"query_id\":",
    )
    .unwrap();
    let out = ctx.check(&OUTPUTS);
    assert_eq!(out.code, Some(2));
    assert!(out.stderr.starts_with("error: c.jsonl:2: not valid JSON"));
    assert_eq!(snapshot(ctx.path()), before);
}

/// Before: --export-json was renamed into place before --export-markdown was tried, so a
/// failing Markdown export left a new JSON report beside the old text report.
#[test]
fn regression_a_failing_export_replaced_the_exports_written_before_it() {
    let ctx = with_reports();
    let before = snapshot(ctx.path());
    dataset(&ctx, 90, -0.2); // a different report (and a failing gate) if it were written
    let out = ctx.check(&[
        "-o",
        "report.txt",
        "--export-json",
        "report.json",
        "--export-markdown",
        "no/such/folder/report.md",
    ]);
    let err = &out.stderr;
    assert_eq!(out.code, Some(2), "{err}");
    assert!(
        err.starts_with(
            "error: no/such/folder/report.md: the folder no/such/folder does not exist"
        ),
        "{err}"
    );
    let (contents, names) = snapshot(ctx.path());
    assert_eq!(contents, before.0, "a report file changed");
    assert_eq!(names, before.1, "a file appeared or vanished");
}

#[test]
fn output_path_that_is_a_directory_is_an_error_and_leaves_nothing() {
    let ctx = with_reports();
    std::fs::create_dir(ctx.path().join("out")).unwrap();
    let before = snapshot(ctx.path());
    let out = ctx.check(&["--export-json", "report.json", "-o", "out"]);
    let err = &out.stderr;
    assert_eq!(out.code, Some(2), "{err}");
    assert!(
        err.starts_with("error: out: writing: is a directory; expected a file name"),
        "{err}"
    );
    assert_eq!(snapshot(ctx.path()), before);
    assert_eq!(
        std::fs::read_dir(ctx.path().join("out")).unwrap().count(),
        0
    );
}

#[test]
fn a_killed_run_leaves_the_old_report_or_the_new_one_never_a_partial_one() {
    let ctx = TestContext::new();
    dataset(&ctx, 3000, 0.01);
    ctx.gate(GATE.replace("resamples = 500", "resamples = 4000"));
    let old = "{\"old\": true}\n";
    let mut outcomes = Vec::new();
    for delay_ms in [5u64, 40, 120, 300, 900] {
        std::fs::write(ctx.path().join("report.json"), old).unwrap();
        let mut child = ctx
            .process()
            .args([
                "check",
                "gate.toml",
                "--format",
                "json",
                "-o",
                "report.json",
            ])
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(Duration::from_millis(delay_ms));
        let _ = child.kill();
        let _ = child.wait();
        let text = std::fs::read_to_string(ctx.path().join("report.json")).unwrap();
        if text == old {
            outcomes.push("old");
        } else {
            let v: serde_json::Value = serde_json::from_str(&text).expect("a complete JSON report");
            assert_eq!(v["pairing"]["paired"], 3000);
            outcomes.push("new");
        }
        for e in std::fs::read_dir(ctx.path()).unwrap() {
            let name = e.unwrap().file_name().to_string_lossy().into_owned();
            assert!(
                name.starts_with(".rag-gate-") || !name.ends_with(".tmp"),
                "{name}"
            );
        }
    }
    assert!(
        outcomes.contains(&"old"),
        "no kill landed before the rename: {outcomes:?}"
    );
}
