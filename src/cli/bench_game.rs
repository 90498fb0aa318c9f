//! `snakesat bench game`: many full games ([`snakesat::game::play`]) per
//! board size and solver reuse strategy, played in parallel threads and
//! optionally split into shards for several machines; a Markdown table of
//! aggregates per (size, strategy) on stdout, per-game CSV and JSON files, and
//! charts of the mean steps and seconds per apple.

use std::io::Write;
use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use serde::Serialize;

use snakesat::family::index::Shard;
use snakesat::game::cycle::Work;
use snakesat::game::{self, Breakdown, GameError, GameRecord, Reuse};
use snakesat::output::{self, Output};
use snakesat::render::chart::{LineChart, Series};

use super::charts::{chart_format, write_line_chart};
use super::play::{PlayerArgs, game_failure, parse_size};
use super::{Failure, bad_input, seconds, shard_flag};

#[derive(Args)]
#[command(
    after_help = "Games are listed by size, then reuse strategy, then seed (in the order of the \
flags); --shard I/K plays positions p (0-based) with p % K == I-1, so the CSVs of shards 1/K..K/K \
together hold every game once.\n\nExit codes: 0 every game won; 1 some game lost; 2 bad input; \
3 internal error (the simulator rejected a plan)."
)]
pub struct BenchGameArgs {
    /// Board sizes, comma-separated: N (square) or WxH, each side 1..=64.
    #[arg(long, value_name = "LIST", default_value = "6,8,10,12,14,16")]
    pub sizes: String,
    /// Games per size and reuse strategy, with seeds SEED..SEED+GAMES-1.
    #[arg(long, default_value_t = 100)]
    pub games: u64,
    /// Seed of the first game of each size and strategy.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Solver time per apple in seconds; past it the snake follows its last
    /// certified cycle (always safe, maybe longer).
    #[arg(long, value_name = "SECONDS", default_value = "60", value_parser = seconds)]
    pub timeout_per_apple: Duration,
    /// Reuse strategies, comma-separated (fresh, clauses, activation,
    /// assumptions, nogoods), or `all` for the five.
    #[arg(long, value_name = "LIST", default_value = "clauses")]
    pub reuse: String,
    #[command(flatten)]
    pub player: PlayerArgs,
    /// Games played at once, one thread each.
    #[arg(long, value_name = "J", default_value_t = 1)]
    pub jobs: usize,
    /// Play only shard I of K (1 <= I <= K) of the game list.
    #[arg(long, value_name = "I/K")]
    pub shard: Option<String>,
    /// Write the table rows and every game's summary as JSON.
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
    /// Write one line per game as CSV (with a header).
    #[arg(long, value_name = "FILE")]
    pub csv: Option<PathBuf>,
    /// Chart the mean steps per apple, one line per size and strategy (.svg or .png).
    #[arg(long, value_name = "FILE")]
    pub plot_steps: Option<PathBuf>,
    /// Chart the mean seconds per apple, one line per size and strategy (.svg or .png).
    #[arg(long, value_name = "FILE")]
    pub plot_time: Option<PathBuf>,
}

/// The validated flags.
struct Settings {
    sizes: Vec<(usize, usize)>,
    reuses: Vec<Reuse>,
    timeout: Duration,
    /// `(I, K)`, 1-based.
    shard: Option<Shard>,
    jobs: usize,
}

/// One game to play.
#[derive(Clone, Copy, Debug)]
struct Job {
    width: usize,
    height: usize,
    reuse: Reuse,
    seed: u64,
}

/// A finished game without its apples (those it keeps only for the charts).
#[derive(Clone, Debug, Serialize)]
struct GameSummary {
    grid: String,
    width: usize,
    height: usize,
    reuse: Reuse,
    seed: u64,
    won: bool,
    loss: Option<String>,
    final_length: usize,
    cells: usize,
    eaten: usize,
    steps: usize,
    shortest_possible: usize,
    least_safe: usize,
    #[serde(flatten)]
    breakdown: Breakdown,
    seconds: f64,
    #[serde(flatten)]
    work: Work,
    /// Moves for each apple eaten.
    #[serde(skip)]
    apple_steps: Vec<usize>,
    /// Seconds for each apple eaten.
    #[serde(skip)]
    apple_seconds: Vec<f64>,
}

