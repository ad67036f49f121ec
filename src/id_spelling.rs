//! Query ids that are the same query spelled two ways. Two files that should name one set of
//! queries but never meet (`0001` in the qrels, `1` in the run) would otherwise pair nothing,
//! or score the unmatched half 0, and pass. Ids are compared after normalising: surrounding
//! whitespace trimmed, letters lower-cased, leading zeros of every digit run dropped (`q007` is
//! `q7`), and a number written with a fraction of zero read as the integer (`1.0` is `1`, as a
//! JSON float id becomes). Pure: no I/O.

use std::collections::BTreeMap;

use crate::error::quoted;

/// `id` normalised for comparison (see the module header).
pub fn normal(id: &str) -> String {
    let t = id.trim();
    let t = match t.split_once('.') {
        Some((int, frac))
            if !int.is_empty()
                && int.bytes().all(|b| b.is_ascii_digit())
                && !frac.is_empty()
                && frac.bytes().all(|b| b == b'0') =>
        {
            int
        }
        _ => t,
    };
    let mut out = String::with_capacity(t.len());
    let mut run = String::new();
    for c in t.chars() {
        if c.is_ascii_digit() {
            run.push(c);
            continue;
        }
        push_digits(&mut out, &mut run);
        out.extend(c.to_lowercase());
    }
    push_digits(&mut out, &mut run);
    out
}

/// Appends a digit run without its leading zeros (one `0` for a run of zeros) and empties it.
fn push_digits(out: &mut String, run: &mut String) {
    if run.is_empty() {
        return;
    }
    let kept = run.trim_start_matches('0');
    out.push_str(if kept.is_empty() { "0" } else { kept });
    run.clear();
}

/// Pairs (an id of `left`, an id of `right`) that differ as written but are equal normalised,
/// in `left`'s order; each id of `right` is used once.
pub fn respelled<'a>(left: &[&'a str], right: &[&'a str]) -> Vec<(&'a str, &'a str)> {
    if left.is_empty() || right.is_empty() {
        return Vec::new();
    }
    let mut by_normal: BTreeMap<String, &str> = BTreeMap::new();
    for r in right {
        by_normal.entry(normal(r)).or_insert(r);
    }
    left.iter()
        .filter_map(|l| Some((*l, by_normal.remove(&normal(l))?)))
        .collect()
}

/// `"0001" in qrels.txt is "1" in run.txt, "0002" is "2" (and 157 more)`: the first pairs.
pub fn pairs_in_words(pairs: &[(&str, &str)], left: &str, right: &str) -> String {
    let shown: Vec<String> = pairs
        .iter()
        .take(3)
        .enumerate()
        .map(|(i, (l, r))| match i {
            0 => format!("{} in {left} is {} in {right}", quoted(l), quoted(r)),
            _ => format!("{} is {}", quoted(l), quoted(r)),
        })
        .collect();
    let more = match pairs.len() {
        n if n > 3 => format!(" (and {} more)", n - 3),
        _ => String::new(),
    };
    format!("{}{more}", shown.join(", "))
}

/// The sentence an error or warning ends with when ids match after normalising.
pub fn respelled_sentence(pairs: &[(&str, &str)], left: &str, right: &str) -> String {
    format!(
        "{} written two ways, equal after normalising (leading zeros, case, whitespace, 1.0 as 1): {}; write the ids the same way in both files",
        crate::numbers::count(pairs.len(), "id is", "ids are"),
        pairs_in_words(pairs, left, right)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalising_drops_padding_case_space_and_zero_fractions() {
        assert_eq!(normal("0001"), "1");
        assert_eq!(normal(" 1 "), "1");
        assert_eq!(normal("1.0"), "1");
        assert_eq!(normal("Q007"), "q7");
        assert_eq!(normal("q7"), "q7");
        assert_eq!(normal("000"), "0");
        assert_eq!(normal("a00b"), "a0b");
        assert_eq!(normal("100"), "100");
        assert_eq!(normal("1005"), "1005");
        assert_eq!(normal("doc-010-2"), "doc-10-2");
        assert_eq!(normal("1.5"), "1.5");
        assert_ne!(normal("10"), normal("1"));
    }

    #[test]
    fn respelled_pairs_each_right_id_once() {
        let pairs = respelled(&["001", "002", "x"], &["1", "01", "2", "y"]);
        assert_eq!(pairs, vec![("001", "1"), ("002", "2")]);
        assert!(respelled(&["a"], &[]).is_empty());
    }
}
