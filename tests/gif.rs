//! The GIF renderer, checked by decoding its output and reading pixels back.

#[path = "support/cycle.rs"]
mod cycle;
use cycle::cycle16;

use gif::{ColorOutput, DecodeOptions, Repeat};
use snakesat::instance::{Instance, Pos, Start, TailRule};
use snakesat::render::gif::{
    APPLE_RGB, BODY_RGBS, HEAD_RGB, NEXT_APPLE_RGB, PALETTE, WALL_RGB, cell_centre,
};
use snakesat::render::{GifOptions, write_gif};
use snakesat::sim::{simulate, states};

/// 5×5, a wall, a 2-cell snake at the top left, two ordered apples.
fn small() -> (Instance, Vec<Pos>) {
    let instance = Instance {
        width: 5,
        height: 5,
        walls: vec![(0, 4)],
        start: Start::Body(vec![(1, 0), (0, 0)]),
        apples: vec![(3, 0), (3, 2)],
        visible: 1,
        grow: true,
        tail: TailRule::Follow,
        horizon: None,
    };
    // Eats apple 0 at t = 2 (revealing apple 1) and apple 1 at t = 4.
    let path = vec![(1, 0), (2, 0), (3, 0), (3, 1), (3, 2)];
    (instance, path)
}

/// A decoded animation: the full picture after each frame, as palette
/// indices, with what the file says about frames and looping.
struct Decoded {
    width: usize,
    palette: Vec<u8>,
    canvases: Vec<Vec<u8>>,
    delays: Vec<u16>,
    areas: Vec<usize>,
    repeat: Repeat,
}

impl Decoded {
    fn rgb(&self, frame: usize, (x, y): (usize, usize)) -> [u8; 3] {
        let i = usize::from(self.canvases[frame][y * self.width + x]) * 3;
        [self.palette[i], self.palette[i + 1], self.palette[i + 2]]
    }
}

/// Decodes `bytes`, compositing each (delta) frame onto the previous picture.
fn decode(bytes: &[u8]) -> Decoded {
    let mut options = DecodeOptions::new();
    options.set_color_output(ColorOutput::Indexed);
    let mut decoder = options.read_info(bytes).expect("a GIF header");
    let (width, height) = (usize::from(decoder.width()), usize::from(decoder.height()));
    let palette = decoder.global_palette().expect("a global palette").to_vec();
    let mut canvas = vec![0u8; width * height];
    let (mut canvases, mut delays, mut areas) = (Vec::new(), Vec::new(), Vec::new());
    while let Some(frame) = decoder.read_next_frame().expect("a frame") {
        assert!(frame.palette.is_none(), "frames use the global palette");
        let (left, top) = (usize::from(frame.left), usize::from(frame.top));
        let fw = usize::from(frame.width);
        for (row, line) in frame.buffer.chunks(fw).enumerate() {
            for (col, &index) in line.iter().enumerate() {
                if frame.transparent != Some(index) {
                    canvas[(top + row) * width + left + col] = index;
                }
            }
        }
        canvases.push(canvas.clone());
        delays.push(frame.delay);
        areas.push(fw * usize::from(frame.height));
    }
    Decoded {
        width,
        palette,
        canvases,
        delays,
        areas,
        repeat: decoder.repeat(),
    }
}

fn render(instance: &Instance, path: &[Pos], options: &GifOptions) -> Vec<u8> {
    let mut bytes = Vec::new();
    write_gif(instance, path, options, &mut bytes).expect("a legal plan renders");
    bytes
}

#[test]
fn states_follow_the_plan() {
    let (instance, path) = small();
    simulate(&instance, &path).expect("the plan is legal");
    let s = states(&instance, &path).unwrap();
    assert_eq!(s.len(), path.len());
    assert_eq!(s[0].body, vec![(1, 0), (0, 0)]);
    assert_eq!(s[0].apples_on_board, vec![(0, (3, 0))]);
    assert_eq!(s[2].eaten, 1);
    assert_eq!(s[2].length, 3);
    assert_eq!(s[2].body, vec![(3, 0), (2, 0), (1, 0)]);
    assert_eq!(s[2].apples_on_board, vec![(1, (3, 2))]);
    assert_eq!(s[4].eaten, 2);
    assert_eq!(s[4].length, 4);
    assert!(s[4].apples_on_board.is_empty());
    for (state, &p) in s.iter().zip(&path) {
        assert_eq!(state.body[0], p);
    }
    // Leaving apples is not an error for `states`, only for `simulate`.
    assert_eq!(states(&instance, &path[..3]).unwrap().len(), 3);
    assert!(simulate(&instance, &path[..3]).is_err());
}

