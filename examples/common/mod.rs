//! Shared by the `mvp1`, `mvp2` and `mvp3` examples: solve a random instance
//! with the default `direct` encoding, check the plan with the simulator,
//! print it and animate it to `plots/NAME.gif`.

pub mod specs;

use std::io::Write;
use std::path::PathBuf;

use snakesat::encode;
use snakesat::instance::random::generate;
use snakesat::output;
use snakesat::planner::Planner;
use snakesat::render::{GifOptions, write_gif};
use snakesat::report::picture;

/// Solves the setting of `name` ([`specs::mvp`]; at its horizon, or at the
/// least one), checks, prints and animates the plan to `plots/{name}.gif` in
/// the crate's directory.
pub fn run(name: &str) {
    let spec = specs::mvp(name);
    let instance = generate(&spec).expect("the setting is a valid instance");
    let encoding = encode::by_name("direct").expect("the default encoding exists");
    let bound = encode::prune::lower_bound(&instance).expect("every apple can be eaten");
    let outcome = Planner::new(&*encoding)
        .on_attempt(|a| eprintln!("T={}: {:?}", a.horizon, a.status))
        .plan(&instance)
        .expect("the setting encodes");
    // The planner checks every plan with the simulator.
    let plan = outcome.plan().expect("a legal plan within 300 moves");
    let (path, replay, optimal) = (&plan.path, &plan.replay, plan.optimal);
    println!(
        "{name}: {}x{}, length {}, {} apples, plan of {} moves{} (lower bound {bound}), checked by the simulator",
        instance.width,
        instance.height,
        spec.length,
        instance.apples.len(),
        path.len() - 1,
        if optimal { ", proven least" } else { "" },
    );
    print!("{}", picture(&instance, path, replay));

    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("plots");
    std::fs::create_dir_all(&dir).expect("plots/ can be created");
    let file = dir.join(format!("{name}.gif"));
    let mut bytes = Vec::new();
    write_gif(&instance, path, &GifOptions::default(), &mut bytes).expect("a legal plan renders");
    let mut out = output::claim_one(&file).expect("plots/NAME.gif can be written");
    out.write_with(|w| w.write_all(&bytes))
        .and_then(|()| output::commit([Some(out)]))
        .expect("the GIF can be written");
    println!(
        "wrote {}: {} frames, {} bytes",
        file.display(),
        path.len(),
        bytes.len()
    );
}
