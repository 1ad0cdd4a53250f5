import StageJSON
import Testing

@Suite("JSON")
struct JSONTests {
  @Test(arguments: [
    ("{\"a\": [1, 2.5e3, -0.25, true, null, \"\\u00e9\\ud83d\\ude00\"]}", true),
    ("{\"a\": 1,}", false), ("[1 2]", false), ("\"\u{01}\"", false), ("01", false), ("{\"a\":1,\"a\":2}", false),
    ("1e999", false),
  ])
  func jsonParserAcceptsJSONAndRejectsTheRest(text: String, valid: Bool) {
    let parsed = try? JSONParser.parse(text)
    #expect((parsed != nil) == valid)
  }

  @Test func jsonTextRoundTrips() throws {
    let s = "tab\tquote\"back\\slash\u{1}é😀"
    let parsed = try JSONParser.parse(JSONText.quoted(s))
    guard case .string(let back) = parsed.value else {
      Issue.record("not a string")
      return
    }
    #expect(back == s)
  }

  /// Numbers are written by integer arithmetic (the same text on every platform, and in
  /// Embedded Swift, which cannot print floats): at most 6 decimals, no trailing zeros.
  @Test(arguments: [
    (0.1 + 0.2, "0.3"), (-3, "-3"), (123.4567891, "123.456789"), (-0.5, "-0.5"), (1e-7, "0"), (-4e-7, "0"),
    (2_147_483_648, "2147483648"), (0.000_001, "0.000001"), (-12.05, "-12.05"), (1e20, "100000000000000e6"),
    (12_345_678_901.5, "12345678902"), (Double.nan, "null"), (Double.infinity, "null"),
  ])
  func numbersAreShortAndExact(value: Double, text: String) throws {
    #expect(JSONText.number(value) == text)
    if text != "null", case .number(let back) = try JSONParser.parse(text).value {
      #expect(abs(back - value) <= max(5e-7, abs(value) * 1e-12) || abs(value) >= 9e9)
    }
  }
}

/// A flood of keys in one object costs time in proportion to its size: the duplicate check
/// once scanned the members read so far (160k keys, 1.8 MB: 38 s in the CLI).
@Suite("JSON key floods")
struct JSONKeyFloodTests {
  static func object(keys: Int, duplicateAtEnd: Bool = false) -> [UInt8] {
    var text = "{"
    for k in 0..<keys { text += "\"k\(k)\":\(k)," }
    text += duplicateAtEnd ? "\"k5\":0}" : "\"end\":0}"
    return Array(text.utf8)
  }

  /// The fastest of three parses, in seconds (the fastest: this machine is shared and busy).
  static func seconds(_ bytes: [UInt8]) throws -> Double {
    var best = Double.infinity
    for _ in 0..<3 {
      let clock = ContinuousClock()
      let start = clock.now
      _ = try JSONParser.parse(bytes)
      let d = clock.now - start
      best = min(best, Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18)
    }
    return best
  }

  /// 200k keys against 20k: about 10× when linear, about 100× when quadratic; 20 leaves room
  /// for a busy machine's noise.
  @Test func parsingTimeGrowsLinearlyWithTheKeys() throws {
    let small = Self.object(keys: 20_000), large = Self.object(keys: 200_000)
    let ratio = try Self.seconds(large) / Self.seconds(small)
    #expect(ratio < 20, "200k keys took \(ratio)× as long as 20k")
  }

  @Test func aDuplicateAfterManyKeysIsStillFound() {
    #expect(throws: JSONSyntaxError.self) { try JSONParser.parse(Self.object(keys: 5_000, duplicateAtEnd: true)) }
    #expect((try? JSONParser.parse(Self.object(keys: 5_000))) != nil)
  }
}
