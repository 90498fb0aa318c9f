//! Animated GIFs of a plan, one frame per drawn time point.
//!
//! # Picture
//!
//! The grid is drawn at the top left of the image: cell `(x, y)` lies between
//! the 1-pixel grid lines at pixel columns `x * cell` and `(x + 1) * cell`
//! and rows `y * cell` and `(y + 1) * cell`; its centre pixel is
//! [`cell_centre`]`(cell, (x, y))` = `(x * cell + cell / 2, y * cell + cell / 2)`.
//! Without [`GifOptions::cell`] the cell size is `default_cell`, which makes
//! the board about `TARGET_PIXELS` = 400 pixels across. Under the grid a
//! strip shows the counter `step 20/45 · apples 4/9 · length 7` (on the last
//! frame of a lost game followed by ` · lost`) in DejaVu Sans (the font the charts embed, rasterised with `ab_glyph`, the rasteriser
//! plotters uses; two shades smooth its edges). The image is widened beyond
//! the grid only when the counter would not fit otherwise.
//!
//! Each frame draws, in this order: background, grid lines, walls, the next
//! apple of the ordered list not yet revealed (a pale ring around a dot;
//! not in a full game's animation, whose next apple is not known yet), the
//! body, the head, and the revealed apples not yet eaten (red discs with a
//! highlight; drawn last so that an apple waiting under the body stays
//! visible). An apple revealed on the head's own cell (a spawn chain may
//! put the next apple where the last one was eaten) is drawn before the
//! snake instead, so the head covers it until it moves on.
//!
//! The body is one band: a disc of `band_half_width` around the centre of
//! each body cell, and between two cells consecutive in the body a bar along
//! the line joining their centres, across the grid line. Two adjacent cells
//! that are not consecutive in the body are not joined: the band stays
//! `band_half_width` from each centre, so the pixels next to the grid line
//! between them keep the background. The last `TAPER` cells narrow towards
//! the tail. The band's colour is a gradient of `BODY_SHADES` greens, dark
//! at the neck and light at the tail. The head is a dark blue disc with two
//! eyes (one bright pixel when cells are under 12 pixels) towards the
//! direction of its last move.
//!
//! All shapes, including the head and the apples, cover their cell's centre
//! pixel, so a decoder can read the board back from the centre pixels.
//!
//! # Palette
//!
//! One global palette of [`PALETTE`]`.len()` = 32 colours; no local palettes.
//! Index meanings: `BACKGROUND` 0, `GRID` 1, `WALL` 2, `APPLE` 3,
//! `NEXT_APPLE` 4, `HEAD` 5, `TEXT` 6, `STRIP` 7, `EYE` 8,
//! `SHINE` 9, `TEXT_SHADE` 10 and 11 (the text's edges, light then
//! dark), `BODY + k` = 12 + k for the body shades `k = 0..19` ([`BODY_RGBS`],
//! `k = 0` next to the head), and `TRANSPARENT` 31, never drawn: the
//! transparent index of the later frames.
//!
//! # Frames
//!
//! One frame per time point of `frame_times``(T, skip)` for a path of `T`
//! moves, plus [`GifOptions::pause_frames`] copies of the last one. Without
//! [`GifOptions::skip`] the skip is `auto_skip`: every time point while the
//! animation lasts at most about 45 s (`TARGET_DURATION_CS`), otherwise the
//! least skip that keeps it under that, or the least skip that keeps the
//! pixels drawn in all (frames × pixels of a frame) within
//! `MAX_ANIMATION_PIXELS` when that is larger; a given skip (or cell size)
//! beyond that limit is refused before anything is drawn. An automatic skip
//! above 1 also draws, for each apple that is on the board only between two
//! of its time points, the step before it is eaten (`apple_frames`), so that
//! every apple is seen; the skip grows until those frames fit within both
//! limits too, and when no skip lets them fit, none is added. Every frame waits
//! [`GifOptions::delay_cs`] except the very last frame of the file, which
//! waits [`GifOptions::last_frame_delay_cs`]: that longer delay is the pause
//! before the animation loops (it loops forever). The first frame covers the
//! whole image; each later frame covers only the bounding rectangle of the
//! pixels that changed since the previous frame (its `left` / `top` set,
//! disposal "keep"), unchanged pixels inside it being `TRANSPARENT` (which
//! compresses well), or a single transparent pixel at `(0, 0)` when nothing
//! changed.

use std::io::{BufWriter, Write};

use ab_glyph::{Font, FontRef, GlyphId, PxScale, ScaleFont, point};
use gif::{DisposalMethod, Encoder, Frame, Repeat};
use thiserror::Error;

use crate::instance::{Instance, InstanceError, Pos};
use crate::sim::{State, Violation, replay_each};

/// The most pixels a frame may have (about 7,000 × 7,000): the writer holds
/// the canvas, the previous frame and the frame being encoded, so a frame
/// this large already takes a few hundred megabytes.
const MAX_FRAME_PIXELS: usize = 50_000_000;

/// The most pixels an animation may draw in all: its frames (pause frames
/// included) times the pixels of a frame. Each frame is drawn, compared
/// with the previous one and the changed rectangle encoded, so the time
/// grows with this product: about 7 s at the limit on the shared 2-core
/// machine (140 million pixels a second, a snake filling an 8x8 board).
/// Every GIF of the README is far below it (the largest, 190 million).
const MAX_ANIMATION_PIXELS: usize = 1_000_000_000;

