import CoreMath

/// A parsed JSON value that remembers where in the text it started, so that errors about
/// its meaning can name the line and column as well as the path.
public struct JSON: Sendable {
  public enum Value: Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSON])
    /// Members in document order (duplicates are rejected by the parser).
    case object([(key: String, value: JSON)])
  }

  public var value: Value
  /// 1-based line and column of the value's first character.
  public var line: Int
  public var column: Int

  public init(_ value: Value, line: Int = 0, column: Int = 0) {
    self.value = value
    self.line = line
    self.column = column
  }

  /// The member named `key`, if this is an object that has one.
  public subscript(key: String) -> JSON? {
    guard case .object(let members) = value else { return nil }
    return members.first { $0.key == key }?.value
  }

  /// The JSON type's name, for error messages.
  public var typeName: String {
    switch value {
    case .null: return "null"
    case .bool: return "a boolean"
    case .number: return "a number"
    case .string: return "a string"
    case .array: return "an array"
    case .object: return "an object"
    }
  }
}

/// A JSON syntax error, at a line and column.
public struct JSONSyntaxError: Error, Equatable, Sendable, CustomStringConvertible {
  public var message: String
  public var line: Int
  public var column: Int
  public var description: String { "line \(line), column \(column): \(message)" }
}

/// A small, strict JSON parser (RFC 8259) over UTF-8 bytes, with limits on nesting depth so
/// hostile input cannot exhaust the stack.
public struct JSONParser {
  private let bytes: [UInt8]
  private var i = 0
  private var line = 1
  private var lineStart = 0
  private let maxDepth: Int

  public init(_ bytes: [UInt8], maxDepth: Int = 256) {
    self.bytes = bytes
    self.maxDepth = maxDepth
  }

  /// Parses one JSON document; trailing non-space text is an error.
  public static func parse(_ bytes: [UInt8]) throws(JSONSyntaxError) -> JSON {
    var p = JSONParser(bytes)
    // A UTF-8 byte order mark is skipped (RFC 8259 allows it): Pannellum's own example
    // configs start with one.
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
      p.i = 3
      p.lineStart = 3
    }
    p.skipSpace()
    let v = try p.value(depth: 0)
    p.skipSpace()
    if p.i < p.bytes.count { throw p.error("unexpected text after the JSON value") }
    return v
  }

  public static func parse(_ text: String) throws(JSONSyntaxError) -> JSON {
    try parse(Array(text.utf8))
  }

  private func error(_ message: String) -> JSONSyntaxError {
    JSONSyntaxError(message: message, line: line, column: i - lineStart + 1)
  }

  private mutating func skipSpace() {
    while i < bytes.count {
      switch bytes[i] {
      case 0x20, 0x09, 0x0D: i += 1
      case 0x0A:
        i += 1
        line += 1
        lineStart = i
      default: return
      }
    }
  }

  private mutating func value(depth: Int) throws(JSONSyntaxError) -> JSON {
    guard depth < maxDepth else { throw error("nesting deeper than \(maxDepth)") }
    guard i < bytes.count else { throw error("unexpected end of input") }
    let l = line, c = i - lineStart + 1
    func at(_ v: JSON.Value) -> JSON { JSON(v, line: l, column: c) }
    switch bytes[i] {
    case UInt8(ascii: "{"):
      i += 1
      var members: [(key: String, value: JSON)] = []
      // Duplicates: a scan of the few keys most objects have, a set past that (the scan
      // alone was quadratic: 160k keys, 1.8 MB, took 38 s).
      var seen: Set<String> = []
      skipSpace()
      if i < bytes.count, bytes[i] == UInt8(ascii: "}") {
        i += 1
        return at(.object(members))
      }
      while true {
        skipSpace()
        guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else { throw error("expected a string key") }
        let key = try string()
        let duplicate: Bool
        if members.count < 16 {
          duplicate = members.contains { $0.key == key }
        } else {
          if seen.isEmpty { for m in members { seen.insert(m.key) } }
          duplicate = !seen.insert(key).inserted
        }
        if duplicate { throw error("duplicate key \"\(key)\"") }
        skipSpace()
        guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { throw error("expected ':' after key") }
        i += 1
        skipSpace()
        members.append((key, try value(depth: depth + 1)))
        skipSpace()
        guard i < bytes.count else { throw error("unexpected end of input in an object") }
        if bytes[i] == UInt8(ascii: ",") {
          i += 1
          continue
        }
        if bytes[i] == UInt8(ascii: "}") {
          i += 1
          return at(.object(members))
        }
        throw error("expected ',' or '}' in an object")
      }
    case UInt8(ascii: "["):
      i += 1
      var elements: [JSON] = []
      skipSpace()
      if i < bytes.count, bytes[i] == UInt8(ascii: "]") {
        i += 1
        return at(.array(elements))
      }
      while true {
        skipSpace()
        elements.append(try value(depth: depth + 1))
        skipSpace()
        guard i < bytes.count else { throw error("unexpected end of input in an array") }
        if bytes[i] == UInt8(ascii: ",") {
          i += 1
          continue
        }
        if bytes[i] == UInt8(ascii: "]") {
          i += 1
          return at(.array(elements))
        }
        throw error("expected ',' or ']' in an array")
      }
    case UInt8(ascii: "\""):
      return at(.string(try string()))
    case UInt8(ascii: "t"):
      try literal("true")
      return at(.bool(true))
    case UInt8(ascii: "f"):
      try literal("false")
      return at(.bool(false))
    case UInt8(ascii: "n"):
      try literal("null")
      return at(.null)
    default:
      return at(.number(try number()))
    }
  }

  private mutating func literal(_ word: String) throws(JSONSyntaxError) {
    let expected = Array(word.utf8)
    guard i + expected.count <= bytes.count, Array(bytes[i..<(i + expected.count)]) == expected else {
      throw error("invalid literal")
    }
    i += expected.count
  }

  private mutating func number() throws(JSONSyntaxError) -> Double {
    let start = i
    if i < bytes.count, bytes[i] == UInt8(ascii: "-") { i += 1 }
    func digits() -> Int {
      let s = i
      while i < bytes.count, bytes[i] >= 0x30, bytes[i] <= 0x39 { i += 1 }
      return i - s
    }
    let intStart = i
    let intDigits = digits()
    guard intDigits > 0 else {
      i = start
      throw error("expected a value")
    }
    if intDigits > 1 && bytes[intStart] == UInt8(ascii: "0") { throw error("leading zeros are not allowed") }
    if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
      i += 1
      guard digits() > 0 else { throw error("expected digits after '.'") }
    }
    if i < bytes.count, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
      i += 1
      if i < bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") { i += 1 }
      guard digits() > 0 else { throw error("expected digits in exponent") }
    }
    let text = String(decoding: bytes[start..<i], as: UTF8.self)
    #if hasFeature(Embedded)
      // No strtod in Embedded Swift: CoreMath's parser, within an ulp or two.
      let parsed = DecimalText.parse(Substring(text))
    #else
      let parsed = Double(text)
    #endif
    guard let d = parsed, d.isFinite else { throw error("number out of range") }
    return d
  }

  private mutating func string() throws(JSONSyntaxError) -> String {
    i += 1  // opening quote
    var out: [UInt8] = []
    while true {
      guard i < bytes.count else { throw error("unterminated string") }
      let b = bytes[i]
      i += 1
      switch b {
      case UInt8(ascii: "\""):
        return String(decoding: out, as: UTF8.self)
      case UInt8(ascii: "\\"):
        guard i < bytes.count else { throw error("unterminated string") }
        let e = bytes[i]
        i += 1
        switch e {
        case UInt8(ascii: "\""): out.append(0x22)
        case UInt8(ascii: "\\"): out.append(0x5C)
        case UInt8(ascii: "/"): out.append(0x2F)
        case UInt8(ascii: "b"): out.append(0x08)
        case UInt8(ascii: "f"): out.append(0x0C)
        case UInt8(ascii: "n"): out.append(0x0A)
        case UInt8(ascii: "r"): out.append(0x0D)
        case UInt8(ascii: "t"): out.append(0x09)
        case UInt8(ascii: "u"):
          var scalar = try hex4()
          if scalar >= 0xD800, scalar < 0xDC00 {
            guard i + 1 < bytes.count, bytes[i] == UInt8(ascii: "\\"), bytes[i + 1] == UInt8(ascii: "u") else {
              throw error("unpaired surrogate in \\u escape")
            }
            i += 2
            let low = try hex4()
            guard low >= 0xDC00, low < 0xE000 else { throw error("invalid low surrogate") }
            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
          }
          guard let u = Unicode.Scalar(scalar) else { throw error("invalid \\u escape") }
          out.append(contentsOf: Array(String(Character(u)).utf8))
        default:
          throw error("invalid escape")
        }
      case 0..<0x20:
        throw error("control character in string")
      default:
        out.append(b)
      }
    }
  }

  private mutating func hex4() throws(JSONSyntaxError) -> UInt32 {
    guard i + 4 <= bytes.count else { throw error("short \\u escape") }
    var v: UInt32 = 0
    for _ in 0..<4 {
      let b = bytes[i]
      i += 1
      v <<= 4
      switch b {
      case 0x30...0x39: v |= UInt32(b - 0x30)
      case 0x41...0x46: v |= UInt32(b - 0x41 + 10)
      case 0x61...0x66: v |= UInt32(b - 0x61 + 10)
      default: throw error("invalid hex digit in \\u escape")
      }
    }
    return v
  }
}

