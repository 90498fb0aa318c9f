//! Animated GIFs of a plan, one frame per time point.
//!
//! # Picture
//!
//! The grid is drawn at the top left of the image: cell `(x, y)` lies between
//! the 1-pixel grid lines at pixel columns `x * cell` and `(x + 1) * cell`
//! and rows `y * cell` and `(y + 1) * cell`; its centre pixel is
//! [`cell_centre`]`(cell, (x, y))` = `(x * cell + cell / 2, y * cell + cell / 2)`.
//! Under the grid a strip shows the counter `T t  A eaten/total` in a 3×5
//! pixel font (scaled up with the cell size). The image is widened beyond the
//! grid only when the counter would not fit otherwise.
//!
//! Each frame draws, in this order: background, grid lines, walls, the next
//! apple of the ordered list not yet revealed (a small pale disc), the body
//! (tail to head, a green gradient from dark at the neck to light at the tail),
//! the head (dark blue, the whole cell), and the revealed apples not yet eaten
//! (red discs; drawn last so that an apple waiting under the body stays
//! visible — the head itself is never on one, since entering it eats it).
//! All shapes, including the head and the apples, cover their cell's centre
//! pixel, so a decoder can read the board back from the centre pixels.
//!
//! # Palette
//!
//! One global palette of [`PALETTE`]`.len()` = 16 colours; no local palettes,
//! no transparency. Index meanings: [`BACKGROUND`] 0, [`GRID`] 1, [`WALL`] 2,
//! [`APPLE`] 3, [`NEXT_APPLE`] 4, [`HEAD`] 5, [`TEXT`] 6, [`STRIP`] 7, and
//! `BODY + k` = 8 + k for the body shades `k = 0..8` ([`BODY_RGBS`], `k = 0`
//! next to the head).
//!
//! # Frames
//!
//! `T + 1` frames for a path of `T` moves (fewer with [`GifOptions::skip`]:
//! one per time point of [`frame_times`]), plus [`GifOptions::pause_frames`]
//! copies of the last one. Every frame waits [`GifOptions::delay_cs`] except
//! the very last frame of the file, which waits
//! [`GifOptions::last_frame_delay_cs`]: that longer delay is the pause before
//! the animation loops (it loops forever), so by default there are exactly
//! `T + 1` frames. The first frame covers the whole image; each later frame
//! covers only the bounding rectangle of the pixels that changed since the
//! previous frame (its `left` / `top` set, disposal "keep"), or a single
//! unchanged pixel at `(0, 0)` when nothing changed.

use std::io::{BufWriter, Write};

use gif::{DisposalMethod, Encoder, Frame, Repeat};
use thiserror::Error;

use crate::instance::{Instance, Pos};
use crate::sim::{State, Violation, states};

