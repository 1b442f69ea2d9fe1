//! What an input holds before it is CTL-PGN: a compressed stream, found
//! by its magic bytes (whatever the file's name), read through its
//! decoder; or text in UTF-16, named with the command that converts it.
//!
//! The decoders: gzip by `flate2` (its pure-Rust `zlib-rs` backend), bzip2
//! by `bzip2` (pure Rust, `libbz2-rs-sys`), zstd by `zstd` and xz by
//! `liblzma` (the C libraries, built from source and linked in). Each reads
//! every stream of a file that holds several (`cat a.gz b.gz`), as
//! `gzip -d` does.

use super::streams;
use ctlpgn_filter::CutShort;
use std::ffi::OsStr;
use std::fmt;
use std::io::{self, BufReader, Cursor, Read};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// A compression format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Container {
    Gzip,
    Zstd,
    Xz,
    Bzip2,
}

/// The most bytes [`Container::sniff`] looks at.
pub const MAGIC_LEN: usize = 10;

impl Container {
    /// The format whose magic bytes `start` begins with, if any.
    pub fn sniff(start: &[u8]) -> Option<Container> {
        match start {
            [0x1F, 0x8B, ..] => Some(Container::Gzip),
            [0x28, 0xB5, 0x2F, 0xFD, ..] => Some(Container::Zstd),
            [0xFD, b'7', b'z', b'X', b'Z', 0x00, ..] => Some(Container::Xz),
            // `BZh`, the block size, then a block's magic (the digits of
            // pi) or the end of stream's (of sqrt(pi)): ten bytes that no
            // text starts with.
            [b'B', b'Z', b'h', b'1'..=b'9', rest @ ..]
                if rest.starts_with(&[0x31, 0x41, 0x59, 0x26, 0x53, 0x59])
                    || rest.starts_with(&[0x17, 0x72, 0x45, 0x38, 0x50, 0x90]) =>
            {
                Some(Container::Bzip2)
            }
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Container::Gzip => "gzip",
            Container::Zstd => "zstd",
            Container::Xz => "xz",
            Container::Bzip2 => "bzip2",
        }
    }

    /// The file name suffix the format's own tool gives.
    pub fn suffix(self) -> &'static str {
        match self {
            Container::Gzip => "gz",
            Container::Zstd => "zst",
            Container::Xz => "xz",
            Container::Bzip2 => "bz2",
        }
    }

    const ALL: [Container; 4] = [
        Container::Gzip,
        Container::Zstd,
        Container::Xz,
        Container::Bzip2,
    ];

    /// The decompressed bytes of `input`.
    fn decoder(self, input: Box<dyn Read>) -> io::Result<Box<dyn Read>> {
        const BUFFER: usize = 1 << 16;
        Ok(match self {
            Container::Gzip => Box::new(flate2::bufread::MultiGzDecoder::new(
                BufReader::with_capacity(BUFFER, input),
            )),
            Container::Zstd => Box::new(zstd::stream::read::Decoder::with_buffer(
                BufReader::with_capacity(BUFFER, input),
            )?),
            Container::Xz => Box::new(liblzma::bufread::XzDecoder::new_multi_decoder(
                BufReader::with_capacity(BUFFER, input),
            )),
            Container::Bzip2 => Box::new(bzip2::bufread::MultiBzDecoder::new(
                BufReader::with_capacity(BUFFER, input),
            )),
        })
    }
}

impl fmt::Display for Container {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// `input`'s first bytes (up to [`MAGIC_LEN`]), and `input` whole again.
pub fn peek(mut input: Box<dyn Read>) -> io::Result<(Vec<u8>, Box<dyn Read>)> {
    let mut start = Vec::with_capacity(MAGIC_LEN);
    (&mut input)
        .take(MAGIC_LEN as u64)
        .read_to_end(&mut start)?;
    let again = Box::new(Cursor::new(start.clone()).chain(input));
    Ok((start, again))
}

/// `input` decompressed if it is compressed (and which format it was in),
/// else as it is; and where its decoder's error goes, if it fails. `name`
/// names the input on that error.
pub fn decompressed(
    name: &str,
    input: Box<dyn Read>,
) -> io::Result<(Box<dyn Read>, Option<Container>, Fault)> {
    let fault = Fault::default();
    let (start, input) = peek(input)?;
    let Some(container) = Container::sniff(&start) else {
        return Ok((input, None, fault));
    };
    let decoder = container.decoder(input).map_err(streams::reading(name))?;
    let decoded = Decoded {
        decoder,
        container,
        name: name.to_string(),
        fault: fault.clone(),
        ended: false,
    };
    Ok((Box::new(decoded), Some(container), fault))
}

/// What a decoder that failed said, kept for after the games: its text
/// ends where it failed ([`CutShort`]), and the games decoded before are
/// read as a file that ends there.
#[derive(Clone, Default)]
pub struct Fault {
    pub cut: CutShort,
    error: Arc<Mutex<Option<io::Error>>>,
}

impl Fault {
    /// The decoder's error, named, if it failed.
    pub fn take(&self) -> Option<io::Error> {
        self.error.lock().unwrap_or_else(|e| e.into_inner()).take()
    }
}

/// A decoder whose error in the compressed data ends the text, kept in
/// `fault` with words that say the data is at fault. An error reading the
/// file itself is named already, and passes as it is.
struct Decoded {
    decoder: Box<dyn Read>,
    container: Container,
    name: String,
    fault: Fault,
    ended: bool,
}

impl Read for Decoded {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.ended {
            return Ok(0);
        }
        let e = match self.decoder.read(buf) {
            Ok(n) => return Ok(n),
            Err(e) if streams::is_named(&e) || e.kind() == io::ErrorKind::Interrupted => {
                return Err(e)
            }
            Err(e) => e,
        };
        let e = if e.kind() == io::ErrorKind::UnexpectedEof {
            io::Error::new(
                e.kind(),
                format!("{} data cut short: the file is truncated", self.container),
            )
        } else {
            io::Error::new(e.kind(), format!("invalid {} data: {e}", self.container))
        };
        *self.fault.error.lock().unwrap_or_else(|e| e.into_inner()) =
            Some(streams::reading(&self.name)(e));
        // Set before the reader is answered that the text ends.
        self.fault.cut.set();
        self.ended = true;
        Ok(0)
    }
}

