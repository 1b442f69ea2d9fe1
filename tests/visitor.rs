//! The reading API: a visitor of your own sees each game's items, in
//! order, as the canonical output writes them.

use ctlpgn_filter::{
    read_games, Diagnostic, Filter, GameRead, HalfMove, Interest, Outcome, Pdtl, Variation, Visitor,
};

/// Everything a visitor is handed, one line an item.
#[derive(Default)]
struct Log {
    wants: Interest,
    items: Vec<String>,
}

impl Log {
    fn wanting(wants: Interest) -> Log {
        Log {
            wants,
            items: Vec::new(),
        }
    }
}

impl Visitor for Log {
    fn wants(&self) -> Interest {
        self.wants
    }
    fn begin_game(&mut self) {
        self.items.push("begin".into());
    }
    fn tag(&mut self, name: &str, value: &str) {
        self.items.push(format!("tag {name}={value}"));
    }
    fn setup(&mut self, pdtl: &Pdtl) {
        self.items.push(format!("setup {pdtl}"));
    }
    fn half_move(&mut self, mv: &HalfMove, depth: u32) {
        let mut text = Vec::new();
        mv.write_move(&mut text);
        let text = String::from_utf8(text).unwrap();
        self.items
            .push(format!("move {depth} {} {text}", mv.number));
    }
    fn comment(&mut self, text: &str) {
        self.items.push(format!("comment {}", text.trim()));
    }
    fn variation(&mut self, edge: Variation) {
        let edge = match edge {
            Variation::Open { .. } => "(",
            Variation::Close => ")",
        };
        self.items.push(format!("variation {edge}"));
    }
    fn end_game(&mut self, game: &GameRead) {
        let result = game.result.map_or("none", Outcome::as_str);
        let rejected = if game.rejected { " rejected" } else { "" };
        self.items
            .push(format!("end {result} line {}{rejected}", game.line));
    }
    fn diagnostic(&mut self, d: &Diagnostic) {
        self.items
            .push(format!("diagnostic {}:{} {}", d.line, d.column, d.message));
    }
}

fn log(input: &str, wants: Interest) -> Vec<String> {
    read_games(input.as_bytes(), Log::wanting(wants))
        .unwrap()
        .0
        .items
}

const GAME: &str = "[Variant \"C'escacs\"]\n";

#[test]
fn items_come_in_input_order_as_the_output_writes_them() {
    let input = format!(
        "{GAME}[Redefine \"A@J\"]\n[Event \"E\"]\n1. AF2-D8 ?!, E21‐E15\n2. E13×F16:\n3-0\n"
    );
    assert_eq!(
        log(&input, Interest::NONE),
        [
            "begin",
            "tag Variant=C'escacs",
            "tag Event=E",
            "move 0 1 JF2-D8",
            "move 0 1 E21-E15",
            "move 0 2 E13*F16",
            "end 3-0 line 1",
        ]
    );
}

#[test]
fn comments_and_variations_are_skipped_unless_wanted() {
    let input = format!("{GAME}1. E7-E13 {{ a note }} (1. F8-F12) 1. ..., E21-E15:\n*\n");
    let plain = log(&input, Interest::NONE);
    assert!(plain
        .iter()
        .all(|i| !i.starts_with("comment") && !i.starts_with("variation")));
    assert!(plain.iter().all(|i| !i.contains("F8-F12")), "{plain:?}");
    let all = log(&input, Interest::COMMENTS | Interest::VARIATIONS);
    let middle: Vec<_> = all.iter().map(String::as_str).skip(3).take(4).collect();
    assert_eq!(
        middle,
        [
            "comment a note",
            "variation (",
            "move 1 1 F8-F12",
            "variation )"
        ]
    );
}

#[test]
fn the_pdtl_comes_as_the_setup() {
    let input = format!("{GAME}[PDTL \"/27:1K/1:Dk/ w - - 0 1\"]\n1. DE1-E3:\n*\n");
    let items = log(&input, Interest::NONE);
    assert!(items[2].starts_with("setup /27:1K/"), "{items:?}");
    assert!(
        items.iter().all(|i| !i.starts_with("tag PDTL")),
        "{items:?}"
    );
}

#[test]
fn a_game_with_an_error_ends_rejected_and_its_diagnostics_follow() {
    let input = format!("{GAME}1. E7-E13 2. Q9-Q10:\n*\n{GAME}1. E7-E13:\n*\n");
    let items = log(&input, Interest::NONE);
    let end = items.iter().position(|i| i.starts_with("end")).unwrap();
    assert!(items[end].ends_with("rejected"), "{items:?}");
    assert!(items[end + 1].starts_with("diagnostic 2:"), "{items:?}");
    assert_eq!(items.last().unwrap(), "end * line 4");
}

#[test]
fn the_moves_read_are_those_the_filter_writes_on_the_real_games() {
    for file in std::fs::read_dir("corpus").unwrap() {
        let path = file.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if !name.starts_with("real-") || path.is_dir() {
            continue;
        }
        let input = std::fs::read(&path).unwrap();
        let (out, _, report) = Filter::default().filter_bytes(&input);
        let (log, read) = read_games(&input[..], Log::default()).unwrap();
        assert_eq!(read, report, "{name}");
        let written = String::from_utf8(out).unwrap();
        // Each move read, in order, where the output has it.
        let mut rest = written.as_str();
        for item in log.items.iter().filter(|i| i.starts_with("move 0")) {
            let word = item.rsplit(' ').next().unwrap();
            let at = rest.find(word).unwrap_or_else(|| panic!("{name}: {word}"));
            rest = &rest[at + word.len()..];
        }
    }
}
