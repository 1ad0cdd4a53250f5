import CoreMath
import Testing

#if canImport(Glibc)
  import Glibc
#endif

@Suite("Elementary functions against libm")
struct ElementaryTests {
  // Tolerance: a few ulp of the result, plus an absolute 1e-15 near zeros, where libm and a
  // polynomial legitimately differ in the last bits.
  func close(_ a: Double, _ b: Double, ulps: Double = 4) -> Bool {
    if a.isNaN || b.isNaN { return a.isNaN && b.isNaN }
    return abs(a - b) <= ulps * b.ulp + 1e-15
  }

  @Test func sineCosineAndTangentsOverWideRanges() {
    var x = -1000.0
    while x < 1000 {
      #expect(close(Elementary.sin(x), Glibc.sin(x)), "sin \(x)")
      #expect(close(Elementary.cos(x), Glibc.cos(x)), "cos \(x)")
      #expect(close(Elementary.atan(x / 37), Glibc.atan(x / 37)), "atan \(x / 37)")
      x += 0.731
    }
  }

  @Test func hugeAnglesStillGiveASineAndCosine() {
    // Past 1e8 the result is for the angle modulo the double nearest 2π (Glibc reduces by the
    // true π, so they differ), but it must be a unit vector, never garbage or NaN.
    for x in [1e8, -3e9, 1e15, 1e30, -1e300, Double.greatestFiniteMagnitude] {
      let (s, c) = Elementary.sinCos(x)
      #expect(abs(s * s + c * c - 1) < 1e-12, "\(x): \(s), \(c)")
    }
    #expect(close(Elementary.sin(9.9e7), Glibc.sin(9.9e7), ulps: 1e9))
  }

  @Test(arguments: [(0.0, 1.0), (1, 0), (-1, 0), (0, -1), (1e-300, -1), (-0.0, -1), (3, 4), (-3, -4), (1, -1e-12)])
  func atan2QuadrantsAndEdges(y: Double, x: Double) {
    #expect(close(Elementary.atan2(y, x), Glibc.atan2(y, x)))
  }

  @Test func expLogPowAsinAcos() {
    var x = -700.0
    while x < 700 {
      #expect(close(Elementary.exp(x), Glibc.exp(x), ulps: 8), "exp \(x)")
      x += 1.37
    }
    var y = 1e-300
    while y < 1e300 {
      #expect(close(Elementary.log(y), Glibc.log(y), ulps: 8), "log \(y)")
      y *= 7.3
    }
    var z = -1.0
    while z <= 1 {
      #expect(close(Elementary.asin(z), Glibc.asin(z), ulps: 8), "asin \(z)")
      #expect(close(Elementary.acos(z), Glibc.acos(z), ulps: 8), "acos \(z)")
      z += 0.0137
    }
    #expect(Elementary.sin(.nan).isNaN && Elementary.exp(.infinity) == .infinity && Elementary.log(-1).isNaN)
  }

  @Test func anglesWrap() {
    #expect(abs(Angle(degrees: 540).wrapped.degrees - 180) < 1e-12)
    #expect(abs(Angle(degrees: -190).wrapped.degrees - 170) < 1e-12)
  }
}
