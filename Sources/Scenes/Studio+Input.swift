import Panorama
import Stage

extension Studio {
  /// Applies one host-neutral input at host time `t` (seconds, never going back).
  public mutating func handle(_ input: SceneInput, at t: Double) -> [SceneEvent] {
    switch input {
    case .pointer(let phase, let id, _, let p):
      return pointer(phase, id: id, at: p, time: t)
    case .wheel(let dx, let dy, let precise, _):
      guard active == .panorama else { return [] }
      panorama?.update { $0.wheel(dx: dx, dy: dy, precise: precise) }
      return []
    case .pinch(let scale, _):
      guard active == .panorama, scale > 0 else { return [] }
      panorama?.update { $0.zoom(by: 1 / scale) }
      return []
    case .key(let key, let modifiers, let isDown, let isRepeat):
      return self.key(key, modifiers, isDown: isDown, isRepeat: isRepeat, at: t)
    case .motion(let sample):
      panorama?.update { $0.feed(sample) }
      return []
    case .focusLost:
      return cancelDrags(at: t)
    }
  }

  mutating func pointer(_ phase: PointerPhase, id: Int, at p: StagePoint, time t: Double) -> [SceneEvent] {
    if phase == .down {
      // A pointer press hides the keyboard's focus ring, as :focus-visible does.
      focus = nil
      if p.y < Self.tabHeight {
        for kind in SceneKind.allCases where tabFrame(kind).contains(p) { return show(kind, at: t) }
        return []
      }
      if message != nil, dismissFrame.insetBy(-4).contains(p) {
        dismissMessage()
        return []
      }
    }
    switch active {
    case .panorama:
      if panorama?.controlsPointer(phase, id: id, at: p) == true { return [] }
      panorama?.update { $0.pointer(phase, id: id, at: p, time: t) }
      return tourClick(phase, id: id, at: p)
    case let kind:
      return boardInput(kind) { $0.pointer(phase, id: id, at: p, time: t) }
    }
  }

  mutating func key(_ key: KeyName, _ modifiers: Modifiers, isDown: Bool, isRepeat: Bool, at t: Double) -> [SceneEvent] {
    guard let action = KeyBindings.action(for: key, modifiers, in: active) else { return [] }
    if case .turn(let direction) = action {
      // Arrows on a focused tab move between tabs (the ARIA tabs pattern), not the camera.
      if case .tab = focus, isDown { return tabArrow(direction, at: t) }
      if !isRepeat { panorama?.update { $0.turnKey(direction, isDown: isDown) } }
      return []
    }
    guard isDown else { return [] }
    let repeats: Bool
    switch action {
    case .zoomIn, .zoomOut, .focusNext, .focusPrevious, .move, .undo, .redo, .stepFrames, .skip: repeats = true
    default: repeats = false
    }
    if isRepeat && !repeats { return [] }
    return perform(action, at: t)
  }

  /// Does what `action` means in the scene shown.
  public mutating func perform(_ action: Action, at t: Double) -> [SceneEvent] {
    switch action {
    case .showScene(let kind): return show(kind, at: t)
    case .focusNext: return moveFocus(by: 1, at: t)
    case .focusPrevious: return moveFocus(by: -1, at: t)
    case .activate: return activate(at: t)
    case .cancel: return cancel(at: t)
    case .move(let key):
      if case .tab = focus { return tabArrow(key, at: t) }
      guard active.isBoard else { return [] }
      return boardInput(active) { $0.handle(.key(key), at: t) }
    case .undo, .redo:
      guard active.isBoard else { return [] }
      return boardInput(active) { $0.handle(.key(action == .undo ? .undo : .redo), at: t) }
    case .clearAll:
      guard active == .shortcuts else { return [] }
      return boardInput(.shortcuts) { $0.handle(.clearContents, at: t) }
    case .removeFocused:
      guard active == .shortcuts, case .board(.slot(let s)) = focus else { return [] }
      return boardInput(.shortcuts) { $0.removeContent(of: s, at: t) }
    case .zoomIn: panorama?.update { $0.zoom(by: 0.9) }
    case .zoomOut: panorama?.update { $0.zoom(by: 1 / 0.9) }
    case .cycleMode:
      guard panorama?.video == nil else {
        return [.announce(Announcement("The strip view is for still panoramas: a video plays in perspective.", .assertive))]
      }
      panorama?.update { $0.cycleMode() }
    case .togglePlayback:
      // Space on a tab or the message's close button presses it, as everywhere.
      switch focus {
      case .tab, .dismissMessage: return activate(at: t)
      default: break
      }
      guard panorama?.video != nil else { return activate(at: t) }
      var playing = false
      panorama?.updateVideo {
        $0.togglePlay()
        playing = $0.isPlaying
      }
      return [.announce(Announcement(playing ? "Playing." : "Paused.", .assertive))]
    case .stepFrames(let n):
      panorama?.updateVideo { $0.step(frames: n) }
    case .skip(let seconds):
      panorama?.updateVideo { $0.skip(by: seconds) }
    case .cycleLens: panorama?.update { $0.cycleLens() }
    case .recenter: panorama?.update { $0.recenter() }
    case .toggleLevelHorizon:
      var on = false
      panorama?.update {
        $0.levelsHorizon.toggle()
        on = $0.levelsHorizon
      }
      guard panorama != nil else { return [] }
      return [
        .announce(
          Announcement(on ? "Horizon kept level: the device's roll is ignored." : "The view rolls with the device again."))
      ]
    case .turn(let key): panorama?.update { $0.turnKey(key, isDown: true) }
    case .screenshot: return [.request(.screenshot)]
    case .quit: return [.request(.quit)]
    }
    return []
  }

