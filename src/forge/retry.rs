//! When a request to GitHub or GitLab is sent again, and after how long. Worth another try: a
//! transport error, a 5xx, a 429, and a 403 that carries `Retry-After` (GitHub's secondary rate
//! limit). The wait is what the server asks for when it says — `Retry-After` in seconds or as an
//! HTTP date, or, when the token's rate limit is used up, the limit's reset time
//! (`x-ratelimit-reset` on GitHub, `ratelimit-reset` on GitLab, seconds since the epoch) — and
//! otherwise exponential backoff: [`Policy::base`] doubled per retry, at most [`Policy::cap`]
//! (no jitter: one CI job sends a handful of requests, not a thundering herd). The waits of
//! one request add up to at most [`Policy::budget`]: a server asking for longer is not waited
//! for, and a used-up rate limit whose reset is not known, or already past by our clock, is
//! not retried at all. Pure: the caller reads the clock and sleeps.

use std::time::Duration;

/// What an answer says that the decision reads (`None` in [`next`]: no answer, a transport
/// error).
#[derive(Debug, Clone, Copy, Default)]
pub struct Answer<'a> {
    pub status: u16,
    /// The `Retry-After` header.
    pub retry_after: Option<&'a str>,
    /// The reset header of a used-up rate limit (seconds since the epoch), when it is used up.
    pub rate_limited: Option<&'a str>,
}

/// How often and how long a request is retried.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Policy {
    /// Retries after the first attempt (so at most `retries + 1` attempts).
    pub retries: usize,
    /// The first backoff; each further retry doubles it.
    pub base: Duration,
    /// The longest backoff.
    pub cap: Duration,
    /// The most one request waits in all.
    pub budget: Duration,
}

impl Policy {
    /// The waits used in CI: 1 s, 2 s, 4 s … at most 16 s each, at most 60 s for one request.
    pub fn with_retries(retries: usize) -> Self {
        Policy {
            retries,
            base: Duration::from_secs(1),
            cap: Duration::from_secs(16),
            budget: Duration::from_secs(60),
        }
    }

    /// The backoff before retry number `n` (0 for the first): `base · 2ⁿ`, at most `cap`.
    pub fn backoff(&self, n: usize) -> Duration {
        let factor = 1u32.checked_shl(n.min(31) as u32).unwrap_or(u32::MAX);
        self.base.saturating_mul(factor).min(self.cap)
    }
}

