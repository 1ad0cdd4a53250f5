import CoreMath

/// Where a camera looks, in radians.
///
/// - `yaw`: heading, 0 at the panorama's centre column (or the recentred direction),
///   positive turning right (towards larger image x), unwrapped when it comes from a
///   tracker (so it can pass ±π and keep counting).
/// - `pitch`: positive looks up, in [−π/2, π/2].
/// - `roll`: positive when the device turns clockwise as its user sees it (right edge down).
public struct ViewAngles: Hashable, Sendable {
  /// Heading in radians: 0 at the panorama's centre column, positive turning right.
  public var yaw: Double
  /// Elevation in radians: positive looks up, in [−π/2, π/2].
  public var pitch: Double
  /// Roll in radians: positive when the device turns clockwise as its user sees it.
  public var roll: Double

  /// The view at `yaw`, `pitch` and `roll`, all in radians.
  public init(yaw: Double = 0, pitch: Double = 0, roll: Double = 0) {
    self.yaw = yaw
    self.pitch = pitch
    self.roll = roll
  }

  /// A view given in degrees, as people and viewer configs (Pannellum's `yaw`, `pitch`)
  /// state it; stored in radians like every angle here.
  ///
  /// ```swift
  /// let east = ViewAngles(yawDegrees: 90, pitchDegrees: 10)  // yaw π/2, pitch ≈ 0.1745
  /// ```
  public init(yawDegrees: Double, pitchDegrees: Double = 0, rollDegrees: Double = 0) {
    self.init(
      yaw: Self.radians(fromDegrees: yawDegrees), pitch: Self.radians(fromDegrees: pitchDegrees),
      roll: Self.radians(fromDegrees: rollDegrees))
  }

  /// `degrees` in radians, for the angles this module takes as `Double` (a field of view,
  /// `hfov: ViewAngles.radians(fromDegrees: 90)`).
  @inlinable public static func radians(fromDegrees degrees: Double) -> Double { degrees * (Elementary.pi / 180) }

  /// `radians` in degrees: for showing an angle to people.
  @inlinable public static func degrees(fromRadians radians: Double) -> Double { radians * (180 / Elementary.pi) }

  /// The view angles of the back camera of a device whose attitude is `q` (device → world,
  /// world Z up). Robust to how the device is held: portrait, landscape or tilted all give
  /// the heading of where the back of the device points. `q` and `−q` give the same angles.
  ///
  /// Yaw is measured from world +Y towards world +X (clockwise seen from above), so a
  /// device turning right increases it. Looking straight up or down, where heading is
  /// undefined, yaw comes from the device's right edge and roll is 0.
  public init(attitude q: Quaternion) {
    let forward = q.rotate(Vector3(0, 0, -1))
    let right = q.rotate(Vector3(1, 0, 0))
    let up = q.rotate(Vector3(0, 1, 0))
    pitch = Elementary.asin(forward.z)
    if forward.x * forward.x + forward.y * forward.y > 1e-18 {
      yaw = Elementary.atan2(forward.x, forward.y)
      roll = Elementary.atan2(-right.z, up.z)
    } else {
      yaw = Elementary.atan2(-right.y, right.x)
      roll = 0
    }
  }

  /// The attitude of a device with these angles (inverse of `init(attitude:)`), world Z up,
  /// yaw 0 facing world +Y. For tests and for turning rate input into attitudes.
  public var attitude: Quaternion {
    // Upright portrait facing +Y: device y → world Z, device z → world −Y.
    let upright = Quaternion(axis: Vector3(1, 0, 0), angle: Elementary.halfPi)
    let turn = Quaternion(axis: Vector3(0, 0, 1), angle: -yaw)
    let tilt = Quaternion(axis: Vector3(1, 0, 0), angle: pitch)
    // Roll is about the device's own z axis; clockwise as seen from the front is −z.
    let twist = Quaternion(axis: Vector3(0, 0, 1), angle: -roll)
    return turn * tilt * upright * twist
  }
}

/// Keeps an angle continuous across the ±π wrap: each new reading is taken as the nearest
/// equivalent of the previous one, so a device turning several times counts up without
/// jumps (the seed's flicker).
public struct AngleUnwrapper: Sendable {
  /// The last continuous angle returned, in radians; `nil` before the first reading.
  public private(set) var value: Double?

  /// An unwrapper with no reading yet: the first reading is returned as it is.
  public init() {}

  /// The continuous angle for wrapped reading `a` (radians).
  public mutating func unwrap(_ a: Double) -> Double {
    guard let last = value else {
      value = a
      return a
    }
    let next = last + Angle(radians: a - last).wrapped.radians
    value = next
    return next
  }

  /// Forgets the last reading, so the next one starts a new count (a new tracking session).
  public mutating func reset() { value = nil }
}

extension Quaternion {
  /// The attitude (device → world; world X east, Y north, Z up) of a W3C `deviceorientation`
  /// reading: `alpha`, `beta`, `gamma` in degrees, intrinsic Z-X'-Y' rotations. The device
  /// frame is turned to the screen's by `screenAngle` (`screen.orientation.angle`, degrees
  /// counter-clockwise), so in landscape "up" is the screen's up and roll stays level.
  /// `RelativeOrientationSensor` quaternions use the same frames.
  public static func deviceOrientation(alpha: Double, beta: Double, gamma: Double, screenAngle: Double) -> Quaternion {
    let degree = Elementary.pi / 180
    let z = Quaternion(axis: Vector3(0, 0, 1), angle: alpha * degree)
    let x = Quaternion(axis: Vector3(1, 0, 0), angle: beta * degree)
    let y = Quaternion(axis: Vector3(0, 1, 0), angle: gamma * degree)
    // The screen's axes are the device's turned by −angle about its z axis.
    let screen = Quaternion(axis: Vector3(0, 0, 1), angle: -screenAngle * degree)
    return z * x * y * screen
  }
}