/// Why an animation cannot be written.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum GifError {
    /// The instance breaks a rule of the model ([`Instance::validate_game`]).
    #[error("invalid instance: {0}")]
    Instance(#[from] InstanceError),
    /// Cells smaller than 4 pixels.
    #[error("cell size {cell} is too small (at least 4 pixels)")]
    CellTooSmall {
        /// The cell size asked for, in pixels.
        cell: u16,
    },
    /// The path breaks a rule of the game (the first rule it breaks).
    #[error("the path is not legal: {0}")]
    Illegal(Violation),
    /// An image beyond GIF's 65535 × 65535 pixels.
    #[error("the image would be {width}x{height} pixels, more than a GIF allows (65535)")]
    TooLarge {
        /// The image width, in pixels.
        width: usize,
        /// The image height, in pixels.
        height: usize,
    },
    /// A frame of more than `MAX_FRAME_PIXELS`: refused before any
    /// drawing (the writer keeps a few copies of a frame in memory).
    #[error(
        "the image would be {width}x{height} pixels, more than the {max} million pixels a frame may have \
         (choose a smaller cell size)",
        max = MAX_FRAME_PIXELS / 1_000_000
    )]
    TooManyPixels {
        /// The image width, in pixels.
        width: usize,
        /// The image height, in pixels.
        height: usize,
    },
    /// More pixels to draw in all (frames × pixels of a frame) than an
    /// animation may draw, 1,000 million: refused before any drawing.
    #[error(
        "the animation would draw {frames} frames of {width}x{height} pixels ({total} pixels), \
         more than the {max} million pixels an animation may draw (choose a larger skip, --skip, \
         or a smaller cell size, --cell)",
        max = MAX_ANIMATION_PIXELS / 1_000_000
    )]
    TooMuchToDraw {
        /// The frames, pause frames included.
        frames: usize,
        /// The image width, in pixels.
        width: usize,
        /// The image height, in pixels.
        height: usize,
        /// `frames × width × height`.
        total: u128,
    },
    /// [`GifError::TooMuchToDraw`] known before the path exists, from the
    /// least moves it can have and the board's grid alone.
    #[error(
        "the animation would draw at least {frames} frames of at least {width}x{height} pixels \
         ({total} pixels), more than the {max} million pixels an animation may draw (choose a larger \
         skip, --skip, or a smaller cell size, --cell)",
        max = MAX_ANIMATION_PIXELS / 1_000_000
    )]
    TooMuchToDrawAtLeast {
        /// The least frames.
        frames: usize,
        /// The grid's width, in pixels.
        width: usize,
        /// The grid's height, in pixels.
        height: usize,
        /// `frames × width × height`.
        total: u128,
    },
    /// The GIF encoder failed.
    #[error(transparent)]
    Encoding(#[from] gif::EncodingError),
    /// Writing failed.
    #[error(transparent)]
    Io(#[from] std::io::Error),
}

/// Palette index of the background.
const BACKGROUND: u8 = 0;
/// Palette index of the grid lines.
const GRID: u8 = 1;
/// Palette index of the walls.
const WALL: u8 = 2;
/// Palette index of revealed, uneaten apples.
const APPLE: u8 = 3;
/// Palette index of the next apple of the list, not yet revealed.
const NEXT_APPLE: u8 = 4;
/// Palette index of the head.
const HEAD: u8 = 5;
/// Palette index of the counter's text.
const TEXT: u8 = 6;
/// Palette index of the counter strip's background.
const STRIP: u8 = 7;
/// Palette index of the head's eyes.
const EYE: u8 = 8;
/// Palette index of an apple's highlight.
const SHINE: u8 = 9;
/// Palette index of the lighter of the two shades on the text's edges (the
/// darker one is `TEXT_SHADE + 1`).
const TEXT_SHADE: u8 = 10;
/// Palette index of the first body shade (next to the head); the shade `k`
/// of [`BODY_RGBS`] has index `BODY + k`.
const BODY: u8 = 12;
/// Number of body shades.
const BODY_SHADES: usize = 19;
/// Palette index of the later frames' transparent pixels (never drawn).
const TRANSPARENT: u8 = 31;

/// The board's background.
pub const BACKGROUND_RGB: [u8; 3] = [245, 245, 235];
/// The lines between cells.
pub const GRID_RGB: [u8; 3] = [214, 214, 204];
/// Walls.
pub const WALL_RGB: [u8; 3] = [70, 70, 70];
/// The apples on the board.
pub const APPLE_RGB: [u8; 3] = [220, 30, 30];
/// The next apple to be revealed.
pub const NEXT_APPLE_RGB: [u8; 3] = [240, 150, 150];
/// The snake's head.
pub const HEAD_RGB: [u8; 3] = [20, 40, 140];
/// The counter's text.
pub const TEXT_RGB: [u8; 3] = [30, 30, 30];
/// The strip under the board that holds the counter.
pub const STRIP_RGB: [u8; 3] = [225, 225, 215];
/// The head's eyes.
pub const EYE_RGB: [u8; 3] = [255, 255, 255];
/// An apple's highlight.
pub const SHINE_RGB: [u8; 3] = [250, 190, 180];
/// The text's edges: a third and two thirds of the way from the strip to the
/// text.
pub const TEXT_SHADE_RGBS: [[u8; 3]; 2] = [[160, 160, 153], [95, 95, 92]];
/// The transparent index's colour (never drawn).
pub const TRANSPARENT_RGB: [u8; 3] = [255, 0, 255];
/// Body shades, from the cell next to the head (dark) to the tail (light).
pub const BODY_RGBS: [[u8; 3]; BODY_SHADES] = body_shades();

const fn body_shades() -> [[u8; 3]; BODY_SHADES] {
    const NECK: [u8; 3] = [14, 96, 38];
    const TAIL: [u8; 3] = [176, 224, 150];
    let mut out = [[0; 3]; BODY_SHADES];
    let last = BODY_SHADES - 1;
    let mut k = 0;
    while k < BODY_SHADES {
        let mut c = 0;
        while c < 3 {
            let (a, b) = (NECK[c] as usize, TAIL[c] as usize);
            out[k][c] = ((a * (last - k) + b * k) / last) as u8;
            c += 1;
        }
        k += 1;
    }
    out
}

const fn palette() -> [[u8; 3]; 32] {
    let mut p = [TRANSPARENT_RGB; 32];
    p[BACKGROUND as usize] = BACKGROUND_RGB;
    p[GRID as usize] = GRID_RGB;
    p[WALL as usize] = WALL_RGB;
    p[APPLE as usize] = APPLE_RGB;
    p[NEXT_APPLE as usize] = NEXT_APPLE_RGB;
    p[HEAD as usize] = HEAD_RGB;
    p[TEXT as usize] = TEXT_RGB;
    p[STRIP as usize] = STRIP_RGB;
    p[EYE as usize] = EYE_RGB;
    p[SHINE as usize] = SHINE_RGB;
    p[TEXT_SHADE as usize] = TEXT_SHADE_RGBS[0];
    p[TEXT_SHADE as usize + 1] = TEXT_SHADE_RGBS[1];
    let mut k = 0;
    while k < BODY_SHADES {
        p[BODY as usize + k] = BODY_RGBS[k];
        k += 1;
    }
    p
}

/// The global palette, indexed by the constants above.
pub const PALETTE: [[u8; 3]; 32] = palette();

/// The board's size in pixels that `default_cell` aims at (the longer side).
const TARGET_PIXELS: usize = 400;
/// The longest animation `auto_skip` keeps every time point for, in
/// centiseconds (45 s).
const TARGET_DURATION_CS: usize = 4500;
/// How many cells at the tail end narrow towards it.
const TAPER: usize = 3;

/// How the animation looks and runs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GifOptions {
    /// Pixels per cell, grid line included (at least 4); `None` (the
    /// default) makes the board's longer side about 400 pixels: ⌈400 /
    /// side⌉, at least 4 (134 on 3×3, 40 on 10×10, 14 on 30×30).
    pub cell: Option<u16>,
    /// Delay of each frame, in centiseconds. Default 15.
    pub delay_cs: u16,
    /// Extra copies of the last frame (each waits `delay_cs`, the very last
    /// `last_frame_delay_cs`). Default 0.
    pub pause_frames: usize,
    /// Delay of the very last frame, the pause before looping. Default 150.
    pub last_frame_delay_cs: u16,
    /// Draw only every `skip`-th time point (`0, skip, 2 skip, ...`), always
    /// keeping the last one; `None` (the default) picks the least skip that
    /// keeps the animation within about 45 s at `delay_cs` (every time
    /// point up to 299 moves at 15 cs; delays below 2 cs count as 10, as
    /// viewers play them), or more to stay within the pixels an animation
    /// may draw ([`GifError::TooMuchToDraw`]), with the step before each
    /// apple eaten between two drawn time points drawn too
    /// ([`GifSummary::apple_frames`]) when that fits.
    pub skip: Option<usize>,
    /// The path is a game lost at its end (`play`): the last time point's
    /// counter ends in " · lost". Default false.
    pub lost: bool,
    /// Draw the next apple of the ordered list before it is revealed (a
    /// pale ring). Default true; `play` turns it off, since a game's next
    /// apple is drawn at random only once the last one is eaten.
    pub next_apple: bool,
}

