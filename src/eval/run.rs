//! Runs: streaming readers that hand over one query's final ranking at a time.
//!
//! TREC runs are `qid Q0 docid rank score tag` (6 whitespace-separated fields, as trec_eval
//! requires; anything after the tag is ignored, as trec_eval does). Like trec_eval they are
//! ordered by score descending (parsed as f64), ties broken by docid descending in byte order; the rank column and line order are ignored unless
//! `--order rank|given` says otherwise. JSONL runs are one line per query,
//! `{"query_id": "q1", "ranked": ["D7", "D1"]}` or `"ranked": [{"doc_id": "D7", "score": 0.9}]`,
//! kept in list order unless `--order score`.
//!
//! Memory: when a TREC run is grouped by query (every real run is), only one query's lines are
//! held. If a query id comes back after another query, the file is read a second time and
//! bucketed by query (memory ~ the whole run), so results never depend on line order.
//!
//! A doc id twice in one query's list is an error naming the query and both lines. With a chunk
//! map, chunk ids are mapped to their doc after ordering, later duplicates of a doc are dropped
//! (first occurrence kept), and only then do cutoffs apply.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::Path;

use super::lines::{split_fields, text, Lines};
use super::qrels::{json_query_id, Corpus};
use super::{Format, Order};
use crate::error::{Error, Result};

/// One query's final ranking (rank 1 first), as handed to the evaluator.
pub struct Ranking<'a> {
    pub qid: &'a str,
    /// 1-based line where the query first appears in the run.
    pub line: usize,
    pub docs: Vec<&'a [u8]>,
}

/// `chunk_id<TAB>doc_id` lines.
#[derive(Debug, Default)]
pub struct ChunkMap {
    pub shown: String,
    pub map: HashMap<Vec<u8>, Vec<u8>>,
}

impl ChunkMap {
    pub fn read(path: &Path, shown: &str) -> Result<Self> {
        let mut lines = Lines::open(path, shown)?;
        let mut map = HashMap::new();
        while lines.advance()? {
            let l = lines.current();
            let mut f = [&b""[..]; 2];
            if split_fields(l, &mut f) != 2 {
                return Err(lines.err("expected 2 fields `chunk_id<TAB>doc_id`"));
            }
            if let Some(old) = map.insert(f[0].to_vec(), f[1].to_vec()) {
                if old != f[1] {
                    return Err(lines.err(format!(
                        "chunk {:?} mapped to two docs",
                        String::from_utf8_lossy(f[0])
                    )));
                }
            }
        }
        if map.is_empty() {
            return Err(Error::input(
                shown,
                0,
                "empty chunk map: expected `chunk_id<TAB>doc_id` lines",
            ));
        }
        Ok(ChunkMap {
            shown: shown.to_string(),
            map,
        })
    }
}

/// What the reader needs besides the file.
pub struct RunSpec<'a> {
    pub format: Format,
    pub order: Order,
    pub chunks: Option<&'a ChunkMap>,
    pub corpus: Option<&'a Corpus>,
}

/// One query's entries as read, in line order.
#[derive(Default)]
struct Group {
    qid: String,
    ids: Vec<u8>,
    spans: Vec<(usize, usize)>,
    scores: Vec<f64>,
    ranks: Vec<i64>,
    lines: Vec<usize>,
    has_scores: bool,
}

impl Group {
    fn doc(&self, i: usize) -> &[u8] {
        let (s, e) = self.spans[i];
        &self.ids[s..e]
    }

    fn push(&mut self, doc: &[u8], score: f64, rank: i64, line: usize) {
        let s = self.ids.len();
        self.ids.extend_from_slice(doc);
        self.spans.push((s, self.ids.len()));
        self.scores.push(score);
        self.ranks.push(rank);
        self.lines.push(line);
    }

    fn clear(&mut self) {
        self.qid.clear();
        self.ids.clear();
        self.spans.clear();
        self.scores.clear();
        self.ranks.clear();
        self.lines.clear();
    }

