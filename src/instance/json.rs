//! The JSON instance format of DESIGN.md §3: reading (strict: unknown keys
//! are errors) and writing.

use serde::{Deserialize, Serialize};

use super::{Instance, Pos, Start, TailRule};

/// `visible` is a count or the word `"all"`.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(untagged)]
enum Visible {
    Count(usize),
    All(AllWord),
}

#[derive(Clone, Debug, Deserialize, Serialize)]
enum AllWord {
    #[serde(rename = "all")]
    All,
}

#[derive(Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
struct RawInstance {
    width: usize,
    height: usize,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    walls: Vec<Pos>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    snake: Option<Vec<Pos>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    length: Option<usize>,
    apples: Vec<Pos>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    visible: Option<Visible>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    grow: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    tail: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    horizon: Option<usize>,
}

/// Parses and validates a JSON instance. Errors are one line.
pub fn from_json(text: &str) -> anyhow::Result<Instance> {
    if text.trim().is_empty() {
        anyhow::bail!("instance is empty");
    }
    let raw: RawInstance =
        serde_json::from_str(text).map_err(|e| anyhow::anyhow!("invalid instance JSON: {e}"))?;
    let start = match (raw.snake, raw.length) {
        (Some(_), Some(_)) => {
            anyhow::bail!("`snake` and `length` exclude each other (`length` means a free start)")
        }
        (Some(body), None) => Start::Body(body),
        (None, Some(length)) => Start::Free { length },
        (None, None) => Start::Free { length: 1 },
    };
    let tail = match raw.tail.as_deref() {
        None | Some("follow") => TailRule::Follow,
        Some("strict") => TailRule::Strict,
        Some(other) => {
            anyhow::bail!("unknown tail rule {other:?} (expected \"follow\" or \"strict\")")
        }
    };
    let visible = match raw.visible {
        None | Some(Visible::All(_)) => raw.apples.len(),
        Some(Visible::Count(v)) => v,
    };
    let instance = Instance {
        width: raw.width,
        height: raw.height,
        walls: raw.walls,
        start,
        apples: raw.apples,
        visible,
        grow: raw.grow.unwrap_or(true),
        tail,
        horizon: raw.horizon,
    };
    instance.validate()?;
    Ok(instance)
}

/// Writes an instance as compact JSON (one line), every rule explicit.
pub fn to_json(instance: &Instance) -> String {
    let (snake, length) = match &instance.start {
        Start::Body(body) => (Some(body.clone()), None),
        Start::Free { length } => (None, Some(*length)),
    };
    let raw = RawInstance {
        width: instance.width,
        height: instance.height,
        walls: instance.walls.clone(),
        snake,
        length,
        apples: instance.apples.clone(),
        visible: Some(Visible::Count(instance.visible)),
        grow: Some(instance.grow),
        tail: Some(instance.tail.name().to_string()),
        horizon: instance.horizon,
    };
    serde_json::to_string(&raw).expect("instance serialises")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_design_example() {
        let text = r#"{ "width": 5, "height": 5, "walls": [[2, 2]], "snake": [[4, 0], [3, 0]],
            "apples": [[0, 4], [3, 1], [1, 3]], "visible": 1, "grow": true, "tail": "follow", "horizon": 20 }"#;
        let i = from_json(text).unwrap();
        assert_eq!(i.start, Start::Body(vec![(4, 0), (3, 0)]));
        assert_eq!(i.visible, 1);
        assert_eq!(i.horizon, Some(20));
        let again = from_json(&to_json(&i)).unwrap();
        assert_eq!(again, i);
    }

    #[test]
    fn visible_all_and_defaults() {
        let i = from_json(
            r#"{"width":3,"height":2,"length":2,"apples":[[0,0],[2,1]],"visible":"all"}"#,
        )
        .unwrap();
        assert_eq!(i.visible, 2);
        assert!(i.grow);
        assert_eq!(i.tail, TailRule::Follow);
    }

    #[test]
    fn unknown_key_is_an_error() {
        let e = from_json(r#"{"width":3,"height":2,"apples":[],"colour":1}"#).unwrap_err();
        assert!(e.to_string().contains("unknown field `colour`"), "{e}");
    }
}
