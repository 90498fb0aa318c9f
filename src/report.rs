//! What the program prints about a plan: the JSON document of docs/DESIGN.md §3
//! and a readable picture of the grid.

use std::fmt::Write;

use serde::Serialize;

use crate::encode::Encoding;
use crate::geometry::Direction;
use crate::instance::{Instance, MAX_SIDE, Pos, Start};
use crate::planner::{Outcome, Verdict};
use crate::proof::Certification;
use crate::sim::Replay;
use crate::solve::{Stats, Status};

/// The JSON plan (`--json`).
#[derive(Clone, Debug, Serialize)]
pub struct PlanReport {
    /// How the search ended.
    pub status: Status,
    /// Moves of the plan, or the largest horizon tried when there is none.
    pub horizon: usize,
    /// Head cells at `t = 0..=horizon` (empty without a plan).
    pub path: Vec<Pos>,
    /// `[apple index, time]` pairs.
    pub eaten: Vec<(usize, usize)>,
    /// True when `horizon` is proven least.
    pub optimal: bool,
    /// `null` when the apples can never all be eaten (no finite bound).
    pub lower_bound: Option<usize>,
    /// No plan has fewer moves, as far as this answer proves: the lower
    /// bound, raised past every horizon refuted from it
    /// ([`Outcome::no_plan_below`]; the plan's length when it is proven
    /// least); the lower bound alone for an approximate encoding, whose
    /// refutations prove nothing; `null` with `lower_bound`.
    pub no_plan_below: Option<usize>,
    /// Name of the encoding used, e.g. `"direct"`.
    pub encoding: String,
    /// Sizes of the formula at `horizon`; times summed over every horizon tried.
    pub stats: Stats,
    /// The CaDiCaL configuration the search ran with, when one was asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cadical_config: Option<&'static str>,
    /// Why `status` is `unknown` (absent otherwise, and for an illegal
    /// model): [`Undecided::key`](crate::planner::Undecided::key), e.g.
    /// `timeout` or `formula_limit`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<&'static str>,
    /// When the solver's model was not a legal plan, which proves nothing
    /// (an approximate encoding's formula admits illegal plans): `status` is
    /// then `unknown` and this says why, as the error line does.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub illegal_model: Option<String>,
    /// With `solve --proof DIR`: `certified`, `proof_dir` and `certificates`.
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    pub certification: Option<Certification>,
}

impl PlanReport {
    /// The JSON answer `solve --json` prints for `outcome`, found with
    /// `encoding` (no `cadical_config`, no certification): the plan's path
    /// and eating times, or none; `lower_bound` `null` when infinite;
    /// `horizon` as [`Outcome::horizon`]; for an illegal model, status
    /// `unknown` and `illegal_model` ([`Outcome::model_error`]).
    pub fn new(outcome: &Outcome, encoding: &dyn Encoding) -> PlanReport {
        let plan = outcome.plan();
        let illegal_model = outcome.model_error(encoding).map(|e| e.to_string());
        PlanReport {
            // (An illegal model proves nothing: `unknown`, with why.)
            status: match illegal_model {
                Some(_) => Status::Unknown,
                None => outcome.status(),
            },
            horizon: outcome.horizon(),
            path: plan.map(|p| p.path.clone()).unwrap_or_default(),
            eaten: plan.map(|p| p.eaten().to_vec()).unwrap_or_default(),
            optimal: plan.is_some_and(|p| p.optimal),
            lower_bound: outcome.lower_bound,
            no_plan_below: match encoding.approximate() {
                true => outcome.lower_bound,
                false => outcome.no_plan_below(),
            },
            encoding: encoding.name(),
            stats: outcome.stats(),
            cadical_config: None,
            reason: match &outcome.verdict {
                Verdict::Unknown(why) => Some(why.key()),
                _ => None,
            },
            illegal_model,
            certification: None,
        }
    }
}

/// One letter per move ([`Direction::letter`]): `R`ight (x+1), `L`eft,
/// `D`own (y+1), `U`p; `?` between cells that are not adjacent.
pub fn moves_string(path: &[Pos]) -> String {
    path.windows(2)
        .map(|w| Direction::from_to(w[0], w[1]).map_or('?', Direction::letter))
        .collect()
}

/// The apples' symbols in reveal order: digits, then the letters but `o`,
/// which is the body's (apple 24 was drawn as a body cell).
const APPLE_SYMBOLS: &[u8] = b"123456789abcdefghijklmnpqrstuvwxyz";

