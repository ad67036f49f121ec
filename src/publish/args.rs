//! The publish flags, flattened into `check`'s arguments: `--comment[=MODE]`,
//! `--comment-mode`, `--html-artifact`, `--check-run`, `--pr`, `--token-env`, `--state-key-env`.

use clap::{Args, ValueEnum};

/// Whether to post the sticky PR comment, and whether failing to do so is fatal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, ValueEnum)]
pub enum CommentMode {
    /// No comment (the default without `--comment`).
    #[default]
    Off,
    /// Post or update the comment; a failure is a warning and the exit code stays the verdict's.
    BestEffort,
    /// Post or update the comment; a failure exits 2.
    Required,
}

/// When the sticky comment is posted or edited (`--comment-mode`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, ValueEnum)]
pub enum CommentWhen {
    /// Create the comment, or edit it whenever the report changed.
    #[default]
    Always,
    /// Leave an existing comment alone while the verdict and the gated rows stay the same
    /// (their digest is in the comment's hidden marker); create or edit it otherwise.
    OnChange,
    /// Post only when the gate fails; an existing comment is still edited, so it says when the
    /// pull request passes again.
    OnFailure,
}

#[derive(Debug, Clone, PartialEq, Eq, Args)]
pub struct PublishArgs {
    /// Post the report as one sticky PR comment, updated in place on later runs. `--comment` is
    /// best effort (a failure is a warning); `--comment=required` makes a failure exit 2.
    #[arg(
        long,
        value_enum,
        value_name = "MODE",
        num_args = 0..=1,
        require_equals = true,
        default_value = "off",
        default_missing_value = "best-effort"
    )]
    pub comment: CommentMode,

    /// When to post or edit the comment: always (whenever the report changed), on-change (only
    /// when the verdict or a gated row changed) or on-failure (only when failing; an existing
    /// comment is still edited). The job summary is written every time.
    #[arg(long, value_enum, value_name = "WHEN", default_value = "always")]
    pub comment_mode: CommentWhen,

    /// Name of the workflow artifact the HTML report (`--export-html`) is uploaded as; the
    /// comment and the job summary then say where to find it. The Action sets it.
    #[arg(long, value_name = "NAME")]
    pub html_artifact: Option<String>,

    /// Also create or update a GitHub check run named `rag-gate: GATE` on the judged commit:
    /// conclusion success (pass, untouched), failure (fail) or neutral (inconclusive), the
    /// headline as its title, the Markdown report as its summary. Needs `checks: write`; best
    /// effort (a failure is a warning and the exit code stays the verdict's).
    #[arg(long)]
    pub check_run: bool,

    /// Pull request number (default: from the event at GITHUB_EVENT_PATH).
    #[arg(long, value_name = "N")]
    pub pr: Option<u64>,

    /// Environment variable that holds the GitHub token.
    #[arg(long, value_name = "NAME", default_value = "GITHUB_TOKEN")]
    pub token_env: String,

    /// Environment variable that holds the key the comment's hidden state (attempts of one
    /// commit, the pull request's looks) is signed with (HMAC-SHA-256); unset: a plain SHA-256.
    #[arg(long, value_name = "NAME", default_value = "RAG_GATE_STATE_KEY")]
    pub state_key_env: String,

    /// The sticky comment's key (`config::comment_key`), set by `check`; None: the gate id.
    #[arg(skip)]
    pub comment_key: Option<String>,
}

impl Default for PublishArgs {
    fn default() -> Self {
        PublishArgs {
            comment: CommentMode::Off,
            comment_mode: CommentWhen::Always,
            html_artifact: None,
            check_run: false,
            pr: None,
            token_env: "GITHUB_TOKEN".to_string(),
            state_key_env: super::state::KEY_ENV.to_string(),
            comment_key: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        publish: PublishArgs,
        rest: Vec<String>,
    }

    fn parse(args: &[&str]) -> PublishArgs {
        Cli::try_parse_from(std::iter::once("x").chain(args.iter().copied()))
            .unwrap()
            .publish
    }

    #[test]
    fn comment_is_off_by_default_best_effort_bare_and_required_with_a_value() {
        assert_eq!(parse(&[]), PublishArgs::default());
        assert_eq!(parse(&["--comment"]).comment, CommentMode::BestEffort);
        assert_eq!(
            parse(&["--comment=required"]).comment,
            CommentMode::Required
        );
        assert_eq!(parse(&["--comment=off"]).comment, CommentMode::Off);
    }

    #[test]
    fn a_bare_comment_does_not_swallow_the_next_argument() {
        let cli = Cli::try_parse_from(["x", "--comment", "gates/prod.toml"]).unwrap();
        assert_eq!(cli.publish.comment, CommentMode::BestEffort);
        assert_eq!(cli.rest, ["gates/prod.toml"]);
    }

    #[test]
    fn comment_mode_defaults_to_always() {
        assert_eq!(parse(&[]).comment_mode, CommentWhen::Always);
        assert_eq!(
            parse(&["--comment-mode", "on-change"]).comment_mode,
            CommentWhen::OnChange
        );
        assert_eq!(
            parse(&["--comment-mode=on-failure"]).comment_mode,
            CommentWhen::OnFailure
        );
        assert!(Cli::try_parse_from(["x", "--comment-mode", "sometimes"]).is_err());
    }

    #[test]
    fn pr_and_token_env() {
        let a = parse(&["--pr", "12", "--token-env", "GH_PAT"]);
        assert_eq!((a.pr, a.token_env.as_str()), (Some(12), "GH_PAT"));
        assert!(Cli::try_parse_from(["x", "--comment=maybe"]).is_err());
    }
}
