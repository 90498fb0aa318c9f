//! The game model: grid, walls, start, apples and rules, with validation.
//!
//! An [`Instance`] is what every other module reads. It is built from JSON
//! ([`json`]), from IPC-2018 PDDL (`crate::pddl`) or from seeded random
//! parameters ([`random`]), and is always validated by [`Instance::validate`]
//! before use.

pub mod json;
pub mod random;

use std::collections::HashSet;

use thiserror::Error;

pub use crate::geometry::Pos;
use crate::geometry::{Direction, Grid};

/// The largest grid side accepted; beyond it the CNF would not fit in memory.
pub const MAX_SIDE: usize = 1000;

/// Whether the head may enter the cell its tail leaves in the same step.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TailRule {
    /// The head may enter the cell the tail leaves (classic game, the notebook).
    Follow,
    /// It may not: the IPC-2018 domain checks `blocked` before the tail moves.
    Strict,
}

impl TailRule {
    /// The rule's name as written in JSON and on the command line: `"follow"` or `"strict"`.
    pub fn name(self) -> &'static str {
        match self {
            TailRule::Follow => "follow",
            TailRule::Strict => "strict",
        }
    }
}

/// How the snake starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Start {
    /// An explicit body, head first; consecutive cells are adjacent.
    Body(Vec<Pos>),
    /// The notebook's free start: the head may start on any free cell that
    /// holds no visible apple; the body before `t = 0` is unconstrained.
    Free {
        /// The snake's length in cells at `t = 0` (at least 1).
        length: usize,
    },
}

/// One game to plan.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Instance {
    /// Number of columns, `1..=`[`MAX_SIDE`].
    pub width: usize,
    /// Number of rows, `1..=`[`MAX_SIDE`].
    pub height: usize,
    /// Wall cells; neither the snake nor an apple may be on one.
    pub walls: Vec<Pos>,
    /// The snake at `t = 0`.
    pub start: Start,
    /// Apples in reveal order.
    pub apples: Vec<Pos>,
    /// How many apples are on the board at `t = 0`; each one eaten reveals the next.
    pub visible: usize,
    /// Eating makes the snake one cell longer.
    pub grow: bool,
    /// Whether the head may enter the cell the tail leaves in the same move.
    pub tail: TailRule,
    /// Number of moves `T`, or `None` to search the least one: the
    /// [`Planner`](crate::planner::Planner) asks for a plan of exactly `T`
    /// moves unless given another search
    /// ([`Planner::search_for`](crate::planner::Planner::search_for)).
    pub horizon: Option<usize>,
}

