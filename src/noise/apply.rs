//! How a check uses `[noise]`: the quarantine takes its queries out of every slice before
//! resampling (they stay in the report, with their deltas); the noise file's floors warn about
//! gates whose margin is below the measured noise, a whole-run shift a single baseline run does
//! not carry warns too, and its flaky queries are listed.

use std::collections::{BTreeMap, HashSet};

use crate::config::{Config, Gate, InputSpec};
use crate::error::{few, Result};
use crate::load::source::read_text;
use crate::model::{Comparison, NoiseFloor, NoiseReport, Quarantined};
use crate::pair::Paired;
use crate::slices::Slice;
use crate::stats::crossed::SideNoise;

use super::quarantine::{self, Entry};
use super::NoiseFile;

/// Reads the quarantine list (refusing expired entries), removes its queries from every slice,
/// and returns the entries with the queries' deltas, and warnings for ids that are not paired.
pub fn quarantine(
    cfg: &Config,
    paired: &Paired,
    slices: &mut [Slice],
) -> Result<(Vec<Quarantined>, Vec<String>)> {
    let Some(spec) = &cfg.noise.quarantine else {
        return Ok((Vec::new(), Vec::new()));
    };
    let src = crate::config::SourceText {
        shown: spec.shown(),
        text: read_text(
            &spec.path,
            &spec.shown(),
            "a TOML quarantine list ([[query]] id, reason, owner, expires)",
        )?,
    };
    let today = cfg
        .noise
        .today
        .expect("the command sets today when a quarantine is configured");
    let entries = quarantine::parse(&src, today)?;
    let at: BTreeMap<&str, u32> = paired
        .ids
        .iter()
        .enumerate()
        .map(|(i, id)| (id, i as u32))
        .collect();
    let mut out = Vec::new();
    let mut unknown = Vec::new();
    let mut gone: HashSet<u32> = HashSet::new();
    for e in entries {
        let Some(&i) = at.get(e.id.as_str()) else {
            unknown.push(e.id);
            continue;
        };
        gone.insert(i);
        out.push(quarantined(e, paired, i as usize));
    }
    for s in slices.iter_mut() {
        s.members.retain(|m| !gone.contains(m));
    }
    let mut warnings = Vec::new();
    if !unknown.is_empty() {
        warnings.push(format!(
            "{}: {} quarantined {} not among the paired queries: {}",
            spec.written,
            unknown.len(),
            if unknown.len() == 1 {
                "query is"
            } else {
                "queries are"
            },
            few(&unknown, 5)
        ));
    }
    Ok((out, warnings))
}

fn quarantined(e: Entry, paired: &Paired, i: usize) -> Quarantined {
    Quarantined {
        query_id: e.id,
        reason: e.reason,
        owner: e.owner,
        expires: e.expires,
        deltas: paired
            .metrics
            .iter()
            .map(|(m, p)| (m.clone(), p.candidate[i] - p.baseline[i]))
            .collect(),
    }
}

/// The noise file of `[noise] file`, read (None without one).
pub fn read_file(cfg: &Config) -> Result<Option<(&InputSpec, NoiseFile)>> {
    match &cfg.noise.file {
        Some(spec) => Ok(Some((spec, super::file::read(&spec.path, &spec.shown())?))),
        None => Ok(None),
    }
}

/// The report's noise section (None when there are no replicates, no noise file and no
/// quarantine) and the margin-below-floor warnings.
pub fn report(
    cfg: &Config,
    paired: &Paired,
    comparisons: &[Comparison],
    quarantined: Vec<Quarantined>,
    file: Option<(&InputSpec, &NoiseFile)>,
) -> Result<(Option<NoiseReport>, Vec<String>)> {
    let replicates = paired.replicates.as_ref().map(|r| r.counts);
    if replicates.is_none() && file.is_none() && cfg.noise.quarantine.is_none() {
        return Ok((None, Vec::new()));
    }
    let mut section = NoiseReport {
        replicates,
        quarantined,
        ..Default::default()
    };
    let mut warnings = Vec::new();
    if let Some((spec, f)) = file {
        let scale = super::band::scale(replicates);
        // A metric read under two statistics has one floor per slice (the noise file's A/A).
        let mut seen = HashSet::new();
        for c in comparisons {
            if !seen.insert((c.metric.as_str(), c.slice.as_str())) {
                continue;
            }
            if let Some(e) = f.entry(&c.metric, &c.slice) {
                section.floors.push(NoiseFloor {
                    metric: c.metric.clone(),
                    slice: c.slice.clone(),
                    noise_floor: e.noise_floor,
                    floor_here: e.noise_floor * scale,
                });
            }
        }
        if section.floors.is_empty() {
            warnings.push(format!(
                "[noise] file {}: it measured none of the compared metric × slices, so its noise floors apply to nothing here; run `rag-gate aa` on replicates with these metrics",
                spec.written
            ));
        }
        warnings.extend(floor_warnings(cfg, &section.floors, spec, f.replicates));
        warnings.extend(shift_warnings(cfg, f, spec, replicates));
        let paired_ids: HashSet<&str> = paired.ids.iter().collect();
        for (m, ids) in &f.flaky_queries {
            if !paired.metrics.contains_key(m) {
                continue;
            }
            let here: Vec<String> = ids
                .iter()
                .filter(|id| paired_ids.contains(id.as_str()))
                .cloned()
                .collect();
            section.flaky.insert(m.clone(), here);
        }
        section.noise_file = Some(spec.written.clone());
        section.noise_replicates = Some(f.replicates);
    }
    Ok((Some(section), warnings))
}

