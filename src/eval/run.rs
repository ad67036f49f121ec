//! Runs: streaming readers that hand over one query's final ranking at a time.
//!
//! TREC runs are `qid Q0 docid rank score tag` (6 whitespace-separated fields, as trec_eval
//! requires; anything after the tag is ignored, as trec_eval does). Like trec_eval they are
//! ordered by score descending (parsed as f64), ties broken by docid descending in byte order;
//! the rank column and line order are ignored unless `--order rank|given` says otherwise
//! (ordering, duplicates and chunks: `group.rs`). JSONL runs are one line per query,
//! `{"query_id": "q1", "ranked": ["D7", "D1"]}` or `"ranked": [{"doc_id": "D7", "score": 0.9}]`,
//! kept in list order unless `--order score`. MS MARCO runs are `qid pid rank` lines, read like
//! TREC lines without a score and ordered by rank. JSON map runs: `run_json.rs`.
//!
//! Memory: when a TREC run is grouped by query (every real run is), only one query's lines are
//! held. If a query id comes back after another query, the file is read a second time and
//! bucketed by query (memory ~ the whole run), so results never depend on line order. A pipe,
//! FIFO or `/dev/stdin` cannot be read twice: there a query that comes back is an input error
//! (sort the run by query first), never a silently short second pass or a hang on reopening.
//!

use std::collections::{BTreeMap, HashSet};
use std::path::Path;

pub use super::chunks::ChunkMap;
use super::group::Group;
use super::lines::{split_fields, text, Lines};
pub use super::ranking::{Ranking, RunSpec};
use super::Format;
use crate::error::{Error, Result};

/// Reads the run and calls `f` with each query's ranking, in file order. If a TREC query comes
/// back after another query, the file is read again bucketed by query and `f` is called again
/// for every query, in id order, with its complete ranking: a later call for a query replaces
/// an earlier one (callers store results keyed by query id).
pub fn for_each_query(
    path: &Path,
    shown: &str,
    spec: &RunSpec,
    f: &mut dyn FnMut(Ranking) -> Result<()>,
) -> Result<()> {
    match spec.format {
        Format::Jsonl | Format::Llamaindex => super::run_jsonl::read_jsonl(path, shown, spec, f),
        Format::Json => super::run_json::read_json(path, shown, spec, f),
        Format::Parquet => super::run_parquet::read_parquet(path, shown, spec, f),
        Format::Trec | Format::Msmarco => match read_trec_grouped(path, shown, spec, f)? {
            true => Ok(()),
            false => read_trec_bucketed(path, shown, spec, f),
        },
        Format::Beir => Format::Beir.allowed(super::Role::Run),
    }
}

/// The line parser of a line-per-entry run format.
fn line_parser(format: Format) -> fn(&[u8]) -> std::result::Result<TrecLine<'_>, String> {
    match format {
        Format::Msmarco => parse_msmarco_line,
        _ => parse_trec_line,
    }
}

/// An MS MARCO run line `qid pid rank` (tab- or space-separated); it has no score.
fn parse_msmarco_line(l: &[u8]) -> std::result::Result<TrecLine<'_>, String> {
    let mut f = [&b""[..]; 3];
    let n = split_fields(l, &mut f);
    if n != 3 {
        let n = if n > 3 { "more".into() } else { n.to_string() };
        return Err(format!(
            "expected 3 fields `qid pid rank` (MS MARCO run), found {n}"
        ));
    }
    let rank = parse_int(f[2]).ok_or_else(|| {
        let r = crate::error::quoted(&String::from_utf8_lossy(f[2]));
        format!("expected an integer rank in field 3, found {r}")
    })?;
    Ok((f[0], f[1], rank, f64::NAN))
}

/// qid, docid, rank, score of one TREC run line.
type TrecLine<'a> = (&'a [u8], &'a [u8], i64, f64);

