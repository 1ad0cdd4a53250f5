import Stage

extension BoardScene {
  /// Appends what the board draws: slots with their highlight, labels, items (lifted while
  /// held), ghosts, the Clear button, the status line and the last announcement.
  public func draw(into list: inout DisplayList, focus: BoardFocus?) {
    let board = engine.board
    // An icon over an insertion zone goes between shortcuts, onto none of them.
    let highlighted = insertion == nil ? Set(engine.highlightedSlots) : []
    let slide = dockOffsets
    let sorted = dockHeld
    let shown = kind == .shortcuts ? dockPreview : []
    let small = board.slots.first.map { $0.frame.size.width < 40 } ?? false
    let draggedOut = Set(engine.draggedOutSlots)
    let held = engine.heldItems
    let refused = refusedSlot(held: held, highlighted: highlighted)
    // Rounded corners cost a draw call per corner row: none on boards of tiny slots.
    let radius = small ? 0 : (kind == .shortcuts ? 10.0 : 6.0)
    // Shortcut icons go over every slot: one sliding to a later slot was hidden under its fill.
    var icons: [(ShortcutIcon, StageRect, Double)] = []
    for (s, slot) in board.slots.enumerated() {
      var fill = kind == .locations ? Palette.slot : Palette.shortcutSlot
      var border = Palette.slotBorder
      var width = 1.0
      if highlighted.contains(s) {
        let swaps = kind == .locations && held.contains { engine.board.items[$0].slot != s } && isFull(s)
        (fill, border, width) = swaps ? (Palette.swap, Palette.swapBorder, 3) : (Palette.highlight, Palette.highlightBorder, 3)
      } else if refused == s {
        (fill, border, width) = (Palette.refuse, Palette.refuseBorder, 3)
      }
      list.fill(slot.frame, fill, radius: radius)
      list.outline(slot.frame, border, width: width, radius: radius)
      if kind == .shortcuts, sorted?.slot != s, let content = slot.content,
        let icon = ShortcutIcon.all.first(where: { $0.id == content })
      {
        let d = slide[s] ?? Vector(dx: 0, dy: 0)
        let inner = slot.frame.insetBy(slot.frame.size.width * 0.12).offsetBy(dx: d.dx, dy: d.dy)
        icons.append((icon, inner, draggedOut.contains(s) ? 0.3 : 1))
      }
      guard !small else { continue }
      let label: String
      if kind == .locations {
        label = "location #\(slot.id)"
      } else {
        label =
          "\(engine.label(slot: s)): "
          + (shown[s].flatMap { c in board.itemIndex(of: c).map(engine.label(item:)) } ?? "empty")
      }
      // As wide as the slot's cell, on two lines when one is not enough ("Shortcut 1:" over
      // "empty"): a label cut at the slot's own width read "Shortcut 1: em…" with room to spare.
      list.wrappedText(
        label, slot.frame.center.x, slot.frame.maxY + 3, size: 13, lineHeight: 15, color: Palette.secondaryText,
        align: .center, maxWidth: max(labelWidth, slot.frame.size.width), maxLines: 2)
    }
    for (icon, r, opacity) in icons { drawIcon(icon, in: r, opacity: opacity, into: &list) }
    // One line saying what to do, written for the width there is (a cut sentence says less).
    let hints: [String] =
      kind == .shortcuts
      ? ["Drag an icon onto a shortcut; drag a shortcut away to remove it", "Drag icons onto shortcuts"]
      : board.items.count == 1
        ? ["Drag the photo to another location: it snaps to one within 50 pt", "Drag the photo to a location"]
        : ["Drag a photo to another location: it snaps to one within 50 pt", "Drag photos to locations"]
    let hint = hints.first { TextLayout.fits($0, width: area.size.width, size: 13) } ?? hints[hints.count - 1]
    list.text(hint, area.minX, area.minY - Self.hintGap, size: 13, color: Palette.secondaryText, maxWidth: area.size.width)
    if kind == .shortcuts {
      if let clear = clearButton {
        list.fill(clear, Palette.button, radius: 6)
        list.outline(clear, Palette.slotBorder, radius: 6)
        list.text(touchFirst ? "Clear all" : "Clear all (C)", clear.center.x, clear.minY + 9, size: 15, align: .center)
      }
    }
    for i in board.zOrder where !held.contains(i) { drawItem(i, lifted: false, small: small, into: &list) }
    for i in held { drawItem(i, lifted: true, small: small, into: &list) }
    if let sorted, let content = board.slots[sorted.slot].content,
      let icon = ShortcutIcon.all.first(where: { $0.id == content })
    {
      // Lifted under the finger, as a held item is.
      let f = sorted.frame.insetBy(sorted.frame.size.width * 0.12)
      let r = StageRect(center: f.center, size: StageSize(width: f.size.width * 1.06, height: f.size.height * 1.06))
      list.commands.append(.shadow(r.offsetBy(dx: 0, dy: 6), radius: 12, opacity: 0.4))
      drawIcon(icon, in: r, opacity: 1, into: &list)
    }
    for ghost in engine.ghosts {
      let item = board.items[ghost.item]
      let r = StageRect(center: ghost.center, size: StageSize(width: item.size.width * 1.06, height: item.size.height * 1.06))
      list.commands.append(.shadow(r.offsetBy(dx: 0, dy: 5), radius: 10, opacity: 0.35))
      if let icon = ShortcutIcon.all.first(where: { $0.id == item.id }) {
        drawIcon(icon, in: r, opacity: 0.85, into: &list)
      } else {
        list.commands.append(.image(.photo(item.id), r, opacity: 0.85))
      }
    }
    // Smaller rather than cut where the Undo and Redo buttons leave less room (a phone).
    let status = dockStatus ?? engine.status
    let statusSize = TextLayout.fits(status, width: footerTextWidth, size: 20) ? 20.0 : 15.0
    list.text(status, area.minX, footerTop + 8 + (20 - statusSize) / 2, size: statusSize, maxWidth: footerTextWidth)
    if let b = undoButtons {
      for (r, label) in [(b.undo, "Undo"), (b.redo, "Redo")] {
        list.fill(r, Palette.button, radius: 6)
        list.outline(r, Palette.slotBorder, radius: 6)
        list.text(label, r.center.x, r.minY + 13, size: 15, align: .center)
      }
    }
    if let announcement {
      // Two lines where one is too short (a phone): "Press …" was all that was left of the end.
      list.wrappedText(
        announcement.text, area.minX, footerTop + 34, size: 14, lineHeight: 17, color: RGBA(70, 80, 100),
        maxWidth: footerTextWidth, maxLines: 2)
    }
    if let focus { list.commands.append(.focusRing(frame(of: focus).insetBy(-4))) }
    list.cursor = cursor(at: hoverAt)
  }

