//! Writing an [`Instance`] as an IPC-2018 snake problem file, in the shape
//! of the competition's files (`benchmarks/ipc2018-snake/`): every cell an
//! object, `ISADJACENT` links between free neighbours, the body from
//! `headsnake` along `nextsnake` to `tailsnake`, the visible apples as
//! `ispoint`, the rest as the `spawn` / `NEXTSPAWN` chain ending in
//! `dummypoint`, and a goal that every apple is eaten. Walls are `blocked`
//! cells without links. [`super::from_pddl`] reads the file back to the
//! same instance.

use std::fmt::Write;

use thiserror::Error;

use super::{DUMMY, object_name};
use crate::excerpt::excerpt;
use crate::geometry::Direction;
use crate::instance::{Instance, InstanceError, Start, TailRule};

/// Why an instance has no IPC-2018 problem file.
#[derive(Debug, Error, PartialEq, Eq)]
#[non_exhaustive]
pub enum WriteError {
    /// The domain's rules differ from the instance's.
    #[error("an IPC-2018 snake problem needs {0}")]
    NotIpc(&'static str),
    /// Two apples on one cell (the domain's `ispoint` facts are a set).
    #[error("apples share a cell, which an IPC-2018 problem cannot say")]
    RepeatedApple,
    /// The instance is not a valid game ([`Instance::validate_game`]).
    #[error("the instance is not a valid game: {0}")]
    Invalid(#[from] InstanceError),
    /// The problem name is not a PDDL name (a letter, then letters, digits, `-` and `_`).
    #[error(
        "problem name {:?} is not a PDDL name (a letter, then letters, digits, '-' or '_')",
        excerpt(.0)
    )]
    BadName(String),
}

/// Whether `name` is a PDDL name: an ASCII letter, then ASCII letters,
/// digits, `-` or `_` (no blank, parenthesis or `;`, which starts a comment).
fn is_pddl_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
}

