/// How a decoder's 8-bit Y′CbCr values become RGB: the matrix and the range.
public struct YUVColour: Hashable, Sendable {
  /// The Y′CbCr-to-RGB matrices understood.
  public enum Matrix: String, Hashable, Sendable {
    /// ITU-R BT.601 (standard-definition video, JPEG).
    case bt601
    /// ITU-R BT.709 (HD video; what most 360° cameras write).
    case bt709
    /// ITU-R BT.2020 non-constant luminance (10-bit HDR and wide-gamut video). Only the
    /// matrix: primaries are not converted and PQ or HLG is not tone-mapped.
    case bt2020
  }
  /// Which standard's coefficients convert the samples.
  public var matrix: Matrix
  /// Full range (0…255, "JPEG" or "pc") rather than limited (16…235 luma, 16…240 chroma).
  public var fullRange: Bool

  /// BT.709, limited range unless said otherwise: what most 360° cameras write.
  public init(matrix: Matrix = .bt709, fullRange: Bool = false) {
    self.matrix = matrix
    self.fullRange = fullRange
  }

  /// Kr and Kb of the matrix.
  var weights: (r: Double, b: Double) {
    switch matrix {
    case .bt601: (0.299, 0.114)
    case .bt709: (0.2126, 0.0722)
    case .bt2020: (0.2627, 0.0593)
    }
  }

  /// RGB (0…255, unrounded) of one sample, exactly: the reference the fixed-point
  /// conversion is tested against.
  public func rgb(y: Double, u: Double, v: Double) -> (r: Double, g: Double, b: Double) {
    let (kr, kb) = weights
    let kg = 1 - kr - kb
    let luma = fullRange ? y : (y - 16) * 255 / 219
    let cb = fullRange ? u - 128 : (u - 128) * 255 / 224
    let cr = fullRange ? v - 128 : (v - 128) * 255 / 224
    let r = luma + 2 * (1 - kr) * cr
    let b = luma + 2 * (1 - kb) * cb
    let g = luma - (2 * kb * (1 - kb) / kg) * cb - (2 * kr * (1 - kr) / kg) * cr
    return (r, g, b)
  }

  /// The conversion in 16.16 fixed point, per channel: `(yScale·(y − yOffset) + …) >> 16`.
  struct Fixed {
    let yOffset: Int32, yScale: Int32, rv: Int32, gu: Int32, gv: Int32, bu: Int32

    init(_ c: YUVColour) {
      let (kr, kb) = c.weights
      let kg = 1 - kr - kb
      let ys = c.fullRange ? 1.0 : 255.0 / 219, cs = c.fullRange ? 1.0 : 255.0 / 224
      func q(_ x: Double) -> Int32 { Int32((x * 65536).rounded()) }
      yOffset = c.fullRange ? 0 : 16
      yScale = q(ys)
      rv = q(2 * (1 - kr) * cs)
      gu = q(2 * kb * (1 - kb) / kg * cs)
      gv = q(2 * kr * (1 - kr) / kg * cs)
      bu = q(2 * (1 - kb) * cs)
    }

    @inline(__always) func pixel(_ y: Int32, _ u: Int32, _ v: Int32) -> UInt32 {
      let l = yScale &* (y &- yOffset) &+ 32768
      let cb = u &- 128, cr = v &- 128
      @inline(__always) func clamp(_ x: Int32) -> UInt32 { UInt32(min(max(x >> 16, 0), 255)) }
      let r = clamp(l &+ rv &* cr), g = clamp(l &- gu &* cb &- gv &* cr), b = clamp(l &+ bu &* cb)
      return r | g << 8 | b << 16 | 0xFF00_0000
    }

    /// `pixel` for 10-bit taps kept unrounded: each value is 8-bit units × 2¹⁸ (a 10-bit
    /// sample × 2¹⁶), so the interpolation is rounded once, here, to the output's 8 bits.
    @inline(__always) func deepPixel(_ y: Int32, _ u: Int32, _ v: Int32) -> UInt32 {
      let l = Int64(yScale) &* (Int64(y) &- Int64(yOffset) << 18) &+ (1 << 33)
      let cb = Int64(u) &- (128 << 18), cr = Int64(v) &- (128 << 18)
      @inline(__always) func clamp(_ x: Int64) -> UInt32 { UInt32(min(max(x >> 34, 0), 255)) }
      let r = clamp(l &+ Int64(rv) &* cr), g = clamp(l &- Int64(gu) &* cb &- Int64(gv) &* cr)
      let b = clamp(l &+ Int64(bu) &* cb)
      return r | g << 8 | b << 16 | 0xFF00_0000
    }
  }
}

/// Where a 4:2:0 frame's chroma samples sit relative to its luma samples. Vertically they
/// are always halfway between two luma rows; horizontally MPEG-2 and H.264 put them on
/// the even luma columns (`left`), JPEG and MPEG-1 halfway between (`centre`).
public enum ChromaSiting: String, Hashable, Sendable {
  /// On the even luma columns (MPEG-2, H.264, HEVC).
  case left
  /// Halfway between two luma columns (JPEG, MPEG-1).
  case centre

