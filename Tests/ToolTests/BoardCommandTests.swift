import Foundation
import HostIO
import Stage
import StageJSON
import Testing

@Suite("imagestage board run")
struct BoardCommandTests {
  static let goldens = ["locations-snap", "shortcuts-assign", "keyboard-layout"]

  /// Golden files were checked by eye once (each drop, return and status against the seeds);
  /// the behaviours in them are asserted one by one in `StageTests`.
  @Test(arguments: goldens)
  func goldenScenarios(name: String) throws {
    let result = try Tool.run("imagestage", ["board", "run", "Tests/Scenarios/\(name).json", "--frames", "10"])
    #expect(result.status == 0, "\(result.stderr)")
    let expected = try String(
      contentsOf: Tool.packageRoot.appendingPathComponent("Tests/Scenarios/\(name).expected.jsonl"), encoding: .utf8)
    #expect(result.stdout == expected)
  }

  @Test func everyLineIsJSONAndTheLastIsTheState() throws {
    let result = try Tool.run("imagestage", ["board", "run", "Tests/Scenarios/locations-snap.json"])
    for line in result.lines {
      #expect(throws: Never.self) { try JSONSerialization.jsonObject(with: Data(line.utf8)) }
    }
    let state = try JSONSerialization.jsonObject(with: Data(result.lines.last!.utf8)) as! [String: Any]
    #expect(state["type"] as? String == "state")
    let items = state["items"] as! [[String: Any]]
    #expect(items[0]["slot"] as? Int == 1)
    #expect(items[0]["center"] as? [Double] == [160, 60])
  }

