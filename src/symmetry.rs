//! Symmetries of the grid and canonical instances: two instances related by
//! a rotation or a reflection of the board are the same puzzle, so a family of
//! benchmarks keeps one representative of each class (the *canonical* one),
//! and [`enumerate`] lists every class of a small setting exactly once.
//!
//! A square grid has the 8 symmetries of the dihedral group (identity, three
//! rotations, four reflections); a rectangle only the 4 that keep its shape.
//! Walls are a set, and so are the apples on the board at `t = 0` (the first
//! `visible` of the list: which of them comes first in the file does not
//! change the game); the apples revealed later keep their order. An
//! instance's *normal form* sorts those sets; its canonical form is the least
//! normal form (compared by [`key`]) over the grid's symmetries.

use crate::geometry::Direction;
use crate::instance::{Instance, Pos, Start, TailRule};

/// One symmetry of a `width × height` board: an optional transpose
/// (`(x, y) → (y, x)`, squares only), then optional flips of each axis.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Symmetry {
    /// Swap the axes first.
    pub transpose: bool,
    /// Then mirror the columns (`x → width − 1 − x`).
    pub flip_x: bool,
    /// Then mirror the rows (`y → height − 1 − y`).
    pub flip_y: bool,
}

impl Symmetry {
    /// The symmetries of a `width × height` board: 8 for a square, 4 otherwise.
    pub fn group(width: usize, height: usize) -> Vec<Symmetry> {
        let transposes: &[bool] = if width == height {
            &[false, true]
        } else {
            &[false]
        };
        let mut all = Vec::with_capacity(8);
        for &transpose in transposes {
            for flip_x in [false, true] {
                for flip_y in [false, true] {
                    all.push(Symmetry {
                        transpose,
                        flip_x,
                        flip_y,
                    });
                }
            }
        }
        all
    }

    /// Where cell `p` of a `width × height` board goes.
    ///
    /// # Panics
    ///
    /// When `p` is not a cell of that board (it has no place to go).
    pub fn apply_pos(&self, width: usize, height: usize, p: Pos) -> Pos {
        assert!(
            p.0 < width && p.1 < height,
            "cell {p:?} is not on a {width}x{height} board"
        );
        let (x, y, w, h) = if self.transpose {
            (p.1, p.0, height, width)
        } else {
            (p.0, p.1, width, height)
        };
        (
            if self.flip_x { w - 1 - x } else { x },
            if self.flip_y { h - 1 - y } else { y },
        )
    }

    /// The instance with every cell moved by this symmetry, in normal form.
    ///
    /// # Panics
    ///
    /// As [`Symmetry::apply_pos`], on a cell off the board: validate the
    /// instance first ([`Instance::validate`]).
    pub fn apply(&self, instance: &Instance) -> Instance {
        let map = |p: &Pos| self.apply_pos(instance.width, instance.height, *p);
        let (width, height) = if self.transpose {
            (instance.height, instance.width)
        } else {
            (instance.width, instance.height)
        };
        normal_form(&Instance {
            width,
            height,
            walls: instance.walls.iter().map(map).collect(),
            start: match &instance.start {
                Start::Body(body) => Start::Body(body.iter().map(map).collect()),
                Start::Free { length } => Start::Free { length: *length },
            },
            apples: instance.apples.iter().map(map).collect(),
            ..instance.clone()
        })
    }
}

/// The instance with its walls sorted and the apples visible at `t = 0`
/// sorted (the order of the rest kept).
pub fn normal_form(instance: &Instance) -> Instance {
    let mut normal = instance.clone();
    normal.walls.sort_unstable();
    normal.walls.dedup();
    let visible = instance.visible_at_start();
    normal.apples[..visible].sort_unstable();
    normal
}

