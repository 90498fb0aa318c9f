//! Progress on stderr: indicatif's bars on a terminal, and for logs (stderr
//! redirected, e.g. a cluster job) the same line as plain text every few
//! seconds when `SNAKESAT_PROGRESS` is set (its value: the seconds between
//! lines, 10 unless a number is given). indicatif hides its bars when stderr
//! is not a terminal and draws through a [`TermLike`]; [`LogLines`] is that
//! terminal for a log.

use std::io;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle, TermLike};

/// The seconds between two log lines unless `SNAKESAT_PROGRESS` gives them.
const LOG_EVERY: Duration = Duration::from_secs(10);

/// How often a bar on a terminal is redrawn while nothing advances.
const TERMINAL_TICK: Duration = Duration::from_secs(1);

/// How often a bar in a log is redrawn (and a line written if one is due).
const LOG_TICK: Duration = Duration::from_millis(100);

/// The interval between log lines that `SNAKESAT_PROGRESS` asks for, or
/// `None` when it is not set.
pub fn log_interval() -> Option<Duration> {
    let value = std::env::var("SNAKESAT_PROGRESS").ok()?;
    Some(
        value
            .trim()
            .parse::<f64>()
            .ok()
            .and_then(|s| Duration::try_from_secs_f64(s).ok())
            .unwrap_or(LOG_EVERY),
    )
}

/// A progress bar on stderr with `template`: drawn on a terminal, written as
/// a plain line every [`log_interval`] when `SNAKESAT_PROGRESS` is set,
/// hidden otherwise and with `--quiet`.
pub fn progress_bar(len: u64, template: &str) -> ProgressBar {
    if super::quiet() {
        return ProgressBar::hidden();
    }
    let style = ProgressStyle::with_template(template)
        .expect("a valid template")
        .progress_chars("=> ");
    let Some(every) = log_interval() else {
        let bar = ProgressBar::new(len).with_style(style);
        // (Redrawn while nothing advances, so that the elapsed time of a
        // long step, a problem up to its timeout, does not stand still.)
        bar.enable_steady_tick(TERMINAL_TICK);
        return bar;
    };
    let log = LogLines {
        every,
        state: Mutex::new(LogState {
            started: Instant::now(),
            last: None,
            line: String::new(),
        }),
    };
    let target = ProgressDrawTarget::term_like(Box::new(log));
    let bar = ProgressBar::with_draw_target(Some(len), target).with_style(style);
    // (Redrawn while nothing advances too, so a long step still shows.)
    bar.enable_steady_tick(LOG_TICK);
    bar
}

/// A "terminal" that writes the bar's line to stderr as plain text, the
/// first after `every` and then at most one per `every`.
#[derive(Debug)]
struct LogLines {
    every: Duration,
    state: Mutex<LogState>,
}

#[derive(Debug)]
struct LogState {
    started: Instant,
    last: Option<Instant>,
    /// The line drawn since the last flush.
    line: String,
}

impl TermLike for LogLines {
    fn width(&self) -> u16 {
        120
    }

    fn move_cursor_up(&self, _: usize) -> io::Result<()> {
        Ok(())
    }

    fn move_cursor_down(&self, _: usize) -> io::Result<()> {
        Ok(())
    }

    fn move_cursor_right(&self, _: usize) -> io::Result<()> {
        Ok(())
    }

    fn move_cursor_left(&self, _: usize) -> io::Result<()> {
        Ok(())
    }

    fn write_line(&self, s: &str) -> io::Result<()> {
        self.write_str(s)
    }

    fn write_str(&self, s: &str) -> io::Result<()> {
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        state.line.push_str(&s.replace('\r', ""));
        Ok(())
    }

    fn clear_line(&self) -> io::Result<()> {
        Ok(())
    }

    fn flush(&self) -> io::Result<()> {
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        let line = std::mem::take(&mut state.line);
        let line = line.trim();
        let now = Instant::now();
        let since = now - state.last.unwrap_or(state.started);
        if !line.is_empty() && since >= self.every {
            state.last = Some(now);
            stderr_line!("{line}");
        }
        Ok(())
    }
}
