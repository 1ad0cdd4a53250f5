import CSDL2

/// What SDL reports, in the terms a host of the scene layer needs: positions in window
/// points, keys by name, a drop as its files. Everything else SDL sends is `.other`, which
/// still tells the host that something happened (it draws a frame then).
public enum WindowEvent: Sendable {
  /// The window was closed, or the process asked to quit (SIGTERM, SIGINT).
  case quit
  /// The window's size changed (`Window.size` has the new one).
  case resized
  /// The window lost the keyboard focus, or was hidden or minimised.
  case focusLost
  /// Part of the window must be drawn again.
  case exposed
  /// A left mouse button press, release or a mouse move (`touch` false, `id` 0), or a finger
  /// (`touch` true, `id` SDL's finger id), at `x`, `y` in window points.
  case pointer(Phase, id: Int, touch: Bool, x: Double, y: Double)
  /// A wheel turned by `dx`, `dy` notches (positive: right, away from the user), with the
  /// pointer at `x`, `y`; `precise` when the deltas are fractions (a touchpad, a smooth wheel).
  case wheel(dx: Double, dy: Double, precise: Bool, x: Double, y: Double)
  /// A key pressed or released; keys the app does not use are `.other`.
  case key(Key, Modifiers, isDown: Bool, isRepeat: Bool)
  /// Files dropped on the window, in the order given, with the pointer at `x`, `y` (SDL's
  /// drop events carry no position: the pointer is where the files were let go).
  case filesDropped([String], x: Double, y: Double)
  /// A game controller's gyroscope: rotation rates in radians per second about x, y, z.
  case gyro(x: Double, y: Double, z: Double)
  /// Any other event.
  case other

  /// A pointer's part of a press.
  public enum Phase: Sendable { case down, move, up }

  /// The keys the app has bindings for.
  public enum Key: Hashable, Sendable {
    case tab, space, enter, escape, backspace, delete
    case left, right, up, down
    case plus, minus
    /// F1 to F12.
    case function(Int)
    /// A lower-case letter, a digit, or one of `= , . [ ]`.
    case character(Character)
  }

  /// Modifier keys held with a key.
  public struct Modifiers: OptionSet, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    public static let shift = Modifiers(rawValue: 1)
    public static let control = Modifiers(rawValue: 2)
    public static let alt = Modifiers(rawValue: 4)
  }
}

extension Window {
  /// The next event, waiting up to `milliseconds` for one; nil when none came.
  public func waitEvent(milliseconds: Int) -> WindowEvent? {
    var event = SDL_Event()
    guard SDL_WaitEventTimeout(&event, Int32(milliseconds)) != 0 else { return nil }
    return translate(event)
  }

  /// The next event already queued, without waiting; nil when there is none.
  public func pollEvent() -> WindowEvent? {
    var event = SDL_Event()
    guard SDL_PollEvent(&event) != 0 else { return nil }
    return translate(event)
  }

