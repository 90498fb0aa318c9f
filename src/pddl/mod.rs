//! The IPC-2018 snake domain (docs/DESIGN.md §3): reading its problem files into
//! an [`Instance`] and the names of its objects ([`read_problem`],
//! [`from_pddl`]) and writing plans in its action syntax ([`plan::ipc_plan`]).
//!
//! Mapping: objects `posX-Y` are cells (grid = largest X + 1 by largest Y + 1
//! over the cells the facts of `:init` name),
//! each keeping the name the problem declares it by (`pos01-00` stays
//! `pos01-00`; two objects naming one cell, `pos4-0` and `pos04-0`, are
//! refused); cells without an object, without `ISADJACENT` links, or
//! `blocked` without being part of the snake are walls; the body runs from `headsnake` along
//! `nextsnake` to `tailsnake`; the apples are the initial `ispoint` facts (in
//! file order, all visible) followed by the `spawn`/`NEXTSPAWN` chain up to
//! `dummypoint`. The rules are `tail = strict`, `grow = true`.
//!
//! Lists may nest at most [`MAX_NESTING`] deep (the snake domain needs 4), and
//! a file may hold at most [`MAX_EXPRESSIONS`] lists and atoms.
//!
//! Only grids with walls are supported: an `ISADJACENT` graph that is not the
//! 4-neighbour grid restricted to its cells is refused. So is an initial
//! `ispoint` under the snake's body, which the domain allows but the model
//! does not (an apple visible at `t = 0` may not lie under the body), and a
//! spawn on an initial point's cell when there are several initial points.
//! Without an initial `ispoint` nothing is ever eaten, so nothing spawns:
//! the problem is read with no apples, and needs no `spawn` fact.

pub mod domain;
pub mod plan;
pub mod validate;
pub mod write;

use std::borrow::Cow;
use std::collections::BTreeSet;

// Fx hashing: a 1000x1000 board's problem holds millions of facts, and
// SipHash's resistance to chosen keys buys nothing for cell positions.
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use std::path::Path;

use thiserror::Error;

use crate::excerpt::{excerpt, excerpt_words};
use crate::geometry::Direction;
use crate::instance::{Instance, InstanceError, Pos, Start, TailRule};

/// The deepest nesting of parentheses a problem file may have.
pub const MAX_NESTING: usize = 64;

/// The most expressions (lists and atoms) a problem file may have: 32 per
/// cell of the largest board. A 1000x1000 board's problem needs about 26
/// million (its objects, four `ISADJACENT` facts of four expressions per
/// cell, walls, snake and up to [`crate::instance::MAX_APPLES`] apples), so
/// a file beyond the cap is not a problem, and reading stops there, before
/// it holds more than the largest problem does (250 MB of `()` took 5 GB).
pub const MAX_EXPRESSIONS: usize = 32 * crate::instance::MAX_SIDE * crate::instance::MAX_SIDE;

/// Why a problem file could not be read.
#[derive(Debug, Error, PartialEq, Eq)]
#[non_exhaustive]
pub enum PddlError {
    /// The text is not a sequence of s-expressions; `line` is 1-based.
    #[error("malformed PDDL: {message} on line {line}")]
    Syntax {
        /// Line of the problem, from 1.
        line: usize,
        /// What is wrong.
        message: String,
    },
    /// The s-expressions are not a snake-domain problem this reader
    /// supports; `line` is that of the fact or object at fault, when one is.
    #[error("{}{message}", line.map_or(String::new(), |l| format!("line {l}: ")))]
    Problem {
        /// Line of the problem, from 1, when the fault lies on one.
        line: Option<usize>,
        /// What is wrong.
        message: String,
    },
    /// The problem reads as a game that breaks the model's rules. (Its
    /// message holds the inner error's, so that is not also the `source()`.)
    #[error("the problem is not a valid game: {0}")]
    Invalid(InstanceError),
}

impl From<InstanceError> for PddlError {
    fn from(error: InstanceError) -> Self {
        PddlError::Invalid(error)
    }
}

/// Returns a [`PddlError::Problem`] with a formatted message.
macro_rules! fail {
    ($($arg:tt)*) => {
        return Err(unsupported(format!($($arg)*)))
    };
}

/// A [`PddlError::Problem`] with `message`, on no line in particular.
fn unsupported(message: String) -> PddlError {
    PddlError::Problem {
        line: None,
        message: excerpt_words(&message),
    }
}

/// A [`PddlError::Problem`] with `message` about line `line` of the file
/// (the line of the fact at fault), shown `line N: message`, as the plan
/// reader says it.
fn at_line(line: usize, message: String) -> PddlError {
    PddlError::Problem {
        line: Some(line),
        message: excerpt_words(&message),
    }
}

/// [`at_line`] for an error already made: a [`PddlError::Problem`] without
/// a line gets `line`, any other error stays as it is.
fn with_line(line: usize, error: PddlError) -> PddlError {
    match error {
        PddlError::Problem {
            line: None,
            message,
        } => at_line(line, message),
        other => other,
    }
}

/// The domain's constant that ends the spawn chain.
pub(crate) const DUMMY: &str = "dummypoint";

/// The object name of a cell: `pos{x}-{y}`.
pub(crate) fn object_name(p: Pos) -> String {
    format!("pos{}-{}", p.0, p.1)
}

/// The cell an object name `posX-Y` (any case) stands for.
fn parse_object(name: &str) -> Option<Pos> {
    if !name.get(..3)?.eq_ignore_ascii_case("pos") {
        return None;
    }
    let (x, y) = name[3..].split_once('-')?;
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if !digits(x) || !digits(y) {
        return None;
    }
    // Digits only, so parsing fails only beyond `usize`: such a cell is as
    // far off as the largest. Named in a fact of `:init`, it is refused as
    // the grid too large; declared and used by no fact, it adds nothing to
    // the board (the grid holds the cells the facts name).
    let number = |s: &str| s.parse().unwrap_or(usize::MAX);
    Some((number(x), number(y)))
}

/// The objects that name a problem's cells. PDDL names are case-insensitive:
/// the reader lowercases them, and [`Objects::cell`] looks names up in any case.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Objects(Naming);

#[derive(Clone, Debug, PartialEq, Eq)]
enum Naming {
    /// The (lowercased) names of the objects a problem file declares, by
    /// cell. Every declared object names a cell (`posX-Y`), so a name is
    /// looked up by parsing it: no second map by name.
    Declared { names: HashMap<Pos, String> },
    /// `posX-Y` for every cell of a `width` x `height` grid.
    Canonical { width: usize, height: usize },
}

