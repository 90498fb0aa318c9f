//! Charts drawn with plotters in memory and written as `.svg` or `.png`
//! to any writer (the format is picked by [`ChartFormat::of`] from a file
//! name's extension): line charts (one series per name over a numeric x axis),
//! stacked panels of line charts sharing their x axis (one quantity per y
//! axis, [`PanelChart`]) and horizontal bar charts (one bar per label, no
//! empty slot), with a title, axis descriptions and a legend beside the plot.
//! The y axis (bars: the value axis) turns logarithmic when the values span
//! more than two orders of magnitude. Series `i` is drawn in colour
//! `i mod 20` of a fixed palette with marker shape `i mod 5` (circle, square,
//! triangle, diamond, cross), so up to 20 series have distinct colours and
//! neighbours in the legend differ in shape too.
//!
//! Text is drawn with DejaVu Sans, embedded in the binary (see
//! `assets/DejaVuSans-LICENSE.txt`), so PNGs need no system fonts.

use std::io::Write;
use std::path::Path;
use std::sync::Once;

use plotters::coord::Shift;
use plotters::coord::ranged1d::{AsRangedCoord, SegmentValue, ValueFormatter};
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use thiserror::Error;

use super::FONT;
const FAMILY: &str = "sans-serif";

/// Why a chart could not be written.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum ChartError {
    /// The file name (the field) ends in neither `.svg` nor `.png`.
    #[error("chart file {0} must end in .svg or .png")]
    Format(String),
    /// The file name is `-`: charts are files, never standard output.
    #[error("a chart cannot go to standard output (-): charts go to files ending in .svg or .png")]
    Stdout,
    /// The chart has no points or bars; the field says which chart.
    #[error("nothing to draw: {0}")]
    Empty(String),
    /// A value that is not a number, or beyond ±[`MAX_VALUE`] (the axes'
    /// ticks would not be computed in reasonable time).
    #[error("cannot draw {value} in {chart:?}: chart values must be numbers within ±{max:e}", max = MAX_VALUE)]
    Value {
        /// The chart's title.
        chart: String,
        /// The value.
        value: f64,
    },
    /// The drawing backend failed; the field is its message.
    #[error("cannot draw the chart: {0}")]
    Draw(String),
    /// The file could not be written.
    #[error(transparent)]
    Write(#[from] std::io::Error),
}

/// The largest magnitude a chart draws: far beyond any count or time this
/// crate plots, and far below where plotters' tick search stops returning.
pub const MAX_VALUE: f64 = 1e15;

/// Refuses the first of `values` that is not a number within ±[`MAX_VALUE`].
fn check_values(title: &str, mut values: impl Iterator<Item = f64>) -> Result<(), ChartError> {
    match values.find(|v| v.is_nan() || v.abs() > MAX_VALUE) {
        Some(value) => Err(ChartError::Value {
            chart: title.to_string(),
            value,
        }),
        None => Ok(()),
    }
}

/// One named line of a [`LineChart`].
#[derive(Clone, Debug)]
pub struct Series {
    /// The series' legend entry.
    pub name: String,
    /// `(x, y)` points; drawn in x order.
    pub points: Vec<(f64, f64)>,
    /// A count that holds its value until the next point: the line runs
    /// level to each point's x and rises (or falls) there, instead of
    /// joining the points with diagonals. The markers stay on the points.
    pub steps: bool,
}

/// One panel of a [`PanelChart`]: one quantity on its y axis.
#[derive(Clone, Debug)]
pub struct Panel {
    /// The y axis description, with its unit.
    pub y_label: String,
    /// The lines, one per series.
    pub series: Vec<Series>,
    /// Logarithmic y axis: `None` decides from the data's range.
    pub log_y: Option<bool>,
}

/// Panels stacked top to bottom over one x axis, with one legend for all
/// their series (numbered across panels for colours and markers).
#[derive(Clone, Debug)]
pub struct PanelChart {
    /// The chart's title.
    pub title: String,
    /// The x axis description, with its unit (drawn under the last panel).
    pub x_label: String,
    /// The panels, top first.
    pub panels: Vec<Panel>,
}

