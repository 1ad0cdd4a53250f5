import Panorama
import Scenes
import Stage
import TestSupport
import Testing

/// The playback state a host drives: what keys, the button and the progress bar ask for,
/// and what the host's reports make of it. No decoder, no clock: the host's side is played
/// here by hand, as the app does it (`takeSeek`, `showed(frameAt:)`, `reachedEnd`).
@Suite("Video playback")
struct VideoPlaybackTests {
  static let fd = 1.0 / 30

  /// A studio on the Panorama tab showing a 4 s, 30 fps video, laid out in 800 × 600.
  static func studio(duration: Double = 4) -> Studio {
    var studio = Studio(active: .panorama)
    _ = studio.layout(viewport: StageSize(width: 800, height: 600), at: 0)
    let playback = VideoPlayback(duration: duration, frameDuration: fd)
    studio.setPanorama(PanoramaScene(video: playback, geometry: PanoramaGeometry(width: 512, height: 256), name: "clip.mp4"))
    return studio
  }

  static func key(_ studio: inout Studio, _ name: KeyName) -> [SceneEvent] {
    studio.handle(.key(name, [], isDown: true, isRepeat: false), at: 0)
  }

  @Test func spacePausesAndPlays() {
    var studio = Self.studio()
    #expect(studio.panorama?.video?.isPlaying == true, "a video opens playing")
    #expect(!studio.isIdle, "the host keeps drawing while it plays")
    let events = Self.key(&studio, .space)
    #expect(studio.panorama?.video?.isPlaying == false)
    #expect(events.contains { if case .announce(let a) = $0 { a.text == "Paused." } else { false } })
    #expect(studio.isIdle, "paused with nothing to seek: the host may sleep")
    _ = Self.key(&studio, .space)
    #expect(studio.panorama?.video?.isPlaying == true)
  }

  @Test func spaceOnAFocusedTabStillPressesIt() {
    var studio = Self.studio()
    // Tab from nothing: the view, then the tabs.
    _ = studio.handle(.key(.tab, [], isDown: true, isRepeat: false), at: 0)
    _ = studio.handle(.key(.tab, [], isDown: true, isRepeat: false), at: 0)
    #expect(studio.focus == .tab(.locations))
    _ = Self.key(&studio, .space)
    #expect(studio.active == .locations, "Space pressed the tab")
    #expect(studio.panorama?.video?.isPlaying == true, "and did not pause the video")
  }

  @Test(arguments: [
    (KeyName.character(","), Action.stepFrames(-1)), (.character("."), .stepFrames(1)),
    (.character("["), .skip(-5)), (.character("]"), .skip(5)), (.space, .togglePlayback),
  ])
  func videoKeysMapToActions(key: KeyName, action: Action) {
    #expect(KeyBindings.action(for: key, [], in: .panorama) == action)
    // The lens key is still the lens key: J/K/L would have taken it.
    #expect(KeyBindings.action(for: .character("l"), [], in: .panorama) == .cycleLens)
  }

  @Test func theVideoKeysAreInTheHelp() {
    let help = KeyBindings.helpText()
    for text in ["play or pause a video", "step one frame back", "step one frame on", "back 5 seconds", "on 5 seconds"] {
      #expect(help.contains(text), "\(text)")
    }
    #expect(help.contains(",") && help.contains(".") && help.contains("[") && help.contains("]"))
  }

  @Test func aFrameStepPausesAndAsksForTheNextFrame() {
    var v = VideoPlayback(duration: 4, frameDuration: Self.fd)
    v.showed(frameAt: 1)
    v.step(frames: 1)
    #expect(!v.isPlaying)
    // Half a frame's slack past the next frame's start: the host shows the frame covering it.
    let target = v.takeSeek()
    #expect(target.map { abs($0 - (1 + 1.5 * Self.fd)) < 1e-12 } == true, "\(String(describing: target))")
    v.showed(frameAt: 1 + Self.fd)
    v.step(frames: -1)
    #expect(v.takeSeek().map { abs($0 - (1 + 0.5 * Self.fd)) < 1e-12 } == true)
    // Two steps before the host answered: the second goes on from the first's target.
    v.step(frames: 1)
    v.step(frames: 1)
    #expect(v.seekRequest.map { abs($0 - (1 + 2.5 * Self.fd)) < 1e-12 } == true, "\(String(describing: v.seekRequest))")
  }

