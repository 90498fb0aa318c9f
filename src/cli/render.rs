//! `snakesat render`: a saved plan (the JSON of `solve --json`), checked by
//! the simulator on its instance, animated as a GIF.

use std::path::PathBuf;

use clap::Args;
use serde::Deserialize;

use snakesat::instance::Pos;
use snakesat::output;
use snakesat::sim;

use super::instance_args::load_instance_file;
use super::{Failure, GifLook, bad_input, read_file, write_gif_file};

#[derive(Args)]
pub struct RenderArgs {
    /// The instance file (.json) the plan was made for.
    pub instance: PathBuf,
    /// A plan as `snakesat solve --json` prints it; its `path` is drawn.
    pub plan: PathBuf,
    /// The GIF to write.
    #[arg(long, value_name = "FILE", help_heading = "GIF")]
    pub gif: PathBuf,
    #[command(flatten)]
    pub look: GifLook,
}

/// The fields of a plan file that `render` reads; the others are ignored.
#[derive(Deserialize)]
struct PlanFile {
    status: Option<String>,
    horizon: Option<usize>,
    path: Option<Vec<Pos>>,
}

pub fn run(args: RenderArgs) -> Result<u8, Failure> {
    let mut gif = output::claim_one(&args.gif)?;
    let instance = load_instance_file(&args.instance)?;
    let name = args.plan.display();
    let text = read_file(&args.plan)?;
    let plan: PlanFile = serde_json::from_str(&text)
        .map_err(|e| bad_input(format!("{name}: not a plan of `solve --json`: {e}")))?;
    if let Some(status) = plan.status.as_deref()
        && status != "sat"
    {
        return Err(bad_input(format!(
            "{name}: status {status}: the plan has no path to draw"
        )));
    }
    let path = match plan.path {
        Some(path) if !path.is_empty() => path,
        _ => return Err(bad_input(format!("{name}: no `path` to draw"))),
    };
    let moves = path.len() - 1;
    if let Some(h) = plan.horizon
        && h != moves
    {
        return Err(bad_input(format!(
            "{name}: `horizon` is {h} but `path` has {} cells ({moves} moves)",
            path.len()
        )));
    }
    if let Some(t) = instance.horizon
        && t != moves
    {
        return Err(bad_input(format!(
            "{name}: the plan has {moves} moves but {} fixes the horizon at {t}",
            args.instance.display()
        )));
    }
    if let Err(v) = sim::simulate(&instance, &path) {
        return Err(bad_input(format!("{name}: illegal plan: {v}")));
    }
    let note = write_gif_file(&instance, &path, &mut gif, &args.look)?;
    output::commit([Some(gif)])?;
    eprintln!("{note}");
    Ok(0)
}
