/// Elementary functions in pure Swift.
///
/// The cores (`Stage`, `Panorama`) import no C and no Foundation so that they compile in
/// Embedded Swift for wasm32 unchanged; libm is not there. These are written for that: range
/// reduction plus polynomials, accurate to a few ulp over the ranges the cores use (tested
/// against Glibc in `CoreMathTests`), and bit-for-bit the same on every platform, which keeps
/// golden outputs identical between the CLI and a browser build.
public enum Elementary {
  public static let pi = 3.141592653589793
  public static let halfPi = 1.5707963267948966
  public static let twoPi = 6.283185307179586
  // π/2 split in two (Cody–Waite) so that x − k·π/2 stays exact for |x| up to ~1e9.
  private static let halfPiHigh = 1.5707963267341256
  private static let halfPiLow = 6.077100506506192e-11

  /// Sine of `x` radians.
  @inlinable public static func sin(_ x: Double) -> Double { sinCos(x).sin }

  /// Cosine of `x` radians.
  @inlinable public static func cos(_ x: Double) -> Double { sinCos(x).cos }

  /// Sine and cosine of `x` radians in one reduction. Non-finite input gives NaN. Beyond
  /// ±1e8 the two-part reduction runs out of bits, so `x` is first reduced exactly modulo the
  /// double nearest 2π: still a sine and cosine in [-1, 1], if not those of the true angle.
  public static func sinCos(_ x: Double) -> (sin: Double, cos: Double) {
    guard x.isFinite else { return (.nan, .nan) }
    let x = abs(x) < 1e8 ? x : x.truncatingRemainder(dividingBy: twoPi)
    let k = (x / halfPi).rounded()
    let r = (x - k * halfPiHigh) - k * halfPiLow
    let s = sinKernel(r)
    let c = cosKernel(r)
    // Quadrant from k mod 4, done on the double to stay safe for huge k.
    var q = k.truncatingRemainder(dividingBy: 4)
    if q < 0 { q += 4 }
    switch Int(q) {
    case 0: return (s, c)
    case 1: return (c, -s)
    case 2: return (-s, -c)
    default: return (-c, s)
    }
  }

  @usableFromInline static func sinKernel(_ r: Double) -> Double {
    // Taylor series to r^17 on |r| ≤ π/4: the first omitted term is below 1e-17.
    let r2 = r * r
    var p = 1.0 / 355687428096000.0  // 1/17!
    p = p * r2 - 1.0 / 1307674368000.0
    p = p * r2 + 1.0 / 6227020800.0
    p = p * r2 - 1.0 / 39916800.0
    p = p * r2 + 1.0 / 362880.0
    p = p * r2 - 1.0 / 5040.0
    p = p * r2 + 1.0 / 120.0
    p = p * r2 - 1.0 / 6.0
    return r + r * r2 * p
  }

  @usableFromInline static func cosKernel(_ r: Double) -> Double {
    let r2 = r * r
    var p = 1.0 / 6402373705728000.0  // 1/18!
    p = p * r2 - 1.0 / 20922789888000.0
    p = p * r2 + 1.0 / 87178291200.0
    p = p * r2 - 1.0 / 479001600.0
    p = p * r2 + 1.0 / 3628800.0
    p = p * r2 - 1.0 / 40320.0
    p = p * r2 + 1.0 / 720.0
    p = p * r2 - 1.0 / 24.0
    p = p * r2 + 0.5
    return 1.0 - r2 * p
  }

  /// atan(k/8) for k = 0…8, correctly rounded.
  static let atanEighths: [Double] = [
    0.0, 0.12435499454676144, 0.24497866312686414, 0.35877067027057225, 0.4636476090008061, 0.5585993153435624,
    0.6435011087932844, 0.7188299996216245, 0.7853981633974483,
  ]

  /// Arc tangent of `x`, in radians, in (−π/2, π/2).
  public static func atan(_ x: Double) -> Double {
    if x.isNaN { return .nan }
    if x.isInfinite { return x > 0 ? halfPi : -halfPi }
    var t = x < 0 ? -x : x
    let inverted = t > 1
    if inverted { t = 1 / t }
    // atan(t) = atan(c) + atan((t − c) / (1 + t·c)) with c the nearest eighth: the remainder
    // is at most 1/16, where seven odd terms reach double precision. No square roots.
    let k = (t * 8).rounded()
    let c = k / 8
    let r = (t - c) / (1 + t * c)
    let r2 = r * r
    var p = 1.0 / 13.0
    p = p * r2 - 1.0 / 11.0
    p = p * r2 + 1.0 / 9.0
    p = p * r2 - 1.0 / 7.0
    p = p * r2 + 1.0 / 5.0
    p = p * r2 - 1.0 / 3.0
    var a = atanEighths[Int(k)] + (r + r * r2 * p)
    if inverted { a = halfPi - a }
    return x < 0 ? -a : a
  }

