//! Benchmark families: many distinct instances of a parameter range, each
//! labelled with its least horizon `T*`, for SAT and planning research.
//!
//! A family is either *sampled* ([`sample`]: seeded ChaCha8 draws, like
//! [`crate::instance::random`]) or *enumerated* ([`enumerate`]: every class
//! of a small setting, [`crate::symmetry::enumerate`]). Every instance is
//! reduced to its canonical representative ([`crate::symmetry::canonical`]),
//! and a draw whose class is already in the family is rejected and counted,
//! so a family never holds two instances related by a symmetry.
//!
//! The draws depend only on the [`FamilySpec`], so every machine (and every
//! shard of a sweep) computes the same list.
//!
//! The errors ([`FamilyError`]) name a setting as `snakesat generate`'s flag
//! for it, which is the [`FamilySpec`] field of the same name (`--count` is
//! `count`, `--size` `size`, `--walls` `walls`, `--length` `length`, and
//! `--apples` or `--fill` the two kinds of [`AppleCount`]).

use std::collections::HashSet;

use rand::rngs::ChaCha8Rng;
use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};
use thiserror::Error;

use crate::geometry::{Direction, Grid};
use crate::instance::{Instance, InstanceError, MAX_APPLES, MAX_SIDE, Pos, Start, TailRule};
use crate::symmetry::{self, EnumerateError, Setting};

/// An inclusive range of whole numbers, written `A..B` (or `A` alone).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Span {
    /// The least value.
    pub lo: usize,
    /// The greatest value.
    pub hi: usize,
}

impl Span {
    /// The range of one value.
    pub fn one(v: usize) -> Span {
        Span { lo: v, hi: v }
    }

    /// Parses `A..B` (inclusive, `A <= B`) or `A`.
    pub fn parse(text: &str) -> Result<Span, FamilyError> {
        let bad = || FamilyError::BadRange(text.to_string());
        let number = |s: &str| s.trim().parse::<usize>().map_err(|_| bad());
        let span = match text.split_once("..") {
            Some((a, b)) => Span {
                lo: number(a)?,
                hi: number(b.strip_prefix('=').unwrap_or(b))?,
            },
            None => Span::one(number(text)?),
        };
        if span.lo > span.hi {
            return Err(bad());
        }
        Ok(span)
    }

    /// The single value of a one-value range.
    pub fn single(&self) -> Option<usize> {
        (self.lo == self.hi).then_some(self.lo)
    }

    fn draw(&self, rng: &mut ChaCha8Rng) -> usize {
        rng.random_range(self.lo..=self.hi)
    }
}

impl std::fmt::Display for Span {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.single() {
            Some(v) => write!(f, "{v}"),
            None => write!(f, "{}..{}", self.lo, self.hi),
        }
    }
}

/// Board sizes: widths and heights, written `N`, `A..B` (squares),
/// `WxH` or `WxH..WxH` (every width and height in between).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SizeSpan {
    /// The widths.
    pub width: Span,
    /// The heights.
    pub height: Span,
    /// Only squares (`A..B`): the height is the width.
    pub square: bool,
}

impl SizeSpan {
    /// Parses `N`, `A..B`, `WxH` or `WxH..WxH`; every side in `1..=MAX_SIDE`.
    pub fn parse(text: &str) -> Result<SizeSpan, FamilyError> {
        let bad = || FamilyError::BadSize(text.to_string());
        let side = |s: &str| -> Result<(usize, usize, bool), FamilyError> {
            let number = |s: &str| s.trim().parse::<usize>().map_err(|_| bad());
            match s.split_once(['x', 'X']) {
                Some((w, h)) => Ok((number(w)?, number(h)?, false)),
                None => number(s).map(|n| (n, n, true)),
            }
        };
        let (a, b) = match text.split_once("..") {
            Some((a, b)) => (side(a)?, side(b)?),
            None => (side(text)?, side(text)?),
        };
        if a.2 != b.2 || a.0 > b.0 || a.1 > b.1 {
            return Err(bad());
        }
        if [a.0, a.1, b.0, b.1].iter().any(|&s| s == 0 || s > MAX_SIDE) {
            return Err(bad());
        }
        Ok(SizeSpan {
            width: Span { lo: a.0, hi: b.0 },
            height: Span { lo: a.1, hi: b.1 },
            square: a.2,
        })
    }

    /// Every size of the span, widths first.
    pub fn sizes(&self) -> Vec<(usize, usize)> {
        if self.square {
            return (self.width.lo..=self.width.hi).map(|n| (n, n)).collect();
        }
        (self.width.lo..=self.width.hi)
            .flat_map(|w| (self.height.lo..=self.height.hi).map(move |h| (w, h)))
            .collect()
    }
}

