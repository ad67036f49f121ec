//! Document ids that never meet the qrels. A run whose doc ids are written another way than the
//! qrels' (`8412684` for `msmarco_passage_8412684`, `ABC` for `abc`, `007` for `7`) retrieves
//! only unjudged documents: every metric is 0 on both sides of a comparison, and a gate on
//! nothing would pass. When no retrieved document of any query is judged for that query, the
//! evaluation is an input error naming ids of each file and, where removing each side's common
//! prefix or suffix and then case, surrounding whitespace and leading zeros makes ids meet, the
//! pairs. While nothing has met, the scoring keeps a small sample of the run's ids; once one
//! document meets, nothing more is kept. Pure: no I/O.

use super::qrels::{Qrels, QueryQrels};
use crate::error::{few, quoted, Error, Result};
use crate::id_spelling::{normal, pairs_in_words};

/// Queries and documents per query the sample keeps.
const SAMPLE_QUERIES: usize = 20;
const SAMPLE_DOCS: usize = 100;

/// What the scoring saw of the run's doc ids while none had met the qrels.
#[derive(Debug, Default)]
pub struct Sightings {
    /// Some retrieved document of some query is judged for that query.
    pub met: bool,
    /// Ranked documents and queries with a ranking seen while nothing met.
    ranked: usize,
    queries: usize,
    /// The first queries' ids and their first documents.
    sample: Vec<(String, Vec<String>)>,
    /// The longest common prefix and suffix of every document id seen.
    prefix: Option<String>,
    suffix: Option<String>,
}

impl Sightings {
    /// One query's ranking, against the query's judgments.
    pub fn see(&mut self, qid: &str, docs: &[&[u8]], q: &QueryQrels) {
        // A query that judges nothing (empty gold) has nothing to meet.
        if self.met || docs.is_empty() || q.judged.is_empty() {
            return;
        }
        if docs.iter().any(|d| q.judged.contains_key(*d)) {
            *self = Sightings {
                met: true,
                ..Sightings::default()
            };
            return;
        }
        self.ranked += docs.len();
        self.queries += 1;
        for d in docs {
            let d = String::from_utf8_lossy(d);
            shorten(&mut self.prefix, &d, true);
            shorten(&mut self.suffix, &d, false);
        }
        if self.sample.len() < SAMPLE_QUERIES {
            let kept = docs.iter().take(SAMPLE_DOCS);
            let kept = kept.map(|d| String::from_utf8_lossy(d).into_owned());
            self.sample.push((qid.to_string(), kept.collect()));
        }
    }
}

/// Shortens the common prefix (or suffix) `acc` to what it shares with `id`.
fn shorten(acc: &mut Option<String>, id: &str, prefix: bool) {
    match acc {
        None => *acc = Some(id.to_string()),
        Some(a) if a.is_empty() => {}
        Some(a) if prefix => a.truncate(common_prefix(a, id)),
        Some(a) => {
            let n = common_suffix(a, id);
            a.drain(..a.len() - n);
        }
    }
}

/// Bytes of the longest common prefix of `a` and `b`, on a character boundary.
fn common_prefix(a: &str, b: &str) -> usize {
    a.char_indices()
        .zip(b.chars())
        .find(|((_, x), y)| x != y)
        .map_or(a.len().min(b.len()), |((i, _), _)| i)
        .min(b.len())
}

/// Bytes of the longest common suffix of `a` and `b`, on a character boundary.
fn common_suffix(a: &str, b: &str) -> usize {
    let mut n = 0;
    for (x, y) in a.chars().rev().zip(b.chars().rev()) {
        if x != y {
            break;
        }
        n += x.len_utf8();
    }
    n
}

/// The ways a side's common prefix may be read: none, up to its last separator, without its
/// trailing digits, whole (`msmarco_passage_8` → "", "msmarco_passage_", "msmarco_passage_").
fn prefix_candidates(p: &str) -> Vec<String> {
    let at_sep = p
        .rfind(|c: char| !c.is_alphanumeric())
        .map_or("", |i| &p[..=i]);
    let no_digits = p.trim_end_matches(|c: char| c.is_ascii_digit());
    let mut out = vec![String::new(), at_sep.to_string(), no_digits.to_string()];
    out.push(p.to_string());
    out.dedup();
    out
}

/// The same for a common suffix (`.txt`, `#0`), read from its first separator.
fn suffix_candidates(s: &str) -> Vec<String> {
    let at_sep = s
        .find(|c: char| !c.is_alphanumeric())
        .map_or("", |i| &s[i..]);
    let no_digits = s.trim_start_matches(|c: char| c.is_ascii_digit());
    let mut out = vec![String::new(), at_sep.to_string(), no_digits.to_string()];
    out.push(s.to_string());
    out.dedup();
    out
}

