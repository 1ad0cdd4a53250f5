import CoreMath

/// Runs bands of rows, possibly in parallel. The core has no threads: the host injects one
/// (the CLI and app use Dispatch's `concurrentPerform`); `InlineRows` runs them in order.
public protocol RowExecutor: Sendable {
  /// Calls `body(i)` for every `i` in `0..<count` and returns when all calls have returned.
  /// Calls may run concurrently; each writes disjoint rows.
  func run(_ count: Int, _ body: @Sendable (Int) -> Void)
}

/// Runs every band on the calling thread, in order.
public struct InlineRows: RowExecutor {
  public init() {}
  public func run(_ count: Int, _ body: @Sendable (Int) -> Void) {
    for i in 0..<count { body(i) }
  }
}

/// A raw pointer handed to bands that write disjoint rows of one buffer.
@usableFromInline struct SharedPixels: @unchecked Sendable {
  @usableFromInline let base: UnsafeMutablePointer<UInt32>
  @usableFromInline let source: UnsafePointer<UInt32>
  /// The mip levels' pixels (the source's when there are none).
  @usableFromInline var mips: UnsafePointer<UInt32>

  init(base: UnsafeMutablePointer<UInt32>, source: UnsafePointer<UInt32>, mips: UnsafePointer<UInt32>? = nil) {
    self.base = base
    self.source = source
    self.mips = mips ?? source
  }
}

/// How the strip camera treats a panorama narrower than 360°.
public enum StripEdges: String, Hashable, Sendable {
  /// Stop at the image's edges (default).
  case clamp
  /// Repeat the image side by side, as the seed's three image views do.
  case `repeat`
}

/// How a view maps directions to its pixels.
public enum Lens: String, Hashable, Sendable, CaseIterable {
  /// A pinhole camera: straight lines stay straight; fields of view below 180°.
  case rectilinear
  /// Conformal (shapes kept locally, circles stay circles); fields of view up to nearly 360°.
  /// Looking straight down with a wide field it draws the "little planet".
  case stereographic
  /// Equidistant fisheye: distance from the centre proportional to the angle from the view
  /// axis; up to 360°, with background outside the circle of directions.
  case fisheye
  /// Longitude and latitude straight across and down, as ffmpeg's v360 `e` output: at 360°
  /// a whole panorama, turned by yaw, pitch and roll (to level one, say).
  case equirectangular

  /// The widest horizontal field of view the lens can show, in radians.
  public var maximumFieldOfView: Double {
    switch self {
    case .rectilinear: Elementary.pi - 0.01
    case .stereographic: Elementary.twoPi - 0.01
    case .fisheye, .equirectangular: Elementary.twoPi
    }
  }

  /// The fields of view a viewer's zoom moves between, radians: past 120° a rectilinear view
  /// stretches badly, and a stereographic one past 330° shows little but its rim.
  public var viewerFieldOfView: ClosedRange<Double> {
    let narrowest = Angle(degrees: 20).radians
    switch self {
    case .rectilinear: return narrowest...Angle(degrees: 120).radians
    case .stereographic: return narrowest...Angle(degrees: 330).radians
    case .fisheye, .equirectangular: return narrowest...Elementary.twoPi
    }
  }

  /// The focal length, in pixels, at which `halfWidth` pixels from the centre see half of
  /// `fieldOfView` (radians): a rectilinear lens sees tan θ at radius r (in focal lengths),
  /// a stereographic one 2 tan(θ/2), the fisheye and equirectangular ones θ.
  public func focalLength(halfWidth: Double, fieldOfView: Double) -> Double {
    switch self {
    case .rectilinear: halfWidth / Elementary.sin(fieldOfView / 2) * Elementary.cos(fieldOfView / 2)
    case .stereographic: halfWidth / 2 / Elementary.sin(fieldOfView / 4) * Elementary.cos(fieldOfView / 4)
    case .fisheye, .equirectangular: halfWidth / (fieldOfView / 2)
    }
  }

  /// The angle (radians) from the view axis seen `radius` focal lengths from the centre
  /// along an axis: the inverse of `focalLength`'s mapping.
  public func angle(atRadius radius: Double) -> Double {
    switch self {
    case .rectilinear: Elementary.atan(radius)
    case .stereographic: 2 * Elementary.atan(radius / 2)
    case .fisheye, .equirectangular: radius
    }
  }

  /// The field of view across `width` points of a view that sees `fieldOfView` radians
  /// along `length` points (the inverse of `verticalFieldOfView`).
  public func fieldOfView(across width: Double, seeing fieldOfView: Double, along length: Double) -> Double {
    let f = focalLength(halfWidth: length / 2, fieldOfView: fieldOfView)
    return 2 * angle(atRadius: width / 2 / f)
  }

  /// The vertical field of view (radians) of a `width`×`height` view with horizontal field
  /// `fieldOfView`.
  public func verticalFieldOfView(_ fieldOfView: Double, width: Double, height: Double) -> Double {
    let f = focalLength(halfWidth: width / 2, fieldOfView: fieldOfView)
    return 2 * angle(atRadius: height / 2 / f)
  }
}

/// What a GPU host needs to draw exactly the renderer's view: the camera's axes in the
/// panorama frame (x right, y up, z forward at yaw 0), column by column, the focal length
/// in pixels, and the source's placement. Pixel (px, py) from the top left looks along
/// `matrix · d(((px + 0.5 − width/2) / focal, (height/2 − py − 0.5) / focal))`, with `d` the
/// lens's inverse projection; longitude then gains `yaw`.
public struct CameraParameters: Hashable, Sendable {
  /// Column-major 3×3: the camera's right, up and forward axes.
  public var matrix: [Double]
  public var focal: Double
  public var yaw: Double

  public init(width: Int, height: Int, view: ViewAngles, hfov: Double, lens: Lens) {
    let fov = hfov.isFinite ? min(max(hfov, 0.01), lens.maximumFieldOfView) : Elementary.halfPi
    let c = PanoramaRenderer.Camera(
      width: width, height: height, pitch: view.pitch.isFinite ? view.pitch : 0, roll: view.roll.isFinite ? view.roll : 0,
      hfov: fov, lens: lens)
    matrix = [c.m.0, c.m.1, c.m.2, c.m.3, c.m.4, c.m.5, c.m.6, c.m.7, c.m.8]
    focal = c.focal
    yaw = PanoramaRenderer.turn(view.yaw)
  }
}

