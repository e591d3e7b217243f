//! `hamle go train-net`: fits a net to the teacher's labelled positions with Adam
//! (decoupled weight decay), minibatches of one board size, each position seen under a
//! seeded one of the eight symmetries.
//!
//! Deterministic by seed: the order of an epoch and each position's symmetry are derived
//! from (seed, epoch, index), and the products run on one thread, so a run is its seed.
//! A checkpoint (weights, the optimiser's moments, the step and the place in the epoch)
//! is written every `checkpoint_every` steps and at every epoch's end, through a new file
//! and a rename; `--resume` continues from it exactly as the run would have gone on.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Instant;

use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;

use super::backprop::{Losses, Target, loss_and_gradient};
use super::data::{Example, Examples, symmetry};
use super::features::PLANES;
use super::model::{Net, Shape};
use super::weights::{self, write_atomically};
use crate::files;
use crate::seed::derive_seed;

/// What the trainer is asked to do.
#[derive(Clone, Debug)]
pub struct TrainSettings {
    pub shape: Shape,
    pub seed: u64,
    pub batch: usize,
    pub learning_rate: f32,
    pub weight_decay: f32,
    /// Epochs in all (a resumed run counts those done before).
    pub epochs: u64,
    /// Stop once this many steps are done in all (a resumed run counts those before).
    pub max_steps: Option<u64>,
    /// Where the weights go (at each epoch's end and at the end).
    pub out: PathBuf,
    pub checkpoint: PathBuf,
    pub checkpoint_every: u64,
    pub resume: Option<PathBuf>,
    /// A progress line every this many steps (0: none).
    pub report_every: u64,
    /// What else decides the run (the data read), folded into the checkpoint's fingerprint.
    pub data_key: String,
}

/// Where a run stands: what a checkpoint holds.
#[derive(Clone, Debug, PartialEq)]
pub struct State {
    pub net: Net,
    adam_m: Vec<f32>,
    adam_v: Vec<f32>,
    /// Steps done in all.
    pub step: u64,
    pub epoch: u64,
    /// The next minibatch of `epoch`.
    pub batch_in_epoch: u64,
}

/// What a run did: each step's mean loss, and the held-out measures at its end.
#[derive(Clone, Debug)]
pub struct TrainOutcome {
    pub losses: Vec<f64>,
    pub held_out: Losses,
    pub state: State,
}

const BETA1: f32 = 0.9;
const BETA2: f32 = 0.999;
const ADAM_EPSILON: f32 = 1e-8;
const CHECKPOINT_MAGIC: &[u8; 8] = b"HMLGOCKP";
const CHECKPOINT_VERSION: u32 = 1;

impl TrainSettings {
    /// A number that changes with everything that decides the run's steps.
    fn fingerprint(&self) -> u64 {
        let text = format!(
            "{:?} {} {} {} {} {}",
            self.shape,
            self.seed,
            self.batch,
            self.learning_rate.to_bits(),
            self.weight_decay.to_bits(),
            self.data_key
        );
        text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
        })
    }
}

/// The minibatches of `epoch`: indices of examples of one board size each, in a seeded order.
pub fn epoch_batches(examples: &[Example], seed: u64, epoch: u64, batch: usize) -> Vec<Vec<usize>> {
    let mut rng = ChaCha8Rng::seed_from_u64(derive_seed(seed, epoch));
    let mut by_size: BTreeMap<u8, Vec<usize>> = BTreeMap::new();
    for (i, example) in examples.iter().enumerate() {
        by_size.entry(example.snapshot.size).or_default().push(i);
    }
    let mut batches = Vec::new();
    for indices in by_size.values_mut() {
        indices.shuffle(&mut rng);
        batches.extend(indices.chunks(batch.max(1)).map(<[usize]>::to_vec));
    }
    batches.shuffle(&mut rng);
    batches
}

