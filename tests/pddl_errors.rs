//! `from_pddl` on good and bad snake problems: every bad one gives a clear one-line error.

use snakesat::instance::{Start, TailRule};
use snakesat::pddl::from_pddl;

/// A 3x2 grid with a wall at pos2-1 (no object), snake pos1-0 -> pos0-0,
/// one visible apple and a two-apple spawn chain.
const GOOD: &str = "; a hand-made problem
(define (problem snake-small)
  (:DOMAIN Snake)
  (:objects pos0-0 pos1-0 pos2-0 pos0-1 pos1-1)
  (:init
    (ISADJACENT pos0-0 pos1-0) (ISADJACENT pos1-0 pos0-0)
    (ISADJACENT pos1-0 pos2-0) (ISADJACENT pos2-0 pos1-0)
    (ISADJACENT pos0-1 pos1-1) (ISADJACENT pos1-1 pos0-1)
    (ISADJACENT pos0-0 pos0-1) (ISADJACENT pos0-1 pos0-0)
    (ISADJACENT pos1-0 pos1-1) (ISADJACENT pos1-1 pos1-0)
    (headsnake pos1-0) (tailsnake pos0-0) (nextsnake pos1-0 pos0-0)
    (blocked pos1-0) (blocked pos0-0)
    (ispoint pos2-0)
    (spawn pos1-1) (NEXTSPAWN pos1-1 pos0-1) (NEXTSPAWN pos0-1 dummypoint))
  (:goal (and (not (ispoint pos2-0)) (not (ispoint pos1-1)) (not (ispoint pos0-1)))))
";

fn err(text: &str) -> String {
    let e = from_pddl(text).expect_err("should be refused").to_string();
    assert!(!e.contains('\n'), "one line: {e}");
    e
}

fn with(from: &str, to: &str) -> String {
    assert!(GOOD.contains(from), "{from}");
    GOOD.replacen(from, to, 1)
}

#[test]
fn good_problem_reads() {
    let i = from_pddl(GOOD).unwrap();
    assert_eq!((i.width, i.height), (3, 2));
    assert_eq!(i.walls, vec![(2, 1)]);
    assert_eq!(i.start, Start::Body(vec![(1, 0), (0, 0)]));
    assert_eq!(i.apples, vec![(2, 0), (1, 1), (0, 1)]);
    assert_eq!(i.visible, 1);
    assert_eq!(i.tail, TailRule::Strict);
    assert!(i.grow);
    assert_eq!(i.horizon, None);
}

#[test]
fn plans_of_the_good_problem_must_be_legal_and_complete() {
    let i = from_pddl(GOOD).unwrap();
    let objects = snakesat::pddl::Objects::canonical(&i);
    let plan = |i, path: &[(usize, usize)]| snakesat::pddl::plan::ipc_plan(i, &objects, path);
    // Back into its own body.
    let e = plan(&i, &[(1, 0), (2, 0), (1, 0)]).unwrap_err().to_string();
    assert!(e.contains("own body"), "{e}");
    // Legal moves, apples left.
    let e = plan(&i, &[(1, 0), (1, 1)]).unwrap_err().to_string();
    assert!(e.contains("not eaten"), "{e}");
}

#[test]
fn another_domain() {
    let e = err(&with("(:DOMAIN Snake)", "(:domain sokoban)"));
    assert!(e.contains("sokoban") && e.contains("snake"), "{e}");
}

#[test]
fn domain_file_is_not_a_problem() {
    let e = err("(define (domain snake) (:predicates (headsnake ?x)))");
    assert!(e.contains("domain file"), "{e}");
}

#[test]
fn missing_headsnake() {
    let e = err(&with("(headsnake pos1-0)", ""));
    assert!(e.contains("headsnake"), "{e}");
}

/// In the domain a one-cell snake cannot `move` (it needs a `nextsnake`
/// fact at the tail), so it could only eat next to its head; such problems
/// were read as a snake that moves freely, and "solved".
#[test]
fn one_cell_snake() {
    let e = err(&with(
        "(headsnake pos1-0) (tailsnake pos0-0) (nextsnake pos1-0 pos0-0)\n    (blocked pos1-0) (blocked pos0-0)",
        "(headsnake pos1-0) (tailsnake pos1-0)\n    (blocked pos1-0)",
    ));
    assert!(e.contains("one cell") && e.contains("nextsnake"), "{e}");
}

