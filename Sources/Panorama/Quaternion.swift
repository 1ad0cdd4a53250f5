import CoreMath

/// A 3-vector of doubles.
public struct Vector3: Hashable, Sendable {
  /// The x component.
  public var x: Double
  /// The y component.
  public var y: Double
  /// The z component.
  public var z: Double

  /// The vector (`x`, `y`, `z`).
  @inlinable public init(_ x: Double, _ y: Double, _ z: Double) {
    self.x = x
    self.y = y
    self.z = z
  }

  /// Component-wise sum.
  @inlinable public static func + (a: Vector3, b: Vector3) -> Vector3 { Vector3(a.x + b.x, a.y + b.y, a.z + b.z) }
  /// Component-wise difference.
  @inlinable public static func - (a: Vector3, b: Vector3) -> Vector3 { Vector3(a.x - b.x, a.y - b.y, a.z - b.z) }
  /// The vector scaled by `s`.
  @inlinable public static func * (a: Vector3, s: Double) -> Vector3 { Vector3(a.x * s, a.y * s, a.z * s) }
  /// The dot product with `b`.
  @inlinable public func dot(_ b: Vector3) -> Double { x * b.x + y * b.y + z * b.z }
  /// The cross product `self × b` (right-handed).
  @inlinable public func cross(_ b: Vector3) -> Vector3 {
    Vector3(y * b.z - z * b.y, z * b.x - x * b.z, x * b.y - y * b.x)
  }
  /// Euclidean length.
  @inlinable public var length: Double { dot(self).squareRoot() }
}

/// A rotation as a unit quaternion, components in the order (x, y, z, w) with w the scalar
/// part, as CoreMotion's `CMQuaternion` and Android's rotation vector.
///
/// An attitude quaternion maps **device** coordinates to the **world** frame: `rotate(v)`
/// takes a vector given in device axes (x right, y up the screen, z out of the screen) to
/// world axes (right-handed, Z up). `q` and `−q` are the same rotation; nothing here
/// depends on the sign.
public struct Quaternion: Hashable, Sendable {
  /// The vector part's x component.
  public var x: Double
  /// The vector part's y component.
  public var y: Double
  /// The vector part's z component.
  public var z: Double
  /// The scalar part: cos(angle / 2) for a unit quaternion.
  public var w: Double

  /// The quaternion with these components, as given (not normalised).
  @inlinable public init(x: Double, y: Double, z: Double, w: Double) {
    self.x = x
    self.y = y
    self.z = z
    self.w = w
  }

  /// No rotation: device axes are world axes.
  public static let identity = Quaternion(x: 0, y: 0, z: 0, w: 1)

  /// Rotation by `angle` radians about `axis` (right-hand rule).
  public init(axis: Vector3, angle: Double) {
    let n = axis.length
    let (s, c) = Elementary.sinCos(angle / 2)
    let k = n > 0 ? s / n : 0
    self.init(x: axis.x * k, y: axis.y * k, z: axis.z * k, w: c)
  }

  /// Euclidean norm of the four components; 1 for a rotation.
  @inlinable public var norm: Double { (x * x + y * y + z * z + w * w).squareRoot() }
  /// Whether every component is a finite number.
  @inlinable public var isFinite: Bool { x.isFinite && y.isFinite && z.isFinite && w.isFinite }

  /// The quaternion divided by its norm (NaN components when the norm is 0).
  @inlinable public var normalized: Quaternion {
    let n = norm
    return Quaternion(x: x / n, y: y / n, z: z / n, w: w / n)
  }

  /// The inverse rotation, for a unit quaternion: the vector part negated.
  @inlinable public var conjugate: Quaternion { Quaternion(x: -x, y: -y, z: -z, w: w) }

  /// The Hamilton product: `(a * b).rotate(v) == a.rotate(b.rotate(v))`.
  @inlinable public static func * (a: Quaternion, b: Quaternion) -> Quaternion {
    Quaternion(
      x: a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
      y: a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
      z: a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w,
      w: a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z)
  }

  /// `v` rotated by this (unit) quaternion.
  @inlinable public func rotate(_ v: Vector3) -> Vector3 {
    let u = Vector3(x, y, z)
    let t = u.cross(v) * 2
    return v + t * w + u.cross(t)
  }
}
