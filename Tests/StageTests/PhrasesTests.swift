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