/// The size of the perspective renderer's blocks, in output pixels. The mapping is
/// evaluated exactly at each block's corners, edge middles and centre, and interpolated
/// biquadratically in between.
///
/// Wider than tall by default: each row of a block costs a fixed setup that a longer row
/// amortises. At 64 × 32 the interpolation is 0.008 source pixels off for a 90° view of an
/// 8192-wide panorama, 0.3 at hfov 150°: 2–3× closer than bilinear 16 × 16 blocks, with a
/// quarter of the exact evaluations and 10 % fewer instructions per pixel.
public struct GridSpacing: Hashable, Sendable {
  public var columns: Int
  public var rows: Int

  public init(columns: Int, rows: Int) {
    self.columns = columns
    self.rows = rows
  }
}

/// Draws views of a panorama on the CPU with bilinear filtering.
///
/// Perspective views map each output pixel to a direction and the direction to a source
/// pixel. That mapping is evaluated exactly on a grid of `gridSpacing` blocks (3 × 3 points
/// each) and interpolated biquadratically in between, so per-pixel work is a few integer
/// adds and the bilinear fetch: no trigonometry per pixel. The grid is computed for yaw 0
/// and cached: while only yaw changes (a turning user), a frame is a horizontal shift of the
/// cached grid. Blocks around a pole, where the mapping spans too many longitudes, are cut
/// into 8 × 8 pieces with their own exact points, and the piece holding the pole is
/// evaluated per pixel. Any angles and any geometry draw without trapping (positions far
/// outside the source draw as background).
public struct PanoramaRenderer: Sendable {
  public let source: RGBAImage
  public let geometry: PanoramaGeometry
  /// Pixels between exact evaluations of the perspective mapping, across and down.
  public var gridSpacing = defaultGridSpacing
  public static let defaultGridSpacing = GridSpacing(columns: 64, rows: 32)
  /// Colour outside a partial panorama.
  public var background: UInt32 = RGBAImage.pack(r: 0, g: 0, b: 0)
  /// Halved copies of the source that perspective views read where they step two or more
  /// source pixels per output pixel (near the poles, wide views): faster and without
  /// aliasing there. None until `buildMipLevels`; they add up to a third of the source.
  public private(set) var mipLevels = MipLevels()

  /// Builds the mip levels (see `mipLevels`).
  public mutating func buildMipLevels<E: RowExecutor>(executor: E) {
    mipLevels = MipLevels(source: source, executor: executor)
  }

  struct GridKey: Equatable {
    var width: Int, height: Int, pitch: Double, roll: Double, hfov: Double, lens: Lens, spacing: GridSpacing
  }
  var gridKey: GridKey?
  var columns: [Int] = []
  var rows: [Int] = []
  /// Source-pixel coordinates at yaw 0 of each grid point, x unwrapped.
  var gridU: [Double] = []
  var gridV: [Double] = []

  public init(source: RGBAImage, geometry: PanoramaGeometry) {
    precondition(source.width > 0 && source.height > 0, "empty panorama")
    self.source = source
    self.geometry = geometry
  }

  var scaleX: Double { Double(source.width) / geometry.croppedWidth }
  var scaleY: Double { Double(source.height) / geometry.croppedHeight }
  /// The wrap period in source pixels.
  var period: Double { geometry.fullWidth * scaleX }

  // MARK: - Perspective

  /// The camera-to-panorama rotation for pitch and roll (yaw is a shift), the lens, and the
  /// focal length in pixels.
  struct Camera {
    var m: (Double, Double, Double, Double, Double, Double, Double, Double, Double)
    var focal: Double
    var cx: Double
    var cy: Double
    var lens: Lens

    init(width: Int, height: Int, pitch: Double, roll: Double, hfov: Double, lens: Lens = .rectilinear) {
      let (sr, cr) = Elementary.sinCos(roll)
      let (sp, cp) = Elementary.sinCos(pitch)
      // Where the camera's x (right), y (up) and z (forward) axes go, after roll then pitch:
      // roll turns right → (cr, −sr, 0) and up → (sr, cr, 0); pitch turns y → (0, cp, −sp)
      // and z → (0, sp, cp). Stored as three columns.
      m = (cr, -sr * cp, sr * sp, sr, cr * cp, -cr * sp, 0, sp, cp)
      self.lens = lens
      // Half the width sees half the field of view: at radius r (in focal lengths) a
      // rectilinear lens sees tan θ, a stereographic one 2 tan(θ/2), a fisheye θ; the
      // equirectangular one maps x and y to longitude and latitude, one radian per focal length.
      focal = lens.focalLength(halfWidth: Double(width) / 2, fieldOfView: hfov)
      cx = Double(width) / 2
      cy = Double(height) / 2
    }

    /// Direction in the panorama frame (x right, y up, z forward at yaw 0) of pixel (px, py),
    /// not normalised (what reads it only needs ratios).
    func direction(_ px: Double, _ py: Double) -> Vector3 {
      let x = (px + 0.5 - cx) / focal, y = (cy - py - 0.5) / focal
      // Camera frame: the point on the focal plane; for the stereographic lens the inverse
      // projection (x, y, 1 − r²/4) / (1 + r²/4), whose scale does not matter; for the
      // fisheye the direction θ = r from the axis, (x·sin r / r, y·sin r / r, cos r).
      var (cx, cy, cz) = (x, y, 1.0)
      switch lens {
      case .rectilinear: break
      case .stereographic: cz = 1 - (x * x + y * y) / 4
      case .fisheye:
        let r = (x * x + y * y).squareRoot()
        let (sine, cosine) = Elementary.sinCos(r)
        let scale = r > 1e-12 ? sine / r : 1
        (cx, cy, cz) = (x * scale, y * scale, cosine)
      case .equirectangular:
        let (sinLon, cosLon) = Elementary.sinCos(x), (sinLat, cosLat) = Elementary.sinCos(y)
        (cx, cy, cz) = (cosLat * sinLon, sinLat, cosLat * cosLon)
      }
      return Vector3(
        m.0 * cx + m.3 * cy + m.6 * cz, m.1 * cx + m.4 * cy + m.7 * cz, m.2 * cx + m.5 * cy + m.8 * cz)
    }
  }

