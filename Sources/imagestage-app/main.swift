import StageFiles

#if canImport(Glibc)
  import Glibc
#endif

/// `imagestage-app`: Locations, Shortcuts and Panorama in an SDL2 window (docs/cli.md).
let usage = """
  usage: imagestage-app [--scene locations|shortcuts|panorama] [--window WxH] [--events]
                        [--screenshot PATH] [--stats] [--panorama IMAGE] [--motion LOG.csv]
                        [--slots N] [--items N] [--config-dir DIR]

  Keys: 1–3 switch scenes; Tab, Space/Enter, arrows, Escape drag with the keyboard;
  Ctrl+Z / Ctrl+Y undo and redo; C clears the shortcuts; in the panorama, arrows turn,
  wheel or +/- zoom, M switches strip/perspective, R recentres. F12 saves a screenshot.
  """

Console.programName = "imagestage-app"
var options = AppOptions()
do {
  let parsed = try Arguments(
    Array(CommandLine.arguments.dropFirst()),
    valued: ["scene", "window", "screenshot", "panorama", "motion", "slots", "items", "config-dir"],
    switches: ["events", "stats", "help"])
  if parsed.flag("help") {
    print(usage)
    exit(0)
  }
  guard parsed.positional.isEmpty else { throw Arguments.Error(description: "unexpected argument \(parsed.positional[0])") }
  if let scene = parsed.value("scene") {
    guard let index = ["locations", "shortcuts", "panorama"].firstIndex(of: scene) else {
      throw Arguments.Error(description: "--scene: \"\(scene)\" is not locations, shortcuts or panorama")
    }
    options.scene = index
  }
  if let size = try parsed.size("window", limit: 8192) { (options.width, options.height) = size }
  options.events = parsed.flag("events")
  options.stats = parsed.flag("stats")
  options.screenshot = parsed.value("screenshot")
  options.panorama = parsed.value("panorama")
  options.motion = parsed.value("motion")
  options.configDirectory = parsed.value("config-dir")
  options.slots = Int(try parsed.number("slots", in: 1...100_000) ?? 6)
  options.items = Int(try parsed.number("items", in: 1...100_000) ?? 1)
} catch {
  Console.error("\(error)\n\(usage)")
  exit(2)
}

// A parent may start us with signals blocked (threads of test runners do); SIGTERM must
// reach SDL (it becomes a quit event) and SIGUSR1 our screenshot request.
var allSignals = sigset_t()
sigfillset(&allSignals)
sigprocmask(SIG_UNBLOCK, &allSignals, nil)
signal(SIGUSR1) { _ in screenshotSignal = 1 }
do {
  let app = try App(options: options)
  exit(app.run())
} catch {
  Console.error("\(error)")
  exit(1)
}
