//! The JSON instance format of docs/DESIGN.md §3: reading (strict: unknown keys
//! are errors) and writing.

use serde::{Deserialize, Serialize};
use thiserror::Error;

use super::{Instance, InstanceError, MAX_APPLES, MAX_SIDE, Pos, Start, TailRule};
use crate::excerpt::{excerpt, json_message};

/// Why a JSON instance could not be read.
#[derive(Debug, Error, PartialEq, Eq)]
#[non_exhaustive]
pub enum JsonError {
    /// The input is empty or only whitespace.
    #[error("instance is empty")]
    Empty,
    /// The input is JSON but not an object (an array, a number, …).
    #[error("an instance is a JSON object, {{\"width\": …, \"height\": …, \"apples\": […], …}}")]
    NotObject,
    /// Not JSON, or not the shape of an instance; `message` is serde's, cut short.
    #[error("invalid instance JSON at line {line} column {column}: {message}")]
    Syntax {
        /// Line of the error, from 1.
        line: usize,
        /// Column of the error, from 1.
        column: usize,
        /// serde's message without its position, quoted input shortened.
        message: String,
    },
    /// Both `snake` (an explicit body) and `length` (a free start) are given.
    #[error("`snake` and `length` exclude each other (`length` means a free start)")]
    SnakeAndLength,
    /// `tail` is neither `"follow"` nor `"strict"`; the field is the given word.
    #[error("unknown tail rule {0:?} (expected \"follow\" or \"strict\")")]
    UnknownTail(String),
    /// `visible` is 0 (FORMATS.md: a count from 1, or `"all"`).
    #[error("visible must be at least 1 (or \"all\")")]
    ZeroVisible,
    /// The JSON is well formed but the instance fails [`Instance::validate`].
    #[error(transparent)]
    Invalid(#[from] InstanceError),
}

impl JsonError {
    /// serde's error `e` on `text`, with its position
    /// ([`crate::excerpt::json_message`] words it).
    fn syntax(text: &str, e: &serde_json::Error) -> JsonError {
        JsonError::Syntax {
            line: e.line(),
            column: e.column(),
            message: json_message(text, e),
        }
    }
}

/// `visible` is a count or the word `"all"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Visible {
    Count(usize),
    All,
}

impl Serialize for Visible {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Visible::Count(n) => s.serialize_u64(*n as u64),
            Visible::All => s.serialize_str("all"),
        }
    }
}

impl<'de> Deserialize<'de> for Visible {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Count;
        impl serde::de::Visitor<'_> for Count {
            type Value = Visible;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("`visible`: a whole number of apples or \"all\"")
            }
            fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<Visible, E> {
                usize::try_from(v)
                    .map(Visible::Count)
                    .map_err(|_| E::invalid_value(serde::de::Unexpected::Unsigned(v), &self))
            }
            // (Formats such as TOML hand every integer over as an i64.)
            fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<Visible, E> {
                usize::try_from(v)
                    .map(Visible::Count)
                    .map_err(|_| E::invalid_value(serde::de::Unexpected::Signed(v), &self))
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Visible, E> {
                match v {
                    "all" => Ok(Visible::All),
                    _ => Err(E::invalid_value(serde::de::Unexpected::Str(v), &self)),
                }
            }
        }
        d.deserialize_any(Count)
    }
}

/// Reads a list of cells `[[x, y], ...]` (a serde `deserialize_with`
/// function), as [`deserialize_pairs`] does: at most one per cell of the
/// largest board.
fn deserialize_cells<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<Pos>, D::Error> {
    let PairsRead {
        pairs: cells,
        total,
    } = deserialize_pairs(d, &CELLS)?;
    if total > CELLS.max {
        return Err(serde::de::Error::custom(format!(
            "{total} cells: more than a board has (at most {MAX_SIDE}x{MAX_SIDE})"
        )));
    }
    Ok(cells)
}

/// Reads the apples `[[x, y], ...]`: at most [`MAX_APPLES`].
fn deserialize_apples<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<Pos>, D::Error> {
    let PairsRead {
        pairs: apples,
        total,
    } = deserialize_pairs(d, &APPLES)?;
    if total > APPLES.max {
        return Err(serde::de::Error::custom(InstanceError::TooManyApples(
            total,
        )));
    }
    Ok(apples)
}