#[test]
fn broken_spawn_chain_missing_link() {
    let e = err(&with("(NEXTSPAWN pos0-1 dummypoint)", ""));
    assert!(
        e.contains("broken spawn chain") && e.contains("NEXTSPAWN pos0-1"),
        "{e}"
    );
}

#[test]
fn broken_spawn_chain_cycle() {
    let e = err(&with(
        "(NEXTSPAWN pos0-1 dummypoint)",
        "(NEXTSPAWN pos0-1 pos1-1)",
    ));
    assert!(
        e.contains("broken spawn chain") && e.contains("loops"),
        "{e}"
    );
}

#[test]
fn broken_spawn_chain_unknown_object() {
    let e = err(&with("(spawn pos1-1)", "(spawn pos7-7)"));
    assert!(e.contains("unknown object") && e.contains("pos7-7"), "{e}");
    let e = err(&with("(spawn pos1-1)", ""));
    assert!(e.contains("broken spawn chain"), "{e}");
}

#[test]
fn unknown_object_and_bad_names() {
    let e = err(&with("(ispoint pos2-0)", "(ispoint apple)"));
    assert_eq!(e, "line 13: unknown object \"apple\" in :init");
    // Named as spelt in the file, on the line of the object.
    let e = err(&with("pos0-0 pos1-0", "pos0-0 cellA pos1-0"));
    assert_eq!(e, "line 4: object \"cellA\" is not a cell name posX-Y");
}

#[test]
fn malformed_parentheses() {
    let e = err(&GOOD.replacen("(:objects", ":objects", 1));
    assert!(e.contains("malformed PDDL"), "{e}");
    // A ')' missing inside :init: the unclosed '(' is the file's first, so
    // the message names the section that swallowed the next one (it said
    // "'(' is never closed on line 2").
    let e = err(&GOOD.replacen("(blocked pos0-0)", "(blocked pos0-0", 1));
    assert_eq!(
        e,
        "malformed PDDL: a ')' is missing in the (:init section (the (:goal of line 15 \
         lies inside it), which starts on line 5"
    );
    // Both sections still open at the end: the same.
    let e = err("(define (problem p) (:domain snake)\n(:init (a b)\n(:goal (c");
    assert!(
        e.contains("a ')' is missing in the (:init section (the (:goal of line 3"),
        "{e}"
    );
    let e = err(&GOOD.replacen("(:goal", "(:goal (", 1));
    assert!(e.contains("'(' is never closed on line 2"), "{e}");
    let e = err(&format!("{GOOD})"));
    assert!(e.contains("unmatched ')'"), "{e}");
    let e = err("");
    assert!(e.contains("malformed PDDL"), "{e}");
}

#[test]
fn blocked_body_inconsistency() {
    let e = err(&with("(blocked pos0-0)", ""));
    assert!(e.contains("pos0-0") && e.contains("blocked"), "{e}");
}

#[test]
fn blocked_cell_off_the_body_is_a_wall() {
    let i = from_pddl(&with(
        "(blocked pos0-0)",
        "(blocked pos0-0) (blocked pos2-0)",
    ));
    // pos2-0 holds the visible apple: it becomes a wall, which is refused
    // in the file's words.
    let e = i.unwrap_err().to_string();
    assert_eq!(
        e,
        "line 13: (ispoint pos2-0) puts an apple on pos2-0, which is (blocked pos2-0) without being the \
         snake's: a wall, where the apple could never be eaten"
    );
    // The same for a spawned apple: the fact that spawns it is named.
    let e = err(&with(
        "(blocked pos0-0)",
        "(blocked pos0-0) (blocked pos0-1)",
    ));
    assert!(
        e.starts_with("line 14: (NEXTSPAWN pos1-1 pos0-1) puts an apple on pos0-1"),
        "{e}"
    );
}

/// An apple on a cell without `ISADJACENT` links (a wall) is named as such;
/// the error said that a link between it and its neighbour was missing.
#[test]
fn an_apple_on_a_cell_without_links_is_on_a_wall() {
    let unlinked = with("(ISADJACENT pos1-0 pos2-0) (ISADJACENT pos2-0 pos1-0)", "");
    assert_eq!(
        err(&unlinked),
        "line 13: (ispoint pos2-0) puts an apple on pos2-0, which has no ISADJACENT link: a wall, where \
         the apple could never be eaten"
    );
    let spawn = with("(ISADJACENT pos0-1 pos1-1) (ISADJACENT pos1-1 pos0-1)", "").replacen(
        "(ISADJACENT pos1-0 pos1-1) (ISADJACENT pos1-1 pos1-0)",
        "",
        1,
    );
    assert!(
        err(&spawn).starts_with(
            "line 14: (spawn pos1-1) puts an apple on pos1-1, which has no ISADJACENT link"
        ),
        "{}",
        err(&spawn)
    );
}