/// A total order on normal forms: the board size and the rules, then the
/// walls, the start and the apples. Normal forms with the same key are the
/// same game, so the keys of canonical forms tell classes apart across board
/// sizes and rules too (a family may mix them). (The size and the rules —
/// visible apples at `t = 0`, growth, tail, horizon — are the same for every
/// symmetric copy of an instance, so they do not change which copy is least.)
///
/// # Panics
///
/// May panic when `instance` does not pass [`Instance::validate`] (a cell
/// off the board, a horizon beyond the limit).
pub fn key(instance: &Instance) -> Vec<usize> {
    let mut key = Vec::with_capacity(
        11 + 2 * (instance.walls.len() + instance.apples.len() + instance.initial_length()),
    );
    key.extend([
        instance.width,
        instance.height,
        instance.visible_at_start(),
        usize::from(instance.grow),
        match instance.tail {
            TailRule::Follow => 0,
            TailRule::Strict => 1,
        },
        // No horizon sorts first; a fixed one `T` as `T + 1`.
        instance.horizon.map_or(0, |t| t + 1),
    ]);
    key.push(instance.walls.len());
    key.extend(instance.walls.iter().flat_map(|&(x, y)| [x, y]));
    match &instance.start {
        Start::Body(body) => {
            key.push(0);
            key.push(body.len());
            key.extend(body.iter().flat_map(|&(x, y)| [x, y]));
        }
        Start::Free { length } => key.extend([1, *length]),
    }
    key.extend(instance.apples.iter().flat_map(|&(x, y)| [x, y]));
    key
}

/// The canonical representative of the instance's class: the normal form
/// with the least [`key`] over the grid's symmetries. Two instances are
/// related by a symmetry exactly when their canonical forms are equal.
///
/// # Panics
///
/// When `instance` does not pass [`Instance::validate`] (a cell off the
/// board, an empty board).
pub fn canonical(instance: &Instance) -> Instance {
    Symmetry::group(instance.width, instance.height)
        .iter()
        .map(|g| g.apply(instance))
        .min_by_key(key)
        .expect("the group has the identity")
}

/// True when the instance is its class's canonical representative.
pub(crate) fn is_canonical(instance: &Instance) -> bool {
    canonical(instance) == normal_form(instance)
}

/// A small setting to enumerate completely: a board without walls (or with
/// `walls` of them), a snake given by its length (an explicit body of every
/// shape and place when `explicit`, else a free start), and `apples` apples
/// on distinct free cells; the rules are copied from `rules`.
#[derive(Clone, Debug)]
pub struct Setting {
    /// The rules (visible, grow, tail, horizon) and board size to use; its
    /// walls, start and apples are not read (the fields below set them).
    pub rules: Instance,
    /// Number of walls.
    pub walls: usize,
    /// The snake's length at `t = 0`.
    pub length: usize,
    /// An explicit body (every placement) instead of a free start.
    pub explicit: bool,
    /// Number of apples.
    pub apples: usize,
}

/// The most instances [`enumerate`] will generate before canonical reduction.
pub const MAX_ENUMERATED: usize = 5_000_000;

/// Why a setting is not enumerated.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[non_exhaustive]
pub enum EnumerateError {
    /// More raw instances than [`MAX_ENUMERATED`].
    #[error("the setting has more than {limit} instances to enumerate; choose a smaller one")]
    TooMany {
        /// The limit.
        limit: usize,
    },
}

