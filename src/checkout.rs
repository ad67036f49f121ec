//! The CI checkout a job works in: the repository root that gate-file paths are taken relative
//! to. The one place outside the forge clients that reads the environment, and only these two
//! variables.

/// The CI checkout the run works in (`GITHUB_WORKSPACE` on GitHub, `CI_PROJECT_DIR` on GitLab),
/// the ones set: the repository root a gate file's path is taken relative to.
pub fn roots() -> Vec<std::path::PathBuf> {
    ["GITHUB_WORKSPACE", "CI_PROJECT_DIR"]
        .iter()
        .filter_map(|v| std::env::var_os(v).filter(|d| !d.is_empty()))
        .map(std::path::PathBuf::from)
        .collect()
}