/// Whether the first bytes of the regular file `path` are a compressed
/// format's, and which.
pub fn compressed_file(path: &Path) -> io::Result<Option<Container>> {
    let file = std::fs::File::open(path)?;
    let (start, _) = peek(Box::new(file))?;
    Ok(Container::sniff(&start))
}

/// `name` without a compression format's suffix (`games.pgn.gz`:
/// `games.pgn`), any case; as it is without one.
pub fn without_suffix(name: &Path) -> PathBuf {
    match name.extension() {
        Some(e) if is_compression_suffix(e) => name.with_extension(""),
        _ => name.to_path_buf(),
    }
}

pub fn is_compression_suffix(e: &OsStr) -> bool {
    Container::ALL
        .iter()
        .any(|c| e.eq_ignore_ascii_case(c.suffix()))
}

/// UTF-16 (or UTF-32) text, by its byte order mark or, without one, by
/// ASCII text with a NUL byte after (little-endian) or before
/// (big-endian) every character of its first line.
pub fn utf16(start: &[u8]) -> Option<Utf16> {
    if let Some(name) = bom(start) {
        return Some(Utf16 { name, bom: true });
    }
    let ascii = |b: u8| b.is_ascii_graphic() || b == b' ' || b == b'\t' || b == b'\r';
    // The first line (up to 64 characters), as pairs of bytes.
    let pairs = |le: bool| {
        start
            .chunks_exact(2)
            .take(64)
            .map(move |p| if le { (p[0], p[1]) } else { (p[1], p[0]) })
            .take_while(|&(c, zero)| !(c == b'\n' && zero == 0))
    };
    for (le, name) in [(true, "UTF-16LE"), (false, "UTF-16BE")] {
        if pairs(le).count() >= 4 && pairs(le).all(|(c, zero)| zero == 0 && ascii(c)) {
            return Some(Utf16 { name, bom: false });
        }
    }
    None
}

/// The byte order mark of UTF-16 or UTF-32 that `start` begins with.
fn bom(start: &[u8]) -> Option<&'static str> {
    match start {
        [0xFF, 0xFE, 0, 0, ..] => Some("UTF-32LE"),
        [0, 0, 0xFE, 0xFF, ..] => Some("UTF-32BE"),
        [0xFF, 0xFE, ..] => Some("UTF-16LE"),
        [0xFE, 0xFF, ..] => Some("UTF-16BE"),
        _ => None,
    }
}

/// Text in UTF-16 or UTF-32.
pub struct Utf16 {
    /// `UTF-16LE` and the like, as `iconv` names it.
    pub name: &'static str,
    /// Whether a byte order mark says so.
    pub bom: bool,
}

