//! `mnklab table`: a run's summary table as text, Markdown or LaTeX.

use std::path::PathBuf;

use clap::Args;
use mnklab::arena::{Matchup, summarize, summarize_by_first_mover, table};

#[derive(Clone, Copy, Debug, clap::ValueEnum)]
enum TableFormat {
    Text,
    Markdown,
    Latex,
}

#[derive(Args)]
pub struct TableArgs {
    /// A run's output folder or its results.ronl.
    results: PathBuf,
    #[arg(long, value_enum, default_value = "text")]
    format: TableFormat,
    /// Write to this file instead of printing (never a run's own file; an existing file only
    /// with --force).
    #[arg(long)]
    out: Option<PathBuf>,
    /// Replace the --out file if it exists (one holding exactly this table needs no --force).
    #[arg(long)]
    force: bool,
    /// A row per colour order (the first-named agent moved first; wins are the first
    /// player's), as papers that report "player 1 = MCTS" and "player 1 = AB" apart.
    #[arg(long)]
    by_colour: bool,
}

pub fn run(args: TableArgs) -> Result<(), String> {
    // Never a run's own file; whether an existing file may be replaced is decided once the
    // table is known (the same table again loses nothing).
    if let Some(out) = &args.out {
        mnklab::io::check_output(out, true).map_err(|e| format!("--out: {e}"))?;
    }
    let run = mnklab::arena::results::load_run(&args.results).map_err(|e| e.to_string())?;
    if run.records.is_empty() {
        return Err(format!("{}: no finished games yet", args.results.display()));
    }
    let stats = if args.by_colour { summarize_by_first_mover(&run.records) } else { summarize(&run.records) };
    let caption = run.matchup.as_ref().map_or("Results".to_string(), |m| {
        if m.description.is_empty() { m.name.clone() } else { m.description.clone() }
    });
    let mut text = match args.format {
        TableFormat::Text => table(&stats),
        TableFormat::Markdown => mnklab::plot::tables::markdown_table(&stats),
        TableFormat::Latex => mnklab::plot::tables::latex_table(&stats, &caption),
    };
    // What the games were played with: a table without it could not be told from another
    // run's of the same matchup.
    if let TableFormat::Text = args.format {
        match &run.conditions {
            Some(c) => {
                text.push_str(&c.describe());
                let mut counter = mnklab::arena::time_use::TimeUseCounter::new(c);
                run.records.iter().for_each(|r| counter.add(r));
                for u in counter.finish() {
                    text.push_str(&format!("time: {}\n", u.line()));
                }
            }
            None => text.push_str("played with: not recorded (a run of an older mnklab)\n"),
        }
    }
    // Games played again move for move add nothing: said, as the intervals count them.
    if let (TableFormat::Text, Some(note)) = (args.format, mnklab::arena::stats::repeats_note(&run.records)) {
        text.push_str(&note);
        text.push('\n');
    }
    // Colour-swapped pairs are not independent games: their pentanomial and its interval.
    if let (TableFormat::Text, Some(m)) = (args.format, &run.matchup) {
        let names: Vec<String> = match &run.conditions {
            Some(c) => c.entrants.iter().map(|e| e.name.clone()).collect(),
            None => m.resolve(&run.dir).map(|e| e.into_iter().map(|e| e.name).collect()).unwrap_or_default(),
        };
        for p in mnklab::arena::pairs::pentanomials(&run.records, m) {
            text.push_str(&format!("pairs: {}\n", p.line(&names)));
        }
    }
    // An external entrant is named by the program it ran, not only by its display name.
    if let (TableFormat::Text, Some(m)) = (args.format, &run.matchup)
        && let Ok(entrants) = m.resolve(&run.dir)
    {
        for (who, command) in Matchup::external_commands(&entrants) {
            text.push_str(&format!("external: {who} ran {command}\n"));
        }
    }
    match args.out {
        Some(path) => {
            mnklab::io::check_replace(&path, text.as_bytes(), args.force).map_err(|e| format!("--out: {e}"))?;
            mnklab::io::write_atomic(&path, text.as_bytes()).map_err(|e| e.to_string())?;
            println!("wrote {}", path.display());
        }
        None => print!("{text}"),
    }
    Ok(())
}