/// The problem file of `instance`, named `name`. The instance must be a
/// valid game ([`Instance::validate_game`]; its `horizon` is not written)
/// with the domain's rules: an explicit body of at least two cells, `tail =
/// strict`, growth, distinct apples; the name must be a PDDL name (a letter, then letters, digits, `-` and `_`).
pub fn to_pddl(instance: &Instance, name: &str) -> Result<String, WriteError> {
    if !is_pddl_name(name) {
        return Err(WriteError::BadName(name.to_string()));
    }
    instance.validate_game()?;
    let Start::Body(body) = &instance.start else {
        return Err(WriteError::NotIpc("an explicit snake body"));
    };
    if body.len() < 2 {
        return Err(WriteError::NotIpc(
            "a snake of at least two cells (the domain's move needs a nextsnake fact)",
        ));
    }
    if instance.tail != TailRule::Strict {
        return Err(WriteError::NotIpc("the strict tail rule"));
    }
    if !instance.grow {
        return Err(WriteError::NotIpc("a snake that grows"));
    }
    let mut cells = instance.apples.clone();
    cells.sort_unstable();
    cells.dedup();
    if cells.len() != instance.apples.len() {
        return Err(WriteError::RepeatedApple);
    }
    let (w, h) = (instance.width, instance.height);
    let wall = |p| instance.walls.contains(&p);
    let mut out = String::new();
    let _ = writeln!(out, "(define (problem {name})\n(:domain snake)\n(:objects");
    let objects: Vec<String> = (0..w)
        .flat_map(|x| (0..h).map(move |y| object_name((x, y))))
        .collect();
    let _ = writeln!(out, "    {}\n)\n(:init", objects.join(" "));
    for x in 0..w {
        for y in 0..h {
            if wall((x, y)) {
                continue;
            }
            // Right, down, left, up: the order the facts have always been written in.
            let order = [
                Direction::Right,
                Direction::Down,
                Direction::Left,
                Direction::Up,
            ];
            for n in order
                .into_iter()
                .filter_map(|d| instance.grid().step((x, y), d))
            {
                if !wall(n) {
                    let _ = writeln!(
                        out,
                        "    (ISADJACENT {} {})",
                        object_name((x, y)),
                        object_name(n)
                    );
                }
            }
        }
    }
    let tail = *body.last().expect("a valid body is not empty");
    let _ = writeln!(out, "    (tailsnake {})", object_name(tail));
    let _ = writeln!(out, "    (headsnake {})", object_name(body[0]));
    for pair in body.windows(2) {
        let _ = writeln!(
            out,
            "    (nextsnake {} {})",
            object_name(pair[0]),
            object_name(pair[1])
        );
    }
    let mut blocked = body.clone();
    blocked.sort_unstable();
    let mut walls = instance.walls.clone();
    walls.sort_unstable();
    for p in blocked.iter().chain(&walls) {
        let _ = writeln!(out, "    (blocked {})", object_name(*p));
    }
    let visible = instance.visible.min(instance.apples.len());
    let hidden = &instance.apples[visible..];
    let name_of = |p: Option<&(usize, usize)>| p.map_or(DUMMY.to_string(), |&p| object_name(p));
    let _ = writeln!(out, "    (spawn {})", name_of(hidden.first()));
    if let Some(&last) = hidden.last() {
        // As in the competition's files: the link to dummypoint first.
        let _ = writeln!(out, "    (NEXTSPAWN {} {DUMMY})", object_name(last));
        for pair in hidden.windows(2) {
            let _ = writeln!(
                out,
                "    (NEXTSPAWN {} {})",
                object_name(pair[0]),
                object_name(pair[1])
            );
        }
    }
    for &p in &instance.apples[..visible] {
        let _ = writeln!(out, "    (ispoint {})", object_name(p));
    }
    let _ = writeln!(out, ")\n(:goal\n(and");
    for &p in &instance.apples {
        let _ = writeln!(out, "    (not (ispoint {}))", object_name(p));
    }
    out.push_str(")\n)\n)");
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pddl::from_pddl;
    use crate::symmetry::normal_form;

    fn ipc(walls: Vec<(usize, usize)>, visible: usize) -> Instance {
        Instance {
            width: 5,
            height: 4,
            walls,
            start: Start::Body(vec![(1, 1), (1, 2), (2, 2)]),
            apples: vec![(4, 3), (0, 0), (3, 0), (4, 0)],
            visible,
            grow: true,
            tail: TailRule::Strict,
            horizon: None,
        }
    }

    #[test]
    fn problems_read_back_to_the_same_instance() {
        for (walls, visible) in [(vec![], 1), (vec![(2, 1), (4, 1)], 2), (vec![(0, 3)], 4)] {
            let instance = ipc(walls, visible);
            let text = to_pddl(&instance, "snake-test").unwrap();
            let back = from_pddl(&text).unwrap();
            assert_eq!(normal_form(&back), normal_form(&instance), "{text}");
        }
    }

    #[test]
    fn the_file_has_the_competition_shape() {
        let text = to_pddl(&ipc(vec![], 2), "snake-test").unwrap();
        let competition = include_str!("../../benchmarks/ipc2018-snake/optimal/instance-1.pddl");
        let sections = |t: &str| -> Vec<String> {
            t.lines()
                .filter(|l| !l.starts_with("    "))
                .map(String::from)
                .collect()
        };
        let mut ours = sections(&text);
        let mut theirs = sections(competition);
        // Only the problem names differ.
        assert!(
            ours[0].starts_with("(define (problem ") && theirs[0].starts_with("(define (problem ")
        );
        ours.remove(0);
        theirs.remove(0);
        assert_eq!(ours, theirs);
        assert!(!text.ends_with('\n') && !competition.ends_with('\n'));
        // The same order of predicates in :init.
        let order = |t: &str| -> Vec<String> {
            let mut preds: Vec<String> = t
                .lines()
                .filter_map(|l| l.strip_prefix("    ("))
                .filter_map(|l| l.split(' ').next())
                .filter(|p| *p != "not")
                .map(String::from)
                .collect();
            preds.dedup();
            preds
        };
        assert_eq!(order(&text), order(competition));
    }

    #[test]
    fn rules_outside_the_domain_are_refused() {
        let free = Instance {
            start: Start::Free { length: 2 },
            ..ipc(vec![], 1)
        };
        assert!(matches!(to_pddl(&free, "x"), Err(WriteError::NotIpc(_))));
        let follow = Instance {
            tail: TailRule::Follow,
            ..ipc(vec![], 1)
        };
        assert!(matches!(to_pddl(&follow, "x"), Err(WriteError::NotIpc(_))));
        // The library's text names the rule, not command-line flags (the
        // CLI adds its advice).
        assert_eq!(
            to_pddl(&follow, "x").unwrap_err().to_string(),
            "an IPC-2018 snake problem needs the strict tail rule"
        );
    }

    /// An apple off the grid gave a file with an undeclared object, and a
    /// name with blanks, parentheses or `;` a file that is not PDDL.
    #[test]
    fn invalid_instances_and_names_are_refused() {
        let off = Instance {
            apples: vec![(50, 50)],
            ..ipc(vec![], 1)
        };
        assert!(matches!(
            to_pddl(&off, "x"),
            Err(WriteError::Invalid(InstanceError::OffGrid { .. }))
        ));
        let good = ipc(vec![], 1);
        for bad in ["a b)(c", "", "x;y", "1st", "(x)", "snake\n"] {
            assert_eq!(
                to_pddl(&good, bad),
                Err(WriteError::BadName(bad.to_string())),
                "{bad:?}"
            );
        }
        assert_eq!(
            to_pddl(&good, "a b)(c").unwrap_err().to_string(),
            "problem name \"a b)(c\" is not a PDDL name (a letter, then letters, digits, '-' or '_')"
        );
        for name in ["x", "snake-empty-5x4-1-0-3-i007", "Snake_2"] {
            let text = to_pddl(&good, name).unwrap();
            assert!(text.starts_with(&format!("(define (problem {name})\n")));
            from_pddl(&text).unwrap();
        }
    }
}
