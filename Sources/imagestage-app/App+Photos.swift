import HostIO
import Panorama
import Scenes
import Stage
import StageSDL

/// The images the display list names (photos, shortcut icons) and their textures, each
/// made on first draw. Generated photos share one image, and so one texture: a board of
/// 1 000 generated photos makes one texture, not 1 000.
struct ImageTextures {
  /// Photo item id → the image it shows.
  var photoImages: [String: RGBAImage] = [:]
  /// Photo item id → the key its texture is shared under (the id itself when absent).
  var sharedKeys: [String: String] = [:]
  var photoTextures: [String: Texture] = [:]
  var textures: [ImageID: Texture] = [:]

  /// A generated photo: one image and one texture for all of them.
  mutating func addGenerated(id: String, image: RGBAImage) {
    photoImages[id] = image
    sharedKeys[id] = "generated"
  }

  /// The texture for a photo or an icon (not the panorama: `PanoramaPicture` has it); nil
  /// when there is no such image or SDL refuses the texture.
  mutating func texture(for id: ImageID, in window: Window) -> Texture? {
    if let t = textures[id] { return t }
    let image: RGBAImage?
    switch id {
    case .photo(let name):
      let key = sharedKeys[name] ?? name
      if let shared = photoTextures[key] {
        textures[id] = shared
        return shared
      }
      guard let photo = photoImages[name], let t = try? Texture(window, image: photo) else { return nil }
      photoTextures[key] = t
      textures[id] = t
      return t
    case .icon(let name): image = ShortcutIcon.all.first { $0.id == name }.map { DefaultArt.tile(size: 128, color: $0.color) }
    case .panorama: image = nil
    }
    guard let image, let t = try? Texture(window, image: image) else { return nil }
    textures[id] = t
    return t
  }
}

extension App {
  /// Photos dropped on the Locations tab at `point`: each that reads becomes an item there;
  /// the others are named in a message.
  func addPhotos(_ paths: [String], at point: StagePoint) {
    var photos: [Photo] = []
    var problems: [String] = []
    for path in paths {
      do {
        let p = try PhotoFolder.loadOne(path)
        photos.append(p.photo)
        images.photoImages[p.photo.id] = p.image
      } catch {
        problems.append("\(fileName(path)): \(error)")
      }
    }
    emit(studio.addPhotos(photos, droppedAt: point, at: now))
    // Ids may have been made unique: map each new item to its image by position.
    let items = studio.locations.engine.board.items
    for (k, p) in photos.enumerated() {
      let item = items[items.count - photos.count + k]
      if item.id != p.id { images.photoImages[item.id] = images.photoImages[p.id] }
    }
    if !problems.isEmpty { studio.showMessage(problems.joined(separator: " · "), in: .locations) }
  }
}