/// What a list of number pairs holds, for [`deserialize_pairs`]: its items'
/// name and shape for an item of another length ("cell 1 has 3 numbers; a
/// cell is [x, y]", with `item` "cell" and `shape` "a cell is [x, y]"), and
/// the most items kept.
#[derive(Debug)]
pub struct PairList {
    /// An item's name.
    pub item: &'static str,
    /// What an item is.
    pub shape: &'static str,
    /// The most items kept; the others are counted only.
    pub max: usize,
}

/// A list of pairs as [`deserialize_pairs`] reads it.
#[derive(Debug)]
pub struct PairsRead {
    /// The first pairs, up to the list's most.
    pub pairs: Vec<(usize, usize)>,
    /// How many pairs the list has.
    pub total: usize,
}

/// The cells of a board: walls, a snake.
const CELLS: PairList = PairList {
    item: "cell",
    shape: "a cell is [x, y]",
    max: MAX_SIDE * MAX_SIDE,
};

/// The apples of an instance.
const APPLES: PairList = PairList {
    item: "cell",
    shape: "a cell is [x, y]",
    max: MAX_APPLES,
};

/// Reads a list of number pairs `[[a, b], ...]` as `list` says, with the
/// number of its items: an item of another length is named with its index
/// and length, where a tuple's own error would only say "trailing
/// characters" or "invalid length". Only the first `list.max` items are
/// kept (the others are read and counted), so that a file of millions of
/// pairs is not held in memory to be refused afterwards (40 million apples
/// took 3 GB); the caller refuses a count beyond its limit.
pub fn deserialize_pairs<'de, D: serde::Deserializer<'de>>(
    d: D,
    list: &PairList,
) -> Result<PairsRead, D::Error> {
    struct Pairs<'a>(&'a PairList);
    impl<'de> serde::de::Visitor<'de> for Pairs<'_> {
        type Value = PairsRead;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("a sequence")
        }
        fn visit_seq<A: serde::de::SeqAccess<'de>>(
            self,
            mut seq: A,
        ) -> Result<Self::Value, A::Error> {
            let list = self.0;
            let hint = seq.size_hint().unwrap_or(0);
            let mut pairs = Vec::with_capacity(hint.min(list.max).min(1 << 16));
            let mut total = 0;
            while let Some(Numbers { first, count }) = seq.next_element()? {
                let pair = match (first, count) {
                    ([Some(a), Some(b)], 2) => (a, b),
                    _ => {
                        return Err(serde::de::Error::custom(format!(
                            "{} {total} has {}; {}",
                            list.item,
                            crate::counted(count, "number"),
                            list.shape
                        )));
                    }
                };
                if total < list.max {
                    pairs.push(pair);
                }
                total += 1;
            }
            Ok(PairsRead { pairs, total })
        }
    }
    d.deserialize_seq(Pairs(list))
}

/// A list of numbers read without keeping more than its first two: its
/// length is counted (an item of a pair list may be a million numbers long).
struct Numbers {
    first: [Option<usize>; 2],
    count: usize,
}

impl<'de> Deserialize<'de> for Numbers {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Counting;
        impl<'de> serde::de::Visitor<'de> for Counting {
            type Value = Numbers;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a sequence")
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(
                self,
                mut seq: A,
            ) -> Result<Numbers, A::Error> {
                let mut numbers = Numbers {
                    first: [None; 2],
                    count: 0,
                };
                while let Some(n) = seq.next_element::<usize>()? {
                    if let Some(slot) = numbers.first.get_mut(numbers.count) {
                        *slot = Some(n);
                    }
                    numbers.count += 1;
                }
                Ok(numbers)
            }
        }
        d.deserialize_seq(Counting)
    }
}

/// Cells as pairs (`[[x, y], …]`) for an optional field: an absent key is `None`
/// (with `#[serde(default)]`), a present one holds cells (`null` is
/// refused, as for every key of an instance).
fn deserialize_optional_cells<'de, D: serde::Deserializer<'de>>(
    d: D,
) -> Result<Option<Vec<Pos>>, D::Error> {
    deserialize_cells(d).map(Some)
}

/// An optional key that is present holds a value of its type: `null` is
/// refused like any other wrong type (an absent key is `None`, with
/// `#[serde(default)]`). Reading is strict: `"grow": null` does not mean
/// the default. Also the reader of the optional keys of a plan file.
pub fn present<'de, D, T>(d: D) -> Result<Option<T>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: Deserialize<'de>,
{
    T::deserialize(d).map(Some)
}

