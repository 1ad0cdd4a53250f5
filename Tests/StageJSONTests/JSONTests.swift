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

/// `JSONBuilder`: the web viewer's config arrives as one call per value (its JS walks the
/// page's object), and must read exactly as the same config's text does.
@Suite("JSON builder")
struct JSONBuilderTests {
  /// Feeds `json` to a builder as the viewer's JS does, value by value.
  static func feed(_ json: JSON, into b: inout JSONBuilder) {
    switch json.value {
    case .array(let items):
      b.open(array: true)
      for x in items { feed(x, into: &b) }
      b.close()
    case .object(let members):
      b.open(array: false)
      for m in members {
        b.key(m.key)
        feed(m.value, into: &b)
      }
      b.close()
    case let scalar: b.add(scalar)
    }
  }

  @Test func aTourFedValueByValueReadsAsItsText() throws {
    let text = """
      {"default": {"firstScene": "hall", "sceneFadeDuration": 500, "autoLoad": true},
       "scenes": {"hall": {"panorama": "h.jpg", "hfov": "110", "backgroundColor": [0, 0.5, 1],
                           "hotSpots": [{"pitch": 1, "yaw": 2, "type": "scene", "sceneId": "cellar"},
                                        {"pitch": 3, "yaw": 4, "sceneID": "x"}]},
                  "kitchen": {"panorama": "k.jpg", "pitch": true, "strings": {"loadButtonLabel": "Go"}}}}
      """
    var b = JSONBuilder()
    Self.feed(try JSONParser.parse(text), into: &b)
    let fed = try ViewerConfig.read(try #require(b.result), source: "config")
    let parsed = try ViewerConfig.parse(Array(text.utf8), source: "config")
    #expect(fed.scenes.map(\.id) == parsed.scenes.map(\.id))
    #expect(fed.scenes.map(\.settings) == parsed.scenes.map(\.settings))
    #expect(fed.scenes.map(\.hotSpots.count) == [2, 0])
    // The same warnings with the same key paths; only the file's lines and columns are not known.
    #expect(fed.warnings.map(\.description) == parsed.warnings.map(\.description))
    #expect(fed.warnings.contains { $0.description.hasPrefix("scenes.hall.hotSpots[1].sceneID: unknown hotspot key") })
    #expect(fed.warnings.contains { $0.description.hasPrefix("scenes.kitchen.pitch: expected a number") })
  }

  /// Calls out of order (the JS is ours, but the calls cross a module boundary) leave no
  /// result, and never trap; nesting past the limit is refused.
  @Test func callsOutOfOrderAndTooDeepLeaveNoResult() {
    var memberWithoutKey = JSONBuilder()
    memberWithoutKey.open(array: false)
    memberWithoutKey.add(.number(1))
    memberWithoutKey.close()
    #expect(memberWithoutKey.result == nil)
    var closedTwice = JSONBuilder()
    closedTwice.open(array: true)
    closedTwice.close()
    closedTwice.close()
    #expect(closedTwice.result == nil)
    var twoRoots = JSONBuilder()
    twoRoots.add(.null)
    twoRoots.add(.null)
    #expect(twoRoots.result == nil)
    var unclosed = JSONBuilder()
    unclosed.open(array: true)
    #expect(unclosed.result == nil)
    var deep = JSONBuilder(maxDepth: 8)
    for _ in 0..<9 { deep.open(array: true) }
    for _ in 0..<9 { deep.close() }
    #expect(deep.broken && deep.result == nil)
    var fine = JSONBuilder(maxDepth: 8)
    for _ in 0..<8 { fine.open(array: true) }
    for _ in 0..<8 { fine.close() }
    #expect(fine.result != nil)
  }
}