/// The number of valid instances of the setting in normal form (what
/// the enumeration builds), computed without building any of them;
/// `None` when it does not fit in a `u64`.
///
/// Walls are a set of `w` cells, apples are distinct cells off the walls
/// and the body, and the `m` apples visible at the start are a set while the
/// rest keep their order. For an explicit body, every body of `L` cells on
/// the empty board leaves `C(n − L, w)` wall sets that miss it, so the count
/// is `bodies(L) · C(n − L, w) · C(f, m) · P(f − m, k − m)` with
/// `f = n − w − L` free cells; for a free start it is
/// `C(n, w) · C(f, m) · P(f − m, k − m)` with `f = n − w`. Settings whose
/// instances all fail [`Instance::validate`] count 0. `bodies(L)` is counted
/// by a walk that stops once the total is known to exceed `cap`, so any value
/// above `cap` may be a lower bound of the true count.
pub(crate) fn count_instances(setting: &Setting, cap: u64) -> Option<u64> {
    let rules = &setting.rules;
    let (w, h) = (rules.width, rules.height);
    let sides = 1..=crate::instance::MAX_SIDE;
    if !sides.contains(&w) || !sides.contains(&h) {
        return Some(0);
    }
    let n = (w * h) as u64;
    let walls = setting.walls as u64;
    let length = setting.length as u64;
    let k = setting.apples as u64;
    let m = (rules.visible as u64).min(k);
    if setting.length == 0
        || setting.apples > crate::instance::MAX_APPLES
        || (k > 0 && rules.visible == 0)
    {
        return Some(0);
    }
    if rules
        .horizon
        .is_some_and(|t| t == 0 || t > crate::instance::MAX_HORIZON)
    {
        return Some(0);
    }
    if setting.explicit {
        let Some(free) = n.checked_sub(walls.checked_add(length)?) else {
            return Some(0);
        };
        let apples =
            binomial(free, m)?.checked_mul(permutations(free.saturating_sub(m), k - m)?)?;
        let with_walls = binomial(n - length, walls)?.checked_mul(apples)?;
        if with_walls == 0 {
            return Some(0);
        }
        let bodies = count_bodies(w, h, setting.length, cap / with_walls + 1);
        bodies.checked_mul(with_walls)
    } else {
        let Some(free) = n.checked_sub(walls) else {
            return Some(0);
        };
        // The snake needs an open cell, and one not under a visible apple.
        if length > free || m == free {
            return Some(0);
        }
        binomial(n, walls)?
            .checked_mul(binomial(free, m)?)?
            .checked_mul(permutations(free.saturating_sub(m), k - m)?)
    }
}

/// `C(n, k)`, `None` on overflow.
fn binomial(n: u64, k: u64) -> Option<u64> {
    if k > n {
        return Some(0);
    }
    let k = k.min(n - k);
    let mut c: u128 = 1;
    for i in 0..k {
        // c · (n − i) / (i + 1) stays an integer (a product of i + 1
        // consecutive integers divides by (i + 1)!).
        c = c.checked_mul(u128::from(n - i))? / u128::from(i + 1);
        if c > u128::from(u64::MAX) {
            return None;
        }
    }
    u64::try_from(c).ok()
}

/// `n · (n − 1) ⋯ (n − k + 1)`, the ordered `k`-tuples of `n` items; `None`
/// on overflow.
fn permutations(n: u64, k: u64) -> Option<u64> {
    if k > n {
        return Some(0);
    }
    (n - k + 1..=n).try_fold(1u64, |p, f| p.checked_mul(f))
}

/// The snake bodies of `length` cells on an empty `width × height` board,
/// counted up to `limit` (the walk stops there and returns `limit`).
fn count_bodies(width: usize, height: usize, length: usize, limit: u64) -> u64 {
    fn go(
        w: usize,
        h: usize,
        left: usize,
        at: usize,
        used: &mut [bool],
        count: &mut u64,
        limit: u64,
    ) {
        if *count >= limit {
            return;
        }
        if left == 0 {
            *count += 1;
            return;
        }
        let (x, y) = (at % w, at / w);
        let mut next = [usize::MAX; 4];
        if x > 0 {
            next[0] = at - 1;
        }
        if x + 1 < w {
            next[1] = at + 1;
        }
        if y > 0 {
            next[2] = at - w;
        }
        if y + 1 < h {
            next[3] = at + w;
        }
        for c in next {
            if c != usize::MAX && !used[c] {
                used[c] = true;
                go(w, h, left - 1, c, used, count, limit);
                used[c] = false;
            }
        }
    }
    let cells = width * height;
    if length == 0 || length > cells {
        return 0;
    }
    let mut used = vec![false; cells];
    let mut count = 0;
    for head in 0..cells {
        used[head] = true;
        go(
            width,
            height,
            length - 1,
            head,
            &mut used,
            &mut count,
            limit,
        );
        used[head] = false;
        if count >= limit {
            break;
        }
    }
    count
}