/// A symbol for apple `i`: `1`–`9`, then `a`–`z` without `o`, then `*`.
fn apple_symbol(i: usize) -> char {
    APPLE_SYMBOLS.get(i).map_or('*', |&b| char::from(b))
}

/// The board at `t = 0` alone: walls, apples and the start body (its head
/// `@`), as in [`picture`]; for an answer without a plan. A free start has
/// no snake to draw. A side beyond [`crate::instance::MAX_SIDE`] gives one
/// line that says so.
pub fn board(instance: &Instance) -> String {
    if let Some(line) = not_drawn(instance) {
        return line;
    }
    let mut start = walls_board(instance);
    put_start(&mut start, instance);
    if let Start::Body(body) = &instance.start
        && let Some(&head) = body.first()
    {
        put(&mut start, head, '@');
    }
    let mut out = String::from("t=0\n");
    for row in start {
        out.extend(row);
        out.push('\n');
    }
    out
}

/// The one line drawn instead of a board with a side beyond
/// [`crate::instance::MAX_SIDE`] (which no valid instance has).
fn not_drawn(instance: &Instance) -> Option<String> {
    (instance.width.max(instance.height) > MAX_SIDE).then(|| {
        format!(
            "(a {}x{} board is not drawn: a side exceeds {MAX_SIDE})\n",
            instance.width, instance.height
        )
    })
}

/// Rows of `.` with the walls (`#`).
fn walls_board(instance: &Instance) -> Vec<Vec<char>> {
    let mut board = vec![vec!['.'; instance.width]; instance.height];
    for &w in &instance.walls {
        put(&mut board, w, '#');
    }
    board
}

/// Adds the apples (by symbol, the first on top) and the start body (`o`).
fn put_start(board: &mut [Vec<char>], instance: &Instance) {
    for (i, &a) in instance.apples.iter().enumerate().rev() {
        put(board, a, apple_symbol(i));
    }
    if let Start::Body(body) = &instance.start {
        for &p in body {
            put(board, p, 'o');
        }
    }
}

/// Draws `c` at `(x, y)`; a cell off the grid has no place in a row.
fn put(board: &mut [Vec<char>], (x, y): Pos, c: char) {
    if let Some(cell) = board.get_mut(y).and_then(|row| row.get_mut(x)) {
        *cell = c;
    }
}

/// The start and end boards side by side, the moves and the eating times.
/// The snake at the end is the last `replay.final_length` cells of the
/// head's history: the start body (tail first) then the path, so a plan
/// shorter than the snake keeps the part of the start body still on the
/// board. A free start has no cells before `t = 0`: its end board shows only
/// the cells the head visited, which may be fewer than the snake's length.
/// It draws what it is given and checks nothing ([`crate::sim::simulate`]
/// does): cells off the grid are left out, and an empty path leaves the end
/// board as the start. A board with a side beyond
/// [`crate::instance::MAX_SIDE`] (which no valid instance has) is not
/// drawn: the picture is then one line that says so.
pub fn picture(instance: &Instance, path: &[Pos], replay: &Replay) -> String {
    if let Some(line) = not_drawn(instance) {
        return line;
    }
    let mut end = walls_board(instance);
    let mut start = end.clone();
    put_start(&mut start, instance);
    if let (Some(&first), Some(&last)) = (path.first(), path.last()) {
        put(&mut start, first, '@');
        // The head's cells before t = 0, most recent first (the body after its head).
        let before: &[Pos] = match &instance.start {
            Start::Body(body) => body.get(1..).unwrap_or_default(),
            Start::Free { .. } => &[],
        };
        for &p in path.iter().rev().chain(before).take(replay.final_length) {
            put(&mut end, p, 'o');
        }
        put(&mut end, last, '@');
    }
    // No move (no apples), or no path: the end is the start.
    if path.len() <= 1 {
        end = start.clone();
    }

    let mut out = String::new();
    let pad = instance.width.max(5);
    let _ = writeln!(out, "{:<pad$}   t={}", "t=0", path.len().saturating_sub(1));
    for y in 0..instance.height {
        let a: String = start[y].iter().collect();
        let b: String = end[y].iter().collect();
        let _ = writeln!(out, "{a:<pad$}   {b}");
    }
    out + &plan_lines(path, replay)
}

