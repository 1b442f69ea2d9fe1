//! Games changed at random, for the tests that hold a fast path to the
//! reader alone: one way of making the edits, wherever they are made.

use crate::lexer::plain::test_corpus::Rng;

/// Three games of `base`, from one of `starts` (game starts in `base`, in
/// order) picked at random, with `edits` changes in the first two: each
/// at a random byte, which is replaced by `with(rng)`'s bytes, has them
/// put before it, or is removed. The third game is the one that tells
/// where the second ends.
pub(crate) fn three_games_changed(
    base: &[u8],
    starts: &[usize],
    rng: &mut Rng,
    edits: u32,
    mut with: impl FnMut(&mut Rng) -> &'static [u8],
) -> Vec<u8> {
    let g = rng.below(starts.len() as u32 - 3) as usize;
    let mut input = base[starts[g]..starts[g + 3]].to_vec();
    let len = (starts[g + 2] - starts[g]) as u32;
    for _ in 0..edits {
        let at = rng.below(len) as usize;
        let with = with(rng);
        match rng.below(3) {
            0 => drop(input.splice(at..at + 1, with.iter().copied())),
            1 => drop(input.splice(at..at, with.iter().copied())),
            _ => drop(input.remove(at)),
        }
    }
    input
}
