//! Full-game sweeps (`snakesat bench game`): the list of games (size ×
//! reuse strategy × seed, optionally one shard of it), playing them in
//! threads, each game's summary, the aggregates per (size, strategy), and
//! the reports: a Markdown table, a per-game CSV table, a JSON document and
//! the per-apple series of the charts.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

use serde::Serialize;

use crate::cli::index::Shard;
use crate::cli::table::{Align, Cell, Table};
use snakesat::game::{self, GameConfig, GameError, GameRecord, GameStats, Reuse};
use snakesat::render::chart::Series;

/// How hard the player searches for each apple (shared by `play` and `bench game`).
#[derive(Clone, Copy, Debug, Serialize)]
pub struct Player {
    /// Conflicts per solver call before a query counts as undecided; 0 for no limit.
    pub conflicts: u32,
    /// Solver calls per query before it counts as undecided.
    pub rounds: u32,
    /// Lengths left undecided per apple before the snake settles for its cycle.
    pub undecided_per_apple: u32,
    /// Lengths asked per apple in the joint search (`None`: the size's default).
    pub lengths_per_apple: Option<u32>,
    /// Steps of the cycle walk from which the candidate paths are tried again
    /// (`None`: the size's default).
    pub detours_per_apple: Option<u32>,
}

impl Player {
    /// The configuration of one game.
    pub fn config(
        &self,
        (width, height): (usize, usize),
        seed: u64,
        reuse: Reuse,
        timeout_per_apple: Duration,
    ) -> GameConfig {
        GameConfig {
            width,
            height,
            seed,
            reuse,
            timeout_per_apple: Some(timeout_per_apple),
            conflicts: (self.conflicts > 0)
                .then(|| i32::try_from(self.conflicts).unwrap_or(i32::MAX)),
            rounds: self.rounds,
            undecided_per_apple: self.undecided_per_apple,
            lengths_per_apple: self
                .lengths_per_apple
                .unwrap_or_else(|| game::default_lengths_per_apple(width * height)),
            detours_per_apple: self
                .detours_per_apple
                .unwrap_or_else(|| game::default_detours_per_apple(width * height)),
            // (Threads change how fast a game is played, not the game.)
            threads: 1,
        }
    }
}

/// The most games a sweep plays (sizes × reuse strategies × games): the
/// list of games and every game's summary are kept until the tables are
/// written.
pub const MAX_GAMES: u64 = 1_000_000;

/// A sweep of games.
#[derive(Clone, Debug)]
pub struct Sweep {
    /// Board sizes `(width, height)`, in order.
    pub sizes: Vec<(usize, usize)>,
    /// Reuse strategies, in order.
    pub reuses: Vec<Reuse>,
    /// Games per size and strategy.
    pub games: u64,
    /// Seed of the first game of each size and strategy.
    pub seed: u64,
    /// Time per apple (solver and path searches).
    pub timeout_per_apple: Duration,
    /// The player's limits.
    pub player: Player,
    /// Games played at once.
    pub jobs: usize,
    /// Threads each game's path searches use ([`GameConfig::threads`]).
    pub threads: usize,
    /// The shard played, or `None` for all.
    pub shard: Option<Shard>,
}

/// One game to play.
#[derive(Clone, Copy, Debug)]
pub struct Job {
    /// Board columns.
    pub width: usize,
    /// Board rows.
    pub height: usize,
    /// The strategy.
    pub reuse: Reuse,
    /// The apples' seed.
    pub seed: u64,
}

impl std::fmt::Display for Job {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}x{} {} seed {}",
            self.width,
            self.height,
            self.reuse.name(),
            self.seed
        )
    }
}

/// A finished game without its apples (those it keeps only for the charts).
#[derive(Clone, Debug, Serialize)]
pub struct GameSummary {
    /// `WxH`.
    pub grid: String,
    /// The game's size, strategy, outcome and totals (the keys of `snakesat play --json`).
    #[serde(flatten)]
    pub stats: GameStats,
    /// Moves for each apple eaten.
    #[serde(skip)]
    pub apple_steps: Vec<usize>,
    /// Seconds for each apple eaten.
    #[serde(skip)]
    pub apple_seconds: Vec<f64>,
}