impl Default for GifOptions {
    fn default() -> Self {
        GifOptions {
            cell: None,
            delay_cs: 15,
            pause_frames: 0,
            last_frame_delay_cs: 150,
            skip: None,
            lost: false,
            next_apple: true,
        }
    }
}

/// What [`write_gif`] wrote.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GifSummary {
    /// Image width, in pixels.
    pub width: u16,
    /// Image height, in pixels.
    pub height: u16,
    /// Pixels per cell.
    pub cell: u16,
    /// Every how many time points a frame was drawn.
    pub skip: usize,
    /// Frames drawn besides those time points, each the step before an
    /// apple that no other frame shows is eaten (an automatic skip only).
    pub apple_frames: usize,
    /// Frames in the file, pause frames included.
    pub frames: usize,
}

/// The cell size that makes a `width` × `height` board about
/// `TARGET_PIXELS` across its longer side: `⌈400 / side⌉`, at least 4
/// (134 on 3×3, 40 on 10×10, 25 on 16×16, 14 on 30×30, 4 from 100 cells on).
fn default_cell(width: usize, height: usize) -> u16 {
    let side = width.max(height).max(1);
    TARGET_PIXELS.div_ceil(side).max(4) as u16
}

/// The least skip that keeps an animation of a `moves`-move path, at
/// `delay_cs` per frame, within about `TARGET_DURATION_CS`: 1 (every time
/// point) when `moves + 1` frames fit, e.g. up to 299 moves at 15 cs.
/// Delays below 2 cs count as `SHOWN_FAST_DELAY_CS`, as browsers and
/// viewers play them.
fn auto_skip(moves: usize, delay_cs: u16) -> usize {
    moves.div_ceil(duration_frames(delay_cs) - 1).max(1)
}

/// The frames that last about `TARGET_DURATION_CS` at `delay_cs` each (at
/// least 2). Delays below 2 cs count as `SHOWN_FAST_DELAY_CS`.
fn duration_frames(delay_cs: u16) -> usize {
    let shown = if delay_cs < 2 {
        SHOWN_FAST_DELAY_CS
    } else {
        delay_cs
    };
    (TARGET_DURATION_CS / usize::from(shown)).max(2)
}

/// The least skip that keeps an animation of a `moves`-move path, with
/// `pause_frames` pause frames of `pixels` pixels each, within
/// `MAX_ANIMATION_PIXELS` (1 when every time point fits; a path of 1 frame
/// or 2, the first and last time points, cannot be drawn with fewer).
fn least_skip_within_budget(moves: usize, pixels: usize, pause_frames: usize) -> usize {
    let frames = budget_frames(pixels, pause_frames);
    // `⌈moves / skip⌉ + 1` frames: the time points 0, skip, … and the last.
    match frames {
        0..=2 => moves.max(1),
        n => moves.div_ceil(n - 1).max(1),
    }
}

/// The frames of `pixels` pixels each that fit in `MAX_ANIMATION_PIXELS`
/// beside `pause_frames` pause frames.
fn budget_frames(pixels: usize, pause_frames: usize) -> usize {
    (MAX_ANIMATION_PIXELS / pixels.max(1)).saturating_sub(pause_frames)
}

/// How long browsers and most viewers show a frame whose stored delay is 0
/// or 1 cs, in centiseconds.
const SHOWN_FAST_DELAY_CS: u16 = 10;

/// The centre pixel `(column, row)` of cell `p` with `cell` pixels per cell.
pub fn cell_centre(cell: u16, p: Pos) -> (usize, usize) {
    let c = usize::from(cell);
    (p.0 * c + c / 2, p.1 * c + c / 2)
}

/// The half-width of the body's band at full width, in pixels: the band is
/// `2 h + 1` pixels wide around the centre line, `7/20` of a cell on each
/// side.
fn band_half_width(cell: u16) -> usize {
    (usize::from(cell) * 7 / 20).max(1)
}

/// Refuses a GIF whose board alone (`width` × `height` cells of `cell`
/// pixels, or of the default size) already exceeds a frame's limits, before
/// a game or a search produces the path: a frame is at least that large.
/// [`write_gif`] checks the whole frame and animation again.
pub fn check_board_size(width: usize, height: usize, cell: Option<u16>) -> Result<(), GifError> {
    board_grid(width, height, cell).map(|_| ())
}

/// The pixels across and down of the grid of a `width` × `height` board of
/// `cell` pixels (or the default size), refused as [`check_board_size`] says.
fn board_grid(width: usize, height: usize, cell: Option<u16>) -> Result<(usize, usize), GifError> {
    let cell = cell.unwrap_or_else(|| default_cell(width, height));
    if cell < 4 {
        return Err(GifError::CellTooSmall { cell });
    }
    let c = usize::from(cell);
    let side = |cells: usize| cells.saturating_mul(c).saturating_add(1);
    let (grid_w, grid_h) = (side(width), side(height));
    if u16::try_from(grid_w).is_err() || u16::try_from(grid_h).is_err() {
        return Err(GifError::TooLarge {
            width: grid_w,
            height: grid_h,
        });
    }
    if grid_w * grid_h > MAX_FRAME_PIXELS {
        return Err(GifError::TooManyPixels {
            width: grid_w,
            height: grid_h,
        });
    }
    Ok((grid_w, grid_h))
}

