/// Reads a 360° clip's spherical metadata from the boxes of an ISO BMFF file (MP4, MOV)
/// without libavformat, for hosts that have only bytes (the web viewer fetches them with
/// `Range:` requests). It gives the same `SphericalVideo` as `VideoDecoder.spherical` does
/// from libavformat's side data: V2's `st3d` and `sv3d` in the video track's sample entry,
/// else V1's `GSpherical` XML in the spherical `uuid` box.
///
/// A small state machine, because `moov` often sits after `mdat` at the end of a large
/// file: `next` says which bytes it needs (the first 64 KB, then top-level box headers
/// further on, then the `moov` box), the host reads them and calls `feed`; it ends in
/// `.done`, with a `SphericalVideo` or the reason there is none. It asks for at most 64
/// top-level headers and a `moov` of at most 16 MB; a box whose size runs past its parent
/// is refused; the walk inside `moov` follows one fixed path (trak/mdia/minf/stbl/stsd/
/// entry/sv3d/proj), so its depth is bounded; bad bytes end in a reason, never a trap.
public struct MP4SphericalReader: Sendable {
  /// What the host does next: read some bytes, or stop.
  public enum Step: Hashable, Sendable {
    /// Read `count` bytes at `offset` (fewer where the file ends) and `feed` them.
    case need(offset: Int64, count: Int)
    /// Finished: the metadata, or nil and why not.
    case done(SphericalVideo?, reason: String)
  }

  /// Bytes the first read asks for, from offset 0 (64 KiB).
  public static let firstRead = 65_536
  /// The largest `moov` box read, in bytes (16 MiB); a larger one ends with a reason.
  public static let maxMoov = 16 << 20
  static let maxTopLevelBoxes = 64

  /// What to read next: a first read of ``firstRead`` bytes at offset 0 until something is fed.
  public private(set) var next: Step = .need(offset: 0, count: firstRead)
  /// The file's length when the host knows it (a `Content-Range` total): top-level boxes
  /// must end within it, and a `moov` of size 0 ("to the end") is read to it.
  public var fileSize: Int64?
  /// The video sample entry's frame size, once `moov` is read (for `SphericalVideo.assumed`).
  public private(set) var frameSize: (width: Int, height: Int)?
  /// The video sample entry's codec, once `moov` is read: an RFC 6381 string
  /// (`hvc1.1.6.L93.B0`, `avc1.64001F`) where its config box gives one, else the entry's
  /// type (`vp09`, `av01`). The web viewer asks the browser whether it plays it.
  public private(set) var codec: String?
  /// The `moov` box's place in the file, once its header is read: where the box starts and
  /// its whole length (header included; a size-0 box runs to ``fileSize``, or `nil` when
  /// that is unknown). ``MP4SphericalTagger`` rewrites the box found here.
  public private(set) var moovBox: (offset: Int64, size: Int64?)?
  var boxesSeen = 0
  enum Phase: Sendable { case head, header, moov }
  var phase = Phase.head

  /// A reader at the start of a file of `fileSize` bytes (`nil` when the host does not know it).
  public init(fileSize: Int64? = nil) { self.fileSize = fileSize }

  /// The bytes the host read for `next` (`bytes` start at its offset; fewer than asked for
  /// means the file ends there). Ignored once done.
  public mutating func feed(_ bytes: [UInt8]) {
    guard case .need(let offset, let count) = next else { return }
    let fed = count < bytes.count ? Array(bytes[..<count]) : bytes
    switch phase {
    case .head, .header: next = topLevel(fed, base: offset, from: offset)
    case .moov: next = readMoov(fed[...], expected: count)
    }

  }

  /// Gives up (a host's read failed): `next` becomes `.done(nil, reason)`.
  public mutating func fail(_ reason: String) { next = .done(nil, reason: reason) }

  static let headerRead = 16

