/// Spherical Video V2 metadata for an equirectangular clip: what `pano tag` writes, and what
/// `pano reframe` and `pano video` write into a 2:1 equirectangular output.
public struct SphericalTag: Equatable, Sendable {
  /// The frame's stereo layout (V2's `st3d`).
  public var stereo = SphericalVideo.Stereo.mono
  /// The projection's pose in degrees (V2's `prhd`: yaw, then pitch, then roll).
  public var yaw = 0.0, pitch = 0.0, roll = 0.0
  /// Fractions of the frame cropped from each edge (V2's `equi` bounds), each in 0 ..< 1.
  public var cropTop = 0.0, cropBottom = 0.0, cropLeft = 0.0, cropRight = 0.0

  /// A mono, unrotated, uncropped tag.
  public init() {}

  /// `st3d`, then `sv3d` holding `svhd` and `proj` (`prhd`, `equi`), in libavformat's order.
  public var boxes: [UInt8] {
    func box(_ type: String, _ body: [UInt8]) -> [UInt8] { MP4Box.be32Bytes(UInt32(8 + body.count)) + Array(type.utf8) + body }
    func full(_ type: String, _ body: [UInt8]) -> [UInt8] { box(type, [0, 0, 0, 0] + body) }
    let mode: UInt8 = stereo == .topBottom ? 1 : stereo == .leftRight ? 2 : 0
    // 16.16 fixed-point degrees, clamped to what 32 bits hold; 0.32 fractions.
    func fixed(_ degrees: Double) -> [UInt8] {
      let raw = min(max((degrees * 65536).rounded(), -2_147_483_648), 2_147_483_647)
      return MP4Box.be32Bytes(UInt32(bitPattern: Int32(raw.isNaN ? 0 : raw)))
    }
    func fraction(_ f: Double) -> [UInt8] {
      MP4Box.be32Bytes(UInt32(f.isNaN ? 0 : min(max(f, 0) * 4_294_967_296, 4_294_967_295)))
    }
    let prhd = full("prhd", fixed(yaw) + fixed(pitch) + fixed(roll))
    let equi = full("equi", fraction(cropTop) + fraction(cropBottom) + fraction(cropLeft) + fraction(cropRight))
    let svhd = full("svhd", Array("ImageStage".utf8) + [0])
    return full("st3d", [mode]) + box("sv3d", svhd + box("proj", prhd + equi))
  }
}

/// Rewrites an MP4's (ISO BMFF) `moov` box so its video sample entry carries a
/// ``SphericalTag``: the entry's own `st3d` and `sv3d` are replaced, its parents' sizes grow
/// by what it grew, and every track's `stco`/`co64` chunk offsets at or past a given byte
/// (the media after a faststart file's `moov`) move by the same amount.
///
/// Bytes in, bytes out: the host finds `moov` with ``MP4SphericalReader`` (its
/// ``MP4SphericalReader/moovBox``), reads it, and writes the file. The boxes are walked by
/// the reader's own walker (`MP4Box.children`): every size is checked against its parent, a
/// parent holds at most 4096 children, and bad bytes end in an ``MP4Box/Failure`` naming
/// the box, never a trap.
public enum MP4SphericalTagger {
  /// The new `moov` box (`moov`: the whole box, header included) with `tag` in the first
  /// video track's sample entry, and chunk offsets at or past `shiftFrom` moved by what it
  /// grew. Returns the box and how many chunk offset tables moved.
  ///
  /// - Complexity: O(n) in the box's bytes, plus O(chunks) for the offsets.
  public static func retag(moov: [UInt8], tag: SphericalTag, shiftFrom: Int) throws(MP4Box.Failure) -> (
    moov: [UInt8], tablesMoved: Int
  ) {
    let top = try MP4Box.children(moov[...])
    guard top.count == 1, top[0].type == "moov" else { throw MP4Box.Failure("expected one moov box") }
    let moovBox = top[0]
    let inMoov = try MP4Box.children(moovBox.body)
    if inMoov.contains(where: { $0.type == "mvex" }) {
      throw MP4Box.Failure(
        "a fragmented MP4 (mvex in moov): its fragments are not retagged; tag the clip before fragmenting it")
    }
    // The chain down to the video sample entry: moov, trak, mdia, minf, stbl, stsd, entry.
    var chain: [MP4Box.Child] = [moovBox]
    var found: MP4Box.Child?
    for trak in inMoov where trak.type == "trak" {
      guard let mdia = try MP4Box.children(trak.body).first(where: { $0.type == "mdia" }) else { continue }
      let inMdia = try MP4Box.children(mdia.body)
      // hdlr: full box (4), pre_defined (4), handler_type (4).
      guard let hdlr = inMdia.first(where: { $0.type == "hdlr" }), hdlr.body.count >= 12,
        MP4Box.name(Array(hdlr.body.dropFirst(8).prefix(4))) == "vide"
      else { continue }
      guard let minf = inMdia.first(where: { $0.type == "minf" }),
        let stbl = try MP4Box.children(minf.body).first(where: { $0.type == "stbl" }),
        let stsd = try MP4Box.children(stbl.body).first(where: { $0.type == "stsd" })
      else { throw MP4Box.Failure("the video track has no mdia/minf/stbl/stsd") }
      // stsd: full box (4) and entry count (4), then the sample entries; the first is tagged.
      guard stsd.body.count >= 8, let first = try MP4Box.children(stsd.body.dropFirst(8), lenient: true).first else {
        throw MP4Box.Failure("the video track's stsd has no sample entry")
      }
      // A VisualSampleEntry: 78 bytes of fields, then boxes (avcC, hvcC, …).
      guard first.body.count >= 78 else {
        throw MP4Box.Failure("the video sample entry '\(first.type)' is \(first.size) bytes, too short for one")
      }
      chain += [trak, mdia, minf, stbl, stsd]
      found = first
      break
    }
    guard let entry = found else { throw MP4Box.Failure("no video track (a trak whose hdlr is 'vide') in moov") }
    // The entry's own header: 8 bytes (a sample entry never needs a 64-bit size).
    guard entry.header == 8 else { throw MP4Box.Failure("the video sample entry has a 64-bit size") }

    let fieldsEnd = entry.body.startIndex + 78
    let kept = try MP4Box.children(moov[fieldsEnd..<entry.end], lenient: true)
      .filter { $0.type != "st3d" && $0.type != "sv3d" }
    var newEntry = Array(moov[entry.start..<fieldsEnd])
    for box in kept {
      var copy = Array(moov[box.start..<box.end])
      // A size of 0 means "to the parent's end": followed by the tag, it would swallow it.
      if box.header == 8, copy[0..<4].allSatisfy({ $0 == 0 }) {
        copy.replaceSubrange(0..<4, with: MP4Box.be32Bytes(UInt32(copy.count)))
      }
      newEntry += copy
    }
    newEntry += tag.boxes
    newEntry.replaceSubrange(0..<4, with: MP4Box.be32Bytes(UInt32(newEntry.count)))
    let growth = newEntry.count - entry.size

    var out = Array(moov[..<entry.start]) + newEntry + moov[entry.end...]
    // The parents start before the entry, so their headers sit where they were.
    for parent in chain {
      let size = parent.size + growth
      if parent.header == 16 {
        out.replaceSubrange(
          (parent.start + 8)..<(parent.start + 16),
          with: MP4Box.be32Bytes(UInt32(truncatingIfNeeded: Int64(size) >> 32))
            + MP4Box.be32Bytes(UInt32(truncatingIfNeeded: size)))
      } else {
        // As UInt64: on wasm32 `Int` is 32 bits and `Int(UInt32.max)` traps.
        guard size >= 0, UInt64(size) <= UInt64(UInt32.max) else {
          throw MP4Box.Failure("'\(parent.type)' would outgrow a 32-bit size")
        }
        out.replaceSubrange(parent.start..<(parent.start + 4), with: MP4Box.be32Bytes(UInt32(size)))
      }
    }
    let moved = growth == 0 ? 0 : try shiftChunkOffsets(&out, by: growth, from: shiftFrom)
    return (out, moved)
  }