/// Refuses, before the path exists, an animation at a given `skip` that
/// must draw too much: a path of at least `least_moves` moves on a `width` ×
/// `height` board of `cell` pixels (or the default size) has at least its
/// frames, each at least the board's grid ([`write_gif`] checks the real
/// path again). Without a `skip` the skip grows to fit, so nothing is refused.
pub fn check_least_animation(
    width: usize,
    height: usize,
    cell: Option<u16>,
    least_moves: usize,
    skip: Option<usize>,
) -> Result<(), GifError> {
    let (grid_w, grid_h) = board_grid(width, height, cell)?;
    let Some(skip) = skip else { return Ok(()) };
    let frames = frame_count(least_moves, skip);
    let total = frames as u128 * (grid_w * grid_h) as u128;
    if total > MAX_ANIMATION_PIXELS as u128 {
        return Err(GifError::TooMuchToDrawAtLeast {
            frames,
            width: grid_w,
            height: grid_h,
            total,
        });
    }
    Ok(())
}

/// How many time points [`frame_times`] gives, without building the list.
fn frame_count(moves: usize, skip: usize) -> usize {
    let skip = skip.max(1);
    moves / skip + 1 + usize::from(!moves.is_multiple_of(skip))
}

/// The time points drawn for a path of `moves` moves, one frame each (before
/// the pause frames): `0, skip, 2 skip, ...` up to `moves`, plus `moves`
/// itself when `skip` does not divide it. A `skip` of 0 counts as 1.
fn frame_times(moves: usize, skip: usize) -> Vec<usize> {
    let mut times: Vec<usize> = (0..=moves).step_by(skip.max(1)).collect();
    if times.last() != Some(&moves) {
        times.push(moves);
    }
    times
}

/// The steps on the board of each apple eaten: from the time point at
/// which it is revealed to the one before it is eaten, sorted by their
/// ends; an apple eaten as it is revealed has none. A frame at any of
/// them shows the apple.
fn apple_windows(instance: &Instance, path: &[Pos]) -> Result<Vec<(usize, usize)>, Violation> {
    let mut revealed_at = Vec::new();
    let replay = replay_each(instance, path, |moment| {
        while revealed_at.len() < moment.revealed() {
            revealed_at.push(moment.time);
        }
    })?;
    let mut windows: Vec<(usize, usize)> = replay
        .eaten
        .iter()
        .filter_map(|&(apple, eaten)| {
            let shown = *revealed_at.get(apple)?;
            (shown < eaten).then_some((shown, eaten - 1))
        })
        .collect();
    windows.sort_unstable_by_key(|&(_, last)| last);
    Ok(windows)
}

/// The frames to add to every `skip`-th time point so that each apple's
/// window ([`apple_windows`], sorted by their ends) holds a frame: the last
/// step of each window that holds none, fewest first (an added frame
/// serves every later window it falls in).
fn apple_frames(windows: &[(usize, usize)], skip: usize) -> Vec<usize> {
    let skip = skip.max(1);
    let mut added: Vec<usize> = Vec::new();
    for &(first, last) in windows {
        let regular = first.div_ceil(skip) * skip <= last;
        if !regular && added.last().is_none_or(|&t| t < first) {
            added.push(last);
        }
    }
    added
}

/// The time points drawn, with the skip: a given skip as it is, or the
/// automatic one (`base`, see [`GifOptions::skip`]) made larger if needed,
/// up to [`APPLE_SKIP_GROWTH`] times, so that the frames added for apples
/// ([`apple_frames`]) fit within `limit` frames too; when no such skip lets
/// them fit, `base` without them.
fn timeline(
    moves: usize,
    given: Option<usize>,
    base: usize,
    limit: usize,
    windows: &[(usize, usize)],
) -> (Vec<usize>, usize, usize) {
    if let Some(skip) = given {
        return (frame_times(moves, skip), skip, 0);
    }
    let largest = base.saturating_mul(APPLE_SKIP_GROWTH).min(moves).max(base);
    let fitting = (base..=largest).find_map(|skip| {
        let added = apple_frames(windows, skip);
        (frame_count(moves, skip) + added.len() <= limit).then_some((skip, added))
    });
    let Some((skip, added)) = fitting else {
        return (frame_times(moves, base), base, 0);
    };
    let mut times = frame_times(moves, skip);
    let count = added.len();
    times.extend(added);
    times.sort_unstable();
    times.dedup();
    (times, skip, count)
}

/// How many times the automatic skip may grow to make room for the apples'
/// frames: beyond it the animation would skip too much to follow (and the
/// search, each skip a pass over the apples, would take seconds on 64x64).
const APPLE_SKIP_GROWTH: usize = 4;

/// Writes the animation of `path` on `instance` as a GIF to `out`.
///
/// The path is replayed with [`crate::sim::replay_each`]: an illegal move is
/// an error (found by a first replay, before anything is written), but a
/// legal path that leaves apples uneaten is still drawn. An instance that
/// [`Instance::validate_game`] refuses is refused first. Each frame is drawn
/// and encoded as the replay reaches its time point, so the memory used is
/// that of a few frames and one board, whatever the plan's length.
pub fn write_gif(
    instance: &Instance,
    path: &[Pos],
    options: &GifOptions,
    out: impl Write,
) -> Result<GifSummary, GifError> {
    instance.validate_game()?;
    let cell = options
        .cell
        .unwrap_or_else(|| default_cell(instance.width, instance.height));
    if cell < 4 {
        return Err(GifError::CellTooSmall { cell });
    }
    let windows = apple_windows(instance, path).map_err(GifError::Illegal)?;
    let moves = path.len() - 1;
    let layout = Layout::new(instance, cell, moves, options)?;
    let base = auto_skip(moves, options.delay_cs).max(least_skip_within_budget(
        moves,
        layout.pixels(),
        options.pause_frames,
    ));
    let limit =
        duration_frames(options.delay_cs).min(budget_frames(layout.pixels(), options.pause_frames));
    let (times, skip, apple_frames) = timeline(
        moves,
        options.skip.map(|skip| skip.max(1)),
        base,
        limit,
        &windows,
    );
    let frames = times.len().saturating_add(options.pause_frames);
    let total = frames as u128 * layout.pixels() as u128;
    if total > MAX_ANIMATION_PIXELS as u128 {
        return Err(GifError::TooMuchToDraw {
            frames,
            width: usize::from(layout.width),
            height: usize::from(layout.height),
            total,
        });
    }

    let flat: Vec<u8> = PALETTE.iter().flatten().copied().collect();
    let mut encoder = Encoder::new(BufWriter::new(out), layout.width, layout.height, &flat)?;
    encoder.set_repeat(Repeat::Infinite)?;

    let mut frames = Frames {
        canvas: vec![BACKGROUND; layout.pixels()],
        previous: None,
        written: 0,
        total: times.len() + options.pause_frames,
        layout,
        encoder,
    };
    let mut next = times.iter().copied().peekable();
    let mut failed = None;
    replay_each(instance, path, |moment| {
        if failed.is_some() || next.next_if_eq(&moment.time).is_none() {
            return;
        }
        let state = moment.state();
        let time = moment.time;
        frames.layout.draw(
            instance,
            &state,
            time,
            heading(path, &state, time),
            &mut frames.canvas,
        );
        if let Err(e) = frames.write(options) {
            failed = Some(e);
        }
    })
    .map_err(GifError::Illegal)?;
    if let Some(e) = failed {
        return Err(e);
    }
    // The pause frames repeat the last one: the canvas is unchanged.
    while frames.written < frames.total {
        frames.write(options)?;
    }
    frames
        .encoder
        .into_inner()?
        .into_inner()
        .map_err(|e| e.into_error())?
        .flush()?;
    Ok(GifSummary {
        width: frames.layout.width,
        height: frames.layout.height,
        cell,
        skip,
        apple_frames,
        frames: frames.total,
    })
}

