//! The quarantine list (`[noise] quarantine = "flaky.toml"`): flaky queries kept in the report
//! but out of the gated comparisons, each with a reason, an owner and an expiry date:
//!
//! ```toml
//! [[query]]
//! id = "q17"
//! reason = "HNSW tie at rank 10 flips between builds"
//! owner = "alice"
//! expires = 2026-12-31      # a TOML date; the entry holds through that day
//! ```
//!
//! An entry past its date fails the check loudly (exit 2, naming the entry and the date), so a
//! quarantine never outlives its reason silently. "Today" comes from the caller (`--today`,
//! `RAG_GATE_TODAY`, else the UTC date of the clock); it never reaches a report.

use serde::{Deserialize, Serialize};
use toml::Spanned;

use crate::config::span::SourceText;
use crate::error::{Error, Result};
use crate::model::Date;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawList {
    #[serde(default)]
    query: Vec<Spanned<RawEntry>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawEntry {
    id: String,
    reason: String,
    owner: String,
    expires: toml::value::Datetime,
}

/// One quarantined query.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Entry {
    pub id: String,
    pub reason: String,
    pub owner: String,
    /// `YYYY-MM-DD`; the entry holds through that day.
    pub expires: String,
}

/// Parses the quarantine list and refuses an entry past its date (or a duplicate id).
pub fn parse(src: &SourceText, today: Date) -> Result<Vec<Entry>> {
    let raw: RawList = toml::from_str(&src.text).map_err(|e| src.error(e.span(), e.message()))?;
    let mut out: Vec<Entry> = Vec::new();
    for item in &raw.query {
        let span = Some(item.span());
        let e = item.get_ref();
        let at = |msg: String| src.error(span.clone(), msg);
        let expires = match (e.expires.date, e.expires.time) {
            (Some(d), None) => Date {
                year: i32::from(d.year),
                month: d.month,
                day: d.day,
            },
            _ => {
                return Err(at(format!(
                    "[[query]] {:?}: expires = {}: expected a date like 2026-12-31",
                    e.id, e.expires
                )))
            }
        };
        if expires < today {
            return Err(at(format!(
                "quarantine entry {:?} (owner {}, \"{}\") expired on {expires} (today is {today}): renew its `expires` or remove it",
                e.id, e.owner, e.reason
            )));
        }
        if out.iter().any(|o| o.id == e.id) {
            return Err(at(format!("[[query]] {:?} is listed twice", e.id)));
        }
        out.push(Entry {
            id: e.id.clone(),
            reason: e.reason.clone(),
            owner: e.owner.clone(),
            expires: expires.to_string(),
        });
    }
    out.sort_by(|a, b| a.id.cmp(&b.id));
    Ok(out)
}

/// Today's date for expiry checks: `given` (`--today` or `RAG_GATE_TODAY`), else the UTC date
/// of `now_days` (days since the epoch, from the clock).
pub fn today(given: Option<&str>, now_days: i64) -> std::result::Result<Date, Error> {
    match given {
        Some(v) => Date::parse(v).ok_or_else(|| {
            Error::Usage(format!(
                "--today / RAG_GATE_TODAY {v:?}: expected a date like 2026-12-01"
            ))
        }),
        None => Ok(Date::from_days(now_days)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn src(text: &str) -> SourceText {
        SourceText {
            shown: "flaky.toml".into(),
            text: text.into(),
        }
    }

    const LIST: &str = "[[query]]\nid = \"q2\"\nreason = \"tie at rank 10\"\nowner = \"alice\"\nexpires = 2026-12-01\n\n[[query]]\nid = \"q1\"\nreason = \"r\"\nowner = \"bob\"\nexpires = 2027-01-31\n";

    #[test]
    fn entries_hold_through_their_day_and_sort_by_id() {
        let today = Date::parse("2026-12-01").expect("date");
        let l = parse(&src(LIST), today).expect("valid on its last day");
        assert_eq!(
            l.iter().map(|e| e.id.as_str()).collect::<Vec<_>>(),
            ["q1", "q2"]
        );
        assert_eq!(l[1].expires, "2026-12-01");
    }

    #[test]
    fn an_expired_entry_names_itself_its_line_and_the_dates() {
        let today = Date::parse("2026-12-02").expect("date");
        let e = parse(&src(LIST), today)
            .expect_err("q2 expired")
            .to_string();
        assert!(e.contains("flaky.toml:1"), "{e}");
        assert!(
            e.contains("quarantine entry \"q2\" (owner alice, \"tie at rank 10\") expired on 2026-12-01 (today is 2026-12-02)"),
            "{e}"
        );
    }

    #[test]
    fn today_is_the_given_date_else_the_clock() {
        assert_eq!(
            today(Some("2026-01-02"), 0).expect("ok").to_string(),
            "2026-01-02"
        );
        assert_eq!(today(None, 20_788).expect("ok").to_string(), "2026-12-01");
        assert!(today(Some("tomorrow"), 0).is_err());
    }
}