impl GameSummary {
    fn new(record: GameRecord) -> Self {
        let eaten = &record.apples[..record.eaten.min(record.apples.len())];
        GameSummary {
            grid: format!("{}x{}", record.width, record.height),
            width: record.width,
            height: record.height,
            reuse: record.reuse,
            seed: record.seed,
            won: record.won,
            final_length: record.final_length,
            cells: record.cells,
            eaten: record.eaten,
            steps: record.steps,
            shortest_possible: record.shortest_possible,
            least_safe: record.least_safe,
            breakdown: record.breakdown,
            seconds: record.seconds,
            work: record.work,
            apple_steps: eaten.iter().map(|a| a.steps).collect(),
            apple_seconds: eaten.iter().map(|a| a.seconds).collect(),
            loss: record.loss,
        }
    }
}

/// The aggregates of one (size, strategy).
#[derive(Clone, Debug, Serialize)]
struct Row {
    grid: String,
    width: usize,
    height: usize,
    reuse: Reuse,
    games: usize,
    won: usize,
    mean_steps: f64,
    median_steps: f64,
    mean_seconds: f64,
    median_seconds: f64,
    mean_build_seconds: f64,
    mean_solve_seconds: f64,
    /// Mean over the games with an apple eaten of the share of apples eaten
    /// in the fewest steps possible, in percent.
    mean_shortest_percent: Option<f64>,
    mean_least_safe_percent: Option<f64>,
    /// Mean steps per game spent on apples eaten on a shortest path, on a
    /// longer certified path, and by following the cycle.
    mean_shortest_steps: f64,
    mean_route_steps: f64,
    mean_cycle_steps: f64,
    /// Mean apples per game eaten each of those ways.
    mean_shortest_apples: f64,
    mean_route_apples: f64,
    mean_cycle_apples: f64,
}

/// `--sizes`: a comma list of `N` or `WxH`, duplicates dropped.
fn parse_sizes(text: &str) -> Result<Vec<(usize, usize)>, Failure> {
    let mut sizes = Vec::new();
    for part in text.split(',') {
        let size = parse_size(part.trim()).map_err(|e| bad_input(format!("--sizes: {e}")))?;
        if !sizes.contains(&size) {
            sizes.push(size);
        }
    }
    Ok(sizes)
}

/// `--reuse`: a comma list of strategy names, or `all`.
fn parse_reuses(text: &str) -> Result<Vec<Reuse>, Failure> {
    let mut reuses = Vec::new();
    for part in text.split(',').map(str::trim) {
        let found: Vec<Reuse> = if part.eq_ignore_ascii_case("all") {
            Reuse::ALL.to_vec()
        } else {
            let one = Reuse::ALL
                .into_iter()
                .find(|r| r.name().eq_ignore_ascii_case(part))
                .ok_or_else(|| {
                    let names: Vec<&str> = Reuse::ALL.iter().map(|r| r.name()).collect();
                    bad_input(format!(
                        "unknown --reuse '{part}' (one of {}, or all)",
                        names.join(", ")
                    ))
                })?;
            vec![one]
        };
        for r in found {
            if !reuses.contains(&r) {
                reuses.push(r);
            }
        }
    }
    Ok(reuses)
}

fn settings(args: &BenchGameArgs) -> Result<Settings, Failure> {
    let sizes = parse_sizes(&args.sizes)?;
    let reuses = parse_reuses(&args.reuse)?;
    if args.games == 0 {
        return Err(bad_input("--games must be at least 1"));
    }
    if args.jobs == 0 {
        return Err(bad_input("--jobs must be at least 1"));
    }
    let shard = shard_flag(args.shard.as_deref())?;
    for file in [&args.plot_steps, &args.plot_time].into_iter().flatten() {
        chart_format(file)?;
    }
    Ok(Settings {
        sizes,
        reuses,
        timeout: args.timeout_per_apple,
        shard,
        jobs: args.jobs,
    })
}

