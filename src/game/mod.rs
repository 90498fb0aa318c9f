//! The full game: a one-cell snake in a corner, one seeded random apple at a
//! time at a free cell, until the snake fills the board (a win) or no safe
//! plan exists (a loss).
//!
//! Every plan is *safe*: after eating, a Hamiltonian cycle runs from the new
//! head through every free cell to the tail and along the body ([`cycle`]),
//! so following it the snake can go on forever and reach any apple. (The
//! apple that fills the board needs no cycle after it: the least legal path
//! to it is taken, [`route::filling_path`].) Within
//! safety the plan is as short as we can find, cheapest first: the last
//! certified cycle is edited to bring the apple closer ([`cycle::shorten`],
//! 2×2 splits and merges that keep the body's arcs); on large boards the
//! legal paths to the apple, shortest first, are enumerated within a node
//! budget ([`route::plausible_paths`]) until one leaves a body that passes a
//! quick screen ([`route::plausible`]), and that one is certified by
//! repairing the edited cycle near the path
//! ([`cycle::CycleSolver::certify_near`]: CaDiCaL may only change the cells
//! close to it); on small boards, for `k` going up two at a time from
//! the lower bound, CaDiCaL looks for a legal path of `k` moves together
//! with a cycle certifying the body it leaves ([`cycle::CycleSolver::plan`]).
//! Failing those, the snake follows the edited cycle, edited again after
//! every step, which always works; on large boards the search is tried
//! again from the cells on the way (detours). With more than one thread
//! ([`GameConfig::threads`]) the searches from the next cells on the way run
//! at once, and the solver certifies their paths one at a time in the walk's
//! order: the same game, sooner.
//!
//! Each apple's moves are replayed by the simulator ([`crate::sim`]) before
//! the snake makes them, and the whole game once more at the end.

pub mod cycle;
mod padded;
mod pieces;
pub mod route;

use std::collections::VecDeque;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};
use serde::Serialize;
use thiserror::Error;

use crate::instance::{Instance, Pos, Start, TailRule};
use cycle::{CycleSolver, Outcome, Work};

pub use crate::geometry::Grid;

/// The largest board side `play` accepts.
pub const MAX_SIDE: usize = 64;

/// How the solver is reused from one apple to the next (the slides' five
/// multi-shot designs, in CaDiCaL terms). They differ in how a query's facts
/// (the body arcs that must stay) reach the solver; a query's path clauses go
/// in under a selector in every incremental strategy, and subtour cuts are
/// kept for the whole game in all five.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[serde(rename_all = "lowercase")]
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
#[derive(Clone, Copy, Debug)]
pub struct GameConfig {
    /// Board columns.
    pub width: usize,
    /// Board rows.
    pub height: usize,
    /// Seed of the apples' ChaCha8 generator: the same seed gives the same game.
    pub seed: u64,
    /// How the solver is reused from one query to the next.
    pub reuse: Reuse,
    /// Time for the solver per apple; past it the snake follows its last
    /// cycle. `None`, or a time too long to add to the clock, is no limit.
    pub timeout_per_apple: Option<Duration>,
    /// Conflicts per solver call before a query counts as undecided:
    /// `Some(n)` with `n >= 1`, or `None` for no limit ([`play`] refuses
    /// `Some(n)` with `n < 1` with [`GameError::BadSetting`]).
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
    /// apple is searched again ([`route::plausible_paths`], certified by
    /// repairing the cycle near the path), once the joint search is over.
    pub detours_per_apple: u32,
    /// Threads that run those searches, for consecutive steps at once (the
    /// solver still certifies their paths one at a time, in the walk's
    /// order): the game is the same for every value, only faster with more
    /// cores. At least 1, at most [`MAX_THREADS`].
    pub threads: usize,
}

/// The most threads [`GameConfig::threads`] may ask for.
pub const MAX_THREADS: usize = 64;

