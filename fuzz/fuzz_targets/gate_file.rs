//! The gate file: parse, validate and dump. The config API reads a path, so each input is
//! written to one file in a private temporary folder (inputs the gate names are not read).
#![no_main]
use std::path::PathBuf;
use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;

fn gate_path() -> &'static PathBuf {
    static PATH: OnceLock<PathBuf> = OnceLock::new();
    PATH.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("rag-gate-fuzz-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir.join("gate.toml")
    })
}

fuzz_target!(|data: &[u8]| {
    let path = gate_path();
    std::fs::write(path, data).unwrap();
    if let Ok(cfg) = rag_gate::config::load(path) {
        let _ = rag_gate::config::dump(&cfg, None);
    }
});
