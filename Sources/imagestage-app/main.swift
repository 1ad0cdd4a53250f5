import HostIO
import Scenes
import StageJSON

#if canImport(Glibc)
  import Glibc
#endif

/// `imagestage-app`: Locations, Shortcuts and Panorama in an SDL2 window (docs/cli.md).
/// Options: one table, which both the parser and `--help` read.
let optionTable: [(name: String, value: String?, help: String)] = [
  ("scene", "locations|shortcuts|panorama", "the tab shown first"),
  ("window", "WxH", "window size in points (at least \(Int(Studio.minimumSize.width))x\(Int(Studio.minimumSize.height)))"),
  ("photos", "DIR", "put the JPEG and PNG photos in DIR on the Locations board"),
  (
    "panorama", "IMAGE|DIR|VIDEO",
    "show IMAGE (JPEG or PNG; GPano metadata honoured), a tile pyramid's DIR, or play a 360° VIDEO (MP4, MOV, MKV, WebM; known by its content, so a camera's .insv or .360 too), in the Panorama tab"
  ),
  (
    "motion", "LOG.csv", "replay a motion log in the Panorama tab, looping: it turns a still's or a video's view (docs/motion.md)"
  ),
  ("config", "TOUR.json", "open a viewer config (Pannellum's JSON; a tour, docs/viewer.md) in the Panorama tab"),
  (
    "allow-outside-paths", nil,
    "a --config you trust: read files it names outside its own folder (../, absolute paths, links, file://)"
  ),
  ("level-horizon", nil, "ignore the device's roll: the horizon stays level (H toggles it)"),
  ("slots", "N", "Locations slots (default 6)"),
  ("items", "N", "generated Locations photos (default 1)"),
  ("config-dir", "DIR", "where positions and shortcuts are saved (default $XDG_CONFIG_HOME/imagestage)"),
  ("no-swap", nil, "a drop on a full Locations slot goes home instead of swapping"),
  ("events", nil, "print JSON Lines: layout, engine events, announcements, screenshots"),
  ("screenshot", "PATH", "save a PNG once the first frame is still, then quit"),
  ("stats", nil, "print frame timing on exit"),
  ("version", nil, "print the version and exit"),
  ("help", nil, "print this help and exit"),
]

var usage: String {
  var lines = ["usage: imagestage-app [OPTIONS]", "", "Options:"]
  for o in optionTable {
    let left = "--\(o.name)" + (o.value.map { " \($0)" } ?? "")
    lines.append("  " + left + String(repeating: " ", count: max(1, 38 - left.count)) + o.help)
  }
  lines += [
    "", "Keys:", KeyBindings.helpText(), "",
    "Drop JPEG or PNG files on the window: photos onto Locations, a panorama (or a 360° video) onto Panorama.",
  ]
  return lines.joined(separator: "\n")
}

Console.programName = "imagestage-app"
var options = AppOptions()
do {
  let parsed = try Arguments(
    Array(CommandLine.arguments.dropFirst()), valued: optionTable.filter { $0.value != nil }.map(\.name),
    switches: optionTable.filter { $0.value == nil }.map(\.name))
  if parsed.flag("help") {
    print(usage)
    exit(0)
  }
  if parsed.flag("version") {
    print("imagestage-app \(imageStageVersion)")
    exit(0)
  }
  guard parsed.positional.isEmpty else { throw Arguments.Error(description: "unexpected argument \(parsed.positional[0])") }
  if let scene = parsed.value("scene") {
    guard let kind = SceneKind(rawValue: scene) else {
      throw Arguments.Error(
        description: "--scene: \"\(scene)\" is not \(SceneKind.allCases.map(\.rawValue).joined(separator: ", "))")
    }
    options.scene = kind
  }
  if let size = try parsed.size("window", limit: 8192) { (options.width, options.height) = size }
  options.events = parsed.flag("events")
  options.stats = parsed.flag("stats")
  options.swap = !parsed.flag("no-swap")
  options.screenshot = parsed.value("screenshot")
  if let path = options.screenshot {
    // Refused before a window opens: a screenshot that cannot be written is the run's point.
    let folder = path.contains("/") ? String(path[..<path.lastIndex(of: "/")!]) : "."
    guard access(folder.isEmpty ? "/" : folder, W_OK) == 0 else {
      let why = access(folder, F_OK) == 0 ? "is not writable" : "does not exist"
      throw Arguments.Error(description: "--screenshot: cannot write \(path): the folder \(folder) \(why)")
    }
  }
  options.panorama = parsed.value("panorama")
  options.tourConfig = parsed.value("config")
  options.allowOutsidePaths = parsed.flag("allow-outside-paths")
  // A folder made by `imagestage pano tiles` is its config.json.
  if let folder = options.panorama, options.tourConfig == nil, FileIO.exists(folder + "/config.json") {
    options.tourConfig = folder + "/config.json"
    options.panorama = nil
  }
  // A tour or a panorama (an image, a pyramid's folder) opens on its tab unless --scene
  // says otherwise.
  if (options.tourConfig != nil || options.panorama != nil) && parsed.value("scene") == nil { options.scene = .panorama }
  options.motion = parsed.value("motion")
  options.levelHorizon = parsed.flag("level-horizon")
  options.photos = parsed.value("photos")
  options.configDirectory = parsed.value("config-dir")
  options.slots = try parsed.integer("slots", in: 1...100_000) ?? 6
  options.items = try parsed.integer("items", in: 1...100_000) ?? 1
} catch {
  Console.error("\(error)\nSee imagestage-app --help.")
  exit(2)
}

// A parent may start us with signals blocked (threads of test runners do); SIGTERM must
// reach SDL (it becomes a quit event) and SIGUSR1 our screenshot request.
var allSignals = sigset_t()
sigfillset(&allSignals)
sigprocmask(SIG_UNBLOCK, &allSignals, nil)
// Made here, not on first use inside the handler (making a global takes a lock).
_ = screenshotRequested.load(ordering: .relaxed)
signal(SIGUSR1) { _ in screenshotRequested.store(true, ordering: .relaxed) }
do {
  let app = try App(options: options)
  exit(app.run())
} catch {
  Console.error("\(error)")
  exit(1)
}