  /// Presses of `,` and `.` land on exactly the frame their count says, however they fall
  /// between the host's turns: before it takes the seek, after it took it but before the
  /// frame is shown, or after. The host is the app's: it shows the first frame that ends
  /// after the seek's time, and only frames after the seek it took.
  @Test func framePressesLandOnTheExactFrameHoweverTheHostInterleaves() {
    var rng = SeededRandom(seed: 7)  // the same presses every run
    for _ in 0..<200 {
      let frames = 120
      var v = VideoPlayback(duration: Double(frames) * Self.fd, frameDuration: Self.fd, playing: false)
      var shown = Int(rng.next() % UInt64(frames))
      v.showed(frameAt: Double(shown) * Self.fd)
      var expected = shown
      var pendingSeek: Double?
      for _ in 0..<12 {
        switch rng.next() % 4 {
        case 0, 1:
          let n = rng.next() % 3 == 0 ? -1 : 1
          v.step(frames: n)
          expected = min(max(expected + n, 0), frames - 1)
        case 2:
          if let t = v.takeSeek() { pendingSeek = t }
        default:
          if let t = pendingSeek {
            // The frame covering t (time + fd past t by more than 1 % of a frame).
            shown = (0..<frames).first { Double($0) * Self.fd + Self.fd > t + Self.fd * 0.01 } ?? frames - 1
            v.showed(frameAt: Double(shown) * Self.fd)
            pendingSeek = nil
          }
        }
      }
      if let t = v.takeSeek() { pendingSeek = t }
      if let t = pendingSeek {
        shown = (0..<frames).first { Double($0) * Self.fd + Self.fd > t + Self.fd * 0.01 } ?? frames - 1
        v.showed(frameAt: Double(shown) * Self.fd)
      }
      #expect(shown == expected)
      #expect(!v.isPlaying)
    }
  }

  @Test(arguments: [(-3.0, 0.0), (2.5, 2.5), (10.0, 4 - 1.0 / 30), (Double.infinity, nil)])
  func seeksStayInsideTheStream(to target: Double, expected: Double?) {
    var v = VideoPlayback(duration: 4, frameDuration: Self.fd)
    v.seek(to: target)
    if let expected {
      #expect(v.seekRequest.map { abs($0 - expected) < 1e-12 } == true, "\(String(describing: v.seekRequest))")
    } else {
      #expect(v.seekRequest == nil, "a seek to nowhere is ignored")
    }
  }

  @Test func skipsGoFromTheTimeShown() {
    var studio = Self.studio(duration: 12)
    studio.updatePanorama { $0.updateVideo { $0.showed(frameAt: 1) } }
    _ = Self.key(&studio, .character("]"))
    #expect(studio.panorama?.video?.seekRequest == 6)
    // Before the host answered: from the pending target.
    _ = Self.key(&studio, .character("]"))
    #expect(studio.panorama?.video?.seekRequest == 11)
    _ = Self.key(&studio, .character("]"))
    #expect(studio.panorama?.video?.seekRequest == 12 - Self.fd, "past the end: the last frame")
    _ = Self.key(&studio, .character("["))
    #expect(studio.panorama?.video?.seekRequest.map { abs($0 - (7 - Self.fd)) < 1e-9 } == true)
    studio.updatePanorama { $0.updateVideo { _ = $0.takeSeek() } }
    studio.updatePanorama { $0.updateVideo { $0.showed(frameAt: 2) } }
    _ = Self.key(&studio, .character("["))
    #expect(studio.panorama?.video?.seekRequest == 0, "before the start: the start")
  }

  @Test func theEndStopsAndSpacePlaysFromTheStart() {
    var v = VideoPlayback(duration: 4, frameDuration: Self.fd)
    v.showed(frameAt: 4 - Self.fd)
    v.reachedEnd()
    #expect(!v.isPlaying && v.ended)
    #expect(v.shownTime == 4, "the bar is full at the end")
    v.togglePlay()
    #expect(v.isPlaying && v.takeSeek() == 0)
  }

  /// A file cut short: the host finds the picture ends at 5.93 s of a header's 10 s. The
  /// length, the full bar and its label say 5.93 s, not "0:10.0 / 0:10.0"; seeks stay in it.
  @Test func anEndShortOfTheHeadersLengthBecomesTheLength() {
    var v = VideoPlayback(duration: 10, frameDuration: Self.fd)
    v.showed(frameAt: 5.93 - Self.fd)
    v.reachedEnd(at: 5.93)
    #expect(v.duration == 5.93 && v.shownTime == 5.93)
    #expect(v.timeLabel == "0:05.9 / 0:05.9", "\(v.timeLabel)")
    v.seek(to: 8)
    #expect(v.takeSeek() == 5.93 - Self.fd, "the last frame there is")
    // An end at or past the header's length changes nothing.
    var whole = VideoPlayback(duration: 4, frameDuration: Self.fd)
    whole.reachedEnd(at: 4.2)
    #expect(whole.duration == 4 && whole.timeLabel == "0:04.0 / 0:04.0")
  }

