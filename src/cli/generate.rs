//! `snakesat generate`: a benchmark family written to a folder — each
//! instance as JSON (and IPC-2018 PDDL with `--format pddl`), its proven
//! least horizon `T*`, and per encoding the CNF at `T*` (SAT) and `T* − 1`
//! (UNSAT) as self-describing DIMACS, listed in `index.csv` / `index.jsonl`
//! with `summary.json` and a hardness histogram (`hardness.svg`).
//! The library side is [`snakesat::family`].

use crate::cli::Exit;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use clap::Args;

use crate::cli::index::{self, IndexRow, Shard, Summary};
use crate::cli::measure::sizes;
use snakesat::cnf::{Cnf, header};
use snakesat::counted;
use snakesat::encode::{self, Encoding};
use snakesat::family::{self, AppleCount, FamilySpec, SizeSpan, Span};
use snakesat::instance::{Instance, Start, json};
use snakesat::pddl::write::to_pddl;
use snakesat::planner::{Planner, Undecided, Verdict};
use snakesat::proof;
use snakesat::render::chart::{self, BarChart, ChartFormat};
use snakesat::sim;
use snakesat::solve::Status;

use snakesat::output;

use super::instance_args::parse_tail;
use super::{Failure, bad_input, seconds, shard_flag};

#[derive(Args)]
#[command(
    after_help = "Every column of the index except solve_seconds is a function of the \
command line (recorded in each row and in summary.json), so rerunning it regenerates the family \
bit for bit; with --solve-seconds or a --timeout that is reached, which instances are kept depends \
on timing too. --shard I/K handles the instances at positions p (0-based) with p % K == I-1 and \
writes index-I-of-K.csv/.jsonl and summary-I-of-K.json; `snakesat merge` joins the shards. \
A run that is interrupted (SIGINT, SIGTERM, SIGHUP, SIGQUIT, …) or fails removes the files it wrote, and the \
folder if it created it.\n\n\
Exit codes: 0 family written; 2 bad input; 3 a solve reached --timeout (that instance is dropped) \
or a label disagreed with the planner."
)]
pub struct GenerateArgs {
    /// Output folder: new or empty (created if missing); shards of one command may share one.
    #[arg(short, long, value_name = "DIR")]
    pub output: PathBuf,
    /// Board sizes: N, A..B (squares), WxH or WxH..WxH.
    #[arg(long, value_name = "RANGE", default_value = "6")]
    pub size: String,
    /// Apples per instance, a range A..B [default: 3].
    #[arg(long, value_name = "RANGE", conflicts_with = "fill")]
    pub apples: Option<String>,
    /// IPC-style: percentage of the board the snake covers once every apple is eaten (sets the apples).
    #[arg(long, value_name = "RANGE")]
    pub fill: Option<String>,
    /// Snake length at the start [default: 3, or 2 with --format pddl].
    #[arg(long, value_name = "RANGE")]
    pub length: Option<String>,
    /// Walls per instance.
    #[arg(long, value_name = "RANGE", default_value = "0")]
    pub walls: String,
    /// Apples visible at once, a range or `all`.
    #[arg(long, value_name = "RANGE|all", default_value = "1")]
    pub visible: String,
    /// Tail rule, follow or strict [default: follow, or strict with --format pddl].
    #[arg(long)]
    pub tail: Option<String>,
    /// The snake's start: free (the notebook's) or body (a random explicit body)
    /// [default: free, or body with --format pddl].
    #[arg(long)]
    pub start: Option<String>,
    /// The snake does not grow when it eats.
    #[arg(long)]
    pub no_grow: bool,
    /// Instances to draw (at least 1), no two related by a symmetry of their board (a WxH board and
    /// its HxW transpose count as different boards).
    #[arg(long, default_value_t = 10, value_parser = super::count::<usize>)]
    pub count: usize,
    /// Seed of the ChaCha8 generator.
    #[arg(long, default_value_t = 1, value_parser = super::seed)]
    pub seed: u64,
    /// Every instance of the setting (each parameter one value) once up to symmetry, instead of --count draws; every apple, hidden ones too, on a cell that is neither a wall nor the starting body (as --count draws them).
    #[arg(long, conflicts_with = "count")]
    pub all: bool,
    /// Encodings of the CNF files, comma-separated; an encoding's options
    /// follow it (`direct,amo=pairwise,direct` is two encodings; an item that
    /// spells an encoding listed before it, e.g. `direct,prune=on` after
    /// `direct`, is dropped). Exact encodings only.
    #[arg(long, value_name = "LIST", default_value = "direct")]
    pub encoding: String,
    /// Horizons of the CNF files: `T*`, `T*-K`, `T*+K` or a number (at least 1), comma-separated;
    /// an instance with `T*-K` below 1 move gets no file for it (counted as skipped_cnfs in summary.json).
    #[arg(long, value_name = "LIST", default_value = "T*,T*-1")]
    pub horizons: String,
    /// `json` (instances as JSON) or `pddl` (also IPC-2018 problem files).
    #[arg(long, default_value = "json")]
    pub format: String,
    /// Keep only instances whose UNSAT proof (the first encoding's CNF at T*-1) takes A..B seconds
    /// (an instance with T* = 1 has no such proof and is dropped).
    #[arg(long, value_name = "A..B")]
    pub solve_seconds: Option<String>,
    /// Time limit of each solve in seconds (not of building a formula, nor
    /// of loading the least-horizon search's formula into CaDiCaL and
    /// freeing it, which cannot be stopped midway: on an 80x80 board with
    /// 20 visible apples a solve stopped at 1 s ended after 4–5 s).
    #[arg(long, value_name = "SECONDS", default_value = "60")]
    pub timeout: String,
    /// The largest horizon searched for T*.
    #[arg(long, default_value_t = 300, value_parser = super::max_horizon)]
    pub max_horizon: usize,
    /// Handle only shard I of K (1 <= I <= K) of the instances.
    #[arg(long, value_name = "I/K")]
    pub shard: Option<String>,
    /// Beside each CNF file labelled unsat, write CaDiCaL's binary DRAT proof of it
    /// (`iNNNN-ENCODING-TH.drat`, one more solve of that file, within --timeout);
    /// `scripts/check-proofs.sh DIR` checks them all with the independent checker `rate`.
    #[arg(long)]
    pub proof: bool,
}