    /// Orders, checks duplicates, maps chunks, and calls `f` with the final ranking.
    fn emit(
        &self,
        spec: &RunSpec,
        lines: &Lines,
        f: &mut dyn FnMut(Ranking) -> Result<()>,
    ) -> Result<()> {
        let n = self.spans.len();
        let at = |i: usize, msg: String| {
            Error::input(&lines.shown, self.lines.get(i).copied().unwrap_or(0), msg)
        };
        // Docid descending (stable, so equal ids stay in line order) finds duplicates and is
        // trec_eval's tie order; a stable sort on the primary key then keeps it.
        let mut idx: Vec<usize> = (0..n).collect();
        idx.sort_by(|&a, &b| self.doc(b).cmp(self.doc(a)));
        for w in idx.windows(2) {
            if self.doc(w[0]) == self.doc(w[1]) {
                let (first, second) = (w[0].min(w[1]), w[0].max(w[1]));
                let where_ = if spec.format == Format::Trec {
                    format!("lines {} and {}", self.lines[first], self.lines[second])
                } else {
                    format!("positions {} and {}", first + 1, second + 1)
                };
                let d = String::from_utf8_lossy(self.doc(second));
                return Err(at(
                    second,
                    format!(
                        "doc {d:?} appears twice in the ranking of query {:?} ({where_})",
                        self.qid
                    ),
                ));
            }
        }
        match spec.order {
            Order::Score => {
                if !self.has_scores && n > 0 {
                    return Err(at(
                        0,
                        format!(
                            "--order score needs scores, but query {:?} has a plain list",
                            self.qid
                        ),
                    ));
                }
                idx.sort_by(|&a, &b| self.scores[b].total_cmp(&self.scores[a]));
            }
            Order::Rank => idx.sort_by_key(|&i| self.ranks[i]),
            Order::Given => idx.sort_unstable(),
        }
        let mut docs: Vec<&[u8]> = Vec::with_capacity(n);
        let mut seen: HashSet<&[u8]> = HashSet::new();
        for &i in &idx {
            let mut d = self.doc(i);
            if let Some(cm) = spec.chunks {
                d = cm.map.get(d).ok_or_else(|| {
                    at(
                        i,
                        format!(
                            "chunk id {:?} is not in the chunk map {}",
                            String::from_utf8_lossy(d),
                            cm.shown
                        ),
                    )
                })?;
                if !seen.insert(d) {
                    continue;
                }
            }
            if let Some(c) = spec.corpus {
                c.check(d).map_err(|m| at(i, m))?;
            }
            docs.push(d);
        }
        f(Ranking {
            qid: &self.qid,
            line: self.lines.first().copied().unwrap_or(lines.line),
            docs,
        })
    }
}

/// Reads the run and calls `f` once per query (never twice for one query).
pub fn for_each_query(
    path: &Path,
    shown: &str,
    spec: &RunSpec,
    f: &mut dyn FnMut(Ranking) -> Result<()>,
) -> Result<()> {
    match spec.format {
        Format::Jsonl => read_jsonl(path, shown, spec, f),
        Format::Trec => match read_trec_grouped(path, shown, spec, f)? {
            true => Ok(()),
            false => read_trec_bucketed(path, shown, spec, f),
        },
    }
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
    let rank_s = text(f[3], "rank")?;
    let rank: i64 = rank_s
        .parse()
        .map_err(|_| format!("expected an integer rank in field 4, found {rank_s:?}"))?;
    let score_s = text(f[4], "score")?;
    let score: f64 = score_s
        .parse()
        .map_err(|_| format!("expected a number score in field 5, found {score_s:?}"))?;
    if score.is_nan() {
        return Err("score is NaN: runs are ordered by score, so it must be a number".into());
    }
    text(f[0], "query id")?;
    Ok((f[0], f[2], rank, score))
}

fn empty_run(shown: &str) -> Error {
    Error::input(
        shown,
        0,
        "empty run file: expected `qid Q0 docid rank score tag` lines",
    )
}

