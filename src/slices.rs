//! Slices: named subsets of the paired queries. `all` is every query; `[slices] by = ["domain"]`
//! adds `domain=<value>` for every value seen; `critical` names slices that gates apply to.
//! Order: `all` first, then by name (byte order).

use std::collections::BTreeMap;

use crate::config::Config;
use crate::error::{quoted, Result};
use crate::pair::Paired;
use crate::safe_text;

#[derive(Debug, Clone, PartialEq)]
pub struct Slice {
    /// `all` or `tag=value`.
    pub name: String,
    /// Member query indices into `Paired::ids`, ascending.
    pub members: Vec<u32>,
    pub critical: bool,
}

pub fn build(cfg: &Config, paired: &Paired) -> Result<Vec<Slice>> {
    for (tag, span) in &cfg.slices.by {
        if !paired.tags.contains_key(tag) {
            return Err(cfg.error_at(
                span,
                format!(
                    "[slices] by: no query has the tag {} (tags seen: {})",
                    quoted(tag),
                    tag_list(paired)
                ),
            ));
        }
    }
    for (name, span) in &cfg.slices.critical {
        let (tag, value) = name.split_once('=').unwrap_or((name, ""));
        let Some(values) = paired.tags.get(tag) else {
            return Err(cfg.error_at(
                span,
                format!(
                    "critical slice {}: no query has the tag {} (tags seen: {})",
                    quoted(name),
                    quoted(tag),
                    tag_list(paired)
                ),
            ));
        };
        if !values.contains_key(value) {
            let seen: Vec<&str> = values.keys().map(String::as_str).take(11).collect();
            return Err(cfg.error_at(
                span,
                format!(
                    "critical slice {}: no query has {} (values seen: {})",
                    quoted(name),
                    quoted(&format!("{tag}={value}")),
                    names(&seen, 10)
                ),
            ));
        }
    }
    Ok(build_present(cfg, paired))
}

/// The slices `build` makes, leaving out (instead of refusing) a critical slice these queries do
/// not hold: a shard's slices (`rag-gate partial`; the merge checks the whole).
pub fn build_present(cfg: &Config, paired: &Paired) -> Vec<Slice> {
    let mut named: BTreeMap<String, Slice> = BTreeMap::new();
    for (tag, _) in &cfg.slices.by {
        for (value, members) in paired.tags.get(tag).into_iter().flatten() {
            let name = format!("{tag}={value}");
            let slice = Slice {
                name: name.clone(),
                members: members.clone(),
                critical: false,
            };
            named.insert(name, slice);
        }
    }
    for (name, _) in &cfg.slices.critical {
        let (tag, value) = name.split_once('=').unwrap_or((name, ""));
        let Some(members) = paired.tags.get(tag).and_then(|v| v.get(value)) else {
            continue;
        };
        named
            .entry(name.clone())
            .or_insert_with(|| Slice {
                name: name.clone(),
                members: members.clone(),
                critical: true,
            })
            .critical = true;
    }
    let mut out = vec![Slice {
        name: "all".into(),
        members: (0..paired.ids.len() as u32).collect(),
        critical: false,
    }];
    out.extend(named.into_values());
    out
}

fn tag_list(p: &Paired) -> String {
    if p.tags.is_empty() {
        "none; tags come from \"slices\" in the metric files or the queries file".into()
    } else {
        let tags: Vec<&str> = p.tags.keys().map(String::as_str).take(11).collect();
        names(&tags, 10)
    }
}

/// The first `shown` names, each made safe and cut, then "and more" when there are more.
fn names(list: &[&str], shown: usize) -> String {
    let mut out: Vec<String> = list
        .iter()
        .take(shown)
        .map(|s| safe_text::shown(s))
        .collect();
    if list.len() > shown {
        out.push("and more".into());
    }
    out.join(", ")
}