/// Every game of the sweep in order (size, strategy, seed), then this shard's.
fn jobs(args: &BenchGameArgs, settings: &Settings) -> Vec<Job> {
    let mut all = Vec::new();
    for &(width, height) in &settings.sizes {
        for &reuse in &settings.reuses {
            for i in 0..args.games {
                all.push(Job {
                    width,
                    height,
                    reuse,
                    seed: args.seed.wrapping_add(i),
                });
            }
        }
    }
    match settings.shard {
        Some(shard) => all
            .into_iter()
            .enumerate()
            .filter(|(p, _)| shard.owns(*p))
            .map(|(_, job)| job)
            .collect(),
        None => all,
    }
}

/// Plays `jobs` in `threads` threads taking the next game from a shared
/// index; the summaries in the order of `jobs`. The first rejected plan
/// stops the sweep (exit 3).
fn play_all(
    jobs: &[Job],
    threads: usize,
    timeout: Duration,
    player: PlayerArgs,
    bar: &ProgressBar,
) -> Result<Vec<GameSummary>, Failure> {
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let results: Mutex<Vec<Option<Result<GameSummary, GameError>>>> =
        Mutex::new((0..jobs.len()).map(|_| None).collect());
    std::thread::scope(|scope| {
        for _ in 0..threads.clamp(1, jobs.len().max(1)) {
            scope.spawn(|| {
                while !stop.load(Ordering::Relaxed) {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(job) = jobs.get(i) else {
                        break;
                    };
                    bar.set_message(format!("{}x{} {}", job.width, job.height, job.reuse.name()));
                    let config =
                        player.config((job.width, job.height), job.seed, job.reuse, timeout);
                    let outcome = game::play(&config, |_| {}).map(GameSummary::new);
                    if outcome.is_err() {
                        stop.store(true, Ordering::Relaxed);
                    }
                    results.lock().expect("no thread panicked")[i] = Some(outcome);
                    bar.inc(1);
                }
            });
        }
    });
    let results = results.into_inner().expect("no thread panicked");
    let mut games = Vec::with_capacity(results.len());
    for (job, outcome) in jobs.iter().zip(results) {
        let game = || {
            format!(
                "{}x{} {} seed {}",
                job.width,
                job.height,
                job.reuse.name(),
                job.seed
            )
        };
        match outcome {
            // Not played: another game failed first.
            None => {}
            Some(Ok(summary)) => games.push(summary),
            Some(Err(e)) => {
                let failure = game_failure(e);
                return Err(Failure {
                    message: format!("{}: {}", game(), failure.message),
                    ..failure
                });
            }
        }
    }
    Ok(games)
}

fn mean(values: &[f64]) -> f64 {
    if values.is_empty() {
        0.0
    } else {
        values.iter().sum::<f64>() / values.len() as f64
    }
}

fn median(values: &[f64]) -> f64 {
    let mut v = values.to_vec();
    v.sort_by(f64::total_cmp);
    match v.len() {
        0 => 0.0,
        n if n % 2 == 1 => v[n / 2],
        n => (v[n / 2 - 1] + v[n / 2]) / 2.0,
    }
}

/// The games of one (size, strategy), in the order of the rows.
fn groups<'a>(settings: &Settings, games: &'a [GameSummary]) -> Vec<Vec<&'a GameSummary>> {
    let mut out = Vec::new();
    for &(width, height) in &settings.sizes {
        for &reuse in &settings.reuses {
            let group: Vec<&GameSummary> = games
                .iter()
                .filter(|g| g.width == width && g.height == height && g.reuse == reuse)
                .collect();
            if !group.is_empty() {
                out.push(group);
            }
        }
    }
    out
}