/// Why an instance is not a valid game.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
#[non_exhaustive]
pub enum InstanceError {
    /// `width` x `height` (the two fields) is not within `1..=`[`MAX_SIDE`] on each side.
    #[error("grid size {0}x{1} is out of range (each side must be 1..={max})", max = MAX_SIDE)]
    BadSize(usize, usize),
    #[error("{what} ({x}, {y}) is off the {w}x{h} grid")]
    /// A wall, snake cell or apple lies outside the grid.
    OffGrid {
        /// What the cell is, e.g. `"wall"`, `"snake cell 2"`, `"apple 1"` (apples
        /// counted from 1 in words, as the picture of `solve` draws them).
        what: String,
        /// Column of the cell.
        x: usize,
        /// Row of the cell.
        y: usize,
        /// Grid width.
        w: usize,
        /// Grid height.
        h: usize,
    },
    #[error("{what} ({x}, {y}) is on a wall")]
    /// A snake cell or apple lies on a wall.
    OnWall {
        /// What the cell is, e.g. `"snake cell 2"` or `"apple 1"` (apples
        /// counted from 1 in words).
        what: String,
        /// Column of the cell.
        x: usize,
        /// Row of the cell.
        y: usize,
    },
    #[error("apple {} ({x}, {y}) is on the snake's body", .index + 1)]
    /// An apple visible at `t = 0` lies on the explicit start body.
    AppleOnBody {
        /// Index of the apple in reveal order, from 0 (the message counts from 1).
        index: usize,
        /// Column of the apple.
        x: usize,
        /// Row of the apple.
        y: usize,
    },
    /// [`Start::Body`] has no cells.
    #[error("snake body is empty")]
    EmptyBody,
    #[error("snake body cells {i} ({x1}, {y1}) and {j} ({x2}, {y2}) are not adjacent")]
    /// Two consecutive cells of [`Start::Body`] are not 4-neighbours.
    BodyNotAdjacent {
        /// Index of the first cell (0 is the head).
        i: usize,
        /// Index of the second cell, `i + 1`.
        j: usize,
        /// Column of cell `i`.
        x1: usize,
        /// Row of cell `i`.
        y1: usize,
        /// Column of cell `j`.
        x2: usize,
        /// Row of cell `j`.
        y2: usize,
    },
    #[error("wall ({x}, {y}) is listed twice")]
    /// [`Instance::walls`] lists a cell twice.
    WallRepeats {
        /// Column of the repeated wall.
        x: usize,
        /// Row of the repeated wall.
        y: usize,
    },
    #[error("snake body visits ({x}, {y}) twice")]
    /// [`Start::Body`] contains a cell twice.
    BodyRepeats {
        /// Column of the repeated cell.
        x: usize,
        /// Row of the repeated cell.
        y: usize,
    },
    /// [`Start::Free`] has `length` 0.
    #[error("snake length must be at least 1")]
    ZeroLength,
    #[error("snake length {length} exceeds the {free} free cells of the grid")]
    /// [`Start::Free`]'s length exceeds the number of non-wall cells.
    LengthTooLarge {
        /// The requested length.
        length: usize,
        /// Number of non-wall cells.
        free: usize,
    },
    /// `visible` is 0 although there are apples.
    #[error("visible must be at least 1 when there are apples")]
    ZeroVisible,
    #[error(
        "apples {} and {} share cell ({x}, {y}): apples may share a cell only with visible = 1",
        .i + 1,
        .j + 1
    )]
    /// Two apples share a cell while `visible > 1` (allowed only with `visible = 1`,
    /// whether or not the two can be on the board together).
    DuplicateApple {
        /// Index of the first apple in reveal order, from 0 (the message counts from 1).
        i: usize,
        /// Index of the second apple in reveal order, from 0.
        j: usize,
        /// Column of the shared cell.
        x: usize,
        /// Row of the shared cell.
        y: usize,
    },
    /// `horizon` is `Some(0)`.
    #[error("horizon must be at least 1 move")]
    ZeroHorizon,
    /// `horizon` exceeds [`MAX_HORIZON`]; the field is the given horizon.
    #[error("horizon {0} is absurdly large (limit {max})", max = MAX_HORIZON)]
    HugeHorizon(usize),
    /// There are more than [`MAX_APPLES`] apples; the field is the count.
    #[error("{0} apples is beyond the limit of {max}", max = MAX_APPLES)]
    TooManyApples(usize),
    /// With [`Start::Free`], every non-wall cell holds an apple visible at `t = 0`.
    #[error("no free cell for the snake to start on")]
    NoStartCell,
}

/// The largest horizon accepted.
pub const MAX_HORIZON: usize = 100_000;

/// The most apples an instance may have: each takes at least one move, so
/// more than [`MAX_HORIZON`] could never all be eaten.
pub const MAX_APPLES: usize = MAX_HORIZON;

