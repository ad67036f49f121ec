//! The sticky comment: find the comment that this gate's identity wrote and whose body starts
//! with this gate's marker, then edit it if the body changed, leave it if identical, or create
//! it when there is none. Two gates on one PR have two ids, so two markers and two comments.
//!
//! Only comments written by the login the token posts as count (`GET /user`, or
//! `github-actions[bot]` for the Actions token): anyone can paste the marker into a comment of
//! their own, and rag-gate must neither edit nor trust it. A create that failed with an unknown
//! outcome (a 5xx, a dropped connection) is never blindly sent again: the comments are listed
//! first, and a comment GitHub stored after all is used instead of a second one.

use super::client::{Client, RawComment};

/// What the comment step did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    Created(u64),
    Updated(u64),
    Unchanged(u64),
}

/// What the comment step will do, given the PR's comments.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Plan {
    Create,
    Update(u64),
    Keep(u64),
}

/// A comment is ours: written by `author` and starting with `marker`.
pub fn is_ours(c: &RawComment, author: &str, marker: &str) -> bool {
    c.login() == Some(author)
        && c.body
            .as_deref()
            .is_some_and(|b| b.trim_start().starts_with(marker))
}

/// Picks the first (oldest) of our comments (see [`is_ours`]). GitHub may store line ends as
/// CRLF and trim the end, so bodies are compared with those differences ignored.
pub fn plan(comments: &[RawComment], author: &str, marker: &str, body: &str) -> Plan {
    match comments.iter().find(|c| is_ours(c, author, marker)) {
        None => Plan::Create,
        Some(c) if normalize(c.body.as_deref().unwrap_or("")) == normalize(body) => {
            Plan::Keep(c.id)
        }
        Some(c) => Plan::Update(c.id),
    }
}

fn normalize(s: &str) -> String {
    s.replace("\r\n", "\n").trim().to_string()
}

pub async fn upsert(client: &Client, pr: u64, marker: &str, body: &str) -> Result<Action, String> {
    let me = client.identity().await?;
    let ours = |c: &RawComment| is_ours(c, &me, marker);
    let comments = client.list_comments(pr, &ours).await?;
    match plan(&comments, &me, marker, body) {
        Plan::Keep(id) => Ok(Action::Unchanged(id)),
        Plan::Update(id) => update(client, id, body).await,
        Plan::Create => create_once(client, pr, body, &ours).await,
    }
}

async fn update(client: &Client, id: u64, body: &str) -> Result<Action, String> {
    client
        .update_comment(id, body)
        .await
        .map(|_| Action::Updated(id))
}

/// Creates the comment; after a failure with an unknown outcome, lists again and posts again
/// only when GitHub did not store the first one.
async fn create_once(
    client: &Client,
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
            user: Some(super::super::client::Author {
                login: login.to_string(),
            }),
        }
    }

    fn c(id: u64, body: &str) -> RawComment {
        by(id, BOT, body)
    }

    const M: &str = "<!-- rag-gate:v1 id=prod -->";

    #[test]
    fn plans() {
        assert_eq!(
            plan(&[c(1, "hello")], BOT, M, "<!-- rag-gate:v1 id=prod -->\nA"),
            Plan::Create
        );
        let ours = c(2, "<!-- rag-gate:v1 id=prod -->\r\nA\r\n");
        assert_eq!(
            plan(
                &[c(1, "hi"), ours.clone()],
                BOT,
                M,
                "<!-- rag-gate:v1 id=prod -->\nA\n"
            ),
            Plan::Keep(2)
        );
        assert_eq!(
            plan(&[ours], BOT, M, "<!-- rag-gate:v1 id=prod -->\nB\n"),
            Plan::Update(2)
        );
    }

    #[test]
    fn another_gate_or_a_quote_of_the_marker_is_not_ours() {
        let other = c(3, "<!-- rag-gate:v1 id=prod-eu -->\nA");
        let quoted = c(4, "look: <!-- rag-gate:v1 id=prod -->");
        let empty = RawComment {
            id: 5,
            body: None,
            user: None,
        };
        assert_eq!(plan(&[other, quoted, empty], BOT, M, "x"), Plan::Create);
    }

    #[test]
    fn the_oldest_of_two_markers_wins() {
        assert_eq!(plan(&[c(7, M), c(8, M)], BOT, M, "new"), Plan::Update(7));
    }

    #[test]
    fn a_marker_planted_by_someone_else_is_not_ours() {
        let fake = by(3, "mallory", &format!("{M}\nPASS"));
        let unknown = RawComment {
            user: None,
            ..c(4, M)
        };
        assert_eq!(plan(&[fake.clone(), unknown], BOT, M, "x"), Plan::Create);
        assert_eq!(plan(&[fake, c(9, M)], BOT, M, "x"), Plan::Update(9));
    }
}
