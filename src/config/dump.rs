//! `--dump-config`: the effective configuration, every default filled in, as TOML (`[policy]`
//! max-k has no default: absent means no limit).

use toml::{Table, Value};

use super::*;

/// `[probe]` with its default persistence filled in.
fn probe_table(p: &ProbeSettings) -> Table {
    let mut t = Table::new();
    t.insert("baseline".into(), p.baseline.written.clone().into());
    t.insert("candidate".into(), p.candidate.written.clone().into());
    if let Some((f, _)) = &p.run_format {
        t.insert("run-format".into(), f.clone().into());
    }
    t.insert("persistence".into(), p.persistence.into());
    t
}

/// One side: its input, or the list of its replicates.
fn side(first: &InputSpec, more: &[InputSpec]) -> Value {
    if more.is_empty() {
        return input(first);
    }
    Value::Array(std::iter::once(first).chain(more).map(input).collect())
}

/// The effective configuration as TOML, one table per section; `eval` is the `[eval]` table as
/// the eval module reads it (None: no run input).
pub fn dump(c: &Config, eval: Option<Table>) -> String {
    let mut root = Table::new();
    root.insert("id".into(), c.id.clone().into());
    let mut inputs = inputs_table(&c.inputs);
    if let Some(commit) = &c.baseline.commit {
        inputs.insert("baseline-commit".into(), commit.clone().into());
    }
    root.insert("inputs".into(), inputs.into());
    root.insert("bootstrap".into(), bootstrap_table(&c.bootstrap).into());
    root.insert("slices".into(), slices_table(&c.slices).into());
    root.insert("report".into(), report_table(&c.report).into());
    let noise = noise_table(&c.noise);
    if !noise.is_empty() {
        root.insert("noise".into(), noise.into());
    }
    if let Some(eval) = eval {
        root.insert("eval".into(), eval.into());
    }
    let mut protocol = Table::new();
    protocol.insert("require".into(), c.protocol.require.into());
    root.insert("protocol".into(), protocol.into());
    root.insert("judged".into(), judged_table(&c.judged).into());
    if let Some(j) = &c.judge {
        root.insert("judge".into(), judge_table(j).into());
    }
    let mut policy = Table::new();
    if let Some(k) = c.policy.max_k {
        policy.insert("max-k".into(), (k as i64).into());
    }
    root.insert("policy".into(), policy.into());
    root.insert("baseline".into(), baseline_table(&c.baseline).into());
    let mut verdict = Table::new();
    verdict.insert("guarantee".into(), c.verdict.guarantee.as_str().into());
    verdict.insert(
        "accept-blind-spot".into(),
        c.verdict.accept_blind_spot.into(),
    );
    verdict.insert(
        "on-inconclusive".into(),
        c.verdict.on_inconclusive.as_str().into(),
    );
    root.insert("verdict".into(), verdict.into());

    if let Some([b, c]) = &c.efficiency.cards {
        let mut eff = Table::new();
        eff.insert("baseline".into(), b.written.clone().into());
        eff.insert("candidate".into(), c.written.clone().into());
        root.insert("efficiency".into(), eff.into());
    }
    if let Some(a) = &c.anchor {
        let mut t = Table::new();
        t.insert("file".into(), a.file.written.clone().into());
        if let Some(n) = &a.name {
            t.insert("name".into(), n.clone().into());
        }
        if let Some(l) = &a.ledger {
            t.insert("ledger".into(), l.written.clone().into());
        }
        root.insert("anchor".into(), t.into());
    }
    if let Some(p) = &c.probe {
        root.insert("probe".into(), probe_table(p).into());
    }
    // Per-query and run-level gates, in gate-file order.
    let mut gates: Vec<(usize, Value)> = c.gates.iter().map(|g| (g.index, gate(g))).collect();
    gates.extend(
        c.efficiency
            .gates
            .iter()
            .map(|g| (g.index, super::run_gate::dump(g))),
    );
    gates.sort_by_key(|(i, _)| *i);
    root.insert(
        "gate".into(),
        Value::Array(gates.into_iter().map(|(_, g)| g).collect()),
    );
    let mut out = toml::to_string(&root).unwrap_or_default();
    out.push_str(&not_set(&root));
    out
}

