import CoreMath
import HostIO
import Panorama
import Scenes
import StageJSON

/// One option of a command: the parser, `--help` and the completion scripts all read it.
struct OptionSpec {
  var name: String
  /// The value's placeholder; `nil` for a switch.
  var value: String?
  var help: String
  /// Values a shell can complete.
  var choices: [String] = []
  /// Completes file names.
  var isFile = false
  /// What it is when not given, for `--help` (nil: nothing to say, or said in `help`).
  var defaultValue: String?
}

/// A command: its words, what it takes and does, and its options.
struct CommandSpec {
  var words: [String]
  var operands: String
  var summary: String
  var options: [OptionSpec]
  /// Other forms of the operands (`pano render --config CONFIG.json …`), listed under the
  /// first in the usage lines.
  var alternatives: [String] = []

  var valued: [String] { options.filter { $0.value != nil }.map(\.name) }
  var switches: [String] { options.filter { $0.value == nil }.map(\.name) }
  var name: String { words.joined(separator: " ") }

  /// `imagestage pano render --help`.
  var help: String {
    let tail = options.isEmpty ? "" : " [OPTIONS]"
    var lines = ["usage: imagestage \(name) \(operands)\(tail)"]
    lines += alternatives.map { "       imagestage \(name) \($0)\(tail)" }
    lines += ["", summary]
    if !options.isEmpty { lines += ["", "Options:"] }
    for o in options {
      let left = (o.name == "output" ? "-o, " : "") + "--\(o.name)" + (o.value.map { " \($0)" } ?? "")
      var text = o.help
      // What a NAME may be and what it is by default, so no one has to guess or read the docs.
      if !o.choices.isEmpty { text += "; one of \(o.choices.joined(separator: ", "))" }
      if let d = o.defaultValue { text += " (default \(d))" }
      lines.append("  " + left + String(repeating: " ", count: max(1, 30 - left.count)) + text)
    }
    return lines.joined(separator: "\n")
  }
}

enum Commands {
  static let lenses = Lens.allCases.map(\.rawValue)
  static let limits = Lens.allCases.map { "\($0.rawValue) \(Int(Angle(radians: $0.maximumFieldOfView).degrees.rounded(.down)))" }

  static let maxPixels = OptionSpec(
    name: "max-pixels", value: "MP", help: "refuse images over MP megapixels before decoding", defaultValue: "160")
  static let projection = OptionSpec(
    name: "projection", value: "NAME", help: "source projection when the file has no GPano metadata",
    choices: SourceProjection.allCases.map(\.rawValue), defaultValue: "from the image's shape")
  static let allowOutsidePaths = OptionSpec(
    name: "allow-outside-paths", value: nil,
    help: "a config you trust: read files it names outside its own folder (../, absolute paths, links, file://)")
  static let camera: [OptionSpec] = [
    OptionSpec(name: "output", value: "OUT", help: "where to write", isFile: true),
    OptionSpec(name: "yaw", value: "DEG", help: "turn right from the image's centre column", defaultValue: "0"),
    OptionSpec(name: "pitch", value: "DEG", help: "look up (negative: down)", defaultValue: "0"),
    OptionSpec(name: "roll", value: "DEG", help: "tilt the view", defaultValue: "0"),
    OptionSpec(
      name: "hfov", value: "DEG", help: "horizontal field of view (at most: \(limits.joined(separator: ", ")))",
      defaultValue: "90"),
    OptionSpec(name: "lens", value: "NAME", help: "the view's lens", choices: lenses, defaultValue: "rectilinear"),
    OptionSpec(name: "size", value: "WxH", help: "output size in pixels", defaultValue: "1280x720"),
    OptionSpec(
      name: "mode", value: "NAME", help: "perspective view or the seed's strip", choices: ViewMode.allCases.map(\.rawValue),
      defaultValue: "perspective"),
    OptionSpec(
      name: "edges", value: "NAME", help: "the strip at a partial panorama's edges", choices: ["clamp", "repeat"],
      defaultValue: "clamp"),
    OptionSpec(name: "threads", value: "N", help: "rendering threads, 1…64", defaultValue: "2"),
    OptionSpec(name: "mipmaps", value: nil, help: "build mip levels up front (else the first view that minifies does)"),
    OptionSpec(name: "no-mipmaps", value: nil, help: "no mip levels: plain bilinear samples, no extra memory"),
    projection, maxPixels,
  ]

