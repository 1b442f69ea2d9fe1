//! What an input holds before it is CTL-PGN: a compressed stream, read as
//! the library's `decode` reads it (the Python package reads so too), its
//! errors named as the input's; or text in UTF-16, named with the command
//! that converts it.

use super::streams;
use ctlpgn_filter::decode::{self, Container};
use ctlpgn_filter::CutShort;
use std::ffi::OsStr;
use std::io::{self, Read};
use std::path::{Path, PathBuf};

/// `input` decompressed if it is compressed (and which format it was in),
/// else as it is ([`decode::decompressed`]); and where its decoder's error
/// goes, if it fails. `name` names the input on that error.
pub fn decompressed(
    name: &str,
    input: Box<dyn Read>,
) -> io::Result<(Box<dyn Read>, Option<Container>, Fault)> {
    let (input, container, fault) = decode::decompressed(input).map_err(streams::reading(name))?;
    let fault = Fault {
        cut: fault.cut.clone(),
        fault,
        name: name.to_string(),
    };
    Ok((input, container, fault))
}

/// A decoder's error, named as an input's ([`decode::Fault`]).
#[derive(Clone)]
pub struct Fault {
    pub cut: CutShort,
    fault: decode::Fault,
    name: String,
}

impl Fault {
    /// The decoder's error, named, if it failed.
    pub fn take(&self) -> Option<io::Error> {
        self.fault.take().map(streams::reading(&self.name))
    }
}

/// Whether the first bytes of the regular file `path` are a compressed
/// format's, and which.
pub fn compressed_file(path: &Path) -> io::Result<Option<Container>> {
    let file = std::fs::File::open(path)?;
    let (start, _) = decode::peek(file)?;
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
    use std::io::{Cursor, Write};

    const TEXT: &[u8] = b"[Variant \"C'escacs\"]\n1. E7-E13:\n*\n";

    fn gzip(bytes: &[u8]) -> Vec<u8> {
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        e.write_all(bytes).unwrap();
        e.finish().unwrap()
    }

    #[test]
    fn a_decoder_error_names_its_input_as_an_input_error() {
        let gz = gzip(&TEXT.repeat(100));
        let cut = Cursor::new(gz[..gz.len() / 2].to_vec());
        let (mut r, _, fault) = decompressed("f", Box::new(cut)).unwrap();
        r.read_to_end(&mut Vec::new()).unwrap();
        assert!(fault.cut.is_set());
        let e = fault.take().unwrap();
        assert_eq!(
            e.to_string(),
            "f: gzip data cut short: the file is truncated"
        );
        assert!(streams::is_input_error(&e));
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