/// Every valid instance of the setting in normal form, each once (not yet
/// reduced by symmetry); the set is closed under the grid's symmetries.
///
/// The count (`count`, [`count_instances`] up to [`MAX_ENUMERATED`]) is
/// checked against [`MAX_ENUMERATED`] before anything is built, and the
/// instances are generated directly in normal form (the visible apples as a
/// sorted set), so no two are equal.
fn all_instances(setting: &Setting, count: Option<u64>) -> Result<Vec<Instance>, EnumerateError> {
    let limit = MAX_ENUMERATED as u64;
    if count.is_none_or(|c| c > limit) {
        return Err(EnumerateError::TooMany {
            limit: MAX_ENUMERATED,
        });
    }
    // Nothing to build (and the walls or apples asked for may be more than
    // any buffer can hold).
    if count == Some(0) {
        return Ok(Vec::new());
    }
    let (w, h) = (setting.rules.width, setting.rules.height);
    let cells: Vec<Pos> = (0..h).flat_map(|y| (0..w).map(move |x| (x, y))).collect();
    let visible = setting.rules.visible.min(setting.apples);
    let mut out = Vec::with_capacity(count.unwrap_or(0) as usize);
    let mut apples = Vec::with_capacity(setting.apples);
    for_each_combination(&cells, setting.walls, &mut |walls| {
        let open: Vec<Pos> = cells
            .iter()
            .copied()
            .filter(|c| !walls.contains(c))
            .collect();
        let mut emit = |start: Start| {
            let free: Vec<Pos> = match &start {
                Start::Body(body) => open.iter().copied().filter(|c| !body.contains(c)).collect(),
                Start::Free { .. } => open.clone(),
            };
            for_each_combination(&free, visible, &mut |shown| {
                let rest: Vec<Pos> = free
                    .iter()
                    .copied()
                    .filter(|c| !shown.contains(c))
                    .collect();
                for_each_arrangement(&rest, setting.apples - visible, &mut |later| {
                    apples.clear();
                    apples.extend_from_slice(shown);
                    apples.extend_from_slice(later);
                    let instance = normal_form(&Instance {
                        walls: walls.to_vec(),
                        start: start.clone(),
                        apples: apples.clone(),
                        ..setting.rules.clone()
                    });
                    if instance.validate().is_ok() {
                        out.push(instance);
                    }
                });
            });
        };
        if setting.explicit {
            for_each_body(&open, setting.length, &mut |body| {
                emit(Start::Body(body.to_vec()))
            });
        } else {
            emit(Start::Free {
                length: setting.length,
            });
        }
    });
    debug_assert_eq!(Some(out.len() as u64), count, "count_instances is exact");
    Ok(out)
}

/// One instance per symmetry class of the setting (the canonical ones), in
/// the order of [`key`]. Only instances that [`Instance::validate`] accepts
/// are generated, so a setting none of whose instances is valid (`visible`
/// 0, a side 0, a snake longer than the free cells) gives an empty list.
pub fn enumerate(setting: &Setting) -> Result<Vec<Instance>, EnumerateError> {
    enumerate_counted(setting, count_instances(setting, MAX_ENUMERATED as u64))
}

/// [`enumerate`] for a setting whose instances the caller has counted
/// already (`count_instances(setting, MAX_ENUMERATED)`), so that the walk
/// over the bodies is not done twice.
pub(crate) fn enumerate_counted(
    setting: &Setting,
    count: Option<u64>,
) -> Result<Vec<Instance>, EnumerateError> {
    let mut canonical: Vec<Instance> = all_instances(setting, count)?
        .into_iter()
        .filter(is_canonical)
        .collect();
    canonical.sort_by_key(key);
    Ok(canonical)
}

/// Calls `f` with every `k`-subset of `items`, in lexicographic order.
fn for_each_combination(items: &[Pos], k: usize, f: &mut impl FnMut(&[Pos])) {
    fn go(
        items: &[Pos],
        k: usize,
        from: usize,
        current: &mut Vec<Pos>,
        f: &mut impl FnMut(&[Pos]),
    ) {
        if current.len() == k {
            f(current);
            return;
        }
        for i in from..items.len() {
            current.push(items[i]);
            go(items, k, i + 1, current, f);
            current.pop();
        }
    }
    go(items, k, 0, &mut Vec::with_capacity(k), f);
}

