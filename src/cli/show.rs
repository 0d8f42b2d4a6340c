//! `mnklab show`: a position as text, its moves and its result.

use mnklab::game::Status;

use super::PositionArgs;

pub fn run(args: PositionArgs) -> Result<(), String> {
    let pos = args.position()?;
    print!("{}", pos.render());
    println!("game {}", pos.variant());
    if !pos.history().is_empty() {
        println!("moves {}", pos.history_string());
    }
    match pos.status() {
        Status::Ongoing => println!("to move {}", pos.side_to_move()),
        Status::Win(p) => println!("result {p} wins"),
        Status::Draw => println!("result draw"),
    }
    Ok(())
}
