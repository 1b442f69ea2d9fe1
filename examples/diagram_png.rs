//! Renders a diagram to PNG with resvg (a dev-dependency): the README's
//! image, `docs/diagram-example.png`.
//!
//! ```sh
//! cargo run --example diagram_png -- docs/diagram-example.png [PDTL] [black]
//! ```
//!
//! Without a PDTL: the final position of the real game
//! corpus/real-2023-09-08.ctl-pgn, its last move marked.

use ctlpgn_filter::{Diagram, DiagramOptions, FilterBuilder, Marks, Pdtl, Position, Side, Verify};
use resvg::{tiny_skia, usvg};
use std::sync::{Arc, Mutex};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let out = args
        .first()
        .ok_or("usage: diagram_png OUT.png [PDTL] [black]")?;
    let view = if args.iter().any(|a| a == "black") {
        Side::Black
    } else {
        Side::White
    };
    let (position, marks) = match args.get(1).filter(|a| *a != "black") {
        Some(pdtl) => (
            Position::from_pdtl(&Pdtl::parse(pdtl).map_err(|e| e.to_string())?),
            Marks::default(),
        ),
        None => real_game_end()?,
    };
    let diagram = Diagram::new(DiagramOptions {
        view,
        ..DiagramOptions::default()
    });
    let svg = diagram.svg(&position, &marks);
    let mut opt = usvg::Options::default();
    opt.fontdb_mut().load_system_fonts();
    let tree = usvg::Tree::from_str(&svg, &opt)?;
    let size = tree.size().to_int_size();
    let mut pixmap = tiny_skia::Pixmap::new(size.width(), size.height()).ok_or("empty image")?;
    resvg::render(&tree, tiny_skia::Transform::default(), &mut pixmap.as_mut());
    pixmap.save_png(out)?;
    Ok(())
}

/// The final position of corpus/real-2023-09-08.ctl-pgn, its last move marked.
fn real_game_end() -> Result<(Position, Marks), Box<dyn std::error::Error>> {
    let end = Arc::new(Mutex::new(None));
    let keep = Arc::clone(&end);
    let verify = Verify::new().on_game_end(move |e| {
        let marks = e.last_move.map(Marks::last_move).unwrap_or_default();
        *keep.lock().unwrap() = Some((e.position.clone(), marks));
    });
    let input = std::fs::read("corpus/real-2023-09-08.ctl-pgn")?;
    FilterBuilder::new()
        .verify(verify)
        .build()
        .filter_bytes(&input);
    let end = end.lock().unwrap().take();
    end.ok_or_else(|| "the game did not end".into())
}