  /// Source coordinates (x unwrapped) of direction `d` at yaw 0.
  func sourcePosition(_ d: Vector3) -> (u: Double, v: Double) {
    let horizontal = (d.x * d.x + d.z * d.z).squareRoot()
    let p = geometry.fullPosition(longitude: Elementary.atan2(d.x, d.z), sinLatitude: d.y, horizontal: horizontal)
    return ((p.x - geometry.croppedLeft) * scaleX - 0.5, (p.y - geometry.croppedTop) * scaleY - 0.5)
  }

  static func gridLines(_ size: Int, _ spacing: Int) -> [Int] {
    var lines = Array(stride(from: 0, to: max(size - 1, 1), by: spacing))
    if lines.last != size - 1 && size > 1 { lines.append(size - 1) }
    if lines.isEmpty { lines = [0] }
    return lines
  }

  /// Where a block's three node lines lie along one axis: each block's edges and its middle.
  static func nodes(_ lines: [Int]) -> [Double] {
    let blocks = max(lines.count - 1, 1)
    var nodes = [Double](repeating: 0, count: 2 * blocks + 1)
    for b in 0..<blocks {
      let lo = Double(lines[b]), hi = Double(lines[min(b + 1, lines.count - 1)])
      nodes[2 * b] = lo
      nodes[2 * b + 1] = (lo + hi) / 2
      nodes[2 * b + 2] = hi
    }
    return nodes
  }

  mutating func prepareGrid<E: RowExecutor>(
    width: Int, height: Int, view: ViewAngles, hfov: Double, lens: Lens = .rectilinear, executor: E
  ) {
    let key = GridKey(
      width: width, height: height, pitch: view.pitch, roll: view.roll, hfov: hfov, lens: lens, spacing: gridSpacing)
    guard key != gridKey else { return }
    gridKey = key
    columns = Self.gridLines(width, max(gridSpacing.columns, 2))
    rows = Self.gridLines(height, max(gridSpacing.rows, 2))
    let camera = Camera(width: width, height: height, pitch: view.pitch, roll: view.roll, hfov: hfov, lens: lens)
    let (xs, ys) = (Self.nodes(columns), Self.nodes(rows))
    var us = [Double](repeating: 0, count: xs.count * ys.count), vs = us
    let renderer = self
    // Node rows are independent: the executor spreads them like the pixel bands.
    us.withUnsafeMutableBufferPointer { u in
      vs.withUnsafeMutableBufferPointer { v in
        let out = GridPointers(u: u.baseAddress!, v: v.baseAddress!)
        executor.run(ys.count) { r in
          for (c, x) in xs.enumerated() {
            let p = renderer.sourcePosition(camera.direction(x, ys[r]))
            out.u[r * xs.count + c] = p.u
            out.v[r * xs.count + c] = p.v
          }
        }
      }
    }
    gridU = us
    gridV = vs
  }

  struct GridPointers: @unchecked Sendable {
    let u: UnsafeMutablePointer<Double>
    let v: UnsafeMutablePointer<Double>
  }

  /// Renders a view into `output` (its size is the view's size).
  /// - Parameters:
  ///   - view: yaw, pitch, roll in radians.
  ///   - hfov: horizontal field of view in radians, in (0, `lens.maximumFieldOfView`].
  ///   - lens: any ``Lens``; rectilinear by default.
  ///   - output: the frame drawn into; its size is the view's.
  ///   - executor: runs the bands of rows (inline, or on threads the host owns).
  /// - Complexity: O(output pixels); the grid costs O(pixels / spacing²) when pitch, roll,
  ///   zoom or size changed since the last frame.
  public mutating func renderPerspective<E: RowExecutor>(
    view: ViewAngles, hfov: Double, lens: Lens = .rectilinear, into output: inout RGBAImage, executor: E
  ) {
    let width = output.width, height = output.height
    guard width > 0, height > 0 else { return }
    // Any angles draw something: non-finite ones count as 0 (a 90° field of view), and
    // yaw is taken modulo a turn so its shift in source pixels stays small.
    let fov = hfov.isFinite ? min(max(hfov, 0.01), lens.maximumFieldOfView) : Elementary.halfPi
    let view = ViewAngles(
      yaw: Self.turn(view.yaw), pitch: view.pitch.isFinite ? view.pitch : 0, roll: view.roll.isFinite ? view.roll : 0)
    prepareGrid(width: width, height: height, view: view, hfov: fov, lens: lens, executor: executor)
    let shift = view.yaw / Elementary.twoPi * period
    let camera = Camera(width: width, height: height, pitch: view.pitch, roll: view.roll, hfov: fov, lens: lens)
    let context = BlockContext(renderer: self, shift: shift, camera: camera, width: width)
    let bandCount = rows.count - 1 == 0 ? 1 : rows.count - 1
    withPixels(into: &output) { shared in
      executor.run(bandCount) { band in context.renderBand(band, shared) }
    }
  }

  /// The source's, the mip levels' and `output`'s pixels, for bands that write disjoint rows.
  func withPixels(into output: inout RGBAImage, _ body: (SharedPixels) -> Void) {
    source.pixels.withUnsafeBufferPointer { src in
      mipLevels.pixels.withUnsafeBufferPointer { mips in
        output.pixels.withUnsafeMutableBufferPointer { out in
          body(SharedPixels(base: out.baseAddress!, source: src.baseAddress!, mips: mips.baseAddress))
        }
      }
    }
  }

  /// `angle` within one turn (exactly: the remainder is exact), or 0 if it is not finite.
  static func turn(_ angle: Double) -> Double {
    angle.isFinite ? angle.truncatingRemainder(dividingBy: Elementary.twoPi) : 0
  }

  /// What a band needs, copied out of the renderer so bands share nothing mutable.
  struct BlockContext: Sendable {
    let columns: [Int], rows: [Int], gridU: [Double], gridV: [Double]
    let shift: Double, period: Double, wraps: Bool
    let srcW: Int, srcH: Int, width: Int
    /// The source (offset 0) and its mip levels.
    let levels: [MipLevels.Level]
    let background: UInt32
    let renderer: PanoramaRenderer
    let camera: Camera