/// A horizon of the CNF files, relative to `T*` or absolute.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Horizon {
    Relative(i64),
    Absolute(usize),
}

impl Horizon {
    fn parse(text: &str) -> Result<Horizon, Failure> {
        let bad = || {
            bad_input(format!(
                "--horizons: {text:?} is not T*, T*-K, T*+K or a number"
            ))
        };
        let t = text.trim();
        // K and the number: digits only (no second sign, as in `T*+-1`).
        let number = |digits: &str| {
            if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
                return Err(bad());
            }
            digits.parse::<usize>().map_err(|_| bad())
        };
        match t.strip_prefix("T*") {
            Some("") => Ok(Horizon::Relative(0)),
            Some(rest) => {
                let (sign, digits) = match (rest.strip_prefix('+'), rest.strip_prefix('-')) {
                    (Some(d), _) => (1, d),
                    (None, Some(d)) => (-1, d),
                    (None, None) => return Err(bad()),
                };
                let k = i64::try_from(number(digits)?).map_err(|_| bad())?;
                Ok(Horizon::Relative(sign * k))
            }
            None => match number(t)? {
                0 => Err(bad_input(
                    "--horizons: 0 is not a horizon: a horizon is at least 1 move",
                )),
                h => Ok(Horizon::Absolute(h)),
            },
        }
    }

    /// The horizon for an instance with least horizon `t_star`; `None` below 1 move
    /// (only `T*-K` with `K >= t_star` can be: numbers are at least 1).
    fn at(self, t_star: usize) -> Option<usize> {
        let h = match self {
            Horizon::Relative(k) => i64::try_from(t_star).ok()?.checked_add(k)?,
            Horizon::Absolute(h) => i64::try_from(h).ok()?,
        };
        usize::try_from(h).ok().filter(|&h| h >= 1)
    }
}

/// The validated flags.
struct Plan {
    spec: FamilySpec,
    encodings: Vec<Box<dyn Encoding>>,
    /// The items of --encoding that spell an encoding listed before them, and that encoding.
    dropped: Vec<(String, String)>,
    horizons: Vec<Horizon>,
    pddl: bool,
    band: Option<(f64, f64)>,
    timeout: Duration,
    shard: Option<Shard>,
    command: String,
    /// Write a DRAT proof beside each unsat CNF file.
    proof: bool,
}

fn parse_span(flag: &str, text: &str) -> Result<Span, Failure> {
    Span::parse(text).map_err(|e| bad_input(format!("{flag}: {e}")))
}