/// The lines under [`picture`]'s boards: the moves as letters
/// ([`moves_string`]; `none` without a move) and, when apples are eaten,
/// their eating times (`apple@time`, apples by their picture's symbol, or
/// past the 34 symbols by their number from 1).
pub fn plan_lines(path: &[Pos], replay: &Replay) -> String {
    let mut out = String::new();
    let moves = match moves_string(path) {
        none if none.is_empty() => "none".to_string(),
        moves => moves,
    };
    let _ = writeln!(out, "moves: {moves}");
    let eaten: Vec<String> = replay
        .eaten
        .iter()
        .map(|&(i, t)| match apple_symbol(i) {
            // Past the 34 symbols, the apple's number (from 1) says which one.
            '*' => format!("{}@{t}", i + 1),
            symbol => format!("{symbol}@{t}"),
        })
        .collect();
    if !eaten.is_empty() {
        let _ = writeln!(out, "eaten (apple@time): {}", eaten.join(" "));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The library's report of every kind of answer is the JSON `solve`
    /// documents: a "no plan at any horizon" (a snake that cannot turn back
    /// in a corridor) has `lower_bound` `null`, not `usize::MAX`, and the
    /// largest horizon allowed; a plan its path.
    #[test]
    fn reports_of_outcomes_follow_the_json_format() {
        use crate::planner::Planner;
        let direct = crate::encode::by_name("direct").unwrap();
        let corridor = crate::instance::json::from_json(
            r#"{"width":10,"height":1,"snake":[[5,0],[4,0],[3,0]],"apples":[[1,0]]}"#,
        )
        .unwrap();
        let outcome = Planner::new(&*direct)
            .max_horizon(40)
            .plan(&corridor)
            .unwrap();
        let json = serde_json::to_value(PlanReport::new(&outcome, &*direct)).unwrap();
        assert_eq!(json["status"], "unsat");
        assert!(json["lower_bound"].is_null(), "{json}");
        assert_eq!(json["horizon"], 40);
        let ahead = crate::instance::json::from_json(
            r#"{"width":10,"height":1,"snake":[[5,0],[4,0],[3,0]],"apples":[[8,0]]}"#,
        )
        .unwrap();
        let outcome = Planner::new(&*direct).plan(&ahead).unwrap();
        let report = PlanReport::new(&outcome, &*direct);
        assert_eq!((report.horizon, report.optimal), (3, true));
        assert_eq!(report.path, [(5, 0), (6, 0), (7, 0), (8, 0)]);
        assert_eq!(report.eaten, [(0, 3)]);
        assert_eq!(report.lower_bound, Some(3));
    }

    /// An approximate encoding's illegal model: the library's report says
    /// `unknown` and why, as `solve --json` does (it said `sat`, with no
    /// path and no `illegal_model`).
    #[test]
    fn an_illegal_model_is_reported_unknown_with_why() {
        use crate::planner::{Planner, Verdict};
        let ordered = crate::encode::by_name("notebook-ordered").unwrap();
        let instance = crate::instance::json::from_json(
            r#"{"width":5,"height":5,"length":4,"visible":1,
                "apples":[[4,2],[3,1],[1,1],[1,0],[4,1],[0,1]]}"#,
        )
        .unwrap();
        let outcome = Planner::new(&*ordered).plan(&instance).unwrap();
        assert!(matches!(outcome.verdict, Verdict::IllegalModel { .. }));
        let report = PlanReport::new(&outcome, &*ordered);
        assert_eq!(report.status, Status::Unknown);
        let why = report.illegal_model.expect("why the model proves nothing");
        assert!(
            why.starts_with("the model of approximate encoding notebook-ordered at T=14"),
            "{why}"
        );
        assert!(report.path.is_empty() && report.reason.is_none());
        // Every other verdict has none.
        let direct = crate::encode::by_name("direct").unwrap();
        let outcome = Planner::new(&*direct).plan(&instance).unwrap();
        assert!(outcome.model_error(&*direct).is_none());
        assert!(PlanReport::new(&outcome, &*direct).illegal_model.is_none());
    }

    /// A board no instance may have is not drawn (a 1,000,000-cell side
    /// allocated until the process aborted).
    #[test]
    fn an_absurd_board_is_not_drawn() {
        let huge = Instance {
            width: 1_000_000,
            height: 1_000_000,
            walls: vec![],
            start: Start::Body(vec![(0, 0)]),
            apples: vec![],
            visible: 1,
            grow: true,
            tail: crate::instance::TailRule::Follow,
            horizon: None,
        };
        let replay = Replay {
            eaten: vec![],
            final_length: 1,
        };
        let text = picture(&huge, &[(0, 0)], &replay);
        assert_eq!(
            text,
            "(a 1000000x1000000 board is not drawn: a side exceeds 1000)\n"
        );
    }

    #[test]
    fn moves_are_lettered() {
        assert_eq!(
            moves_string(&[(0, 0), (1, 0), (1, 1), (0, 1), (0, 0)]),
            "RDLU"
        );
    }

    /// Every apple up to the 34th has a symbol of its own, none of them the
    /// body's `o`, the head's `@`, a wall's `#` or a free cell's `.` (apple
    /// 24 was drawn `o`, like the body).
    #[test]
    fn apple_symbols_are_distinct_from_the_boards() {
        let symbols: Vec<char> = (0..34).map(apple_symbol).collect();
        let distinct: std::collections::HashSet<char> = symbols.iter().copied().collect();
        assert_eq!(distinct.len(), 34);
        assert!(symbols.iter().all(|c| !"o@#.*".contains(*c)), "{symbols:?}");
        assert_eq!(
            (apple_symbol(23), apple_symbol(33), apple_symbol(34)),
            ('p', 'z', '*')
        );
    }

    /// An empty path, one off the grid, or an instance with an apple off
    /// it made `picture` panic (index out of bounds).
    #[test]
    fn a_bad_path_is_drawn_not_a_panic() {
        let json = r#"{"width": 2, "height": 2, "snake": [[0, 0]], "apples": [[1, 0]]}"#;
        let instance = crate::instance::json::from_json(json).unwrap();
        let replay = crate::sim::simulate(&instance, &[(0, 0), (1, 0)]).unwrap();
        assert_eq!(
            picture(&instance, &[(0, 0), (1, 0)], &replay),
            "t=0     t=1\n@1      o@\n..      ..\nmoves: R\neaten (apple@time): 1@1\n"
        );
        assert_eq!(
            picture(&instance, &[], &replay),
            "t=0     t=0\no1      o1\n..      ..\nmoves: none\neaten (apple@time): 1@1\n"
        );
        assert_eq!(
            picture(&instance, &[(0, 0), (5, 0)], &replay),
            "t=0     t=1\n@1      o.\n..      ..\nmoves: ?\neaten (apple@time): 1@1\n"
        );
        let mut off = instance.clone();
        off.apples.push((7, 7));
        off.walls.push((9, 9));
        off.width = 0;
        assert_eq!(
            picture(&off, &[(0, 0)], &replay),
            "t=0     t=0\n        \n        \nmoves: none\neaten (apple@time): 1@1\n"
        );
    }
    /// The end board shows the snake at `T`: a plan shorter than the snake
    /// keeps the start body's cells still on the board (it drew only the
    /// cells the head visited: 3 of 5 here). A free start has nothing before
    /// `t = 0`, so only the head's cells are drawn.
    #[test]
    fn the_end_board_keeps_the_start_body_still_on_it() {
        let json = r#"{"width":6,"height":2,"snake":[[3,0],[2,0],[1,0],[0,0]],"apples":[[5,0]]}"#;
        let instance = crate::instance::json::from_json(json).unwrap();
        let path = [(3, 0), (4, 0), (5, 0)];
        let replay = crate::sim::simulate(&instance, &path).unwrap();
        assert_eq!(replay.final_length, 5);
        assert_eq!(
            picture(&instance, &path, &replay),
            "t=0      t=2\nooo@.1   .oooo@\n......   ......\nmoves: RR\neaten (apple@time): 1@2\n"
        );
        // Without growth (an apple not yet reached): the length stays 4.
        let json = r#"{"width":6,"height":2,"snake":[[3,0],[2,0],[1,0],[0,0]],"apples":[[5,1]]}"#;
        let instance = crate::instance::json::from_json(json).unwrap();
        let path = [(3, 0), (4, 0)];
        let replay = crate::sim::Replay {
            eaten: vec![],
            final_length: 4,
        };
        assert_eq!(
            picture(&instance, &path, &replay),
            "t=0      t=1\nooo@..   .ooo@.\n.....1   ......\nmoves: R\n"
        );
        let json = r#"{"width":6,"height":1,"length":4,"apples":[[5,0]]}"#;
        let free = crate::instance::json::from_json(json).unwrap();
        let path = [(3, 0), (4, 0), (5, 0)];
        let replay = crate::sim::simulate(&free, &path).unwrap();
        assert_eq!(
            picture(&free, &path, &replay),
            "t=0      t=2\n...@.1   ...oo@\nmoves: RR\neaten (apple@time): 1@2\n"
        );
    }
}
