//! The protocol sidecar of a per-query metric file: `FILE.protocol.json`, written by
//! `rag-gate eval -o FILE` (layout: docs/protocol.md). A file without one (written by another
//! tool) has no fingerprint; a sidecar whose rows hash does not match its file is refused.

use std::path::Path;

use crate::error::{Error, Result};
use crate::protocol::{sha256_hex, sidecar_path, Protocol, PROTOCOL_FORMAT};

/// The fingerprint next to `rows` (shown as `shown`), if there is one.
pub fn read_sidecar(rows: &Path, shown: &str) -> Result<Option<Protocol>> {
    let path = sidecar_path(rows);
    let side_shown = format!("{shown}.protocol.json");
    if !path.is_file() {
        return Ok(None);
    }
    let text = super::source::read_text(&path, &side_shown, "a rag-gate protocol fingerprint")?;
    let p: Protocol = serde_json::from_str(&text).map_err(|e| {
        Error::input(
            &side_shown,
            e.line(),
            format!("not a rag-gate protocol fingerprint: {e}"),
        )
    })?;
    if p.protocol_format > PROTOCOL_FORMAT {
        return Err(Error::input(
            &side_shown,
            0,
            format!(
                "protocol-format {} is newer than this rag-gate reads ({PROTOCOL_FORMAT}); upgrade rag-gate",
                p.protocol_format
            ),
        ));
    }
    if let Some(want) = &p.rows_sha256 {
        let bytes = super::source::read_bytes(rows, shown, "per-query metrics")?;
        let got = sha256_hex(&bytes);
        if &got != want {
            return Err(Error::input(
                &side_shown,
                0,
                format!("describes other rows than {shown} (rows-sha256 {want}, the file hashes to {got}): the file changed after `rag-gate eval` wrote it; re-run eval, or delete the sidecar to compare without a protocol check"),
            ));
        }
    }
    Ok(Some(p))
}