impl GameSummary {
    /// The summary of a played game.
    pub fn new(record: GameRecord) -> Self {
        let eaten = &record.apples[..record.stats.eaten.min(record.apples.len())];
        GameSummary {
            grid: format!("{}x{}", record.stats.width, record.stats.height),
            apple_steps: eaten.iter().map(|a| a.steps).collect(),
            apple_seconds: eaten.iter().map(|a| a.seconds).collect(),
            stats: record.stats,
        }
    }
}

/// The aggregates of one (size, strategy).
#[derive(Clone, Debug, Serialize)]
pub struct Row {
    /// `WxH`.
    pub grid: String,
    /// Board columns.
    pub width: usize,
    /// Board rows.
    pub height: usize,
    /// The strategy.
    pub reuse: Reuse,
    /// Games played.
    pub games: usize,
    /// Games won.
    pub won: usize,
    /// Mean moves per game.
    pub mean_steps: f64,
    /// Median moves per game.
    pub median_steps: f64,
    /// Mean seconds per game.
    pub mean_seconds: f64,
    /// Median seconds per game.
    pub median_seconds: f64,
    /// Mean seconds building formulas.
    pub mean_build_seconds: f64,
    /// Mean seconds solving.
    pub mean_solve_seconds: f64,
    /// Mean over the games with an apple eaten of the share of apples eaten
    /// in the fewest steps possible, in percent.
    pub mean_shortest_percent: Option<f64>,
    /// The same for apples eaten by the least safe plan.
    pub mean_least_safe_percent: Option<f64>,
    /// Mean steps per game spent on apples eaten on a shortest path.
    pub mean_shortest_steps: f64,
    /// … on a longer certified path.
    pub mean_route_steps: f64,
    /// … by following the cycle.
    pub mean_cycle_steps: f64,
    /// Mean apples per game eaten on a shortest path.
    pub mean_shortest_apples: f64,
    /// … on a longer certified path.
    pub mean_route_apples: f64,
    /// … by following the cycle.
    pub mean_cycle_apples: f64,
}

impl Sweep {
    /// Every game of the sweep in order (size, strategy, seed), then this shard's.
    pub fn jobs(&self) -> Vec<Job> {
        let mut all = Vec::new();
        for &(width, height) in &self.sizes {
            for &reuse in &self.reuses {
                for i in 0..self.games {
                    all.push(Job {
                        width,
                        height,
                        reuse,
                        seed: self.seed.wrapping_add(i),
                    });
                }
            }
        }
        match self.shard {
            Some(shard) => all
                .into_iter()
                .enumerate()
                .filter(|(p, _)| shard.owns(*p))
                .map(|(_, job)| job)
                .collect(),
            None => all,
        }
    }

    /// Plays `jobs` in [`Sweep::jobs`] threads taking the next game from a
    /// shared index; `started` is called as a game begins, `done` as it ends.
    /// The summaries come in the order of `jobs`; the first game that fails
    /// stops the sweep and is returned with its error.
    pub fn play(
        &self,
        jobs: &[Job],
        started: impl Fn(&Job) + Sync,
        done: impl Fn(&Job) + Sync,
    ) -> Result<Vec<GameSummary>, (Job, GameError)> {
        let next = AtomicUsize::new(0);
        let stop = AtomicBool::new(false);
        let results: Mutex<Vec<Option<Result<GameSummary, GameError>>>> =
            Mutex::new((0..jobs.len()).map(|_| None).collect());
        std::thread::scope(|scope| {
            for _ in 0..self.jobs.clamp(1, jobs.len().max(1)) {
                scope.spawn(|| {
                    while !stop.load(Ordering::Relaxed) {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(job) = jobs.get(i) else {
                            break;
                        };
                        started(job);
                        let config = GameConfig {
                            threads: self.threads,
                            ..self.player.config(
                                (job.width, job.height),
                                job.seed,
                                job.reuse,
                                self.timeout_per_apple,
                            )
                        };
                        let outcome = game::play(&config, |_| {}).map(GameSummary::new);
                        if outcome.is_err() {
                            stop.store(true, Ordering::Relaxed);
                        }
                        results.lock().expect("no thread panicked")[i] = Some(outcome);
                        done(job);
                    }
                });
            }
        });
        let results = results.into_inner().expect("no thread panicked");
        let mut games = Vec::with_capacity(results.len());
        for (job, outcome) in jobs.iter().zip(results) {
            match outcome {
                // Not played: another game failed first.
                None => {}
                Some(Ok(summary)) => games.push(summary),
                Some(Err(e)) => return Err((*job, e)),
            }
        }
        Ok(games)
    }

