//! The sticky comment: find the comment that this gate's identity wrote and whose first line is
//! this gate's marker, then create, edit or leave it as the comment mode says. Two gates on one
//! PR have two ids, so two markers and two comments.
//!
//! Only comments written by the login the token posts as count (`GET /user`, or
//! `github-actions[bot]` for the Actions token): anyone can paste the marker into a comment of
//! their own, and rag-gate must neither edit nor trust it. A create that failed with an unknown
//! outcome (a 5xx, a dropped connection) is never blindly sent again: the comments are listed
//! first, and a comment GitHub stored after all is used instead of a second one.
//!
//! Modes (`--comment-mode`): `always` edits whenever the body changed; `on-change` leaves the
//! comment alone while the state digest in its marker (verdict and gated rows) and its hidden
//! state block (attempts, looks: `super::state`) are the same;
//! `on-failure` creates a comment only for a failing report but still edits an existing one,
//! so a PR that failed and now passes says so.

use super::args::CommentWhen;
use crate::forge::{Notes, RawComment};
use crate::report::markdown::parse_marker;

/// What the comment step did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    Created(u64),
    Updated(u64),
    /// The comment already shows this report.
    Unchanged(u64),
    /// `on-change`: same verdict and gated rows, so the comment was left as it was.
    SameState(u64),
    /// `on-failure`: the report passes and there is no comment to correct.
    Skipped,
}

/// What the comment step will do, given the PR's comments.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Plan {
    Create,
    Update(u64),
    Keep(u64),
    KeepSameState(u64),
    Skip,
}

/// The new comment: its body, the id and state digest in its marker, whether it fails.
pub struct Wanted<'a> {
    pub body: &'a str,
    pub id: &'a str,
    /// The id an older rag-gate keyed this gate's comment by (the bare gate id, before keys
    /// carried the gate file's path): such comments are collapsed, never edited.
    pub legacy_id: Option<&'a str>,
    pub state: &'a str,
    pub failing: bool,
}

/// A comment is ours: written by `author`, its first line a marker with gate id `id`.
pub fn is_ours(c: &RawComment, author: &str, id: &str) -> bool {
    c.login() == Some(author)
        && c.body
            .as_deref()
            .and_then(|b| b.trim_start().lines().next())
            .and_then(parse_marker)
            .is_some_and(|(found, _)| found == id)
}

/// The first (oldest) of our comments (see [`is_ours`]). GitHub may store line ends as CRLF
/// and trim the end, so bodies are compared with those differences ignored.
pub fn plan(author: &str, comments: &[RawComment], want: &Wanted<'_>, when: CommentWhen) -> Plan {
    let found = comments.iter().find_map(|c| {
        if c.login() != Some(author) {
            return None;
        }
        let body = c.body.as_deref()?;
        let first = body.trim_start().lines().next()?;
        let (id, state) = parse_marker(first)?;
        (id == want.id).then_some((c.id, body, state))
    });
    match (found, when) {
        (None, CommentWhen::OnFailure) if !want.failing => Plan::Skip,
        (None, _) => Plan::Create,
        (Some((id, body, _)), _) if normalize(body) == normalize(want.body) => Plan::Keep(id),
        // The hidden state (attempts, looks) must still be written when it changed.
        (Some((id, body, Some(state))), CommentWhen::OnChange)
            if state == want.state && same_hidden(body, want.body) =>
        {
            Plan::KeepSameState(id)
        }
        (Some((id, _, _)), _) => Plan::Update(id),
    }
}

/// The two bodies end with the same hidden state block (or neither has one).
fn same_hidden(a: &str, b: &str) -> bool {
    let hidden = |s: &str| normalize(&s[super::state::without(s).len()..]);
    hidden(a) == hidden(b)
}

fn normalize(s: &str) -> String {
    s.replace("\r\n", "\n").trim().to_string()
}

pub async fn upsert(
    client: &impl Notes,
    pr: u64,
    want: &Wanted<'_>,
    when: CommentWhen,
) -> Result<Action, String> {
    let me = client.identity().await?;
    let ours = |c: &RawComment| is_ours(c, &me, want.id);
    let legacy = |c: &RawComment| want.legacy_id.is_some_and(|l| is_ours(c, &me, l));
    let comments = client.list_comments(pr, &|c| ours(c) || legacy(c)).await?;
    let action = match plan(&me, &comments, want, when) {
        Plan::Skip => Action::Skipped,
        Plan::Keep(id) => Action::Unchanged(id),
        Plan::KeepSameState(id) => Action::SameState(id),
        Plan::Update(id) => update(client, id, want.body).await?,
        Plan::Create => create_once(client, pr, want.body, &ours).await?,
    };
    if let Action::Unchanged(id)
    | Action::SameState(id)
    | Action::Updated(id)
    | Action::Created(id) = action
    {
        collapse_duplicates(client, &comments, id).await?;
    }
    Ok(action)
}

