import Panorama
import Stage
import StageFiles
import StageSDL

/// The Locations (seed 000) and Shortcuts (seed 001) boards: an engine, its layout in the
/// window, and how it is drawn. Input flows in through `handle`, state flows out to `draw`.
final class BoardScene {
  let preset: Preset
  private(set) var engine: Engine
  let slotCount: Int
  let itemCount: Int
  var announcement = ""
  var message = ""
  /// Frames of the on-screen buttons (Shortcuts' Clear).
  var clearButton = Rect(x: 0, y: 0, width: 0, height: 0)
  private var textures: [String: Texture] = [:]
  private var area = Rect(x: 0, y: 0, width: 0, height: 0)

  static let tabHeight = 44.0
  static let footerHeight = 70.0

  /// - Parameters: slots/items: the Locations board's size (the seed has 6 and 1).
  init(preset: Preset, window: Window, width: Int, height: Int, slots: Int = 6, items: Int = 1) throws {
    self.preset = preset
    slotCount = preset == .locations ? max(1, slots) : 4
    itemCount = preset == .locations ? min(max(1, items), slotCount) : Assets.icons.count
    let placeholder = Rect(x: 0, y: 0, width: 1, height: 1)
    let slotList = (0..<slotCount).map { i in
      Slot(id: preset == .locations ? String(i) : "slot\(i + 1)", frame: placeholder)
    }
    let itemList: [Item]
    let placement: [String?]
    if preset == .locations {
      itemList = (0..<itemCount).map { Item(id: $0 == 0 ? "photo" : "photo\($0)", frame: placeholder) }
      placement = (0..<itemCount).map { String($0) }
    } else {
      itemList = Assets.icons.map { Item(id: $0.id, frame: placeholder) }
      placement = itemList.map { _ in nil }
    }
    let board = try Board(
      canvas: Size(width: Double(width), height: Double(height)), slots: slotList, items: itemList, itemSlots: placement)
    engine = Engine(board: board, options: .preset(preset))
    if preset == .locations {
      textures["photo"] = try Texture(window, image: Assets.photo(size: 256))
    } else {
      for icon in Assets.icons {
        textures[icon.id] = try Texture(window, image: Assets.icon(size: 128, color: icon.color, letter: icon.letter))
      }
    }
    relayout(width: width, height: height, at: 0)
  }

  /// Numeric ids print as JSON numbers, as in scenarios.
  var numericIDs: Set<String> { preset == .locations ? Set((0..<slotCount).map(String.init)) : [] }

  // MARK: Layout

  /// Lays the board out in a `width`×`height` window (the seed's `viewDidLayoutSubviews`).
  @discardableResult
  func relayout(width: Int, height: Int, at t: Double) -> [StageEvent] {
    let w = Double(width), h = Double(height)
    area = Rect(
      x: 20, y: Self.tabHeight + 16, width: max(w - 40, 10), height: max(h - Self.tabHeight - Self.footerHeight - 24, 10))
    var frames: [SlotFrame] = []
    switch preset {
    case .locations:
      // A grid as square as the area allows; slots fill 80 % of their cells.
      let aspect = area.size.width / area.size.height
      let columns = min(slotCount, max(1, Int((Double(slotCount) * aspect).squareRoot().rounded())))
      let rows = (slotCount + columns - 1) / columns
      let cellW = area.size.width / Double(columns), cellH = area.size.height / Double(rows)
      let side = min(cellW, cellH) * 0.8
      for i in 0..<slotCount {
        let c = Point(x: area.minX + (Double(i % columns) + 0.5) * cellW, y: area.minY + (Double(i / columns) + 0.5) * cellH)
        frames.append(SlotFrame(slot: i, frame: Rect(center: c, size: Size(width: side, height: side))))
      }
      for i in 0..<itemCount {
        engine.relayoutItem(i, frame: Rect(center: .zero, size: Size(width: side * 0.7, height: side * 0.7)))
      }
    case .shortcuts:
      // Palette on the left third, targets in a 2×2 grid on the right.
      let paletteW = area.size.width / 3
      let iconSide = min(paletteW * 0.6, (area.size.height - 20) / Double(itemCount) * 0.75)
      for i in 0..<itemCount {
        let c = Point(x: area.minX + paletteW / 2, y: area.minY + (Double(i) + 0.5) * area.size.height / Double(itemCount))
        engine.relayoutItem(i, frame: Rect(center: c, size: Size(width: iconSide, height: iconSide)))
      }
      let targetsX = area.minX + paletteW + 20, targetsW = area.size.width - paletteW - 20
      let targetsH = area.size.height - 50
      let side = min(targetsW / 2, targetsH / 2) * 0.7
      for i in 0..<slotCount {
        let c = Point(x: targetsX + (Double(i % 2) + 0.5) * targetsW / 2, y: area.minY + (Double(i / 2) + 0.5) * targetsH / 2)
        frames.append(SlotFrame(slot: i, frame: Rect(center: c, size: Size(width: side, height: side))))
      }
      clearButton = Rect(x: area.maxX - 130, y: area.maxY - 40, width: 130, height: 36)
    }
    return engine.handle(.layout(frames, canvas: Size(width: w, height: h)), at: t)
  }

