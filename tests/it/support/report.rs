//! A realistic fabricated `Report` for the renderer and publish tests: a candidate that
//! improves overall but regresses on the critical compliance slice.

use rag_gate::model::{
    Comparison, GateResult, GateStatus, InputsInfo, Label, PairingInfo, Regression, Report,
    Verdict, SCHEMA_VERSION,
};

fn reg(id: &str, b: f64, c: f64) -> Regression {
    Regression {
        query_id: id.to_string(),
        baseline: b,
        candidate: c,
        delta: c - b,
        moves: Vec::new(),
    }
}

#[allow(clippy::too_many_arguments)]
fn cmp(
    metric: &str,
    slice: &str,
    n: usize,
    groups: Option<usize>,
    base: f64,
    cand: f64,
    ci: [f64; 2],
    wtl: (usize, usize, usize),
    worst: Vec<Regression>,
) -> Comparison {
    Comparison {
        metric: metric.to_string(),
        slice: slice.to_string(),
        n,
        groups,
        effective_groups: None,
        baseline_mean: base,
        candidate_mean: cand,
        delta: cand - base,
        ci,
        wins: wtl.0,
        ties: wtl.1,
        losses: wtl.2,
        moved: wtl.0 + wtl.2,
        untouched: wtl.0 + wtl.2 == 0,
        within_noise: None,
        value_range: 1.0,
        atom: None,
        se: 0.0,
        df: 0.0,
        // The statistics fields (schema 2), consistent with the numbers above.
        statistic: "mean".into(),
        higher_is_better: true,
        baseline_value: base,
        candidate_value: cand,
        estimate: cand - base,
        ci_mc_se: [0.0002, 0.0002],
        resamples_used: 10_000,
        mc_rerun: false,
        p_value: if ci[0] > 0.0 || ci[1] < 0.0 {
            0.003
        } else {
            0.41
        },
        p_floor: 1.0 / 10_001.0,
        mde: (ci[1] - ci[0]) / 3.92 * 2.8,
        margin: 0.01,
        label: Some(rag_gate::verdict::label(ci, true, 0.01)),
        practical_tie: 0.01,
        practical_wins: wtl.0,
        practical_ties: wtl.1,
        practical_losses: wtl.2,
        worst,
        judged: None,
        replicates: None,
        stacked_runs: None,
        statistic_in_name: false,
    }
}

#[allow(clippy::too_many_arguments)]
fn gate(
    i: usize,
    metric: &str,
    slice: &str,
    rule: &str,
    threshold: f64,
    value: f64,
    status: GateStatus,
    detail: &str,
) -> GateResult {
    GateResult {
        gate: i,
        metric: metric.to_string(),
        statistic: "mean".into(),
        slice: slice.to_string(),
        rule: rule.to_string(),
        threshold,
        value,
        passed: status == GateStatus::Pass,
        // The too-small slice of these reports is under on-small-slice = "warn".
        fails_build: status == GateStatus::Fail,
        status,
        detail: detail.to_string(),
        label: if status == GateStatus::Fail {
            Label::Worse
        } else {
            Label::Unclear
        },
        p_value: 0.003,
        p_adjusted: 0.009,
        family_size: 3,
        mc_rerun: false,
        decided_by: format!("({rule})"),
        judged: None,
        condensed: None,
        stacked_runs: None,
        statistic_in_name: false,
        not_judged: None,
    }
}

