import CoreMath

/// What a GPU host needs to draw exactly the renderer's view: the camera's axes in the
/// panorama frame (x right, y up, z forward at yaw 0), column by column, the focal length
/// in pixels, and the source's placement. Pixel (px, py) from the top left looks along
/// `matrix · d(((px + 0.5 − width/2) / focal, (height/2 − py − 0.5) / focal))`, with `d` the
/// lens's inverse projection; longitude then gains `yaw`.
public struct CameraParameters: Hashable, Sendable {
  /// The camera's right axis (the matrix's first column).
  public var right: Vector3
  /// The camera's up axis (the second column).
  public var up: Vector3
  /// The camera's forward axis (the third column).
  public var forward: Vector3
  /// Column-major 3×3: the camera's right, up and forward axes. (A new array each time: code
  /// that runs every frame reads `right`, `up` and `forward`, which allocate nothing.)
  public var matrix: [Double] { [right.x, right.y, right.z, up.x, up.y, up.z, forward.x, forward.y, forward.z] }
  /// The focal length in output pixels: the distance to an image plane at which one pixel is one unit.
  public var focal: Double
  /// The view's yaw in radians, reduced into (−2π, 2π) (0 when not finite), added to each direction's longitude.
  public var yaw: Double

  /// The camera of a `width`×`height` pixel view at `view` (radians), `hfov` radians wide through `lens`; a non-finite `hfov` reads as 90°, others are clamped to the lens's range, and a non-finite pitch or roll reads as 0, as the renderer does.
  public init(width: Int, height: Int, view: ViewAngles, hfov: Double, lens: Lens) {
    let fov = hfov.isFinite ? min(max(hfov, 0.01), lens.maximumFieldOfView) : Elementary.halfPi
    let c = PanoramaRenderer.Camera(
      width: width, height: height, pitch: view.pitch.isFinite ? view.pitch : 0, roll: view.roll.isFinite ? view.roll : 0,
      hfov: fov, lens: lens)
    right = Vector3(c.m.0, c.m.1, c.m.2)
    up = Vector3(c.m.3, c.m.4, c.m.5)
    forward = Vector3(c.m.6, c.m.7, c.m.8)
    focal = c.focal
    yaw = PanoramaRenderer.turn(view.yaw)
  }
}

/// A rectangle of a larger view: the output is the `x`, `y` corner's part of a
/// `fullWidth`×`fullHeight` view. A tiler renders a cube face's tile this way without
/// drawing the face.
public struct ViewWindow: Hashable, Sendable {
  /// The window's top-left pixel in the full view, and the full view's size, in pixels.
  public var x: Int, y: Int, fullWidth: Int, fullHeight: Int

  /// The part of a `fullWidth`×`fullHeight` pixel view whose top-left corner is pixel (`x`, `y`).
  public init(x: Int, y: Int, fullWidth: Int, fullHeight: Int) {
    self.x = x
    self.y = y
    self.fullWidth = fullWidth
    self.fullHeight = fullHeight
  }
}

extension PanoramaRenderer {
  // MARK: - Perspective

  /// The camera-to-panorama rotation for pitch and roll (yaw is a shift), the lens, and the
  /// focal length in pixels.
  struct Camera {
    var m: (Double, Double, Double, Double, Double, Double, Double, Double, Double)
    var focal: Double
    var cx: Double
    var cy: Double
    var lens: Lens
    /// Set: the general perspective from this eye distance (`Lens.perspectiveRay`) stands in
    /// for the lens, part way between rectilinear and stereographic.
    var eye: Double?

    /// `window`: the output is that part of a larger view (its focal length and centre).
    init(
      width: Int, height: Int, pitch: Double, roll: Double, hfov: Double, lens: Lens = .rectilinear,
      eye: Double? = nil, window: ViewWindow? = nil
    ) {
      let (sr, cr) = Elementary.sinCos(roll)
      let (sp, cp) = Elementary.sinCos(pitch)
      // Where the camera's x (right), y (up) and z (forward) axes go, after roll then pitch:
      // roll turns right → (cr, −sr, 0) and up → (sr, cr, 0); pitch turns y → (0, cp, −sp)
      // and z → (0, sp, cp). Stored as three columns.
      m = (cr, -sr * cp, sr * sp, sr, cr * cp, -cr * sp, 0, sp, cp)
      self.lens = lens
      self.eye = eye
      // Half the width sees half the field of view (`Lens.focalLength`).
      let full = window.map { (Double($0.fullWidth), Double($0.fullHeight)) } ?? (Double(width), Double(height))
      focal =
        if let eye { Lens.perspectiveFocalLength(halfWidth: full.0 / 2, fieldOfView: hfov, eye: eye) } else {
          lens.focalLength(halfWidth: full.0 / 2, fieldOfView: hfov)
        }
      cx = full.0 / 2 - Double(window?.x ?? 0)
      cy = full.1 / 2 - Double(window?.y ?? 0)
    }