impl Objects {
    /// The names of an instance that has no problem file (JSON, random):
    /// `pos{x}-{y}` for every cell of its grid, as
    /// [`write::to_pddl`] declares them.
    pub fn canonical(instance: &Instance) -> Objects {
        Objects(Naming::Canonical {
            width: instance.width,
            height: instance.height,
        })
    }

    /// The object of cell `p`: the name the problem declares it by. A cell
    /// without an object (a wall the problem leaves out) gets `pos{x}-{y}`.
    pub fn name(&self, p: Pos) -> Cow<'_, str> {
        match &self.0 {
            Naming::Declared { names } => match names.get(&p) {
                Some(name) => Cow::Borrowed(name),
                None => Cow::Owned(object_name(p)),
            },
            Naming::Canonical { .. } => Cow::Owned(object_name(p)),
        }
    }

    /// The cell the object `name` (any case) stands for; `None` when the
    /// problem has no such object.
    pub fn cell(&self, name: &str) -> Option<Pos> {
        match &self.0 {
            Naming::Declared { names } => parse_object(name)
                .filter(|p| names.get(p).is_some_and(|n| n.eq_ignore_ascii_case(name))),
            Naming::Canonical { width, height } => {
                parse_object(name).filter(|&(x, y)| x < *width && y < *height)
            }
        }
    }
}

/// A problem: the game and the names of its cells.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// The game the problem describes.
    pub instance: Instance,
    /// The names its objects give the cells, for reading and writing plans.
    pub objects: Objects,
}

/// True for paths read as PDDL (ending in `.pddl`, any case).
pub fn is_pddl_path(path: impl AsRef<Path>) -> bool {
    path.as_ref()
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("pddl"))
}

/// True when `text` (the head of a file is enough) begins, after blanks and
/// `;` comments, with `(define (domain`, in any case: a domain file.
pub fn is_domain_text(text: &str) -> bool {
    domain::tokens(text)
        .map(|(_, word)| word)
        .take(4)
        .eq(["(", "define", "(", "domain"])
}

/// An s-expression: an atom, or a list and the line of its `(`. Atoms
/// borrow the text they were read from: a 1000x1000 board's problem holds
/// about 13 million of them, and a `String` or two each made reading it
/// allocation-bound. A list holds exactly its items (a `Vec` kept room for
/// four, so 16 million one-item lists took 3.5 GB) and lines are 32 bits
/// (an input file is at most 256 MB).
#[derive(Clone, Debug, PartialEq, Eq)]
enum Sx<'t> {
    Atom(Atom<'t>),
    List(Box<[Sx<'t>]>, u32),
}

/// An atom of a problem file.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Atom<'t> {
    /// Lowercased (PDDL names are case-insensitive): a slice of the
    /// lowercased copy of the text, at the same place as `spelt`.
    name: &'t str,
    /// As spelt in the file, for messages.
    spelt: &'t str,
    /// Its line, from 1.
    line: u32,
}

/// A line number as the parse tree keeps it: 32 bits, the last one for all
/// beyond (no input file has 4 billion lines).
fn line32(line: usize) -> u32 {
    u32::try_from(line).unwrap_or(u32::MAX)
}

impl Atom<'_> {
    /// Its line, from 1.
    fn line(&self) -> usize {
        self.line as usize
    }
}

impl<'t> Sx<'t> {
    /// The lowercased name of an atom.
    fn atom(&self) -> Option<&'t str> {
        self.word().map(|a| a.name)
    }

    fn word(&self) -> Option<&Atom<'t>> {
        match self {
            Sx::Atom(a) => Some(a),
            Sx::List(..) => None,
        }
    }

    fn list(&self) -> Option<&[Sx<'t>]> {
        match self {
            Sx::List(l, _) => Some(l),
            Sx::Atom(_) => None,
        }
    }

    /// The line the expression starts on, from 1.
    fn line(&self) -> usize {
        match self {
            Sx::Atom(a) => a.line(),
            Sx::List(_, line) => *line as usize,
        }
    }

    /// The head atom of a list, if any.
    fn head(&self) -> Option<&'t str> {
        self.list().and_then(|l| l.first()).and_then(Sx::atom)
    }
}

impl Sx<'_> {
    /// The expression as spelt (blanks made single spaces), in full.
    fn write_full(&self, out: &mut String) {
        match self {
            Sx::Atom(a) => out.push_str(a.spelt),
            Sx::List(items, _) => {
                out.push('(');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(' ');
                    }
                    item.write_full(out);
                }
                out.push(')');
            }
        }
    }
}

/// Shows the expression for error messages: cut to an [`excerpt`].
impl std::fmt::Display for Sx<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut full = String::new();
        self.write_full(&mut full);
        f.write_str(&excerpt(&full))
    }
}

/// Reads every top-level s-expression of `text` (`;` comments skipped), at
/// most [`MAX_NESTING`] deep; `lower` is `text` with ASCII letters
/// lowercased (so at the same byte offsets), where the atoms' names are.
/// A problem file is one `(define ...)` form: a file that is not is refused
/// as soon as that shows, before the rest is read (a 24 MB file of `(`, then
/// `()` twelve million times, took 1 GB to be told it was no define form).
fn parse_sexprs<'t>(text: &'t str, lower: &'t str) -> Result<Vec<Sx<'t>>, PddlError> {
    parse_at_most(text, lower, MAX_EXPRESSIONS, true)
}

