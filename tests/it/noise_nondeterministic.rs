//! A retriever its run card declares nondeterministic (`conditions.deterministic = false`)
//! through the binary: `check` warns in every format when the intervals carry no run-to-run
//! noise (one baseline run, no `[noise] file`), and not when a noise file or baseline replicates
//! carry it; `compare` gives the same warning in its own flags; a value that is not true or
//! false is bad input. Fixtures: tests/data/noise/ann.

use crate::support;
use support::output::{assert_contains, assert_input_error, warnings};
use support::{repo, GateFile, Out, TestContext};

/// The words the warning starts its advice with.
const WARNED: &str = "the retriever is nondeterministic (conditions.deterministic = false), but the intervals carry no run-to-run noise";

/// A run card with `conditions` (JSON members) and one run-level measurement.
fn card(conditions: &str) -> String {
    format!(
        r#"{{"model": {{"id": "bge-m3", "index": "hnsw M=16"}},
 "conditions": {{{conditions}}},
 "metrics": {{"query-latency-ms": 12.0}}}}"#
    )
}

/// The ann fixture copied into a temp folder with both run cards (`base`, `cand` conditions)
/// and a gate file of `baseline` runs against `pr-1.jsonl` (`extra` tables appended).
fn noisy_setup(baseline: &str, (base, cand): (&str, &str), extra: &str) -> TestContext {
    let ctx = TestContext::new();
    for name in ["main-1", "main-2", "main-3", "pr-1"] {
        let file = format!("{name}.jsonl");
        ctx.copy(repo(format!("tests/data/noise/ann/{file}")), &file);
    }
    ctx.write("main.card.json", card(base));
    ctx.write("pr.card.json", card(cand));
    ctx.gate(
        GateFile::default()
            .input("baseline", baseline)
            .input("candidate", "\"pr-1.jsonl\"")
            .resamples(500)
            .table(
                "efficiency",
                "baseline = \"main.card.json\"\ncandidate = \"pr.card.json\"",
            )
            .raw(extra)
            .gate("ndcg@10", "max-drop = 0.05"),
    );
    ctx
}

/// The report's nondeterministic-retriever warnings.
fn warned(ctx: &TestContext) -> Vec<String> {
    warnings(&ctx.check_json(&[]).json())
        .into_iter()
        .filter(|w| w.contains(WARNED))
        .collect()
}

const NOISY: &str = r#""deterministic": false, "query-batch": 1"#;
const STEADY: &str = r#""deterministic": true, "query-batch": 1"#;

#[test]
fn a_nondeterministic_card_without_run_noise_warns_in_every_format() {
    let ctx = noisy_setup("\"main-1.jsonl\"", (NOISY, NOISY), "");
    let said = warned(&ctx);
    assert_eq!(said.len(), 1, "{said:?}");
    let w = &said[0];
    assert_contains(w, "main.card.json and pr.card.json say the retriever");
    assert_contains(w, "a whole-run shift");
    assert_contains(w, "rag-gate aa");
    assert_contains(w, "[noise] file");
    assert_contains(w, "replicate baseline runs");
    for format in ["text", "markdown"] {
        let out = Out::of(
            ctx.command()
                .args(["check", "gate.toml", "--format", format]),
        )
        .utf8();
        assert_contains(&out.stdout, "conditions.deterministic = false");
        // Markdown escapes the backticks and brackets around the command.
        assert_contains(&out.stdout, "record main's run-to-run noise with");
        assert_contains(&out.stdout, "rag-gate aa");
    }
}

#[test]
fn the_baseline_card_alone_is_enough_to_warn() {
    let ctx = noisy_setup("\"main-1.jsonl\"", (NOISY, STEADY), "");
    let said = warned(&ctx);
    assert_eq!(said.len(), 1, "{said:?}");
    assert_contains(&said[0], "main.card.json says the retriever");
}

#[test]
fn a_noise_file_or_baseline_replicates_carry_the_noise_and_silence_it() {
    // A noise file from main's own A/A runs.
    let ctx = noisy_setup(
        "\"main-1.jsonl\"",
        (NOISY, NOISY),
        "[noise]\nfile = \"noise.json\"",
    );
    ctx.command()
        .args(["aa", "main-1.jsonl", "main-2.jsonl", "main-3.jsonl"])
        .args(["--resamples", "500", "-o", "noise.json"])
        .assert()
        .code(0);
    let report = ctx.check_json(&[]).json();
    assert!(!warnings(&report).iter().any(|w| w.contains(WARNED)));
    assert_eq!(report["comparisons"][0]["replicates"]["aa_runs"], 3);
    // Three baseline runs.
    let ctx = noisy_setup(
        "[\"main-1.jsonl\", \"main-2.jsonl\", \"main-3.jsonl\"]",
        (NOISY, NOISY),
        "",
    );
    let report = ctx.check_json(&[]).json();
    assert!(!warnings(&report).iter().any(|w| w.contains(WARNED)));
    assert_eq!(report["comparisons"][0]["replicates"]["baseline_runs"], 3);
}

#[test]
fn a_deterministic_or_silent_card_does_not_warn() {
    for conditions in [STEADY, r#""query-batch": 1"#] {
        let ctx = noisy_setup("\"main-1.jsonl\"", (conditions, conditions), "");
        let report = ctx.check_json(&[]).json();
        assert!(
            !warnings(&report)
                .iter()
                .any(|w| w.contains("deterministic")),
            "{conditions}: {:?}",
            warnings(&report)
        );
    }
}

#[test]
fn a_deterministic_value_that_is_not_true_or_false_is_bad_input() {
    for value in ["\"no\"", "0", "null"] {
        let ctx = noisy_setup(
            "\"main-1.jsonl\"",
            (STEADY, &format!("\"deterministic\": {value}")),
            "",
        );
        let out = ctx.check(&[]);
        assert_input_error(&out, &["pr.card.json", "conditions.deterministic"]);
        assert_contains(&out.stderr, "expected true or false");
    }
}

#[test]
fn compare_warns_in_its_own_flags_and_baseline_replicates_silence_it() {
    let ctx = noisy_setup("\"main-1.jsonl\"", (NOISY, NOISY), "");
    let compare = |extra: &[&str]| {
        let out = Out::of(
            ctx.command()
                .args(["compare", "main-1.jsonl", "pr-1.jsonl", "--format", "json"])
                .args(["--baseline-card", "main.card.json"])
                .args(["--candidate-card", "pr.card.json", "--resamples", "500"])
                .args(extra),
        );
        assert_eq!(out.code, Some(0), "{}", out.stderr);
        warnings(&out.json())
            .into_iter()
            .filter(|w| w.contains(WARNED))
            .collect::<Vec<_>>()
    };
    let said = compare(&[]);
    assert_eq!(said.len(), 1, "{said:?}");
    let w = &said[0];
    assert_contains(w, "with one baseline run, a whole-run shift");
    assert_contains(w, "--baseline-replicate FILE");
    assert_contains(w, "rag-gate aa");
    for gate_file_words in ["[inputs]", "point [noise] file"] {
        assert!(!w.contains(gate_file_words), "{gate_file_words}: {w}");
    }
    let replicated = compare(&[
        "--baseline-replicate",
        "main-2.jsonl",
        "--baseline-replicate",
        "main-3.jsonl",
    ]);
    assert!(replicated.is_empty(), "{replicated:?}");
}
