import CFFmpeg
import HostIO
import Panorama

#if canImport(Glibc)
  import Glibc
#endif

/// Why a video could not be opened or decoded: what and where, in words a user reads.
public struct VideoError: Error, Equatable, Sendable, CustomStringConvertible {
  public enum Kind: Equatable, Sendable {
    case unreadable, noVideo, unknownCodec, unsupported, tooLarge, truncated, corrupt
  }
  public var kind: Kind
  public var message: String
  public var description: String { message }

  public init(_ kind: Kind, _ message: String) {
    self.kind = kind
    self.message = message
  }
}

/// A stream's colour tags in FFmpeg's names (`-color_range`, `-colorspace`,
/// `-color_primaries`, `-color_trc`): range and matrix always (what was assumed where the
/// stream says nothing: `assumed`), primaries and transfer only where it says them.
public struct VideoColourTags: Equatable, Sendable {
  /// `tv` (limited) or `pc` (full).
  public var range: String
  /// `bt709`, `smpte170m`, `bt470bg`, `bt2020nc`…
  public var space: String
  public var primaries: String?
  public var transfer: String?
  /// Whether the range or the matrix was not tagged and is the decoder's assumption.
  public var assumed: Bool

  public init(range: String, space: String, primaries: String? = nil, transfer: String? = nil, assumed: Bool = false) {
    self.range = range
    self.space = space
    self.primaries = primaries
    self.transfer = transfer
    self.assumed = assumed
  }

  /// PQ (`smpte2084`) or HLG (`arib-std-b67`): an HDR transfer, whose values are drawn as
  /// they are (not tone-mapped), so RGBA stills look flat and dim; nil for SDR or untagged.
  public var hdrTransfer: String? {
    switch transfer {
    case "smpte2084": "PQ (smpte2084)"
    case "arib-std-b67": "HLG (arib-std-b67)"
    default: nil
    }
  }

  /// The warning for an HDR clip, once a command: what the output is and is not.
  public var hdrWarning: String? {
    hdrTransfer.map {
      "the clip's transfer is \($0): HDR is not tone-mapped; video output keeps the clip's values and tags, stills show them as SDR (flat, dim)"
    }
  }

  /// ffmpeg's options tagging an encoded stream so.
  public var ffmpegOptions: [String] {
    var options = ["-color_range", range, "-colorspace", space]
    if let primaries { options += ["-color_primaries", primaries] }
    if let transfer { options += ["-color_trc", transfer] }
    return options
  }
}

/// Limits checked against the stream's header, before a decoder or a frame is allocated.
public struct VideoLimits: Hashable, Sendable {
  /// Largest width or height: 16 384, more than any 360° camera records (8K is 7680).
  public var maxDimension = 16_384
  /// Largest width × height: 8192 × 8192 (a 16K × 4K strip fits).
  public var maxPixels = 8192 * 8192
  public init() {}
}

/// One decoded frame: a reference to the decoder's own buffers (no copy), held until this
/// object goes, so a frame can be rendered on one thread while the next decodes.
public final class VideoFrame: @unchecked Sendable {
  public let planes: YUVPlanes
  /// Seconds from the stream's start (its first frame's timestamp).
  public let time: Double
  /// The frame's presentation timestamp in the stream's time base.
  public let timestamp: Int64
  let frame: UnsafeMutablePointer<AVFrame>

  init(frame: UnsafeMutablePointer<AVFrame>, planes: YUVPlanes, time: Double, timestamp: Int64) {
    self.frame = frame
    self.planes = planes
    self.time = time
    self.timestamp = timestamp
  }

  deinit {
    var f: UnsafeMutablePointer<AVFrame>? = frame
    av_frame_free(&f)
  }
}