/// Our other comments with this marker (a create that was stored twice, an old bug, a race)
/// are edited into a pointer to the kept one, without the marker: only one comment per gate
/// shows a verdict, so an older or newer duplicate ✅ can never be the one a reviewer reads.
async fn collapse_duplicates(
    client: &impl Notes,
    ours: &[RawComment],
    kept: u64,
) -> Result<(), String> {
    for c in ours.iter().filter(|c| c.id != kept) {
        let body = format!(
            "<!-- rag-gate:v1 superseded-by={kept} -->\n_This rag-gate comment was superseded by \
             [the current one](#issuecomment-{kept}); its verdict no longer holds._\n"
        );
        client.update_comment(c.id, &body).await?;
    }
    Ok(())
}

/// The first line of a stale comment's banner, after the marker.
pub const STALE: &str = "> [!WARNING]\n> **Stale verdict.**";

/// A run that stopped with an error (exit 2) marks this gate's comment stale: its verdict was
/// for an earlier commit and must not stand for the new one. The body keeps the old report
/// under a banner naming the commit and the error's first line; None when there is no comment.
pub async fn mark_stale(
    client: &impl Notes,
    pr: u64,
    id: &str,
    banner: &str,
) -> Result<Option<u64>, String> {
    let me = client.identity().await?;
    let ours = |c: &RawComment| is_ours(c, &me, id);
    let comments = client.list_comments(pr, &ours).await?;
    let Some(first) = comments.first() else {
        return Ok(None);
    };
    let body = stale_body(first.body.as_deref().unwrap_or(""), banner);
    if normalize(&body) != normalize(first.body.as_deref().unwrap_or("")) {
        client.update_comment(first.id, &body).await?;
    }
    collapse_duplicates(client, &comments, first.id).await?;
    Ok(Some(first.id))
}

/// `old` with its marker first, then `banner`, then the old report (an older banner dropped).
pub fn stale_body(old: &str, banner: &str) -> String {
    let old = old.trim_start();
    let (marker, rest) = old.split_once('\n').unwrap_or((old, ""));
    let rest = rest.trim_start_matches('\r');
    let report = match rest.strip_prefix(STALE) {
        // Drop the earlier banner: everything up to its blank line.
        Some(after) => after.split_once("\n\n").map_or("", |(_, r)| r),
        None => rest,
    };
    // The state digest becomes `stale`, so `--comment-mode on-change` edits it on the next run.
    let marker: String = marker
        .trim_end()
        .split(' ')
        .map(|t| {
            if t.starts_with("state=") {
                "state=stale"
            } else {
                t
            }
        })
        .collect::<Vec<_>>()
        .join(" ");
    format!("{marker}\n{STALE} {banner}\n\n{report}")
}

async fn update(client: &impl Notes, id: u64, body: &str) -> Result<Action, String> {
    client
        .update_comment(id, body)
        .await
        .map(|_| Action::Updated(id))
}

