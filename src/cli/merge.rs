//! `snakesat merge`: joins the outputs of the shards of a sweep into those of
//! one run. Folders of `generate --shard I/K` (each holding
//! `summary-I-of-K.json` and `index-I-of-K.jsonl`, several shards may share a
//! folder) give one family folder with `index.csv`, `index.jsonl`,
//! `summary.json` and `hardness.svg`, every file copied and its SHA-256
//! checked (all of them before the first is copied; an error removes what
//! was written, so the folder lands whole or not at all), each shard's index
//! checked against its summary's counts and its CSV index against its JSON
//! Lines one; CSV tables of
//! `bench --shard` or `bench game --shard` (their header, then the columns
//! `settings` and `shard`, the same settings in every table), given in
//! shard order 1/K..K/K, give one table. Any other file is refused.

use crate::cli::Exit;
use std::collections::HashSet;
use std::io::Write;
use std::path::{Path, PathBuf};

use clap::Args;

use crate::cli::index::{self, Shard, Summary};
use crate::cli::measure::game::games_table;
use crate::cli::measure::ipc;

use snakesat::{counted, output};

use super::generate::{
    check_empty, claim_folder, create_folder, refuse_non_folder, release_folder, write_index,
};
use super::{Failure, Input, bad_input, read_file, read_path_bounded};

#[derive(Args)]
#[command(
    after_help = "The merged files equal those of one run of the same command without \
--shard, except the timing columns (index: solve_seconds; bench: seconds and peak_memory_kb; \
bench game: its time columns) and the hardness chart drawn from them.\n\n\
Exit codes: 0 merged; 2 bad input (a shard missing or repeated, an input given twice or missing, a folder with no shard in it, shards of different commands, \
shards run with different settings, a file that is not a shard's output, a file that does not \
match its index, an index that does not list the files and instances its summary counts or whose \
CSV and JSON Lines copies differ, an output folder that is not new or empty); on exit 2 nothing is written. A shard \
CSV records in its `settings` column every flag that changes its rows (not --jobs): shards of one \
sweep must agree on all of them."
)]
pub struct MergeArgs {
    /// Shard outputs: folders of `generate --shard`, or CSV files (`--csv-out`, not `--json-out`) of `bench`/`bench game --shard` in shard order.
    #[arg(required = true, value_name = "INPUT")]
    pub inputs: Vec<PathBuf>,
    /// The merged family folder, new or empty (created if missing), or the merged CSV file (`-`: stdout).
    #[arg(short, long, value_name = "OUT")]
    pub output: PathBuf,
}

pub fn run(args: MergeArgs) -> Result<Exit, Failure> {
    if let Some(missing) = args.inputs.iter().find(|p| !p.exists()) {
        return Err(bad_input(format!(
            "cannot read {}: no such file or folder",
            missing.display()
        )));
    }
    let dirs = args.inputs.iter().filter(|p| p.is_dir()).count();
    if dirs == args.inputs.len() {
        merge_families(&args.inputs, &args.output)
    } else if dirs == 0 {
        merge_csv(&args.inputs, &args.output)
    } else {
        Err(bad_input(
            "give either folders of `generate --shard` or CSV files, not both",
        ))
    }
}