/// Decodes a video file's best video stream through libavformat and libavcodec (FFmpeg
/// 5.1), with the decoder's own frame and slice threads. Reads the stream's spherical side
/// data (Spherical Video V2: `sv3d`, `st3d`, or WebM's `Projection`) as libavformat
/// exposes it, and V1's GSpherical XML from an MP4's or MOV's `uuid` box.
///
/// Only 4:2:0 frames of 8 bits (`yuv420p`, `yuvj420p`: what H.264, HEVC, VP9 and AV1
/// cameras write at 8 bits) or 10 bits (`yuv420p10le`: HEVC Main 10, VP9 profile 2, AV1 at
/// 10 bits) are handed on. Other pixel formats (4:2:2, 4:4:4, 12-bit, `p010`) are refused
/// with their name.
/// One thread at a time: the reframer hands it to its decoding thread.
public final class VideoDecoder: @unchecked Sendable {
  public let path: String
  public let width: Int, height: Int
  public let codecName: String
  /// The stream's frame rate as a fraction (`avg_frame_rate`, else `r_frame_rate`).
  public let frameRate: (numerator: Int, denominator: Int)
  /// The stream's length in seconds, when the container says.
  public let duration: Double?
  /// The container's frame count, when it says.
  public let frameCount: Int?
  /// Spherical metadata, or what was assumed without it (`SphericalVideo.source`).
  public let spherical: SphericalVideo
  public let hasAudio: Bool
  public let pixelFormat: String
  /// Bits a sample: 8, or 10 (`yuv420p10le`; the frames' planes carry it).
  public let bitDepth: Int
  /// How the stream's frames become RGB, from its tags (what each `VideoFrame` carries),
  /// and the tags themselves for an encoder to repeat (`colourTags`).
  public let colour: YUVColour
  public let colourTags: VideoColourTags

  let format: UnsafeMutablePointer<AVFormatContext>
  let codec: UnsafeMutablePointer<AVCodecContext>
  let packet: UnsafeMutablePointer<AVPacket>
  let frame: UnsafeMutablePointer<AVFrame>
  let streamIndex: Int32
  let timeBase: AVRational
  let startTimestamp: Int64
  var draining = false
  var finished = false
  public private(set) var framesDecoded = 0

  /// Set, a file cut short (its data ends mid-stream: the demuxer reached the file's end, or
  /// the packets stop before the header's frame count) ends at its last whole frame instead
  /// of throwing; `endedEarly` then says where. A decode error with data still to come
  /// throws as before: that file is damaged, not short.
  public var keepsFramesOfACutFile = false
  /// Where a cut-short file ended (with `keepsFramesOfACutFile`), once `next()` returned nil.
  public private(set) var endedEarly: EarlyEnd?
  public struct EarlyEnd: Equatable, Sendable {
    /// Frames decoded, and the time (s from the stream's start) at which the last one ends.
    public var frames: Int
    public var time: Double
    /// The header's frame count, when it gives one.
    public var expected: Int?
  }
  var cut = false
  var lastTime = 0.0
  /// The number (from 1) of the latest frame decoded, by its time: what messages name. A
  /// count of frames decoded fell behind once frames were skipped or sought past ("frame
  /// 150" of a clip stopped at 5.8 s).
  var lastFrameNumber = 0

  /// From the container's index alone (nothing decoded): how many of the stream's frames lie
  /// wholly within the file's bytes, when the index lists frames past its end (a file cut
  /// short with its index first); nil when all are there or there is no index (MKV's cues
  /// list key frames only, so a short count there means nothing: MP4 and MOV only).
  public var framesInFile: Int? {
    guard let pb = format.pointee.pb, let stream = format.pointee.streams[Int(streamIndex)],
      let demuxer = format.pointee.iformat.map({ String(cString: $0.pointee.name) }), demuxer.hasPrefix("mov")
    else { return nil }
    let size = avio_size(pb)
    let count = avformat_index_get_entries_count(stream)
    guard size > 0, count > 0 else { return nil }
    var inside = 0
    for i in 0..<count {
      if let e = avformat_index_get_entry(stream, i), e.pointee.pos + Int64(e.pointee.size) <= size { inside += 1 }
    }
    return inside < count ? inside : nil
  }

  /// Whether the demuxer has read to the end of the file's bytes.
  var dataRanOut: Bool {
    guard let pb = format.pointee.pb else { return false }
    if pb.pointee.eof_reached != 0 { return true }
    let size = avio_size(pb)
    return size > 0 && avio_tell(pb) >= size
  }

