//! Hostile inputs (`examples/support/hostile.rs`: long lines of one
//! token, unclosed comments, deep or many variations, with the options
//! they stress) take time, memory and output in proportion to their size,
//! never its square. A file of its own: a child's peak RSS starts from its
//! parent's, which other tests' large outputs would raise.

mod support;
use support::child;
#[path = "../examples/support/hostile.rs"]
mod hostile;

use child::{run_discarding_stderr, MB};

/// A run of a hostile shape at `size`: its CPU seconds, peak RSS and
/// input plus output bytes.
fn hostile_run(h: hostile::Hostile, size: usize) -> (f64, u64, usize) {
    let r = run_discarding_stderr(h.args, move |w| h.write(w, size));
    assert!(r.code.is_some(), "{} was killed", h.name);
    (r.cpu, r.max_rss, h.len(size) + r.stdout_len)
}

#[test]
fn hostile_inputs_take_time_memory_and_output_in_proportion_to_their_size() {
    // Linear work grows 4x from one size to four times it, quadratic 16x:
    // at most 8x passes on a noisy machine. Times and memory below a floor
    // are taken as the floor (a start, a buffer), so that noise on a small
    // run cannot fail it; a shape that seems slow is measured twice more,
    // each size's least CPU time kept (noise only adds time, a quadratic
    // shape is slow every time).
    const SIZE: usize = 256 << 10;
    let (floor_cpu, floor_rss) = (0.02, 8 * MB);
    let mut slow = Vec::new();
    for &h in hostile::ALL {
        let (mut cpu1, rss1, work1) = hostile_run(h, SIZE);
        let (mut cpu4, rss4, work4) = hostile_run(h, 4 * SIZE);
        // Work is input plus output. The output may be several times the
        // input (kept variations show their depth in dots), but nesting
        // past `--max-depth` rejects its game, so it never grows with the
        // square of the input.
        let work = work4 as f64 / work1 as f64;
        let time = |cpu1: f64, cpu4: f64| cpu4 / cpu1.max(floor_cpu);
        for _ in 0..2 {
            if time(cpu1, cpu4) <= 2.0 * work {
                break;
            }
            cpu1 = cpu1.min(hostile_run(h, SIZE).0);
            cpu4 = cpu4.min(hostile_run(h, 4 * SIZE).0);
        }
        let memory = rss4 as f64 / rss1.max(floor_rss) as f64;
        if work > 8.0 || time(cpu1, cpu4) > 2.0 * work || memory > 8.0 {
            slow.push(format!(
                "{} {:?}: work {work:.1}x, time {cpu1:.3} s -> {cpu4:.3} s, peak RSS {} -> {} MB",
                h.name,
                h.args,
                rss1 / MB,
                rss4 / MB
            ));
        }
    }
    assert!(slow.is_empty(), "{}", slow.join("\n"));
}
