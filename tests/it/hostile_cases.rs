//! docs/hostile.md and the hostile tests in step, both ways: every row of its tables (a case id in
//! the first column, whatever the surface's section) names a test here, and every case here is a
//! row there; each case's file must still hold its test. A case built on another branch names
//! its file in `OTHER_BRANCH`: checked as soon as that file is in the tree.

use std::path::Path;

/// (case id, the file that tests it, text that file must hold: the test's `fn` line).
const CASES: &[(&str, &str, &str)] = &[
    (
        "undecided-cannot-rescue-a-failure",
        "tests/it/check_outcomes.rs",
        "fn fork_cannot_turn_a_failure_inconclusive()",
    ),
    (
        "ledger-merged-pr",
        "tests/it/hostile_reruns.rs",
        "fn ledger_merged_pr_comes_from_the_forge()",
    ),
    (
        "ledger-merged-mr-gitlab",
        "tests/it/hostile_reruns.rs",
        "fn ledger_merged_mr_comes_from_gitlab()",
    ),
    (
        "gitlab-max-behind",
        "tests/it/baseline_gitlab.rs",
        "fn gitlab_max_behind_is_recorded_and_enforced()",
    ),
    (
        "state-rolled-back",
        "tests/it/hostile_reruns.rs",
        "fn state_rolled_back_between_attempts_of_a_run_is_reported()",
    ),
    (
        "state-rolled-back-across-runs",
        "tests/it/hostile_reruns.rs",
        "fn state_rolled_back_across_runs_is_reported_and_not_pooled()",
    ),
    (
        "state-rolled-back-gitlab",
        "tests/it/hostile_reruns.rs",
        "fn state_rolled_back_on_gitlab_by_pipeline_ids()",
    ),
    (
        "rerun-drift-pooled",
        "tests/it/hostile_reruns.rs",
        "fn rerun_drift_pooled_max_drift_reads_every_attempt()",
    ),
    (
        "rerun-empty-commit",
        "tests/it/hostile_reruns.rs",
        "fn rerun_empty_commit_amend_and_rebase_are_attempts_of_one_candidate()",
    ),
    (
        "rerun-rule-judged-alone",
        "tests/it/hostile_reruns.rs",
        "fn rerun_rule_judged_alone_is_said_and_its_flip_flagged()",
    ),
    (
        "rerun-card-worst",
        "tests/it/hostile_reruns.rs",
        "fn rerun_card_worst_attempt_decides_a_run_level_gate()",
    ),
    (
        "rerun-judge-corrected-pooled",
        "tests/it/hostile_reruns.rs",
        "fn rerun_judge_corrected_gate_pools_both_parts()",
    ),
    (
        "rerun-bounds-pooled",
        "tests/it/hostile_reruns.rs",
        "fn rerun_bounds_pooled_over_every_attempt()",
    ),
    (
        "rerun-min-judged-pooled",
        "tests/it/hostile_reruns.rs",
        "fn rerun_min_judged_reads_the_pooled_coverage()",
    ),
    (
        "rerun-quantile-stacked",
        "tests/it/hostile_reruns.rs",
        "fn rerun_quantile_stacked_reads_every_attempt()",
    ),
    (
        "rerun-fail-to-pass",
        "tests/it/hostile_reruns.rs",
        "fn rerun_fail_to_pass_of_one_change_is_flagged_whatever_the_move()",
    ),
    (
        "rerun-level-spent",
        "tests/it/hostile_reruns.rs",
        "fn rerun_level_spent_over_every_trigger()",
    ),
    (
        "rerun-thousand-attempts",
        "tests/it/hostile_reruns.rs",
        "fn rerun_thousand_attempts_keep_the_marker_the_verdict_and_the_count()",
    ),
    (
        "state-values-checked",
        "tests/it/hostile_reruns.rs",
        "fn state_values_checked_forged_values_are_never_pooled()",
    ),
    (
        "hive-symlink-walk",
        "tests/it/input_parquet.rs",
        "fn a_hive_folder_with_a_symlink_beside_each_level_is_walked_once()",
    ),
    (
        "check-many-no-state",
        "tests/it/hostile_reruns.rs",
        "fn check_many_no_state_is_said_in_the_run()",
    ),
    (
        "zip-repeated-name",
        "tests/it/baseline_fetch.rs",
        "fn a_zip_with_a_repeated_name_is_refused()",
    ),
    (
        "comment-identity",
        "tests/it/hostile_reruns.rs",
        "fn comment_identity_is_the_path_from_the_checkout_root()",
    ),
    (
        "candidate-adds-slice-tag",
        "tests/it/hostile_fork.rs",
        "fn candidate_adds_slice_tag()",
    ),
    (
        "candidate-changes-slice-tag",
        "tests/it/hostile_fork.rs",
        "fn candidate_changes_slice_tag()",
    ),
    (
        "candidate-adds-group",
        "tests/it/hostile_fork.rs",
        "fn candidate_adds_group()",
    ),
    (
        "sidecar-hash-dropped",
        "tests/it/hostile_fork.rs",
        "fn sidecar_hash_dropped()",
    ),
    (
        "sidecar-hash-recomputed",
        "tests/it/hostile_fork.rs",
        "fn sidecar_hash_recomputed()",
    ),
    (
        "candidate-replicates-spread",
        "tests/it/hostile_fork.rs",
        "fn candidate_replicates_spread()",
    ),
    (
        "candidate-replicates-no-baseline-noise",
        "tests/it/hostile_fork.rs",
        "fn candidate_replicates_no_baseline_noise()",
    ),
    (
        "candidate-drops-within-noise",
        "tests/it/noise_moved.rs",
        "fn candidate_drops_within_noise()",
    ),
    (
        "ir-metadata-deep-flow",
        "tests/it/hostile_fork.rs",
        "fn ir_metadata_deep_flow()",
    ),
    (
        "ir-metadata-huge",
        "tests/it/hostile_fork.rs",
        "fn ir_metadata_huge()",
    ),
    (
        "median-time-bound",
        "tests/it/hostile_fork.rs",
        "fn median_time_bound()",
    ),
    (
        "run-comes-back-pipe",
        "tests/it/hostile_odd_input.rs",
        "fn run_comes_back_pipe()",
    ),
    (
        "run-comes-back-fifo",
        "tests/it/hostile_odd_input.rs",
        "fn run_comes_back_fifo()",
    ),
    (
        "run-comes-back-file",
        "tests/it/hostile_odd_input.rs",
        "fn run_comes_back_file()",
    ),
    (
        "queries-row-matches-nothing",
        "tests/it/hostile_odd_input.rs",
        "fn queries_row_matches_nothing()",
    ),
    (
        "queries-row-matches-nothing-intersect",
        "tests/it/hostile_odd_input.rs",
        "fn queries_row_matches_nothing_intersect()",
    ),
    (
        "exponential-gain-overflow",
        "tests/it/hostile_odd_input.rs",
        "fn exponential_gain_overflow()",
    ),
    (
        "bca-large-values",
        "tests/it/hostile_odd_input.rs",
        "fn bca_large_values()",
    ),
    (
        "confidence-beyond-resamples",
        "tests/it/hostile_odd_input.rs",
        "fn confidence_beyond_resamples()",
    ),
    (
        "json-metric-twice",
        "tests/it/hostile_odd_input.rs",
        "fn json_metric_twice()",
    ),
    (
        "json-query-id-twice",
        "tests/it/hostile_odd_input.rs",
        "fn json_query_id_twice()",
    ),
    (
        "json-slice-tag-twice",
        "tests/it/hostile_odd_input.rs",
        "fn json_slice_tag_twice()",
    ),
    (
        "qrels-jsonl-doc-twice",
        "tests/it/hostile_odd_input.rs",
        "fn qrels_jsonl_doc_twice()",
    ),
    (
        "eval-trec-id-all",
        "tests/it/hostile_odd_input.rs",
        "fn eval_trec_id_all()",
    ),
    (
        "eval-trec-id-white-space",
        "tests/it/hostile_odd_input.rs",
        "fn eval_trec_id_white_space()",
    ),
    (
        "name-workflow-command",
        "tests/it/hostile_odd_input.rs",
        "fn name_workflow_command()",
    ),
    (
        "name-ansi-escape",
        "tests/it/hostile_odd_input.rs",
        "fn name_ansi_escape()",
    ),
    (
        "name-bidi-markdown",
        "tests/it/hostile_odd_input.rs",
        "fn name_bidi_markdown()",
    ),
    (
        "name-10mb-tag",
        "tests/it/hostile_odd_input.rs",
        "fn name_10mb_tag()",
    ),
    (
        "api-url-credentials",
        "tests/it/hostile_odd_input.rs",
        "fn api_url_credentials()",
    ),
    (
        "token-control-character",
        "tests/it/hostile_odd_input.rs",
        "fn token_control_character()",
    ),
    (
        "summary-fifo",
        "tests/it/hostile_odd_input.rs",
        "fn summary_fifo()",
    ),
    (
        "event-path-endless",
        "tests/it/hostile_odd_input.rs",
        "fn event_path_endless()",
    ),
    (
        "crafted-doc-ids",
        "tests/it/hostile_odd_input.rs",
        "fn crafted_doc_ids()",
    ),
    (
        "many-critical-slices",
        "tests/it/hostile_odd_input.rs",
        "fn many_critical_slices()",
    ),
    (
        "same-output-twice",
        "tests/it/hostile_odd_input.rs",
        "fn same_output_twice()",
    ),
    (
        "dump-config-max-seed",
        "tests/it/hostile_odd_input.rs",
        "fn dump_config_max_seed()",
    ),
    (
        "github-error-redacted-then-cut",
        "tests/it/hostile_github.rs",
        "fn github_error_redacted_then_cut()",
    ),
    (
        "github-huge-body",
        "tests/it/hostile_github.rs",
        "fn github_huge_body()",
    ),
    (
        "github-endless-pages",
        "tests/it/hostile_github.rs",
        "fn github_endless_pages()",
    ),
    (
        "github-post-502-stored",
        "tests/it/hostile_github.rs",
        "fn github_post_502_stored()",
    ),
    (
        "github-planted-marker",
        "tests/it/hostile_github.rs",
        "fn github_planted_marker()",
    ),
    (
        "github-token-identity",
        "tests/it/hostile_github.rs",
        "fn github_token_identity()",
    ),
    (
        "fork-status-trusted",
        "scripts/validate-action.sh",
        "fork part 2 sets the status `rag-gate (trusted)`",
    ),
    (
        "stale-after-error",
        "tests/it/hostile_comment.rs",
        "fn stale_after_error()",
    ),
    (
        "comment-names-commit",
        "tests/it/hostile_comment.rs",
        "fn comment_names_commit()",
    ),
    (
        "duplicate-comments-collapsed",
        "tests/it/hostile_comment.rs",
        "fn duplicate_comments_collapsed()",
    ),
    (
        "sticky-key-per-gate-path",
        "tests/it/hostile_comment.rs",
        "fn sticky_key_per_gate_path()",
    ),
    (
        "text-every-field",
        "tests/it/hostile_text.rs",
        "fn check_with_hostile_metric_files_prints_nothing_unsafe()",
    ),
    (
        "text-file-names",
        "tests/it/hostile_text.rs",
        "fn hostile_file_names_print_nothing_unsafe()",
    ),
    (
        "text-replicates-aa",
        "tests/it/hostile_text.rs",
        "fn replicates_and_aa_print_nothing_unsafe()",
    ),
    (
        "text-runs-ir-metadata",
        "tests/it/hostile_text.rs",
        "fn runs_with_hostile_ir_metadata_and_ids_print_nothing_unsafe()",
    ),
    (
        "holes-forged-line",
        "tests/it/hostile_text.rs",
        "fn holes_refuse_ids_that_would_forge_a_qrels_line()",
    ),
    (
        "comment-autolinks",
        "tests/it/hostile_text.rs",
        "fn issue_references_and_urls_in_ids_do_not_link()",
    ),
    (
        "tool-cache-checked",
        "tests/it/install_script.rs",
        "fn a_planted_tool_cache_binary_is_refused_and_downloaded_again()",
    ),
    (
        "piped-run-ir-metadata",
        "tests/it/hostile_text.rs",
        "fn a_piped_run_says_its_ir_metadata_is_not_read()",
    ),
    (
        "path-only-the-binary",
        "tests/it/install_script.rs",
        "fn tools_planted_beside_the_cached_binary_never_reach_path()",
    ),
    (
        "no-baseline-not-checked",
        "tests/it/hostile_comment.rs",
        "fn no_baseline_marks_the_comment_not_checked()",
    ),
    (
        "merge-base-behind-main",
        "tests/it/baseline_fetch.rs",
        "fn how_far_main_moved_past_the_merge_base_is_reported_and_bounded()",
    ),
    (
        "base-sha-upper-case",
        "tests/it/baseline_fetch.rs",
        "fn an_upper_case_base_sha_is_the_merge_base_itself()",
    ),
    (
        "parquet-unsigned",
        "tests/it/hostile_parquet.rs",
        "fn parquet_unsigned_columns_are_read_as_unsigned()",
    ),
    (
        "parquet-types-by-meaning",
        "tests/it/hostile_parquet.rs",
        "fn parquet_types_that_are_not_numbers_are_refused_by_name()",
    ),
    (
        "percent-of-non-positive-baseline",
        "tests/it/hostile_run_cards.rs",
        "fn a_percentage_of_a_negative_or_zero_baseline_is_not_judged()",
    ),
    (
        "welch-huge-replicates",
        "tests/it/hostile_run_cards.rs",
        "fn replicates_near_1e160_give_an_interval_not_a_panic()",
    ),
    (
        "parquet-bomb",
        "tests/it/hostile_parquet.rs",
        "fn a_parquet_decompression_bomb_is_refused_while_it_is_read()",
    ),
    (
        "parquet-repeated-id",
        "tests/it/hostile_parquet.rs",
        "fn a_repeated_id_stops_the_parquet_read_at_once()",
    ),
    (
        "piped-run-ir-metadata-check",
        "tests/it/hostile_odd_input.rs",
        "fn piped_run_ir_metadata_check()",
    ),
    (
        "fifo-run-ir-metadata",
        "tests/it/hostile_odd_input.rs",
        "fn fifo_run_ir_metadata()",
    ),
    (
        "name-5000-characters",
        "tests/it/hostile_text.rs",
        "fn name_5000_characters()",
    ),
    (
        "deep-judged-bounds",
        "tests/it/judged_bounds.rs",
        "fn deep_judged_bounds()",
    ),
    (
        "zip-declares-a-false-size",
        "tests/it/baseline_fetch.rs",
        "fn a_zip_that_lies_about_its_compressed_size_is_refused()",
    ),
    (
        "fetch-all-or-nothing",
        "tests/it/baseline_fetch.rs",
        "fn a_refusal_partway_leaves_the_earlier_fetch_whole()",
    ),
    (
        "html-well-formed",
        "tests/it/hostile_text.rs",
        "fn the_html_report_with_tiny_p_values_is_well_formed()",
    ),
    (
        "sticky-key-same-file",
        "tests/it/hostile_comment.rs",
        "fn one_gate_file_named_three_ways_keys_one_comment()",
    ),
];

