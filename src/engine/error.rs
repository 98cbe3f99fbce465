//! Why an engine call was refused.

use std::fmt;

use super::IsaError;

/// Why an engine call was refused: the path, or the buffers.
///
/// ```
/// use kuuid::engine::{EngineError, Isa, IsaError};
///
/// // What a caller of kuuid::Error sees of it.
/// let e = kuuid::Error::from(EngineError::Shape("stride is shorter than an id"));
/// assert!(e.to_string().contains("stride is shorter than an id"), "{e}");
/// let missing = EngineError::Isa(IsaError::Unsupported(Isa::Neon));
/// assert_eq!(kuuid::Error::from(missing.clone()), kuuid::Error::from(missing));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum EngineError {
    /// The path cannot run here.
    Isa(IsaError),
    /// Groups outside 1 to 4, a stride shorter than an id, or buffers too
    /// short for `count` ids.
    Shape(&'static str),
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineError::Isa(e) => e.fmt(f),
            EngineError::Shape(what) => write!(f, "engine call refused: {what}"),
        }
    }
}

impl std::error::Error for EngineError {}