    init(renderer: PanoramaRenderer, shift: Double, camera: Camera, width: Int) {
      columns = renderer.columns
      rows = renderer.rows
      gridU = renderer.gridU
      gridV = renderer.gridV
      self.shift = shift
      period = renderer.period
      wraps = renderer.geometry.wraps
      srcW = renderer.source.width
      srcH = renderer.source.height
      levels = [MipLevels.Level(offset: 0, width: srcW, height: srcH)] + renderer.mipLevels.levels
      self.width = width
      background = renderer.background
      self.renderer = renderer
      self.camera = camera
    }

    /// One block of the grid: its pixels and their mapping to the source.
    struct Block {
      let xs: ClosedRange<Int>, ys: ClosedRange<Int>
      /// Where the block reads, or nil where a pole is in the block and the mapping bends too
      /// much to interpolate.
      let patch: Patch?
      /// The next mip level, faded in by `upperWeight` / 256 where the block's step nears it.
      var upper: Patch? = nil
      var upperWeight: UInt32 = 0
    }

    /// Where a block reads at one mip level: source x and y across it.
    struct Patch {
      let u: BlockStepper, v: BlockStepper
      /// Every sample and its neighbours lie inside the level: no wrapping or clamping.
      let inside: Bool
      /// 0: the source.
      let level: Int
    }

    /// The output rows of band `band` (a row of blocks): its top grid line to the next,
    /// which belongs to the band below unless this is the last band.
    func bandRows(_ band: Int) -> ClosedRange<Int> {
      let y0 = rows[band]
      let y1 = band + 1 < rows.count ? rows[band + 1] : y0
      return y0...(band + 1 >= rows.count - 1 ? y1 : y1 - 1)
    }

    func block(band: Int, column blockX: Int) -> Block {
      let nc = columns.count
      let ys = bandRows(band)
      let y1 = band + 1 < rows.count ? rows[band + 1] : ys.lowerBound
      let x0 = columns[blockX]
      let x1 = blockX + 1 < nc ? columns[blockX + 1] : x0
      let xEnd = blockX + 1 >= nc - 1 ? x1 : x1 - 1
      // The block's 3×3 nodes, row by row, in lanes 0–8 (the rest repeat lane 0). Vectors,
      // not arrays: a heap allocation per block cost more than the block's pixels.
      let nodesPerRow = 2 * max(nc - 1, 1) + 1
      var u = SIMD16<Double>(), v = u
      for j in 0..<3 {
        for i in 0..<3 {
          let g = (2 * band + j) * nodesPerRow + 2 * blockX + i
          u[3 * j + i] = gridU[g] + shift
          v[3 * j + i] = gridV[g]
        }
      }
      return interpolated(u, v, xs: x0...xEnd, ys: ys, span: (x1 - x0, y1 - ys.lowerBound))
    }

    /// A block through nodes `u`, `v` (lanes 0–8, row by row, at 0, span/2 and span across
    /// and down): nil steppers when it cannot be interpolated.
    func interpolated(
      _ u: SIMD16<Double>, _ v: SIMD16<Double>, xs: ClosedRange<Int>, ys: ClosedRange<Int>, span: (Int, Int)
    ) -> Block {
      var u = u, v = v
      // Unwrap the nodes next to the first; a block spanning too much longitude (a pole is
      // in it) cannot be interpolated.
      let half = period / 2
      for k in 1..<9 {
        if u[k] - u[0] > half { u[k] -= period } else if u[0] - u[k] > half { u[k] += period }
      }
      for k in 9..<16 {
        u[k] = u[0]
        v[k] = v[0]
      }
      if u.max() - u.min() > period / 8 { return Block(xs: xs, ys: ys, patch: nil) }
      // Stepping two or more source pixels per output pixel: read the mip level whose pixels
      // are about as large as the step (rounded down, so views stay sharp).
      let (level, fade) = levels.count > 1 ? Self.level(u, v, span: span, count: levels.count) : (0, 0)
      var block = Block(xs: xs, ys: ys, patch: patch(u, v, level: level, span: span))
      if block.patch != nil, fade > 0, let upper = patch(u, v, level: level + 1, span: span) {
        block.upper = upper
        block.upperWeight = UInt32(min(max(fade * 256, 1), 255))
      }
      return block
    }

    /// Steppers through nodes `u`, `v` (source pixels, u unwrapped) at mip level `level`, or
    /// nil where a node is too far outside any source for fixed point.
    func patch(_ u: SIMD16<Double>, _ v: SIMD16<Double>, level: Int, span: (Int, Int)) -> Patch? {
      var u = u, v = v
      let size = levels[level]
      var levelPeriod = period
      if level > 0 {
        let scale = Double(1 << level)
        u = (u + 0.5) / scale - 0.5
        v = (v + 0.5) / scale - 0.5
        levelPeriod /= scale
      }
      var ulo = u.min(), uhi = u.max()
      // Bring the block into [0, period) at its left-most point, so one subtraction wraps.
      if wraps && levelPeriod > 0 {
        let k = (ulo / levelPeriod).rounded(.down) * levelPeriod
        u -= SIMD16(repeating: k)
        ulo -= k
        uhi -= k
      }
      // Far outside any source (metadata or a geometry that says so): per pixel, where such
      // positions become background instead of overflowing fixed point. Lane by lane: a
      // vector's min() passes over NaN.
      for k in 0..<9 where !Self.fixedPointSafe(u[k]) || !Self.fixedPointSafe(v[k]) { return nil }
      let vlo = v.min(), vhi = v.max()
      // Between nodes the patch can bulge past them, by less than its second differences.
      let margin = 1 + BlockStepper.bulge(u) + BlockStepper.bulge(v)
      // Four-pixel groups hold 16.16 coordinates and source indices in 32-bit lanes.
      let (w, h) = (size.width, size.height)
      let inside =
        ulo - margin >= 0 && uhi + margin < Double(w - 1) && vlo - margin >= 0 && vhi + margin < Double(h - 1)
        && w < 1 << 16 && Int64(w) &* Int64(h) < 1 << 32
      return Patch(
        u: BlockStepper(u, width: span.0, height: span.1), v: BlockStepper(v, width: span.0, height: span.1),
        inside: inside, level: level)
    }

