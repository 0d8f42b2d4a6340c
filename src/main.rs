//! The `mnklab` command: parses the command line and hands it to `cli`, which calls the
//! library. Errors are printed by name and exit with code 2, as clap's own do.

mod cli;

use std::process::ExitCode;

/// The built-in opening books, linked into the program so that it needs no file beside it.
const BOOKS: mnklab::search::solver::LinkedBooks = &[("connect4", include_bytes!("../assets/books/connect4.book"))];

fn main() -> ExitCode {
    mnklab::search::solver::link_books(BOOKS);
    cli::exit_quietly_on_closed_pipe();
    match cli::dispatch(cli::parse()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::from(2)
        }
    }
}

#[cfg(test)]
mod tests {
    /// The program links in every book the library names as built in, and no other.
    #[test]
    fn the_program_links_every_built_in_book() {
        let linked: Vec<&str> = super::BOOKS.iter().map(|(name, _)| *name).collect();
        assert_eq!(linked, mnklab::search::solver::BUILT_IN_BOOKS);
    }
}
