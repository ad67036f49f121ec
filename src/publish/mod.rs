//! Publish stage: GitHub sticky comment, job summary, outputs, annotations.
