import CJPEGRows
import HostIO
import Panorama

/// A panorama read top to bottom, a few rows at a time, for tools that must not hold it
/// whole (the tiler): a JPEG decoded by libjpeg's scanline API, so memory does not grow with
/// the image; anything else (PNG, an EXIF-rotated JPEG, the sample) decoded whole and
/// handed out in rows.
public final class PanoramaRows {
  public let width: Int
  public let height: Int
  public let geometry: PanoramaGeometry
  /// Why the geometry is what it is (as ``LoadedPanorama/coverage``).
  public let coverage: String
  /// Whether rows come from the file as they are decoded (nothing held whole).
  public var isStreamed: Bool { reader != nil }
  let path: String
  var reader: OpaquePointer?
  var whole: RGBAImage?
  var next = 0

  /// Opens `path` ("sample" for the built-in panorama). JPEGs stream, so `limits` applies
  /// only to images decoded whole; a streamed JPEG is checked against JPEG's own 65 500 px.
  public init(_ path: String, projection: SourceProjection? = nil, limits: ImageLimits = ImageLimits())
    throws(PanoramaLoadError)
  {
    self.path = path
    let prefix: [UInt8]
    do {
      prefix = path == "sample" ? [] : try FileIO.readPrefix(path, count: 1 << 20)
    } catch {
      throw PanoramaLoadError(message: error.description)
    }
    let isJPEG = prefix.count >= 3 && prefix[0] == 0xFF && prefix[1] == 0xD8 && prefix[2] == 0xFF
    let metadata = isJPEG ? JPEGMetadata(prefix) : nil
    if let metadata, metadata.orientation == 1 {
      var message = [CChar](repeating: 0, count: 256)
      guard let reader = jpeg_rows_open(path, &message, message.count) else {
        throw PanoramaLoadError(message: "\(Console.escaped(path)): \(Self.text(message))")
      }
      self.reader = reader
      width = Int(jpeg_rows_width(reader))
      height = Int(jpeg_rows_height(reader))
      (geometry, coverage) = PanoramaGeometry.of(
        width: width, height: height, gpano: metadata.xmp.flatMap(GPano.init(xmp:)), projection: projection)
    } else {
      let loaded = try LoadedPanorama.load(path, projection: projection, limits: limits)
      whole = loaded.image
      width = loaded.image.width
      height = loaded.image.height
      geometry = loaded.geometry
      coverage = loaded.coverage
    }
  }

  deinit {
    if let reader { jpeg_rows_close(reader) }
  }

  /// Decodes the next `count` rows into `rows` (`width` pixels each, packed).
  public func read(into rows: UnsafeMutablePointer<UInt32>, count: Int) throws(RasterError) {
    guard count > 0 else { return }
    guard next + count <= height else { throw RasterError(.corrupt, "\(path): read past the last row") }
    if let reader {
      var message = [CChar](repeating: 0, count: 256)
      let bytes = UnsafeMutableRawPointer(rows).assumingMemoryBound(to: UInt8.self)
      let status = jpeg_rows_read(reader, bytes, Int32(count), width * 4, &message, message.count)
      guard status == 0 else {
        throw RasterError(.corrupt, "\(Console.escaped(path)): corrupt JPEG data at row \(next): \(Self.text(message))")
      }
    } else if let whole {
      whole.pixels.withUnsafeBufferPointer { p in
        rows.update(from: p.baseAddress! + next * width, count: count * width)
      }
    }
    next += count
  }

  /// A C message buffer's text, up to its terminating zero.
  static func text(_ buffer: [CChar]) -> String {
    String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }
}
