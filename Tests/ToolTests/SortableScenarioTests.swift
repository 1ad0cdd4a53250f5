import Foundation
import Testing

/// `imagestage board run` on a sortable scenario (issue 38): the same events as the web
/// board's sortable mode, replayed through SortableEngine.
@Suite("imagestage board run, sortable")
struct SortableScenarioTests {
  static func objects(_ lines: [String]) throws -> [[String: Any]] {
    try lines.map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
  }

  /// A kanban: todo-1 dragged over todo-3 lands after it (SortableJS's order, not a swap),
  /// todo-2 goes into the empty Done list, Escape cancels a drag, undo takes back the move
  /// between lists. Checked field by field, then against the golden file.
  @Test func aKanbanReplaysWithTheWebBoardsEvents() throws {
    let result = try Tool.run("imagestage", ["board", "run", "Tests/Scenarios/sortable-kanban.json"])
    #expect(result.status == 0, "\(result.stderr)")
    let lines = try Self.objects(result.lines)
    let types = lines.map { $0["type"] as? String ?? "" }
    #expect(
      types == [
        "start", "sort", "sort", "end", "change", "start", "sort", "end", "change", "start", "sort", "end", "change", "state",
      ])
    #expect(lines[0]["item"] as? String == "todo-1" && lines[0]["from"] as? String == "todo")
    #expect(lines[0]["oldIndex"] as? Int == 0)
    #expect(lines[2]["newIndex"] as? Int == 2 && lines[2]["to"] as? String == "todo")
    let within = lines[3]
    #expect(within["from"] as? String == "todo" && within["to"] as? String == "todo")
    #expect(within["oldIndex"] as? Int == 0 && within["newIndex"] as? Int == 2)
    let between = lines[7]
    #expect(between["item"] as? String == "todo-2" && between["from"] as? String == "todo")
    #expect(between["to"] as? String == "done" && between["newIndex"] as? Int == 0)
    #expect(lines[8]["lists"] as? [String] == ["todo", "done"])
    #expect(lines[11]["cancelled"] as? Bool == true && lines[11]["newIndex"] as? Int == 0)
    let state = try #require(lines.last?["lists"] as? [[String: Any]])
    #expect(state[0]["items"] as? [String] == ["todo-2", "todo-3", "todo-1"])
    #expect(state[1]["items"] as? [String] == [])
    let expected = try String(
      contentsOf: Tool.packageRoot.appendingPathComponent("Tests/Scenarios/sortable-kanban.expected.jsonl"), encoding: .utf8)
    #expect(result.stdout == expected)
  }

  /// `--frames` and `--state` mean nothing for sortable lists: refused, naming the file.
  @Test func framesAndStateAreRefusedForASortableScenario() throws {
    for flags in [["--frames", "10"], ["--state", "/tmp/never-written.json"]] {
      let result = try Tool.run("imagestage", ["board", "run", "Tests/Scenarios/sortable-kanban.json"] + flags)
      #expect(result.status == 2 && result.stdout.isEmpty)
      #expect(
        result.stderr.contains("\(flags[0]): Tests/Scenarios/sortable-kanban.json is a sortable scenario"), "\(result.stderr)")
    }
    #expect(!FileManager.default.fileExists(atPath: "/tmp/never-written.json"))
  }

  static let badInputs: [(String, String)] = [
    (#"{"preset":"sortable","lists":[{"id":"a","frame":[0,0,1,1],"items":[]}],"slots":[]}"#, "slots: unknown key"),
    (
      #"{"preset":"sortable","lists":[{"id":"a","frame":[0,0,1,1],"layout":"spiral","items":[]}]}"#,
      "lists[0].layout: unknown value \"spiral\""
    ),
    (
      #"{"preset":"sortable","lists":[{"id":"a","frame":[0,0,1,1],"items":[{"id":"x","frame":[0,0,1,1]},{"id":"x","frame":[0,0,1,1]}]}]}"#,
      "lists[0].items[1].id: duplicate id \"x\""
    ),
    (
      #"{"preset":"sortable","lists":[{"id":"a","frame":[0,0,1,1],"layout":"grid","columns":0,"cell":[1,1],"items":[]}]}"#,
      "lists[0].columns: a grid has at least one column"
    ),
    (
      #"{"preset":"sortable","lists":[],"options":{"swapThreshold":1.5}}"#, "options.swapThreshold: must be between 0 and 1"
    ),
    (
      #"{"preset":"sortable","lists":[],"events":[{"t":1,"type":"up","x":0,"y":0},{"t":0,"type":"up","x":0,"y":0}]}"#,
      "events[1].t: events must be in time order"
    ),
  ]

  @Test(arguments: badInputs)
  func badInputIsAClearErrorWithExitCodeTwoAndNoOutput(json: String, message: String) throws {
    let result = try Tool.runBoard(json: json)
    #expect(result.status == 2)
    #expect(result.stdout.isEmpty, "no partial output")
    #expect(result.stderr.contains(message), "\(result.stderr)")
  }
}
