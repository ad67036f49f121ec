//! One query's run entries and the rules that turn them into its final ranking: the order
//! (trec_eval's score descending with ties by docid descending in byte order; or the rank column;
//! or file order), the duplicate check (a doc id twice is an error naming the query and both
//! lines), and the chunk map (chunk → doc after ordering, a doc's first occurrence kept, then
//! cutoffs apply downstream).

use super::ranking::{Ranking, RunSpec};
use super::{Format, Order};
use crate::error::{quoted, Error, Result};
use crate::input::fasthash::{SeededMap, SeededSet, SeededState};
use std::cmp::Ordering;

/// One query's entries as read, in line order.
#[derive(Default)]
pub(crate) struct Group {
    pub(super) qid: String,
    ids: Vec<u8>,
    pub(super) spans: Vec<(usize, usize)>,
    scores: Vec<f64>,
    ranks: Vec<i64>,
    pub(super) lines: Vec<usize>,
    pub(super) has_scores: bool,
    /// The duplicate check as entries arrive ([`Group::push_checked`]), so a reader stops at
    /// the second copy of a doc id instead of holding the query's rows first.
    early: EarlyCheck,
}

/// Each doc id's hash (seeded) → its first entry. `entries` counts the entries checked; `off`
/// is set when two different ids share a hash (then [`Group::emit`]'s full check decides).
#[derive(Default)]
#[cfg_attr(not(feature = "parquet"), allow(dead_code))] // the Parquet reader checks as it reads
struct EarlyCheck {
    state: SeededState,
    first: SeededMap<u64, usize>,
    entries: usize,
    off: bool,
}

impl Group {
    /// An empty group for a TREC query (every TREC line has a score).
    pub(super) fn scored(qid: String) -> Self {
        Group {
            qid,
            has_scores: true,
            ..Default::default()
        }
    }

    pub(super) fn doc(&self, i: usize) -> &[u8] {
        let (s, e) = self.spans[i];
        &self.ids[s..e]
    }

    pub(super) fn push(&mut self, doc: &[u8], score: f64, rank: i64, line: usize) {
        let s = self.ids.len();
        self.ids.extend_from_slice(doc);
        self.spans.push((s, self.ids.len()));
        self.scores.push(score);
        self.ranks.push(rank);
        self.lines.push(line);
    }

    /// [`Group::push`], then the duplicate check of the new entry: a doc id already in the group
    /// is the error [`Group::emit`] would give, at once.
    #[cfg(feature = "parquet")]
    pub(super) fn push_checked(
        &mut self,
        entry: (&[u8], f64, i64, usize),
        spec: &RunSpec,
        shown: &str,
    ) -> Result<()> {
        let (doc, score, rank, line) = entry;
        self.push(doc, score, rank, line);
        use std::hash::BuildHasher;
        let i = self.spans.len() - 1;
        if self.early.off || self.early.entries != i {
            return Ok(());
        }
        self.early.entries += 1;
        let h = self.early.state.hash_one(doc);
        match self.early.first.get(&h) {
            None => {
                self.early.first.insert(h, i);
            }
            Some(&first) if self.doc(first) == doc => {
                return Err(self.duplicate(spec, shown, first, i))
            }
            Some(_) => self.early.off = true,
        }
        Ok(())
    }

    pub(super) fn clear(&mut self) {
        self.early.first.clear();
        self.early.entries = 0;
        self.early.off = false;
        self.qid.clear();
        self.ids.clear();
        self.spans.clear();
        self.scores.clear();
        self.ranks.clear();
        self.lines.clear();
    }

    /// Orders, checks duplicates, maps chunks, and calls `f` with the final ranking.
    pub(super) fn emit(
        &self,
        spec: &RunSpec,
        shown: &str,
        f: &mut dyn FnMut(Ranking) -> Result<()>,
    ) -> Result<()> {
        self.refuse_duplicates(spec, shown)?;
        let idx = self.order(spec, shown)?;
        let docs = self.final_docs(&idx, spec, shown)?;
        let ties = self.ties(&idx, spec);
        f(Ranking {
            qid: &self.qid,
            line: self.lines.first().copied().unwrap_or(0),
            docs,
            scores_disagree: spec.order == Order::Given
                && self.has_scores
                && self.scores.windows(2).any(|w| w[1] > w[0]),
            ties,
        })
    }

    /// The runs of tied entries in ranking order `idx`: equal scores (`--order score`) or equal
    /// ranks (`--order rank`); none in file order, and none with a chunk map (chunks fold into
    /// documents after ordering, so a tie of chunks is not a tie of ranked documents).
    fn ties(&self, idx: &[usize], spec: &RunSpec) -> super::ties::TieGroups {
        let n = idx.len();
        match (spec.order, spec.chunks) {
            (_, Some(_)) | (Order::Given, _) => Vec::new(),
            (Order::Score, None) => {
                let s = &self.scores;
                super::ties::find_groups(n, |i| s[idx[i]] == s[idx[i + 1]])
            }
            (Order::Rank, None) => {
                let r = &self.ranks;
                super::ties::find_groups(n, |i| r[idx[i]] == r[idx[i + 1]])
            }
        }
    }

    /// An input error at entry `i`'s line (or line 0 when there is no such entry).
    fn error_at(&self, shown: &str, i: usize, msg: String) -> Error {
        Error::input(shown, self.lines.get(i).copied().unwrap_or(0), msg)
    }

