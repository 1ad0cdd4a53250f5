import HostIO
import Panorama

/// What `pano info` says about an image, read from its header and metadata only (the first
/// megabyte, usually): a 16000 × 8000 JPEG is not decoded to say how big it is.
public struct ImageHeader: Sendable {
  /// Pixel size as shown, after the EXIF orientation (5–8 swap the sides).
  public var width: Int
  public var height: Int
  public var format: String
  public var orientation: Int
  public var gpano: GPano?
  public var geometry: PanoramaGeometry
  /// Why the geometry is what it is (as ``LoadedPanorama/coverage``).
  public var coverage: String

  /// Reads `path`'s header ("sample": the built-in panorama's), refused over `limits` as a
  /// decode would be. Metadata past the first megabyte (a big embedded thumbnail before the
  /// frame header) reads more of the file, never all of it unless it must.
  public static func read(
    _ path: String, projection: SourceProjection? = nil, limits: ImageLimits = ImageLimits()
  ) throws(PanoramaLoadError) -> ImageHeader {
    if path == "sample" {
      // As `LoadedPanorama.sample()` has it, without drawing it.
      return ImageHeader(
        width: 4096, height: 2048, format: "sample", orientation: 1, gpano: nil,
        geometry: PanoramaGeometry(width: 4096, height: 2048), coverage: "a full 360° panorama")
    }
    var count = 1 << 20
    while true {
      let bytes: [UInt8]
      do { bytes = try FileIO.readPrefix(path, count: count) } catch { throw PanoramaLoadError(message: error.description) }
      do {
        return try parse(bytes, projection: projection, limits: limits)
      } catch {
        // The header may lie further in; once the whole file is read, the error is the file's.
        if bytes.count < count || error.kind != .corrupt {
          throw PanoramaLoadError(message: "\(Console.escaped(path)): \(error.message)")
        }
        count *= 8
      }
    }
  }

  static func parse(_ bytes: [UInt8], projection: SourceProjection?, limits: ImageLimits) throws(RasterError) -> ImageHeader {
    var (width, height) = try Raster.imageSize(bytes, limits: limits)
    let isJPEG = bytes[0] == 0xFF
    var orientation = 1
    var gpano: GPano?
    if isJPEG {
      let metadata = JPEGMetadata(bytes)
      orientation = metadata.orientation
      gpano = metadata.xmp.flatMap(GPano.init(xmp:))
      if (5...8).contains(orientation) { swap(&width, &height) }
    } else {
      gpano = Raster.xmpInPNG(bytes).flatMap(GPano.init(xmp:))
    }
    let (geometry, coverage) = PanoramaGeometry.of(width: width, height: height, gpano: gpano, projection: projection)
    return ImageHeader(
      width: width, height: height, format: isJPEG ? "jpeg" : "png", orientation: orientation, gpano: gpano,
      geometry: geometry, coverage: coverage)
  }
}

extension Raster {
  /// A PNG's XMP packet (an uncompressed `iTXt` chunk "XML:com.adobe.xmp" before the image
  /// data), walked chunk by chunk with every length checked; nil when there is none.
  static func xmpInPNG(_ bytes: [UInt8]) -> String? {
    var at = 8
    while at + 8 <= bytes.count {
      let length = Int(bytes[at]) << 24 | Int(bytes[at + 1]) << 16 | Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
      let type = String(decoding: bytes[(at + 4)..<(at + 8)], as: UTF8.self)
      let start = at + 8
      guard length >= 0, start + length <= bytes.count, type != "IDAT", type != "IEND" else { return nil }
      if type == "iTXt" {
        let data = bytes[start..<(start + length)]
        let keyword = Array("XML:com.adobe.xmp".utf8) + [0]
        // keyword \0, compression flag, method, language \0, translated keyword \0, text
        if data.starts(with: keyword), data.count > keyword.count + 2, data[start + keyword.count] == 0 {
          var k = start + keyword.count + 2
          for _ in 0..<2 {
            while k < start + length, bytes[k] != 0 { k += 1 }
            k += 1
          }
          if k <= start + length { return String(decoding: bytes[k..<(start + length)], as: UTF8.self) }
        }
      }
      at = start + length + 4
    }
    return nil
  }

  /// Whether an image file's last bytes end it as its format says (a JPEG's end-of-image
  /// marker, a PNG's IEND chunk): a tile cut short by a failed copy has neither.
  public static func endsWhole(head: [UInt8], tail: [UInt8]) -> Bool {
    if head.count >= 2 && head[0] == 0xFF && head[1] == 0xD8 {
      // Entropy-coded data never holds FF D9 (an FF there is stuffed with 00), so finding it
      // near the end means the scan was finished (some writers pad or append after it).
      return zip(tail, tail.dropFirst()).contains { $0 == 0xFF && $1 == 0xD9 }
    }
    let iend: [UInt8] = [0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82]
    return tail.count >= 8 && tail.suffix(8).elementsEqual(iend)
  }
}
