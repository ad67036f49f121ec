//! Which way is better for a run-level metric of a run card, from its name: sizes, times,
//! memory and cost are lower-is-better; throughputs (QPS, docs/s, tokens/s) and recalls are
//! higher-is-better. Any other name has no known direction (a gate on it must say
//! `higher-is-better`).

/// Words of a name (split at anything not a letter or digit), lowercase.
fn words(name: &str) -> Vec<String> {
    name.to_lowercase()
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_string)
        .collect()
}

const HIGHER: [&str; 8] = [
    "qps",
    "throughput",
    "recall",
    "rps",
    "tps",
    "ndcg",
    "mrr",
    "hit",
];
const LOWER: [&str; 29] = [
    "latency", "time", "duration", "ms", "us", "ns", "seconds", "secs", "sec", "minutes", "hour",
    "hours", "byte", "bytes", "size", "kb", "mb", "gb", "kib", "mib", "gib", "ram", "vram",
    "memory", "rss", "storage", "cost", "usd", "overhead",
];

/// `Some(true)` when higher is better, `Some(false)` when lower is, `None` when the name does not
/// say. A rate ("docs/s", "tokens-per-s", "docs_per_second") is higher-is-better.
pub fn higher_is_better(name: &str) -> Option<bool> {
    let lower = name.to_lowercase();
    let w = words(name);
    let rate = lower.contains("/s")
        || w.windows(2)
            .any(|p| p[0] == "per" && matches!(p[1].as_str(), "s" | "sec" | "second"));
    if rate || w.iter().any(|x| HIGHER.contains(&x.as_str())) {
        return Some(true);
    }
    if w.iter()
        .any(|x| LOWER.contains(&x.as_str()) || x == "s" || x.ends_with("hours"))
    {
        return Some(false);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::higher_is_better as h;

    #[test]
    fn common_names_have_a_direction() {
        for n in [
            "qps",
            "docs/s",
            "tokens/s",
            "docs-per-s",
            "index_throughput",
            "ann-recall@10",
        ] {
            assert_eq!(h(n), Some(true), "{n}");
        }
        for n in [
            "query-latency-p95-ms",
            "index-build-time-s",
            "index-bytes",
            "peak-vram-gb",
            "api-cost-usd",
            "device-hours",
            "raw-storage-bytes",
        ] {
            assert_eq!(h(n), Some(false), "{n}");
        }
        assert_eq!(h("widgets"), None);
    }
}
