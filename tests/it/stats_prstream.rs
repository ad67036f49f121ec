//! The pull-request stream calibration (`cargo run --release --example calibration_prstream`)
//! reaches its verdicts through the stages in memory; these tests hold those verdicts equal to
//! `check` on the same pull requests written as metric files, and check the generators' truths.

// The example reads every item; these tests only some.
#[allow(dead_code)]
#[path = "../../calibration/prstream.rs"]
mod prstream;

use prstream::{sample, Kind, Team};

fn team(n: usize, groups: bool, critical: bool, margin: f64) -> Team {
    Team {
        n,
        groups,
        critical,
        margin,
        guarantee: None,
    }
}

#[test]
fn the_in_memory_verdict_is_the_verdict_of_check_on_the_same_files() {
    let dir = tempfile::tempdir().unwrap();
    let mut seen = std::collections::BTreeSet::new();
    let teams = [
        team(43, false, false, 0.02),
        team(100, true, true, 0.01),
        team(200, false, true, 0.05),
    ];
    for t in &teams {
        let cfg = prstream::config(t, dir.path(), Some(500));
        for kind in Kind::HONEST.iter().chain(&Kind::DROPS) {
            for set in 0..2 {
                let s = sample(7, t, *kind, set);
                let memory = prstream::verdict(&cfg, &prstream::tables(&s, t.groups));
                prstream::write_files(&s, t.groups, dir.path());
                let report = rag_gate::check::analyze(&cfg).expect("check runs");
                assert_eq!(
                    memory.as_str(),
                    report.verdict.as_str(),
                    "{t:?} {kind:?} set {set}"
                );
                seen.insert(memory.as_str());
            }
        }
    }
    // Both verdicts occur, so the comparison is not of one constant.
    assert!(seen.contains("fail") && seen.len() >= 2, "{seen:?}");
}

#[test]
fn each_design_has_its_true_delta_and_stays_in_the_unit_interval() {
    let t = team(500, false, true, 0.02);
    let truth = |kind: Kind| match kind {
        Kind::Gain => 0.01,
        Kind::DropAll | Kind::DropFew | Kind::DropLarge => -0.02,
        Kind::DropCritical => -0.02 / 4.0,
        _ => 0.0,
    };
    for kind in Kind::HONEST.iter().chain(&Kind::DROPS) {
        let sets = 200;
        let mut mean = 0.0;
        for set in 0..sets {
            let s = sample(11, &t, *kind, set);
            assert!(s
                .base
                .iter()
                .chain(&s.cand)
                .all(|v| (0.0..=1.0).contains(v)));
            let d: f64 = s.cand.iter().zip(&s.base).map(|(c, b)| c - b).sum();
            mean += d / s.base.len() as f64 / sets as f64;
        }
        assert!(
            (mean - truth(*kind)).abs() < 0.0015,
            "{kind:?}: mean delta {mean} against {}",
            truth(*kind)
        );
    }
}
