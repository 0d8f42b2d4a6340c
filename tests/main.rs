//! The integration tests, one binary: each module is one area of the product, tested through
//! the library's public API or the `mnklab` program, with data shipped in `tests/data/`.

#[cfg(feature = "gui")]
mod common;
mod positions;
#[path = "common/scratch.rs"]
mod scratch;

mod accuracy;
mod agents;
mod arena;
mod book;
mod brain;
mod cli;
mod dbsearch;
mod external;
mod figures_for_papers;
mod files;
mod fuzz;
mod gui;
mod gui_analysis;
mod gui_explorer;
mod hardening;
mod ladder;
mod playout_paths;
mod plot;
mod proof_search;
mod properties;
mod record;
mod review;
mod rules;
mod solver;
mod tactics;
mod threats;
