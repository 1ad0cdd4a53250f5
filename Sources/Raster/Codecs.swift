import CSpng
import CTurboJPEG
import Panorama

#if canImport(Glibc)
  import Glibc
#endif

/// Why an image could not be read or written. `message` carries the codec's own words,
/// copied when the call failed.
public struct RasterError: Error, Equatable, Sendable, CustomStringConvertible {
  /// What went wrong, for a caller that handles the cases apart.
  public enum Kind: Equatable, Sendable {
    /// Neither a JPEG nor a PNG (by the first bytes, or a file name's extension), or empty bytes.
    case unknownFormat
    /// Over one of the ``ImageLimits``: refused from the header, before allocating.
    case tooLarge
    /// A header that says 0 pixels wide or high.
    case empty
    /// Damaged or cut data; the message carries the codec's own words.
    case corrupt
    /// The encoder failed.
    case encode
  }
  /// What went wrong.
  public var kind: Kind
  /// One line for a user: what is wrong, with the codec's message or the limit broken.
  public var message: String

  /// An error of `kind` saying `message`.
  public init(_ kind: Kind, _ message: String) {
    self.kind = kind
    self.message = message
  }

  /// The ``message``.
  public var description: String { message }
}

/// Limits checked against the header before anything is allocated.
public struct ImageLimits: Hashable, Sendable {
  /// Largest width or height.
  public var maxDimension: Int
  /// Largest width × height.
  public var maxPixels: Int

  /// Largest memory a decode may hold, in bytes: the decoded pixels and what the decoder
  /// itself buffers (a progressive JPEG keeps 2 bytes a sample of every component until
  /// its last scan), checked from the header before either is allocated. `pano tiles
  /// --max-memory` sets it.
  public var maxMemory: Int
  /// Most scans a JPEG may have (TurboJPEG 3's `TJPARAM_SCANLIMIT`): each scan of a
  /// progressive JPEG is a pass over the whole image; encoders write about 10.
  public var maxScans: Int

  /// 32 768 px a side, 160 M pixels (a 16384×8192 panorama fits; 640 MB decoded), 2 GB
  /// held, 500 scans.
  public init(maxDimension: Int = 32_768, maxPixels: Int = 160_000_000, maxMemory: Int = 2048 << 20, maxScans: Int = 500) {
    self.maxDimension = maxDimension
    self.maxPixels = maxPixels
    self.maxMemory = maxMemory
    self.maxScans = maxScans
  }

  /// `maxPixels` as a message gives it: "160 megapixels", "0.5 megapixels", or under a tenth
  /// of a megapixel, where the rounded figure would read "0 megapixels", "1000 pixels".
  var pixelLimit: String {
    maxPixels < 100_000 ? "\(maxPixels) pixels" : "\(DecimalPixels.megapixels(maxPixels)) megapixels"
  }

  func check(width: Int, height: Int) throws(RasterError) {
    guard width > 0, height > 0 else { throw RasterError(.empty, "the image is empty (\(width)×\(height))") }
    // Names the one limit broken (both only when both are).
    let sideOver = width > maxDimension || height > maxDimension
    let pixelsOver = width.multipliedReportingOverflow(by: height).overflow || width * height > maxPixels
    guard !sideOver, !pixelsOver else {
      var limits: [String] = []
      if sideOver { limits.append("\(maxDimension) px a side") }
      if pixelsOver { limits.append(pixelLimit) }
      throw RasterError(.tooLarge, "the image is \(width)×\(height), over the limit of \(limits.joined(separator: " and "))")
    }
  }
}

/// A decoded image with what its file said about itself.
public struct DecodedImage: Sendable {
  /// The file formats ``Raster/decode(_:limits:)`` reads.
  public enum Format: String, Sendable { case jpeg, png }
  /// The pixels, 8-bit RGBA, with the EXIF orientation applied (shown upright).
  public var image: RGBAImage
  /// Which format the bytes were.
  public var format: Format
  /// The EXIF orientation that was applied (1 = none).
  public var orientation: Int
  /// Google Photo Sphere XMP fields, if present.
  public var gpano: GPano?
}

