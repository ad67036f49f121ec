//! A re-run after failing attempts of its candidate: the rules that need evidence to pass
//! (`max-drop`, `max-change`) read the comparison's interval at the spent level
//! (`stats::spending`), so re-running a change until it passes buys no pass. A
//! `fail-if-significant-drop` reads the configured interval: a wider one would fail less, and a
//! re-run must never make passing easier.

use crate::config::Config;
use crate::model::Comparison;
use crate::stats::spending;

/// Whether `rule` is judged at the spent level on a re-run.
fn spends(rule: &str) -> bool {
    matches!(rule, "max-drop" | "max-change")
}

/// `c` with its interval read at the spent level, when `rule` spends and earlier attempts of
/// the candidate failed; None otherwise (the configured interval stands).
pub fn view(cfg: &Config, rule: &str, c: &Comparison) -> Option<Comparison> {
    let failed = cfg.bootstrap.failed_attempts;
    if failed == 0 || !spends(rule) {
        return None;
    }
    let factor = spending::stretch(cfg.bootstrap.confidence, failed, c.df);
    let mut w = c.clone();
    w.ci = spending::widen(c.ci, c.estimate, factor);
    Some(w)
}

/// What a rule judged at the spent level adds to its detail: "; judged at 99.875%, the level
/// left after 2 earlier attempts of this change that did not pass or were lost (the 95% interval
/// widened)".
pub fn words(cfg: &Config) -> String {
    let failed = cfg.bootstrap.failed_attempts;
    let conf = cfg.bootstrap.confidence;
    format!(
        "{LEAD}{}, the level left after {} of this change that did not pass or {} lost (the {} \
         interval widened)",
        level(spending::spent_confidence(conf, failed)),
        crate::numbers::count(failed as usize, "earlier attempt", "earlier attempts"),
        if failed == 1 { "was" } else { "were" },
        level(conf)
    )
}

/// The level a gate row's detail says it was judged at ("99.75%"), when [`words`] added it.
pub fn judged_level(detail: &str) -> Option<&str> {
    let (_, rest) = detail.split_once(LEAD)?;
    rest.split(", the level left").next()
}

const LEAD: &str = "; judged at ";

/// A confidence as a reader sees it: "95%", "99.875%", "99.9995117%" (up to 7 decimals),
/// "1 − 4.55e-12" past them, and "100% (nothing left …)" past `spending::SMALLEST_LEVEL`.
pub fn level(confidence: f64) -> String {
    if (1.0 - confidence) / 2.0 < spending::SMALLEST_LEVEL {
        return "100% (nothing left to spend: no interval passes)".into();
    }
    let mut s = format!("{:.7}", 100.0 * confidence);
    while s.ends_with('0') {
        s.pop();
    }
    if s.ends_with('.') {
        s.pop();
    }
    if s == "100" {
        return format!("1 − {:.2e}", 1.0 - confidence);
    }
    format!("{s}%")
}

#[cfg(test)]
mod tests {
    use super::level;

    #[test]
    fn levels_read_as_percentages() {
        assert_eq!(level(0.95), "95%");
        assert_eq!(level(0.99875), "99.875%");
        assert_eq!(level(1.0 - 0.05 * 0.5f64.powi(9) / 10.0), "99.9990234%");
        assert_eq!(level(1.0 - 0.05 * 0.5f64.powi(30) / 10.0), "1 − 4.66e-12");
        assert!(level(1.0 - 0.05 * 0.5f64.powi(40) / 10.0).starts_with("100% (nothing left"));
    }

    #[test]
    fn the_level_reads_back_from_the_words() {
        let dir = tempfile::tempdir().unwrap();
        let gate = dir.path().join("gate.toml");
        std::fs::write(
            &gate,
            "id = \"p\"\n[inputs]\nbaseline = \"b.jsonl\"\ncandidate = \"c.jsonl\"\n\
             [[gate]]\nmetric = \"ndcg@10\"\nmax-drop = 0.02\n",
        )
        .unwrap();
        let mut cfg = crate::config::load(&gate).unwrap();
        cfg.bootstrap.failed_attempts = 1;
        let detail = format!("non-inferiority: …{}", super::words(&cfg));
        assert!(
            detail.contains("after 1 earlier attempt of this change that did not pass or was lost"),
            "{detail}"
        );
        assert_eq!(super::judged_level(&detail), Some("99.75%"));
        assert_eq!(super::judged_level("non-inferiority: …"), None);
    }
}