/// Cases whose test lives in a file another branch adds (same layout as [`CASES`]).
const OTHER_BRANCH: &[(&str, &str, &str)] = &[(
    "critical-slice-shrunk",
    "tests/it/check_critical_slices.rs",
    "fn a_fork_cannot_shrink_a_critical_slice_out_of_judgement()",
)];

/// The case ids of docs/hostile.md: the first cell of every table row, in backticks.
fn documented() -> Vec<String> {
    let docs =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/hostile.md"))
            .unwrap();
    docs.lines()
        .filter(|l| l.starts_with("| `"))
        .map(|l| {
            l.trim_start_matches("| `")
                .split('`')
                .next()
                .unwrap()
                .to_string()
        })
        .collect()
}

#[test]
fn every_hostile_case_is_documented_and_tested() {
    let rows = documented();
    let known: Vec<&str> = CASES.iter().chain(OTHER_BRANCH).map(|c| c.0).collect();
    let mut seen = std::collections::BTreeSet::new();
    for id in &rows {
        assert!(
            seen.insert(id.as_str()),
            "docs/hostile.md has row {id:?} twice"
        );
        assert!(
            known.contains(&id.as_str()),
            "docs/hostile.md row {id:?} has no test"
        );
    }
    let missing: Vec<&&str> = known.iter().filter(|id| !seen.contains(**id)).collect();
    assert!(missing.is_empty(), "not in docs/hostile.md: {missing:?}");
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for (id, file, text) in CASES {
        let body = std::fs::read_to_string(root.join(file)).unwrap_or_default();
        assert!(
            body.contains(text),
            "{id}: {file} no longer tests it ({text:?})"
        );
    }
    for (id, file, text) in OTHER_BRANCH {
        if let Ok(body) = std::fs::read_to_string(root.join(file)) {
            assert!(
                body.contains(text),
                "{id}: {file} does not test it ({text:?})"
            );
        }
    }
}