/// A side's affixes to remove: (prefix, suffix).
type Affixes = (String, String);

/// `id` trimmed, without the affixes.
fn bare<'a>(id: &'a str, (p, s): &Affixes) -> &'a str {
    let t = id.trim();
    let t = t.strip_prefix(p.as_str()).unwrap_or(t);
    t.strip_suffix(s.as_str()).unwrap_or(t)
}

/// `id` without the affixes, then normalised (case, whitespace, leading zeros).
fn key(id: &str, affixes: &Affixes) -> String {
    normal(bare(id, affixes))
}

/// The (qrels id, run id) pairs that meet when each side's affixes are removed.
fn meeting<'a>(
    sample: &'a [(String, Vec<String>)],
    qrels: &'a Qrels,
    (q_aff, r_aff): (&Affixes, &Affixes),
) -> Vec<(&'a str, &'a str)> {
    let mut pairs = Vec::new();
    for (qid, docs) in sample {
        let Some(q) = qrels.queries.get(qid) else {
            continue;
        };
        let mut judged: std::collections::BTreeMap<String, &str> = Default::default();
        for d in q.judged.keys() {
            if let Ok(d) = std::str::from_utf8(d) {
                judged.entry(key(d, q_aff)).or_insert(d);
            }
        }
        pairs.extend(
            docs.iter()
                .filter_map(|d| Some((*judged.get(&key(d, r_aff))?, d.as_str()))),
        );
    }
    pairs
}

/// The qrels' common prefix and suffix over their doc ids.
fn qrels_affixes(qrels: &Qrels) -> (String, String) {
    let (mut p, mut s) = (None, None);
    for q in qrels.queries.values() {
        for d in q.judged.keys() {
            let d = String::from_utf8_lossy(d);
            shorten(&mut p, &d, true);
            shorten(&mut s, &d, false);
        }
    }
    (p.unwrap_or_default(), s.unwrap_or_default())
}

/// The qrels' affixes, the run's, and the (qrels id, run id) pairs that meet under them.
type Reading<'a> = (Affixes, Affixes, Vec<(&'a str, &'a str)>);

/// The reading of both sides' affixes under which the most sampled ids meet, with the pairs.
fn best_reading<'a>(s: &'a Sightings, qrels: &'a Qrels) -> Option<Reading<'a>> {
    let (qp, qs) = qrels_affixes(qrels);
    let rp = s.prefix.clone().unwrap_or_default();
    let rs = s.suffix.clone().unwrap_or_default();
    let mut best: Option<Reading> = None;
    for qp in prefix_candidates(&qp) {
        for rp in prefix_candidates(&rp) {
            for qs in suffix_candidates(&qs) {
                for rs in suffix_candidates(&rs) {
                    let (qa, ra) = ((qp.clone(), qs.clone()), (rp.clone(), rs.clone()));
                    let pairs = meeting(&s.sample, qrels, (&qa, &ra));
                    if pairs.len() > best.as_ref().map_or(0, |b| b.2.len()) {
                        best = Some((qa, ra, pairs));
                    }
                }
            }
        }
    }
    best
}

/// How the two sides' ids differ, in words.
fn difference(q: &Affixes, r: &Affixes, exact: bool) -> String {
    let mut parts = Vec::new();
    let affix = |what: &str, qa: &str, ra: &str| match (qa.is_empty(), ra.is_empty()) {
        _ if qa == ra => None,
        (false, true) => Some(format!(
            "the qrels' ids {what} {} and the run's do not",
            quoted(qa)
        )),
        (true, false) => Some(format!(
            "the run's ids {what} {} and the qrels' do not",
            quoted(ra)
        )),
        _ => Some(format!(
            "the qrels' ids {what} {} where the run's {what} {}",
            quoted(qa),
            quoted(ra)
        )),
    };
    parts.extend(affix("start with", &q.0, &r.0));
    parts.extend(affix("end with", &q.1, &r.1));
    if !exact {
        parts.push("case, surrounding whitespace or leading zeros differ".into());
    }
    parts.join("; ")
}

