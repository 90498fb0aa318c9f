//! `snakesat render`: a saved plan — the JSON of `solve --json`, or an IPC
//! plan file of any planner for a `.pddl` problem — checked on its instance
//! and drawn as a GIF animation and/or a self-contained HTML viewer.

use crate::cli::Exit;
use std::path::{Path, PathBuf};

use clap::Args;
use serde::Deserialize;
use serde::de::IgnoredAny;

use snakesat::excerpt::{excerpt, json_message};
use snakesat::instance::json::{PairList, PairsRead, deserialize_pairs};
use snakesat::instance::{Instance, MAX_APPLES, MAX_HORIZON, Pos};
use snakesat::output;
use snakesat::pddl::{Objects, validate};
use snakesat::sim;

use super::instance_args::load_problem_file;
use super::{Failure, GifLook, Input, bad_input, read_file, write_gif_file};

#[derive(Args)]
#[command(group(clap::ArgGroup::new("outputs").required(true).multiple(true).args(["gif", "html"])))]
pub struct RenderArgs {
    /// The instance the plan was made for (.json, or an IPC-2018 .pddl problem; `-`: stdin).
    pub instance: PathBuf,
    /// The plan: the JSON of `snakesat solve --json`, or, for a .pddl problem,
    /// an IPC plan file (one action per line, from any planner); `-`: stdin.
    pub plan: PathBuf,
    /// Write a GIF animation. FILE ends in .gif (any case) or has no extension; `-` is stdout.
    #[arg(
        value_parser = super::gif_path,
        long,
        value_name = "FILE",
        help_heading = "GIF",
        required_unless_present = "html"
    )]
    pub gif: Option<PathBuf>,
    /// Write a self-contained HTML viewer (SVG board, play/pause, step slider, keys).
    /// FILE ends in .html or .htm (any case) or has no extension; `-` is stdout.
    #[arg(long, value_parser = super::html_path, value_name = "FILE")]
    pub html: Option<PathBuf>,
    #[command(flatten)]
    pub look: GifLook,
}

/// `[apple index, time]` pairs, in eating order.
type Eaten = Vec<(usize, usize)>;

/// The fields of a plan file that `render` and `check` read; the others
/// (`optimal`, `lower_bound`, ...) are ignored. Each may be left out, but
/// one that is present holds a value (`null` is refused, as in an instance).
#[derive(Deserialize)]
struct PlanFile {
    #[serde(default, deserialize_with = "snakesat::instance::json::present")]
    status: Option<String>,
    #[serde(default, deserialize_with = "snakesat::instance::json::present")]
    horizon: Option<usize>,
    #[serde(default, deserialize_with = "deserialize_path")]
    path: Option<PairsRead>,
    #[serde(default, deserialize_with = "deserialize_eaten")]
    eaten: Option<Eaten>,
}

/// Reads `path` (`[[x, y], ...]`): its cells up to the horizon cap's last
/// time point, and how many it has (a longer plan is refused by
/// [`within_horizon_cap`] without being held).
fn deserialize_path<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<PairsRead>, D::Error> {
    const PATH: PairList = PairList {
        item: "cell",
        shape: "a cell is [x, y]",
        max: MAX_HORIZON + 1,
    };
    deserialize_pairs(d, &PATH).map(Some)
}

/// Reads `eaten` (`[[apple, time], ...]`), naming an entry of another length
/// and refusing more entries than an instance may have apples.
fn deserialize_eaten<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<Eaten>, D::Error> {
    const EATEN: PairList = PairList {
        item: "`eaten` entry",
        shape: "an entry is [apple, time]",
        max: MAX_APPLES,
    };
    let PairsRead {
        pairs: eaten,
        total,
    } = deserialize_pairs(d, &EATEN)?;
    if total > EATEN.max {
        return Err(serde::de::Error::custom(format!(
            "{total} `eaten` entries, beyond the limit of {MAX_APPLES} apples"
        )));
    }
    Ok(Some(eaten))
}

/// Why a plan cannot be drawn or accepted.
pub enum PlanProblem {
    /// The file cannot be read as a plan.
    Unreadable(Failure),
    /// The plan is read but breaks the rules (the message names the first violation).
    Illegal(String),
}

