/// A small command-line parser: positional arguments, `--flag`, `--name value`, `-o value`.
/// Unknown options are errors, so a typo never silently changes a result.
public struct Arguments: Sendable {
  public private(set) var positional: [String] = []
  private var values: [String: String] = [:]
  private var flags: Set<String> = []

  /// What went wrong with the command line.
  public struct Error: Swift.Error, Equatable, Sendable, CustomStringConvertible {
    public var description: String
    public init(description: String) { self.description = description }
  }

  /// Parses `args` (without the program name). `valued` lists options taking a value,
  /// `switches` those that do not; short aliases map to long names (`["o": "output"]`).
  public init(
    _ args: [String], valued: [String], switches: [String], aliases: [String: String] = [:]
  ) throws(Error) {
    var i = 0
    while i < args.count {
      let a = args[i]
      i += 1
      if a == "--" {
        positional += args[i...]
        break
      }
      guard a.hasPrefix("-"), a.count > 1, a != "-" else {
        positional.append(a)
        continue
      }
      var name = a.hasPrefix("--") ? String(a.dropFirst(2)) : String(a.dropFirst())
      var inline: String?
      if let eq = name.firstIndex(of: "=") {
        inline = String(name[name.index(after: eq)...])
        name = String(name[..<eq])
      }
      if let long = aliases[name] { name = long }
      if switches.contains(name) {
        guard inline == nil else { throw Error(description: "option --\(name) takes no value") }
        flags.insert(name)
      } else if valued.contains(name) {
        if let inline {
          values[name] = inline
        } else {
          guard i < args.count else { throw Error(description: "option --\(name) needs a value") }
          values[name] = args[i]
          i += 1
        }
      } else {
        throw Error(description: "unknown option \(a)")
      }
    }
  }

  public func flag(_ name: String) -> Bool { flags.contains(name) }
  public func value(_ name: String) -> String? { values[name] }

  /// A number option, checked to lie in `range`.
  public func number(_ name: String, in range: ClosedRange<Double>) throws(Error) -> Double? {
    guard let text = values[name] else { return nil }
    guard let d = Double(text), d.isFinite else { throw Error(description: "--\(name): \"\(text)\" is not a number") }
    guard range.contains(d) else {
      throw Error(description: "--\(name): \(text) is outside \(Self.shown(range.lowerBound))…\(Self.shown(range.upperBound))")
    }
    return d
  }

  /// A bound as a user writes it: 1000, not 1000.0.
  static func shown(_ d: Double) -> String {
    d == d.rounded() && abs(d) < 1e15 ? String(Int(d)) : String(d)
  }

  /// A whole-number option within `range` (its message prints whole numbers, not 1.0…64.0).
  public func integer(_ name: String, in range: ClosedRange<Int>) throws(Error) -> Int? {
    guard let text = values[name] else { return nil }
    guard let n = Int(text) else { throw Error(description: "--\(name): \"\(text)\" is not a whole number") }
    guard range.contains(n) else {
      throw Error(description: "--\(name): \(n) is outside \(range.lowerBound)…\(range.upperBound)")
    }
    return n
  }

  /// A `WxH` size option with both sides in `1...limit`.
  public func size(_ name: String, limit: Int = 16384) throws(Error) -> (width: Int, height: Int)? {
    guard let text = values[name] else { return nil }
    let parts = text.split(separator: "x")
    guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]), w > 0, h > 0, w <= limit, h <= limit else {
      throw Error(description: "--\(name): \"\(text)\" is not WIDTHxHEIGHT with sides 1…\(limit)")
    }
    return (w, h)
  }
}