/// Every key a gate file may set, by section ("" is the top level, "gate" each `[[gate]]`,
/// "inputs.baseline" an input's table). `tests/it/docs_drift.rs` checks this against the keys the
/// parser accepts and against docs/gate-file.md.
pub const KEYS: &[(&str, &[&str])] = &[
    ("", &["id"]),
    (
        "inputs",
        &[
            "baseline",
            "candidate",
            "queries",
            "qrels",
            "format",
            "id-column",
            "missing",
            "group-from-id",
            "baseline-commit",
        ],
    ),
    (
        "inputs.baseline",
        &[
            "path",
            "run",
            "runs",
            "format",
            "id-column",
            "id",
            "group",
            "slices",
            "metrics",
        ],
    ),
    (
        "bootstrap",
        &[
            "resamples",
            "seed",
            "confidence",
            "unit",
            "method",
            "weights",
        ],
    ),
    (
        "slices",
        &[
            "by",
            "critical",
            "min-queries",
            "min-groups",
            "min-moved",
            "on-small-slice",
        ],
    ),
    (
        "report",
        &[
            "worst",
            "tie-epsilon",
            "practical-tie",
            "metrics",
            "details",
        ],
    ),
    ("noise", &["file", "quarantine"]),
    (
        "eval",
        &[
            "metrics",
            "rel-level",
            "gain",
            "order",
            "empty-gold",
            "qrels-format",
            "run-format",
            "corpus",
            "chunk-map",
            "judged-only",
        ],
    ),
    ("protocol", &["require"]),
    ("judged", &["on-unreliable", "min-judged", "condensed"]),
    (
        "judge",
        &[
            "qrels",
            "sidecar",
            "gate-on",
            "min-labelled",
            "min-kappa",
            "sample",
            "plant-key",
        ],
    ),
    ("policy", &["max-k"]),
    (
        "baseline",
        &[
            "max-age-days",
            "max-commits-behind",
            "max-behind",
            "on-missing",
        ],
    ),
    (
        "verdict",
        &["guarantee", "accept-blind-spot", "on-inconclusive"],
    ),
    ("efficiency", &["baseline", "candidate"]),
    ("anchor", &["file", "name", "ledger"]),
    (
        "probe",
        &["baseline", "candidate", "run-format", "persistence"],
    ),
    (
        "gate",
        &[
            "metric",
            "min-mean",
            "max-mean",
            "max-drop",
            "max-change",
            "fail-if-significant-drop",
            "max-loss-rate",
            "max-drift",
            "max-unit-loss",
            "statistic",
            "higher-is-better",
            "slices",
            "max-increase",
            "max-decrease",
            "min",
            "max",
            "at",
            "allow-condition-change",
        ],
    ),
];

/// The keys the dump above does not set, as comments (the dump stays a valid gate file): each
/// optional key without a default, so every key the gate file accepts is named.
fn not_set(root: &Table) -> String {
    let mut lines = Vec::new();
    for (section, keys) in KEYS {
        let set = |k: &str| -> bool {
            match *section {
                "" => root.contains_key(k),
                "gate" => root
                    .get("gate")
                    .and_then(Value::as_array)
                    .is_some_and(|gs| {
                        gs.iter()
                            .any(|g| g.as_table().is_some_and(|t| t.contains_key(k)))
                    }),
                "inputs.baseline" => ["baseline", "candidate"].iter().any(|side| {
                    let v = root.get("inputs").and_then(|i| i.get(side));
                    let tables: Vec<&Value> = match v {
                        Some(Value::Array(a)) => a.iter().collect(),
                        Some(v) => vec![v],
                        None => Vec::new(),
                    };
                    tables.iter().any(|t| t.get(k).is_some())
                }),
                s => root.get(s).and_then(|t| t.get(k)).is_some(),
            }
        };
        let missing: Vec<&str> = keys.iter().copied().filter(|k| !set(k)).collect();
        if !missing.is_empty() {
            let name = match *section {
                "" => "top level".to_string(),
                "gate" => "[[gate]]".to_string(),
                "inputs.baseline" => "[inputs.baseline], [inputs.candidate]".to_string(),
                s => format!("[{s}]"),
            };
            lines.push(format!("# {name}: {}", missing.join(", ")));
        }
    }
    if lines.is_empty() {
        return String::new();
    }
    format!(
        "\n# Not set above (optional, no default; docs/gate-file.md says what each does):\n{}\n",
        lines.join("\n")
    )
}

