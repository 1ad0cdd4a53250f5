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
