import CoreMath

/// Draws cube faces from an equirectangular (or cylindrical) source: what `pano tiles` makes a
/// pyramid's finest faces with. Each face pixel reads the source through a kernel (``Kernel``,
/// bilinear by default) stretched, along each of the source's axes, to the source footprint of
/// the pixel where that footprint is wider than a source pixel: towards the poles a face pixel
/// spans many of the source's stretched columns, and a bilinear tap there (as the renderer's)
/// reads two of them and skips the rest, so lines of longitude alias into moiré. The
/// footprint is the exact derivative of the mapping at each pixel.
///
/// Why bilinear, not a sharper kernel: the viewers resample the pyramid bilinearly again,
/// reading a coarser level only once a view steps two texels a pixel, so a wide view reads its
/// level at up to two texels a pixel, under-filtered. A sharper face (``Kernel/cubic``,
/// ``Kernel/lanczos3``) keeps detail there that then aliases: on a grid of 2-pixel lines it
/// took 2–4 dB off wide views against the exact view (bench/pyramid-sharp.sh) while it gained
/// 2 dB in views that magnify. docs/cli.md has the figures.
///
/// Each channel is filtered alone and rounded once, clamped to 0…255 (a sharp kernel's
/// ringing next to a hard edge would otherwise wrap).
public struct CubeFaceFilter: Sendable {
  /// The widest kernel's support (Lanczos-3's), in source pixels at 1:1.
  public static let lobes = 3
  /// The widest vertical footprint, in source rows per face pixel, the kernel follows: a face
  /// as fine as the source's rows (the default) reads at most about 1. Past it, a face of much
  /// coarser pixels (a small `--cube-size`) skips rows; the bound keeps the band of rows a tile
  /// reads, ``rowMargin``, small.
  public static let maxVerticalScale = 8.0
  /// The widest horizontal footprint followed: only the few face pixels next to a pole, where a
  /// pixel spans hundreds of columns, are capped.
  public static let maxHorizontalScale = 256.0
  /// Rows a tile's taps can reach beyond the rows its pixel centres fall on.
  public static var rowMargin: Int { Int((Double(lobes) * maxVerticalScale).rounded(.up)) + 2 }

  /// The kernels the filter can use.
  public enum Kernel: String, Sendable, CaseIterable {
    /// Lanczos-3: sin(πx)/(πx) · sin(πx/3)/(πx/3) for |x| < 3.
    case lanczos3
    /// Keys' cubic with a = −0.5 (Catmull-Rom) for |x| < 2.
    case cubic
    /// The tent (bilinear) for |x| < 1. Where it is stretched it spans the footprint ÷ √2 on
    /// each side: the variance of a box one footprint wide, an area mean without the tent's
    /// extra blur.
    case bilinear

    /// Half the kernel's width, in source pixels at 1:1.
    public var support: Int {
      switch self {
      case .lanczos3: return 3
      case .cubic: return 2
      case .bilinear: return 1
      }
    }

    /// The kernel's stretch for a footprint of one source pixel.
    var widening: Double { self == .bilinear ? 0.5.squareRoot() : 1 }

    func value(_ x: Double) -> Double {
      let x = abs(x)
      switch self {
      case .lanczos3:
        guard x > 0 else { return 1 }
        guard x < 3 else { return 0 }
        let px = Elementary.pi * x
        return 3 * Elementary.sin(px) * Elementary.sin(px / 3) / (px * px)
      case .cubic:
        let a = -0.5
        if x < 1 { return ((a + 2) * x - (a + 3)) * x * x + 1 }
        if x < 2 { return ((a * x - 5 * a) * x + 8 * a) * x - 4 * a }
        return 0
      case .bilinear:
        return max(0, 1 - x)
      }
    }
  }
  /// The kernel used.
  public let kernel: Kernel
  /// The kernel from 0 to its support in steps of 1/`tableSteps` (read nearest: the weights
  /// are normalised per pixel, so a step's error does not shift the mean).
  let table: [Float]
  static let tableSteps = 1024

  /// The source, its geometry, and the band of its rows held.
  let source: RGBAImage
  let geometry: PanoramaGeometry
  /// The source row that `source`'s first row is, and the source's full height in rows.
  let firstRow: Int, sourceHeight: Int
  let background: UInt32

  /// A filter reading `band`, rows `firstRow`… of a `sourceHeight`-row image placed by
  /// `geometry` (`band` is the whole image when `firstRow` is 0 and the heights agree).
  public init(
    band: RGBAImage, firstRow: Int, sourceHeight: Int, geometry: PanoramaGeometry, background: UInt32,
    kernel: Kernel = .bilinear
  ) {
    source = band
    self.kernel = kernel
    self.geometry = geometry
    self.firstRow = firstRow
    self.sourceHeight = sourceHeight
    self.background = background
    let steps = Self.tableSteps
    table = (0...(kernel.support * steps)).map { Float(kernel.value(Double($0) / Double(steps))) }
  }