/// The planes of `examples` side by side, and their targets, for one forward pass.
pub fn batch_inputs(examples: &[&Example], syms: &[usize]) -> (Vec<f32>, Vec<Target>) {
    let area = examples[0].snapshot.area();
    let width = examples.len() * area;
    let mut planes = vec![0.0; PLANES * width];
    let mut one = vec![0.0; PLANES * area];
    let mut targets = Vec::with_capacity(examples.len());
    for (b, (example, &sym)) in examples.iter().zip(syms).enumerate() {
        example.snapshot.planes(sym, &mut one);
        for p in 0..PLANES {
            planes[p * width + b * area..p * width + (b + 1) * area]
                .copy_from_slice(&one[p * area..(p + 1) * area]);
        }
        targets.push(example.target(sym));
    }
    (planes, targets)
}

/// The net's losses on `examples` (identity symmetry), in batches of one size: by board
/// size, then all together.
pub fn evaluate_by_size(net: &Net, examples: &[Example]) -> (BTreeMap<u8, Losses>, Losses) {
    let mut by_size: BTreeMap<u8, Vec<&Example>> = BTreeMap::new();
    for example in examples {
        by_size
            .entry(example.snapshot.size)
            .or_default()
            .push(example);
    }
    let mut sizes = BTreeMap::new();
    let mut total = Losses::default();
    for (&size, group) in &by_size {
        let mut losses = Losses::default();
        for chunk in group.chunks(64) {
            let (planes, targets) = batch_inputs(chunk, &vec![0; chunk.len()]);
            let trace = net.forward(&planes, usize::from(size), chunk.len());
            losses.add(&loss_and_gradient(net, &trace, &targets, None));
        }
        total.add(&losses);
        sizes.insert(size, losses);
    }
    (sizes, total)
}

/// The net's losses on `examples`, all sizes together.
pub fn evaluate(net: &Net, examples: &[Example]) -> Losses {
    evaluate_by_size(net, examples).1
}

/// Prints the held-out measures, all together and by board size; returns the total.
fn report_held_out(net: &Net, examples: &[Example], heading: &str) -> Losses {
    let (sizes, total) = evaluate_by_size(net, examples);
    println!("{heading}: held out {}", describe(&total));
    for (size, losses) in sizes {
        println!("  {size}x{size}: {}", describe(&losses));
    }
    total
}

impl State {
    fn fresh(settings: &TrainSettings) -> State {
        let net = Net::random(settings.shape, derive_seed(settings.seed, 1));
        let n = net.weights.len();
        State {
            net,
            adam_m: vec![0.0; n],
            adam_v: vec![0.0; n],
            step: 0,
            epoch: 0,
            batch_in_epoch: 0,
        }
    }

    /// One Adam step on one minibatch; its mean loss.
    fn learn(
        &mut self,
        settings: &TrainSettings,
        examples: &[Example],
        indices: &[usize],
    ) -> Losses {
        let chosen: Vec<&Example> = indices.iter().map(|&i| &examples[i]).collect();
        let syms: Vec<usize> = indices
            .iter()
            .map(|&i| symmetry(settings.seed, self.epoch, i))
            .collect();
        let (planes, targets) = batch_inputs(&chosen, &syms);
        let size = usize::from(chosen[0].snapshot.size);
        let trace = self.net.forward(&planes, size, chosen.len());
        let mut grad = vec![0.0; self.net.weights.len()];
        let losses = loss_and_gradient(&self.net, &trace, &targets, Some(&mut grad));
        self.step += 1;
        let t = self.step as i32;
        let lr = settings.learning_rate;
        let corrected = lr * (1.0 - BETA2.powi(t)).sqrt() / (1.0 - BETA1.powi(t));
        let decay = lr * settings.weight_decay;
        for (((w, g), m), v) in self
            .net
            .weights
            .iter_mut()
            .zip(&grad)
            .zip(&mut self.adam_m)
            .zip(&mut self.adam_v)
        {
            *m = BETA1 * *m + (1.0 - BETA1) * g;
            *v = BETA2 * *v + (1.0 - BETA2) * g * g;
            *w -= corrected * *m / (v.sqrt() + ADAM_EPSILON) + decay * *w;
        }
        losses
    }
}

