import CoreMath
import HostIO
import Panorama
import Raster
import StageJSON

/// A 360° video as the source of `pano info`, `pano render --time` and `pano video`.
enum VideoSource {
  /// Whether `path` holds a video, by its content (`VideoDecoder.isVideo`: the rule the app
  /// uses too), so a camera's `.insv`, `.360` or extensionless MP4 is one.
  static func isVideo(_ path: String) -> Bool { VideoDecoder.isVideo(path) }

  /// Warns when a clip without spherical metadata looks like an unstitched dual-fisheye
  /// file (`DualFisheye`): it would be drawn as equirectangular without a word.
  static func warnIfDualFisheye(_ decoder: VideoDecoder, _ frame: VideoFrame, path: String) {
    guard decoder.spherical.source.hasPrefix("no spherical metadata"), DualFisheye.looksUnstitched(frame.planes) else {
      return
    }
    Console.error(DualFisheye.warning(path))
  }

  /// `pano info CLIP.mp4`: the stream, its spherical metadata (or what was assumed, and why).
  static func info(_ path: String) throws {
    let d = try VideoDecoder(path: path, threads: 1)
    let s = d.spherical
    let eye = s.eye(width: d.width, height: d.height)
    let g = s.geometry(eyeWidth: eye.width, eyeHeight: eye.height)
    func degrees(_ r: Double) -> JSONValue { .number(Angle(radians: r).degrees) }
    let line: JSONValue = [
      "width": .number(d.width), "height": .number(d.height), "format": .string("video"), "codec": .string(d.codecName),
      "pixelFormat": .string(d.pixelFormat), "bitDepth": .number(d.bitDepth),
      "fps": .number(Double(d.frameRate.numerator) / Double(d.frameRate.denominator)),
      "frameRate": .string("\(d.frameRate.numerator)/\(d.frameRate.denominator)"),
      "duration": d.duration.map { JSONValue.number($0) } ?? .null, "frames": .number(d.frameCount),
      "audio": .bool(d.hasAudio), "projection": .string(s.projection.rawValue), "stereo": .string(s.stereo.rawValue),
      "eye": ["width": .number(eye.width), "height": .number(eye.height)],
      "pose": ["yaw": degrees(s.pose.yaw), "pitch": degrees(s.pose.pitch), "roll": degrees(s.pose.roll)],
      "crop": [
        "top": .number(s.cropTop), "bottom": .number(s.cropBottom), "left": .number(s.cropLeft),
        "right": .number(s.cropRight),
      ],
      "hfov": degrees(g.horizontalFOV), "vfov": degrees(g.verticalFOV), "wraps": .bool(g.wraps),
      "spherical": .string(s.source), "coverage": .string(s.source),
      "colour": [
        "range": .string(d.colourTags.range), "matrix": .string(d.colourTags.space),
        "primaries": d.colourTags.primaries.map { JSONValue.string($0) } ?? .null,
        "transfer": d.colourTags.transfer.map { JSONValue.string($0) } ?? .null,
        "assumed": .bool(d.colourTags.assumed),
        // PQ or HLG is drawn as it is, never tone-mapped.
        "hdr": d.colourTags.hdrTransfer.map { JSONValue.string($0) } ?? .null,
        "toneMapped": .bool(false),
      ],
      "framesInFile": d.framesInFile.map { JSONValue.number($0) } ?? .null,
    ]
    Console.line(line.text)
    Console.flush()
    if let warning = d.colourTags.hdrWarning { Console.error("warning: \(path): \(warning)") }
    if let first = try? d.next() { warnIfDualFisheye(d, first, path: path) }
    if let inside = d.framesInFile {
      Console.error(
        "\(path): the clip ends early: its header lists \(d.frameCount.map(String.init) ?? "more") frames, the file holds \(inside) (\(format2(Double(inside) * d.frameDuration)) s)"
      )
    }
  }

  /// `pano render CLIP.mp4 --time T`: the frame shown at T seconds (the last one starting at
  /// or before it), drawn from its planes.
  static func render(_ path: String, _ parsed: Arguments, camera: PanoCommand.Camera, output: String) throws {
    guard !camera.strip else { throw CommandError(message: "--mode strip: a video is rendered in perspective only") }
    let time = try parsed.number("time", in: 0...1e7) ?? 0
    let decoder = try VideoDecoder(path: path, threads: camera.threads)
    if let warning = decoder.colourTags.hdrWarning { Console.error("warning: \(path): \(warning)") }
    if let duration = decoder.duration, time >= duration {
      throw CommandError(message: "--time \(JSONText.number(time)): \(path) is \(format2(duration)) s long")
    }
    try decoder.seek(to: time)
    var chosen: VideoFrame?
    let quarter = 0.25 * decoder.frameDuration
    while let frame = try decoder.next() {
      if frame.time > time + quarter { break }
      chosen = frame
    }
    guard let chosen else { throw CommandError(message: "\(path): no frame at \(JSONText.number(time)) s") }
    warnIfDualFisheye(decoder, chosen, path: path)
    let eye = decoder.spherical.eye(width: decoder.width, height: decoder.height)
    var renderer: YUVRenderer
    do {
      renderer = try YUVRenderer(width: eye.width, height: eye.height, video: decoder.spherical)
    } catch {
      throw CommandError(message: "\(path): one eye is \(eye.width)×\(eye.height), too small to draw (\(error))")
    }
    var frame = RGBAImage(width: camera.width, height: camera.height)
    try renderer.render(
      view: camera.view, hfov: camera.hfov, lens: camera.lens,
      from: try chosen.planes.cropped(width: eye.width, height: eye.height), into: &frame,
      executor: ThreadedRows(threads: camera.threads))
    try PanoCommand.write(frame, to: output, threads: camera.threads)
  }
}
