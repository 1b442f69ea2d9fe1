//! Stage 1: a structural index of the bytes being read. One vectorised
//! pass over a region marks, per 64-byte block, where its line ends, `{`,
//! `}`, `(`, `)`, `[`, `"` and non-ASCII bytes are; the modes that cross
//! lines (a comment's text, a dropped variation), the search for a line
//! that starts a game, line counting and the UTF-8 check then walk these
//! bit masks, not the bytes.
//!
//! The implementation is chosen at run time (AVX2, else SSE2 on x86-64;
//! NEON on AArch64; a table-driven scalar loop elsewhere), and every one
//! gives the same masks: the tests build each one available on the machine
//! over the same bytes and compare.

/// A set of byte classes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Classes(u8);

impl Classes {
    pub const LF: Classes = Classes(1);
    pub const OPEN_BRACE: Classes = Classes(1 << 1);
    pub const CLOSE_BRACE: Classes = Classes(1 << 2);
    pub const OPEN_PAREN: Classes = Classes(1 << 3);
    pub const CLOSE_PAREN: Classes = Classes(1 << 4);
    pub const BRACKET: Classes = Classes(1 << 5);
    /// Marked with the others (a lane of the vector compare), read by no
    /// one but the tests of the marks.
    #[allow(dead_code)]
    pub const QUOTE: Classes = Classes(1 << 6);
    pub const NON_ASCII: Classes = Classes(1 << 7);

    pub const fn or(self, other: Classes) -> Classes {
        Classes(self.0 | other.0)
    }
}

/// The ASCII byte of each class but the last, in bit order.
const MARKED: [u8; 7] = [b'\n', b'{', b'}', b'(', b')', b'[', b'"'];

/// A block's masks: bit `i` of `masks[k]` is set when byte `i` of the
/// block is of class `1 << k`.
type Block = [u64; 8];

/// How the masks are computed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Impl {
    Scalar,
    #[cfg(target_arch = "x86_64")]
    Sse2,
    #[cfg(target_arch = "x86_64")]
    Avx2,
    #[cfg(target_arch = "aarch64")]
    Neon,
}

impl Impl {
    /// The fastest this machine runs.
    pub fn best() -> Impl {
        #[cfg(target_arch = "x86_64")]
        {
            if std::arch::is_x86_feature_detected!("avx2") {
                return Impl::Avx2;
            }
            // SSE2 is part of x86-64.
            Impl::Sse2
        }
        #[cfg(target_arch = "aarch64")]
        {
            Impl::Neon
        }
        #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
        {
            Impl::Scalar
        }
    }

    /// Its name.
    pub fn name(self) -> &'static str {
        match self {
            Impl::Scalar => "scalar",
            #[cfg(target_arch = "x86_64")]
            Impl::Sse2 => "sse2",
            #[cfg(target_arch = "x86_64")]
            Impl::Avx2 => "avx2",
            #[cfg(target_arch = "aarch64")]
            Impl::Neon => "neon",
        }
    }

    /// The implementation of that name, if this machine runs it.
    pub fn named(name: &str) -> Option<Impl> {
        Impl::available().into_iter().find(|i| i.name() == name)
    }

    /// Every implementation this machine runs, the scalar one first.
    pub fn available() -> Vec<Impl> {
        let mut v = vec![Impl::Scalar];
        #[cfg(target_arch = "x86_64")]
        {
            v.push(Impl::Sse2);
            if std::arch::is_x86_feature_detected!("avx2") {
                v.push(Impl::Avx2);
            }
        }
        #[cfg(target_arch = "aarch64")]
        v.push(Impl::Neon);
        v
    }

    /// Appends the masks of each 64-byte block of `bytes` to `blocks`.
    fn blocks(self, bytes: &[u8], blocks: &mut Vec<Block>) {
        match self {
            Impl::Scalar => each_block(bytes, blocks, scalar::block),
            // SAFETY: SSE2 is part of every x86-64 CPU.
            #[cfg(target_arch = "x86_64")]
            Impl::Sse2 => unsafe { x86::blocks_sse2(bytes, blocks) },
            // SAFETY: `Avx2` is only chosen where the CPU has AVX2.
            #[cfg(target_arch = "x86_64")]
            Impl::Avx2 => unsafe { x86::blocks_avx2(bytes, blocks) },
            // SAFETY: NEON is part of every AArch64 CPU.
            #[cfg(target_arch = "aarch64")]
            Impl::Neon => unsafe { neon::blocks(bytes, blocks) },
        }
    }
}

