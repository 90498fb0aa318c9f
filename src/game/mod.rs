//! The full game: a one-cell snake in a corner, one seeded random apple at a
//! time at a free cell, until the snake fills the board (a win) or no safe
//! plan exists (a loss).
//!
//! Every plan is *safe*: after eating, a Hamiltonian cycle runs from the new
//! head through every free cell to the tail and along the body (`cycle`),
//! so following it the snake can go on forever and reach any apple. (The
//! apple that fills the board needs no cycle after it: the least legal path
//! to it is taken, `route::filling_path`.) Within
//! safety the plan is as short as we can find, cheapest first: the last
//! certified cycle is edited to bring the apple closer (`cycle::shorten`,
//! 2×2 splits and merges that keep the body's arcs); on large boards the
//! legal paths to the apple, shortest first, are enumerated within a node
//! budget (`route::plausible_paths`) until one leaves a body that passes a
//! quick screen (`route::Screen`), and that one is certified by
//! repairing the edited cycle near the path
//! (`cycle::CycleSolver::certify_near`: CaDiCaL may only change the cells
//! close to it); on small boards, for `k` going up two at a time from
//! the lower bound, CaDiCaL looks for a legal path of `k` moves together
//! with a cycle certifying the body it leaves (`cycle::CycleSolver::plan`).
//! Failing those, the snake follows the edited cycle, edited again after
//! every step, which always works; on large boards the search is tried
//! again from the cells on the way (detours). With more than one thread
//! ([`GameConfig::threads`]) the searches from the next cells on the way run
//! at once, and the solver certifies their paths one at a time in the walk's
//! order: the same game, sooner.
//!
//! Each apple's moves are replayed by the simulator ([`crate::sim`]) before
//! the snake makes them, and the whole game once more at the end.

pub(crate) mod cycle;
mod padded;
mod pieces;
mod plan;
pub(crate) mod route;

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};
use serde::Serialize;
use thiserror::Error;

use crate::instance::{Instance, Pos, Start, TailRule};
use cycle::{CycleSolver, Outcome};
use plan::{Effort, plan_apple};

pub use crate::geometry::Grid;
/// The solver work of an apple ([`AppleRecord::work`]) or a game ([`GameStats::work`]).
pub use cycle::Work;

/// The largest board side `play` accepts.
pub const MAX_GAME_SIDE: usize = 64;

/// How the solver is reused from one apple to the next (the slides' five
/// multi-shot designs, in CaDiCaL terms). They differ in how a query's facts
/// (the body arcs that must stay) reach the solver; a query's path clauses go
/// in under a selector in every incremental strategy, and subtour cuts are
/// kept for the whole game in all five.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum Reuse {
    /// A new solver per query, given the model, the cuts so far and the body as unit clauses.
    Fresh,
    /// One solver; each query's clauses are added guarded by a new selector,
    /// assumed for the query and then released for good (a unit clause `¬selector`).
    Clauses,
    /// One solver with a pre-built switch per arc (`switch → arc`); a query
    /// assumes the switches of the body's arcs.
    Activation,
    /// One solver; the body's arcs are assumed directly.
    Assumptions,
    /// One solver that first sees no body at all; each model is checked and
    /// the body arcs it breaks are added as nogoods, like subtours, until none is broken.
    Nogoods,
}

impl Reuse {
    /// Every strategy, in the order tables list them.
    pub const ALL: [Reuse; 5] = [
        Reuse::Fresh,
        Reuse::Clauses,
        Reuse::Activation,
        Reuse::Assumptions,
        Reuse::Nogoods,
    ];

    /// The name `--reuse` accepts.
    pub fn name(self) -> &'static str {
        match self {
            Reuse::Fresh => "fresh",
            Reuse::Clauses => "clauses",
            Reuse::Activation => "activation",
            Reuse::Assumptions => "assumptions",
            Reuse::Nogoods => "nogoods",
        }
    }
}