  /// After a read or decode failure: whether it is the end of a cut-short file (then the
  /// frames the decoder still holds are drained and the stream ends there).
  func endsHere() -> Bool {
    guard keepsFramesOfACutFile, cut || dataRanOut else { return false }
    cut = true
    if draining {
      finished = true
    } else {
      avcodec_send_packet(codec, nil)
      draining = true
    }
    return true
  }

  /// Opens `path` and its video decoder.
  /// - Parameter threads: the decoder's threads (0: as many as there are cores).
  public init(path: String, threads: Int = 0, limits: VideoLimits = VideoLimits()) throws(VideoError) {
    self.path = path
    av_log_set_level(AV_LOG_FATAL)
    // A FIFO or a device would hang libavformat's open: refused first, by name.
    do { try FileIO.requireRegularFile(path) } catch { throw VideoError(.unreadable, error.description) }
    let context: UnsafeMutablePointer<AVFormatContext>
    switch VideoInput.openContext(path) {
    case .success(let opened): context = opened
    case .failure(.refused(let reason)): throw VideoError(.unsupported, reason)
    case .failure(.status(let status)):
      throw VideoError(.unreadable, "\(Console.escaped(path)): not a video libavformat can read (\(Self.message(status)))")
    }
    var status: Int32
    format = context
    // From here every failure closes the file: one cleanup, in `fail`.
    func fail(_ error: VideoError) -> VideoError {
      var c: UnsafeMutablePointer<AVFormatContext>? = context
      avformat_close_input(&c)
      return error
    }
    // A JPEG or PNG opens as a one-frame "video" (image2, jpeg_pipe, png_pipe…), and then
    // failed on its pixel format (yuvj444p: re-encode), which sends a user the wrong way. A
    // numbered sequence (img%03d.jpg) is a video, though.
    let demuxer = context.pointee.iformat.map { String(cString: $0.pointee.name) } ?? ""
    if (demuxer == "image2" || demuxer.hasSuffix("_pipe")) && !path.contains("%") {
      throw fail(VideoError(.unsupported, "\(path) is a still image: use pano render"))
    }
    status = avformat_find_stream_info(context, nil)
    guard status >= 0 else {
      throw fail(VideoError(.corrupt, "\(path): cannot read its streams (\(Self.message(status))): damaged or truncated?"))
    }
    let best = av_find_best_stream(context, AVMEDIA_TYPE_VIDEO, -1, -1, nil, 0)
    guard best >= 0, let stream = context.pointee.streams[Int(best)] else {
      throw fail(VideoError(.noVideo, "\(path): has no video stream"))
    }
    streamIndex = best
    hasAudio = av_find_best_stream(context, AVMEDIA_TYPE_AUDIO, -1, -1, nil, 0) >= 0
    let parameters = stream.pointee.codecpar!
    let w = Int(parameters.pointee.width), h = Int(parameters.pointee.height)
    guard w > 0, h > 0 else { throw fail(VideoError(.corrupt, "\(path): its video stream has no size (\(w)×\(h))")) }
    let over = w > limits.maxDimension || h > limits.maxDimension || w * h > limits.maxPixels
    guard !over else {
      throw fail(
        VideoError(
          .tooLarge,
          "\(path): the video is \(w)×\(h), over the limit of \(limits.maxDimension) px a side and \(limits.maxPixels / 1_000_000) megapixels"
        ))
    }
    width = w
    height = h
    guard let decoder = avcodec_find_decoder(parameters.pointee.codec_id) else {
      let tag = parameters.pointee.codec_tag
      let fourcc = (0..<4).map { Character(Unicode.Scalar(UInt8(truncatingIfNeeded: tag >> (8 * $0)))) }
      let name = String(cString: avcodec_get_name(parameters.pointee.codec_id))
      throw fail(
        VideoError(
          .unknownCodec,
          "\(path): no decoder for its video codec (\(name == "none" ? "unknown" : name), tag '\(String(fourcc))'); this FFmpeg decodes H.264, HEVC, VP9, AV1 and more, not this"
        ))
    }
    codecName = String(cString: decoder.pointee.name)
    guard let codec = avcodec_alloc_context3(decoder) else { throw fail(VideoError(.corrupt, "\(path): out of memory")) }
    func failCodec(_ error: VideoError) -> VideoError {
      var c: UnsafeMutablePointer<AVCodecContext>? = codec
      avcodec_free_context(&c)
      return fail(error)
    }
    status = avcodec_parameters_to_context(codec, parameters)
    guard status >= 0 else { throw failCodec(VideoError(.corrupt, "\(path): \(Self.message(status))")) }
    codec.pointee.thread_count = Int32(max(0, threads))
    codec.pointee.thread_type = FF_THREAD_FRAME | FF_THREAD_SLICE
    status = avcodec_open2(codec, decoder, nil)
    guard status >= 0 else {
      throw failCodec(VideoError(.unsupported, "\(path): cannot open the \(codecName) decoder (\(Self.message(status)))"))
    }
    self.codec = codec
    let pixel = AVPixelFormat(rawValue: parameters.pointee.format)
    pixelFormat = av_get_pix_fmt_name(pixel).map { String(cString: $0) } ?? "unknown"
    guard let depth = Self.bitDepth(pixel.rawValue) else {
      throw failCodec(
        VideoError(
          .unsupported,
          "\(path): its frames are \(pixelFormat); only 4:2:0 at 8 or 10 bits (yuv420p, yuv420p10le) is read so far: re-encode with -pix_fmt yuv420p10le (or yuv420p)"
        ))
    }
    bitDepth = depth
    packet = av_packet_alloc()
    frame = av_frame_alloc()
    timeBase = stream.pointee.time_base
    startTimestamp = stream.pointee.start_time == Int64.min ? 0 : stream.pointee.start_time
    var rate = stream.pointee.avg_frame_rate
    if rate.num <= 0 || rate.den <= 0 { rate = stream.pointee.r_frame_rate }
    if rate.num <= 0 || rate.den <= 0 { rate = AVRational(num: 30, den: 1) }
    frameRate = (Int(rate.num), Int(rate.den))
    let d = stream.pointee.duration
    duration =
      d > 0
      ? Double(d) * Double(timeBase.num) / Double(timeBase.den)
      : context.pointee.duration > 0 ? Double(context.pointee.duration) / 1_000_000 : nil
    frameCount = stream.pointee.nb_frames > 0 ? Int(stream.pointee.nb_frames) : nil
    let p = parameters.pointee
    colour = Self.colour(range: p.color_range, space: p.color_space, format: p.format, height: h)
    func name(_ text: UnsafePointer<CChar>?, unspecified: Bool) -> String? {
      unspecified ? nil : text.map { String(cString: $0) }
    }
    colourTags = VideoColourTags(
      range: colour.fullRange ? "pc" : "tv",
      space: name(av_color_space_name(p.color_space), unspecified: p.color_space == AVCOL_SPC_UNSPECIFIED)
        ?? (colour.matrix == .bt709 ? "bt709" : "smpte170m"),
      primaries: name(
        av_color_primaries_name(p.color_primaries), unspecified: p.color_primaries == AVCOL_PRI_UNSPECIFIED),
      transfer: name(av_color_transfer_name(p.color_trc), unspecified: p.color_trc == AVCOL_TRC_UNSPECIFIED),
      assumed: p.color_range == AVCOL_RANGE_UNSPECIFIED || p.color_space == AVCOL_SPC_UNSPECIFIED)
    spherical = Self.spherical(stream, path: path, width: w, height: h)
  }

