import HostIO
import Stage
import StageJSON

/// `imagestage board run FILE.json [--frames HZ] [--state FILE]`.
enum BoardCommand {
  static func run(_ args: [String]) -> Int32 {
    do {
      let spec = Commands.spec("board run")
      let parsed = try Arguments(args, valued: spec.valued, switches: spec.switches)
      guard parsed.positional.count == 1 else {
        Console.error("board run needs exactly one scenario file")
        return 2
      }
      let file = parsed.positional[0]
      let frameRate = try parsed.number("frames", in: 1...1000)
      let bytes: [UInt8]
      do { bytes = try FileIO.read(file) } catch {
        Console.error(error.description)
        return 2
      }
      var scenario: Scenario
      do { scenario = try Scenario.decode(bytes) } catch {
        Console.error("\(file): \(error)")
        return 2
      }
      if let frameRate, let last = scenario.events.last, last.t * frameRate > 1_000_000 {
        // A drag held over a long gap would print a frame line at every tick.
        Console.error("--frames: \(file) spans \(last.t) s, over a million frames at \(frameRate) Hz")
        return 2
      }
      let statePath = parsed.value("state")
      if let statePath, FileIO.exists(statePath) {
        do {
          try SavedState.apply(try FileIO.read(statePath), to: &scenario.board, file: statePath)
        } catch let error as InputError {
          Console.error("\(error)")
          return 2
        } catch {
          Console.error("\(error)")
          return 2
        }
      }
      let engine = ScenarioRunner(scenario: scenario, frameRate: frameRate).run { Console.line($0) }
      Console.flush()
      if let statePath {
        do {
          try FileIO.writeAtomically(Array(SavedState.encode(engine, numericIDs: scenario.numericIDs).utf8), to: statePath)
        } catch {
          Console.error(error.description)
          return 1
        }
      }
      return 0
    } catch {
      Console.error(error.description)
      return 2
    }
  }
}
