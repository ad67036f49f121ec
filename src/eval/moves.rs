//! Why a query regressed, from the two runs: how its relevant documents moved between the
//! baseline's and the candidate's rankings. Pure: ranks in, moves out.

use crate::model::{RankMove, RelevantRank};

/// Moves listed per query at most.
pub const MAX_MOVES: usize = 10;

/// The relevant documents whose rank changed and that sit within `cutoff` on at least one side,
/// best baseline rank first (documents the baseline did not retrieve last, by doc id).
/// `base` and `cand` list the same documents (the qrels are shared), each sorted by doc id.
pub fn rank_moves(base: &[RelevantRank], cand: &[RelevantRank], cutoff: usize) -> Vec<RankMove> {
    let inside = |r: Option<usize>| r.is_some_and(|r| r <= cutoff);
    let mut moves: Vec<RankMove> = base
        .iter()
        .filter_map(|b| {
            let c = cand.iter().find(|c| c.doc == b.doc)?;
            (b.rank != c.rank && (inside(b.rank) || inside(c.rank))).then(|| RankMove {
                doc: b.doc.clone(),
                rel: b.rel,
                baseline_rank: b.rank,
                candidate_rank: c.rank,
                cutoff,
            })
        })
        .collect();
    moves.sort_by(|a, b| {
        a.baseline_rank
            .unwrap_or(usize::MAX)
            .cmp(&b.baseline_rank.unwrap_or(usize::MAX))
            .then_with(|| a.doc.cmp(&b.doc))
    });
    moves.truncate(MAX_MOVES);
    moves
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(doc: &str, rank: Option<usize>) -> RelevantRank {
        RelevantRank {
            doc: doc.into(),
            rel: 1,
            rank,
        }
    }

    #[test]
    fn only_changed_ranks_near_the_top_best_first() {
        let base = [
            r("A", Some(3)),
            r("B", Some(1)),
            r("C", Some(40)),
            r("D", Some(2)),
        ];
        let cand = [
            r("A", None),
            r("B", Some(7)),
            r("C", Some(41)),
            r("D", Some(2)),
        ];
        let m = rank_moves(&base, &cand, 10);
        let got: Vec<(&str, Option<usize>, Option<usize>)> = m
            .iter()
            .map(|m| (m.doc.as_str(), m.baseline_rank, m.candidate_rank))
            .collect();
        assert_eq!(got, [("B", Some(1), Some(7)), ("A", Some(3), None)]);
    }
}