fn parse_trec_line(l: &[u8]) -> std::result::Result<TrecLine<'_>, String> {
    let mut f = [&b""[..]; 6];
    // Fields after the tag are ignored, as trec_eval does (its own test run has trailing junk).
    let n = split_fields(l, &mut f);
    if n < 6 {
        return Err(format!(
            "expected 6 fields `qid Q0 docid rank score tag`, found {n}"
        ));
    }
    let rank = parse_int(f[3]).ok_or_else(|| {
        let r = crate::error::quoted(&String::from_utf8_lossy(f[3]));
        format!("expected an integer rank in field 4, found {r}")
    })?;
    let score_s = text(f[4], "score")?;
    let score: f64 = score_s.parse().map_err(|_| {
        format!(
            "expected a number score in field 5, found {}",
            crate::error::quoted(score_s)
        )
    })?;
    if score.is_nan() {
        return Err("score is NaN: runs are ordered by score, so it must be a number".into());
    }
    Ok((f[0], f[2], rank, score))
}

/// `#` lines are comments (trec_eval 10 skips them; ir_metadata lives in them).
fn is_comment(l: &[u8]) -> bool {
    l.first() == Some(&b'#')
}

/// An optionally signed decimal integer, without going through `str`.
fn parse_int(b: &[u8]) -> Option<i64> {
    let (neg, digits) = match b {
        [b'-', rest @ ..] => (true, rest),
        [b'+', rest @ ..] => (false, rest),
        _ => (false, b),
    };
    if digits.is_empty() || digits.len() > 18 {
        return None;
    }
    let mut v: i64 = 0;
    for &c in digits {
        if !c.is_ascii_digit() {
            return None;
        }
        v = v * 10 + i64::from(c - b'0');
    }
    Some(if neg { -v } else { v })
}

fn empty_run(shown: &str, format: Format) -> Error {
    let what = match format {
        Format::Msmarco => "`qid pid rank` lines",
        _ => "`qid Q0 docid rank score tag` lines",
    };
    Error::input(shown, 0, format!("empty run file: expected {what}"))
}

/// An empty group for a query of a line-per-entry run (MS MARCO lines carry no score).
fn new_group(qid: String, format: Format) -> Group {
    let mut g = Group::scored(qid);
    g.has_scores = format == Format::Trec;
    g
}

/// Streams a run grouped by query. Returns false (having emitted a prefix) if a query comes back.
fn read_trec_grouped(
    path: &Path,
    shown: &str,
    spec: &RunSpec,
    f: &mut dyn FnMut(Ranking) -> Result<()>,
) -> Result<bool> {
    let mut lines = Lines::open(path, shown)?.skipping_comments();
    let parse = line_parser(spec.format);
    let mut g = new_group(String::new(), spec.format);
    let mut done: HashSet<String> = HashSet::new();
    let mut any = false;
    loop {
        if !lines.advance()? {
            break;
        }
        let l = lines.current();
        if is_comment(l) {
            continue;
        }
        let (qid, doc, rank, score) = parse(l).map_err(|m| lines.err(m))?;
        let line = lines.line;
        any = true;
        if g.qid.as_bytes() != qid {
            if !g.spans.is_empty() {
                g.emit(spec, &lines.shown, f)?;
                done.insert(std::mem::take(&mut g.qid));
            }
            g.clear();
            let q = text(qid, "query id").map_err(|m| lines.err(m))?;
            if done.contains(q) {
                if !lines.regular {
                    return Err(lines.err(format!(
                        "query {} comes back after other queries; a pipe or device is read once, so \
                         its run must be grouped by query (sort it first, e.g. `sort -s -k1,1`) or \
                         be given as a file",
                        crate::error::quoted(q)
                    )));
                }
                return Ok(false);
            }
            g.qid.push_str(q);
        }
        g.push(doc, score, rank, line);
    }
    if !any {
        return Err(empty_run(shown, spec.format));
    }
    g.emit(spec, &lines.shown, f)?;
    Ok(true)
}