  /// Angle of the vector (x, y) from the +x axis, in radians, in [−π, π], as C's `atan2`.
  public static func atan2(_ y: Double, _ x: Double) -> Double {
    if x.isNaN || y.isNaN { return .nan }
    if x == 0 {
      if y == 0 { return x.sign == .minus ? (y.sign == .minus ? -pi : pi) : y }
      return y > 0 ? halfPi : -halfPi
    }
    if x.isInfinite && y.isInfinite {
      let q = x > 0 ? pi / 4 : 3 * pi / 4
      return y > 0 ? q : -q
    }
    let a = atan(y / x)
    if x > 0 { return a }
    return y.sign == .minus ? a - pi : a + pi
  }

  /// Arc sine, in radians; input outside [−1, 1] is clamped (callers pass rounding-noisy values).
  public static func asin(_ x: Double) -> Double {
    let c = min(1, max(-1, x))
    return atan2(c, ((1 - c) * (1 + c)).squareRoot())
  }

  /// Arc cosine, in radians; input is clamped to [−1, 1].
  public static func acos(_ x: Double) -> Double {
    let c = min(1, max(-1, x))
    return atan2(((1 - c) * (1 + c)).squareRoot(), c)
  }

  /// e raised to `x`.
  public static func exp(_ x: Double) -> Double {
    if x.isNaN { return .nan }
    if x > 709.78 { return .infinity }
    if x < -745.2 { return 0 }
    let ln2 = 0.6931471805599453
    let k = (x / ln2).rounded()
    let r = (x - k * 0.6931471803691238) - k * 1.9082149292705877e-10
    // Taylor to r^14 on |r| ≤ ln2/2.
    var p = 1.0 / 87178291200.0
    var d = 13.0
    while d >= 1 {
      p = p * r + 1.0 / factorial(d)
      d -= 1
    }
    p = p * r + 1
    return scale(p, by: Int(k))
  }

  /// Natural logarithm; NaN for negative input, −∞ at 0.
  public static func log(_ x: Double) -> Double {
    if x.isNaN || x < 0 { return .nan }
    if x == 0 { return -.infinity }
    if x.isInfinite { return x }
    // x = m·2^e with m in [√½, √2); log m = 2·atanh(s), s = (m−1)/(m+1), |s| < 0.172.
    var e = Int(x.exponent)
    var m = x.significand
    if m > 1.4142135623730951 {
      m /= 2
      e += 1
    }
    let s = (m - 1) / (m + 1)
    let s2 = s * s
    var p = 0.0
    var n = 29.0
    while n >= 3 {
      p = 1 / n + s2 * p
      n -= 2
    }
    return 2 * (s + s * s2 * p) + Double(e) * 0.6931471805599453
  }

  /// `base` raised to `exponent`, for positive `base`.
  public static func pow(_ base: Double, _ exponent: Double) -> Double {
    if exponent == 0 { return 1 }
    if base == 0 { return exponent > 0 ? 0 : .infinity }
    return exp(exponent * log(base))
  }

  private static func factorial(_ n: Double) -> Double {
    var f = 1.0
    var i = 2.0
    while i <= n {
      f *= i
      i += 1
    }
    return f
  }

  private static func scale(_ x: Double, by k: Int) -> Double {
    // Two steps so that 2^k never overflows on its own near the ends of the range.
    let half = k / 2
    return x * Double(sign: .plus, exponent: half, significand: 1)
      * Double(sign: .plus, exponent: k - half, significand: 1)
  }
}

/// An angle, stored in radians, so that degrees and radians never mix unnoticed.
public struct Angle: Hashable, Sendable, Comparable {
  public var radians: Double
  @inlinable public init(radians: Double) { self.radians = radians }
  @inlinable public init(degrees: Double) { self.radians = degrees * Elementary.pi / 180 }
  @inlinable public static func radians(_ r: Double) -> Angle { Angle(radians: r) }
  @inlinable public static func degrees(_ d: Double) -> Angle { Angle(degrees: d) }
  @inlinable public var degrees: Double { radians * 180 / Elementary.pi }
  public static let zero = Angle(radians: 0)
  @inlinable public static func < (a: Angle, b: Angle) -> Bool { a.radians < b.radians }
  @inlinable public static func + (a: Angle, b: Angle) -> Angle { Angle(radians: a.radians + b.radians) }
  @inlinable public static func - (a: Angle, b: Angle) -> Angle { Angle(radians: a.radians - b.radians) }
  @inlinable public static prefix func - (a: Angle) -> Angle { Angle(radians: -a.radians) }
  @inlinable public static func * (a: Angle, s: Double) -> Angle { Angle(radians: a.radians * s) }

  /// The same direction, wrapped into (−π, π].
  public var wrapped: Angle {
    var r = radians.truncatingRemainder(dividingBy: Elementary.twoPi)
    if r > Elementary.pi { r -= Elementary.twoPi }
    if r <= -Elementary.pi { r += Elementary.twoPi }
    return Angle(radians: r)
  }
}
