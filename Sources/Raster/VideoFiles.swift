import CFFmpeg

#if canImport(Glibc)
  import Glibc
#endif

extension VideoDecoder {
  /// Whether `path` holds a video rather than a still image: the one rule every command and
  /// the app use to choose between the two. Decided by the file's first bytes, whatever
  /// its name: cameras write MP4 under `.insv`, `.360`, `.lrv` or no extension at all. A
  /// JPEG or PNG (or HEIF/AVIF, a still in an MP4-like box) is an image; an ISO BMFF box
  /// (MP4, MOV), Matroska/WebM, AVI, MPEG-TS or -PS, FLV or Ogg is a video. A file that
  /// cannot be read, is not a regular file (nothing is read from a FIFO) or is none of
  /// these goes by its extension (`isVideoPath`), so its error comes from the reader its
  /// name suggests.
  /// - Complexity: one `open` and one read of 192 bytes.
  public static func isVideo(_ path: String) -> Bool {
    guard let head = firstBytes(path, count: 192) else { return isVideoPath(path) }
    switch Self.kind(ofFileStartingWith: head) {
    case .image: return false
    case .video: return true
    case nil: return isVideoPath(path)
    }
  }

  enum FileKind { case image, video }

  /// What a file's first bytes say it is, or nil when they say nothing we know.
  static func kind(ofFileStartingWith b: [UInt8]) -> FileKind? {
    func ascii(_ range: Range<Int>) -> String? {
      range.upperBound <= b.count ? String(decoding: b[range], as: UTF8.self) : nil
    }
    if b.starts(with: [0xFF, 0xD8, 0xFF]) || b.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
      return .image
    }
    if let box = ascii(4..<8), ["ftyp", "moov", "mdat", "free", "skip", "wide", "pnot", "uuid"].contains(box) {
      // HEIF and AVIF stills are ISO BMFF too, told apart by their brand.
      let stills = ["heic", "heix", "heim", "heis", "mif1", "avif"]
      if box == "ftyp", let brand = ascii(8..<12), stills.contains(brand) {
        return .image
      }
      return .video
    }
    if b.starts(with: [0x1A, 0x45, 0xDF, 0xA3]) { return .video }  // EBML: Matroska, WebM
    if ascii(0..<4) == "RIFF" && ascii(8..<12) == "AVI " { return .video }
    if ascii(0..<3) == "FLV" || ascii(0..<4) == "OggS" { return .video }
    if b.starts(with: [0x00, 0x00, 0x01, 0xBA]) { return .video }  // MPEG program stream
    if b.count > 188 && b[0] == 0x47 && b[188] == 0x47 { return .video }  // MPEG-TS packets
    return nil
  }

  /// Up to `count` bytes from the start of a regular file; nil for anything else.
  static func firstBytes(_ path: String, count: Int) -> [UInt8]? {
    let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var status = stat()
    guard fstat(fd, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { return nil }
    var bytes = [UInt8](repeating: 0, count: count)
    let got = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress, count) }
    return got > 0 ? Array(bytes.prefix(got)) : nil
  }

  /// Whether `path` names a video by its extension (`.mp4 .mov .mkv .webm .m4v .avi`, and
  /// the cameras' `.insv .lrv .360`), in any case: for a file whose bytes say nothing.
  public static func isVideoPath(_ path: String) -> Bool {
    let lower = path.lowercased()
    return [".mp4", ".mov", ".mkv", ".webm", ".m4v", ".avi", ".insv", ".lrv", ".360"].contains { lower.hasSuffix($0) }
  }

  /// The codec of the file's first audio stream (what `ffmpeg -map 0:a:0` takes), in
  /// libavcodec's words (`aac`, `pcm_s16le`, `opus`…); nil without audio.
  public var audioCodecName: String? {
    for i in 0..<Int(format.pointee.nb_streams) {
      guard let stream = format.pointee.streams[i], let parameters = stream.pointee.codecpar,
        parameters.pointee.codec_type == AVMEDIA_TYPE_AUDIO
      else { continue }
      return String(cString: avcodec_get_name(parameters.pointee.codec_id))
    }
    return nil
  }
}
