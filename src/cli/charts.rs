//! Charts `solve` can draw besides the plan: size and solve time against
//! the horizon (`--plot-horizon`, two panels: clauses above, milliseconds
//! below), and a plan's timeline (`--plot-timeline`).

use std::path::Path;
use std::time::{Duration, Instant};

use snakesat::encode::{EncodeError, Encoding};
use snakesat::instance::{Instance, Pos};
use snakesat::output::Output;
use snakesat::planner::{PlanError, Planner, Search};
use snakesat::render::chart::{self, ChartFormat, LineChart, Panel, PanelChart, Series};
use snakesat::sim;
use snakesat::solve::Status;

use super::{Failure, bad_input};

/// How many horizons past the plan's the horizon chart shows.
const PAST_PLAN: usize = 10;
/// The longest any one horizon of the chart is solved.
const PER_HORIZON: Duration = Duration::from_secs(10);
/// The least time the chart's first horizon gets, even past the deadline.
const FIRST_HORIZON: Duration = Duration::from_millis(100);
/// The longest the horizon chart runs without `--timeout`: 10 s for each of
/// hundreds of horizons would otherwise run for an hour.
const WITHOUT_TIMEOUT: Duration = Duration::from_secs(60);

/// When the horizon chart starts its last horizon: the run's deadline, or
/// [`WITHOUT_TIMEOUT`] after `now` without one.
fn chart_deadline(deadline: Option<Instant>, now: Instant) -> Instant {
    deadline.unwrap_or(now + WITHOUT_TIMEOUT)
}

/// The format of a chart path, or its refusal (before any work).
pub fn chart_format(path: &Path) -> Result<ChartFormat, Failure> {
    ChartFormat::of(path).map_err(bad_input)
}

/// Draws `line` into `out` in the format its path names.
pub fn write_line_chart(line: &LineChart, out: &mut Output) -> Result<(), Failure> {
    let format = chart_format(out.path())?;
    out.write_with(|w| chart::line_chart(line, format, w))?;
    Ok(())
}

/// Solves every horizon from `from` to `to` and charts clauses (top panel)
/// and build + solve time (bottom panel) against it; SAT and UNSAT horizons
/// are separate series of the time panel. Each horizon gets at most
/// [`PER_HORIZON`], and none starts after `deadline` (or, without one, once
/// the chart has run [`WITHOUT_TIMEOUT`]): the horizons left then are not
/// drawn; nor are those from the first whose formula is beyond the
/// encoding's limits (an error when that is the first horizon). Returns why
/// the chart stops short, if it does, as a note.
pub fn plot_horizon(
    instance: &Instance,
    encoding: &dyn Encoding,
    from: usize,
    to: usize,
    deadline: Option<Instant>,
    out: &mut Output,
) -> Result<Option<String>, Failure> {
    let to = to.max(from) + PAST_PLAN;
    let stop = chart_deadline(deadline, Instant::now());
    let mut clauses = Vec::new();
    let mut sat = Vec::new();
    let mut unsat = Vec::new();
    let mut unknown = Vec::new();
    let mut short = None;
    for moves in from.max(1)..=to {
        let left = stop
            .saturating_duration_since(Instant::now())
            .min(PER_HORIZON);
        // The first horizon is drawn in any case (within the watchdog's
        // tolerance), so the chart is never empty.
        let left = if moves == from.max(1) {
            left.max(FIRST_HORIZON)
        } else if left.is_zero() {
            short = Some(match deadline {
                Some(_) => format!(
                    "the horizon chart stops at T={}: --timeout ran out",
                    moves - 1
                ),
                None => format!(
                    "the horizon chart stops at T={}: it ran for its {} s (--timeout sets another limit)",
                    moves - 1,
                    WITHOUT_TIMEOUT.as_secs()
                ),
            });
            break;
        } else {
            left
        };
        let planned = Planner::new(encoding)
            .search(Search::FixedHorizon(moves))
            .shortcut(false)
            .timeout(Some(left))
            .plan(instance);
        let outcome = match planned {
            Err(PlanError::Encode(e @ EncodeError::TooBig { .. })) if moves > from.max(1) => {
                short = Some(format!("the horizon chart stops at T={}: {e}", moves - 1));
                break;
            }
            planned => planned.map_err(bad_input)?,
        };
        let stats = outcome.stats();
        let x = moves as f64;
        clauses.push((x, stats.clauses.max(1) as f64));
        let ms = (stats.build_seconds + stats.solve_seconds) * 1e3;
        match outcome.status() {
            Status::Sat => sat.push((x, ms.max(1e-3))),
            Status::Unsat => unsat.push((x, ms.max(1e-3))),
            Status::Unknown => unknown.push((x, ms.max(1e-3))),
        }
    }
    let mut times = Vec::new();
    for (name, points) in [
        ("SAT horizon", sat),
        ("UNSAT horizon", unsat),
        ("limit reached", unknown),
    ] {
        if !points.is_empty() {
            times.push(Series {
                name: name.into(),
                points,
                steps: false,
            });
        }
    }
    let chart = PanelChart {
        title: format!(
            "{} against the horizon ({}x{}, {})",
            encoding.name(),
            instance.width,
            instance.height,
            snakesat::counted(instance.apples.len(), "apple")
        ),
        x_label: "horizon T (moves)".into(),
        panels: vec![
            Panel {
                y_label: "clauses (count)".into(),
                series: vec![Series {
                    name: "clauses".into(),
                    points: clauses,
                    steps: false,
                }],
                log_y: None,
            },
            Panel {
                y_label: "build + solve time (ms, log scale)".into(),
                series: times,
                log_y: Some(true),
            },
        ],
    };
    let format = chart_format(out.path())?;
    out.write_with(|w| chart::panel_chart(&chart, format, w))?;
    Ok(short)
}

/// Charts apples eaten and the snake's length at every time of a legal path.
pub fn plot_timeline(instance: &Instance, path: &[Pos], out: &mut Output) -> Result<(), Failure> {
    let (mut eaten, mut length) = (Vec::new(), Vec::new());
    sim::replay_each(instance, path, |m| {
        eaten.push((m.time as f64, m.eaten as f64));
        length.push((m.time as f64, m.length as f64));
    })
    .map_err(|v| bad_input(format!("illegal plan: {v}")))?;
    let line = LineChart {
        title: format!(
            "Plan timeline: {}, {}",
            snakesat::counted(path.len() - 1, "move"),
            snakesat::counted(instance.apples.len(), "apple")
        ),
        x_label: "time (moves)".into(),
        y_label: "count".into(),
        series: vec![
            Series {
                name: "apples eaten".into(),
                points: eaten,
                steps: true,
            },
            Series {
                name: "snake length (cells)".into(),
                points: length,
                steps: true,
            },
        ],
        log_y: Some(false),
    };
    write_line_chart(&line, out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_chart_keeps_the_runs_deadline_or_gets_its_own_minute() {
        let now = Instant::now();
        let given = now + Duration::from_secs(3);
        assert_eq!(chart_deadline(Some(given), now), given);
        assert_eq!(chart_deadline(None, now), now + WITHOUT_TIMEOUT);
        assert_eq!(WITHOUT_TIMEOUT, Duration::from_secs(60));
    }
}