impl Instance {
    /// A `width × height` board without walls, the snake `start` and the
    /// `apples` all on the board at once, with the JSON format's defaults
    /// for the rest: the snake grows, the `follow` tail rule, and no fixed
    /// horizon (the least one is searched). Other settings by struct update;
    /// nothing is checked here ([`Instance::validate`] does, and the planner
    /// calls it):
    ///
    /// ```
    /// use snakesat::{Instance, Start, TailRule};
    ///
    /// // The IPC-2018 rules: apples one at a time, the strict tail.
    /// let instance = Instance {
    ///     visible: 1,
    ///     tail: TailRule::Strict,
    ///     ..Instance::new(5, 5, Start::Body(vec![(0, 0), (1, 0)]), vec![(4, 4), (2, 2)])
    /// };
    /// instance.validate()?;
    /// assert_eq!(instance, snakesat::instance::json::from_json(
    ///     r#"{"width": 5, "height": 5, "snake": [[0, 0], [1, 0]], "apples": [[4, 4], [2, 2]],
    ///         "visible": 1, "tail": "strict"}"#,
    /// )?);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn new(width: usize, height: usize, start: Start, apples: Vec<Pos>) -> Instance {
        Instance {
            width,
            height,
            walls: Vec::new(),
            start,
            visible: apples.len(),
            apples,
            grow: true,
            tail: TailRule::Follow,
            horizon: None,
        }
    }

    /// The board's geometry: cell numbering, neighbours, directions.
    pub fn grid(&self) -> Grid {
        Grid::new(self.width, self.height)
    }

    /// Number of cells `width * height` (as [`Grid::cells`]).
    pub fn cells(&self) -> usize {
        self.grid().cells()
    }

    /// Number of cells that are not walls (on an instance that passes
    /// [`Instance::validate`], whose walls are distinct cells of the board;
    /// 0 when more walls are listed than the board has cells).
    pub fn free_cells(&self) -> usize {
        self.cells().saturating_sub(self.walls.len())
    }

    /// Index of a cell in row-major order (`y * width + x`), as [`Grid::index`].
    pub fn index(&self, p: Pos) -> usize {
        self.grid().index(p)
    }

    /// Cell of an index, as [`Grid::pos`].
    ///
    /// # Panics
    ///
    /// On a board of width 0 (which numbers no cell; a valid instance has
    /// at least one column).
    pub fn pos(&self, index: usize) -> Pos {
        self.grid().pos(index)
    }

    /// Whether `p` lies inside the `width` x `height` grid.
    pub fn on_grid(&self, p: Pos) -> bool {
        self.grid().on_grid(p)
    }

    /// A bitmap of walls indexed by [`Instance::index`] (walls off the
    /// board are left out).
    ///
    /// # Panics
    ///
    /// It allocates one entry per cell: on a board of more cells than fit
    /// in memory (which [`Instance::validate`] refuses: a side is at most
    /// [`MAX_SIDE`]) the allocation fails.
    pub fn wall_map(&self) -> Vec<bool> {
        let mut map = vec![false; self.cells()];
        for &w in &self.walls {
            if self.on_grid(w) {
                map[self.index(w)] = true;
            }
        }
        map
    }

    /// The 4-neighbours of a cell on the grid (walls included), in
    /// [`Direction::ALL`] order (as [`Grid::neighbours_of`]).
    pub fn neighbours(&self, p: Pos) -> impl Iterator<Item = Pos> + use<> {
        self.grid().neighbours_of(p)
    }

    /// The snake's length at `t = 0`.
    pub fn initial_length(&self) -> usize {
        match &self.start {
            Start::Body(body) => body.len(),
            Start::Free { length } => *length,
        }
    }

    /// Number of apples visible at `t = 0` (never more than there are).
    pub fn visible_at_start(&self) -> usize {
        self.visible.min(self.apples.len())
    }

    /// Checks every rule of the model; the first problem found is returned.
    pub fn validate(&self) -> Result<(), InstanceError> {
        self.validate_game()?;
        if let Some(h) = self.horizon {
            if h == 0 {
                return Err(InstanceError::ZeroHorizon);
            }
            if h > MAX_HORIZON {
                return Err(InstanceError::HugeHorizon(h));
            }
        }
        Ok(())
    }

    /// [`Instance::validate`] but for the `horizon` field: every rule of the
    /// board, the snake and the apples. It is what the functions that take
    /// their horizon elsewhere (an encoding's `moves`, a path to replay)
    /// check.
    pub fn validate_game(&self) -> Result<(), InstanceError> {
        if self.width == 0 || self.height == 0 || self.width > MAX_SIDE || self.height > MAX_SIDE {
            return Err(InstanceError::BadSize(self.width, self.height));
        }
        if self.apples.len() > MAX_APPLES {
            return Err(InstanceError::TooManyApples(self.apples.len()));
        }
        let check_cell = |what: String, p: Pos| -> Result<(), InstanceError> {
            if !self.on_grid(p) {
                return Err(InstanceError::OffGrid {
                    what,
                    x: p.0,
                    y: p.1,
                    w: self.width,
                    h: self.height,
                });
            }
            Ok(())
        };
        let mut walls_seen = HashSet::new();
        for &w in &self.walls {
            check_cell("wall".into(), w)?;
            if !walls_seen.insert(w) {
                return Err(InstanceError::WallRepeats { x: w.0, y: w.1 });
            }
        }
        let walls = self.wall_map();
        let on_wall = |what: String, p: Pos| -> Result<(), InstanceError> {
            check_cell(what.clone(), p)?;
            if walls[self.index(p)] {
                return Err(InstanceError::OnWall {
                    what,
                    x: p.0,
                    y: p.1,
                });
            }
            Ok(())
        };
        let free_cells = walls.iter().filter(|w| !**w).count();
        match &self.start {
            Start::Body(body) => {
                if body.is_empty() {
                    return Err(InstanceError::EmptyBody);
                }
                let mut seen = HashSet::new();
                for (i, &p) in body.iter().enumerate() {
                    on_wall(format!("snake cell {i}"), p)?;
                    if !seen.insert(p) {
                        return Err(InstanceError::BodyRepeats { x: p.0, y: p.1 });
                    }
                }
                for (i, pair) in body.windows(2).enumerate() {
                    let (a, b) = (pair[0], pair[1]);
                    if Direction::from_to(a, b).is_none() {
                        return Err(InstanceError::BodyNotAdjacent {
                            i,
                            j: i + 1,
                            x1: a.0,
                            y1: a.1,
                            x2: b.0,
                            y2: b.1,
                        });
                    }
                }
            }
            Start::Free { length } => {
                if *length == 0 {
                    return Err(InstanceError::ZeroLength);
                }
                if *length > free_cells {
                    return Err(InstanceError::LengthTooLarge {
                        length: *length,
                        free: free_cells,
                    });
                }
            }
        }
        let body: HashSet<Pos> = match &self.start {
            Start::Body(body) => body.iter().copied().collect(),
            Start::Free { .. } => HashSet::new(),
        };
        for (i, &a) in self.apples.iter().enumerate() {
            on_wall(format!("apple {}", i + 1), a)?;
            if i < self.visible_at_start() && body.contains(&a) {
                return Err(InstanceError::AppleOnBody {
                    index: i,
                    x: a.0,
                    y: a.1,
                });
            }
        }
        if !self.apples.is_empty() && self.visible == 0 {
            return Err(InstanceError::ZeroVisible);
        }
        if self.visible > 1 {
            let mut first = std::collections::HashMap::new();
            for (j, &a) in self.apples.iter().enumerate() {
                if let Some(&i) = first.get(&a) {
                    return Err(InstanceError::DuplicateApple {
                        i,
                        j,
                        x: a.0,
                        y: a.1,
                    });
                }
                first.insert(a, j);
            }
        }
        if let Start::Free { .. } = self.start {
            let visible: HashSet<Pos> = self.apples[..self.visible_at_start()]
                .iter()
                .copied()
                .collect();
            let any = (0..self.cells()).any(|i| !walls[i] && !visible.contains(&self.pos(i)));
            if !any {
                return Err(InstanceError::NoStartCell);
            }
        }
        Ok(())
    }
}

