//! `mnklab match`: run a matchup file on all cores, a game at a time into the output folder.

use std::path::PathBuf;

use clap::Args;
use mnklab::arena::{Matchup, RunOptions, run_matchup_summary, table};
use mnklab::search::SearchControl;

use super::{consent_to_external, parse_threads};

#[derive(Args)]
pub struct MatchArgs {
    /// The matchup (RON).
    file: PathBuf,
    /// Worker threads (default: the file's, else all cores).
    #[arg(long, value_parser = parse_threads)]
    threads: Option<usize>,
    /// Output folder (default: out/<matchup name>).
    #[arg(long)]
    out: Option<PathBuf>,
    /// Continue the games already in the output folder.
    #[arg(long)]
    resume: bool,
    /// Games per pairing and variant, instead of the file's.
    #[arg(long, value_parser = parse_games)]
    games: Option<u32>,
    /// Multiply every time budget (quick runs of long experiments).
    #[arg(long, default_value_t = 1.0, value_parser = parse_scale)]
    scale: f64,
    /// Run one slice of the games, I/N with I from 1 to N (as `book --part`): game g of the
    /// schedule (counted from 0) belongs to shard g mod N + 1. The games go into
    /// OUT/shard-I-of-N, so that every shard can be given the same --out; `mnklab merge
    /// OUT/shard-*-of-N --out ALL` joins them.
    #[arg(long, value_parser = parse_shard)]
    shard: Option<(u64, u64)>,
    /// Let entrants start the external programs the files name (the commands are shown otherwise).
    #[arg(long)]
    allow_external: bool,
}

pub fn run(args: MatchArgs) -> Result<(), String> {
    let matchup = Matchup::load(&args.file).map_err(|e| e.to_string())?;
    let base = args.file.parent().map(PathBuf::from).unwrap_or_default();
    let external = Matchup::external_commands(&matchup.resolve(&base).map_err(|e| e.to_string())?);
    consent_to_external(&external, args.allow_external)?;
    if args.shard.is_some() && matchup.sprt.is_some() {
        // An SPRT stops a pairing from all of its games; a shard sees only its slice, so each
        // would stop at its own point and the shards could never be merged.
        return Err(format!(
            "{}: a matchup with an SPRT cannot be split into shards (each shard would stop its own \
             test); remove `sprt` and set `games` for a sharded run, or run it whole",
            args.file.display()
        ));
    }
    let mut out = args.out.unwrap_or_else(|| matchup.default_out_dir());
    if let Some((i, n)) = args.shard {
        let folder = format!("shard-{}-of-{n}", i + 1);
        if !out.ends_with(&folder) {
            out = out.join(folder);
        }
        println!("shard {} of {n}: games into {}", i + 1, out.display());
    }
    let opts = RunOptions {
        threads: args.threads.unwrap_or(0),
        out: out.clone(),
        resume: args.resume,
        scale: args.scale,
        games: args.games,
        shard: args.shard,
    };
    let bar = indicatif::ProgressBar::new(0);
    bar.set_style(
        indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} games, {elapsed} elapsed, {eta} left  {msg}")
            .expect("valid template"),
    );
    let control = SearchControl::new();
    // Each warning once on stderr, when first heard (each game keeps its own in results.ronl).
    let mut warned = std::collections::HashSet::new();
    let summary = run_matchup_summary(&matchup, &base, &opts, &control, |p| {
        bar.set_length(p.total);
        bar.set_position(p.done);
        let g = &p.game;
        bar.set_message(format!("last: {} vs {} {:?}", g.names[0], g.names[1], g.outcome));
        // Forfeits are news the moment they happen (an engine that does not start loses every game).
        if let (Some(side), Some(reason)) = (g.forfeit, &g.forfeit_reason) {
            bar.suspend(|| eprintln!("game {}: {} forfeits: {reason}", g.index, g.names[side as usize]));
        }
        for w in g.warnings.iter().filter(|w| warned.insert(w.to_string())) {
            bar.suspend(|| eprintln!("game {}: {w}", g.index));
        }
    })
    .map_err(|e| e.to_string())?;
    bar.finish_and_clear();
    print!("{}", table(&summary.stats));
    if summary.stats.iter().any(|s| s.medians_thinned) {
        println!("medians of an evenly thinned sample of the moves (means are of every move)");
    }
    if let Some(t) = &matchup.sprt {
        for s in &summary.stats {
            println!("{}", mnklab::arena::stats::sprt_line(s, t.elo0, t.elo1, t.alpha, t.beta));
        }
    }
    for (who, command) in &external {
        println!("external: {who} ran {command}");
    }
    for u in &summary.time_use {
        println!("time: {}", u.line());
    }
    let forfeits = summary.forfeits;
    if forfeits > 0 {
        println!("{forfeits} games ended by forfeit (reasons in games.csv)");
    }
    let unsearched = summary.unsearched_moves;
    if unsearched > 0 {
        println!("{unsearched} moves were played unsearched: a limit ended the search first (moves.csv)");
    }
    println!("{} games in {} (results.ronl, games.csv, moves.csv)", summary.games, out.display());
    Ok(())
}

fn parse_scale(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(x) if x > 0.0 && x <= 1e6 => Ok(x),
        _ => Err(format!("'{s}' is not a factor above 0 and at most 1000000")),
    }
}

/// A shard I/N, 1 <= I <= N, as the 0-based (I - 1, N) the library counts with.
fn parse_shard(s: &str) -> Result<(u64, u64), String> {
    let bad = || format!("'{s}' is not a shard: write I/N with 1 <= I <= N, e.g. 3/10");
    let (i, n) = s.split_once('/').ok_or_else(bad)?;
    let (i, n): (u64, u64) = (i.trim().parse().map_err(|_| bad())?, n.trim().parse().map_err(|_| bad())?);
    if n == 0 || i == 0 || i > n {
        return Err(bad());
    }
    Ok((i - 1, n))
}

/// Games per pairing: the same rule as every other count, and it must fit the file's field.
fn parse_games(s: &str) -> Result<u32, String> {
    let n = super::parse_count(s)?;
    u32::try_from(n).map_err(|_| format!("{n} games per pairing is more than {}", u32::MAX))
}