  /// The `layout` event line: window size, every slot's and item's frame.
  func layoutLine(window: (width: Int, height: Int), lines: EventLines) -> String {
    func frame(_ r: Rect) -> String {
      "[\(JSONText.number(r.minX)),\(JSONText.number(r.minY)),\(JSONText.number(r.size.width)),\(JSONText.number(r.size.height))]"
    }
    let slots = engine.board.slots.map {
      "{\"id\":\(lines.id($0.id)),\"frame\":\(frame($0.frame)),\"content\":\($0.content.map(lines.id) ?? "null")}"
    }
    let items = engine.board.items.map { "{\"id\":\(lines.id($0.id)),\"frame\":\(frame($0.frame))}" }
    return
      "{\"type\":\"layout\",\"scene\":\"\(preset.rawValue)\",\"window\":{\"width\":\(window.width),\"height\":\(window.height)},\"slots\":[\(slots.joined(separator: ","))],\"items\":[\(items.joined(separator: ","))]}"
  }

  // MARK: Input

  func handle(_ input: Input, at t: Double) -> [StageEvent] {
    if case .pointer(.down, _, let p) = input, preset == .shortcuts, clearButton.contains(p) {
      return note(engine.handle(.clearContents, at: t))
    }
    return note(engine.handle(input, at: t))
  }

  func advance(to t: Double) { _ = engine.advance(to: t) }

  /// Restores saved contents (Shortcuts).
  func restore(_ bytes: [UInt8], file: String) throws(InputError) {
    var board = engine.board
    try SavedState.apply(bytes, to: &board, file: file)
    let options = engine.options
    engine = Engine(board: board, options: options)
  }

  private func note(_ events: [StageEvent]) -> [StageEvent] {
    for e in events { if case .announce(let text) = e { announcement = text } }
    return events
  }

  var isIdle: Bool { engine.isIdle }

  // MARK: Drawing

  func draw(_ window: Window) {
    let highlighted = Set(engine.highlightedSlots)
    let small = engine.board.slots.first.map { $0.frame.size.width < 40 } ?? false
    for (i, slot) in engine.board.slots.enumerated() {
      let r = pixel(slot.frame)
      if highlighted.contains(i) {
        window.fill(r, Color(255, 224, 130))
      } else {
        window.fill(r, preset == .locations ? Color(226, 230, 236) : Color(210, 212, 218))
      }
      window.outline(
        r, highlighted.contains(i) ? Color(230, 150, 20) : Color(150, 156, 166), thickness: highlighted.contains(i) ? 3 : 1)
      if preset == .shortcuts, let content = slot.content, let texture = textures[content] {
        texture.draw(window, in: pixel(slot.frame.insetBy(slot.frame.size.width * 0.08)))
      }
      if !small {
        let label = preset == .locations ? "location #\(slot.id)" : (slot.content == nil ? "empty" : slot.content!)
        window.text(label, x: slot.frame.center.x, y: slot.frame.maxY + 2, size: 13, color: Color(90, 96, 106), centered: true)
      }
    }
    if preset == .shortcuts {
      window.text("Drag a shortcut onto a slot", x: area.minX, y: area.minY - 14, size: 13, color: Color(90, 96, 106))
      window.fill(pixel(clearButton), Color(236, 238, 242))
      window.outline(pixel(clearButton), Color(150, 156, 166))
      window.text("Clear (C)", x: clearButton.center.x, y: clearButton.minY + 8, size: 15, centered: true)
    }
    for i in engine.board.zOrder {
      let item = engine.board.items[i]
      let texture = preset == .locations ? textures["photo"] : textures[item.id]
      texture?.draw(window, in: pixel(item.frame))
      if preset == .locations && itemCount > 1 && !small {
        window.text(
          item.id, x: item.frame.center.x, y: item.frame.center.y - 8, size: 12, color: Color(255, 255, 255), centered: true)
      }
    }
    for ghost in engine.ghosts {
      let item = engine.board.items[ghost.item]
      textures[item.id]?.draw(window, in: pixel(Rect(center: ghost.center, size: item.size)), alpha: 180)
    }
    let h = engine.board.canvas.height
    window.text(engine.status, x: 20, y: h - Self.footerHeight + 8, size: 20)
    window.text(
      message.isEmpty ? announcement : message, x: 20, y: h - Self.footerHeight + 38, size: 14,
      color: message.isEmpty ? Color(70, 80, 100) : Color(190, 40, 40))
  }

  func pixel(_ r: Rect) -> PixelRect { PixelRect(x: r.minX, y: r.minY, w: r.size.width, h: r.size.height) }
}
