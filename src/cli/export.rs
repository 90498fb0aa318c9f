//! `snakesat export`: self-describing DIMACS of an instance at a horizon.

use std::path::PathBuf;

use clap::Args;

use snakesat::cnf::dimacs;
use snakesat::instance::json;

use super::instance_args::{EncodingArgs, InstanceArgs, load_encoding, load_instance};
use super::{Failure, bad_input, encode_failure, write_atomically};

#[derive(Args)]
pub struct ExportArgs {
    #[command(flatten)]
    pub instance: InstanceArgs,
    #[command(flatten)]
    pub encoding: EncodingArgs,
    /// Output file.
    #[arg(short, long, value_name = "FILE.cnf")]
    pub output: PathBuf,
}

pub fn run(args: ExportArgs) -> Result<u8, Failure> {
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
    let meta = [
        ("instance", json::to_json(&instance)),
        ("encoding", encoding.name()),
        ("horizon", horizon.to_string()),
        ("approximate", encoding.approximate().to_string()),
    ];
    write_atomically(&args.output, |w| dimacs::write(&cnf, &meta, w))?;
    let size = cnf.size();
    eprintln!(
        "wrote {}: {} variables, {} clauses, {} literals (encoding {}, T={horizon})",
        args.output.display(),
        size.variables,
        size.clauses,
        size.literals,
        encoding.name()
    );
    Ok(0)
}