impl std::fmt::Display for SizeSpan {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.square {
            return write!(f, "{}", self.width);
        }
        let (a, b) = (
            (self.width.lo, self.height.lo),
            (self.width.hi, self.height.hi),
        );
        if a == b {
            write!(f, "{}x{}", a.0, a.1)
        } else {
            write!(f, "{}x{}..{}x{}", a.0, a.1, b.0, b.1)
        }
    }
}

/// How many apples an instance has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AppleCount {
    /// A number drawn from the range.
    Count(Span),
    /// IPC-style: the snake covers this percentage of the board once every
    /// apple is eaten (apples = round(percent × cells / 100) − length).
    Fill(Span),
}

impl std::fmt::Display for AppleCount {
    /// The flag that sets it: `--apples A..B` or `--fill A..B`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            AppleCount::Count(span) => write!(f, "--apples {span}"),
            AppleCount::Fill(span) => write!(f, "--fill {span}"),
        }
    }
}

/// The parameters of a family.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FamilySpec {
    /// Board sizes.
    pub size: SizeSpan,
    /// Apples per instance.
    pub apples: AppleCount,
    /// Snake length at `t = 0`.
    pub length: Span,
    /// Walls per instance.
    pub walls: Span,
    /// Apples visible at once (`None`: all of them).
    pub visible: Option<Span>,
    /// The tail rule of every instance.
    pub tail: TailRule,
    /// The snake grows when it eats.
    pub grow: bool,
    /// An explicit body (random placement) instead of a free start.
    pub body: bool,
    /// Every cell that is not a wall has a neighbour that is not one either:
    /// an IPC-2018 problem file cannot state a free cell without
    /// `ISADJACENT` links (a reader takes it for a wall), so `generate
    /// --format pddl` asks for it; draws whose walls shut a cell in are
    /// redrawn (and such instances are left out of an enumeration).
    pub linked: bool,
    /// Instances to draw (distinct up to symmetry).
    pub count: usize,
    /// The seed of the ChaCha8 generator.
    pub seed: u64,
}

/// The most instances a family may ask for.
pub const MAX_COUNT: usize = 1_000_000;

/// The most board cells the draws of a sampled family may shuffle:
/// `--count` times the cells of the largest board of `--size` (every draw
/// shuffles every cell of its board; about 1–6 s at the limit). `--count` and
/// `--size` are each capped on their own, not their product.
pub const MAX_FAMILY_DRAWN_CELLS: u128 = 100_000_000;

/// The most cells the instances of a sampled family may list in all: `--count`
/// times the most walls, apples and snake cells one instance may have (at
/// most its board). Sampling keeps every instance and its symmetry key, about
/// 34 bytes a listed cell, so the limit is about 700 MB.
pub const MAX_FAMILY_LISTED_CELLS: u128 = 20_000_000;

/// Draws rejected in a row (duplicates or invalid) before sampling gives up.
const MAX_REJECTED_IN_A_ROW: usize = 100_000;

