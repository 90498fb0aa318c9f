//! `snakesat play`: full games, one apple at a time, until the board is full.

use crate::cli::Exit;
use std::path::PathBuf;
use std::time::Duration;

use clap::Args;
use indicatif::ProgressBar;

use super::instance_args::size_sides;
use super::{Failure, GifLook, bad_input, print_report, progress_bar, seconds, write_gif_file};
use crate::cli::measure::game::Player;
use snakesat::counted;
use snakesat::game::{self, GameConfig, GameRecord, Reuse};
use snakesat::game::{DEFAULT_CONFLICTS, DEFAULT_ROUNDS, DEFAULT_UNDECIDED};
use snakesat::output::{self, Output};
use snakesat::render::GifOptions;
use snakesat::render::html;

#[derive(Args)]
#[command(
    after_help = "Exit codes: 0 every game won (the board filled); 1 a game lost (no safe \
plan found, or none before the time per apple ran out; the state is printed); 2 bad input; 3 \
internal error (the simulator rejected a plan)."
)]
pub struct PlayArgs {
    /// Board size: N (square) or WxH, each side 1..=64, and both sides at least 2 on a board of more than 2 cells (the default is `solve`'s too).
    #[arg(long, value_name = "N|WxH", default_value = "10", value_parser = parse_size)]
    pub size: (usize, usize),
    /// Seed of the first game's apples; game i uses seed + i.
    #[arg(long, default_value_t = 1, value_parser = super::seed)]
    pub seed: u64,
    /// Number of games (at most 1,000,000, as many as `bench game` plays).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=super::measure::game::MAX_GAMES))]
    pub games: u64,
    /// How the solver is reused between apples.
    #[arg(long, value_enum, ignore_case = true, default_value_t = Reuse::Clauses)]
    pub reuse: Reuse,
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
    #[command(flatten)]
    pub player: PlayerArgs,
    /// Threads for the detours' path searches (from the cells of a walk
    /// along the cycle, the next cells at once; see --detours-per-apple);
    /// the games are the same for every value (1..=64; default: the
    /// machine's cores).
    #[arg(long, value_name = "N", value_parser = super::threads())]
    pub threads: Option<usize>,
    /// Print each game as JSON (one object per line, with every apple).
    #[arg(long)]
    pub json: bool,
    /// Write an animation of the (first) game as a GIF; long games skip
    /// time points to last at most about 45 s unless --skip is given. FILE ends in .gif (any case) or has no extension; `-` is stdout.
    #[arg(long, value_parser = super::gif_path, value_name = "FILE")]
    pub gif: Option<PathBuf>,
    /// Write a self-contained HTML viewer of the (first) game (`-`: stdout):
    /// board, play/pause, step slider, and per apple how it was reached.
    /// FILE ends in .html or .htm (any case) or has no extension.
    #[arg(long, value_parser = super::html_path, value_name = "FILE")]
    pub html: Option<PathBuf>,
    #[command(flatten)]
    pub look: GifLook,
}

/// How hard the player searches for each apple (shared by `play` and `bench game`).
#[derive(Args, Clone, Copy, Debug)]
pub struct PlayerArgs {
    /// Conflicts per solver call before a query counts as undecided (then the
    /// snake takes the best certified route found so far); 0 for no limit.
    /// Unlike the timeout, it keeps games reproducible. The game's first
    /// cycle, on the empty board, is found without this limit and --rounds,
    /// and a search that finds nothing is tried once more without them before
    /// the game is called lost (an apple on the cell an odd board's cycle
    /// skips is first asked again, within them, from each cell of a lap along
    /// the cycle).
    #[arg(long, value_name = "N", default_value_t = DEFAULT_CONFLICTS.unsigned_abs(),
          value_parser = super::count::<u32>)]
    pub conflicts: u32,
    /// Solver calls per query (each model that is not one cycle gets subtour
    /// cuts and another call) before the query counts as undecided.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_ROUNDS,
          value_parser = super::at_least_one::<u32>)]
    pub rounds: u32,
    /// Lengths left undecided per apple before the snake settles for its
    /// certified cycle (fewer: faster, more steps).
    #[arg(long, value_name = "N", default_value_t = DEFAULT_UNDECIDED,
          value_parser = super::at_least_one::<u32>)]
    pub undecided_per_apple: u32,
    /// Lengths asked per apple in the joint "path of exactly k moves + cycle"
    /// search, after the shortest paths alone were not certified (0: skip it;
    /// default: no limit up to 196 cells, 0 above).
    #[arg(long, value_name = "N", value_parser = super::count::<u32>)]
    pub lengths_per_apple: Option<u32>,
    /// Then, walking the edited cycle, the steps from which the candidate
    /// paths to the apple are tried again (0: walk the cycle to the apple;
    /// default: 0 up to 196 cells, where the joint search runs, 200 above).
    #[arg(long, value_name = "N", value_parser = super::count::<u32>)]
    pub detours_per_apple: Option<u32>,
}