/// The smallest of a gate's delta margins (`max-drop`, `fail-if-significant-drop`,
/// `max-change`); none for a gate without one.
fn smallest_delta_margin(g: &Gate) -> Option<f64> {
    [g.max_drop, g.fail_if_significant_drop, g.max_change]
        .into_iter()
        .flatten()
        .reduce(f64::min)
}

/// "gate #1 ndcg@10 on all: margin 0.005 is below the noise floor 0.0123 ..." for every delta
/// rule whose margin is below the floor at this check's replicate counts.
fn floor_warnings(
    cfg: &Config,
    floors: &[NoiseFloor],
    spec: &InputSpec,
    measured_on: usize,
) -> Vec<String> {
    let mut out = Vec::new();
    for g in &cfg.gates {
        let Some(margin) = smallest_delta_margin(g) else {
            continue;
        };
        for f in floors.iter().filter(|f| {
            f.metric == g.metric && g.applies_to(&f.slice, &critical(cfg)) && margin < f.floor_here
        }) {
            out.push(format!(
                "gate #{} {} on {}: margin {margin} is below the noise floor {:.4} measured by {} ({measured_on} replicates): two runs of one commit differ by that much; widen the margin or add replicates",
                g.index, g.metric, f.slice, f.floor_here, spec.written
            ));
        }
    }
    out
}

/// The A/A runs' decomposition per (metric, slice) entry of the noise file, for the whole-run
/// shift a single baseline run cannot carry (`resample::Settings::aa_pools`).
pub fn shift_pools(f: &NoiseFile) -> BTreeMap<(String, String), SideNoise> {
    f.entries
        .iter()
        .filter(|e| e.run_means.len() >= 2)
        .map(|e| {
            let pool = SideNoise::recorded(e.n, &e.run_means, e.jitter_sd * e.jitter_sd);
            ((e.metric.clone(), e.slice.clone()), pool)
        })
        .collect()
}

/// "ndcg@10: noise.json has no A/A runs of it ..." for every gated metric the noise file did not
/// measure on `all`, when the baseline is one run: its intervals carry per-query jitter (it is in
/// the deltas) but no whole-run shift, which only the A/A runs or baseline replicates bring into
/// them (`stats::crossed`).
fn shift_warnings(
    cfg: &Config,
    f: &NoiseFile,
    spec: &InputSpec,
    replicates: Option<[usize; 2]>,
) -> Vec<String> {
    if replicates.is_some_and(|[b, _]| b >= 2) {
        return Vec::new();
    }
    let mut out = Vec::new();
    let mut seen = HashSet::new();
    for g in &cfg.gates {
        if smallest_delta_margin(g).is_none() || !seen.insert(g.metric.as_str()) {
            continue;
        }
        if f.entry(&g.metric, "all")
            .is_none_or(|e| e.run_means.len() < 2)
        {
            out.push(format!(
                "{}: {} has no A/A runs of it, so with one baseline run its intervals carry no whole-run shift; run `rag-gate aa` with this metric, or give the baseline as 3 or more replicate runs of main",
                crate::safe_text::shown(&g.metric),
                spec.written,
            ));
        }
    }
    out
}

fn critical(cfg: &Config) -> std::collections::BTreeSet<String> {
    cfg.slices.critical.iter().map(|(n, _)| n.clone()).collect()
}
