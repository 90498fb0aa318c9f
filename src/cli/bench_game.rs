//! `snakesat bench game`: the flags and the printing of
//! [`crate::cli::measure::game`] (many full games per board size and solver reuse
//! strategy, in parallel threads, optionally one shard of the sweep); a
//! Markdown table of aggregates per (size, strategy) on stdout, per-game CSV
//! and JSON files, and charts of the mean steps and seconds per apple.

use crate::cli::Exit;
use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

use clap::Args;

use crate::cli::index;
use crate::cli::measure::game::{
    GameSummary, MAX_GAMES, Row, Sweep, games_table, per_apple_series, rows_table,
};
use snakesat::game::Reuse;
use snakesat::output::{self, Output};
use snakesat::render::chart::LineChart;

use super::charts::{chart_format, write_line_chart};
use super::play::{PlayerArgs, game_failure, parse_size};
use super::{Failure, bad_input, print_report, progress_bar, seconds, shard_flag};

#[derive(Args)]
#[command(
    after_help = "Games are listed by size, then reuse strategy, then seed (in the order of the \
flags); --shard I/K plays positions p (0-based) with p % K == I-1, so the CSVs of shards 1/K..K/K \
together hold every game once.\n\nExit codes: 0 every game won; 1 some game lost; 2 bad input; \
3 internal error (the simulator rejected a plan)."
)]
pub struct BenchGameArgs {
    /// Board sizes, comma-separated: N (square) or WxH, each side 1..=64, and
    /// both sides at least 2 on a board of more than 2 cells (a size given
    /// twice plays once, with a note).
    #[arg(long, value_name = "LIST", default_value = "6,8,10,12,14,16")]
    pub sizes: String,
    /// Games per size and reuse strategy, with seeds SEED..SEED+GAMES-1 (at
    /// most 1,000,000 games in all: sizes × strategies × games).
    #[arg(long, default_value_t = 100, value_parser = super::count::<u64>)]
    pub games: u64,
    /// Seed of the first game of each size and strategy.
    #[arg(long, default_value_t = 1, value_parser = super::seed)]
    pub seed: u64,
    /// Time per apple in seconds for the solver and the path searches; past
    /// it the snake follows its last certified cycle as it is (always safe,
    /// maybe longer; the walk itself takes milliseconds; on a board with an odd
    /// number of cells that cycle skips a cell, and a game whose apple falls
    /// there and finds no plan in time is lost: such a game depends on the
    /// machine's speed, not only on the seed). The game's first cycle is
    /// found without this limit.
    #[arg(long, value_name = "SECONDS", default_value = "60", value_parser = seconds,
          alias = "timeout-per-apple")]
    pub timeout: Duration,
    /// Reuse strategies, comma-separated (fresh, clauses, activation,
    /// assumptions, nogoods), or `all` for the five (a strategy given twice
    /// plays once, with a note).
    #[arg(long, value_name = "LIST", default_value = "clauses")]
    pub reuse: String,
    #[command(flatten)]
    pub player: PlayerArgs,
    /// Games played at once, one thread each (at most 256; lowered, with a
    /// note, to as many games of the largest board as fit in the memory
    /// available).
    #[arg(long, value_name = "J", default_value_t = 1, value_parser = super::count::<usize>)]
    pub jobs: usize,
    /// Threads per game for the detours' path searches (see
    /// --detours-per-apple); the games are the same for every value (1..=64;
    /// default: the machine's cores shared by the --jobs games, at least 1
    /// each).
    #[arg(long, value_name = "N", value_parser = super::threads())]
    pub threads: Option<usize>,
    /// Play only shard I of K (1 <= I <= K) of the game list.
    #[arg(long, value_name = "I/K")]
    pub shard: Option<String>,
    /// Print the settings, the table rows and every game's summary as JSON on
    /// stdout instead of the Markdown table.
    #[arg(long)]
    pub json: bool,
    /// Write that JSON to FILE (`-`: stdout).
    #[arg(long, value_name = "FILE")]
    pub json_out: Option<PathBuf>,
    /// Write one line per game as CSV (with a header) to FILE (`-`: stdout);
    /// a shard's adds the columns `settings` and `shard` that `merge` checks.
    #[arg(long, value_name = "FILE")]
    pub csv_out: Option<PathBuf>,
    /// Chart the mean steps per apple, one line per size and strategy (.svg
    /// or .png; not written, with a note, when no game eats an apple, as in
    /// a shard without games; refused up front when every size is 1x1).
    #[arg(long, value_parser = super::chart_path, value_name = "FILE")]
    pub plot_steps: Option<PathBuf>,
    /// Chart the mean seconds per apple, one line per size and strategy (.svg
    /// or .png; not written, with a note, as --plot-steps).
    #[arg(long, value_parser = super::chart_path, value_name = "FILE")]
    pub plot_time: Option<PathBuf>,
}

