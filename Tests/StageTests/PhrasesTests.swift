import Foundation
import Stage
import Testing

@Suite("Phrases")
struct PhrasesTests {
  @Test func fillingReplacesKnownNamesAndKeepsTheRest() throws {
    var phrases = Phrases()
    #expect(phrases.fill(.dropped, [("item", "Mail"), ("slot", "Shortcut 2")]) == "Mail was dropped on Shortcut 2.")
    phrases[.dropped] = "{item} posé sur {slot} {typo}"
    #expect(phrases.fill(.dropped, [("item", "Mail"), ("slot", "la case 2")]) == "Mail posé sur la case 2 {typo}")
    // An unclosed brace is text, not a hang or a trap.
    phrases[.dropped] = "{item"
    #expect(phrases.fill(.dropped, [("item", "x")]) == "{item")
    phrases[.dropped] = Phrase.dropped.english
    #expect(phrases == Phrases())
  }

  /// Every template's English is the engine's old wording: the app and the scenario files
  /// print the same lines as before (Tests/Scenarios' expected output checks the rest).
  @Test func theKeyboardSaysItInTheHostsWords() throws {
    var options = Options.preset(.locations)
    options.phrases[.pickedUp] = "Pris : {item}."
    options.phrases[.location] = "case {id}"
    var engine = try Engine(board: twoSlotBoard(), options: options)
    let events = try engine.handle(.key(.space), at: 0)
    #expect(events.contains(.announce("Pris : photo, in case a.")))
  }

  /// The web board's table (imagestage-board.js's `PHRASES`) has every code, in this order
  /// (the wasm sends a phrase's index), each with the English the app and the CLI print.
  /// Phrases compare and hash by case (not by their names' text): each equals itself only,
  /// and a table keyed by them keeps every one apart.
  @Test func everyPhraseIsItselfAndNoOther() {
    for (k, a) in Phrase.allCases.enumerated() {
      for (j, b) in Phrase.allCases.enumerated() { #expect((a == b) == (k == j), "\(a) \(b)") }
    }
    var phrases = Phrases()
    for p in Phrase.allCases { phrases[p] = "#\(p.rawValue)" }
    #expect(Phrase.allCases.allSatisfy { phrases[$0] == "#\($0.rawValue)" })
    #expect(Set(Phrase.allCases).count == Phrase.allCases.count)
  }

  @Test func theWebBoardsTableHasEveryCodeInOrder() throws {
    let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("web/board/imagestage-board.js")
    let js = try String(contentsOf: file, encoding: .utf8)
    let start = try #require(js.range(of: "const PHRASES = {\n")).upperBound
    let end = try #require(js.range(of: "\n};", range: start..<js.endIndex)).lowerBound
    var table: [(String, String)] = []
    for line in js[start..<end].split(separator: "\n") {
      let row = line.trimmingCharacters(in: .whitespaces)
      let colon = try #require(row.firstIndex(of: ":"), "\(row)")
      let quoted = row[row.index(after: colon)...].trimmingCharacters(in: .whitespaces)
      #expect(quoted.hasPrefix("'") && quoted.hasSuffix("',"), "\(row): one quoted template a line")
      table.append((String(row[..<colon]), String(quoted.dropFirst().dropLast(2))))
    }
    #expect(table.map(\.0) == Phrase.allCases.map(\.rawValue))
    for (name, template) in table {
      #expect(Phrase(rawValue: name)?.english == template, "\(name)")
    }
  }

  /// The engine says its sentences as codes (`handleCoded`): the same drop in words and in codes.
  @Test func aSwapSaysWhereTheDroppedItemIsNowInCodesAndInWords() throws {
    let slots = (0..<8).map {
      Slot(id: String($0), frame: StageRect(x: Double(100 * $0), y: 0, width: 80, height: 80), name: "position \($0 + 1)")
    }
    let items = (0..<8).map { Item(id: "p\($0)", frame: StageRect(x: 0, y: 0, width: 60, height: 60), name: "Photo \($0 + 1)") }
    let board = try Board(
      canvas: StageSize(width: 800, height: 100), slots: slots, items: items, itemSlots: (0..<8).map { String($0) })
    var options = Options.preset(.locations)
    options.swapOccupied = true
    var engine = try Engine(board: board, options: options)
    _ = try engine.handleCoded(.pointer(.down, id: 1, at: StagePoint(x: 40, y: 40)), at: 0)
    _ = try engine.handleCoded(.pointer(.move, id: 1, at: StagePoint(x: 400, y: 40)), at: 0.1)
    _ = try engine.handleCoded(.pointer(.move, id: 1, at: StagePoint(x: 740, y: 40)), at: 0.2)
    let events = try engine.handleCoded(.pointer(.up, id: 1, at: StagePoint(x: 740, y: 40)), at: 0.3)
    let swap = Sentence(.swapped, item: 0, slot: 7, other: 7)
    #expect(events.contains(.said(swap)), "\(events)")
    #expect(engine.announcement(swap) == "Swapped Photo 1 with Photo 8, now in position 8.")
    #expect(!events.contains { if case .announce = $0 { true } else { false } }, "no words from handleCoded")
  }

  func twoSlotBoard() -> Board {
    let slots = [
      Slot(id: "a", frame: StageRect(x: 0, y: 0, width: 100, height: 100)),
      Slot(id: "b", frame: StageRect(x: 200, y: 0, width: 100, height: 100)),
    ]
    return try! Board(
      canvas: StageSize(width: 400, height: 200), slots: slots,
      items: [Item(id: "photo", frame: StageRect(x: 10, y: 10, width: 80, height: 80))], itemSlots: ["a"])
  }
}