  var scaleX: Double { Double(source.width) / geometry.croppedWidth }
  var scaleY: Double { Double(sourceHeight) / geometry.croppedHeight }

  /// Draws the window of `face` (0…5, ``CubeFace``'s order) of a cube of `cubeSize`-pixel
  /// faces whose top-left pixel is (`x`, `y`), `image.width`×`image.height` pixels, its rows
  /// spread over `executor`.
  public func draw<E: RowExecutor>(face: Int, cubeSize: Int, x: Int, y: Int, into image: inout RGBAImage, executor: E) {
    let width = image.width, height = image.height
    guard width > 0, height > 0, cubeSize > 0 else { return }
    image.pixels.withUnsafeMutableBufferPointer { out in
      let shared = SharedPixels(base: out.baseAddress!, source: UnsafePointer(out.baseAddress!))
      let bands = (height + 7) / 8
      executor.run(bands) { band in
        var weightsU = [Float](repeating: 0, count: 2 * Int(Double(Self.lobes) * Self.maxHorizontalScale) + 4)
        var weightsV = [Float](repeating: 0, count: 2 * Int(Double(Self.lobes) * Self.maxVerticalScale) + 4)
        for j in (band * 8)..<min(band * 8 + 8, height) {
          for i in 0..<width {
            shared.base[j * width + i] = pixel(
              face: face, s: 2 * (Double(x + i) + 0.5) / Double(cubeSize) - 1,
              t: 2 * (Double(y + j) + 0.5) / Double(cubeSize) - 1, step: 2 / Double(cubeSize), &weightsU, &weightsV)
          }
        }
      }
    }
  }

  /// The filtered colour at face point (`s`, `t`) (−1…1, right and down), face pixels `step`
  /// apart in those units.
  func pixel(face: Int, s: Double, t: Double, step: Double, _ weightsU: inout [Float], _ weightsV: inout [Float])
    -> UInt32
  {
    let (c, r, d) = CubeFace.frames[face]
    let x = c.x + s * r.x + t * d.x, y = c.y + s * r.y + t * d.y, z = c.z + s * r.z + t * d.z
    let rho2 = x * x + z * z, rho = rho2.squareRoot(), n2 = rho2 + y * y, n = n2.squareRoot()
    let g = geometry
    let p = g.fullPosition(longitude: Elementary.atan2(x, z), sinLatitude: y / n, horizontal: rho / n)
    let u = (p.x - g.croppedLeft) * scaleX - 0.5, v = (p.y - g.croppedTop) * scaleY - 0.5
    // The footprint: how far u and v move for one face pixel across (r) and down (d).
    let uPerRadian = g.fullWidth / Elementary.twoPi * scaleX
    func du(_ e: (x: Double, y: Double, z: Double)) -> Double {
      rho2 > 0 ? (z * e.x - x * e.z) / rho2 * step * uPerRadian : .infinity
    }
    func dv(_ e: (x: Double, y: Double, z: Double)) -> Double {
      guard rho > 0 else { return 0 }
      let dRho = (x * e.x + z * e.z) / rho
      switch g.projection {
      case .equirectangular:
        // d(latitude) = (ρ·dy − y·dρ) / n²
        return (rho * e.y - y * dRho) / n2 * step * g.fullHeight / Elementary.pi * scaleY
      case .cylindrical:
        // y = H/2 − tan(latitude)·radius, tan(latitude) = y/ρ
        return (rho * e.y - y * dRho) / rho2 * step * g.fullWidth / Elementary.twoPi * scaleY
      }
    }
    let au = du(r), bu = du(d), av = dv(r), bv = dv(d)
    let widening = kernel.widening
    let footprintU = (au * au + bu * bu).squareRoot() * widening, footprintV = (av * av + bv * bv).squareRoot() * widening
    let scaleU = footprintU.isFinite ? min(max(footprintU, 1), Self.maxHorizontalScale) : Self.maxHorizontalScale
    let scaleV = footprintV.isFinite ? min(max(footprintV, 1), Self.maxVerticalScale) : Self.maxVerticalScale
    return sample(u: u, v: v, scaleU: scaleU, scaleV: scaleV, &weightsU, &weightsV)
  }

