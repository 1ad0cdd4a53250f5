import HostIO
import Panorama

#if canImport(Glibc)
  import Glibc
#endif

/// Spherical Video V2 metadata for an equirectangular clip: what `pano tag` writes, and what
/// `pano reframe` and `pano video` write into a 2:1 equirectangular output.
struct SphericalTag: Equatable {
  var stereo = SphericalVideo.Stereo.mono
  /// The projection's pose in degrees (V2's prhd: yaw, then pitch, then roll).
  var yaw = 0.0, pitch = 0.0, roll = 0.0
  /// Fractions of the frame cropped from each edge (V2's equi bounds).
  var cropTop = 0.0, cropBottom = 0.0, cropLeft = 0.0, cropRight = 0.0

  /// `st3d`, then `sv3d` holding `svhd` and `proj` (`prhd`, `equi`), in libavformat's order.
  var boxes: [UInt8] {
    func box(_ type: String, _ body: [UInt8]) -> [UInt8] { MP4Tagger.be32(UInt32(8 + body.count)) + Array(type.utf8) + body }
    func full(_ type: String, _ body: [UInt8]) -> [UInt8] { box(type, [0, 0, 0, 0] + body) }
    let mode: UInt8 = stereo == .topBottom ? 1 : stereo == .leftRight ? 2 : 0
    // 16.16 fixed-point degrees; 0.32 fractions (the caller keeps them in 0 ..< 1).
    func fixed(_ degrees: Double) -> [UInt8] { MP4Tagger.be32(UInt32(bitPattern: Int32((degrees * 65536).rounded()))) }
    func fraction(_ f: Double) -> [UInt8] { MP4Tagger.be32(UInt32(min(f * 4_294_967_296, 4_294_967_295))) }
    let prhd = full("prhd", fixed(yaw) + fixed(pitch) + fixed(roll))
    let equi = full("equi", fraction(cropTop) + fraction(cropBottom) + fraction(cropLeft) + fraction(cropRight))
    let svhd = full("svhd", Array("ImageStage".utf8) + [0])
    return full("st3d", [mode]) + box("sv3d", svhd + box("proj", prhd + equi))
  }
}

/// Rewrites an MP4's (ISO BMFF) video sample entry to carry a `SphericalTag`, copying
/// everything else: the entry's own `st3d` and `sv3d` are replaced, its parents' sizes grow
/// by what it grew, and where `moov` comes before the media (a faststart file) every track's
/// `stco`/`co64` chunk offsets move by the same amount. Only `moov` is read into memory (at
/// most 16 MB, as `MP4SphericalReader` reads); the media is copied in 1 MB pieces. Bad boxes end in a `CommandError`
/// naming the box and its byte, never a trap: every size is checked against its parent.
enum MP4Tagger {
  /// The reader's limit (`pano info`, the viewer): a larger `moov` would not read back.
  static let maxMoov = MP4SphericalReader.maxMoov
  static let maxTopLevelBoxes = 100_000

  struct Box {
    var start: Int
    var header: Int
    var size: Int
    var type: String
    var body: Range<Int> { (start + header)..<(start + size) }
  }

