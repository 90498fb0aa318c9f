//! `snakesat check` and `render` on plans that snakesat did not write: a
//! hand-written valid IPC plan and an invalid one for a hand-written problem,
//! and snakesat's own IPC plans, each checked by the domain-level validator.

#[path = "support/cli.rs"]
mod support;
use support::{assert_bad_input, snakesat, temp_dir};

const PROBLEM: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/tiny-3x2.pddl");
const VALID: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/data/tiny-3x2-valid.plan"
);
const INVALID: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/data/tiny-3x2-invalid.plan"
);

#[test]
fn a_hand_written_valid_plan_is_accepted() {
    let run = snakesat(&["check", PROBLEM, VALID]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.stdout.trim(), "valid: 2 moves, all 2 apples eaten");
    let run = snakesat(&["check", PROBLEM, VALID, "--json"]);
    let v: serde_json::Value = serde_json::from_str(run.stdout.trim()).unwrap();
    assert_eq!(v["valid"], true);
    assert_eq!(v["moves"], 2);
    assert_eq!(v["eaten"], serde_json::json!([[0, 1], [1, 2]]));
}

#[test]
fn an_invalid_plan_names_the_first_failed_precondition() {
    let run = snakesat(&["check", PROBLEM, INVALID]);
    assert_eq!(run.code, 1);
    assert!(run.stdout.is_empty());
    let lines: Vec<&str> = run.stderr.lines().collect();
    assert_eq!(lines.len(), 1, "{}", run.stderr);
    assert!(
        lines[0].ends_with(
            "step 2 (line 2): (move-and-eat-no-spawn pos1-1 pos2-1): precondition (ispoint pos2-1) does not hold"
        ),
        "{}",
        lines[0]
    );
    let run = snakesat(&["check", PROBLEM, INVALID, "--json"]);
    assert_eq!(run.code, 1);
    let v: serde_json::Value = serde_json::from_str(run.stdout.trim()).unwrap();
    assert_eq!(v["valid"], false);
    assert!(
        v["violation"]
            .as_str()
            .unwrap()
            .contains("(ispoint pos2-1)")
    );
}

#[test]
fn a_plan_that_stops_early_misses_the_goal() {
    let dir = temp_dir("early");
    let plan = dir.join("one.plan");
    std::fs::write(
        &plan,
        "(move-and-eat-spawn pos1-0 pos2-0 pos2-1 dummypoint)\n",
    )
    .unwrap();
    let run = snakesat(&["check", PROBLEM, plan.to_str().unwrap()]);
    assert_eq!(run.code, 1);
    assert!(run.stderr.contains("goal unmet"), "{}", run.stderr);
}

#[test]
fn unreadable_plans_are_bad_input() {
    let dir = temp_dir("unreadable");
    let plan = dir.join("bad.plan");
    std::fs::write(&plan, "(jump pos1-0 pos2-0)\n").unwrap();
    assert_bad_input(
        &snakesat(&["check", PROBLEM, plan.to_str().unwrap()]),
        "line 1: unknown action `jump`",
    );
    assert_bad_input(
        &snakesat(&["check", PROBLEM, dir.join("missing.plan").to_str().unwrap()]),
        "cannot read",
    );
}

#[test]
fn snakesats_own_ipc_plans_pass_the_validator() {
    let dir = temp_dir("own");
    for n in [1, 4, 5, 9] {
        let problem = format!(
            "{}/benchmarks/ipc2018-snake/optimal/instance-{n}.pddl",
            env!("CARGO_MANIFEST_DIR")
        );
        let plan = dir.join(format!("instance-{n}.plan"));
        let run = snakesat(&["solve", &problem, "--plan", plan.to_str().unwrap()]);
        assert_eq!(run.code, 0, "{}", run.stderr);
        let run = snakesat(&["check", &problem, plan.to_str().unwrap(), "--json"]);
        assert_eq!(run.code, 0, "instance-{n}: {}", run.stderr);
        let v: serde_json::Value = serde_json::from_str(run.stdout.trim()).unwrap();
        assert_eq!(v["valid"], true);
    }
}