fn push_u64(out: &mut Vec<u8>, n: u64) {
    out.extend_from_slice(&n.to_le_bytes());
}

fn push_floats(out: &mut Vec<u8>, xs: &[f32]) {
    for x in xs {
        out.extend_from_slice(&x.to_le_bytes());
    }
}

/// The checkpoint's bytes: magic, version, fingerprint, step, epoch, batch, the weights
/// file's bytes (length first), then Adam's two moments (as many floats as weights).
fn encode_checkpoint(state: &State, fingerprint: u64) -> Vec<u8> {
    let net = weights::encode(&state.net);
    let mut out = Vec::with_capacity(net.len() + 8 * state.adam_m.len() + 64);
    out.extend_from_slice(CHECKPOINT_MAGIC);
    out.extend_from_slice(&CHECKPOINT_VERSION.to_le_bytes());
    for n in [
        fingerprint,
        state.step,
        state.epoch,
        state.batch_in_epoch,
        net.len() as u64,
    ] {
        push_u64(&mut out, n);
    }
    out.extend_from_slice(&net);
    push_floats(&mut out, &state.adam_m);
    push_floats(&mut out, &state.adam_v);
    out
}

/// Reads a checkpoint; `fingerprint` must match the settings' (same run, same data).
fn decode_checkpoint(bytes: &[u8], fingerprint: u64) -> Result<State, String> {
    let foreign = "not a hamle Go net checkpoint (no HMLGOCKP header)";
    if bytes.len() < 12 || &bytes[..8] != CHECKPOINT_MAGIC {
        return Err(foreign.into());
    }
    let version = u32::from_le_bytes([bytes[8], bytes[9], bytes[10], bytes[11]]);
    if version != CHECKPOINT_VERSION {
        return Err(format!(
            "checkpoint version {version}, this hamle reads {CHECKPOINT_VERSION}"
        ));
    }
    let header = 12 + 5 * 8;
    if bytes.len() < header {
        return Err("truncated: shorter than the header".into());
    }
    let field = |i: usize| {
        let at = 12 + 8 * i;
        let mut b = [0u8; 8];
        b.copy_from_slice(&bytes[at..at + 8]);
        u64::from_le_bytes(b)
    };
    if field(0) != fingerprint {
        return Err(
            "made by a run with other settings or data (shape, seed, batch, learning \
                    rate, weight decay, labels files, games read); resume with the same ones"
                .into(),
        );
    }
    let net_len = usize::try_from(field(4)).map_err(|_| "a net length out of range".to_string())?;
    let net_end = header
        .checked_add(net_len)
        .filter(|&end| end <= bytes.len())
        .ok_or("truncated")?;
    let net = weights::decode(&bytes[header..net_end])?;
    let n = net.weights.len();
    let rest = &bytes[net_end..];
    if rest.len() != 8 * n {
        return Err(format!(
            "{} bytes of optimiser state, the net needs {}",
            rest.len(),
            8 * n
        ));
    }
    let floats: Vec<f32> = rest
        .chunks_exact(4)
        .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect();
    Ok(State {
        net,
        adam_m: floats[..n].to_vec(),
        adam_v: floats[n..].to_vec(),
        step: field(1),
        epoch: field(2),
        batch_in_epoch: field(3),
    })
}

fn write_checkpoint(settings: &TrainSettings, state: &State) -> Result<(), String> {
    let bytes = encode_checkpoint(state, settings.fingerprint());
    write_atomically(&settings.checkpoint, &bytes)
        .map_err(|e| format!("{}: {e}", settings.checkpoint.display()))
}

fn write_weights(settings: &TrainSettings, net: &Net) -> Result<(), String> {
    write_atomically(&settings.out, &weights::encode(net))
        .map_err(|e| format!("{}: {e}", settings.out.display()))
}

fn load_checkpoint(path: &Path, settings: &TrainSettings) -> Result<State, String> {
    let bytes = files::read_capped(path, 4 * weights::MAX_FILE_BYTES).map_err(|e| e.to_string())?;
    decode_checkpoint(&bytes, settings.fingerprint())
        .map_err(|e| format!("{}: {e}", path.display()))
}