  /// Walks top-level box headers in `bytes` (which hold the file from `base`) starting at
  /// `from`, until `moov`, the end of what is in hand, or a bad header.
  mutating func topLevel(_ bytes: [UInt8], base: Int64, from start: Int64) -> Step {
    var at = start
    while true {
      let i = at - base
      guard i >= 0, i + 8 <= Int64(bytes.count) else {
        // The header is not in hand: the file ends here when the last read came up short.
        let shortRead = bytes.count < (phase == .head ? Self.firstRead : Self.headerRead)
        if shortRead || (fileSize.map { at >= $0 } ?? false) {
          return .done(nil, reason: "no moov box in the file's \(boxesSeen) top-level boxes")
        }
        phase = .header
        return .need(offset: at, count: Self.headerRead)
      }
      boxesSeen += 1
      guard boxesSeen <= Self.maxTopLevelBoxes else {
        return .done(nil, reason: "no moov box in the first \(Self.maxTopLevelBoxes) top-level boxes")
      }
      let h = Int(i)
      let type = Array(bytes[(h + 4)..<(h + 8)])
      guard type.allSatisfy({ $0 >= 0x20 && $0 <= 0x7E }) else {
        return .done(nil, reason: "not an ISO BMFF file: no box header at byte \(at)")
      }
      var size = Int64(MP4Box.be32(bytes[...], h))
      var headerSize: Int64 = 8
      if size == 1 {
        guard h + 16 <= bytes.count else {
          let shortRead = bytes.count < (phase == .head ? Self.firstRead : Self.headerRead)
          if shortRead { return .done(nil, reason: "the file ends inside the box header at byte \(at)") }
          phase = .header
          return .need(offset: at, count: Self.headerRead)
        }
        let large = UInt64(MP4Box.be32(bytes[...], h + 8)) << 32 | UInt64(MP4Box.be32(bytes[...], h + 12))
        guard large <= UInt64(Int64.max) else { return .done(nil, reason: "box at byte \(at) claims \(large) bytes") }
        size = Int64(large)
        headerSize = 16
      }
      let name = MP4Box.name(type)
      // A 64-bit size near Int64.max would overflow the offset arithmetic below (a trap).
      guard size <= Int64.max - at - headerSize else {
        return .done(nil, reason: "box '\(name)' at byte \(at) claims \(size) bytes, past any file's end")
      }
      guard size == 0 || size >= headerSize else {
        return .done(nil, reason: "box '\(name)' at byte \(at) has size \(size), shorter than its header")
      }
      if let fileSize, size > 0, at + size > fileSize {
        return .done(nil, reason: "box '\(name)' at byte \(at) claims \(size) bytes, past the file's end (\(fileSize) bytes)")
      }
      if name == "moov" {
        moovBox = (at, size > 0 ? size : fileSize.map { $0 - at })
        let bodyStart = at + headerSize
        var length: Int64
        if size == 0 {
          length = fileSize.map { $0 - bodyStart } ?? Int64(Self.maxMoov)
        } else {
          length = size - headerSize
        }
        guard length <= Int64(Self.maxMoov) else {
          return .done(nil, reason: "moov of \(length) bytes, over the 16 MB this reader reads")
        }
        if length < 0 { length = 0 }
        // All of it already in hand (faststart files, small clips): no second read.
        if bodyStart - base + length <= Int64(bytes.count) {
          let from = Int(bodyStart - base)
          return readMoov(bytes[from..<(from + Int(length))], expected: Int(length))
        }
        phase = .moov
        return .need(offset: bodyStart, count: Int(length))
      }
      guard size > 0 else { return .done(nil, reason: "no moov box: '\(name)' at byte \(at) runs to the file's end") }
      at += size
    }
  }

  /// Reads the `moov` box's body (`expected` bytes; fewer means the file ends inside it).
  mutating func readMoov(_ moov: ArraySlice<UInt8>, expected: Int) -> Step {
    guard moov.count >= expected || expected == Self.maxMoov else {
      return .done(nil, reason: "the file ends inside moov (\(moov.count) of \(expected) bytes)")
    }
    do throws(MP4Box.Failure) {
      return try parse(moov: moov)
    } catch {
      return .done(nil, reason: error.message)
    }
  }