/// `--sizes`: a comma list of `N` or `WxH`, duplicates dropped with a note
/// added to `notes`.
fn parse_sizes(text: &str, notes: &mut Vec<String>) -> Result<Vec<(usize, usize)>, Failure> {
    let mut sizes = Vec::new();
    for part in text.split(',') {
        let size = parse_size(part.trim()).map_err(|e| bad_input(format!("--sizes: {e}")))?;
        if sizes.contains(&size) {
            notes.push(format!(
                "bench game: --sizes gives {}x{} twice: its games are played once",
                size.0, size.1
            ));
        } else {
            sizes.push(size);
        }
    }
    Ok(sizes)
}

/// `--reuse`: a comma list of strategy names, or `all`; duplicates dropped
/// with a note added to `notes`.
fn parse_reuses(text: &str, notes: &mut Vec<String>) -> Result<Vec<Reuse>, Failure> {
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
            if reuses.contains(&r) {
                notes.push(format!(
                    "bench game: --reuse gives {} twice: its games are played once",
                    r.name()
                ));
            } else {
                reuses.push(r);
            }
        }
    }
    Ok(reuses)
}

/// The sweep the flags ask for, and the notes to print once every flag and
/// output has been checked (duplicates dropped, the jobs lowered to fit
/// the memory), so that bad input gets one line, its error.
fn settings(args: &BenchGameArgs) -> Result<(Sweep, Vec<String>), Failure> {
    let mut notes = Vec::new();
    let sizes = parse_sizes(&args.sizes, &mut notes)?;
    let reuses = parse_reuses(&args.reuse, &mut notes)?;
    if args.games == 0 {
        return Err(bad_input("--games must be at least 1"));
    }
    super::check_seeds(args.seed, args.games)?;
    let boards_and_players = (sizes.len() * reuses.len()) as u64;
    let total = args.games.saturating_mul(boards_and_players);
    if total > MAX_GAMES {
        return Err(bad_input(format!(
            "--games {} on {} board size(s) with {} reuse strateg{} is {total} games, more than the limit {MAX_GAMES}",
            args.games,
            sizes.len(),
            reuses.len(),
            if reuses.len() == 1 { "y" } else { "ies" }
        )));
    }
    super::check_jobs(args.jobs)?;
    let (jobs, jobs_note) = jobs_within_memory(args.jobs, &sizes);
    notes.extend(jobs_note);
    let shard = shard_flag(args.shard.as_deref())?;
    for file in [&args.plot_steps, &args.plot_time].into_iter().flatten() {
        chart_format(file)?;
        // A one-cell board has no apple: its games give the charts no point.
        if sizes.iter().all(|&(w, h)| w * h < 2) {
            return Err(bad_input(format!(
                "cannot write {}: nothing to draw, a board of one cell has no apples",
                file.display()
            )));
        }
    }
    let sweep = Sweep {
        sizes,
        reuses,
        games: args.games,
        seed: args.seed,
        timeout_per_apple: args.timeout,
        player: args.player.player(),
        jobs,
        threads: super::search_threads(args.threads, jobs),
        shard,
    };
    Ok((sweep, notes))
}