#[test]
fn render_draws_another_planners_plan_and_refuses_an_invalid_one() {
    let dir = temp_dir("render");
    let gif = dir.join("tiny.gif");
    let html = dir.join("tiny.html");
    let run = snakesat(&[
        "render",
        PROBLEM,
        VALID,
        "--gif",
        gif.to_str().unwrap(),
        "--html",
        html.to_str().unwrap(),
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(std::fs::metadata(&gif).unwrap().len() > 0);
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(page.contains("id=\"plan-data\""));
    let bad_gif = dir.join("bad.gif");
    let run = snakesat(&[
        "render",
        PROBLEM,
        INVALID,
        "--gif",
        bad_gif.to_str().unwrap(),
    ]);
    assert_bad_input(&run, "(ispoint pos2-1)");
    assert!(!bad_gif.exists());
    // Some output is required.
    assert_eq!(snakesat(&["render", PROBLEM, VALID]).code, 2);
}

/// Everything on a plan line is read: an action followed by junk, a second
/// action on the line (whose objects need not even exist) or an object off
/// the problem's grid makes the plan unreadable, for `check` and `render`.
#[test]
fn a_line_with_more_than_one_action_is_refused() {
    let dir = temp_dir("one-per-line");
    let problem = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/benchmarks/ipc2018-snake/optimal/instance-4.pddl"
    );
    let own = dir.join("own.plan");
    let run = snakesat(&["solve", problem, "-q", "--plan", own.to_str().unwrap()]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let lines: Vec<String> = std::fs::read_to_string(&own)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect();
    assert_eq!(lines.len(), 13, "12 actions and the cost: {lines:?}");
    let with = |edit: &dyn Fn(&mut Vec<String>)| {
        let mut plan = lines.clone();
        edit(&mut plan);
        plan.join("\n")
    };
    let cases = [
        // A 13th action that cannot apply, on the 12th's line.
        (
            with(&|p| p[11] += " (move pos4-1 pos4-2 pos9-9 pos9-9)"),
            "line 12: one action per line: `(move pos4-1 pos4-2 pos9-9 pos9-9)` follows the action",
        ),
        // Junk after an action.
        (
            with(&|p| p[1] += " garbage here ((("),
            "line 2: unexpected `garbage here (((` after the action",
        ),
        // Actions 2 and 3 on one line.
        (
            with(&|p| {
                let third = p.remove(2);
                p[1] = format!("{} {third}", p[1]);
            }),
            "line 2: one action per line: `(move pos2-3 pos2-2 pos1-3 pos1-4)` follows the action",
        ),
        // An action naming a cell the problem does not have, on its own line.
        (
            with(&|p| p.insert(12, "(move pos4-1 pos4-2 pos9-9 pos9-9)".to_string())),
            "line 13: unknown object `pos9-9`: the problem has no such object",
        ),
    ];
    for (i, (text, message)) in cases.iter().enumerate() {
        let plan = dir.join(format!("case{i}.plan"));
        std::fs::write(&plan, text).unwrap();
        let plan = plan.to_str().unwrap();
        assert_bad_input(&snakesat(&["check", problem, plan]), message);
        assert_bad_input(&snakesat(&["check", problem, plan, "--json"]), message);
        let gif = dir.join(format!("case{i}.gif"));
        assert_bad_input(
            &snakesat(&["render", problem, plan, "--gif", gif.to_str().unwrap()]),
            message,
        );
        assert!(!gif.exists());
    }
    // Step numbers and costs around an action are still read.
    let numbered: Vec<String> = lines[..12]
        .iter()
        .enumerate()
        .map(|(i, a)| format!("{i}.000: {a} [1.000]"))
        .collect();
    let plan = dir.join("numbered.plan");
    std::fs::write(&plan, numbered.join("\n")).unwrap();
    let run = snakesat(&["check", problem, plan.to_str().unwrap()]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.stdout.trim(), "valid: 12 moves, all 8 apples eaten");
}

/// A plan whose number of moves is not the horizon the instance fixes is a
/// verdict of `check` (exit 1, and `"valid":false` with `--json`), not a
/// read error; `render` still refuses it. A plan without a path is
/// unreadable, in the words of the command.
#[test]
fn a_plan_off_the_fixed_horizon_is_invalid() {
    let dir = temp_dir("fixed-horizon");
    let instance = STRICT_4X4;
    let plan = dir.join("plan20.json");
    let run = snakesat(&["solve", instance, "--horizon", "20", "--json", "-q"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    std::fs::write(&plan, &run.stdout).unwrap();
    let plan = plan.to_str().unwrap();
    let message = "plan20.json: the plan has 20 moves but";
    let run = snakesat(&["check", instance, plan]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(run.stdout.is_empty());
    assert!(run.stderr.starts_with("invalid: "), "{}", run.stderr);
    assert!(run.stderr.contains(message), "{}", run.stderr);
    assert!(
        run.stderr.trim_end().ends_with("fixes the horizon at 16"),
        "{}",
        run.stderr
    );
    let run = snakesat(&["check", instance, plan, "--json"]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    let v: serde_json::Value = serde_json::from_str(run.stdout.trim()).unwrap();
    assert_eq!(v["valid"], false);
    assert!(v["violation"].as_str().unwrap().contains(message), "{v}");
    let gif = dir.join("plan20.gif");
    assert_bad_input(
        &snakesat(&["render", instance, plan, "--gif", gif.to_str().unwrap()]),
        message,
    );

    let no_plan = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/examples/instances/no-plan-3x1.json"
    );
    let unsat = dir.join("unsat.json");
    let run = snakesat(&["solve", no_plan, "--json", "-q"]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    std::fs::write(&unsat, &run.stdout).unwrap();
    let unsat = unsat.to_str().unwrap();
    assert_bad_input(
        &snakesat(&["check", no_plan, unsat]),
        "status unsat: only a plan with status sat has a path to check",
    );
    assert_bad_input(
        &snakesat(&["render", no_plan, unsat, "--gif", gif.to_str().unwrap()]),
        "status unsat: only a plan with status sat has a path to draw",
    );
}

/// A plan of `solve --satisficing`, which reads an instance's `horizon` as
/// the longest plan, may be shorter than that horizon: `check` and `render`
/// take it with `--satisficing` (and refuse one longer than the horizon);
/// without it, the verdict says so.
#[test]
fn a_satisficing_plan_is_checked_with_the_horizon_as_a_cap() {
    let dir = temp_dir("satisficing-cap");
    let run = snakesat(&["solve", STRICT_4X4, "--satisficing", "--json", "-q"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let plan = dir.join("short.json");
    std::fs::write(&plan, &run.stdout).unwrap();
    let moves = serde_json::from_str::<serde_json::Value>(&run.stdout).unwrap()["horizon"]
        .as_u64()
        .unwrap();
    assert!(moves < 16, "{moves} moves: the instance fixes 16");
    let plan = plan.to_str().unwrap();
    let run = snakesat(&["check", STRICT_4X4, plan]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(
        run.stderr.contains("is checked with --satisficing"),
        "{}",
        run.stderr
    );
    let run = snakesat(&["check", STRICT_4X4, plan, "--satisficing"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        run.stdout.trim(),
        format!("valid: {moves} moves, all 3 apples eaten")
    );
    let gif = dir.join("short.gif");
    let gif = gif.to_str().unwrap();
    let run = snakesat(&["render", STRICT_4X4, plan, "--satisficing", "--gif", gif]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    // The horizon stays a cap: a plan longer than it is invalid.
    let mut capped: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(STRICT_4X4).unwrap()).unwrap();
    capped["horizon"] = serde_json::json!(moves - 1);
    let capped_path = dir.join("capped.json");
    std::fs::write(&capped_path, capped.to_string()).unwrap();
    let run = snakesat(&[
        "check",
        capped_path.to_str().unwrap(),
        plan,
        "--satisficing",
    ]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(
        run.stderr.contains(&format!(
            "the plan has {moves} moves, more than the horizon of"
        )),
        "{}",
        run.stderr
    );
}

/// An example instance with a plan of several apples.
const STRICT_4X4: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/examples/instances/strict-tail-4x4.json"
);

/// The plan of `solve --json` for `instance`, parsed.
fn solved(instance: &str) -> serde_json::Value {
    let run = snakesat(&["solve", instance, "--json", "-q"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    serde_json::from_str(&run.stdout).unwrap()
}

/// A JSON plan's own `eaten` list must be the simulator's: a wrong time, a
/// missing or an extra entry is invalid for `check` (exit 1, the first
/// difference named) and refused by `render`; without the key the path alone
/// is checked. `optimal` is a claim `check` does not judge (see its --help).
#[test]
fn a_json_plan_must_eat_when_it_says() {
    let dir = temp_dir("eaten");
    let instance = STRICT_4X4;
    let plan = solved(instance);
    let eaten: Vec<(usize, usize)> = serde_json::from_value(plan["eaten"].clone()).unwrap();
    assert!(eaten.len() >= 2, "{plan}");
    let (i1, t1) = eaten[1];
    let with = |name: &str, edit: &dyn Fn(&mut serde_json::Value)| {
        let mut p = plan.clone();
        edit(&mut p);
        let file = dir.join(name);
        std::fs::write(&file, p.to_string()).unwrap();
        file.to_string_lossy().into_owned()
    };
    let late = with("late.json", &|p| p["eaten"][1][1] = (t1 + 1).into());
    let cases = [
        (
            late.clone(),
            format!(
                "late.json: `eaten` does not match the path: `eaten[1]` is [{i1}, {}] (apple {} at t = {}), but the simulator eats apple {} at t = {t1}",
                t1 + 1,
                i1 + 1,
                t1 + 1,
                i1 + 1
            ),
        ),
        (
            with("none.json", &|p| p["eaten"] = serde_json::json!([])),
            format!(
                "none.json: `eaten` does not match the path: it lists 0 apples, but the simulator also eats apple {} at t = {}",
                eaten[0].0 + 1,
                eaten[0].1
            ),
        ),
        (
            with("extra.json", &|p| {
                p["eaten"]
                    .as_array_mut()
                    .unwrap()
                    .push(serde_json::json!([9, 99]))
            }),
            format!(
                "extra.json: `eaten` does not match the path: `eaten[{}]` is [9, 99] (apple 10 at t = 99), but the simulator eats only {} apples",
                eaten.len(),
                eaten.len()
            ),
        ),
    ];
    for (file, message) in &cases {
        let run = snakesat(&["check", instance, file]);
        assert_eq!(run.code, 1, "{}", run.stderr);
        assert!(run.stderr.starts_with("invalid: "), "{}", run.stderr);
        assert!(
            run.stderr.trim_end().ends_with(message.as_str()),
            "{}",
            run.stderr
        );
        assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
        let run = snakesat(&["check", instance, file, "--json"]);
        assert_eq!(run.code, 1, "{}", run.stderr);
        let v: serde_json::Value = serde_json::from_str(run.stdout.trim()).unwrap();
        assert_eq!(v["valid"], false);
        assert!(
            v["violation"].as_str().unwrap().ends_with(message.as_str()),
            "{v}"
        );
    }
    let gif = dir.join("late.gif");
    assert_bad_input(
        &snakesat(&["render", instance, &late, "--gif", gif.to_str().unwrap()]),
        "`eaten` does not match the path: `eaten[1]`",
    );
    assert!(!gif.exists());
    // Without `eaten`, and with a claim check does not judge, the path is valid.
    let bare = with("bare.json", &|p| {
        p.as_object_mut().unwrap().remove("eaten");
        p["optimal"] = true.into();
    });
    let run = snakesat(&["check", instance, &bare]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let run = snakesat(&["check", "--help"]);
    assert!(
        run.stdout
            .contains("only `path`, `horizon` and `eaten` are checked"),
        "{}",
        run.stdout
    );
}

/// A path cell of three numbers is named ("trailing characters" before).
#[test]
fn a_path_cell_of_another_length_is_named() {
    let dir = temp_dir("cell-length");
    let instance = STRICT_4X4;
    let mut plan = solved(instance);
    plan["path"][0] = serde_json::json!([0, 0, 5]);
    let file = dir.join("three.json");
    std::fs::write(&file, plan.to_string()).unwrap();
    let gif = dir.join("three.gif");
    for args in [
        vec!["check"],
        vec!["render", "--gif", gif.to_str().unwrap()],
    ] {
        let mut all = args.clone();
        all.extend([instance, file.to_str().unwrap()]);
        let run = snakesat(&all);
        assert_bad_input(&run, "cell 0 has 3 numbers; a cell is [x, y]");
    }
    assert!(!gif.exists());
}

/// The tiny problem with its cells named as another generator might:
/// `pos01-00` for the cell (1, 0), and so on.
fn zero_padded_problem() -> String {
    std::fs::read_to_string(PROBLEM)
        .unwrap()
        .replace("pos0-", "pos00-")
        .replace("pos1-", "pos01-")
        .replace("pos2-", "pos02-")
        .replace("-0", "-00")
        .replace("-1", "-01")
}

#[test]
fn plans_use_the_problems_own_object_names() {
    let dir = temp_dir("own-names");
    let problem = dir.join("zeros.pddl");
    std::fs::write(&problem, zero_padded_problem()).unwrap();
    let problem = problem.to_str().unwrap();
    let expected = "(move-and-eat-spawn pos01-00 pos02-00 pos02-01 dummypoint)\n\
                    (move-and-eat-no-spawn pos02-00 pos02-01)\n\
                    ; cost = 2 (unit cost)\n";
    // solve --plan names the problem's objects, and check accepts the plan.
    let plan = dir.join("zeros.plan");
    let run = snakesat(&["solve", problem, "-q", "--plan", plan.to_str().unwrap()]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(std::fs::read_to_string(&plan).unwrap(), expected);
    let run = snakesat(&["check", problem, plan.to_str().unwrap()]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    // So does bench --plans.
    let folder = dir.join("problems");
    std::fs::create_dir(&folder).unwrap();
    std::fs::write(folder.join("zeros.pddl"), zero_padded_problem()).unwrap();
    let kept = dir.join("kept");
    let run = snakesat(&[
        "bench",
        folder.to_str().unwrap(),
        "-q",
        "--plans",
        kept.to_str().unwrap(),
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let files: Vec<_> = std::fs::read_dir(&kept).unwrap().collect();
    assert_eq!(files.len(), 1);
    let file = files[0].as_ref().unwrap().path();
    assert_eq!(std::fs::read_to_string(file).unwrap(), expected);
    // A plan naming the cells `pos1-0` and so on names objects this problem
    // does not have: check and render refuse it.
    assert_bad_input(
        &snakesat(&["check", problem, VALID]),
        "line 1: unknown object `pos1-0`: the problem has no such object",
    );
    let gif = dir.join("no.gif");
    assert_bad_input(
        &snakesat(&["render", problem, VALID, "--gif", gif.to_str().unwrap()]),
        "unknown object `pos1-0`",
    );
    assert!(!gif.exists());
}

#[test]
fn two_objects_naming_one_cell_are_refused() {
    let dir = temp_dir("two-names");
    // pos02-00 is a second object for the cell (2, 0); the point is put on it.
    let text = std::fs::read_to_string(PROBLEM)
        .unwrap()
        .replacen("pos2-1\n", "pos2-1 pos02-00\n", 1)
        .replace("(ispoint pos2-0)", "(ispoint pos02-00)");
    let problem = dir.join("two.pddl");
    std::fs::write(&problem, text).unwrap();
    let problem = problem.to_str().unwrap();
    let message = "objects pos2-0 and pos02-00 both name cell (2, 0)";
    let plan = dir.join("two.plan");
    assert_bad_input(
        &snakesat(&["solve", problem, "--plan", plan.to_str().unwrap()]),
        message,
    );
    assert!(!plan.exists());
    assert_bad_input(&snakesat(&["check", problem, VALID]), message);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Messages name apples as the text output of `solve` does, from 1 (its
/// picture draws the first apple as `1`, its `eaten (apple@time)` line lists
/// it as `1@…`), while JSON indices count from 0: the apple `check` says the
/// simulator also eats is the first of `solve`'s line, and the instance error
/// names the third apple `3`.
#[test]
fn messages_number_apples_as_the_text_output_does() {
    let dir = temp_dir("apple-numbers");
    let instance = dir.join("three.json");
    std::fs::write(
        &instance,
        r#"{"width":4,"height":3,"snake":[[0,0]],"apples":[[3,0],[1,1],[3,2]],"visible":"all"}"#,
    )
    .unwrap();
    let instance = instance.to_str().unwrap();
    let text = snakesat(&["solve", instance, "-q"]);
    assert_eq!(text.code, 0, "{}", text.stderr);
    let first = text
        .stdout
        .lines()
        .find_map(|l| l.strip_prefix("eaten (apple@time): "))
        .and_then(|l| l.split_whitespace().next())
        .unwrap_or_else(|| panic!("{}", text.stdout))
        .to_string();
    let (number, time) = first.split_once('@').unwrap();
    let mut plan = solved(instance);
    let json_index = plan["eaten"][0][0].as_u64().unwrap();
    assert_eq!(
        json_index + 1,
        number.parse::<u64>().unwrap(),
        "JSON is 0-based"
    );
    plan["eaten"] = serde_json::json!([]);
    let file = dir.join("none.json");
    std::fs::write(&file, plan.to_string()).unwrap();
    let run = snakesat(&["check", instance, file.to_str().unwrap()]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(
        run.stderr
            .trim_end()
            .ends_with(&format!("also eats apple {number} at t = {time}")),
        "{}\n{}",
        run.stderr,
        text.stdout
    );
    let under = dir.join("under.json");
    std::fs::write(
        &under,
        r#"{"width":3,"height":3,"snake":[[2,2]],"apples":[[0,0],[1,1],[2,2]],"visible":"all"}"#,
    )
    .unwrap();
    assert_bad_input(
        &snakesat(&["solve", under.to_str().unwrap()]),
        "apple 3 (2, 2) is on the snake's body",
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A plan of the wrong kind for its problem says which kind the problem
/// takes: an IPC plan (or any text not JSON) for a JSON instance, also one
/// read from stdin, is not a plan of `solve --json` and IPC plans go with a
/// .pddl problem; a file without one action for a .pddl problem is neither
/// of the plans it takes. A faulty IPC plan keeps its own message.
#[test]
fn a_plan_of_the_wrong_kind_names_the_kind_its_problem_takes() {
    let dir = temp_dir("plan-kinds");
    let json_instance = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/examples/instances/walls-5x5.json"
    );
    let for_json = "not a plan of `solve --json`, the plan a JSON instance takes (IPC plan files go with a .pddl problem)";
    let gif = dir.join("out.gif");
    for args in [
        vec!["check", json_instance, VALID],
        vec![
            "render",
            json_instance,
            VALID,
            "--gif",
            gif.to_str().unwrap(),
        ],
    ] {
        assert_bad_input(&snakesat(&args), for_json);
    }
    assert!(!gif.exists());
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_snakesat"))
        .args(["check", "-", VALID])
        .stdin(std::fs::File::open(json_instance).unwrap())
        .output()
        .expect("binary runs");
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains(for_json), "{stderr}");
    let cnf = dir.join("x.cnf");
    std::fs::write(&cnf, "p cnf 1 1\n1 0\n").unwrap();
    for args in [
        vec!["check", PROBLEM, cnf.to_str().unwrap()],
        vec![
            "render",
            PROBLEM,
            cnf.to_str().unwrap(),
            "--gif",
            gif.to_str().unwrap(),
        ],
    ] {
        assert_bad_input(
            &snakesat(&args),
            "x.cnf: neither an IPC plan nor the JSON of `solve --json`, the plans a .pddl problem takes: line 1:",
        );
    }
    assert!(!gif.exists());
    let faulty = dir.join("faulty.plan");
    std::fs::write(&faulty, "(jump pos1-0 pos2-0)\n").unwrap();
    let run = snakesat(&["check", PROBLEM, faulty.to_str().unwrap()]);
    assert_bad_input(&run, "faulty.plan: line 1: unknown action `jump`");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A violation names the problem's objects as spelt, cut to an excerpt for
/// `check` and `render` alike: with a 100,000-character cell name, `check`
/// printed it whole in its one line, and `render` in its error.
#[test]
fn a_violation_echoes_an_excerpt_of_a_long_name() {
    let dir = temp_dir("long-name-violation");
    let long = format!("pos{}2-1", "0".repeat(100_000));
    let problem = dir.join("long.pddl");
    let text = std::fs::read_to_string(PROBLEM).unwrap();
    std::fs::write(&problem, text.replace("pos2-1", &long)).unwrap();
    let plan = dir.join("long.plan");
    let invalid = std::fs::read_to_string(INVALID).unwrap();
    std::fs::write(&plan, invalid.replace("pos2-1", &long)).unwrap();
    let gif = dir.join("long.gif");
    let (problem, plan) = (problem.to_str().unwrap(), plan.to_str().unwrap());
    let check = snakesat(&["check", problem, plan]);
    assert_eq!(check.code, 1, "{}", check.stderr.len());
    let render = snakesat(&["render", problem, plan, "--gif", gif.to_str().unwrap()]);
    assert_eq!(render.code, 2, "{}", render.stderr.len());
    for stderr in [&check.stderr, &render.stderr] {
        assert_eq!(stderr.lines().count(), 1);
        assert!(stderr.len() < 1_000, "{}", stderr.len());
        assert!(
            stderr.contains("does not hold") && stderr.contains('…'),
            "{stderr}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A game's record (`play --json`) given as a plan is named as such, for
/// `check` and `render` alike (the error was a bare "expected a sequence").
#[test]
fn a_game_record_is_not_taken_for_a_plan() {
    let dir = temp_dir("game-record");
    let record = dir.join("game.json");
    let run = snakesat(&["play", "--size", "4", "--seed", "2", "--json"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    std::fs::write(&record, &run.stdout).unwrap();
    let instance = dir.join("i.json");
    std::fs::write(
        &instance,
        r#"{"width": 4, "height": 4, "snake": [[0, 0]], "apples": [[1, 1]]}"#,
    )
    .unwrap();
    let (instance, record) = (instance.to_str().unwrap(), record.to_str().unwrap());
    let gif = dir.join("g.gif");
    for args in [
        vec!["check", instance, record],
        vec!["render", instance, record, "--gif", gif.to_str().unwrap()],
    ] {
        assert_bad_input(
            &snakesat(&args),
            "game.json: a game record of `play --json`, not a plan: it carries no moves",
        );
    }
    assert!(!gif.exists());
}

/// Files with lone `\r` line ends (old Mac) read as files with `\n` do: the
/// domain, the problem and the plan. The plan was "one action per line" and
/// the domain "not the snake domain".
#[test]
fn files_with_lone_carriage_returns_are_read_line_by_line() {
    let dir = temp_dir("lone-cr");
    let cr = |from: &str, name: &str| {
        let text = std::fs::read_to_string(from).unwrap().replace('\n', "\r");
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        path.to_string_lossy().into_owned()
    };
    let domain = cr(
        concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/benchmarks/ipc2018-snake/domain.pddl"
        ),
        "domain.pddl",
    );
    let (problem, valid) = (cr(PROBLEM, "p.pddl"), cr(VALID, "valid.plan"));
    let run = snakesat(&["check", &domain, &problem, &valid]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.stdout.trim(), "valid: 2 moves, all 2 apples eaten");
    let invalid = cr(INVALID, "invalid.plan");
    let lf = snakesat(&["check", PROBLEM, INVALID]);
    let run = snakesat(&["check", &problem, &invalid]);
    assert_eq!(run.code, lf.code);
    assert_eq!(run.stdout, lf.stdout, "the same step named");
}
