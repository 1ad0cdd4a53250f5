/// A position on the board, in points, with y growing downwards (as UIKit and SDL do).
public struct StagePoint: Hashable, Sendable {
  /// Horizontal position in points, growing rightwards.
  public var x: Double
  /// Vertical position in points, growing downwards.
  public var y: Double

  /// The point at `x`, `y` (points).
  @inlinable public init(x: Double, y: Double) {
    self.x = x
    self.y = y
  }

  /// The origin, the board's top-left corner.
  public static let zero = StagePoint(x: 0, y: 0)

  /// Euclidean distance to `other`, in points.
  @inlinable public func distance(to other: StagePoint) -> Double {
    (self - other).length
  }

  /// Squared distance: cheaper, and orders the same as `distance(to:)`.
  @inlinable public func distanceSquared(to other: StagePoint) -> Double {
    let d = self - other
    return d.dx * d.dx + d.dy * d.dy
  }

  /// The point moved by `v`.
  @inlinable public static func + (p: StagePoint, v: Vector) -> StagePoint { StagePoint(x: p.x + v.dx, y: p.y + v.dy) }
  /// The point moved by `v` reversed.
  @inlinable public static func - (p: StagePoint, v: Vector) -> StagePoint { StagePoint(x: p.x - v.dx, y: p.y - v.dy) }
  /// The displacement from `b` to `a`.
  @inlinable public static func - (a: StagePoint, b: StagePoint) -> Vector { Vector(dx: a.x - b.x, dy: a.y - b.y) }

  /// Linear interpolation: `self` at `f == 0`, `other` at `f == 1`.
  @inlinable public func interpolated(to other: StagePoint, by f: Double) -> StagePoint {
    StagePoint(x: x + (other.x - x) * f, y: y + (other.y - y) * f)
  }
}

/// A displacement between two points, in points.
public struct Vector: Hashable, Sendable {
  /// Horizontal component in points, positive rightwards.
  public var dx: Double
  /// Vertical component in points, positive downwards.
  public var dy: Double

  /// The displacement of `dx`, `dy` points.
  @inlinable public init(dx: Double, dy: Double) {
    self.dx = dx
    self.dy = dy
  }

  /// No displacement.
  public static let zero = Vector(dx: 0, dy: 0)

  /// Euclidean length, in points.
  @inlinable public var length: Double { (dx * dx + dy * dy).squareRoot() }

  /// The two displacements one after the other.
  @inlinable public static func + (a: Vector, b: Vector) -> Vector { Vector(dx: a.dx + b.dx, dy: a.dy + b.dy) }
  /// The displacement scaled by `s` (a plain factor, no unit).
  @inlinable public static func * (v: Vector, s: Double) -> Vector { Vector(dx: v.dx * s, dy: v.dy * s) }
}

/// A width and height, in points; never negative on a valid board.
public struct StageSize: Hashable, Sendable {
  /// Horizontal extent in points.
  public var width: Double
  /// Vertical extent in points.
  public var height: Double

  /// The size `width` × `height` points; not checked here (``Board`` refuses negative or non-finite sizes).
  @inlinable public init(width: Double, height: Double) {
    self.width = width
    self.height = height
  }
}

/// An axis-aligned rectangle: origin at the top-left corner, in points.
public struct StageRect: Hashable, Sendable {
  /// The top-left corner, in points.
  public var origin: StagePoint
  /// Width and height, in points.
  public var size: StageSize

  /// The rectangle whose top-left corner is `origin`.
  @inlinable public init(origin: StagePoint, size: StageSize) {
    self.origin = origin
    self.size = size
  }

  /// The rectangle whose top-left corner is (`x`, `y`), all in points.
  @inlinable public init(x: Double, y: Double, width: Double, height: Double) {
    self.init(origin: StagePoint(x: x, y: y), size: StageSize(width: width, height: height))
  }

  /// The rectangle of `size` whose centre is `center`.
  @inlinable public init(center: StagePoint, size: StageSize) {
    self.init(
      x: center.x - size.width / 2, y: center.y - size.height / 2,
      width: size.width, height: size.height)
  }

  /// The left edge's x, in points.
  @inlinable public var minX: Double { origin.x }
  /// The top edge's y, in points.
  @inlinable public var minY: Double { origin.y }
  /// The right edge's x (outside the rectangle, see ``contains(_:)``), in points.
  @inlinable public var maxX: Double { origin.x + size.width }
  /// The bottom edge's y (outside the rectangle, see ``contains(_:)``), in points.
  @inlinable public var maxY: Double { origin.y + size.height }
  /// The centre point.
  @inlinable public var center: StagePoint { StagePoint(x: origin.x + size.width / 2, y: origin.y + size.height / 2) }
  /// Width × height, in square points.
  @inlinable public var area: Double { size.width * size.height }

  /// Whether `p` lies inside; the top and left edges are inside, the bottom and right are not,
  /// so that a point on a shared edge belongs to exactly one of two neighbouring slots.
  @inlinable public func contains(_ p: StagePoint) -> Bool {
    p.x >= minX && p.x < maxX && p.y >= minY && p.y < maxY
  }

  /// Area shared with `other`; 0 when they only touch along an edge or not at all.
  @inlinable public func overlapArea(with other: StageRect) -> Double {
    let w = min(maxX, other.maxX) - max(minX, other.minX)
    let h = min(maxY, other.maxY) - max(minY, other.minY)
    return w > 0 && h > 0 ? w * h : 0
  }

  /// Whether the two rectangles share a region of positive area (as `CGRectIntersectsRect`
  /// does for rectangles of positive size).
  @inlinable public func intersects(_ other: StageRect) -> Bool { overlapArea(with: other) > 0 }

  /// The rectangle grown by `d` points on every side (shrunk when `d` is negative).
  @inlinable public func insetBy(_ d: Double) -> StageRect {
    StageRect(x: minX + d, y: minY + d, width: max(0, size.width - 2 * d), height: max(0, size.height - 2 * d))
  }
}
