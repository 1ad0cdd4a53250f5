// Generated from VERSION by scripts/version: edit VERSION, not this file.
/** The version of ImageStage these modules belong to (semver, docs/api.md). */
export const version = '0.1.0';