    /// The games of each (size, strategy), in the order of the rows.
    pub fn groups<'a>(&self, games: &'a [GameSummary]) -> Vec<Vec<&'a GameSummary>> {
        let mut out = Vec::new();
        for &(width, height) in &self.sizes {
            for &reuse in &self.reuses {
                let group: Vec<&GameSummary> = games
                    .iter()
                    .filter(|g| {
                        g.stats.width == width && g.stats.height == height && g.stats.reuse == reuse
                    })
                    .collect();
                if !group.is_empty() {
                    out.push(group);
                }
            }
        }
        out
    }

    /// The settings that change the games, as the `settings` column of a
    /// shard's CSV records them (see [`crate::cli::index::with_shard_column`]):
    /// every flag but `--jobs` and `--shard`, as `name=value` pairs separated
    /// by spaces, lists joined by `+`, `default` for a value that is every
    /// size's default (given or not: the games are the same).
    pub fn settings_column(&self) -> String {
        let join = |items: Vec<String>| items.join("+");
        let or_default = |v: Option<u32>, default: fn(usize) -> u32| match v {
            Some(v) if self.sizes.iter().any(|&(w, h)| default(w * h) != v) => v.to_string(),
            _ => "default".to_string(),
        };
        format!(
            "sizes={} reuse={} games={} seed={} timeout={} conflicts={} rounds={} \
             undecided-per-apple={} lengths-per-apple={} detours-per-apple={}",
            join(self.sizes.iter().map(|(w, h)| format!("{w}x{h}")).collect()),
            join(self.reuses.iter().map(|r| r.name().to_string()).collect()),
            self.games,
            self.seed,
            self.timeout_per_apple.as_secs_f64(),
            self.player.conflicts,
            self.player.rounds,
            self.player.undecided_per_apple,
            or_default(
                self.player.lengths_per_apple,
                game::default_lengths_per_apple
            ),
            or_default(
                self.player.detours_per_apple,
                game::default_detours_per_apple
            ),
        )
    }

    /// The JSON document: the settings, the rows and every game's summary.
    pub fn json(&self, rows: &[Row], games: &[GameSummary]) -> String {
        let report = JsonReport {
            settings: JsonSettings {
                sizes: self.sizes.iter().map(|(w, h)| format!("{w}x{h}")).collect(),
                reuse: self.reuses.clone(),
                games: self.games,
                seed: self.seed,
                timeout_per_apple: self.timeout_per_apple.as_secs_f64(),
                player: self.player,
                jobs: self.jobs,
                threads: self.threads,
                shard: self.shard.map(|s| s.to_string()),
            },
            rows,
            games,
        };
        serde_json::to_string_pretty(&report).expect("the summaries serialise")
    }
}

/// The flags of a run, as the JSON document records them.
#[derive(Serialize)]
struct JsonSettings {
    sizes: Vec<String>,
    reuse: Vec<Reuse>,
    games: u64,
    seed: u64,
    timeout_per_apple: f64,
    #[serde(flatten)]
    player: Player,
    jobs: usize,
    threads: usize,
    /// `I/K`, or `null` for the whole sweep.
    shard: Option<String>,
}

