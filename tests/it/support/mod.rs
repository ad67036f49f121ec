//! What the integration tests share, so no test file copies it: the harness every CLI test runs
//! through (`context`: a temporary folder, its inputs and gate file, the binary run in it, what it
//! printed), gate files built from their parts (`gate_file`), what a run printed with its checks
//! and the JSON report's readers (`output`), a fabricated report for the renderers and publishers
//! (`report`), a local mock of the GitHub REST API (`github`) and the committed scipy references
//! (`scipy`).
//! A test file declares `use crate::support;` and uses the parts it needs.
#![allow(dead_code)]

pub mod context;
pub mod gate_file;
pub mod output;
pub mod github;
pub mod report;
pub mod scipy;

// `command_in` serves the fixtures of the `github` modules only.
#[cfg_attr(not(feature = "github"), allow(unused_imports))]
pub use context::{command_in, example_gate, in_repo, repo, TestContext, GATE};
pub use gate_file::{example_with_cards, toml_path, GateFile};
pub use output::Out;
