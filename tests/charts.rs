//! Charts read back from their SVG: distinct colours and markers for many
//! series, bar charts without empty slots, one quantity per y axis.

#[path = "support/cli.rs"]
mod support;
use support::{snakesat, temp_dir};

use std::collections::BTreeSet;

use snakesat::render::chart::{
    BarChart, ChartFormat, LineChart, Panel, PanelChart, Series, bar_chart, line_chart, panel_chart,
};

/// The value of attribute `name` in one SVG element's text.
fn attr<'a>(element: &'a str, name: &str) -> Option<&'a str> {
    let start = element.find(&format!(" {name}=\""))? + name.len() + 3;
    let len = element[start..].find('"')?;
    Some(&element[start..start + len])
}

/// Every element `<tag ...>` of `svg`, as text.
fn elements<'a>(svg: &'a str, tag: &str) -> Vec<&'a str> {
    let open = format!("<{tag} ");
    svg.match_indices(&open)
        .map(|(i, _)| &svg[i..i + svg[i..].find('>').expect("a closed tag")])
        .collect()
}

/// Each `<text>` element's attributes and its content.
fn texts(svg: &str) -> Vec<(&str, String)> {
    svg.match_indices("<text ")
        .map(|(i, _)| {
            let head_end = i + svg[i..].find('>').unwrap();
            let body_end = head_end + svg[head_end..].find("</text>").unwrap();
            (
                &svg[i..head_end],
                svg[head_end + 1..body_end].trim().to_string(),
            )
        })
        .collect()
}

fn svg_of(draw: impl FnOnce(&mut Vec<u8>)) -> String {
    let mut bytes = Vec::new();
    draw(&mut bytes);
    String::from_utf8(bytes).expect("SVG is UTF-8")
}

#[test]
fn twenty_series_get_twenty_colours_and_several_markers() {
    let series: Vec<Series> = (0..20)
        .map(|i| Series {
            name: format!("series {i}"),
            points: (0..5).map(|x| (x as f64, (x * (i + 1)) as f64)).collect(),
            steps: i % 2 == 1,
        })
        .collect();
    let chart = LineChart {
        title: "many".into(),
        x_label: "x".into(),
        y_label: "y".into(),
        series,
        log_y: Some(false),
    };
    let svg = svg_of(|out| line_chart(&chart, ChartFormat::Svg, out).unwrap());
    // The data lines are the polylines through at least the five points (a
    // step line has a corner before each rise too: nine).
    let strokes: BTreeSet<&str> = elements(&svg, "polyline")
        .into_iter()
        .filter(|e| attr(e, "points").is_some_and(|p| p.split_whitespace().count() >= 5))
        .filter_map(|e| attr(e, "stroke"))
        .collect();
    assert_eq!(strokes.len(), 20, "{strokes:?}");
    let stepped = elements(&svg, "polyline")
        .into_iter()
        .filter(|e| attr(e, "points").is_some_and(|p| p.split_whitespace().count() == 9))
        .count();
    assert_eq!(stepped, 10, "the ten step lines each have four corners");
    // Markers: circles, squares, and triangles and diamonds (polygons).
    assert!(elements(&svg, "circle").len() >= 15);
    let squares = elements(&svg, "rect")
        .into_iter()
        .filter(|e| attr(e, "fill").is_some_and(|f| strokes.contains(f)))
        .count();
    assert!(squares >= 15, "{squares} squares");
    assert!(elements(&svg, "polygon").len() >= 30);
    for i in 0..20 {
        assert!(svg.contains(&format!("series {i}")), "legend entry {i}");
    }
}