/// One game to play.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameConfig {
    /// Board columns.
    pub width: usize,
    /// Board rows.
    pub height: usize,
    /// Seed of the apples' ChaCha8 generator: the same seed gives the same game.
    pub seed: u64,
    /// How the solver is reused from one query to the next.
    pub reuse: Reuse,
    /// Time per apple for the solver and the path searches; past it the
    /// snake follows its last certified cycle as it is, unedited. `None`, or
    /// a time too long to add to the clock, is no limit.
    pub timeout_per_apple: Option<Duration>,
    /// Conflicts per solver call before a query counts as undecided:
    /// `Some(n)` with `n >= 1`, or `None` for no limit ([`play`] refuses
    /// `Some(n)` with `n < 1` with [`GameError::BadSetting`]). The game's
    /// first cycle goes without it (and without `rounds`), and so does a
    /// second try of an apple's search before the game is called lost.
    pub conflicts: Option<i32>,
    /// Solver calls per query (refinement rounds) before it counts as
    /// undecided; at least 1.
    pub rounds: u32,
    /// Undecided lengths per apple before the snake takes the best plan so
    /// far; at least 1.
    pub undecided_per_apple: u32,
    /// Lengths asked per apple in the joint path + cycle search (0: none).
    pub lengths_per_apple: u32,
    /// Steps along the edited cycle, per apple, from which a path to the
    /// apple is searched again (`route::plausible_paths`, certified by
    /// repairing the cycle near the path), once the joint search is over.
    pub detours_per_apple: u32,
    /// Threads that run those searches, for consecutive steps at once (the
    /// solver still certifies their paths one at a time, in the walk's
    /// order): the game is the same for every value, only faster with more
    /// cores. At least 1, at most [`MAX_THREADS`].
    pub threads: usize,
}

/// The most threads [`GameConfig::threads`] may ask for (and the most
/// [`crate::planner::Planner::threads`] runs).
pub const MAX_THREADS: usize = 64;

/// The conflicts per solver call of [`GameConfig::new`] (and of `snakesat
/// play --conflicts`), of the type of [`GameConfig::conflicts`].
pub const DEFAULT_CONFLICTS: i32 = 1000;
/// The solver calls per query of [`GameConfig::new`] (`--rounds`).
pub const DEFAULT_ROUNDS: u32 = 10;
/// The undecided lengths per apple of [`GameConfig::new`] (`--undecided-per-apple`).
pub const DEFAULT_UNDECIDED: u32 = 16;
/// The time per apple of [`GameConfig::new`] (`snakesat play --timeout`).
pub const DEFAULT_TIMEOUT_PER_APPLE: Duration = Duration::from_secs(60);

impl GameConfig {
    /// The game of a `width` x `height` board with apples from `seed`, the
    /// rest as `snakesat play` plays it unless told: [`Reuse::Clauses`],
    /// [`DEFAULT_TIMEOUT_PER_APPLE`], [`DEFAULT_CONFLICTS`],
    /// [`DEFAULT_ROUNDS`], [`DEFAULT_UNDECIDED`], and the size's
    /// [`default_lengths_per_apple`] and [`default_detours_per_apple`].
    /// Change a field by struct update: `GameConfig { reuse: Reuse::Nogoods,
    /// ..GameConfig::new(8, 8, 1) }`.
    pub fn new(width: usize, height: usize, seed: u64) -> GameConfig {
        let cells = width.saturating_mul(height);
        GameConfig {
            width,
            height,
            seed,
            reuse: Reuse::Clauses,
            timeout_per_apple: Some(DEFAULT_TIMEOUT_PER_APPLE),
            conflicts: Some(DEFAULT_CONFLICTS),
            rounds: DEFAULT_ROUNDS,
            undecided_per_apple: DEFAULT_UNDECIDED,
            lengths_per_apple: default_lengths_per_apple(cells),
            detours_per_apple: default_detours_per_apple(cells),
            threads: 1,
        }
    }

