//! Flags shared by the commands that take an instance: a file, or seeded
//! random parameters, plus the encoding name.

use std::path::{Path, PathBuf};

use clap::Args;

use snakesat::encode::{self, Encoding};
use snakesat::instance::random::{RandomSpec, generate};
use snakesat::instance::{Instance, TailRule, json};
use snakesat::pddl::{self, Objects, Problem};

use super::{Failure, Input, bad_input, read_file};

/// Where the instance comes from: a file, or seeded random parameters.
#[derive(Args, Clone)]
pub struct InstanceArgs {
    /// Instance file (.json, or IPC-2018 snake problem .pddl; `-` (stdin) or another name: either
    /// format, told by its text);
    /// without it a random instance is drawn from the flags below.
    pub instance: Option<PathBuf>,
    /// Random instance: grid size, `N` or `WxH` [default: 10].
    #[arg(long, value_name = "N|WxH")]
    pub size: Option<String>,
    /// Random instance: number of apples [default: 9].
    #[arg(long, value_parser = super::count::<usize>)]
    pub apples: Option<usize>,
    /// Random instance: snake length of the free start [default: 3].
    #[arg(long, value_parser = super::at_least_one::<usize>)]
    pub length: Option<usize>,
    /// Random instance: apples visible at once, a number or `all` [default: 1].
    #[arg(long)]
    pub visible: Option<String>,
    /// Random instance: number of random walls [default: 0].
    #[arg(long, value_parser = super::count::<usize>)]
    pub walls: Option<usize>,
    /// Random instance: the seed [default: 1].
    #[arg(long, value_parser = super::seed)]
    pub seed: Option<u64>,
    /// Random instance: tail rule, `follow` or `strict` [default: follow].
    #[arg(long)]
    pub tail: Option<String>,
    /// Random instance: the snake does not grow when it eats.
    #[arg(long)]
    pub no_grow: bool,
    /// Number of moves T (overrides the instance's): a plan of exactly T moves,
    /// the snake still moving legally after its last apple. Without it (and
    /// without a `horizon` in the instance) solve and sizes search the least T;
    /// export needs it.
    #[arg(long, value_parser = super::at_least_one::<usize>)]
    pub horizon: Option<usize>,
}

#[derive(Args)]
pub struct EncodingArgs {
    /// Encoding: `direct` (sound, default) with options `direct,KEY=VALUE,...`:
    /// position=projected|onehot|axis, amo=sequential|pairwise|commander|product|binary|bimander,
    /// body=auto|window|compare|block|tail, growth=auto|counter, prune=on|off.
    /// Or the notebook's APPROXIMATIONS notebook-mvp1, notebook-counter,
    /// notebook-combinations, notebook-ordered: their models may be illegal plans
    /// (e.g. notebook-ordered on the default MVP3 instance at --horizon 69 bites its body
    /// at step 53); `solve` and `decode` report such a model with its first violation, exit 3.
    #[arg(long, default_value = "direct", verbatim_doc_comment)]
    pub encoding: String,
}

/// The width and height texts of a size `N` (square) or `WxH`.
pub fn size_sides(text: &str) -> (&str, &str) {
    text.split_once(['x', 'X']).unwrap_or((text, text))
}

pub fn parse_size(text: &str) -> Result<(usize, usize), Failure> {
    let bad = || bad_input(format!("--size must be N or WxH, not {text:?}"));
    let (w, h) = size_sides(text);
    Ok((
        w.trim().parse().map_err(|_| bad())?,
        h.trim().parse().map_err(|_| bad())?,
    ))
}

pub fn parse_tail(text: &str) -> Result<TailRule, Failure> {
    match text {
        "follow" => Ok(TailRule::Follow),
        "strict" => Ok(TailRule::Strict),
        _ => Err(bad_input(format!(
            "--tail must be follow or strict, not {text:?}"
        ))),
    }
}

/// The instance the flags describe, with `--horizon` applied.
pub fn load_instance(args: &InstanceArgs) -> Result<Instance, Failure> {
    load_problem(args).map(|(problem, _)| problem.instance)
}

