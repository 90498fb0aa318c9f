//! The `snakesat` binary: everything is in [`cli`].

mod cli;

fn main() -> std::process::ExitCode {
    cli::main()
}
