import Panorama
import Scenes
import Stage
import StageSDL

extension App {
  /// Translates one window event into scene input (or a host matter: quit, resize, files).
  func handle(_ event: WindowEvent) {
    let t = now
    switch event {
    case .quit:
      running = false
    case .resized:
      window.matchScaleToWindow()
      emit(studio.layout(viewport: viewportSize, at: t))
      drewIdleFrame = false
    case .focusLost:
      // A drag cannot go on without the window: every drag returns cleanly.
      mouseDown = false
      emit(studio.handle(.focusLost, at: t))
    case .exposed:
      drewIdleFrame = false
    case .pointer(let phase, let id, let touch, let x, let y):
      let at = StagePoint(x: x, y: y)
      if touch {
        // Finger ids start after the mouse's 0.
        send(.pointer(Self.phase(phase), id: id &+ 1, kind: .touch, at: at), at: t)
        return
      }
      switch phase {
      case .down:
        mouseDown = true
      case .move:
        // Without a press it is a hover: the scene picks the cursor.
        break
      case .up:
        guard mouseDown else { return }
        mouseDown = false
      }
      send(.pointer(Self.phase(phase), id: 0, kind: .mouse, at: at), at: t)
    case .wheel(let dx, let dy, let precise, let x, let y):
      send(.wheel(dx: dx, dy: dy, precise: precise, at: StagePoint(x: x, y: y)), at: t)
    case .key(let key, let mods, let isDown, let isRepeat):
      var modifiers: Modifiers = []
      if mods.contains(.shift) { modifiers.insert(.shift) }
      if mods.contains(.control) { modifiers.insert(.control) }
      if mods.contains(.alt) { modifiers.insert(.alt) }
      send(.key(Self.keyName(key), modifiers, isDown: isDown, isRepeat: isRepeat), at: t)
    case .filesDropped(let files, let x, let y):
      // Photos go onto Locations; on the Panorama tab (or anywhere else) the first file opens
      // as the panorama, or plays there when it is a video.
      if studio.active == .locations { addPhotos(files, at: StagePoint(x: x, y: y)) } else { openPanorama(files[0]) }
    case .gyro(let x, let y, let z):
      send(.motion(.rate(t: t, Vector3(x, y, z))), at: t)
    case .other:
      break
    }
  }

  func send(_ input: SceneInput, at t: Double) {
    emit(studio.handle(input, at: t))
  }

  static func phase(_ phase: WindowEvent.Phase) -> PointerPhase {
    switch phase {
    case .down: .down
    case .move: .move
    case .up: .up
    }
  }

  /// The window's key, named as the scene layer's key table names it.
  static func keyName(_ key: WindowEvent.Key) -> KeyName {
    switch key {
    case .tab: .tab
    case .space: .space
    case .enter: .enter
    case .escape: .escape
    case .backspace: .backspace
    case .delete: .delete
    case .left: .left
    case .right: .right
    case .up: .up
    case .down: .down
    case .plus: .plus
    case .minus: .minus
    case .function(let n): .function(n)
    case .character(let c): .character(c)
    }
  }
}