fn settings(args: &GenerateArgs) -> Result<Plan, Failure> {
    let pddl = match args.format.as_str() {
        "json" => false,
        "pddl" => true,
        other => {
            return Err(bad_input(format!(
                "--format must be json or pddl, not {other:?}"
            )));
        }
    };
    let size = SizeSpan::parse(&args.size).map_err(|e| bad_input(format!("--size: {e}")))?;
    let apples = match (&args.apples, &args.fill) {
        (_, Some(fill)) => {
            let span = parse_span("--fill", fill)?;
            if span.hi > 100 {
                return Err(bad_input("--fill is a percentage, at most 100"));
            }
            if args.no_grow {
                return Err(bad_input(
                    "--fill is the share of the board the grown snake covers: it needs growth (drop --no-grow, or give --apples)",
                ));
            }
            AppleCount::Fill(span)
        }
        (Some(a), None) => AppleCount::Count(parse_span("--apples", a)?),
        (None, None) => AppleCount::Count(Span::one(3)),
    };
    let length = match &args.length {
        Some(l) => parse_span("--length", l)?,
        None => Span::one(if pddl { 2 } else { 3 }),
    };
    let visible = match args.visible.as_str() {
        "all" => None,
        v => Some(parse_span("--visible", v)?),
    };
    let tail = parse_tail(
        args.tail
            .as_deref()
            .unwrap_or(if pddl { "strict" } else { "follow" }),
    )?;
    let body = match args
        .start
        .as_deref()
        .unwrap_or(if pddl { "body" } else { "free" })
    {
        "free" => false,
        "body" => true,
        other => {
            return Err(bad_input(format!(
                "--start must be free or body, not {other:?}"
            )));
        }
    };
    if pddl && !(body && tail == snakesat::instance::TailRule::Strict && !args.no_grow) {
        return Err(bad_input(
            "--format pddl needs IPC-2018's rules: --start body, --tail strict and growth",
        ));
    }
    if pddl && length.lo < 2 {
        return Err(bad_input(
            "--format pddl needs a snake of at least two cells (--length 2 or more): the domain's move needs a nextsnake fact",
        ));
    }
    if args.count == 0 {
        return Err(bad_input(
            "--count 0 draws no instance: a family needs at least one",
        ));
    }
    if args.count > family::MAX_COUNT {
        return Err(bad_input(family::FamilyError::TooMany(args.count)));
    }
    let listed = sizes::distinct(&sizes::split_list(&args.encoding))
        .map_err(|e| bad_input(format!("--encoding: {e}")))?;
    if let Some(e) = listed.encodings.iter().find(|e| e.approximate()) {
        return Err(bad_input(format!(
            "--encoding: {} is approximate; a family's labels need exact encodings",
            e.name()
        )));
    }
    if listed.encodings.is_empty() {
        return Err(bad_input(format!(
            "--encoding {:?} names no encoding: a family's CNF files need at least one (e.g. direct)",
            args.encoding
        )));
    }
    let (encodings, dropped) = (listed.encodings, listed.dropped);
    let horizons = args
        .horizons
        .split(',')
        .map(Horizon::parse)
        .collect::<Result<Vec<_>, _>>()?;
    for h in &horizons {
        let cap = snakesat::instance::MAX_HORIZON;
        match *h {
            Horizon::Absolute(n) if n > cap => {
                return Err(bad_input(format!(
                    "--horizons: {n} is above the horizon cap of {cap} moves"
                )));
            }
            // T* can be as large as --max-horizon.
            Horizon::Relative(k) if (args.max_horizon as i64).saturating_add(k) > cap as i64 => {
                return Err(bad_input(format!(
                    "--horizons: T*+{k} can reach {} moves (T* up to --max-horizon {}), above the horizon cap of {cap}",
                    (args.max_horizon as i64).saturating_add(k),
                    args.max_horizon
                )));
            }
            _ => {}
        }
    }
    let band = match &args.solve_seconds {
        None => None,
        Some(text) => {
            let bad = || {
                bad_input(format!(
                    "--solve-seconds must be A..B with 0 <= A <= B, not {text:?}"
                ))
            };
            let (a, b) = text.split_once("..").ok_or_else(bad)?;
            let (a, b): (f64, f64) = (
                a.trim().parse().map_err(|_| bad())?,
                b.trim().parse().map_err(|_| bad())?,
            );
            if !(a.is_finite() && b.is_finite() && 0.0 <= a && a <= b) {
                return Err(bad());
            }
            Some((a, b))
        }
    };
    if band.is_some() && !horizons.contains(&Horizon::Relative(-1)) {
        return Err(bad_input(
            "--solve-seconds needs T*-1 among --horizons (the UNSAT proof it times)",
        ));
    }
    let timeout = seconds(&args.timeout).map_err(|e| bad_input(format!("--timeout: {e}")))?;
    let shard = shard_flag(args.shard.as_deref())?;
    let spec = FamilySpec {
        size,
        apples,
        length,
        walls: parse_span("--walls", &args.walls)?,
        visible,
        tail,
        grow: !args.no_grow,
        body,
        linked: pddl,
        count: args.count,
        seed: args.seed,
    };
    let command = command_line(args, &spec, &encodings);
    Ok(Plan {
        spec,
        encodings,
        dropped,
        horizons,
        pddl,
        band,
        timeout,
        shard,
        command,
        proof: args.proof,
    })
}

/// The command that regenerates the family: every setting spelled out,
/// without `-o` and `--shard` (which do not change the family).
fn command_line(args: &GenerateArgs, spec: &FamilySpec, encodings: &[Box<dyn Encoding>]) -> String {
    let mut c = format!(
        "snakesat generate --size {} {} --length {} --walls {}",
        spec.size, spec.apples, spec.length, spec.walls
    );
    match spec.visible {
        Some(v) => c += &format!(" --visible {v}"),
        None => c += " --visible all",
    }
    c += &format!(
        " --tail {} --start {}",
        spec.tail.name(),
        if spec.body { "body" } else { "free" }
    );
    if !spec.grow {
        c += " --no-grow";
    }
    // (The seed is in every row of an `--all` family too.)
    if args.all {
        c += &format!(" --all --seed {}", spec.seed);
    } else {
        c += &format!(" --count {} --seed {}", spec.count, spec.seed);
    }
    let names: Vec<String> = encodings.iter().map(|e| e.name()).collect();
    c += &format!(
        " --encoding {} --horizons {} --format {}",
        names.join(","),
        args.horizons.replace(' ', ""),
        args.format
    );
    // (Spaces would split a value into two arguments.)
    if let Some(band) = &args.solve_seconds {
        c += &format!(" --solve-seconds {}", band.replace(' ', ""));
    }
    c += &format!(
        " --timeout {} --max-horizon {}",
        args.timeout.replace(' ', ""),
        args.max_horizon
    );
    if args.proof {
        c += " --proof";
    }
    c
}

