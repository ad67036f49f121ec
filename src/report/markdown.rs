//! Markdown renderer (PR comment and job summary).