/// A line chart: one line (with point markers) per series.
#[derive(Clone, Debug)]
pub struct LineChart {
    /// The chart's title.
    pub title: String,
    /// The x axis description, with its unit.
    pub x_label: String,
    /// The y axis description, with its unit.
    pub y_label: String,
    /// The lines, one per series.
    pub series: Vec<Series>,
    /// Logarithmic y axis: `None` decides from the data's range.
    pub log_y: Option<bool>,
}

/// A horizontal bar chart: one bar per label, top to bottom.
#[derive(Clone, Debug)]
pub struct BarChart {
    /// The chart's title.
    pub title: String,
    /// The value axis description, with its unit.
    pub value_label: String,
    /// `(label, value, group)`: bars of the same group share a colour, and
    /// each group gets a legend entry.
    pub bars: Vec<(String, f64, String)>,
    /// Logarithmic value axis: `None` decides from the data's range.
    pub log: Option<bool>,
}

/// One encoding's size, for [`encoding_sizes_chart`].
#[derive(Clone, Debug)]
pub struct SizeRow {
    /// The encoding's name.
    pub encoding: String,
    /// Whether `clauses` is the notebook's approximate count rather than an exact one.
    pub approximate: bool,
    /// Number of clauses.
    pub clauses: u64,
}

/// The file format of a chart, chosen by the file's extension.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChartFormat {
    /// Scalable vector graphics (`.svg`).
    Svg,
    /// Portable network graphics (`.png`).
    Png,
}

impl ChartFormat {
    /// The format `path` names (`.svg` or `.png`, any case); `-` (standard
    /// output) is refused.
    pub fn of(path: &Path) -> Result<ChartFormat, ChartError> {
        if path == Path::new("-") {
            return Err(ChartError::Stdout);
        }
        match path
            .extension()
            .and_then(|e| e.to_str())
            .map(str::to_ascii_lowercase)
            .as_deref()
        {
            Some("svg") => Ok(ChartFormat::Svg),
            Some("png") => Ok(ChartFormat::Png),
            _ => Err(ChartError::Format(path.display().to_string())),
        }
    }
}

fn register_font() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        for style in [FontStyle::Normal, FontStyle::Bold] {
            plotters::style::register_font(FAMILY, style, FONT)
                .unwrap_or_else(|_| panic!("the embedded font is valid"));
        }
    });
}

/// Calls `draw` on an SVG or PNG drawing area of `size` pixels and writes
/// the file's bytes to `out`.
macro_rules! with_area {
    ($format:expr, $out:expr, $size:expr, |$root:ident| $draw:expr) => {{
        register_font();
        let fail = |message: String| ChartError::Draw(message);
        let mut out = $out;
        match $format {
            ChartFormat::Svg => {
                let mut text = String::new();
                {
                    let $root = SVGBackend::with_string(&mut text, $size).into_drawing_area();
                    $draw.map_err(fail)?;
                    $root.present().map_err(|e| fail(e.to_string()))?;
                }
                out.write_all(text.as_bytes())?;
            }
            ChartFormat::Png => {
                let (width, height) = $size;
                let mut pixels = vec![0u8; width as usize * height as usize * 3];
                {
                    let $root = BitMapBackend::with_buffer(&mut pixels, $size).into_drawing_area();
                    $draw.map_err(fail)?;
                    $root.present().map_err(|e| fail(e.to_string()))?;
                }
                let mut encoder = png::Encoder::new(&mut out, width, height);
                encoder.set_color(png::ColorType::Rgb);
                encoder.set_depth(png::BitDepth::Eight);
                encoder
                    .write_header()
                    .and_then(|mut w| w.write_image_data(&pixels))
                    .map_err(|e| fail(e.to_string()))?;
            }
        }
        Ok(())
    }};
}

/// Distinct series colours: Tableau 10, then ten darker hues.
const COLOURS: [(u8, u8, u8); 20] = [
    (31, 119, 180),
    (255, 127, 14),
    (44, 160, 44),
    (214, 39, 40),
    (148, 103, 189),
    (140, 86, 75),
    (227, 119, 194),
    (127, 127, 127),
    (188, 189, 34),
    (23, 190, 207),
    (20, 50, 100),
    (170, 80, 0),
    (20, 100, 30),
    (130, 10, 20),
    (80, 40, 130),
    (60, 60, 60),
    (160, 20, 110),
    (100, 100, 0),
    (0, 110, 120),
    (0, 0, 0),
];