    /// Direction in the panorama frame (x right, y up, z forward at yaw 0) of pixel (px, py),
    /// not normalised (what reads it only needs ratios).
    func direction(_ px: Double, _ py: Double) -> Vector3 {
      let (cx, cy, cz) = ray((px + 0.5 - cx) / focal, (cy - py - 0.5) / focal)
      return Vector3(
        m.0 * cx + m.3 * cy + m.6 * cz, m.1 * cx + m.4 * cy + m.7 * cz, m.2 * cx + m.5 * cy + m.8 * cz)
    }

    /// The lens's circle of directions (`Lens.visibleRadius`); none for the general
    /// perspective, which maps the whole image.
    var visibleRadius: Double? { eye == nil ? lens.visibleRadius : nil }

    /// The camera-frame direction at image point (`x`, `y`), in focal lengths.
    @inline(__always) func ray(_ x: Double, _ y: Double) -> (x: Double, y: Double, z: Double) {
      if let eye { return Lens.perspectiveRay(x: x, y: y, eye: eye) }
      return lens.ray(x: x, y: y)
    }
  }

  /// Source coordinates (x unwrapped) of direction `d` at yaw 0.
  func sourcePosition(_ d: Vector3) -> (u: Double, v: Double) {
    let horizontal = (d.x * d.x + d.z * d.z).squareRoot()
    let p = geometry.fullPosition(longitude: Elementary.atan2(d.x, d.z), sinLatitude: d.y, horizontal: horizontal)
    return ((p.x - geometry.croppedLeft) * scaleX - 0.5, (p.y - geometry.croppedTop) * scaleY - 0.5)
  }
}

extension CameraParameters {
  /// A point of the camera's frame (x right, y up, z the depth along the view) with a
  /// texture coordinate: what a GPU host draws a flat tile from.
  public struct ViewPoint: Hashable, Sendable {
    /// Position in the camera's frame (units of the quad's directions), and texture coordinates across and down the tile (0…1).
    public var x: Double, y: Double, z: Double, u: Double, v: Double
  }

  /// The flat quad through directions `corners` (top-left, top-right, bottom-left,
  /// bottom-right, in the panorama's frame) in the camera's frame, cut where it comes nearer
  /// the camera's plane than `near`: a polygon of 0, 3, 4 or 5 points in order, each with its
  /// texture coordinate (0…1 across, down). A GPU then never gets a corner at or behind the
  /// eye (SwiftShader drew such quads as a few stretched texels), and the cut is exact: both
  /// position and texture coordinate are linear along a flat quad's edges.
  public func cameraPolygon(
    corners: [(x: Double, y: Double, z: Double)], near: Double = 0.05
  ) -> [ViewPoint] {
    guard corners.count == 4 else { return [] }
    let (s, c) = Elementary.sinCos(yaw)
    let m = matrix
    func camera(_ d: (x: Double, y: Double, z: Double), _ u: Double, _ v: Double) -> ViewPoint {
      // Undo the yaw, then into the camera's axes (the matrix's columns).
      let x = d.x * c - d.z * s, z = d.x * s + d.z * c, y = d.y
      return ViewPoint(
        x: x * m[0] + y * m[1] + z * m[2], y: x * m[3] + y * m[4] + z * m[5], z: x * m[6] + y * m[7] + z * m[8], u: u, v: v)
    }
    // Around the quad: top-left, top-right, bottom-right, bottom-left.
    let ring = [
      camera(corners[0], 0, 0), camera(corners[1], 1, 0), camera(corners[3], 1, 1), camera(corners[2], 0, 1),
    ]
    var out: [ViewPoint] = []
    for k in 0..<4 {
      let a = ring[k], b = ring[(k + 1) % 4]
      if a.z >= near { out.append(a) }
      if (a.z >= near) != (b.z >= near) {
        let t = (near - a.z) / (b.z - a.z)
        func lerp(_ p: Double, _ q: Double) -> Double { p + (q - p) * t }
        out.append(ViewPoint(x: lerp(a.x, b.x), y: lerp(a.y, b.y), z: near, u: lerp(a.u, b.u), v: lerp(a.v, b.v)))
      }
    }
    return out
  }
}