impl PlayerArgs {
    /// The player these flags describe.
    pub fn player(&self) -> Player {
        Player {
            conflicts: self.conflicts,
            rounds: self.rounds,
            undecided_per_apple: self.undecided_per_apple,
            lengths_per_apple: self.lengths_per_apple,
            detours_per_apple: self.detours_per_apple,
        }
    }
}

/// `N` or `WxH`.
pub fn parse_size(text: &str) -> Result<(usize, usize), String> {
    let side = |s: &str| -> Result<usize, String> {
        let n: usize = s
            .trim()
            .parse()
            .map_err(|e: std::num::ParseIntError| match e.kind() {
                std::num::IntErrorKind::PosOverflow => format!(
                    "board side {} is out of range 1..={}",
                    s.trim(),
                    game::MAX_GAME_SIDE
                ),
                _ => format!("'{s}' is not a board side (a whole number)"),
            })?;
        if (1..=game::MAX_GAME_SIDE).contains(&n) {
            Ok(n)
        } else {
            Err(format!(
                "board side {n} is out of range 1..={}",
                game::MAX_GAME_SIDE
            ))
        }
    };
    let (w, h) = size_sides(text);
    let (w, h) = (side(w)?, side(h)?);
    game::check_board(w, h).map_err(|e| e.to_string())?;
    Ok((w, h))
}

/// Plays one game with a progress bar on stderr (hidden when stderr is not a terminal).
fn play_one(config: &GameConfig, bar: &ProgressBar) -> Result<GameRecord, Failure> {
    bar.set_length((config.width * config.height - 1) as u64);
    bar.set_position(0);
    bar.set_message(format!("seed {}", config.seed));
    let record = game::play(config, |apple| {
        bar.set_position(apple.length as u64);
    })
    .map_err(game_failure)?;
    Ok(record)
}

/// A game that could not be played: bad input (exit 2), or a plan the simulator rejected (exit 3).
pub fn game_failure(e: game::GameError) -> Failure {
    match e {
        game::GameError::Rejected { .. } => Failure {
            code: Exit::Unknown,
            message: e.to_string(),
        },
        // The size, the board or a setting (`BadSize`, `NoCycle`, `BadSetting`;
        // `Stopped` comes from `play_until` only, which the binary does not call).
        _ => bad_input(e),
    }
}

pub fn run(args: PlayArgs) -> Result<Exit, Failure> {
    super::check_seeds(args.seed, args.games)?;
    super::check_json_beside(args.json, "--gif", args.gif.as_deref())?;
    super::check_json_beside(args.json, "--html", args.html.as_deref())?;
    let (w, h) = args.size;
    // A game on a board of an even number of cells is never lost, so it
    // eats every apple, one move at least each: an animation too large for
    // that many moves is refused before the game (it was after it).
    let cells = w * h;
    let least_moves = if cells % 2 == 0 { cells - 1 } else { 0 };
    args.look
        .check_least_path(args.gif.as_deref(), w, h, least_moves)?;
    let [mut gif, mut page] = output::claim([args.gif.as_deref(), args.html.as_deref()])?;
    let mut notes = Vec::new();
    // (Its length and message set before any line can be drawn; each game
    // sets its own.)
    let bar = progress_bar(
        (w * h - 1) as u64,
        "{elapsed_precise} [{bar:30}] {pos}/{len} apples {msg}",
    );
    bar.set_message(format!("seed {}", args.seed));
    let mut all_won = true;
    let mut summaries = Vec::new();
    for i in 0..args.games {
        let config = GameConfig {
            threads: super::search_threads(args.threads, 1),
            ..args
                .player
                .player()
                .config(args.size, args.seed + i, args.reuse, args.timeout)
        };
        let record = play_one(&config, &bar)?;
        all_won &= record.stats.won;
        if i == 0
            && let Some(out) = &mut gif
        {
            // (The next apple is drawn at random once the last is eaten:
            // the animation does not show it before.)
            let options = GifOptions {
                lost: !record.stats.won,
                next_apple: false,
                ..args.look.options()
            };
            notes.push(write_gif_file(
                &record.picture_instance(),
                &record.path,
                out,
                &options,
            )?);
        }
        if i == 0
            && let Some(out) = &mut page
        {
            notes.push(write_viewer(&record, out)?);
        }
        // Exit 2 prints nothing on stdout: with files to land, the games
        // are printed once the files are checked, just before they land
        // (a target made a folder meanwhile is refused first); without, as
        // they end.
        let text = game_text(&record, args.json);
        if gif.is_some() || page.is_some() {
            summaries.push(text);
        } else {
            bar.suspend(|| print_game(&text));
        }
    }
    bar.finish_and_clear();
    // (A standard output that could not be written lands no file.)
    super::commit_then_print([gif, page], || summaries.iter().for_each(|t| print_game(t)))?;
    for note in notes {
        note!("{note}");
    }
    Ok(if all_won { Exit::Done } else { Exit::NoPlan })
}

