//! The sticky comment's hidden state: each pushed commit's look (verdict, gated estimates) and,
//! for the newest commit, each attempt's per-query candidate results, so that a re-run of that
//! commit is judged on all its attempts. It sits at the end of the comment as
//!
//! ```text
//! <!-- rag-gate:state v1 check=hmac-sha256:HEX
//! BASE64 (deflated JSON)
//! -->
//! ```
//!
//! The check is an HMAC-SHA-256 (RFC 2104) under a secret key when one is set (`--state-key-env`,
//! default `RAG_GATE_STATE_KEY`), else a plain SHA-256; both cover the repository, the pull
//! request and the gate key as well as the payload, so a state copied from another comment
//! fails too. A state that fails its check is ignored with a warning, never trusted: without a
//! key the check catches an edit by hand, not someone who recomputes the SHA-256 (only a key
//! they do not hold stops that). Pure: no I/O.

use std::collections::BTreeMap;
use std::io::{Read, Write};

use base64::Engine;
use serde::{Deserialize, Serialize};

use crate::model::looks::{AttemptValues, Look, LookRow};
use crate::model::Verdict;

/// The environment variable that holds the state key, unless `--state-key-env` names another.
pub const KEY_ENV: &str = "RAG_GATE_STATE_KEY";
const OPEN: &str = "<!-- rag-gate:state v1 check=";
/// The state's share of the comment: past it, attempts' results are dropped, oldest first.
pub const BUDGET: usize = 40_000;
/// Looks kept (the oldest are dropped).
pub const MAX_LOOKS: usize = 40;
/// An attempt's results inflate to at most this many bytes.
const MAX_VALUES_BYTES: u64 = 64 << 20;

/// What the state holds: the looks, oldest first.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct State {
    pub looks: Vec<StoredLook>,
}

/// One commit's look and its attempts.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StoredLook {
    pub commit: String,
    pub verdict: Verdict,
    pub rows: Vec<LookRow>,
    pub attempts: Vec<StoredAttempt>,
}

impl StoredLook {
    pub fn look(&self) -> Look {
        Look {
            commit: self.commit.clone(),
            attempts: self.attempts.len() as u32,
            verdict: self.verdict,
            rows: self.rows.clone(),
        }
    }
}

/// One attempt of a commit: which run it was, its verdict and (newest commit only) its results.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StoredAttempt {
    pub attempt: u32,
    /// The CI run that made it (`RUN_ID/RUN_ATTEMPT` on GitHub, `pipeline PIPELINE job JOB` on
    /// GitLab), when known: a second check in the same run replaces its record.
    pub run: Option<String>,
    pub verdict: Verdict,
    /// [`AttemptValues::digest`] of its results.
    pub digest: String,
    /// SHA-256 of the paired query ids, in order.
    pub ids: String,
    /// The metrics of `values`, in order.
    pub metrics: Vec<String>,
    pub runs: usize,
    /// The results: each value's shortest exact decimal, one a line, metric by metric, run by
    /// run, query by query, deflated, base64. None once dropped (an older commit's, or past the
    /// budget).
    pub values: Option<String>,
}