/// Number of marker shapes ([`draw_marker`]).
const MARKERS: usize = 5;

/// The colour of series (or bar group) `i`, cycled.
fn colour(i: usize) -> RGBColor {
    let (r, g, b) = COLOURS[i % COLOURS.len()];
    RGBColor(r, g, b)
}

/// The marker shape of series `i`: with [`colour`], no two of the first
/// 100 series look alike (the shape shifts by one each time the colours
/// come round again; `i % MARKERS` alone repeated the pairs every 20).
fn marker(i: usize) -> usize {
    (i + i / COLOURS.len()) % MARKERS
}

/// Draws marker shape `kind` (circle, square, triangle, diamond, cross) of
/// series colour `c` centred on pixel `(x, y)` of `area`.
fn draw_marker<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    kind: usize,
    (x, y): (i32, i32),
    c: RGBColor,
) -> Result<(), String> {
    let err = |e: &dyn std::fmt::Display| e.to_string();
    let r = 5;
    match kind % MARKERS {
        0 => area.draw(&Circle::new((x, y), r - 1, c.filled())),
        1 => area.draw(&Rectangle::new(
            [(x - r + 1, y - r + 1), (x + r - 1, y + r - 1)],
            c.filled(),
        )),
        2 => area.draw(&Polygon::new(
            vec![(x, y - r), (x + r, y + r - 1), (x - r, y + r - 1)],
            c.filled(),
        )),
        3 => area.draw(&Polygon::new(
            vec![(x, y - r - 1), (x + r, y), (x, y + r + 1), (x - r, y)],
            c.filled(),
        )),
        _ => area
            .draw(&PathElement::new(
                vec![(x - r, y - r), (x + r, y + r)],
                c.stroke_width(2),
            ))
            .and_then(|()| {
                area.draw(&PathElement::new(
                    vec![(x - r, y + r), (x + r, y - r)],
                    c.stroke_width(2),
                ))
            }),
    }
    .map_err(|e| err(&e))
}

fn wants_log(lo: f64, hi: f64, forced: Option<bool>) -> bool {
    forced.unwrap_or(lo > 0.0 && hi / lo > 100.0)
}

/// Axis bounds with some room: `[lo, hi]` padded, for linear or log scale.
fn bounds(lo: f64, hi: f64, log: bool) -> (f64, f64) {
    if log {
        let lo = lo.max(1e-9);
        (
            10f64.powf(lo.log10().floor()),
            10f64.powf((hi * 1.5).log10().ceil()),
        )
    } else {
        // The axis starts at 0 when every value is at least 0 (counts,
        // seconds: never below 0), else a little below the least value; its
        // room comes from the values' own scale, so seconds of 1e-5 are not
        // drawn flat on an axis a whole unit high.
        let span = (hi - lo).abs().max(hi.abs().max(lo.abs()) * 0.1);
        let span = if span > 0.0 { span } else { 1.0 };
        let bottom = if lo >= 0.0 { 0.0 } else { lo - span * 0.05 };
        // (One value alone sits below the top by its whole room.)
        let room = if hi > lo { span * 0.08 } else { span };
        (bottom, hi + room)
    }
}

/// `1234567` as `1.23M`, `12000` as `12k`, `0.0005` as `5e-4`: short tick labels.
fn short_number(v: f64) -> String {
    let a = v.abs();
    if (1e-12..0.01).contains(&a) {
        // Two decimals would print 0 (log axes of seconds go this low; below
        // 1e-12 is a linear axis's zero with rounding error). Two digits,
        // so that neighbouring ticks of a linear axis (1.5e-5, 2e-5) differ.
        let text = format!("{v:.1e}");
        return text.replacen(".0e", "e", 1);
    }
    let (scaled, unit) = if a >= 1e9 {
        (v / 1e9, "G")
    } else if a >= 1e6 {
        (v / 1e6, "M")
    } else if a >= 1e3 {
        (v / 1e3, "k")
    } else {
        (v, "")
    };
    let text = if scaled.abs() >= 100.0 || scaled.fract().abs() < 1e-9 {
        format!("{scaled:.0}")
    } else if scaled.abs() >= 10.0 {
        format!("{scaled:.1}")
    } else {
        format!("{scaled:.2}")
    };
    let text = if text.contains('.') {
        text.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        text
    };
    format!("{text}{unit}")
}

