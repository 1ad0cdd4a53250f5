import CoreMath

/// Google's Photo Sphere XMP fields (namespace `GPano`), which tell a partial panorama where
/// it sits in the full sphere.
public struct GPano: Hashable, Sendable {
  /// `GPano:ProjectionType` as written (`equirectangular`, `cylindrical`, …).
  public var projectionType: String?
  /// `GPano:FullPanoWidthPixels`: the full panorama's width, in pixels.
  public var fullPanoWidth: Int?
  /// `GPano:FullPanoHeightPixels`: the full panorama's height, in pixels.
  public var fullPanoHeight: Int?
  /// `GPano:CroppedAreaLeftPixels`: pixels from the full panorama's left edge to this image's.
  public var croppedLeft: Int?
  /// `GPano:CroppedAreaTopPixels`: pixels from the full panorama's top edge to this image's.
  public var croppedTop: Int?
  /// `GPano:CroppedAreaImageWidthPixels`: this image's width, in pixels of the full panorama.
  public var croppedWidth: Int?
  /// `GPano:CroppedAreaImageHeightPixels`: this image's height, in pixels of the full panorama.
  public var croppedHeight: Int?

  /// Reads the fields from an XMP packet, as attributes (`GPano:X="1"`) or elements
  /// (`<GPano:X>1</GPano:X>`). `nil` when none is there.
  public init?(xmp: String) {
    func field(_ name: String) -> String? {
      let text = xmp
      if let r = text.range(of: "GPano:\(name)=\"") {
        let rest = text[r.upperBound...]
        return rest.firstIndex(of: "\"").map { String(rest[..<$0]) }
      }
      if let r = text.range(of: "<GPano:\(name)>") {
        let rest = text[r.upperBound...]
        return rest.firstIndex(of: "<").map { String(rest[..<$0]) }
      }
      return nil
    }
    func int(_ name: String) -> Int? { field(name).flatMap { Int($0.trimmingSpaces) } }
    projectionType = field("ProjectionType")
    fullPanoWidth = int("FullPanoWidthPixels")
    fullPanoHeight = int("FullPanoHeightPixels")
    croppedLeft = int("CroppedAreaLeftPixels")
    croppedTop = int("CroppedAreaTopPixels")
    croppedWidth = int("CroppedAreaImageWidthPixels")
    croppedHeight = int("CroppedAreaImageHeightPixels")
    if projectionType == nil && fullPanoWidth == nil && croppedWidth == nil { return nil }
  }

  /// The panorama geometry of an image of `width`×`height` carrying these fields; plain
  /// full-panorama geometry for fields that are missing or inconsistent.
  public func geometry(width: Int, height: Int, projection: SourceProjection = .equirectangular) -> PanoramaGeometry {
    guard let fw = fullPanoWidth, fw > 0 else { return PanoramaGeometry(projection: projection, width: width, height: height) }
    let cw = croppedWidth ?? width, ch = croppedHeight ?? height
    let fh = fullPanoHeight ?? fw / 2
    let left = croppedLeft ?? (fw - cw) / 2, top = croppedTop ?? (fh - ch) / 2
    // The crop must lie in the full panorama (its left edge may wrap past 360°), and no
    // real panorama is 16 M pixels wide: otherwise the fields are ignored.
    guard cw > 0, ch > 0, cw <= fw, ch <= fh, fw <= 1 << 24, fh <= 1 << 24, left >= 0, left < fw, top >= 0,
      top <= fh - ch
    else {
      return PanoramaGeometry(projection: projection, width: width, height: height)
    }
    return PanoramaGeometry(
      projection: projection, fullWidth: Double(fw), fullHeight: Double(fh), croppedLeft: Double(left),
      croppedTop: Double(top), croppedWidth: Double(cw), croppedHeight: Double(ch))
  }
}

extension PanoramaGeometry {
  /// The geometry of a `width`×`height` image: from its GPano fields when they give the
  /// full panorama's size, otherwise assumed from its shape (`assumed`), with the reason in
  /// words (`pano info`'s `coverage`). Every host loads panoramas through this.
  public static func of(
    width: Int, height: Int, gpano: GPano?, projection: SourceProjection? = nil
  ) -> (geometry: PanoramaGeometry, coverage: String) {
    let fromFile: SourceProjection? = gpano?.projectionType.flatMap {
      $0 == "cylindrical" ? .cylindrical : ($0 == "equirectangular" ? .equirectangular : nil)
    }
    let chosen = projection ?? fromFile ?? .equirectangular
    if let gpano, gpano.fullPanoWidth != nil {
      return (gpano.geometry(width: width, height: height, projection: chosen), "from the image's GPano metadata")
    }
    let shape = assumed(width: width, height: height, projection: chosen)
    return (shape.geometry, shape.reason)
  }
}