  deinit {
    var p: UnsafeMutablePointer<AVPacket>? = packet
    av_packet_free(&p)
    var f: UnsafeMutablePointer<AVFrame>? = frame
    av_frame_free(&f)
    var c: UnsafeMutablePointer<AVCodecContext>? = codec
    avcodec_free_context(&c)
    var fc: UnsafeMutablePointer<AVFormatContext>? = format
    avformat_close_input(&fc)
  }

  /// Bits a sample of a pixel format the renderer reads, or nil.
  static func bitDepth(_ format: Int32) -> Int? {
    switch format {
    case AV_PIX_FMT_YUV420P.rawValue, AV_PIX_FMT_YUVJ420P.rawValue: 8
    case AV_PIX_FMT_YUV420P10LE.rawValue: 10
    default: nil
    }
  }

  /// The conversion a frame's tags ask for: full range when tagged so (or `yuvj420p`),
  /// BT.601 when tagged BT.470BG or SMPTE 170M, BT.709 when tagged so, BT.2020 when tagged
  /// BT.2020 (non-constant luminance; constant luminance is drawn with the same matrix, an
  /// approximation); untagged, BT.709 from 720 lines up and BT.601 below (as players assume).
  static func colour(range: AVColorRange, space: AVColorSpace, format: Int32, height: Int) -> YUVColour {
    let full = range == AVCOL_RANGE_JPEG || format == AV_PIX_FMT_YUVJ420P.rawValue
    let matrix: YUVColour.Matrix =
      space == AVCOL_SPC_BT470BG || space == AVCOL_SPC_SMPTE170M
      ? .bt601
      : space == AVCOL_SPC_BT709
        ? .bt709
        : space == AVCOL_SPC_BT2020_NCL || space == AVCOL_SPC_BT2020_CL ? .bt2020 : (height >= 720 ? .bt709 : .bt601)
    return YUVColour(matrix: matrix, fullRange: full)
  }

