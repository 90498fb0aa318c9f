//! Seeded random instances in the notebook's style: distinct apple cells
//! drawn uniformly, a free start of a given length, optional random walls.
//!
//! The generator is ChaCha8 seeded from `seed`, so the same parameters give
//! the same instance on every machine.

use rand::SeedableRng;
use rand::rngs::ChaCha8Rng;
use rand::seq::SliceRandom;

use super::{Instance, InstanceError, Pos, Start, TailRule};

/// Parameters of a random instance.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RandomSpec {
    /// Number of columns.
    pub width: usize,
    /// Number of rows.
    pub height: usize,
    /// Number of apples, on distinct cells, in reveal order.
    pub apples: usize,
    /// Length of the snake's free start ([`Start::Free`]).
    pub length: usize,
    /// `None` means all apples visible.
    pub visible: Option<usize>,
    /// Number of wall cells, drawn on cells distinct from the apples.
    pub walls: usize,
    /// Copied to [`Instance::grow`].
    pub grow: bool,
    /// Copied to [`Instance::tail`].
    pub tail: TailRule,
    /// Copied to [`Instance::horizon`].
    pub horizon: Option<usize>,
    /// Seed of the ChaCha8 generator.
    pub seed: u64,
}

impl Default for RandomSpec {
    /// The notebook's MVP3 setting: 10×10, 9 ordered apples, length 3, seed 1.
    fn default() -> Self {
        RandomSpec {
            width: 10,
            height: 10,
            apples: 9,
            length: 3,
            visible: Some(1),
            walls: 0,
            grow: true,
            tail: TailRule::Follow,
            horizon: None,
            seed: 1,
        }
    }
}

/// Why a random instance cannot be drawn.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum RandomError {
    /// `walls + apples >= width * height` (or the sum overflows): no cell is
    /// left free for the start.
    #[error(
        "{} and {} do not fit on a {w}x{h} grid",
        crate::counted(.walls, "wall"),
        crate::counted(.apples, "apple")
    )]
    TooCrowded {
        /// Requested number of walls.
        walls: usize,
        /// Requested number of apples.
        apples: usize,
        /// Grid width.
        w: usize,
        /// Grid height.
        h: usize,
    },
    /// The drawn instance fails [`Instance::validate`] (or the size is out of range).
    #[error(transparent)]
    Invalid(#[from] InstanceError),
}

/// Draws the instance described by `spec`.
pub fn generate(spec: &RandomSpec) -> Result<Instance, RandomError> {
    let check = Instance {
        width: spec.width,
        height: spec.height,
        walls: vec![],
        start: Start::Free {
            length: spec.length.max(1),
        },
        apples: vec![],
        visible: 1,
        grow: spec.grow,
        tail: spec.tail,
        horizon: spec.horizon,
    };
    if check.width == 0
        || check.height == 0
        || check.width > super::MAX_SIDE
        || check.height > super::MAX_SIDE
    {
        return Err(InstanceError::BadSize(spec.width, spec.height).into());
    }
    let cells = spec.width * spec.height;
    // Keep at least one cell free of walls and apples for the start.
    let taken = spec
        .walls
        .checked_add(spec.apples)
        .filter(|&taken| taken < cells)
        .ok_or(RandomError::TooCrowded {
            walls: spec.walls,
            apples: spec.apples,
            w: spec.width,
            h: spec.height,
        })?;
    let mut rng = ChaCha8Rng::seed_from_u64(spec.seed);
    let mut order: Vec<Pos> = (0..cells)
        .map(|i| (i % spec.width, i / spec.width))
        .collect();
    order.shuffle(&mut rng);
    let walls = order[..spec.walls].to_vec();
    let apples = order[spec.walls..taken].to_vec();
    let instance = Instance {
        walls,
        start: Start::Free {
            length: spec.length,
        },
        apples,
        visible: spec.visible.unwrap_or(spec.apples),
        ..check
    };
    instance.validate()?;
    Ok(instance)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_instance() {
        let spec = RandomSpec::default();
        assert_eq!(generate(&spec).unwrap(), generate(&spec).unwrap());
        let other = RandomSpec {
            seed: 2,
            ..spec.clone()
        };
        assert_ne!(
            generate(&spec).unwrap().apples,
            generate(&other).unwrap().apples
        );
    }

    #[test]
    fn apples_are_distinct_and_off_walls() {
        let spec = RandomSpec {
            walls: 10,
            apples: 20,
            ..RandomSpec::default()
        };
        let i = generate(&spec).unwrap();
        let mut all: Vec<Pos> = i.apples.iter().chain(i.walls.iter()).copied().collect();
        all.sort();
        all.dedup();
        assert_eq!(all.len(), 30);
    }

    #[test]
    fn overcrowded_grid_is_an_error() {
        let spec = RandomSpec {
            width: 2,
            height: 2,
            apples: 4,
            ..RandomSpec::default()
        };
        assert!(matches!(
            generate(&spec),
            Err(RandomError::TooCrowded { .. })
        ));
    }
}