/// No work-period labels in the hostile docs, tests or benches: they say what a case is.
#[test]
fn hostile_files_name_no_round_or_issue() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = vec![root.join("docs/hostile.md")];
    for dir in ["tests/it", "bench/hostile"] {
        for e in std::fs::read_dir(root.join(dir)).unwrap() {
            let p = e.unwrap().path();
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            let hostile = name.starts_with("hostile_");
            if (dir == "bench/hostile" || hostile) && p.is_file() {
                files.push(p);
            }
        }
    }
    // The words are built, not written, so this file does not trip its own check.
    let words: Vec<String> = [("rou", "nd"), ("iss", "ue")]
        .iter()
        .flat_map(|(a, b)| (1..=4).flat_map(move |n| [format!("{a}{b} {n}"), format!("{a}{b}{n}")]))
        .chain(["wa".to_string() + "ve ", "ses".to_string() + "sion"])
        .collect();
    let label = |l: &str| {
        // The TREC-COVID fixture is named for the track's round; that is data, not a label.
        let l = l.to_lowercase().replace("covid-round2", "");
        words.iter().any(|w| l.contains(w.as_str()))
    };
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap_or_default();
        for (n, l) in text.lines().enumerate() {
            assert!(
                !label(l),
                "{}:{}: a work-period label: {l}",
                f.display(),
                n + 1
            );
        }
    }
}
