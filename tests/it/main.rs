//! The integration tests, one binary (one link for all): a module per surface or property of
//! rag-gate, run through the built binary or the library; `support` is their shared scaffolding.
//! Modules that need a default feature (`github`: the PR comment and `baseline fetch`; `parquet`)
//! are compiled only with it, so `cargo test --no-default-features` tests the core.

mod support;

#[cfg(feature = "github")]
mod anchor;
mod baseline_check;
#[cfg(feature = "github")]
mod baseline_fetch;
#[cfg(feature = "github")]
mod baseline_gitlab;
#[cfg(feature = "github")]
mod check_many;
mod check_runs;
mod check_ties;
mod ci_parity;
mod cli_check;
mod cli_terminal;
mod column_mapping;
mod compare_rules;
mod contributor_docs;
mod core_build;
mod critical_slices;
mod doc_id_meeting;
mod docs_drift;
mod efficiency_cli;
mod equivalence_cli;
mod eval_cli;
mod eval_fixtures;
mod eval_formats;
mod eval_props;
mod eval_ties;
mod eval_ties_props;
mod eval_worked;
mod example_reports;
mod format_detection;
mod gate_power_cli;
mod group_from_id;
mod hostile_atomic;
mod hostile_cases;
#[cfg(feature = "github")]
mod hostile_comment;
mod hostile_fork;
#[cfg(feature = "github")]
mod hostile_github;
mod hostile_inputs;
#[cfg(feature = "github")]
mod hostile_odd_input;
#[cfg(feature = "parquet")]
mod hostile_parquet;
mod hostile_regressions;
mod hostile_reruns;
mod hostile_run_cards;
mod hostile_scale;
mod hostile_security;
mod hostile_text;
mod id_overlap;
mod init_cli;
mod install_lines;
#[cfg(unix)]
mod install_script;
mod judged_bounds;
mod judges_active;
mod judges_cli;
mod judges_ppi;
mod manuals;
mod min_moved_cli;
mod missing_rankings;
mod noise_cli;
mod noise_moved;
#[cfg(feature = "parquet")]
mod number_parsing;
mod outcomes_cases;
mod outcomes_untouched;
mod outputs_no_clobber;
#[cfg(feature = "parquet")]
mod parquet_inputs;
mod plan_cli;
mod plan_power;
mod probe;
mod prop_parsers_no_panic;
mod prop_stats;
mod protocol_cli;
mod protocol_report;
mod publish_actions;
#[cfg(feature = "github")]
mod publish_attempts;
#[cfg(feature = "github")]
mod publish_check_run;
#[cfg(feature = "github")]
mod publish_comment_modes;
#[cfg(feature = "github")]
mod publish_e2e;
#[cfg(feature = "github")]
mod publish_failures;
#[cfg(feature = "github")]
mod publish_github;
#[cfg(feature = "github")]
mod publish_gitlab;
mod publish_markdown;
mod quantile_words_cli;
mod rel_level;
mod release_layout;
mod report_browser;
mod report_comment;
mod report_html;
mod report_junit;
mod report_text;
mod report_schema;
mod report_why;
mod repository_shape;
mod rounded_inputs;
mod stats_bca_ties;
mod stats_calibration;
mod stats_dirichlet;
mod stats_harrell_davis;
mod stats_montecarlo;
mod stats_active_ppi;
mod stats_ppi;
mod stats_prstream;
mod stats_props;
mod stats_reference;
mod stats_replicates;
mod stats_report;
mod stats_signflip;
mod stats_small;
mod stats_ties;
mod stats_welch;
mod trust_cases;
mod trust_labels;
mod trust_thresholds;
mod two_statistics;