    /// Whether [`play`] can play this game: the board ([`check_board`]),
    /// then `rounds`, `undecided_per_apple` and `threads` at least 1,
    /// `threads` at most [`MAX_THREADS`], and `conflicts` `None` or at least
    /// 1 ([`GameError::BadSetting`] otherwise).
    pub fn check(&self) -> Result<(), GameError> {
        check_board(self.width, self.height)?;
        let at_least_one = |setting: &'static str, value: i64, rule: &'static str| {
            if value >= 1 {
                Ok(())
            } else {
                Err(GameError::BadSetting {
                    setting,
                    value,
                    rule,
                })
            }
        };
        let positive = "it must be at least 1";
        at_least_one("rounds", self.rounds.into(), positive)?;
        at_least_one(
            "undecided_per_apple",
            self.undecided_per_apple.into(),
            positive,
        )?;
        at_least_one(
            "threads",
            self.threads.try_into().unwrap_or(i64::MAX),
            positive,
        )?;
        if self.threads > MAX_THREADS {
            return Err(GameError::BadSetting {
                setting: "threads",
                value: self.threads.try_into().unwrap_or(i64::MAX),
                rule: "it must be at most 64",
            });
        }
        if let Some(conflicts) = self.conflicts {
            let rule = "a limit must be at least 1 (None: no limit)";
            at_least_one("conflicts", conflicts.into(), rule)?;
        }
        Ok(())
    }
}

/// The largest board (in cells) on which the joint search runs unless told:
/// 14x14. Above it the certified searched paths and detours give about as few
/// moves at a small part of the time (measured on 16x16: 4,780 mean moves
/// over seeds 1–3 in 0.5 s of CPU per game, against 4,825 and about 43 s).
pub const JOINT_SEARCH_CELLS: usize = 196;

/// The joint search's lengths per apple unless told: up to
/// [`JOINT_SEARCH_CELLS`] as many as the other limits allow; above, none.
pub fn default_lengths_per_apple(cells: usize) -> u32 {
    if cells <= JOINT_SEARCH_CELLS {
        u32::MAX
    } else {
        0
    }
}

/// The detours per apple unless told: none where the joint search runs (it
/// already asks every length up to the cycle's), 200 above (measured on
/// 30x30: unlimited gave no fewer moves).
pub fn default_detours_per_apple(cells: usize) -> u32 {
    if cells <= JOINT_SEARCH_CELLS { 0 } else { 200 }
}

/// How an apple's path was chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum AppleMethod {
    /// A path as short as the moving snake's shortest path, certified.
    Shortest,
    /// A longer certified path: the first length, going up, that the solver found.
    Route,
    /// The previous certified cycle (the search ran out of effort or time).
    Cycle,
    /// Not eaten: no safe plan was found and the game ended (the last
    /// record of a lost game).
    Lost,
}

impl AppleMethod {
    /// [`AppleMethod::Shortest`] for a plan of `moves` moves as short as the
    /// lower bound `lower` (no legal plan is shorter), else `otherwise`.
    fn at_bound(moves: usize, lower: Option<usize>, otherwise: AppleMethod) -> AppleMethod {
        if Some(moves) == lower {
            AppleMethod::Shortest
        } else {
            otherwise
        }
    }

    /// In words, as the HTML viewer's "how" column shows it.
    pub fn describe(self) -> &'static str {
        match self {
            AppleMethod::Shortest => "shortest path",
            AppleMethod::Route => "longer certified path",
            AppleMethod::Cycle => "following the cycle",
            AppleMethod::Lost => "not reached",
        }
    }
}

/// Apples and moves by [`AppleMethod`]: where a game's moves go.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Breakdown {
    /// Apples eaten on a shortest path (no legal plan is shorter).
    pub shortest_apples: usize,
    /// Moves spent on those apples.
    pub shortest_steps: usize,
    /// Apples eaten on a longer certified path.
    pub route_apples: usize,
    /// Moves spent on those apples.
    pub route_steps: usize,
    /// Apples eaten by following the (edited) cycle.
    pub cycle_apples: usize,
    /// Moves spent on those apples.
    pub cycle_steps: usize,
}

impl Breakdown {
    fn add(&mut self, method: AppleMethod, steps: usize) {
        let (apples, moves) = match method {
            AppleMethod::Shortest => (&mut self.shortest_apples, &mut self.shortest_steps),
            AppleMethod::Route => (&mut self.route_apples, &mut self.route_steps),
            AppleMethod::Cycle => (&mut self.cycle_apples, &mut self.cycle_steps),
            AppleMethod::Lost => return,
        };
        *apples += 1;
        *moves += steps;
    }
}