/// Instances that [`Instance::validate`] refuses, one of each kind that once
/// made a public function taking an `&Instance` panic (an apple off the
/// grid, an empty body, a length of 0 or beyond the board, a side of 0 or of
/// `usize::MAX`), for the tests that they are refused with an error.
#[cfg(test)]
pub(crate) fn refused_examples() -> Vec<Instance> {
    let base = Instance {
        width: 3,
        height: 3,
        walls: vec![],
        start: Start::Free { length: 2 },
        apples: vec![(2, 2)],
        visible: 1,
        grow: true,
        tail: TailRule::Follow,
        horizon: None,
    };
    let refused = vec![
        Instance {
            apples: vec![(5, 5)],
            ..base.clone()
        },
        Instance {
            start: Start::Body(vec![]),
            ..base.clone()
        },
        Instance {
            start: Start::Free { length: 0 },
            ..base.clone()
        },
        Instance {
            start: Start::Free { length: usize::MAX },
            ..base.clone()
        },
        Instance {
            width: 0,
            ..base.clone()
        },
        Instance {
            width: usize::MAX,
            height: 2,
            ..base.clone()
        },
    ];
    assert_eq!(base.validate(), Ok(()));
    assert!(refused.iter().all(|i| i.validate().is_err()));
    refused
}