#[test]
fn body_not_a_chain() {
    let e = err(&with("(nextsnake pos1-0 pos0-0)", ""));
    assert!(e.contains("snake body is broken"), "{e}");
    let e = err(&with(
        "(nextsnake pos1-0 pos0-0)",
        "(nextsnake pos1-0 pos0-0) (nextsnake pos1-1 pos0-1)",
    ));
    assert!(e.contains("not a simple chain"), "{e}");
    // Head pos1-0, then pos0-1: not its neighbour.
    let e = err(&with(
        "(nextsnake pos1-0 pos0-0)",
        "(nextsnake pos1-0 pos0-1) (nextsnake pos0-1 pos0-0)",
    )
    .replace("(blocked pos0-0)", "(blocked pos0-0) (blocked pos0-1)")
    .replace(
        "(spawn pos1-1) (NEXTSPAWN pos1-1 pos0-1) (NEXTSPAWN pos0-1 dummypoint)",
        "(spawn pos1-1) (NEXTSPAWN pos1-1 dummypoint)",
    )
    .replace(" (not (ispoint pos0-1))", ""));
    assert_eq!(
        e,
        "line 11: snake body is broken: (nextsnake pos1-0 pos0-1) links cells that are not neighbours"
    );
}

#[test]
fn adjacency_must_be_a_grid() {
    let e = err(&with(
        "(ISADJACENT pos0-0 pos1-0)",
        "(ISADJACENT pos0-0 pos1-0) (ISADJACENT pos0-0 pos1-1)",
    ));
    assert!(
        e.contains("ISADJACENT graph is not a grid with walls"),
        "{e}"
    );
    let e = err(&with("(ISADJACENT pos0-1 pos1-1)", ""));
    assert!(
        e.contains("ISADJACENT graph is not a grid with walls") && e.contains("pos0-1 pos1-1"),
        "{e}"
    );
}

#[test]
fn goal_must_be_every_apple() {
    let e = err(&with("(not (ispoint pos0-1))", ""));
    assert!(e.contains("goal") && e.contains("pos0-1"), "{e}");
    let e = err(&with("(not (ispoint pos0-1))", "(headsnake pos0-1)"));
    assert!(e.contains("unsupported goal"), "{e}");
}

#[test]
fn unknown_predicate() {
    let e = err(&with("(blocked pos0-0)", "(blocked pos0-0) (wall pos0-0)"));
    assert!(e.contains("unknown predicate"), "{e}");
}

/// An initial `ispoint` under the body is legal in the domain (the apple
/// waits until the head comes back) but not in snakesat's model: the error
/// says it is snakesat's limitation, not an invalid game. A spawned apple
/// under the body is read.
#[test]
fn an_initial_apple_under_the_body_is_a_limitation() {
    let e = err(&with("(ispoint pos2-0)", "(ispoint pos0-0)")
        .replace("(not (ispoint pos2-0))", "(not (ispoint pos0-0))"));
    assert!(
        e.contains("initial (ispoint pos0-0) lies under the snake's body")
            && e.contains("snakesat does not support"),
        "{e}"
    );
    assert!(!e.contains("not a valid game"), "{e}");
    let spawned = with(
        "(spawn pos1-1) (NEXTSPAWN pos1-1 pos0-1)",
        "(spawn pos0-0) (NEXTSPAWN pos0-0 pos0-1)",
    )
    .replace("(not (ispoint pos1-1))", "(not (ispoint pos0-0))");
    let i = from_pddl(&spawned).unwrap();
    assert_eq!(i.apples, vec![(2, 0), (0, 0), (0, 1)]);
}