fn merge_csv(inputs: &[PathBuf], output: &Path) -> Result<Exit, Failure> {
    // The headers of `bench --shard` and `bench game --shard` tables.
    let known: Vec<String> = [ipc::rows_table(&[]), games_table(&[])]
        .iter()
        .map(|t| format!("{},{}", t.to_csv().trim_end(), index::SHARD_COLUMNS))
        .collect();
    let not_a_table = |path: &Path| {
        // A family shard's index names the folder to give instead.
        let family = match path.parent() {
            Some(dir)
                if path
                    .file_name()
                    .is_some_and(|n| n.to_string_lossy().starts_with("index")) =>
            {
                let dir = if dir.as_os_str().is_empty() {
                    Path::new(".")
                } else {
                    dir
                };
                format!(
                    "; a shard of `generate --shard` is given as its folder, {}",
                    dir.display()
                )
            }
            _ => String::new(),
        };
        bad_input(format!(
            "{} is not a CSV file of `bench --shard` or `bench game --shard` (its first line is not their header){family}",
            path.display()
        ))
    };
    // Each regular file's first line before any file is read whole (a large
    // file that is no table was read into memory first); a pipe is read once,
    // and checked after.
    let longest = known.iter().map(String::len).max().unwrap_or_default();
    let regular = |p: &&PathBuf| std::fs::metadata(p).is_ok_and(|m| m.is_file());
    for path in inputs.iter().filter(regular) {
        if !first_line_is(path, &known, longest)? {
            return Err(not_a_table(path));
        }
    }
    let tables = inputs
        .iter()
        .map(|p| read_file(p, Input::Table))
        .collect::<Result<Vec<_>, _>>()?;
    let command = |table: &str| {
        known
            .iter()
            .position(|h| snakesat::excerpt::lines(table).next() == Some(h))
    };
    for (path, table) in inputs.iter().zip(&tables) {
        if command(table).is_none() {
            return Err(not_a_table(path));
        }
    }
    // Tables of both commands: named as such, not as other settings.
    if let Some(other) = tables
        .iter()
        .position(|t| command(t) != command(&tables[0]))
    {
        let name = |table: &str| ["`bench`", "`bench game`"][command(table).unwrap_or_default()];
        return Err(bad_input(format!(
            "{} is a table of {} and {} one of {}: shards of different commands",
            inputs[0].display(),
            name(&tables[0]),
            inputs[other].display(),
            name(&tables[other])
        )));
    }
    let merged = index::merge_tables(&tables).map_err(|e| match e {
        index::MergeError::DifferentSettings { first, other } => {
            // Only the `name=value` pairs that differ.
            let (theirs, ours) = index::differing_words(&other.1, &first.1);
            bad_input(format!(
                "{} was run with other settings than {}: {theirs} against {ours}",
                inputs[other.0 - 1].display(),
                inputs[first.0 - 1].display(),
            ))
        }
        index::MergeError::ShardColumn { table, text } => bad_input(format!(
            "{}: a row's shard {:?} is not I/K with 1 <= I <= K, or not its other rows' shard",
            inputs[table - 1].display(),
            snakesat::excerpt::excerpt(&text)
        )),
        // A cell or a row names the file and line it came from, not only
        // its place among the merged rows.
        index::MergeError::Cells {
            table,
            line,
            got,
            expected,
        } => bad_input(format!(
            "{} line {line} has {got} cells, the header {expected}: a table cut short or edited",
            inputs[table - 1].display()
        )),
        index::MergeError::BadCell {
            row,
            column,
            value,
            expected,
        } => {
            let (table, line) = index::merged_row_source(row, inputs.len());
            bad_input(format!(
                "{} line {line}: column {column} holds {:?}, not {expected}",
                inputs[table].display(),
                snakesat::excerpt::excerpt(&value)
            ))
        }
        index::MergeError::BadRow { row } => {
            let (table, line) = index::merged_row_source(row, inputs.len());
            bad_input(format!(
                "{} line {line} does not have the header's cells",
                inputs[table].display()
            ))
        }
        e @ index::MergeError::OutOfOrder { row, .. } => {
            let (table, line) = index::merged_row_source(row, inputs.len());
            bad_input(format!(
                "{e} (the row of {} line {line})",
                inputs[table].display()
            ))
        }
        e => bad_input(e),
    })?;
    let mut out = output::claim_one(output)?;
    let out_name = out.name();
    out.write_with(|w| std::io::Write::write_all(w, merged.as_bytes()))?;
    output::commit([Some(out)])?;
    note!(
        "wrote {}: {} from {}",
        out_name,
        counted(merged.lines().count().saturating_sub(1), "row"),
        counted(inputs.len(), "shard")
    );
    Ok(Exit::Done)
}

/// Whether the first line of the file `path` is one of `headers` (reading at
/// most `longest` bytes of it, a byte-order mark and its line end).
fn first_line_is(path: &Path, headers: &[String], longest: usize) -> Result<bool, Failure> {
    use std::io::Read as _;
    const BOM: &[u8] = "\u{feff}".as_bytes();
    let file = std::fs::File::open(path)
        .map_err(|e| bad_input(format!("cannot read {}: {e}", path.display())))?;
    let mut start = Vec::with_capacity(longest + BOM.len() + 2);
    file.take((longest + BOM.len() + 2) as u64)
        .read_to_end(&mut start)
        .map_err(|e| bad_input(format!("cannot read {}: {e}", path.display())))?;
    let text = start.strip_prefix(BOM).unwrap_or(&start);
    // (LF, CRLF or a lone CR ends it, as `excerpt::lines` reads the table.)
    let line = text
        .split(|&b| b == b'\n' || b == b'\r')
        .next()
        .unwrap_or_default();
    Ok(headers.iter().any(|h| h.as_bytes() == line))
}