/// Why an animation cannot be written.
#[derive(Debug, Error)]
pub enum GifError {
    /// Cells smaller than 4 pixels.
    #[error("cell size {cell} is too small (at least 4 pixels)")]
    CellTooSmall {
        /// The cell size asked for, in pixels.
        cell: u16,
    },
    /// The path breaks a rule of the game.
    #[error("the path breaks the rules")]
    Illegal(#[source] Violation),
    /// An image beyond GIF's 65535 × 65535 pixels.
    #[error("the image would be {width}x{height} pixels, more than a GIF allows (65535)")]
    TooLarge {
        /// The image width, in pixels.
        width: usize,
        /// The image height, in pixels.
        height: usize,
    },
    /// The GIF encoder failed.
    #[error(transparent)]
    Encoding(#[from] gif::EncodingError),
    /// Writing failed.
    #[error(transparent)]
    Io(#[from] std::io::Error),
}

/// Palette index of the background.
pub const BACKGROUND: u8 = 0;
/// Palette index of the grid lines.
pub const GRID: u8 = 1;
/// Palette index of the walls.
pub const WALL: u8 = 2;
/// Palette index of revealed, uneaten apples.
pub const APPLE: u8 = 3;
/// Palette index of the next apple of the list, not yet revealed.
pub const NEXT_APPLE: u8 = 4;
/// Palette index of the head.
pub const HEAD: u8 = 5;
/// Palette index of the counter's digits and letters.
pub const TEXT: u8 = 6;
/// Palette index of the counter strip's background.
pub const STRIP: u8 = 7;
/// Palette index of the first body shade (next to the head); the shade `k`
/// of [`BODY_RGBS`] has index `BODY + k`.
pub const BODY: u8 = 8;

/// The board's background.
pub const BACKGROUND_RGB: [u8; 3] = [245, 245, 235];
/// The lines between cells.
pub const GRID_RGB: [u8; 3] = [205, 205, 195];
/// Walls.
pub const WALL_RGB: [u8; 3] = [70, 70, 70];
/// The apples on the board.
pub const APPLE_RGB: [u8; 3] = [220, 30, 30];
/// The next apple to be revealed.
pub const NEXT_APPLE_RGB: [u8; 3] = [245, 180, 180];
/// The snake's head.
pub const HEAD_RGB: [u8; 3] = [20, 40, 140];
/// The counter's text.
pub const TEXT_RGB: [u8; 3] = [30, 30, 30];
/// The strip under the board that holds the counter.
pub const STRIP_RGB: [u8; 3] = [225, 225, 215];
/// Body shades, from the cell next to the head (dark) to the tail (light).
pub const BODY_RGBS: [[u8; 3]; 8] = [
    [20, 110, 40],
    [38, 125, 57],
    [57, 140, 71],
    [75, 155, 86],
    [94, 170, 100],
    [112, 185, 114],
    [131, 200, 129],
    [150, 215, 143],
];

/// The global palette, indexed by the constants above.
pub const PALETTE: [[u8; 3]; 16] = [
    BACKGROUND_RGB,
    GRID_RGB,
    WALL_RGB,
    APPLE_RGB,
    NEXT_APPLE_RGB,
    HEAD_RGB,
    TEXT_RGB,
    STRIP_RGB,
    BODY_RGBS[0],
    BODY_RGBS[1],
    BODY_RGBS[2],
    BODY_RGBS[3],
    BODY_RGBS[4],
    BODY_RGBS[5],
    BODY_RGBS[6],
    BODY_RGBS[7],
];

/// How the animation looks and runs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GifOptions {
    /// Pixels per cell, grid line included (at least 4). Default 24.
    pub cell: u16,
    /// Delay of each frame, in centiseconds. Default 15.
    pub delay_cs: u16,
    /// Extra copies of the last frame (each waits `delay_cs`, the very last
    /// `last_frame_delay_cs`). Default 0.
    pub pause_frames: usize,
    /// Delay of the very last frame, the pause before looping. Default 150.
    pub last_frame_delay_cs: u16,
    /// Draw only every `skip`-th time point (`0, skip, 2 skip, ...`), always
    /// keeping the last one; 1 (the default) draws them all. See
    /// [`frame_times`].
    pub skip: usize,
}

impl Default for GifOptions {
    fn default() -> Self {
        GifOptions {
            cell: 24,
            delay_cs: 15,
            pause_frames: 0,
            last_frame_delay_cs: 150,
            skip: 1,
        }
    }
}

/// The centre pixel `(column, row)` of cell `p` with `cell` pixels per cell.
pub fn cell_centre(cell: u16, p: Pos) -> (usize, usize) {
    let c = usize::from(cell);
    (p.0 * c + c / 2, p.1 * c + c / 2)
}

/// The time points drawn for a path of `moves` moves, one frame each (before
/// the pause frames): `0, skip, 2 skip, ...` up to `moves`, plus `moves`
/// itself when `skip` does not divide it. A `skip` of 0 counts as 1.
pub fn frame_times(moves: usize, skip: usize) -> Vec<usize> {
    let mut times: Vec<usize> = (0..=moves).step_by(skip.max(1)).collect();
    if times.last() != Some(&moves) {
        times.push(moves);
    }
    times
}

/// Writes the animation of `path` on `instance` as a GIF to `out`.
///
/// The path is replayed with [`crate::sim::states`]: an illegal move is an
/// error, but a legal path that leaves apples uneaten is still drawn.
pub fn write_gif(
    instance: &Instance,
    path: &[Pos],
    options: &GifOptions,
    out: impl Write,
) -> Result<(), GifError> {
    if options.cell < 4 {
        return Err(GifError::CellTooSmall { cell: options.cell });
    }
    let states = states(instance, path).map_err(GifError::Illegal)?;
    let moves = states.len() - 1;
    let layout = Layout::new(instance, options.cell, moves)?;

    let flat: Vec<u8> = PALETTE.iter().flatten().copied().collect();
    let mut encoder = Encoder::new(BufWriter::new(out), layout.width, layout.height, &flat)?;
    encoder.set_repeat(Repeat::Infinite)?;

    let times = frame_times(moves, options.skip);
    let total = times.len() + options.pause_frames;
    let mut previous: Option<Vec<u8>> = None;
    let mut canvas = vec![BACKGROUND; layout.pixels()];
    for k in 0..total {
        let time = times[k.min(times.len() - 1)];
        let state = &states[time];
        layout.draw(instance, state, time, &mut canvas);
        let mut frame = match &previous {
            None => Frame::from_indexed_pixels(layout.width, layout.height, canvas.clone(), None),
            Some(prev) => layout.delta(prev, &canvas),
        };
        frame.dispose = DisposalMethod::Keep;
        frame.delay = if k + 1 == total {
            options.last_frame_delay_cs
        } else {
            options.delay_cs
        };
        encoder.write_frame(&frame)?;
        match &mut previous {
            Some(prev) => prev.copy_from_slice(&canvas),
            None => previous = Some(canvas.clone()),
        }
    }
    encoder
        .into_inner()?
        .into_inner()
        .map_err(|e| e.into_error())?
        .flush()?;
    Ok(())
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
    /// Font scale (pixels per font pixel) and the strip's padding.
    scale: usize,
    pad: usize,
}

impl Layout {
    fn new(instance: &Instance, cell: u16, moves: usize) -> Result<Layout, GifError> {
        let c = usize::from(cell);
        let grid_w = instance.width * c + 1;
        let grid_h = instance.height * c + 1;
        let n = instance.apples.len();
        let widest = counter_text(moves, n, n).len();
        let text_w = |scale: usize| widest * 4 * scale - scale;
        let mut scale = (c / 8).max(1);
        while scale > 1 && text_w(scale) + 4 * scale > grid_w {
            scale -= 1;
        }
        let pad = 2 * scale;
        let width = grid_w.max(text_w(scale) + 2 * pad);
        let height = grid_h + 5 * scale + 2 * pad;
        let (Ok(w), Ok(h)) = (u16::try_from(width), u16::try_from(height)) else {
            return Err(GifError::TooLarge { width, height });
        };
        Ok(Layout {
            cell: c,
            cols: instance.width,
            rows: instance.height,
            width: w,
            height: h,
            strip_top: grid_h,
            scale,
            pad,
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

    /// The inside of a cell (grid lines excluded), inset by `inset` pixels.
    fn cell_rect(&self, p: Pos, inset: usize) -> (usize, usize, usize, usize) {
        let c = self.cell;
        (
            p.0 * c + 1 + inset,
            p.1 * c + 1 + inset,
            (p.0 + 1) * c - inset,
            (p.1 + 1) * c - inset,
        )
    }

    fn fill_cell(&self, canvas: &mut [u8], p: Pos, inset: usize, colour: u8) {
        let (x0, y0, x1, y1) = self.cell_rect(p, inset);
        self.fill(canvas, x0, y0, x1, y1, colour);
    }

    /// A disc of radius `r` around the cell's centre (`r² + r` rounds its
    /// edge), clipped to the cell.
    fn disc(&self, canvas: &mut [u8], p: Pos, r: usize, colour: u8) {
        let (x0, y0, x1, y1) = self.cell_rect(p, 0);
        let (cx, cy) = cell_centre(self.cell as u16, p);
        let w = self.stride();
        for y in y0..y1 {
            for x in x0..x1 {
                let (dx, dy) = (x.abs_diff(cx), y.abs_diff(cy));
                if dx * dx + dy * dy <= r * r + r {
                    canvas[y * w + x] = colour;
                }
            }
        }
    }

    /// Draws the whole frame for `state` at time point `time`.
    fn draw(&self, instance: &Instance, state: &State, time: usize, canvas: &mut [u8]) {
        let c = self.cell;
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
                self.fill_cell(canvas, wall, 0, WALL);
            }
        }
        // The next apple not yet revealed: every revealed apple is either
        // eaten or still on the board.
        let next = state.eaten + state.apples_on_board.len();
        if let Some(&p) = instance.apples.get(next) {
            self.disc(canvas, p, (c / 5).max(1), NEXT_APPLE);
        }
        // Body, tail first so that the head ends on top.
        let inset = usize::from(c >= 8);
        let shades = BODY_RGBS.len();
        let span = state.length.saturating_sub(1).max(1);
        for (i, &p) in state.body.iter().enumerate().skip(1).rev() {
            let shade = ((i - 1) * shades / span).min(shades - 1);
            self.fill_cell(canvas, p, inset, BODY + shade as u8);
        }
        if let Some(&head) = state.body.first() {
            self.fill_cell(canvas, head, 0, HEAD);
        }
        for &(_, p) in &state.apples_on_board {
            self.disc(canvas, p, (c * 3 / 8).max(1), APPLE);
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
        let text = counter_text(time, state.eaten, instance.apples.len());
        let s = self.scale;
        let top = self.strip_top + self.pad;
        for (k, ch) in text.bytes().enumerate() {
            let left = self.pad + k * 4 * s;
            for (row, bits) in glyph(ch).iter().enumerate() {
                for col in 0..3 {
                    if bits & (0b100 >> col) != 0 {
                        let (x, y) = (left + col * s, top + row * s);
                        self.fill(canvas, x, y, x + s, y + s, TEXT);
                    }
                }
            }
        }
    }

    /// A frame holding the bounding rectangle of the pixels of `now` that
    /// differ from `prev` (or one pixel at the origin if none do).
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
            pixels.extend_from_slice(&now[y * w + x0..y * w + x1]);
        }
        // The rectangle lies inside the image, whose sides fit in u16.
        let mut frame =
            Frame::from_indexed_pixels((x1 - x0) as u16, (y1 - y0) as u16, pixels, None);
        frame.left = x0 as u16;
        frame.top = y0 as u16;
        frame
    }
}

/// The counter shown under the grid, e.g. `T 12  A 3/9`.
fn counter_text(time: usize, eaten: usize, total: usize) -> String {
    format!("T {time}  A {eaten}/{total}")
}

/// The 3×5 glyph of a character: five rows, three bits each (high bit left).
/// Characters without a glyph are blank.
fn glyph(ch: u8) -> [u8; 5] {
    match ch {
        b'0' => [0b111, 0b101, 0b101, 0b101, 0b111],
        b'1' => [0b010, 0b110, 0b010, 0b010, 0b111],
        b'2' => [0b111, 0b001, 0b111, 0b100, 0b111],
        b'3' => [0b111, 0b001, 0b111, 0b001, 0b111],
        b'4' => [0b101, 0b101, 0b111, 0b001, 0b001],
        b'5' => [0b111, 0b100, 0b111, 0b001, 0b111],
        b'6' => [0b111, 0b100, 0b111, 0b101, 0b111],
        b'7' => [0b111, 0b001, 0b001, 0b001, 0b001],
        b'8' => [0b111, 0b101, 0b111, 0b101, 0b111],
        b'9' => [0b111, 0b101, 0b111, 0b001, 0b111],
        b'T' => [0b111, 0b010, 0b010, 0b010, 0b010],
        b'A' => [0b010, 0b101, 0b111, 0b101, 0b101],
        b'/' => [0b001, 0b001, 0b010, 0b100, 0b100],
        _ => [0; 5],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn palette_indices_match_their_colours() {
        assert_eq!(PALETTE[usize::from(HEAD)], HEAD_RGB);
        assert_eq!(PALETTE[usize::from(APPLE)], APPLE_RGB);
        for (k, rgb) in BODY_RGBS.iter().enumerate() {
            assert_eq!(PALETTE[usize::from(BODY) + k], *rgb);
        }
        // All colours distinct, so a pixel's colour names its role.
        for (i, a) in PALETTE.iter().enumerate() {
            assert!(!PALETTE[..i].contains(a), "colour {i} repeats");
        }
    }

    #[test]
    fn frame_times_keep_the_first_and_last() {
        assert_eq!(frame_times(4, 1), [0, 1, 2, 3, 4]);
        assert_eq!(frame_times(4, 2), [0, 2, 4]);
        assert_eq!(frame_times(5, 2), [0, 2, 4, 5]);
        assert_eq!(frame_times(5, 0), [0, 1, 2, 3, 4, 5]);
        assert_eq!(frame_times(0, 3), [0]);
        assert_eq!(frame_times(3, 10), [0, 3]);
    }

    #[test]
    fn every_counter_character_has_a_glyph() {
        for ch in counter_text(1234567890, 5, 9).bytes() {
            assert!(ch == b' ' || glyph(ch) != [0; 5], "{}", ch as char);
        }
    }
}