#[test]
fn frames_show_the_plan() {
    let (instance, path) = small();
    let options = GifOptions::default();
    let d = decode(&render(&instance, &path, &options));
    let t = path.len() - 1;
    assert_eq!(d.canvases.len(), t + 1);
    assert_eq!(d.repeat, Repeat::Infinite);
    assert_eq!(d.palette.len(), PALETTE.len() * 3);
    assert_eq!(d.delays[..t], vec![options.delay_cs; t]);
    assert_eq!(d.delays[t], options.last_frame_delay_cs);
    // Later frames are deltas, smaller than the first.
    assert!(d.areas[1..].iter().all(|&a| a < d.areas[0]));

    let at = |frame, p| d.rgb(frame, cell_centre(options.cell, p));
    for (time, &p) in path.iter().enumerate() {
        assert_eq!(at(time, p), HEAD_RGB, "head at t = {time}");
        assert_eq!(at(time, (0, 4)), WALL_RGB);
    }
    // The body behind the head is green.
    assert!(BODY_RGBS.contains(&at(0, (0, 0))));
    assert!(BODY_RGBS.contains(&at(4, (3, 1))));
    // Apple 0 until it is eaten at t = 2, then the snake.
    assert_eq!(at(0, (3, 0)), APPLE_RGB);
    assert_eq!(at(1, (3, 0)), APPLE_RGB);
    assert_ne!(at(3, (3, 0)), APPLE_RGB);
    assert!(BODY_RGBS.contains(&at(3, (3, 0))));
    // Apple 1 is shown faintly until apple 0 is eaten, then in full, then gone.
    assert_eq!(at(0, (3, 2)), NEXT_APPLE_RGB);
    assert_eq!(at(1, (3, 2)), NEXT_APPLE_RGB);
    assert_eq!(at(2, (3, 2)), APPLE_RGB);
    assert_eq!(at(3, (3, 2)), APPLE_RGB);
    assert_eq!(at(4, (3, 2)), HEAD_RGB);
    // An untouched cell keeps the background.
    assert_eq!(at(4, (4, 4)), PALETTE[0]);
}

#[test]
fn pause_frames_repeat_the_last_picture() {
    let (instance, path) = small();
    let options = GifOptions {
        pause_frames: 2,
        ..GifOptions::default()
    };
    let d = decode(&render(&instance, &path, &options));
    let t = path.len() - 1;
    assert_eq!(d.canvases.len(), t + 1 + 2);
    assert_eq!(d.canvases[t], d.canvases[t + 1]);
    assert_eq!(d.canvases[t], d.canvases[t + 2]);
    assert_eq!(d.delays[t..], [15, 15, 150]);
}

#[test]
fn illegal_plans_are_refused() {
    let (instance, _) = small();
    let mut bytes = Vec::new();
    // A jump, a wrong start cell, a wall, then an empty path.
    for path in [
        vec![(1, 0), (3, 0)],
        vec![(0, 0)],
        vec![(1, 0), (1, 1), (0, 1), (0, 2), (0, 3), (0, 4)],
        vec![],
    ] {
        assert!(write_gif(&instance, &path, &GifOptions::default(), &mut bytes).is_err());
    }
}

#[test]
fn long_animation_stays_small() {
    let cycle = cycle16();
    assert_eq!(cycle.len(), 256);
    let instance = Instance {
        width: 16,
        height: 16,
        walls: vec![],
        start: Start::Body(vec![cycle[2], cycle[1], cycle[0]]),
        apples: vec![],
        visible: 0,
        grow: true,
        tail: TailRule::Follow,
        horizon: None,
    };
    let path: Vec<Pos> = (0..=300).map(|k| cycle[(k + 2) % cycle.len()]).collect();
    simulate(&instance, &path).expect("the zig-zag is legal");
    let bytes = render(&instance, &path, &GifOptions::default());
    assert!(bytes.len() < 5_000_000, "{} bytes", bytes.len());
    let d = decode(&bytes);
    assert_eq!(d.canvases.len(), 301);
    let at = |frame, p| d.rgb(frame, cell_centre(24, p));
    assert_eq!(at(300, path[300]), HEAD_RGB);
}