    /// A doc id twice is an error naming both places (hash set: cheaper than a docid sort).
    /// Skipped when every entry went through [`Group::push_checked`]'s complete check.
    fn refuse_duplicates(&self, spec: &RunSpec, shown: &str) -> Result<()> {
        let n = self.spans.len();
        if n > 0 && self.early.entries == n && !self.early.off {
            return Ok(());
        }
        let mut first_at: SeededMap<&[u8], usize> =
            SeededMap::with_capacity_and_hasher(n, Default::default());
        for i in 0..n {
            if let Some(first) = first_at.insert(self.doc(i), i) {
                return Err(self.duplicate(spec, shown, first, i));
            }
        }
        Ok(())
    }

    /// "doc … appears twice in the ranking of query …", at entry `i` (first seen at `first`).
    fn duplicate(&self, spec: &RunSpec, shown: &str, first: usize, i: usize) -> Error {
        let where_ = if matches!(spec.format, Format::Trec | Format::Msmarco) {
            format!("lines {} and {}", self.lines[first], self.lines[i])
        } else if spec.format == Format::Parquet {
            format!(
                "rows {} and {} of the table",
                self.lines[first], self.lines[i]
            )
        } else {
            format!("positions {} and {}", first + 1, i + 1)
        };
        let d = quoted(&String::from_utf8_lossy(self.doc(i)));
        let q = quoted(&self.qid);
        let msg = format!("doc {d} appears twice in the ranking of query {q} ({where_})");
        self.error_at(shown, i, msg)
    }

    /// The entries' indices in ranking order. Ties by docid descending in byte order, as
    /// trec_eval; scores compare as f64 with `partial_cmp` (so -0.0 ties with 0.0, as with C's
    /// `>`; NaN was rejected at parse time).
    fn order(&self, spec: &RunSpec, shown: &str) -> Result<Vec<usize>> {
        let n = self.spans.len();
        let mut idx: Vec<usize> = (0..n).collect();
        let by_doc_desc = |a: usize, b: usize| self.doc(b).cmp(self.doc(a));
        match spec.order {
            Order::Score => {
                if !self.has_scores && n > 0 {
                    let q = quoted(&self.qid);
                    return Err(self.error_at(
                        shown,
                        0,
                        format!("--order score needs scores, but query {q} has a plain list"),
                    ));
                }
                let s = &self.scores;
                idx.sort_unstable_by(|&a, &b| {
                    s[b].partial_cmp(&s[a])
                        .unwrap_or(Ordering::Equal)
                        .then_with(|| by_doc_desc(a, b))
                });
            }
            Order::Rank => idx.sort_unstable_by(|&a, &b| {
                self.ranks[a]
                    .cmp(&self.ranks[b])
                    .then_with(|| by_doc_desc(a, b))
            }),
            Order::Given => {}
        }
        Ok(idx)
    }

    /// The doc ids in ranking order: chunks mapped to docs (a doc's first occurrence kept),
    /// each checked against the corpus when there is one.
    fn final_docs<'s>(
        &'s self,
        idx: &[usize],
        spec: &RunSpec<'s>,
        shown: &str,
    ) -> Result<Vec<&'s [u8]>> {
        let mut docs: Vec<&[u8]> = Vec::with_capacity(idx.len());
        let mut seen: SeededSet<&[u8]> = SeededSet::default();
        for &i in idx {
            let mut d = self.doc(i);
            if let Some(cm) = spec.chunks {
                d = cm.map.get(d).ok_or_else(|| {
                    self.error_at(
                        shown,
                        i,
                        format!(
                            "chunk id {} is not in the chunk map {}",
                            quoted(&String::from_utf8_lossy(d)),
                            cm.shown
                        ),
                    )
                })?;
                if !seen.insert(d) {
                    continue;
                }
            }
            if let Some(c) = spec.corpus {
                c.check(d).map_err(|m| self.error_at(shown, i, m))?;
            }
            docs.push(d);
        }
        Ok(docs)
    }
}

#[cfg(test)]
mod tests {
    use super::super::chunks::ChunkMap;
    use super::super::run::for_each_query;
    use super::*;

    #[test]
    fn chunks_map_to_docs_first_occurrence_kept_after_ordering() {
        let d = tempfile::tempdir().unwrap();
        let (run, map) = (d.path().join("r.txt"), d.path().join("m.tsv"));
        std::fs::write(&run, "1 Q0 c1 1 1 t\n1 Q0 c2 2 3 t\n1 Q0 c3 3 2 t\n").unwrap();
        std::fs::write(&map, "c1\tA\nc2\tB\nc3\tA\n").unwrap();
        let cm = ChunkMap::read(&map, "m.tsv").unwrap();
        let spec = RunSpec {
            format: Format::Trec,
            order: Order::Score,
            chunks: Some(&cm),
            corpus: None,
            columns: Default::default(),
        };
        let mut got = Vec::new();
        for_each_query(&run, "r.txt", &spec, &mut |r| {
            got = r
                .docs
                .iter()
                .map(|x| String::from_utf8_lossy(x).into_owned())
                .collect();
            Ok(())
        })
        .unwrap();
        // Score order c2 (B), c3 (A), c1 (A): c1 folds into the A already seen.
        assert_eq!(got, ["B", "A"]);
    }
}