/// The conflicts per solver call of [`GameConfig::new`] (and of `snakesat
/// play --conflicts`).
pub const DEFAULT_CONFLICTS: u32 = 1000;
/// The solver calls per query of [`GameConfig::new`] (`--rounds`).
pub const DEFAULT_ROUNDS: u32 = 10;
/// The undecided lengths per apple of [`GameConfig::new`] (`--undecided-per-apple`).
pub const DEFAULT_UNDECIDED: u32 = 16;
/// The solver time per apple of [`GameConfig::new`] (`snakesat play --timeout`).
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
            conflicts: Some(DEFAULT_CONFLICTS as i32),
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

/// How much [`plan_apple`] may ask the solver for one apple.
struct Effort {
    undecided: u32,
    lengths: u32,
    detours: u32,
    threads: usize,
}

/// How an apple's path was chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Method {
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

impl Method {
    /// [`Method::Shortest`] for a plan of `moves` moves as short as the
    /// lower bound `lower` (no legal plan is shorter), else `otherwise`.
    fn at_bound(moves: usize, lower: Option<usize>, otherwise: Method) -> Method {
        if Some(moves) == lower {
            Method::Shortest
        } else {
            otherwise
        }
    }

    /// In words, as the HTML viewer's "how" column shows it.
    pub fn describe(self) -> &'static str {
        match self {
            Method::Shortest => "shortest path",
            Method::Route => "longer certified path",
            Method::Cycle => "following the cycle",
            Method::Lost => "not reached",
        }
    }
}

