import CFFmpeg

#if canImport(Glibc)
  import Glibc
#endif

/// How every video file is opened, by libavformat in this process and by the ffmpeg we
/// spawn: local files only, in the containers we read. A file is input we may not trust (an
/// upload on a server): without these lists an HLS playlist or an ffconcat list named
/// `clip.mp4` makes libavformat open the files it names (`file:///…/other.mp4`, or
/// `http://…`), and we would decode and re-encode someone else's video.
public enum VideoInput {
  /// The one protocol allowed: the local file named, never one a file's contents name.
  public static let protocols = "file"

  /// The demuxers allowed, as libavformat names them: MP4/MOV and their family (one
  /// demuxer: `.mp4 .mov .m4v .insv`, 3GP, Motion JPEG 2000), Matroska/WebM (one demuxer),
  /// and AVI, the containers `VideoFiles` lists and cameras write. None of them opens other
  /// files by default (MOV's external data references are off unless `enable_drefs` is set).
  /// Playlists (`hls`), lists (`concat`), raw streams and network formats are left out.
  public static let formats = "mov,mp4,m4a,3gp,3g2,mj2,matroska,webm,avi"

  /// `formats`, plus the image sequence reader for a numbered sequence (`img%03d.jpg`, a
  /// pattern the caller wrote, not a file's contents).
  public static func formats(for path: String) -> String {
    path.contains("%") ? formats + ",image2" : formats
  }

  /// ffmpeg's input options that apply the same lists: put them before its `-i path`.
  public static func ffmpegOptions(for path: String) -> [String] {
    ["-protocol_whitelist", protocols, "-format_whitelist", formats(for: path)]
  }

  /// Why `path` is not a video we read, from its first bytes, before libavformat opens it:
  /// a playlist or a list of other files, named as such, or another format's name; nil
  /// when it is one of `formats` (or cannot be read: opening it then says why).
  public static func refusal(_ path: String) -> String? {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    // libavformat probes with up to 2 KB first; its buffer needs zeroed padding after the data.
    let probeSize = 4096
    var bytes = [UInt8](repeating: 0, count: probeSize + Int(AVPROBE_PADDING_SIZE))
    let count = pread(fd, &bytes, probeSize, 0)
    guard count > 0 else { return nil }
    // Text formats by their first line (after a UTF-8 byte order mark and blank space).
    let text = bytes[0..<count].drop(while: { [0xEF, 0xBB, 0xBF, 0x20, 0x09, 0x0D, 0x0A].contains($0) })
    func starts(_ prefix: String) -> Bool { text.starts(with: Array(prefix.utf8)) }
    if starts("#EXTM3U") || starts("#EXT-X-") {
      return "\(path) is an HLS playlist (a list of other files or addresses), not a video file"
    }
    if starts("ffconcat") {
      return "\(path) is an ffconcat list (a list of other files), not a video file"
    }
    let name: String? = bytes.withUnsafeMutableBufferPointer { buffer in
      path.withCString { filename in
        var probe = AVProbeData()
        probe.filename = filename
        probe.buf = buffer.baseAddress
        probe.buf_size = Int32(count)
        return av_probe_input_format(&probe, 1).map { String(cString: $0.pointee.name) }
      }
    }
    guard let name else { return nil }
    let allowed = formats(for: path).split(separator: ",")
    // A demuxer has one or more comma-separated names ("mov,mp4,m4a,…"): any allowed one will do.
    if name.split(separator: ",").contains(where: { allowed.contains($0) }) { return nil }
    switch name {
    case "hls", "applehttp": return "\(path) is an HLS playlist (a list of other files or addresses), not a video file"
    case "concat": return "\(path) is an ffconcat list (a list of other files), not a video file"
    case "image2",
      _ where name.hasSuffix("_pipe"):
      return "\(path) is a still image: use pano render"
    default:
      return
        "\(path) is a \(name) file, not a container this reads (MP4/MOV, Matroska/WebM or AVI): remux it with ffmpeg -i \(path) -c copy clip.mp4"
    }
  }

  /// Opens `path` with `protocols` and `formats(for:)` applied: the context, or libavformat's
  /// error code (negative).
  static func openContext(_ path: String) -> Result<UnsafeMutablePointer<AVFormatContext>, VideoOpenFailure> {
    if let reason = refusal(path) { return .failure(.refused(reason)) }
    var options: OpaquePointer?
    av_dict_set(&options, "protocol_whitelist", protocols, 0)
    av_dict_set(&options, "format_whitelist", formats(for: path), 0)
    defer { av_dict_free(&options) }
    var context: UnsafeMutablePointer<AVFormatContext>?
    let status = avformat_open_input(&context, path, nil, &options)
    guard status >= 0, let context else { return .failure(.status(status)) }
    return .success(context)
  }
}

/// Why `VideoInput.open` failed: refused by name before opening, or libavformat's code.
enum VideoOpenFailure: Error {
  case refused(String)
  case status(Int32)
}