/// The instance the flags describe, with `--horizon` applied, and the names
/// of its cells: a `.pddl` problem's own, else `posX-Y`; and whether it was
/// read as an IPC-2018 PDDL problem (see [`load_problem_file`]).
pub fn load_problem(args: &InstanceArgs) -> Result<(Problem, bool), Failure> {
    let (mut problem, pddl) = match &args.instance {
        Some(path) => {
            let generation_flags = args.size.is_some()
                || args.apples.is_some()
                || args.length.is_some()
                || args.visible.is_some()
                || args.walls.is_some()
                || args.seed.is_some()
                || args.tail.is_some()
                || args.no_grow;
            if generation_flags {
                return Err(bad_input(
                    "random-instance flags (--size, --apples, --length, --visible, --walls, --seed, --tail, --no-grow) cannot be combined with an instance file",
                ));
            }
            load_problem_file(path)?
        }
        None => {
            let default = RandomSpec::default();
            let (width, height) = match &args.size {
                Some(s) => parse_size(s)?,
                None => (default.width, default.height),
            };
            let apples = args.apples.unwrap_or(default.apples);
            let visible = match args.visible.as_deref() {
                None => default.visible,
                Some("all") => None,
                Some(v) => match v.parse::<usize>() {
                    // (0 is refused as the JSON's `"visible": 0` is.)
                    Ok(n) if n >= 1 => Some(n),
                    _ => {
                        return Err(bad_input(format!(
                            "--visible must be a number of at least 1 or `all`, not {:?}",
                            snakesat::excerpt::excerpt(v)
                        )));
                    }
                },
            };
            let spec = RandomSpec {
                width,
                height,
                apples,
                length: args.length.unwrap_or(default.length),
                visible,
                walls: args.walls.unwrap_or(0),
                grow: !args.no_grow,
                tail: match &args.tail {
                    Some(t) => parse_tail(t)?,
                    None => TailRule::Follow,
                },
                horizon: None,
                seed: args.seed.unwrap_or(default.seed),
            };
            let instance = generate(&spec).map_err(bad_input)?;
            let problem = Problem {
                objects: Objects::canonical(&instance),
                instance,
            };
            (problem, false)
        }
    };
    if let Some(h) = args.horizon {
        problem.instance.horizon = Some(h);
        problem.instance.validate().map_err(bad_input)?;
    }
    Ok((problem, pddl))
}

/// True for the text of an IPC-2018 PDDL problem rather than JSON (for a
/// file not named `*.pddl` or `*.json`).
fn looks_like_pddl(text: &str) -> bool {
    text.trim_start().starts_with(['(', ';'])
}

/// The instance of a file and the names of its cells: IPC-2018 PDDL (its
/// own names) when it ends in `.pddl` (or, when its name does not end in
/// `.json`, standard input included, when it starts like PDDL), else JSON
/// (cells named `posX-Y`); and whether it was read as an IPC-2018 PDDL
/// problem (the kind of plan it takes).
pub fn load_problem_file(path: &Path) -> Result<(Problem, bool), Failure> {
    let text = read_file(path, Input::Problem)?;
    let json_name = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("json"));
    let pddl_text = pddl::is_pddl_path(path) || (!json_name && looks_like_pddl(&text));
    let parsed = if pddl_text {
        pddl::read_problem(&text).map_err(|e| e.to_string())
    } else {
        json::from_json(&text)
            .map(|instance| Problem {
                objects: Objects::canonical(&instance),
                instance,
            })
            .map_err(|e| {
                // (A `*.json` file is read as JSON whatever its text.)
                if looks_like_pddl(&text) {
                    format!("{e} (it starts like a PDDL problem: name the file *.pddl)")
                } else {
                    e.to_string()
                }
            })
    };
    parsed
        .map(|problem| (problem, pddl_text))
        .map_err(|e| bad_input(format!("{}: {e}", path.display())))
}

pub fn load_encoding(name: &str) -> Result<Box<dyn Encoding>, Failure> {
    encode::by_name(name).map_err(bad_input)
}