  func translate(_ event: SDL_Event) -> WindowEvent {
    switch SDL_EventType(event.type) {
    case SDL_QUIT:
      return .quit
    case SDL_WINDOWEVENT:
      switch SDL_WindowEventID(UInt32(event.window.event)) {
      case SDL_WINDOWEVENT_SIZE_CHANGED: return .resized
      case SDL_WINDOWEVENT_FOCUS_LOST, SDL_WINDOWEVENT_HIDDEN, SDL_WINDOWEVENT_MINIMIZED: return .focusLost
      case SDL_WINDOWEVENT_EXPOSED: return .exposed
      default: return .other
      }
    case SDL_MOUSEBUTTONDOWN where event.button.button == UInt8(SDL_BUTTON_LEFT):
      return .pointer(.down, id: 0, touch: false, x: Double(event.button.x), y: Double(event.button.y))
    case SDL_MOUSEMOTION:
      return .pointer(.move, id: 0, touch: false, x: Double(event.motion.x), y: Double(event.motion.y))
    case SDL_MOUSEBUTTONUP where event.button.button == UInt8(SDL_BUTTON_LEFT):
      return .pointer(.up, id: 0, touch: false, x: Double(event.button.x), y: Double(event.button.y))
    case SDL_MOUSEWHEEL:
      let w = event.wheel
      let flip = w.direction == SDL_MOUSEWHEEL_FLIPPED.rawValue ? -1.0 : 1.0
      let dx = Double(w.preciseX) * flip, dy = Double(w.preciseY) * flip
      // SDL reports notches as whole numbers; a touchpad or smooth wheel gives fractions.
      let precise = dx != dx.rounded() || dy != dy.rounded()
      let (x, y) = mousePosition
      return .wheel(dx: dx, dy: dy, precise: precise, x: x, y: y)
    case SDL_FINGERDOWN, SDL_FINGERMOTION, SDL_FINGERUP:
      // Fingers come in fractions of the window.
      let (w, h) = size
      let phase: WindowEvent.Phase =
        event.type == SDL_FINGERDOWN.rawValue ? .down : (event.type == SDL_FINGERUP.rawValue ? .up : .move)
      return .pointer(
        phase, id: Int(truncatingIfNeeded: event.tfinger.fingerId), touch: true, x: Double(event.tfinger.x) * Double(w),
        y: Double(event.tfinger.y) * Double(h))
    case SDL_KEYDOWN, SDL_KEYUP:
      guard let key = Self.key(event.key.keysym.sym) else { return .other }
      let mod = UInt32(event.key.keysym.mod)
      var modifiers: WindowEvent.Modifiers = []
      if mod & UInt32(KMOD_SHIFT.rawValue) != 0 { modifiers.insert(.shift) }
      if mod & UInt32(KMOD_CTRL.rawValue) != 0 { modifiers.insert(.control) }
      if mod & UInt32(KMOD_ALT.rawValue) != 0 { modifiers.insert(.alt) }
      return .key(key, modifiers, isDown: event.type == SDL_KEYDOWN.rawValue, isRepeat: event.key.repeat != 0)
    case SDL_DROPBEGIN:
      droppedFiles = []
      return .other
    case SDL_DROPFILE:
      if let file = event.drop.file {
        droppedFiles.append(String(cString: file))
        SDL_free(file)
      }
      return .other
    case SDL_DROPCOMPLETE:
      let files = droppedFiles
      droppedFiles = []
      guard !files.isEmpty else { return .other }
      let (x, y) = mousePosition
      return .filesDropped(files, x: x, y: y)
    case SDL_CONTROLLERSENSORUPDATE where event.csensor.sensor == SDL_SENSOR_GYRO.rawValue:
      let d = event.csensor.data
      return .gyro(x: Double(d.0), y: Double(d.1), z: Double(d.2))
    default:
      return .other
    }
  }

  /// Where the mouse pointer is, in window points.
  public var mousePosition: (x: Double, y: Double) {
    var x: Int32 = 0, y: Int32 = 0
    SDL_GetMouseState(&x, &y)
    return (Double(x), Double(y))
  }

  /// SDL's key symbols, named as the app's key table names them.
  static func key(_ sym: SDL_Keycode) -> WindowEvent.Key? {
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

/// SDL's high-resolution counter as seconds since this clock was made.
public struct PerformanceClock: Sendable {
  let start: UInt64
  let frequency: Double

  public init() {
    start = SDL_GetPerformanceCounter()
    frequency = Double(SDL_GetPerformanceFrequency())
  }

  /// Seconds since `init`.
  public var seconds: Double { Double(SDL_GetPerformanceCounter() - start) / frequency }
}

/// The first game controller with a gyroscope, its gyroscope switched on: its readings come
/// as `WindowEvent.gyro`. Owns the controller; `deinit` closes it.
public final class GyroController {
  let controller: OpaquePointer

  /// Opens the first controller that has a gyroscope; nil when none has (or none is there).
  /// Call after the window opened (that starts SDL's game controller subsystem).
  public init?() {
    for i in 0..<SDL_NumJoysticks() where SDL_IsGameController(i) == SDL_TRUE {
      guard let gc = SDL_GameControllerOpen(i) else { continue }
      if SDL_GameControllerHasSensor(gc, SDL_SENSOR_GYRO) == SDL_TRUE {
        SDL_GameControllerSetSensorEnabled(gc, SDL_SENSOR_GYRO, SDL_TRUE)
        controller = gc
        return
      }
      SDL_GameControllerClose(gc)
    }
    return nil
  }

  deinit { SDL_GameControllerClose(controller) }
}
