//! The sticky comment: find the comment whose body starts with this gate's marker, then edit it
//! if the body changed, leave it if identical, or create it when there is none. Two gates on one
//! PR have two ids, so two markers and two comments.

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

/// Picks the first (oldest) comment that starts with `marker`. GitHub may store line ends as
/// CRLF and trim the end, so bodies are compared with those differences ignored.
pub fn plan(comments: &[RawComment], marker: &str, body: &str) -> Plan {
    let found = comments.iter().find(|c| {
        c.body
            .as_deref()
            .is_some_and(|b| b.trim_start().starts_with(marker))
    });
    match found {
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
    let comments = client.list_comments(pr).await?;
    match plan(&comments, marker, body) {
        Plan::Keep(id) => Ok(Action::Unchanged(id)),
        Plan::Update(id) => client
            .update_comment(id, body)
            .await
            .map(|_| Action::Updated(id)),
        Plan::Create => client
            .create_comment(pr, body)
            .await
            .map(|c| Action::Created(c.id)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(id: u64, body: &str) -> RawComment {
        RawComment {
            id,
            body: Some(body.to_string()),
        }
    }

    const M: &str = "<!-- rag-gate:v1 id=prod -->";

    #[test]
    fn plans() {
        assert_eq!(
            plan(&[c(1, "hello")], M, "<!-- rag-gate:v1 id=prod -->\nA"),
            Plan::Create
        );
        let ours = c(2, "<!-- rag-gate:v1 id=prod -->\r\nA\r\n");
        assert_eq!(
            plan(
                &[c(1, "hi"), ours.clone()],
                M,
                "<!-- rag-gate:v1 id=prod -->\nA\n"
            ),
            Plan::Keep(2)
        );
        assert_eq!(
            plan(&[ours], M, "<!-- rag-gate:v1 id=prod -->\nB\n"),
            Plan::Update(2)
        );
    }

    #[test]
    fn another_gate_or_a_quote_of_the_marker_is_not_ours() {
        let other = c(3, "<!-- rag-gate:v1 id=prod-eu -->\nA");
        let quoted = c(4, "look: <!-- rag-gate:v1 id=prod -->");
        let empty = RawComment { id: 5, body: None };
        assert_eq!(plan(&[other, quoted, empty], M, "x"), Plan::Create);
    }

    #[test]
    fn the_oldest_of_two_markers_wins() {
        assert_eq!(plan(&[c(7, M), c(8, M)], M, "new"), Plan::Update(7));
    }
}