/// Two visible apples' chain reusing a cell of one of them: legal in the
/// domain, not supported by snakesat (apples share a cell only with one
/// visible); the error names the facts, not apple numbers.
#[test]
fn a_spawn_on_an_initial_points_cell_is_a_limitation() {
    let text = with("(ispoint pos2-0)", "(ispoint pos2-0) (ispoint pos1-1)").replace(
        "(spawn pos1-1) (NEXTSPAWN pos1-1 pos0-1) (NEXTSPAWN pos0-1 dummypoint)",
        "(spawn pos0-1) (NEXTSPAWN pos0-1 pos2-0) (NEXTSPAWN pos2-0 dummypoint)",
    );
    assert_eq!(
        err(&text),
        "line 14: (NEXTSPAWN pos0-1 pos2-0) spawns an apple on pos2-0, the cell of the initial (ispoint \
         pos2-0): the domain allows it, but snakesat supports a spawn on an initial point's cell \
         only when there is one initial ispoint"
    );
    let first = text.replace(
        "(spawn pos0-1) (NEXTSPAWN pos0-1 pos2-0) (NEXTSPAWN pos2-0 dummypoint)",
        "(spawn pos2-0) (NEXTSPAWN pos2-0 pos0-1) (NEXTSPAWN pos0-1 dummypoint)",
    );
    assert!(
        err(&first).starts_with("line 14: (spawn pos2-0) spawns an apple on pos2-0"),
        "{}",
        err(&first)
    );
    // With one initial point, the spawned apple waits until it is eaten.
    let one = with(
        "(spawn pos1-1) (NEXTSPAWN pos1-1 pos0-1)",
        "(spawn pos2-0) (NEXTSPAWN pos2-0 pos0-1)",
    )
    .replace("(not (ispoint pos1-1))", "");
    assert_eq!(
        from_pddl(&one).unwrap().apples,
        vec![(2, 0), (2, 0), (0, 1)]
    );
}

/// With no initial `ispoint` nothing is ever eaten, so nothing spawns and the
/// goal holds at once: the problem is read with no apples (the empty plan
/// solves it), not refused.
#[test]
fn no_initial_point_means_nothing_ever_spawns() {
    let text = with("(ispoint pos2-0)", "").replace("(not (ispoint pos2-0)) ", "");
    let i = from_pddl(&text).unwrap();
    assert_eq!(i.apples, vec![]);
    assert_eq!(i.visible, 0);
    assert_eq!(i.start, Start::Body(vec![(1, 0), (0, 0)]));
    // Every goal literal holds from the start, whichever cells it names: the
    // spawn cells left out, or a cell no apple ever reaches.
    for goal in [
        "(and)",
        "(and (not (ispoint pos1-1)))",
        "(not (ispoint pos0-0))",
    ] {
        let other = with("(ispoint pos2-0)", "").replace(
            "(and (not (ispoint pos2-0)) (not (ispoint pos1-1)) (not (ispoint pos0-1)))",
            goal,
        );
        assert_eq!(from_pddl(&other).unwrap().apples, vec![], "{goal}");
    }
}

/// PDDL has one `:init`, one `:goal`, one `:objects` (and one of every other
/// section): a repeated one is refused, naming it, instead of the last one
/// silently replacing the first (or, for `:objects`, the two being merged).
#[test]
fn a_repeated_section_is_refused() {
    for (section, text) in [
        (
            ":init",
            with("  (:init", "  (:init (blocked pos2-0))\n  (:init"),
        ),
        (
            ":goal",
            with(
                "  (:goal",
                "  (:goal (and (not (ispoint pos2-0))))\n  (:goal",
            ),
        ),
        (
            ":objects",
            with("  (:objects", "  (:objects pos1-1)\n  (:objects"),
        ),
        (
            ":domain",
            with("(:DOMAIN Snake)", "(:domain snake) (:domain snake)"),
        ),
    ] {
        // The line of the second one (the error named none).
        let second = text
            .lines()
            .enumerate()
            .flat_map(|(i, l)| {
                let n = l
                    .to_ascii_lowercase()
                    .matches(&format!("({section}"))
                    .count();
                std::iter::repeat_n(i + 1, n)
            })
            .nth(1)
            .unwrap();
        let e = err(&text);
        assert_eq!(
            e,
            format!(
                "line {second}: malformed PDDL: a second ({section} ...) section; a problem has one"
            )
        );
    }
}