    /// The mip level for a block through nodes `u`, `v` (source pixels, u unwrapped): the
    /// largest whose pixels are no larger than the block's smaller step per output pixel
    /// (across or down). The smaller: towards a pole an equirectangular view steps far more
    /// across than down, and a level chosen by the larger step blurred the latitude lines and
    /// showed the seams between blocks of different levels.
    ///
    /// `fade` (0 to 1) is how far the block is into the last quarter octave before the next
    /// level: the next level is blended in by that much, so while a view zooms a block's
    /// picture changes smoothly instead of jumping from one level to the next.
    static func level(
      _ u: SIMD16<Double>, _ v: SIMD16<Double>, span: (Int, Int), count: Int
    ) -> (level: Int, fade: Double) {
      var across = 0.0, down = 0.0
      for k in 0..<3 {
        across = max(across, hypot(u[3 * k + 2] - u[3 * k], v[3 * k + 2] - v[3 * k]))
        down = max(down, hypot(u[k + 6] - u[k], v[k + 6] - v[k]))
      }
      var step = min(across / Double(max(span.0, 1)), down / Double(max(span.1, 1)))
      var level = 0
      while step >= 2 && level + 1 < count {
        step /= 2
        level += 1
      }
      // log2(step) in the last quarter octave, [0.75, 1): fade towards the next level.
      let fadeStart = 1.681_792_830_507_429  // 2^0.75
      guard level + 1 < count, step > fadeStart, step < 2 else { return (level, 0) }
      return (level, (Elementary.log(step) / Elementary.log(2) - 0.75) * 4)
    }

    static func hypot(_ a: Double, _ b: Double) -> Double { (a * a + b * b).squareRoot() }

    func renderBand(_ band: Int, _ px: SharedPixels) {
      for blockX in 0..<max(columns.count - 1, 1) {
        render(block(band: band, column: blockX), px)
      }
      if camera.lens == .fisheye { maskFisheye(band, px) }
    }

    /// A fisheye sees every direction within π of its axis: pixels farther out than π focal
    /// lengths from the centre have no direction and show the background. (The mapping runs
    /// on smoothly past the circle, so blocks straddling it draw, and this paints over.)
    func maskFisheye(_ band: Int, _ px: SharedPixels) {
      let limit = Elementary.pi * camera.focal
      for y in bandRows(band) {
        let dy = camera.cy - Double(y) - 0.5
        let half = limit * limit - dy * dy > 0 ? (limit * limit - dy * dy).squareRoot() : -1
        // Pixel x is inside when |x + 0.5 − cx| ≤ half.
        let first = half < 0 ? width : max(0, Int((camera.cx - half - 0.5).rounded(.up)))
        let last = half < 0 ? -1 : min(width - 1, Int((camera.cx + half - 0.5).rounded(.down)))
        let row = px.base + y * width
        for x in 0..<min(first, width) { row[x] = background }
        for x in max(last + 1, 0)..<width { row[x] = background }
      }
    }

    /// Around a pole a grid block spans too many longitudes to interpolate: it is cut into
    /// 8 × 8 pieces with their own exact nodes, and only the pieces still too wide (the one
    /// holding the pole) are evaluated per pixel. (Per pixel for the whole block took an
    /// eighth of a frame looking 80° up.)
    func subdivide(_ xs: ClosedRange<Int>, _ ys: ClosedRange<Int>, _ px: SharedPixels) {
      guard xs.count > 8 || ys.count > 8 else {
        exactBlock(xs, ys, px)
        return
      }
      for top in stride(from: ys.lowerBound, through: ys.upperBound, by: 8) {
        let bottom = min(top + 7, ys.upperBound)
        for left in stride(from: xs.lowerBound, through: xs.upperBound, by: 8) {
          let right = min(left + 7, xs.upperBound)
          var u = SIMD16<Double>(), v = u
          for j in 0..<3 {
            for i in 0..<3 {
              let x = Double(left) + Double(right - left) * Double(i) / 2
              let y = Double(top) + Double(bottom - top) * Double(j) / 2
              let p = renderer.sourcePosition(camera.direction(x, y))
              u[3 * j + i] = p.u + shift
              v[3 * j + i] = p.v
            }
          }
          let piece = interpolated(u, v, xs: left...right, ys: top...bottom, span: (right - left, bottom - top))
          if piece.patch == nil { exactBlock(piece.xs, piece.ys, px) } else { render(piece, px) }
        }
      }
    }

    func render(_ block: Block, _ px: SharedPixels) {
      guard let patch = block.patch else {
        subdivide(block.xs, block.ys, px)
        return
      }
      draw(patch, block, px, mixing: 0)
      if let upper = block.upper { draw(upper, block, px, mixing: block.upperWeight) }
    }

    /// Draws `patch` over the block's pixels, or with `mixing` > 0 blends it into what is
    /// there by `mixing` / 256.
    @inline(__always) func draw(_ patch: Patch, _ block: Block, _ px: SharedPixels, mixing: UInt32) {
      // The block's mapping is stepped in 32.32 fixed point: a row costs a few integer adds
      // and a pixel none (interpolating in doubles per row cost a fifth of the frame).
      var uRows = patch.u, vRows = patch.v
      let size = levels[patch.level]
      let source = patch.level == 0 ? px.source : px.mips + size.offset
      let x0 = block.xs.lowerBound
      let pixels = block.xs.count
      let groups = patch.inside ? pixels >> 2 : 0
      for y in block.ys {
        var out = px.base + (y &* width &+ x0)
        if groups > 0 {
          var us = uRows.lanes(), vs = vRows.lanes()
          var uStep = uRows.laneSteps(), vStep = vRows.laneSteps()
          let uBend = uRows.laneBend(), vBend = vRows.laneBend()
          for _ in 0..<groups {
            let four = blendFour(us, vs, source, size.width)
            let raw = UnsafeMutableRawPointer(out)
            if mixing == 0 {
              raw.storeBytes(of: four, as: SIMD4<UInt32>.self)
            } else {
              raw.storeBytes(of: Self.mix(raw.loadUnaligned(as: SIMD4<UInt32>.self), four, mixing), as: SIMD4<UInt32>.self)
            }
            out += 4
            us &+= uStep
            vs &+= vStep
            uStep &+= uBend
            vStep &+= vBend
          }
        }
        for x in (groups << 2)..<pixels {
          let value = sample(uRows.at(x), vRows.at(x), source, size.width, size.height)
          out.pointee = mixing == 0 ? value : lerp(out.pointee, value, mixing)
          out += 1
        }
        uRows.nextRow()
        vRows.nextRow()
      }
    }