/// [`parse_sexprs`] with at most `most` expressions; with `one_define`, a
/// second top-level form or a first one that does not begin with `define`
/// is refused at once.
fn parse_at_most<'t>(
    text: &'t str,
    lower: &'t str,
    most: usize,
    one_define: bool,
) -> Result<Vec<Sx<'t>>, PddlError> {
    debug_assert_eq!(text.len(), lower.len());
    let syntax = |line: usize, message: String| PddlError::Syntax {
        line,
        message: excerpt_words(&message),
    };
    // The items of every open list, outermost first, and where each open
    // list's items start with the line of its `(`: a list closed is moved
    // out in one allocation of exactly its items. (A `Vec` per open list,
    // shrunk when closed, left a hole of three items' room per list: 16
    // million one-item lists took 3.5 GB of memory for 1.5 GB of tree.)
    let mut items: Vec<Sx> = Vec::new();
    let mut open: Vec<(usize, usize)> = Vec::new();
    let mut top = Vec::new();
    let mut line = 1;
    let mut expressions = 0;
    let mut chars = text.char_indices().peekable();
    while let Some((start, c)) = chars.next() {
        if c == '(' || !(c.is_whitespace() || c == ')' || c == ';') {
            expressions += 1;
            if expressions > most {
                return Err(syntax(
                    line,
                    format!(
                        "more than {most} lists and atoms, beyond what a problem on the largest board needs"
                    ),
                ));
            }
        }
        match c {
            // Lines end in `\n`, `\r\n` or a lone `\r` (old Mac files).
            '\n' => line += 1,
            '\r' if chars.peek().is_none_or(|&(_, d)| d != '\n') => line += 1,
            ';' => {
                // To the line's end, which is counted as above.
                while chars.next_if(|&(_, d)| d != '\n' && d != '\r').is_some() {}
            }
            '(' => {
                if one_define && open.is_empty() && !top.is_empty() {
                    fail!("malformed PDDL: more than one top-level form");
                }
                if one_define && open.len() == 1 && items.is_empty() {
                    fail!("malformed PDDL: the file is not a (define ...) form");
                }
                if open.len() == MAX_NESTING {
                    return Err(syntax(
                        line,
                        format!("parentheses nest deeper than {MAX_NESTING}"),
                    ));
                }
                open.push((items.len(), line));
            }
            ')' => {
                let Some((first, opened)) = open.pop() else {
                    return Err(syntax(line, "unmatched ')'".into()));
                };
                let list = Sx::List(items.drain(first..).collect(), line32(opened));
                if open.is_empty() {
                    top.push(list);
                } else {
                    items.push(list);
                }
            }
            c if c.is_whitespace() => {}
            _ => {
                let mut end = text.len();
                while let Some(&(at, d)) = chars.peek() {
                    if d.is_whitespace() || d == '(' || d == ')' || d == ';' {
                        end = at;
                        break;
                    }
                    chars.next();
                }
                let spelt = &text[start..end];
                if open.is_empty() {
                    return Err(syntax(
                        line,
                        format!("{:?} outside parentheses", excerpt(spelt)),
                    ));
                }
                if one_define
                    && open.len() == 1
                    && items.is_empty()
                    && &lower[start..end] != "define"
                {
                    fail!("malformed PDDL: the file is not a (define ...) form");
                }
                items.push(Sx::Atom(Atom {
                    name: &lower[start..end],
                    spelt,
                    line: line32(line),
                }));
            }
        }
    }
    if let Some(&(_, opened)) = open.last() {
        // A `)` missing inside a section makes the next section a part of
        // it, and the unclosed `(` is then the file's first: say where (an
        // open list's items hold its closed lists; the open ones nest on).
        let ends = open.iter().skip(1).map(|&(first, _)| first);
        let stack: Vec<(&[Sx], usize)> = open
            .iter()
            .zip(ends.chain([items.len()]))
            .map(|(&(first, line), end)| (&items[first..end], line))
            .collect();
        let found = stack
            .iter()
            .find_map(|&(items, line)| section_in_section(items, line, 0))
            .or_else(|| {
                stack.windows(2).find_map(|w| {
                    let outer = (section_name(w[0].0)?, w[0].1);
                    Some((outer, (section_name(w[1].0)?, w[1].1)))
                })
            });
        return Err(match found {
            Some(((outer, outer_line), (inner, inner_line))) => syntax(
                outer_line,
                format!(
                    "a ')' is missing in the ({outer} section (the ({inner} of line {inner_line} \
                     lies inside it), which starts"
                ),
            ),
            None => syntax(opened, "'(' is never closed".into()),
        });
    }
    Ok(top)
}

