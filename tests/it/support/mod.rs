//! What the integration tests share, so no test file copies it: running the binary and reading
//! its JSON report (`cli`), a fabricated report for the renderers and publishers (`report`), a
//! local mock of the GitHub REST API (`github`) and the committed scipy references (`scipy`). A
//! test file declares `mod support;` and uses the parts it needs.
#![allow(dead_code)]

pub mod cli;
pub mod github;
pub mod report;
pub mod scipy;