/// Appends `block` of each 64 bytes of `bytes` (the last padded with NUL
/// bytes, which are of no class) to `blocks`: the loop each implementation
/// compiles with its own instructions.
#[inline(always)]
fn each_block(bytes: &[u8], blocks: &mut Vec<Block>, block: impl Fn(&[u8; 64]) -> Block) {
    let mut chunks = bytes.chunks_exact(64);
    for c in &mut chunks {
        blocks.push(block(c.try_into().expect("64 bytes")));
    }
    let rest = chunks.remainder();
    if !rest.is_empty() {
        let mut last = [0u8; 64];
        last[..rest.len()].copy_from_slice(rest);
        blocks.push(block(&last));
    }
}

/// The index of one region of the stream, reused region after region.
pub(crate) struct Index {
    imp: Impl,
    /// Stream offset of the first byte indexed (the start of block 0).
    start: u64,
    /// Bytes indexed.
    len: usize,
    blocks: Vec<Block>,
}

impl Index {
    pub fn new(imp: Impl) -> Index {
        Index {
            imp,
            start: 0,
            len: 0,
            blocks: Vec::new(),
        }
    }

    /// Indexes `bytes`, which start at stream offset `start`.
    pub fn build(&mut self, bytes: &[u8], start: u64) {
        self.start = start;
        self.len = bytes.len();
        self.blocks.clear();
        self.blocks.reserve(bytes.len().div_ceil(64));
        self.imp.blocks(bytes, &mut self.blocks);
    }

    /// The stream offset just past what is indexed.
    pub fn end(&self) -> u64 {
        self.start + self.len as u64
    }

    /// The mask of block `b` for the classes `c`.
    #[inline(always)]
    fn mask(&self, b: usize, c: Classes) -> u64 {
        let block = &self.blocks[b];
        let mut m = 0;
        for (k, mask) in block.iter().enumerate() {
            if c.0 & (1 << k) != 0 {
                m |= mask;
            }
        }
        m
    }

    /// The first stream offset in `from..to` whose byte is of one of the
    /// classes `c`.
    #[inline]
    pub fn find(&self, c: Classes, from: u64, to: u64) -> Option<u64> {
        debug_assert!(from >= self.start && to <= self.end());
        if from >= to {
            return None;
        }
        let (i, j) = ((from - self.start) as usize, (to - self.start) as usize);
        let mut b = i / 64;
        let mut m = self.mask(b, c) & (!0u64 << (i % 64));
        loop {
            if m != 0 {
                let at = b * 64 + m.trailing_zeros() as usize;
                return (at < j).then(|| self.start + at as u64);
            }
            b += 1;
            if b * 64 >= j {
                return None;
            }
            m = self.mask(b, c);
        }
    }

    /// How many bytes in `from..to` are of one of the classes `c`.
    pub fn count(&self, c: Classes, from: u64, to: u64) -> u64 {
        debug_assert!(from >= self.start && to <= self.end());
        if from >= to {
            return 0;
        }
        let (i, j) = ((from - self.start) as usize, (to - self.start) as usize);
        let (first, last) = (i / 64, (j - 1) / 64);
        let mut n = 0;
        for b in first..=last {
            let mut m = self.mask(b, c);
            if b == first {
                m &= !0u64 << (i % 64);
            }
            if b == last && j % 64 != 0 {
                m &= !0u64 >> (64 - j % 64);
            }
            n += u64::from(m.count_ones());
        }
        n
    }

    /// The last stream offset in `from..to` whose byte is of one of the
    /// classes `c`.
    pub fn find_last(&self, c: Classes, from: u64, to: u64) -> Option<u64> {
        debug_assert!(from >= self.start && to <= self.end());
        if from >= to {
            return None;
        }
        let (i, j) = ((from - self.start) as usize, (to - self.start) as usize);
        let mut b = (j - 1) / 64;
        let mut m = self.mask(b, c);
        if j % 64 != 0 {
            m &= !0u64 >> (64 - j % 64);
        }
        loop {
            if m != 0 {
                let at = b * 64 + 63 - m.leading_zeros() as usize;
                return (at >= i).then(|| self.start + at as u64);
            }
            if b * 64 <= i {
                return None;
            }
            b -= 1;
            m = self.mask(b, c);
        }
    }
}

