//! How numbers read in every report: one precision (4 decimals for values, deltas, bounds and
//! thresholds), one minus sign (U+2212 `−`), no negative zero, no space between a sign and its
//! number (`≥ −0.0100`).

pub mod compact; // run-level values (bytes, QPS, ms) without fixed decimals

/// Decimals of every value, delta, bound and threshold in a report.
pub const DIGITS: usize = 4;

/// `+0.0123`, `−0.0310`, `0.0000` (no sign on zero).
pub fn signed(x: f64) -> String {
    let t = format!("{:.*}", DIGITS, x.abs());
    if t.bytes().all(|b| b == b'0' || b == b'.') {
        t
    } else if x < 0.0 {
        format!("−{t}")
    } else {
        format!("+{t}")
    }
}

/// `0.9650`, `−0.0480`: like `signed`, without a plus sign.
pub fn plain(x: f64) -> String {
    signed(x).trim_start_matches('+').to_string()
}

/// "+0.0122 [−0.0041, +0.0205]": a delta and its interval, signed as everywhere in the reports.
pub fn delta_and_interval(delta: f64, ci: [f64; 2]) -> String {
    format!("{} [{}, {}]", signed(delta), signed(ci[0]), signed(ci[1]))
}

/// A share as a percentage with one decimal: `25.0%`.
pub fn percent(share: f64) -> String {
    format!("{:.1}%", 100.0 * share)
}

/// Decimals to show a range `lo … hi` with: 4, more (up to 8) when 4 would print both ends alike.
pub fn range_digits(lo: f64, hi: f64) -> usize {
    (4..=8)
        .find(|&d| format!("{lo:.d$}") != format!("{hi:.d$}"))
        .unwrap_or(4)
}

/// "1 query", "3 queries": a count with the right plural.
pub fn count(n: usize, one: &str, many: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{n} {many}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_minus_one_precision_no_negative_zero() {
        assert_eq!(signed(-0.031), "−0.0310");
        assert_eq!(signed(0.0122), "+0.0122");
        assert_eq!(signed(-0.00001), "0.0000");
        assert_eq!(plain(0.965), "0.9650");
        assert_eq!(plain(-0.048), "−0.0480");
        assert_eq!(percent(0.25), "25.0%");
        assert_eq!(count(1, "gate", "gates"), "1 gate");
        assert_eq!(count(3, "gate", "gates"), "3 gates");
    }
}