/// One apple of a game.
#[derive(Clone, Debug, Serialize)]
pub struct AppleRecord {
    /// 0 for the first apple.
    pub index: usize,
    /// Where it appeared.
    pub cell: Pos,
    /// The snake's length when the apple appeared.
    pub length: usize,
    /// Moves to eat it.
    pub steps: usize,
    /// The moving snake's shortest path to it, ignoring safety: no legal plan is shorter.
    pub lower_bound: usize,
    /// How it was reached.
    pub method: AppleMethod,
    /// No safe plan is shorter: every shorter length was refuted (always true
    /// when `steps == lower_bound`). Safe means: a Hamiltonian cycle follows
    /// (see the module documentation); plans are simple paths.
    pub least: bool,
    /// Planning it reached the time per apple (`--timeout`), which stopped a
    /// search: another run, on a machine more or less loaded, may plan it
    /// otherwise (and so play another game from here).
    pub timed_out: bool,
    /// Time spent planning it.
    pub seconds: f64,
    /// Solver work spent on it.
    #[serde(flatten)]
    pub work: Work,
}

/// What a game came to, shared by [`GameRecord`] and the bench's
/// `GameSummary` (flattened into both, so their JSON keys are these).
#[derive(Clone, Debug, Serialize)]
pub struct GameStats {
    /// Board columns.
    pub width: usize,
    /// Board rows.
    pub height: usize,
    /// The apples' seed.
    pub seed: u64,
    /// The solver reuse strategy.
    pub reuse: Reuse,
    /// The snake filled the board.
    pub won: bool,
    /// Why the game was lost, with the state: no safe plan found, or none
    /// found before the time per apple ran out.
    pub loss: Option<String>,
    /// The snake's length at the end.
    pub final_length: usize,
    /// Cells of the board.
    pub cells: usize,
    /// Apples eaten.
    pub eaten: usize,
    /// Moves in the whole game.
    pub steps: usize,
    /// Apples eaten in exactly `lower_bound` steps.
    pub shortest_possible: usize,
    /// Apples eaten by a plan proven to be the least safe one.
    pub least_safe: usize,
    /// Apples whose planning reached the time per apple
    /// ([`AppleRecord::timed_out`]): 0 for a game that any machine replays
    /// move for move.
    pub timeouts: usize,
    /// Apples and moves by how each apple was reached.
    #[serde(flatten)]
    pub breakdown: Breakdown,
    /// Time for the whole game.
    pub seconds: f64,
    /// Solver work over the game, the first cycle included.
    #[serde(flatten)]
    pub work: Work,
}

/// A finished game.
#[derive(Clone, Debug, Serialize)]
pub struct GameRecord {
    /// The game's size, strategy, outcome and totals.
    #[serde(flatten)]
    pub stats: GameStats,
    /// Every apple, in order.
    pub apples: Vec<AppleRecord>,
    /// The head at every time point, the start first.
    #[serde(skip)]
    pub path: Vec<Pos>,
}

impl GameRecord {
    /// The game as an instance of docs/DESIGN.md §1 (one visible apple at a time,
    /// each eaten apple revealing the next) whose plan is [`GameRecord::path`]:
    /// one that [`Instance::validate`] accepts, without a horizon (the path's
    /// moves fix it), so that a planner can be asked for a shorter plan.
    pub fn instance(&self) -> Instance {
        game_instance(
            Grid::new(self.stats.width, self.stats.height),
            vec![self.path[0]],
            self.apples[..self.stats.eaten]
                .iter()
                .map(|a| a.cell)
                .collect(),
        )
    }

    /// [`GameRecord::instance`] with, for a lost game, the apple it was lost
    /// on as the last apple (revealed by the last eat, never eaten), so that
    /// a picture of the game shows it.
    pub fn picture_instance(&self) -> Instance {
        let mut instance = self.instance();
        if !self.stats.won
            && let Some(lost) = self.apples.get(self.stats.eaten)
        {
            instance.apples.push(lost.cell);
        }
        instance
    }
}

