//! `snakesat export`: self-describing DIMACS of an instance at a horizon.

use crate::cli::Exit;
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
}

pub fn run(args: ExportArgs) -> Result<Exit, Failure> {
    let mut out = output::claim_one(&args.output)?;
    let instance = load_instance(&args.instance)?;
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