fn row(group: &[&GameSummary]) -> Row {
    let first = group[0];
    let of = |f: fn(&GameSummary) -> f64| group.iter().map(|g| f(g)).collect::<Vec<f64>>();
    let steps = of(|g| g.steps as f64);
    let seconds = of(|g| g.seconds);
    let percent = |count: fn(&GameSummary) -> usize| -> Option<f64> {
        let shares: Vec<f64> = group
            .iter()
            .filter(|g| g.eaten > 0)
            .map(|g| 100.0 * count(g) as f64 / g.eaten as f64)
            .collect();
        (!shares.is_empty()).then(|| mean(&shares))
    };
    Row {
        grid: first.grid.clone(),
        width: first.width,
        height: first.height,
        reuse: first.reuse,
        games: group.len(),
        won: group.iter().filter(|g| g.won).count(),
        mean_steps: mean(&steps),
        median_steps: median(&steps),
        mean_seconds: mean(&seconds),
        median_seconds: median(&seconds),
        mean_build_seconds: mean(&of(|g| g.work.build_seconds)),
        mean_solve_seconds: mean(&of(|g| g.work.solve_seconds)),
        mean_shortest_percent: percent(|g| g.shortest_possible),
        mean_least_safe_percent: percent(|g| g.least_safe),
        mean_shortest_steps: mean(&of(|g| g.breakdown.shortest_steps as f64)),
        mean_route_steps: mean(&of(|g| g.breakdown.route_steps as f64)),
        mean_cycle_steps: mean(&of(|g| g.breakdown.cycle_steps as f64)),
        mean_shortest_apples: mean(&of(|g| g.breakdown.shortest_apples as f64)),
        mean_route_apples: mean(&of(|g| g.breakdown.route_apples as f64)),
        mean_cycle_apples: mean(&of(|g| g.breakdown.cycle_apples as f64)),
    }
}

fn table(rows: &[Row]) -> String {
    let mut out = String::from(
        "| grid | reuse | games | won | mean steps | median steps | mean time (s) | median time (s) \
| mean build (s) | mean solve (s) | apples in shortest possible (%) | apples by least safe plan (%) \
| apples: shortest / longer / cycle | steps: shortest / longer / cycle |\n\
|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n",
    );
    for r in rows {
        out += &format!(
            "| {} | {} | {} | {} | {:.1} | {:.1} | {:.3} | {:.3} | {:.3} | {:.3} | {} | {} \
| {:.1} / {:.1} / {:.1} | {:.0} / {:.0} / {:.0} |\n",
            r.grid,
            r.reuse.name(),
            r.games,
            r.won,
            r.mean_steps,
            r.median_steps,
            r.mean_seconds,
            r.median_seconds,
            r.mean_build_seconds,
            r.mean_solve_seconds,
            r.mean_shortest_percent
                .map_or("-".to_string(), |p| format!("{p:.1}")),
            r.mean_least_safe_percent
                .map_or("-".to_string(), |p| format!("{p:.1}")),
            r.mean_shortest_apples,
            r.mean_route_apples,
            r.mean_cycle_apples,
            r.mean_shortest_steps,
            r.mean_route_steps,
            r.mean_cycle_steps,
        );
    }
    out
}

fn csv(games: &[GameSummary]) -> String {
    let mut out = String::from(
        "size,reuse,seed,won,steps,eaten,seconds,build_seconds,solve_seconds,solver_calls,cuts,shortest_possible,least_safe\n",
    );
    for g in games {
        out += &format!(
            "{},{},{},{},{},{},{:.6},{:.6},{:.6},{},{},{},{}\n",
            g.grid,
            g.reuse.name(),
            g.seed,
            g.won,
            g.steps,
            g.eaten,
            g.seconds,
            g.work.build_seconds,
            g.work.solve_seconds,
            g.work.solver_calls,
            g.work.cuts,
            g.shortest_possible,
            g.least_safe,
        );
    }
    out
}

/// The flags of a run, as the JSON file records them.
#[derive(Serialize)]
struct JsonSettings {
    sizes: Vec<String>,
    reuse: Vec<Reuse>,
    games: u64,
    seed: u64,
    timeout_per_apple: f64,
    #[serde(flatten)]
    player: PlayerArgs,
    jobs: usize,
    /// `I/K`, or `null` for the whole sweep.
    shard: Option<String>,
}

