//! Pictures of plans (animated GIFs of a path replayed on its instance) and
//! charts ([`chart`]).
//!
//! The frames are built from [`crate::sim::states`], so what is drawn is the
//! simulator's view of the game, not the encoder's.

pub mod chart;
pub mod gif;
pub mod html;

pub use self::gif::{GifOptions, write_gif};