/// Why a game could not be played.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
#[non_exhaustive]
pub enum GameError {
    /// A board side outside `1..=MAX_GAME_SIDE` (width, height).
    #[error("board size {0}x{1} is out of range (each side must be 1..={MAX_GAME_SIDE})")]
    BadSize(usize, usize),
    /// A one-row or one-column board of more than two cells: it has no
    /// Hamiltonian cycle, which every plan of the player must leave.
    #[error(
        "a {0}x{1} board has no Hamiltonian cycle, which the player keeps after every apple: \
         a board of more than 2 cells needs both sides at least 2"
    )]
    NoCycle(usize, usize),
    /// A setting of the [`GameConfig`] out of its range ([`GameConfig::check`]).
    #[error("game setting {setting} = {value} is out of range: {rule}")]
    BadSetting {
        /// The field of [`GameConfig`], e.g. `"rounds"`.
        setting: &'static str,
        /// Its value.
        value: i64,
        /// What it must be.
        rule: &'static str,
    },
    /// [`play_until`]'s flag was raised before the game ended.
    #[error("the game was stopped after {eaten} apples")]
    Stopped {
        /// Apples eaten before it stopped.
        eaten: usize,
    },
    /// The independent simulator refused the moves planned for an apple (a bug).
    #[error("internal error: the simulator rejects the plan for apple {}: {reason}", .apple + 1)]
    Rejected {
        /// The apple's number in the game, from 0 (the message counts from 1).
        apple: usize,
        /// The simulator's words.
        reason: String,
    },
}

/// Whether the player can play a `w` x `h` board: sides in `1..=MAX_GAME_SIDE`,
/// and a Hamiltonian cycle possible (not one row or column of more than 2).
pub fn check_board(w: usize, h: usize) -> Result<(), GameError> {
    if !(1..=MAX_GAME_SIDE).contains(&w) || !(1..=MAX_GAME_SIDE).contains(&h) {
        return Err(GameError::BadSize(w, h));
    }
    if (w == 1 || h == 1) && w * h > 2 {
        return Err(GameError::NoCycle(w, h));
    }
    Ok(())
}

/// Plays one game; `on_apple` sees each apple once it is eaten. A
/// configuration that [`GameConfig::check`] refuses is refused.
///
/// ```
/// use snakesat::game::{GameConfig, play};
///
/// let record = play(&GameConfig::new(4, 4, 1), |apple| {
///     assert!(apple.steps >= apple.lower_bound);
/// })
/// .unwrap();
/// assert!(record.stats.won);
/// assert_eq!(record.stats.final_length, 16);
/// // Every move, replayed by the simulator before it was made.
/// assert_eq!(record.path.len(), record.stats.steps + 1);
/// ```
pub fn play(
    config: &GameConfig,
    on_apple: impl FnMut(&AppleRecord),
) -> Result<GameRecord, GameError> {
    play_until(config, &AtomicBool::new(false), on_apple)
}