/// The format's object as written, before its defaults and rules are read.
#[derive(Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
struct RawInstance {
    width: usize,
    height: usize,
    #[serde(
        default,
        skip_serializing_if = "Vec::is_empty",
        deserialize_with = "deserialize_cells"
    )]
    walls: Vec<Pos>,
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "deserialize_optional_cells"
    )]
    snake: Option<Vec<Pos>>,
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "present"
    )]
    length: Option<usize>,
    #[serde(deserialize_with = "deserialize_apples")]
    apples: Vec<Pos>,
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "present"
    )]
    visible: Option<Visible>,
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "present"
    )]
    grow: Option<bool>,
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "present"
    )]
    tail: Option<String>,
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "present"
    )]
    horizon: Option<usize>,
}

/// Parses and validates a JSON instance. Errors are one line.
pub fn from_json(text: &str) -> Result<Instance, JsonError> {
    // (A byte-order mark, as editors on Windows write, is no part of the JSON.)
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    if text.trim().is_empty() {
        return Err(JsonError::Empty);
    }
    // Text of another shape (an array, a number, …, whole or cut short) is
    // not an instance (serde would read an array as the struct's fields and
    // blame its first value); an object keeps the parser's message and
    // position.
    if !text.trim_start().starts_with('{') {
        return Err(JsonError::NotObject);
    }
    let raw: RawInstance = serde_json::from_str(text).map_err(|e| JsonError::syntax(text, &e))?;
    raw.into_instance()
}

impl RawInstance {
    /// The instance: the format's defaults filled in, the rules' words read,
    /// and the whole validated.
    fn into_instance(self) -> Result<Instance, JsonError> {
        let start = match (self.snake, self.length) {
            (Some(_), Some(_)) => return Err(JsonError::SnakeAndLength),
            (Some(body), None) => Start::Body(body),
            (None, Some(length)) => Start::Free { length },
            (None, None) => Start::Free { length: 1 },
        };
        let tail = match self.tail.as_deref() {
            None | Some("follow") => TailRule::Follow,
            Some("strict") => TailRule::Strict,
            Some(other) => return Err(JsonError::UnknownTail(excerpt(other))),
        };
        let visible = match self.visible {
            None | Some(Visible::All) => self.apples.len(),
            Some(Visible::Count(0)) => return Err(JsonError::ZeroVisible),
            Some(Visible::Count(v)) => v,
        };
        let instance = Instance {
            width: self.width,
            height: self.height,
            walls: self.walls,
            start,
            apples: self.apples,
            visible,
            grow: self.grow.unwrap_or(true),
            tail,
            horizon: self.horizon,
        };
        instance.validate()?;
        Ok(instance)
    }

    /// The object that writes `instance`, every rule explicit.
    fn of(instance: &Instance) -> Self {
        let (snake, length) = match &instance.start {
            Start::Body(body) => (Some(body.clone()), None),
            Start::Free { length } => (None, Some(*length)),
        };
        RawInstance {
            width: instance.width,
            height: instance.height,
            walls: instance.walls.clone(),
            snake,
            length,
            apples: instance.apples.clone(),
            // A valid instance has `visible` 0 only without apples, where "all"
            // reads back to it (FORMATS.md's counts start at 1).
            visible: Some(match instance.visible {
                0 => Visible::All,
                n => Visible::Count(n),
            }),
            grow: Some(instance.grow),
            tail: Some(instance.tail.name().to_string()),
            horizon: instance.horizon,
        }
    }
}

/// Writes an instance as compact JSON (one line), every rule explicit. It
/// checks nothing: an instance that [`Instance::validate`] refuses is
/// written as it is, and [`from_json`] refuses it in turn.
pub fn to_json(instance: &Instance) -> String {
    serde_json::to_string(instance).expect("instance serialises")
}

/// An instance serialises as the JSON format's object (FORMATS.md), every
/// rule explicit, in any serde format; [`to_json`] is this in JSON.
impl Serialize for Instance {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        RawInstance::of(self).serialize(serializer)
    }
}

