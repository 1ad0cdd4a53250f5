import CoreMath

/// Draws views straight from a video decoder's 4:2:0 planes: luma sampled at full
/// resolution, chroma at half, and only the output's pixels converted (a 5760 × 2880 frame
/// is never turned into RGBA). Into a ``YUVImage`` (for an encoder or a pipe) nothing is
/// converted at all: Y′CbCr in, the same Y′CbCr out, chroma sampled once per 2 × 2 output
/// pixels; into an ``RGBAImage`` each output pixel is converted once.
///
/// The mapping from output pixel to source position is evaluated exactly at each block's
/// corners, edge middles and centre (blocks of `blockSize`) and interpolated
/// biquadratically in between, as ``PanoramaRenderer`` does; the nodes are cached while
/// only the yaw changes (unless the clip's pose tilts the sphere). Blocks around a pole,
/// where the mapping bends too much, are evaluated per pixel. Bilinear taps wrap around a
/// full 360° source and clamp at its top and bottom; outside a partial one is background.
/// `renderExact` is the float64 reference the tests hold this to.
public struct YUVRenderer: Sendable {
  /// Where one eye's picture (`width`×`height` luma pixels) sits in the sphere.
  public let geometry: PanoramaGeometry
  /// The size of one eye's picture in luma pixels (`SphericalVideo.eye(width:height:)` of the frame).
  public let width: Int, height: Int
  /// The clip's spherical metadata: its pose is undone when drawing.
  public let video: SphericalVideo
  /// Pixels between exact evaluations of the mapping, at most: a block also spans at most a
  /// 24th of the view, since a quadratic through three nodes of a wider span of a small view
  /// missed the exact mapping by half a pixel (a 64-pixel block of a 160-pixel view).
  public var blockSize = GridSpacing(columns: 64, rows: 32)
  /// The host's C version of the inner loop for 4:2:0 output (`Raster.YUVKernels`); nil:
  /// the portable Swift loop, the reference.
  public var kernel: YUVKernel?

  struct Key: Equatable {
    var width: Int, height: Int, hfov: Double, lens: Lens, eye: Double?, view: ViewAngles, blocks: GridSpacing
  }
  var key: Key?
  var nodes = Nodes()

  /// Source positions (u unwrapped, luma pixels, centres at integers) at each block's 3 × 3
  /// nodes, `perRow` to a row.
  struct Nodes {
    var u: [Double] = [], v: [Double] = []
    var columns: [Int] = [], rows: [Int] = []
    var perRow = 0
  }

  /// A renderer for a clip described by `video` whose eye picture (`SphericalVideo.eye(width:height:)` of the
  /// decoded frame) is `width`×`height` luma pixels.
  ///
  /// - Throws: ``ImageError`` naming `width` or `height` when it is below 2 (a bilinear tap
  ///   needs two samples each way).
  public init(width: Int, height: Int, video: SphericalVideo) throws(ImageError) {
    guard width > 1 else { throw ImageError(field: "width", message: "\(width) is below the minimum of 2") }
    guard height > 1 else { throw ImageError(field: "height", message: "\(height) is below the minimum of 2") }
    self.width = width
    self.height = height
    self.video = video
    geometry = video.geometry(eyeWidth: width, eyeHeight: height)
  }

  var scaleX: Double { Double(width) / geometry.croppedWidth }
  var scaleY: Double { Double(height) / geometry.croppedHeight }
  var period: Double { geometry.fullWidth * scaleX }
  /// Full 360° around: taps wrap (by `width`, which is then the period).
  var wraps: Bool { geometry.wraps }
  /// Pole to pole: rows clamp at the top and bottom instead of showing background.
  var coversPoles: Bool { geometry.croppedHeight >= geometry.fullHeight - 0.5 }
  /// Whether yaw is a horizontal shift of the cached nodes: the pose only turns about up.
  var yawShifts: Bool { video.pose.pitch == 0 && video.pose.roll == 0 }