  static let all: [CommandSpec] = [
    CommandSpec(
      words: ["board", "run"], operands: "SCENARIO.json",
      summary: "Runs a scenario through the drag engine; prints one JSON line per event, then the state (docs/scenario.md).",
      options: [
        OptionSpec(name: "frames", value: "HZ", help: "also print frame lines at HZ while anything moves"),
        OptionSpec(
          name: "state", value: "FILE", help: "load the state from FILE if it exists, save it there after", isFile: true),
      ]),
    CommandSpec(
      words: ["pano", "info"], operands: "IN",
      summary:
        "Prints a panorama's or a 360° video's size, format, coverage (and why) and metadata as JSON: an image's GPano fields; a video's codec, frame rate, length and spherical metadata (IN is known by its content: a camera's .insv or .360 is a video).",
      options: [projection, maxPixels, allowOutsidePaths]),
    CommandSpec(
      words: ["pano", "render"], operands: "IN|DIR -o OUT.png|.jpg",
      summary:
        "Renders one view of a panorama (IN: a JPEG or PNG, or \"sample\"; DIR: a tile pyramid's folder), or of a viewer config's scene (--config, docs/viewer.md).",
      options: camera + [
        OptionSpec(
          name: "config", value: "CONFIG.json|DIR",
          help: "a Pannellum-style viewer config (or a pyramid's folder) instead of IN (its view unless given)",
          isFile: true),
        OptionSpec(name: "scene", value: "ID", help: "the tour's scene to render", defaultValue: "the config's firstScene"),
        OptionSpec(name: "time", value: "S", help: "IN is a video: the frame at S seconds", defaultValue: "0"),
        allowOutsidePaths,
      ], alternatives: ["--config CONFIG.json|DIR [--scene ID] -o OUT.png|.jpg"]),

    CommandSpec(
      words: ["pano", "reframe"], operands: "IN -o OUT.mp4|DIR|-",
      summary:
        "Reframes a 360° video into a flat one (docs/video.md): the view follows a motion log, keyframes or fixed angles; frame rate and audio kept (audio encoded where the container cannot hold it).",
      options: [
        OptionSpec(
          name: "output", value: "OUT",
          help: "OUT.mp4 (.mov, .mkv, .webm), a folder DIR for numbered PNGs, or - for raw frames", isFile: true),
        OptionSpec(name: "motion", value: "LOG.csv", help: "a phone's motion log drives the view", isFile: true),
        OptionSpec(name: "offset", value: "S", help: "the clip's time at which the log's time 0 falls", defaultValue: "0"),
        OptionSpec(name: "keys", value: "KEYS.json", help: "keyframes (time, yaw, pitch, roll, hfov, lens), eased", isFile: true),
        OptionSpec(name: "yaw", value: "DEG", help: "turn right (fixed, or added to the log)", defaultValue: "0"),
        OptionSpec(name: "pitch", value: "DEG", help: "look up (negative: down)", defaultValue: "0"),
        OptionSpec(name: "roll", value: "DEG", help: "tilt the view", defaultValue: "0"),
        OptionSpec(name: "hfov", value: "DEG", help: "horizontal field of view", defaultValue: "90"),
        OptionSpec(name: "lens", value: "NAME", help: "the view's lens", choices: lenses, defaultValue: "rectilinear"),
        OptionSpec(name: "size", value: "WxH", help: "output size, both even", defaultValue: "1920x1080"),
        OptionSpec(name: "start", value: "S", help: "start S seconds into the clip", defaultValue: "0"),
        OptionSpec(name: "duration", value: "S", help: "reframe S seconds", defaultValue: "to the end"),
        OptionSpec(name: "encoder", value: "NAME", help: "ffmpeg's video encoder", defaultValue: "libx264; libvpx-vp9 for .webm"),
        OptionSpec(name: "quality", value: "N", help: "the encoder's CRF, 0…63 (lower is better)", defaultValue: "20"),
        OptionSpec(name: "preset", value: "NAME", help: "the encoder's preset (checked first; x264/x265 default veryfast)"),
        OptionSpec(
          name: "raw", value: "NAME", help: "-o -: frame format", choices: ["yuv420p", "rgba"], defaultValue: "yuv420p"),
        OptionSpec(name: "no-audio", value: nil, help: "leave the clip's audio out"),
        OptionSpec(name: "progress", value: nil, help: "print the progress line even when stderr is not a terminal"),
        OptionSpec(name: "quiet", value: nil, help: "no progress line and no summary at the end (warnings still)"),
        OptionSpec(name: "threads", value: "N", help: "rendering threads, 1…64", defaultValue: "2"),
        OptionSpec(name: "decoder-threads", value: "N", help: "the decoder's threads (0: one per core)", defaultValue: "0"),
        OptionSpec(name: "raw-motion", value: nil, help: "no One Euro smoothing of the log"),
        OptionSpec(name: "level-horizon", value: nil, help: "ignore the log's roll"),
      ]),
    CommandSpec(
      words: ["pano", "video"], operands: "IN --motion LOG.csv -o OUT.mp4|DIR|-",
      summary:
        "Renders a view per frame following a motion log (docs/motion.md): an .mp4, PNGs in DIR, or raw RGBA to stdout. IN may be a 360° video: then it takes pano reframe's options.",
      options: camera + [
        OptionSpec(name: "motion", value: "LOG.csv", help: "the motion log", isFile: true),
        OptionSpec(
          name: "no-polar-caps", value: nil,
          help: "read the poles from the image itself (less memory, slower near the poles)"),
        OptionSpec(name: "fps", value: "N", help: "frames per second, 1…240", defaultValue: "30"),
        OptionSpec(name: "camera-log", value: "FILE", help: "write each frame's angles as JSON Lines", isFile: true),
        OptionSpec(name: "raw-motion", value: nil, help: "no One Euro smoothing"),
        OptionSpec(
          name: "level-horizon", value: nil,
          help: "ignore the log's roll: the horizon stays level (a phone held upside down replays upright)"),
        allowOutsidePaths,
      ]),
    CommandSpec(
      words: ["pano", "tiles"], operands: "IN -o DIR",
      summary:
        "Cuts a panorama into a multiresolution cube pyramid in Pannellum's layout (DIR/config.json, DIR/L/FACE{Y}_{X}.jpg).",
      options: [
        OptionSpec(name: "output", value: "DIR", help: "a new or empty folder for the pyramid", isFile: true),
        OptionSpec(name: "force", value: nil, help: "replace DIR if it holds anything (once the new pyramid is complete)"),
        OptionSpec(name: "tile-size", value: "PX", help: "tile size, 16…4096", defaultValue: "512"),
        OptionSpec(name: "cube-size", value: "PX", help: "face size at the finest level", defaultValue: "8·⌊width/π/8⌋"),
        OptionSpec(name: "fallback-size", value: "PX", help: "the fallback faces' size", defaultValue: "1024"),
        OptionSpec(name: "quality", value: "N", help: "JPEG quality, 1…100", defaultValue: "75"),
        OptionSpec(name: "png", value: nil, help: "PNG tiles instead of JPEG"),
        OptionSpec(name: "threads", value: "N", help: "rendering threads, 1…64", defaultValue: "2"),
        OptionSpec(
          name: "background", value: "R,G,B",
          help: "colour outside a partial panorama, 0…1 each (generate.py's -b) or #RRGGBB", defaultValue: "black"),
        OptionSpec(
          name: "max-memory", value: "MB", help: "refuse a run that would hold more than this", defaultValue: "2048"),
        projection, maxPixels,
      ]),
    CommandSpec(
      words: ["pano", "tag"], operands: "CLIP.mp4 -o OUT.mp4",
      summary:
        "Writes Spherical Video V2 metadata (st3d, sv3d: equirectangular, stereo, pose, crop) into an MP4's or MOV's video track, so players and viewers show it as 360° (docs/video.md). The media is copied untouched; -o may name the input to retag it (through a temporary, renamed into place).",
      options: [
        OptionSpec(name: "output", value: "OUT.mp4", help: "where to write", isFile: true),
        OptionSpec(
          name: "stereo", value: "NAME", help: "the frame's layout", choices: ["mono", "top-bottom", "left-right"],
          defaultValue: "mono"),
        OptionSpec(
          name: "pose", value: "YAW,PITCH,ROLL", help: "the projection's pose in degrees (the camera's heading)",
          defaultValue: "0,0,0"),
        OptionSpec(
          name: "crop", value: "T,B,L,R", help: "fractions of the frame cropped from each edge", defaultValue: "0,0,0,0"),
      ]),
    CommandSpec(
      words: ["pano", "sample"], operands: "-o OUT.jpg|.png",
      summary: "Writes the built-in test panorama (a 2:1 sky, hills, compass and grid).",
      options: [
        OptionSpec(name: "output", value: "OUT", help: "where to write", isFile: true),
        OptionSpec(name: "size", value: "WxH", help: "2:1 size", defaultValue: "4096x2048"),
      ]),
    CommandSpec(
      words: ["completions"], operands: "bash|zsh|fish", summary: "Prints a shell completion script.", options: []),
  ]

  static func spec(_ words: String) -> CommandSpec {
    guard let s = all.first(where: { $0.name == words }) else { preconditionFailure("no command \(words)") }
    return s
  }

  /// The tool's overview: each command's synopsis, generated from the table.
  static var usage: String {
    var lines = ["usage: imagestage COMMAND [ARGS] [OPTIONS]", "", "Commands:"]
    for c in all {
      for operands in [c.operands] + c.alternatives { lines.append("  imagestage \(c.name) \(operands)") }
    }
    lines += [
      "", "Each command answers --help with its options. imagestage --version prints the version.",
      "Angles are degrees: yaw 0 looks at the image's centre column, positive yaw turns right,",
      "positive pitch looks up. See docs/cli.md, docs/scenario.md and docs/motion.md",
      "(installed: /usr/share/doc/imagestage).",
    ]
    return lines.joined(separator: "\n")
  }
}
