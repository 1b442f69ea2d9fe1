//! `--date FROM..TO`: games by their `Date` tag, whose unknown digits are
//! `?` (the spec: "year-month-day, with four-two-two digits, using ? for
//! every unknown digit"; PGN's `2022.08.14` is read too).

use super::select_error::SelectError;
use crate::pass::{Context, Flow, Interest, LeftOut, Pass, Tag};

/// A day, `(year, month, day)`, ordered as the calendar; a month's last
/// day is taken as 31, which no real day is after.
type Day = (u16, u8, u8);

/// Leaves out a game whose `Date` is outside a range of days, both ends
/// included (`--date`). A game's date may be known only in part
/// (`2022.??.??`, `201?-??-??`): it is in the range when every day it may
/// be is, outside when none is, and unknown at the precision the range
/// needs otherwise, as is a game without a `Date` or with one that is no
/// date: such a game is in no range, and counted apart
/// ([`LeftOut::DateUnknown`]).
///
/// ```
/// use ctlpgn_filter::{FilterBuilder, SelectDate};
/// let games = ["2021-06-04", "2022-08-14", "2022-??-??", "????-??-??"]
///     .map(|d| format!("[Variant \"C'escacs\"]\n[Date \"{d}\"]\n1. E7-E13:\n*\n"))
///     .concat();
/// let mut f = FilterBuilder::new().date(SelectDate::parse("2022").unwrap()).build();
/// let (_, _, report) = f.filter_bytes(games.as_bytes());
/// assert_eq!(report.games_written, 2); // 2022-08-14 and 2022-??-??
/// assert_eq!((report.left_out.date, report.left_out.date_unknown), (1, 1));
/// // From August 2022: 2022-??-?? may be in it or not.
/// let mut f = FilterBuilder::new().date(SelectDate::parse("2022-08..").unwrap()).build();
/// let (_, _, report) = f.filter_bytes(games.as_bytes());
/// assert_eq!((report.games_written, report.left_out.date_unknown), (1, 2));
/// ```
#[derive(Clone, Debug)]
pub struct SelectDate {
    from: Option<Day>,
    to: Option<Day>,
    /// The days the game read may be on, when its `Date` says.
    span: Option<(Day, Day)>,
    /// Its first `Date` tag is read.
    dated: bool,
}

impl SelectDate {
    /// `FROM..TO`, `FROM..`, `..TO`, or one date alone (`2022`: that
    /// year), each `YYYY`, `YYYY-MM` or `YYYY-MM-DD` (`.` for `-` too):
    /// FROM from its first day, TO to its last.
    pub fn parse(s: &str) -> Result<SelectDate, SelectError> {
        let usage = || {
            SelectError(format!(
                "{s:?}: write FROM..TO, FROM.., ..TO or one date, each YYYY, YYYY-MM or \
                 YYYY-MM-DD (2022..2023-06)"
            ))
        };
        let (from, to) = match s.split_once("..") {
            Some((a, b)) => (a.trim(), b.trim()),
            None => (s.trim(), s.trim()),
        };
        let bound = |t: &str, last: bool| -> Result<Option<Day>, SelectError> {
            if t.is_empty() {
                return Ok(None);
            }
            let (earliest, latest) = read_date(t, false).ok_or_else(usage)?;
            Ok(Some(if last { latest } else { earliest }))
        };
        let (from, to) = (bound(from, false)?, bound(to, true)?);
        match (from, to) {
            (None, None) => Err(SelectError(format!(
                "{s:?}: give FROM, TO or both (2022.., ..2023-06): every game with a date \
                 is in `..`"
            ))),
            (Some(f), Some(t)) if f > t => Err(SelectError(format!(
                "{s:?}: FROM is after TO: no game would be kept"
            ))),
            _ => Ok(SelectDate {
                from,
                to,
                span: None,
                dated: false,
            }),
        }
    }

    /// The game's `Date` tag's value, as written.
    fn see(&mut self, value: &str) {
        if !self.dated {
            self.dated = true;
            self.span = read_date(value.trim(), true);
        }
    }

    fn begin(&mut self) {
        self.span = None;
        self.dated = false;
    }

    /// Why the range leaves the game read so far out, if it does.
    pub(crate) fn fails(&self) -> Option<LeftOut> {
        let Some((earliest, latest)) = self.span else {
            return Some(LeftOut::DateUnknown);
        };
        let after_from = |d: Day| self.from.is_none_or(|f| d >= f);
        let before_to = |d: Day| self.to.is_none_or(|t| d <= t);
        if after_from(earliest) && before_to(latest) {
            None
        } else if !after_from(latest) || !before_to(earliest) {
            Some(LeftOut::Date)
        } else {
            Some(LeftOut::DateUnknown)
        }
    }
}