  /// The source filtered at (`u`, `v`) (pixel centres at integers), the kernel stretched by
  /// `scaleU` and `scaleV` source pixels. Outside a partial panorama (the renderer's rule: a
  /// centre more than a pixel past an edge that is not a pole), the background.
  func sample(u: Double, v: Double, scaleU: Double, scaleV: Double, _ weightsU: inout [Float], _ weightsV: inout [Float])
    -> UInt32
  {
    let w = source.width, wraps = geometry.wraps
    guard abs(u) < 1e9, abs(v) < 1e9 else { return background }
    let clampsAbove = wraps && geometry.croppedTop <= 0.5
    let clampsBelow = wraps && geometry.croppedTop + geometry.croppedHeight >= geometry.fullHeight - 0.5
    if !wraps && (u < -1 || u >= Double(w)) { return background }
    if (v < -1 && !clampsAbove) || (v >= Double(sourceHeight) && !clampsBelow) { return background }
    if kernel == .bilinear && scaleU == 1 && scaleV == 1 { return bilinear(u: u, v: v) }
    let a = Double(kernel.support), steps = Double(Self.tableSteps), last = table.count - 1
    // Taps i with |i − u| < a·scale; weights from the table, then normalised.
    func taps(_ centre: Double, _ scale: Double, _ weights: inout [Float]) -> (first: Int, count: Int) {
      let reach = a * scale
      let first = Int((centre - reach).rounded(.down)) + 1, end = Int((centre + reach).rounded(.down)) + 1
      let count = min(end - first, weights.count)
      var sum: Float = 0
      let k = steps / scale
      for m in 0..<count {
        let weight = table[min(Int(abs(Double(first + m) - centre) * k + 0.5), last)]
        weights[m] = weight
        sum += weight
      }
      if sum != 0 { for m in 0..<count { weights[m] /= sum } }
      return (first, count)
    }
    let (u0, nu) = taps(u, scaleU, &weightsU)
    let (v0, nv) = taps(v, scaleV, &weightsV)
    var total = SIMD4<Float>(repeating: 0)
    let lastRow = source.height - 1
    source.pixels.withUnsafeBufferPointer { src in
      for m in 0..<nv {
        // Rows past the image's top or bottom repeat its edge row; the band holds every row a
        // tile's taps reach (the plan's margin), so clamping to it changes nothing.
        let imageRow = min(max(v0 + m, 0), sourceHeight - 1)
        let row = src.baseAddress! + min(max(imageRow - firstRow, 0), lastRow) * w
        var line = SIMD4<Float>(repeating: 0)
        var column = u0
        if wraps {
          column %= w
          if column < 0 { column += w }
        }
        for k in 0..<nu {
          let index = wraps ? column : min(max(u0 + k, 0), w - 1)
          let p = row[index]
          line +=
            weightsU[k]
            * SIMD4<Float>(Float(p & 0xFF), Float((p >> 8) & 0xFF), Float((p >> 16) & 0xFF), Float(p >> 24))
          column += 1
          if column == w { column = 0 }
        }
        total += weightsV[m] * line
      }
    }
    let q = (total + 0.5).clamped(lowerBound: SIMD4(repeating: 0), upperBound: SIMD4(repeating: 255))
    return UInt32(q.x) | UInt32(q.y) << 8 | UInt32(q.z) << 16 | UInt32(q.w) << 24
  }

  /// The unstretched tent's two-by-two taps without the general loop (most face pixels: the
  /// same weights, six times faster).
  func bilinear(u: Double, v: Double) -> UInt32 {
    let w = source.width, lastRow = source.height - 1
    let x0 = u.rounded(.down), y0 = v.rounded(.down)
    let fx = Float(u - x0), fy = Float(v - y0)
    var xa = Int(x0), xb = xa + 1
    if geometry.wraps {
      xa %= w
      if xa < 0 { xa += w }
      xb = xa + 1 == w ? 0 : xa + 1
    } else {
      xa = min(max(xa, 0), w - 1)
      xb = min(max(xb, 0), w - 1)
    }
    func row(_ y: Int) -> Int { min(max(min(max(y, 0), sourceHeight - 1) - firstRow, 0), lastRow) * w }
    let ra = row(Int(y0)), rb = row(Int(y0) + 1)
    func channels(_ p: UInt32) -> SIMD4<Float> {
      SIMD4<Float>(Float(p & 0xFF), Float((p >> 8) & 0xFF), Float((p >> 16) & 0xFF), Float(p >> 24))
    }
    return source.pixels.withUnsafeBufferPointer { src in
      let top = (1 - fx) * channels(src[ra + xa]) + fx * channels(src[ra + xb])
      let bottom = (1 - fx) * channels(src[rb + xa]) + fx * channels(src[rb + xb])
      let q = ((1 - fy) * top + fy * bottom + 0.5).clamped(
        lowerBound: SIMD4(repeating: 0), upperBound: SIMD4(repeating: 255))
      return UInt32(q.x) | UInt32(q.y) << 8 | UInt32(q.z) << 16 | UInt32(q.w) << 24
    }
  }
}
