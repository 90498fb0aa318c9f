//! `snakesat export`: self-describing DIMACS of an instance at a horizon.

use crate::cli::Exit;
use std::io::Write;
use std::path::PathBuf;

use clap::Args;

use snakesat::cnf::header;
use snakesat::output;

use super::instance_args::{EncodingArgs, InstanceArgs, load_encoding, load_instance};
use super::{Failure, bad_input, encode_failure};

#[derive(Args)]
pub struct ExportArgs {
    #[command(flatten)]
    pub instance: InstanceArgs,
    #[command(flatten)]
    pub encoding: EncodingArgs,
    /// Output file; `-` for standard output.
    #[arg(short, long, value_name = "FILE.cnf")]
    pub output: PathBuf,
    /// Write the instance itself (the file's, or the one the random-instance
    /// flags draw) as instance JSON instead of its CNF: no horizon needed, and
    /// `solve FILE` then plans the same game.
    #[arg(long, conflicts_with = "encoding")]
    pub instance_json: bool,
}

pub fn run(args: ExportArgs) -> Result<Exit, Failure> {
    let mut out = output::claim_one(&args.output)?;
    let instance = load_instance(&args.instance)?;
    if args.instance_json {
        let json = snakesat::instance::json::to_json(&instance) + "\n";
        out.write_with(|w| w.write_all(json.as_bytes()))?;
        let name = out.name();
        output::commit([Some(out)])?;
        note!(
            "wrote {name}: the {}x{} instance as JSON ({})",
            instance.width,
            instance.height,
            snakesat::counted(instance.apples.len(), "apple")
        );
        return Ok(Exit::Done);
    }
    let encoding = load_encoding(&args.encoding.encoding)?;
    let Some(horizon) = instance.horizon else {
        return Err(bad_input(
            "export needs a horizon: give --horizon T or a `horizon` in the instance",
        ));
    };
    let cnf = encoding
        .encode(&instance, horizon)
        .map_err(encode_failure)?;
    out.write_with(|w| header::write(&cnf, &instance, &*encoding, horizon, None, w))?;
    let name = out.name();
    output::commit([Some(out)])?;
    let size = cnf.size();
    note!(
        "wrote {name}: {} variables, {} clauses, {} literals (encoding {}, T={horizon})",
        size.variables,
        size.clauses,
        size.literals,
        encoding.name()
    );
    Ok(Exit::Done)
}