  /// Adds `growth` to every chunk offset at or past `shiftFrom` (media after `moov`), in
  /// every track's `stco` (32-bit) or `co64`. Returns the tables that had any.
  static func shiftChunkOffsets(_ moov: inout [UInt8], by growth: Int, from shiftFrom: Int) throws(MP4Box.Failure) -> Int {
    var moved = 0
    // The walk is repeated on the new bytes: the entry's growth moved everything after it.
    let boxes = moov
    guard let moovBox = try MP4Box.children(boxes[...]).first else { return 0 }
    for trak in try MP4Box.children(moovBox.body) where trak.type == "trak" {
      guard let mdia = try MP4Box.children(trak.body).first(where: { $0.type == "mdia" }),
        let minf = try MP4Box.children(mdia.body).first(where: { $0.type == "minf" }),
        let stbl = try MP4Box.children(minf.body).first(where: { $0.type == "stbl" })
      else { continue }
      for table in try MP4Box.children(stbl.body) where table.type == "stco" || table.type == "co64" {
        // Full box (4), entry count (4), then the offsets.
        let width = table.type == "stco" ? 4 : 8
        guard table.body.count >= 8 else { throw MP4Box.Failure("\(table.type) of \(table.body.count) bytes") }
        let listed = MP4Box.be32(table.body, table.body.startIndex + 4)
        // Int(exactly:): a count past Int32.max does not fit a wasm32 `Int`.
        guard let count = Int(exactly: listed), count <= (table.body.count - 8) / width else {
          throw MP4Box.Failure("\(table.type) lists \(listed) chunks in \(table.body.count) bytes")
        }
        var any = false
        for k in 0..<count {
          let at = table.body.startIndex + 8 + k * width
          let offset =
            width == 4
            ? UInt64(MP4Box.be32(boxes[...], at))
            : UInt64(MP4Box.be32(boxes[...], at)) << 32 | UInt64(MP4Box.be32(boxes[...], at + 4))
          guard offset >= UInt64(max(shiftFrom, 0)) else { continue }
          // growth may be negative (the old tag was larger); an offset stays past moov's end.
          let shifted = growth >= 0 ? offset &+ UInt64(growth) : offset &- UInt64(-growth)
          if width == 4 {
            guard growth < 0 || shifted <= UInt64(UInt32.max) else {
              throw MP4Box.Failure("a chunk offset would pass 4 GB in stco: write the clip with moov at its end")
            }
            moov.replaceSubrange(at..<(at + 4), with: MP4Box.be32Bytes(UInt32(truncatingIfNeeded: shifted)))
          } else {
            guard growth < 0 || shifted >= offset else { throw MP4Box.Failure("a chunk offset would pass 2⁶⁴ in co64") }
            moov.replaceSubrange(
              at..<(at + 8),
              with: MP4Box.be32Bytes(UInt32(truncatingIfNeeded: shifted >> 32))
                + MP4Box.be32Bytes(UInt32(truncatingIfNeeded: shifted)))
          }
          any = true
        }
        if any { moved += 1 }
      }
    }
    return moved
  }
}
