//! The HTML plan viewer in a real browser: headless Chromium loads the page
//! written by `snakesat render --html`, the page steps its slider to step `K`
//! (opened as `FILE.html#step=K`, which moves the slider as a user would),
//! and both the page's DOM and a screenshot show the head in the planned cell.
//!
//! In CI (`CI` set) Chromium must be installed (`.ci/run` installs Debian's
//! `chromium-headless-shell`); elsewhere the test is skipped with a message
//! when no Chromium is found.

#[path = "support/cli.rs"]
mod support;
use support::{snakesat, temp_dir};

use std::path::{Path, PathBuf};
use std::process::Command;

/// The first Chromium on the PATH.
fn chromium() -> Option<&'static str> {
    ["chromium-headless-shell", "chromium", "chromium-browser"]
        .into_iter()
        .find(|name| {
            Command::new(name)
                .arg("--version")
                .output()
                .is_ok_and(|o| o.status.success())
        })
}

/// The first Chromium on the PATH; without one, `None` after saying the
/// test is skipped (in CI, where `.ci/run` installs it, a failure).
fn chromium_or_skip() -> Option<&'static str> {
    let browser = chromium();
    if browser.is_none() {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI must have Chromium for the viewer test"
        );
        eprintln!("skipped: no chromium-headless-shell / chromium on the PATH");
    }
    browser
}

fn browse(browser: &str, url: &str, extra: &[&str]) -> std::process::Output {
    Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--hide-scrollbars",
            "--force-device-scale-factor=1",
            "--window-size=800,900",
            "--virtual-time-budget=3000",
        ])
        .args(extra)
        .arg(url)
        .output()
        .expect("chromium runs")
}

/// A `data-NAME="..."` attribute of the DOM dump.
fn attribute<'a>(dom: &'a str, name: &str) -> &'a str {
    let key = format!("data-{name}=\"");
    let start = dom
        .find(&key)
        .unwrap_or_else(|| panic!("no data-{name} in the page"))
        + key.len();
    let end = start + dom[start..].find('"').unwrap();
    &dom[start..end]
}

/// `(left, top, right, bottom)` in pixels.
type Bbox = (usize, usize, usize, usize);

/// A screenshot's pixels, RGB, row by row.
struct Shot {
    width: usize,
    rgb: Vec<[u8; 3]>,
}

impl Shot {
    fn read(png_file: &Path) -> Shot {
        let decoder = png::Decoder::new(std::io::BufReader::new(
            std::fs::File::open(png_file).unwrap(),
        ));
        let mut reader = decoder.read_info().unwrap();
        let mut buf = vec![0; reader.output_buffer_size()];
        let info = reader.next_frame(&mut buf).unwrap();
        let channels = info.color_type.samples();
        let rgb = buf[..info.buffer_size()]
            .chunks(channels)
            .map(|p| [p[0], p[1], p[2]])
            .collect();
        Shot {
            width: info.width as usize,
            rgb,
        }
    }

    /// Bounding box `(left, top, right, bottom)` and centroid of the pixels
    /// of one colour within `area` (inclusive).
    fn find(&self, colour: [u8; 3], area: Bbox) -> Option<(Bbox, (f64, f64))> {
        let (mut n, mut sx, mut sy) = (0usize, 0usize, 0usize);
        let mut bbox = (usize::MAX, usize::MAX, 0, 0);
        for (i, &p) in self.rgb.iter().enumerate() {
            let (x, y) = (i % self.width, i / self.width);
            let inside = (area.0..=area.2).contains(&x) && (area.1..=area.3).contains(&y);
            if p == colour && inside {
                n += 1;
                sx += x;
                sy += y;
                bbox = (bbox.0.min(x), bbox.1.min(y), bbox.2.max(x), bbox.3.max(y));
            }
        }
        (n > 0).then(|| (bbox, (sx as f64 / n as f64, sy as f64 / n as f64)))
    }
}

/// The board's border colour (#c8cfc4) and the head's (rgb(20, 40, 140), the
/// GIF's; the legend's head below the board lies outside the board's box).
const BORDER: [u8; 3] = [200, 207, 196];
const HEAD: [u8; 3] = [20, 40, 140];

