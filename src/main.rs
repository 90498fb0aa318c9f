//! The `snakesat` binary: everything is in [`cli`].

mod cli;

use std::io::Write as _;

fn main() -> std::process::ExitCode {
    // The binary, not the library, takes over SIGINT, SIGTERM, SIGHUP (and
    // SIGQUIT, SIGALRM, SIGUSR1, SIGUSR2): they remove its unfinished output files before it dies of them.
    if let Err(e) = snakesat::output::clean_up_on_signals() {
        // (Not `eprintln!`, which panics when stderr is a closed pipe.)
        let _ = writeln!(std::io::stderr(), "error: cannot watch for signals: {e}");
        return cli::Exit::BadInput.into();
    }
    cli::main()
}
