//! Agents and the pieces they share. Generic over [`crate::game::Position`]; never draws.

pub mod playout;