  /// Chroma coordinates of luma position (`x`, `y`) (pixel centres at integers).
  @inline(__always) public func chroma(x: Double, y: Double) -> (x: Double, y: Double) {
    (self == .left ? x / 2 : (x + 0.5) / 2 - 0.5, (y + 0.5) / 2 - 0.5)
  }
}

/// A 4:2:0 frame's planes, borrowed (a decoder's buffers): valid only while the call they
/// are passed to runs. Luma is `width`×`height`; each chroma plane is half as wide and half
/// as high, rounded up. 8-bit samples are bytes; 10-bit ones (`yuv420p10le`) 16-bit
/// little-endian words holding 0…1023, the pointers and strides still in bytes.
public struct YUVPlanes: @unchecked Sendable {
  /// The picture's size in luma pixels.
  public var width: Int, height: Int
  /// The luma plane and the bytes between its rows' starts.
  public var y: UnsafePointer<UInt8>, yStride: Int
  /// The Cb plane and the bytes between its rows' starts.
  public var u: UnsafePointer<UInt8>, uStride: Int
  /// The Cr plane and the bytes between its rows' starts.
  public var v: UnsafePointer<UInt8>, vStride: Int
  /// How the samples become RGB.
  public var colour: YUVColour
  /// Where chroma samples sit relative to luma.
  public var siting: ChromaSiting
  /// 8 or 10.
  public private(set) var bitDepth = 8

  /// Planes of an 8-bit `width`×`height` picture (pixels) borrowed from a decoder; strides in bytes.
  /// Pointers must stay valid while the planes are used.
  ///
  /// - Throws: ``ImageError`` naming `width` or `height` when one is not above 0, or
  ///   `yStride`, `uStride` or `vStride` when it is shorter than its plane's row (a chroma
  ///   row is half the width, rounded up).
  public init(
    width: Int, height: Int, y: UnsafePointer<UInt8>, yStride: Int, u: UnsafePointer<UInt8>, uStride: Int,
    v: UnsafePointer<UInt8>, vStride: Int, colour: YUVColour = YUVColour(), siting: ChromaSiting = .left
  ) throws(ImageError) {
    try Self.check(width: width, height: height, bytesPerSample: 1, yStride: yStride, uStride: uStride, vStride: vStride)
    self.init(
      unchecked: width, height: height, y: y, yStride: yStride, u: u, uStride: uStride, v: v, vStride: vStride,
      colour: colour, siting: siting)
  }

  /// Planes of 16-bit little-endian samples with `bitDepth` significant bits (10: values
  /// 0…1023, as `yuv420p10le`); strides in bytes.
  ///
  /// - Throws: ``ImageError`` naming `bitDepth` unless it is 8 or 10, and otherwise as the
  ///   8-bit init does; for 10-bit samples a stride must also be even (whole 16-bit words).
  public init(
    width: Int, height: Int, bitDepth: Int, y: UnsafePointer<UInt8>, yStride: Int, u: UnsafePointer<UInt8>,
    uStride: Int, v: UnsafePointer<UInt8>, vStride: Int, colour: YUVColour = YUVColour(), siting: ChromaSiting = .left
  ) throws(ImageError) {
    guard bitDepth == 8 || bitDepth == 10 else {
      throw ImageError(field: "bitDepth", message: "\(bitDepth): only 8- and 10-bit samples are read")
    }
    let bytes = bitDepth == 8 ? 1 : 2
    try Self.check(width: width, height: height, bytesPerSample: bytes, yStride: yStride, uStride: uStride, vStride: vStride)
    if bitDepth == 10 {
      for (field, stride) in [("yStride", yStride), ("uStride", uStride), ("vStride", vStride)] where stride & 1 != 0 {
        throw ImageError(field: field, message: "\(stride) bytes is odd; 16-bit samples need whole words")
      }
    }
    self.init(
      unchecked: width, height: height, y: y, yStride: yStride, u: u, uStride: uStride, v: v, vStride: vStride,
      colour: colour, siting: siting)
    self.bitDepth = bitDepth
  }

  /// Planes whose sizes the caller made itself (``YUVImage/withPlanes(colour:_:)``).
  init(
    unchecked width: Int, height: Int, y: UnsafePointer<UInt8>, yStride: Int, u: UnsafePointer<UInt8>, uStride: Int,
    v: UnsafePointer<UInt8>, vStride: Int, colour: YUVColour, siting: ChromaSiting
  ) {
    self.width = width
    self.height = height
    self.y = y
    self.yStride = yStride
    self.u = u
    self.uStride = uStride
    self.v = v
    self.vStride = vStride
    self.colour = colour
    self.siting = siting
  }

