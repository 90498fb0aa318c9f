//! Plans of any planner for the IPC-2018 snake domain: reading a plan file
//! ([`read_plan`]) and checking it action by action against the domain's
//! preconditions ([`validate`]), as a plan validator does. The result is the
//! head's path, which callers replay once more in the independent simulator
//! ([`crate::sim`]) and can animate.
//!
//! The state follows the domain's predicates over the problem as
//! [`super::from_pddl`] reads it: `headsnake`, `tailsnake` and `nextsnake`
//! are the body (head first), `blocked` is the body plus the walls,
//! `ispoint` the apples on the board, `spawn` the next apple of the chain
//! (or `dummypoint`). A violated precondition is reported with the step and
//! the literal, in the domain's words.
//!
//! Plan files: one action per line, `(name arg ...)` in any case, whose
//! objects are the problem's (its own names for its cells, any case) or
//! `dummypoint`. A step number
//! such as `3:` or `0.000:` may precede the action and a cost such as `[1]`
//! may follow it; blank lines and `;` comments are skipped. Anything else on
//! a line, a second action included, makes the file unreadable.

use std::borrow::Cow;
use std::collections::{HashSet, VecDeque};

use thiserror::Error;

use super::{DUMMY, Objects};
use crate::geometry::Direction;
use crate::instance::{Instance, InstanceError, MAX_HORIZON, Pos, Start};

/// The domain's actions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ActionName {
    /// `move ?head ?newhead ?tail ?newtail`.
    Move,
    /// `move-and-eat-spawn ?head ?newhead ?spawnpoint ?nextspawnpoint`.
    MoveAndEatSpawn,
    /// `move-and-eat-no-spawn ?head ?newhead`.
    MoveAndEatNoSpawn,
}

impl ActionName {
    /// The name as the domain spells it.
    pub fn as_str(self) -> &'static str {
        match self {
            ActionName::Move => "move",
            ActionName::MoveAndEatSpawn => "move-and-eat-spawn",
            ActionName::MoveAndEatNoSpawn => "move-and-eat-no-spawn",
        }
    }

    fn arity(self) -> usize {
        match self {
            ActionName::Move | ActionName::MoveAndEatSpawn => 4,
            ActionName::MoveAndEatNoSpawn => 2,
        }
    }
}

/// A ground object: a cell or the constant `dummypoint`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Object {
    /// A cell `posX-Y`.
    Cell(Pos),
    /// The constant that ends the spawn chain.
    Dummy,
}

impl Object {
    /// The object's name in the problem `objects` names the cells of.
    fn name(self, objects: &Objects) -> Cow<'_, str> {
        match self {
            Object::Cell(p) => objects.name(p),
            Object::Dummy => Cow::Borrowed(DUMMY),
        }
    }
}

/// One step of a plan.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Action {
    /// Which action.
    pub name: ActionName,
    /// Its arguments, in the domain's order.
    pub args: Vec<Object>,
    /// The line of the plan file it was read from (1-based).
    pub line: usize,
}

impl Action {
    /// The action in PDDL, its cells named by `objects`.
    fn show(&self, objects: &Objects) -> String {
        let mut text = format!("({}", self.name.as_str());
        for a in &self.args {
            text.push(' ');
            text.push_str(&a.name(objects));
        }
        text.push(')');
        text
    }
}

/// Why a plan file cannot be read.
#[derive(Debug, Error, PartialEq, Eq)]
#[error("line {line}: {message}")]
pub struct PlanReadError {
    /// The line (1-based).
    pub line: usize,
    /// What is wrong there.
    pub message: String,
}

