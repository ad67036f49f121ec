//! What `check` publishes and where (`--comment[=MODE]`, `--comment-mode`, `--html-artifact`,
//! `--check-run`, `--pr`, `--token-env`, `--state-key-env`): the settings and their choices.
//! The command line's definitions of these flags are `cli::PublishFlags`.

/// Whether to post the sticky PR comment, and whether failing to do so is fatal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum CommentMode {
    /// No comment (the default without `--comment`).
    #[default]
    Off,
    /// Post or update the comment; a failure is a warning and the exit code stays the verdict's.
    BestEffort,
    /// Post or update the comment; a failure exits 2.
    Required,
}

crate::choice!(CommentMode {
    Off => "off": "No comment (the default without `--comment`)",
    BestEffort => "best-effort": "Post or update the comment; a failure is a warning and the exit code stays the verdict's",
    Required => "required": "Post or update the comment; a failure exits 2",
});

/// When the sticky comment is posted or edited (`--comment-mode`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
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

crate::choice!(CommentWhen {
    Always => "always": "Create the comment, or edit it whenever the report changed",
    OnChange => "on-change": "Leave an existing comment alone while the verdict and the gated rows stay the same (their digest is in the comment's hidden marker); create or edit it otherwise",
    OnFailure => "on-failure": "Post only when the gate fails; an existing comment is still edited, so it says when the pull request passes again",
});

/// What `check` publishes and where: the publish flags as `check` passes them on
/// (`cli::PublishFlags` reads them from the command line).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PublishArgs {
    /// Post the report as one sticky PR comment, updated in place on later runs. `--comment` is
    /// best effort (a failure is a warning); `--comment=required` makes a failure exit 2.
    pub comment: CommentMode,

    /// When to post or edit the comment: always (whenever the report changed), on-change (only
    /// when the verdict or a gated row changed) or on-failure (only when failing; an existing
    /// comment is still edited). The job summary is written every time.
    pub comment_mode: CommentWhen,

    /// Name of the workflow artifact the HTML report (`--export-html`) is uploaded as; the
    /// comment and the job summary then say where to find it. The Action sets it.
    pub html_artifact: Option<String>,

    /// Also create or update a GitHub check run named `rag-gate: GATE` on the judged commit:
    /// conclusion success (pass, untouched), failure (fail) or neutral (inconclusive), the
    /// headline as its title, the Markdown report as its summary. Needs `checks: write`; best
    /// effort (a failure is a warning and the exit code stays the verdict's).
    pub check_run: bool,

    /// Pull request number (default: from the event at GITHUB_EVENT_PATH).
    pub pr: Option<u64>,

    /// Environment variable that holds the GitHub token.
    pub token_env: String,

    /// Environment variable that holds the key the comment's hidden state (attempts of one
    /// commit, the pull request's looks) is signed with (HMAC-SHA-256); unset: a plain SHA-256.
    pub state_key_env: String,

    /// The sticky comment's key (`config::comment_key`), set by `check`; None: the gate id.
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
