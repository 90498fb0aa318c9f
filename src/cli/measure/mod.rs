//! Measurements the command line tabulates: encoding sizes on one instance
//! ([`sizes`]), IPC-2018 problem folders solved one child process each
//! ([`ipc`]), and sweeps of full games ([`game`]). Each builds its results
//! as [`super::table::Table`]s, which the command line prints or writes.

pub mod game;
pub mod ipc;
pub mod sizes;