/// The head path of the plan file at `plan` for `instance` (read from
/// `problem`, an IPC-2018 PDDL problem when `pddl`, its cells named by
/// `objects`) and the simulator's replay of it: a plan for a PDDL problem that
/// is not JSON is an IPC plan, read through the problem's object names and
/// checked action by action against the domain first; a JSON plan's `eaten`,
/// when present, must be the simulator's. `verb` says what the caller does
/// with the path ("draw", "check"), for the message about a plan without one.
pub fn checked_path(
    problem: &Path,
    pddl: bool,
    instance: &Instance,
    objects: &Objects,
    plan: &Path,
    verb: &str,
) -> Result<(Vec<Pos>, sim::Replay), PlanProblem> {
    let name = plan.display();
    let text = read_file(plan, Input::Plan).map_err(PlanProblem::Unreadable)?;
    let json = text.trim_start().starts_with('{');
    let (path, claimed) = if pddl && !json {
        let actions = validate::read_plan(&text, objects).map_err(|e| {
            // Not one action: no IPC plan at all, rather than a faulty one.
            let kind = if text.contains('(') {
                ""
            } else {
                ": neither an IPC plan nor the JSON of `solve --json`, the plans a .pddl problem takes"
            };
            PlanProblem::Unreadable(bad_input(format!("{name}{kind}: {e}")))
        })?;
        // (The violation names the problem's objects as spelt: cut, so that a
        // megabyte-long name is not a megabyte-long line, for `check` and `render` alike.)
        let path = validate::validate(instance, objects, &actions).map_err(|e| {
            PlanProblem::Illegal(format!(
                "{name}: {}",
                snakesat::excerpt::excerpt_words(&e.to_string())
            ))
        })?;
        (path, None)
    } else {
        json_path(problem, instance, &text, plan, verb)?
    };
    let replay = sim::simulate(instance, &path)
        .map_err(|v| PlanProblem::Illegal(format!("{name}: illegal plan: {v}")))?;
    if let Some(difference) = claimed.and_then(|c| eaten_difference(&c, &replay.eaten)) {
        return Err(PlanProblem::Illegal(format!(
            "{name}: `eaten` does not match the path: {difference}"
        )));
    }
    Ok((path, replay))
}

/// Refuses a plan of more than [`MAX_HORIZON`] moves, the horizon cap,
/// before it is checked or drawn.
fn within_horizon_cap(plan: &Path, moves: usize) -> Result<(), PlanProblem> {
    if moves > MAX_HORIZON {
        return Err(PlanProblem::Unreadable(bad_input(format!(
            "{}: the plan has {moves} moves, beyond the horizon limit of {MAX_HORIZON}",
            plan.display()
        ))));
    }
    Ok(())
}

/// The first difference between a plan file's `eaten` list and the
/// simulator's `[apple index, time]` pairs, in words; `None` when they agree.
/// The file's entries are quoted as JSON (indices from 0) and glossed, and
/// apples are named from 1, as the picture of `solve` draws them.
fn eaten_difference(claimed: &[(usize, usize)], replayed: &[(usize, usize)]) -> Option<String> {
    let k = claimed
        .iter()
        .zip(replayed)
        .position(|(c, r)| c != r)
        .unwrap_or(claimed.len().min(replayed.len()));
    let entry =
        |(i, t): (usize, usize)| format!("`eaten[{k}]` is [{i}, {t}] (apple {} at t = {t})", i + 1);
    match (claimed.get(k), replayed.get(k)) {
        (None, None) => None,
        (Some(&c), Some(&(j, u))) => Some(format!(
            "{}, but the simulator eats apple {} at t = {u}",
            entry(c),
            j + 1
        )),
        (Some(&c), None) => Some(format!(
            "{}, but the simulator eats only {}",
            entry(c),
            snakesat::counted(replayed.len(), "apple")
        )),
        (None, Some(&(j, u))) => Some(format!(
            "it lists {}, but the simulator also eats apple {} at t = {u}",
            snakesat::counted(k, "apple"),
            j + 1
        )),
    }
}

/// Whether `text` is the first record of `play --json` (one JSON object per
/// line, with the keys only a game's record has).
fn is_game_record(text: &str) -> bool {
    /// The keys only a game's record has; their values are skipped without
    /// being held (a generic JSON value of a 66 MB plan file of nested lists
    /// took 3.8 GB and aborted).
    #[derive(Deserialize)]
    struct GameKeys {
        #[serde(rename = "won")]
        _won: IgnoredAny,
        #[serde(rename = "final_length")]
        _final_length: IgnoredAny,
        #[serde(rename = "cells")]
        _cells: IgnoredAny,
        #[serde(rename = "apples")]
        _apples: IgnoredAny,
    }
    let first = text.trim_start().lines().next().unwrap_or_default();
    serde_json::from_str::<GameKeys>(first).is_ok()
}