/// The frames of an animation being written: the canvas drawn last and the
/// one written before it, of which each frame after the first is the delta.
struct Frames<W: Write> {
    layout: Layout,
    encoder: Encoder<BufWriter<W>>,
    canvas: Vec<u8>,
    previous: Option<Vec<u8>>,
    /// Frames written so far, out of `total`.
    written: usize,
    total: usize,
}

impl<W: Write> Frames<W> {
    /// Writes the canvas as the next frame.
    fn write(&mut self, options: &GifOptions) -> Result<(), GifError> {
        let layout = &self.layout;
        let mut frame = match &self.previous {
            None => {
                Frame::from_indexed_pixels(layout.width, layout.height, self.canvas.clone(), None)
            }
            Some(prev) => layout.delta(prev, &self.canvas),
        };
        frame.dispose = DisposalMethod::Keep;
        self.written += 1;
        frame.delay = if self.written == self.total {
            options.last_frame_delay_cs
        } else {
            options.delay_cs
        };
        self.encoder.write_frame(&frame)?;
        match &mut self.previous {
            Some(prev) => prev.copy_from_slice(&self.canvas),
            None => self.previous = Some(self.canvas.clone()),
        }
        Ok(())
    }
}

/// The direction `(dx, dy)` the head faces at `time` (`state` is the board
/// then): its last move, else (at time 0) away from the neck, else its first
/// move, else right.
fn heading(path: &[Pos], state: &State, time: usize) -> (i64, i64) {
    let step = |from: Pos, to: Pos| (to.0 as i64 - from.0 as i64, to.1 as i64 - from.1 as i64);
    let head = path[time];
    if time > 0 {
        step(path[time - 1], head)
    } else if let Some(&neck) = state.body.get(1) {
        step(neck, head)
    } else if let Some(&next) = path.get(1) {
        step(head, next)
    } else {
        (1, 0)
    }
}

/// Pixel geometry of the animation.
struct Layout {
    /// Pixels per cell.
    cell: usize,
    /// Grid size in cells.
    cols: usize,
    rows: usize,
    /// Image size in pixels.
    width: u16,
    height: u16,
    /// First pixel row of the counter strip.
    strip_top: usize,
    /// The path's number of moves, for the counter.
    moves: usize,
    /// The last time point's counter ends in `LOST_NOTE`.
    lost: bool,
    /// The next apple not yet revealed is drawn ([`GifOptions::next_apple`]).
    next_apple: bool,
    /// The counter's font, its size in pixels and the strip's padding.
    font: FontRef<'static>,
    px: f32,
    pad: usize,
}

impl Layout {
    /// The layout of `instance` at `cell` pixels per cell for `moves`
    /// moves, with `options`' counter (`lost`) and next apple.
    fn new(
        instance: &Instance,
        cell: u16,
        moves: usize,
        options: &GifOptions,
    ) -> Result<Layout, GifError> {
        let lost = options.lost;
        let c = usize::from(cell);
        let grid_w = instance.width * c + 1;
        let grid_h = instance.height * c + 1;
        let font = FontRef::try_from_slice(super::FONT).expect("the embedded font is valid");
        let n = instance.apples.len();
        // The widest counter: no length exceeds the number of cells.
        let mut widest = counter_text(moves, moves, n, n, instance.width * instance.height);
        if lost {
            widest += LOST_NOTE;
        }
        let unit = text_width(&font, PxScale::from(1.0), &widest);
        let mut px = (c as f32 * 0.55).clamp(16.0, 22.0);
        let pad = |px: f32| (px / 3.0).ceil() as usize;
        let room = |px: f32| grid_w.saturating_sub(2 * pad(px)) as f32;
        if unit * px > room(px) {
            px = (room(px) / unit).floor().max(10.0);
        }
        let text_w = (unit * px).ceil() as usize;
        let scaled = font.as_scaled(PxScale::from(px));
        let text_h = (scaled.ascent() - scaled.descent()).ceil() as usize;
        let width = grid_w.max(text_w + 2 * pad(px));
        let height = grid_h + text_h + 2 * pad(px);
        let (Ok(w), Ok(h)) = (u16::try_from(width), u16::try_from(height)) else {
            return Err(GifError::TooLarge { width, height });
        };
        if width * height > MAX_FRAME_PIXELS {
            return Err(GifError::TooManyPixels { width, height });
        }
        Ok(Layout {
            cell: c,
            cols: instance.width,
            rows: instance.height,
            width: w,
            height: h,
            strip_top: grid_h,
            moves,
            lost,
            next_apple: options.next_apple,
            font,
            px,
            pad: pad(px),
        })
    }

    fn pixels(&self) -> usize {
        usize::from(self.width) * usize::from(self.height)
    }

    fn stride(&self) -> usize {
        usize::from(self.width)
    }

    fn fill(&self, canvas: &mut [u8], x0: usize, y0: usize, x1: usize, y1: usize, colour: u8) {
        // Half-open rectangle [x0, x1) × [y0, y1).
        let w = self.stride();
        for y in y0..y1 {
            canvas[y * w + x0..y * w + x1].fill(colour);
        }
    }

    /// The whole inside of a cell (grid lines excluded).
    fn fill_cell(&self, canvas: &mut [u8], p: Pos, colour: u8) {
        let c = self.cell;
        let (x0, y0) = (p.0 * c + 1, p.1 * c + 1);
        self.fill(canvas, x0, y0, x0 + c - 1, y0 + c - 1, colour);
    }

