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

use std::path::Path;
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

/// The RGB colour of pixel `(x, y)` of a PNG file.
fn pixel(png_file: &Path, x: usize, y: usize) -> [u8; 3] {
    let decoder = png::Decoder::new(std::io::BufReader::new(
        std::fs::File::open(png_file).unwrap(),
    ));
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).unwrap();
    let channels = info.color_type.samples();
    let at = (y * info.width as usize + x) * channels;
    [buf[at], buf[at + 1], buf[at + 2]]
}

#[test]
fn the_viewer_shows_the_head_in_the_planned_cell() {
    let Some(browser) = chromium() else {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI must have Chromium for the viewer test"
        );
        eprintln!("skipped: no chromium-headless-shell / chromium on the PATH");
        return;
    };
    let dir = temp_dir("viewer");
    let instance = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/examples/instances/walls-5x5.json"
    );
    let plan = dir.join("plan.json");
    let page = dir.join("plan.html");
    let run = snakesat(&["solve", instance, "--json"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    std::fs::write(&plan, &run.stdout).unwrap();
    let solved: serde_json::Value = serde_json::from_str(run.stdout.trim()).unwrap();
    let path: Vec<(u64, u64)> = solved["path"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| (c[0].as_u64().unwrap(), c[1].as_u64().unwrap()))
        .collect();
    let run = snakesat(&[
        "render",
        instance,
        plan.to_str().unwrap(),
        "--html",
        page.to_str().unwrap(),
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
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

        // The screenshot: the head's colour at the centre of its cell.
        let shot = dir.join(format!("step-{step}.png"));
        let out = browse(
            browser,
            &url,
            &[&format!("--screenshot={}", shot.display())],
        );
        assert!(shot.exists(), "{}", String::from_utf8_lossy(&out.stderr));
        let b: Vec<f64> = attribute(&dom, "box")
            .split(',')
            .map(|v| v.parse().unwrap())
            .collect();
        let cell = b[2] / 5.0;
        let centre = |i: u64, origin: f64| (origin + (i as f64 + 0.5) * cell) as usize;
        let head = pixel(&shot, centre(x, b[0]), centre(y, b[1]));
        assert_eq!(head, [20, 90, 40], "head colour at step {step}");
        // A cell the snake is not on shows the board, not the head.
        let away = path.iter().take(step + 1).all(|&c| c != (4, 4));
        if away {
            assert_ne!(pixel(&shot, centre(4, b[0]), centre(4, b[1])), [20, 90, 40]);
        }
    }
}