#[cfg(test)]
mod tests {
    use super::*;

    fn base() -> Instance {
        Instance {
            width: 5,
            height: 5,
            walls: vec![(2, 2)],
            start: Start::Body(vec![(4, 0), (3, 0)]),
            apples: vec![(0, 4), (3, 1)],
            visible: 2,
            grow: true,
            tail: TailRule::Follow,
            horizon: None,
        }
    }

    #[test]
    fn valid_instance_passes() {
        assert_eq!(base().validate(), Ok(()));
    }

    /// The counting helpers of an instance not yet validated neither
    /// overflow nor wrap (an audit's 20 walls on 4x4 and `usize::MAX` sides
    /// panicked in a debug build and wrapped in a release one); `validate`
    /// still refuses both.
    #[test]
    fn counts_of_an_unvalidated_instance_saturate() {
        let mut walls = base();
        (walls.width, walls.height) = (4, 4);
        walls.walls = (0..20).map(|i| (i % 4, i / 4)).collect();
        assert_eq!((walls.cells(), walls.free_cells()), (16, 0));
        assert!(walls.validate().is_err());
        let mut huge = base();
        (huge.width, huge.height) = (usize::MAX, usize::MAX);
        assert_eq!(
            (huge.cells(), huge.free_cells()),
            (usize::MAX, usize::MAX - 1)
        );
        assert!(matches!(huge.validate(), Err(InstanceError::BadSize(..))));
    }

    #[test]
    fn apple_on_wall_is_refused() {
        let mut i = base();
        i.apples.push((2, 2));
        assert!(matches!(i.validate(), Err(InstanceError::OnWall { .. })));
    }

    #[test]
    fn duplicate_visible_apples_are_refused_but_ordered_ones_allowed() {
        let mut i = base();
        i.apples = vec![(0, 4), (0, 4)];
        assert!(matches!(
            i.validate(),
            Err(InstanceError::DuplicateApple { .. })
        ));
        i.visible = 1;
        assert_eq!(i.validate(), Ok(()));
    }

    #[test]
    fn too_many_apples_are_refused() {
        let mut i = base();
        i.visible = 1;
        i.apples = vec![(0, 4); MAX_APPLES + 1];
        assert_eq!(
            i.validate(),
            Err(InstanceError::TooManyApples(MAX_APPLES + 1))
        );
        i.apples.pop();
        assert_eq!(i.validate(), Ok(()));
    }

    #[test]
    fn neighbours_stay_on_grid() {
        let i = base();
        let n: Vec<Pos> = i.neighbours((0, 0)).collect();
        assert_eq!(n, vec![(1, 0), (0, 1)]);
        assert_eq!(i.neighbours((2, 2)).count(), 4);
    }
}