impl StoredAttempt {
    /// The record of `values` (kept in full).
    pub fn new(attempt: u32, run: Option<String>, verdict: Verdict, v: &AttemptValues) -> Self {
        // The shortest decimal that reads back as the same double (Rust's `Display`), one a
        // line: per-query metrics are often short decimals, which deflate far better than bits.
        let mut raw = String::new();
        for runs in v.metrics.values() {
            for r in runs {
                for x in r {
                    raw.push_str(&x.to_string());
                    raw.push('\n');
                }
            }
        }
        let raw = raw.into_bytes();
        let mut z = flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::best());
        z.write_all(&raw).expect("writing to memory");
        let packed = z.finish().expect("writing to memory");
        StoredAttempt {
            attempt,
            run,
            verdict,
            digest: v.digest(),
            ids: v.ids.clone(),
            metrics: v.metrics.keys().cloned().collect(),
            runs: v.runs(),
            values: Some(base64::engine::general_purpose::STANDARD.encode(packed)),
        }
    }

    /// The results back, checked against the digest; None when dropped or damaged.
    pub fn values(&self) -> Option<AttemptValues> {
        let packed = base64::engine::general_purpose::STANDARD
            .decode(self.values.as_deref()?)
            .ok()?;
        let mut raw = Vec::new();
        flate2::read::DeflateDecoder::new(&packed[..])
            .take(MAX_VALUES_BYTES)
            .read_to_end(&mut raw)
            .ok()?;
        let all: Vec<f64> = std::str::from_utf8(&raw)
            .ok()?
            .lines()
            .map(str::parse)
            .collect::<Result<_, _>>()
            .ok()?;
        let per = self.metrics.len() * self.runs;
        if per == 0 || !all.len().is_multiple_of(per) {
            return None;
        }
        let n = all.len() / per;
        let mut floats = all.into_iter();
        let mut metrics = BTreeMap::new();
        for m in &self.metrics {
            let runs: Vec<Vec<f64>> = (0..self.runs)
                .map(|_| floats.by_ref().take(n).collect())
                .collect();
            metrics.insert(m.clone(), runs);
        }
        let v = AttemptValues {
            ids: self.ids.clone(),
            metrics,
        };
        (v.digest() == self.digest).then_some(v)
    }
}

/// What a comment's state block said.
#[derive(Debug, Clone, PartialEq)]
pub enum Found {
    /// No state block (a comment from before states, or no comment).
    None,
    Trusted(State),
    /// A state that failed its check, and why: ignored, never trusted.
    Ignored(String),
}

/// The check of `payload` for `scope` (repository, request, gate key): HMAC-SHA-256 under `key`,
/// else SHA-256.
fn check(scope: &str, payload: &str, key: Option<&[u8]>) -> String {
    use hmac::Mac;
    use sha2::Digest;
    let message = format!("rag-gate state v1\n{scope}\n{payload}");
    match key {
        Some(k) => {
            let mut mac =
                hmac::Hmac::<sha2::Sha256>::new_from_slice(k).expect("HMAC takes any key length");
            mac.update(message.as_bytes());
            format!("hmac-sha256:{:x}", mac.finalize().into_bytes())
        }
        None => format!("sha256:{:x}", sha2::Sha256::digest(message.as_bytes())),
    }
}

/// The state block for `state` (ends with a line break).
pub fn block(state: &State, scope: &str, key: Option<&[u8]>) -> String {
    let json = serde_json::to_vec(state).expect("the state serialises");
    let mut z = flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::best());
    z.write_all(&json).expect("writing to memory");
    let payload =
        base64::engine::general_purpose::STANDARD.encode(z.finish().expect("writing to memory"));
    // Lines of 76 characters, so no line of the comment is overlong.
    let lines: Vec<&str> = payload
        .as_bytes()
        .chunks(76)
        .map(|c| std::str::from_utf8(c).expect("base64 is ASCII"))
        .collect();
    format!(
        "{OPEN}{} -->\n<!--\n{}\n-->\n",
        check(scope, &payload, key),
        lines.join("\n")
    )
}

/// `state`'s block, within [`BUDGET`]: looks past [`MAX_LOOKS`] dropped, then attempts'
/// results, oldest first, until it fits.
pub fn block_within(state: &mut State, scope: &str, key: Option<&[u8]>) -> String {
    let extra = state.looks.len().saturating_sub(MAX_LOOKS);
    state.looks.drain(..extra);
    loop {
        let b = block(state, scope, key);
        if b.len() <= BUDGET {
            return b;
        }
        let oldest = state
            .looks
            .iter_mut()
            .flat_map(|l| l.attempts.iter_mut())
            .find(|a| a.values.is_some());
        match oldest {
            Some(a) => a.values = None,
            None => return b,
        }
    }
}