/// Writes a line chart in `format` to `out`.
pub fn line_chart(
    chart: &LineChart,
    format: ChartFormat,
    out: impl Write,
) -> Result<(), ChartError> {
    let panels = PanelChart {
        title: chart.title.clone(),
        x_label: chart.x_label.clone(),
        panels: vec![Panel {
            y_label: chart.y_label.clone(),
            series: chart.series.clone(),
            log_y: chart.log_y,
        }],
    };
    panel_chart(&panels, format, out)
}

/// Writes stacked panels in `format` to `out`; a panel without points is
/// an error, like a chart without any.
pub fn panel_chart(
    chart: &PanelChart,
    format: ChartFormat,
    out: impl Write,
) -> Result<(), ChartError> {
    let points = || {
        chart
            .panels
            .iter()
            .flat_map(|p| p.series.iter().flat_map(|s| s.points.iter()))
    };
    if points().next().is_none()
        || chart
            .panels
            .iter()
            .any(|p| p.series.iter().all(|s| s.points.is_empty()))
    {
        return Err(ChartError::Empty(format!(
            "no points for {:?}",
            chart.title
        )));
    }
    check_values(&chart.title, points().flat_map(|p| [p.0, p.1]))?;
    let (x_lo, x_hi) = points().fold((f64::MAX, f64::MIN), |(a, b), p| (a.min(p.0), b.max(p.0)));
    let x_pad = ((x_hi - x_lo) * 0.03).max(0.5);
    let x_range = (x_lo - x_pad)..(x_hi + x_pad);
    // 720 pixels for one panel, 360 more for each further one.
    let size = (1200, 360 + 360 * chart.panels.len() as u32);
    with_area!(format, out, size, |root| draw_panels(
        &root,
        chart,
        x_range.clone()
    ))
}

fn draw_panels<DB: DrawingBackend>(
    whole: &DrawingArea<DB, Shift>,
    chart: &PanelChart,
    x_range: std::ops::Range<f64>,
) -> Result<(), String> {
    let err = |e: &dyn std::fmt::Display| e.to_string();
    whole.fill(&WHITE).map_err(|e| err(&e))?;
    let root = whole
        .titled(&chart.title, (FAMILY, 26))
        .map_err(|e| err(&e))?;
    let all: Vec<&Series> = chart.panels.iter().flat_map(|p| &p.series).collect();
    // The legend gets its own column on the right, so it never hides a line.
    let longest = all
        .iter()
        .map(|s| s.name.chars().count())
        .max()
        .unwrap_or(0) as i32;
    let legend_width = (60 + 8 * longest).min(root.dim_in_pixel().0 as i32 / 2);
    let (plot, legend) = root.split_horizontally(root.dim_in_pixel().0 as i32 - legend_width);
    let integral_x = all
        .iter()
        .flat_map(|s| s.points.iter())
        .all(|p| p.0.fract() == 0.0);
    let areas = plot.split_evenly((chart.panels.len(), 1));
    let mut first = 0;
    for (k, (panel, area)) in chart.panels.iter().zip(&areas).enumerate() {
        let last = k + 1 == chart.panels.len();
        let x_desc = if last { chart.x_label.as_str() } else { "" };
        let points = || panel.series.iter().flat_map(|s| s.points.iter());
        let (y_lo, y_hi) =
            points().fold((f64::MAX, f64::MIN), |(a, b), p| (a.min(p.1), b.max(p.1)));
        let log = wants_log(y_lo, y_hi, panel.log_y);
        let (lo, hi) = bounds(y_lo, y_hi, log);
        // A scale the data chose is named on the axis (a label that names
        // its scale already is left as it is).
        let y_desc = match panel.y_label.strip_suffix(')') {
            _ if !log || panel.y_label.contains("log") => panel.y_label.clone(),
            Some(open) => format!("{open}, log scale)"),
            None => format!("{} (log scale)", panel.y_label),
        };
        let look = Look {
            whole,
            panel,
            first,
            x_desc,
            y_desc: &y_desc,
            integral_x,
            integral_y: !log && points().all(|p| p.1.fract() == 0.0),
        };
        if log {
            draw_panel(area, &look, x_range.clone(), (lo..hi).log_scale())?;
        } else {
            draw_panel(area, &look, x_range.clone(), lo..hi)?;
        }
        first += panel.series.len();
    }
    let (lx, ly) = legend.get_base_pixel();
    // A series without points draws nothing and gets no legend entry; the
    // others keep their numbers, so their colours match their lines.
    let shown = all.iter().enumerate().filter(|(_, s)| !s.points.is_empty());
    for (row, (i, series)) in shown.enumerate() {
        let c = colour(i);
        let y = 30 + 24 * row as i32;
        legend
            .draw(&PathElement::new(vec![(8, y), (36, y)], c.stroke_width(2)))
            .map_err(|e| err(&e))?;
        draw_marker(whole, marker(i), (lx + 22, ly + y), c)?;
        legend
            .draw(&Text::new(
                series.name.clone(),
                (44, y),
                TextStyle::from((FAMILY, 14).into_font()).pos(Pos::new(HPos::Left, VPos::Center)),
            ))
            .map_err(|e| err(&e))?;
    }
    Ok(())
}