  static let badInputs: [(String, String)] = [
    (#"{"preset":"locations","canvas":{"width":1,"height":1},"slots":[],"items":[]"#, "line 1, column"),
    (#"{"preset":"dragons","canvas":{"width":1,"height":1},"slots":[],"items":[]}"#, "preset: unknown value \"dragons\""),
    (
      #"{"preset":"locations","canvas":{"width":1,"height":1},"slots":[{"id":1,"frame":[0,0,-5,4]}],"items":[]}"#,
      "slots[0].frame: width and height must not be negative"
    ),
    (
      #"{"preset":"locations","canvas":{"width":1,"height":1},"slots":[{"id":1}],"items":[]}"#,
      "slots[0]: missing required key \"frame\""
    ),
    (
      #"{"preset":"locations","canvas":{"width":1,"height":1},"slots":[],"items":[{"id":"a","frame":[0,0,1,1],"slot":9}]}"#,
      "items[0].slot: no slot has id \"9\""
    ),
    (
      #"{"preset":"shortcuts","canvas":{"width":1,"height":1},"slots":[{"id":1,"frame":[0,0,1,1],"content":"ghost"}],"items":[]}"#,
      "slots[0].content: no item has id \"ghost\""
    ),
    (
      #"{"preset":"locations","canvas":{"width":1,"height":1},"slots":[],"items":[],"events":[{"t":1,"type":"key","key":"tab"},{"t":0.5,"type":"key","key":"tab"}]}"#,
      "events[1].t: events must be in time order"
    ),
    (
      #"{"preset":"locations","canvas":{"width":1,"height":1},"slots":[],"items":[],"events":[{"t":"soon","type":"up"}]}"#,
      "events[0].t: expected a number, found a string"
    ),
    (
      #"{"preset":"locations","canvas":{"width":1,"height":1},"slots":[],"items":[],"events":[{"t":0,"type":"down","x":1}]}"#,
      "events[0]: missing required key \"y\""
    ),
    (
      #"{"preset":"locations","canvas":{"width":1,"height":1},"slots":[],"items":[],"options":{"snapRadius":"far"}}"#,
      "options.snapRadius: expected a number"
    ),
    (#"{"preset":"locations","canvas":{"width":1,"height":1},"slots":[],"items":[],"colour":"red"}"#, "colour: unknown key"),
    (
      #"{"preset":"locations","canvas":{"width":1,"height":1},"slots":[{"id":1,"frame":[0,0,1,1]},{"id":1,"frame":[0,0,1,1]}],"items":[]}"#,
      "slots[1].id: duplicate id \"1\""
    ),
    (String(repeating: "[", count: 100_000), "nesting deeper than 256"),
  ]

  @Test(arguments: badInputs)
  func badInputIsAClearErrorWithExitCodeTwoAndNoOutput(json: String, message: String) throws {
    let result = try Tool.runBoard(json: json)
    #expect(result.status == 2)
    #expect(result.stdout.isEmpty, "no partial output")
    #expect(result.stderr.contains(message), "\(result.stderr)")
  }

  @Test func missingFileAndBadOptions() throws {
    let missing = try Tool.run("imagestage", ["board", "run", "/nonexistent/x.json"])
    #expect(missing.status == 2)
    #expect(missing.stderr.contains("cannot open /nonexistent/x.json: No such file or directory"))
    let badFlag = try Tool.run("imagestage", ["board", "run", "Tests/Scenarios/locations-snap.json", "--frames", "fast"])
    #expect(badFlag.status == 2)
    #expect(badFlag.stderr.contains("--frames"))
  }

  @Test func framesOverALongScenarioAreRefused() throws {
    let dir = try Tool.temporaryDirectory()
    let file = dir.appendingPathComponent("long.json")
    try
      #"{"preset":"locations","canvas":{"width":1,"height":1},"slots":[],"items":[],"events":[{"t":5000000,"type":"key","key":"tab"}]}"#
      .write(to: file, atomically: true, encoding: .utf8)
    let result = try Tool.run("imagestage", ["board", "run", file.path, "--frames", "60"])
    #expect(result.status == 2 && result.stdout.isEmpty)
    #expect(result.stderr.contains("over a million frames"))
  }

  /// An animation that lasts 1e308 s printed frame lines for ever (92 MB in 20 s) after the
  /// last event: the check counted the events' span only.
  @Test(arguments: [#""snapDuration": 1e308"#, #""returnDuration": 20000"#])
  func framesOverALongAnimationAreRefused(option: String) throws {
    let dir = try Tool.temporaryDirectory()
    let file = dir.appendingPathComponent("slow.json")
    try #"""
    {"preset": "locations", "canvas": {"width": 400, "height": 200}, "options": {\#(option)},
     "slots": [{"id": "s1", "frame": [0, 0, 100, 100]}, {"id": "s2", "frame": [200, 0, 100, 100]}],
     "items": [{"id": "a", "frame": [10, 10, 80, 80], "slot": "s1"}],
     "events": [{"t": 0, "type": "down", "x": 50, "y": 50}, {"t": 0.1, "type": "move", "x": 250, "y": 50},
                {"t": 0.2, "type": "up", "x": 250, "y": 50}]}
    """#.write(to: file, atomically: true, encoding: .utf8)
    let result = try Tool.run("imagestage", ["board", "run", file.path, "--frames", "60"])
    #expect(result.status == 2 && result.stdout.isEmpty)
    #expect(result.stderr.contains("over a million frames"), "\(result.stderr)")
    // Without --frames it runs: the state is written at once, however long the animation.
    #expect(try Tool.run("imagestage", ["board", "run", file.path]).status == 0)
  }

  @Test func stateIsSavedAtomicallyAndLoadedNextRun() throws {
    let dir = try Tool.temporaryDirectory()
    let state = dir.appendingPathComponent("state.json").path
    let first = try Tool.run("imagestage", ["board", "run", "Tests/Scenarios/locations-snap.json", "--state", state])
    #expect(first.status == 0)
    let saved = try String(contentsOfFile: state, encoding: .utf8)
    #expect(saved.contains("\"slot\":1"))
    // A scenario with no events starts from the saved slot.
    let idle = dir.appendingPathComponent("idle.json")
    try
      #"{"preset":"locations","canvas":{"width":320,"height":480},"slots":[{"id":0,"frame":[20,20,80,80]},{"id":1,"frame":[120,20,80,80]}],"items":[{"id":"photo","frame":[0,0,60,60],"slot":0}]}"#
      .write(to: idle, atomically: true, encoding: .utf8)
    let second = try Tool.run("imagestage", ["board", "run", idle.path, "--state", state])
    #expect(second.lines.first == #"{"type":"status","t":0,"text":"location #1"}"#)
    #expect(second.lines.last!.contains(#""slot":1,"center":[160,60]"#))
    let leftovers = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.contains(".tmp") }
    #expect(leftovers.isEmpty)
  }

  @Test func corruptStateIsRefusedAndKept() throws {
    let dir = try Tool.temporaryDirectory()
    let state = dir.appendingPathComponent("state.json")
    try "{\"items\": [".write(to: state, atomically: true, encoding: .utf8)
    let result = try Tool.run("imagestage", ["board", "run", "Tests/Scenarios/locations-snap.json", "--state", state.path])
    #expect(result.status == 2)
    #expect(result.stderr.contains("state.json"))
    #expect(
      try String(contentsOf: state, encoding: .utf8) == "{\"items\": [", "a saved file is never overwritten by a failed run")
  }
}
