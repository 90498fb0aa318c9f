//! A plan viewer in one self-contained HTML file: the board drawn as SVG
//! with a legend, play / pause, a step slider, keyboard stepping (← →, Page
//! Up/Down by a twentieth of the plan, space, Home End; without Alt, Ctrl or
//! Meta, which stay the browser's, and not while the speed list has the
//! focus), and the
//! plan's numbers (step, apples eaten, length, a lost game's end, and per
//! apple when it was eaten and, for full games, how: eaten rows are muted
//! and the apple being fetched is highlighted). It loads nothing from the
//! network. Its colours are the GIF's ([`crate::render`]): a dark blue head,
//! a green body dark at the neck and light at the tail, red apples.
//!
//! The plan is replayed by the simulator ([`crate::sim::replay_partial`])
//! before anything is written, and the page draws the simulator's view: the body at
//! step `t` is the last `len(t)` cells of the starting body followed by the
//! path, with `len(t)` from the simulator's eating times; apple `i` is on the
//! board from the eat that reveals it until the eat of `i` itself (to the
//! end if the plan never eats it, as in a lost game).
//!
//! Opening `FILE.html#step=K` shows step `K`, as if the slider had been moved
//! there; the SVG carries `data-step` and `data-head="x,y"` for scripts that
//! check what is shown.

use serde::Serialize;

use crate::instance::{Instance, Pos, Start};
use crate::sim::{Violation, replay_partial};

/// The data the page's script reads.
#[derive(Serialize)]
struct ViewerData<'a> {
    title: &'a str,
    width: usize,
    height: usize,
    walls: &'a [Pos],
    /// The starting body's cells behind the head (tail first), then the path.
    cells: Vec<Pos>,
    /// How many of `cells` come before the path.
    before: usize,
    /// The snake's length at every time point `0..=T` (a free start's
    /// snake is drawn on the cells its head has been on so far).
    lengths: Vec<usize>,
    apples: Vec<AppleView>,
    /// Per apple, how the plan reached it (full games), else empty.
    methods: &'a [String],
    /// Apples not yet revealed are drawn (dashed).
    to_come: bool,
    /// The plan is a lost game.
    lost: bool,
}

/// What the page shows beside the board ([`viewer`]).
#[derive(Clone, Copy, Debug, Default)]
pub struct Page<'a> {
    /// The page's title and heading, shown as text (markup in it is
    /// escaped, not run).
    pub title: &'a str,
    /// Per apple in eating order, how the plan reached it (a full game's
    /// "how" column), or empty when there is nothing to say; shown as text.
    pub methods: &'a [String],
    /// Whether apples not yet revealed are drawn (dashed, numbered): an
    /// ordered list's, known in advance; not a full game's, drawn at random
    /// as the last one is eaten.
    pub apples_to_come: bool,
    /// Whether the plan is a lost game (the player found no safe plan for
    /// its last apple): the last step says so.
    pub lost: bool,
}

/// When an apple is on the board.
#[derive(Serialize)]
struct AppleView {
    cell: Pos,
    /// First time point at which it is on the board.
    reveal: usize,
    /// Time point at which it is eaten (`T + 1` if never).
    eat: usize,
}

/// The viewer page for `path` on `instance`, or the first rule the path
/// breaks ([`crate::sim::Rule::InvalidInstance`] for an instance that
/// [`crate::instance::Instance::validate_game`] refuses); apples left
/// uneaten at the end are shown, not refused. `page` holds the title and
/// what else the page says ([`Page`]).
pub fn viewer(instance: &Instance, path: &[Pos], page: &Page) -> Result<String, Violation> {
    let Page {
        title,
        methods,
        apples_to_come,
        lost,
    } = *page;
    let replay = replay_partial(instance, path)?;
    let moves = path.len().saturating_sub(1);
    let behind: Vec<Pos> = match &instance.start {
        Start::Body(body) => body.iter().skip(1).rev().copied().collect(),
        Start::Free { .. } => vec![],
    };
    let before = behind.len();
    let mut cells = behind;
    cells.extend_from_slice(path);
    let mut eat_time = vec![moves + 1; instance.apples.len()];
    let mut eaten_by = vec![0usize; moves + 2];
    for &(apple, t) in &replay.eaten {
        eat_time[apple] = t;
        eaten_by[t] += 1;
    }
    let base = instance.initial_length();
    let mut eaten = 0;
    let lengths = (0..=moves)
        .map(|t| {
            eaten += eaten_by[t];
            if instance.grow { base + eaten } else { base }
        })
        .collect();
    let visible = instance.visible_at_start();
    let apples = instance
        .apples
        .iter()
        .enumerate()
        .map(|(i, &cell)| AppleView {
            cell,
            reveal: if i < visible {
                0
            } else {
                // The k-th eat (in time order) reveals apple `visible + k`.
                replay.eaten.get(i - visible).map_or(moves + 1, |&(_, t)| t)
            },
            eat: eat_time[i],
        })
        .collect();
    let data = ViewerData {
        title,
        width: instance.width,
        height: instance.height,
        walls: &instance.walls,
        cells,
        before,
        lengths,
        apples,
        methods,
        to_come: apples_to_come,
        lost,
    };
    // (`<` only occurs inside JSON strings, where `\u003c` means the same:
    // no `</script>` or `<!--` can end or confuse the data's script element.)
    let json = serde_json::to_string(&data)
        .expect("plain data serialises")
        .replace('<', "\\u003c");
    // Each placeholder is filled in the page's own text only, never inside
    // what another placeholder brought in (a title `{{DATA}}` stays text).
    let title = escape(title);
    Ok(PAGE
        .split("{{DATA}}")
        .map(|part| part.replace("{{TITLE}}", &title))
        .collect::<Vec<_>>()
        .join(&json))
}