/// Writing JSON text.
public enum JSONText {
  /// `s` as a JSON string literal.
  public static func quoted(_ s: String) -> String {
    var out = "\""
    for u in s.unicodeScalars {
      switch u {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      default:
        if u.value < 0x20 {
          let hex = String(u.value, radix: 16)
          out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        } else {
          out.unicodeScalars.append(u)
        }
      }
    }
    return out + "\""
  }

  /// A number as JSON: integers without a fraction, others with up to 6 decimals (enough
  /// for points and seconds, and stable across platforms' float printing).
  public static func number(_ d: Double) -> String {
    guard d.isFinite else { return "null" }
    // Digits by integer arithmetic, not `String(Double)`: the same text on every platform,
    // and no float printing (which Embedded Swift on wasm32 cannot link).
    let micro = (d * 1_000_000).rounded()
    guard abs(micro) < 9e15 else { return large(d) }
    let n = Int64(micro)
    let whole = n / 1_000_000
    var fraction = abs(n % 1_000_000)
    if fraction == 0 { return String(whole) }
    var decimals = 6
    while fraction % 10 == 0 {
      fraction /= 10
      decimals -= 1
    }
    let digits = String(fraction)
    let sign = n < 0 && whole == 0 ? "-" : ""
    return sign + String(whole) + "." + String(repeating: "0", count: decimals - digits.count) + digits
  }

  /// Beyond 9·10⁹ with a fraction, or beyond 9·10¹⁵: 15 significant digits and an exponent.
  static func large(_ d: Double) -> String {
    if d == d.rounded(), abs(d) < 9e15 { return String(Int64(d)) }
    var m = abs(d), exponent = 0
    while m >= 1e15 {
      m /= 10
      exponent += 1
    }
    return (d < 0 ? "-" : "") + String(Int64(m.rounded())) + (exponent > 0 ? "e\(exponent)" : "")
  }

}