/// One CNF file of an instance, solved.
struct Labelled {
    encoding: String,
    horizon: usize,
    bytes: Vec<u8>,
    status: Status,
    variables: u64,
    clauses: u64,
    literals: u64,
    seconds: f64,
    /// With `--proof`, an unsat file's formula, kept until its proof is written.
    refute: Option<Cnf>,
}

/// The DRAT proof of one unsat CNF file, written into the family folder.
struct WrittenProof {
    name: String,
    sha256: String,
    seconds: f64,
}

/// What became of one instance.
enum Fate {
    Kept {
        t_star: usize,
        lower_bound: usize,
        search_seconds: f64,
        files: Vec<Labelled>,
        /// CNF files not written: their horizon `T*-K` is below 1 move.
        skipped: usize,
    },
    Unsolvable,
    Unknown,
    OutOfBand,
}

/// Rounds seconds to microseconds, for the index.
fn micro(seconds: f64) -> f64 {
    (seconds * 1e6).round() / 1e6
}

/// Finds `T*`, writes and solves every CNF, and checks each answer against `T*`.
fn label(instance: &Instance, plan: &Plan, max_horizon: usize) -> Result<Fate, Failure> {
    let direct = encode::by_name("direct").map_err(bad_input)?;
    let start = Instant::now();
    let outcome = Planner::new(&*direct)
        .timeout(Some(plan.timeout))
        .fallback_plan(false)
        .max_horizon(max_horizon)
        .plan(instance)
        .map_err(bad_input)?;
    let search_seconds = start.elapsed().as_secs_f64();
    // (Finite whenever there is a plan.)
    let Some(lower_bound) = outcome.lower_bound else {
        return Ok(Fate::Unsolvable);
    };
    let t_star = match &outcome.verdict {
        Verdict::Plan(p) if p.optimal => p.horizon,
        // A formula the encoding cannot build is no timeout: the setting is
        // too large for it, whatever the time given.
        Verdict::Unknown(Undecided::FormulaLimit { error, .. }) => {
            return Err(bad_input(format!(
                "a {}x{} instance does not fit: {error}; lower the ranges",
                instance.width, instance.height,
            )));
        }
        Verdict::Plan(_) | Verdict::Unknown(_) => return Ok(Fate::Unknown),
        Verdict::NoPlan { .. } => return Ok(Fate::Unsolvable),
        Verdict::IllegalModel { horizon, .. } => {
            return Err(Failure {
                code: Exit::Unknown,
                message: format!("the direct encoding's model at T={horizon} is not a legal plan"),
            });
        }
        // (`Verdict` may grow: an answer this code does not know labels nothing.)
        _ => return Ok(Fate::Unknown),
    };
    let mut files = Vec::new();
    let mut below_one: Vec<Horizon> = Vec::new();
    for h in &plan.horizons {
        if h.at(t_star).is_none() && !below_one.contains(h) {
            below_one.push(*h);
        }
    }
    let skipped = below_one.len() * plan.encodings.len();
    for encoding in &plan.encodings {
        let planner = Planner::new(&**encoding).timeout(Some(plan.timeout));
        let mut done = Vec::new();
        for h in plan.horizons.iter().filter_map(|h| h.at(t_star)) {
            if done.contains(&h) {
                continue;
            }
            done.push(h);
            let at = Instance {
                horizon: Some(h),
                ..instance.clone()
            };
            let cnf = encoding.encode(&at, h).map_err(bad_input)?;
            let start = Instant::now();
            let (status, path) = planner.solve_formula(&at, &cnf, h).map_err(bad_input)?;
            let seconds = start.elapsed().as_secs_f64();
            let expected = match h.cmp(&t_star) {
                std::cmp::Ordering::Less => Some(Status::Unsat),
                std::cmp::Ordering::Equal => Some(Status::Sat),
                std::cmp::Ordering::Greater => None,
            };
            if status == Status::Unknown {
                return Ok(Fate::Unknown);
            }
            let legal =
                status != Status::Sat || path.is_some_and(|p| sim::simulate(instance, &p).is_ok());
            if expected.is_some_and(|e| e != status) || !legal {
                return Err(Failure {
                    code: Exit::Unknown,
                    message: format!(
                        "encoding {} at T={h} answers {status:?}, but T* = {t_star}",
                        encoding.name()
                    ),
                });
            }
            let mut bytes = Vec::new();
            header::write(&cnf, &at, &**encoding, h, Some(status.name()), &mut bytes)
                .map_err(bad_input)?;
            let size = cnf.size();
            let refute = (plan.proof && status == Status::Unsat).then_some(cnf);
            files.push(Labelled {
                encoding: encoding.name(),
                horizon: h,
                bytes,
                status,
                variables: size.variables,
                clauses: size.clauses,
                literals: size.literals,
                seconds,
                refute,
            });
        }
    }
    if let Some((lo, hi)) = plan.band {
        let proof = files
            .iter()
            .find(|f| f.horizon + 1 == t_star)
            .map(|f| f.seconds);
        match proof {
            // T* = 1: no formula at T*-1 = 0 moves, nothing to prove.
            None => return Ok(Fate::OutOfBand),
            Some(s) if !(lo..=hi).contains(&s) => return Ok(Fate::OutOfBand),
            Some(_) => {}
        }
    }
    Ok(Fate::Kept {
        t_star,
        lower_bound,
        search_seconds,
        files,
        skipped,
    })
}