/// Why a plan does not solve the problem.
#[derive(Debug, Error, PartialEq, Eq)]
#[non_exhaustive]
pub enum PlanViolation {
    /// An action whose precondition does not hold.
    #[error("step {step} (line {line}): {action}: precondition {literal} does not hold")]
    Precondition {
        /// The step (1-based).
        step: usize,
        /// The plan file's line.
        line: usize,
        /// The action as read.
        action: String,
        /// The first precondition literal that fails, in PDDL.
        literal: String,
    },
    /// The instance has a free start, which no problem of the domain has:
    /// there is nothing to check the plan against.
    #[error("a problem of the snake domain has an explicit snake, not a free start")]
    FreeStart,
    /// The problem itself is not a valid game (a hand-built instance).
    #[error("the problem is not a valid game: {0}")]
    Instance(InstanceError),
    /// An action with the wrong number of arguments (a hand-built
    /// [`Action`]: [`read_plan`] refuses such a line).
    #[error("step {step} (line {line}): {action} takes {expected} arguments, not {found}")]
    Arity {
        /// The step (1-based).
        step: usize,
        /// The action's line.
        line: usize,
        /// The action's name.
        action: &'static str,
        /// The arguments the domain gives it.
        expected: usize,
        /// The arguments it has.
        found: usize,
    },
    /// Every action applies, but points are left.
    #[error("the plan ends after {} with the goal unmet: {literal}", crate::counted(.steps, "step"))]
    Goal {
        /// Number of actions.
        steps: usize,
        /// A goal literal that fails, in PDDL.
        literal: String,
    },
}

/// The longest token echoed in an error message.
const ECHO: usize = 40;

fn shorten(token: &str) -> String {
    if token.chars().count() <= ECHO {
        token.to_string()
    } else {
        format!("{}…", token.chars().take(ECHO).collect::<String>())
    }
}

/// True for a plain decimal number such as `3` or `0.000`: the step numbers
/// and costs that planners write around an action.
fn is_number(text: &str) -> bool {
    let mut parts = text.splitn(2, '.');
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    parts.next().is_some_and(digits) && parts.next().is_none_or(digits)
}

/// The cost a plan file states in a comment, as planners write it
/// (`; cost = 24 (unit cost)`): its line and the number, when there is one.
/// The snake domain's actions cost 1 each, so a valid plan's cost is its
/// number of actions; the comment is not part of the plan (VAL ignores it).
pub fn stated_cost(text: &str) -> Option<(usize, f64)> {
    crate::excerpt::lines(text)
        .enumerate()
        .find_map(|(index, raw)| {
            let (_, comment) = raw.split_once(';')?;
            let rest = comment.trim_start().strip_prefix("cost")?.trim_start();
            let number = rest.strip_prefix('=')?.split_whitespace().next()?;
            let value: f64 = number.parse().ok()?;
            value.is_finite().then_some((index + 1, value))
        })
}

