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

/// A calendar date; orders as dates do.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Date {
    pub year: i32,
    pub month: u8,
    pub day: u8,
}

impl std::fmt::Display for Date {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:04}-{:02}-{:02}", self.year, self.month, self.day)
    }
}

impl Date {
    /// Parses `YYYY-MM-DD` (a real calendar date).
    pub fn parse(s: &str) -> Option<Date> {
        let mut it = s.splitn(3, '-');
        let (y, m, d) = (it.next()?, it.next()?, it.next()?);
        if y.len() != 4 || m.len() != 2 || d.len() != 2 {
            return None;
        }
        let date = Date {
            year: y.parse().ok()?,
            month: m.parse().ok()?,
            day: d.parse().ok()?,
        };
        date.is_valid().then_some(date)
    }

    fn is_valid(&self) -> bool {
        let leap = (self.year % 4 == 0 && self.year % 100 != 0) || self.year % 400 == 0;
        let days = match self.month {
            1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
            4 | 6 | 9 | 11 => 30,
            2 if leap => 29,
            2 => 28,
            _ => return false,
        };
        (1..=days).contains(&self.day)
    }

    /// Days since 1970-01-01 (Hinnant, days_from_civil; the inverse of [`Date::from_days`]).
    pub fn days(&self) -> i64 {
        let y = i64::from(self.year) - i64::from(self.month <= 2);
        let era = y.div_euclid(400);
        let yoe = y.rem_euclid(400);
        let m = i64::from(self.month);
        let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + i64::from(self.day) - 1;
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
        era * 146_097 + doe - 719_468
    }

    /// The civil date of `days` since 1970-01-01 (Hinnant, "chrono-Compatible Low-Level Date
    /// Algorithms", civil_from_days).
    pub fn from_days(days: i64) -> Date {
        let z = days + 719_468;
        let era = z.div_euclid(146_097);
        let doe = z.rem_euclid(146_097);
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        let mp = (5 * doy + 2) / 153;
        let day = (doy - (153 * mp + 2) / 5 + 1) as u8;
        let month = if mp < 10 { mp + 3 } else { mp - 9 } as u8;
        let year = (yoe + era * 400 + i64::from(month <= 2)) as i32;
        Date { year, month, day }
    }
}

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
    fn dates_from_days_match_known_dates() {
        assert_eq!(Date::from_days(0).to_string(), "1970-01-01");
        for d in [-800_000, -1, 0, 59, 60, 20_788, 2_932_896] {
            assert_eq!(Date::from_days(d).days(), d);
        }
        // 2026-12-01 is day 20,788 (Python: date(2026,12,1) - date(1970,1,1)).
        assert_eq!(Date::from_days(20_788).to_string(), "2026-12-01");
        assert_eq!(Date::from_days(11_016).to_string(), "2000-02-29");
        assert_eq!(Date::parse("2026-02-29"), None);
        assert_eq!(Date::parse("2026-2-01"), None);
    }

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