    /// `a` blended towards `b` by `f` / 256, four pixels at once (as `lerp`).
    @inline(__always) static func mix(_ a: SIMD4<UInt32>, _ b: SIMD4<UInt32>, _ f: UInt32) -> SIMD4<UInt32> {
      let mask = SIMD4<UInt32>(repeating: 0x00FF_00FF)
      let g = SIMD4<UInt32>(repeating: 256 - f), h = SIMD4<UInt32>(repeating: f)
      let rb = ((a & mask) &* g &+ (b & mask) &* h) &>> 8 & mask
      let ga = (((a &>> 8) & mask) &* g &+ ((b &>> 8) & mask) &* h) & ~mask
      return rb | ga
    }

    /// A biquadratic patch through a block's 3×3 nodes (edges and middles), stepped in 32.32
    /// fixed point. Along a row the value is `a + b·x + c·x²`; `a`, `b` and `c` are quadratics
    /// in the row, each stepped by forward differences (value, difference, second difference).
    /// Bilinear patches were 10× further off near the poles and at wide angles.
    struct BlockStepper {
      var a: Quadratic, b: Quadratic, c: Quadratic

      struct Quadratic {
        // Int64, not Int: Int is 32 bits on wasm32, where 32.32 would overflow at once.
        var value: Int64, difference: Int64
        let secondDifference: Int64

        /// Through `q0`, `q1`, `q2` at 0, n/2 and n, in steps of 1.
        init(_ q0: Double, _ q1: Double, _ q2: Double, over n: Int) {
          let one = 4_294_967_296.0, span = Double(max(n, 1))
          let square = 2 * (q0 - 2 * q1 + q2) / (span * span), linear = (4 * q1 - 3 * q0 - q2) / span
          value = Int64(q0 * one)
          difference = Int64((linear + square) * one)
          secondDifference = Int64(2 * square * one)
        }

        mutating func step() {
          value &+= difference
          difference &+= secondDifference
        }

        /// The value `n` steps on, as `n` calls of `step()` would leave it.
        func after(_ n: Int) -> Int64 {
          let n = Int64(n)
          return value &+ difference &* n &+ secondDifference &* (n &* (n &- 1) / 2)
        }
      }

      /// `nodes`: nine values, row by row, at x = 0, width/2, width and y = 0, height/2, height.
      init(_ nodes: SIMD16<Double>, width: Int, height: Int) {
        let w = Double(max(width, 1))
        var rowA = SIMD4<Double>(), rowB = rowA, rowC = rowA
        for j in 0..<3 {
          let f0 = nodes[3 * j], f1 = nodes[3 * j + 1], f2 = nodes[3 * j + 2]
          rowA[j] = f0
          rowB[j] = (4 * f1 - 3 * f0 - f2) / w
          rowC[j] = 2 * (f0 - 2 * f1 + f2) / (w * w)
        }
        a = Quadratic(rowA[0], rowA[1], rowA[2], over: height)
        b = Quadratic(rowB[0], rowB[1], rowB[2], over: height)
        c = Quadratic(rowC[0], rowC[1], rowC[2], over: height)
      }

      /// How far the patch can stray beyond its nodes: a bound from its second differences.
      static func bulge(_ nodes: SIMD16<Double>) -> Double {
        var most = 0.0
        for k in 0..<3 {
          most = max(most, abs(nodes[3 * k] - 2 * nodes[3 * k + 1] + nodes[3 * k + 2]))
          most = max(most, abs(nodes[k] - 2 * nodes[k + 3] + nodes[k + 6]))
        }
        return 2 * most
      }

      mutating func nextRow() {
        a.step()
        b.step()
        c.step()
      }

      /// The 16.16 value at column `x` of the current row.
      func at(_ x: Int) -> Int {
        let x = Int64(x)
        return Int(truncatingIfNeeded: (a.value &+ b.value &* x &+ c.value &* x &* x) >> 16)
      }

      /// The 16.16 values at columns 0–3 of the current row.
      func lanes() -> SIMD4<UInt32> {
        func lane(_ k: Int) -> UInt32 { UInt32(truncatingIfNeeded: at(k)) }
        return SIMD4(lane(0), lane(1), lane(2), lane(3))
      }

      /// How far each lane moves over four columns from columns 0–3: 4b + c·(8k + 16).
      func laneSteps() -> SIMD4<UInt32> {
        func lane(_ k: Int) -> UInt32 {
          UInt32(truncatingIfNeeded: (4 &* b.value &+ c.value &* Int64(8 &* k &+ 16)) >> 16)
        }
        return SIMD4(lane(0), lane(1), lane(2), lane(3))
      }

      /// How much `laneSteps` grows every four columns: 32c.
      func laneBend() -> SIMD4<UInt32> { SIMD4(repeating: UInt32(truncatingIfNeeded: (32 &* c.value) >> 16)) }

      /// The 16.16 value at `column`, `row` as the render loop reaches it: through four-pixel
      /// groups when `grouped`, else pixel by pixel.
      func value(column: Int, row: Int, grouped: Bool) -> Int {
        var moved = self
        moved.a.value = a.after(row)
        moved.b.value = b.after(row)
        moved.c.value = c.after(row)
        guard grouped else { return moved.at(column) }
        let k = column & 3, g = column >> 2
        let start = Int(moved.lanes()[k]), step = Int(moved.laneSteps()[k]), bend = Int(moved.laneBend()[k])
        return Int(UInt32(truncatingIfNeeded: start &+ step &* g &+ bend &* (g &* (g &- 1) / 2)))
      }
    }