/// What to do after an attempt.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Next {
    /// The answer stands (success, a refusal, or no retry left).
    Stop,
    /// Wait this long, then send again; `why` says where the wait came from, for the status
    /// line ("Retry-After", "the rate limit resets", "backoff").
    Wait { wait: Duration, why: &'static str },
    /// The server asks for a longer wait than the budget has left: the answer stands, and
    /// `asked` says how long the server wanted.
    TooLong { asked: Duration, why: &'static str },
}

/// After attempt `done` (1 for the first) of a request that has already waited `waited`,
/// with `reply` its answer (`None`: a transport error) and `now` the seconds since the epoch.
pub fn next(
    p: &Policy,
    (done, waited): (usize, Duration),
    reply: Option<Answer>,
    now: u64,
) -> Next {
    if done > p.retries {
        return Next::Stop;
    }
    let (wait, why) = match reply {
        None => (p.backoff(done - 1), "backoff"),
        Some(r) => match asked(&r, now) {
            Asked::Nothing if r.status >= 500 || r.status == 429 => {
                (p.backoff(done - 1), "backoff")
            }
            Asked::Nothing | Asked::NotRetried => return Next::Stop,
            Asked::Wait(w, why) => (w, why),
        },
    };
    if waited.saturating_add(wait) > p.budget {
        return Next::TooLong { asked: wait, why };
    }
    Next::Wait { wait, why }
}

/// What an answer asks of us.
enum Asked {
    /// Nothing: the status alone decides.
    Nothing,
    /// The rate limit is used up and its reset unknown or past: not retried.
    NotRetried,
    Wait(Duration, &'static str),
}

fn asked(r: &Answer, now: u64) -> Asked {
    if let Some(w) = r.retry_after.and_then(|v| retry_after(v, now)) {
        if r.status >= 500 || matches!(r.status, 403 | 429) {
            return Asked::Wait(w, "Retry-After");
        }
    }
    if let Some(reset) = r.rate_limited {
        return match reset.trim().parse::<u64>() {
            // One second past the reset: the server's clock and ours may disagree a little.
            Ok(at) if at >= now => {
                Asked::Wait(Duration::from_secs(at - now + 1), "rate limit reset")
            }
            _ => Asked::NotRetried,
        };
    }
    Asked::Nothing
}

/// `Retry-After`: seconds, or an HTTP date (the wait is from `now`; a date past is no wait).
pub fn retry_after(value: &str, now: u64) -> Option<Duration> {
    let value = value.trim();
    if let Ok(secs) = value.parse::<u64>() {
        return Some(Duration::from_secs(secs));
    }
    let at = httpdate::parse_http_date(value).ok()?;
    let at = at.duration_since(std::time::UNIX_EPOCH).ok()?.as_secs();
    Some(Duration::from_secs(at.saturating_sub(now)))
}

#[cfg(test)]
mod tests {
    use super::*;

    const NOW: u64 = 1_800_000_000;

    fn reply<'a>(
        status: u16,
        retry_after: Option<&'a str>,
        rate_limited: Option<&'a str>,
    ) -> Option<Answer<'a>> {
        Some(Answer {
            status,
            retry_after,
            rate_limited,
        })
    }

    fn secs(s: u64) -> Duration {
        Duration::from_secs(s)
    }

    #[test]
    fn backoff_doubles_up_to_the_cap() {
        let p = Policy::with_retries(10);
        let waits: Vec<u64> = (0..7).map(|n| p.backoff(n).as_secs()).collect();
        assert_eq!(waits, [1, 2, 4, 8, 16, 16, 16]);
        assert_eq!(p.backoff(usize::MAX), secs(16));
    }

    #[test]
    fn server_errors_and_transport_errors_back_off() {
        let p = Policy::with_retries(3);
        let e502 = reply(502, None, None);
        let backoff = |w| Next::Wait {
            wait: secs(w),
            why: "backoff",
        };
        assert_eq!(next(&p, (1, secs(0)), e502, NOW), backoff(1));
        assert_eq!(next(&p, (2, secs(1)), e502, NOW), backoff(2));
        assert_eq!(next(&p, (3, secs(3)), None, NOW), backoff(4));
        assert_eq!(
            next(&p, (4, secs(7)), e502, NOW),
            Next::Stop,
            "no retry left"
        );
    }

    #[test]
    fn answers_that_stand_are_not_retried() {
        let p = Policy::with_retries(3);
        for status in [200, 201, 301, 404, 422] {
            assert_eq!(
                next(&p, (1, secs(0)), reply(status, None, None), NOW),
                Next::Stop
            );
        }
        // A plain 403 is a refusal; a 403 with Retry-After is GitHub's secondary rate limit.
        assert_eq!(
            next(&p, (1, secs(0)), reply(403, None, None), NOW),
            Next::Stop
        );
        assert_eq!(
            next(&p, (1, secs(0)), reply(403, Some("7"), None), NOW),
            Next::Wait {
                wait: secs(7),
                why: "Retry-After"
            }
        );
        // Retry-After on a success or a plain refusal asks nothing.
        assert_eq!(
            next(&p, (1, secs(0)), reply(404, Some("7"), None), NOW),
            Next::Stop
        );
    }

    #[test]
    fn retry_after_is_honoured_in_seconds_and_as_a_date() {
        let p = Policy::with_retries(2);
        assert_eq!(
            next(&p, (1, secs(0)), reply(429, Some("30"), None), NOW),
            Next::Wait {
                wait: secs(30),
                why: "Retry-After"
            }
        );
        // 1_800_000_000 is Fri, 15 Jan 2027 08:00:00 GMT.
        let date = "Fri, 15 Jan 2027 08:00:09 GMT";
        assert_eq!(retry_after(date, NOW), Some(secs(9)));
        assert_eq!(
            retry_after("Fri, 15 Jan 2027 07:00:00 GMT", NOW),
            Some(secs(0))
        );
        assert_eq!(retry_after("soon", NOW), None);
        assert_eq!(
            next(&p, (1, secs(0)), reply(503, Some(date), None), NOW),
            Next::Wait {
                wait: secs(9),
                why: "Retry-After"
            }
        );
    }

    #[test]
    fn the_budget_bounds_the_total_wait() {
        let p = Policy::with_retries(5);
        assert_eq!(
            next(&p, (1, secs(0)), reply(429, Some("3600"), None), NOW),
            Next::TooLong {
                asked: secs(3600),
                why: "Retry-After"
            }
        );
        assert_eq!(
            next(&p, (2, secs(50)), reply(429, Some("11"), None), NOW),
            Next::TooLong {
                asked: secs(11),
                why: "Retry-After"
            }
        );
        assert_eq!(
            next(&p, (2, secs(50)), reply(429, Some("10"), None), NOW),
            Next::Wait {
                wait: secs(10),
                why: "Retry-After"
            }
        );
    }

    #[test]
    fn a_used_up_rate_limit_waits_for_its_reset_only_when_it_is_near() {
        let p = Policy::with_retries(2);
        let reset = (NOW + 20).to_string();
        assert_eq!(
            next(&p, (1, secs(0)), reply(403, None, Some(&reset)), NOW),
            Next::Wait {
                wait: secs(21),
                why: "rate limit reset"
            }
        );
        let far = (NOW + 3000).to_string();
        assert_eq!(
            next(&p, (1, secs(0)), reply(403, None, Some(&far)), NOW),
            Next::TooLong {
                asked: secs(3001),
                why: "rate limit reset"
            }
        );
        for past_or_unknown in [(NOW - 5).to_string(), String::new()] {
            let r = reply(429, None, Some(&past_or_unknown));
            assert_eq!(next(&p, (1, secs(0)), r, NOW), Next::Stop);
        }
    }
}