/// Solves `instance` (`solve --json`, saved as `dir/plan.json`) and renders
/// its viewer (`render --html`, `dir/plan.html`): the JSON answer and the page.
fn solve_and_render(dir: &Path, instance: &Path) -> (serde_json::Value, PathBuf) {
    let run = snakesat(&["solve", instance.to_str().unwrap(), "--json"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let plan = dir.join("plan.json");
    std::fs::write(&plan, &run.stdout).unwrap();
    let page = dir.join("plan.html");
    let render = snakesat(&[
        "render",
        instance.to_str().unwrap(),
        plan.to_str().unwrap(),
        "--html",
        page.to_str().unwrap(),
    ]);
    assert_eq!(render.code, 0, "{}", render.stderr);
    (serde_json::from_str(run.stdout.trim()).unwrap(), page)
}

#[test]
fn the_viewer_shows_the_head_in_the_planned_cell() {
    let Some(browser) = chromium_or_skip() else {
        return;
    };
    let dir = temp_dir("viewer");
    let instance = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/examples/instances/walls-5x5.json"
    );
    let (solved, page) = solve_and_render(&dir, Path::new(instance));
    let path: Vec<(u64, u64)> = solved["path"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| (c[0].as_u64().unwrap(), c[1].as_u64().unwrap()))
        .collect();
    let text = std::fs::read_to_string(&page).unwrap();
    assert!(
        !text.contains("src=\"http") && !text.contains("<link"),
        "self-contained"
    );

    for step in [0, 3, path.len() / 2, path.len() - 1] {
        let url = format!("file://{}#step={step}", page.display());
        let out = browse(browser, &url, &["--dump-dom"]);
        let dom = String::from_utf8_lossy(&out.stdout);
        assert_eq!(attribute(&dom, "step"), step.to_string(), "{dom}");
        let (x, y) = path[step];
        assert_eq!(attribute(&dom, "head"), format!("{x},{y}"));
        assert!(
            dom.contains(&format!("step {step}/{}", path.len() - 1)),
            "the counter shows the step"
        );

        // The screenshot: the head (its colour's centroid) lies in the planned
        // cell of the board (the box of the board's border colour, 5 cells wide).
        let shot = dir.join(format!("step-{step}.png"));
        let out = browse(
            browser,
            &url,
            &[&format!("--screenshot={}", shot.display())],
        );
        assert!(shot.exists(), "{}", String::from_utf8_lossy(&out.stderr));
        let image = Shot::read(&shot);
        let everywhere = (0, 0, usize::MAX, usize::MAX);
        let (board, _) = image.find(BORDER, everywhere).expect("the board is drawn");
        let (left, top, right, _) = board;
        let (_, (hx, hy)) = image.find(HEAD, board).expect("the head is drawn");
        let cell = (right - left - 1) as f64 / 5.0;
        let seen = (
            ((hx - left as f64 - 1.0) / cell).floor() as u64,
            ((hy - top as f64 - 1.0) / cell).floor() as u64,
        );
        assert_eq!(seen, (x, y), "head cell in the screenshot at step {step}");
    }
}

/// The rings (dashed) drawn at `step` of `page`.
fn rings_at(browser: &str, page: &Path, step: usize) -> usize {
    let url = format!("file://{}#step={step}", page.display());
    let dom = String::from_utf8_lossy(&browse(browser, &url, &["--dump-dom"]).stdout).into_owned();
    assert_eq!(attribute(&dom, "step"), step.to_string());
    // On the board only (the legend has a ring too; the page's script
    // spells the attribute followed by `/>`).
    let start = dom.find("<g id=\"dynamic\">").expect("the drawing");
    let drawing = &dom[start..start + dom[start..].find("</g>").expect("its end")];
    drawing.matches("stroke-dasharray=\"3 2\">").count()
}

/// An ordered list's page rings each apple still to come, but one per cell:
/// the next to come there (every later apple's number overprinted it).
#[test]
fn the_viewer_rings_one_apple_per_cell() {
    let Some(browser) = chromium_or_skip() else {
        return;
    };
    let dir = temp_dir("viewer-rings");
    // Apples 2 and 4 come back to the cells of 0 and 1.
    let instance = dir.join("twice.json");
    std::fs::write(
        &instance,
        r#"{"width":6,"height":2,"visible":1,"snake":[[0,0]],"apples":[[2,0],[5,1],[2,0],[5,1],[0,1]]}"#,
    )
    .unwrap();
    let (plan, page) = solve_and_render(&dir, &instance);
    let eats: Vec<usize> = plan["eaten"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e[1].as_u64().unwrap() as usize)
        .collect();
    // Step 0: apple 0 on the board; to come, the cells (5,1) and (0,1)
    // (apple 2's cell holds apple 0, not a ring). Just after the first eat:
    // apple 1 on the board, apple 2's cell (2,0) and (0,1) to come.
    assert_eq!(rings_at(browser, &page, 0), 2);
    assert_eq!(rings_at(browser, &page, eats[0]), 2);
    // Once the last apple is revealed, nothing is left to come.
    assert_eq!(rings_at(browser, &page, eats[3]), 0);
}

/// A full game's page rings no apple to come: its next apple is drawn at
/// random once the last one is eaten, unknown to the player until then.
#[test]
fn a_games_viewer_shows_no_apple_before_it_is_drawn() {
    let Some(browser) = chromium_or_skip() else {
        return;
    };
    let dir = temp_dir("viewer-game");
    let page = dir.join("game.html");
    let run = snakesat(&[
        "play",
        "--size",
        "6",
        "--seed",
        "1",
        "--html",
        page.to_str().unwrap(),
        "-q",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    for step in [0, 40] {
        assert_eq!(rings_at(browser, &page, step), 0, "step {step}");
    }
}

/// An apple revealed under the body (it waits there for the head) is drawn
/// over the body, so its number shows: it was drawn first and hidden.
#[test]
fn the_viewer_draws_an_apple_under_the_body_over_it() {
    let Some(browser) = chromium_or_skip() else {
        return;
    };
    let dir = temp_dir("viewer-under");
    let instance = dir.join("under.json");
    std::fs::write(
        &instance,
        r#"{"width": 4, "height": 3, "snake": [[1, 0], [0, 0], [0, 1], [0, 2]],
            "apples": [[2, 0], [0, 1]], "visible": 1}"#,
    )
    .unwrap();
    let (_, page) = solve_and_render(&dir, &instance);
    // Step 1: apple 1 eaten at (2, 0), apple 2 revealed at (0, 1), under the body.
    let url = format!("file://{}#step=1", page.display());
    let dom = String::from_utf8_lossy(&browse(browser, &url, &["--dump-dom"]).stdout).into_owned();
    assert_eq!(attribute(&dom, "step"), "1");
    // The drawing of the step: the first dynamic group (the page's script
    // spells an empty one too).
    let start = dom.find("<g id=\"dynamic\">").expect("the drawing");
    let drawing = &dom[start..start + dom[start..].find("</g>").expect("its end")];
    let apple = drawing.find("fill=\"#d62f2f\"").expect("apple 2 is drawn");
    let last_body = drawing
        .rfind("stroke-linecap=\"round\"")
        .expect("the body is drawn");
    assert!(last_body < apple, "the apple is drawn over the body");
}

/// An apple revealed on the head's own cell (the second apple of this
/// instance spawns where the first is eaten) was drawn over the head, which
/// vanished but for a rim. It is drawn under the head, before it.
#[test]
fn the_viewer_keeps_the_head_over_an_apple_revealed_under_it() {
    let Some(browser) = chromium_or_skip() else {
        return;
    };
    let dir = temp_dir("viewer-same-cell");
    let instance = dir.join("same.json");
    std::fs::write(
        &instance,
        r#"{"width": 3, "height": 3, "snake": [[1, 1], [0, 1]],
            "apples": [[2, 1], [2, 1]], "visible": 1}"#,
    )
    .unwrap();
    let (plan, page) = solve_and_render(&dir, &instance);
    assert_eq!(plan["path"][1], serde_json::json!([2, 1]));
    let url = format!("file://{}#step=1", page.display());
    let dom = String::from_utf8_lossy(&browse(browser, &url, &["--dump-dom"]).stdout).into_owned();
    assert_eq!(attribute(&dom, "step"), "1");
    assert_eq!(attribute(&dom, "head"), "2,1");
    let start = dom.find("<g id=\"dynamic\">").expect("the drawing");
    let drawing = &dom[start..start + dom[start..].find("</g>").expect("its end")];
    let apple = drawing.find("fill=\"#d62f2f\"").expect("apple 2 is drawn");
    let head = drawing.find("id=\"head\"").expect("the head is drawn");
    assert!(apple < head, "the apple is drawn under the head");
}

/// A page's title and the methods beside its apples are text: markup in
/// them (a library caller's strings) is shown, never run or inserted.
#[test]
fn the_viewer_shows_markup_in_its_strings_as_text() {
    let Some(browser) = chromium_or_skip() else {
        return;
    };
    let dir = temp_dir("viewer-text");
    let instance = snakesat::instance::json::from_json(
        r#"{"width": 3, "height": 1, "snake": [[0, 0]], "apples": [[2, 0]]}"#,
    )
    .unwrap();
    let method = r#"<b id="injected">bold</b>"#;
    let html = snakesat::render::html::viewer(
        &instance,
        &[(0, 0), (1, 0), (2, 0)],
        &snakesat::render::html::Page {
            title: "{{DATA}} <i id=\"titled\">",
            methods: &[method.to_string()],
            apples_to_come: true,
            lost: false,
        },
    )
    .unwrap();
    let page = dir.join("text.html");
    std::fs::write(&page, html).unwrap();
    let url = format!("file://{}", page.display());
    let dom = String::from_utf8_lossy(&browse(browser, &url, &["--dump-dom"]).stdout).into_owned();
    assert!(dom.contains("id=\"apples\""), "the page ran: {dom}");
    assert!(
        dom.contains("&lt;b id=\"injected\"&gt;bold&lt;/b&gt;"),
        "{dom}"
    );
    assert!(!dom.contains("<b id=\"injected\""), "{dom}");
    assert!(
        dom.contains("<h1>{{DATA}} &lt;i id=\"titled\"&gt;</h1>"),
        "{dom}"
    );
    assert!(!dom.contains("<i id=\"titled\""), "{dom}");
}

/// A free start's snake has its full length from step 0 (as the GIF's
/// counter says), while only the cells its head has been on are drawn.
#[test]
fn the_viewer_counts_a_free_starts_length() {
    let Some(browser) = chromium_or_skip() else {
        return;
    };
    let dir = temp_dir("viewer-free");
    let instance = dir.join("free.json");
    std::fs::write(
        &instance,
        r#"{"width": 5, "height": 1, "length": 3, "apples": [[4, 0]], "horizon": 4}"#,
    )
    .unwrap();
    let (solved, page) = solve_and_render(&dir, &instance);
    assert_eq!(solved["path"].as_array().unwrap().len(), 5);
    for (step, length, drawn) in [(0, 3, 1), (1, 3, 2), (3, 3, 3), (4, 4, 4)] {
        let url = format!("file://{}#step={step}", page.display());
        let dom =
            String::from_utf8_lossy(&browse(browser, &url, &["--dump-dom"]).stdout).into_owned();
        assert!(
            dom.contains(&format!(
                "step {step}/4 · apples {}/1 · length {length}",
                step / 4
            )),
            "step {step}: {dom}"
        );
        let start = dom.find("<g id=\"dynamic\">").expect("the drawing");
        let drawing = &dom[start..start + dom[start..].find("</g>").expect("its end")];
        let joints = drawing.matches("stroke-linecap=\"round\"").count();
        assert_eq!(joints, drawn - 1, "step {step}: {drawing}");
    }
}

/// The status line and the apple table as a class reads them, on pages of
/// both commands that write one: `solve --html` (a free start, drawn on the
/// cells its head has been on, says how much of it is on the board; the
/// apple being fetched is highlighted and those eaten are muted) and a lost
/// `play --html` game (its last step says "lost", as its title and the
/// GIF's caption do). The legend names what is drawn.
#[test]
fn the_viewer_says_what_a_class_needs_to_read_it() {
    let Some(browser) = chromium_or_skip() else {
        return;
    };
    let dir = temp_dir("viewer-status");
    let dom_at = |page: &Path, step: usize| {
        let url = format!("file://{}#step={step}", page.display());
        let dom =
            String::from_utf8_lossy(&browse(browser, &url, &["--dump-dom"]).stdout).into_owned();
        assert_eq!(attribute(&dom, "step"), step.to_string());
        dom
    };
    // The default instance: a free start of length 3, apple 1 eaten at step 1.
    let solved = dir.join("solved.html");
    let run = snakesat(&["solve", "--html", solved.to_str().unwrap(), "-q"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.starts_with("plan: 45 moves"), "{}", run.stdout);
    let dom = dom_at(&solved, 1);
    assert!(
        dom.contains("step 1/45 · apples 1/9 · length 4 (2 on the board so far)"),
        "{dom}"
    );
    assert!(dom.contains("<title>random 10x10 seed 1 — 45 moves</title>"));
    for item in [
        "head",
        "body, neck to tail",
        "apple (its number)",
        "apple to come",
    ] {
        assert!(
            dom.contains(&format!("</svg>{item}</span>")),
            "legend: {item}"
        );
    }
    assert!(
        !dom.contains("</svg>wall</span>"),
        "no walls, none in the legend"
    );
    // Rows in eating order: apple 1 eaten (muted), apple 2 the next (highlighted).
    let table = &dom[dom.find("<table id=\"apples\">").expect("the table")..];
    let table = &table[..table.find("</table>").expect("its end")];
    let rows: Vec<&str> = table
        .split("<tr data-eat=")
        .skip(1)
        .map(|row| row.split('>').next().unwrap())
        .collect();
    assert_eq!(rows.len(), 9);
    assert!(rows[0].ends_with("class=\"done\""), "{rows:?}");
    assert!(rows[1].ends_with("class=\"next\""), "{rows:?}");
    assert!(rows[2].ends_with("class=\"\""), "{rows:?}");
    // 5x5 seed 62 is lost after 22 apples, on the 23rd.
    let lost = dir.join("lost.html");
    let run = snakesat(&[
        "play",
        "--size",
        "5",
        "--seed",
        "62",
        "--html",
        lost.to_str().unwrap(),
        "-q",
    ]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    let dom = dom_at(&lost, 101);
    assert!(
        dom.contains("step 101/101 · apples 22/23 · length 23 · lost"),
        "{dom}"
    );
    let dom = dom_at(&lost, 100);
    let status = &dom[dom.find("<span id=\"status\">").expect("the status line")..];
    let status = &status[..status.find("</span>").unwrap()];
    assert!(
        status.ends_with("· length 22"),
        "only the last step says lost: {status}"
    );
}

/// The viewer's keys, pressed by a script appended to a copy of the page:
/// → steps, Page Down jumps a twentieth of the plan (at least 10 steps),
/// End goes to the last step, and while the speed list has the focus its
/// arrow keys are its own (they used to step the plan and were swallowed).
#[test]
fn the_viewers_keys_step_and_leave_the_speed_list_its_own() {
    let Some(browser) = chromium_or_skip() else {
        return;
    };
    let dir = temp_dir("viewer-keys");
    let page = dir.join("game.html");
    let run = snakesat(&[
        "play",
        "--size",
        "6",
        "--html",
        page.to_str().unwrap(),
        "-q",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let html = std::fs::read_to_string(&page).unwrap();
    let step_after = |keys: &str| {
        let pressed = dir.join("pressed.html");
        let script = format!(
            r#"<script>
const press = (target, key) => target.dispatchEvent(new KeyboardEvent("keydown", {{ key, bubbles: true, cancelable: true }}));
{keys}
</script></body>"#
        );
        std::fs::write(&pressed, html.replacen("</body>", &script, 1)).unwrap();
        let url = format!("file://{}", pressed.display());
        let dom =
            String::from_utf8_lossy(&browse(browser, &url, &["--dump-dom"]).stdout).into_owned();
        attribute(&dom, "step").parse::<usize>().unwrap()
    };
    assert_eq!(step_after("press(document.body, \"ArrowRight\");"), 1);
    let steps = step_after("press(document.body, \"End\");");
    assert!(steps > 100, "a 6x6 game has over 100 steps: {steps}");
    assert_eq!(
        step_after("press(document.body, \"PageDown\"); press(document.body, \"PageDown\");"),
        2 * (steps as f64 / 20.0).round().max(10.0) as usize
    );
    assert_eq!(
        step_after(
            "const speed = document.getElementById(\"speed\"); speed.focus(); press(speed, \"ArrowRight\"); press(speed, \" \");"
        ),
        0
    );
}