  static func be32(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
  static func read32(_ b: [UInt8], _ i: Int) -> UInt32 {
    UInt32(b[i]) << 24 | UInt32(b[i + 1]) << 16 | UInt32(b[i + 2]) << 8 | UInt32(b[i + 3])
  }
  static func read64(_ b: [UInt8], _ i: Int) -> UInt64 { UInt64(read32(b, i)) << 32 | UInt64(read32(b, i + 4)) }
  static func name(_ b: ArraySlice<UInt8>) -> String {
    String(decoding: b.map { $0 >= 0x20 && $0 <= 0x7E ? $0 : UInt8(ascii: "?") }, as: UTF8.self)
  }

  /// The boxes in `bytes[range]`; `lenient` stops quietly at trailing padding (zeros or a
  /// stub too short to be a box), as after a sample entry's boxes.
  static func children(_ bytes: [UInt8], _ range: Range<Int>, lenient: Bool = false, in parent: String) throws -> [Box] {
    var out: [Box] = []
    var i = range.lowerBound
    while i < range.upperBound {
      let left = range.upperBound - i
      guard left >= 8 else {
        if lenient { break }
        throw CommandError(message: "\(left) stray bytes at the end of '\(parent)' where a box should be")
      }
      var size = Int(read32(bytes, i)), header = 8
      if size == 1 {
        guard left >= 16 else { throw CommandError(message: "a 64-bit box header cut short in '\(parent)'") }
        let large = read64(bytes, i + 8)
        size = large > UInt64(Int.max) ? Int.max : Int(large)
        header = 16
      } else if size == 0 {
        if lenient { break }
        size = left
      }
      let type = name(bytes[(i + 4)..<(i + 8)])
      guard size >= header, size <= left else {
        throw CommandError(message: "box '\(type)' in '\(parent)' claims \(size) bytes, but \(left) are left in its parent")
      }
      out.append(Box(start: i, header: header, size: size, type: type))
      guard out.count <= 65_536 else { throw CommandError(message: "over 65536 boxes in '\(parent)'") }
      i += size
    }
    return out
  }

  /// The new `moov` box (`moov`: the whole box, header included) with `tag` in the video
  /// sample entry, and chunk offsets at or past `shiftFrom` moved by the growth. Returns
  /// the box and how many chunk offset tables moved.
  static func retag(moov: [UInt8], tag: SphericalTag, shiftFrom: Int) throws -> (moov: [UInt8], tablesMoved: Int) {
    let top = try children(moov, 0..<moov.count, in: "file")
    guard top.count == 1, top[0].type == "moov" else { throw CommandError(message: "expected one moov box") }
    let moovBox = top[0]
    let inMoov = try children(moov, moovBox.body, in: "moov")
    if inMoov.contains(where: { $0.type == "mvex" }) {
      throw CommandError(
        message: "a fragmented MP4 (mvex in moov): its fragments are not retagged; tag the clip before fragmenting it")
    }
    // The chain down to the video sample entry: moov, trak, mdia, minf, stbl, stsd, entry.
    var chain: [Box] = [moovBox]
    var entry: Box?
    for trak in inMoov where trak.type == "trak" {
      guard let mdia = try children(moov, trak.body, in: "trak").first(where: { $0.type == "mdia" }) else { continue }
      let inMdia = try children(moov, mdia.body, in: "mdia")
      // hdlr: full box (4), pre_defined (4), handler_type (4).
      guard let hdlr = inMdia.first(where: { $0.type == "hdlr" }), hdlr.body.count >= 12,
        name(moov[(hdlr.body.lowerBound + 8)..<(hdlr.body.lowerBound + 12)]) == "vide"
      else { continue }
      guard let minf = inMdia.first(where: { $0.type == "minf" }),
        let stbl = try children(moov, minf.body, in: "minf").first(where: { $0.type == "stbl" }),
        let stsd = try children(moov, stbl.body, in: "stbl").first(where: { $0.type == "stsd" })
      else { throw CommandError(message: "the video track has no mdia/minf/stbl/stsd") }
      // stsd: full box (4) and entry count (4), then the sample entries; the first is tagged.
      guard stsd.body.count >= 8,
        let first = try children(moov, (stsd.body.lowerBound + 8)..<stsd.body.upperBound, lenient: true, in: "stsd").first
      else { throw CommandError(message: "the video track's stsd has no sample entry") }
      // A VisualSampleEntry: 78 bytes of fields, then boxes (avcC, hvcC, …).
      guard first.size - first.header >= 78 else {
        throw CommandError(message: "the video sample entry '\(first.type)' is \(first.size) bytes, too short for one")
      }
      chain += [trak, mdia, minf, stbl, stsd]
      entry = first
      break
    }
    guard let entry else { throw CommandError(message: "no video track (a trak whose hdlr is 'vide') in moov") }

    let fieldsEnd = entry.body.lowerBound + 78
    let kept = try children(moov, fieldsEnd..<entry.body.upperBound, lenient: true, in: entry.type)
      .filter { $0.type != "st3d" && $0.type != "sv3d" }
    var newEntry = Array(moov[entry.start..<fieldsEnd])
    for box in kept { newEntry += moov[box.start..<(box.start + box.size)] }
    newEntry += tag.boxes
    // The entry's own header: 8 bytes (a sample entry never needs a 64-bit size).
    guard entry.header == 8 else { throw CommandError(message: "the video sample entry has a 64-bit size") }
    newEntry.replaceSubrange(0..<4, with: be32(UInt32(newEntry.count)))
    let growth = newEntry.count - entry.size

    var out = Array(moov[..<entry.start]) + newEntry + moov[(entry.start + entry.size)...]
    // The parents start before the entry, so their headers sit where they were.
    for parent in chain {
      let size = parent.size + growth
      if parent.header == 16 {
        out.replaceSubrange(
          (parent.start + 8)..<(parent.start + 16), with: be32(UInt32(size >> 32)) + be32(UInt32(size & 0xFFFF_FFFF)))
      } else {
        guard size <= Int(UInt32.max) else { throw CommandError(message: "'\(parent.type)' would outgrow a 32-bit size") }
        out.replaceSubrange(parent.start..<(parent.start + 4), with: be32(UInt32(size)))
      }
    }
    let moved = growth == 0 ? 0 : try shiftChunkOffsets(&out, by: growth, from: shiftFrom)
    return (out, moved)
  }

  /// Adds `growth` to every chunk offset at or past `shiftFrom` (media after `moov`), in
  /// every track's `stco` (32-bit) or `co64`. Returns the tables that had any.
  static func shiftChunkOffsets(_ moov: inout [UInt8], by growth: Int, from shiftFrom: Int) throws -> Int {
    var moved = 0
    let moovBox = try children(moov, 0..<moov.count, in: "file")[0]
    for trak in try children(moov, moovBox.body, in: "moov") where trak.type == "trak" {
      guard let mdia = try children(moov, trak.body, in: "trak").first(where: { $0.type == "mdia" }),
        let minf = try children(moov, mdia.body, in: "mdia").first(where: { $0.type == "minf" }),
        let stbl = try children(moov, minf.body, in: "minf").first(where: { $0.type == "stbl" })
      else { continue }
      for table in try children(moov, stbl.body, in: "stbl") where table.type == "stco" || table.type == "co64" {
        // Full box (4), entry count (4), then the offsets.
        let width = table.type == "stco" ? 4 : 8
        guard table.body.count >= 8 else { throw CommandError(message: "\(table.type) of \(table.body.count) bytes") }
        let count = Int(read32(moov, table.body.lowerBound + 4))
        guard count <= (table.body.count - 8) / width else {
          throw CommandError(message: "\(table.type) lists \(count) chunks in \(table.body.count) bytes")
        }
        var any = false
        for k in 0..<count {
          let at = table.body.lowerBound + 8 + k * width
          let offset = width == 4 ? UInt64(read32(moov, at)) : read64(moov, at)
          guard offset >= UInt64(shiftFrom) else { continue }
          let shifted = offset + UInt64(growth)
          if width == 4 {
            guard shifted <= UInt64(UInt32.max) else {
              throw CommandError(message: "a chunk offset would pass 4 GB in stco: write the clip with moov at its end")
            }
            moov.replaceSubrange(at..<(at + 4), with: be32(UInt32(shifted)))
          } else {
            moov.replaceSubrange(at..<(at + 8), with: be32(UInt32(shifted >> 32)) + be32(UInt32(shifted & 0xFFFF_FFFF)))
          }
          any = true
        }
        if any { moved += 1 }
      }
    }
    return moved
  }

  /// What `tag(input:…)` did, for its summary line.
  struct Result {
    var growth: Int
    var tablesMoved: Int
    var frameSize: (width: Int, height: Int)?
  }

  /// The `moov` box's place, from the top-level box headers alone; bad headers refused.
  static func locateMoov(_ fd: Int32, _ input: String, fileSize: Int) throws -> (start: Int, size: Int) {
    // The top-level boxes, from their headers alone.
    var at = 0, seen = 0
    var moov: (start: Int, size: Int)?
    while at < fileSize {
      seen += 1
      guard seen <= maxTopLevelBoxes else { throw CommandError(message: "over \(maxTopLevelBoxes) top-level boxes") }
      let head = try readAt(fd, input, offset: at, count: min(16, fileSize - at))
      guard head.count >= 8 else { throw CommandError(message: "the file ends inside a box header at byte \(at)") }
      let type = name(head[4..<8])
      guard head[4..<8].allSatisfy({ $0 >= 0x20 && $0 <= 0x7E }) else {
        throw CommandError(message: "not an MP4 (ISO BMFF) file: no box header at byte \(at)")
      }
      var size = Int(read32(head, 0)), header = 8
      if size == 1 {
        guard head.count >= 16 else { throw CommandError(message: "the file ends inside box '\(type)''s header at byte \(at)") }
        let large = read64(head, 8)
        size = large > UInt64(Int.max) ? Int.max : Int(large)
        header = 16
      } else if size == 0 {
        size = fileSize - at
      }
      guard size >= header, size <= fileSize - at else {
        throw CommandError(
          message: "box '\(type)' at byte \(at) claims \(size) bytes, but the file ends \(fileSize - at) bytes on")
      }
      if type == "moov" {
        guard moov == nil else { throw CommandError(message: "a second moov box at byte \(at)") }
        moov = (at, size)
      }
      at += size
    }
    guard let moov else { throw CommandError(message: "no moov box: not an MP4 with its index, or cut short") }
    return moov
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