/// Creates the comment; after a failure with an unknown outcome, lists again and posts again
/// only when GitHub did not store the first one.
async fn create_once(
    client: &impl Notes,
    pr: u64,
    body: &str,
    ours: &dyn Fn(&RawComment) -> bool,
) -> Result<Action, String> {
    let mut left = client.retries();
    loop {
        match client.create_comment(pr, body).await {
            Ok(c) => return Ok(Action::Created(c.id)),
            Err(f) if f.unknown && left > 0 => {
                left -= 1;
                let stored = client.list_comments(pr, ours).await?;
                if let Some(c) = stored.first() {
                    if normalize(c.body.as_deref().unwrap_or("")) == normalize(body) {
                        return Ok(Action::Created(c.id));
                    }
                    return update(client, c.id, body).await;
                }
            }
            Err(f) => return Err(f.msg),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const BOT: &str = "github-actions[bot]";

    fn by(id: u64, login: &str, body: &str) -> RawComment {
        RawComment {
            id,
            body: Some(body.to_string()),
            user: Some(crate::forge::Author {
                login: login.to_string(),
            }),
        }
    }

    fn c(id: u64, body: &str) -> RawComment {
        by(id, BOT, body)
    }

    const M: &str = "<!-- rag-gate:v1 id=prod state=aaaa -->";

    fn want(body: &str) -> Wanted<'_> {
        Wanted {
            body,
            id: "prod",
            legacy_id: None,
            state: "aaaa",
            failing: true,
        }
    }

    #[test]
    fn plans() {
        let always = CommentWhen::Always;
        let body = format!("{M}\nA\n");
        assert_eq!(
            plan(BOT, &[c(1, "hello")], &want(&body), always),
            Plan::Create
        );
        let ours = c(2, &format!("{M}\r\nA\r\n"));
        assert_eq!(
            plan(BOT, &[c(1, "hi"), ours.clone()], &want(&body), always),
            Plan::Keep(2)
        );
        assert_eq!(
            plan(BOT, &[ours], &want(&format!("{M}\nB\n")), always),
            Plan::Update(2)
        );
    }

    #[test]
    fn an_older_marker_without_state_is_still_ours() {
        let old = c(4, "<!-- rag-gate:v1 id=prod -->\nold");
        assert_eq!(
            plan(BOT, &[old], &want("new"), CommentWhen::OnChange),
            Plan::Update(4)
        );
    }

    #[test]
    fn on_change_keeps_a_comment_with_the_same_state() {
        let ours = c(2, &format!("{M}\nold figures"));
        let new = format!("{M}\nnew figures");
        assert_eq!(
            plan(BOT, &[ours], &want(&new), CommentWhen::OnChange),
            Plan::KeepSameState(2)
        );
        let other = "<!-- rag-gate:v1 id=prod state=bbbb -->\nx";
        assert_eq!(
            plan(BOT, &[c(2, other)], &want(&new), CommentWhen::OnChange),
            Plan::Update(2)
        );
    }

    #[test]
    fn on_change_still_writes_a_changed_hidden_state() {
        let s = crate::publish::state::State::default();
        let block = |scope: &str| crate::publish::state::block(&s, scope, None);
        let old = c(2, &format!("{M}\nold figures\n\n{}", block("a")));
        let same = format!("{M}\nnew figures\n\n{}", block("a"));
        let other = format!("{M}\nnew figures\n\n{}", block("b"));
        let when = CommentWhen::OnChange;
        assert_eq!(
            plan(BOT, std::slice::from_ref(&old), &want(&same), when),
            Plan::KeepSameState(2)
        );
        assert_eq!(plan(BOT, &[old], &want(&other), when), Plan::Update(2));
    }

    #[test]
    fn on_failure_skips_a_pass_without_a_comment_but_corrects_one() {
        let pass = Wanted {
            failing: false,
            ..want("pass")
        };
        assert_eq!(plan(BOT, &[], &pass, CommentWhen::OnFailure), Plan::Skip);
        assert_eq!(
            plan(BOT, &[c(3, M)], &pass, CommentWhen::OnFailure),
            Plan::Update(3)
        );
        assert_eq!(
            plan(BOT, &[], &want("x"), CommentWhen::OnFailure),
            Plan::Create
        );
    }

    #[test]
    fn another_gate_or_a_quote_of_the_marker_is_not_ours() {
        let other = c(3, "<!-- rag-gate:v1 id=prod-eu state=aaaa -->\nA");
        let quoted = c(4, "look: <!-- rag-gate:v1 id=prod -->");
        let empty = RawComment {
            id: 5,
            body: None,
            user: None,
        };
        assert_eq!(
            plan(
                BOT,
                &[other, quoted, empty],
                &want("x"),
                CommentWhen::Always
            ),
            Plan::Create
        );
    }

    #[test]
    fn a_marker_planted_by_someone_else_is_not_ours() {
        let fake = by(3, "mallory", &format!("{M}\nPASS"));
        let unknown = RawComment {
            user: None,
            ..c(4, M)
        };
        let always = CommentWhen::Always;
        assert_eq!(
            plan(BOT, &[fake.clone(), unknown], &want("x"), always),
            Plan::Create
        );
        assert_eq!(
            plan(BOT, &[fake, c(9, M)], &want("x"), always),
            Plan::Update(9)
        );
    }

    #[test]
    fn a_stale_banner_goes_under_the_marker_once() {
        let old = format!("{M}\n## ✅ pass\nrows\n");
        let m = "<!-- rag-gate:v1 id=prod state=stale -->";
        let once = stale_body(&old, "the run on abc stopped");
        assert_eq!(
            once,
            format!("{m}\n{STALE} the run on abc stopped\n\n## ✅ pass\nrows\n")
        );
        let twice = stale_body(&once, "the run on def stopped");
        assert_eq!(
            twice,
            format!("{m}\n{STALE} the run on def stopped\n\n## ✅ pass\nrows\n")
        );
        // Still ours after the edit, and never "the same state": the next run replaces it.
        assert_eq!(
            plan(BOT, &[c(3, &twice)], &want("new"), CommentWhen::OnChange),
            Plan::Update(3)
        );
    }

    #[test]
    fn the_oldest_of_two_markers_wins() {
        assert_eq!(
            plan(BOT, &[c(7, M), c(8, M)], &want("new"), CommentWhen::Always),
            Plan::Update(7)
        );
    }
}
