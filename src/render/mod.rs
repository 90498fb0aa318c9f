//! Pictures of plans (animated GIFs of a path replayed on its instance) and
//! charts ([`chart`]).
//!
//! The frames are built from the simulator's replay
//! ([`crate::sim::replay_each`]), so what is drawn is the simulator's view of
//! the game, not the encoder's.

pub mod chart;
pub mod gif;
pub mod html;

pub use self::gif::{GifError, GifOptions, GifSummary, write_gif};

/// DejaVu Sans (see `assets/DejaVuSans-LICENSE.txt`): the charts' text and
/// the GIF counter, embedded so that nothing depends on system fonts.
const FONT: &[u8] = include_bytes!("../../assets/DejaVuSans.ttf");
