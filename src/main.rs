//! The `mnklab` command: parses the command line and hands it to `cli`, which calls the
//! library. Errors are printed by name and exit with code 2, as clap's own do.

mod cli;

use std::process::ExitCode;

fn main() -> ExitCode {
    cli::exit_quietly_on_closed_pipe();
    match cli::dispatch(cli::parse()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::from(2)
        }
    }
}