/// Image files in and out: JPEG through TurboJPEG, PNG through libspng.
public enum Raster {
  /// Decodes a JPEG or PNG (detected from its first bytes), applying the EXIF orientation.
  public static func decode(_ bytes: [UInt8], limits: ImageLimits = ImageLimits()) throws(RasterError) -> DecodedImage {
    if bytes.count >= 3 && bytes[0] == 0xFF && bytes[1] == 0xD8 && bytes[2] == 0xFF {
      return try decodeJPEG(bytes, limits: limits)
    }
    if bytes.count >= 8 && bytes[0..<8].elementsEqual([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
      return try decodePNG(bytes, limits: limits)
    }
    throw RasterError(.unknownFormat, bytes.isEmpty ? "the file is empty" : "not a JPEG or PNG file")
  }

  /// A JPEG's or PNG's pixel size from its header, without decoding: what a pyramid's tiles
  /// are checked against.
  public static func imageSize(_ bytes: [UInt8], limits: ImageLimits = ImageLimits()) throws(RasterError) -> (
    width: Int, height: Int
  ) {
    if bytes.count >= 3 && bytes[0] == 0xFF && bytes[1] == 0xD8 && bytes[2] == 0xFF {
      let (w, h) = try TurboJPEG(compress: false).size(of: bytes, limits: limits)
      return (Int(w), Int(h))
    }
    if bytes.count >= 24 && bytes[0..<8].elementsEqual([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
      && bytes[12..<16].elementsEqual(Array("IHDR".utf8))
    {
      func u32(_ o: Int) -> Int { Int(bytes[o]) << 24 | Int(bytes[o + 1]) << 16 | Int(bytes[o + 2]) << 8 | Int(bytes[o + 3]) }
      try limits.check(width: u32(16), height: u32(20))
      return (u32(16), u32(20))
    }
    throw RasterError(.unknownFormat, bytes.isEmpty ? "the file is empty" : "not a JPEG or PNG file")
  }

  // MARK: JPEG

  final class TurboJPEG {
    let handle: tjhandle
    init(compress: Bool) throws(RasterError) {
      guard let h = compress ? tjInitCompress() : tjInitDecompress() else {
        throw RasterError(.corrupt, "TurboJPEG: cannot initialise: \(String(cString: tjGetErrorStr2(nil)))")
      }
      handle = h
    }
    deinit { tjDestroy(handle) }

    /// The image's size from its header, refused when over `limits` (before any allocation).
    func size(of bytes: [UInt8], limits: ImageLimits) throws(RasterError) -> (width: Int32, height: Int32) {
      var width: Int32 = 0, height: Int32 = 0, subsampling: Int32 = 0, colorspace: Int32 = 0
      let header = bytes.withUnsafeBufferPointer {
        tjDecompressHeader3(handle, $0.baseAddress, UInt($0.count), &width, &height, &subsampling, &colorspace)
      }
      try check(header, "invalid JPEG header")
      try limits.check(width: Int(width), height: Int(height))
      return (width, height)
    }

    /// Throws with TurboJPEG's own message when `status` is a failure.
    func check(_ status: Int32, _ what: String, kind: RasterError.Kind = .corrupt) throws(RasterError) {
      guard status != 0 else { return }
      throw RasterError(kind, "\(what): \(String(cString: tjGetErrorStr2(handle)))")
    }
  }

  static func decodeJPEG(_ bytes: [UInt8], limits: ImageLimits) throws(RasterError) -> DecodedImage {
    let tj = try TurboJPEG(compress: false)
    _ = try tj.size(of: bytes, limits: limits)
    // libjpeg's scanline decoder, not tjDecompress2: its memory and scans are bounded
    // before it allocates (TurboJPEG 2 has no such limits).
    let rows = try JPEGRows(bytes: bytes, limits: limits)
    try rows.start(limits: limits, plus: rows.width * rows.height * 4)
    let image = try rows.readAll()
    let metadata = JPEGMetadata(bytes)
    return DecodedImage(
      image: image.oriented(exif: metadata.orientation), format: .jpeg, orientation: metadata.orientation,
      gpano: metadata.xmp.flatMap(GPano.init(xmp:)))
  }

  /// Encodes RGBA pixels as a baseline JPEG (4:2:0, `quality` 1–100).
  /// Throws `.encode` for an image with no pixels or a side over 65 535 (JPEG's limit).
  public static func encodeJPEG(_ image: RGBAImage, quality: Int = 90) throws(RasterError) -> [UInt8] {
    // Refused here, naming the size: TurboJPEG only says "Invalid argument", and an empty
    // pixel array need not have a base address to force-unwrap.
    guard image.width > 0, image.height > 0, image.width <= 65_535, image.height <= 65_535 else {
      throw RasterError(.encode, "cannot encode JPEG: the image is \(image.width)×\(image.height)")
    }
    let tj = try TurboJPEG(compress: true)
    var buffer: UnsafeMutablePointer<UInt8>?
    var size: UInt = 0
    let status = image.pixels.withUnsafeBytes { src in
      tjCompress2(
        tj.handle, src.baseAddress!.assumingMemoryBound(to: UInt8.self), Int32(image.width), 0, Int32(image.height),
        Int32(TJPF_RGBA.rawValue), &buffer, &size, Int32(TJSAMP_420.rawValue), Int32(min(max(quality, 1), 100)), 0)
    }
    defer { if let buffer { tjFree(buffer) } }
    try tj.check(status, "cannot encode JPEG", kind: .encode)
    guard let buffer else { throw RasterError(.encode, "cannot encode JPEG: no output") }
    return Array(UnsafeBufferPointer(start: buffer, count: Int(size)))
  }

  // MARK: PNG

  final class SpngContext {
    let ctx: OpaquePointer
    init(encoder: Bool) throws(RasterError) {
      guard let c = spng_ctx_new(encoder ? Int32(SPNG_CTX_ENCODER.rawValue) : 0) else {
        throw RasterError(.corrupt, "libspng: cannot create a context")
      }
      ctx = c
    }
    deinit { spng_ctx_free(ctx) }

    func check(_ status: Int32, _ what: String, kind: RasterError.Kind = .corrupt) throws(RasterError) {
      guard status != 0 else { return }
      throw RasterError(kind, "\(what): \(String(cString: spng_strerror(status)))")
    }
  }

  static func decodePNG(_ bytes: [UInt8], limits: ImageLimits) throws(RasterError) -> DecodedImage {
    let png = try SpngContext(encoder: false)
    try png.check(spng_set_image_limits(png.ctx, UInt32(limits.maxDimension), UInt32(limits.maxDimension)), "PNG limits")
    // Ancillary chunks (text, ICC…) may not make us allocate more than this.
    try png.check(spng_set_chunk_limits(png.ctx, 16 << 20, 64 << 20), "PNG limits")
    // The C context keeps a pointer into the buffer, so all of decoding runs inside this closure.
    let result = bytes.withUnsafeBytes { raw in
      Result { () throws(RasterError) -> DecodedImage in
        try png.check(spng_set_png_buffer(png.ctx, raw.baseAddress, raw.count), "invalid PNG")
        var ihdr = spng_ihdr()
        try png.check(spng_get_ihdr(png.ctx, &ihdr), "invalid PNG header")
        try limits.check(width: Int(ihdr.width), height: Int(ihdr.height))
        var size = 0
        try png.check(spng_decoded_image_size(png.ctx, Int32(SPNG_FMT_RGBA8.rawValue), &size), "invalid PNG")
        guard size == Int(ihdr.width) * Int(ihdr.height) * 4 else { throw RasterError(.corrupt, "invalid PNG: unexpected size") }
        var image = RGBAImage(width: Int(ihdr.width), height: Int(ihdr.height))
        let status = image.pixels.withUnsafeMutableBytes {
          spng_decode_image(png.ctx, $0.baseAddress, size, Int32(SPNG_FMT_RGBA8.rawValue), Int32(SPNG_DECODE_TRNS.rawValue))
        }
        try png.check(status, "corrupt PNG data")
        return DecodedImage(image: image, format: .png, orientation: 1, gpano: pngXMP(png).flatMap(GPano.init(xmp:)))
      }
    }
    return try result.get()
  }

  static func pngXMP(_ png: SpngContext) -> String? {
    var count: UInt32 = 0
    guard spng_get_text(png.ctx, nil, &count) == 0, count > 0, count < 1000 else { return nil }
    var texts = [spng_text](repeating: spng_text(), count: Int(count))
    guard spng_get_text(png.ctx, &texts, &count) == 0 else { return nil }
    for var t in texts {
      let keyword = withUnsafeBytes(of: &t.keyword) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
      if keyword == "XML:com.adobe.xmp", let text = t.text {
        return String(decoding: UnsafeRawBufferPointer(start: text, count: t.length), as: UTF8.self)
      }
    }
    return nil
  }

  /// Encodes a PNG (8-bit RGBA), its bands filtered and deflated on `executor`'s threads
  /// (`PNGEncoder`). Paeth-filtered rows with zlib's run-length strategy, measured on an
  /// 8192×4096 render (AMD EPYC): a noisy photo took 3.1 s and 46.4 MB on one thread through
  /// libspng against 16.9 s and 47.8 MB with its default (level 6, every filter tried per
  /// row), a smooth one 0.96 s and 1.0 MB against 2.6 s and 0.85 MB; the Sub filter alone was
  /// faster (2.0 s) but 23 % bigger on the photo. libspng still decodes.
  public static func encodePNG(_ image: RGBAImage, executor: any RowExecutor = ThreadedRows(threads: 2)) throws(RasterError)
    -> [UInt8]
  {
    try PNGEncoder.encode(image, executor: executor)
  }

  /// Encodes by the file name's extension (`.png`, `.jpg`, `.jpeg`).
  public static func encode(_ image: RGBAImage, forPath path: String) throws(RasterError) -> [UInt8] {
    let lower = path.lowercased()
    if lower.hasSuffix(".png") { return try encodePNG(image) }
    if lower.hasSuffix(".jpg") || lower.hasSuffix(".jpeg") { return try encodeJPEG(image) }
    throw RasterError(.unknownFormat, "\(path): unknown image extension; use .png, .jpg or .jpeg")
  }
}

/// Megapixel counts as people write them: 160, 0.5, 10.
enum DecimalPixels {
  static func megapixels(_ pixels: Int) -> String {
    let tenths = (pixels + 50_000) / 100_000
    return tenths % 10 == 0 ? "\(tenths / 10)" : "\(tenths / 10).\(tenths % 10)"
  }
}
