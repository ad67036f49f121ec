//! AVX2 forms of the engine's innermost loops, used when the CPU reports AVX2 (checked once, at
//! run time) and otherwise replaced by the portable loops they copy:
//! - `cut`: the bootstrap's index cut (`bootstrap::indices`), four pieces a vector;
//! - `sums`: the bootstrap-t's per-draw value and spread sums of one metric over queries
//!   (`spread_columns`), four draws a gather.
//!
//! Each does the portable loop's arithmetic in the same order, lane for lane (the four
//! accumulator lanes of `columns` are a vector's four lanes), so the numbers are the same bit for
//! bit on every machine; the tests of each check it against the portable loop.

pub mod cut;

/// Whether this CPU runs the AVX2 loops.
pub fn available() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        is_x86_feature_detected!("avx2")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}