/// The shard outputs of a folder: `(shard, folder)` per `summary-I-of-K.json`.
fn shards_in(dir: &Path) -> Result<Vec<(Shard, PathBuf)>, Failure> {
    let entries = std::fs::read_dir(dir)
        .map_err(|e| bad_input(format!("cannot read {}: {e}", dir.display())))?;
    let mut out = Vec::new();
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if let Some(shard) = index::summary_shard_name(&name)
            .and_then(|(i, k)| Shard::parse(&format!("{i}/{k}")).ok())
        {
            out.push((shard, dir.to_path_buf()));
        }
    }
    Ok(out)
}

fn merge_families(inputs: &[PathBuf], output: &Path) -> Result<Exit, Failure> {
    let mut found = Vec::new();
    let mut seen_dirs = Vec::new();
    for dir in inputs {
        let canonical = dir.canonicalize().unwrap_or_else(|_| dir.clone());
        if seen_dirs.contains(&canonical) {
            return Err(bad_input(format!("{} is given twice", dir.display())));
        }
        seen_dirs.push(canonical);
        let shards = shards_in(dir)?;
        if shards.is_empty() {
            return Err(bad_input(format!(
                "{} holds no summary-I-of-K.json: it is not an output of `generate --shard`",
                dir.display()
            )));
        }
        found.extend(shards);
    }
    if output
        .canonicalize()
        .is_ok_and(|out| seen_dirs.contains(&out))
    {
        return Err(output::also_input(output).into());
    }
    check_empty(output, "merge")?;
    refuse_non_folder(output)?;
    let mut shards = Vec::new();
    let mut sources = Vec::new();
    let mut names = HashSet::new();
    for (shard, dir) in &found {
        let suffix = format!("{}-of-{}", shard.index, shard.count);
        let summary_path = dir.join(format!("summary-{suffix}.json"));
        let index_path = dir.join(format!("index-{suffix}.jsonl"));
        let csv_path = dir.join(format!("index-{suffix}.csv"));
        for path in [&summary_path, &index_path, &csv_path] {
            regular_file(path)?;
        }
        let summary_text = read_file(&summary_path, Input::Index)?;
        let summary: Summary = serde_json::from_str(&summary_text).map_err(|e| {
            let message = snakesat::excerpt::json_message(&summary_text, &e);
            bad_input(format!(
                "{}: line {} column {}: {message}",
                summary_path.display(),
                e.line(),
                e.column()
            ))
        })?;
        let rows = index::from_jsonl(&read_file(&index_path, Input::Index)?)
            .map_err(|e| bad_input(format!("{}: {e}", index_path.display())))?;
        check_counts(&summary, &summary_path, &rows, &index_path)?;
        check_csv_index(&rows, &index_path, &csv_path)?;
        for r in &rows {
            check_name(&r.file, &mut names, &index_path)?;
            sources.push((r.file.clone(), dir.join(&r.file), r.sha256.clone()));
        }
        shards.push((summary, rows));
    }
    let (summary, rows) = index::merge(shards).map_err(bad_input)?;
    // Every file is checked before anything is written.
    for (_, source, sha) in &sources {
        stream_checked(source, sha, &mut std::io::sink())?;
    }
    let top = create_folder(output)?;
    let lock = claim_folder(output, "merge")?;
    let written = sources
        .iter()
        .try_for_each(|(name, source, sha)| copy(source, sha, &output.join(name)))
        .and_then(|()| write_index(output, None, &summary, &rows))
        .and_then(|()| release_folder(&lock));
    if let Err(e) = written {
        output::discard_unfinished();
        return Err(e);
    }
    output::settle(&top);
    note!(
        "wrote {}: {}, {} from {}",
        output.display(),
        counted(summary.instances, "instance"),
        counted(summary.files, "file"),
        counted(found.len(), "shard")
    );
    Ok(Exit::Done)
}

/// Refuses a shard whose index (`index`, its rows `rows`) does not list the
/// files and instances its summary (`summary`, read from `summary_path`)
/// counts: an index emptied or cut short would otherwise lose the shard's
/// files while the merged summary still counted them.
fn check_counts(
    summary: &Summary,
    summary_path: &Path,
    rows: &[index::IndexRow],
    index: &Path,
) -> Result<(), Failure> {
    let instances = rows.iter().filter(|r| r.kind == "instance").count();
    if rows.len() == summary.files && instances == summary.instances {
        return Ok(());
    }
    Err(bad_input(format!(
        "{} lists {} and {}, but {} counts {} and {}",
        index.display(),
        counted(rows.len(), "file"),
        counted(instances, "instance"),
        summary_path.display(),
        counted(summary.files, "file"),
        counted(summary.instances, "instance"),
    )))
}