/// The first and last day `date` may be: `YYYY`, `YYYY-MM` or
/// `YYYY-MM-DD`, `-` or `.` between; with `unknown`, `?` for any digit
/// (and the parts left out unknown). `None` when it is no date, or says
/// nothing of the year.
fn read_date(date: &str, unknown: bool) -> Option<(Day, Day)> {
    let mut parts = date.split(['-', '.']);
    let year = digits(parts.next()?, 4, unknown)?;
    if year.0 == 0 && year.1 == 9999 {
        return None;
    }
    let part = |p: Option<&str>, max: u16| match p {
        None => Some((1, max)),
        Some(p) => {
            // As wide as the digits allow, within 1 to `max`: `1?` for a
            // month is 10 to 12; `13`, no month.
            let (lo, hi) = digits(p, 2, unknown)?;
            let (lo, hi) = (lo.max(1), hi.min(max));
            (lo <= hi).then_some((lo, hi))
        }
    };
    let month = part(parts.next(), 12)?;
    let day = part(parts.next(), 31)?;
    if parts.next().is_some() {
        return None;
    }
    let as_day = |y: u16, m: u16, d: u16| (y, m as u8, d as u8);
    Some((
        as_day(year.0, month.0, day.0),
        as_day(year.1, month.1, day.1),
    ))
}

/// `n` digits, `?` among them when `unknown`: the least and the most
/// they may stand for.
fn digits(s: &str, n: usize, unknown: bool) -> Option<(u16, u16)> {
    if s.len() != n {
        return None;
    }
    let (mut lo, mut hi) = (0u16, 0u16);
    for b in s.bytes() {
        let (l, h) = match b {
            b'0'..=b'9' => (u16::from(b - b'0'), u16::from(b - b'0')),
            b'?' if unknown => (0, 9),
            _ => return None,
        };
        (lo, hi) = (lo * 10 + l, hi * 10 + h);
    }
    Some((lo, hi))
}

impl Pass for SelectDate {
    fn name(&self) -> &'static str {
        "select-date"
    }

    fn interest(&self, _cx: &Context) -> Interest {
        Interest::TAGS
    }

    fn begin_game(&mut self, _cx: &mut Context) {
        self.begin();
    }

    fn tag(&mut self, tag: &Tag<'_>, _cx: &mut Context) -> Flow {
        if tag.name == "Date" {
            self.see(tag.value);
        }
        Flow::Keep
    }

    fn end_game(&mut self, cx: &mut Context) {
        if let Some(reason) = self.fails() {
            cx.leave_out(reason);
        }
    }
}

/// [`SelectDate`] in the select slot: the tag read, as the pass reads it.
impl SelectDate {
    pub(crate) fn begin_game(&mut self) {
        self.begin();
    }

    pub(crate) fn tag(&mut self, tag: &Tag<'_>) {
        if tag.name == "Date" {
            self.see(tag.value);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fails(range: &str, date: Option<&str>) -> Option<LeftOut> {
        let mut s = SelectDate::parse(range).unwrap();
        if let Some(d) = date {
            s.see(d);
        }
        s.fails()
    }

    #[test]
    fn a_range_runs_from_the_first_day_of_from_to_the_last_of_to() {
        for (range, date) in [
            ("2022", "2022-01-01"),
            ("2022", "2022-12-31"),
            ("2022-08", "2022-08-31"),
            ("2022..", "2030-01-01"),
            ("..2023-06", "2023-06-30"),
            ("2022-08-14", "2022.08.14"),
            ("2021..2022", "2022-??-??"),
            ("2010..2019", "201?-??-??"),
            ("2022-10..2022-12", "2022-1?-??"),
        ] {
            assert_eq!(fails(range, Some(date)), None, "{date} in {range}");
        }
    }

    #[test]
    fn a_date_wholly_before_or_after_is_outside() {
        for (range, date) in [
            ("2022", "2021-12-31"),
            ("2022..", "2021-??-??"),
            ("..2023-06", "2023-07-01"),
            ("2022-08", "2022-07-??"),
        ] {
            assert_eq!(
                fails(range, Some(date)),
                Some(LeftOut::Date),
                "{date} in {range}"
            );
        }
    }

    #[test]
    fn a_date_unknown_at_the_precision_needed_is_in_no_range() {
        for (range, date) in [
            ("2022-08..", Some("2022-??-??")),
            ("2022", Some("????-??-??")),
            ("2022", Some("20??")),
            ("2022", None),
            ("2022", Some("yesterday")),
            ("2022", Some("2022-13-01")),
        ] {
            assert_eq!(
                fails(range, date),
                Some(LeftOut::DateUnknown),
                "{date:?} in {range}"
            );
        }
    }

    #[test]
    fn ranges_read_as_written() {
        for bad in [
            "",
            "..",
            "2022-13",
            "22",
            "2023..2022",
            "2022-08-14-1",
            "2022-0?",
        ] {
            assert!(SelectDate::parse(bad).is_err(), "{bad}");
        }
        let s = SelectDate::parse("2022-08..2023").unwrap();
        assert_eq!((s.from, s.to), (Some((2022, 8, 1)), Some((2023, 12, 31))));
    }
}