/// A failing report: ndcg@10 regresses on risk=compliance, everything else passes.
pub fn failing_report() -> Report {
    let comparisons = vec![
        cmp(
            "ndcg@10",
            "all",
            412,
            Some(38),
            0.6810,
            0.6932,
            [0.0041, 0.0205],
            (171, 120, 121),
            vec![reg("q_0192", 0.9100, 0.3300), reg("q_0007", 0.7700, 0.4100)],
        ),
        cmp(
            "ndcg@10",
            "risk=compliance",
            64,
            Some(9),
            0.7020,
            0.6710,
            [-0.0480, -0.0150],
            (12, 20, 32),
            vec![reg("q_0192", 0.9100, 0.3300), reg("q_0311", 0.8000, 0.5200)],
        ),
        cmp(
            "recall@5",
            "all",
            412,
            Some(38),
            0.9600,
            0.9650,
            [0.0010, 0.0090],
            (30, 370, 12),
            vec![],
        ),
    ];
    let gates = vec![
        gate(
            1,
            "recall@5",
            "all",
            "min-mean",
            0.95,
            0.9650,
            GateStatus::Pass,
            "candidate mean 0.9650 ≥ 0.95",
        ),
        gate(
            3,
            "ndcg@10",
            "all",
            "max-drop",
            -0.01,
            0.0041,
            GateStatus::Pass,
            "CI lower bound +0.0041 ≥ −0.01",
        ),
        gate(
            3,
            "ndcg@10",
            "risk=compliance",
            "max-drop",
            -0.01,
            -0.0480,
            GateStatus::Fail,
            "CI lower bound −0.0480 < −0.01",
        ),
        gate(
            3,
            "ndcg@10",
            "risk=legal",
            "max-drop",
            -0.01,
            0.0,
            GateStatus::TooSmall,
            "12 queries < min-queries 30",
        ),
    ];
    Report {
        schema_version: SCHEMA_VERSION,
        rag_gate_version: "0.1.0".to_string(),
        gate_id: "prod".to_string(),
        verdict: Verdict::Fail,
        headline: rag_gate::verdict::headline(&gates, &comparisons),
        guarantee: "regular".to_string(),
        on_inconclusive: "pass".to_string(),
        resolution: vec![],
        seed: 17,
        resamples: 10_000,
        confidence: 0.95,
        unit: "group".to_string(),
        method: "percentile".to_string(),
        tie_epsilon: 1e-9,
        inputs: InputsInfo {
            baseline: "eval/baseline.jsonl".to_string(),
            candidate: "eval/candidate.jsonl".to_string(),
            queries: Some("eval/queries.jsonl".to_string()),
            qrels: None,
            eval: None,
        },
        baseline: None,
        pairing: PairingInfo {
            missing_policy: "error".to_string(),
            baseline_queries: 412,
            candidate_queries: 412,
            paired: 412,
            dropped_baseline_only: 0,
            dropped_candidate_only: 0,
            dropped_examples: vec![],
            baseline_unranked: 0,
            candidate_unranked: 0,
        },
        comparisons,
        gates,
        warnings: vec![
            "slice risk=legal has 12 queries (< min-queries 30): not judged".to_string(),
        ],
        protocol: None,
        noise: None,
        notes: vec![],
        efficiency: None,
        judge: None,
        ties: None,
        anchor: None,
        attempts: None,
        looks: None,
        probe: None,
        view: Default::default(),
    }
}

/// The same data, every gate passing.
pub fn passing_report() -> Report {
    let mut r = failing_report();
    r.verdict = Verdict::Pass;
    r.gates.retain(|g| g.status == GateStatus::Pass);
    r.comparisons.retain(|c| c.slice == "all");
    r.warnings.clear();
    r.headline = rag_gate::verdict::headline(&r.gates, &r.comparisons);
    r
}

/// A report with `n` comparisons, each with many per-query regressions: far over 65,536 chars.
pub fn huge_report(n: usize) -> Report {
    let mut r = failing_report();
    let template = r.comparisons[1].clone();
    r.comparisons = (0..n)
        .map(|i| {
            let mut c = template.clone();
            c.slice = format!("domain=d{i:04}");
            c.worst = (0..50)
                .map(|q| reg(&format!("query-{i:04}-{q:03}"), 0.9, 0.1))
                .collect();
            c
        })
        .collect();
    r
}