/// Calls `f` with every ordered `k`-tuple of distinct `items`.
fn for_each_arrangement(items: &[Pos], k: usize, f: &mut impl FnMut(&[Pos])) {
    fn go(
        items: &[Pos],
        k: usize,
        used: &mut Vec<bool>,
        current: &mut Vec<Pos>,
        f: &mut impl FnMut(&[Pos]),
    ) {
        if current.len() == k {
            f(current);
            return;
        }
        for i in 0..items.len() {
            if !used[i] {
                used[i] = true;
                current.push(items[i]);
                go(items, k, used, current, f);
                current.pop();
                used[i] = false;
            }
        }
    }
    go(
        items,
        k,
        &mut vec![false; items.len()],
        &mut Vec::with_capacity(k),
        f,
    );
}

/// Calls `f` with every snake body of `length` cells (head first,
/// consecutive cells adjacent, no repeats) on the `open` cells.
fn for_each_body(open: &[Pos], length: usize, f: &mut impl FnMut(&[Pos])) {
    fn go(open: &[Pos], length: usize, current: &mut Vec<Pos>, f: &mut impl FnMut(&[Pos])) {
        if current.len() == length {
            f(current);
            return;
        }
        let &(x, y) = current.last().expect("a body has a head");
        for &c in open {
            if Direction::from_to((x, y), c).is_some() && !current.contains(&c) {
                current.push(c);
                go(open, length, current, f);
                current.pop();
            }
        }
    }
    if length == 0 {
        return;
    }
    for &head in open {
        go(open, length, &mut vec![head], f);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every instance of `setting`, counted first as [`enumerate`] does.
    fn all_of(setting: &Setting) -> Result<Vec<Instance>, EnumerateError> {
        all_instances(setting, count_instances(setting, MAX_ENUMERATED as u64))
    }
    use crate::instance::TailRule;

    fn rules(width: usize, height: usize, visible: usize) -> Instance {
        Instance {
            width,
            height,
            walls: vec![],
            start: Start::Free { length: 1 },
            apples: vec![],
            visible,
            grow: true,
            tail: TailRule::Follow,
            horizon: None,
        }
    }

    /// Burnside's lemma: the number of classes is the mean, over the group,
    /// of the number of instances each symmetry leaves unchanged. The fixed
    /// points are counted by brute force, independently of [`canonical`].
    fn burnside(setting: &Setting) -> usize {
        let all = all_of(setting).unwrap();
        let group = Symmetry::group(setting.rules.width, setting.rules.height);
        let fixed: usize = group
            .iter()
            .map(|g| all.iter().filter(|i| g.apply(i) == **i).count())
            .sum();
        assert_eq!(fixed % group.len(), 0, "Burnside's sum divides by |G|");
        fixed / group.len()
    }

    #[test]
    fn group_sizes_and_bijections() {
        for (w, h, n) in [(3, 3, 8), (4, 2, 4), (1, 5, 4), (5, 5, 8)] {
            let group = Symmetry::group(w, h);
            assert_eq!(group.len(), n);
            for g in &group {
                let (gw, gh) = if g.transpose { (h, w) } else { (w, h) };
                let mut images: Vec<Pos> = (0..h)
                    .flat_map(|y| (0..w).map(move |x| (x, y)))
                    .map(|p| g.apply_pos(w, h, p))
                    .collect();
                assert!(images.iter().all(|&(x, y)| x < gw && y < gh));
                images.sort_unstable();
                images.dedup();
                assert_eq!(images.len(), w * h, "{g:?} is a bijection");
            }
        }
    }

    #[test]
    fn canonical_is_shared_by_every_symmetric_copy() {
        let inst = Instance {
            walls: vec![(1, 0)],
            start: Start::Body(vec![(0, 2), (0, 1)]),
            apples: vec![(2, 2), (2, 0), (1, 1)],
            ..rules(3, 3, 2)
        };
        let c = canonical(&inst);
        for g in Symmetry::group(3, 3) {
            assert_eq!(canonical(&g.apply(&inst)), c);
        }
        // Swapping the two apples visible at the start is the same instance;
        // swapping a hidden one is not.
        let mut swapped = inst.clone();
        swapped.apples.swap(0, 1);
        assert_eq!(canonical(&swapped), c);
        let mut reordered = inst.clone();
        reordered.apples.swap(1, 2);
        assert_ne!(canonical(&reordered), c);
    }

    #[test]
    fn enumeration_matches_burnside() {
        let settings = [
            // 3×3, one-cell snake anywhere, 2 ordered apples.
            Setting {
                rules: rules(3, 3, 1),
                walls: 0,
                length: 1,
                explicit: true,
                apples: 2,
            },
            // 3×3, a two-cell snake, 2 apples both visible (a set).
            Setting {
                rules: rules(3, 3, 2),
                walls: 0,
                length: 2,
                explicit: true,
                apples: 2,
            },
            // 4×2 (4 symmetries), one wall, free start, 2 ordered apples.
            Setting {
                rules: rules(4, 2, 1),
                walls: 1,
                length: 1,
                explicit: false,
                apples: 2,
            },
        ];
        for setting in &settings {
            let classes = enumerate(setting).unwrap();
            assert_eq!(classes.len(), burnside(setting), "{setting:?}");
            // No two enumerated instances are related by a symmetry.
            let mut keys: Vec<Vec<usize>> = classes.iter().map(|i| key(&canonical(i))).collect();
            keys.sort();
            keys.dedup();
            assert_eq!(keys.len(), classes.len());
        }
        // 3×3, one-cell snake, 2 ordered apples: 9·8·7 = 504 placements; the
        // identity fixes all, the 4 reflections fix 3·2·1 = 6 each (a snake
        // and both apples on the axis), the 180° turn and the quarter turns
        // only those on the centre (none, three distinct cells being needed):
        // (504 + 4·6) / 8 = 66.
        assert_eq!(enumerate(&settings[0]).unwrap().len(), 66);
    }

    #[test]
    fn the_count_is_that_of_the_enumeration() {
        for (w, h) in [(1, 1), (2, 2), (3, 2), (3, 3), (4, 1)] {
            for walls in 0..=2 {
                for length in 0..=3 {
                    for explicit in [false, true] {
                        for apples in 0..=3 {
                            for visible in 0..=3 {
                                let setting = Setting {
                                    rules: rules(w, h, visible.min(apples)),
                                    walls,
                                    length,
                                    explicit,
                                    apples,
                                };
                                let all = all_of(&setting).unwrap();
                                assert_eq!(
                                    count_instances(&setting, MAX_ENUMERATED as u64),
                                    Some(all.len() as u64),
                                    "{setting:?}"
                                );
                                let mut keys: Vec<Vec<usize>> = all.iter().map(key).collect();
                                keys.sort();
                                keys.dedup();
                                assert_eq!(keys.len(), all.len(), "no instance twice");
                            }
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn large_settings_are_refused_before_any_work() {
        // 6×6 with 5 apples: 36·35·34·33·32 / 5! ≈ 3.8e5 apple sets per
        // body, ~1e9 instances; refused at once, without building them.
        let setting = Setting {
            rules: rules(6, 6, 5),
            walls: 0,
            length: 3,
            explicit: true,
            apples: 5,
        };
        let started = std::time::Instant::now();
        assert_eq!(
            all_of(&setting).unwrap_err(),
            EnumerateError::TooMany {
                limit: MAX_ENUMERATED
            }
        );
        assert!(started.elapsed().as_secs_f64() < 1.0);
        // Counts beyond u64 do not overflow.
        let huge = Setting {
            rules: rules(1000, 1000, 1),
            walls: 0,
            length: 1,
            explicit: false,
            apples: 100,
        };
        assert_eq!(count_instances(&huge, 10), None);
        assert!(all_of(&huge).is_err());
        assert_eq!(binomial(60, 30), Some(118_264_581_564_861_424));
        assert_eq!(permutations(5, 3), Some(60));
        assert_eq!(count_bodies(3, 3, 2, u64::MAX), 24);
    }

    #[test]
    fn settings_with_more_walls_or_apples_than_cells_have_no_instance() {
        for (walls, apples) in [(usize::MAX, 1), (0, usize::MAX)] {
            let setting = Setting {
                rules: rules(3, 3, 1),
                walls,
                length: 1,
                explicit: false,
                apples,
            };
            assert_eq!(all_of(&setting), Ok(vec![]));
        }
    }
}
