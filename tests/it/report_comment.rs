//! The PR comment as GitHub gets it: snapshots of the shipped example and of a generated
//! 650-slice report, which must keep its failing gated row within GitHub's 65,536 characters.

use crate::support;

use std::fmt::Write;
use std::path::Path;

use rag_gate::report::markdown::{render_trimmed, GITHUB_COMMENT_LIMIT};
use support::TestContext;

#[test]
fn example_comment_snapshot() {
    let md = TestContext::new()
        .env_clear()
        .check_example(&["--format", "markdown"])
        .expect(1)
        .stdout;
    assert!(md.len() <= GITHUB_COMMENT_LIMIT);
    insta::assert_snapshot!("example_comment", md);
}

/// A deterministic stand-in for random numbers in [0, 1).
fn unit(i: u64, salt: u64) -> f64 {
    let mut x = i.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ salt.wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x ^= x >> 31;
    x = x.wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^= x >> 29;
    (x >> 11) as f64 / (1u64 << 53) as f64
}

/// 650 domains of 12 queries; the 600 queries of the first 50 domains are risk=compliance,
/// where the candidate loses about 0.08 of ndcg@10. Three metrics, one of them ungated.
fn write_650_slices(dir: &Path) {
    let (mut base, mut cand, mut queries) = (String::new(), String::new(), String::new());
    for q in 0..650 * 12u64 {
        let domain = q / 12;
        let risk = if domain < 50 { "compliance" } else { "general" };
        let id = format!("q{q:05}");
        let _ = writeln!(
            queries,
            r#"{{"query_id": "{id}", "group": "g{}", "slices": {{"domain": "d{domain:03}", "risk": "{risk}"}}}}"#,
            q / 3
        );
        let b = [unit(q, 1), unit(q, 2), unit(q, 3)];
        let drop = if risk == "compliance" { 0.08 } else { 0.0 };
        let c = [
            (b[0] - drop + 0.02 * (unit(q, 4) - 0.5)).clamp(0.0, 1.0),
            (b[1] + 0.02 * (unit(q, 5) - 0.5)).clamp(0.0, 1.0),
            b[2],
        ];
        for (out, v) in [(&mut base, b), (&mut cand, c)] {
            let _ = writeln!(
                out,
                r#"{{"query_id": "{id}", "ndcg@10": {:.4}, "mrr@10": {:.4}, "recall@5": {:.4}}}"#,
                v[0], v[1], v[2]
            );
        }
    }
    std::fs::write(dir.join("baseline.jsonl"), base).unwrap();
    std::fs::write(dir.join("candidate.jsonl"), cand).unwrap();
    std::fs::write(dir.join("queries.jsonl"), queries).unwrap();
    std::fs::write(
        dir.join("gate.toml"),
        r#"id = "big"
[inputs]
baseline = "baseline.jsonl"
candidate = "candidate.jsonl"
queries = "queries.jsonl"
[bootstrap]
resamples = 200
seed = 5
unit = "group"
[slices]
by = ["domain"]
critical = ["risk=compliance"]
min-queries = 30
[[gate]]
metric = "ndcg@10"
max-drop = 0.01
slices = ["all", "risk=compliance"]
[[gate]]
metric = "recall@5"
min-mean = 0.3
"#,
    )
    .unwrap();
}

#[test]
fn a_650_slice_comment_keeps_the_failing_gated_row_and_fits() {
    let dir = tempfile::tempdir().unwrap();
    write_650_slices(dir.path());
    let cfg = rag_gate::config::load(&dir.path().join("gate.toml")).unwrap();
    let report = rag_gate::check::analyze(&cfg).unwrap();
    assert_eq!(
        report.comparisons.len(),
        3 * 652,
        "3 metrics × (all, 650 domains, compliance)"
    );
    let md = render_trimmed(&report, GITHUB_COMMENT_LIMIT);
    assert!(md.len() <= GITHUB_COMMENT_LIMIT, "{}", md.len());
    assert!(
        md.contains("| `ndcg@10` | risk=compliance | max-drop | CI low −0.0"),
        "the failing gated row is kept"
    );
    assert!(md.contains("❌ **fail** | worse |"));
    assert!(md.contains("> Left out to fit the size limit: "));
    // Rows are kept by importance: the gated comparisons are in the folded table, and the
    // ungated mrr@10 did not crowd them out.
    let all = md.split("All 1956 comparisons").nth(1).unwrap();
    assert!(all.contains("| `ndcg@10` | risk=compliance |"));
    assert!(all.contains("| `recall@5` | all |"));
    assert!(md.ends_with("</sub>\n"), "the footer stays");
    insta::assert_snapshot!("comment_650_slices", md);
}