/// What one panel draws besides its ranges.
struct Look<'a, DB: DrawingBackend> {
    /// The whole image, where markers are drawn in absolute pixels.
    whole: &'a DrawingArea<DB, Shift>,
    panel: &'a Panel,
    /// The panel's first series' number across the chart.
    first: usize,
    /// The x axis description ("" above the last panel).
    x_desc: &'a str,
    /// The y axis description.
    y_desc: &'a str,
    /// Whether every x is an integer (no fractional tick labels then).
    integral_x: bool,
    /// Whether every y is an integer on a linear axis (no fractional tick
    /// labels then: counts).
    integral_y: bool,
}

fn draw_panel<DB, Y>(
    area: &DrawingArea<DB, Shift>,
    look: &Look<'_, DB>,
    x_range: std::ops::Range<f64>,
    y_range: Y,
) -> Result<(), String>
where
    DB: DrawingBackend,
    Y: AsRangedCoord<Value = f64>,
    Y::CoordDescType: ValueFormatter<f64>,
{
    let err = |e: &dyn std::fmt::Display| e.to_string();
    // Integral values get no fractional ticks (a count of 1.5 apples).
    let format = |integral: bool| {
        move |v: &f64| {
            if integral && v.fract().abs() > 1e-9 {
                String::new()
            } else {
                short_number(*v)
            }
        }
    };
    let (x_format, y_format) = (format(look.integral_x), format(look.integral_y));
    let mut ctx = ChartBuilder::on(area)
        .margin(18)
        .x_label_area_size(55)
        .y_label_area_size(90)
        .build_cartesian_2d(x_range, y_range)
        .map_err(|e| err(&e))?;
    ctx.configure_mesh()
        .x_desc(look.x_desc)
        .y_desc(look.y_desc)
        .axis_desc_style((FAMILY, 18))
        .label_style((FAMILY, 15))
        .x_label_formatter(&x_format)
        .y_label_formatter(&y_format)
        .light_line_style(RGBColor(235, 235, 235))
        .draw()
        .map_err(|e| err(&e))?;
    for (k, series) in look.panel.series.iter().enumerate() {
        let i = look.first + k;
        let c = colour(i);
        let mut pts = series.points.clone();
        pts.sort_by(|a, b| a.0.total_cmp(&b.0));
        let line = if series.steps {
            std::borrow::Cow::Owned(stepped(&pts))
        } else {
            std::borrow::Cow::Borrowed(&pts[..])
        };
        ctx.draw_series(LineSeries::new(line.iter().copied(), c.stroke_width(2)))
            .map_err(|e| err(&e))?;
        for &p in &pts {
            draw_marker(look.whole, marker(i), ctx.backend_coord(&p), c)?;
        }
    }
    Ok(())
}