mod scalar {
    use super::{Block, MARKED};

    /// For each byte: its class bits.
    const CLASS: [u8; 256] = {
        let mut t = [0u8; 256];
        let mut k = 0;
        while k < MARKED.len() {
            t[MARKED[k] as usize] = 1 << k;
            k += 1;
        }
        let mut b = 0x80;
        while b < 256 {
            t[b] = 1 << 7;
            b += 1;
        }
        t
    };

    #[inline(always)]
    pub fn block(bytes: &[u8; 64]) -> Block {
        let mut masks = [0u64; 8];
        for (i, &b) in bytes.iter().enumerate() {
            let c = CLASS[b as usize];
            if c != 0 {
                masks[c.trailing_zeros() as usize] |= 1 << i;
            }
        }
        masks
    }
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use super::{each_block, Block, MARKED};
    use std::arch::x86_64::*;

    #[target_feature(enable = "avx2")]
    pub unsafe fn blocks_avx2(bytes: &[u8], blocks: &mut Vec<Block>) {
        // SAFETY: this function runs where AVX2 is.
        each_block(bytes, blocks, |b| unsafe { block_avx2(b) })
    }

    #[target_feature(enable = "sse2")]
    pub unsafe fn blocks_sse2(bytes: &[u8], blocks: &mut Vec<Block>) {
        // SAFETY: this function runs where SSE2 is.
        each_block(bytes, blocks, |b| unsafe { block_sse2(b) })
    }

    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn block_avx2(bytes: &[u8; 64]) -> Block {
        let p = bytes.as_ptr() as *const __m256i;
        // SAFETY: the 64 bytes are two unaligned 32-byte loads.
        let (lo, hi) = unsafe { (_mm256_loadu_si256(p), _mm256_loadu_si256(p.add(1))) };
        let bits = |v: __m256i| u64::from(_mm256_movemask_epi8(v) as u32);
        let mut masks = [0u64; 8];
        for (k, &c) in MARKED.iter().enumerate() {
            let c = _mm256_set1_epi8(c as i8);
            masks[k] = bits(_mm256_cmpeq_epi8(lo, c)) | bits(_mm256_cmpeq_epi8(hi, c)) << 32;
        }
        masks[7] = bits(lo) | bits(hi) << 32;
        masks
    }

    #[inline]
    #[target_feature(enable = "sse2")]
    unsafe fn block_sse2(bytes: &[u8; 64]) -> Block {
        let p = bytes.as_ptr() as *const __m128i;
        // SAFETY: the 64 bytes are four unaligned 16-byte loads.
        let v = unsafe {
            [
                _mm_loadu_si128(p),
                _mm_loadu_si128(p.add(1)),
                _mm_loadu_si128(p.add(2)),
                _mm_loadu_si128(p.add(3)),
            ]
        };
        let bits = |v: &[__m128i; 4]| {
            v.iter().enumerate().fold(0u64, |m, (i, &x)| {
                m | u64::from(_mm_movemask_epi8(x) as u16) << (16 * i)
            })
        };
        let mut masks = [0u64; 8];
        for (k, &c) in MARKED.iter().enumerate() {
            let c = _mm_set1_epi8(c as i8);
            masks[k] = bits(&v.map(|x| _mm_cmpeq_epi8(x, c)));
        }
        masks[7] = bits(&v);
        masks
    }
}

#[cfg(target_arch = "aarch64")]
mod neon {
    use super::{each_block, Block, MARKED};
    use std::arch::aarch64::*;

    /// The high bit of each of 16 lanes, as 16 bits.
    #[inline(always)]
    unsafe fn movemask(v: uint8x16_t) -> u64 {
        const WEIGHTS: [u8; 16] = [1, 2, 4, 8, 16, 32, 64, 128, 1, 2, 4, 8, 16, 32, 64, 128];
        // SAFETY: NEON is part of every AArch64 CPU; WEIGHTS is 16 bytes.
        unsafe {
            let w = vld1q_u8(WEIGHTS.as_ptr());
            let high = vshrq_n_u8::<7>(v);
            let weighted = vmulq_u8(high, w);
            let lo = vaddv_u8(vget_low_u8(weighted));
            let hi = vaddv_u8(vget_high_u8(weighted));
            u64::from(lo) | u64::from(hi) << 8
        }
    }