#[test]
fn bars_fill_every_slot() {
    for n in [2, 3, 15] {
        let bars: Vec<(String, f64, String)> = (0..n)
            .map(|i| {
                let group = if i % 2 == 0 { "even" } else { "odd" };
                (format!("bar {i}"), (i + 1) as f64 * 10.0, group.to_string())
            })
            .collect();
        let chart = BarChart {
            title: "bars".into(),
            value_label: "value".into(),
            bars,
            log: Some(false),
        };
        let svg = svg_of(|out| bar_chart(&chart, ChartFormat::Svg, out).unwrap());
        // The plot area's vertical extent: the vertical mesh lines.
        let vertical: Vec<(f64, f64)> = elements(&svg, "line")
            .into_iter()
            .filter(|e| attr(e, "x1") == attr(e, "x2"))
            .map(|e| {
                let y = |k| attr(e, k).unwrap().parse::<f64>().unwrap();
                (y("y1").min(y("y2")), y("y1").max(y("y2")))
            })
            .collect();
        let top = vertical.iter().map(|v| v.0).fold(f64::MAX, f64::min);
        let bottom = vertical.iter().map(|v| v.1).fold(f64::MIN, f64::max);
        // The bars: rectangles in the two group colours, bar 0 on top.
        let mut rows: Vec<(f64, f64)> = elements(&svg, "rect")
            .into_iter()
            .filter(|e| matches!(attr(e, "fill"), Some("#1F77B4") | Some("#FF7F0E")))
            .map(|e| {
                let v = |k| attr(e, k).unwrap().parse::<f64>().unwrap();
                (v("y"), v("height"))
            })
            .filter(|r| r.1 > 15.0)
            .collect();
        rows.sort_by(|a, b| a.0.total_cmp(&b.0));
        assert_eq!(rows.len(), n, "one bar per label");
        let slot = (bottom - top) / n as f64;
        // Each bar sits in its own slot, slot 0 at the top: no slot is empty.
        for (k, (y, height)) in rows.iter().enumerate() {
            let centre = y + height / 2.0;
            let want = top + slot * (k as f64 + 0.5);
            assert!(
                (centre - want).abs() < 3.0,
                "{n} bars: bar {k} centred at {centre}, slot centre {want} ({top}..{bottom})"
            );
        }
        let labels = texts(&svg);
        for i in 0..n {
            assert!(labels.iter().any(|t| t.1 == format!("bar {i}")));
        }
        assert!(labels.iter().any(|t| t.1 == "even"), "legend");
    }
}

/// The texts drawn turned by 270 degrees: the y axis descriptions.
fn y_descriptions(svg: &str) -> Vec<String> {
    texts(svg)
        .into_iter()
        .filter(|t| attr(t.0, "transform").is_some_and(|r| r.starts_with("rotate(270")))
        .map(|t| t.1)
        .collect()
}

#[test]
fn panels_put_one_quantity_on_each_axis() {
    let series = |name: &str, scale: f64| Series {
        name: name.into(),
        points: (1..6).map(|x| (x as f64, x as f64 * scale)).collect(),
        steps: false,
    };
    let chart = PanelChart {
        title: "two".into(),
        x_label: "horizon".into(),
        panels: vec![
            Panel {
                y_label: "clauses (count)".into(),
                series: vec![series("clauses", 1000.0)],
                log_y: None,
            },
            Panel {
                y_label: "time (ms)".into(),
                series: vec![series("SAT", 1.0), series("UNSAT", 2.0)],
                log_y: Some(true),
            },
        ],
    };
    let svg = svg_of(|out| panel_chart(&chart, ChartFormat::Svg, out).unwrap());
    // A log scale is named on its axis.
    assert_eq!(
        y_descriptions(&svg),
        ["clauses (count)", "time (ms, log scale)"]
    );
    // Three series, three colours, across the panels.
    let strokes: BTreeSet<&str> = elements(&svg, "polyline")
        .into_iter()
        .filter(|e| attr(e, "points").is_some_and(|p| p.split_whitespace().count() == 5))
        .filter_map(|e| attr(e, "stroke"))
        .collect();
    assert_eq!(strokes.len(), 3);
    // A panel without points is refused like an empty chart.
    let mut empty = chart.clone();
    empty.panels[1].series.clear();
    assert!(panel_chart(&empty, ChartFormat::Svg, &mut Vec::new()).is_err());
}

#[test]
fn the_horizon_chart_has_clauses_and_milliseconds_on_separate_axes() {
    let dir = temp_dir("charts-horizon");
    let file = dir.join("h.svg").to_string_lossy().into_owned();
    let run = snakesat(&[
        "solve",
        "--size",
        "5",
        "--apples",
        "3",
        "--plot-horizon",
        &file,
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let svg = std::fs::read_to_string(&file).unwrap();
    let labels = y_descriptions(&svg);
    assert_eq!(labels.len(), 2, "{labels:?}");
    assert!(labels[0].contains("clauses") && !labels[0].contains("ms"));
    assert!(labels[1].contains("ms") && !labels[1].contains("clauses"));
}

/// `--timeout` covers the horizon chart too: its horizons each used to get
/// 10 s of their own after the search had used the whole limit.
#[test]
fn the_horizon_chart_stops_at_the_timeout() {
    let dir = temp_dir("charts-horizon-timeout");
    let file = dir.join("h.svg").to_string_lossy().into_owned();
    let problem = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/benchmarks/ipc2018-snake/satisficing/instance-9.pddl"
    );
    let run = snakesat(&[
        "solve",
        problem,
        "--satisficing",
        "--timeout",
        "2",
        "--plot-horizon",
        &file,
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stderr.contains("the horizon chart stops at T="),
        "{}",
        run.stderr
    );
    let svg = std::fs::read_to_string(&file).unwrap();
    assert_eq!(y_descriptions(&svg).len(), 2);
}
