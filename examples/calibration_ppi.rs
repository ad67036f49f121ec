//! Calibration of the prediction-powered (PPI++) interval of a paired delta: a judge that
//! over-rates the candidate's documents, 5–20% of the units labelled by humans, query and group
//! (conversation) units. The corrected interval should cover the true human delta in 93.5–96.5%
//! of sets; the judge-only interval's coverage is printed beside it (it does not cover: the
//! judge's bias moves it), and the human-only interval's for the width it pays. "corrected" is
//! the interval the gates read (small-sample corrected); "analytic" is ppi-python's.
//!
//!     nice -n 10 cargo run --release --example calibration_ppi [-- SETS SEED]
//!
//! Defaults: 4000 sets per cell, seed 47. Cells are in `calibration/ppi.rs`.

#[path = "../calibration/ppi.rs"]
mod ppi;

use ppi::{Cell, Coverage};

fn pct(c: &Coverage, hits: usize) -> String {
    let r = c.rate(hits);
    format!("{:6.2}% ± {:.2}", 100.0 * r, 100.0 * c.mc_se(r))
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let sets: usize = args.first().map_or(4000, |s| s.parse().expect("SETS"));
    let seed: u64 = args.get(1).map_or(47, |s| s.parse().expect("SEED"));
    println!(
        "true delta {}, judge bias +{} towards the candidate, {sets} sets per cell, seed {seed}",
        ppi::TRUE_DELTA,
        ppi::JUDGE_BIAS
    );
    println!("unit   queries  labelled  corrected (want 93.5–96.5)  analytic (ppi-python)  judge-only         human-only         mean λ  width corrected/human");
    let mut all_ok = true;
    for (unit, queries, group_size) in [("query", 1000, 1), ("group", 1200, 3)] {
        for share in [0.05, 0.10, 0.20] {
            let cell = Cell {
                queries,
                group_size,
                labelled_share: share,
            };
            let c = ppi::run(cell, sets, seed);
            let ok = (0.935..=0.965).contains(&c.rate(c.corrected));
            all_ok &= ok;
            println!(
                "{unit:6} {queries:7}  {:7.0}%  {} {:12}  {}        {}  {}  {:.2}    {:.3} / {:.3}",
                100.0 * share,
                pct(&c, c.corrected),
                if ok { "ok" } else { "OUT OF RANGE" },
                pct(&c, c.analytic),
                pct(&c, c.judge_only),
                pct(&c, c.human_only),
                c.lambda / sets as f64,
                c.corrected_width / sets as f64,
                c.human_width / sets as f64,
            );
        }
    }
    println!("active sample (label-plan --active): half the share a uniform pilot, half drawn with probabilities by the judge's |delta|, weighted by 1/π");
    println!("unit   queries  labelled  active corrected (want 93.5–96.5)  mean labelled units  mean λ  mean width");
    for (unit, queries, group_size) in [("query", 1000, 1), ("group", 1200, 3)] {
        for share in [0.05, 0.10, 0.20] {
            let cell = Cell {
                queries,
                group_size,
                labelled_share: share,
            };
            let c = ppi::run_active(cell, sets, seed);
            let r = c.covered as f64 / c.sets as f64;
            let ok = (0.935..=0.965).contains(&r);
            all_ok &= ok;
            println!(
                "{unit:6} {queries:7}  {:7.0}%  {:6.2}% ± {:.2} {:12}        {:8.1}           {:.2}    {:.3}",
                100.0 * share,
                100.0 * r,
                100.0 * (r * (1.0 - r) / sets as f64).sqrt(),
                if ok { "ok" } else { "OUT OF RANGE" },
                c.labelled / sets as f64,
                c.lambda / sets as f64,
                c.width / sets as f64,
            );
        }
    }
    println!(
        "{}",
        if all_ok {
            "all cells in range"
        } else {
            "SOME CELLS OUT OF RANGE"
        }
    );
}