/// Apples and moves by [`Method`]: where a game's moves go.
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
    fn add(&mut self, method: Method, steps: usize) {
        let (apples, moves) = match method {
            Method::Shortest => (&mut self.shortest_apples, &mut self.shortest_steps),
            Method::Route => (&mut self.route_apples, &mut self.route_steps),
            Method::Cycle => (&mut self.cycle_apples, &mut self.cycle_steps),
            Method::Lost => return,
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
    pub method: Method,
    /// No safe plan is shorter: every shorter length was refuted (always true
    /// when `steps == lower_bound`). Safe means: a Hamiltonian cycle follows
    /// (see the module documentation); plans are simple paths.
    pub least: bool,
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
    /// Why the game was lost, with the state.
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
    /// each eaten apple revealing the next) whose plan is [`GameRecord::path`].
    pub fn instance(&self) -> Instance {
        game_instance(
            Grid::new(self.stats.width, self.stats.height),
            vec![self.path[0]],
            self.apples[..self.stats.eaten]
                .iter()
                .map(|a| a.cell)
                .collect(),
            self.stats.steps,
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
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum GameError {
    /// A board side outside `1..=MAX_SIDE` (width, height).
    #[error("board size {0}x{1} is out of range (each side must be 1..={MAX_SIDE})")]
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
    /// The independent simulator refused the moves planned for an apple (a bug).
    #[error("internal error: the simulator rejects the plan for apple {}: {reason}", .apple + 1)]
    Rejected {
        /// The apple's number in the game, from 0 (the message counts from 1).
        apple: usize,
        /// The simulator's words.
        reason: String,
    },
}

/// A plan for one apple.
struct Plan {
    moves: Vec<usize>,
    method: Method,
    /// The certified cycle after eating (`None` once the board is full).
    cycle: Option<Vec<u32>>,
    /// Every shorter length was refuted: no shorter safe plan exists.
    least: bool,
}

/// Whether the player can play a `w` x `h` board: sides in `1..=MAX_SIDE`,
/// and a Hamiltonian cycle possible (not one row or column of more than 2).
pub fn check_board(w: usize, h: usize) -> Result<(), GameError> {
    if !(1..=MAX_SIDE).contains(&w) || !(1..=MAX_SIDE).contains(&h) {
        return Err(GameError::BadSize(w, h));
    }
    if (w == 1 || h == 1) && w * h > 2 {
        return Err(GameError::NoCycle(w, h));
    }
    Ok(())
}

/// Plays one game; `on_apple` sees each apple once it is eaten. A
/// configuration that [`GameConfig::check`] refuses is refused.
pub fn play(
    config: &GameConfig,
    mut on_apple: impl FnMut(&AppleRecord),
) -> Result<GameRecord, GameError> {
    config.check()?;
    let (w, h) = (config.width, config.height);
    let started = Instant::now();
    let grid = Grid::new(w, h);
    let cells = grid.cells();
    let mut rng = ChaCha8Rng::seed_from_u64(config.seed);
    let mut solver = CycleSolver::new(grid, config.reuse);
    solver.conflict_limit = config.conflicts;
    solver.round_limit = config.rounds;
    let mut body: VecDeque<usize> = VecDeque::from([0]);
    let mut occupied = vec![false; cells];
    occupied[0] = true;
    // A one-cell board is full from the start (and has no arc to build a cycle of).
    let mut cycle = match (cells > 1).then(|| solver.certify(&[0], None)) {
        Some(Outcome::Found(f)) => Some(f.cycle),
        _ => None,
    };
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
            breakdown: Breakdown::default(),
            seconds: 0.0,
            work: Work::default(),
        },
        apples: vec![],
        path: vec![grid.pos(0)],
    };
    while body.len() < cells {
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
        let plan = plan_apple(
            &mut solver,
            &snake,
            apple,
            shortest,
            cycle.as_deref(),
            deadline,
            &Effort {
                undecided: config.undecided_per_apple,
                lengths: config.lengths_per_apple,
                detours: config.detours_per_apple,
                threads: config.threads,
            },
        );
        let Some(plan) = plan else {
            record.apples.push(AppleRecord {
                index: record.stats.eaten,
                cell: grid.pos(apple),
                length: body.len(),
                steps: 0,
                lower_bound: lower_bound.unwrap_or(0),
                method: Method::Lost,
                least: false,
                seconds: apple_started.elapsed().as_secs_f64(),
                work: difference(solver.work, work_before),
            });
            // Apples counted from 1 in words, as `solve` and the viewer do.
            record.stats.loss = Some(format!(
                "no safe plan to apple {} at {:?} with the snake of length {} at {:?}",
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

/// The safe plan for one apple (see the module documentation), or `None`.
/// `shortest` is the moving snake's shortest path to the apple ([`route::shortest`]).
fn plan_apple(
    solver: &mut CycleSolver,
    snake: &[usize],
    apple: usize,
    shortest: Option<Vec<usize>>,
    cycle: Option<&[u32]>,
    deadline: Option<Instant>,
    effort: &Effort,
) -> Option<Plan> {
    let grid = &solver.grid();
    let lower = shortest.as_ref().map(Vec::len);
    let shortest = shortest.filter(|m| route::is_legal(grid, snake, m));
    if snake.len() + 1 == grid.cells() {
        // This apple fills the board: nothing comes after it, so every legal
        // path is safe and no certificate is needed (on a board with an odd
        // number of cells none exists). Take the least one.
        let moves = shortest.or_else(|| route::filling_path(grid, snake, apple))?;
        return Some(Plan {
            method: Method::at_bound(moves.len(), lower, Method::Route),
            moves,
            cycle: None,
            least: true,
        });
    }
    // The old cycle, edited to bring the apple closer (boards with an even
    // number of cells, where it runs through every cell).
    let mut cycle = cycle?.to_vec();
    let mut order = Vec::new();
    let editable = grid.cells().is_multiple_of(2);
    let mut along = |cycle: &mut Vec<u32>, head: usize, length: usize| {
        if editable {
            Some(cycle::shorten(
                *grid,
                cycle,
                head,
                apple,
                grid.cells() - length,
                &mut order,
            ))
        } else {
            walk(cycle, head, apple).map(|m| m.len())
        }
    };
    // On a board with an odd number of cells the cycle skips one cell; an
    // apple there is off the cycle, and only the joint search reaches it.
    let on_cycle = along(&mut cycle, snake[0], snake.len());
    let upper = on_cycle.unwrap_or(grid.cells() + 1);
    let lengths = if on_cycle.is_some() {
        effort.lengths
    } else {
        u32::MAX
    };
    // 1. The shortest plausible path shorter than the way along the edited
    // cycle, with a certificate for the body it leaves, found near that cycle.
    // (With the joint search on, which finds a least plan itself, it is skipped.)
    if effort.lengths == 0
        && let Some(bound) = lower
        && let Some(moves) = plausible_path(grid, snake, apple, bound, upper)
        && let Some(cycle) = certify_path(solver, snake, &moves, &cycle, deadline)
    {
        return Some(Plan {
            method: Method::at_bound(moves.len(), lower, Method::Route),
            least: Some(moves.len()) == lower,
            moves,
            cycle: Some(cycle),
        });
    }
    let Some(lower) = lower else {
        let moves = walk(&cycle, snake[0], apple)?;
        return Some(Plan {
            moves,
            method: Method::Cycle,
            cycle: Some(cycle),
            least: false,
        });
    };
    let found = |f: cycle::Found, least: bool| Plan {
        least,
        method: Method::at_bound(f.moves.len(), Some(lower), Method::Route),
        moves: f.moves,
        cycle: Some(f.cycle),
    };
    // 2. Every path to the apple has the parity of the lower bound (the grid
    // is bipartite): up from the lower bound, two moves at a time, to the
    // first length with a certified path. A length left undecided (conflict
    // or round limit) is skipped, so that plan may be longer than optimal;
    // after `undecided` of them, or `lengths` lengths asked, the search stops.
    let mut k = lower;
    let mut refuted = true;
    let mut unknowns = 0;
    let mut asked = 0;
    while k < upper && asked < lengths && deadline.is_none_or(|d| Instant::now() < d) {
        asked += 1;
        match solver.plan(snake, apple, k, deadline) {
            Outcome::Found(f) => return Some(found(f, refuted)),
            Outcome::Unsat => k += 2,
            Outcome::Unknown => {
                refuted = false;
                unknowns += 1;
                if unknowns >= effort.undecided {
                    break;
                }
                k += 2;
            }
        }
    }
    let least = refuted && k >= upper;
    on_cycle?;
    // 3. Along the cycle (safe at every step), edited at every step, trying
    // from each cell a path from there while that saves moves.
    let mut moves = Vec::new();
    let mut body: VecDeque<usize> = snake.iter().copied().collect();
    let mut tries = 0;
    let mut left = upper;
    // The next steps, walked and searched ahead with this one (more than one
    // thread), and this step's path if it was.
    let mut ahead: VecDeque<Ahead> = VecDeque::new();
    let mut searched_here: Option<Option<Vec<usize>>> = None;
    loop {
        let head = body[0];
        // (From the head itself the search ran in step 1.)
        let again = !moves.is_empty() || effort.lengths > 0;
        let searched = searched_here.take();
        if again && tries < effort.detours && deadline.is_none_or(|d| Instant::now() < d) {
            tries += 1;
            // (At the head the lower bound is known; past it, the body moved.)
            let known = moves.is_empty().then_some(lower);
            // With more than one thread, this step and the next ones as far
            // as tries are left ([`STOPS_PER_THREAD`] per thread) are
            // searched at once.
            let batch = match effort.threads {
                1 => 1,
                n => (n * STOPS_PER_THREAD).min((effort.detours - tries) as usize + 1),
            };
            let path = match searched {
                Some(path) => path,
                None if batch == 1 => search_from(grid, body.make_contiguous(), apple, known, left),
                None => {
                    let mut stops = vec![Stop {
                        body: body.iter().copied().collect(),
                        lower: known,
                        limit: left,
                    }];
                    let cycles =
                        walk_ahead(&body, &cycle, apple, batch - 1, &mut along, &mut stops);
                    let mut found = search_stops(grid, apple, &stops, effort.threads).into_iter();
                    let path = found.next().flatten();
                    ahead.extend(cycles.into_iter().zip(&stops[1..]).zip(found).map(
                        |((cycle, stop), path)| Ahead {
                            cycle,
                            left: stop.limit,
                            path,
                        },
                    ));
                    path
                }
            };
            let here = body.make_contiguous();
            if let Some(path) = path
                && let Some(certified) = certify_path(solver, here, &path, &cycle, deadline)
            {
                moves.extend(path);
                // (No legal plan is shorter than the lower bound: a plan
                // that long is a least safe one.)
                let shortest = moves.len() == lower;
                return Some(Plan {
                    method: Method::at_bound(moves.len(), Some(lower), Method::Route),
                    moves,
                    cycle: Some(certified),
                    least: shortest,
                });
            }
        }
        let cell = cycle[head] as usize;
        moves.push(cell);
        if cell == apple {
            // (A walk as short as the lower bound is a shortest path.)
            let shortest = moves.len() == lower;
            return Some(Plan {
                method: Method::at_bound(moves.len(), Some(lower), Method::Cycle),
                moves,
                cycle: Some(cycle),
                least: least || shortest,
            });
        }
        body.pop_back();
        body.push_front(cell);
        match ahead.pop_front() {
            Some(next) => {
                cycle = next.cycle;
                left = next.left;
                searched_here = Some(next.path);
            }
            None => left = along(&mut cycle, cell, body.len())?,
        }
    }
}

/// Walks `steps` steps along `cycle` (edited by `along` at every step, as
/// [`plan_apple`] does) from `body`, or up to the step that would eat the
/// apple: adds a [`Stop`] for each step to `stops` and returns the cycle
/// edited there.
fn walk_ahead(
    body: &VecDeque<usize>,
    cycle: &[u32],
    apple: usize,
    steps: usize,
    mut along: impl FnMut(&mut Vec<u32>, usize, usize) -> Option<usize>,
    stops: &mut Vec<Stop>,
) -> Vec<Vec<u32>> {
    let mut cycles = Vec::with_capacity(steps);
    let mut body = body.clone();
    let mut cycle = cycle.to_vec();
    while cycles.len() < steps {
        let cell = cycle[body[0]] as usize;
        if cell == apple {
            break;
        }
        body.pop_back();
        body.push_front(cell);
        let Some(limit) = along(&mut cycle, cell, body.len()) else {
            break;
        };
        cycles.push(cycle.clone());
        stops.push(Stop {
            body: body.iter().copied().collect(),
            lower: None,
            limit,
        });
    }
    cycles
}

/// A step of the walk along the edited cycle walked ahead in [`plan_apple`]:
/// the cycle edited there, the moves left along it, and the path searched
/// from there.
struct Ahead {
    cycle: Vec<u32>,
    left: usize,
    path: Option<Vec<usize>>,
}

/// How far from the path a certificate may differ from the old cycle in
/// [`certify_path`] (Manhattan distance; measured on 30x30, 2 gave
/// fewer moves than 3 at less time).
const REPAIR_RADIUS: usize = 2;

/// The search nodes per try in [`plausible_path`] ([`route::enumerate`]).
/// Measured on 20x20 seeds 1–3: 500 nodes gave 11,261 mean moves, 2,000
/// gave 9,944 at about twice the time of the fixed candidates the search
/// replaced (11,006); 20,000 (after those candidates) gave 10,751 at 60
/// times the time.
const SEARCH_NODES: usize = 2_000;

/// The shortest legal path to the apple shorter than `limit` whose body
/// passes [`route::plausible`] ([`route::plausible_paths`], at most
/// [`SEARCH_NODES`] nodes, from `lower`, the length of the moving snake's
/// shortest path [`route::shortest`] from `snake`); [`certify_path`] then
/// asks the solver for its certificate.
fn plausible_path(
    grid: &Grid,
    snake: &[usize],
    apple: usize,
    lower: usize,
    limit: usize,
) -> Option<Vec<usize>> {
    route::plausible_paths(grid, snake, apple, lower, limit, SEARCH_NODES, 1).pop()
}

/// A step of the walk along the edited cycle from which [`plausible_path`]
/// searches: the body there, the lower bound if known (else
/// [`route::shortest`] gives it) and the moves left along the cycle.
struct Stop {
    body: Vec<usize>,
    lower: Option<usize>,
    limit: usize,
}

impl Stop {
    fn search(&self, grid: &Grid, apple: usize) -> Option<Vec<usize>> {
        search_from(grid, &self.body, apple, self.lower, self.limit)
    }
}

/// [`plausible_path`] from `snake`, from the lower bound `lower` if known,
/// else from the length of [`route::shortest`].
fn search_from(
    grid: &Grid,
    snake: &[usize],
    apple: usize,
    lower: Option<usize>,
    limit: usize,
) -> Option<Vec<usize>> {
    let lower = match lower {
        Some(lower) => lower,
        None => route::shortest(grid, snake, apple, true)?.len(),
    };
    plausible_path(grid, snake, apple, lower, limit)
}

/// The steps of the walk searched at once per thread when
/// [`GameConfig::threads`] is above 1. Searches differ a lot in length, so
/// with one step per thread a pair of searches waited for the longer one
/// (30x30 seed 3: 1.5 times a single search per pair); with several, each
/// thread takes the next step as it finishes one. The steps past a
/// certified path are searched for nothing (about 8 % more searches). 30x30
/// seeds 1–2 on two threads: 3, 6, 12 and 24 steps per thread took 16.5,
/// 15.9, 15.4 and 15.8 s, one thread 22.4 s.
const STOPS_PER_THREAD: usize = 12;

/// [`Stop::search`] for every stop on up to `threads` threads (this one
/// and others), each taking the next stop not yet taken; the paths in the
/// stops' order, the same as one thread would find.
fn search_stops(
    grid: &Grid,
    apple: usize,
    stops: &[Stop],
    threads: usize,
) -> Vec<Option<Vec<usize>>> {
    let helpers = threads.min(stops.len()).saturating_sub(1);
    if helpers == 0 {
        return stops.iter().map(|stop| stop.search(grid, apple)).collect();
    }
    let next = AtomicUsize::new(0);
    let work = || {
        let mut done = Vec::new();
        loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            let Some(stop) = stops.get(i) else {
                return done;
            };
            done.push((i, stop.search(grid, apple)));
        }
    };
    let mut found: Vec<Option<Vec<usize>>> = vec![None; stops.len()];
    std::thread::scope(|scope| {
        let others: Vec<_> = (0..helpers).map(|_| scope.spawn(work)).collect();
        let mut done = work();
        for other in others {
            done.extend(
                other
                    .join()
                    .unwrap_or_else(|e| std::panic::resume_unwind(e)),
            );
        }
        for (i, path) in done {
            found[i] = path;
        }
    });
    found
}

/// A certificate for the body `moves` leave, if the old cycle can be
/// repaired around them: [`CycleSolver::certify_near`] with every arc of
/// `cycle` farther than [`REPAIR_RADIUS`] from the path kept (on odd boards
/// the whole board). One solver call at most. A certificate searched on the
/// whole board gives about as many moves at 8–20 times the solver time
/// (20x20 seeds 1–50: 10,427 mean moves against 10,426; 30x30 seeds 1–10:
/// 45,301 against 45,147).
fn certify_path(
    solver: &mut CycleSolver,
    snake: &[usize],
    moves: &[usize],
    cycle: &[u32],
    deadline: Option<Instant>,
) -> Option<Vec<u32>> {
    let grid = solver.grid();
    let after = body_after(snake, moves);
    // (On a board with an odd number of cells the old cycle skips a cell
    // that the repair might need: there the whole board may change.)
    let outcome = if grid.cells().is_multiple_of(2) {
        let window = route::band(&grid, snake[0], moves, REPAIR_RADIUS);
        solver.certify_near(&after, cycle, &window, deadline)
    } else {
        solver.certify(&after, deadline)
    };
    match outcome {
        Outcome::Found(f) => Some(f.cycle),
        _ => None,
    }
}

/// The cells after `from` along `cycle` up to `to`, or `None` if `to` is not on `from`'s cycle.
fn walk(cycle: &[u32], from: usize, to: usize) -> Option<Vec<usize>> {
    let mut moves = Vec::new();
    let mut cell = from;
    while cell != to {
        cell = *cycle.get(cell)? as usize;
        if cell >= cycle.len() || moves.len() >= cycle.len() {
            return None;
        }
        moves.push(cell);
    }
    Some(moves)
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
fn game_instance(grid: Grid, body: Vec<Pos>, apples: Vec<Pos>, moves: usize) -> Instance {
    Instance {
        width: grid.width,
        height: grid.height,
        walls: vec![],
        start: Start::Body(body),
        apples,
        visible: 1,
        grow: true,
        tail: TailRule::Follow,
        horizon: Some(moves),
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
        moves.len(),
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
