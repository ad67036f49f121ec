//! Reading the committed scipy reference files (`tests/data/stats/scipy_*.json`, made by
//! `calibration/scipy_*.py`): each case's paired data and, for the group unit, its dense group
//! index per query.

use serde_json::Value;

/// A reference file: scipy's resample count, the confidence and the cases.
pub struct Reference {
    pub resamples: f64,
    pub confidence: f64,
    pub cases: Vec<Case>,
}

/// One case: its name, the paired values, their deltas (candidate − baseline), the group index
/// per query (None for the query unit) and the raw JSON (for the method's expected bounds).
pub struct Case {
    pub name: String,
    pub base: Vec<f64>,
    pub cand: Vec<f64>,
    pub deltas: Vec<f64>,
    pub group_of: Option<Vec<u32>>,
    pub json: Value,
}

impl Case {
    /// The group index and number of groups, as `estimate::Input::groups` takes them.
    pub fn groups(&self) -> Option<(&[u32], usize)> {
        self.group_of
            .as_ref()
            .map(|g| (g.as_slice(), *g.iter().max().unwrap() as usize + 1))
    }

    /// The floats under `key` (e.g. a method's expected `[low, high]`).
    pub fn floats(&self, key: &str) -> Vec<f64> {
        floats(&self.json[key])
    }
}

pub fn floats(v: &Value) -> Vec<f64> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect()
}

/// Parses a reference file's text.
pub fn reference(text: &str) -> Reference {
    let refs: Value = serde_json::from_str(text).unwrap();
    let cases = refs["cases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|case| {
            let base = floats(&case["baseline"]);
            let cand = floats(&case["candidate"]);
            let deltas = cand.iter().zip(&base).map(|(c, b)| c - b).collect();
            Case {
                name: case["name"].as_str().unwrap().to_string(),
                base,
                cand,
                deltas,
                group_of: case["group_of"]
                    .as_array()
                    .map(|g| g.iter().map(|x| x.as_u64().unwrap() as u32).collect()),
                json: case.clone(),
            }
        })
        .collect();
    Reference {
        resamples: refs["resamples"].as_f64().unwrap(),
        confidence: refs["confidence"].as_f64().unwrap(),
        cases,
    }
}