  mutating func parse(moov: ArraySlice<UInt8>) throws(MP4Box.Failure) -> Step {
    var v1Anywhere: ArraySlice<UInt8>?
    for box in try MP4Box.children(moov) where box.type == "uuid" && MP4Box.isSphericalUUID(box.body) {
      v1Anywhere = box.body.dropFirst(16)
    }
    for trak in try MP4Box.children(moov) where trak.type == "trak" {
      let trakBoxes = try MP4Box.children(trak.body)
      guard let mdia = trakBoxes.first(where: { $0.type == "mdia" }) else { continue }
      let mdiaBoxes = try MP4Box.children(mdia.body)
      // hdlr: full box (4), pre_defined (4), handler_type (4).
      guard let hdlr = mdiaBoxes.first(where: { $0.type == "hdlr" }), hdlr.body.count >= 12,
        MP4Box.name(Array(hdlr.body.dropFirst(8).prefix(4))) == "vide"
      else { continue }
      var v1 = v1Anywhere
      for box in trakBoxes where box.type == "uuid" && MP4Box.isSphericalUUID(box.body) { v1 = box.body.dropFirst(16) }
      guard let minf = mdiaBoxes.first(where: { $0.type == "minf" }),
        let stbl = try MP4Box.children(minf.body).first(where: { $0.type == "stbl" }),
        let stsd = try MP4Box.children(stbl.body).first(where: { $0.type == "stsd" })
      else { throw MP4Box.Failure("the video track has no mdia/minf/stbl/stsd") }
      // stsd: full box (4), entry count (4), then the sample entries; the first one speaks.
      guard stsd.body.count >= 8 else { throw MP4Box.Failure("the video track's stsd is \(stsd.body.count) bytes") }
      let entries = stsd.body.dropFirst(8)
      guard let entry = try MP4Box.children(entries, lenient: true).first else {
        throw MP4Box.Failure("the video track's stsd has no sample entry")
      }
      // A VisualSampleEntry: 78 bytes of fields (width and height at 24 and 26), then boxes.
      guard entry.body.count >= 78 else {
        throw MP4Box.Failure("the video sample entry '\(entry.type)' is \(entry.body.count) bytes, under 78")
      }
      let b = entry.body.startIndex
      frameSize = (
        Int(entry.body[b + 24]) << 8 | Int(entry.body[b + 25]), Int(entry.body[b + 26]) << 8 | Int(entry.body[b + 27])
      )
      // Boxes after a codec's own (avcC, hvcC…) may be followed by padding: lenient.
      let inner = try MP4Box.children(entry.body.dropFirst(78), lenient: true)
      codec = Self.codecString(entry.type, inner.first(where: { $0.type == "hvcC" || $0.type == "avcC" })?.body)
      return try Self.spherical(
        st3d: inner.first(where: { $0.type == "st3d" })?.body, sv3d: inner.first(where: { $0.type == "sv3d" })?.body,
        v1: v1, frameSize: frameSize!)
    }
    throw MP4Box.Failure("no video track (a trak whose hdlr is 'vide') in moov")
  }

  /// RFC 6381's codec string of a sample entry of type `type` whose `hvcC` or `avcC` box
  /// body is `config` (ISO/IEC 14496-15): HEVC's profile, compatibility flags (bit-reversed),
  /// tier, level and constraint bytes; AVC's profile, constraints and level. Otherwise `type`.
  static func codecString(_ type: String, _ config: ArraySlice<UInt8>?) -> String {
    let hex = "0123456789ABCDEF".utf8.map { $0 }
    func hexText(_ value: UInt64, digits: Int = 0) -> String {
      var out: [UInt8] = []
      var v = value
      repeat {
        out.insert(hex[Int(v & 15)], at: 0)
        v >>= 4
      } while v != 0
      while out.count < digits { out.insert(UInt8(ascii: "0"), at: 0) }
      return String(decoding: out, as: UTF8.self)
    }
    guard let c = config else { return type }
    let b = c.startIndex
    if type == "hvc1" || type == "hev1", c.count >= 13 {
      let space = c[b + 1] >> 6, tier = (c[b + 1] >> 5) & 1, profile = c[b + 1] & 31
      var flags: UInt32 = 0
      for i in 0..<4 { flags = flags << 8 | UInt32(c[b + 2 + i]) }
      var reversed: UInt32 = 0
      for i in 0..<32 where flags & (1 << i) != 0 { reversed |= 1 << (31 - i) }
      var constraints = Array(c[(b + 6)..<(b + 12)])
      while let last = constraints.last, last == 0 { constraints.removeLast() }
      var text = type + "." + (space == 0 ? "" : String(decoding: [UInt8(ascii: "A") + space - 1], as: UTF8.self))
      text += "\(profile)." + hexText(UInt64(reversed)) + "." + (tier == 0 ? "L" : "H") + "\(c[b + 12])"
      for byte in constraints { text += "." + hexText(UInt64(byte), digits: 2) }
      return text
    }
    if type == "avc1" || type == "avc3", c.count >= 4 {
      return type + "." + hexText(UInt64(c[b + 1]), digits: 2) + hexText(UInt64(c[b + 2]), digits: 2)
        + hexText(UInt64(c[b + 3]), digits: 2)
    }
    return type
  }

