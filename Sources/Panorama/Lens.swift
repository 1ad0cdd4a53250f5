import CoreMath

/// How a view maps directions to its pixels.
///
/// Everything a lens is lives here, in one place: its projection both ways (`angle(atRadius:)`
/// and `radius(atAngle:)` along an axis, `ray(x:y:)` for a whole image point), its focal
/// length for a field of view, the widest field it can show, the circle outside which it sees
/// nothing (`visibleRadius`), and the zoom limits the viewer uses (`viewerFieldOfView`). The
/// renderer, the GPU shader's parameters, the viewer and the CLI all read it from here.
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

  /// The fields of view a user may ask for, in whole degrees: 1° up to the widest whole
  /// degree the lens shows (179, 359 or 360). The command line and keyframes both check
  /// against this one range, so their messages agree.
  public var fieldOfViewDegrees: ClosedRange<Double> {
    1...Angle(radians: maximumFieldOfView).degrees.rounded(.down)
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

  /// The radius (in focal lengths, along an axis) at which the lens sees `angle` radians from
  /// its axis: the inverse of `angle(atRadius:)`.
  public func radius(atAngle angle: Double) -> Double {
    switch self {
    case .rectilinear: Elementary.sin(angle) / Elementary.cos(angle)
    case .stereographic: 2 * Elementary.sin(angle / 2) / Elementary.cos(angle / 2)
    case .fisheye, .equirectangular: angle
    }
  }

  /// The direction (camera frame: x right, y up, z forward; not normalised) seen at image
  /// point (`x`, `y`), in focal lengths from the centre: the inverse projection. Rectilinear:
  /// the point on the focal plane. Stereographic: (x, y, 1 − r²/4), the sphere point
  /// (x, y, 1 − r²/4) / (1 + r²/4) up to scale. Fisheye: θ = r from the axis,
  /// (x·sin r / r, y·sin r / r, cos r). Equirectangular: x and y are longitude and latitude.
  @inline(__always) public func ray(x: Double, y: Double) -> (x: Double, y: Double, z: Double) {
    switch self {
    case .rectilinear: return (x, y, 1)
    case .stereographic: return (x, y, 1 - (x * x + y * y) / 4)
    case .fisheye:
      let r = (x * x + y * y).squareRoot()
      let (sine, cosine) = Elementary.sinCos(r)
      let scale = r > 1e-12 ? sine / r : 1
      return (x * scale, y * scale, cosine)
    case .equirectangular:
      let (sinLon, cosLon) = Elementary.sinCos(x), (sinLat, cosLat) = Elementary.sinCos(y)
      return (cosLat * sinLon, sinLat, cosLat * cosLon)
    }
  }

  /// Where camera-frame direction (`x`, `y`, `z`; x right, y up, z forward; any length) shows,
  /// in focal lengths from the centre with y up: the forward projection, the inverse of
  /// `ray`. `nil` where the lens does not show it: behind a rectilinear camera, or at the
  /// point straight behind (stereographic and fisheye send it to infinity or a circle).
  public func project(x: Double, y: Double, z: Double) -> (x: Double, y: Double)? {
    let side = (x * x + y * y).squareRoot()
    guard side > 0 || z != 0 else { return nil }
    switch self {
    case .rectilinear:
      guard z > 1e-9 * (side + z) else { return nil }
      return (x / z, y / z)
    case .stereographic, .fisheye:
      let theta = Elementary.atan2(side, z)
      guard theta < Elementary.pi - 1e-6 else { return nil }
      guard side > 0 else { return (0, 0) }
      let r = radius(atAngle: theta)
      return (x / side * r, y / side * r)
    case .equirectangular:
      return (Elementary.atan2(x, z), Elementary.atan2(y, (x * x + z * z).squareRoot()))
    }
  }

  /// How far (focal lengths) from the centre the lens sees anything: the fisheye's circle of
  /// directions within π of its axis; `nil` for lenses that map the whole image.
  public var visibleRadius: Double? { self == .fisheye ? Elementary.pi : nil }

  // MARK: - Between rectilinear and stereographic

  /// The general perspective projection, the family between the rectilinear and the
  /// stereographic lens: the sphere seen from `eye` radii behind its centre onto the plane
  /// touching its front (0: from the centre, rectilinear; 1: from the far pole,
  /// stereographic). A direction `angle` from the axis shows (1 + eye)·sin θ / (eye + cos θ)
  /// focal lengths out, so the centre's scale is one focal length for every `eye`: a zoom can
  /// move the eye from one lens to the other with no jump (`ViewKeyframes`). `eye` in 0...1.
  public static func perspectiveRadius(atAngle angle: Double, eye: Double) -> Double {
    let (sine, cosine) = Elementary.sinCos(angle)
    return (1 + eye) * sine / (eye + cosine)
  }

  /// The widest field (radians) the general perspective shows from `eye`: twice
  /// acos(−eye), less the same 0.01 the two lenses keep (π − 0.01 at 0, 2π − 0.01 at 1).
  public static func perspectiveMaximumFieldOfView(eye: Double) -> Double {
    2 * Elementary.acos(-min(max(eye, 0), 1)) - 0.01
  }

  /// The focal length (pixels) at which `halfWidth` pixels see half of `fieldOfView` from
  /// `eye` (`perspectiveRadius`).
  public static func perspectiveFocalLength(halfWidth: Double, fieldOfView: Double, eye: Double) -> Double {
    halfWidth / perspectiveRadius(atAngle: fieldOfView / 2, eye: eye)
  }

  /// The angle from the axis seen `radius` focal lengths out from `eye`: the inverse of
  /// `perspectiveRadius`.
  public static func perspectiveAngle(atRadius radius: Double, eye: Double) -> Double {
    let (x, _, z) = perspectiveRay(x: radius, y: 0, eye: eye)
    return Elementary.atan2(x, z)
  }

  /// The direction (camera frame, not normalised) seen at image point (`x`, `y`), in focal
  /// lengths, from `eye`: the line from the eye (0, 0, −eye) through (x, y, 1) meets the unit
  /// sphere's front at parameter s = (eye(1 + eye) + √((1 + eye)² + r²(1 − eye²))) /
  /// (r² + (1 + eye)²), the point (s·x, s·y, s(1 + eye) − eye); divided by s > 0. At 0 it is
  /// the rectilinear (x, y, 1), at 1 the stereographic (x, y, 1 − r²/4).
  @inline(__always) public static func perspectiveRay(x: Double, y: Double, eye: Double) -> (
    x: Double, y: Double, z: Double
  ) {
    let r2 = x * x + y * y, k = 1 + eye
    let s = (eye * k + (k * k + r2 * (1 - eye * eye)).squareRoot()) / (r2 + k * k)
    return (x, y, k - eye / s)
  }

  /// The vertical field of view (radians) of a `width`×`height` view with horizontal field
  /// `fieldOfView`.
  public func verticalFieldOfView(_ fieldOfView: Double, width: Double, height: Double) -> Double {
    let f = focalLength(halfWidth: width / 2, fieldOfView: fieldOfView)
    return 2 * angle(atRadius: height / 2 / f)
  }
}