#[derive(Serialize)]
struct JsonReport<'a> {
    settings: JsonSettings,
    rows: &'a [Row],
    games: &'a [GameSummary],
}

/// The mean, 0 for no values.
pub fn mean(values: &[f64]) -> f64 {
    if values.is_empty() {
        0.0
    } else {
        values.iter().sum::<f64>() / values.len() as f64
    }
}

/// The median, 0 for no values.
pub fn median(values: &[f64]) -> f64 {
    let mut v = values.to_vec();
    v.sort_by(f64::total_cmp);
    match v.len() {
        0 => 0.0,
        n if n % 2 == 1 => v[n / 2],
        n => (v[n / 2 - 1] + v[n / 2]) / 2.0,
    }
}

impl Row {
    /// The aggregates of a non-empty group of games of one (size, strategy).
    pub fn of(group: &[&GameSummary]) -> Row {
        let first = group[0];
        let of = |f: fn(&GameSummary) -> f64| group.iter().map(|g| f(g)).collect::<Vec<f64>>();
        let steps = of(|g| g.stats.steps as f64);
        let seconds = of(|g| g.stats.seconds);
        let percent = |count: fn(&GameSummary) -> usize| -> Option<f64> {
            let shares: Vec<f64> = group
                .iter()
                .filter(|g| g.stats.eaten > 0)
                .map(|g| 100.0 * count(g) as f64 / g.stats.eaten as f64)
                .collect();
            (!shares.is_empty()).then(|| mean(&shares))
        };
        Row {
            grid: first.grid.clone(),
            width: first.stats.width,
            height: first.stats.height,
            reuse: first.stats.reuse,
            games: group.len(),
            won: group.iter().filter(|g| g.stats.won).count(),
            mean_steps: mean(&steps),
            median_steps: median(&steps),
            mean_seconds: mean(&seconds),
            median_seconds: median(&seconds),
            mean_build_seconds: mean(&of(|g| g.stats.work.build_seconds)),
            mean_solve_seconds: mean(&of(|g| g.stats.work.solve_seconds)),
            mean_shortest_percent: percent(|g| g.stats.shortest_possible),
            mean_least_safe_percent: percent(|g| g.stats.least_safe),
            mean_shortest_steps: mean(&of(|g| g.stats.breakdown.shortest_steps as f64)),
            mean_route_steps: mean(&of(|g| g.stats.breakdown.route_steps as f64)),
            mean_cycle_steps: mean(&of(|g| g.stats.breakdown.cycle_steps as f64)),
            mean_shortest_apples: mean(&of(|g| g.stats.breakdown.shortest_apples as f64)),
            mean_route_apples: mean(&of(|g| g.stats.breakdown.route_apples as f64)),
            mean_cycle_apples: mean(&of(|g| g.stats.breakdown.cycle_apples as f64)),
        }
    }
}

/// The table of the aggregates, one row per (size, strategy) (printed as Markdown).
pub fn rows_table(rows: &[Row]) -> Table {
    let mut table = Table::new(
        [
            "grid",
            "reuse",
            "games",
            "won",
            "mean steps",
            "median steps",
            "mean time (s)",
            "median time (s)",
            "mean build (s)",
            "mean solve (s)",
            "apples in shortest possible (%)",
            "apples by least safe plan (%)",
            "apples: shortest / longer / cycle",
            "steps: shortest / longer / cycle",
        ]
        .map(|n| (n, Align::Left)),
    );
    let percent = |p: Option<f64>| p.map_or("-".to_string(), |p| format!("{p:.1}"));
    for r in rows {
        table.push(vec![
            r.grid.clone().into(),
            r.reuse.name().into(),
            Cell::count(Some(r.games)),
            Cell::count(Some(r.won)),
            Cell::Float(r.mean_steps, 1),
            Cell::Float(r.median_steps, 1),
            Cell::Float(r.mean_seconds, 3),
            Cell::Float(r.median_seconds, 3),
            Cell::Float(r.mean_build_seconds, 3),
            Cell::Float(r.mean_solve_seconds, 3),
            percent(r.mean_shortest_percent).into(),
            percent(r.mean_least_safe_percent).into(),
            format!(
                "{:.1} / {:.1} / {:.1}",
                r.mean_shortest_apples, r.mean_route_apples, r.mean_cycle_apples
            )
            .into(),
            format!(
                "{:.0} / {:.0} / {:.0}",
                r.mean_shortest_steps, r.mean_route_steps, r.mean_cycle_steps
            )
            .into(),
        ]);
    }
    table
}