/// A section the reader does not know may change the game (a constraint
/// on the plan, a misspelt goal): it is refused, naming its line, not
/// dropped; so is a metric that does not minimise. The requirements and a
/// minimising metric are read as before.
#[test]
fn unknown_sections_and_metrics_are_refused() {
    let end = "(not (ispoint pos0-1)))))";
    for (section, needle) in [
        (
            "(:constraints (always (not (blocked pos0-0))))",
            "line 16: unsupported section (:constraints",
        ),
        ("(:gaol (and))", "line 16: unsupported section (:gaol"),
        (
            "(:metric maximize (total-cost))",
            "line 16: unsupported metric (:metric maximize (total-cost))",
        ),
    ] {
        let text = with(end, &format!("(not (ispoint pos0-1))))\n  {section})"));
        let e = err(&text);
        assert!(e.starts_with(needle), "{e}");
    }
    for fine in [
        "(:metric minimize (total-cost))",
        "(:requirements :strips :negative-preconditions)",
    ] {
        let text = with(end, &format!("(not (ispoint pos0-1))))\n  {fine})"));
        assert!(from_pddl(&text).is_ok(), "{fine}");
    }
}

/// Objects of the goal are named as the goal's (not `:init`'s); the domain's
/// constant `dummypoint` is not called unknown: `(not (ispoint dummypoint))`
/// always holds and is read as such, and in a fact of `:init` it is said to
/// be no cell.
#[test]
fn goal_objects_and_the_domain_constant() {
    let e = err(&with(
        "(not (ispoint pos0-1))",
        "(not (ispoint pos0-1)) (not (ispoint pos7-7))",
    ));
    assert_eq!(e, "line 15: unknown object \"pos7-7\" in :goal");
    let dummy = with(
        "(not (ispoint pos0-1))",
        "(not (ispoint pos0-1)) (not (ispoint dummypoint))",
    );
    assert_eq!(from_pddl(&dummy).unwrap(), from_pddl(GOOD).unwrap());
    let e = err(&with(
        "(ispoint pos2-0)",
        "(ispoint pos2-0) (ispoint dummypoint)",
    ));
    assert_eq!(
        e,
        "line 13: dummypoint in (ispoint dummypoint) of :init is the domain's constant, not a cell"
    );
}

/// `(= (total-cost) 0)`, which cost-adding tools put in `:init`, is ignored
/// (the domain has no costs); any other numeric fact is refused as such, not
/// as malformed. A goal's nested `and`s are flattened.
#[test]
fn total_cost_and_nested_and() {
    let cost = with(
        "(headsnake pos1-0)",
        "(= (total-cost) 0) (headsnake pos1-0)",
    );
    assert_eq!(from_pddl(&cost).unwrap(), from_pddl(GOOD).unwrap());
    let e = err(&with(
        "(headsnake pos1-0)",
        "(= (fuel pos1-0) 3) (headsnake pos1-0)",
    ));
    assert_eq!(
        e,
        "line 11: unsupported numeric fact (= (fuel pos1-0) 3) in :init"
    );
    let nested = with(
        "(:goal (and (not (ispoint pos2-0)) (not (ispoint pos1-1))",
        "(:goal (and (and (not (ispoint pos2-0)) (and)) (and (not (ispoint pos1-1)))",
    );
    assert_eq!(from_pddl(&nested).unwrap(), from_pddl(GOOD).unwrap());
}

/// The grid is the smallest holding every cell a fact names: an object in no
/// fact (a wall, as a cell without links is) does not stretch the board to
/// its coordinates; a fact's cell beyond the size limit is named, on the
/// line of the first fact that names it.
#[test]
fn an_object_in_no_fact_does_not_stretch_the_board() {
    let stray = with("pos0-1 pos1-1)", "pos0-1 pos1-1 pos999-999 pos5000-0)");
    assert_eq!(from_pddl(&stray).unwrap(), from_pddl(GOOD).unwrap());
    let far = stray.replace("(blocked pos0-0)", "(blocked pos0-0) (blocked pos5000-0)");
    assert_eq!(
        err(&far),
        "line 12: grid 5001x2 is too large: pos5000-0 is beyond its limit of 1000 cells a side"
    );
    // A coordinate at usize::MAX: the side is counted without wrapping to 0.
    let huge = stray.replace(
        "(blocked pos0-0)",
        "(blocked pos0-0) (blocked pos18446744073709551615-0)",
    );
    let huge = huge.replace("pos5000-0)", "pos5000-0 pos18446744073709551615-0)");
    assert_eq!(
        err(&huge),
        "line 12: grid 18446744073709551616x2 is too large: pos18446744073709551615-0 is beyond its limit \
         of 1000 cells a side"
    );
    // Beyond usize it is still a cell name, as far off as the largest.
    let beyond = huge.replace("18446744073709551615", "99999999999999999999999");
    assert_eq!(
        err(&beyond),
        "line 12: grid 18446744073709551616x2 is too large: pos99999999999999999999999-0 is beyond its limit \
         of 1000 cells a side"
    );
}