  /// Throws unless the sides are above 0 and every row fits its stride (`bytesPerSample`
  /// bytes a sample); compared by division, so no huge width overflows.
  static func check(
    width: Int, height: Int, bytesPerSample bytes: Int, yStride: Int, uStride: Int, vStride: Int
  ) throws(ImageError) {
    guard width > 0 else { throw ImageError(field: "width", message: "\(width) is not above 0") }
    guard height > 0 else { throw ImageError(field: "height", message: "\(height) is not above 0") }
    let chroma = width / 2 + width % 2
    for (field, stride, samples) in [("yStride", yStride, width), ("uStride", uStride, chroma), ("vStride", vStride, chroma)]
    where stride < 0 || stride / bytes < samples {
      throw ImageError(
        field: field,
        message: "\(stride) bytes is shorter than a row of \(samples) samples of \(bytes) byte\(bytes == 1 ? "" : "s")")
    }
  }

  var chromaWidth: Int { (width + 1) / 2 }
  var chromaHeight: Int { (height + 1) / 2 }

  /// The top-left `width`×`height` part (one eye of a stereo frame); both even, or the
  /// whole frame's.
  ///
  /// - Throws: ``ImageError`` naming `width` or `height` when it is not above 0 or is more
  ///   than the planes have.
  public func cropped(width w: Int, height h: Int) throws(ImageError) -> YUVPlanes {
    guard w > 0, w <= width else { throw ImageError(field: "width", message: "\(w) is not in 1...\(width)") }
    guard h > 0, h <= height else { throw ImageError(field: "height", message: "\(h) is not in 1...\(height)") }
    var p = self
    p.width = w
    p.height = h
    return p
  }
}

/// An owned 8-bit 4:2:0 picture, planes without padding: what the renderer draws for an
/// encoder or a pipe (`bytes` is Y, then U, then V, as ffmpeg's `yuv420p` raw frames).
public struct YUVImage: Sendable, Equatable {
  /// The picture's size in luma pixels, both even.
  public let width: Int, height: Int
  /// The Y plane, then U, then V, without padding.
  public var bytes: [UInt8]

  /// Both sides even (4:2:0 output pairs rows and columns); filled with black.
  public init(width: Int, height: Int) {
    precondition(width > 0 && height > 0 && width % 2 == 0 && height % 2 == 0, "a 4:2:0 picture's sides must be even")
    self.width = width
    self.height = height
    bytes = [UInt8](repeating: 16, count: width * height) + [UInt8](repeating: 128, count: width * height / 2)
  }

  /// Where the U and V planes start in `bytes`.
  public var chromaOffsets: (u: Int, v: Int) { (width * height, width * height + width * height / 4) }

  /// The planes, borrowed for `body`; what `body` throws is rethrown.
  public func withPlanes<R, E: Error>(colour: YUVColour = YUVColour(), _ body: (YUVPlanes) throws(E) -> R) throws(E) -> R {
    let result = bytes.withUnsafeBufferPointer { b -> Result<R, E> in
      let base = b.baseAddress!
      let (u, v) = chromaOffsets
      let planes = YUVPlanes(
        unchecked: width, height: height, y: base, yStride: width, u: base + u, uStride: width / 2, v: base + v,
        vStride: width / 2, colour: colour, siting: .left)
      do throws(E) { return .success(try body(planes)) } catch { return .failure(error) }
    }
    return try result.get()
  }

  /// An RGBA picture converted to 4:2:0 (each chroma sample the mean of its 2×2 block:
  /// centre-sited), for tests and for stills fed to the video path.
  public init(_ image: RGBAImage, colour: YUVColour = YUVColour()) {
    self.init(width: image.width & ~1, height: image.height & ~1)
    let (kr, kb) = colour.weights
    let kg = 1 - kr - kb
    let ys = colour.fullRange ? 1.0 : 219.0 / 255, cs = colour.fullRange ? 1.0 : 224.0 / 255
    let yo = colour.fullRange ? 0.0 : 16
    let (uo, vo) = chromaOffsets
    func byte(_ x: Double) -> UInt8 { UInt8(min(max(x.rounded(), 0), 255)) }
    for y in 0..<height {
      for x in 0..<width {
        let p = RGBAImage.unpack(image[x, y])
        let l = kr * Double(p.r) + kg * Double(p.g) + kb * Double(p.b)
        bytes[y * width + x] = byte(yo + ys * l)
      }
    }
    for cy in 0..<height / 2 {
      for cx in 0..<width / 2 {
        var cb = 0.0, cr = 0.0
        for (dx, dy) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
          let p = RGBAImage.unpack(image[2 * cx + dx, 2 * cy + dy])
          let l = kr * Double(p.r) + kg * Double(p.g) + kb * Double(p.b)
          cb += (Double(p.b) - l) / (2 * (1 - kb))
          cr += (Double(p.r) - l) / (2 * (1 - kr))
        }
        bytes[uo + cy * width / 2 + cx] = byte(128 + cs * cb / 4)
        bytes[vo + cy * width / 2 + cx] = byte(128 + cs * cr / 4)
      }
    }
  }
}