/// `[baseline]`: `on-missing` always, the limits when set.
fn baseline_table(b: &super::BaselineSettings) -> Table {
    let mut t = Table::new();
    if let Some((n, _)) = b.max_age_days {
        t.insert("max-age-days".into(), (n as i64).into());
    }
    if let Some((n, _)) = b.max_commits_behind {
        t.insert("max-commits-behind".into(), (n as i64).into());
    }
    if let Some((n, _)) = b.max_behind {
        t.insert("max-behind".into(), (n as i64).into());
    }
    t.insert("on-missing".into(), b.on_missing.as_str().into());
    t
}

/// `[inputs]`: both sides, the optional queries and qrels paths as written, `missing`.
fn inputs_table(i: &Inputs) -> Table {
    let mut inputs = Table::new();
    inputs.insert("baseline".into(), side(&i.baseline, &i.baseline_more));
    inputs.insert("candidate".into(), side(&i.candidate, &i.candidate_more));
    if let Some(q) = &i.queries {
        inputs.insert("queries".into(), q.written.clone().into());
    }
    if let Some(q) = &i.qrels {
        inputs.insert("qrels".into(), q.written.clone().into());
    }
    let missing = match i.missing {
        Missing::Error => "error",
        Missing::Intersect => "intersect",
    };
    inputs.insert("missing".into(), missing.into());
    if let Some(re) = &i.group_from_id {
        inputs.insert("group-from-id".into(), re.as_str().into());
    }
    inputs
}

/// `[bootstrap]`: every key, defaults filled in.
fn bootstrap_table(b: &Bootstrap) -> Table {
    let mut boot = Table::new();
    boot.insert("resamples".into(), (b.resamples as i64).into());
    boot.insert("seed".into(), (b.seed as i64).into());
    boot.insert("confidence".into(), b.confidence.into());
    boot.insert("unit".into(), b.unit.as_str().into());
    boot.insert("method".into(), b.method.as_str().into());
    boot.insert("weights".into(), b.weights.as_str().into());
    boot
}

/// `[slices]`: every key, defaults filled in.
fn slices_table(s: &Slices) -> Table {
    let mut slices = Table::new();
    slices.insert("by".into(), strings(s.by.iter().map(|(t, _)| t)));
    slices.insert(
        "critical".into(),
        strings(s.critical.iter().map(|(n, _)| n)),
    );
    slices.insert("min-queries".into(), (s.min_queries as i64).into());
    slices.insert("min-groups".into(), (s.min_groups as i64).into());
    slices.insert("min-moved".into(), (s.min_moved as i64).into());
    let small = match s.on_small_slice {
        OnSmallSlice::Judge => "judge",
        OnSmallSlice::Warn => "warn",
        OnSmallSlice::Fail => "fail",
    };
    slices.insert("on-small-slice".into(), small.into());
    slices
}

/// `[report]`: every key, `metrics` only when the gate file lists them.
fn report_table(r: &ReportSettings) -> Table {
    let mut report = Table::new();
    report.insert("worst".into(), (r.worst as i64).into());
    report.insert("tie-epsilon".into(), r.tie_epsilon.into());
    report.insert("practical-tie".into(), r.practical_tie.into());
    report.insert("details".into(), r.details.into());
    if let Some(m) = &r.metrics {
        report.insert("metrics".into(), strings(m.iter().map(|(n, _)| n)));
    }
    report
}

