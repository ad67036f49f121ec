//! Judged coverage of one query: its unjudged ranked documents. What they could do to a delta is
//! `shared_bounds.rs` (one judgment per document, shared by both sides).

use super::metrics::UNJUDGED;

/// `(rank, doc)` of the unjudged documents in the top `depth` (rank 1-based).
pub fn unjudged_docs(rels: &[i32], docs: &[&[u8]], depth: usize) -> Vec<(usize, String)> {
    rels.iter()
        .zip(docs)
        .take(depth)
        .enumerate()
        .filter(|(_, (&g, _))| g == UNJUDGED)
        .map(|(i, (_, d))| (i + 1, String::from_utf8_lossy(d).into_owned()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_unjudged_docs_with_their_ranks() {
        let docs: [&[u8]; 3] = [b"A", b"B", b"C"];
        let got = unjudged_docs(&[UNJUDGED, 0, UNJUDGED], &docs, 2);
        assert_eq!(got, [(1, "A".to_string())]);
    }
}
