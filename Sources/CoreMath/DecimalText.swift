/// Parses decimal numbers without the C library (`Double(String)` calls `strtod`, which
/// Embedded Swift does not have). Accepts `[+-]digits[.digits][(e|E)[+-]digits]`, `nan` and
/// `inf`/`infinity`. Up to 19 significant digits are kept exactly and scaled by exact powers
/// of ten where possible, so values as sensors print them (≤ 17 digits) round-trip to within
/// an ulp or two.
public enum DecimalText {
  public static func parse(_ text: Substring) -> Double? {
    var bytes = Array(text.utf8)
    guard !bytes.isEmpty else { return nil }
    var negative = false
    if bytes[0] == UInt8(ascii: "-") || bytes[0] == UInt8(ascii: "+") {
      negative = bytes[0] == UInt8(ascii: "-")
      bytes.removeFirst()
    }
    let word = String(decoding: bytes, as: UTF8.self)
    switch word {
    case "nan", "NaN", "NAN": return .nan
    case "inf", "Inf", "INF", "infinity", "Infinity": return negative ? -.infinity : .infinity
    default: break
    }
    var mantissa: UInt64 = 0
    var digits = 0
    var exponent = 0
    var i = 0
    var sawDigit = false
    while i < bytes.count, bytes[i] >= 0x30, bytes[i] <= 0x39 {
      sawDigit = true
      if digits < 19 {
        mantissa = mantissa &* 10 &+ UInt64(bytes[i] - 0x30)  // < 10^19: cannot overflow
        if mantissa > 0 { digits += 1 }
      } else {
        exponent += 1
      }
      i += 1
    }
    if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
      i += 1
      while i < bytes.count, bytes[i] >= 0x30, bytes[i] <= 0x39 {
        sawDigit = true
        if digits < 19 {
          mantissa = mantissa &* 10 &+ UInt64(bytes[i] - 0x30)  // < 10^19: cannot overflow
          if mantissa > 0 { digits += 1 }
          exponent -= 1
        }
        i += 1
      }
    }
    guard sawDigit else { return nil }
    if i < bytes.count, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
      i += 1
      var expNegative = false
      if i < bytes.count, bytes[i] == UInt8(ascii: "-") || bytes[i] == UInt8(ascii: "+") {
        expNegative = bytes[i] == UInt8(ascii: "-")
        i += 1
      }
      var e = 0
      var sawExpDigit = false
      while i < bytes.count, bytes[i] >= 0x30, bytes[i] <= 0x39 {
        sawExpDigit = true
        if e < 100_000 { e = e * 10 + Int(bytes[i] - 0x30) }
        i += 1
      }
      guard sawExpDigit else { return nil }
      exponent += expNegative ? -e : e
    }
    guard i == bytes.count else { return nil }
    var value = Double(mantissa)
    if exponent != 0 && mantissa != 0 {
      // Powers of ten up to 10^22 are exact doubles: one rounding step.
      var e = exponent
      while e > 22 {
        value *= 1e22
        e -= 22
      }
      while e < -22 {
        value /= 1e22
        e += 22
      }
      value = e >= 0 ? value * exactPowers[e] : value / exactPowers[-e]
    }
    return negative ? -value : value
  }

  static let exactPowers: [Double] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20,
    1e21, 1e22,
  ]
}