  /// Source position (luma pixels, centres at integers; u not wrapped) of direction `d` in
  /// the projection's frame.
  func sourcePosition(_ d: Vector3) -> (u: Double, v: Double) {
    let horizontal = (d.x * d.x + d.z * d.z).squareRoot()
    let p = geometry.fullPosition(longitude: Elementary.atan2(d.x, d.z), sinLatitude: d.y, horizontal: horizontal)
    return ((p.x - geometry.croppedLeft) * scaleX - 0.5, (p.y - geometry.croppedTop) * scaleY - 0.5)
  }

  /// The view's mapping from output pixels to projection directions.
  struct Mapping {
    let camera: PanoramaRenderer.Camera
    let m: [Double]

    init(
      width: Int, height: Int, view: ViewAngles, hfov: Double, lens: Lens, eye: Double? = nil, video: SphericalVideo
    ) {
      camera = PanoramaRenderer.Camera(width: width, height: height, pitch: 0, roll: 0, hfov: hfov, lens: lens, eye: eye)
      m = video.projectionMatrix(view: view)
    }

    func direction(_ px: Double, _ py: Double) -> Vector3 {
      let (x, y, z) = camera.ray((px + 0.5 - camera.cx) / camera.focal, (camera.cy - py - 0.5) / camera.focal)
      return Vector3(m[0] * x + m[3] * y + m[6] * z, m[1] * x + m[4] * y + m[7] * z, m[2] * x + m[5] * y + m[8] * z)
    }
  }

  /// A finite view and a field the lens (or the general perspective from `eye`) can show.
  static func safe(_ view: ViewAngles, _ hfov: Double, _ lens: Lens, eye: Double? = nil) -> (ViewAngles, Double) {
    let widest = eye.map { Lens.perspectiveMaximumFieldOfView(eye: $0) } ?? lens.maximumFieldOfView
    let fov = hfov.isFinite ? min(max(hfov, 0.01), widest) : Elementary.halfPi
    let view = ViewAngles(
      yaw: PanoramaRenderer.turn(view.yaw), pitch: view.pitch.isFinite ? view.pitch : 0,
      roll: view.roll.isFinite ? view.roll : 0)
    return (view, fov)
  }

  /// The nodes for a `w`×`h` view, and the shift (source pixels) to add to every u.
  mutating func prepare<E: RowExecutor>(
    w: Int, h: Int, view: ViewAngles, hfov: Double, lens: Lens, eye: Double?, executor: E
  ) -> (shift: Double, mapping: Mapping) {
    var cached = view
    var shift = 0.0
    if yawShifts {
      cached.yaw = 0
      shift = (view.yaw + video.pose.yaw) / Elementary.twoPi * period
    }
    var atNodes = video
    if yawShifts { atNodes.pose.yaw = 0 }
    let mapping = Mapping(width: w, height: h, view: cached, hfov: hfov, lens: lens, eye: eye, video: atNodes)
    let key = Key(width: w, height: h, hfov: hfov, lens: lens, eye: eye, view: cached, blocks: blockSize)
    guard key != self.key else { return (shift, mapping) }
    self.key = key
    func edges(_ size: Int, _ step: Int) -> [Int] { Array(stride(from: 0, to: size, by: max(step, 2))) + [size] }
    var n = Nodes()
    n.columns = edges(w, min(blockSize.columns, max(8, w / 24 & ~1)))
    n.rows = edges(h, min(blockSize.rows, max(8, h / 24 & ~1)))
    func positions(_ e: [Int]) -> [Double] {
      var p: [Double] = []
      for b in 0..<(e.count - 1) { p += [Double(e[b]), Double(e[b] + e[b + 1]) / 2] }
      return p + [Double(e.last!)]
    }
    let xs = positions(n.columns), ys = positions(n.rows)
    n.perRow = xs.count
    var us = [Double](repeating: 0, count: xs.count * ys.count), vs = us
    let renderer = self
    us.withUnsafeMutableBufferPointer { u in
      vs.withUnsafeMutableBufferPointer { v in
        let out = NodePointers(u: u.baseAddress!, v: v.baseAddress!)
        executor.run(ys.count) { r in
          for (c, x) in xs.enumerated() {
            let p = renderer.sourcePosition(mapping.direction(x, ys[r]))
            out.u[r * xs.count + c] = p.u
            out.v[r * xs.count + c] = p.v
          }
        }
      }
    }
    n.u = us
    n.v = vs
    nodes = n
    return (shift, mapping)
  }