/// An upper estimate of one game's peak memory on a `width` x `height`
/// board, in bytes: 64 bytes per pair of cells plus 96 MiB. Measured peaks
/// (`/usr/bin/time`, `play`, seed 1 unless said): 12x12 seeds 1–2 29–33 MiB,
/// 14x14 seeds 1–3 29–43 MiB (the joint search's formulas; estimate 98
/// MiB), 20x20 17 MiB, 30x30 43 MiB (145 MiB), 40x40 121 MiB (252 MiB),
/// 64x64 530 MiB (1,120 MiB).
fn game_memory_bytes(width: usize, height: usize) -> u64 {
    let cells = (width * height) as u64;
    64 * cells * cells + (96 << 20)
}

/// The most games that fit at once in four fifths of `available` bytes,
/// each taking `per_game`: at least 1, at most `jobs`.
fn jobs_for_memory(jobs: usize, per_game: u64, available: u64) -> usize {
    let fit = (available / 5 * 4) / per_game.max(1);
    jobs.min(usize::try_from(fit).unwrap_or(usize::MAX)).max(1)
}

/// The memory available now (`MemAvailable` of `/proc/meminfo`), where
/// the system says.
fn available_memory() -> Option<u64> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// `jobs`, lowered (with the note saying so) when that many games of the largest board
/// of `sizes` would not fit in the memory available now (a sweep of 64x64
/// games, about 0.5 GB each, with `--jobs 256` was killed for memory
/// instead). The games are the same whatever the jobs.
fn jobs_within_memory(jobs: usize, sizes: &[(usize, usize)]) -> (usize, Option<String>) {
    let Some(&(width, height)) = sizes.iter().max_by_key(|&&(w, h)| w * h) else {
        return (jobs, None);
    };
    let Some(available) = available_memory() else {
        return (jobs, None);
    };
    let per_game = game_memory_bytes(width, height);
    let fit = jobs_for_memory(jobs, per_game, available);
    let note = (fit < jobs).then(|| {
        format!(
            "--jobs {jobs} lowered to {fit}: a {width}x{height} game may take up to {} MB, and {} MB \
             are available",
            per_game >> 20,
            available >> 20
        )
    });
    (fit, note)
}

/// Draws the per-apple chart of `value` (see [`per_apple_series`]) into
/// `out`; when no game ate an apple (a shard without games, or only
/// one-cell boards) there is nothing to draw: a note says so and `out` is
/// dropped, so its file is not written and the run goes on.
fn per_apple_chart(
    groups: &[Vec<&GameSummary>],
    value: fn(&GameSummary, usize) -> f64,
    title: &str,
    y_label: &str,
    log_y: Option<bool>,
    out: &mut Option<Output>,
) -> Result<(), Failure> {
    let Some(file) = out else {
        return Ok(());
    };
    let (series, games) = per_apple_series(groups, value);
    if series.iter().all(|s| s.points.is_empty()) {
        let why = if groups.is_empty() {
            "no games in this run"
        } else {
            "no game ate an apple"
        };
        note!(
            "bench game: {why}, so no chart: {} not written",
            file.path().display()
        );
        *out = None;
        return Ok(());
    }
    let line = LineChart {
        title: format!("{title} ({games})"),
        x_label: "apple (1 = the first)".into(),
        y_label: y_label.into(),
        series,
        log_y,
    };
    write_line_chart(&line, file)
}