    #[target_feature(enable = "neon")]
    pub unsafe fn blocks(bytes: &[u8], blocks: &mut Vec<Block>) {
        // SAFETY: this function runs where NEON is.
        each_block(bytes, blocks, |b| unsafe { block(b) })
    }

    #[inline]
    #[target_feature(enable = "neon")]
    unsafe fn block(bytes: &[u8; 64]) -> Block {
        let p = bytes.as_ptr();
        // SAFETY: the 64 bytes are four 16-byte loads.
        unsafe {
            let v = [
                vld1q_u8(p),
                vld1q_u8(p.add(16)),
                vld1q_u8(p.add(32)),
                vld1q_u8(p.add(48)),
            ];
            let bits = |v: [uint8x16_t; 4]| {
                v.iter()
                    .enumerate()
                    .fold(0u64, |m, (i, &x)| m | movemask(x) << (16 * i))
            };
            let mut masks = [0u64; 8];
            for (k, &c) in MARKED.iter().enumerate() {
                let c = vdupq_n_u8(c);
                masks[k] = bits(v.map(|x| vceqq_u8(x, c)));
            }
            masks[7] = bits(v);
            masks
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Bytes of every class and none, in a seeded order.
    fn sample(len: usize, seed: u64) -> Vec<u8> {
        let alphabet = b"\n{}()[\"ab1 -\xC3\x97\xE2\x80\x90\x80\xFF\0";
        let mut x = seed;
        (0..len)
            .map(|_| {
                x = x
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                alphabet[(x >> 33) as usize % alphabet.len()]
            })
            .collect()
    }

    /// What every query should answer, from the bytes themselves.
    fn naive(bytes: &[u8], c: Classes) -> Vec<usize> {
        let is = |b: u8| {
            MARKED
                .iter()
                .enumerate()
                .any(|(k, &m)| c.0 & (1 << k) != 0 && b == m)
                || (c.0 & Classes::NON_ASCII.0 != 0 && b >= 0x80)
        };
        bytes
            .iter()
            .enumerate()
            .filter(|(_, &b)| is(b))
            .map(|(i, _)| i)
            .collect()
    }

    #[test]
    fn every_implementation_gives_the_masks_the_bytes_say() {
        let classes = [
            Classes::LF,
            Classes::OPEN_BRACE,
            Classes::CLOSE_BRACE,
            Classes::OPEN_PAREN.or(Classes::CLOSE_PAREN),
            Classes::BRACKET,
            Classes::QUOTE,
            Classes::NON_ASCII,
            Classes::LF.or(Classes::OPEN_BRACE).or(Classes::NON_ASCII),
        ];
        for imp in Impl::available() {
            for (len, seed) in [(0, 1), (1, 2), (63, 3), (64, 4), (65, 5), (1000, 6)] {
                let bytes = sample(len, seed);
                let start = 1000 + seed;
                let mut index = Index::new(imp);
                index.build(&bytes, start);
                for c in classes {
                    let want = naive(&bytes, c);
                    for (from, to) in [(0, len), (len / 3, len), (len / 3, 2 * len / 3), (1, 1)] {
                        let (from, to) = (from.min(len), to.min(len));
                        let inside: Vec<usize> = want
                            .iter()
                            .copied()
                            .filter(|&i| i >= from && i < to)
                            .collect();
                        let at = |i: usize| start + i as u64;
                        assert_eq!(
                            index.find(c, at(from), at(to)),
                            inside.first().map(|&i| at(i)),
                            "{imp:?} find {c:?} {from}..{to} of {len}"
                        );
                        assert_eq!(
                            index.find_last(c, at(from), at(to)),
                            inside.last().map(|&i| at(i)),
                            "{imp:?} find_last {c:?} {from}..{to} of {len}"
                        );
                        assert_eq!(
                            index.count(c, at(from), at(to)),
                            inside.len() as u64,
                            "{imp:?} count {c:?} {from}..{to} of {len}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn the_best_implementation_is_available() {
        assert!(Impl::available().contains(&Impl::best()));
    }
}