/// An instance deserialises from the JSON format's object, with its
/// defaults, in any serde format, and is validated: a field of an
/// instance type in a caller's own configuration reads as [`from_json`]
/// does, but with the format's error type (and without the line of the
/// error within the object when the error is found after parsing).
impl<'de> Deserialize<'de> for Instance {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let raw = RawInstance::deserialize(deserializer)?;
        raw.into_instance().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `visible` reads from formats that hand integers over as signed (TOML
    /// does), and a leading byte-order mark is no part of the JSON.
    #[test]
    fn visible_reads_signed_integers_and_json_may_start_with_a_byte_order_mark() {
        use serde::de::value::{Error, I64Deserializer};
        let three = Visible::deserialize(I64Deserializer::<Error>::new(3));
        assert_eq!(three.unwrap(), Visible::Count(3));
        assert!(Visible::deserialize(I64Deserializer::<Error>::new(-1)).is_err());
        let text = "\u{feff}{\"width\": 3, \"height\": 1, \"apples\": [[2, 0]]}";
        let instance = from_json(text).unwrap();
        assert_eq!((instance.width, instance.apples.len()), (3, 1));
    }

    /// An instance is a serde value of its own: it round-trips inside a
    /// caller's structure, with the format's defaults and its checks.
    #[test]
    fn an_instance_is_a_serde_value_with_the_formats_rules() {
        #[derive(Deserialize, Serialize)]
        struct Config {
            name: String,
            instance: Instance,
        }
        let text = r#"{"name": "a", "instance": {"width": 3, "height": 1, "apples": [[2, 0]]}}"#;
        let config: Config = serde_json::from_str(text).unwrap();
        assert_eq!(
            config.instance,
            Instance::new(3, 1, Start::Free { length: 1 }, vec![(2, 0)])
        );
        let written = serde_json::to_string(&config).unwrap();
        assert!(written.contains(&to_json(&config.instance)), "{written}");
        let back: Config = serde_json::from_str(&written).unwrap();
        assert_eq!(back.instance, config.instance);

        let both = r#"{"name": "b", "instance": {"width": 3, "height": 1, "snake": [[0, 0]],
            "length": 2, "apples": []}}"#;
        let error = serde_json::from_str::<Config>(both)
            .err()
            .unwrap()
            .to_string();
        assert!(
            error.contains("`snake` and `length` exclude each other"),
            "{error}"
        );
        let off = r#"{"name": "c", "instance": {"width": 3, "height": 1, "apples": [[5, 0]]}}"#;
        let error = serde_json::from_str::<Config>(off)
            .err()
            .unwrap()
            .to_string();
        assert!(
            error.contains("apple 1 (5, 0) is off the 3x1 grid"),
            "{error}"
        );
    }

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

    /// A whole number beyond 64 bits was reported as serde's float
    /// (`floating point 1e+23, expected usize`); it is named as written.
    #[test]
    fn a_whole_number_beyond_64_bits_is_named_as_written() {
        let e = from_json("{\"width\": 3,\n \"height\": 99999999999999999999999, \"apples\": []}")
            .unwrap_err();
        assert_eq!(
            e.to_string(),
            "invalid instance JSON at line 2 column 34: the number 99999999999999999999999 is too large (at most 18446744073709551615)"
        );
        for (field, value, said) in [
            (
                "visible",
                "18446744073709551616",
                "the number 18446744073709551616 is too large",
            ),
            (
                "horizon",
                "-100000000000000000000",
                "the number -100000000000000000000 is below 0",
            ),
            ("horizon", "-0", "the number -0 has a sign: write 0"),
            ("length", "1e30", "floating point `1e+30`"),
            ("length", "3.5", "floating point `3.5`"),
        ] {
            let text = format!(r#"{{"width": 3, "height": 3, "apples": [], "{field}": {value}}}"#);
            let e = from_json(&text).unwrap_err().to_string();
            assert!(e.contains(said), "{field} {value}: {e}");
        }
    }

    /// `visible: 0` without apples was accepted although FORMATS.md counts
    /// from 1; with apples or without, it is refused in one line.
    /// Reading is strict: `null` is no value of any key (it was read as the
    /// key's default for six of them, refused for `walls`).
    #[test]
    fn null_is_refused_for_every_optional_key() {
        for key in [
            "walls", "snake", "length", "visible", "grow", "tail", "horizon",
        ] {
            let text = format!(r#"{{"width": 3, "height": 3, "apples": [[2, 2]], "{key}": null}}"#);
            let e = from_json(&text).unwrap_err().to_string();
            assert!(e.contains("invalid type: null"), "{key}: {e}");
        }
        let absent = from_json(r#"{"width": 3, "height": 3, "apples": [[2, 2]]}"#).unwrap();
        assert!(absent.grow && absent.horizon.is_none());
    }

    #[test]
    fn visible_zero_is_refused() {
        for apples in ["[]", "[[1, 1]]"] {
            let text = format!(r#"{{"width": 2, "height": 2, "apples": {apples}, "visible": 0}}"#);
            let e = from_json(&text).unwrap_err();
            assert_eq!(e, JsonError::ZeroVisible, "{text}");
            assert_eq!(e.to_string(), "visible must be at least 1 (or \"all\")");
        }
        // Without apples, `to_json` writes `visible` 0 as "all", which reads back.
        let none = from_json(r#"{"width": 2, "height": 2, "apples": []}"#).unwrap();
        assert_eq!(none.visible, 0);
        assert_eq!(from_json(&to_json(&none)).unwrap(), none);
    }

    /// Errors say what an instance is and what `visible` takes, not serde's
    /// names for them ("struct RawInstance with 10 elements", "untagged enum
    /// Visible").
    #[test]
    fn shape_errors_name_what_is_expected() {
        for text in ["[]", "42", " null ", "\"x\"", "[[[", "[3, 3]"] {
            assert!(
                matches!(from_json(text), Err(JsonError::NotObject)),
                "{text}"
            );
        }
        let e = from_json(r#"{"width":3,"height":3,"apples":[[1,1]],"visible":"ALL"}"#)
            .unwrap_err()
            .to_string();
        assert!(e.contains("a whole number of apples or \"all\""), "{e}");
        assert!(!e.contains("Visible"), "{e}");
    }

    /// A cell of another length than two is named with its index; serde's
    /// tuple said only "trailing characters" (three numbers) or "invalid
    /// length" (one).
    #[test]
    fn a_cell_of_another_length_is_named() {
        for (field, cells, needle) in [
            (
                "apples",
                "[[1,1],[2,2,1]]",
                "cell 1 has 3 numbers; a cell is [x, y]",
            ),
            ("walls", "[[0]]", "cell 0 has 1 number; a cell is [x, y]"),
            ("snake", "[[0,0],[]]", "cell 1 has 0 numbers"),
        ] {
            let text = format!(r#"{{"width":3,"height":3,"apples":[[2,2]],"{field}":{cells}}}"#)
                .replacen(r#""apples":[[2,2]],"apples""#, r#""apples""#, 1);
            let e = from_json(&text).unwrap_err().to_string();
            assert!(e.contains(needle), "{field}: {e}");
        }
        let fine = r#"{"width":3,"height":3,"walls":[[1,1]],"apples":[[2,2]]}"#;
        assert_eq!(from_json(fine).unwrap().start, Start::Free { length: 1 });
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
    fn no_apples_and_none_visible_are_written_as_all() {
        let i = from_json(r#"{"width":3,"height":2,"apples":[],"visible":"all"}"#).unwrap();
        assert_eq!(i.visible, 0);
        let text = to_json(&i);
        assert!(text.contains(r#""visible":"all""#), "{text}");
        assert_eq!(from_json(&text).unwrap(), i);
    }

    #[test]
    fn unknown_key_is_an_error() {
        let e = from_json(r#"{"width":3,"height":2,"apples":[],"colour":1}"#).unwrap_err();
        assert!(e.to_string().contains("unknown field `colour`"), "{e}");
    }

    #[test]
    fn long_tokens_are_not_echoed() {
        let key = "k".repeat(1_000_000);
        let e = from_json(&format!(
            r#"{{"width":3,"height":2,"apples":[],"{key}":1}}"#
        ))
        .unwrap_err()
        .to_string();
        assert!(e.len() < 400 && e.contains("unknown field"), "{}", e.len());
        let tail = "t".repeat(1_000_000);
        let e = from_json(&format!(
            r#"{{"width":3,"height":2,"apples":[],"tail":"{tail}"}}"#
        ))
        .unwrap_err()
        .to_string();
        assert!(
            e.len() < 200 && e.contains("unknown tail rule"),
            "{}",
            e.len()
        );
    }
}