pub fn run(args: BenchGameArgs) -> Result<Exit, Failure> {
    let (sweep, notes) = settings(&args)?;
    for (flag, file) in [("--json-out", &args.json_out), ("--csv-out", &args.csv_out)] {
        super::check_json_beside(args.json, flag, file.as_deref())?;
    }
    let [mut json_out, mut csv_out, mut steps_out, mut time_out] = output::claim([
        args.json_out.as_deref(),
        args.csv_out.as_deref(),
        args.plot_steps.as_deref(),
        args.plot_time.as_deref(),
    ])?;
    for line in notes {
        note!("{line}");
    }
    let jobs = sweep.jobs();
    let bar = progress_bar(
        jobs.len() as u64,
        "{elapsed_precise} [{bar:30}] {pos}/{len} games, ETA {eta} {msg}",
    );
    let played = sweep.play(
        &jobs,
        |job| bar.set_message(format!("{}x{} {}", job.width, job.height, job.reuse.name())),
        |_| bar.inc(1),
    );
    bar.finish_and_clear();
    let games = played.map_err(|(job, e)| {
        let failure = game_failure(e);
        Failure {
            message: format!("{job}: {}", failure.message),
            ..failure
        }
    })?;
    let groups = sweep.groups(&games);
    let rows: Vec<Row> = groups.iter().map(|g| Row::of(g)).collect();
    let json = sweep.json(&rows, &games);
    if let Some(out) = &mut json_out {
        out.write_with(|w| {
            w.write_all(json.as_bytes())?;
            w.write_all(b"\n")
        })?;
    }
    if let Some(out) = &mut csv_out {
        let csv = index::with_shard_column(
            &games_table(&games).to_csv(),
            sweep.shard,
            &sweep.settings_column(),
        );
        out.write_with(|w| w.write_all(csv.as_bytes()))?;
    }
    per_apple_chart(
        &groups,
        |g, a| g.apple_steps[a] as f64,
        "Mean steps per apple",
        "steps (mean over the games)",
        Some(false),
        &mut steps_out,
    )?;
    per_apple_chart(
        &groups,
        |g, a| g.apple_seconds[a],
        "Mean seconds per apple",
        "seconds (mean over the games)",
        None,
        &mut time_out,
    )?;
    super::commit_then_print([json_out, csv_out, steps_out, time_out], || {
        if args.json {
            print_report(&(json + "\n"));
        } else {
            super::print_table(&rows_table(&rows).to_markdown());
        }
    })?;
    let timed_out: Vec<String> = games
        .iter()
        .filter(|g| g.stats.timeouts > 0)
        .map(|g| {
            format!(
                "{} seed {} ({})",
                g.grid,
                g.stats.seed,
                g.stats.reuse.name()
            )
        })
        .collect();
    if !timed_out.is_empty() {
        note!(
            "{} reached the time per apple (--timeout) on some apple, so another run may play them otherwise: {}",
            snakesat::counted(timed_out.len(), "game"),
            timed_out.join(", ")
        );
    }
    // Exit 1 names the games it is for (the table only counts them).
    for game in games.iter().filter(|g| !g.stats.won) {
        let s = &game.stats;
        note!(
            "lost: {} seed {} ({}): {}",
            game.grid,
            s.seed,
            s.reuse.name(),
            s.loss.as_deref().unwrap_or_default()
        );
    }
    Ok(if games.iter().all(|g| g.stats.won) {
        Exit::Done
    } else {
        Exit::NoPlan
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jobs_are_lowered_to_what_memory_holds() {
        const MB: u64 = 1 << 20;
        // 64x64 games in 22 GiB: 256 jobs become 16.
        let per_game = game_memory_bytes(64, 64);
        assert_eq!(per_game / MB, 1024 + 96);
        assert_eq!(jobs_for_memory(256, per_game, 22 * 1024 * MB), 16);
        // Fewer jobs than fit are kept; at least one game always runs.
        assert_eq!(jobs_for_memory(2, per_game, 22 * 1024 * MB), 2);
        assert_eq!(jobs_for_memory(8, per_game, MB), 1);
        // Every measured peak is below the estimate.
        for (side, measured_mb) in [(12, 33), (14, 44), (20, 18), (30, 44), (40, 124), (64, 543)] {
            assert!(
                game_memory_bytes(side, side) > measured_mb * MB,
                "{side}x{side}"
            );
        }
    }
}