/// The path of a plan of `solve --json` and its `eaten` list if it has one,
/// with the path's own consistency checks: a file that is not such a plan,
/// one without a path, or one of more moves than the horizon cap is
/// unreadable (text that is not JSON at all is told that IPC plans go with a
/// .pddl problem); a path whose number of moves is not the horizon
/// `instance` fixes is illegal.
fn json_path(
    problem: &Path,
    instance: &Instance,
    text: &str,
    plan: &Path,
    verb: &str,
) -> Result<(Vec<Pos>, Option<Eaten>), PlanProblem> {
    let name = plan.display();
    let unreadable = |message: String| PlanProblem::Unreadable(bad_input(message));
    if text.trim_start().starts_with('[') {
        return Err(unreadable(format!(
            "{name}: not a plan of `solve --json`: a plan is a JSON object ({{\"path\": ...}}), not an array"
        )));
    }
    let parsed: PlanFile = serde_json::from_str(text).map_err(|e| {
        // A game's record holds no moves: said so (a bare parse error named
        // the `eaten` count).
        if is_game_record(text) {
            return unreadable(format!(
                "{name}: a game record of `play --json`, not a plan: it carries no moves (`play --gif` and `--html` draw a game)"
            ));
        }
        // Text that is not even meant as JSON is only read here for a JSON
        // instance: perhaps an IPC plan, which needs the .pddl problem.
        let kind = if text.trim_start().starts_with('{') {
            ""
        } else {
            ", the plan a JSON instance takes (IPC plan files go with a .pddl problem)"
        };
        let at = match e.line() {
            0 => String::new(),
            line => format!(" at line {line} column {}", e.column()),
        };
        let e = json_message(text, &e);
        unreadable(format!(
            "{name}: not a plan of `solve --json`{kind}: {e}{at}"
        ))
    })?;
    if let Some(status) = parsed.status.as_deref()
        && status != "sat"
    {
        return Err(unreadable(format!(
            "{name}: status {}: only a plan with status sat has a path to {verb}",
            excerpt(status)
        )));
    }
    let (path, cells) = match parsed.path {
        Some(PairsRead { pairs, total }) if total > 0 => (pairs, total),
        _ => return Err(unreadable(format!("{name}: no `path` to {verb}"))),
    };
    let moves = cells - 1;
    within_horizon_cap(plan, moves)?;
    if let Some(h) = parsed.horizon
        && h != moves
    {
        return Err(unreadable(format!(
            "{name}: `horizon` is {h} but `path` has {} ({})",
            snakesat::counted(path.len(), "cell"),
            snakesat::counted(moves, "move")
        )));
    }
    if let Some(t) = instance.horizon
        && t != moves
    {
        return Err(PlanProblem::Illegal(format!(
            "{name}: the plan has {} but {} fixes the horizon at {t}",
            snakesat::counted(moves, "move"),
            problem.display()
        )));
    }
    Ok((path, parsed.eaten))
}

pub fn run(args: RenderArgs) -> Result<Exit, Failure> {
    super::one_stdin(("instance", &args.instance), ("plan", &args.plan))?;
    let [mut gif, mut page] = output::claim([args.gif.as_deref(), args.html.as_deref()])?;
    let (problem, pddl) = load_problem_file(&args.instance)?;
    let instance = problem.instance;
    let path = match checked_path(
        &args.instance,
        pddl,
        &instance,
        &problem.objects,
        &args.plan,
        "draw",
    ) {
        Ok((path, _)) => path,
        Err(PlanProblem::Unreadable(failure)) => return Err(failure),
        Err(PlanProblem::Illegal(message)) => return Err(bad_input(message)),
    };
    let mut notes = Vec::new();
    if let Some(gif) = gif.as_mut() {
        notes.push(write_gif_file(&instance, &path, gif, &args.look.options())?);
    }
    if let Some(page) = page.as_mut() {
        let title = format!(
            "{} — {}",
            match args.plan.file_name() {
                Some(n) if !output::is_stdout(&args.plan) => n.to_string_lossy(),
                _ => "plan".into(),
            },
            snakesat::counted(path.len() - 1, "move")
        );
        let name = args.plan.display().to_string();
        super::write_plan_viewer(&instance, &path, &title, page, &name)?;
        notes.push(format!("wrote {}", page.name()));
    }
    output::commit([gif, page])?;
    for line in notes {
        note!("{line}");
    }
    Ok(Exit::Done)
}
