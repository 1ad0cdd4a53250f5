import CoreMath

/// An 8-bit RGBA image, rows top to bottom, no padding. Each pixel is one `UInt32` holding
/// the bytes R, G, B, A in memory order (so `0xAABBGGRR` read as a little-endian integer),
/// which is what codecs write and what the renderer reads four channels at a time.
public struct RGBAImage: Sendable, Equatable {
  /// Width in pixels.
  public let width: Int
  /// Height in pixels.
  public let height: Int
  /// `width` × `height` packed pixels, row by row from the top.
  public var pixels: [UInt32]

  /// A `width`×`height` image filled with `fill`. A size the caller computed: a negative
  /// one is a programming error (a size from a file goes through the decoders' checks, or
  /// ``init(width:height:pixels:)``, which throws).
  public init(width: Int, height: Int, fill: UInt32 = 0xFF00_0000) {
    precondition(width >= 0 && height >= 0, "RGBAImage(width: \(width), height: \(height)): size must not be negative")
    self.width = width
    self.height = height
    self.pixels = [UInt32](repeating: fill, count: width * height)
  }

  /// Wraps existing pixels, rows top to bottom.
  ///
  /// - Throws: ``ImageError`` naming `width` or `height` when one is negative, or `pixels`
  ///   when its count is not `width * height`.
  public init(width: Int, height: Int, pixels: [UInt32]) throws(ImageError) {
    guard width >= 0 else { throw ImageError(field: "width", message: "\(width) is negative") }
    guard height >= 0 else { throw ImageError(field: "height", message: "\(height) is negative") }
    let (count, overflow) = width.multipliedReportingOverflow(by: height)
    guard !overflow, pixels.count == count else {
      throw ImageError(
        field: "pixels",
        message: "\(pixels.count) pixels for a \(width)×\(height) image, which needs \(overflow ? "more" : String(count))")
    }
    self.init(width: width, height: height, validPixels: pixels)
  }

  /// Wraps pixels the caller sized itself (`pixels.count == width * height`).
  init(width: Int, height: Int, validPixels pixels: [UInt32]) {
    assert(pixels.count == width * height, "pixel count does not match the size")
    self.width = width
    self.height = height
    self.pixels = pixels
  }

  /// Packs channels into a pixel value.
  @inlinable public static func pack(r: UInt8, g: UInt8, b: UInt8, a: UInt8 = 255) -> UInt32 {
    UInt32(r) | UInt32(g) << 8 | UInt32(b) << 16 | UInt32(a) << 24
  }

  /// The channels of a pixel value.
  @inlinable public static func unpack(_ p: UInt32) -> (r: UInt8, g: UInt8, b: UInt8, a: UInt8) {
    (
      UInt8(truncatingIfNeeded: p), UInt8(truncatingIfNeeded: p >> 8), UInt8(truncatingIfNeeded: p >> 16),
      UInt8(truncatingIfNeeded: p >> 24)
    )
  }

  /// The packed pixel at column `x`, row `y` (pixels from the top-left); both must be in range.
  @inlinable public subscript(x: Int, y: Int) -> UInt32 {
    get { pixels[y * width + x] }
    set { pixels[y * width + x] = newValue }
  }

  /// The image turned by an EXIF orientation (1–8), so that it displays upright.
  public func oriented(exif orientation: Int) -> RGBAImage {
    guard (2...8).contains(orientation) else { return self }
    let swaps = orientation >= 5
    let w = swaps ? height : width, h = swaps ? width : height
    var out = RGBAImage(width: w, height: h)
    for y in 0..<h {
      for x in 0..<w {
        // Source coordinates of output (x, y) for each EXIF case.
        let (sx, sy): (Int, Int)
        switch orientation {
        case 2: (sx, sy) = (width - 1 - x, y)
        case 3: (sx, sy) = (width - 1 - x, height - 1 - y)
        case 4: (sx, sy) = (x, height - 1 - y)
        case 5: (sx, sy) = (y, x)
        case 6: (sx, sy) = (y, height - 1 - x)
        case 7: (sx, sy) = (width - 1 - y, height - 1 - x)
        default: (sx, sy) = (width - 1 - y, x)
        }
        out.pixels[y * w + x] = pixels[sy * width + sx]
      }
    }
    return out
  }
}

/// Why an image, a sample or a renderer could not be made: the field and what is wrong with
/// it (`pixels: 5 pixels for a 2×3 image, which needs 6`).
public struct ImageError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The argument or field at fault (`width`, `pixels`, `source`).
  public var field: String
  /// What is wrong with it.
  public var message: String

  /// An error naming `field` and saying `message` about it.
  public init(field: String, message: String) {
    self.field = field
    self.message = message
  }

  /// `field: message`, as printed.
  public var description: String { "\(field): \(message)" }
}

extension RGBAImage {
  /// The peak signal-to-noise ratio of the colour channels against `other` (same size), in
  /// dB; 99 when the two are identical. How the renderers' accuracy is measured.
  public func psnr(against other: RGBAImage) -> Double {
    precondition(width == other.width && height == other.height, "PSNR of images of different sizes")
    var sum = 0.0
    for (p, q) in zip(pixels, other.pixels) {
      let x = Self.unpack(p), y = Self.unpack(q)
      for (c, d) in [(x.r, y.r), (x.g, y.g), (x.b, y.b)] {
        let e = Double(c) - Double(d)
        sum += e * e
      }
    }
    let mse = sum / Double(max(pixels.count, 1) * 3)
    return mse == 0 ? 99 : 10 * Elementary.log(255 * 255 / mse) / Elementary.log(10)
  }
}
