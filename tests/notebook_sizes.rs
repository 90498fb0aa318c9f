//! The notebook's encodings reproduce its loops: clause counts per family on
//! its own settings equal the table of docs/DESIGN.md §2.

use snakesat::cnf::Cnf;
use snakesat::encode::notebook::{COMBINATIONS_CLAUSE_LIMIT, Notebook, combinations_tail_clauses};
use snakesat::encode::{EncodeError, Encoding, by_name};
use snakesat::instance::{Instance, Pos, Start, TailRule};

fn instance(side: usize, apples: Vec<Pos>, visible: usize) -> Instance {
    Instance {
        width: side,
        height: side,
        walls: vec![],
        start: Start::Free { length: 3 },
        apples,
        visible,
        grow: true,
        tail: TailRule::Follow,
        horizon: None,
    }
}

/// Nine distinct cells of the 10×10 grid.
fn nine_apples() -> Vec<Pos> {
    vec![
        (3, 7),
        (0, 0),
        (9, 9),
        (5, 2),
        (1, 8),
        (7, 4),
        (2, 3),
        (8, 0),
        (4, 6),
    ]
}

/// Families with clauses, in creation order.
fn clause_families(cnf: &Cnf) -> Vec<(String, u64)> {
    cnf.families()
        .filter(|(_, s)| s.clauses > 0)
        .map(|(n, s)| (n.to_string(), s.clauses))
        .collect()
}

fn check(cnf: &Cnf, expected: &[(&str, u64)], total: u64) {
    let got = clause_families(cnf);
    let want: Vec<(String, u64)> = expected.iter().map(|&(n, c)| (n.to_string(), c)).collect();
    assert_eq!(got, want);
    assert_eq!(cnf.num_clauses(), total);
    assert_eq!(cnf.size().clauses, total);
}

#[test]
fn names_round_trip() {
    for nb in Notebook::ALL {
        assert_eq!(Notebook::by_name(nb.as_str()), Some(nb));
        assert_eq!(by_name(nb.as_str()).unwrap().name(), nb.as_str());
        assert!(nb.approximate());
    }
    assert_eq!(Notebook::by_name("notebook"), None);
}

#[test]
fn mvp1_sizes() {
    let inst = instance(5, vec![], 1);
    let cnf = Notebook::Mvp1.encode(&inst, 9).unwrap();
    check(
        &cnf,
        &[("1", 3000), ("2", 10), ("3", 225), ("4", 425)],
        3660,
    );
    assert_eq!(cnf.num_vars(), 5 * 5 * 10);
}

#[test]
fn counter_sizes() {
    let inst = instance(10, nine_apples(), 9);
    let cnf = Notebook::Counter.encode(&inst, 34).unwrap();
    check(
        &cnf,
        &[
            ("1", 173250),
            ("2", 35),
            ("3", 3400),
            ("5", 9),
            ("6", 9),
            ("7", 306),
            ("8", 306),
            ("9", 306),
            ("10.a", 2520),
            ("10.b", 324),
            ("10.c", 315),
            ("10.d", 3150),
            ("10.e", 1260),
            ("10.f", 1),
            ("10.g", 31900),
        ],
        217_091,
    );
    assert_eq!(cnf.num_vars(), 100 * 35 + 2 * 9 * 36);
}

#[test]
fn combinations_sizes() {
    assert_eq!(combinations_tail_clauses(10, 35, 3, 9), 8_729_600);
    let inst = instance(10, nine_apples(), 9);
    let cnf = Notebook::Combinations.encode(&inst, 34).unwrap();
    check(
        &cnf,
        &[
            ("1", 173250),
            ("2", 35),
            ("3", 3400),
            ("5", 9),
            ("6", 9),
            ("7", 306),
            ("8", 306),
            ("9", 306),
            ("11.b", 9),
            ("11.a", 8_729_600),
        ],
        8_907_230,
    );
    assert_eq!(cnf.num_vars(), 100 * 35 + 9 * 36);
}

#[test]
fn ordered_sizes() {
    let inst = instance(10, nine_apples(), 1);
    let cnf = Notebook::Ordered.encode(&inst, 69).unwrap();
    check(
        &cnf,
        &[
            ("1", 346500),
            ("2", 70),
            ("3", 6900),
            ("5", 9),
            ("12", 1),
            ("13", 630),
            ("14", 1190),
            ("9", 621),
            ("15", 1),
            ("16", 70400),
        ],
        426_322,
    );
    assert_eq!(cnf.num_vars(), 100 * 70 + 9 * 71);
    // docs/DESIGN.md §2: the notebook's Python writes 936,513 literals for MVP3.
    assert_eq!(cnf.size().literals, 936_513);
}