    func exactBlock(_ xs: ClosedRange<Int>, _ ys: ClosedRange<Int>, _ px: SharedPixels) {
      for y in ys {
        for x in xs {
          var p = renderer.sourcePosition(camera.direction(Double(x), Double(y)))
          p.u += shift
          if wraps {
            p.u -= (p.u / period).rounded(.down) * period
          }
          px.base[y * width + x] =
            Self.fixedPointSafe(p.u) && Self.fixedPointSafe(p.v)
            ? sample(Int(p.u * 65536), Int(p.v * 65536), px.source, srcW, srcH) : background
        }
      }
    }

    /// Whether a source coordinate converts to 32.32 fixed point (and so to 16.16): finite
    /// and within ±2^30 pixels, far beyond any source.
    static func fixedPointSafe(_ x: Double) -> Bool { abs(x) < 1_073_741_824 }

    /// Bilinear fetch at 16.16 fixed-point coordinates in `src`, `srcW` × `srcH` pixels.
    @inline(__always) func sample(
      _ u: Int, _ v: Int, _ src: UnsafePointer<UInt32>, _ srcW: Int, _ srcH: Int
    ) -> UInt32 {
      var xi = u >> 16
      var yi = v >> 16
      var fx = UInt32(truncatingIfNeeded: (u >> 8) & 255)
      var fy = UInt32(truncatingIfNeeded: (v >> 8) & 255)
      var xn: Int
      if wraps {
        // Usually one period off at most, but a geometry whose period is not the source's
        // width (inconsistent metadata) can be further: reduce fully, never read outside.
        if xi >= srcW || xi < 0 { xi = (xi % srcW + srcW) % srcW }
        xn = xi + 1 == srcW ? 0 : xi + 1
      } else {
        if xi < -1 || xi >= srcW { return background }
        if xi < 0 {
          xi = 0
          fx = 0
        }
        xn = xi + 1 < srcW ? xi + 1 : xi
      }
      if yi < 0 {
        if yi < -1 && !wrapsVertically { return background }
        yi = 0
        fy = 0
      }
      var yn = yi + 1
      if yn >= srcH {
        if yi >= srcH && !wrapsVertically { return background }
        yi = srcH - 1
        yn = yi
        fy = 0
      }
      if xn < 0 { xn = 0 }
      let row0 = src + yi * srcW, row1 = src + yn * srcW
      let top = lerp(row0[xi], row0[xn], fx)
      let bottom = lerp(row1[xi], row1[xn], fx)
      return lerp(top, bottom, fy)
    }

    /// Four bilinear samples along a row, all known to lie inside the source, at 16.16
    /// coordinates in 32-bit lanes (inside blocks they are positive and below 2^32).
    @inline(__always) func blendFour(
      _ us: SIMD4<UInt32>, _ vs: SIMD4<UInt32>, _ src: UnsafePointer<UInt32>, _ w: Int
    ) -> SIMD4<UInt32> {
      let fx = (us &>> 8) & 255, fy = (vs &>> 8) & 255
      let xi = us &>> 16, yi = vs &>> 16
      // Built from explicit loads: a loop writing lanes one by one goes through the stack.
      let index = yi &* UInt32(truncatingIfNeeded: w) &+ xi
      let p0 = src + Int(index[0]), p1 = src + Int(index[1]), p2 = src + Int(index[2]), p3 = src + Int(index[3])
      let t00 = SIMD4<UInt32>(p0[0], p1[0], p2[0], p3[0])
      let t01 = SIMD4<UInt32>(p0[1], p1[1], p2[1], p3[1])
      let t10 = SIMD4<UInt32>(p0[w], p1[w], p2[w], p3[w])
      let t11 = SIMD4<UInt32>(p0[w &+ 1], p1[w &+ 1], p2[w &+ 1], p3[w &+ 1])
      // Two channels per 32-bit lane (red and blue, then green and alpha), each in its own
      // 16-bit half, weighted by the four bilinear weights at once. The weights sum to 256, so
      // a channel's sum is at most 255 × 256 + 128: 16-bit multiplies (one cheap instruction,
      // where a 32-bit one is two slow ones on many x86 cores) never carry.
      @inline(__always) func halves(_ w: SIMD4<UInt32>) -> SIMD8<UInt16> {
        unsafeBitCast(w | w &<< 16, to: SIMD8<UInt16>.self)
      }
      let fx2 = halves(fx), fy2 = halves(fy)
      let w11 = (fx2 &* fy2 &+ 128) &>> 8
      let w01 = fx2 &- w11, w10 = fy2 &- w11
      let w00 = SIMD8<UInt16>(repeating: 256) &- fx2 &- fy2 &+ w11
      let mask = SIMD4<UInt32>(repeating: 0x00FF_00FF)
      @inline(__always) func weighted(
        _ a: SIMD4<UInt32>, _ b: SIMD4<UInt32>, _ c: SIMD4<UInt32>, _ d: SIMD4<UInt32>
      ) -> SIMD8<UInt16> {
        func channels(_ t: SIMD4<UInt32>) -> SIMD8<UInt16> { unsafeBitCast(t & mask, to: SIMD8<UInt16>.self) }
        return channels(a) &* w00 &+ channels(b) &* w01 &+ channels(c) &* w10 &+ channels(d) &* w11
          &+ SIMD8(repeating: 128)
      }
      let rb = unsafeBitCast(weighted(t00, t01, t10, t11) &>> 8, to: SIMD4<UInt32>.self)
      let ga16 = weighted(t00 &>> 8, t01 &>> 8, t10 &>> 8, t11 &>> 8) & SIMD8<UInt16>(repeating: 0xFF00)
      let ga = unsafeBitCast(ga16, to: SIMD4<UInt32>.self)
      return rb | ga
    }

    /// Full-sphere panoramas clamp at the poles instead of showing background.
    var wrapsVertically: Bool { wraps }
  }

  // MARK: - Strip