/// Reads a plan file for the problem whose cells `objects` names: an object
/// it does not name (other than `dummypoint`) is unknown. A plan of more
/// actions than the horizon cap ([`MAX_HORIZON`]) is refused at the first
/// action beyond it, before more are held (7 million took 1.3 GB).
pub fn read_plan(text: &str, objects: &Objects) -> Result<Vec<Action>, PlanReadError> {
    let mut actions = Vec::new();
    for (index, raw) in crate::excerpt::lines(text).enumerate() {
        let line = index + 1;
        let body = raw.split(';').next().unwrap_or("").trim();
        if body.is_empty() {
            continue;
        }
        let err = |message: String| PlanReadError { line, message };
        if actions.len() == MAX_HORIZON {
            return Err(err(format!(
                "more than {MAX_HORIZON} actions, beyond the horizon limit of {MAX_HORIZON} moves"
            )));
        }
        let open = body.find('(').ok_or_else(|| {
            err(format!(
                "expected `(action ...)`, found `{}`",
                shorten(body)
            ))
        })?;
        let before = body[..open].trim_end();
        let numbered = before
            .strip_suffix(':')
            .is_some_and(|label| is_number(label.trim_end()));
        if !before.is_empty() && !numbered {
            return Err(err(format!(
                "unexpected `{}` before the action (only a step number such as `3:` may precede it)",
                shorten(before)
            )));
        }
        let close = body[open..]
            .find(')')
            .map(|c| open + c)
            .ok_or_else(|| err("unclosed `(`".to_string()))?;
        let mut words = body[open + 1..close].split_whitespace();
        let word = words
            .next()
            .ok_or_else(|| err("empty action `()`".to_string()))?;
        let name = match word.to_ascii_lowercase().as_str() {
            "move" => ActionName::Move,
            "move-and-eat-spawn" => ActionName::MoveAndEatSpawn,
            "move-and-eat-no-spawn" => ActionName::MoveAndEatNoSpawn,
            _ => return Err(err(format!("unknown action `{}`", shorten(word)))),
        };
        let args = words
            .map(|w| {
                if w.eq_ignore_ascii_case(DUMMY) {
                    return Ok(Object::Dummy);
                }
                objects.cell(w).map(Object::Cell).ok_or_else(|| {
                    err(format!(
                        "unknown object `{}`: the problem has no such object",
                        shorten(w)
                    ))
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        if args.len() != name.arity() {
            return Err(err(format!(
                "{} takes {} arguments, not {}",
                name.as_str(),
                name.arity(),
                args.len()
            )));
        }
        let after = body[close + 1..].trim_start();
        let is_cost = after
            .strip_prefix('[')
            .and_then(|c| c.strip_suffix(']'))
            .is_some_and(|c| is_number(c.trim()));
        if after.starts_with('(') {
            return Err(err(format!(
                "one action per line: `{}` follows the action",
                shorten(after)
            )));
        } else if !after.is_empty() && !is_cost {
            return Err(err(format!(
                "unexpected `{}` after the action (only a cost such as `[1]` may follow it)",
                shorten(after)
            )));
        }
        actions.push(Action { name, args, line });
    }
    Ok(actions)
}

/// The domain's state for one problem.
struct State<'a> {
    instance: &'a Instance,
    objects: &'a Objects,
    walls: HashSet<Pos>,
    body: VecDeque<Pos>,
    points: HashSet<Pos>,
    /// Index in `instance.apples` of the `spawn` apple (`len` = `dummypoint`).
    spawn: usize,
}

impl State<'_> {
    fn spawn_object(&self, index: usize) -> Object {
        self.instance
            .apples
            .get(index)
            .map_or(Object::Dummy, |&p| Object::Cell(p))
    }

    fn blocked(&self, p: Pos) -> bool {
        self.walls.contains(&p) || self.body.contains(&p)
    }

    /// The first precondition of `action` that fails, in PDDL.
    fn failed_precondition(&self, action: &Action) -> Option<String> {
        let cell = |i: usize| match action.args[i] {
            Object::Cell(p) => Some(p),
            Object::Dummy => None,
        };
        let show = |i: usize| action.args[i].name(self.objects);
        let (a0, a1) = (show(0), show(1));
        let head = self.body[0];
        if cell(0) != Some(head) {
            return Some(format!("(headsnake {a0})"));
        }
        let adjacent = cell(1)
            .is_some_and(|n| self.instance.on_grid(n) && Direction::from_to(head, n).is_some());
        if !adjacent {
            return Some(format!("(ISADJACENT {a0} {a1})"));
        }
        let new_head = cell(1).expect("adjacent cells are cells");
        match action.name {
            ActionName::Move => {
                let (a2, a3) = (show(2), show(3));
                let len = self.body.len();
                if cell(2) != self.body.back().copied() {
                    return Some(format!("(tailsnake {a2})"));
                }
                if len < 2 || cell(3) != Some(self.body[len - 2]) {
                    return Some(format!("(nextsnake {a3} {a2})"));
                }
                if self.blocked(new_head) {
                    return Some(format!("(not (blocked {a1}))"));
                }
                if self.points.contains(&new_head) {
                    return Some(format!("(not (ispoint {a1}))"));
                }
            }
            ActionName::MoveAndEatSpawn | ActionName::MoveAndEatNoSpawn => {
                if self.blocked(new_head) {
                    return Some(format!("(not (blocked {a1}))"));
                }
                if !self.points.contains(&new_head) {
                    return Some(format!("(ispoint {a1})"));
                }
                if action.name == ActionName::MoveAndEatNoSpawn {
                    if self.spawn < self.instance.apples.len() {
                        return Some(format!("(spawn {DUMMY})"));
                    }
                } else {
                    let (a2, a3) = (show(2), show(3));
                    if action.args[2] != self.spawn_object(self.spawn) {
                        return Some(format!("(spawn {a2})"));
                    }
                    if action.args[2] == Object::Dummy {
                        return Some(format!("(not (= {a2} {DUMMY}))"));
                    }
                    if action.args[3] != self.spawn_object(self.spawn + 1) {
                        return Some(format!("(NEXTSPAWN {a2} {a3})"));
                    }
                }
            }
        }
        None
    }

    fn apply(&mut self, action: &Action) {
        let Object::Cell(new_head) = action.args[1] else {
            unreachable!("checked by failed_precondition")
        };
        self.body.push_front(new_head);
        match action.name {
            ActionName::Move => {
                self.body.pop_back();
            }
            ActionName::MoveAndEatSpawn => {
                self.points.remove(&new_head);
                self.points.insert(self.instance.apples[self.spawn]);
                self.spawn += 1;
            }
            ActionName::MoveAndEatNoSpawn => {
                self.points.remove(&new_head);
            }
        }
    }
}

/// Checks `actions` on the problem `instance` (read from the domain's PDDL,
/// with an explicit body, its cells named by `objects`) and returns the
/// head's path: `actions.len() + 1` cells.
pub fn validate(
    instance: &Instance,
    objects: &Objects,
    actions: &[Action],
) -> Result<Vec<Pos>, PlanViolation> {
    let Start::Body(body) = &instance.start else {
        return Err(PlanViolation::FreeStart);
    };
    instance.validate_game().map_err(PlanViolation::Instance)?;
    let visible = instance.visible_at_start();
    let mut state = State {
        instance,
        objects,
        walls: instance.walls.iter().copied().collect(),
        body: body.iter().copied().collect(),
        points: instance.apples[..visible].iter().copied().collect(),
        spawn: visible,
    };
    let mut path = Vec::with_capacity(actions.len() + 1);
    path.push(body[0]);
    for (i, action) in actions.iter().enumerate() {
        if action.args.len() != action.name.arity() {
            return Err(PlanViolation::Arity {
                step: i + 1,
                line: action.line,
                action: action.name.as_str(),
                expected: action.name.arity(),
                found: action.args.len(),
            });
        }
        if let Some(literal) = state.failed_precondition(action) {
            return Err(PlanViolation::Precondition {
                step: i + 1,
                line: action.line,
                action: action.show(objects),
                literal,
            });
        }
        state.apply(action);
        path.push(state.body[0]);
    }
    let unmet = instance
        .apples
        .iter()
        .find(|p| state.points.contains(p))
        .map(|&p| format!("(not (ispoint {}))", objects.name(p)))
        .or_else(|| {
            // Unspawned apples: their cells never held a point yet, but the
            // spawn chain is not exhausted, so the goal's points are not all eaten.
            (state.spawn < instance.apples.len()).then(|| {
                format!(
                    "(not (ispoint {})) once it spawns",
                    objects.name(instance.apples[state.spawn])
                )
            })
        });
    match unmet {
        Some(literal) => Err(PlanViolation::Goal {
            steps: actions.len(),
            literal,
        }),
        None => Ok(path),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stated_cost_is_read_from_its_comment() {
        let plan = "(move a b c d)\n; cost = 24 (unit cost)\n";
        assert_eq!(stated_cost(plan), Some((2, 24.0)));
        assert_eq!(stated_cost(";cost=3.0"), Some((1, 3.0)));
        assert_eq!(stated_cost("; makespan = 3\n; a cost\n"), None);
        assert_eq!(stated_cost("(move a b c d) ; cost = x"), None);
    }
    use crate::instance::TailRule;

    /// A 3×2 problem: snake (1,0) ← (0,0), one point at (2,0), then (2,1).
    fn problem() -> Instance {
        Instance {
            width: 3,
            height: 2,
            walls: vec![],
            start: Start::Body(vec![(1, 0), (0, 0)]),
            apples: vec![(2, 0), (2, 1)],
            visible: 1,
            grow: true,
            tail: TailRule::Strict,
            horizon: None,
        }
    }

    /// The names of problem()'s cells: `posX-Y`.
    fn names() -> Objects {
        Objects::canonical(&problem())
    }

    #[test]
    fn hand_built_actions_and_problems_are_violations_not_panics() {
        let moves = |args: Vec<Object>| {
            vec![Action {
                name: ActionName::Move,
                args,
                line: 1,
            }]
        };
        // `move` takes four arguments; none or one indexed out of bounds.
        for found in [0, 1, 5] {
            let args = vec![Object::Cell((1, 0)); found];
            assert_eq!(
                validate(&problem(), &names(), &moves(args)),
                Err(PlanViolation::Arity {
                    step: 1,
                    line: 1,
                    action: "move",
                    expected: 4,
                    found
                })
            );
        }
        let empty_body = Instance {
            start: Start::Body(vec![]),
            ..problem()
        };
        assert!(matches!(
            validate(&empty_body, &names(), &[]),
            Err(PlanViolation::Instance(InstanceError::EmptyBody))
        ));
    }

    #[test]
    fn a_valid_plan_gives_its_path() {
        let plan = "; a comment\n\
            0: (MOVE-AND-EAT-SPAWN pos1-0 pos2-0 pos2-1 dummypoint) [1]\n\
            1.000 : (move-and-eat-no-spawn pos2-0 pos2-1)  [1.000] ; eats the last\n\
            ; cost = 2 (unit cost)\n";
        let actions = read_plan(plan, &names()).unwrap();
        assert_eq!(actions.len(), 2);
        assert_eq!(actions[0].line, 2);
        let path = validate(&problem(), &names(), &actions).unwrap();
        assert_eq!(path, [(1, 0), (2, 0), (2, 1)]);
        assert!(crate::sim::simulate(&problem(), &path).is_ok());
    }

    /// A free start was reported as a goal violation after 0 steps.
    #[test]
    fn a_free_start_is_refused_as_such() {
        let free = Instance {
            start: Start::Free { length: 2 },
            ..problem()
        };
        assert_eq!(
            validate(&free, &names(), &[]),
            Err(PlanViolation::FreeStart)
        );
    }

    #[test]
    fn the_first_failed_precondition_is_named() {
        // Eating without naming the spawn point.
        let actions = read_plan("(move-and-eat-no-spawn pos1-0 pos2-0)", &names()).unwrap();
        let e = validate(&problem(), &names(), &actions).unwrap_err();
        assert_eq!(
            e.to_string(),
            "step 1 (line 1): (move-and-eat-no-spawn pos1-0 pos2-0): precondition (spawn dummypoint) does not hold"
        );
        // Three legal moves that leave the point uneaten.
        let actions = read_plan("(move pos1-0 pos1-1 pos0-0 pos1-0)\n(move pos1-1 pos0-1 pos1-0 pos1-1)\n(move pos0-1 pos0-0 pos1-1 pos0-1)", &names()).unwrap();
        let e = validate(&problem(), &names(), &actions).unwrap_err();
        assert!(matches!(e, PlanViolation::Goal { .. }), "{e}");
        // Moving into the tail's cell (strict: it is still blocked).
        let actions = read_plan("(move pos1-0 pos0-0 pos0-0 pos1-0)", &names()).unwrap();
        let e = validate(&problem(), &names(), &actions).unwrap_err();
        assert!(e.to_string().contains("(not (blocked pos0-0))"), "{e}");
        // Not adjacent, wrong tail, wrong next spawn.
        for (plan, literal) in [
            (
                "(move pos1-0 pos2-1 pos0-0 pos1-0)",
                "(ISADJACENT pos1-0 pos2-1)",
            ),
            ("(move pos1-0 pos1-1 pos1-0 pos0-0)", "(tailsnake pos1-0)"),
            (
                "(move-and-eat-spawn pos1-0 pos2-0 pos2-1 pos0-0)",
                "(NEXTSPAWN pos2-1 pos0-0)",
            ),
            (
                "(move pos1-0 pos2-0 pos0-0 pos1-0)",
                "(not (ispoint pos2-0))",
            ),
        ] {
            let e =
                validate(&problem(), &names(), &read_plan(plan, &names()).unwrap()).unwrap_err();
            assert!(e.to_string().contains(literal), "{plan}: {e}");
        }
    }

    #[test]
    fn unreadable_plans_name_the_line() {
        for (text, message) in [
            ("(move pos1-0)\n", "line 1: move takes 4 arguments, not 1"),
            ("\n(jump pos1-0 pos2-0)", "line 2: unknown action `jump`"),
            (
                "(move pos1-0 posX pos0-0 pos1-0)",
                "line 1: unknown object `posX`: the problem has no such object",
            ),
            (
                "move pos1-0",
                "line 1: expected `(action ...)`, found `move pos1-0`",
            ),
            ("(move pos1-0 pos2-0", "line 1: unclosed `(`"),
            (
                "(move pos1-0 pos1-1 pos9-9 pos1-0)",
                "line 1: unknown object `pos9-9`: the problem has no such object",
            ),
            (
                "(move-and-eat-no-spawn pos1-0 pos2-0) (move pos2-0 pos2-1 pos0-0 pos1-0)",
                "line 1: one action per line: `(move pos2-0 pos2-1 pos0-0 pos1-0)` follows the action",
            ),
            (
                "(move-and-eat-no-spawn pos1-0 pos2-0) garbage (((",
                "line 1: unexpected `garbage (((` after the action (only a cost such as `[1]` may follow it)",
            ),
            (
                "(move-and-eat-no-spawn pos1-0 pos2-0)) [1]",
                "line 1: unexpected `) [1]` after the action (only a cost such as `[1]` may follow it)",
            ),
            (
                "step (move-and-eat-no-spawn pos1-0 pos2-0)",
                "line 1: unexpected `step` before the action (only a step number such as `3:` may precede it)",
            ),
        ] {
            assert_eq!(read_plan(text, &names()).unwrap_err().to_string(), message);
        }
    }

    #[test]
    fn plan_objects_are_the_problems_own_names() {
        // tests/data/tiny-3x2.pddl (problem()) with its cells named pos01-00 and so on.
        let text = include_str!("../../tests/data/tiny-3x2.pddl")
            .replace("pos0-", "pos00-")
            .replace("pos1-", "pos01-")
            .replace("pos2-", "pos02-")
            .replace("-0", "-00")
            .replace("-1", "-01");
        let zeros = crate::pddl::read_problem(&text).unwrap();
        assert_eq!(zeros.instance, problem());
        let objects = &zeros.objects;
        let plan = "(MOVE-AND-EAT-SPAWN POS01-00 pos02-00 pos02-01 dummypoint)\n\
                    (move-and-eat-no-spawn pos02-00 pos02-01)";
        let actions = read_plan(plan, objects).unwrap();
        assert_eq!(
            validate(&problem(), objects, &actions).unwrap(),
            [(1, 0), (2, 0), (2, 1)]
        );
        // The canonical name of a cell is not one of this problem's objects.
        assert_eq!(
            read_plan("(move-and-eat-no-spawn pos01-00 pos2-0)", objects)
                .unwrap_err()
                .to_string(),
            "line 1: unknown object `pos2-0`: the problem has no such object"
        );
        // Violations name the objects as the problem does.
        let actions = read_plan("(move-and-eat-no-spawn pos01-00 pos02-00)", objects).unwrap();
        assert_eq!(
            validate(&problem(), objects, &actions)
                .unwrap_err()
                .to_string(),
            "step 1 (line 1): (move-and-eat-no-spawn pos01-00 pos02-00): precondition (spawn dummypoint) does not hold"
        );
    }
}