/// Streams a run grouped by query. Returns false (having emitted a prefix) if a query comes back.
fn read_trec_grouped(
    path: &Path,
    shown: &str,
    spec: &RunSpec,
    f: &mut dyn FnMut(Ranking) -> Result<()>,
) -> Result<bool> {
    let mut lines = Lines::open(path, shown)?;
    let mut g = Group {
        has_scores: true,
        ..Default::default()
    };
    let mut done: HashSet<String> = HashSet::new();
    let mut any = false;
    loop {
        if !lines.advance()? {
            break;
        }
        let l = lines.current();
        let (qid, doc, rank, score) = parse_trec_line(l).map_err(|m| lines.err(m))?;
        let line = lines.line;
        any = true;
        if g.qid.as_bytes() != qid {
            if !g.spans.is_empty() {
                g.emit(spec, &lines, f)?;
                done.insert(std::mem::take(&mut g.qid));
            }
            g.clear();
            let q = std::str::from_utf8(qid).unwrap_or_default();
            if done.contains(q) {
                return Ok(false);
            }
            g.qid.push_str(q);
        }
        g.push(doc, score, rank, line);
    }
    if !any {
        return Err(empty_run(shown));
    }
    g.emit(spec, &lines, f)?;
    Ok(true)
}

fn read_trec_bucketed(
    path: &Path,
    shown: &str,
    spec: &RunSpec,
    f: &mut dyn FnMut(Ranking) -> Result<()>,
) -> Result<()> {
    let mut lines = Lines::open(path, shown)?;
    let mut groups: BTreeMap<String, Group> = BTreeMap::new();
    while lines.advance()? {
        let l = lines.current();
        let (qid, doc, rank, score) = parse_trec_line(l).map_err(|m| lines.err(m))?;
        let q = std::str::from_utf8(qid).unwrap_or_default();
        let g = groups.entry(q.to_string()).or_insert_with(|| Group {
            qid: q.to_string(),
            has_scores: true,
            ..Default::default()
        });
        g.push(doc, score, rank, lines.line);
    }
    for g in groups.values() {
        g.emit(spec, &lines, f)?;
    }
    Ok(())
}

fn read_jsonl(
    path: &Path,
    shown: &str,
    spec: &RunSpec,
    f: &mut dyn FnMut(Ranking) -> Result<()>,
) -> Result<()> {
    let mut lines = Lines::open(path, shown)?;
    let mut seen: HashMap<String, usize> = HashMap::new();
    let mut g = Group::default();
    while lines.advance()? {
        let l = lines.current();
        g.clear();
        let line = lines.line;
        parse_jsonl_line(l, line, &mut g).map_err(|m| lines.err(m))?;
        if let Some(prev) = seen.insert(g.qid.clone(), line) {
            return Err(lines.err(format!(
                "query {:?} already has a ranking at line {prev}",
                g.qid
            )));
        }
        g.lines.resize(g.spans.len(), line);
        if g.lines.is_empty() {
            // An empty ranking still names its query and line.
            let r = Ranking {
                qid: &g.qid,
                line,
                docs: Vec::new(),
            };
            f(r)?;
            continue;
        }
        g.emit(spec, &lines, f)?;
    }
    if lines.line == 0 {
        return Err(Error::input(
            shown,
            0,
            "empty run file: expected JSONL lines {\"query_id\": ..., \"ranked\": [...]}",
        ));
    }
    Ok(())
}

fn parse_jsonl_line(l: &[u8], line: usize, g: &mut Group) -> std::result::Result<(), String> {
    let v: serde_json::Value =
        serde_json::from_slice(l).map_err(|e| format!("invalid JSON: {e}"))?;
    g.qid = json_query_id(&v)?;
    let ranked = v
        .get("ranked")
        .and_then(|r| r.as_array())
        .ok_or("expected a \"ranked\" list")?;
    g.has_scores = !ranked.is_empty() && ranked.iter().all(|e| e.is_object());
    for (i, e) in ranked.iter().enumerate() {
        let pos = i as i64 + 1;
        match e {
            serde_json::Value::String(d) => g.push(d.as_bytes(), f64::NAN, pos, line),
            serde_json::Value::Object(o) => {
                let d = o.get("doc_id").and_then(|d| d.as_str()).ok_or_else(|| format!("ranked item {pos}: expected a \"doc_id\" string"))?;
                let score = match o.get("score") {
                    None => f64::NAN,
                    Some(s) => s.as_f64().ok_or_else(|| format!("ranked item {pos}: expected a number \"score\", found {s}"))?,
                };
                g.has_scores &= !score.is_nan();
                g.push(d.as_bytes(), score, pos, line);
            }
            other => return Err(format!("ranked item {pos}: expected a doc id string or {{\"doc_id\", \"score\"}}, found {other}")),
        }
    }
    Ok(())
}