/// [`play`], stopped with [`GameError::Stopped`] once `stop` is raised (by
/// another thread, or a signal handler). The flag is read before each
/// apple: an apple's search already begun ends first, within
/// [`GameConfig::timeout_per_apple`].
pub fn play_until(
    config: &GameConfig,
    stop: &AtomicBool,
    mut on_apple: impl FnMut(&AppleRecord),
) -> Result<GameRecord, GameError> {
    config.check()?;
    let (w, h) = (config.width, config.height);
    let started = Instant::now();
    let grid = Grid::new(w, h);
    let cells = grid.cells();
    let mut rng = ChaCha8Rng::seed_from_u64(config.seed);
    let mut solver = CycleSolver::new(grid, config.reuse);
    let mut body: VecDeque<usize> = VecDeque::from([0]);
    let mut occupied = vec![false; cells];
    occupied[0] = true;
    // The game's first cycle, on the empty board, without the limits of the
    // queries after it: every later plan rests on it (with a low
    // `conflicts`, odd boards were lost before the first move). A one-cell
    // board is full from the start (and has no arc to build a cycle of).
    let mut cycle = match (cells > 1).then(|| solver.certify(&[0], None)) {
        Some(Outcome::Found(f)) => Some(f.cycle),
        _ => None,
    };
    solver.conflict_limit = config.conflicts;
    solver.round_limit = config.rounds;
    let mut record = GameRecord {
        stats: GameStats {
            width: w,
            height: h,
            seed: config.seed,
            reuse: config.reuse,
            won: false,
            loss: None,
            final_length: 1,
            cells,
            eaten: 0,
            steps: 0,
            shortest_possible: 0,
            least_safe: 0,
            timeouts: 0,
            breakdown: Breakdown::default(),
            seconds: 0.0,
            work: Work::default(),
        },
        apples: vec![],
        path: vec![grid.pos(0)],
    };
    while body.len() < cells {
        if stop.load(Ordering::Relaxed) {
            return Err(GameError::Stopped {
                eaten: record.stats.eaten,
            });
        }
        let free: Vec<usize> = (0..cells).filter(|&c| !occupied[c]).collect();
        let apple = free[rng.random_range(0..free.len())];
        let apple_started = Instant::now();
        let work_before = solver.work;
        // A timeout too long to add is no limit.
        let deadline = config
            .timeout_per_apple
            .and_then(|t| apple_started.checked_add(t));
        let snake: Vec<usize> = body.iter().copied().collect();
        let shortest = route::shortest(&grid, &snake, apple, true);
        let lower_bound = shortest.as_ref().map(Vec::len);
        let effort = Effort {
            undecided: config.undecided_per_apple,
            lengths: config.lengths_per_apple,
            detours: config.detours_per_apple,
            threads: config.threads,
        };
        let mut plan = plan_apple(
            &mut solver,
            &snake,
            apple,
            shortest,
            cycle.as_deref(),
            deadline,
            &effort,
        );
        // A query undecided within `conflicts` or `rounds` proves nothing:
        // before the game is called lost, the same search without them
        // (still within the time per apple).
        if plan.is_none() && (config.conflicts.is_some() || config.rounds < u32::MAX) {
            solver.conflict_limit = None;
            solver.round_limit = u32::MAX;
            plan = plan_apple(
                &mut solver,
                &snake,
                apple,
                // (Found again here rather than kept for this rare retry.)
                route::shortest(&grid, &snake, apple, true),
                cycle.as_deref(),
                deadline,
                &effort,
            );
            solver.conflict_limit = config.conflicts;
            solver.round_limit = config.rounds;
        }
        let timed_out = deadline.is_some_and(|d| Instant::now() >= d);
        record.stats.timeouts += usize::from(timed_out);
        let Some(plan) = plan else {
            record.apples.push(AppleRecord {
                index: record.stats.eaten,
                cell: grid.pos(apple),
                length: body.len(),
                steps: 0,
                lower_bound: lower_bound.unwrap_or(0),
                method: AppleMethod::Lost,
                least: false,
                timed_out,
                seconds: apple_started.elapsed().as_secs_f64(),
                work: difference(solver.work, work_before),
            });
            // Apples counted from 1 in words, as `solve` and the viewer do.
            // A search the time per apple stopped proves nothing: said so.
            let why = if timed_out {
                "the time per apple ran out before a safe plan was found"
            } else {
                "no safe plan"
            };
            record.stats.loss = Some(format!(
                "{why} to apple {} at {:?} with the snake of length {} at {:?}",
                record.stats.eaten + 1,
                grid.pos(apple),
                body.len(),
                snake.iter().map(|&c| grid.pos(c)).collect::<Vec<_>>()
            ));
            break;
        };
        check_segment(&grid, &snake, apple, &plan.moves).map_err(|reason| GameError::Rejected {
            apple: record.stats.eaten,
            reason,
        })?;
        for (i, &cell) in plan.moves.iter().enumerate() {
            if i + 1 < plan.moves.len() {
                let tail = body.pop_back().expect("a non-empty body");
                occupied[tail] = false;
            }
            body.push_front(cell);
            occupied[cell] = true;
            record.path.push(grid.pos(cell));
        }
        if plan.cycle.is_some() {
            cycle = plan.cycle;
        }
        let apple_record = AppleRecord {
            index: record.stats.eaten,
            cell: grid.pos(apple),
            length: snake.len(),
            steps: plan.moves.len(),
            lower_bound: lower_bound.unwrap_or(plan.moves.len()),
            method: plan.method,
            least: plan.least,
            timed_out,
            seconds: apple_started.elapsed().as_secs_f64(),
            work: difference(solver.work, work_before),
        };
        record.stats.eaten += 1;
        record.stats.steps += apple_record.steps;
        if apple_record.steps == apple_record.lower_bound {
            record.stats.shortest_possible += 1;
        }
        if apple_record.least {
            record.stats.least_safe += 1;
        }
        record
            .stats
            .breakdown
            .add(apple_record.method, apple_record.steps);
        on_apple(&apple_record);
        record.apples.push(apple_record);
    }
    record.stats.won = body.len() == cells;
    record.stats.final_length = body.len();
    record.stats.work = solver.work;
    record.stats.seconds = started.elapsed().as_secs_f64();
    crate::sim::simulate(&record.instance(), &record.path).map_err(|v| GameError::Rejected {
        apple: record.stats.eaten,
        reason: format!("replaying the whole game: {v}"),
    })?;
    Ok(record)
}

