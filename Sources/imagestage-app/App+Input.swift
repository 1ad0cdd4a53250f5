import CSDL2
import Panorama
import Scenes
import Stage

extension App {
  /// Translates one SDL event into scene input (or a host matter: quit, resize, files).
  func handle(_ event: SDL_Event) {
    let t = now
    switch SDL_EventType(event.type) {
    case SDL_QUIT:
      running = false
    case SDL_WINDOWEVENT:
      switch SDL_WindowEventID(UInt32(event.window.event)) {
      case SDL_WINDOWEVENT_SIZE_CHANGED:
        window.matchScaleToWindow()
        emit(studio.layout(viewport: viewportSize, at: t))
        drewIdleFrame = false
      case SDL_WINDOWEVENT_FOCUS_LOST, SDL_WINDOWEVENT_HIDDEN, SDL_WINDOWEVENT_MINIMIZED:
        // A drag cannot go on without the window: every drag returns cleanly.
        mouseDown = false
        emit(studio.handle(.focusLost, at: t))
      case SDL_WINDOWEVENT_EXPOSED:
        drewIdleFrame = false
      default: break
      }
    case SDL_MOUSEBUTTONDOWN where event.button.button == UInt8(SDL_BUTTON_LEFT):
      mouseDown = true
      send(.pointer(.down, id: 0, kind: .mouse, at: StagePoint(x: Double(event.button.x), y: Double(event.button.y))), at: t)
    case SDL_MOUSEMOTION:
      // Without a press it is a hover: the scene picks the cursor.
      send(.pointer(.move, id: 0, kind: .mouse, at: StagePoint(x: Double(event.motion.x), y: Double(event.motion.y))), at: t)
    case SDL_MOUSEBUTTONUP where event.button.button == UInt8(SDL_BUTTON_LEFT):
      guard mouseDown else { return }
      mouseDown = false
      send(.pointer(.up, id: 0, kind: .mouse, at: StagePoint(x: Double(event.button.x), y: Double(event.button.y))), at: t)
    case SDL_MOUSEWHEEL:
      let w = event.wheel
      let flip = w.direction == SDL_MOUSEWHEEL_FLIPPED.rawValue ? -1.0 : 1.0
      let dx = Double(w.preciseX) * flip, dy = Double(w.preciseY) * flip
      // SDL reports notches as whole numbers; a touchpad or smooth wheel gives fractions.
      let precise = dx != dx.rounded() || dy != dy.rounded()
      var x: Int32 = 0, y: Int32 = 0
      SDL_GetMouseState(&x, &y)
      send(.wheel(dx: dx, dy: dy, precise: precise, at: StagePoint(x: Double(x), y: Double(y))), at: t)
    case SDL_FINGERDOWN, SDL_FINGERMOTION, SDL_FINGERUP:
      let size = viewportSize
      let p = StagePoint(x: Double(event.tfinger.x) * size.width, y: Double(event.tfinger.y) * size.height)
      let id = Int(truncatingIfNeeded: event.tfinger.fingerId) &+ 1
      let phase: PointerPhase =
        event.type == SDL_FINGERDOWN.rawValue ? .down : (event.type == SDL_FINGERUP.rawValue ? .up : .move)
      send(.pointer(phase, id: id, kind: .touch, at: p), at: t)
    case SDL_KEYDOWN, SDL_KEYUP:
      guard let key = Self.keyName(event.key.keysym.sym) else { return }
      let mod = UInt32(event.key.keysym.mod)
      var modifiers: Modifiers = []
      if mod & UInt32(KMOD_SHIFT.rawValue) != 0 { modifiers.insert(.shift) }
      if mod & UInt32(KMOD_CTRL.rawValue) != 0 { modifiers.insert(.control) }
      if mod & UInt32(KMOD_ALT.rawValue) != 0 { modifiers.insert(.alt) }
      let down = event.type == SDL_KEYDOWN.rawValue
      send(.key(key, modifiers, isDown: down, isRepeat: event.key.repeat != 0), at: t)
    case SDL_DROPBEGIN:
      droppedFiles = []
    case SDL_DROPFILE:
      if let file = event.drop.file {
        droppedFiles.append(String(cString: file))
        SDL_free(file)
      }
    case SDL_DROPCOMPLETE:
      let files = droppedFiles
      droppedFiles = []
      guard !files.isEmpty else { return }
      // Photos go onto Locations; on the Panorama tab (or anywhere else) the first file opens
      // as the panorama, or plays there when it is a video.
      if studio.active == .locations { addPhotos(files) } else { openPanorama(files[0]) }
    case SDL_CONTROLLERSENSORUPDATE where event.csensor.sensor == SDL_SENSOR_GYRO.rawValue:
      let d = event.csensor.data
      send(.motion(.rate(t: t, Vector3(Double(d.0), Double(d.1), Double(d.2)))), at: t)
    default:
      break
    }
  }

  func send(_ input: SceneInput, at t: Double) {
    emit(studio.handle(input, at: t))
  }

  /// SDL's key symbols, named the way the scene layer's key table names them.
  static func keyName(_ sym: SDL_Keycode) -> KeyName? {
    switch Int(sym) {
    case Int(SDLK_TAB.rawValue): return .tab
    case Int(SDLK_SPACE.rawValue): return .space
    case Int(SDLK_RETURN.rawValue), Int(SDLK_KP_ENTER.rawValue): return .enter
    case Int(SDLK_ESCAPE.rawValue): return .escape
    case Int(SDLK_BACKSPACE.rawValue): return .backspace
    case Int(SDLK_DELETE.rawValue): return .delete
    case Int(SDLK_LEFT.rawValue): return .left
    case Int(SDLK_RIGHT.rawValue): return .right
    case Int(SDLK_UP.rawValue): return .up
    case Int(SDLK_DOWN.rawValue): return .down
    case Int(SDLK_PLUS.rawValue), Int(SDLK_KP_PLUS.rawValue): return .plus
    case Int(SDLK_MINUS.rawValue), Int(SDLK_KP_MINUS.rawValue): return .minus
    case Int(SDLK_F1.rawValue)...Int(SDLK_F12.rawValue): return .function(Int(sym) - Int(SDLK_F1.rawValue) + 1)
    // Digits, letters, and = , . [ ] (the video keys: frame steps and skips).
    case 48...57, 97...122, 61, 44, 46, 91, 93: return .character(Character(Unicode.Scalar(UInt8(sym))))
    default: return nil
    }
  }
}
