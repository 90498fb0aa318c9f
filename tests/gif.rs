//! The GIF renderer, checked by decoding its output and reading pixels back.

#[path = "support/cycle.rs"]
mod cycle;
use cycle::cycle16;
#[path = "../examples/common/specs.rs"]
mod specs;

use gif::{ColorOutput, DecodeOptions, Repeat};
use snakesat::instance::{Instance, Pos, Start, TailRule};
use snakesat::render::gif::{
    APPLE_RGB, BACKGROUND_RGB, BODY_RGBS, EYE_RGB, GRID_RGB, HEAD_RGB, NEXT_APPLE_RGB, PALETTE,
    TEXT_RGB, WALL_RGB, cell_centre,
};
use snakesat::render::{GifOptions, GifSummary, write_gif};
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
    height: usize,
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
        height,
        palette,
        canvases,
        delays,
        areas,
        repeat: decoder.repeat(),
    }
}

fn render(instance: &Instance, path: &[Pos], options: &GifOptions) -> (Vec<u8>, GifSummary) {
    let mut bytes = Vec::new();
    let summary = write_gif(instance, path, options, &mut bytes).expect("a legal plan renders");
    (bytes, summary)
}

/// Whether a colour belongs to the snake (head or body).
fn snake_rgb(rgb: [u8; 3]) -> bool {
    rgb == HEAD_RGB || BODY_RGBS.contains(&rgb)
}

