//! The keyword options of `filter`, `filter_file`, `count` and `listing`:
//! the command line's long options (`keep_comments` for
//! `--keep-comments`), read into the library's `Options`, which refuses a
//! bad value with the command line's words for it.

use ctlpgn_filter::options::{Options, OPTIONS};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};

/// One value as the command line would have it (a str, or a number
/// written out), or a list of them (a repeated option).
fn strings(value: &Bound<'_, PyAny>) -> PyResult<Vec<String>> {
    if let Ok(s) = value.downcast::<PyString>() {
        return Ok(vec![s.to_cow()?.into_owned()]);
    }
    if let Ok(n) = value.extract::<i128>() {
        return Ok(vec![n.to_string()]);
    }
    value
        .try_iter()?
        .map(|v| strings(&v?).map(|mut s| s.remove(0)))
        .collect()
}

/// Reads `kwargs`; `function` names the caller in the error about an
/// option it does not take.
pub fn from_kwargs(function: &str, kwargs: Option<&Bound<'_, PyDict>>) -> PyResult<Options> {
    let mut o = Options::default();
    for (key, value) in kwargs.into_iter().flatten() {
        let key: String = key.extract()?;
        let name = key.replace('_', "-");
        let set = match Options::takes_value(&name) {
            None => {
                let names: Vec<String> = OPTIONS.iter().map(|(n, _)| n.replace('-', "_")).collect();
                return Err(PyTypeError::new_err(format!(
                    "{function}() got an unexpected keyword argument '{key}' (its options: {})",
                    names.join(", ")
                )));
            }
            Some(false) => o.flag(&name, value.is_truthy()?),
            Some(true) if value.is_none() => Ok(()),
            // A list of columns is one value, as the command line writes it.
            Some(true) if name == "columns" => o.set(&name, &strings(&value)?.join(",")),
            Some(true) => strings(&value)?.iter().try_for_each(|v| o.set(&name, v)),
        };
        set.map_err(|e| PyValueError::new_err(e.to_string()))?;
    }
    o.check()
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    Ok(o)
}