/// The XMP packet of a PNG file (an `iTXt` chunk keyed `XML:com.adobe.xmp`, uncompressed),
/// read without a PNG library, for hosts that decode pixels elsewhere (the page).
public enum PNGMetadata {
  /// The XMP packet's text, or `nil` when `bytes` is not a PNG, has none before the image data, or its chunk is compressed or cut short.
  public static func xmp(_ bytes: [UInt8]) -> String? {
    guard bytes.count > 8, bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) else { return nil }
    var i = 8
    while i + 12 <= bytes.count {
      let length = Int(bytes[i]) << 24 | Int(bytes[i + 1]) << 16 | Int(bytes[i + 2]) << 8 | Int(bytes[i + 3])
      let type = String(decoding: bytes[(i + 4)..<(i + 8)], as: UTF8.self)
      guard length >= 0, i + 12 + length <= bytes.count else { return nil }
      let body = bytes[(i + 8)..<(i + 8 + length)]
      if type == "IDAT" || type == "IEND" { return nil }
      if type == "iTXt", body.starts(with: Array("XML:com.adobe.xmp\0".utf8)) {
        // keyword, NUL, compression flag, method, language NUL, translated keyword NUL, text.
        var k = body.startIndex + 18
        guard k + 2 <= body.endIndex, body[k] == 0 else { return nil }
        k += 2
        for _ in 0..<2 {
          guard let nul = body[k...].firstIndex(of: 0) else { return nil }
          k = nul + 1
        }
        return String(decoding: body[k...], as: UTF8.self)
      }
      i += 12 + length
    }
    return nil
  }
}

extension String {
  var trimmingSpaces: String {
    var s = Substring(self)
    while s.first == " " || s.first == "\n" { s = s.dropFirst() }
    while s.last == " " || s.last == "\n" { s = s.dropLast() }
    return String(s)
  }

  func range(of needle: String) -> Range<String.Index>? {
    guard !needle.isEmpty else { return nil }
    var i = startIndex
    while i < endIndex {
      if self[i...].hasPrefix(needle) { return i..<index(i, offsetBy: needle.count) }
      i = index(after: i)
    }
    return nil
  }
}

/// The bits of a JPEG's APP1 segments we use: EXIF orientation and the XMP packet.
public struct JPEGMetadata: Sendable {
  /// The EXIF orientation tag, 1 to 8 (1: upright; also when there is no tag).
  public var orientation = 1
  /// The XMP packet's text (the APP1 segment after `http://ns.adobe.com/xap/1.0/`), if any.
  public var xmp: String?

  /// Reads the marker segments of JPEG file `bytes` up to the start of scan; reading stops at a malformed or cut-short segment, keeping what came before.
  public init(_ bytes: [UInt8]) {
    var i = 2
    // Walk the marker segments up to the start of scan; every length is bounds-checked.
    while i + 4 <= bytes.count, bytes[i] == 0xFF {
      let marker = bytes[i + 1]
      if marker == 0xDA || marker == 0xD9 { break }
      let length = Int(bytes[i + 2]) << 8 | Int(bytes[i + 3])
      guard length >= 2, i + 2 + length <= bytes.count else { break }
      let body = Array(bytes[(i + 4)..<(i + 2 + length)])
      if marker == 0xE1 {
        if body.starts(with: Array("Exif\0\0".utf8)) {
          orientation = Self.exifOrientation(Array(body.dropFirst(6))) ?? 1
        } else if body.starts(with: Array("http://ns.adobe.com/xap/1.0/\0".utf8)) {
          xmp = String(decoding: body.dropFirst(29), as: UTF8.self)
        }
      }
      i += 2 + length
    }
  }

  /// Tag 0x0112 of IFD0 in a TIFF block, either byte order.
  static func exifOrientation(_ tiff: [UInt8]) -> Int? {
    guard tiff.count >= 8 else { return nil }
    let little = tiff[0] == 0x49
    func u16(_ o: Int) -> Int? {
      guard o + 2 <= tiff.count else { return nil }
      return little ? Int(tiff[o]) | Int(tiff[o + 1]) << 8 : Int(tiff[o]) << 8 | Int(tiff[o + 1])
    }
    func u32(_ o: Int) -> Int? {
      guard let a = u16(o), let b = u16(o + 2) else { return nil }
      return little ? a | b << 16 : a << 16 | b
    }
    guard let ifd = u32(4), let count = u16(ifd), count < 1000 else { return nil }
    for e in 0..<count {
      let entry = ifd + 2 + e * 12
      guard let tag = u16(entry) else { return nil }
      if tag == 0x0112, let value = u16(entry + 8), (1...8).contains(value) { return value }
    }
    return nil
  }
}