/// Checks the band property on frame `frame` showing `body` (head first):
/// between two grid-adjacent body cells, the line joining their centres is
/// snake-coloured when they are consecutive in the body; otherwise the grid
/// line between them is grid-coloured and, with `beside`, the pixel on either
/// side of it background (small cells have no room for that: a disc of the
/// head's size fills them to the line). Returns how many
/// (consecutive, non-consecutive) pairs it checked.
fn check_band(d: &Decoded, frame: usize, cell: u16, body: &[Pos], beside: bool) -> (usize, usize) {
    let c = usize::from(cell);
    let (mut joined, mut apart) = (0, 0);
    for (i, &a) in body.iter().enumerate() {
        for (j, &b) in body.iter().enumerate().skip(i + 1) {
            if a.0.abs_diff(b.0) + a.1.abs_diff(b.1) != 1 {
                continue;
            }
            let (ax, ay) = cell_centre(cell, a);
            let (bx, by) = cell_centre(cell, b);
            // The pixels from a's centre to b's, in order.
            let line: Vec<(usize, usize)> = (0..=c)
                .map(|k| {
                    let step = |p: usize, q: usize| {
                        if q > p {
                            p + k
                        } else if q < p {
                            p - k
                        } else {
                            p
                        }
                    };
                    (step(ax, bx), step(ay, by))
                })
                .collect();
            if j == i + 1 {
                joined += 1;
                for &p in &line {
                    assert!(
                        snake_rgb(d.rgb(frame, p)),
                        "frame {frame}: {a:?}-{b:?} consecutive, pixel {p:?} is {:?}",
                        d.rgb(frame, p)
                    );
                }
            } else {
                apart += 1;
                // The grid line lies c - c/2 pixels from a's centre towards b
                // when b is right or below, c/2 when left or above.
                let on_line = if bx > ax || by > ay { c - c / 2 } else { c / 2 };
                let (gap, wants) = if !beside {
                    (&line[on_line..=on_line], &[GRID_RGB][..])
                } else {
                    (
                        &line[on_line - 1..=on_line + 1],
                        &[BACKGROUND_RGB, GRID_RGB, BACKGROUND_RGB][..],
                    )
                };
                for (&p, &want) in gap.iter().zip(wants) {
                    assert_eq!(
                        d.rgb(frame, p),
                        want,
                        "frame {frame}: {a:?}-{b:?} not consecutive, pixel {p:?}"
                    );
                }
            }
        }
    }
    (joined, apart)
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
    let (bytes, summary) = render(&instance, &path, &options);
    let d = decode(&bytes);
    let t = path.len() - 1;
    assert_eq!(summary.frames, t + 1);
    assert_eq!(summary.skip, 1);
    assert_eq!(d.canvases.len(), t + 1);
    assert_eq!(d.repeat, Repeat::Infinite);
    assert_eq!(d.palette.len(), PALETTE.len() * 3);
    assert_eq!(d.delays[..t], vec![options.delay_cs; t]);
    assert_eq!(d.delays[t], options.last_frame_delay_cs);
    // Later frames are deltas, smaller than the first.
    assert!(d.areas[1..].iter().all(|&a| a < d.areas[0]));

    let at = |frame, p| d.rgb(frame, cell_centre(summary.cell, p));
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

/// Without `next_apple` (a full game's animation: its next apple is drawn
/// at random once the last is eaten) no apple shows before it is revealed;
/// the frames are otherwise the same.
#[test]
fn a_game_shows_no_apple_before_it_is_revealed() {
    let (instance, path) = small();
    let hidden = GifOptions {
        next_apple: false,
        ..GifOptions::default()
    };
    let (bytes, summary) = render(&instance, &path, &hidden);
    let (d, shown) = (
        decode(&bytes),
        decode(&render(&instance, &path, &GifOptions::default()).0),
    );
    let at = |d: &Decoded, frame, p| d.rgb(frame, cell_centre(summary.cell, p));
    // Apple 1 at (3, 2) is revealed by the eat at t = 2.
    for frame in [0, 1] {
        assert_eq!(at(&shown, frame, (3, 2)), NEXT_APPLE_RGB);
        assert_eq!(at(&d, frame, (3, 2)), BACKGROUND_RGB, "t = {frame}");
    }
    assert_eq!(at(&d, 2, (3, 2)), APPLE_RGB);
    assert_eq!(d.canvases[2..], shown.canvases[2..]);
}

/// An apple revealed on the cell the head has just eaten one on (a spawn
/// chain may do that): it was drawn over the head, which vanished but for
/// a rim. The head covers it until it moves on; then it shows.
#[test]
fn an_apple_revealed_under_the_head_does_not_hide_it() {
    let instance = Instance {
        width: 3,
        height: 3,
        walls: vec![],
        start: Start::Body(vec![(1, 1), (0, 1)]),
        apples: vec![(2, 1), (2, 1)],
        visible: 1,
        grow: true,
        tail: TailRule::Follow,
        horizon: None,
    };
    let path = vec![(1, 1), (2, 1), (2, 0), (1, 0), (1, 1), (2, 1)];
    let (bytes, summary) = render(&instance, &path, &GifOptions::default());
    let d = decode(&bytes);
    let at = |frame, p| d.rgb(frame, cell_centre(summary.cell, p));
    assert_eq!(at(0, (2, 1)), APPLE_RGB);
    assert_eq!(
        at(1, (2, 1)),
        HEAD_RGB,
        "the head, on the apple it revealed"
    );
    assert_eq!(
        at(2, (2, 1)),
        APPLE_RGB,
        "the apple, once the head moved on"
    );
    assert_eq!(at(5, (2, 1)), HEAD_RGB);
}

#[test]
fn pause_frames_repeat_the_last_picture() {
    let (instance, path) = small();
    let options = GifOptions {
        pause_frames: 2,
        ..GifOptions::default()
    };
    let d = decode(&render(&instance, &path, &options).0);
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
fn frames_beyond_the_pixel_budget_are_refused_before_drawing() {
    let (instance, path) = small();
    let mut bytes = Vec::new();
    // 5 x 2,000 px a side: 10,001 x ~10,040 pixels, twice the budget.
    let options = GifOptions {
        cell: Some(2_000),
        ..GifOptions::default()
    };
    let err = write_gif(&instance, &path, &options, &mut bytes).unwrap_err();
    assert!(
        matches!(err, snakesat::render::gif::GifError::TooManyPixels { .. }),
        "{err}"
    );
    assert!(bytes.is_empty(), "nothing written");
    // Just within it (5 x 1,400 px) is drawn.
    let options = GifOptions {
        cell: Some(1_400),
        ..GifOptions::default()
    };
    assert!(write_gif(&instance, &path, &options, &mut bytes).is_ok());
}

/// A snake of length 3 going round a Hamiltonian cycle of 16×16 for 300 moves.
fn long_cycle() -> (Instance, Vec<Pos>) {
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
    (instance, path)
}

#[test]
fn long_animation_stays_small() {
    let (instance, path) = long_cycle();
    let options = GifOptions {
        cell: Some(24),
        skip: Some(1),
        ..GifOptions::default()
    };
    let (bytes, summary) = render(&instance, &path, &options);
    assert!(bytes.len() < 5_000_000, "{} bytes", bytes.len());
    let d = decode(&bytes);
    assert_eq!(d.canvases.len(), 301);
    assert_eq!(summary.frames, 301);
    let at = |frame, p| d.rgb(frame, cell_centre(24, p));
    assert_eq!(at(300, path[300]), HEAD_RGB);
}

#[test]
fn long_plans_skip_time_points_by_themselves() {
    let (instance, path) = long_cycle();
    // 301 frames at 15 cs would last 45.15 s: every other time point.
    let (bytes, summary) = render(&instance, &path, &GifOptions::default());
    assert_eq!(summary.skip, 2);
    assert_eq!(summary.frames, 151);
    let d = decode(&bytes);
    assert_eq!(d.canvases.len(), 151);
    let at = |frame, p| d.rgb(frame, cell_centre(summary.cell, p));
    assert_eq!(at(1, path[2]), HEAD_RGB);
    assert_eq!(at(150, path[300]), HEAD_RGB);
    // A faster animation keeps every time point; --skip overrides.
    let fast = GifOptions {
        delay_cs: 10,
        ..GifOptions::default()
    };
    assert_eq!(render(&instance, &path, &fast).1.frames, 301);
    let every_fifth = GifOptions {
        skip: Some(5),
        ..GifOptions::default()
    };
    assert_eq!(render(&instance, &path, &every_fifth).1.frames, 61);
}

#[test]
fn default_images_are_about_400_pixels() {
    for side in [3, 4, 5, 10, 16, 30] {
        let instance = Instance {
            width: side,
            height: side,
            walls: vec![],
            start: Start::Body(vec![(1, 0), (0, 0)]),
            apples: vec![],
            visible: 0,
            grow: true,
            tail: TailRule::Follow,
            horizon: None,
        };
        let path = vec![(1, 0), (2, 0), (2, 1)];
        let (bytes, summary) = render(&instance, &path, &GifOptions::default());
        let d = decode(&bytes);
        assert!(
            (400..=480).contains(&d.width),
            "{side}x{side}: {} wide",
            d.width
        );
        assert!(d.height > d.width, "{side}x{side}: a strip under the board");
        assert_eq!(
            (d.width, d.height),
            (usize::from(summary.width), usize::from(summary.height))
        );
        // The counter's text is drawn in the strip under the board.
        let strip = usize::from(summary.cell) * side + 1;
        let text = (strip * d.width..d.height * d.width)
            .filter(|&i| d.rgb(0, (i % d.width, i / d.width)) == TEXT_RGB)
            .count();
        assert!(text > 100, "{side}x{side}: {text} text pixels");
    }
}

/// 5×5 with a body of 9 folded into three rows (head at (2, 2)), then two
/// moves right and down.
fn folded() -> (Instance, Vec<Pos>) {
    let body = vec![
        (2, 2),
        (1, 2),
        (0, 2),
        (0, 1),
        (1, 1),
        (2, 1),
        (2, 0),
        (1, 0),
        (0, 0),
    ];
    let instance = Instance {
        width: 5,
        height: 5,
        walls: vec![],
        start: Start::Body(body),
        apples: vec![(4, 4)],
        visible: 1,
        grow: true,
        tail: TailRule::Follow,
        horizon: None,
    };
    let path = vec![(2, 2), (3, 2), (3, 3), (3, 4), (4, 4)];
    simulate(&instance, &path).expect("the plan is legal");
    (instance, path)
}

#[test]
fn a_folded_body_is_one_band() {
    let (instance, path) = folded();
    let all = states(&instance, &path).unwrap();
    // Every cell size from 11 pixels with a background pixel on either side
    // of the line (at 11, 13 and 15 the head's disc reached the pixel before
    // it); the small ones, the grid line alone: at 5 pixels the head's disc
    // covered it and joined the head to the body cell beside it.
    let sizes = [(None, true)]
        .into_iter()
        .chain((11..=40).map(|c| (Some(c), true)))
        .chain((4..=10).map(|c| (Some(c), false)));
    for (cell, beside) in sizes {
        let options = GifOptions {
            cell,
            ..GifOptions::default()
        };
        let (bytes, summary) = render(&instance, &path, &options);
        let d = decode(&bytes);
        assert_eq!(d.canvases.len(), all.len());
        let (mut joined, mut apart) = (0, 0);
        for (frame, state) in all.iter().enumerate() {
            let (j, a) = check_band(&d, frame, summary.cell, &state.body, beside);
            joined += j;
            apart += a;
        }
        // Frame 0 alone has 8 joined pairs and 4 apart: (2,2)-(2,1),
        // (1,2)-(1,1), (0,1)-(0,0) and (1,1)-(1,0).
        assert!(joined >= 8 * all.len(), "{joined}");
        assert!(apart >= 4, "{apart}");
    }
}

#[test]
fn the_head_looks_where_it_goes() {
    let (instance, path) = folded();
    let (bytes, summary) = render(&instance, &path, &GifOptions::default());
    let d = decode(&bytes);
    let c = usize::from(summary.cell);
    // Time 1: moved right; time 2: moved down.
    for (time, dir) in [(1, (1i64, 0i64)), (2, (0, 1))] {
        let head = path[time];
        let (cx, cy) = cell_centre(summary.cell, head);
        let mut eyes = 0;
        for y in head.1 * c + 1..(head.1 + 1) * c {
            for x in head.0 * c + 1..(head.0 + 1) * c {
                if d.rgb(time, (x, y)) == EYE_RGB {
                    eyes += 1;
                    let ahead = (x as i64 - cx as i64) * dir.0 + (y as i64 - cy as i64) * dir.1;
                    assert!(
                        ahead > 0,
                        "t = {time}: an eye pixel at {:?} behind the centre",
                        (x, y)
                    );
                }
            }
        }
        assert!(eyes >= 2, "t = {time}: {eyes} eye pixels");
    }
}

/// The README's three MVP animations (`cargo run --release --example mvpN`):
/// each committed `plots/mvpN.gif` is exactly what the planner and renderer
/// give today, and every frame shows the snake as one connected band.
#[test]
fn the_readme_gifs_show_connected_snakes() {
    use snakesat::encode;
    use snakesat::instance::random::generate;
    use snakesat::planner::Planner;

    let encoding = encode::by_name("direct").unwrap();
    for name in ["mvp1", "mvp2", "mvp3"] {
        let instance = generate(&specs::mvp(name)).unwrap();
        let outcome = Planner::new(&*encoding).plan(&instance).unwrap();
        let path = outcome.plan().expect("a plan").path.clone();
        let (fresh, summary) = render(&instance, &path, &GifOptions::default());
        let file = format!("{}/plots/{name}.gif", env!("CARGO_MANIFEST_DIR"));
        let committed = std::fs::read(&file).unwrap();
        assert!(
            committed == fresh,
            "{file} is stale: run `cargo run --release --example {name}`"
        );
        let d = decode(&committed);
        let all = states(&instance, &path).unwrap();
        assert_eq!(
            d.canvases.len(),
            all.len(),
            "{name}: one frame per time point"
        );
        // An apple (revealed or next) may lie on a body cell and is drawn over
        // it: such frames are left out.
        let (mut joined, mut frames) = (0, 0);
        for (frame, state) in all.iter().enumerate() {
            let next = instance
                .apples
                .get(state.eaten + instance.visible_at_start());
            let covered = state
                .apples_on_board
                .iter()
                .map(|(_, cell)| cell)
                .chain(next)
                .any(|a| state.body.contains(a));
            if !covered {
                joined += check_band(&d, frame, summary.cell, &state.body, true).0;
                frames += 1;
            }
        }
        assert!(frames * 2 > all.len(), "{name}: {frames} frames checked");
        // Length 3 or more from t = 2 (a free start uncovers its body: one cell
        // at t = 0, two at t = 1): at least two joined pairs per frame after that.
        assert!(joined + 3 >= 2 * frames, "{name}: {joined} joined pairs");
    }
}

/// A lost game (`play`): the apple it was lost on, revealed by the last eat
/// and never eaten, is drawn on the last frame, and that frame's counter
/// (only that one) says so.
#[test]
fn the_last_frame_of_a_lost_game_shows_its_apple_and_says_lost() {
    let (instance, path) = small();
    // Eat apple 0 at t = 2 and stop: apple 1 at (3, 2) is left.
    let path = &path[..3];
    let plain = decode(&render(&instance, path, &GifOptions::default()).0);
    let lost = GifOptions {
        lost: true,
        ..GifOptions::default()
    };
    let (bytes, summary) = render(&instance, path, &lost);
    let d = decode(&bytes);
    let last = d.canvases.len() - 1;
    assert_eq!(last, 2);
    assert_eq!(d.rgb(last, cell_centre(summary.cell, (3, 2))), APPLE_RGB);
    assert_eq!((d.width, d.height), (plain.width, plain.height));
    // The same frames but the last counter, which is longer.
    assert_eq!(d.canvases[..last], plain.canvases[..last]);
    let strip_top = 5 * usize::from(summary.cell) + 1;
    let text = |d: &Decoded| {
        d.canvases[last][strip_top * d.width..]
            .iter()
            .enumerate()
            .filter(|&(i, _)| d.rgb(last, (i % d.width, strip_top + i / d.width)) == TEXT_RGB)
            .map(|(i, _)| i % d.width)
            .max()
    };
    assert!(text(&d) > text(&plain), "the counter goes on: · lost");
    assert_eq!(
        d.canvases[last][..strip_top * d.width],
        plain.canvases[last][..strip_top * d.width]
    );
}
