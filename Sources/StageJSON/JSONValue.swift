/// A JSON value to write: every line the CLI, the app and the page print is built as one of
/// these and turned into text in one place (`text`), so no writer escapes strings or formats
/// numbers by hand. Objects keep their members in order; literals build values directly:
///
/// ```swift
/// let line: JSONValue = ["type": "drop", "t": .number(0.25), "slot": .raw("2")]
/// line.text  // {"type":"drop","t":0.25,"slot":2}
/// ```
public enum JSONValue: Sendable {
  case null
  case bool(Bool)
  case number(Double)
  case string(String)
  /// Text that is already JSON (an id that keeps its own JSON type, a nested line).
  case raw(String)
  case array([JSONValue])
  case object([(String, JSONValue)])

  /// Compact JSON text: no spaces, numbers as `JSONText.number` writes them.
  public var text: String {
    var out = ""
    write(into: &out)
    return out
  }

  public func write(into out: inout String) {
    switch self {
    case .null: out += "null"
    case .bool(let b): out += b ? "true" : "false"
    case .number(let d): out += JSONText.number(d)
    case .string(let s): out += JSONText.quoted(s)
    case .raw(let s): out += s
    case .array(let values):
      out += "["
      for (k, v) in values.enumerated() {
        if k > 0 { out += "," }
        v.write(into: &out)
      }
      out += "]"
    case .object(let members):
      out += "{"
      for (k, m) in members.enumerated() {
        if k > 0 { out += "," }
        out += JSONText.quoted(m.0)
        out += ":"
        m.1.write(into: &out)
      }
      out += "}"
    }
  }

  /// `value` as a string, or `null`.
  public static func string(_ value: String?) -> JSONValue { value.map { .string($0) } ?? .null }
  /// `value` as a number, every digit of it (a `Double` would round past 2⁵³), or `null`.
  public static func number(_ value: Int?) -> JSONValue { value.map { .raw(String($0)) } ?? .null }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
  ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral
{
  public init(stringLiteral value: String) { self = .string(value) }
  public init(integerLiteral value: Int) { self = .raw(String(value)) }
  public init(floatLiteral value: Double) { self = .number(value) }
  public init(booleanLiteral value: Bool) { self = .bool(value) }
  public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
  public init(dictionaryLiteral elements: (String, JSONValue)...) { self = .object(elements) }
  public init(nilLiteral: ()) { self = .null }
}
