//! snakesat: the Snake game as SAT.
//!
//! Data flows one way: an [`instance::Instance`] is encoded ([`encode`]) into
//! a [`cnf::Cnf`], solved by CaDiCaL ([`solve`]), turned back into a head path,
//! and checked by the independent simulator ([`sim`]) before anything is shown.

pub mod cnf;
pub mod encode;
pub mod family;
pub mod game;
pub mod instance;
pub mod pddl;
pub mod planner;
pub mod render;
pub mod report;
pub mod sim;
pub mod solve;
pub mod symmetry;