/// The corners of a step line through `points` (in x order): before each
/// point whose y differs from the one before, a corner at its x and the
/// earlier y.
fn stepped(points: &[(f64, f64)]) -> Vec<(f64, f64)> {
    let mut line = Vec::with_capacity(2 * points.len());
    for &(x, y) in points {
        if let Some(&(_, before)) = line.last()
            && before != y
        {
            line.push((x, before));
        }
        line.push((x, y));
    }
    line
}

/// Writes a horizontal bar chart in `format` to `out`.
pub fn bar_chart(chart: &BarChart, format: ChartFormat, out: impl Write) -> Result<(), ChartError> {
    if chart.bars.is_empty() {
        return Err(ChartError::Empty(format!("no bars for {:?}", chart.title)));
    }
    check_values(&chart.title, chart.bars.iter().map(|b| b.1))?;
    let lo = chart.bars.iter().map(|b| b.1).fold(f64::MAX, f64::min);
    let hi = chart.bars.iter().map(|b| b.1).fold(f64::MIN, f64::max);
    let log = wants_log(lo, hi, chart.log);
    let (lo, hi) = bounds(lo.min(if log { lo } else { 0.0 }), hi, log);
    // A strip under the title holds the legend; every slot holds a bar.
    let size = (1100, 200 + 34 * chart.bars.len() as u32);
    if log {
        with_area!(format, out, size, |root| draw_bars(
            &root,
            chart,
            (lo..hi).log_scale(),
            lo
        ))
    } else {
        with_area!(format, out, size, |root| draw_bars(
            &root,
            chart,
            0.0..hi,
            0.0
        ))
    }
}

fn draw_bars<DB, X>(
    root: &DrawingArea<DB, Shift>,
    chart: &BarChart,
    x_range: X,
    base: f64,
) -> Result<(), String>
where
    DB: DrawingBackend,
    X: AsRangedCoord<Value = f64>,
    X::CoordDescType: ValueFormatter<f64>,
{
    let err = |e: &dyn std::fmt::Display| e.to_string();
    root.fill(&WHITE).map_err(|e| err(&e))?;
    let root = root
        .titled(&chart.title, (FAMILY, 24))
        .map_err(|e| err(&e))?;
    let (legend, plot) = root.split_vertically(34);
    let n = chart.bars.len();
    let longest = chart
        .bars
        .iter()
        .map(|b| b.0.chars().count())
        .max()
        .unwrap_or(0) as u32;
    let label_area = 20 + 9 * longest;
    let mut ctx = ChartBuilder::on(&plot)
        .margin(18)
        .margin_top(4)
        .x_label_area_size(55)
        .y_label_area_size(label_area)
        // An integer range includes its end, and segmenting it adds one slot:
        // 0..n - 1 gives exactly n slots (a single bar gets two, 0..0 being
        // degenerate: the upper one stays empty).
        .build_cartesian_2d(x_range, (0..(n - 1).max(1)).into_segmented())
        .map_err(|e| err(&e))?;
    let labels: Vec<String> = chart.bars.iter().map(|b| b.0.clone()).collect();
    let label_of = move |v: &SegmentValue<usize>| match v {
        // Bar 0 is drawn at the top.
        SegmentValue::CenterOf(i) if *i < labels.len() => labels[labels.len() - 1 - i].clone(),
        _ => String::new(),
    };
    ctx.configure_mesh()
        .x_desc(&chart.value_label)
        .axis_desc_style((FAMILY, 18))
        .label_style((FAMILY, 15))
        .x_label_formatter(&|x| short_number(*x))
        .y_label_formatter(&label_of)
        .y_labels(n.max(2))
        .disable_y_mesh()
        .light_line_style(RGBColor(235, 235, 235))
        .draw()
        .map_err(|e| err(&e))?;
    let mut groups: Vec<&str> = Vec::new();
    for (_, _, g) in &chart.bars {
        if !groups.contains(&g.as_str()) {
            groups.push(g);
        }
    }
    // The legend, left to right above the plot, starting over the bars.
    let mut x = 18 + label_area as i32;
    for (gi, group) in groups.iter().enumerate() {
        let c = colour(gi);
        legend
            .draw(&Rectangle::new([(x, 10), (x + 16, 24)], c.filled()))
            .map_err(|e| err(&e))?;
        legend
            .draw(&Text::new(
                group.to_string(),
                (x + 22, 17),
                TextStyle::from((FAMILY, 14).into_font()).pos(Pos::new(HPos::Left, VPos::Center)),
            ))
            .map_err(|e| err(&e))?;
        x += 40 + 8 * group.chars().count() as i32;
    }
    for (gi, group) in groups.iter().enumerate() {
        let c = colour(gi);
        let rects: Vec<Rectangle<(f64, SegmentValue<usize>)>> = chart
            .bars
            .iter()
            .enumerate()
            .filter(|(_, b)| b.2 == *group)
            .map(|(i, b)| {
                let row = n - 1 - i;
                let mut r = Rectangle::new(
                    [
                        (base, SegmentValue::Exact(row)),
                        (b.1, SegmentValue::Exact(row + 1)),
                    ],
                    c.filled(),
                );
                r.set_margin(5, 5, 0, 0);
                r
            })
            .collect();
        ctx.draw_series(rects).map_err(|e| err(&e))?;
        let values = chart
            .bars
            .iter()
            .enumerate()
            .filter(|(_, b)| b.2 == *group)
            .map(|(i, b)| {
                Text::new(
                    format!(" {}", short_number(b.1)),
                    (b.1, SegmentValue::CenterOf(n - 1 - i)),
                    TextStyle::from((FAMILY, 13).into_font())
                        .pos(Pos::new(HPos::Left, VPos::Center)),
                )
            });
        ctx.draw_series(values).map_err(|e| err(&e))?;
    }
    Ok(())
}

