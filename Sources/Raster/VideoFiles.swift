extension VideoDecoder {
  /// Whether `path` names a video, by its extension (what the user sees in the name):
  /// `.mp4 .mov .mkv .webm .m4v .avi`, in any case.
  public static func isVideoPath(_ path: String) -> Bool {
    let lower = path.lowercased()
    return [".mp4", ".mov", ".mkv", ".webm", ".m4v", ".avi"].contains { lower.hasSuffix($0) }
  }
}