/// Escapes text for HTML.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

const PAGE: &str = r##"<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{{TITLE}}</title>
<style>
  body { font: 15px/1.4 system-ui, sans-serif; margin: 16px; color: #1d2a1f; background: #f6f7f4; }
  h1 { font-size: 18px; margin: 0 0 8px; }
  #controls { display: flex; gap: 10px; align-items: center; margin: 8px 0; flex-wrap: wrap; }
  #slider { width: min(480px, 70vw); }
  button { font: inherit; padding: 3px 12px; }
  #status { font-variant-numeric: tabular-nums; }
  #board { background: #fff; border: 1px solid #c8cfc4; display: block; }
  table { border-collapse: collapse; margin-top: 10px; font-size: 13px; }
  td, th { border: 1px solid #d5dbd2; padding: 2px 8px; text-align: right; }
  tr.next td { background: #fff3c4; }
  tr.done td { color: #8a948b; }
  .hint { color: #5d6b5f; font-size: 13px; }
  #legend { display: flex; gap: 14px; flex-wrap: wrap; margin: 6px 0 0; font-size: 13px; }
  #legend span { display: inline-flex; align-items: center; gap: 4px; }
</style>
</head>
<body>
<h1>{{TITLE}}</h1>
<div id="controls">
  <button id="play" type="button">Play</button>
  <input id="slider" type="range" min="0" value="0" aria-label="step">
  <span id="status"></span>
  <label>speed <select id="speed"><option value="2">slow</option><option value="8" selected>normal</option><option value="30">fast</option><option value="120">very fast</option></select></label>
</div>
<svg id="board" xmlns="http://www.w3.org/2000/svg"></svg>
<p id="legend"></p>
<p class="hint">Keys: ← → step, Page Up/Down a twentieth of the plan, space play/pause, Home/End first/last step. Open with <code>#step=K</code> to start at step K. In the table below, the apple being fetched is highlighted and those eaten are greyed.</p>
<table id="apples"></table>
<script type="application/json" id="plan-data">{{DATA}}</script>
<script>
"use strict";
const D = JSON.parse(document.getElementById("plan-data").textContent);
const T = D.lengths.length - 1;
const C = Math.max(14, Math.min(48, Math.floor(560 / Math.max(D.width, D.height))));
const NS = "http://www.w3.org/2000/svg";
const svg = document.getElementById("board");
svg.setAttribute("width", D.width * C);
svg.setAttribute("height", D.height * C);
svg.setAttribute("viewBox", `0 0 ${D.width * C} ${D.height * C}`);
const slider = document.getElementById("slider");
slider.max = T;
const centre = (p) => [p[0] * C + C / 2, p[1] * C + C / 2];
let grid = "";
for (let y = 0; y < D.height; y++)
  for (let x = 0; x < D.width; x++)
    grid += `<rect x="${x * C}" y="${y * C}" width="${C}" height="${C}" fill="${(x + y) % 2 ? "#eef2ea" : "#f8faf6"}"/>`;
for (const w of D.walls)
  grid += `<rect x="${w[0] * C}" y="${w[1] * C}" width="${C}" height="${C}" fill="#4a4f57"/>`;
svg.innerHTML = `<g>${grid}</g><g id="dynamic"></g>`;
const dynamic = document.getElementById("dynamic");
const HEAD = "rgb(20,40,140)", NECK = [14, 96, 38], TAIL = [176, 224, 150];

// The legend: what each shape is (walls and apples to come only where drawn).
const swatch = (shape) => `<svg width="16" height="16" viewBox="0 0 16 16" aria-hidden="true">${shape}</svg>`;
const legend = [
  [swatch(`<circle cx="8" cy="8" r="7" fill="${HEAD}"/>`), "head"],
  [swatch(`<line x1="2" y1="8" x2="14" y2="8" stroke="rgb(${NECK})" stroke-width="9" stroke-linecap="round"/>`) +
    swatch(`<line x1="2" y1="8" x2="14" y2="8" stroke="rgb(${TAIL})" stroke-width="6" stroke-linecap="round"/>`), "body, neck to tail"],
  [swatch(`<circle cx="8" cy="8" r="6" fill="#d62f2f"/>`), "apple (its number)"],
];
if (D.to_come)
  legend.push([swatch(`<circle cx="8" cy="8" r="5" fill="none" stroke="#e3a0a0" stroke-dasharray="3 2"/>`), "apple to come"]);
if (D.walls.length)
  legend.push([swatch(`<rect x="1" y="1" width="14" height="14" fill="#4a4f57"/>`), "wall"]);
document.getElementById("legend").innerHTML = legend.map(([icon, text]) => `<span>${icon}${text}</span>`).join("");

// The data's strings are text, not markup.
const esc = (s) => String(s).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const rows = ["<tr><th>apple</th><th>cell</th><th>eaten at step</th>" + (D.methods.length ? "<th>how</th>" : "") + "</tr>"];
const order = D.apples.map((a, i) => i).sort((a, b) => D.apples[a].eat - D.apples[b].eat);
order.forEach((i, k) => {
  const a = D.apples[i];
  rows.push(`<tr data-eat="${a.eat}"><td>${i + 1}</td><td>(${a.cell[0]}, ${a.cell[1]})</td><td>${a.eat > T ? "-" : a.eat}</td>` +
    (D.methods.length ? `<td>${esc(D.methods[k] ?? "")}</td>` : "") + "</tr>");
});
document.getElementById("apples").innerHTML = rows.join("");

function mix(a, b, f) { return a.map((v, i) => Math.round(v + (b[i] - v) * f)); }

function draw(t) {
  t = Math.max(0, Math.min(T, t | 0));
  slider.value = t;
  // Apples to come lie under the snake; apples on the board over it, so that
  // one waiting under the body (revealed there) keeps its number in view;
  // but one revealed under the head itself (a spawn where the last apple was
  // eaten) lies under it, shown once the head moves on.
  const [hcx, hcy] = D.cells[D.before + t];
  let out = "";
  let over = "";
  let eaten = 0;
  // One apple per cell: the next to come there (later ones' numbers overprinted it).
  const taken = new Set();
  for (let i = 0; i < D.apples.length; i++) {
    const a = D.apples[i];
    if (a.eat <= t) { eaten++; continue; }
    if (a.reveal > t && !D.to_come) continue;
    const cell = `${a.cell[0]},${a.cell[1]}`;
    if (taken.has(cell)) continue;
    taken.add(cell);
    const [cx, cy] = centre(a.cell);
    if (a.reveal <= t) {
      const disc = `<circle cx="${cx}" cy="${cy}" r="${C * 0.36}" fill="#d62f2f"/>` +
        `<text x="${cx}" y="${cy + C * 0.13}" font-size="${C * 0.36}" text-anchor="middle" fill="#fff">${i + 1}</text>`;
      if (a.cell[0] === hcx && a.cell[1] === hcy) out += disc; else over += disc;
    } else {
      out += `<circle cx="${cx}" cy="${cy}" r="${C * 0.3}" fill="none" stroke="#e3a0a0" stroke-dasharray="3 2"/>` +
        `<text x="${cx}" y="${cy + C * 0.12}" font-size="${C * 0.3}" text-anchor="middle" fill="#d9a0a0">${i + 1}</text>`;
    }
  }
  const end = D.before + t;
  const len = D.lengths[t];
  const body = [];
  for (let k = end; k > end - Math.min(len, end + 1); k--) body.push(D.cells[k]);
  const n = body.length;
  for (let k = n - 1; k >= 1; k--) {
    const f = (k - 0.5) / Math.max(1, n - 1);
    const [x1, y1] = centre(body[k]);
    const [x2, y2] = centre(body[k - 1]);
    const width = C * (0.78 - 0.4 * f);
    const [r, g, b] = mix(NECK, TAIL, f);
    out += `<line x1="${x1}" y1="${y1}" x2="${x2}" y2="${y2}" stroke="rgb(${r},${g},${b})" stroke-width="${width}" stroke-linecap="round"/>`;
  }
  const head = body[0];
  const [hx, hy] = centre(head);
  const prev = n > 1 ? body[1] : (end > 0 ? D.cells[end - 1] : [head[0] - 1, head[1]]);
  let dx = head[0] - prev[0], dy = head[1] - prev[1];
  if (dx === 0 && dy === 0) dx = 1;
  out += `<circle id="head" cx="${hx}" cy="${hy}" r="${C * 0.42}" fill="${HEAD}"/>`;
  const ex = hx + dx * C * 0.18, ey = hy + dy * C * 0.18;
  for (const s of [-1, 1])
    out += `<circle cx="${ex - dy * s * C * 0.17}" cy="${ey + dx * s * C * 0.17}" r="${C * 0.08}" fill="#fff"/>`;
  out += `<polygon points="${hx + dx * C * 0.5},${hy + dy * C * 0.5} ${hx + dx * C * 0.3 - dy * C * 0.12},${hy + dy * C * 0.3 + dx * C * 0.12} ${hx + dx * C * 0.3 + dy * C * 0.12},${hy + dy * C * 0.3 - dx * C * 0.12}" fill="#0c1a5c"/>`;
  dynamic.innerHTML = out + over;
  svg.dataset.step = t;
  svg.dataset.head = `${head[0]},${head[1]}`;
  // (A free start's snake is drawn on the cells its head has been on.)
  const drawn = n < len ? ` (${n} on the board so far)` : "";
  const ending = t === T && D.lost ? " · lost" : "";
  document.getElementById("status").textContent =
    `step ${t}/${T} · apples ${eaten}/${D.apples.length} · length ${len}${drawn}${ending}`;
  // Eaten apples' rows muted, the next one's highlighted (rows in eating order).
  let next = true;
  for (const row of document.querySelectorAll("#apples tr[data-eat]")) {
    const done = Number(row.dataset.eat) <= t;
    row.className = done ? "done" : (next ? "next" : "");
    if (!done) next = false;
  }
}

let timer = null;
function stop() { clearInterval(timer); timer = null; document.getElementById("play").textContent = "Play"; }
function play() {
  if (Number(slider.value) >= T) draw(0);
  document.getElementById("play").textContent = "Pause";
  timer = setInterval(() => {
    const t = Number(slider.value) + 1;
    draw(t);
    if (t >= T) stop();
  }, 1000 / Number(document.getElementById("speed").value));
}
document.getElementById("play").addEventListener("click", () => (timer ? stop() : play()));
document.getElementById("speed").addEventListener("change", () => { if (timer) { stop(); play(); } });
slider.addEventListener("input", () => draw(Number(slider.value)));
document.addEventListener("keydown", (e) => {
  // Alt+← is the browser's Back, Ctrl/Meta its own shortcuts; the speed
  // list keeps its own keys while it has the focus, and a focused button
  // its space (which clicks it).
  if (e.altKey || e.ctrlKey || e.metaKey) return;
  const on = e.target && e.target.tagName;
  if (on === "SELECT" || (on === "BUTTON" && (e.key === " " || e.key === "Enter"))) return;
  const t = Number(slider.value);
  const page = Math.max(10, Math.round(T / 20));
  if (e.key === "ArrowRight") draw(t + 1);
  else if (e.key === "ArrowLeft") draw(t - 1);
  else if (e.key === "PageDown") draw(t + page);
  else if (e.key === "PageUp") draw(t - page);
  else if (e.key === "Home") draw(0);
  else if (e.key === "End") draw(T);
  else if (e.key === " ") { timer ? stop() : play(); }
  else return;
  e.preventDefault();
});
function fromHash() {
  const m = /step=(\d+)/.exec(location.hash);
  if (m) { slider.value = Math.min(T, Number(m[1])); slider.dispatchEvent(new Event("input")); }
  else draw(Number(slider.value));
}
window.addEventListener("hashchange", fromHash);
fromHash();
</script>
</body>
</html>
"##;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::instance::TailRule;

    fn instance() -> Instance {
        Instance {
            width: 4,
            height: 3,
            walls: vec![(3, 2)],
            start: Start::Body(vec![(1, 0), (0, 0)]),
            apples: vec![(3, 0), (1, 1)],
            visible: 1,
            grow: true,
            tail: TailRule::Follow,
            horizon: None,
        }
    }

    /// A page of an ordered list's plan titled `title`.
    fn titled(title: &str) -> Page<'_> {
        Page {
            title,
            apples_to_come: true,
            ..Page::default()
        }
    }

    fn data(page: &str) -> serde_json::Value {
        let start = page.find("id=\"plan-data\">").unwrap() + "id=\"plan-data\">".len();
        let end = start + page[start..].find("</script>").unwrap();
        serde_json::from_str(&page[start..end]).unwrap()
    }

    #[test]
    fn titles_and_methods_stay_text() {
        let path = [(1, 0), (2, 0), (3, 0)];
        let methods = ["<img src=x onerror=alert(1)></script><!--{{TITLE}}".to_string()];
        let page = viewer(
            &instance(),
            &path,
            &Page {
                title: "{{DATA}} </script>",
                methods: &methods,
                apples_to_come: true,
                lost: false,
            },
        )
        .unwrap();
        assert!(page.contains("<title>{{DATA}} &lt;/script&gt;</title>"));
        assert!(page.contains("<h1>{{DATA}} &lt;/script&gt;</h1>"));
        assert!(
            !page.contains("<img"),
            "no markup of the data reaches the page"
        );
        assert!(!page.contains("<!--{{"));
        assert_eq!(data(&page)["methods"][0], methods[0].as_str());
        assert_eq!(data(&page)["title"], "{{DATA}} </script>");
        // The browser inserts the methods as text (`esc`), not as markup.
        assert!(page.contains("${esc(D.methods[k] ?? \"\")}"));
    }

    #[test]
    fn a_free_starts_counter_shows_the_snakes_length() {
        // Length 3 from the start (drawn on the one cell its head has been
        // on), 4 once it eats at t = 2: as the GIF's counter says. What the
        // page draws is tested in a browser (tests/html_viewer.rs).
        let free = Instance {
            width: 5,
            height: 1,
            walls: vec![],
            start: Start::Free { length: 3 },
            apples: vec![(2, 0)],
            ..instance()
        };
        let page = viewer(&free, &[(0, 0), (1, 0), (2, 0), (3, 0)], &titled("free")).unwrap();
        let d = data(&page);
        assert_eq!(d["before"], 0);
        assert_eq!(d["lengths"], serde_json::json!([3, 3, 4, 4]));
    }

    #[test]
    fn page_embeds_the_simulators_view() {
        let path = [(1, 0), (2, 0), (3, 0), (3, 1), (2, 1), (1, 1)];
        let page = viewer(&instance(), &path, &titled("a <test>")).unwrap();
        assert!(page.contains("<title>a &lt;test&gt;</title>"));
        for remote in ["src=\"http", "href=\"http", "<link", "@import", "fetch("] {
            assert!(!page.contains(remote), "no network resource: {remote}");
        }
        let d = data(&page);
        assert_eq!(d["before"], 1);
        // Length 2, then 3 after the first apple (eaten at t = 2), 4 after the second (t = 5).
        let lengths: Vec<u64> = d["lengths"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_u64().unwrap())
            .collect();
        assert_eq!(lengths, [2, 2, 3, 3, 3, 4]);
        assert_eq!(d["apples"][0]["reveal"], 0);
        assert_eq!(d["apples"][0]["eat"], 2);
        assert_eq!(d["apples"][1]["reveal"], 2);
        assert_eq!(d["apples"][1]["eat"], 5);
    }

    #[test]
    fn an_apple_never_eaten_stays_on_the_board_to_the_end() {
        // Only the first apple is eaten (t = 2), which reveals the second.
        let path = [(1, 0), (2, 0), (3, 0)];
        let d = data(&viewer(&instance(), &path, &titled("x")).unwrap());
        assert_eq!(d["apples"][1]["reveal"], 2);
        assert_eq!(d["apples"][1]["eat"], 3);
    }

    #[test]
    fn an_illegal_path_is_refused() {
        // A jump over a cell (a plan that only leaves apples is shown).
        let path = [(1, 0), (3, 0)];
        let v = viewer(&instance(), &path, &titled("x")).unwrap_err();
        assert_eq!(v.rule, crate::sim::Rule::NotAdjacent);
    }

    #[test]
    fn an_invalid_instance_is_refused_not_a_panic() {
        for i in crate::instance::refused_examples() {
            let v = viewer(&i, &[(0, 0), (1, 0)], &titled("x")).unwrap_err();
            let reason = i.validate_game().unwrap_err();
            assert_eq!(v.rule, crate::sim::Rule::InvalidInstance(reason));
        }
    }
}