fn difference(after: Work, before: Work) -> Work {
    Work {
        build_seconds: after.build_seconds - before.build_seconds,
        solve_seconds: after.solve_seconds - before.solve_seconds,
        solver_calls: after.solver_calls - before.solver_calls,
        cuts: after.cuts - before.cuts,
    }
}

/// The body (head first) after `moves`, the last of which eats.
pub(crate) fn body_after(snake: &[usize], moves: &[usize]) -> Vec<usize> {
    let mut body = Vec::with_capacity(snake.len() + 1);
    body_after_into(snake, moves, &mut body);
    body
}

/// [`body_after`] written into `body` (cleared first), so a loop over many
/// paths allocates it once.
pub(crate) fn body_after_into(snake: &[usize], moves: &[usize], body: &mut Vec<usize>) {
    body.clear();
    body.extend(moves.iter().rev().chain(snake).take(snake.len() + 1));
}

/// How many cells `a` and `b` share from their start.
pub(crate) fn shared_prefix(a: &[usize], b: &[usize]) -> usize {
    a.iter().zip(b).take_while(|(a, b)| a == b).count()
}

/// The game's rules as an instance of docs/DESIGN.md §1: no walls, one visible
/// apple at a time (each eaten apple reveals the next), growth, the follow tail rule.
/// No horizon: the moves made fix the length (a 40x40 game's would exceed
/// [`crate::instance::MAX_HORIZON`], and a 1x1 game has none to make).
fn game_instance(grid: Grid, body: Vec<Pos>, apples: Vec<Pos>) -> Instance {
    Instance {
        width: grid.width,
        height: grid.height,
        walls: vec![],
        start: Start::Body(body),
        apples,
        visible: 1,
        grow: true,
        tail: TailRule::Follow,
        horizon: None,
    }
}

/// Replays one apple's moves with the simulator.
fn check_segment(
    grid: &Grid,
    snake: &[usize],
    apple: usize,
    moves: &[usize],
) -> Result<(), String> {
    let instance = game_instance(
        *grid,
        snake.iter().map(|&c| grid.pos(c)).collect(),
        vec![grid.pos(apple)],
    );
    let path: Vec<Pos> = std::iter::once(snake[0])
        .chain(moves.iter().copied())
        .map(|c| grid.pos(c))
        .collect();
    match crate::sim::simulate(&instance, &path) {
        Ok(replay) if replay.eaten == [(0, moves.len())] => Ok(()),
        Ok(replay) => Err(format!(
            "apple eaten at {:?}, not at the last move",
            replay.eaten
        )),
        Err(v) => Err(v.to_string()),
    }
}
