//! Dependency-based threat-space search against the sound AND/OR threat search, in one run,
//! on gomoku positions (15x15, five or more) played at random next to the stones already on
//! the board: how often each finds a win for the side to move, and the time each takes.
//!
//! `cargo run --release --example threat_plans -- [POSITIONS] [SEED] [SECONDS]`
//! (defaults 200, 1, 2): each search gets SECONDS a position; the AND/OR search deepens
//! 1, 2, ... 12 attacker moves (each search gives its line, as the CLI prints it), the
//! dependency-based one runs up to 6 stages, by default
//! (its probe first) and without its probe (the stages alone, `--no-probe`).

use std::time::{Duration, Instant};

use mnklab::bench::median;
use mnklab::eval::EvalBoard;
use mnklab::game::{AnyPosition, Position};
use mnklab::rng::{below, seeded};
use mnklab::search::solver::{DbEnd, DbSearch, ThreatSearch};
use mnklab::with_position;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let count: usize = args.first().map_or(200, |a| a.parse().expect("POSITIONS: a count"));
    let seed: u64 = args.get(1).map_or(1, |a| a.parse().expect("SEED: a number"));
    let secs: f64 = args.get(2).map_or(2.0, |a| a.parse().expect("SECONDS: a number"));
    let mut rng = seeded(seed);
    let game = "mnk:15,15,5".parse().expect("a game");
    let (mut both, mut only_db, mut only_sound, mut neither, mut refused) = (0, 0, 0, 0, 0);
    let (mut t_db, mut t_sound) = (Vec::new(), Vec::new());
    let (mut db_stopped, mut sound_stopped) = (0, 0);
    let mut done = 0;
    let (mut all_db, mut all_sound) = (0.0, 0.0);
    let (mut probe_wins, mut stages_wins, mut stages_stopped, mut all_stages) = (0, 0, 0, 0.0);
    let mut t_stages = Vec::new();
    while done < count {
        let stones = 12 + below(&mut rng, 29);
        let Some(pos) = near_play(game, &mut rng, stones) else { continue };
        let me = pos.side_to_move();
        let board0 = with_position!(&pos, p => EvalBoard::new(p, |_, _, _| 0).with_near_windows());
        if board0.has_threat_window(me) || board0.has_threat_window(me.other()) {
            continue; // a four on the board: a one-move question
        }
        done += 1;
        // One dependency-based search (with its probe or without), timed.
        let run_db = |no_probe: bool| {
            let start = Instant::now();
            let deadline = Some(start + Duration::from_secs_f64(secs));
            let mut db = DbSearch::new(0).with_deadline(deadline);
            if no_probe {
                db = db.without_probe();
            }
            let found = with_position!(&pos, p => {
                let mut p = p.clone();
                let mut board = board0.clone();
                db.winning_line(&mut p, &mut board, 6)
            });
            (found, start.elapsed().as_secs_f64())
        };
        // The AND/OR search deepening 1..=12: (won, stopped by the time, seconds).
        let run_sound = || {
            let start = Instant::now();
            let deadline = Some(start + Duration::from_secs_f64(secs));
            let mut sound = ThreatSearch::new(0).with_deadline(deadline).with_table_mb(256);
            let won = with_position!(&pos, p => {
                let mut p = p.clone();
                let mut board = board0.clone();
                let mut won = false;
                for depth in 1..=12 {
                    if sound.winning_line(&mut p, &mut board, me, depth).is_some() {
                        won = true;
                        break;
                    }
                    if sound.aborted() {
                        break;
                    }
                }
                won
            });
            (won, sound.aborted() && !won, start.elapsed().as_secs_f64())
        };
        // Alternated: the order flips every position, so neither search always meets a cold
        // cache first.
        let ((db_win, db_secs), (stages_win, stages_secs), (sound_win, sound_aborted, sound_secs)) = if done % 2 == 1 {
            let a = run_db(false);
            let b = run_db(true);
            (a, b, run_sound())
        } else {
            let c = run_sound();
            let b = run_db(true);
            (run_db(false), b, c)
        };
        if matches!(db_win, Err(DbEnd::Stopped)) {
            db_stopped += 1;
        }
        if matches!(db_win, Err(DbEnd::DefenderFour)) {
            refused += 1;
        }
        probe_wins += db_win.as_ref().is_ok_and(|w| w.probe) as usize;
        all_stages += stages_secs;
        stages_wins += stages_win.is_ok() as usize;
        stages_stopped += matches!(stages_win, Err(DbEnd::Stopped)) as usize;
        all_db += db_secs;
        all_sound += sound_secs;
        sound_stopped += sound_aborted as usize;
        match (db_win.is_ok(), sound_win) {
            (true, true) => {
                both += 1;
                t_db.push(db_secs);
                t_sound.push(sound_secs);
                t_stages.push(stages_secs);
            }
            (true, false) => only_db += 1,
            (false, true) => only_sound += 1,
            (false, false) => neither += 1,
        }
        if db_win.is_ok() != sound_win {
            eprintln!(
                "{} stones {}: db {:?} sound {}",
                stones,
                pos.history_string(),
                db_win.as_ref().map(|w| w.plan.len()),
                sound_win
            );
        }
    }
    println!(
        "{count} gomoku positions (seed {seed}, {secs} s a search): wins found by both {both}, only dependency-based {only_db}, only AND/OR {only_sound}, neither {neither} (defender fours refused {refused})"
    );
    println!(
        "wins found by the dependency-based search's probe: {probe_wins}; by the stages alone (no probe): {stages_wins}"
    );
    println!(
        "stopped by the time: dependency-based {db_stopped}, AND/OR {sound_stopped}, stages alone {stages_stopped}"
    );
    println!(
        "time over all positions: dependency-based {all_db:.2} s, AND/OR {all_sound:.2} s, stages alone {all_stages:.2} s"
    );
    let ratios: Vec<f64> = t_db.iter().zip(&t_sound).map(|(a, b)| a / b.max(1e-6)).collect();
    println!(
        "where both found a win: total time dependency-based {:.3} s, AND/OR {:.3} s; median time ratio (db / AND/OR) {:.3}",
        t_db.iter().sum::<f64>(),
        t_sound.iter().sum::<f64>(),
        median(&ratios).unwrap_or(f64::NAN)
    );
    let ratios: Vec<f64> = t_stages.iter().zip(&t_sound).map(|(a, b)| a / b.max(1e-6)).collect();
    println!(
        "there, the stages alone: total {:.3} s, median time ratio (stages alone / AND/OR) {:.3}",
        t_stages.iter().sum::<f64>(),
        median(&ratios).unwrap_or(f64::NAN)
    );
}

/// A position of `stones` moves, each at random among the empty neighbours of the stones
/// played (the first in the centre); None if the game ended on the way.
fn near_play(game: mnklab::game::Variant, rng: &mut impl rand::Rng, stones: usize) -> Option<AnyPosition> {
    let mut pos = AnyPosition::new(game);
    pos.play_sequence("h8").ok()?;
    for _ in 1..stones {
        let near: Vec<_> = with_position!(&pos, p => {
            let t = p.windows().clone();
            let mut all = Vec::new();
            p.legal_moves(&mut all);
            all.into_iter().filter(|&m| t.neighbours(p.move_cell(m)).iter().any(|&c| p.stone_on(c as usize).is_some())).collect()
        });
        pos.try_play(near[below(rng, near.len())]).ok()?;
        if pos.status().is_over() {
            return None;
        }
    }
    Some(pos)
}
