//! The Gomocup "brain" protocol (Piskvork and compatible managers): one command a line on
//! standard input, answers on standard output, zero-based `x,y` with y counted from the top.

mod brain;
mod external;

pub use brain::{Brain, run_brain};
pub use external::{EngineError, ExternalAgent, ExternalConfig, Protocol, check_starts};