  /// Renders the seed's strip camera: the image fitted to the view's height, moved sideways
  /// by `yaw / fieldOfView × strip width`, wrapping for 360° images and clamped or repeated
  /// for partial ones.
  public func renderStrip<E: RowExecutor>(
    yaw: Double, edges: StripEdges = .clamp, into output: inout RGBAImage, executor: E
  ) {
    let width = output.width, height = output.height
    guard width > 0, height > 0 else { return }
    let strip = StripCamera(
      imageWidth: source.width, imageHeight: source.height, viewWidth: width, viewHeight: height,
      fieldOfView: geometry.horizontalFOV)
    let repeats = geometry.wraps || edges == .repeat
    // A repeating strip is the same after a turn of one image width: reduce yaw by that, so a
    // huge yaw cannot make huge coordinates; a non-finite one counts as 0.
    let fieldOfView = geometry.horizontalFOV
    let yaw = !yaw.isFinite ? 0 : (repeats && fieldOfView > 0 ? yaw.truncatingRemainder(dividingBy: fieldOfView) : yaw)
    var offset = strip.offset(yaw: yaw, edges: repeats ? .repeat : .clamp)
    if !offset.isFinite { offset = 0 }  // a field of view of 0 from absurd metadata
    // A strip fitted to a view much lower than the image steps several pixels per output
    // pixel: read the mip level that averages them, as the perspective view does.
    var scale = Double(source.height) / Double(height)
    var level = 0
    while scale >= 2 && level < mipLevels.levels.count {
      scale /= 2
      level += 1
    }
    let size = level == 0 ? nil : mipLevels.levels[level - 1]
    let srcW = size?.width ?? source.width, srcH = size?.height ?? source.height
    // Per-column and per-row source coordinates (16.16): the strip is separable.
    var us = [Int](repeating: 0, count: width)
    for x in 0..<width {
      var u = (Double(x) + 0.5 - Double(width) / 2 + strip.stripWidth / 2 + offset) * scale - 0.5
      if repeats { u -= (u / Double(srcW)).rounded(.down) * Double(srcW) }
      us[x] = BlockContext.fixedPointSafe(u) ? Int(u * 65536) : -1 << 40  // far left: background
    }
    var vs = [Int](repeating: 0, count: height)
    for y in 0..<height { vs[y] = Int(((Double(y) + 0.5) * scale - 0.5) * 65536) }
    let stripContext = StripContext(
      us: us, vs: vs, repeats: repeats, srcW: srcW, srcH: srcH, background: background, mipOffset: size?.offset)
    let bands = (height + 15) / 16
    withPixels(into: &output) { shared in
      executor.run(bands) { band in stripContext.render(band, shared) }
    }
  }

  /// What a strip band needs: the separable coordinate tables and the source's size.
  struct StripContext: Sendable {
    let us: [Int], vs: [Int]
    let repeats: Bool
    let srcW: Int, srcH: Int
    let background: UInt32
    /// Where the mip level read lies among the levels; nil: the source itself.
    let mipOffset: Int?

    func render(_ band: Int, _ px: SharedPixels) {
      let width = us.count
      let source = mipOffset.map { px.mips + $0 } ?? px.source
      for y in (band * 16)..<min(band * 16 + 16, vs.count) {
        let v = vs[y]
        for x in 0..<width {
          let u = us[x]
          if !repeats && (u < -65536 || (u >> 16) >= srcW) {
            px.base[y * width + x] = background
          } else {
            px.base[y * width + x] = sample(u, v, source)
          }
        }
      }
    }
  }
}

extension PanoramaRenderer.StripContext {
  /// Bilinear fetch at 16.16 coordinates; x repeats or clamps, y clamps.
  @inline(__always) func sample(_ u: Int, _ v: Int, _ src: UnsafePointer<UInt32>) -> UInt32 {
    var xi = u >> 16
    var fx = UInt32(truncatingIfNeeded: (u >> 8) & 255)
    if xi < 0 {
      xi = repeats ? srcW - 1 : 0
      if !repeats { fx = 0 }
    } else if xi >= srcW {
      // Rounding in the column table can land a repeated position on the width itself.
      xi = repeats ? xi % srcW : srcW - 1
    }
    let xn = xi + 1 < srcW ? xi + 1 : (repeats ? 0 : xi)
    var yi = v >> 16
    var fy = UInt32(truncatingIfNeeded: (v >> 8) & 255)
    if yi < 0 {
      yi = 0
      fy = 0
    }
    var yn = yi + 1
    if yn >= srcH {
      yi = min(yi, srcH - 1)
      yn = yi
      fy = 0
    }
    let row0 = src + yi * srcW, row1 = src + yn * srcW
    return lerp(lerp(row0[xi], row0[xn], fx), lerp(row1[xi], row1[xn], fx), fy)
  }
}

/// Blends two RGBA pixels: `a` at f = 0, `b` at f = 256, two channels per multiply.
@inline(__always) func lerp(_ a: UInt32, _ b: UInt32, _ f: UInt32) -> UInt32 {
  let g = 256 &- f
  let rb = (((a & 0x00FF_00FF) &* g &+ (b & 0x00FF_00FF) &* f) >> 8) & 0x00FF_00FF
  let ga = (((a >> 8) & 0x00FF_00FF) &* g &+ ((b >> 8) & 0x00FF_00FF) &* f) & 0xFF00_FF00
  return rb | ga
}

/// The seed's strip arithmetic (PanViewer): the image fitted to the view height; the strip
/// moves by `yaw / fieldOfView` of its width.
public struct StripCamera: Hashable, Sendable {
  /// Width of the fitted image, in view pixels (`image.width × view.height / image.height`).
  public var stripWidth: Double
  public var viewWidth: Double
  public var fieldOfView: Double

  public init(imageWidth: Int, imageHeight: Int, viewWidth: Int, viewHeight: Int, fieldOfView: Double) {
    stripWidth = Double(imageWidth) * Double(viewHeight) / Double(imageHeight)
    self.viewWidth = Double(viewWidth)
    self.fieldOfView = fieldOfView
  }

  /// How far the strip has moved, in view pixels, for `yaw` radians: `yaw / fov × width`,
  /// clamped so a partial image never leaves a blank edge when `edges` is `.clamp`.
  public func offset(yaw: Double, edges: StripEdges) -> Double {
    let raw = yaw / fieldOfView * stripWidth
    guard edges == .clamp else { return raw }
    let limit = max(0, (stripWidth - viewWidth) / 2)
    return min(max(raw, -limit), limit)
  }
}