/// Reads the state block of a comment `body` (written by rag-gate's own identity).
pub fn read(body: &str, scope: &str, key: Option<&[u8]>) -> Found {
    let Some(at) = body.find(OPEN) else {
        return Found::None;
    };
    let rest = &body[at + OPEN.len()..];
    let Some((claimed, rest)) = rest.split_once(" -->") else {
        return Found::Ignored("its state block is cut short".into());
    };
    let payload: String = rest
        .trim_start()
        .strip_prefix("<!--")
        .and_then(|r| r.split_once("-->"))
        .map(|(p, _)| p.chars().filter(|c| !c.is_whitespace()).collect())
        .unwrap_or_default();
    let claimed = claimed.trim();
    match (claimed.starts_with("hmac-sha256:"), key) {
        (true, None) => {
            return Found::Ignored(format!(
                "its state is signed with a key, and {KEY_ENV} (--state-key-env) is not set"
            ))
        }
        (false, Some(_)) => {
            return Found::Ignored(
                "its state is not signed, and a state key is set: only a signed state is trusted"
                    .into(),
            )
        }
        _ => {}
    }
    if check(scope, &payload, key) != claimed {
        return Found::Ignored("its state failed its check (the comment was edited?)".into());
    }
    match decode(&payload) {
        Some(s) => Found::Trusted(s),
        None => Found::Ignored("its state passed its check but cannot be read".into()),
    }
}

fn decode(payload: &str) -> Option<State> {
    let packed = base64::engine::general_purpose::STANDARD
        .decode(payload)
        .ok()?;
    let mut json = Vec::new();
    flate2::read::DeflateDecoder::new(&packed[..])
        .take(MAX_VALUES_BYTES)
        .read_to_end(&mut json)
        .ok()?;
    serde_json::from_slice(&json).ok()
}

