import Stage

// The scene layer builds its boards and indices itself, so the engine's refusals (which
// guard against a host's bad data) cannot happen here; these say so once, with a message,
// instead of `try!` at every call.
extension Engine {
  /// An engine for options known to be valid (a preset's, or a running engine's).
  init(checked board: Board, options: Options) {
    do { try self.init(board: board, options: options) } catch { preconditionFailure("scene engine: \(error)") }
  }

  /// Changes one of the options: a switch the scene flips (swaps, reduced motion, the undo
  /// hint), never a number, so the check ``setOptions(_:)`` makes cannot fail.
  mutating func updateOptions(_ change: (inout Options) -> Void) {
    var options = self.options
    change(&options)
    do { try setOptions(options) } catch { preconditionFailure("scene options: \(error)") }
  }

  /// `relayoutItem` for an item index and frame the scene computed.
  mutating func relayoutItem(checked i: Int, frame: StageRect) {
    do { try relayoutItem(i, frame: frame) } catch { preconditionFailure("scene layout: \(error)") }
  }

  /// The name the user reads for a slot of this board.
  func label(slot s: Int) -> String { (try? slotName(s)) ?? "" }
  /// The name the user reads for an item of this board.
  func label(item i: Int) -> String { (try? itemName(i)) ?? "" }
}

extension Board {
  /// `place` for indices the scene took from this board.
  mutating func place(checked item: Int, on slot: Int?) {
    do { try place(item: item, on: slot) } catch { preconditionFailure("scene board: \(error)") }
  }
}