/// Writes the HTML viewer of a played game into `out`, with each eaten
/// apple's method in its "how" column; returns the line to print.
fn write_viewer(record: &GameRecord, out: &mut Output) -> Result<String, Failure> {
    // (A lost game's last record is the apple it was lost on: "not reached".)
    let methods: Vec<String> = record
        .apples
        .iter()
        .map(|a| a.method.describe().to_string())
        .collect();
    let title = format!(
        "{}x{} seed {} — {}{}",
        record.stats.width,
        record.stats.height,
        record.stats.seed,
        counted(record.path.len().saturating_sub(1), "move"),
        if record.stats.won { "" } else { ", lost" }
    );
    let text = html::viewer(
        &record.picture_instance(),
        &record.path,
        &html::Page {
            title: &title,
            methods: &methods,
            apples_to_come: false,
            lost: !record.stats.won,
        },
    )
    .map_err(|v| bad_input(format!("the game's path breaks a rule: {v}")))?;
    out.write_with(|w| std::io::Write::write_all(w, text.as_bytes()))?;
    Ok(format!("wrote {}", out.name()))
}

/// A played game's summary line (with its notes), or its record as one line
/// of JSON.
fn game_text(record: &GameRecord, json: bool) -> String {
    if json {
        return serde_json::to_string(record).expect("a game serialises") + "\n";
    }
    let outcome = if record.stats.won { "won" } else { "lost" };
    let mut text = format!(
        "{}x{} seed {} ({}): {outcome} with length {}/{}, {} in {} ({} by a least safe plan; \
apples / steps on a shortest path {} / {}, on a longer certified path {} / {}, following the cycle {} / {}), \
{:.3} s (build {:.3} s, solve {:.3} s, {}, {}); every move checked by the simulator",
        record.stats.width,
        record.stats.height,
        record.stats.seed,
        record.stats.reuse.name(),
        record.stats.final_length,
        record.stats.cells,
        counted(record.stats.eaten, "apple"),
        counted(record.stats.steps, "step"),
        record.stats.least_safe,
        record.stats.breakdown.shortest_apples,
        record.stats.breakdown.shortest_steps,
        record.stats.breakdown.route_apples,
        record.stats.breakdown.route_steps,
        record.stats.breakdown.cycle_apples,
        record.stats.breakdown.cycle_steps,
        record.stats.seconds,
        record.stats.work.build_seconds,
        record.stats.work.solve_seconds,
        counted(record.stats.work.solver_calls, "solver call"),
        counted(record.stats.work.cuts, "cut"),
    );
    if record.stats.timeouts > 0 {
        text += &format!(
            "\n  {} reached the time per apple (--timeout): another run may play another game",
            counted(record.stats.timeouts, "apple")
        );
    }
    if let Some(loss) = &record.stats.loss {
        text += &format!("\n  lost: {loss}");
    }
    text.push('\n');
    text
}

/// Prints a game's text on standard output, or on stderr when a picture
/// took standard output.
fn print_game(text: &str) {
    if output::stdout_taken() {
        stderr_text!("{text}");
        return;
    }
    print_report(text);
}