  /// The metadata from the boxes' bodies, decided as `VideoDecoder.spherical` decides:
  /// V1 (with st3d's stereo) where there is no sv3d, then V2, then stereo alone.
  static func spherical(
    st3d: ArraySlice<UInt8>?, sv3d: ArraySlice<UInt8>?, v1: ArraySlice<UInt8>?, frameSize: (width: Int, height: Int)
  ) throws(MP4Box.Failure) -> Step {
    var stereo = SphericalVideo.Stereo.mono
    if let st3d {
      // Full box (4), stereo_mode (1).
      guard st3d.count >= 5 else { throw MP4Box.Failure("st3d of \(st3d.count) bytes") }
      switch st3d[st3d.startIndex + 4] {
      case 1: stereo = .topBottom
      case 2: stereo = .leftRight
      default: stereo = .mono
      }
    }
    if sv3d == nil, let v1 {
      do throws(SphericalVideo.V1Error) {
        var video = try SphericalVideo.parseV1(Array(v1))
        if stereo != .mono { video.stereo = stereo }
        return .done(video, reason: "")
      } catch {
        if st3d == nil { return .done(nil, reason: "Spherical Video V1 XML refused: \(error.message)") }
      }
    }
    if let sv3d {
      var video = SphericalVideo(source: "Spherical Video V2 (sv3d\(st3d != nil ? ", st3d" : ""))")
      video.stereo = stereo
      // libavformat's order: svhd first, then proj holding prhd and then the projection.
      let boxes = try MP4Box.children(sv3d)
      guard boxes.first?.type == "svhd" else { throw MP4Box.Failure("sv3d without its svhd header first") }
      guard let proj = boxes.first(where: { $0.type == "proj" }) else { throw MP4Box.Failure("sv3d without a proj box") }
      let inside = try MP4Box.children(proj.body)
      guard let prhd = inside.first, prhd.type == "prhd", prhd.body.count >= 16 else {
        throw MP4Box.Failure("proj without a 16-byte prhd first")
      }
      // Full box (4), then yaw, pitch, roll: signed 16.16 degrees.
      func degrees(_ k: Int) -> Double {
        let raw = Int32(bitPattern: MP4Box.be32(prhd.body, prhd.body.startIndex + 4 + 4 * k))
        return Double(raw) / 65536 * Double.pi / 180
      }
      video.pose = ViewAngles(yaw: degrees(0), pitch: degrees(1), roll: degrees(2))
      guard let kind = inside.dropFirst().first(where: { ["equi", "cbmp", "mshp"].contains($0.type) }) else {
        throw MP4Box.Failure("proj names no equi, cbmp or mshp projection")
      }
      switch kind.type {
      case "equi":
        // Full box (4), then bounds top, bottom, left, right as 0.32 fractions.
        guard kind.body.count >= 20 else { throw MP4Box.Failure("equi of \(kind.body.count) bytes") }
        let s = kind.body.startIndex + 4
        let t = MP4Box.be32(kind.body, s), bottom = MP4Box.be32(kind.body, s + 4)
        let l = MP4Box.be32(kind.body, s + 8), r = MP4Box.be32(kind.body, s + 12)
        // libavformat refuses bounds that overlap.
        guard bottom < UInt32.max - t, r < UInt32.max - l else { throw MP4Box.Failure("equi bounds overlap") }
        func fraction(_ x: UInt32) -> Double { Double(x) / 4_294_967_296 }
        video.cropTop = fraction(t)
        video.cropBottom = fraction(bottom)
        video.cropLeft = fraction(l)
        video.cropRight = fraction(r)
      case "cbmp": video.projection = .cubemap
      default: video.projection = .mesh
      }
      return .done(video, reason: "")
    }
    if stereo != .mono {
      var video = SphericalVideo(source: "stereo (\(stereo.rawValue)) with no spherical metadata; assumed equirectangular")
      video.stereo = stereo
      return .done(video, reason: "")
    }
    return .done(nil, reason: "no spherical metadata (no sv3d, stereo st3d or V1 uuid box) in the video track")
  }
}

