import HostIO
import Panorama
import Raster
import Stage
import StageJSON

/// A failure the CLI itself names (usage, a missing option, ffmpeg), with its exit code.
struct CommandError: Error {
  var message: String
  /// 2: bad input or usage; 1: failed while running (docs/cli.md).
  var code: Int32 = 2
}

/// An error met while reading `path`, when the error itself does not name the file.
struct InFile: Error {
  var path: String
  var error: any Error
}

/// Every error a command can meet, turned into its message and exit code in this one place
/// (as swift-argument-parser's `MessageInfo` does): commands throw what they meet and never
/// re-wrap it. Exit 2 for bad input or usage, 1 for a failure while running.
enum Failures {
  static func describe(_ error: any Error) -> (message: String, code: Int32) {
    switch error {
    case let e as CommandError: return (e.message, e.code)
    case let e as InFile:
      let inner = describe(e.error)
      return ("\(Console.escaped(e.path)): \(inner.message)", inner.code)
    // Reading what the user named is their input; anything else is the run failing.
    case let e as FileError: return (e.description, e.isRead ? 2 : 1)
    case let e as Arguments.Error: return (e.description, 2)
    case let e as ConfigPathError: return (e.description, 2)
    case let e as PanoramaLoadError: return (e.message, 2)
    case let e as RasterError: return (e.message, 2)
    case let e as MotionLog.ParseError: return (e.description, 2)
    case let e as InputError: return (e.description, 2)
    case let e as JSONSyntaxError: return (e.description, 2)
    case let e as BoardError: return (e.description, 2)
    case let e as ImageError: return (e.description, 2)
    default: return ("\(error)", 2)
    }
  }

  /// Runs a command: its exit code, with the error (if any) on stderr after stdout's lines.
  static func run(_ body: () throws -> Void) -> Int32 {
    do {
      try body()
      Console.flush()
      return 0
    } catch {
      Console.flush()
      let (message, code) = describe(error)
      Console.error(message)
      return code
    }
  }
}