    /// Sets the pixels `(x, y)` with `inside(dx, dy)`, where `(dx, dy)` is
    /// the offset from `(cx, cy)`, for `|dx|, |dy| <= r`, clipped to the grid.
    fn shape(
        &self,
        canvas: &mut [u8],
        (cx, cy): (i64, i64),
        r: i64,
        colour: u8,
        inside: impl Fn(i64, i64) -> bool,
    ) {
        let w = self.stride();
        let (max_x, max_y) = ((self.cols * self.cell) as i64, self.strip_top as i64);
        for y in (cy - r).max(0)..=(cy + r).min(max_y - 1) {
            for x in (cx - r).max(0)..=(cx + r).min(max_x) {
                if inside(x - cx, y - cy) {
                    canvas[y as usize * w + x as usize] = colour;
                }
            }
        }
    }

    /// A disc of radius `r` around a pixel (`r² + r` rounds its edge).
    fn disc(&self, canvas: &mut [u8], centre: (i64, i64), r: i64, colour: u8) {
        self.shape(canvas, centre, r, colour, |dx, dy| {
            dx * dx + dy * dy <= r * r + r
        });
    }

    fn centre(&self, p: Pos) -> (i64, i64) {
        let (x, y) = cell_centre(self.cell as u16, p);
        (x as i64, y as i64)
    }

    /// The band between the centres of adjacent cells `a` and `b`: half-width
    /// `wa` at `a` narrowing (or widening) linearly to `wb` at `b`, coloured
    /// `ca` on `a`'s half and `cb` on `b`'s.
    fn bar(
        &self,
        canvas: &mut [u8],
        (a, b): (Pos, Pos),
        (wa, wb): (usize, usize),
        (ca, cb): (u8, u8),
    ) {
        let c = self.cell as i64;
        let (ax, ay) = self.centre(a);
        let (bx, by) = self.centre(b);
        let (dx, dy) = ((bx - ax).signum(), (by - ay).signum());
        for k in 0..=c {
            let half = ((wa as i64) * (c - k) + (wb as i64) * k) / c;
            let colour = if 2 * k < c { ca } else { cb };
            let (x, y) = (ax + dx * k, ay + dy * k);
            for s in -half..=half {
                let (px, py) = (x + dy * s, y + dx * s);
                canvas[py as usize * self.stride() + px as usize] = colour;
            }
        }
    }

    /// Draws the whole frame for `state` at time point `time`, the head
    /// facing `heading`.
    fn draw(
        &self,
        instance: &Instance,
        state: &State,
        time: usize,
        heading: (i64, i64),
        canvas: &mut [u8],
    ) {
        let c = self.cell;
        let ci = c as i64;
        let w = self.stride();
        let grid_w = self.cols * c + 1;
        canvas.fill(BACKGROUND);
        // Grid lines.
        for y in 0..=self.rows {
            self.fill(canvas, 0, y * c, grid_w, y * c + 1, GRID);
        }
        for x in 0..=self.cols {
            for y in 0..self.strip_top {
                canvas[y * w + x * c] = GRID;
            }
        }
        for &wall in &instance.walls {
            if instance.on_grid(wall) {
                self.fill_cell(canvas, wall, WALL);
            }
        }
        let apple_r = (ci * 3 / 8).max(1);
        // The next apple not yet revealed (every revealed apple is either
        // eaten or still on the board): a ring around a dot.
        let next = state.eaten + state.apples_on_board.len();
        if let Some(&p) = instance.apples.get(next).filter(|_| self.next_apple) {
            let thick = (ci / 12).max(1);
            let inner = apple_r - thick;
            let dot = ci / 12;
            self.shape(canvas, self.centre(p), apple_r, NEXT_APPLE, |dx, dy| {
                let d = dx * dx + dy * dy;
                (inner * inner + inner < d && d <= apple_r * apple_r + apple_r)
                    || d <= dot * dot + dot
            });
        }
        // An apple under the head, then the snake, then the other apples.
        let head = state.body.first().copied();
        let apples = || state.apples_on_board.iter().map(|&(_, p)| p);
        for p in apples().filter(|&p| Some(p) == head) {
            self.draw_apple(canvas, p, apple_r);
        }
        self.draw_snake(canvas, &state.body, heading);
        for p in apples().filter(|&p| Some(p) != head) {
            self.draw_apple(canvas, p, apple_r);
        }
        // Counter strip.
        self.fill(
            canvas,
            0,
            self.strip_top,
            w,
            usize::from(self.height),
            STRIP,
        );
        let mut text = counter_text(
            time,
            self.moves,
            state.eaten,
            instance.apples.len(),
            state.length,
        );
        if self.lost && time == self.moves {
            text += LOST_NOTE;
        }
        self.draw_text(canvas, &text);
    }

    /// A revealed apple on `p`: a red disc of radius `r`, with a highlight
    /// on cells of 16 pixels and more.
    fn draw_apple(&self, canvas: &mut [u8], p: Pos, r: i64) {
        let (x, y) = self.centre(p);
        self.disc(canvas, (x, y), r, APPLE);
        if self.cell >= 16 {
            let off = r / 3;
            self.disc(canvas, (x - off, y - off), r / 5, SHINE);
        }
    }

    /// The body as one tapered band with a gradient, then the head with eyes.
    fn draw_snake(&self, canvas: &mut [u8], body: &[Pos], heading: (i64, i64)) {
        let n = body.len();
        let full = band_half_width(self.cell as u16);
        let half = |i: usize| full * (n - i).min(TAPER + 1) / (TAPER + 1);
        let colour = |i: usize| match i {
            0 => HEAD,
            _ => BODY + ((i - 1) * BODY_SHADES / (n - 1)).min(BODY_SHADES - 1) as u8,
        };
        for i in (1..n).rev() {
            self.bar(
                canvas,
                (body[i - 1], body[i]),
                (half(i - 1), half(i)),
                (colour(i - 1), colour(i)),
            );
            self.disc(canvas, self.centre(body[i]), half(i) as i64, colour(i));
        }
        let Some(&head) = body.first() else {
            return;
        };
        let ci = self.cell as i64;
        let (x, y) = self.centre(head);
        // (At most `(cell − 2) / 2`, so that the disc stops short of the grid
        // line and a body cell beside the head that does not follow it still
        // looks apart: at a cell of 5 pixels, 2 reached the line. From 11
        // pixels also at most `cell / 2 − 2`, so that a background pixel is
        // left before the line on the centre's nearer side, which an odd cell
        // has: at 11, 13 and 15 pixels the disc touched the line.)
        let r = (ci * 2 / 5).min((ci - 2) / 2);
        let r = if ci >= 11 { r.min(ci / 2 - 2) } else { r };
        self.disc(canvas, (x, y), r, HEAD);
        let (dx, dy) = heading;
        // Perpendicular to the heading.
        let (px, py) = (-dy, dx);
        if ci >= 12 {
            let eye = (ci / 10).max(1);
            let pupil = eye / 2;
            for side in [-1, 1] {
                let (ex, ey) = (
                    x + dx * r / 3 + side * px * r / 2,
                    y + dy * r / 3 + side * py * r / 2,
                );
                self.disc(canvas, (ex, ey), eye, EYE);
                self.disc(
                    canvas,
                    (ex + dx * (eye - pupil), ey + dy * (eye - pupil)),
                    pupil,
                    TEXT,
                );
            }
        } else {
            let off = (r / 2).max(1);
            self.disc(canvas, (x + dx * off, y + dy * off), 0, EYE);
        }
    }