  /// FFmpeg's words for an error code.
  static func message(_ status: Int32) -> String {
    var buffer = [CChar](repeating: 0, count: 128)
    av_strerror(status, &buffer, buffer.count)
    return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  /// Skips decoding the frames no other frame refers to (most B-frames): a player that
  /// falls behind its clock catches up this way. The container's frame count then means
  /// nothing, so a short count is no longer taken for truncation.
  public var skipsNonReferenceFrames = false {
    didSet {
      codec.pointee.skip_frame = skipsNonReferenceFrames ? AVDISCARD_NONREF : AVDISCARD_DEFAULT
      if skipsNonReferenceFrames { seekedNowhere = false }
    }
  }

  /// Seconds per frame.
  public var frameDuration: Double { Double(frameRate.denominator) / Double(frameRate.numerator) }

  /// Goes to the last key frame at or before `seconds`; `next()` then returns the frames
  /// from there (the caller skips those before the time it wants).
  public func seek(to seconds: Double) throws(VideoError) {
    // At the start, before anything was read, there is nowhere to go (a player seeking back
    // to 0 does seek).
    guard seconds > 0 || framesDecoded > 0 || !seekedNowhere else { return }
    let target = startTimestamp + Int64(seconds * Double(timeBase.den) / Double(timeBase.num))
    let status = av_seek_frame(format, streamIndex, target, AVSEEK_FLAG_BACKWARD)
    guard status >= 0 else { throw VideoError(.corrupt, "\(path): cannot seek to \(seconds) s (\(Self.message(status)))") }
    avcodec_flush_buffers(codec)
    seekedNowhere = false
    draining = false
    finished = false
    cut = false
    endedEarly = nil
    lastTime = 0
    lastFrameNumber = Int((seconds / frameDuration).rounded(.down))
  }

  /// The next frame in presentation order, or nil at the end of the stream.
  public func next() throws(VideoError) -> VideoFrame? {
    while !finished {
      let received = avcodec_receive_frame(codec, frame)
      if received >= 0 { return try deliver() }
      if received == imagestage_averror_eof() {
        finished = true
        break
      }
      guard received == imagestage_averror_eagain() else {
        if endsHere() { continue }
        throw VideoError(
          .corrupt,
          "\(path): frame \(lastFrameNumber + 1) cannot be decoded (\(Self.message(received))): damaged or truncated? \(dataEnd)")
      }
      if draining { continue }
      let read = av_read_frame(format, packet)
      if read < 0 {
        guard read == imagestage_averror_eof() else {
          if endsHere() { continue }
          throw VideoError(
            .truncated,
            "\(path): reading stopped after frame \(lastFrameNumber) (\(Self.message(read))): damaged or truncated? \(dataEnd)")
        }
        avcodec_send_packet(codec, nil)
        draining = true
        continue
      }
      defer { av_packet_unref(packet) }
      guard packet.pointee.stream_index == streamIndex else { continue }
      let sent = avcodec_send_packet(codec, packet)
      guard sent >= 0 || sent == imagestage_averror_eagain() else {
        if endsHere() { continue }
        throw VideoError(
          .corrupt,
          "\(path): frame \(lastFrameNumber + 1) cannot be decoded (\(Self.message(sent))): damaged or truncated? \(dataEnd)")
      }
    }
    // The container promised more frames than there were: the file was cut short.
    let short = frameCount.map { framesDecoded < $0 - 1 && seekedNowhere } ?? false
    if keepsFramesOfACutFile, framesDecoded > 0, cut || short {
      endedEarly = EarlyEnd(frames: framesDecoded, time: lastTime + frameDuration, expected: frameCount)
      return nil
    }
    if let expected = frameCount, framesDecoded > 0, short {
      throw VideoError(
        .truncated,
        "\(path): ends after \(lastFrameNumber) of its \(expected) frames (\(format2(lastTime + frameDuration)) s): the file is truncated"
      )
    }
    return nil
  }

  /// Where the readable data ends, for a message about a damaged or cut file: the time and
  /// frame after which nothing more could be read.
  var dataEnd: String {
    framesDecoded > 0
      ? "The readable data ends at \(format2(lastTime + frameDuration)) s, after frame \(lastFrameNumber)."
      : "No frame could be read."
  }

  /// Whether the stream was read from its start (a seek makes the frame count meaningless).
  var seekedNowhere = true

  func deliver() throws(VideoError) -> VideoFrame {
    framesDecoded += 1
    guard let held = av_frame_clone(frame) else { throw VideoError(.corrupt, "\(path): out of memory") }
    av_frame_unref(frame)
    let f = held.pointee
    guard Int(f.width) == width, Int(f.height) == height,
      Self.bitDepth(f.format) == bitDepth,
      let y = f.data.0, let u = f.data.1, let v = f.data.2
    else {
      var h: UnsafeMutablePointer<AVFrame>? = held
      av_frame_free(&h)
      throw VideoError(
        .unsupported, "\(path): frame \(framesDecoded) changed size or format (\(f.width)×\(f.height)); not supported")
    }
    let planes: YUVPlanes
    do {
      planes = try YUVPlanes(
        width: width, height: height, bitDepth: bitDepth, y: UnsafePointer(y), yStride: Int(f.linesize.0),
        u: UnsafePointer(u),
        uStride: Int(f.linesize.1), v: UnsafePointer(v), vStride: Int(f.linesize.2),
        colour: Self.colour(range: f.color_range, space: f.colorspace, format: f.format, height: height),
        siting: f.chroma_location == AVCHROMA_LOC_CENTER ? .centre : .left)
    } catch {
      // A decoder's rows laid out other than top-down and packed within their strides
      // (a negative line size): not something the renderer reads.
      var h: UnsafeMutablePointer<AVFrame>? = held
      av_frame_free(&h)
      throw VideoError(.unsupported, "\(path): frame \(framesDecoded)'s planes are not supported (\(error))")
    }
    let pts = f.best_effort_timestamp == Int64.min ? f.pts : f.best_effort_timestamp
    let ticks = pts == Int64.min ? Int64(framesDecoded - 1) : pts - startTimestamp
    let time =
      pts == Int64.min
      ? Double(framesDecoded - 1) * frameDuration : Double(ticks) * Double(timeBase.num) / Double(timeBase.den)
    lastTime = max(lastTime, time)
    lastFrameNumber = max(lastFrameNumber, Int((time / frameDuration).rounded()) + 1)
    return VideoFrame(frame: held, planes: planes, time: time, timestamp: pts)
  }
}

/// `x` with two decimals, without Foundation's formatting.
func format2(_ x: Double) -> String {
  let hundredths = Int((x * 100).rounded())
  let fraction = abs(hundredths) % 100
  return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)"
}
