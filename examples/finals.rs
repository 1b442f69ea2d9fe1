//! Each game's tags and final position, read with a visitor of the
//! crate's reader: the main line played on a [`Position`] from the game's
//! `PDTL` (or the initial setup).
//!
//!     cargo run --release --example finals < corpus/real-2023-09-08.ctl-pgn
//!
//! Prints, for each game, its tags (`Name: value`), then its final
//! position as a PDTL (`-` where a move cannot be played), and a blank line.

use ctlpgn_filter::read::{GameEnd, MoveRead, Reader, Source, TagRead, Visitor};
use ctlpgn_filter::{Context, Pdtl, Position};
use std::io::{self, Write};

/// A game's tags, and its final position (none when a move of its main
/// line could not be played, or the game is rejected).
struct Final {
    tags: Vec<(String, String)>,
    position: Option<String>,
}

/// The game under way's tags and position.
#[derive(Default)]
struct Finals {
    tags: Vec<(String, String)>,
    position: Option<Position>,
}

impl Visitor for Finals {
    type Output = Final;

    fn begin_game(&mut self, _cx: &mut Context) {
        self.tags.clear();
        self.position = Some(Position::initial());
    }

    fn tag(&mut self, t: &TagRead<'_>, _cx: &mut Context) {
        let tag = &t.tag;
        self.tags
            .push((tag.name.to_string(), tag.value.to_string()));
    }

    fn setup(&mut self, pdtl: &mut Pdtl, _src: Source<'_>, _cx: &mut Context) {
        self.position = Some(Position::from_pdtl(pdtl));
    }

    fn half_move(&mut self, m: &MoveRead<'_>, cx: &mut Context) {
        if let (0, Some(p)) = (m.depth, &mut self.position) {
            // Played in standard letters, as the filter writes it.
            if p.play(&m.standard(cx)).is_err() {
                self.position = None;
            }
        }
    }

    fn end_game(&mut self, _end: &mut GameEnd<'_>, cx: &mut Context) -> Final {
        let position = self.position.take().filter(|_| !cx.has_error());
        Final {
            tags: std::mem::take(&mut self.tags),
            position: position.map(|p| p.to_pdtl().to_string()),
        }
    }
}

/// Each game of `input`, read one at a time.
fn finals(input: impl io::Read) -> io::Result<Vec<Final>> {
    let mut reader = Reader::new(input);
    let mut visitor = Finals::default();
    let mut games = Vec::new();
    while let Some(game) = reader.read_game(&mut visitor)? {
        games.push(game);
    }
    Ok(games)
}

fn main() -> io::Result<()> {
    let mut out = io::stdout().lock();
    for game in finals(io::stdin().lock())? {
        for (name, value) in &game.tags {
            writeln!(out, "{name}: {value}")?;
        }
        writeln!(out, "{}\n", game.position.as_deref().unwrap_or("-"))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_ends_where_its_main_line_leaves_the_initial_setup() {
        let input = "[Variant \"C'escacs\"]\n[Event \"Demo\"]\n1. E7-E13, E21-E15:\n*\n";
        let games = finals(input.as_bytes()).unwrap();
        assert_eq!(games[0].tags[1], ("Event".into(), "Demo".into()));
        // As `ctlpgn-filter --check --final-pdtl` prints it.
        assert_eq!(
            games[0].position.as_deref(),
            Some(
                "/28:v/27:dk/26:gjg/25:rnnr/24:pejep/23:ppeepp/22:2pjp2/21:4p3/20:3p3/15:3p4/\
                 13:3P4/8:3P3/7:4P3/6:2PJP2/5:PPEEPP/4:PEJEP/3:RNNR/2:GJG/1:DK/0:V/ w RKRrkr E15@17-19 0 2"
            )
        );
    }

    #[test]
    fn each_real_game_ends_as_the_filter_replays_it() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/corpus");
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            if !name.starts_with("real-") || !name.ends_with(".ctl-pgn") {
                continue;
            }
            let input = std::fs::read(&path).unwrap();
            let games = finals(&input[..]).unwrap();
            let ends = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
            let seen = std::sync::Arc::clone(&ends);
            let verify = ctlpgn_filter::Verify::default().on_game_end(move |end| {
                seen.lock()
                    .unwrap()
                    .push(end.position.to_pdtl().to_string())
            });
            let mut filter = ctlpgn_filter::FilterBuilder::new().verify(verify).build();
            filter.filter_bytes(&input);
            let ends = ends.lock().unwrap();
            let positions: Vec<_> = games.iter().map(|g| g.position.clone().unwrap()).collect();
            assert_eq!(positions, *ends, "{name}");
        }
    }
}