/// The JSON file: the settings, the rows and every game's summary.
#[derive(Serialize)]
struct JsonReport<'a> {
    settings: JsonSettings,
    rows: &'a [Row],
    games: &'a [GameSummary],
}

fn json(args: &BenchGameArgs, settings: &Settings, rows: &[Row], games: &[GameSummary]) -> String {
    let report = JsonReport {
        settings: JsonSettings {
            sizes: settings
                .sizes
                .iter()
                .map(|(w, h)| format!("{w}x{h}"))
                .collect(),
            reuse: settings.reuses.clone(),
            games: args.games,
            seed: args.seed,
            timeout_per_apple: settings.timeout.as_secs_f64(),
            player: args.player,
            jobs: settings.jobs,
            shard: settings.shard.map(|s| s.to_string()),
        },
        rows,
        games,
    };
    serde_json::to_string_pretty(&report).expect("the summaries serialise")
}

/// One line per (size, strategy): x = apple 1.., y = the mean of `value`
/// over the games that ate that apple.
fn per_apple_chart(
    groups: &[Vec<&GameSummary>],
    value: fn(&GameSummary, usize) -> f64,
    title: &str,
    y_label: &str,
    log_y: Option<bool>,
    out: &mut Output,
) -> Result<(), Failure> {
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
                name: format!("{}, reuse={}", group[0].grid, group[0].reuse.name()),
                points,
            }
        })
        .collect();
    let counts: Vec<usize> = groups.iter().map(Vec::len).collect();
    let games = if counts.windows(2).all(|w| w[0] == w[1]) {
        format!("{} games per line", counts.first().copied().unwrap_or(0))
    } else {
        format!("{} games", counts.iter().sum::<usize>())
    };
    let line = LineChart {
        title: format!("{title} ({games})"),
        x_label: "apple (1 = the first)".into(),
        y_label: y_label.into(),
        series,
        log_y,
    };
    write_line_chart(&line, out)
}

pub fn run(args: BenchGameArgs) -> Result<u8, Failure> {
    let settings = settings(&args)?;
    let [mut json_out, mut csv_out, mut steps_out, mut time_out] = output::claim([
        args.json.as_deref(),
        args.csv.as_deref(),
        args.plot_steps.as_deref(),
        args.plot_time.as_deref(),
    ])?;
    let jobs = jobs(&args, &settings);
    let bar = ProgressBar::new(jobs.len() as u64);
    bar.set_style(
        ProgressStyle::with_template("{elapsed:>4} [{bar:30}] {pos}/{len} games, ETA {eta} {msg}")
            .expect("a valid template")
            .progress_chars("=> "),
    );
    let played = play_all(&jobs, settings.jobs, settings.timeout, args.player, &bar);
    bar.finish_and_clear();
    let games = played?;
    let groups = groups(&settings, &games);
    let rows: Vec<Row> = groups.iter().map(|g| row(g)).collect();
    if let Some(out) = &mut json_out {
        let text = json(&args, &settings, &rows, &games);
        out.write_with(|w| w.write_all(text.as_bytes()))?;
    }
    if let Some(out) = &mut csv_out {
        out.write_with(|w| w.write_all(csv(&games).as_bytes()))?;
    }
    if let Some(out) = &mut steps_out {
        per_apple_chart(
            &groups,
            |g, a| g.apple_steps[a] as f64,
            "Mean steps per apple",
            "steps (mean over the games)",
            Some(false),
            out,
        )?;
    }
    if let Some(out) = &mut time_out {
        per_apple_chart(
            &groups,
            |g, a| g.apple_seconds[a],
            "Mean seconds per apple",
            "seconds (mean over the games)",
            None,
            out,
        )?;
    }
    output::commit([json_out, csv_out, steps_out, time_out])?;
    print!("{}", table(&rows));
    Ok(if games.iter().all(|g| g.won) { 0 } else { 1 })
}
