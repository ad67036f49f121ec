//! A calendar date (`YYYY-MM-DD`), with day arithmetic: the quarantine list's expiry dates and
//! the "today" a check compares them with. Pure: no clock is read here.

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

#[cfg(test)]
mod tests {
    use super::*;

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
}
