//! Plans in the snake domain's action syntax (docs/DESIGN.md §3, "Plan (IPC)").

use std::borrow::Cow;
use std::collections::VecDeque;
use std::fmt::Write as _;

use thiserror::Error;

use super::Objects;
use crate::instance::{Instance, Pos, Start, TailRule};
use crate::sim::{self, Violation};

/// Writing to a `String` cannot fail.
const WRITE: &str = "writing to a String";

/// Why a path cannot be written as an IPC plan.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum PlanWriteError {
    /// The instance has a free start: the domain needs an explicit body.
    #[error("IPC plans need an explicit starting body, not a free start")]
    FreeStart,
    /// The instance's rules are not the domain's (strict tail, growth).
    #[error("IPC plans need the snake domain's rules (tail = strict, grow = true)")]
    Rules,
    /// The path breaks a rule of the game.
    #[error("the path is not legal: {0}")]
    Illegal(Violation),
    /// A plain move of a one-cell snake, which the domain cannot express.
    #[error(
        "a one-cell snake cannot make a plain move in the snake domain (move needs a nextsnake fact)"
    )]
    OneCellMove,
}

/// Turns a legal head path into the domain's actions, one per line, ending
/// with `; cost = N (unit cost)`. Cells are named by `objects`, the
/// problem's own names for them.
///
/// - `(move head newhead tail newtail)` when no apple is eaten;
/// - `(move-and-eat-spawn head newhead spawnpoint nextspawnpoint)` when an apple
///   is eaten and another is still to appear (`spawnpoint` is the one that
///   appears, `nextspawnpoint` the one after it or `dummypoint`);
/// - `(move-and-eat-no-spawn head newhead)` when the chain is exhausted.
///
/// Fails if the instance is not one the PDDL model produces (explicit body,
/// strict tail, growth) or the path is not legal.
pub fn ipc_plan(
    instance: &Instance,
    objects: &Objects,
    path: &[Pos],
) -> Result<String, PlanWriteError> {
    let name = |p: Pos| objects.name(p);
    let Start::Body(start) = &instance.start else {
        return Err(PlanWriteError::FreeStart);
    };
    if instance.tail != TailRule::Strict || !instance.grow {
        return Err(PlanWriteError::Rules);
    }
    sim::simulate(instance, path).map_err(PlanWriteError::Illegal)?;

    let n = instance.apples.len();
    let mut revealed = instance.visible_at_start();
    let mut eaten = vec![false; n];
    let mut body: VecDeque<Pos> = start.iter().copied().collect();
    let mut out = String::new();
    for &next in &path[1..] {
        let head = body[0];
        let apple = (0..revealed).find(|&i| !eaten[i] && instance.apples[i] == next);
        match apple {
            None => {
                if body.len() < 2 {
                    return Err(PlanWriteError::OneCellMove);
                }
                let tail = body[body.len() - 1];
                let new_tail = body[body.len() - 2];
                writeln!(
                    out,
                    "(move {} {} {} {})",
                    name(head),
                    name(next),
                    name(tail),
                    name(new_tail)
                )
                .expect(WRITE);
                body.pop_back();
            }
            Some(i) => {
                eaten[i] = true;
                if revealed < n {
                    let spawn = instance.apples[revealed];
                    let after = instance
                        .apples
                        .get(revealed + 1)
                        .map_or(Cow::Borrowed(super::DUMMY), |&p| name(p));
                    writeln!(
                        out,
                        "(move-and-eat-spawn {} {} {} {after})",
                        name(head),
                        name(next),
                        name(spawn)
                    )
                    .expect(WRITE);
                    revealed += 1;
                } else {
                    writeln!(out, "(move-and-eat-no-spawn {} {})", name(head), name(next))
                        .expect(WRITE);
                }
            }
        }
        body.push_front(next);
    }
    writeln!(out, "; cost = {} (unit cost)", path.len() - 1).expect(WRITE);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn inst() -> Instance {
        Instance {
            width: 3,
            height: 2,
            walls: vec![],
            start: Start::Body(vec![(1, 0), (0, 0)]),
            apples: vec![(2, 0), (2, 1), (0, 1)],
            visible: 1,
            grow: true,
            tail: TailRule::Strict,
            horizon: None,
        }
    }

    #[test]
    fn actions_follow_the_spawn_chain() {
        let plan = ipc_plan(
            &inst(),
            &Objects::canonical(&inst()),
            &[(1, 0), (2, 0), (2, 1), (1, 1), (0, 1)],
        )
        .unwrap();
        assert_eq!(
            plan,
            "(move-and-eat-spawn pos1-0 pos2-0 pos2-1 pos0-1)\n\
             (move-and-eat-spawn pos2-0 pos2-1 pos0-1 dummypoint)\n\
             (move pos2-1 pos1-1 pos0-0 pos1-0)\n\
             (move-and-eat-no-spawn pos1-1 pos0-1)\n\
             ; cost = 4 (unit cost)\n"
        );
    }

    #[test]
    fn free_start_and_illegal_paths_are_refused() {
        let mut i = inst();
        let objects = Objects::canonical(&i);
        assert!(ipc_plan(&i, &objects, &[(1, 0), (0, 0)]).is_err());
        i.start = Start::Free { length: 2 };
        assert!(ipc_plan(&i, &objects, &[(1, 0), (2, 0)]).is_err());
    }

    #[test]
    fn plans_name_cells_as_the_problem_declares_them() {
        // inst() as a problem file whose objects carry leading zeros, in upper case.
        let text = crate::pddl::write::to_pddl(&inst(), "zeros")
            .unwrap()
            .replace("pos", "POS0");
        let problem = crate::pddl::read_problem(&text).unwrap();
        assert_eq!(problem.instance, inst());
        let plan = ipc_plan(
            &problem.instance,
            &problem.objects,
            &[(1, 0), (2, 0), (2, 1), (1, 1), (0, 1)],
        )
        .unwrap();
        assert_eq!(
            plan,
            "(move-and-eat-spawn pos01-0 pos02-0 pos02-1 pos00-1)\n\
             (move-and-eat-spawn pos02-0 pos02-1 pos00-1 dummypoint)\n\
             (move pos02-1 pos01-1 pos00-0 pos01-0)\n\
             (move-and-eat-no-spawn pos01-1 pos00-1)\n\
             ; cost = 4 (unit cost)\n"
        );
    }
}