/// Refuses a shard whose CSV index (`csv`) is not the table of the rows
/// `rows` of its JSON Lines index (`jsonl`), byte for byte, as `generate`
/// writes both: the merged `index.csv` is rebuilt from the JSON Lines rows,
/// so a damaged CSV index would otherwise pass unnoticed.
fn check_csv_index(rows: &[index::IndexRow], jsonl: &Path, csv: &Path) -> Result<(), Failure> {
    output::note_input(csv)?;
    let bytes = read_path_bounded(csv, Input::Index)?;
    let expected = index::to_csv(rows);
    if bytes == expected.as_bytes() {
        return Ok(());
    }
    let lines = bytes.split(|&b| b == b'\n');
    let first_difference = lines
        .zip(expected.as_bytes().split(|&b| b == b'\n'))
        .position(|(got, want)| got != want)
        .map_or_else(
            || "one of them is cut short".to_string(),
            |i| format!("line {} differs", i + 1),
        );
    Err(bad_input(format!(
        "{} does not agree with {} ({first_difference})",
        csv.display(),
        jsonl.display()
    )))
}

/// Refuses a file name of a shard's index `index` that is not a plain name
/// in its folder, that is one of the merged index files, or that an earlier
/// row already lists (in `names`, to which it is added).
fn check_name(name: &str, names: &mut HashSet<String>, index: &Path) -> Result<(), Failure> {
    let refuse = |why: &str| {
        Err(bad_input(format!(
            "{}: the file {name:?} {why}",
            index.display()
        )))
    };
    if name.is_empty() || name == "." || name == ".." || name.contains('/') {
        refuse("is not a file name in its folder")
    } else if ["index.csv", "index.jsonl", "summary.json", "hardness.svg"].contains(&name) {
        refuse("is a file of the merged index")
    } else if !names.insert(name.to_string()) {
        refuse("is listed twice")
    } else {
        Ok(())
    }
}

/// Passes the bytes of `source` to `sink` a block at a time (never the
/// whole file in memory: a family's instances and formulas, at most the
/// size of a formula), and refuses them unless their SHA-256 is `sha`.
fn stream_checked(source: &Path, sha: &str, sink: &mut impl Write) -> Result<(), Failure> {
    let name = source.display();
    let cannot = |verb: &str, e: std::io::Error| bad_input(format!("cannot {verb} {name}: {e}"));
    regular_file(source)?;
    let file = std::fs::File::open(source).map_err(|e| cannot("read", e))?;
    let limit = Input::Formula.max_bytes();
    let mut total: u64 = 0;
    let digest = index::sha256_blocks(
        file,
        |block| {
            total += block.len() as u64;
            if total > limit {
                return Err(bad_input(format!(
                    "{name} is larger than {} MB, the most read of a family's file",
                    limit >> 20
                )));
            }
            sink.write_all(block).map_err(|e| cannot("copy", e))
        },
        |e| cannot("read", e),
    )?;
    if digest != sha {
        return Err(bad_input(format!(
            "{name} does not match the SHA-256 of its index"
        )));
    }
    Ok(())
}

/// Refuses a file of a shard folder that is not a regular file (a link to
/// one is): opening a FIFO there waited for a writer forever.
fn regular_file(path: &Path) -> Result<(), Failure> {
    match std::fs::metadata(path) {
        Ok(m) if m.is_file() => Ok(()),
        Ok(_) => Err(bad_input(format!(
            "{} is not a regular file, as every file of a shard folder is",
            path.display()
        ))),
        Err(e) => Err(bad_input(format!("cannot read {}: {e}", path.display()))),
    }
}

/// Copies `source` to the new file `target` (unfinished until the merge is
/// complete), refused unless its SHA-256 is `sha`.
fn copy(source: &Path, sha: &str, target: &Path) -> Result<(), Failure> {
    let mut file = output::create_unfinished(target, || std::fs::File::create_new(target))
        .map_err(|e| bad_input(format!("cannot write {}: {e}", target.display())))?;
    stream_checked(source, sha, &mut file)
}