    /// Draws `text` in the strip, anti-aliased with the two text shades.
    fn draw_text(&self, canvas: &mut [u8], text: &str) {
        let w = self.stride();
        let h = usize::from(self.height);
        let scale = PxScale::from(self.px);
        let ascent = self.font.as_scaled(scale).ascent();
        let baseline = (self.strip_top + self.pad) as f32 + ascent;
        layout_text(&self.font, scale, text, |mut glyph| {
            glyph.position = point(glyph.position.x + self.pad as f32, baseline);
            let Some(outline) = self.font.outline_glyph(glyph) else {
                return;
            };
            let bounds = outline.px_bounds();
            outline.draw(|gx, gy, coverage| {
                let x = bounds.min.x as i64 + i64::from(gx);
                let y = bounds.min.y as i64 + i64::from(gy);
                if x < 0 || y < 0 || x as usize >= w || y as usize >= h {
                    return;
                }
                let index = y as usize * w + x as usize;
                let level = (coverage * 3.0).round() as u8;
                let colour = match level {
                    0 => return,
                    1 => TEXT_SHADE,
                    2 => TEXT_SHADE + 1,
                    _ => TEXT,
                };
                // Glyphs may touch: keep the darker shade.
                if canvas[index] == STRIP || rank(canvas[index]) < rank(colour) {
                    canvas[index] = colour;
                }
            });
        });
    }

    /// A frame holding the bounding rectangle of the pixels of `now` that
    /// differ from `prev` (or one pixel at the origin if none do), the
    /// unchanged ones transparent.
    fn delta(&self, prev: &[u8], now: &[u8]) -> Frame<'static> {
        let w = self.stride();
        let (mut x0, mut y0, mut x1, mut y1) = (usize::MAX, usize::MAX, 0, 0);
        for (y, (a, b)) in prev.chunks(w).zip(now.chunks(w)).enumerate() {
            let Some(first) = a.iter().zip(b).position(|(p, q)| p != q) else {
                continue;
            };
            let last = a.iter().zip(b).rposition(|(p, q)| p != q).unwrap_or(first);
            x0 = x0.min(first);
            x1 = x1.max(last + 1);
            y0 = y0.min(y);
            y1 = y + 1;
        }
        if x0 == usize::MAX {
            (x0, y0, x1, y1) = (0, 0, 1, 1);
        }
        let mut pixels = Vec::with_capacity((x1 - x0) * (y1 - y0));
        for y in y0..y1 {
            let row = y * w + x0..y * w + x1;
            pixels.extend(
                prev[row.clone()]
                    .iter()
                    .zip(&now[row])
                    .map(|(&p, &q)| if p == q { TRANSPARENT } else { q }),
            );
        }
        // The rectangle lies inside the image, whose sides fit in u16.
        let mut frame = Frame::from_indexed_pixels(
            (x1 - x0) as u16,
            (y1 - y0) as u16,
            pixels,
            Some(TRANSPARENT),
        );
        frame.left = x0 as u16;
        frame.top = y0 as u16;
        frame
    }
}

/// How dark a text colour is (0 for anything else).
fn rank(colour: u8) -> u8 {
    match colour {
        TEXT_SHADE => 1,
        c if c == TEXT_SHADE + 1 => 2,
        TEXT => 3,
        _ => 0,
    }
}

/// Calls `place` with each glyph of `text` positioned from `x = 0` on the
/// baseline `y = 0` (kerning applied); returns the text's advance width.
fn layout_text(
    font: &FontRef<'_>,
    scale: PxScale,
    text: &str,
    mut place: impl FnMut(ab_glyph::Glyph),
) -> f32 {
    let scaled = font.as_scaled(scale);
    let mut caret = 0.0;
    let mut previous: Option<GlyphId> = None;
    for ch in text.chars() {
        let id = font.glyph_id(ch);
        if let Some(p) = previous {
            caret += scaled.kern(p, id);
        }
        place(id.with_scale_and_position(scale, point(caret, 0.0)));
        caret += scaled.h_advance(id);
        previous = Some(id);
    }
    caret
}

fn text_width(font: &FontRef<'_>, scale: PxScale, text: &str) -> f32 {
    layout_text(font, scale, text, |_| {})
}

/// What the last counter of a lost game ends in ([`GifOptions::lost`]).
const LOST_NOTE: &str = " · lost";

