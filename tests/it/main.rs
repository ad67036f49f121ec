//! The integration tests, one binary (one link for all): a module per surface or property of
//! rag-gate, run through the built binary or the library; `support` is their shared scaffolding.
//! Modules that need a default feature (`github`: the PR comment and `baseline fetch`; `parquet`)
//! are compiled only with it, so `cargo test --no-default-features` tests the core.

mod support;

#[cfg(feature = "github")]
mod anchor;
#[cfg(feature = "github")]
mod baseline_fetch;
#[cfg(feature = "github")]
mod baseline_gitlab;
mod check_baseline;
mod check_command;
mod check_critical_slices;
mod check_efficiency;
mod check_equivalence;
mod check_gate_power;
#[cfg(feature = "github")]
mod check_many;
mod check_min_moved;
mod check_missing_rankings;
mod check_outcomes;
mod check_quantile_words;
mod check_runs;
mod check_ties;
mod check_two_statistics;
mod check_lone_move;
mod check_untouched;
mod shards;
mod ci_parity;
mod compare_rules;
mod contributor_docs;
mod core_build;
mod docs_drift;
mod eval_command;
mod eval_fixtures;
mod eval_formats;
mod eval_props;
mod eval_ties;
mod eval_ties_props;
mod eval_worked;
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
mod init_command;
mod input_column_mapping;
mod input_doc_ids;
mod input_format_detection;
mod input_group_from_id;
mod input_id_overlap;
#[cfg(feature = "parquet")]
mod input_number_parsing;
#[cfg(feature = "parquet")]
mod input_parquet;
mod input_props_no_panic;
mod input_rounded;
mod install_lines;
#[cfg(unix)]
mod install_script;
mod judged_bounds;
mod judges_active;
mod judges_planted;
mod judges_check;
mod judges_ppi;
mod manuals;
mod noise_aa;
mod noise_moved;
mod noise_nondeterministic;
mod outputs_no_clobber;
mod plan_command;
mod plan_power;
mod probe;
mod protocol_fingerprint;
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
mod rel_level;
mod release_layout;
mod report_browser;
mod report_comment;
mod report_formats;
mod report_html;
mod report_junit;
mod report_schema;
mod report_text;
mod report_why;
mod repository_shape;
mod stats_active_ppi;
mod stats_bca_ties;
mod stats_calibration;
mod stats_dirichlet;
mod stats_harrell_davis;
mod stats_montecarlo;
mod stats_ppi;
mod stats_props;
mod stats_props_analysis;
mod stats_prstream;
mod stats_reference;
mod stats_replicates;
mod stats_report;
mod stats_signflip;
mod stats_small;
mod stats_ties;
mod stats_welch;
mod terminal_output;
mod trust_cases;
mod trust_labels;
mod trust_thresholds;
