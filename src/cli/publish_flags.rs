//! The publish flags, flattened into `check`'s arguments: `--comment[=MODE]`,
//! `--comment-mode`, `--html-artifact`, `--check-run`, `--pr`, `--token-env`, `--state-key-env`.

use clap::Args;

use crate::publish::{CommentMode, CommentWhen, PublishArgs};

/// The publish flags, flattened into `check`'s arguments; `settings` hands them to `publish`.
#[derive(Debug, Clone, PartialEq, Eq, Args)]
pub struct PublishFlags {
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
}

impl PublishFlags {
    /// The flags as `publish` takes them (no comment key yet: `check` sets it).
    pub fn settings(&self) -> PublishArgs {
        PublishArgs {
            comment: self.comment,
            comment_mode: self.comment_mode,
            html_artifact: self.html_artifact.clone(),
            check_run: self.check_run,
            pr: self.pr,
            token_env: self.token_env.clone(),
            state_key_env: self.state_key_env.clone(),
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
        publish: PublishFlags,
        rest: Vec<String>,
    }

    fn parse(args: &[&str]) -> PublishArgs {
        Cli::try_parse_from(std::iter::once("x").chain(args.iter().copied()))
            .unwrap()
            .publish
            .settings()
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
