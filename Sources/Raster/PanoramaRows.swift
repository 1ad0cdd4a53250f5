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
  /// What the JPEG decoder itself will hold while the rows stream (a progressive JPEG's
  /// coefficients of the whole image), from the header; 0 for an image decoded whole (its
  /// decode was already bounded by `limits`).
  public var decoderBytes: Int { reader?.decoderBytes ?? 0 }
  let path: String
  let limits: ImageLimits
  var reader: JPEGRows?
  var started = false
  var whole: RGBAImage?
  var next = 0

  /// Opens `path` ("sample" for the built-in panorama) and reads its header. JPEGs stream,
  /// so `limits`' sizes apply only to images decoded whole (a streamed JPEG is checked
  /// against JPEG's own 65 500 px); its `maxMemory` bounds what the JPEG decoder holds
  /// (checked at the first `read`, before libjpeg allocates) and `maxScans` its scans.
  public init(_ path: String, projection: SourceProjection? = nil, limits: ImageLimits = ImageLimits())
    throws(PanoramaLoadError)
  {
    self.path = path
    self.limits = limits
    let prefix: [UInt8]
    do {
      prefix = path == "sample" ? [] : try FileIO.readPrefix(path, count: 1 << 20)
    } catch {
      throw PanoramaLoadError(message: error.description)
    }
    let isJPEG = prefix.count >= 3 && prefix[0] == 0xFF && prefix[1] == 0xD8 && prefix[2] == 0xFF
    let metadata = isJPEG ? JPEGMetadata(prefix) : nil
    if let metadata, metadata.orientation == 1 {
      let reader: JPEGRows
      do {
        reader = try JPEGRows(path: path, limits: limits)
      } catch {
        throw PanoramaLoadError(message: error.message)
      }
      self.reader = reader
      width = reader.width
      height = reader.height
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

  /// Starts decoding a streamed JPEG (its scans are read here when it is progressive), after
  /// checking what its decoder holds against `limits.maxMemory`: a bad or hostile file fails
  /// here, as input, before the caller writes anything. `read` starts it when not done yet.
  public func start() throws(PanoramaLoadError) {
    guard let reader, !started else { return }
    do {
      try reader.start(limits: limits, what: "streaming its rows")
    } catch {
      throw PanoramaLoadError(message: error.message)
    }
    started = true
  }

  /// Decodes the next `count` rows into `rows` (`width` pixels each, packed).
  public func read(into rows: UnsafeMutablePointer<UInt32>, count: Int) throws(RasterError) {
    guard count > 0 else { return }
    guard next + count <= height else { throw RasterError(.corrupt, "\(path): read past the last row") }
    if let reader {
      if !started {
        try reader.start(limits: limits, what: "streaming its rows")
        started = true
      }
      try reader.read(into: UnsafeMutableRawPointer(rows), count: count, stride: width * 4, row: next)
    } else if let whole {
      whole.pixels.withUnsafeBufferPointer { p in
        rows.update(from: p.baseAddress! + next * width, count: count * width)
      }
    }
    next += count
  }
}