  // MARK: Focus

  /// Tab order: the scene's own items, slots and buttons (the panorama: its view), the
  /// message's close button, then the tabs.
  public var focusOrder: [Focus] {
    var order: [Focus] = active.isBoard ? board(active).focusOrder.map(Focus.board) : (panorama != nil ? [.view] : [])
    if message != nil { order.append(.dismissMessage) }
    return order + SceneKind.allCases.map(Focus.tab)
  }

  /// Where the focus ring of `focus` goes.
  public func frame(of focus: Focus) -> StageRect {
    switch focus {
    case .tab(let kind): tabFrame(kind)
    case .board(let f): active.isBoard ? board(active).frame(of: f) : StageRect(x: 0, y: 0, width: 0, height: 0)
    case .dismissMessage: dismissFrame
    case .view: panorama?.frame ?? contentFrame
    }
  }

  /// Whether Tab (`forward`) or Shift+Tab would go past the end of the focus order. A host
  /// with other focusable things around the scene (a web page) lets the key leave instead,
  /// so keyboard users are never trapped (WCAG 2.1.2), after `releaseFocus()`.
  public func focusLeaves(forward: Bool) -> Bool {
    if active.isBoard, board(active).engine.keyboardHeldItem != nil { return false }
    let order = focusOrder
    guard let focus, let k = order.firstIndex(of: focus) else { return false }
    return forward ? k == order.count - 1 : k == 0
  }

  /// Gives the keyboard focus up (it went to something outside the scene).
  public mutating func releaseFocus() {
    focus = nil
    if active.isBoard { withBoard(active) { $0.focusItem(nil) } }
  }

  mutating func moveFocus(by step: Int, at t: Double) -> [SceneEvent] {
    // While an image is held by the keyboard, Tab would strand it: the engine holds focus.
    if active.isBoard, board(active).engine.keyboardHeldItem != nil { return [] }
    let order = focusOrder
    guard !order.isEmpty else { return [] }
    let next: Int
    if let focus, let k = order.firstIndex(of: focus) {
      next = (k + step + order.count) % order.count
    } else {
      next = step > 0 ? 0 : order.count - 1
    }
    return setFocus(order[next])
  }

  mutating func setFocus(_ f: Focus) -> [SceneEvent] {
    focus = f
    let text: String
    switch f {
    case .tab(let kind):
      let n = SceneKind.allCases.firstIndex(of: kind)! + 1
      text = "\(kind.title) tab, \(n) of \(SceneKind.allCases.count)\(kind == active ? ", selected" : "")."
    case .board(let bf):
      if case .item(let i) = bf { withBoard(active) { $0.focusItem(i) } }
      text = board(active).describe(bf)
    case .dismissMessage:
      text = "Dismiss the message, button."
    case .view:
      text = "Panorama view: the arrows turn it, plus and minus zoom, L changes the lens, R recentres."
    }
    let a = Announcement(text, .assertive)
    if active.isBoard { withBoard(active) { $0.announce(a) } }
    return [.announce(a)]
  }

  mutating func tabArrow(_ key: Key, at t: Double) -> [SceneEvent] {
    guard case .tab(let kind) = focus, key == .left || key == .right else { return [] }
    let all = SceneKind.allCases
    let next = all[(all.firstIndex(of: kind)! + (key == .right ? 1 : all.count - 1)) % all.count]
    return show(next, at: t) + setFocus(.tab(next))
  }

  mutating func activate(at t: Double) -> [SceneEvent] {
    switch focus {
    case .tab(let kind):
      return show(kind, at: t)
    case .dismissMessage:
      dismissMessage()
      return [.announce(Announcement("Message dismissed."))]
    case .view:
      return []
    case .board(.clearButton):
      return boardInput(.shortcuts) { $0.handle(.clearContents, at: t) }
    case .board(.undoButton), .board(.redoButton):
      guard active.isBoard else { return [] }
      let undo = focus == .board(.undoButton)
      return boardInput(active) { $0.handle(.key(undo ? .undo : .redo), at: t) }
    case .board(.slot(let s)):
      guard active.isBoard else { return [] }
      // Over a slot, Space drops what the keyboard holds; otherwise it reads the slot.
      if board(active).engine.keyboardHeldItem != nil { return boardInput(active) { $0.handle(.key(.space), at: t) } }
      return [.announce(Announcement(board(active).describe(.slot(s)), .assertive))]
    case .board(.item), nil:
      guard active.isBoard else { return [] }
      return boardInput(active) { $0.handle(.key(.space), at: t) }
    }
  }

  mutating func cancel(at t: Double) -> [SceneEvent] {
    if active.isBoard {
      let b = board(active)
      if b.engine.isPointerDragging { return boardInput(active) { $0.handle(.cancelAll, at: t) } }
      if b.engine.keyboardHeldItem != nil { return boardInput(active) { $0.handle(.key(.escape), at: t) } }
    } else {
      var stopped = false
      panorama?.update {
        $0.releaseAll()
        stopped = $0.stopReplay()
      }
      // Escape stops a motion-log replay (it loops forever otherwise).
      if stopped { return [.announce(Announcement("Replay stopped.", .assertive))] }
    }
    if message != nil {
      dismissMessage()
      return [.announce(Announcement("Message dismissed."))]
    }
    // Escape on a tab gives the arrows back to the scene (the view, on the Panorama tab):
    // a keyboard user who pressed Tab once could no longer pan.
    if case .tab = focus {
      if active == .panorama, panorama != nil { return setFocus(.view) }
      releaseFocus()
      return [.announce(Announcement("Back to the \(active.title) board.", .assertive))]
    }
    return []
  }
}