/// Semantic errors named no line, and names lowercased (`posX` as
/// `"posx"`): the fact at fault is named by its line, the unknown name as
/// spelt; a kind of fact said twice names the lines of both.
#[test]
fn semantic_errors_name_the_line_and_the_spelling() {
    let deep = with(
        "(blocked pos1-0) (blocked pos0-0)",
        "(blocked pos1-0) (blocked pos0-0)\n    (ISADJACENT pos0-0 posX)",
    );
    assert_eq!(err(&deep), "line 13: unknown object \"posX\" in :init");
    let two_heads = with(
        "(headsnake pos1-0)",
        "(headsnake pos1-0)\n(HEADSNAKE pos0-1)",
    );
    assert_eq!(
        err(&two_heads),
        "more than one (headsnake ...) fact, on lines 11, 12"
    );
    let fork = with(
        "(nextsnake pos1-0 pos0-0)",
        "(nextsnake pos1-0 pos0-0)\n(nextsnake POS1-0 pos1-1)",
    );
    assert_eq!(
        err(&fork),
        "line 12: snake body forks: pos1-0 has two cells behind it (pos0-0 and pos1-1)"
    );
    let far = with("(ISADJACENT pos0-0 pos1-0)", "(ISADJACENT pos0-0 pos1-1)");
    assert_eq!(
        err(&far),
        "line 6: ISADJACENT graph is not a grid with walls: pos0-0 and pos1-1 are linked but not \
         neighbours"
    );
    // Facts are shown as spelt.
    let unknown = with("(ispoint pos2-0)", "(isPoint pos2-0)\n(ISAPPLE Pos2-0)");
    assert_eq!(
        err(&unknown),
        "line 14: unknown predicate in fact (ISAPPLE Pos2-0)"
    );
    let looped = with("(NEXTSPAWN pos0-1 dummypoint)", "(NEXTSPAWN pos0-1 pos1-1)");
    assert_eq!(
        err(&looped),
        "line 14: broken spawn chain: it loops back to pos1-1 without reaching dummypoint"
    );
}

/// A leading UTF-8 byte-order mark is skipped (the library refused it as
/// "\u{feff}" outside parentheses; so did `bench`, unlike the other commands);
/// a domain file with one is still told apart.
#[test]
fn a_byte_order_mark_is_skipped() {
    let marked = format!("\u{feff}{GOOD}");
    assert_eq!(from_pddl(&marked).unwrap(), from_pddl(GOOD).unwrap());
    assert!(snakesat::pddl::is_domain_text(
        "\u{feff}(define (domain snake))"
    ));
}

/// `- ` with no type after it in :objects was accepted; a negated fact in
/// :init was called a "nested list" instead of what it is.
#[test]
fn a_dangling_type_dash_and_a_negated_fact_are_named() {
    let e = err(&with("pos1-1)", "pos1-1 -)"));
    assert!(e.contains("'-' without a type in :objects"), "{e}");
    let e = err(&with("(blocked pos0-0)", "(not (blocked pos0-0))"));
    assert!(
        e.contains("negative fact (not (blocked pos0-0)) in :init"),
        "{e}"
    );
}

/// A section at fault is named by its line: the domain it names, a
/// `(:domain ...)` or `(:goal ...)` of the wrong shape, a stray atom.
#[test]
fn section_errors_name_the_section_line() {
    for (from, to, said) in [
        (
            "(:DOMAIN Snake)",
            "(:DOMAIN Sokoban)",
            "line 3: problem is for domain \"sokoban\", not \"snake\"",
        ),
        (
            "(:DOMAIN Snake)",
            "(:DOMAIN Snake x)",
            "line 3: malformed PDDL: (:domain NAME) expected, found (:DOMAIN Snake x)",
        ),
        (
            "  (:goal (and",
            "  (:goal (and) (and",
            "line 15: malformed PDDL: (:goal ...) must hold one formula",
        ),
        (
            "  (:DOMAIN Snake)",
            "  (:DOMAIN Snake)\n  stray",
            "line 4: malformed PDDL: unexpected atom stray in (define ...)",
        ),
    ] {
        assert_eq!(err(&with(from, to)), said, "{to}");
    }
}