/// The name of a section (`:goal` of `(:goal ...)`), given a list's items.
fn section_name<'a>(items: &'a [Sx<'a>]) -> Option<&'a str> {
    items
        .first()
        .and_then(Sx::atom)
        .filter(|head| head.starts_with(':'))
}

/// A section inside another: the outer section's name and line, and the
/// inner one's.
type Nested<'a> = ((&'a str, usize), (&'a str, usize));

/// A section found inside another section, at most a few levels below the
/// list of `items` (opened on `line`).
fn section_in_section<'a>(items: &'a [Sx<'a>], line: usize, depth: usize) -> Option<Nested<'a>> {
    let lists = || {
        items.iter().filter_map(|sx| match sx {
            Sx::List(list, at) => Some((&**list, *at as usize)),
            Sx::Atom(_) => None,
        })
    };
    if let Some(outer) = section_name(items)
        && let Some(inner) = lists().find_map(|(list, at)| Some((section_name(list)?, at)))
    {
        return Some(((outer, line), inner));
    }
    // (Sections sit right below `(define`; a few levels cover a section
    // swallowed by a fact swallowed by a section.)
    if depth >= 3 {
        return None;
    }
    lists().find_map(|(list, at)| section_in_section(list, at, depth + 1))
}

/// The sections of a `(define (problem ..) ..)` form.
struct Sections<'a> {
    /// The domain's name and the line of its section.
    domain: Option<(&'a str, usize)>,
    objects: Vec<&'a Atom<'a>>,
    init: &'a [Sx<'a>],
    goal: Option<&'a Sx<'a>>,
}

/// The parts of a `(define (problem ..) ..)` form that PDDL allows once each;
/// a repeated one is refused rather than half-read.
const ONCE: [&str; 7] = [
    "problem",
    ":domain",
    ":requirements",
    ":objects",
    ":init",
    ":goal",
    ":metric",
];

fn problem_sections<'a>(forms: &'a [Sx<'a>]) -> Result<Sections<'a>, PddlError> {
    let define = match forms {
        [one] if one.head() == Some("define") => one.list().unwrap_or_default(),
        [] => fail!("malformed PDDL: no (define ...) form"),
        [_] => fail!("malformed PDDL: the file is not a (define ...) form"),
        _ => fail!("malformed PDDL: more than one top-level form"),
    };
    let mut problem = Sections {
        domain: None,
        objects: Vec::new(),
        init: &[],
        goal: None,
    };
    let mut is_problem = false;
    let mut has_init = false;
    let mut seen: Vec<&str> = Vec::new();
    for section in &define[1..] {
        let items = section.list().ok_or_else(|| {
            at_line(
                section.line(),
                format!("malformed PDDL: unexpected atom {section} in (define ...)"),
            )
        })?;
        if let Some(head) = section.head()
            && ONCE.contains(&head)
        {
            if seen.contains(&head) {
                return Err(at_line(
                    section.line(),
                    format!("malformed PDDL: a second ({head} ...) section; a problem has one"),
                ));
            }
            seen.push(head);
        }
        match section.head() {
            Some("problem") => is_problem = true,
            Some("domain") => fail!("this is a domain file, not a problem file"),
            Some(":domain") => match items {
                [_, Sx::Atom(d)] => problem.domain = Some((d.name, section.line())),
                _ => {
                    return Err(at_line(
                        section.line(),
                        format!("malformed PDDL: (:domain NAME) expected, found {section}"),
                    ));
                }
            },
            Some(":objects") => {
                let mut iter = items[1..].iter();
                while let Some(item) = iter.next() {
                    let object = item.word().ok_or_else(|| {
                        at_line(item.line(), format!("malformed PDDL: {item} in :objects"))
                    })?;
                    if object.name == "-" {
                        // A type annotation: skip the type (there must be one).
                        if iter.next().and_then(Sx::word).is_none() {
                            return Err(at_line(
                                object.line(),
                                "malformed PDDL: '-' without a type in :objects".to_string(),
                            ));
                        }
                    } else {
                        problem.objects.push(object);
                    }
                }
            }
            Some(":init") => {
                has_init = true;
                problem.init = &items[1..];
            }
            Some(":goal") => match items {
                [_, goal] => problem.goal = Some(goal),
                _ => {
                    return Err(at_line(
                        section.line(),
                        "malformed PDDL: (:goal ...) must hold one formula".to_string(),
                    ));
                }
            },
            // The requirements do not change the game.
            Some(":requirements") => {}
            // The least plan is the one of fewest moves: a metric that
            // minimises is what snakesat answers (the domain has unit costs).
            Some(":metric") => match items.get(1).and_then(Sx::atom) {
                Some("minimize") => {}
                _ => {
                    return Err(at_line(
                        section.line(),
                        format!(
                            "unsupported metric {section}: snakesat finds plans of the fewest moves, (:metric minimize ...)"
                        ),
                    ));
                }
            },
            // Anything else (:constraints, a misspelt :goal) may change the
            // game: refused rather than dropped.
            _ => {
                return Err(at_line(
                    section.line(),
                    format!(
                        "unsupported section {section} in (define ...): a snake problem has (problem ...), (:domain ...), (:requirements ...), (:objects ...), (:init ...), (:goal ...) and (:metric minimize ...)"
                    ),
                ));
            }
        }
    }
    if !is_problem {
        fail!("malformed PDDL: no (problem NAME) in (define ...)");
    }
    match problem.domain {
        Some(("snake", _)) => {}
        Some((other, line)) => {
            return Err(at_line(
                line,
                format!("problem is for domain {:?}, not \"snake\"", excerpt(other)),
            ));
        }
        None => fail!("malformed PDDL: no (:domain ...) section"),
    }
    if !has_init {
        fail!("malformed PDDL: no (:init ...) section");
    }
    Ok(problem)
}

/// Reads a snake-domain problem file into a validated [`Instance`]. Errors are one line.
/// It keeps no object names: to write the plan as an IPC plan
/// ([`plan::ipc_plan`]), read the problem with [`read_problem`], which also
/// gives its [`Objects`].
pub fn from_pddl(text: &str) -> Result<Instance, PddlError> {
    read_problem(text).map(|problem| problem.instance)
}

/// Reads a snake-domain problem file into a validated [`Instance`] and the
/// names of its cells (a leading UTF-8 byte-order mark, which some editors
/// write, is skipped). Errors are one line.
pub fn read_problem(text: &str) -> Result<Problem, PddlError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let lower = text.to_ascii_lowercase();
    let forms = parse_sexprs(text, &lower)?;
    let problem = problem_sections(&forms)?;

    // Objects: cells, plus the domain constant if someone lists it. A name
    // listed twice is one object; two names for one cell are refused.
    let mut names: HashMap<Pos, String> = HashMap::default();
    for object in &problem.objects {
        let name = object.name;
        if name == DUMMY {
            continue;
        }
        let p = parse_object(name).ok_or_else(|| {
            at_line(
                object.line(),
                format!(
                    "object {:?} is not a cell name posX-Y",
                    excerpt(object.spelt)
                ),
            )
        })?;
        // (Coordinates beyond `usize` all read as the largest: two such
        // objects are not one cell, and no fact can use either.)
        let beyond = p.0 == usize::MAX || p.1 == usize::MAX;
        if let Some(first) = names.get(&p)
            && first != name
            && !beyond
        {
            return Err(at_line(
                object.line(),
                format!(
                    "objects {} and {} both name cell ({}, {}): a cell needs one object",
                    excerpt(first),
                    excerpt(object.spelt),
                    p.0,
                    p.1
                ),
            ));
        }
        names.entry(p).or_insert_with(|| name.to_string());
    }
    if names.is_empty() {
        fail!("no cell objects posX-Y in :objects");
    }
    let cells: HashSet<Pos> = names.keys().copied().collect();
    let objects = Objects(Naming::Declared { names });
    let name_of = |p: Pos| objects.name(p).into_owned();
    // The cell `object` stands for in `fact` of `section`.
    let cell_in = |object: &Atom, fact: &Sx, section: &str| -> Result<Pos, PddlError> {
        match objects.cell(object.name) {
            Some(p) => Ok(p),
            None if object.name == DUMMY => {
                fail!("{DUMMY} in {fact} of {section} is the domain's constant, not a cell")
            }
            None => fail!("unknown object {:?} in {section}", excerpt(object.spelt)),
        }
    };

    // Initial facts, as a set (repeats ignored) but in file order, with
    // the line of the fact that says each (the first, for repeats).
    let mut links: HashSet<(Pos, Pos)> = HashSet::default();
    let mut heads: Vec<(Pos, usize)> = Vec::new();
    let mut tails: Vec<(Pos, usize)> = Vec::new();
    let mut next_snake: HashMap<Pos, (Pos, usize)> = HashMap::default();
    let mut blocked: BTreeSet<Pos> = BTreeSet::new();
    let mut points: Vec<(Pos, usize)> = Vec::new();
    let mut spawns: Vec<(Option<Pos>, usize)> = Vec::new();
    let mut next_spawn: HashMap<Pos, (Option<Pos>, usize)> = HashMap::default();
    // Adds `(p, line)` to `facts` unless `p` is there already.
    fn once<T: PartialEq>(facts: &mut Vec<(T, usize)>, p: T, line: usize) {
        if !facts.iter().any(|(q, _)| *q == p) {
            facts.push((p, line));
        }
    }
    let mut read_fact = |fact: &Sx| -> Result<(), PddlError> {
        let line = fact.line();
        let items = fact
            .list()
            .ok_or_else(|| unsupported(format!("malformed PDDL: atom {fact} in :init")))?;
        if fact.head() == Some("=") {
            // The domain has no costs: the initial value of a cost-adding
            // tool's (total-cost) says nothing about the game.
            if let [_, Sx::List(f, _), Sx::Atom(_)] = items
                && matches!(&**f, [Sx::Atom(t)] if t.name == "total-cost")
            {
                return Ok(());
            }
            fail!("unsupported numeric fact {fact} in :init");
        }
        let cell = |object: &Atom| cell_in(object, fact, ":init");
        // A spawn argument: a cell or the dummy point.
        let spawn_arg = |object: &Atom| -> Result<Option<Pos>, PddlError> {
            if object.name == DUMMY {
                Ok(None)
            } else {
                cell(object).map(Some)
            }
        };
        let pred = fact.head().unwrap_or("");
        if pred == "not" {
            fail!("negative fact {fact} in :init");
        }
        let mut args = Vec::new();
        for a in items.iter().skip(1) {
            args.push(a.word().ok_or_else(|| {
                unsupported(format!("malformed PDDL: nested list in fact {fact}"))
            })?);
        }
        let arity = match pred {
            "isadjacent" | "nextsnake" | "nextspawn" => 2,
            "headsnake" | "tailsnake" | "blocked" | "spawn" | "ispoint" => 1,
            _ => fail!("unknown predicate in fact {fact}"),
        };
        if args.len() != arity {
            fail!("fact {fact} needs {arity} argument(s)");
        }
        match pred {
            "isadjacent" => {
                let (a, b) = (cell(args[0])?, cell(args[1])?);
                if Direction::from_to(a, b).is_none() {
                    fail!(
                        "ISADJACENT graph is not a grid with walls: {} and {} are linked but not neighbours",
                        name_of(a),
                        name_of(b)
                    );
                }
                links.insert((a, b));
            }
            "headsnake" => once(&mut heads, cell(args[0])?, line),
            "tailsnake" => once(&mut tails, cell(args[0])?, line),
            "nextsnake" => {
                let (a, b) = (cell(args[0])?, cell(args[1])?);
                if let Some(&(old, _)) = next_snake.get(&a)
                    && old != b
                {
                    fail!(
                        "snake body forks: {} has two cells behind it ({} and {})",
                        name_of(a),
                        name_of(old),
                        name_of(b)
                    );
                }
                next_snake.entry(a).or_insert((b, line));
            }
            "blocked" => {
                blocked.insert(cell(args[0])?);
            }
            "ispoint" => once(&mut points, cell(args[0])?, line),
            "spawn" => once(&mut spawns, spawn_arg(args[0])?, line),
            "nextspawn" => {
                let a = match spawn_arg(args[0])? {
                    Some(a) => a,
                    // dummypoint never spawns, so what follows it does not matter.
                    None => return Ok(()),
                };
                let b = spawn_arg(args[1])?;
                if let Some(&(old, _)) = next_spawn.get(&a)
                    && old != b
                {
                    fail!(
                        "broken spawn chain: NEXTSPAWN {} has two successors",
                        name_of(a)
                    );
                }
                next_spawn.entry(a).or_insert((b, line));
            }
            _ => unreachable!("predicates are checked above"),
        }
        Ok(())
    };
    for fact in problem.init {
        read_fact(fact).map_err(|e| with_line(fact.line(), e))?;
    }
    // The lines of the facts of a kind said more than once, for its message.
    fn lines<T>(facts: &[(T, usize)]) -> String {
        let lines: Vec<String> = facts.iter().map(|(_, line)| line.to_string()).collect();
        format!("lines {}", lines.join(", "))
    }
    let (points, point_lines): (Vec<Pos>, Vec<usize>) = points.into_iter().unzip();

    // The body: head, then nextsnake to the tail.
    let head = match heads.as_slice() {
        [(h, _)] => *h,
        [] => fail!("no (headsnake ...) fact: the snake has no head"),
        _ => fail!("more than one (headsnake ...) fact, on {}", lines(&heads)),
    };
    let tail = match tails.as_slice() {
        [(t, _)] => *t,
        [] => fail!("no (tailsnake ...) fact: the snake has no tail"),
        _ => fail!("more than one (tailsnake ...) fact, on {}", lines(&tails)),
    };
    let mut body = vec![head];
    let mut seen: HashSet<Pos> = HashSet::from_iter([head]);
    let mut at = head;
    while at != tail {
        let Some(&(next, line)) = next_snake.get(&at) else {
            fail!(
                "snake body is broken: no (nextsnake {} ...) on the way from the head to the tail {}",
                name_of(at),
                name_of(tail)
            );
        };
        if !seen.insert(next) {
            return Err(at_line(
                line,
                format!(
                    "snake body is not a simple chain: it returns to {}",
                    name_of(next)
                ),
            ));
        }
        body.push(next);
        at = next;
    }
    if body.len() == 1 {
        // The domain's `move` needs a `nextsnake` fact at the tail: a
        // one-cell snake could only eat next to its head, which the
        // simulator (and every encoding) does not model.
        fail!(
            "the snake is one cell ({}): the domain's move needs a (nextsnake ...) fact, so such a snake could only eat next to its head, which snakesat does not model",
            name_of(head)
        );
    }
    if next_snake.len() != body.len() - 1 {
        fail!(
            "snake body is not a simple chain: {} nextsnake fact(s) for a body of {} cell(s) from head to tail",
            next_snake.len(),
            body.len()
        );
    }
    for &b in &body {
        if !blocked.contains(&b) {
            fail!(
                "snake cell {} is not (blocked ...): the body and the blocked cells disagree",
                name_of(b)
            );
        }
    }

    // The spawn chain.
    let (first_spawn, spawn_line) = match spawns.as_slice() {
        [s] => *s,
        // Without an initial apple nothing is eaten, so nothing spawns.
        [] if points.is_empty() => (None, 0),
        [] => fail!("broken spawn chain: no (spawn ...) fact"),
        _ => fail!(
            "broken spawn chain: more than one (spawn ...) fact, on {}",
            lines(&spawns)
        ),
    };
    // The chain's cells and the lines of the facts that put them on it.
    let mut chain: Vec<Pos> = Vec::new();
    let mut chain_lines: Vec<usize> = Vec::new();
    let mut on_chain: HashSet<Pos> = HashSet::default();
    let (mut at, mut line) = (first_spawn, spawn_line);
    while let Some(p) = at {
        if !on_chain.insert(p) {
            return Err(at_line(
                line,
                format!(
                    "broken spawn chain: it loops back to {} without reaching dummypoint",
                    name_of(p)
                ),
            ));
        }
        chain.push(p);
        chain_lines.push(line);
        (at, line) = *next_spawn.get(&p).ok_or_else(|| {
            unsupported(format!(
                "broken spawn chain: no (NEXTSPAWN {} ...) fact",
                name_of(p)
            ))
        })?;
    }

    // The grid: the smallest that holds every cell a fact of :init names. An
    // object in no fact is a wall, and one beyond them adds nothing to the
    // board (its edge is a wall too).
    let mentioned: Vec<Pos> = links
        .iter()
        .flat_map(|&(a, b)| [a, b])
        .chain(blocked.iter().copied())
        .chain(body.iter().copied())
        .chain(points.iter().copied())
        .chain(chain.iter().copied())
        .collect();
    // Sides counted in u128: a cell's coordinate may be usize::MAX.
    let side = |axis: fn(&Pos) -> usize| mentioned.iter().map(|p| axis(p) as u128 + 1).max();
    let (width, height) = (side(|p| p.0).unwrap_or(1), side(|p| p.1).unwrap_or(1));
    let max = crate::instance::MAX_SIDE as u128;
    if let Some(&far) = mentioned.iter().find(|p| {
        (width > max && p.0 as u128 + 1 == width) || (height > max && p.1 as u128 + 1 == height)
    }) {
        let message = format!(
            "grid {width}x{height} is too large: {} is beyond its limit of {max} cells a side",
            name_of(far)
        );
        // (On the line of the first fact that names it.)
        let names_far = |fact: &&Sx| {
            fact.list().is_some_and(|items| {
                items
                    .iter()
                    .filter_map(Sx::word)
                    .any(|w| objects.cell(w.name) == Some(far))
            })
        };
        return Err(match problem.init.iter().find(names_far) {
            Some(fact) => at_line(fact.line(), message),
            None => unsupported(message),
        });
    }
    let (width, height) = (width as usize, height as usize);

    // Cells with links (or used by the snake or the apples) are open;
    // the links must be exactly the grid's between open cells.
    // (Every link joins neighbours: each fact was checked.)
    let mut linked: HashSet<Pos> = HashSet::default();
    for &(a, b) in &links {
        linked.insert(a);
        linked.insert(b);
    }
    // The fact that puts apple `index` (in reveal order) on the board.
    let apple_fact = |index: usize| match index.checked_sub(points.len()) {
        None => format!("(ispoint {})", name_of(points[index])),
        Some(0) => format!("(spawn {})", name_of(chain[0])),
        Some(k) => format!(
            "(NEXTSPAWN {} {})",
            name_of(chain[k - 1]),
            name_of(chain[k])
        ),
    };
    // The line of that fact.
    let apple_line = |index: usize| match index.checked_sub(points.len()) {
        None => point_lines[index],
        Some(k) => chain_lines[k],
    };
    // An apple on a cell without links is on a wall: say so, not that its
    // links are missing.
    if let Some((index, &cell)) = points
        .iter()
        .chain(&chain)
        .enumerate()
        .find(|(_, p)| !linked.contains(p) && !body.contains(p))
    {
        return Err(at_line(
            apple_line(index),
            format!(
                "{} puts an apple on {}, which has no ISADJACENT link: a wall, where the apple \
                 could never be eaten",
                apple_fact(index),
                name_of(cell)
            ),
        ));
    }
    let used = |p: &Pos| body.contains(p) || points.contains(p) || on_chain.contains(p);
    let open: HashSet<Pos> = cells
        .iter()
        .copied()
        .filter(|p| linked.contains(p) || used(p))
        .collect();
    let mut sorted_open: Vec<Pos> = open.iter().copied().collect();
    sorted_open.sort_by_key(|p| (p.1, p.0));
    for &a in &sorted_open {
        for b in [(a.0 + 1, a.1), (a.0, a.1 + 1)] {
            if !open.contains(&b) {
                continue;
            }
            for (u, v) in [(a, b), (b, a)] {
                if !links.contains(&(u, v)) {
                    fail!(
                        "ISADJACENT graph is not a grid with walls: (ISADJACENT {} {}) is missing",
                        name_of(u),
                        name_of(v)
                    );
                }
            }
        }
    }
    let mut walls: Vec<Pos> = Vec::new();
    for y in 0..height {
        for x in 0..width {
            let p = (x, y);
            if !open.contains(&p) || (blocked.contains(&p) && !body.contains(&p)) {
                walls.push(p);
            }
        }
    }

    // The goal: every apple cell, nothing else.
    let goal = problem
        .goal
        .ok_or_else(|| unsupported("malformed PDDL: no (:goal ...) section".into()))?;
    // Its literals, `and`s (nested ones too) flattened.
    let mut literals: Vec<&Sx> = Vec::new();
    let mut todo = vec![goal];
    while let Some(formula) = todo.pop() {
        if formula.head() == Some("and") {
            todo.extend(formula.list().unwrap_or_default()[1..].iter().rev());
        } else {
            literals.push(formula);
        }
    }
    let mut goal_cells: BTreeSet<Pos> = BTreeSet::new();
    for lit in literals {
        let unsupported_goal = || {
            at_line(
                lit.line(),
                format!("unsupported goal {lit}: only (not (ispoint CELL)) literals are supported"),
            )
        };
        let object = match lit.list() {
            Some([Sx::Atom(not), Sx::List(inner, _)]) if not.name == "not" => match &**inner {
                [Sx::Atom(p), Sx::Atom(c)] if p.name == "ispoint" => c,
                _ => return Err(unsupported_goal()),
            },
            _ => return Err(unsupported_goal()),
        };
        // (ispoint dummypoint) is never true: (:init) cannot say it (the
        // constant is no cell) and nothing spawns the dummy point.
        if object.name != DUMMY {
            let cell = cell_in(object, lit, ":goal").map_err(|e| with_line(lit.line(), e))?;
            goal_cells.insert(cell);
        }
    }
    let mut apples = points.clone();
    apples.extend(chain.iter().copied());
    let apple_cells: BTreeSet<Pos> = apples.iter().copied().collect();
    // Without an initial point no cell ever holds one, so every goal literal
    // (not (ispoint CELL)) holds from the start, whichever cells it names.
    // Nor does a cell that never holds an apple (one of the chain before
    // `spawn`, or no apple's at all): its literal always holds. A goal that
    // leaves an apple's cell out asks for less than every apple eaten,
    // which snakesat does not model.
    let missing: Vec<String> = apple_cells
        .difference(&goal_cells)
        .map(|&p| name_of(p))
        .collect();
    if !points.is_empty() && !missing.is_empty() {
        fail!(
            "goal is not \"every apple eaten\": apple cells missing from it [{}]",
            missing.join(" ")
        );
    }
    if points.is_empty() {
        // No initial point: nothing is ever eaten, so nothing spawns, and the
        // goal (no ispoint) holds from the start. The chain is never reached.
        apples.clear();
    }

    let instance = Instance {
        width,
        height,
        walls,
        start: Start::Body(body),
        visible: points.len(),
        apples,
        grow: true,
        tail: TailRule::Strict,
        horizon: None,
    };
    instance.validate().map_err(|e| match e {
        // The domain allows it (the apple waits until the head comes back);
        // snakesat's model does not.
        InstanceError::AppleOnBody { index, x, y } => at_line(
            apple_line(index),
            format!(
                "initial (ispoint {}) lies under the snake's body: the domain allows it, but \
                 snakesat does not support an apple under the body at the start (only spawned ones)",
                name_of((x, y))
            ),
        ),
        // A spawn on an initial point's cell, with several initial points.
        InstanceError::DuplicateApple { j, x, y, .. } => at_line(
            apple_line(j),
            format!(
                "{} spawns an apple on {c}, the cell of the initial (ispoint {c}): the domain \
                 allows it, but snakesat supports a spawn on an initial point's cell only when \
                 there is one initial ispoint",
                apple_fact(j),
                c = name_of((x, y))
            ),
        ),
        InstanceError::OnWall { x, y, .. } => {
            let message = |fact: String| {
                format!(
                    "{fact} puts an apple on {c}, which is (blocked {c}) without being the \
                     snake's: a wall, where the apple could never be eaten",
                    c = name_of((x, y))
                )
            };
            match instance.apples.iter().position(|&a| a == (x, y)) {
                Some(index) => at_line(apple_line(index), message(apple_fact(index))),
                None => unsupported(message(format!("(ispoint {})", name_of((x, y))))),
            }
        }
        InstanceError::BodyNotAdjacent { x1, y1, x2, y2, .. } => at_line(
            next_snake[&(x1, y1)].1,
            format!(
                "snake body is broken: (nextsnake {} {}) links cells that are not neighbours",
                name_of((x1, y1)),
                name_of((x2, y2))
            ),
        ),
        other => PddlError::Invalid(other),
    })?;
    Ok(Problem { instance, objects })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Reading stops at the expression beyond the cap, lists and atoms alike
    /// (blanks, comments and closing parentheses are not counted).
    #[test]
    fn reading_stops_beyond_the_expression_cap() {
        let text = "(a b) ; (c d e f)\n ( ) (g)";
        let lower = text.to_ascii_lowercase();
        assert_eq!(parse_at_most(text, &lower, 6, false).unwrap().len(), 3);
        match parse_at_most(text, &lower, 5, false) {
            Err(PddlError::Syntax { line, message }) => {
                assert_eq!(line, 2);
                assert!(
                    message.starts_with("more than 5 lists and atoms"),
                    "{message}"
                );
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn object_names_round_trip() {
        assert_eq!(parse_object("POS12-3"), Some((12, 3)));
        assert_eq!(object_name((12, 3)), "pos12-3");
        assert_eq!(parse_object("pos1-"), None);
        assert_eq!(parse_object("pos-1-2"), None);
        assert_eq!(parse_object("dummypoint"), None);
    }

    #[test]
    fn pddl_paths() {
        assert!(is_pddl_path("a/b/instance-1.pddl"));
        assert!(is_pddl_path("X.PDDL"));
        assert!(!is_pddl_path("x.json"));
        assert!(!is_pddl_path("pddl"));
    }

    #[test]
    fn tokenizer_skips_comments_and_lowercases() {
        let parse = |text: &str| {
            parse_at_most(text, &text.to_ascii_lowercase(), MAX_EXPRESSIONS, false).map(|f| f.len())
        };
        let text = "; c\n(A (b;x)\n)\tC)";
        let lower = text.to_ascii_lowercase();
        let forms = parse_at_most(text, &lower, MAX_EXPRESSIONS, false).unwrap();
        assert_eq!(forms.len(), 1);
        // Shown as spelt; names lowercased; lines kept.
        assert_eq!(forms[0].to_string(), "(A (b) C)");
        assert_eq!(forms[0].head(), Some("a"));
        let items = forms[0].list().unwrap();
        assert_eq!(forms[0].line(), 2);
        assert_eq!(items[2].atom(), Some("c"));
        assert_eq!(items[2].line(), 3);
        assert!(parse("(a (b)").is_err());
        assert!(parse("(a))").is_err());
        // Atoms end at blanks (Unicode ones too), parentheses and comments;
        // names past a multi-byte character stay aligned with their spelling.
        let text = "(É\u{a0}Ab;c\n)";
        let lower = text.to_ascii_lowercase();
        let forms = parse_at_most(text, &lower, MAX_EXPRESSIONS, false).unwrap();
        let items = forms[0].list().unwrap();
        assert_eq!(items.len(), 2);
        assert_eq!(items[0].atom(), Some("É"));
        assert_eq!(items[1].atom(), Some("ab"));
        assert_eq!(items[1].word().unwrap().spelt, "Ab");
    }

    /// A problem file that is not one `(define ...)` form is refused as soon
    /// as that shows: a second form, or a first item that is not `define`,
    /// ends the reading before the rest of the file (unclosed here, which a
    /// whole reading would have named instead).
    #[test]
    fn a_problem_that_is_no_define_form_is_refused_before_the_rest() {
        for (text, said) in [
            ("(foo () () (", "the file is not a (define ...) form"),
            ("(() (define", "the file is not a (define ...) form"),
            ("(define (problem p)) (x (", "more than one top-level form"),
            ("(DEFINE (problem p)) ((", "more than one top-level form"),
        ] {
            let lower = text.to_ascii_lowercase();
            match parse_sexprs(text, &lower) {
                Err(PddlError::Problem {
                    line: None,
                    message,
                }) => {
                    assert_eq!(message, format!("malformed PDDL: {said}"), "{text}")
                }
                other => panic!("{text}: {other:?}"),
            }
        }
        let text = "(define (problem p)) ; one form\n";
        assert_eq!(parse_sexprs(text, text).unwrap().len(), 1);
    }

    /// tests/data/tiny-3x2.pddl: snake pos1-0 -> pos0-0, a point at pos2-0,
    /// then pos2-1 spawns.
    const TINY: &str = include_str!("../../tests/data/tiny-3x2.pddl");

    /// A goal literal of a cell that never holds an apple always holds, so
    /// it is accepted (it was refused as "no apple"); a goal that leaves an
    /// apple's cell out is still refused.
    #[test]
    fn the_goal_names_every_apple_and_may_name_more_cells() {
        let plain = from_pddl(TINY).unwrap();
        let extra = TINY.replace(
            "(not (ispoint pos2-1))))",
            "(not (ispoint pos2-1)) (not (ispoint pos0-1))))",
        );
        assert_eq!(from_pddl(&extra).unwrap(), plain);
        let short = TINY.replace(" (not (ispoint pos2-1))", "");
        assert_ne!(short, TINY);
        assert_eq!(
            from_pddl(&short).unwrap_err().to_string(),
            "goal is not \"every apple eaten\": apple cells missing from it [pos2-1]"
        );
    }

    /// Without an initial `ispoint` nothing is eaten, so nothing spawns: a
    /// problem without a `spawn` fact (and an empty goal) is read with no
    /// apples (it was refused as a broken spawn chain); with an apple, the
    /// eat actions need the fact, and its absence is still refused.
    #[test]
    fn no_spawn_fact_is_needed_without_an_apple() {
        let bare = TINY
            .replace(
                "(:goal (and (not (ispoint pos2-0)) (not (ispoint pos2-1))))",
                "(:goal (and))",
            )
            .replace("(ispoint pos2-0)", "")
            .replace("(spawn pos2-1)", "")
            .replace("(NEXTSPAWN pos2-1 dummypoint)", "");
        let instance = from_pddl(&bare).unwrap();
        assert!(instance.apples.is_empty());
        assert_eq!(instance.width, from_pddl(TINY).unwrap().width);
        let spawnless = TINY.replace("(spawn pos2-1)", "");
        assert_eq!(
            from_pddl(&spawnless).unwrap_err().to_string(),
            "broken spawn chain: no (spawn ...) fact"
        );
    }

    /// Errors that name objects cut each name to an excerpt and the whole
    /// message to [`crate::excerpt::MAX_MESSAGE`]: a 100,000-character name
    /// was echoed whole (three times for an apple on a wall), as were
    /// sections' names, however long.
    #[test]
    fn errors_echo_excerpts_of_long_names() {
        let long = format!("pos{}2-1", "0".repeat(100_000));
        let renamed = TINY.replace("pos2-1", &long);
        let faults = [
            // The goal misses an apple.
            renamed.replace(&format!("(not (ispoint {long}))"), ""),
            // The spawn chain loops.
            renamed.replace(
                &format!("(NEXTSPAWN {long} dummypoint)"),
                &format!("(NEXTSPAWN {long} {long})"),
            ),
            // A section with a long name.
            format!(
                "(define (problem p)\n(:{} x\n(:init (foo))\n)",
                "d".repeat(100_000)
            ),
        ];
        for text in faults {
            let message = from_pddl(&text).unwrap_err().to_string();
            assert!(
                message.chars().count() < crate::excerpt::MAX_MESSAGE + 20,
                "{}",
                message.len()
            );
            assert!(message.contains('…'), "{message}");
        }
    }

    #[test]
    fn cells_keep_the_names_the_problem_declares() {
        // Leading zeros, in upper case: names are case-insensitive and kept lowercased.
        let zeros = TINY.replace("pos", "POS0");
        let problem = read_problem(&zeros).unwrap();
        assert_eq!(problem.instance, from_pddl(TINY).unwrap());
        assert_eq!(problem.objects.name((2, 1)), "pos02-1");
        assert_eq!(problem.objects.cell("Pos02-1"), Some((2, 1)));
        // Another spelling of the same cell is not an object of the problem.
        assert_eq!(problem.objects.cell("pos2-1"), None);
        // Messages name cells as the problem does.
        let unblocked = zeros.replace("(blocked POS00-0)", "");
        assert_eq!(
            from_pddl(&unblocked).unwrap_err().to_string(),
            "snake cell pos00-0 is not (blocked ...): the body and the blocked cells disagree"
        );
        // Facts name declared objects only.
        let alias = zeros.replace("(ispoint POS02-0)", "(ispoint pos2-0)");
        assert_eq!(
            from_pddl(&alias).unwrap_err().to_string(),
            "line 21: unknown object \"pos2-0\" in :init"
        );
    }

    /// Errors name the same line whatever the file's line endings: a file
    /// with lone `\r` endings (old Mac) read as one line, so every error
    /// said line 1, and a `;` comment ran to the end of the file.
    #[test]
    fn lines_end_in_lf_crlf_or_a_lone_cr() {
        let commented = TINY.replacen("(:init", "; a comment\n(:init", 1);
        let unknown = commented.replacen("(ispoint pos", "(ispoint nowhere) (ispoint pos", 1);
        let error = from_pddl(&unknown).unwrap_err().to_string();
        assert!(error.contains("unknown object \"nowhere\""), "{error}");
        for ending in ["\r\n", "\r"] {
            let text = unknown.replace('\n', ending);
            assert_eq!(
                from_pddl(&text).unwrap_err().to_string(),
                error,
                "{ending:?}"
            );
            let good = commented.replace('\n', ending);
            assert_eq!(
                from_pddl(&good).unwrap(),
                from_pddl(TINY).unwrap(),
                "{ending:?}"
            );
        }
    }

    #[test]
    fn two_objects_naming_one_cell_are_refused() {
        let two = TINY.replacen("pos2-1\n", "pos2-1 pos02-0\n", 1);
        let error = from_pddl(&two).unwrap_err();
        assert_eq!(
            error.to_string(),
            "line 6: objects pos2-0 and pos02-0 both name cell (2, 0): a cell needs one object"
        );
        // The line is a field too, for programs.
        assert!(matches!(error, PddlError::Problem { line: Some(6), .. }));
        // Coordinates past `usize` all read as the largest number, but two
        // such objects are two walls, not one cell: no fact uses them.
        let far = TINY.replacen(
            "pos2-1\n",
            "pos2-1 pos99999999999999999999-0 pos99999999999999999998-0\n",
            1,
        );
        assert_ne!(far, TINY);
        assert_eq!(from_pddl(&far).unwrap(), from_pddl(TINY).unwrap());
        // A fault of no one line has none.
        let no_goal = TINY.replacen("(:goal", "(:requirements", 1);
        let error = from_pddl(&no_goal).unwrap_err();
        assert!(
            matches!(error, PddlError::Problem { line: None, .. }),
            "{error}"
        );
        // One name listed twice, in any case, is one object.
        let again = TINY.replacen("pos2-1\n", "pos2-1 POS2-0\n", 1);
        assert_eq!(from_pddl(&again).unwrap(), from_pddl(TINY).unwrap());
    }

    #[test]
    fn instances_without_a_problem_file_have_canonical_names() {
        let objects = Objects::canonical(&from_pddl(TINY).unwrap());
        assert_eq!(objects.name((2, 1)), "pos2-1");
        assert_eq!(objects.cell("POS2-1"), Some((2, 1)));
        assert_eq!(objects.cell("pos3-0"), None);
        assert_eq!(objects.cell("dummypoint"), None);
    }
}