/// The name of the file of `id`'s formula in `encoding` at `horizon`, with
/// the extension `ext` (`cnf`, or `drat` for its proof).
fn file_name(id: &str, encoding: &str, horizon: usize, ext: &str) -> String {
    format!("{id}-{}-T{horizon}.{ext}", slug(encoding))
}

/// Writes, for each of `files` kept to be refuted, CaDiCaL's DRAT proof of it
/// into `dir` (one solve each, within `timeout`), in the order of `files`.
/// `None` when a solve reached the time limit: the instance is then dropped,
/// and its proofs written so far are removed.
fn write_proofs(
    dir: &Path,
    id: &str,
    files: &[Labelled],
    timeout: Duration,
) -> Result<Option<Vec<WrittenProof>>, Failure> {
    let mut written: Vec<WrittenProof> = Vec::new();
    for f in files {
        let Some(cnf) = &f.refute else { continue };
        let name = file_name(id, &f.encoding, f.horizon, "drat");
        let path = dir.join(&name);
        let started = Instant::now();
        let status = proof::refute(cnf, &path, Some(started + timeout))
            .map_err(|e| bad_input(format!("{:#}", anyhow::Error::from(e))))?;
        let seconds = micro(started.elapsed().as_secs_f64());
        if status != Status::Unsat {
            for file in written.iter().map(|p| &p.name).chain([&name]) {
                let file = dir.join(file);
                output::remove_unfinished(&file)
                    .map_err(|e| bad_input(format!("cannot remove {}: {e}", file.display())))?;
            }
            if status == Status::Unknown {
                return Ok(None);
            }
            return Err(Failure {
                code: Exit::Unknown,
                message: format!(
                    "encoding {} at T={} answers sat when solved for its proof, unsat before",
                    f.encoding, f.horizon
                ),
            });
        }
        let sha256 = index::sha256_file(&path)
            .map_err(|e| bad_input(format!("cannot read {}: {e}", path.display())))?;
        written.push(WrittenProof {
            name,
            sha256,
            seconds,
        });
    }
    Ok(Some(written))
}

/// A file name piece for an encoding: `direct,amo=pairwise` → `direct-amo-pairwise`.
fn slug(name: &str) -> String {
    name.chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect()
}

/// Writes `bytes` to `dir/name` (through [`output`]: whole or not at all;
/// unfinished until the family is complete) and returns its index row's hash.
fn write_file(dir: &Path, name: &str, bytes: &[u8]) -> Result<String, Failure> {
    let mut out = output::claim_one(&dir.join(name))?;
    out.write_with(|w| w.write_all(bytes))?;
    output::commit_unfinished([Some(out)])?;
    Ok(index::sha256_hex(bytes))
}

/// The names in folder `dir`; `None` when it cannot be read (missing, or
/// not a folder: created, or refused, by the caller).
fn folder_names(dir: &Path) -> Option<Vec<String>> {
    let entries = std::fs::read_dir(dir).ok()?;
    Some(
        entries
            .filter_map(|e| e.ok())
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect(),
    )
}

/// Refuses an output folder `dir` of the family command `name` (`generate`,
/// `merge`) that holds anything: a file of an earlier run would stay beside
/// the new family.
pub fn check_empty(dir: &Path, name: &str) -> Result<(), Failure> {
    let names = folder_names(dir).unwrap_or_default();
    if let Some(lock) = names.iter().find(|n| is_lock(n)) {
        return Err(busy(dir, lock));
    }
    match names.iter().min() {
        Some(first) => Err(bad_input(format!(
            "{} is not empty (it holds {first}): {name} writes a family into a new or empty \
             folder, so that no file of an earlier run stays beside it",
            dir.display()
        ))),
        None => Ok(()),
    }
}

/// The name of the lock file of a run of `command` (`generate`, `merge`)
/// writing into a folder; a shard's is its own (`generate-shard-I-of-K`).
fn lock_name(command: &str) -> String {
    format!(".snakesat-{command}.lock")
}

/// Whether `name` is a lock file of [`lock_name`].
fn is_lock(name: &str) -> bool {
    name.starts_with(".snakesat-") && name.ends_with(".lock")
}