/// No retrieved document of any query is judged for it: an error naming ids of each file and,
/// when a normalisation makes ids meet, how and the pairs. `shown` are (qrels, run).
pub fn refuse_docs_that_never_meet(
    s: &Sightings,
    qrels: &Qrels,
    (q_shown, r_shown): (&str, &str),
) -> Result<()> {
    if s.met || s.ranked == 0 {
        return Ok(());
    }
    let (qid, docs) = &s.sample[0];
    let judged: Vec<String> = qrels.queries.get(qid).map_or(Vec::new(), |q| {
        let mut ids: Vec<String> = q
            .judged
            .keys()
            .map(|d| String::from_utf8_lossy(d).into_owned())
            .collect();
        ids.sort();
        ids
    });
    let mut msg = format!(
        "no retrieved document of the run is in the qrels {q_shown}: every metric would be 0 \
         ({} ranked over {}, none judged; query {} ranks e.g. {}, where the qrels judge e.g. {})",
        crate::numbers::count(s.ranked, "document", "documents"),
        crate::numbers::count(s.queries, "judged query", "judged queries"),
        quoted(qid),
        few(&docs[..docs.len().min(3)], 3),
        few(&judged[..judged.len().min(3)], 3),
    );
    match best_reading(s, qrels) {
        Some((q, r, pairs)) => {
            let exact = pairs.iter().all(|(a, b)| bare(a, &q) == bare(b, &r));
            msg.push_str(&format!(
                "; the ids meet once written alike ({}): {}; write the run's doc ids as the qrels do",
                difference(&q, &r, exact),
                pairs_in_words(&pairs, q_shown, r_shown)
            ));
        }
        None => msg.push_str(
            "; no common prefix, suffix, case or zero padding explains it: check that the run \
             and the qrels are of the same collection and use the same id field",
        ),
    }
    Err(Error::input(r_shown, 0, msg))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn qrels(rows: &[(&str, &str, i32)]) -> Qrels {
        let mut q = Qrels::default();
        for (qid, doc, rel) in rows {
            let e = q.queries.entry(qid.to_string()).or_default();
            e.line = 1;
            e.judged.insert(doc.as_bytes().to_vec(), *rel);
        }
        q
    }

    fn seen(q: &Qrels, runs: &[(&str, &[&str])]) -> Sightings {
        let mut s = Sightings::default();
        for (qid, docs) in runs {
            let docs: Vec<&[u8]> = docs.iter().map(|d| d.as_bytes()).collect();
            s.see(qid, &docs, &q.queries[*qid]);
        }
        s
    }

    #[test]
    fn affixes_are_common_to_every_id() {
        assert_eq!(
            common_prefix("msmarco_passage_12", "msmarco_passage_19"),
            17
        );
        assert_eq!(common_suffix("a.txt", "bb.txt"), 4);
        assert_eq!(common_prefix("é1", "é2"), 2);
        assert_eq!(
            prefix_candidates("msmarco_passage_1"),
            ["", "msmarco_passage_", "msmarco_passage_1"]
        );
        assert_eq!(prefix_candidates("doc1"), ["", "doc", "doc1"]);
    }

    #[test]
    fn a_missing_prefix_is_named_with_the_pairs() {
        let q = qrels(&[
            ("1", "msmarco_passage_123", 1),
            ("1", "msmarco_passage_456", 0),
            ("2", "msmarco_passage_789", 2),
        ]);
        let s = seen(&q, &[("1", &["456", "999"]), ("2", &["789"])]);
        let e = refuse_docs_that_never_meet(&s, &q, ("qrels.txt", "run.txt"))
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("no retrieved document of the run is in the qrels qrels.txt"),
            "{e}"
        );
        assert!(
            e.contains("the qrels' ids start with \"msmarco_passage_\" and the run's do not"),
            "{e}"
        );
        assert!(
            e.contains("\"msmarco_passage_456\" in qrels.txt is \"456\" in run.txt"),
            "{e}"
        );
        assert!(!e.contains("case"), "{e}");
    }

    #[test]
    fn case_and_zero_padding_are_named() {
        let q = qrels(&[("1", "DOC-7", 1)]);
        let s = seen(&q, &[("1", &["doc-007", "doc-8"])]);
        let e = refuse_docs_that_never_meet(&s, &q, ("q", "r"))
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("case, surrounding whitespace or leading zeros differ"),
            "{e}"
        );
        assert!(e.contains("\"DOC-7\" in q is \"doc-007\" in r"), "{e}");
    }

    #[test]
    fn one_meeting_document_is_enough_and_unrelated_ids_say_so() {
        let q = qrels(&[("1", "a", 1), ("2", "b", 1)]);
        assert!(refuse_docs_that_never_meet(
            &seen(&q, &[("1", &["x"]), ("2", &["b"])]),
            &q,
            ("q", "r")
        )
        .is_ok());
        let e =
            refuse_docs_that_never_meet(&seen(&q, &[("1", &["x"]), ("2", &["y"])]), &q, ("q", "r"))
                .unwrap_err()
                .to_string();
        assert!(
            e.contains("no common prefix, suffix, case or zero padding explains it"),
            "{e}"
        );
        assert!(
            e.contains("2 documents ranked over 2 judged queries"),
            "{e}"
        );
        // Nothing ranked at all is not this error (the query-id check speaks for it).
        assert!(refuse_docs_that_never_meet(&Sightings::default(), &q, ("q", "r")).is_ok());
    }
}
