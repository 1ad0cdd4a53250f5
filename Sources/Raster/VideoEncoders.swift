import CFFmpeg

/// What libavcodec says about an encoder named on the command line, asked before anything
/// is decoded: ffmpeg would otherwise start, fail on its first frame and print its own text.
public enum VideoEncoders {
  /// x264's and x265's presets: a plain string option in libavcodec, with no named
  /// constants to list, so the encoders' documented names.
  public static let x26xPresets = [
    "ultrafast", "superfast", "veryfast", "faster", "fast", "medium", "slow", "slower", "veryslow", "placebo",
  ]
  /// The usual choices, listed (where this libavcodec has them) when a name is unknown.
  static let common = [
    "libx264", "libx265", "libvpx-vp9", "libvpx", "libaom-av1", "libsvtav1", "librav1e", "h264_nvenc", "hevc_nvenc",
    "mpeg4", "ffv1", "prores_ks",
  ]

  /// What the encoder's `preset` option takes.
  public enum Presets: Equatable, Sendable {
    /// No such option.
    case none
    /// These names.
    case names([String])
    /// A number in this range, no names.
    case integer(ClosedRange<Int>)
  }

  /// Nil when `name` is a video encoder; otherwise why not, with what is accepted.
  public static func problem(encoder name: String) -> String? {
    guard let codec = avcodec_find_encoder_by_name(name) else {
      let have = common.filter { opensHere($0) }
      return "--encoder \(name): this ffmpeg has no such encoder; video encoders include \(have.joined(separator: ", "))"
        + " (`ffmpeg -encoders` lists them all)"
    }
    guard codec.pointee.type == AVMEDIA_TYPE_VIDEO else {
      let kind =
        codec.pointee.type == AVMEDIA_TYPE_AUDIO
        ? "an audio" : codec.pointee.type == AVMEDIA_TYPE_SUBTITLE ? "a subtitle" : "not a video"
      return
        "--encoder \(name): \(kind) encoder; give a video encoder such as \(common.filter { opensHere($0) }.prefix(4).joined(separator: ", "))"
    }
    return nil
  }

  /// The codec an encoder writes (`libvpx-vp9` → `vp9`), nil for an unknown name.
  public static func codecName(encoder name: String) -> String? {
    avcodec_find_encoder_by_name(name).map { String(cString: avcodec_get_name($0.pointee.id)) }
  }

  /// Whether `name` is a video encoder worth suggesting here: not a hardware one (NVENC,
  /// VAAPI, QSV, V4L2 mem2mem, AMF), which a build lists but which opens only with its device
  /// and driver. Opening each candidate with `avcodec_open2` would prove more, but SVT-AV1
  /// (libsvtav1 1.4) hangs in its teardown when closed without a frame sent.
  static func opensHere(_ name: String) -> Bool {
    guard let codec = avcodec_find_encoder_by_name(name), codec.pointee.type == AVMEDIA_TYPE_VIDEO else { return false }
    if codec.pointee.capabilities & AV_CODEC_CAP_HARDWARE != 0 || avcodec_get_hw_config(codec, 0) != nil { return false }
    if let wrapper = codec.pointee.wrapper_name.map({ String(cString: $0) }),
      ["nvenc", "vaapi", "qsv", "v4l2m2m", "amf", "videotoolbox", "mediacodec", "mf"].contains(wrapper)
    {
      return false
    }
    return true
  }

  /// The presets a video encoder takes: x264/x265's documented names, otherwise the named
  /// constants of the `preset` option in the encoder's private AVOptions.
  public static func presets(encoder name: String) -> Presets {
    if name == "libx264" || name == "libx265" { return .names(x26xPresets) }
    guard let codec = avcodec_find_encoder_by_name(name), let options = codec.pointee.priv_class?.pointee.option else {
      return .none
    }
    var preset: AVOption?
    var constants: [(unit: String, name: String)] = []
    var i = 0
    while let optionName = options[i].name {
      let option = options[i]
      if option.type == AV_OPT_TYPE_CONST, let unit = option.unit {
        constants.append((String(cString: unit), String(cString: optionName)))
      } else if String(cString: optionName) == "preset" {
        preset = option
      }
      i += 1
    }
    guard let preset else { return .none }
    if let unit = preset.unit.map({ String(cString: $0) }) {
      let names = constants.filter { $0.unit == unit }.map(\.name)
      if !names.isEmpty { return .names(names) }
    }
    if preset.type == AV_OPT_TYPE_INT || preset.type == AV_OPT_TYPE_INT64 {
      let low = Int(max(preset.min, -1e9)), high = Int(min(preset.max, 1e9))
      return .integer(low...high)
    }
    return .none
  }

  /// Checks `--preset` against the encoder: the value to pass to ffmpeg (nil: none, the
  /// encoder's own default), or why it is refused. `given` is nil when the user named none;
  /// x264 and x265 then get `fallback`.
  public static func preset(_ given: String?, encoder: String, fallback: String) -> Result<String?, PresetError> {
    let takes = presets(encoder: encoder)
    guard let given else {
      if case .names(let names) = takes, names.contains(fallback), encoder == "libx264" || encoder == "libx265" {
        return .success(fallback)
      }
      return .success(nil)
    }
    switch takes {
    case .none:
      return .failure(PresetError(message: "--preset \(given): --encoder \(encoder) takes no preset; leave --preset out"))
    case .names(let names):
      guard names.contains(given) else {
        return .failure(
          PresetError(
            message: "--preset \(given): --encoder \(encoder) has no such preset; it takes \(names.joined(separator: ", "))"))
      }
      return .success(given)
    case .integer(let range):
      guard let n = Int(given), range.contains(n) else {
        return .failure(
          PresetError(
            message:
              "--preset \(given): --encoder \(encoder) takes a preset number from \(range.lowerBound) to \(range.upperBound)"))
      }
      return .success(given)
    }
  }

  public struct PresetError: Error, Sendable {
    public let message: String
  }
}