impl Utf16 {
    /// What to say of the file `path` (`None`: standard input).
    pub fn message(&self, path: Option<&Path>) -> String {
        let how = if self.bom {
            "it starts with that byte order mark"
        } else {
            "a NUL byte beside every character"
        };
        // With its byte order mark, iconv finds the byte order and drops the mark.
        let from = if self.bom { &self.name[..6] } else { self.name };
        let convert = match path {
            Some(p) => {
                let p = p.display();
                format!("iconv -f {from} -t utf-8 {p} > {p}.utf8")
            }
            None => format!("iconv -f {from} -t utf-8 | ctlpgn-filter"),
        };
        format!(
            "skipped: {} text ({how}), not UTF-8: convert it first, as with: {convert}",
            self.name
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    const TEXT: &[u8] = b"[Variant \"C'escacs\"]\n1. E7-E13:\n*\n";

    fn read_all(bytes: Vec<u8>) -> (Vec<u8>, Option<Container>) {
        let (mut r, c, _) = decompressed("f", Box::new(Cursor::new(bytes))).unwrap();
        let mut out = Vec::new();
        r.read_to_end(&mut out).unwrap();
        (out, c)
    }

    fn gzip(bytes: &[u8]) -> Vec<u8> {
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        e.write_all(bytes).unwrap();
        e.finish().unwrap()
    }

    #[test]
    fn each_format_is_found_by_its_magic_bytes_and_read() {
        let gz = gzip(TEXT);
        let zst = zstd::stream::encode_all(TEXT, 3).unwrap();
        let mut xz = liblzma::write::XzEncoder::new(Vec::new(), 6);
        xz.write_all(TEXT).unwrap();
        let xz = xz.finish().unwrap();
        let mut bz = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::default());
        bz.write_all(TEXT).unwrap();
        let bz = bz.finish().unwrap();
        for (bytes, c) in [
            (gz, Container::Gzip),
            (zst, Container::Zstd),
            (xz, Container::Xz),
            (bz, Container::Bzip2),
        ] {
            assert_eq!(read_all(bytes), (TEXT.to_vec(), Some(c)), "{c}");
        }
        assert_eq!(read_all(TEXT.to_vec()), (TEXT.to_vec(), None));
    }

    #[test]
    fn streams_one_after_the_other_are_read_whole() {
        let mut two = gzip(TEXT);
        two.extend(gzip(TEXT));
        assert_eq!(read_all(two).0, [TEXT, TEXT].concat());
    }

    #[test]
    fn text_that_starts_like_a_magic_number_is_text() {
        assert_eq!(Container::sniff(b"BZh9 is no game"), None);
        assert_eq!(Container::sniff(b"[Variant"), None);
        assert_eq!(Container::sniff(b"\x1F"), None);
    }

    #[test]
    fn truncated_or_corrupt_data_ends_the_text_and_the_error_says_so() {
        let text = TEXT.repeat(100);
        let gz = gzip(&text);
        let cut = Cursor::new(gz[..gz.len() / 2].to_vec());
        let (mut r, _, fault) = decompressed("f", Box::new(cut)).unwrap();
        let mut decoded = Vec::new();
        r.read_to_end(&mut decoded).unwrap();
        assert!(fault.cut.is_set());
        assert!(!decoded.is_empty() && text.starts_with(&decoded));
        let e = fault.take().unwrap();
        assert_eq!(
            e.to_string(),
            "f: gzip data cut short: the file is truncated"
        );
        assert!(streams::is_input_error(&e));
        let mut bad = gzip(TEXT);
        bad[12] ^= 0xFF;
        bad[13] ^= 0xFF;
        let (mut r, _, fault) = decompressed("f", Box::new(Cursor::new(bad))).unwrap();
        r.read_to_end(&mut Vec::new()).unwrap();
        let e = fault.take().unwrap();
        assert!(e.to_string().starts_with("f: invalid gzip data"), "{e}");
    }

    #[test]
    fn whole_data_leaves_no_fault() {
        let (mut r, _, fault) = decompressed("f", Box::new(Cursor::new(gzip(TEXT)))).unwrap();
        r.read_to_end(&mut Vec::new()).unwrap();
        assert!(!fault.cut.is_set() && fault.take().is_none());
    }

    #[test]
    fn names_lose_the_compression_suffix() {
        assert_eq!(
            without_suffix(Path::new("a/g.pgn.gz")),
            Path::new("a/g.pgn")
        );
        assert_eq!(
            without_suffix(Path::new("g.CTL-PGN.ZST")),
            Path::new("g.CTL-PGN")
        );
        assert_eq!(without_suffix(Path::new("g.pgn")), Path::new("g.pgn"));
    }

    #[test]
    fn utf16_is_found_with_or_without_a_byte_order_mark() {
        let le: Vec<u8> = "\u{feff}[Variant \"C'escacs\"]\n"
            .encode_utf16()
            .flat_map(u16::to_le_bytes)
            .collect();
        let u = utf16(&le).unwrap();
        assert_eq!((u.name, u.bom), ("UTF-16LE", true));
        let be: Vec<u8> = "[Variant \"C'escacs\"]\n"
            .encode_utf16()
            .flat_map(u16::to_be_bytes)
            .collect();
        let u = utf16(&be).unwrap();
        assert_eq!((u.name, u.bom), ("UTF-16BE", false));
        assert!(utf16(TEXT).is_none());
        assert!(utf16(b"\0\0\0\0binary\0\0").is_none());
        assert!(u
            .message(Some(Path::new("g.pgn")))
            .ends_with("iconv -f UTF-16BE -t utf-8 g.pgn > g.pgn.utf8"));
    }
}
