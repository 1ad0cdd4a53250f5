import HostIO
import Panorama

#if canImport(Glibc)
  import Glibc
#endif

/// `pano tag`'s file side: finds `moov` with `MP4SphericalReader`, has
/// `MP4SphericalTagger` (Panorama, the boxes' one walker) rewrite it, and writes the file:
/// the media copied in 1 MB pieces through a `StagedOutput`, so a failure or an interruption
/// leaves the output as it was. Only `moov` is read into memory (at most 16 MB, as the reader
/// reads). Bad boxes end in a `CommandError` naming the box and its byte, never a trap.
enum MP4Tagger {
  /// The reader's limit (`pano info`, the viewer): a larger `moov` would not read back.
  static let maxMoov = MP4SphericalReader.maxMoov

  /// `MP4SphericalTagger.retag`, its failure as a `CommandError`.
  static func retag(moov: [UInt8], tag: SphericalTag, shiftFrom: Int) throws -> (moov: [UInt8], tablesMoved: Int) {
    do throws(MP4Box.Failure) {
      return try MP4SphericalTagger.retag(moov: moov, tag: tag, shiftFrom: shiftFrom)
    } catch {
      throw CommandError(message: error.message)
    }
  }

  /// What `tag(input:…)` did, for its summary line.
  struct Result {
    var growth: Int
    var tablesMoved: Int
    var frameSize: (width: Int, height: Int)?
  }

  /// The `moov` box's place, found by the reader the viewer and `pano info` use (its limits:
  /// 64 top-level boxes, each within the file); bad headers refused with its reason.
  static func locateMoov(_ fd: Int32, _ input: String, fileSize: Int) throws -> (start: Int, size: Int) {
    var reader = MP4SphericalReader(fileSize: Int64(fileSize))
    // Until moov's header: its body is read here, whole, for the tagger.
    while reader.moovBox == nil, case .need(let offset, let count) = reader.next {
      reader.feed(try readAt(fd, input, offset: Int(offset), count: count))
    }
    guard let moov = reader.moovBox, let size = moov.size else {
      if case .done(_, let reason) = reader.next, !reason.isEmpty { throw CommandError(message: reason) }
      throw CommandError(message: "no moov box: not an MP4 with its index, or cut short")
    }
    return (Int(moov.offset), Int(size))
  }

  /// Tags a file this process just made (ffmpeg's staged output, `moov` last, as ffmpeg
  /// writes without faststart) where it lies: the new `moov` over the old, the file cut to
  /// its end. Not for a user's file: an interruption leaves it half-written.
  static func tagInPlace(_ path: String, tag: SphericalTag) throws {
    let fd = open(path, O_RDWR | O_NOFOLLOW | O_CLOEXEC)
    guard fd >= 0 else { throw CommandError(message: "cannot open \(Console.escaped(path))", code: 1) }
    defer { close(fd) }
    var st = stat()
    guard fstat(fd, &st) == 0 else { throw CommandError(message: "cannot stat \(Console.escaped(path))", code: 1) }
    let fileSize = Int(st.st_size)
    let moov = try locateMoov(fd, path, fileSize: fileSize)
    guard moov.start + moov.size == fileSize, moov.size <= maxMoov else {
      throw CommandError(message: "spherical metadata: ffmpeg's moov is not at the file's end", code: 1)
    }
    let (newMoov, _) = try retag(moov: try readAt(fd, path, offset: moov.start, count: moov.size), tag: tag, shiftFrom: fileSize)
    guard lseek(fd, off_t(moov.start), SEEK_SET) >= 0 else {
      throw CommandError(message: "cannot seek in \(Console.escaped(path))", code: 1)
    }
    try writeAll(fd, path, newMoov)
    guard ftruncate(fd, off_t(moov.start + newMoov.count)) == 0 else {
      throw CommandError(message: "cannot truncate \(Console.escaped(path))", code: 1)
    }
  }

  /// Whether a view fills a 2:1 equirectangular frame with the whole sphere: what a 360°
  /// player expects of a file carrying V2 metadata.
  static func isFullSphere(lens: Lens, hfov: Double, width: Int, height: Int) -> Bool {
    lens == .equirectangular && hfov >= lens.maximumFieldOfView - 1e-9 && width == 2 * height
  }