fn read_trec_bucketed(
    path: &Path,
    shown: &str,
    spec: &RunSpec,
    f: &mut dyn FnMut(Ranking) -> Result<()>,
) -> Result<()> {
    let mut lines = Lines::open(path, shown)?.skipping_comments();
    let parse = line_parser(spec.format);
    let mut groups: BTreeMap<String, Group> = BTreeMap::new();
    while lines.advance()? {
        let l = lines.current();
        if is_comment(l) {
            continue;
        }
        let (qid, doc, rank, score) = parse(l).map_err(|m| lines.err(m))?;
        let q = text(qid, "query id").map_err(|m| lines.err(m))?;
        let g = groups
            .entry(q.to_string())
            .or_insert_with(|| new_group(q.to_string(), spec.format));
        g.push(doc, score, rank, lines.line);
    }
    for g in groups.values() {
        g.emit(spec, &lines.shown, f)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::Order;

    /// (qid, docs) per call of the callback, for a TREC run in `content`.
    fn read(content: &str, order: Order) -> Result<Vec<(String, Vec<String>)>> {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("r.txt");
        std::fs::write(&p, content).unwrap();
        let spec = RunSpec {
            format: Format::Trec,
            order,
            chunks: None,
            corpus: None,
            columns: Default::default(),
        };
        let mut out = Vec::new();
        for_each_query(&p, "r.txt", &spec, &mut |r| {
            let docs = r
                .docs
                .iter()
                .map(|d| String::from_utf8_lossy(d).into_owned())
                .collect();
            out.push((r.qid.to_string(), docs));
            Ok(())
        })?;
        Ok(out)
    }

    #[test]
    fn score_order_is_trec_eval_order() {
        let got = read(
            "1 Q0 A 1 1.0 t\n1 Q0 C 2 1 t\n1 Q0 B 3 2e0 t\n1 Q0 D 4 -3 t\n",
            Order::Score,
        )
        .unwrap();
        assert_eq!(
            got,
            vec![(
                "1".into(),
                vec!["B".into(), "C".into(), "A".into(), "D".into()]
            )]
        );
    }

    #[test]
    fn negative_zero_ties_with_zero_like_c_comparison() {
        let got = read("1 Q0 A 1 -0.0 t\n1 Q0 B 2 0.0 t\n", Order::Score).unwrap();
        assert_eq!(got[0].1, ["B", "A"]);
    }

    #[test]
    fn integers_parse_from_bytes() {
        assert_eq!(parse_int(b"-12"), Some(-12));
        assert_eq!(parse_int(b"+7"), Some(7));
        for bad in [&b""[..], b"-", b"1.0", b"x1", b"1234567890123456789"] {
            assert_eq!(parse_int(bad), None);
        }
    }

    #[test]
    fn rank_and_given_orders() {
        let run = "1 Q0 A 3 1 t\n1 Q0 B 1 1 t\n1 Q0 C 2 9 t\n";
        assert_eq!(read(run, Order::Rank).unwrap()[0].1, ["B", "C", "A"]);
        assert_eq!(read(run, Order::Given).unwrap()[0].1, ["A", "B", "C"]);
    }

    #[test]
    fn interleaved_queries_are_emitted_again_in_full() {
        let got = read("2 Q0 A 1 1 t\n1 Q0 B 1 1 t\n2 Q0 C 2 2 t\n", Order::Score).unwrap();
        // The streamed prefix (2: [A], 1: [B]) is superseded by the bucketed pass.
        let last: BTreeMap<String, Vec<String>> = got.into_iter().collect();
        assert_eq!(last["2"], ["C", "A"]);
        assert_eq!(last["1"], ["B"]);
    }

    #[test]
    fn grouped_run_streams_in_file_order() {
        let got = read("b Q0 A 1 1 t\na Q0 B 1 1 t\n", Order::Score).unwrap();
        let ids: Vec<&str> = got.iter().map(|g| g.0.as_str()).collect();
        assert_eq!(ids, ["b", "a"]);
    }
}
