//! From a model back to a path, using only the variables' meanings:
//! encodings name their head variables [`VarKind::Head`] (`head x y t`), or
//! [`VarKind::HeadX`] and [`VarKind::HeadY`] (per-axis position).

use thiserror::Error;

use crate::cnf::VarKind;
use crate::instance::MAX_HORIZON;

/// Why a horizon or a model does not describe a path.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum DecodeError {
    /// A horizon read from a file is 0 or above [`MAX_HORIZON`].
    #[error("horizon {horizon} is out of range (1..={MAX_HORIZON})")]
    HorizonOutOfRange {
        /// The horizon read.
        horizon: usize,
    },
    /// A horizon larger than the formula's variable count.
    #[error(
        "horizon {horizon} is inconsistent with the {} of the `p cnf` line",
        crate::counted(.num_vars, "variable")
    )]
    HorizonExceedsVariables {
        /// The horizon read.
        horizon: usize,
        /// The variables the `p cnf` line declares.
        num_vars: usize,
    },
    /// A path length above [`MAX_HORIZON`].
    #[error("horizon {moves} is beyond the limit {MAX_HORIZON}")]
    BeyondLimit {
        /// The moves asked for.
        moves: usize,
    },
    /// A head variable (named `name`) at a time after the horizon.
    #[error("{name} variable at time {t} beyond the horizon {moves}")]
    TimeBeyondHorizon {
        /// The variable kind's name.
        name: &'static str,
        /// Its time.
        t: usize,
        /// The horizon.
        moves: usize,
    },
    /// Two values of one axis at one time.
    #[error("model puts the head on two {name} values at time {t}: {first} and {second}")]
    TwoAxisValues {
        /// The axis variable kind's name (`head-x` or `head-y`).
        name: &'static str,
        /// The time.
        t: usize,
        /// One value set true.
        first: usize,
        /// Another value set true.
        second: usize,
    },
    /// Two head cells at one time.
    #[error("model puts the head on two cells at time {t}: {first:?} and {second:?}")]
    TwoCells {
        /// The time.
        t: usize,
        /// One cell `(x, y)` set true.
        first: (usize, usize),
        /// Another cell set true.
        second: (usize, usize),
    },
    /// No head cell at a time.
    #[error("model puts the head nowhere at time {t}")]
    Nowhere {
        /// The time.
        t: usize,
    },
}

/// Checks a horizon read from a file (a CNF's `c horizon` line) before
/// anything is sized by it: it is at least 1 and at most [`MAX_HORIZON`].
pub(crate) fn check_horizon(horizon: usize) -> Result<(), DecodeError> {
    if horizon == 0 || horizon > MAX_HORIZON {
        return Err(DecodeError::HorizonOutOfRange { horizon });
    }
    Ok(())
}

/// Checks that a satisfiable formula over `num_vars` variables can describe
/// `horizon` moves: every time point after the start has at least one head
/// variable (a time point with none has an empty clause, so the formula is
/// unsatisfiable), so a model of it has at most `num_vars` moves.
pub(crate) fn check_model_horizon(horizon: usize, num_vars: usize) -> Result<(), DecodeError> {
    if horizon > num_vars {
        return Err(DecodeError::HorizonExceedsVariables { horizon, num_vars });
    }
    Ok(())
}

/// Rebuilds the head path `t = 0..=moves` from variables and their values.
/// Variables of other kinds are ignored. A time with no head or with two
/// heads is an error (the model does not describe a path). When the encoding
/// fixed a head cell as a constant (no variable), `fixed` supplies it.
pub(crate) fn path_from_model<'a>(
    named: impl Iterator<Item = (&'a VarKind, bool)>,
    moves: usize,
    fixed: &[(usize, (usize, usize))],
) -> Result<Vec<(usize, usize)>, DecodeError> {
    if moves > MAX_HORIZON {
        return Err(DecodeError::BeyondLimit { moves });
    }
    let mut path: Vec<Option<(usize, usize)>> = vec![None; moves + 1];
    for &(t, p) in fixed {
        if t <= moves {
            path[t] = Some(p);
        }
    }
    // Per-axis coordinates: [column, row] per time.
    let mut axes: Vec<[Option<usize>; 2]> = vec![[None; 2]; moves + 1];
    let mut cells = Vec::new();
    for (kind, value) in named {
        if !value {
            continue;
        }
        let (axis, v, t) = match *kind {
            VarKind::Head { x, y, t } => {
                cells.push((x as usize, y as usize, t as usize));
                continue;
            }
            VarKind::HeadX { x, t } => (0, x, t),
            VarKind::HeadY { y, t } => (1, y, t),
            _ => continue,
        };
        let name = kind.name();
        let (v, t) = (v as usize, t as usize);
        if t > moves {
            return Err(DecodeError::TimeBeyondHorizon { name, t, moves });
        }
        match axes[t][axis] {
            Some(prev) if prev != v => {
                return Err(DecodeError::TwoAxisValues {
                    name,
                    t,
                    first: prev,
                    second: v,
                });
            }
            _ => axes[t][axis] = Some(v),
        }
    }
    for (t, [x, y]) in axes.iter().enumerate() {
        if let (Some(x), Some(y)) = (x, y) {
            cells.push((*x, *y, t));
        }
    }
    for (x, y, t) in cells {
        if t > moves {
            return Err(DecodeError::TimeBeyondHorizon {
                name: "head",
                t,
                moves,
            });
        }
        match path[t] {
            Some(prev) if prev != (x, y) => {
                return Err(DecodeError::TwoCells {
                    t,
                    first: prev,
                    second: (x, y),
                });
            }
            _ => path[t] = Some((x, y)),
        }
    }
    path.iter()
        .enumerate()
        .map(|(t, p)| p.ok_or(DecodeError::Nowhere { t }))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_head_per_time_is_required() {
        let vars = [
            VarKind::Head { x: 0, y: 0, t: 0 },
            VarKind::Head { x: 1, y: 0, t: 1 },
            VarKind::Eaten { apple: 0, t: 1 },
        ];
        let named = vars.iter().map(|k| (k, true));
        assert_eq!(
            path_from_model(named, 1, &[]).unwrap(),
            vec![(0, 0), (1, 0)]
        );
        let named = vars.iter().map(|k| (k, true));
        assert!(
            path_from_model(named, 2, &[])
                .unwrap_err()
                .to_string()
                .contains("nowhere at time 2")
        );
        let twice = [
            VarKind::Head { x: 0, y: 0, t: 0 },
            VarKind::Head { x: 1, y: 0, t: 0 },
        ];
        let named = twice.iter().map(|k| (k, true));
        assert!(
            path_from_model(named, 0, &[])
                .unwrap_err()
                .to_string()
                .contains("two cells")
        );
    }

    #[test]
    fn absurd_horizons_are_refused_before_allocating() {
        assert!(check_horizon(usize::MAX).is_err());
        assert!(check_horizon(MAX_HORIZON + 1).is_err());
        assert!(check_horizon(0).is_err());
        assert!(check_horizon(10).is_ok());
        assert!(check_model_horizon(11, 10).is_err());
        assert!(check_model_horizon(10, 10).is_ok());
        assert!(path_from_model(std::iter::empty(), usize::MAX, &[]).is_err());
    }
}