/// The table of the games, one row per game (written as CSV).
pub fn games_table(games: &[GameSummary]) -> Table {
    let mut table = Table::new([
        ("size", Align::Left),
        ("reuse", Align::Left),
        ("seed", Align::Right),
        ("won", Align::Left),
        ("steps", Align::Right),
        ("eaten", Align::Right),
        ("seconds", Align::Right),
        ("build_seconds", Align::Right),
        ("solve_seconds", Align::Right),
        ("solver_calls", Align::Right),
        ("cuts", Align::Right),
        ("shortest_possible", Align::Right),
        ("least_safe", Align::Right),
        ("timeouts", Align::Right),
    ]);
    for g in games {
        table.push(vec![
            g.grid.clone().into(),
            g.stats.reuse.name().into(),
            Cell::Int(g.stats.seed),
            Cell::Bool(g.stats.won),
            Cell::count(Some(g.stats.steps)),
            Cell::count(Some(g.stats.eaten)),
            Cell::Float(g.stats.seconds, 6),
            Cell::Float(g.stats.work.build_seconds, 6),
            Cell::Float(g.stats.work.solve_seconds, 6),
            Cell::Int(g.stats.work.solver_calls),
            Cell::Int(g.stats.work.cuts),
            Cell::count(Some(g.stats.shortest_possible)),
            Cell::count(Some(g.stats.least_safe)),
            Cell::count(Some(g.stats.timeouts)),
        ]);
    }
    table
}

/// One line per (size, strategy): x = apple 1.., y = the mean of `value`
/// over the games that ate that apple; and how many games each line has
/// (`N games per line` or `N games`, and when a game was lost that a point
/// is the mean over the games that ate its apple), for the chart's title.
pub fn per_apple_series(
    groups: &[Vec<&GameSummary>],
    value: fn(&GameSummary, usize) -> f64,
) -> (Vec<Series>, String) {
    let series = groups
        .iter()
        .map(|group| {
            let apples = group.iter().map(|g| g.apple_steps.len()).max().unwrap_or(0);
            let points = (0..apples)
                .filter_map(|a| {
                    let values: Vec<f64> = group
                        .iter()
                        .filter(|g| g.apple_steps.len() > a)
                        .map(|g| value(g, a))
                        .collect();
                    (!values.is_empty()).then(|| ((a + 1) as f64, mean(&values)))
                })
                .collect();
            Series {
                name: format!("{}, reuse={}", group[0].grid, group[0].stats.reuse.name()),
                points,
                steps: false,
            }
        })
        .collect();
    let counts: Vec<usize> = groups.iter().map(Vec::len).collect();
    let games = if counts.windows(2).all(|w| w[0] == w[1]) {
        format!(
            "{} per line",
            snakesat::counted(counts.first().copied().unwrap_or(0), "game")
        )
    } else {
        snakesat::counted(counts.iter().sum::<usize>(), "game")
    };
    // (A lost game has no point for the apples after its loss.)
    let lost = groups.iter().flatten().any(|g| !g.stats.won);
    let games = match lost {
        true => format!("{games}; an apple's mean over the games that ate it"),
        false => games,
    };
    (series, games)
}

#[cfg(test)]
mod tests {
    use super::*;
    use snakesat::game::{DEFAULT_CONFLICTS, DEFAULT_ROUNDS, DEFAULT_UNDECIDED};