  struct NodePointers: @unchecked Sendable {
    let u: UnsafeMutablePointer<Double>, v: UnsafeMutablePointer<Double>
  }

  /// Throws unless `planes` are this renderer's size: the taps and the cached nodes assume it.
  func checkSize(of planes: YUVPlanes) throws(ImageError) {
    guard planes.width == width, planes.height == height else {
      throw ImageError(
        field: "planes", message: "\(planes.width)×\(planes.height), where this renderer draws from \(width)×\(height)")
    }
  }

  /// Draws the view from `planes` (one eye's picture, `width`×`height`) into `output`,
  /// Y′CbCr to Y′CbCr (the output's chroma left-sited, as H.264 expects).
  /// - Parameters:
  ///   - view: yaw, pitch, roll in radians (the world's, before the clip's pose).
  ///   - hfov: horizontal field of view in radians, in (0, `lens.maximumFieldOfView`].
  ///   - lens: the projection of the flat view.
  ///   - eye: set (0...1), the general perspective from that eye distance instead of the
  ///     lens, part way from rectilinear (0) to stereographic (1) (`Lens.perspectiveRay`):
  ///     what `ViewKeyframes` gives between a rectilinear and a stereographic key.
  ///   - planes: the decoded picture's planes, the renderer's size.
  ///   - output: the frame drawn into, at its own size.
  ///   - executor: runs bands of block rows, on the host's threads.
  /// - Complexity: O(output pixels); O(pixels / block area) exact evaluations when pitch,
  ///   roll, zoom or size changed.
  /// - Throws: ``ImageError`` naming `planes` when they are not the renderer's size; nothing
  ///   is drawn then.
  public mutating func render<E: RowExecutor>(
    view: ViewAngles, hfov: Double, lens: Lens = .rectilinear, eye: Double? = nil, from planes: YUVPlanes,
    into output: inout YUVImage, executor: E
  ) throws(ImageError) {
    try checkSize(of: planes)
    let eye = eye.map { min(max($0.isFinite ? $0 : 0, 0), 1) }
    let (view, fov) = Self.safe(view, hfov, lens, eye: eye)
    let (shift, mapping) = prepare(
      w: output.width, h: output.height, view: view, hfov: fov, lens: lens, eye: eye, executor: executor)
    let context = YUVBlocks(renderer: self, planes: planes, shift: shift, mapping: mapping)
    let w = output.width, h = output.height
    output.bytes.withUnsafeMutableBufferPointer { out in
      let target = YUVBlocks.Target(
        y: out.baseAddress!, u: out.baseAddress! + w * h, v: out.baseAddress! + w * h + w * h / 4, width: w, height: h)
      executor.run(nodes.rows.count - 1) { band in context.renderBand(band, yuv: target) }
    }
  }

  /// Draws the view from `planes` into an RGBA frame: each output pixel's luma and chroma
  /// sampled and converted once (`planes.colour`).
  ///
  /// - Throws: ``ImageError`` naming `planes` when they are not the renderer's size; nothing
  ///   is drawn then.
  public mutating func render<E: RowExecutor>(
    view: ViewAngles, hfov: Double, lens: Lens = .rectilinear, eye: Double? = nil, from planes: YUVPlanes,
    into output: inout RGBAImage, executor: E
  ) throws(ImageError) {
    try checkSize(of: planes)
    guard output.width > 0, output.height > 0 else { return }
    let eye = eye.map { min(max($0.isFinite ? $0 : 0, 0), 1) }
    let (view, fov) = Self.safe(view, hfov, lens, eye: eye)
    let (shift, mapping) = prepare(
      w: output.width, h: output.height, view: view, hfov: fov, lens: lens, eye: eye, executor: executor)
    let context = YUVBlocks(renderer: self, planes: planes, shift: shift, mapping: mapping)
    let w = output.width
    output.pixels.withUnsafeMutableBufferPointer { out in
      let target = YUVBlocks.RGBATarget(base: out.baseAddress!, width: w)
      executor.run(nodes.rows.count - 1) { band in context.renderBand(band, rgba: target) }
    }
  }
}
