// Generated from VERSION by scripts/version: edit VERSION, not this file.

/// The project's version (VERSION), shown by `--version`.
public let imageStageVersion = "0.1.0"