    /// A point after a lost game's last apple is the mean of fewer games
    /// than the title counted: the title says so.
    #[test]
    fn per_apple_charts_say_when_a_lost_game_thins_a_line() {
        let play = |w, h, seed| {
            let record = game::play(&GameConfig::new(w, h, seed), |_| {}).unwrap();
            GameSummary::new(record)
        };
        let (won, lost) = (play(4, 4, 1), play(5, 5, 62));
        assert!(won.stats.won && !lost.stats.won);
        let steps = |g: &GameSummary, a: usize| g.apple_steps[a] as f64;
        let (_, title) = per_apple_series(&[vec![&won], vec![&won]], steps);
        assert_eq!(title, "1 game per line");
        let (series, title) = per_apple_series(&[vec![&lost], vec![&won]], steps);
        assert_eq!(
            title,
            "1 game per line; an apple's mean over the games that ate it"
        );
        assert_eq!(series[0].points.len(), lost.stats.eaten);
    }

    #[test]
    fn medians_and_means() {
        assert_eq!(median(&[3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(&[4.0, 1.0, 2.0, 3.0]), 2.5);
        assert_eq!(median(&[]), 0.0);
        assert_eq!(mean(&[1.0, 2.0]), 1.5);
    }

    /// The flags' defaults give the library's default game
    /// ([`GameConfig::new`]), which tests/game.rs plays for `play`'s.
    #[test]
    fn default_flags_give_the_library_default_game() {
        let player = Player {
            conflicts: DEFAULT_CONFLICTS.unsigned_abs(),
            rounds: DEFAULT_ROUNDS,
            undecided_per_apple: DEFAULT_UNDECIDED,
            lengths_per_apple: None,
            detours_per_apple: None,
        };
        for (w, h) in [(9, 9), (20, 20)] {
            let cfg = player.config((w, h), 1, Reuse::Clauses, game::DEFAULT_TIMEOUT_PER_APPLE);
            let new = GameConfig::new(w, h, 1);
            assert_eq!(format!("{cfg:?}"), format!("{new:?}"));
        }
    }

    #[test]
    fn shards_split_the_job_list() {
        let sweep = Sweep {
            sizes: vec![(4, 4), (5, 5)],
            reuses: vec![Reuse::Clauses, Reuse::Fresh],
            games: 3,
            seed: 7,
            timeout_per_apple: Duration::from_secs(1),
            player: Player {
                conflicts: DEFAULT_CONFLICTS.unsigned_abs(),
                rounds: DEFAULT_ROUNDS,
                undecided_per_apple: DEFAULT_UNDECIDED,
                lengths_per_apple: None,
                detours_per_apple: None,
            },
            jobs: 1,
            threads: 1,
            shard: None,
        };
        // A limit given as every size's default is recorded as `default`
        // (the same games); one that differs on some size is recorded.
        let with = |lengths, detours| {
            Sweep {
                player: Player {
                    lengths_per_apple: lengths,
                    detours_per_apple: detours,
                    ..sweep.player
                },
                ..sweep.clone()
            }
            .settings_column()
        };
        let defaults = with(None, None);
        assert!(defaults.ends_with("lengths-per-apple=default detours-per-apple=default"));
        assert_eq!(with(Some(u32::MAX), Some(0)), defaults);
        assert!(with(None, Some(200)).ends_with("detours-per-apple=200"));
        assert!(with(Some(3), None).contains("lengths-per-apple=3 "));
        let all = sweep.jobs();
        assert_eq!(all.len(), 12);
        assert_eq!(all[0].to_string(), "4x4 clauses seed 7");
        let mut seen = 0;
        for i in 1..=3 {
            let shard = Shard::parse(&format!("{i}/3")).unwrap();
            seen += Sweep {
                shard: Some(shard),
                ..sweep.clone()
            }
            .jobs()
            .len();
        }
        assert_eq!(seen, all.len());
    }
}