/// The error of a folder that another run is writing into (it holds `lock`).
fn busy(dir: &Path, lock: &str) -> Failure {
    bad_input(format!(
        "{} is being written by another snakesat run (it holds {lock}; remove it if no such run is left)",
        dir.display()
    ))
}

/// Claims the folder `dir` (created by [`create_folder`]) for this run of
/// `command`: its lock file ([`lock_name`]) is created exclusively, so of
/// two runs that both found the folder new or empty (the check before the
/// work cannot see a run that starts at the same time) only one goes on,
/// and the other fails before writing anything. The lock is unfinished like
/// the family's files (an error or a signal removes it); [`release_folder`]
/// removes it once the family is complete. A run killed outright leaves it,
/// and the folder is then refused until someone removes it.
pub fn claim_folder(dir: &Path, command: &str) -> Result<PathBuf, Failure> {
    let name = lock_name(command);
    let lock = dir.join(&name);
    let created = output::create_unfinished(&lock, || {
        std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&lock)
    });
    match created {
        Ok(_) => Ok(lock),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Err(busy(dir, &name)),
        Err(e) => Err(bad_input(format!("cannot create {}: {e}", lock.display()))),
    }
}

/// Removes the lock of [`claim_folder`]: the family in the folder is
/// complete.
pub fn release_folder(lock: &Path) -> Result<(), Failure> {
    output::remove_unfinished(lock)
        .map_err(|e| bad_input(format!("cannot remove {}: {e}", lock.display())))
}

/// Refuses an output folder `dir` that is `-` (standard output in the
/// command line's grammar) or exists as something else (a file, a device):
/// checked before any work, and again by [`create_folder`].
pub fn refuse_non_folder(dir: &Path) -> Result<(), Failure> {
    if dir == Path::new("-") {
        return Err(bad_input(
            "- is standard output, where no folder can go: name a folder (./- for one called -)",
        ));
    }
    if dir.exists() && !dir.is_dir() {
        return Err(bad_input(format!(
            "cannot create {}: it exists and is not a folder",
            dir.display()
        )));
    }
    Ok(())
}

/// Creates the folder `dir` and its missing parents, each unfinished
/// ([`output::create_unfinished`]) until the run (`generate` or `merge`
/// writing a family, `bench` writing plans) is complete; returns the topmost
/// folder created (`dir` itself when it exists). A folder that another process (a shard sharing it)
/// creates meanwhile is used, and not removed. A folder that takes no files is refused.
pub fn create_folder(dir: &Path) -> Result<PathBuf, Failure> {
    refuse_non_folder(dir)?;
    let top = output::create_dirs_unfinished(dir).map_err(|(folder, e)| {
        output::discard_unfinished();
        bad_input(format!("cannot create {}: {e}", folder.display()))
    })?;
    // (An existing folder may refuse files: found now, not after the work.)
    output::check_writable(dir).map_err(|e| {
        output::discard_unfinished();
        bad_input(format!("cannot write in {}: {e}", dir.display()))
    })?;
    Ok(top)
}

/// Refuses an output folder that holds files of an earlier run, which would
/// stay beside the new family: without `shard` the folder must be missing or
/// empty ([`check_empty`]); a shard's folder may hold the other shards of the
/// same command (shards share a folder), but no whole family and no shard of
/// another command or another shard count.
fn check_folder(dir: &Path, shard: Option<Shard>, command: &str) -> Result<(), Failure> {
    refuse_non_folder(dir)?;
    let Some(shard) = shard else {
        return check_empty(dir, "generate");
    };
    let names = folder_names(dir).unwrap_or_default();
    // A whole family being written. (Other shards' locks are welcome: shards
    // share the folder; the same shard twice meets its own lock.)
    if let Some(lock) = names.iter().find(|n| is_lock(n) && !n.contains("-shard-")) {
        return Err(busy(dir, lock));
    }
    let shown = dir.display();
    let refuse = |name: &str, what: &str| {
        bad_input(format!(
            "{shown} holds {name} ({what}): a shard writes into a new or empty folder or beside \
             the other shards of the same command only"
        ))
    };
    for name in &names {
        if ["index.csv", "index.jsonl", "summary.json", "hardness.svg"].contains(&name.as_str()) {
            return Err(refuse(name, "a whole family"));
        }
        let Some(other) = index::summary_shard_name(name) else {
            continue;
        };
        if other.1.parse() != Ok(shard.count) {
            return Err(refuse(
                name,
                &format!("a shard of {} shards, not {}", other.1, shard.count),
            ));
        }
        let earlier = std::fs::read_to_string(dir.join(name))
            .ok()
            .and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok());
        if earlier.as_ref().and_then(|s| s["command"].as_str()) != Some(command) {
            return Err(refuse(name, "a shard of another command"));
        }
    }
    Ok(())
}

/// The command of a shard's lock ([`claim_folder`]): shards of one command
/// share a folder, each with a lock of its own.
fn shard_lock(shard: Shard) -> String {
    format!("generate-shard-{}-of-{}", shard.index, shard.count)
}

