//! The protocol sidecar of a per-query metric file: `FILE.protocol.json`, written by
//! `rag-gate eval -o FILE` (layout: docs/protocol.md). A file without one (written by another
//! tool) has no fingerprint. A sidecar is bound to its file, always verified: it must carry the
//! file's SHA-256 (`rows-sha256`) and the file's query ids must be its query set, else it is
//! refused (a sidecar copied from another file, its hash dropped, proves nothing).

use std::path::Path;

use super::MetricTable;
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
    let Some(want) = &p.rows_sha256 else {
        return Err(Error::input(
            &side_shown,
            0,
            format!("has no rows-sha256, so nothing binds it to {shown} (a fingerprint copied from another file proves nothing); re-run `rag-gate eval -o FILE`, or delete the sidecar to compare without a protocol check"),
        ));
    };
    let bytes = super::source::read_bytes(rows, shown, "per-query metrics")?;
    let got = sha256_hex(&bytes);
    if &got != want {
        return Err(Error::input(
            &side_shown,
            0,
            format!("describes other rows than {shown} (rows-sha256 {want}, the file hashes to {got}): the file changed after `rag-gate eval` wrote it; re-run eval, or delete the sidecar to compare without a protocol check"),
        ));
    }
    Ok(Some(p))
}

/// The fingerprint's query set must be the query ids of the rows it describes: a sidecar whose
/// rows hash was recomputed for other rows still names the queries it was measured on.
pub fn check_query_set(p: &Protocol, table: &MetricTable, shown: &str) -> Result<()> {
    let mut ids: Vec<&str> = table.rows.ids().iter().collect();
    ids.sort_unstable();
    let got = crate::protocol::query_set_hash(ids.into_iter());
    if got == p.query_set_sha256 && table.rows.len() == p.queries {
        return Ok(());
    }
    Err(Error::input(
        format!("{shown}.protocol.json"),
        0,
        format!(
            "its query set ({}, query-set-sha256 {}) is not the {} of {shown} (they hash to {got}): the fingerprint describes another evaluation; re-run `rag-gate eval -o FILE`",
            crate::numbers::count(p.queries, "query", "queries"),
            p.query_set_sha256,
            crate::numbers::count(table.rows.len(), "query", "queries")
        ),
    ))
}