/// A held-out line: mean policy cross-entropy, top-1 agreement, value MSE, ownership MSE.
pub fn describe(losses: &Losses) -> String {
    let n = losses.boards.max(1) as f64;
    format!(
        "{} positions: policy loss {:.4}, top-1 {:.1}%, value MSE {:.4}, ownership MSE {:.4}",
        losses.boards,
        losses.policy / n,
        100.0 * losses.top1 as f64 / n,
        losses.value_mse / n,
        losses.ownership / n
    )
}

/// Trains on `examples.train`, judging on `examples.held_out`; prints progress to stdout
/// when `verbose`.
pub fn train(
    examples: &Examples,
    settings: &TrainSettings,
    verbose: bool,
) -> Result<TrainOutcome, String> {
    if examples.train.is_empty() {
        return Err("no training positions were read".into());
    }
    let mut state = match &settings.resume {
        Some(path) => load_checkpoint(path, settings)?,
        None => State::fresh(settings),
    };
    if state.net.shape != settings.shape {
        return Err(format!(
            "the checkpoint's net is {:?}, not {:?}",
            state.net.shape, settings.shape
        ));
    }
    let mut curve = Vec::new();
    let started = Instant::now();
    let mut window = Losses::default();
    let mut seen = 0usize;
    let done = |state: &State| settings.max_steps.is_some_and(|max| state.step >= max);
    while state.epoch < settings.epochs && !done(&state) {
        let batches = epoch_batches(&examples.train, settings.seed, state.epoch, settings.batch);
        while (state.batch_in_epoch as usize) < batches.len() && !done(&state) {
            let losses = state.learn(
                settings,
                &examples.train,
                &batches[state.batch_in_epoch as usize],
            );
            state.batch_in_epoch += 1;
            curve.push(losses.mean_total());
            window.add(&losses);
            seen += losses.boards;
            if verbose
                && settings.report_every > 0
                && state.step.is_multiple_of(settings.report_every)
            {
                let rate = seen as f64 / started.elapsed().as_secs_f64().max(1e-9);
                println!(
                    "step {} (epoch {}, batch {}/{}): train {} ({rate:.0} positions/s)",
                    state.step,
                    state.epoch + 1,
                    state.batch_in_epoch,
                    batches.len(),
                    describe(&window)
                );
                window = Losses::default();
            }
            if state.step.is_multiple_of(settings.checkpoint_every.max(1)) {
                write_checkpoint(settings, &state)?;
            }
        }
        if state.batch_in_epoch as usize >= batches.len() {
            state.epoch += 1;
            state.batch_in_epoch = 0;
            if verbose {
                let heading = format!("epoch {}", state.epoch);
                report_held_out(&state.net, &examples.held_out, &heading);
            }
            write_checkpoint(settings, &state)?;
            write_weights(settings, &state.net)?;
        }
    }
    write_checkpoint(settings, &state)?;
    write_weights(settings, &state.net)?;
    let heading = format!(
        "after {} steps ({} epochs and {} batches; {:.0} s)",
        state.step,
        state.epoch,
        state.batch_in_epoch,
        started.elapsed().as_secs_f64()
    );
    let held_out = if verbose {
        report_held_out(&state.net, &examples.held_out, &heading)
    } else {
        evaluate(&state.net, &examples.held_out)
    };
    Ok(TrainOutcome {
        losses: curve,
        held_out,
        state,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::net::data::{HoldOut, ReadReport, read_labels};
    use std::io::Write;

    /// A few short games as the teacher's files write them, with a malformed line and a
    /// game with an illegal move (a second stone on E5) in between.
    fn labels_file(dir: &Path) -> PathBuf {
        let label = |win: f32| {
            format!(
                r#"{{"white_win":{win},"white_lead":0.5,"policy":{{"E5":0.5,"D4":0.25,"pass":0.01}},"white_own":"{}"}}"#,
                "0".repeat(40) + &"U".repeat(41)
            )
        };
        let game = |moves: &[&str], win: f32| {
            let labels: Vec<String> = moves.iter().map(|_| label(win)).collect();
            let moves: Vec<String> = moves.iter().map(|m| format!("\"{m}\"")).collect();
            format!(
                r#"{{"size":9,"komi":7,"rules":"chinese","seed":1,"game":0,"moves":[{}],"labels":[{}]}}"#,
                moves.join(","),
                labels.join(",")
            )
        };
        let mut text = String::new();
        for i in 0..6 {
            let opening: &[&str] = if i % 2 == 0 {
                &["E5", "D4", "C3", "F6"]
            } else {
                &["C7", "G3", "pass"]
            };
            text += &game(opening, 0.2 + 0.1 * i as f32);
            text.push('\n');
        }
        text += "{\"size\":9, this is not JSON\n";
        text += &game(&["E5", "D4", "E5", "C3"], 0.5);
        text.push('\n');
        let path = dir.join("labels.jsonl.gz");
        let file = std::fs::File::create(&path).expect("a temporary file");
        let mut gz = flate2::write::GzEncoder::new(file, flate2::Compression::fast());
        gz.write_all(text.as_bytes()).expect("written");
        gz.finish().expect("finished");
        path
    }

    fn settings(dir: &Path, max_steps: Option<u64>, resume: bool) -> TrainSettings {
        TrainSettings {
            shape: Shape {
                blocks: 1,
                channels: 4,
                value_hidden: 4,
            },
            seed: 5,
            batch: 4,
            learning_rate: 0.01,
            weight_decay: 0.0001,
            epochs: 3,
            max_steps,
            out: dir.join("net.bin"),
            checkpoint: dir.join("net.ckpt"),
            checkpoint_every: 2,
            resume: resume.then(|| dir.join("net.ckpt")),
            report_every: 0,
            data_key: "test".into(),
        }
    }

    #[test]
    fn a_tiny_run_is_its_seed_and_resuming_equals_a_straight_run() {
        let dir = std::env::temp_dir().join(format!("hamle-train-net-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a temporary folder");
        let path = labels_file(&dir);
        let mut examples = Examples::default();
        let mut report = ReadReport::default();
        let hold_out = HoldOut {
            seed: 0,
            permille: 200,
        };
        read_labels(&path, None, hold_out, &mut examples, &mut report).expect("read");
        assert_eq!(
            (report.games, report.malformed, report.illegal),
            (7, 1, 1),
            "{report}"
        );
        assert!(
            report.problems[0].contains("labels.jsonl.gz:7: not a game's JSON"),
            "{report}"
        );
        assert!(
            report.problems[1].contains("labels.jsonl.gz:8: move 3 E5 refused"),
            "{report}"
        );
        // The illegal game keeps its first two positions and the one before the refusal.
        assert_eq!(report.positions, 3 * 4 + 3 * 3 + 3);
        assert_eq!(
            examples.train.len() + examples.held_out.len(),
            report.positions
        );

        let straight = train(&examples, &settings(&dir, None, false), false).expect("a run");
        let again = train(&examples, &settings(&dir, None, false), false).expect("a run");
        assert_eq!(straight.losses, again.losses);
        assert!(straight.losses.len() >= 9, "{}", straight.losses.len());
        let first = train(&examples, &settings(&dir, Some(5), false), false).expect("a run");
        assert_eq!(first.losses[..], straight.losses[..5]);
        let rest = train(&examples, &settings(&dir, None, true), false).expect("a resumed run");
        assert_eq!(rest.losses[..], straight.losses[5..]);
        assert_eq!(rest.state, straight.state);
        let loaded = weights::load(&dir.join("net.bin")).expect("the weights written");
        assert_eq!(loaded, straight.state.net);
        // A checkpoint of other settings is refused by name.
        let mut other = settings(&dir, None, true);
        other.seed = 6;
        let error = train(&examples, &other, false).expect_err("other settings");
        assert!(
            error.contains("net.ckpt: made by a run with other settings"),
            "{error}"
        );
        std::fs::remove_dir_all(&dir).expect("removed");
    }
}