pub fn run(args: GenerateArgs) -> Result<Exit, Failure> {
    let plan = settings(&args)?;
    check_folder(&args.output, plan.shard, &plan.command)?;
    let sample = if args.all {
        family::enumerate(&plan.spec)
    } else {
        family::sample(&plan.spec)
    }
    .map_err(bad_input)?;
    // Until the index is written, a signal or an error removes every file
    // of the family written so far (and the folder, if it was created).
    let top = create_folder(&args.output)?;
    let lock = claim_folder(
        &args.output,
        &plan.shard.map_or("generate".to_string(), shard_lock),
    )?;
    let generator = format!("snakesat {}", env!("CARGO_PKG_VERSION"));
    let digits = sample
        .instances
        .len()
        .saturating_sub(1)
        .to_string()
        .len()
        .max(4);
    let mut summary = Summary {
        generator: generator.clone(),
        command: plan.command.clone(),
        seed: plan.spec.seed,
        mode: if args.all { "all" } else { "sample" }.to_string(),
        distinct: sample.instances.len(),
        draws: sample.draws,
        duplicates: sample.duplicates,
        invalid: sample.invalid,
        shard: plan.shard.map(|s| s.to_string()),
        ..Summary::default()
    };
    let progress = std::io::stderr().is_terminal() && !super::quiet();
    let mut rows = Vec::new();
    for (p, instance) in sample.instances.iter().enumerate() {
        if plan.shard.is_some_and(|s| !s.owns(p)) {
            continue;
        }
        let id = format!("i{p:0digits$}");
        let (t_star, lower_bound, search_seconds, files) =
            match label(instance, &plan, args.max_horizon)? {
                Fate::Kept {
                    t_star,
                    lower_bound,
                    search_seconds,
                    files,
                    skipped,
                } => {
                    summary.skipped_cnfs += skipped;
                    (t_star, lower_bound, search_seconds, files)
                }
                Fate::Unsolvable => {
                    summary.unsolvable += 1;
                    continue;
                }
                Fate::Unknown => {
                    summary.unknown += 1;
                    continue;
                }
                Fate::OutOfBand => {
                    summary.out_of_band += 1;
                    continue;
                }
            };
        let proofs = if plan.proof {
            match write_proofs(&args.output, &id, &files, plan.timeout)? {
                Some(proofs) => proofs,
                None => {
                    summary.unknown += 1;
                    continue;
                }
            }
        } else {
            Vec::new()
        };
        let mut proofs = proofs.into_iter();
        summary.instances += 1;
        let row = |file: String, kind: &str, sha256: String, seconds: f64| IndexRow {
            id: id.clone(),
            file,
            kind: kind.to_string(),
            width: instance.width,
            height: instance.height,
            walls: instance.walls.len(),
            start: match instance.start {
                Start::Free { .. } => "free",
                Start::Body(_) => "body",
            }
            .to_string(),
            length: instance.initial_length(),
            apples: instance.apples.len(),
            visible: instance.visible,
            tail: instance.tail.name().to_string(),
            grow: instance.grow,
            t_star,
            lower_bound,
            encoding: None,
            horizon: None,
            status: None,
            variables: None,
            clauses: None,
            literals: None,
            sha256,
            generator: generator.clone(),
            seed: plan.spec.seed,
            command: plan.command.clone(),
            solve_seconds: micro(seconds),
        };
        let name = format!("{id}.json");
        let text = json::to_json(instance) + "\n";
        let sha = write_file(&args.output, &name, text.as_bytes())?;
        rows.push(row(name, "instance", sha, search_seconds));
        if plan.pddl {
            let name = format!("{id}.pddl");
            let problem = format!(
                "snake-{}-{}x{}-1-{}-{}-{id}",
                if instance.walls.is_empty() {
                    "empty"
                } else {
                    "walls"
                },
                instance.width,
                instance.height,
                instance.visible,
                instance.apples.len() - instance.visible.min(instance.apples.len())
            );
            let text = to_pddl(instance, &problem).map_err(bad_input)?;
            let back = snakesat::pddl::from_pddl(&text)
                .map_err(|e| bad_input(format!("{name} does not read back: {e}")))?;
            if snakesat::symmetry::normal_form(&back) != *instance {
                return Err(Failure {
                    code: Exit::Unknown,
                    message: format!("{name} reads back to another instance"),
                });
            }
            let sha = write_file(&args.output, &name, text.as_bytes())?;
            rows.push(row(name, "pddl", sha, search_seconds));
        }
        for f in files {
            let name = file_name(&id, &f.encoding, f.horizon, "cnf");
            let sha = write_file(&args.output, &name, &f.bytes)?;
            rows.push(IndexRow {
                encoding: Some(f.encoding.clone()),
                horizon: Some(f.horizon),
                status: Some(f.status.name().to_string()),
                variables: Some(f.variables),
                clauses: Some(f.clauses),
                literals: Some(f.literals),
                ..row(name, "cnf", sha, f.seconds)
            });
            if f.refute.is_some() {
                let proof = proofs.next().expect("a proof for each file refuted");
                rows.push(IndexRow {
                    encoding: Some(f.encoding),
                    horizon: Some(f.horizon),
                    status: Some(Status::Unsat.name().to_string()),
                    ..row(proof.name, "proof", proof.sha256, proof.seconds)
                });
            }
        }
        if progress {
            stderr_text!("\r{}", counted(summary.instances, "instance"));
        }
    }
    if progress {
        stderr_line!();
    }
    summary.files = rows.len();
    write_index(&args.output, plan.shard, &summary, &rows)?;
    release_folder(&lock)?;
    output::settle(&top);
    // `--all` enumerates: it draws nothing, and rejects nothing.
    let found = if args.all {
        format!(
            "{} enumerated",
            snakesat::counted(summary.distinct, "distinct instance")
        )
    } else {
        format!(
            "{}; rejected {} duplicate and {} invalid draws",
            snakesat::counted(summary.distinct, "distinct draw"),
            summary.duplicates,
            summary.invalid
        )
    };
    note!(
        "wrote {}: {} ({}) of {found}; dropped {} without a plan of at most {} (--max-horizon), {} at the time limit, {} out of the band",
        args.output.display(),
        snakesat::counted(summary.instances, "instance"),
        snakesat::counted(summary.files, "file"),
        summary.unsolvable,
        snakesat::counted(args.max_horizon, "move"),
        summary.unknown,
        summary.out_of_band
    );
    super::note_dropped_encodings("--encoding", &plan.dropped);
    if summary.skipped_cnfs > 0 {
        note!(
            "skipped {} CNF file(s) whose horizon T*-K is below 1 move (instances with T* <= K; skipped_cnfs in the summary)",
            summary.skipped_cnfs
        );
    }
    Ok(if summary.unknown > 0 {
        Exit::Unknown
    } else {
        Exit::Done
    })
}