/// `body` without its state block (what a reader sees is the same).
pub fn without(body: &str) -> &str {
    body.find(OPEN).map_or(body, |at| &body[..at])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn values(xs: &[f64]) -> AttemptValues {
        AttemptValues {
            ids: "ids".into(),
            metrics: [("ndcg@10".to_string(), vec![xs.to_vec()])].into(),
        }
    }

    fn state() -> State {
        State {
            looks: vec![StoredLook {
                commit: "a".repeat(40),
                verdict: Verdict::Fail,
                rows: vec![LookRow {
                    gate: 1,
                    metric: "ndcg@10".into(),
                    slice: "all".into(),
                    estimate: -0.02,
                    ci: [-0.03, -0.01],
                    passed: false,
                }],
                attempts: vec![StoredAttempt::new(
                    1,
                    Some("9/1".into()),
                    Verdict::Fail,
                    &values(&[0.5, 0.25, 1.0 / 3.0]),
                )],
            }],
        }
    }

    #[test]
    fn a_state_reads_back_whole_under_both_checks() {
        for key in [None, Some(&b"secret"[..])] {
            let b = block(&state(), "o/r#7/prod", key);
            let body = format!("<!-- rag-gate:v1 id=prod -->\nreport\n{b}");
            assert_eq!(read(&body, "o/r#7/prod", key), Found::Trusted(state()));
            assert_eq!(without(&body), "<!-- rag-gate:v1 id=prod -->\nreport\n");
        }
        let back = state().looks[0].attempts[0].values().expect("kept");
        assert_eq!(back, values(&[0.5, 0.25, 1.0 / 3.0]));
    }

    #[test]
    fn crlf_line_ends_do_not_break_the_check() {
        let b = block(&state(), "s", None).replace('\n', "\r\n");
        assert_eq!(read(&b, "s", None), Found::Trusted(state()));
    }

    #[test]
    fn an_edited_copied_or_unsigned_state_is_ignored() {
        let key = Some(&b"secret"[..]);
        let b = block(&state(), "o/r#7/prod", key);
        // Another pull request's comment, or another gate's.
        assert!(matches!(read(&b, "o/r#8/prod", key), Found::Ignored(_)));
        // A payload edited by one character.
        let at = b.find("\n<!--\n").unwrap() + 8;
        let mut edited = b.clone().into_bytes();
        edited[at] = if edited[at] == b'A' { b'B' } else { b'A' };
        let edited = String::from_utf8(edited).unwrap();
        assert!(matches!(
            read(&edited, "o/r#7/prod", key),
            Found::Ignored(_)
        ));
        // Without the key, or unsigned when a key is set, or under another key.
        assert!(matches!(read(&b, "o/r#7/prod", None), Found::Ignored(_)));
        let plain = block(&state(), "o/r#7/prod", None);
        assert!(matches!(read(&plain, "o/r#7/prod", key), Found::Ignored(_)));
        assert!(matches!(
            read(&b, "o/r#7/prod", Some(b"other")),
            Found::Ignored(_)
        ));
        assert_eq!(read("no state here", "s", None), Found::None);
    }

    #[test]
    fn the_hmac_is_rfc_4231s() {
        // RFC 4231 test case 2: key "Jefe", data "what do ya want for nothing?".
        use hmac::Mac;
        let mut mac = hmac::Hmac::<sha2::Sha256>::new_from_slice(b"Jefe").unwrap();
        mac.update(b"what do ya want for nothing?");
        assert_eq!(
            format!("{:x}", mac.finalize().into_bytes()),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        );
    }

    #[test]
    fn past_the_budget_the_oldest_results_go_first() {
        let mut s = state();
        // 2,500 values that do not compress: each attempt's results take about 27,000 characters.
        let noisy: Vec<f64> = (0..2500u64)
            .map(|i| (i.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 11) as f64 / (1u64 << 53) as f64)
            .collect();
        s.looks[0]
            .attempts
            .push(StoredAttempt::new(2, None, Verdict::Pass, &values(&noisy)));
        s.looks[0].attempts.push(StoredAttempt::new(
            3,
            None,
            Verdict::Pass,
            &values(&noisy.iter().map(|x| x / 2.0).collect::<Vec<_>>()),
        ));
        let b = block_within(&mut s, "s", None);
        assert!(b.len() <= BUDGET, "{}", b.len());
        let kept: Vec<bool> = s.looks[0]
            .attempts
            .iter()
            .map(|a| a.values.is_some())
            .collect();
        assert_eq!(kept, [false, false, true]);
    }
}

#[cfg(test)]
mod size {
    use super::*;

    /// Characters an attempt's results take in the state, per value.
    fn per_value(xs: &[f64]) -> f64 {
        let v = AttemptValues {
            ids: "i".into(),
            metrics: [("m".to_string(), vec![xs.to_vec()])].into(),
        };
        let a = StoredAttempt::new(1, None, Verdict::Pass, &v);
        a.values.unwrap().len() as f64 / xs.len() as f64
    }

    fn unit(i: u64) -> f64 {
        let z = i.wrapping_mul(0x9e37_79b9_7f4a_7c15);
        let z = (z ^ (z >> 29)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        (z >> 11) as f64 / (1u64 << 53) as f64
    }

    #[test]
    fn five_decimals_take_about_four_characters_a_value_full_doubles_about_twelve() {
        // Five decimals, as the shipped examples and most metric files write them.
        let short: Vec<f64> = (0..2000).map(|i| (unit(i) * 1e5).round() / 1e5).collect();
        let full: Vec<f64> = (0..2000).map(unit).collect();
        let (s, f) = (per_value(&short), per_value(&full));
        eprintln!("characters per value: five decimals {s:.2}, full doubles {f:.2}");
        assert!(s < 6.0, "{s}");
        assert!(f < 13.0, "{f}");
    }
}
