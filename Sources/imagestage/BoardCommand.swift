import HostIO
import Stage
import StageJSON

/// `imagestage board run FILE.json [--frames HZ] [--state FILE]`.
enum BoardCommand {
  static func run(_ args: [String]) -> Int32 {
    Failures.run {
      let spec = Commands.spec("board run")
      let parsed = try Arguments(args, valued: spec.valued, switches: spec.switches)
      guard parsed.positional.count == 1 else { throw CommandError(message: "board run needs exactly one scenario file") }
      let file = parsed.positional[0]
      let frameRate = try parsed.number("frames", in: 1...1000)
      let bytes = try FileIO.read(file)
      let sortable: SortableScenario?
      do { sortable = try SortableScenario.decodeIfSortable(bytes) } catch { throw InFile(path: file, error: error) }
      if let sortable {
        // Sortable lists animate nothing in the engine and save no slot state.
        if frameRate != nil { throw CommandError(message: "--frames: \(file) is a sortable scenario, which has no frames") }
        if parsed.value("state") != nil {
          throw CommandError(message: "--state: \(file) is a sortable scenario; its final order is the last line")
        }
        _ = try SortableScenarioRunner(scenario: sortable).run { Console.line($0) }
        Console.flush()
        return
      }
      var scenario: Scenario
      do { scenario = try Scenario.decode(bytes) } catch { throw InFile(path: file, error: error) }
      if let frameRate, let last = scenario.events.last, last.t * frameRate > 1_000_000 {
        // A drag held over a long gap would print a frame line at every tick.
        throw CommandError(message: "--frames: \(file) spans \(last.t) s, over a million frames at \(frameRate) Hz")
      }
      // So would an animation started by the last event: it may run its whole duration after it.
      let o = scenario.options
      let longest =
        o.reducedMotion
        ? 0 : max(o.curve.settlingDuration(default: o.snapDuration), o.curve.settlingDuration(default: o.returnDuration))
      if let frameRate, ((scenario.events.last?.t ?? 0) + longest) * frameRate > 1_000_000 {
        throw CommandError(
          message: "--frames: \(file)'s animations last up to \(longest) s, over a million frames at \(frameRate) Hz")
      }
      let statePath = parsed.value("state")
      if let statePath, FileIO.exists(statePath) {
        try SavedState.apply(try FileIO.read(statePath), to: &scenario.board, file: statePath)
      }
      let engine = try ScenarioRunner(scenario: scenario, frameRate: frameRate).run { Console.line($0) }
      Console.flush()
      if let statePath {
        try FileIO.writeAtomically(Array(SavedState.encode(engine, numericIDs: scenario.numericIDs).utf8), to: statePath)
      }
    }
  }
}