/// Clauses per encoding as horizontal bars (sound encodings and the
/// notebook's approximate ones in two colours), log scale when the counts
/// span more than two orders of magnitude.
pub fn encoding_sizes_chart(
    title: &str,
    rows: &[SizeRow],
    format: ChartFormat,
    out: impl Write,
) -> Result<(), ChartError> {
    let chart = BarChart {
        title: title.to_string(),
        value_label: "clauses (count)".to_string(),
        bars: rows
            .iter()
            .map(|r| {
                let group = if r.approximate {
                    "approximate (notebook)"
                } else {
                    "sound (direct)"
                };
                (r.encoding.clone(), r.clauses as f64, group.to_string())
            })
            .collect(),
        log: None,
    };
    bar_chart(&chart, format, out)
}

/// Clauses per encoding over a sweep parameter, one line per encoding.
pub fn encoding_growth_chart(
    title: &str,
    x_label: &str,
    series: Vec<Series>,
    format: ChartFormat,
    out: impl Write,
) -> Result<(), ChartError> {
    let chart = LineChart {
        title: title.to_string(),
        x_label: x_label.to_string(),
        y_label: "clauses (count)".to_string(),
        series,
        log_y: None,
    };
    line_chart(&chart, format, out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A step line rises where the value changes, at the new point's x,
    /// and has no corner where it does not.
    #[test]
    fn a_step_line_rises_vertically_where_the_value_changes() {
        let points = [(0.0, 1.0), (1.0, 1.0), (2.0, 2.0), (3.0, 2.0), (4.0, 4.0)];
        assert_eq!(
            stepped(&points),
            [
                (0.0, 1.0),
                (1.0, 1.0),
                (2.0, 1.0),
                (2.0, 2.0),
                (3.0, 2.0),
                (4.0, 2.0),
                (4.0, 4.0)
            ]
        );
        assert_eq!(stepped(&points[..2]), points[..2]);
    }

    /// No two of the first 100 series share both colour and marker (the
    /// 21st looked like the 1st: a 25-series `bench game` chart showed two
    /// legend entries alike).
    #[test]
    fn a_hundred_series_look_different() {
        let looks: std::collections::HashSet<(RGBColor, usize)> =
            (0..100).map(|i| (colour(i), marker(i))).collect();
        assert_eq!(looks.len(), 100);
    }

    /// Values that are not numbers, or beyond ±1e15, are refused (plotters'
    /// tick search ran for minutes on infinities and on 1e308); the largest
    /// allowed, and the smallest, draw on every axis kind.
    #[test]
    fn values_beyond_the_limit_are_refused_and_the_limit_draws() {
        let line = |points: Vec<(f64, f64)>, log_y| LineChart {
            title: "t".into(),
            x_label: "x".into(),
            y_label: "y".into(),
            series: vec![Series {
                name: "s".into(),
                points,
                steps: false,
            }],
            log_y,
        };
        let bars = |value: f64, log| BarChart {
            title: "t".into(),
            value_label: "v".into(),
            bars: vec![
                ("a".into(), 1.0, "g".into()),
                ("b".into(), value, "g".into()),
            ],
            log,
        };
        for bad in [f64::INFINITY, f64::NEG_INFINITY, f64::NAN, 1e308, -1e16] {
            for format in [ChartFormat::Svg, ChartFormat::Png] {
                let refused = |r: Result<(), ChartError>| matches!(r, Err(ChartError::Value { value, .. }) if value.to_bits() == bad.to_bits());
                assert!(refused(line_chart(
                    &line(vec![(0.0, 1.0), (1.0, bad)], None),
                    format,
                    std::io::sink()
                )));
                assert!(refused(line_chart(
                    &line(vec![(bad, 1.0)], None),
                    format,
                    std::io::sink()
                )));
                assert!(refused(bar_chart(
                    &bars(bad, None),
                    format,
                    std::io::sink()
                )));
            }
        }
        let message = line_chart(
            &line(vec![(0.0, f64::NAN)], None),
            ChartFormat::Svg,
            std::io::sink(),
        );
        assert_eq!(
            message.unwrap_err().to_string(),
            "cannot draw NaN in \"t\": chart values must be numbers within ±1e15"
        );
        for edge in [MAX_VALUE, -MAX_VALUE] {
            for log in [None, Some(true), Some(false)] {
                let points = vec![(0.0, 1.0), (edge, edge), (1.0, 2.0)];
                line_chart(&line(points, log), ChartFormat::Svg, std::io::sink()).unwrap();
                bar_chart(&bars(edge, log), ChartFormat::Svg, std::io::sink()).unwrap();
            }
        }
    }

    #[test]
    fn short_numbers() {
        assert_eq!(short_number(0.0), "0");
        assert_eq!(short_number(950.0), "950");
        assert_eq!(short_number(12_000.0), "12k");
        assert_eq!(short_number(1_234_567.0), "1.23M");
        assert_eq!(short_number(426_322.0), "426k");
        assert_eq!(short_number(0.001), "1e-3");
        assert_eq!(short_number(0.0005), "5e-4");
        assert_eq!(short_number(0.05), "0.05");
        assert_eq!(short_number(1e-17), "0");
        assert_eq!(short_number(1.5e-5), "1.5e-5");
        assert_eq!(short_number(2e-5), "2e-5");
    }

    /// A linear axis fits its values' own scale and never goes below 0 for
    /// values that are not (seconds of 1e-5 were drawn flat on an axis
    /// from -0.04 to 0.08).
    #[test]
    fn linear_axes_fit_small_values() {
        let (lo, hi) = bounds(2.5e-6, 1.16e-5, false);
        assert_eq!(lo, 0.0);
        assert!(hi > 1.16e-5 && hi < 2e-5, "{hi}");
        let (lo, hi) = bounds(3.0, 3.0, false);
        assert!(lo == 0.0 && hi > 3.0 && hi < 4.0, "{lo} {hi}");
        assert_eq!(bounds(0.0, 0.0, false), (0.0, 1.0));
        let (lo, hi) = bounds(-2.0, 5.0, false);
        assert!(lo < -2.0 && hi > 5.0);
    }

    #[test]
    fn extension_picks_the_format() {
        let of = |p: &str| ChartFormat::of(Path::new(p)).ok();
        assert_eq!(of("a.svg"), Some(ChartFormat::Svg));
        assert_eq!(of("a.PNG"), Some(ChartFormat::Png));
        assert_eq!(of("a.gif"), None);
        assert_eq!(of("a"), None);
        assert!(matches!(
            ChartFormat::of(Path::new("-")),
            Err(ChartError::Stdout)
        ));
    }
}
