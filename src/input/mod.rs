//! Input floor, below `load/` and `eval/`: opening a path (a file, `-` for standard input),
//! undoing gzip as a stream, guessing a format from the name and the first bytes, and reading
//! the generic shapes several formats share (a two-level JSON map). It knows nothing of metrics,
//! runs or qrels: `load/` and `eval/` give the rows their meaning.
//!
//! Limits on untrusted input live here, once: gzip may expand at most [`MAX_GZIP_RATIO`]-fold
//! past its first [`GZIP_FREE_BYTES`] (a decompression bomb is refused, not unpacked), the sniffed
//! head is [`HEAD_BYTES`], JSON nesting is serde_json's 128 levels, Parquet is read
//! `parquet::BATCH_ROWS` rows at a time after its footer's declared sizes are checked against
//! the file (`parquet.rs`, `parquet_footer.rs`), and ids key hash maps with a seed per map
//! (`fasthash.rs`), so no crafted id list collides in every map.

pub mod fasthash;
pub mod folder;
pub mod gzip;
pub mod json_map;
pub mod open;
#[cfg(feature = "parquet")]
pub mod parquet;
#[cfg(feature = "parquet")]
mod parquet_footer;
pub mod parts;
pub mod sniff;

pub use open::{open, Opened};

/// A Parquet input in a build without the `parquet` feature: a clear error (exit 2) naming the
/// file, never a guess at its contents.
#[cfg(not(feature = "parquet"))]
pub fn parquet_not_built(shown: &str) -> crate::error::Error {
    crate::error::Error::input(
        shown,
        0,
        "this is Parquet, and this rag-gate was built without Parquet support (cargo feature \
         `parquet`); use a release build, or give the table as JSONL, CSV or TSV",
    )
}

/// Decoded bytes a gzip stream may produce before the ratio check applies.
pub const GZIP_FREE_BYTES: u64 = 64 << 20;
/// Beyond [`GZIP_FREE_BYTES`], the most decoded bytes per compressed byte. Text runs and metric
/// tables compress 5–30-fold; a gzip bomb expands about 1000-fold.
pub const MAX_GZIP_RATIO: u64 = 200;
/// How much of a file is read to sniff its format.
pub const HEAD_BYTES: usize = 64 << 10;
