//! What a command hands back to `main`: text for stdout, warnings for stderr, and the exit code.

/// Exit codes, documented in `--help` and the README.
pub const EXIT_PASS: i32 = 0;
pub const EXIT_GATE_FAILED: i32 = 1;
pub const EXIT_ERROR: i32 = 2;

#[derive(Debug, Default, Clone, PartialEq)]
pub struct Outcome {
    /// Printed on stdout through the final guard (`safe_text::printable`).
    pub stdout: String,
    /// Printed on stderr, one per line (warnings, guarded; rag-gate's own GitHub
    /// `::warning`/`::error` commands).
    pub stderr: Vec<crate::safe_text::Line>,
    /// 0 pass, 1 gate failed.
    pub exit_code: i32,
}