/// Writes the index, the summary and (for a whole family) the hardness
/// histogram, unfinished ([`output::commit_unfinished`]) until the caller
/// settles the folder.
pub fn write_index(
    dir: &Path,
    shard: Option<Shard>,
    summary: &Summary,
    rows: &[IndexRow],
) -> Result<(), Failure> {
    let suffix = shard.map_or(String::new(), |s| format!("-{}-of-{}", s.index, s.count));
    let paths = [
        dir.join(format!("index{suffix}.csv")),
        dir.join(format!("index{suffix}.jsonl")),
        dir.join(format!("summary{suffix}.json")),
        dir.join("hardness.svg"),
    ];
    let chart = paths[3].as_path();
    let [csv, jsonl, summary_out, svg] = output::claim([
        Some(paths[0].as_path()),
        Some(paths[1].as_path()),
        Some(paths[2].as_path()),
        shard.is_none().then_some(chart),
    ])?;
    let texts = [
        index::to_csv(rows),
        index::to_jsonl(rows),
        index::summary_json(summary),
    ];
    let mut outs = [csv, jsonl, summary_out];
    for (out, text) in outs.iter_mut().zip(&texts) {
        if let Some(out) = out {
            out.write_with(|w| w.write_all(text.as_bytes()))?;
        }
    }
    let svg = match svg {
        Some(mut out) => hardness_chart(rows, &mut out)?.then_some(out),
        None => None,
    };
    let [a, b, c] = outs;
    // Unfinished like the family's files, until the caller settles the folder.
    output::commit_unfinished([a, b, c, svg])?;
    Ok(())
}

/// Draws the histogram of the UNSAT proofs' solve times into `out`;
/// false (nothing drawn) when no instance has such a proof.
fn hardness_chart(rows: &[IndexRow], out: &mut output::Output) -> Result<bool, Failure> {
    let seconds = index::unsat_proof_seconds(rows);
    if seconds.is_empty() {
        return Ok(false);
    }
    let bars = index::hardness_bins(&seconds)
        .into_iter()
        .map(|(label, n)| (label, n as f64, "instances".to_string()))
        .collect();
    let chart = BarChart {
        title: format!(
            "Hardness: CaDiCaL time of the UNSAT proof at T*-1 ({})",
            snakesat::counted(seconds.len(), "instance")
        ),
        value_label: "instances".to_string(),
        bars,
        log: Some(false),
    };
    out.write_with(|w| chart::bar_chart(&chart, ChartFormat::Svg, w))?;
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn horizons_are_relative_to_t_star_or_absolute() {
        let h = |t: &str| Horizon::parse(t).ok();
        assert_eq!(h("T*").and_then(|h| h.at(7)), Some(7));
        assert_eq!(h("T*-1").and_then(|h| h.at(7)), Some(6));
        assert_eq!(h("T*+2").and_then(|h| h.at(7)), Some(9));
        assert_eq!(h("T*-7").and_then(|h| h.at(7)), None);
        assert_eq!(h("12").and_then(|h| h.at(7)), Some(12));
        assert!(h("T").is_none() && h("T*-x").is_none());
        assert!(h("0").is_none() && h("T*+-1").is_none() && h("T*-+1").is_none());
        assert!(h("T*5").is_none() && h("T*+").is_none() && h("-3").is_none());
        assert_eq!(h("T*+0").and_then(|h| h.at(7)), Some(7));
    }
}
