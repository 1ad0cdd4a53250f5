/// The checks ``JSONReader`` (a board's, scenario's or viewer's JSON file) and ``ConfigReader``
/// (a viewer config, parsed or fed by the page's JS) share, so both say the same words for the
/// same mistake. Each reader knows its own value tree; the rules built on a number or a string
/// live here once.
protocol ValueReading {
  /// The error for this reader's place: its path, and a line and column where known.
  func fail(_ message: String) -> InputError
  func double() throws(InputError) -> Double
  func string() throws(InputError) -> String
}

extension ValueReading {
  func nonNegative() throws(InputError) -> Double {
    let d = try double()
    guard d >= 0 else { throw fail("must not be negative (found \(JSONText.number(d)))") }
    return d
  }

  func int() throws(InputError) -> Int {
    let d = try double()
    // `Int(exactly:)`, not `Int(_:)`: on wasm32 `Int` is 32 bits, and 3e9 would trap there.
    guard abs(d) < 1e15, let n = Int(exactly: d) else {
      throw fail("expected an integer\(d == d.rounded() ? " in range" : ""), found \(JSONText.number(d))")
    }
    return n
  }

  func oneOf<T>(_ choices: [(String, T)]) throws(InputError) -> T {
    let s = try string()
    for (name, value) in choices where name == s { return value }
    throw fail("unknown value \"\(s)\"; expected one of: \(choices.map { $0.0 }.joined(separator: ", "))")
  }
}