/// `[noise]`: the paths as written; empty when neither is set.
fn noise_table(n: &NoiseSettings) -> Table {
    let mut noise = Table::new();
    for (key, spec) in [("file", &n.file), ("quarantine", &n.quarantine)] {
        if let Some(s) = spec {
            noise.insert(key.into(), s.written.clone().into());
        }
    }
    noise
}

/// `[judged]`: on-unreliable, and min-judged when set.
fn judged_table(j: &JudgedSettings) -> Table {
    let mut judged = Table::new();
    let on = match j.on_unreliable {
        OnUnreliable::Fail => "fail",
        OnUnreliable::Warn => "warn",
    };
    judged.insert("on-unreliable".into(), on.into());
    if let Some(m) = j.min_judged {
        judged.insert("min-judged".into(), m.into());
    }
    judged.insert("condensed".into(), j.condensed.into());
    judged
}

/// `[judge]`, defaults filled in.
fn judge_table(j: &super::JudgeSettings) -> Table {
    let mut t = Table::new();
    t.insert("qrels".into(), j.qrels.written.clone().into());
    t.insert("sidecar".into(), j.sidecar.written.clone().into());
    let on = if j.gate_on_corrected {
        "corrected"
    } else {
        "human"
    };
    t.insert("gate-on".into(), on.into());
    t.insert("min-labelled".into(), (j.min_labelled as i64).into());
    if let Some(k) = j.min_kappa {
        t.insert("min-kappa".into(), k.into());
    }
    if let Some(s) = &j.sample {
        t.insert("sample".into(), s.written.clone().into());
    }
    if let Some(k) = &j.plant_key {
        t.insert("plant-key".into(), k.written.clone().into());
    }
    t
}

fn input(i: &InputSpec) -> Value {
    let mut t = Table::new();
    match &i.kind {
        InputKind::Metrics {
            format,
            id_column,
            columns,
        } => {
            t.insert("path".into(), i.written.clone().into());
            if let Some(f) = format {
                if let Ok(Value::String(s)) = Value::try_from(f) {
                    t.insert("format".into(), s.into());
                }
            }
            t.insert("id-column".into(), id_column.clone().into());
            column_mapping(columns, &mut t);
        }
        InputKind::Run => {
            t.insert("run".into(), i.written.clone().into());
        }
    }
    t.into()
}

/// The long form's `id`, `group`, `slices` and `metrics` keys, when given.
fn column_mapping(c: &crate::load::ColumnMap, t: &mut Table) {
    for (k, v) in [("id", &c.id), ("group", &c.group)] {
        if let Some(v) = v {
            t.insert(k.into(), v.clone().into());
        }
    }
    for (k, m) in [("slices", &c.slices), ("metrics", &c.metrics)] {
        if !m.is_empty() {
            let m: Table = m
                .iter()
                .map(|(a, b)| (a.clone(), b.clone().into()))
                .collect();
            t.insert(k.into(), m.into());
        }
    }
}

fn gate(g: &Gate) -> Value {
    let mut t = Table::new();
    t.insert("metric".into(), g.metric.clone().into());
    for (k, v) in [
        ("min-mean", g.min_mean),
        ("max-mean", g.max_mean),
        ("max-drop", g.max_drop),
        ("max-change", g.max_change),
        ("fail-if-significant-drop", g.fail_if_significant_drop),
        ("max-loss-rate", g.max_loss_rate),
        ("max-drift", g.max_drift),
        ("max-unit-loss", g.max_unit_loss),
    ] {
        if let Some(v) = v {
            t.insert(k.into(), v.into());
        }
    }
    t.insert("statistic".into(), g.statistic.as_str().into());
    t.insert("higher-is-better".into(), g.higher_is_better.into());
    let slices = match &g.slices {
        GateSlices::All => "all".into(),
        GateSlices::Critical => "critical".into(),
        GateSlices::List(l) => strings(l.iter()),
    };
    t.insert("slices".into(), slices);
    t.into()
}

fn strings<'a>(it: impl Iterator<Item = &'a String>) -> Value {
    Value::Array(it.map(|s| Value::String(s.clone())).collect())
}
