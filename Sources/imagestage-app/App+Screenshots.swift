import HostIO
import Raster
import StageSDL
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// Set by SIGUSR1 (tests ask this way), F12 or the scene's request: write a screenshot of
/// the next frame drawn. An atomic, since the signal handler writes it while the loop reads
/// and clears it (`exchange`, so a request that comes in between is not lost). A global
/// is made on first use: main.swift touches it before it installs the handler.
let screenshotRequested = Atomic<Bool>(false)

/// The names of the screenshots the user asks for.
struct Screenshots {
  var count = 0

  /// A new name in the working folder, by the time it is taken.
  mutating func nextPath() -> String {
    var tv = timeval()
    gettimeofday(&tv, nil)
    count += 1
    // Seconds alone collide when two are taken in one second.
    return "imagestage-\(tv.tv_sec)-\(tv.tv_usec / 1000)-\(count).png"
  }
}

extension App {
  /// A screenshot the user asked for (F12, SIGUSR1): said on screen, or the error shown.
  func confirmScreenshot(_ path: String) {
    if let problem = screenshot(to: path) {
      studio.showMessage("Could not save the screenshot: \(problem)")
    } else {
      emit(studio.notify("Saved screenshot \(path)", at: now))
    }
    drewIdleFrame = false
  }

  /// Writes the window to `path`; what went wrong (also on stderr) when it cannot.
  @discardableResult
  func screenshot(to path: String) -> String? {
    defer { Console.flush() }
    do {
      let image = try window.readImage()
      try FileIO.writeAtomically(try Raster.encodePNG(image), to: path)
      if options.events { Console.line(JSONLine.screenshot(path)) }
      return nil
    } catch {
      Console.error("screenshot \(path): \(error)")
      return "\(error)"
    }
  }
}
