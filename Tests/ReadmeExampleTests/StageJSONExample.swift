import CMacTypes
import Stage
import StageJSON
import Testing

/// Sources/StageJSON/README.md's example, run.
@Suite struct StageJSONExample {
  @Test func aScenarioRunsItsStateLoadsAndEventsPrintAsLines() throws {
    // README Sources/StageJSON/README.md
    let text = """
      {"preset": "locations", "canvas": {"width": 300, "height": 100},
       "slots": [{"id": 0, "frame": [0, 0, 80, 80]}, {"id": 1, "frame": [100, 0, 80, 80]}],
       "items": [{"id": "photo", "frame": [10, 10, 60, 60], "slot": 0}],
       "events": [{"t": 0, "type": "down", "x": 40, "y": 40}, {"t": 0.1, "type": "up", "x": 140, "y": 40}]}
      """
    let scenario = try Scenario.decode(Array(text.utf8))  // errors name the field, line and column
    var lines: [String] = []
    let engine = try ScenarioRunner(scenario: scenario).run { lines.append($0) }  // the photo ends on slot 1
    var board = engine.board
    let saved = #"{"items": [{"id": "photo", "slot": 0}]}"#
    try SavedState.apply(Array(saved.utf8), to: &board, file: "locations.json")  // back on slot 0
    let line = EventLines(numericIDs: []).line(.drop(item: "photo", slot: "1"), at: 0.3)
    // line: {"type":"drop","t":0.3,"item":"photo","slot":"1"}
    // END README
    #expect(engine.board.items[0].slot == 1)
    #expect(lines.contains(#"{"type":"drop","t":0.1,"item":"photo","slot":1}"#))
    #expect(board.items[0].slot == 0)
    #expect(line == #"{"type":"drop","t":0.3,"item":"photo","slot":"1"}"#)
    #expect(throws: InputError.self) { try Scenario.decode(Array(#"{"preset": "sideways"}"#.utf8)) }
  }
}