/// Why a family cannot be built.
#[derive(Debug, Error, PartialEq, Eq)]
#[non_exhaustive]
pub enum FamilyError {
    /// A range that is not `A..B` with `A <= B`.
    #[error("{0:?} is not a range A..B of whole numbers with A <= B (or one number)")]
    BadRange(String),
    /// A size range that is not `N`, `A..B`, `WxH` or `WxH..WxH`.
    #[error(
        "{0:?} is not a size range: N, A..B, WxH or WxH..WxH with sides 1..={MAX_SIDE}, increasing"
    )]
    BadSize(String),
    /// Too many instances asked for.
    #[error("--count {0} is larger than the limit {MAX_COUNT}")]
    TooMany(usize),
    /// The draws would shuffle more board cells than
    /// [`MAX_FAMILY_DRAWN_CELLS`].
    #[error(
        "--count {count} × {cells} cells ({width}x{height}, the largest board of --size) = {total} \
         board cells to draw, above the limit of {MAX_FAMILY_DRAWN_CELLS}: lower --count or --size"
    )]
    TooManyDrawnCells {
        /// Instances asked for.
        count: usize,
        /// Cells of the largest board.
        cells: usize,
        /// The largest board's width.
        width: usize,
        /// The largest board's height.
        height: usize,
        /// `count × cells`.
        total: u128,
    },
    /// `--all` would give more instances × board cells than
    /// [`MAX_FAMILY_DRAWN_CELLS`] (each instance is solved on its board).
    #[error(
        "--all gives at least {instances} instances × {cells} cells ({width}x{height}) = {total} \
         board cells to solve, above the limit of {MAX_FAMILY_DRAWN_CELLS}: lower --size, --apples, \
         --walls or --length"
    )]
    TooManyEnumeratedCells {
        /// Instances up to symmetry, at least.
        instances: u128,
        /// Cells of the board.
        cells: usize,
        /// The board's width.
        width: usize,
        /// The board's height.
        height: usize,
        /// `instances × cells`.
        total: u128,
    },
    /// The instances would list more cells than [`MAX_FAMILY_LISTED_CELLS`].
    #[error(
        "--count {count} × up to {per_instance} cells per instance (--walls {walls}, {apples}, \
         --length {length}) = {total} cells to keep, above the limit of {MAX_FAMILY_LISTED_CELLS}: \
         lower --count or these ranges"
    )]
    TooManyListedCells {
        /// Instances asked for.
        count: usize,
        /// The most walls, apples and snake cells of one instance.
        per_instance: u128,
        /// The walls asked for.
        walls: Span,
        /// The apples asked for.
        apples: AppleCount,
        /// The lengths asked for.
        length: Span,
        /// `count × per_instance`.
        total: u128,
    },
    /// Even the least walls, apples and length of the spec do not fit on
    /// the largest board, so no draw can be an instance.
    #[error(
        "--walls {walls}, {apples} and --length {length} do not fit on {width}x{height}, the largest board of --size"
    )]
    TooCrowded {
        /// The walls asked for.
        walls: Span,
        /// The apples asked for.
        apples: AppleCount,
        /// The lengths asked for.
        length: Span,
        /// The largest board's width.
        width: usize,
        /// The largest board's height.
        height: usize,
    },
    /// The top of a range does not fit on the largest board even with the
    /// least values of the other ranges: draws near it would all be rejected.
    #[error(
        "{flag} {range}: its top, {top}, does not fit on {width}x{height}, the largest board of --size, beside the least of the other ranges"
    )]
    RangeTooHigh {
        /// The flag of the range.
        flag: &'static str,
        /// The range.
        range: Span,
        /// Its greatest value.
        top: usize,
        /// The largest board's width.
        width: usize,
        /// The largest board's height.
        height: usize,
    },
    /// Sampling stopped finding new classes: the last `rejected` draws were
    /// each a class already found or not a valid instance.
    #[error("{}", exhausted_message(*found, *draws, *rejected, *invalid, *count))]
    Exhausted {
        /// Instances found.
        found: usize,
        /// Draws made.
        draws: usize,
        /// Rejected draws in a row at the end.
        rejected: usize,
        /// How many of those were not valid instances (no room for the body,
        /// the walls or the apples); the others repeated a class.
        invalid: usize,
        /// Instances asked for.
        count: usize,
    },
    /// A rule every instance of the spec would break (a snake of length 0,
    /// no apple visible although there are apples): the instance's own error.
    #[error(transparent)]
    Rules(#[from] InstanceError),
    /// `--all` needs one value per parameter.
    #[error("--all enumerates one setting: give a single value for {0}")]
    NotSingle(&'static str),
    /// The setting is too large to enumerate.
    #[error(transparent)]
    Enumerate(#[from] EnumerateError),
}

/// [`FamilyError::Exhausted`] in words: a setting whose draws stopped being
/// valid instances is told so (the hint that it has few classes would be
/// false, and `--all` would refuse its size).
fn exhausted_message(
    found: usize,
    draws: usize,
    rejected: usize,
    invalid: usize,
    count: usize,
) -> String {
    let found = crate::counted(found, "distinct instance");
    if invalid == rejected {
        format!(
            "only {found} after {draws} draws ({rejected} rejected in a row): none of those draws was a valid instance (the body, the walls or the apples found no room), so such instances are too rare to draw; try a shorter --length, fewer --walls or --apples, or a larger --size"
        )
    } else {
        let why = match invalid {
            0 => "each a class already found".to_string(),
            _ => format!("{invalid} of them not valid instances, the others classes already found"),
        };
        format!(
            "only {found} after {draws} draws ({rejected} rejected in a row, {why}): the setting may have fewer than {count} classes (try --all)"
        )
    }
}

/// The instances of a family and what sampling rejected.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Sample {
    /// Canonical instances, in the order they were drawn.
    pub instances: Vec<Instance>,
    /// Draws made.
    pub draws: usize,
    /// Draws whose class was already in the family.
    pub duplicates: usize,
    /// Draws that are not a valid instance (too crowded, no room for the body).
    pub invalid: usize,
}

/// Draws `spec.count` instances, no two related by a symmetry, each in its
/// canonical form. Deterministic: the same spec gives the same sample. A spec
/// whose least walls, apples and length do not fit on its largest board, or
/// whose ranges allow a rule-breaking length or `visible` (`check_rules`),
/// is refused before any draw.
pub fn sample(spec: &FamilySpec) -> Result<Sample, FamilyError> {
    check_spans(spec)?;
    if spec.count > MAX_COUNT {
        return Err(FamilyError::TooMany(spec.count));
    }
    check_rules(spec)?;
    let sizes = spec.size.sizes();
    fits_somewhere(spec, &sizes)?;
    check_apple_cap(spec, &sizes)?;
    check_family_size(spec, &sizes)?;
    let mut rng = ChaCha8Rng::seed_from_u64(spec.seed);
    let mut seen = HashSet::new();
    let mut out = Sample {
        instances: Vec::with_capacity(spec.count),
        ..Sample::default()
    };
    let (mut in_a_row, mut invalid_in_a_row) = (0, 0);
    let give_up = rejection_limit(&sizes);
    while out.instances.len() < spec.count {
        if in_a_row == give_up {
            return Err(FamilyError::Exhausted {
                found: out.instances.len(),
                draws: out.draws,
                rejected: in_a_row,
                invalid: invalid_in_a_row,
                count: spec.count,
            });
        }
        out.draws += 1;
        let Some(instance) = draw(spec, &sizes, &mut rng) else {
            out.invalid += 1;
            in_a_row += 1;
            invalid_in_a_row += 1;
            continue;
        };
        let canonical = symmetry::canonical(&instance);
        if seen.insert(symmetry::key(&canonical)) {
            out.instances.push(canonical);
            (in_a_row, invalid_in_a_row) = (0, 0);
        } else {
            out.duplicates += 1;
            in_a_row += 1;
        }
    }
    Ok(out)
}

/// Refuses the ranges [`Span::parse`] and [`SizeSpan::parse`] refuse (the
/// fields are public, so a spec may hold them): a range whose least value is
/// above its greatest, a side outside `1..=MAX_SIDE`.
fn check_spans(spec: &FamilySpec) -> Result<(), FamilyError> {
    let size = spec.size;
    if [size.width, size.height]
        .iter()
        .any(|side| side.lo == 0 || side.lo > side.hi || side.hi > MAX_SIDE)
    {
        return Err(FamilyError::BadSize(size.to_string()));
    }
    let (AppleCount::Count(apples) | AppleCount::Fill(apples)) = spec.apples;
    let mut spans = [apples, spec.length, spec.walls]
        .into_iter()
        .chain(spec.visible);
    match spans.find(|span| span.lo > span.hi) {
        Some(span) => Err(FamilyError::BadRange(span.to_string())),
        None => Ok(()),
    }
}

/// Refuses a spec whose ranges allow a value no instance may have, with the
/// error [`Instance::validate`] gives it: a snake length of 0, or 0 apples
/// visible when an instance may have apples.
fn check_rules(spec: &FamilySpec) -> Result<(), InstanceError> {
    if spec.length.lo == 0 {
        return Err(InstanceError::ZeroLength);
    }
    let apples = match spec.apples {
        AppleCount::Count(span) => span.hi > 0,
        // A draw of --fill has at least one apple.
        AppleCount::Fill(_) => true,
    };
    if apples && spec.visible.is_some_and(|v| v.lo == 0) {
        return Err(InstanceError::ZeroVisible);
    }
    Ok(())
}

/// Refuses a spec whose instances may have more apples than an instance may
/// ([`MAX_APPLES`], the error [`Instance::validate`] gives): the top of
/// `--apples`, or the apples of the largest board's top fill beside the
/// least length. (Such draws were all rejected as invalid, and sampling
/// gave up saying the setting may have too few classes.)
fn check_apple_cap(spec: &FamilySpec, sizes: &[(usize, usize)]) -> Result<(), InstanceError> {
    let (width, height) = largest(sizes);
    let most = match spec.apples {
        AppleCount::Count(span) => span.hi,
        AppleCount::Fill(percent) => covered_cells(percent.hi, width * height)
            .map_or(usize::MAX, |c| c.saturating_sub(spec.length.lo)),
    };
    if most > MAX_APPLES {
        return Err(InstanceError::TooManyApples(most));
    }
    Ok(())
}

/// Refuses a spec whose least walls, apples and length need more cells than
/// the largest of `sizes` has (sums that overflow included): every draw of it
/// would be rejected.
fn fits_somewhere(spec: &FamilySpec, sizes: &[(usize, usize)]) -> Result<(), FamilyError> {
    let (width, height) = largest(sizes);
    let cells = width * height;
    // Cells the apples and the snake cover at least: with --fill, the
    // largest fill must leave room for an apple beyond the snake, and the
    // least fill (with at least one apple) room for the walls.
    let covered = match spec.apples {
        AppleCount::Count(span) => span.lo.checked_add(spec.length.lo),
        AppleCount::Fill(percent) => covered_cells(percent.hi, cells)
            .filter(|&c| c > spec.length.lo)
            .and_then(|_| covered_cells(percent.lo, cells))
            .zip(spec.length.lo.checked_add(1))
            .map(|(least, one_apple)| least.max(one_apple)),
    };
    match covered.and_then(|c| c.checked_add(spec.walls.lo)) {
        Some(needed) if needed <= cells => {}
        _ => return Err(too_crowded(spec, width, height)),
    }
    // Each range's top beside the others' least values (a fill is a share
    // of the board, so it cannot overflow it).
    let apples = match spec.apples {
        AppleCount::Count(span) => Some(span),
        AppleCount::Fill(_) => None,
    };
    let least_apples = apples.map_or(0, |span| span.lo);
    let ranges = [
        ("--walls", spec.walls, spec.length.lo + least_apples),
        ("--length", spec.length, spec.walls.lo + least_apples),
    ];
    let apple_range = apples.map(|span| ("--apples", span, spec.walls.lo + spec.length.lo));
    for (flag, range, others) in ranges.into_iter().chain(apple_range) {
        if range
            .hi
            .checked_add(others)
            .is_none_or(|needed| needed > cells)
        {
            return Err(FamilyError::RangeTooHigh {
                flag,
                range,
                top: range.hi,
                width,
                height,
            });
        }
    }
    Ok(())
}

/// Refuses a sample whose draws would shuffle more board cells than
/// [`MAX_FAMILY_DRAWN_CELLS`], or whose instances would list more walls,
/// apples and snake cells than [`MAX_FAMILY_LISTED_CELLS`], before any draw:
/// each flag is capped on its own, but sampling's time and memory grow with
/// their products.
fn check_family_size(spec: &FamilySpec, sizes: &[(usize, usize)]) -> Result<(), FamilyError> {
    let (width, height) = largest(sizes);
    let cells = width * height;
    let count = spec.count as u128;
    let drawn = count * cells as u128;
    if drawn > MAX_FAMILY_DRAWN_CELLS {
        return Err(FamilyError::TooManyDrawnCells {
            count: spec.count,
            cells,
            width,
            height,
            total: drawn,
        });
    }
    // Apples and snake together: the fill's covered cells, or the tops of
    // both ranges; an instance never lists more cells than its board has.
    let apples_and_snake = match spec.apples {
        AppleCount::Count(span) => span.hi as u128 + spec.length.hi as u128,
        AppleCount::Fill(percent) => covered_cells(percent.hi, cells)
            .map_or(cells as u128, |c| c as u128)
            .max(spec.length.hi as u128),
    };
    let per_instance = (spec.walls.hi as u128 + apples_and_snake).min(cells as u128);
    let listed = count * per_instance;
    if listed > MAX_FAMILY_LISTED_CELLS {
        return Err(FamilyError::TooManyListedCells {
            count: spec.count,
            per_instance,
            walls: spec.walls,
            apples: spec.apples,
            length: spec.length,
            total: listed,
        });
    }
    Ok(())
}

/// Draws rejected in a row before sampling gives up: [`MAX_REJECTED_IN_A_ROW`],
/// or fewer on boards so large (over 1,000 cells) that as many draws would
/// shuffle more than [`MAX_FAMILY_DRAWN_CELLS`] cells (a body that never
/// fits made `--size 300 --start body --length 3000` draw for minutes).
fn rejection_limit(sizes: &[(usize, usize)]) -> usize {
    let (width, height) = largest(sizes);
    let draws = MAX_FAMILY_DRAWN_CELLS / (width * height) as u128;
    draws.clamp(1, MAX_REJECTED_IN_A_ROW as u128) as usize
}

/// The largest board of `sizes` (by cells).
fn largest(sizes: &[(usize, usize)]) -> (usize, usize) {
    sizes
        .iter()
        .copied()
        .max_by_key(|&(w, h)| w * h)
        .expect("a size span has a size")
}

fn too_crowded(spec: &FamilySpec, width: usize, height: usize) -> FamilyError {
    FamilyError::TooCrowded {
        walls: spec.walls,
        apples: spec.apples,
        length: spec.length,
        width,
        height,
    }
}

/// The cells a snake covers on a board of `cells` cells at a fill of
/// `percent` (rounded), `None` on overflow.
fn covered_cells(percent: usize, cells: usize) -> Option<usize> {
    Some(percent.checked_mul(cells)?.checked_add(50)? / 100)
}

/// One random instance of the spec, or `None` when the draw is not valid.
fn draw(spec: &FamilySpec, sizes: &[(usize, usize)], rng: &mut ChaCha8Rng) -> Option<Instance> {
    let (width, height) = sizes[rng.random_range(0..sizes.len())];
    let cells = width * height;
    let length = spec.length.draw(rng);
    let walls = spec.walls.draw(rng);
    let apples = match spec.apples {
        AppleCount::Count(span) => span.draw(rng),
        AppleCount::Fill(percent) => {
            let covered = covered_cells(percent.draw(rng), cells)?;
            covered.checked_sub(length).filter(|&a| a > 0)?
        }
    };
    let visible = match spec.visible {
        Some(span) => span.draw(rng).min(apples),
        None => apples,
    };
    let needed = walls.checked_add(apples)?.checked_add(length)?;
    if needed > cells {
        return None;
    }
    let mut order: Vec<Pos> = (0..cells).map(|i| (i % width, i / width)).collect();
    order.shuffle(rng);
    let wall_cells = order[..walls].to_vec();
    let (start, rest) = if spec.body {
        let body = snake_body(&order[walls..], length, width, height, rng)?;
        let mut in_body = vec![false; cells];
        for &(x, y) in &body {
            in_body[y * width + x] = true;
        }
        let rest: Vec<Pos> = order[walls..]
            .iter()
            .filter(|&&(x, y)| !in_body[y * width + x])
            .copied()
            .collect();
        (Start::Body(body), rest)
    } else {
        (Start::Free { length }, order[walls..].to_vec())
    };
    let instance = Instance {
        width,
        height,
        walls: wall_cells,
        start,
        apples: rest[..apples].to_vec(),
        visible,
        grow: spec.grow,
        tail: spec.tail,
        horizon: None,
    };
    instance
        .validate()
        .ok()
        .filter(|()| !spec.linked || every_cell_linked(&instance))
        .map(|()| instance)
}

/// Whether every cell of `instance` that is not a wall has a neighbour that
/// is not one either ([`FamilySpec::linked`]).
fn every_cell_linked(instance: &Instance) -> bool {
    let wall = instance.wall_map();
    let grid = instance.grid();
    (0..grid.cells()).filter(|&i| !wall[i]).all(|i| {
        instance
            .neighbours(grid.pos(i))
            .any(|n| !wall[instance.index(n)])
    })
}

/// A random self-avoiding body of `length` cells on `open` (head first),
/// or `None` when the walk from the drawn head gets stuck.
fn snake_body(
    open: &[Pos],
    length: usize,
    width: usize,
    height: usize,
    rng: &mut ChaCha8Rng,
) -> Option<Vec<Pos>> {
    let grid = Grid::new(width, height);
    // The cells the body may still take, one flag per cell: open and not
    // yet in the body (a long body is not searched cell by cell).
    let mut free = vec![false; width * height];
    for &(x, y) in open {
        free[y * width + x] = true;
    }
    let head = *open.first()?;
    free[head.1 * width + head.0] = false;
    let mut body = vec![head];
    while body.len() < length {
        let (x, y) = *body.last().expect("a body has a head");
        // Right, down, left, up: the order the seeded shuffle has always
        // started from, so that a seed keeps drawing the same family.
        let mut next: Vec<Pos> = [
            Direction::Right,
            Direction::Down,
            Direction::Left,
            Direction::Up,
        ]
        .into_iter()
        .filter_map(|d| grid.step((x, y), d))
        .filter(|&(x, y)| free[y * width + x])
        .collect();
        if next.is_empty() {
            return None;
        }
        next.shuffle(rng);
        let (x, y) = next[0];
        free[y * width + x] = false;
        body.push((x, y));
    }
    Some(body)
}

/// Every canonical instance of the spec's single setting (each parameter a
/// single value), in the order of [`symmetry::key`]. A setting that breaks a
/// rule (`check_rules`) is refused, not enumerated as empty.
pub fn enumerate(spec: &FamilySpec) -> Result<Sample, FamilyError> {
    check_spans(spec)?;
    check_rules(spec)?;
    let one = |span: Span, what| span.single().ok_or(FamilyError::NotSingle(what));
    let width = one(spec.size.width, "--size")?;
    let height = one(spec.size.height, "--size")?;
    let apples = match spec.apples {
        AppleCount::Count(span) => one(span, "--apples")?,
        AppleCount::Fill(_) => return Err(FamilyError::NotSingle("--apples (not --fill)")),
    };
    let visible = match spec.visible {
        Some(span) => one(span, "--visible")?.min(apples),
        None => apples,
    };
    // Walls and apples, and walls and a snake, share the board (a free
    // start's snake may lie under apples yet to appear).
    let fits = |n: usize| {
        spec.walls
            .lo
            .checked_add(n)
            .is_some_and(|c| c <= width * height)
    };
    if !fits(apples) || !fits(spec.length.lo) {
        return Err(too_crowded(spec, width, height));
    }
    check_apple_cap(spec, &[(width, height)])?;
    let setting = Setting {
        rules: Instance {
            width,
            height,
            walls: vec![],
            start: Start::Free { length: 1 },
            apples: vec![],
            visible,
            grow: spec.grow,
            tail: spec.tail,
            horizon: None,
        },
        walls: one(spec.walls, "--walls")?,
        length: one(spec.length, "--length")?,
        explicit: spec.body,
        apples,
    };
    // Each instance is solved on its board, so the work grows with instances
    // × cells (`--all --size 1000 --apples 1` was accepted and ran for
    // hours): checked before the enumeration from the instances before
    // symmetry, of which a class holds at most 8, and after it exactly.
    let cells = width * height;
    let too_many = |instances: u128| {
        let total = instances * cells as u128;
        (total > MAX_FAMILY_DRAWN_CELLS).then_some(FamilyError::TooManyEnumeratedCells {
            instances,
            cells,
            width,
            height,
            total,
        })
    };
    // (Beyond the cap on the instances, enumerate's own refusal says so.)
    let cap = symmetry::MAX_ENUMERATED as u64;
    let count = symmetry::count_instances(&setting, cap);
    if let Some(raw) = count
        && raw <= cap
        && let Some(e) = too_many((raw as u128).div_ceil(8))
    {
        return Err(e);
    }
    let all = symmetry::enumerate_counted(&setting, count)?;
    if let Some(e) = too_many(all.len() as u128) {
        return Err(e);
    }
    let draws = all.len();
    let instances: Vec<Instance> = all
        .into_iter()
        .filter(|i| !spec.linked || every_cell_linked(i))
        .collect();
    Ok(Sample {
        draws,
        invalid: draws - instances.len(),
        instances,
        duplicates: 0,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(count: usize) -> FamilySpec {
        FamilySpec {
            size: SizeSpan::parse("4..5").unwrap(),
            apples: AppleCount::Count(Span::parse("2..3").unwrap()),
            length: Span::one(2),
            walls: Span::parse("0..1").unwrap(),
            visible: Some(Span::one(1)),
            tail: TailRule::Follow,
            grow: true,
            body: true,
            linked: false,
            count,
            seed: 9,
        }
    }

    #[test]
    fn ranges_parse_and_print_back() {
        assert_eq!(Span::parse("3..7").unwrap(), Span { lo: 3, hi: 7 });
        assert_eq!(Span::parse("4").unwrap(), Span::one(4));
        assert_eq!(Span::parse("3..=7").unwrap().to_string(), "3..7");
        for bad in ["7..3", "a", "1..", ""] {
            assert!(Span::parse(bad).is_err(), "{bad}");
        }
        let s = SizeSpan::parse("6x4..7x5").unwrap();
        assert_eq!(s.sizes(), [(6, 4), (6, 5), (7, 4), (7, 5)]);
        assert_eq!(s.to_string(), "6x4..7x5");
        assert_eq!(
            SizeSpan::parse("4..6").unwrap().sizes(),
            [(4, 4), (5, 5), (6, 6)]
        );
        for bad in ["0..3", "6x4..5", "8x6..6x8", "4..2000"] {
            assert!(SizeSpan::parse(bad).is_err(), "{bad}");
        }
    }

    /// `--all` on a large board is refused before the enumeration when its
    /// instances up to symmetry (at least an eighth of the raw ones) times
    /// its cells exceed the cap, and a smaller one runs.
    #[test]
    fn an_enumeration_too_large_to_solve_is_refused_first() {
        let all = |side: usize| FamilySpec {
            size: SizeSpan::parse(&side.to_string()).unwrap(),
            apples: AppleCount::Count(Span::one(1)),
            length: Span::one(1),
            walls: Span::one(0),
            body: false,
            count: 1,
            ..spec(1)
        };
        assert!(matches!(
            enumerate(&all(200)),
            Err(FamilyError::TooManyEnumeratedCells {
                instances: 5000,
                cells: 40_000,
                total: 200_000_000,
                ..
            })
        ));
        // One instance per class of the apple's cell: 6 on 5x5.
        assert_eq!(enumerate(&all(5)).unwrap().instances.len(), 6);
    }

    /// A spec built by hand with ranges the parsers refuse is refused by
    /// `sample` and `enumerate` too (it panicked in the draw, or allocated
    /// every size of a huge range).
    #[test]
    fn hand_built_ranges_the_parsers_refuse_are_refused() {
        let backwards = Span { lo: 5, hi: 1 };
        let huge = Span {
            lo: 1,
            hi: usize::MAX,
        };
        let size = |width, height| SizeSpan {
            width,
            height,
            square: false,
        };
        let specs = [
            FamilySpec {
                apples: AppleCount::Count(backwards),
                ..spec(3)
            },
            FamilySpec {
                apples: AppleCount::Fill(backwards),
                ..spec(3)
            },
            FamilySpec {
                length: backwards,
                ..spec(3)
            },
            FamilySpec {
                walls: backwards,
                ..spec(3)
            },
            FamilySpec {
                visible: Some(backwards),
                ..spec(3)
            },
            FamilySpec {
                size: size(huge, huge),
                ..spec(3)
            },
            FamilySpec {
                size: size(Span::one(4), backwards),
                ..spec(3)
            },
        ];
        for (i, bad) in specs.iter().enumerate() {
            for result in [sample(bad), enumerate(bad)] {
                let e = result.unwrap_err();
                let expected = if i < 5 {
                    "\"5..1\" is not a range"
                } else {
                    "is not a size range"
                };
                assert!(e.to_string().contains(expected), "{i}: {e}");
            }
        }
    }

    #[test]
    fn samples_are_deterministic_canonical_and_distinct() {
        let a = sample(&spec(60)).unwrap();
        assert_eq!(a, sample(&spec(60)).unwrap());
        assert_eq!(a.instances.len(), 60);
        assert_eq!(a.draws, 60 + a.duplicates + a.invalid);
        let mut keys = HashSet::new();
        for i in &a.instances {
            assert!(symmetry::is_canonical(i));
            assert!(i.validate().is_ok());
            assert!(keys.insert(symmetry::key(i)), "two instances of a class");
        }
        let other = sample(&FamilySpec {
            seed: 10,
            ..spec(60)
        })
        .unwrap();
        assert_ne!(a.instances, other.instances);
    }

    #[test]
    fn a_small_setting_runs_out_of_classes() {
        // 2×2, one apple, a one-cell snake: 12 placements, 2 classes
        // (apple beside the snake, apple across the diagonal).
        let tiny = FamilySpec {
            size: SizeSpan::parse("2").unwrap(),
            apples: AppleCount::Count(Span::one(1)),
            length: Span::one(1),
            walls: Span::one(0),
            count: 4,
            ..spec(4)
        };
        let exhausted = sample(&tiny).unwrap_err();
        assert!(
            matches!(
                exhausted,
                FamilyError::Exhausted {
                    found: 2,
                    invalid: 0,
                    ..
                }
            ),
            "{exhausted:?}"
        );
        // Every draw is valid there: the hint is that the classes run out.
        assert!(exhausted.to_string().contains("each a class already found"));
        assert!(exhausted.to_string().ends_with("(try --all)"));
        assert_eq!(enumerate(&tiny).unwrap().instances.len(), 2);
        let both = sample(&FamilySpec { count: 2, ..tiny }).unwrap();
        assert_eq!(both.instances.len(), 2);
    }

    /// True when some symmetry of `a`'s board maps it onto `b`.
    fn related(a: &Instance, b: &Instance) -> bool {
        let b = symmetry::normal_form(b);
        symmetry::Symmetry::group(a.width, a.height)
            .iter()
            .any(|g| g.apply(a) == b)
    }

    #[test]
    fn classes_on_other_boards_or_with_other_rules_are_not_duplicates() {
        // 3×3, a two-cell body, two apples: 126 classes with one apple
        // visible, 66 with both (each --all), so a range of `visible` has
        // 192; a 2×2 board has 2 classes of one apple and 3×3 has 22, so
        // sizes 2..3 have 24, though some cell lists of a 2×2 instance are
        // those of a 3×3 one. Sampling finds every class, and no more.
        let visible = FamilySpec {
            size: SizeSpan::parse("3").unwrap(),
            apples: AppleCount::Count(Span::one(2)),
            length: Span::one(2),
            walls: Span::one(0),
            visible: Some(Span::parse("1..2").unwrap()),
            count: 192,
            seed: 1,
            ..spec(0)
        };
        let sizes = FamilySpec {
            size: SizeSpan::parse("2..3").unwrap(),
            apples: AppleCount::Count(Span::one(1)),
            visible: Some(Span::one(1)),
            count: 24,
            ..visible.clone()
        };
        // The classes of each single setting, counted by --all.
        let classes = |spec: &FamilySpec, singles: &[(&str, usize)]| -> Vec<usize> {
            singles
                .iter()
                .map(|&(size, visible)| {
                    let single = FamilySpec {
                        size: SizeSpan::parse(size).unwrap(),
                        visible: Some(Span::one(visible)),
                        ..spec.clone()
                    };
                    enumerate(&single).unwrap().instances.len()
                })
                .collect()
        };
        assert_eq!(classes(&visible, &[("3", 1), ("3", 2)]), [126, 66]);
        assert_eq!(classes(&sizes, &[("2", 1), ("3", 1)]), [2, 22]);
        // Rectangles: a 2×3 board is not turned into a 3×2 one (only
        // squares are transposed), so both count.
        let rectangles = FamilySpec {
            size: SizeSpan::parse("2x2..3x3").unwrap(),
            ..sizes.clone()
        };
        let singles = [("2x2", 1), ("2x3", 1), ("3x2", 1), ("3x3", 1)];
        let rectangles = FamilySpec {
            count: classes(&rectangles, &singles).iter().sum(),
            ..rectangles
        };
        for spec in [visible, sizes, rectangles] {
            let family = sample(&spec).unwrap().instances;
            assert_eq!(family.len(), spec.count);
            for (i, a) in family.iter().enumerate() {
                for b in &family[i + 1..] {
                    assert!(!related(a, b), "{a:?} and {b:?} are one class");
                }
            }
            // One more is more than the setting has.
            assert!(matches!(
                sample(&FamilySpec {
                    count: spec.count + 1,
                    ..spec
                }),
                Err(FamilyError::Exhausted { .. })
            ));
        }
    }

    #[test]
    fn fill_sets_the_apples_from_the_covered_share() {
        let s = FamilySpec {
            size: SizeSpan::parse("5").unwrap(),
            apples: AppleCount::Fill(Span::one(40)),
            length: Span::one(2),
            walls: Span::one(0),
            count: 5,
            ..spec(5)
        };
        for i in sample(&s).unwrap().instances {
            assert_eq!(i.apples.len(), 8, "40% of 25 cells minus the snake");
        }
    }
}