  /// Writes `input` with `tag` to `output` through a `StagedOutput` (renamed into place when
  /// complete; `output` may be `input`).
  static func tag(input: String, output: String, tag: SphericalTag) throws -> Result {
    try FileIO.requireRegularFile(input)
    let fd = open(input, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { throw CommandError(message: "cannot open \(Console.escaped(input))") }
    defer { close(fd) }
    var st = stat()
    guard fstat(fd, &st) == 0 else { throw CommandError(message: "cannot stat \(Console.escaped(input))") }
    let fileSize = Int(st.st_size)

    let moov = try locateMoov(fd, input, fileSize: fileSize)
    guard moov.size <= maxMoov else {
      throw CommandError(message: "moov of \(moov.size) bytes, over the \(maxMoov >> 20) MB this command reads")
    }
    let oldMoov = try readAt(fd, input, offset: moov.start, count: moov.size)
    guard oldMoov.count == moov.size else { throw CommandError(message: "the file shrank while it was read") }
    let moovEnd = moov.start + moov.size
    let (newMoov, moved) = try retag(moov: oldMoov, tag: tag, shiftFrom: moovEnd)

    let staged = try StagedOutput(output, kind: .file)
    let out = open(staged.temporary, O_WRONLY | O_TRUNC | O_NOFOLLOW | O_CLOEXEC)
    guard out >= 0 else { throw CommandError(message: "cannot open \(Console.escaped(staged.temporary))", code: 1) }
    do {
      defer { close(out) }
      try copy(from: fd, input, range: 0..<moov.start, to: out, staged.temporary)
      try writeAll(out, staged.temporary, newMoov)
      try copy(from: fd, input, range: moovEnd..<fileSize, to: out, staged.temporary)
    }
    // Read back through the reader the viewer and `pano info` use: what we wrote must parse.
    var check = MP4SphericalReader(fileSize: Int64(fileSize + newMoov.count - moov.size))
    let back = open(staged.temporary, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
    guard back >= 0 else { throw CommandError(message: "cannot reopen \(Console.escaped(staged.temporary))", code: 1) }
    defer { close(back) }
    while case .need(let offset, let count) = check.next {
      check.feed(try readAt(back, staged.temporary, offset: Int(offset), count: count))
    }
    guard case .done(let video?, _) = check.next, video.stereo == tag.stereo else {
      var why = ""
      if case .done(_, let reason) = check.next { why = reason }
      throw CommandError(message: "the tagged file does not read back (\(why)); \(Console.escaped(output)) is as it was", code: 1)
    }
    try staged.commit()
    return Result(growth: newMoov.count - moov.size, tablesMoved: moved, frameSize: check.frameSize)
  }

  static func readAt(_ fd: Int32, _ path: String, offset: Int, count: Int) throws -> [UInt8] {
    var bytes = [UInt8](repeating: 0, count: count)
    var filled = 0
    while filled < count {
      let n = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + filled, count - filled, off_t(offset + filled)) }
      if n < 0 && errno == EINTR { continue }
      guard n >= 0 else {
        throw CommandError(message: "cannot read \(Console.escaped(path)): \(String(cString: strerror(errno)))")
      }
      if n == 0 { break }
      filled += n
    }
    bytes.removeSubrange(filled...)
    return bytes
  }

  static func writeAll(_ fd: Int32, _ path: String, _ bytes: [UInt8]) throws {
    var written = 0
    while written < bytes.count {
      let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + written, $0.count - written) }
      if n < 0 && errno == EINTR { continue }
      guard n > 0 else {
        throw CommandError(message: "cannot write \(Console.escaped(path)): \(String(cString: strerror(errno)))", code: 1)
      }
      written += n
    }
  }

  static func copy(from fd: Int32, _ input: String, range: Range<Int>, to out: Int32, _ path: String) throws {
    var at = range.lowerBound
    while at < range.upperBound {
      let piece = try readAt(fd, input, offset: at, count: min(1 << 20, range.upperBound - at))
      guard !piece.isEmpty else { throw CommandError(message: "\(Console.escaped(input)) shrank while it was copied") }
      try writeAll(out, path, piece)
      at += piece.count
    }
  }
}