  func drawItem(_ i: Int, lifted: Bool, small: Bool, into list: inout DisplayList) {
    let item = engine.board.items[i]
    var r = item.frame
    if lifted {
      // Lifted: a little larger, with a shadow below (what a finger picking it up expects).
      r = StageRect(center: r.center, size: StageSize(width: r.size.width * 1.06, height: r.size.height * 1.06))
      list.commands.append(.shadow(r.offsetBy(dx: 0, dy: 6), radius: 12, opacity: 0.4))
    }
    if kind == .shortcuts, let icon = ShortcutIcon.all.first(where: { $0.id == item.id }) {
      drawIcon(icon, in: r, opacity: 1, into: &list)
      if !small {
        list.text(engine.label(item: i), r.center.x, r.maxY + 3, size: 13, color: Palette.secondaryText, align: .center)
      }
    } else {
      list.commands.append(.image(.photo(item.id), r, opacity: 1))
      if engine.board.items.count > 1 && !small {
        // White on a dark band: white alone vanished on light photos.
        list.fill(StageRect(x: r.minX, y: r.maxY - 22, width: r.size.width, height: 22), Palette.caption)
        list.text(
          engine.label(item: i), r.center.x, r.maxY - 19, size: 12, color: Palette.white, align: .center,
          maxWidth: r.size.width - 6)
      }
    }
  }

  func drawIcon(_ icon: ShortcutIcon, in r: StageRect, opacity: Double, into list: inout DisplayList) {
    list.commands.append(.image(.icon(icon.id), r, opacity: opacity))
    let size = (r.size.height * 0.5).rounded()
    list.text(icon.letter, r.center.x, r.center.y - size * 0.62, size: size, color: Palette.white, align: .center)
  }

  func isFull(_ s: Int) -> Bool {
    let n = engine.board.items.reduce(0) { $0 + ($1.slot == s ? 1 : 0) }
    return n >= engine.board.slots[s].capacity
  }

  /// A slot the held item is over that will not take it (no highlight there): shown red, so
  /// a drop that goes home is not a surprise.
  func refusedSlot(held: [Int], highlighted: Set<Int>) -> Int? {
    guard kind == .locations, let i = held.first, highlighted.isEmpty else { return nil }
    let c = engine.board.items[i].center
    return engine.board.slots.indices.first { engine.board.slots[$0].frame.contains(c) && engine.board.items[i].slot != $0 }
  }
}

extension StageRect {
  func offsetBy(dx: Double, dy: Double) -> StageRect {
    StageRect(x: minX + dx, y: minY + dy, width: size.width, height: size.height)
  }
}