/// The counter shown under the grid, e.g. `step 20/45 · apples 4/9 · length 7`.
fn counter_text(time: usize, moves: usize, eaten: usize, total: usize, length: usize) -> String {
    format!("step {time}/{moves} · apples {eaten}/{total} · length {length}")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A window without a regular frame gets its last step, which also
    /// serves a later window it falls in.
    #[test]
    fn apple_frames_stab_each_window_without_a_frame_once() {
        // Regular frames at 0, 4, 8, …
        let windows = [(0, 3), (5, 6), (5, 7), (9, 10), (13, 15)];
        assert_eq!(apple_frames(&windows, 4), vec![6, 10, 15]);
        assert_eq!(apple_frames(&windows, 1), Vec::<usize>::new());
    }

    /// A full game's default animation shows every apple: each apple's
    /// steps on the board hold a drawn time point (the 8x8 game of the
    /// README eats 3 apples between every-2nd time points, the 16x16 one
    /// 67 between every-16th), within the frames that last 45 s.
    #[test]
    fn a_games_default_animation_shows_every_apple() {
        for size in [8, 16] {
            let record =
                crate::game::play(&crate::game::GameConfig::new(size, size, 1), |_| {}).unwrap();
            let instance = record.picture_instance();
            let windows = apple_windows(&instance, &record.path).unwrap();
            assert_eq!(windows.len(), size * size - 1, "{size}: one per apple");
            let options = GifOptions {
                next_apple: false,
                ..GifOptions::default()
            };
            let summary = write_gif(&instance, &record.path, &options, std::io::sink()).unwrap();
            assert!(
                summary.skip > 1 && summary.apple_frames > 0,
                "{size}: {summary:?}"
            );
            assert!(
                summary.frames <= duration_frames(options.delay_cs),
                "{size}: {summary:?}"
            );
            let moves = record.path.len() - 1;
            let limit = duration_frames(options.delay_cs);
            let (times, skip, added) = timeline(moves, None, summary.skip, limit, &windows);
            assert_eq!(
                (skip, added, times.len()),
                (summary.skip, summary.apple_frames, summary.frames)
            );
            for &(first, last) in &windows {
                let i = times.partition_point(|&t| t < first);
                assert!(
                    times.get(i).is_some_and(|&t| t <= last),
                    "{size}: ({first}, {last}) unseen"
                );
            }
            // A given skip draws every Nth time point only.
            let every = GifOptions {
                skip: Some(summary.skip),
                ..options
            };
            let given = write_gif(&instance, &record.path, &every, std::io::sink()).unwrap();
            assert_eq!(given.apple_frames, 0);
            assert_eq!(given.frames, frame_count(moves, summary.skip));
        }
    }

    #[test]
    fn palette_indices_match_their_colours() {
        assert_eq!(PALETTE[usize::from(HEAD)], HEAD_RGB);
        assert_eq!(PALETTE[usize::from(APPLE)], APPLE_RGB);
        assert_eq!(PALETTE[usize::from(TRANSPARENT)], TRANSPARENT_RGB);
        for (k, rgb) in BODY_RGBS.iter().enumerate() {
            assert_eq!(PALETTE[usize::from(BODY) + k], *rgb);
        }
        assert_eq!(usize::from(BODY) + BODY_SHADES, usize::from(TRANSPARENT));
        // All colours distinct, so a pixel's colour names its role.
        for (i, a) in PALETTE.iter().enumerate() {
            assert!(!PALETTE[..i].contains(a), "colour {i} repeats");
        }
    }

    /// An illegal path is refused with the rule it breaks in the message
    /// (it said only "the path breaks the rules"), and nothing is written.
    #[test]
    fn an_illegal_path_names_its_violation() {
        let instance = crate::instance::json::from_json(
            r#"{"width": 3, "height": 1, "snake": [[0, 0]], "apples": [[2, 0]]}"#,
        )
        .unwrap();
        let mut out = Vec::new();
        let e = write_gif(
            &instance,
            &[(0, 0), (2, 0)],
            &GifOptions::default(),
            &mut out,
        )
        .unwrap_err();
        let violation = crate::sim::simulate(&instance, &[(0, 0), (2, 0)]).unwrap_err();
        assert!(
            matches!(&e, GifError::Illegal(v) if *v == violation),
            "{e:?}"
        );
        assert_eq!(e.to_string(), format!("the path is not legal: {violation}"));
        assert!(out.is_empty());
    }

    #[test]
    fn frame_times_keep_the_first_and_last() {
        assert_eq!(frame_times(4, 1), [0, 1, 2, 3, 4]);
        assert_eq!(frame_times(4, 2), [0, 2, 4]);
        assert_eq!(frame_times(5, 2), [0, 2, 4, 5]);
        assert_eq!(frame_times(5, 0), [0, 1, 2, 3, 4, 5]);
        assert_eq!(frame_times(0, 3), [0]);
        assert_eq!(frame_times(3, 10), [0, 3]);
        for moves in 0..40 {
            for skip in 0..12 {
                assert_eq!(frame_count(moves, skip), frame_times(moves, skip).len());
            }
        }
    }

    #[test]
    fn automatic_skip_keeps_long_plans_watchable() {
        assert_eq!(auto_skip(45, 15), 1);
        assert_eq!(auto_skip(299, 15), 1);
        assert_eq!(auto_skip(300, 15), 2);
        for (moves, delay) in [(434, 15), (3000, 4), (50_000, 6), (10_000, 1), (100_000, 0)] {
            let skip = auto_skip(moves, delay);
            // Delays of 0 and 1 cs play at 10 cs.
            let shown = if delay < 2 { 10 } else { delay };
            let seconds = frame_times(moves, skip).len() as f64 * f64::from(shown) / 100.0;
            assert!(
                (20.0..=46.0).contains(&seconds),
                "{moves} at {delay}: {seconds} s"
            );
        }
    }

    #[test]
    fn the_automatic_skip_keeps_within_the_pixels_an_animation_may_draw() {
        // 4,080,000 pixels a frame: 245 frames fit, so 2,000 moves skip 9
        // (223 + 1 frames), 244 moves or fewer none.
        let pixels = 4_080_000;
        assert_eq!(MAX_ANIMATION_PIXELS / pixels, 245);
        assert_eq!(least_skip_within_budget(2000, pixels, 0), 9);
        assert!(frame_times(2000, 9).len() * pixels <= MAX_ANIMATION_PIXELS);
        assert!(frame_times(2000, 8).len() * pixels > MAX_ANIMATION_PIXELS);
        assert_eq!(least_skip_within_budget(244, pixels, 0), 1);
        assert_eq!(least_skip_within_budget(245, pixels, 0), 2);
        // Pause frames count; a frame too large for 3 leaves first and last.
        assert_eq!(least_skip_within_budget(2000, pixels, 200), 46);
        assert_eq!(
            least_skip_within_budget(50, MAX_ANIMATION_PIXELS / 2, 0),
            50
        );
        assert_eq!(least_skip_within_budget(0, MAX_ANIMATION_PIXELS, 0), 1);
        // Small frames never need a skip (every README GIF).
        assert_eq!(least_skip_within_budget(100_000, 176_000, 0), 18);
        assert_eq!(least_skip_within_budget(465, 176_000, 0), 1);
    }

    #[test]
    fn default_cells_make_boards_about_400_pixels() {
        for side in [1, 2, 3, 4, 5, 8, 10, 16, 20, 30, 64] {
            let cell = usize::from(default_cell(side, side));
            let pixels = side * cell + 1;
            assert!((400..=480).contains(&pixels), "{side}: {pixels}");
        }
        assert_eq!(default_cell(10, 10), 40);
        assert_eq!(default_cell(2, 1), 200);
        assert_eq!(default_cell(200, 3), 4);
    }

    #[test]
    fn the_counter_has_a_glyph_for_every_character() {
        let font = FontRef::try_from_slice(super::super::FONT).unwrap();
        for ch in (counter_text(1234567890, 5, 6, 9, 7) + LOST_NOTE).chars() {
            assert!(ch == ' ' || font.glyph_id(ch).0 != 0, "{ch}");
        }
    }

    #[test]
    fn an_invalid_instance_is_refused_not_a_panic() {
        for i in crate::instance::refused_examples() {
            let mut out = Vec::new();
            let refused = write_gif(&i, &[(0, 0), (1, 0)], &GifOptions::default(), &mut out);
            let reason = i.validate_game().unwrap_err();
            assert!(
                matches!(&refused, Err(GifError::Instance(e)) if *e == reason),
                "{refused:?}"
            );
            assert!(out.is_empty());
        }
    }
}