  @Test func aClickOnTheBarSeeksThereAndDoesNotTurnTheCamera() throws {
    var studio = Self.studio()
    let video = try #require(studio.panorama?.video)
    let bar = video.barFrame
    #expect(bar.minY > 44 && bar.maxY < 600 - 28, "above the caption, inside the picture: \(bar)")
    let at = StagePoint(x: bar.minX + 0.75 * bar.size.width, y: bar.center.y)
    _ = studio.handle(.pointer(.down, id: 0, kind: .mouse, at: at), at: 0)
    let target = try #require(studio.panorama?.video?.seekRequest)
    #expect(abs(target - 3) < 1e-9, "\(target)")
    // A drag along the bar scrubs; the camera stays where it was.
    _ = studio.handle(.pointer(.move, id: 0, kind: .mouse, at: StagePoint(x: bar.minX + 0.25 * bar.size.width, y: 300)), at: 0.1)
    #expect(studio.panorama?.video?.seekRequest.map { abs($0 - 1) < 1e-9 } == true)
    _ = studio.handle(.pointer(.up, id: 0, kind: .mouse, at: at), at: 0.2)
    #expect(studio.panorama?.viewer.offset == ViewAngles())
    // Above the controls a drag turns the camera, and seeks nothing.
    studio.updatePanorama { $0.updateVideo { _ = $0.takeSeek() } }
    _ = studio.handle(.pointer(.down, id: 0, kind: .mouse, at: StagePoint(x: 400, y: 300)), at: 1)
    _ = studio.handle(.pointer(.move, id: 0, kind: .mouse, at: StagePoint(x: 300, y: 300)), at: 1.1)
    _ = studio.handle(.pointer(.up, id: 0, kind: .mouse, at: StagePoint(x: 300, y: 300)), at: 1.2)
    #expect((studio.panorama?.viewer.offset.yaw ?? 0) > 0.1)
    #expect(studio.panorama?.video?.seekRequest == nil)
  }

  @Test func theButtonPlaysAndPauses() throws {
    var studio = Self.studio()
    let button = try #require(studio.panorama?.video?.buttonFrame)
    _ = studio.handle(.pointer(.down, id: 0, kind: .mouse, at: button.center), at: 0)
    _ = studio.handle(.pointer(.up, id: 0, kind: .mouse, at: button.center), at: 0)
    #expect(studio.panorama?.video?.isPlaying == false)
  }

  @Test func theControlsShowTheTime() {
    var studio = Self.studio()
    studio.updatePanorama { $0.updateVideo { $0.showed(frameAt: 1.25) } }
    let texts = studio.displayList().commands.compactMap { c -> String? in
      if case .text(let t, _, _, _, _, _) = c { t } else { nil }
    }
    #expect(texts.contains("0:01.2 / 0:04.0"), "\(texts)")
    // A pending seek shows its target at once, before the host has the frame.
    studio.updatePanorama { $0.updateVideo { $0.seek(to: 3) } }
    #expect(studio.panorama?.video?.timeLabel == "0:03.0 / 0:04.0")
  }

  @Test(arguments: [(0.0, "0:00.0"), (1.25, "0:01.2"), (61.99, "1:01.9"), (3725, "1:02:05.0"), (-1, "0:00.0")])
  func clockText(seconds: Double, text: String) {
    #expect(VideoPlayback.clock(seconds) == text)
  }

  @Test func aVideoPlaysInPerspectiveOnly() {
    var studio = Self.studio()
    let events = Self.key(&studio, .character("m"))
    #expect(studio.panorama?.viewer.mode == .perspective)
    #expect(events.contains { if case .announce(let a) = $0 { a.text.contains("still panoramas") } else { false } })
    // Lenses and zoom work while it plays.
    _ = Self.key(&studio, .character("l"))
    #expect(studio.panorama?.viewer.lens == .stereographic)
    let before = studio.panorama?.viewer.hfov ?? 0
    _ = Self.key(&studio, .plus)
    #expect((studio.panorama?.viewer.hfov ?? 0) < before)
    #expect(studio.panorama?.video?.isPlaying == true)
  }

  @Test func anUnknownLengthLeavesTheBarInert() {
    var v = VideoPlayback(duration: .nan, frameDuration: 0)
    #expect(v.duration == 0 && v.frameDuration == 1.0 / 30)
    v.seek(to: 100)
    #expect(v.seekRequest == 100, "only clamped at 0")
    #expect(v.timeLabel == "1:40.0")
  }

  @Test func theVideoLineSaysWhereItIs() {
    var v = VideoPlayback(duration: 4, frameDuration: Self.fd)
    v.showed(frameAt: 2)
    let line = SceneLines.video(v, dropped: 3, sound: true, at: 1.5)
    for part in [
      #""type":"video""#, #""t":1.5"#, #""time":2"#, #""duration":4"#, #""playing":true"#, #""dropped":3"#, #""sound":true"#,
    ] {
      #expect(line.contains(part), "\(line)")
    }
  }
}