/// ISO BMFF boxes within a parent's bytes: the one walker ``MP4SphericalReader`` and
/// ``MP4SphericalTagger`` share, so there is one walk of the boxes to keep safe.
public enum MP4Box {
  /// What is wrong with the boxes, in words that name the box.
  public struct Failure: Error, Sendable {
    /// The reason, naming the box.
    public var message: String
    init(_ message: String) { self.message = message }
  }

  struct Child {
    var type: String
    /// The box's body; its indices are those of the bytes walked.
    var body: ArraySlice<UInt8>
    /// The header's length: 8, or 16 with a 64-bit size.
    var header: Int
    /// Where the box starts (its header), in the bytes walked.
    var start: Int { body.startIndex - header }
    /// Where the box ends, in the bytes walked.
    var end: Int { body.endIndex }
    /// The whole box's length, header included.
    var size: Int { body.count + header }
  }

  static let maxChildren = 4096

  /// The boxes in `bytes`, in order. Each must fit in `bytes` (size 0 runs to its end);
  /// `lenient` stops quietly at trailing bytes too short or zero to be a box (padding after
  /// a sample entry's boxes) instead of refusing them.
  static func children(_ bytes: ArraySlice<UInt8>, lenient: Bool = false) throws(Failure) -> [Child] {
    var out: [Child] = []
    var i = bytes.startIndex
    while i < bytes.endIndex {
      guard i + 8 <= bytes.endIndex else {
        if lenient { break }
        throw Failure("\(bytes.endIndex - i) stray bytes where a box header should be")
      }
      var size = Int64(be32(bytes, i))
      var header = 8
      if size == 1 {
        guard i + 16 <= bytes.endIndex else { throw Failure("a 64-bit box header cut short") }
        let large = UInt64(be32(bytes, i + 8)) << 32 | UInt64(be32(bytes, i + 12))
        size = large > UInt64(Int64.max) ? Int64.max : Int64(large)
        header = 16
      } else if size == 0 {
        if lenient && be32(bytes, i + 4) == 0 { break }
        size = Int64(bytes.endIndex - i)
      }
      let type = name(Array(bytes[(i + 4)..<(i + 8)]))
      guard size >= Int64(header), size <= Int64(bytes.endIndex - i) else {
        throw Failure("box '\(type)' of \(size) bytes runs past its parent (\(bytes.endIndex - i) bytes left)")
      }
      out.append(Child(type: type, body: bytes[(i + header)..<(i + Int(size))], header: header))
      guard out.count <= maxChildren else { throw Failure("over \(maxChildren) boxes in one parent") }
      i += Int(size)
    }
    return out
  }

  /// A four-character code as text (bytes outside printable ASCII as '?').
  static func name(_ type: [UInt8]) -> String {
    String(decoding: type.map { $0 >= 0x20 && $0 <= 0x7E ? $0 : UInt8(ascii: "?") }, as: UTF8.self)
  }

  static func be32(_ b: ArraySlice<UInt8>, _ i: Int) -> UInt32 {
    UInt32(b[i]) << 24 | UInt32(b[i + 1]) << 16 | UInt32(b[i + 2]) << 8 | UInt32(b[i + 3])
  }

  /// `v` as four big-endian bytes.
  static func be32Bytes(_ v: UInt32) -> [UInt8] {
    [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]
  }

  static let sphericalUUID: [UInt8] = [
    0xFF, 0xCC, 0x82, 0x63, 0xF8, 0x55, 0x4A, 0x93, 0x88, 0x14, 0x58, 0x7A, 0x02, 0x52, 0x1F, 0xDD,
  ]

  static func isSphericalUUID(_ body: ArraySlice<UInt8>) -> Bool {
    body.count >= 16 && body.prefix(16).elementsEqual(sphericalUUID)
  }
}
