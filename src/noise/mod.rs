//! Run-to-run noise of one commit: the noise file `rag-gate aa` writes and `check` reads
//! (`[noise] file`), and the quarantine list of flaky queries kept out of the gates
//! (`[noise] quarantine`), and what "moved" means with the noise file (`band`).

pub mod apply;
pub mod band;
pub mod file;
pub mod quarantine;

pub use file::{NoiseEntry, NoiseFile, NOISE_VERSION};