#[test]
fn combinations_count_matches_build_on_small_settings() {
    for (side, moves, l0, apples) in [(3, 5, 1, 2), (4, 7, 2, 3), (3, 12, 3, 5), (2, 1, 1, 1)] {
        let cells: Vec<Pos> = (0..side * side).map(|i| (i % side, i / side)).collect();
        let mut inst = instance(side, cells[..apples].to_vec(), apples);
        inst.start = Start::Free { length: l0 };
        let cnf = Notebook::Combinations.encode(&inst, moves).unwrap();
        let built = cnf
            .families()
            .find(|(n, _)| *n == "11.a")
            .map_or(0, |(_, s)| s.clauses);
        assert_eq!(
            built as u128,
            combinations_tail_clauses(side, moves + 1, l0, apples),
            "side {side} moves {moves} l0 {l0} apples {apples}"
        );
    }
}

#[test]
fn combinations_refuses_beyond_its_limit() {
    let mut apples = nine_apples();
    apples.extend([(6, 6), (9, 0), (0, 9)]);
    let inst = instance(10, apples, 12);
    let expected = combinations_tail_clauses(10, 35, 3, 12);
    assert!(expected > COMBINATIONS_CLAUSE_LIMIT);
    match Notebook::Combinations.encode(&inst, 34) {
        Err(e @ EncodeError::TooBig { count, limit, .. }) => {
            assert_eq!(count, expected);
            assert_eq!(limit, COMBINATIONS_CLAUSE_LIMIT);
            // The count is family 11.a's, and the message says so.
            assert!(e.to_string().contains("clauses in family 11.a"), "{e}");
        }
        other => panic!("expected TooBig, got {other:?}"),
    }
    // Far beyond u128: saturates instead of overflowing.
    assert_eq!(combinations_tail_clauses(10, 2000, 3, 500), u128::MAX);
}

#[test]
fn unsupported_instances_are_refused() {
    let unsupported = |nb: Notebook, inst: &Instance| {
        matches!(nb.encode(inst, 10), Err(EncodeError::Unsupported { .. }))
    };
    let ordered = instance(10, nine_apples(), 1);
    let all = instance(10, nine_apples(), 9);
    assert!(unsupported(Notebook::Mvp1, &ordered));
    assert!(unsupported(Notebook::Counter, &ordered));
    assert!(unsupported(Notebook::Combinations, &ordered));
    assert!(unsupported(Notebook::Ordered, &all));
    assert!(unsupported(Notebook::Ordered, &instance(10, vec![], 1)));
    assert!(unsupported(Notebook::Counter, &instance(10, vec![], 1)));

    let mut rect = all.clone();
    rect.height = 9;
    // The apples left on the board: an apple off it is an invalid instance.
    rect.apples.retain(|&(_, y)| y < 9);
    assert!(unsupported(Notebook::Counter, &rect));
    let mut walls = all.clone();
    walls.walls = vec![(5, 5)];
    assert!(unsupported(Notebook::Counter, &walls));
    let mut body = instance(10, vec![], 1);
    body.start = Start::Body(vec![(0, 0)]);
    assert!(unsupported(Notebook::Mvp1, &body));
    let mut strict = ordered.clone();
    strict.tail = TailRule::Strict;
    assert!(unsupported(Notebook::Ordered, &strict));
    let mut still = ordered.clone();
    still.grow = false;
    assert!(unsupported(Notebook::Ordered, &still));
}

#[test]
fn tiny_horizons_do_not_panic() {
    let cases = [
        (Notebook::Mvp1, instance(2, vec![], 1)),
        (Notebook::Counter, instance(2, vec![(1, 1)], 1)),
        (Notebook::Combinations, instance(2, vec![(1, 1), (0, 1)], 2)),
        (Notebook::Ordered, instance(2, vec![(1, 1), (1, 1)], 1)),
    ];
    for (nb, inst) in cases {
        for moves in 0..4 {
            let cnf = nb.encode(&inst, moves).unwrap();
            assert!(cnf.num_clauses() > 0, "{} at {moves} moves", nb.as_str());
        }
    }
}
