//! Pictures of plans (animated GIFs of a path replayed on its instance, and
//! the browser viewer [`html`]) and charts (`chart`).
//!
//! The GIFs and charts need the `render` feature (on by default, through
//! `cli`); the HTML viewer needs none.
//!
//! The frames are built from the simulator's replay
//! ([`crate::sim::replay_each`]), so what is drawn is the simulator's view of
//! the game, not the encoder's.

#[cfg(feature = "render")]
pub mod chart;
#[cfg(feature = "render")]
pub mod gif;
pub mod html;

#[cfg(feature = "render")]
pub use self::gif::{GifError, GifOptions, GifSummary, write_gif};

/// DejaVu Sans (see `assets/DejaVuSans-LICENSE.txt`): the charts' text and
/// the GIF counter, embedded so that nothing depends on system fonts.
#[cfg(feature = "render")]
const FONT: &[u8] = include_bytes!("../../assets/DejaVuSans.ttf");
